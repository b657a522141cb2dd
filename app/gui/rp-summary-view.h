/* rp-summary-view.h: per-probe p50/p99/max and the plain-language verdict of a run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "rp-report.h"
#include "rp-session.h"

G_BEGIN_DECLS

/**
 * RpSeverity:
 * @RP_SEVERITY_UNKNOWN: nothing measured yet
 * @RP_SEVERITY_INSTANT: the worst delay stayed under 0.1 s
 * @RP_SEVERITY_NOTICEABLE: under 1 s: noticed, but the flow of thought holds
 * @RP_SEVERITY_FLOW: under 10 s: breaks the flow
 * @RP_SEVERITY_ATTENTION: over 10 s: long enough to lose attention
 *
 * The response-time band (rp-stats.h) of the worst delay felt in a run.
 */
typedef enum {
  RP_SEVERITY_UNKNOWN,
  RP_SEVERITY_INSTANT,
  RP_SEVERITY_NOTICEABLE,
  RP_SEVERITY_FLOW,
  RP_SEVERITY_ATTENTION,
} RpSeverity;

#define RP_TYPE_SUMMARY_VIEW (rp_summary_view_get_type ())
G_DECLARE_FINAL_TYPE (RpSummaryView, rp_summary_view, RP, SUMMARY_VIEW, GtkWidget)

GtkWidget  *rp_summary_view_new            (void);
void        rp_summary_view_clear          (RpSummaryView        *self);
void        rp_summary_view_refresh_async  (RpSummaryView        *self,
                                            RpSession            *session,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
void        rp_summary_view_show_report_async (RpSummaryView     *self,
                                            RpReport             *report,
                                            GCancellable         *cancellable,
                                            GAsyncReadyCallback   callback,
                                            gpointer              user_data);
RpReport   *rp_summary_view_refresh_finish (RpSummaryView        *self,
                                            GAsyncResult         *result,
                                            GError              **error);
RpReport   *rp_summary_view_get_report     (RpSummaryView        *self);
const char *rp_summary_view_get_headline   (RpSummaryView        *self);
const char *rp_summary_view_get_verdict    (RpSummaryView        *self);
RpSeverity  rp_summary_view_get_severity   (RpSummaryView        *self);

G_END_DECLS
