/* rp-plot-catalog.h: which charts a run gets, for the window and for exported files alike. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "rp-plot.h"

G_BEGIN_DECLS

/**
 * RpPlotPlacement:
 * @id: a stable name of the chart ("disk-latency", "ui-latency", "cpu",
 *   "throughput", "memory", "cpu-bench", "writer-threads")
 * @column: column in a two-column grid, 0 or 1
 * @row: row in that grid
 * @width: columns spanned, 1 or 2
 * @optional: %TRUE if a live view hides the chart (rather than showing it
 *   empty) while none of its series exists; most runs do not have them
 *
 * Where a chart goes on the screen; exports use @width to lay out their grid.
 */
typedef struct {
  const char *id;
  guint       column;
  guint       row;
  guint       width;
  gboolean    optional;
} RpPlotPlacement;

guint      rp_plot_catalog_get_n_plots (void);
RpPlot    *rp_plot_catalog_new_plot    (guint             index,
                                        RpPlotPlacement  *out_placement);
gboolean   rp_plot_catalog_bind        (guint             index,
                                        RpPlot           *plot,
                                        GPtrArray        *series);
GPtrArray *rp_plot_catalog_build       (GPtrArray        *series,
                                        double            t_end,
                                        GArray           *out_placements);

void       rp_plot_catalog_set_baseline (GPtrArray       *plots,
                                         double           seconds);
void       rp_plot_catalog_set_gaps    (GPtrArray        *plots,
                                        GPtrArray        *series,
                                        double            sample_period);
void       rp_plot_catalog_set_stalls  (GPtrArray        *plots,
                                        GPtrArray        *stalls,
                                        GPtrArray        *in_flight);

G_END_DECLS
