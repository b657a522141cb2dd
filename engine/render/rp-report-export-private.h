/* rp-report-export-private.h: what the image and the PDF export share: layout, text, chart cards. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <pango/pangocairo.h>

#include "rp-plot-catalog.h"
#include "rp-report.h"

G_BEGIN_DECLS

/* Everything is laid out in device units of the screen (pixels at 96 dpi,
 * where Pango's points become 4/3 pixels), multiples of 6 as in RpPlot:
 * charts in a file look as they do in the window. */
#define GAP          12.0
#define CORNER        6.0

/* Text in the style's font (its size when it has none: 9 pt) onto one
 * cairo context. */
typedef struct {
  cairo_t              *cr;
  const RpPlotStyle    *style;
  PangoFontDescription *font;   /* the style's */
} Pen;

/* The charts of a report (rp_plot_catalog_build()) and where each goes. */
typedef struct {
  GPtrArray *plots;        /* RpPlot */
  GArray    *placements;   /* RpPlotPlacement, one per plot */
} Charts;

/* @rgba, its alpha times @alpha, as the source of @cr. */
static inline void
set_source (cairo_t      *cr,
            const RpRgba *rgba,
            double        alpha)
{
  cairo_set_source_rgba (cr, rgba->red, rgba->green, rgba->blue, rgba->alpha * alpha);
}

/* rp-report-pen.c */
void            rp_export_pen_init      (Pen                 *pen,
                                         cairo_t             *cr,
                                         const RpPlotStyle   *style);
void            rp_export_pen_clear     (Pen                 *pen);
PangoLayout    *rp_export_pen_layout    (Pen                 *pen,
                                         const char          *text,
                                         double               scale,
                                         gboolean             bold,
                                         double               width,
                                         PangoAlignment       alignment);
double          rp_export_layout_height (PangoLayout         *layout);
double          rp_export_layout_width  (PangoLayout         *layout);
void            rp_export_show_layout   (Pen                 *pen,
                                         PangoLayout         *layout,
                                         double               x,
                                         double               y,
                                         const RpRgba        *color,
                                         double               alpha);
double          rp_export_show_text     (Pen                 *pen,
                                         const char          *text,
                                         double               x,
                                         double               y,
                                         double               width,
                                         double               scale,
                                         gboolean             bold,
                                         const RpRgba        *color,
                                         double               alpha);
char           *rp_export_describe_run  (RpReport            *self);
void            rp_export_charts_init   (Charts              *charts,
                                         RpReport            *report);
void            rp_export_charts_clear  (Charts              *charts);
void            rp_export_draw_chart    (cairo_t             *cr,
                                         RpPlot              *plot,
                                         double               x,
                                         double               y,
                                         double               width,
                                         double               height,
                                         const RpPlotStyle   *style);
cairo_status_t  rp_export_append_bytes  (void                *closure,
                                         const unsigned char *data,
                                         unsigned int         length);
gboolean        rp_export_check_status  (cairo_status_t       status,
                                         const char          *format,
                                         GError             **error);

/* rp-report-pdf.c */
GBytes         *rp_report_render_pdf    (RpReport            *self,
                                         GError             **error);
guint           rp_report_pdf_layout    (RpReport            *self,
                                         double              *out_last_fill,
                                         double              *out_min_fill);

G_END_DECLS
