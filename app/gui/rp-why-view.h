/* rp-why-view.h: the "Why" section: the dominant cause of a run's stalls and its worst stalls. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "rp-report.h"
#include "rp-session.h"
#include "rp-stall.h"

G_BEGIN_DECLS

/* How many stalls the section lists, the longest first. */
#define RP_WHY_MAX_STALLS 5
/* Seconds after a stall's end by which the samplers have recorded what
 * ran meanwhile (the disk sampler's period is 0.5 s): from then on a live
 * row's lines no longer change. */
#define RP_WHY_SETTLE_SECONDS 1.5

/**
 * RpWhyItem:
 * @stall: (owned): one stall, copied
 * @meanwhile: (owned) (nullable) (element-type utf8): what ran meanwhile,
 *   label/value pairs (rp_stall_meanwhile_from()), so far while the run
 *   goes on; %NULL when not asked
 * @in_flight: the call has not returned yet: @stall's duration is so far
 * @evidence: what decides its causes (rp_stall_evidence_from())
 *
 * One row of the section.
 */
typedef struct {
  RpStall   *stall;
  GPtrArray *meanwhile;
  gboolean   in_flight;
  RpCauseEvidence evidence;
} RpWhyItem;

GPtrArray *rp_why_items_collect      (RpReport   *report,
                                      GPtrArray  *stalls,
                                      guint       max_stalls);
GPtrArray *rp_why_items_collect_live (RpSession  *session,
                                      GHashTable *settled,
                                      guint       max_stalls);

#define RP_TYPE_WHY_VIEW (rp_why_view_get_type ())
G_DECLARE_FINAL_TYPE (RpWhyView, rp_why_view, RP, WHY_VIEW, AdwPreferencesGroup)

GtkWidget *rp_why_view_new       (void);
void       rp_why_view_show      (RpWhyView  *self,
                                  const char *cause,
                                  GPtrArray  *items);
guint      rp_why_view_get_n_rows (RpWhyView *self);

G_END_DECLS
