/* rp-session-private.h: what loads and probes (worker threads) may call on their session. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-session.h"

G_BEGIN_DECLS

/**
 * RpWorkerClass:
 * @name: short name for thread names and messages, e.g. "fsync-probe"
 * @prepare: runs on the starting thread before any worker starts; may do I/O
 *   (open files, create the copy source) but must not append samples: the
 *   session clock starts after every worker is prepared. Returns the worker's state, or NULL
 *   with @error set, in which case nothing starts. May be NULL.
 * @run: the worker thread's body. Returns when rp_session_worker_should_stop()
 *   says so, when its work is done, or after rp_session_worker_fail().
 * @free_state: frees what @prepare returned (closing its files). May be NULL.
 *
 * A load or a probe. The session starts one thread per instance.
 */
typedef struct {
  const char *name;
  gpointer  (*prepare)    (RpSession *session, GError **error);
  void      (*run)        (RpSession *session, gpointer state);
  void      (*free_state) (gpointer   state);
} RpWorkerClass;

double    rp_session_worker_now          (RpSession   *self);
gboolean  rp_session_worker_should_stop  (RpSession   *self);
gboolean  rp_session_worker_sleep        (RpSession   *self,
                                          double       seconds);
void      rp_session_worker_fail         (RpSession   *self,
                                          GError      *error);
void      rp_session_worker_load_done    (RpSession   *self);
void      rp_session_worker_changed      (RpSession   *self);
guint64   rp_session_worker_get_spare_bytes (RpSession *self);
int       rp_session_worker_open_tmpfile (RpSession   *self,
                                          int          extra_flags,
                                          GError     **error);

/**
 * RpRateMeter:
 *
 * Turns a running byte count into throughput samples (bytes/s) every @period
 * seconds, appended to @series. Owned by one worker thread; not locked.
 */
typedef struct {
  RpSeries *series;
  double    period;
  double    last_t;
  guint64   last_bytes;
  guint64   bytes;
} RpRateMeter;

void      rp_rate_meter_init  (RpRateMeter *meter,
                               RpSeries    *series,
                               double       period,
                               double       now);
gboolean  rp_rate_meter_add   (RpRateMeter *meter,
                               guint64      bytes,
                               double       now);
void      rp_rate_meter_flush (RpRateMeter *meter,
                               double       now);

G_END_DECLS
