/* rp-session.h: one run: loads and probes on worker threads, their series, the snapshot. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-parts.h"
#include "rp-scenario.h"
#include "rp-series.h"
#include "rp-sysinfo.h"
#include "rp-run-enums.h"

G_BEGIN_DECLS

/**
 * RpSessionState:
 * @RP_SESSION_IDLE: created, not started
 * @RP_SESSION_STARTING: validating, snapshotting, preparing files (worker thread)
 * @RP_SESSION_RUNNING: loads and probes run
 * @RP_SESSION_STOPPING: stop requested; workers finish their current call
 * @RP_SESSION_FINISHED: every worker joined, every file removed
 */
typedef enum {
  RP_SESSION_IDLE,
  RP_SESSION_STARTING,
  RP_SESSION_RUNNING,
  RP_SESSION_STOPPING,
  RP_SESSION_FINISHED,
} RpSessionState;

/* Why a run ended, in the report's "ended_by" note: its duration elapsed,
 * its loads finished, its owner stopped it (Stop, Ctrl-C, SIGTERM), or an
 * error did. */
#define RP_ENDED_BY_DURATION "duration"
#define RP_ENDED_BY_LOADS    "loads"
#define RP_ENDED_BY_REQUEST  "stopped"
#define RP_ENDED_BY_ERROR    "error"
/* Note "true" when the owner's stop came while the run was preparing (before
 * its loads started): what it measured then is a sample or two, not a
 * judgement (the verdict says so, rp-run-summary.c). */
#define RP_NOTE_STOPPED_WHILE_PREPARING "stopped_while_preparing"
/* Notes of the start: the folders of killed runs removed from the target
 * (their names, comma-separated; rp-run-folder.c), and why one could not be
 * removed (a translated sentence). */
#define RP_NOTE_LEFTOVERS_REMOVED "leftovers_removed"
#define RP_NOTE_LEFTOVERS_FAILED  "leftovers_not_removed"
/* Notes of the end, seconds as "%.3f": closing the parts' files once every
 * thread was joined (a closed file may first wait for the writeback of its
 * dirty pages); and, set by the matrix, the whole ending from the stop to
 * "finished", with "true" in ending_drained when the emulated device was
 * switched to full speed at --drain-limit to end it. */
#define RP_NOTE_CLOSE_SECONDS   "close_seconds"
#define RP_NOTE_ENDING_SECONDS  "ending_seconds"
#define RP_NOTE_ENDING_DRAINED  "ending_drained"
/* Notes of a stop that did not wait for every thread (issue 33): the parts
 * whose threads were still stuck in the kernel at the bound (a file system
 * that does not answer: a stopped FUSE daemon, a dead NFS server),
 * comma-separated, e.g. "fsync-probe, seq-writer" or "closing the files of
 * seq-writer"; and the seconds the stop waited for them ("%.3f"). The
 * report's duration ends when the stop was asked, not when it ended. */
#define RP_NOTE_ABANDONED_THREADS "abandoned_threads"
#define RP_NOTE_STOP_WAIT_SECONDS "stop_wait_seconds"
/* rp_session_set_stop_bound()'s default, seconds: far longer than any
 * part takes to see a stop (a sleeping probe at once, a writer after its
 * write()), long enough for a journal commit on a busy disk, short enough
 * that a user or a service manager does not give up first (systemd's
 * TimeoutStopSec is 90 s by default). */
#define RP_SESSION_STOP_BOUND_DEFAULT 20.0

#define RP_TYPE_SESSION (rp_session_get_type ())
G_DECLARE_FINAL_TYPE (RpSession, rp_session, RP, SESSION, GObject)

RpSession        *rp_session_new                  (const RpScenario    *scenario);
const RpScenario *rp_session_get_scenario         (RpSession           *self);
RpSessionState    rp_session_get_state            (RpSession           *self);
const RpSysinfo  *rp_session_get_sysinfo          (RpSession           *self);
const GError     *rp_session_get_error            (RpSession           *self);
GDateTime        *rp_session_get_start_time       (RpSession           *self);
double            rp_session_get_elapsed          (RpSession           *self);
double            rp_session_get_baseline         (RpSession           *self);
double            rp_session_time_from_monotonic  (RpSession           *self,
                                                   double               monotonic_seconds);

void              rp_session_start_async          (RpSession           *self,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean          rp_session_start_finish         (RpSession           *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);
void              rp_session_stop                 (RpSession           *self);
void              rp_session_set_stop_bound       (RpSession           *self,
                                                   double               seconds);
void              rp_session_stop_now             (RpSession           *self);
void              rp_session_stop_async           (RpSession           *self,
                                                   GCancellable        *cancellable,
                                                   GAsyncReadyCallback  callback,
                                                   gpointer             user_data);
gboolean          rp_session_stop_finish          (RpSession           *self,
                                                   GAsyncResult        *result,
                                                   GError             **error);

GPtrArray        *rp_session_get_series           (RpSession           *self);
RpSeries         *rp_session_lookup_series        (RpSession           *self,
                                                   const char          *name);
RpSeries         *rp_session_ensure_series        (RpSession           *self,
                                                   const char          *name,
                                                   const char          *unit,
                                                   const char          *title);
void              rp_session_set_note             (RpSession           *self,
                                                   const char          *key,
                                                   const char          *value);
GHashTable       *rp_session_get_notes            (RpSession           *self);
GPtrArray        *rp_session_get_in_flight        (RpSession           *self,
                                                   double               min_age);
GPtrArray        *rp_session_get_stalls           (RpSession           *self);

G_END_DECLS
