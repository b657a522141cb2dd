/* rp-chart-view.h: a widget that shows an RpPlot with theme colours and a hover readout. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "rp-plot.h"

G_BEGIN_DECLS

#define RP_TYPE_CHART_VIEW (rp_chart_view_get_type ())
G_DECLARE_FINAL_TYPE (RpChartView, rp_chart_view, RP, CHART_VIEW, GtkWidget)

GtkWidget *rp_chart_view_new        (RpPlot      *plot);
RpPlot    *rp_chart_view_get_plot   (RpChartView *self);
void       rp_chart_view_set_plot   (RpChartView *self,
                                     RpPlot      *plot);
void       rp_chart_view_refresh    (RpChartView *self);
const char *rp_chart_view_get_description (RpChartView *self);
int        rp_chart_view_get_stall_index (RpChartView *self);
double     rp_chart_view_get_marked_x (RpChartView *self);
void       rp_chart_view_get_style  (RpChartView *self,
                                     RpPlotStyle *out_style,
                                     char       **out_font);

G_END_DECLS
