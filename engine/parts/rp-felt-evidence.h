/* rp-felt-evidence.h: what the probe window's main thread did while it was silent, as stall breakdowns. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "rp-stall.h"

G_BEGIN_DECLS

/* Wait sites of a felt stall that no kernel function names (beside
 * RP_WAIT_SITE_RUNNING and RP_WAIT_SITE_UNKNOWN of rp-stall.h):
 *
 * RP_WAIT_SITE_STOPPED: the probe's process was stopped (state T: SIGSTOP,
 *   a debugger, a frozen cgroup's tasks show as D in __refrigerator).
 * RP_WAIT_SITE_RUNQUEUE: runnable but not on a CPU: waiting for one (state
 *   R while its on-CPU time of /proc/PID/schedstat did not grow): another
 *   task had the CPU (a real-time task, CPU contention).
 * RP_WAIT_SITE_DISPLAY: the probe's main loop ran on time throughout this
 *   part of the stall (its 10 ms timer kept firing), so the delay was not in
 *   the probe: a frame the display server did not present, an input event
 *   it delivered late. */
#define RP_WAIT_SITE_STOPPED  "stopped"
#define RP_WAIT_SITE_RUNQUEUE "runqueue"
#define RP_WAIT_SITE_DISPLAY  "display-server"

typedef struct _RpFeltEvidence RpFeltEvidence;

RpFeltEvidence *rp_felt_evidence_new        (pid_t           pid,
                                             gboolean        use_stack,
                                             gboolean        delayacct);
void            rp_felt_evidence_free       (RpFeltEvidence *self);
void            rp_felt_evidence_heartbeat  (RpFeltEvidence *self,
                                             double          when);
void            rp_felt_evidence_settle     (RpFeltEvidence *self);
double          rp_felt_evidence_next_look  (RpFeltEvidence *self,
                                             double          period);
void            rp_felt_evidence_look       (RpFeltEvidence *self,
                                             double          now);
RpStall        *rp_felt_evidence_explain    (RpFeltEvidence *self,
                                             const char     *series,
                                             double          start,
                                             double          end,
                                             const char     *uncovered_site);
guint64         rp_felt_evidence_get_looks  (RpFeltEvidence *self);
const char     *rp_felt_evidence_get_source (RpFeltEvidence *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpFeltEvidence, rp_felt_evidence_free)

G_END_DECLS
