/* rp-stall.h: one stall of a timed call and where its time went (wait site → seconds). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "rp-cause.h"

G_BEGIN_DECLS

/* Site names that are no kernel symbol: the thread was on a CPU (state R),
 * waited on a run queue for one (its schedstat's run delay grew), was
 * stopped (state T, or the process was continued after a stop meanwhile:
 * rp-process-stops.h), or waited where the kernel does not say (wchan
 * hidden: "0"). A felt stall of the probe window may also be the display
 * server's: the probe's main loop ran on time throughout (its 10 ms timer
 * kept firing), so a frame the display server did not present or an input
 * event it delivered late (rp-felt-evidence.c). */
#define RP_WAIT_SITE_RUNNING  "running"
#define RP_WAIT_SITE_RUNQUEUE "runqueue"
#define RP_WAIT_SITE_STOPPED  "stopped"
#define RP_WAIT_SITE_UNKNOWN  "unknown"
#define RP_WAIT_SITE_DISPLAY  "display-server"

/* A stall is a call over this, seconds (DESIGN.md: RP_LIMIT_INSTANT). */
#define RP_STALL_MIN_SECONDS 0.1

/**
 * RpWaitShare:
 * @site: a kernel function (e.g. "jbd2_log_wait_commit"), or
 *   %RP_WAIT_SITE_RUNNING, %RP_WAIT_SITE_RUNQUEUE, %RP_WAIT_SITE_STOPPED,
 *   %RP_WAIT_SITE_UNKNOWN
 * @seconds: time the call spent there, estimated from samples: each sample
 *   stands for the time since the previous one (the first: since the
 *   call's start)
 */
typedef struct {
  char   *site;
  double  seconds;
} RpWaitShare;

/**
 * RpStall:
 * @series: the series of the call that stalled, e.g. "fsync_latency"
 * @start: when the call began, run time in seconds
 * @duration: how long it took, seconds (so far, while in flight)
 * @source: where the wait sites came from: "stack" (/proc/…/stack, root),
 *   "wchan" (/proc/…/wchan, any user) or %NULL when no sample was taken
 * @blkio_delay: seconds the thread waited for block I/O by the kernel's
 *   delay accounting (field 42 of its stat) between its first sample and
 *   the call's end; negative when unknown (kernel.task_delayacct off)
 * @breakdown: (element-type RpWaitShare): wait sites, most seconds first
 *   after rp_stall_sort()
 *
 * One call that took over %RP_STALL_MIN_SECONDS, with where it waited.
 */
typedef struct {
  char   *series;
  double  start;
  double  duration;
  char   *source;
  double  blkio_delay;
  GArray *breakdown;
} RpStall;

/**
 * RpCauseShare:
 * @cause: a cause
 * @seconds: the stall's seconds at the sites of that cause
 * @site: (transfer none): the site of that cause with the most seconds: the
 *   kernel's word beside the cause's, for engineers
 *
 * Part of a stall's time by cause (rp_stall_get_causes()).
 */
typedef struct {
  RpCause     cause;
  double      seconds;
  const char *site;
} RpCauseShare;

#define RP_TYPE_STALL (rp_stall_get_type ())
GType        rp_stall_get_type           (void) G_GNUC_CONST;

RpStall     *rp_stall_new                (const char    *series,
                                          double         start,
                                          double         duration);
RpStall     *rp_stall_copy               (const RpStall *self);
void         rp_stall_free               (RpStall       *self);
void         rp_stall_add_wait           (RpStall       *self,
                                          const char    *site,
                                          double         seconds);
void         rp_stall_sort               (RpStall       *self);
double       rp_stall_get_sampled        (const RpStall *self);
double       rp_stall_get_named          (const RpStall *self);
const RpWaitShare *rp_stall_get_dominant (const RpStall *self);
GArray      *rp_stall_get_causes         (const RpStall *self,
                                          const RpCauseEvidence *evidence);


G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpStall, rp_stall_free)

G_END_DECLS
