/* rp-report-export.h: a report as an image of its charts (PNG, SVG) or as a PDF document. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <gio/gio.h>

#include "rp-plot.h"
#include "rp-report.h"

G_BEGIN_DECLS

/* Width of the PNG (pixels) and SVG (user units) exports: wide enough for
 * two charts side by side, narrow enough for a bug tracker's page. */
#define RP_REPORT_IMAGE_WIDTH 1200

/**
 * RpReportFormat:
 * @format: the name rp_report_export() takes: "json", "csv", "txt", "png",
 *   "svg" or "pdf"
 * @extension: the file name extension, without the dot
 * @mime_type: e.g. "application/pdf", for file chooser filters
 * @label: a translated description, e.g. "PDF report"
 *
 * One export format; see rp_report_list_formats().
 */
typedef struct {
  const char *format;
  const char *extension;
  const char *mime_type;
  const char *label;
} RpReportFormat;

const RpReportFormat *rp_report_list_formats          (guint             *out_n_formats);
const char           *rp_report_format_for_filename   (const char        *filename);
gboolean              rp_report_format_is_known       (const char        *format);

double                rp_report_draw_image            (RpReport          *self,
                                                       cairo_t           *cr,
                                                       double             width,
                                                       const RpPlotStyle *style);
gboolean              rp_report_export                (RpReport          *self,
                                                       GFile             *file,
                                                       const char        *format,
                                                       GError           **error);
GBytes               *rp_report_render                (RpReport          *self,
                                                       const char        *format,
                                                       GError           **error);

G_END_DECLS
