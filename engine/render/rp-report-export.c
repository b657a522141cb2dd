/* rp-report-export.c: a report as an image of its charts (PNG, SVG) or a PDF; the list of formats. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rp-error.h"
#include "rp-report-export.h"
#include "rp-report-export-private.h"
#include "rp-report-private.h"

#define IMAGE_MARGIN 24.0
#define FULL_HEIGHT  300.0   /* a chart across the whole image */
#define HALF_HEIGHT  264.0   /* two charts side by side */

static const RpReportFormat format_table[] = {
  { "json", "json", "application/json", N_("JSON report") },
  { "csv", "csv", "text/csv", N_("CSV samples") },
  { "txt", "txt", "text/plain", N_("Text report") },
  { "png", "png", "image/png", N_("PNG image of the charts") },
  { "svg", "svg", "image/svg+xml", N_("SVG image of the charts") },
  { "pdf", "pdf", "application/pdf", N_("PDF report") },
};

/**
 * rp_report_list_formats:
 * @out_n_formats: (out): the number of formats
 *
 * Every format rp_report_save() writes, JSON first, with its extension, MIME
 * type and a translated label: for file chooser filters and --help texts.
 *
 * Returns: (transfer none) (array length=out_n_formats): the formats
 */
const RpReportFormat *
rp_report_list_formats (guint *out_n_formats)
{
  static RpReportFormat translated[G_N_ELEMENTS (format_table)];
  static gsize once = 0;

  g_return_val_if_fail (out_n_formats != NULL, NULL);

  if (g_once_init_enter (&once))
    {
      for (guint i = 0; i < G_N_ELEMENTS (format_table); i++)
        {
          translated[i] = format_table[i];
          translated[i].label = _(format_table[i].label);
        }
      g_once_init_leave (&once, 1);
    }
  *out_n_formats = G_N_ELEMENTS (translated);
  return translated;
}

/**
 * rp_report_format_for_filename:
 * @filename: a file name or path, e.g. "run.PDF"
 *
 * Returns: (nullable): the format of @filename's extension (case-insensitive;
 *   "text" counts as "txt"), as rp_report_save() takes it, or %NULL
 */
const char *
rp_report_format_for_filename (const char *filename)
{
  const char *dot;

  g_return_val_if_fail (filename != NULL, NULL);

  dot = strrchr (filename, '.');
  if (dot == NULL || strchr (dot, '/') != NULL)
    return NULL;
  if (g_ascii_strcasecmp (dot + 1, "text") == 0)
    return "txt";
  for (guint i = 0; i < G_N_ELEMENTS (format_table); i++)
    if (g_ascii_strcasecmp (dot + 1, format_table[i].extension) == 0)
      return format_table[i].format;
  return NULL;
}

/**
 * rp_report_format_is_known:
 * @format: a format name, e.g. "pdf" (case-insensitive; "text" is "txt")
 *
 * Returns: whether rp_report_save() writes @format
 */
gboolean
rp_report_format_is_known (const char *format)
{
  g_return_val_if_fail (format != NULL, FALSE);

  if (g_ascii_strcasecmp (format, "text") == 0)
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (format_table); i++)
    if (g_ascii_strcasecmp (format, format_table[i].format) == 0)
      return TRUE;
  return FALSE;
}

/* The window's grid: a chart of width 2 across, two of width 1 side by
 * side; one of width 1 without a neighbour (its partner was not measured)
 * takes the whole row. Returns the bottom. */
static double
draw_chart_grid (cairo_t           *cr,
                 const Charts      *charts,
                 double             x,
                 double             y,
                 double             width,
                 const RpPlotStyle *style)
{
  double half = floor ((width - GAP) / 2);
  double bottom = y;
  guint i = 0;

  while (i < charts->plots->len)
    {
      const RpPlotPlacement *placement = &g_array_index (charts->placements, RpPlotPlacement, i);
      const RpPlotPlacement *next = i + 1 < charts->plots->len
        ? &g_array_index (charts->placements, RpPlotPlacement, i + 1) : NULL;

      if (placement->width == 1 && next != NULL && next->width == 1)
        {
          rp_export_draw_chart (cr, g_ptr_array_index (charts->plots, i), x, y, half, HALF_HEIGHT, style);
          rp_export_draw_chart (cr, g_ptr_array_index (charts->plots, i + 1), x + width - half, y,
                                half, HALF_HEIGHT, style);
          bottom = y + HALF_HEIGHT;
          i += 2;
        }
      else
        {
          rp_export_draw_chart (cr, g_ptr_array_index (charts->plots, i), x, y, width, FULL_HEIGHT, style);
          bottom = y + FULL_HEIGHT;
          i++;
        }
      y = bottom + GAP;
    }
  return bottom;
}

