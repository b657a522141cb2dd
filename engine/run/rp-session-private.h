/* rp-session-private.h: what the session's own files share: its fields. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <sys/types.h>

#include "rp-part-host.h"
#include "rp-session.h"

G_BEGIN_DECLS

/* The owner hears about new samples at most this often (docs/ARCHITECTURE.md: ~20 Hz). */
#define UPDATE_INTERVAL_MS 50

typedef struct {
  const RpWorkerClass *klass;
  gboolean             is_load;
  gboolean             in_baseline;  /* starts with the baseline */
  gpointer             state;
  RpPartHost          *host;           /* the session, or its load host (borrowed) */
  GThread             *thread;
  RpSession           *session;
  gboolean             ended;          /* its thread returned (under the session's lock) */
} Worker;

struct _RpSession
{
  GObject         parent_instance;

  RpScenario     *scenario;
  /* What the parts read (rp_part_host_get_params()): the start thread's
   * resolved copy of @scenario (directory, default sizes), which becomes
   * @scenario once the run starts, so that the owner never sees it change
   * under its feet. */
  RpScenario     *live;
  RpSysinfo      *sysinfo;
  RpSessionState  state;
  GDateTime      *start_time;
  GMainContext   *owner_context;

  /* Monotonic seconds at the start and at the end of the run. */
  double          t0;
  double          t_end;
  /* Seconds from t0 during which only the baseline's parts run. */
  double          baseline;

  /* Set once from any thread; read by workers between calls. */
  gint            stopping;

  GMutex          lock;
  GCond           stop_cond;           /* wakes sleeping workers on stop */
  GError         *error;               /* the first fatal error */
  GPtrArray      *series;              /* RpSeries, in creation order */
  GHashTable     *series_by_name;
  GHashTable     *notes;
  guint64         spare_bytes;         /* for loads without a size: check_free_space() */
  dev_t           target_dev;          /* the target directory at the start, to tell */
  ino_t           target_ino;          /* whether it was removed during the run */
  GSource        *update_source;       /* the one pending "updated", if any */
  gboolean        joined;              /* no more "updated" after "finished" */
  gboolean        stop_scheduled;
  const char     *ended_by;            /* why it stopped, first reason wins: RP_ENDED_BY_* */
  guint           loads_running;

  /* The loads' view of the run when they write to a folder of their own
   * (RpScenario.load_directory), else NULL: the loads use the session. */
  RpPartHost     *load_host;
  RpCallRegistry *calls;               /* timed calls in flight and their stalls */
  GPtrArray      *workers;             /* Worker, owned by the session */
  GSource        *duration_source;
  GPtrArray      *stop_waiters;        /* GTask of rp_session_stop_async() */

  /* A stop within a bound, whatever the file system does (issue 33;
   * rp-session-stop.c). Under @lock but @stop_bound. */
  GCond           join_cond;           /* a worker ended, or the closer is done */
  double          stop_asked;          /* rp_clock_now() of the first stop request; 0 none */
  double          stop_bound;          /* seconds from it before stuck threads are abandoned; < 0 waits */
  gboolean        closed;              /* every worker joined and its files closed */
  double          workers_joined_at;   /* rp_clock_now() once every worker thread was joined */
  gboolean        abandoned;           /* the stop gave up waiting on some */
  const char     *closing;             /* the part whose files are being closed */
  const char     *preparing;           /* the part being prepared (start thread) */
  gboolean        start_given_up;      /* the start was answered before its thread ended */
  GTask          *start_task;          /* the owner's start, until it is answered (borrowed) */
  GSource        *start_bound_source;
  /* The start's and the stop's threads, joined in their callbacks
   * (run_in_own_thread() in rp-session.c). */
  GThread        *start_thread;
  GThread        *stop_thread;
};

void rp_session_schedule_update (RpSession            *self);
void rp_session_schedule_stop   (RpSession            *self,
                                 const char           *reason);
void rp_session_part_host_init  (RpPartHostInterface  *iface);

void rp_session_worker_ended    (Worker               *worker);
void rp_session_worker_free     (Worker               *worker);
void rp_session_join_bounded    (RpSession            *self);
void rp_session_bound_start     (RpSession            *self);

G_END_DECLS
