/* rp-why-view.h: the "Why" section: the dominant cause of a run's stalls and its worst stalls. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "rp-report.h"
#include "rp-stall.h"

G_BEGIN_DECLS

/* How many stalls the section lists, the longest first. */
#define RP_WHY_MAX_STALLS 5

/**
 * RpWhyItem:
 * @stall: (owned): one stall, copied
 * @meanwhile: (owned) (nullable) (element-type utf8): what ran meanwhile,
 *   label/value pairs (rp_report_stall_meanwhile()); %NULL while the run
 *   goes on (the series it reads belong to the finished report)
 *
 * One row of the section.
 */
typedef struct {
  RpStall   *stall;
  GPtrArray *meanwhile;
} RpWhyItem;

GPtrArray *rp_why_items_collect (RpReport  *report,
                                 GPtrArray *stalls,
                                 guint      max_stalls);

#define RP_TYPE_WHY_VIEW (rp_why_view_get_type ())
G_DECLARE_FINAL_TYPE (RpWhyView, rp_why_view, RP, WHY_VIEW, AdwPreferencesGroup)

GtkWidget *rp_why_view_new       (void);
void       rp_why_view_show      (RpWhyView  *self,
                                  const char *cause,
                                  GPtrArray  *items);
guint      rp_why_view_get_n_rows (RpWhyView *self);

G_END_DECLS
