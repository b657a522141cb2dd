/* rp-summary-view.h: per-probe p50/p99/max and the plain-language verdict of a run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "rp-report.h"
#include "rp-run-summary.h"
#include "rp-session.h"

G_BEGIN_DECLS

#define RP_TYPE_SUMMARY_VIEW (rp_summary_view_get_type ())
G_DECLARE_FINAL_TYPE (RpSummaryView, rp_summary_view, RP, SUMMARY_VIEW, GtkWidget)

GtkWidget  *rp_summary_view_new            (void);
void        rp_summary_view_clear          (RpSummaryView        *self);
void        rp_summary_view_set_compact    (RpSummaryView        *self,
                                            gboolean              compact);
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
const char *rp_summary_view_get_short_verdict (RpSummaryView     *self);
RpSeverity  rp_summary_view_get_severity   (RpSummaryView        *self);
const char *rp_summary_view_get_stall_cause (RpSummaryView       *self);
GPtrArray  *rp_summary_view_get_why        (RpSummaryView        *self);

G_END_DECLS
