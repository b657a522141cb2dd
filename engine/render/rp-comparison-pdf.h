/* rp-comparison-pdf.h: a comparison as an A4 PDF: headline, results table, overlaid charts, configuration. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-plot.h"
#include "rp-report.h"

G_BEGIN_DECLS

GBytes *rp_comparison_render_pdf (GPtrArray          *reports,
                                  const char *const  *labels,
                                  RpPlot *const      *plots,
                                  guint               n_plots,
                                  GError            **error);
guint   rp_comparison_pdf_layout (GPtrArray          *reports,
                                  const char *const  *labels,
                                  RpPlot *const      *plots,
                                  guint               n_plots,
                                  double             *out_last_fill,
                                  double             *out_min_fill);

G_END_DECLS
