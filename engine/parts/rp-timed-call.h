/* rp-timed-call.h: calls in flight (fsync, write, …) that the stall sampler watches, and the stalls they made. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "rp-stall.h"

G_BEGIN_DECLS

typedef struct _RpCallRegistry RpCallRegistry;
typedef struct _RpTimedCall    RpTimedCall;

/* At most this many stalls are kept per run; later ones are only counted
 * (rp_call_registry_get_dropped()), so a writer stalling for an hour does
 * not grow the report without bound. */
#define RP_CALL_REGISTRY_MAX_STALLS 10000

/* A call is sampled once it has been in flight this long, seconds: shorter
 * calls cost the sampler nothing (issue 18: "past ~20 ms"). */
#define RP_CALL_SAMPLE_AFTER 0.02

/**
 * RpWaitSample:
 * @site: (nullable): where the thread waits: a kernel symbol,
 *   %RP_WAIT_SITE_RUNNING or %RP_WAIT_SITE_UNKNOWN; %NULL: the thread is
 *   gone, nothing to add
 * @source: "stack" or "wchan" (a static string)
 * @blkio_ticks: its delayacct_blkio_ticks (USER_HZ)
 * @blkio_known: whether delay accounting is on
 * @on_cpu: seconds it has run on a CPU (its schedstat)
 * @run_delay: seconds it has waited on a run queue for a CPU (its
 *   schedstat; a wait still going on is added when it ends)
 * @run_delay_known: whether @on_cpu and @run_delay were read
 *
 * One look at a thread, by the sampler's reader.
 */
typedef struct {
  char       *site;
  const char *source;
  guint64     blkio_ticks;
  gboolean    blkio_known;
  double      on_cpu;
  double      run_delay;
  gboolean    run_delay_known;
} RpWaitSample;

/**
 * RpWaitReader:
 * @tid: the thread, or a child process
 * @child: whether @tid is a child process (/proc/PID) rather than a thread
 *   of ours (/proc/self/task/TID)
 * @out_sample: (out caller-allocates): where it waits now
 * @data: the reader's data
 *
 * Reads where @tid waits (the stall sampler's /proc reader).
 */
typedef void (*RpWaitReader) (pid_t         tid,
                              gboolean      child,
                              RpWaitSample *out_sample,
                              gpointer      data);

RpCallRegistry *rp_call_registry_new          (void);
void            rp_call_registry_free         (RpCallRegistry *self);
void            rp_call_registry_set_origin   (RpCallRegistry *self,
                                               double          t0);
RpTimedCall    *rp_call_registry_open         (RpCallRegistry *self);
guint           rp_call_registry_sample       (RpCallRegistry *self,
                                               double          now,
                                               RpWaitReader    reader,
                                               gpointer        data);
gboolean        rp_call_registry_any_in_flight (RpCallRegistry *self,
                                               double          now,
                                               double          min_age);
gboolean        rp_call_registry_next_due     (RpCallRegistry *self,
                                               double          now,
                                               double         *out_wait);
gboolean        rp_call_registry_wait_for_call (RpCallRegistry *self,
                                               double          timeout);
GPtrArray      *rp_call_registry_get_in_flight (RpCallRegistry *self,
                                               double          now,
                                               double          min_age);
GPtrArray      *rp_call_registry_get_stalls   (RpCallRegistry *self);
guint64         rp_call_registry_get_dropped  (RpCallRegistry *self);
void            rp_call_registry_add_stall    (RpCallRegistry *self,
                                               RpStall        *stall);

void            rp_timed_call_set_frequent    (RpTimedCall    *call,
                                               gboolean        frequent);
double          rp_timed_call_begin           (RpTimedCall    *call,
                                               const char     *series);
void            rp_timed_call_set_child       (RpTimedCall    *call,
                                               pid_t           child);
double          rp_timed_call_end             (RpTimedCall    *call);
void            rp_timed_call_abandon         (RpTimedCall    *call);
void            rp_timed_call_mark_sleep      (RpTimedCall    *call);
void            rp_timed_call_woke            (RpTimedCall    *call,
                                               const char     *series,
                                               double          due);

/* rp-stall-sampler.c */
char           *rp_stall_sampler_site_from_stack (const char  *stack);
void            rp_stall_sampler_read         (pid_t           tid,
                                               gboolean        child,
                                               gboolean        use_stack,
                                               gboolean        delayacct,
                                               RpWaitSample   *out_sample);

G_END_DECLS
