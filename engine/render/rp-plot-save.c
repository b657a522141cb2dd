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

/**
 * rp_plot_save_all:
 * @plots: (array length=n_plots): the charts, in order
 * @n_plots: how many (at least one)
 * @filename: the PNG file to write
 * @format: "png": the charts one below the other in one image (a
 *   comparison's PDF is rp_comparison_render_pdf()'s)
 * @width: width of a chart, pixels
 * @height: height of each chart, pixels
 * @style: (nullable): see rp_plot_draw()
 * @error: %RP_ERROR_INVALID_ARGUMENT for another format, %RP_ERROR_IO when
 *   cairo cannot write
 *
 * Several charts in one image with the same code as on screen: a whole
 * comparison exported at once.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_plot_save_all (RpPlot            **plots,
                  guint               n_plots,
                  const char         *filename,
                  const char         *format,
                  double              width,
                  double              height,
                  const RpPlotStyle  *style,
                  GError            **error)
{
  cairo_surface_t *surface;
  cairo_t *cr;

  g_return_val_if_fail (plots != NULL && n_plots > 0, FALSE);
  g_return_val_if_fail (filename != NULL && format != NULL, FALSE);

  if (!g_str_equal (format, "png"))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Unknown image format “%s”; use png"), format);
      return FALSE;
    }
  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) (height * n_plots));
  cr = cairo_create (surface);
  for (guint i = 0; i < n_plots; i++)
    {
      /* Each chart paints its background over all it may reach: the clip
       * keeps that to its own band, or the last chart's paint whitened
       * every chart above it (issue 21). */
      cairo_save (cr);
      cairo_rectangle (cr, 0, i * height, width, height);
      cairo_clip (cr);
      cairo_translate (cr, 0, i * height);
      rp_plot_draw (plots[i], cr, width, height, style);
      cairo_restore (cr);
    }
  cairo_destroy (cr);
  return finish_surface (surface, filename, TRUE, error);
}