/* Title, run, target, scenario, then the verdict (and the error that ended
 * the run early): what a reader of a bug report needs beside the charts. */
static double
draw_image_header (Pen      *pen,
                   RpReport *self,
                   double    x,
                   double    y,
                   double    width)
{
  const RpRgba *fg = &pen->style->foreground;
  g_autofree char *run = rp_export_describe_run (self);
  g_autofree char *target = rp_sysinfo_describe (rp_report_get_sysinfo (self));
  g_autofree char *scenario = rp_scenario_describe (rp_report_get_scenario (self));
  g_autofree char *verdict = rp_report_get_verdict (self);
  const char *error_message = rp_report_get_error_message (self);
  g_autoptr(PangoLayout) title = rp_export_pen_layout (pen, _("Responsiveness Probe report"), 1.6, TRUE, -1,
                                                       PANGO_ALIGN_LEFT);
  g_autoptr(PangoLayout) when = NULL;
  double title_height = rp_export_layout_height (title);

  /* The date goes right of the title if it fits, else below it. */
  when = rp_export_pen_layout (pen, run, 1.0, FALSE, -1, PANGO_ALIGN_LEFT);
  rp_export_show_layout (pen, title, x, y, fg, 1);
  if (rp_export_layout_width (title) + 2 * GAP + rp_export_layout_width (when) <= width)
    {
      rp_export_show_layout (pen, when, x + width - rp_export_layout_width (when),
                             y + title_height - rp_export_layout_height (when) - 2, fg, 0.7);
      y += title_height + 4;
    }
  else
    {
      y += title_height + 2;
      rp_export_show_layout (pen, when, x, y, fg, 0.7);
      y += rp_export_layout_height (when) + 2;
    }

  y += rp_export_show_text (pen, target, x, y, width, 1.0, FALSE, fg, 0.7) + 2;
  y += rp_export_show_text (pen, scenario, x, y, width, 1.0, FALSE, fg, 0.7) + GAP / 2;
  y += rp_export_show_text (pen, verdict, x, y, width, 1.2, FALSE, fg, 1);
  if (error_message != NULL)
    {
      /* TRANSLATORS: %s is the error message that stopped a run */
      g_autofree char *line = g_strdup_printf (_("The run ended early: %s"), error_message);

      y += 4 + rp_export_show_text (pen, line, x, y + 4, width, 1.0, TRUE, &pen->style->threshold, 1);
    }
  return y;
}

/**
 * rp_report_draw_image:
 * @cr: where to draw, with (0, 0) at the top-left corner of the image
 * @width: width in device units, e.g. %RP_REPORT_IMAGE_WIDTH
 * @style: (nullable): colours and font; %NULL: rp_plot_style_init_default()
 *   light, as in the exported files
 *
 * Draws what the PNG and SVG exports hold: a title line with the date,
 * target and scenario, the verdict, then every chart of the catalog that has
 * samples (rp_plot_catalog_build()) in the window's two-column grid, with
 * the chart code of the screen. Draws no background: paint one first.
 *
 * Returns: the height drawn, in device units
 */
double
rp_report_draw_image (RpReport          *self,
                      cairo_t           *cr,
                      double             width,
                      const RpPlotStyle *style)
{
  RpPlotStyle default_style;
  Charts charts;
  Pen pen;
  double inner = width - 2 * IMAGE_MARGIN;
  double y;

  g_return_val_if_fail (RP_IS_REPORT (self), 0);
  g_return_val_if_fail (cr != NULL, 0);

  if (style == NULL)
    {
      rp_plot_style_init_default (&default_style, FALSE);
      style = &default_style;
    }

  cairo_save (cr);
  rp_export_pen_init (&pen, cr, style);
  rp_export_charts_init (&charts, self);
  y = draw_image_header (&pen, self, IMAGE_MARGIN, IMAGE_MARGIN, inner) + GAP + GAP / 2;
  if (charts.plots->len == 0)
    y += rp_export_show_text (&pen, _("No samples were recorded, so there is nothing to plot."),
                              IMAGE_MARGIN, y, inner, 1.0, FALSE, &style->foreground, 0.7);
  else
    y = draw_chart_grid (cr, &charts, IMAGE_MARGIN, y, inner, style);
  rp_export_charts_clear (&charts);
  rp_export_pen_clear (&pen);
  cairo_restore (cr);
  return ceil (y + IMAGE_MARGIN);
}

/* Drawn once into a recording surface, which gives the height, then replayed
 * onto an image of that height (or into an SVG, where it stays vectors). */
