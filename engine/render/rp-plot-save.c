/* rp-plot-save.c: an RpPlot drawn whole, onto a cairo context or into a PNG, SVG or PDF file. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>

#include "rp-error.h"
#include "rp-plot-private.h"

/**
 * rp_plot_draw:
 * @cr: where to draw, with (0, 0) at the top-left corner of the chart
 * @width: width in device units
 * @height: height in device units
 * @style: (nullable): colours and font; %NULL: rp_plot_style_init_default() light
 *
 * rp_plot_prepare(), rp_plot_draw_frame(), rp_plot_draw_data() and
 * rp_plot_draw_hover() in one: the whole chart. Each series is decimated to
 * one column per device unit and drawn as one path, so the cost follows
 * @width, not the number of points.
 */
void
rp_plot_draw (RpPlot            *self,
              cairo_t           *cr,
              double             width,
              double             height,
              const RpPlotStyle *style)
{
  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (cr != NULL);

  rp_plot_prepare (self, width, height, style);
  rp_plot_draw_frame (self, cr, style);
  rp_plot_draw_data (self, cr, style);
  rp_plot_draw_hover (self, cr, style);
}

/* Ends a drawing into SURFACE (consumed; its cairo_t already destroyed):
 * a PNG (PNG true) is written to FILENAME now, an SVG or PDF surface,
 * which wrote as it drew, gets its trailer on finishing. Returns: %FALSE,
 * with RP_ERROR_IO naming FILENAME and cairo's reason, when any step
 * failed. */
static gboolean
finish_surface (cairo_surface_t *surface,
                const char      *filename,
                gboolean         png,
                GError         **error)
{
  cairo_status_t status = cairo_surface_status (surface);

  if (status == CAIRO_STATUS_SUCCESS && png)
    status = cairo_surface_write_to_png (surface, filename);
  /* Finishing writes the trailer of SVG and PDF files. */
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_IO,
                   _("Could not write the chart to “%s”: %s"),
                   filename, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_plot_save:
 * @filename: the file to write
 * @format: "png", "svg" or "pdf"
 * @width: width in pixels (PNG) or points (SVG, PDF)
 * @height: height, likewise
 * @style: (nullable): see rp_plot_draw()
 * @error: %RP_ERROR_INVALID_ARGUMENT for an unknown format, %RP_ERROR_IO when
 *   cairo cannot write
 *
 * Draws the plot into a file with the same code as on screen.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_plot_save (RpPlot            *self,
              const char        *filename,
              const char        *format,
              double             width,
              double             height,
              const RpPlotStyle *style,
              GError           **error)
{
  cairo_surface_t *surface;
  cairo_t *cr;

  g_return_val_if_fail (RP_IS_PLOT (self), FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (format != NULL, FALSE);

  if (g_str_equal (format, "png"))
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  else if (g_str_equal (format, "svg"))
    surface = cairo_svg_surface_create (filename, width, height);
  else if (g_str_equal (format, "pdf"))
    surface = cairo_pdf_surface_create (filename, width, height);
  else
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Unknown image format “%s”; use png, svg or pdf"), format);
      return FALSE;
    }

  cr = cairo_create (surface);
  rp_plot_draw (self, cr, width, height, style);
  cairo_destroy (cr);
  return finish_surface (surface, filename, g_str_equal (format, "png"), error);
}

/* The text's lines on pages of @width × @height points in a monospaced
 * font, as many lines a page as fit: the comparison table is 80 columns. */
static void
draw_text_pages (cairo_t    *cr,
                 const char *text,
                 double      width,
                 double      height)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  PangoLayout *layout = pango_cairo_create_layout (cr);
  PangoFontDescription *font = pango_font_description_from_string ("Monospace 9");
  double margin = 36, line_height;
  guint per_page, n = g_strv_length (lines);
  int ink_height;

  pango_layout_set_font_description (layout, font);
  pango_layout_set_text (layout, "M", -1);
  pango_layout_get_pixel_size (layout, NULL, &ink_height);
  line_height = MAX (ink_height, 1);
  per_page = MAX ((guint) ((height - 2 * margin) / line_height), 1);
  for (guint first = 0; first < n; first += per_page)
    {
      cairo_set_source_rgb (cr, 1, 1, 1);
      cairo_paint (cr);
      cairo_set_source_rgb (cr, 0, 0, 0);
      for (guint i = first; i < MIN (first + per_page, n); i++)
        {
          pango_layout_set_text (layout, lines[i], -1);
          cairo_move_to (cr, margin, margin + (i - first) * line_height);
          pango_cairo_show_layout (cr, layout);
        }
      cairo_show_page (cr);
    }
  pango_font_description_free (font);
  g_object_unref (layout);
}

/**
 * rp_plot_save_all:
 * @plots: (array length=n_plots): the charts, in order
 * @n_plots: how many (at least one)
 * @text: (nullable): text to add after the charts in a PDF (a comparison's
 *   table, 80 columns), one monospaced page after another; not in a PNG
 * @filename: the file to write
 * @format: "png" (the charts one below the other in one image) or "pdf"
 *   (a page per chart, then the text)
 * @width: width of a chart, pixels (PNG) or points (PDF)
 * @height: height of each chart, likewise
 * @style: (nullable): see rp_plot_draw()
 * @error: %RP_ERROR_INVALID_ARGUMENT for another format, %RP_ERROR_IO when
 *   cairo cannot write
 *
 * Several charts in one file with the same code as on screen: a whole
 * comparison exported at once.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_plot_save_all (RpPlot            **plots,
                  guint               n_plots,
                  const char         *text,
                  const char         *filename,
                  const char         *format,
                  double              width,
                  double              height,
                  const RpPlotStyle  *style,
                  GError            **error)
{
  gboolean png;
  cairo_surface_t *surface;
  cairo_t *cr;

  g_return_val_if_fail (plots != NULL && n_plots > 0, FALSE);
  g_return_val_if_fail (filename != NULL && format != NULL, FALSE);

  png = g_str_equal (format, "png");
  if (png)
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) (height * n_plots));
  else if (g_str_equal (format, "pdf"))
    surface = cairo_pdf_surface_create (filename, width, height);
  else
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Unknown image format “%s”; use png or pdf"), format);
      return FALSE;
    }
  cr = cairo_create (surface);
  for (guint i = 0; i < n_plots; i++)
    {
      cairo_save (cr);
      if (png)
        {
          /* Each chart paints its background over all it may reach: the
           * clip keeps that to its own band, or the last chart's paint
           * whitened every chart above it (issue 21). */
          cairo_rectangle (cr, 0, i * height, width, height);
          cairo_clip (cr);
          cairo_translate (cr, 0, i * height);
        }
      rp_plot_draw (plots[i], cr, width, height, style);
      cairo_restore (cr);
      if (!png)
        cairo_show_page (cr);
    }
  if (!png && text != NULL)
    draw_text_pages (cr, text, width, height);
  cairo_destroy (cr);
  return finish_surface (surface, filename, png, error);
}
