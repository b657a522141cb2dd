/* rp-compare-view.h: 2 to 8 reports side by side: configuration, results, overlaid fsync charts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "rp-plot.h"
#include "rp-report.h"

G_BEGIN_DECLS

#define RP_TYPE_COMPARE_VIEW (rp_compare_view_get_type ())
G_DECLARE_FINAL_TYPE (RpCompareView, rp_compare_view, RP, COMPARE_VIEW, GtkWidget)

GtkWidget   *rp_compare_view_new                (void);
void         rp_compare_view_set_reports        (RpCompareView      *self,
                                                 GPtrArray          *reports,
                                                 GFile       *const *files);
GPtrArray   *rp_compare_view_get_reports        (RpCompareView      *self);
const char  *rp_compare_view_get_label          (RpCompareView      *self,
                                                 guint               index);
guint        rp_compare_view_get_n_differences  (RpCompareView      *self);
RpPlot      *rp_compare_view_get_plot           (RpCompareView      *self,
                                                 RpPlotMode          mode);

char       **rp_compare_make_labels             (GPtrArray          *reports,
                                                 GFile       *const *files);
GPtrArray   *rp_compare_new_all_plots           (GPtrArray          *reports,
                                                 const char *const  *labels);
gboolean     rp_compare_save_all                (GPtrArray          *reports,
                                                 const char *const  *labels,
                                                 GFile              *file,
                                                 const char         *format,
                                                 GError            **error);
guint        rp_compare_get_n_overlays          (void);
RpPlot      *rp_compare_new_overlay_plot        (GPtrArray          *reports,
                                                 const char *const  *labels,
                                                 guint               index);
RpPlot      *rp_compare_new_plot                (GPtrArray          *reports,
                                                 const char *const  *labels,
                                                 RpPlotMode          mode);

gboolean     rp_compare_save_plot               (GPtrArray          *reports,
                                                 const char *const  *labels,
                                                 RpPlotMode          mode,
                                                 GFile              *file,
                                                 const char         *format,
                                                 GError            **error);

G_END_DECLS
