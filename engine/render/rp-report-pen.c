/* rp-report-pen.c: text and chart cards for the image and the PDF exports of a report. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rp-error.h"
#include "rp-report-export-private.h"
#include "rp-report-private.h"

/* A pen in @style's font on @cr; rp_export_pen_clear() frees its font. */
void
rp_export_pen_init (Pen               *pen,
                    cairo_t           *cr,
                    const RpPlotStyle *style)
{
  pen->cr = cr;
  pen->style = style;
  pen->font = pango_font_description_from_string (style->font ? style->font : "Sans 9");
  if (pango_font_description_get_size (pen->font) <= 0)
    pango_font_description_set_size (pen->font, 9 * PANGO_SCALE);
}

void
rp_export_pen_clear (Pen *pen)
{
  g_clear_pointer (&pen->font, pango_font_description_free);
}

/* A layout of @text (cleaned of control characters: reports come from
 * strangers) in the style's font scaled by @scale, wrapped at @width when
 * that is positive. Plain text, never markup. */
PangoLayout *
rp_export_pen_layout (Pen            *pen,
                      const char     *text,
                      double          scale,
                      gboolean        bold,
                      double          width,
                      PangoAlignment  alignment)
{
  PangoLayout *layout = pango_cairo_create_layout (pen->cr);
  PangoFontDescription *font = pango_font_description_copy (pen->font);
  g_autofree char *clean = rp_text_sanitize (text);
  gint size = (gint) round (pango_font_description_get_size (pen->font) * scale);

  if (pango_font_description_get_size_is_absolute (pen->font))
    pango_font_description_set_absolute_size (font, size);
  else
    pango_font_description_set_size (font, size);
  if (bold)
    pango_font_description_set_weight (font, PANGO_WEIGHT_BOLD);
  pango_layout_set_font_description (layout, font);
  pango_font_description_free (font);
  if (width > 0)
    {
      pango_layout_set_width (layout, pango_units_from_double (width));
      pango_layout_set_wrap (layout, PANGO_WRAP_WORD_CHAR);
    }
  pango_layout_set_alignment (layout, alignment);
  pango_layout_set_text (layout, clean, -1);
  return layout;
}

/* Pixel height of @layout. */
double
rp_export_layout_height (PangoLayout *layout)
{
  int height;

  pango_layout_get_pixel_size (layout, NULL, &height);
  return height;
}

/* Pixel width of @layout. */
double
rp_export_layout_width (PangoLayout *layout)
{
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

/* Draws @layout with its top-left corner at (@x, @y). */
void
rp_export_show_layout (Pen          *pen,
                       PangoLayout  *layout,
                       double        x,
                       double        y,
                       const RpRgba *color,
                       double        alpha)
{
  cairo_move_to (pen->cr, x, y);
  set_source (pen->cr, color, alpha);
  pango_cairo_show_layout (pen->cr, layout);
}

/* Draws @text wrapped at @width; returns its height. */
double
rp_export_show_text (Pen          *pen,
                     const char   *text,
                     double        x,
                     double        y,
                     double        width,
                     double        scale,
                     gboolean      bold,
                     const RpRgba *color,
                     double        alpha)
{
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (pen, text, scale, bold, width, PANGO_ALIGN_LEFT);

  rp_export_show_layout (pen, layout, x, y, color, alpha);
  return rp_export_layout_height (layout);
}

/* When the run started and how long it took, for the headers. */
char *
rp_export_describe_run (RpReport *self)
{
  g_autofree char *created = rp_text_format_created (rp_report_get_created (self));
  g_autofree char *duration = rp_report_format_duration (self);

  /* TRANSLATORS: when a run started and how long it took, e.g.
   * "2024-05-01 10:00:00 UTC · 20.0 s" */
  return g_strdup_printf (_("%s · %s"), created, duration);
}

/* The charts of @report, as the window shows them; rp_export_charts_clear()
 * frees them. */
void
rp_export_charts_init (Charts   *charts,
                       RpReport *report)
{
  charts->placements = g_array_new (FALSE, FALSE, sizeof (RpPlotPlacement));
  /* One time axis for all, from the start to the end of the run, so that a
   * stall lines up with the iowait and the dirty memory beside it. */
  charts->plots = rp_plot_catalog_build (rp_report_get_series (report),
                                         rp_report_get_duration (report),
                                         charts->placements);
  rp_plot_catalog_set_stalls (charts->plots, rp_report_get_stalls (report), NULL);
  rp_plot_catalog_set_gaps (charts->plots, rp_report_get_series (report),
                            rp_params_get_seconds (rp_report_get_scenario (report)->params, "sample_period"));
  rp_plot_catalog_set_baseline (charts->plots, rp_report_get_baseline (report));
}

void
rp_export_charts_clear (Charts *charts)
{
  g_clear_pointer (&charts->plots, g_ptr_array_unref);
  g_clear_pointer (&charts->placements, g_array_unref);
}

static void
rounded_rectangle (cairo_t *cr,
                   double   x,
                   double   y,
                   double   width,
                   double   height,
                   double   radius)
{
  cairo_new_sub_path (cr);
  cairo_arc (cr, x + width - radius, y + radius, radius, -G_PI / 2, 0);
  cairo_arc (cr, x + width - radius, y + height - radius, radius, 0, G_PI / 2);
  cairo_arc (cr, x + radius, y + height - radius, radius, G_PI / 2, G_PI);
  cairo_arc (cr, x + radius, y + radius, radius, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

/* One chart in a card, as the window shows it. The clip keeps the chart's
 * background paint inside its card. */
void
rp_export_draw_chart (cairo_t           *cr,
                      RpPlot            *plot,
                      double             x,
                      double             y,
                      double             width,
                      double             height,
                      const RpPlotStyle *style)
{
  cairo_save (cr);
  rounded_rectangle (cr, x, y, width, height, CORNER);
  cairo_clip (cr);
  cairo_translate (cr, x, y);
  rp_plot_draw (plot, cr, width, height, style);
  cairo_restore (cr);

  cairo_save (cr);
  rounded_rectangle (cr, x + 0.5, y + 0.5, width - 1, height - 1, CORNER);
  set_source (cr, &style->foreground, 0.18);
  cairo_set_line_width (cr, 1);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* A cairo write function appending to the GByteArray @closure. */
cairo_status_t
rp_export_append_bytes (void                *closure,
                        const unsigned char *data,
                        unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

/* %TRUE on success, else @error says that drawing as @format failed. */
gboolean
rp_export_check_status (cairo_status_t   status,
                        const char      *format,
                        GError         **error)
{
  if (status == CAIRO_STATUS_SUCCESS)
    return TRUE;
  g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
               /* TRANSLATORS: %s are a format ("pdf") and cairo's error message */
               _("Cannot draw the report as %s: %s"), format, cairo_status_to_string (status));
  return FALSE;
}
