/* rp-felt-evidence.h: what the probe window's main thread did while it was silent, as stall breakdowns. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

#include "rp-stall.h"

G_BEGIN_DECLS

/* The wait sites of a felt stall are rp-stall.h's RP_WAIT_SITE_*. */

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