static GBytes *
render_image (RpReport    *self,
              gboolean     svg,
              GError     **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  cairo_surface_t *recording, *target;
  cairo_status_t status;
  RpPlotStyle style;
  cairo_t *cr;
  double height;

  rp_plot_style_init_default (&style, FALSE);
  recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA, NULL);
  cr = cairo_create (recording);
  height = rp_report_draw_image (self, cr, RP_REPORT_IMAGE_WIDTH, &style);
  cairo_destroy (cr);

  if (svg)
    {
      target = cairo_svg_surface_create_for_stream (rp_export_append_bytes, bytes,
                                                    RP_REPORT_IMAGE_WIDTH, height);
      cairo_svg_surface_set_document_unit (target, CAIRO_SVG_UNIT_PX);
    }
  else
    {
      target = cairo_image_surface_create (CAIRO_FORMAT_RGB24, RP_REPORT_IMAGE_WIDTH, (int) height);
    }
  cr = cairo_create (target);
  set_source (cr, &style.background, 1);
  cairo_paint (cr);
  cairo_set_source_surface (cr, recording, 0, 0);
  cairo_paint (cr);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && !svg)
    status = cairo_surface_write_to_png_stream (target, rp_export_append_bytes, bytes);
  /* Finishing writes the SVG's end. */
  cairo_surface_finish (target);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (target);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (recording);
  cairo_surface_destroy (target);
  cairo_surface_destroy (recording);

  if (!rp_export_check_status (status, svg ? "SVG" : "PNG", error))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

/**
 * rp_report_render:
 * @format: "png", "svg" or "pdf" (case-insensitive)
 * @error: %RP_ERROR_INVALID_ARGUMENT for another format, %RP_ERROR_FAILED
 *   when cairo cannot draw (out of memory)
 *
 * The file contents of an image or PDF export, in memory; rp_report_save()
 * writes them atomically. PNG and SVG: rp_report_draw_image() at
 * %RP_REPORT_IMAGE_WIDTH. PDF: A4 pages with the title, the date and the
 * target, the verdict, the system snapshot table (rp_sysinfo_get_fields()),
 * the scenario and notes, the summary table, then every chart across the
 * page; page numbers in the footer. Light style
 * (rp_plot_style_init_default()), the chart code of the screen. Pure CPU
 * work (no I/O), safe on a worker thread.
 *
 * Returns: (transfer full) (nullable): the bytes, or %NULL with @error set
 */
GBytes *
rp_report_render (RpReport    *self,
                  const char  *format,
                  GError     **error)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  g_return_val_if_fail (format != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_ascii_strcasecmp (format, "png") == 0)
    return render_image (self, FALSE, error);
  if (g_ascii_strcasecmp (format, "svg") == 0)
    return render_image (self, TRUE, error);
  if (g_ascii_strcasecmp (format, "pdf") == 0)
    return rp_report_render_pdf (self, error);

  {
    g_autofree char *shown = rp_text_shorten (format);

    g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                 _("Unknown image format “%s”; use png, svg or pdf"), shown);
  }
  return NULL;
}

static gboolean
is_drawn_format (const char *format)
{
  return g_ascii_strcasecmp (format, "png") == 0 || g_ascii_strcasecmp (format, "svg") == 0 ||
         g_ascii_strcasecmp (format, "pdf") == 0;
}

/**
 * rp_report_export:
 * @file: where to write; replaced atomically if it exists
 * @format: any of rp_report_list_formats(): "json", "csv", "txt" as
 *   rp_report_save() writes them, "png" or "svg" (the charts,
 *   rp_report_draw_image()) or "pdf" (the whole report, rp_report_render());
 *   case-insensitive. rp_report_format_for_filename() finds it from a name.
 * @error: as rp_report_save() and rp_report_render() set it
 *
 * Writes a report in any format, the whole file or nothing. Drawn formats
 * are rendered in memory first (a few hundred KiB) and written the same
 * atomic way as the others. Blocks on I/O and draws (tens of
 * milliseconds): call it from a worker thread in a GUI.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_report_export (RpReport    *self,
                  GFile       *file,
                  const char  *format,
                  GError     **error)
{
  g_autoptr(GBytes) image = NULL;

  g_return_val_if_fail (RP_IS_REPORT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (format != NULL, FALSE);

  if (!is_drawn_format (format))
    return rp_report_save (self, file, format, error);
  image = rp_report_render (self, format, error);
  if (image == NULL)
    return FALSE;
  return rp_report_save_contents (file, g_bytes_get_data (image, NULL), g_bytes_get_size (image), error);
}
