/* rp-report-export.c: a report as an image of its charts (PNG, SVG) or as a PDF document. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <pango/pangocairo.h>
#include <string.h>

#include "rp-error.h"
#include "rp-plot-catalog.h"
#include "rp-report-export.h"
#include "rp-report-private.h"
#include "rp-units.h"

/* Everything is laid out in device units of the screen (pixels at 96 dpi,
 * where Pango's points become 4/3 pixels), multiples of 6 as in rp-plot.c:
 * charts in a file look as they do in the window. */
#define GAP          12.0
#define CORNER        6.0
#define IMAGE_MARGIN 24.0
#define FULL_HEIGHT  300.0   /* a chart across the whole image */
#define HALF_HEIGHT  264.0   /* two charts side by side */

/* A4 in points. The PDF is laid out in pixels at 96 dpi and scaled to
 * points, so that "Sans 9" is 9 pt on paper and the charts keep the
 * proportions of the screen. */
#define A4_WIDTH_PT   595.2756
#define A4_HEIGHT_PT  841.8898
#define PT_PER_PX     (72.0 / 96.0)
#define PAGE_MARGIN   60.0    /* 16 mm */
#define PDF_CHART_HEIGHT 238.0   /* four to a page */
#define CELL_PAD_X    6.0
#define CELL_PAD_Y    3.0
/* A note (say, a command's output tail) longer than this is cut in the PDF:
 * the JSON and text reports have it whole. */
#define MAX_NOTE_CHARS 600
#define MAX_NOTE_LINES 8

/* ------------------------------------------------------------------------ */
/* Formats                                                                   */
/* ------------------------------------------------------------------------ */

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

/* ------------------------------------------------------------------------ */
/* Text                                                                      */
/* ------------------------------------------------------------------------ */

typedef struct {
  cairo_t              *cr;
  const RpPlotStyle    *style;
  PangoFontDescription *font;   /* the style's */
} Pen;

static void
pen_init (Pen               *pen,
          cairo_t           *cr,
          const RpPlotStyle *style)
{
  pen->cr = cr;
  pen->style = style;
  pen->font = pango_font_description_from_string (style->font ? style->font : "Sans 9");
  if (pango_font_description_get_size (pen->font) <= 0)
    pango_font_description_set_size (pen->font, 9 * PANGO_SCALE);
}

static void
pen_clear (Pen *pen)
{
  g_clear_pointer (&pen->font, pango_font_description_free);
}

static void
set_source (cairo_t      *cr,
            const RpRgba *rgba,
            double        alpha)
{
  cairo_set_source_rgba (cr, rgba->red, rgba->green, rgba->blue, rgba->alpha * alpha);
}

/* A layout of @text (cleaned of control characters: reports come from
 * strangers) in the style's font scaled by @scale, wrapped at @width when
 * that is positive. Plain text, never markup. */
static PangoLayout *
pen_layout (Pen            *pen,
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

static double
layout_height (PangoLayout *layout)
{
  int height;

  pango_layout_get_pixel_size (layout, NULL, &height);
  return height;
}

static double
layout_width (PangoLayout *layout)
{
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static void
show_layout (Pen          *pen,
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
static double
show_text (Pen          *pen,
           const char   *text,
           double        x,
           double        y,
           double        width,
           double        scale,
           gboolean      bold,
           const RpRgba *color,
           double        alpha)
{
  g_autoptr(PangoLayout) layout = pen_layout (pen, text, scale, bold, width, PANGO_ALIGN_LEFT);

  show_layout (pen, layout, x, y, color, alpha);
  return layout_height (layout);
}

static char *
describe_run (RpReport *self)
{
  g_autofree char *created = rp_text_format_created (rp_report_get_created (self));
  g_autofree char *duration = rp_report_format_duration (self);

  /* TRANSLATORS: when a run started and how long it took, e.g.
   * "2024-05-01 10:00:00 UTC · 20.0 s" */
  return g_strdup_printf (_("%s · %s"), created, duration);
}

/* ------------------------------------------------------------------------ */
/* Charts                                                                    */
/* ------------------------------------------------------------------------ */

typedef struct {
  GPtrArray *plots;        /* RpPlot */
  GArray    *placements;   /* RpPlotPlacement, one per plot */
} Charts;

static void
charts_init (Charts   *charts,
             RpReport *report)
{
  charts->placements = g_array_new (FALSE, FALSE, sizeof (RpPlotPlacement));
  /* One time axis for all, from the start to the end of the run, so that a
   * stall lines up with the iowait and the dirty memory beside it. */
  charts->plots = rp_plot_catalog_build (rp_report_get_series (report),
                                         rp_report_get_duration (report),
                                         charts->placements);
}

static void
charts_clear (Charts *charts)
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
static void
draw_chart (cairo_t           *cr,
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
          draw_chart (cr, g_ptr_array_index (charts->plots, i), x, y, half, HALF_HEIGHT, style);
          draw_chart (cr, g_ptr_array_index (charts->plots, i + 1), x + width - half, y, half, HALF_HEIGHT, style);
          bottom = y + HALF_HEIGHT;
          i += 2;
        }
      else
        {
          draw_chart (cr, g_ptr_array_index (charts->plots, i), x, y, width, FULL_HEIGHT, style);
          bottom = y + FULL_HEIGHT;
          i++;
        }
      y = bottom + GAP;
    }
  return bottom;
}

/* ------------------------------------------------------------------------ */
/* Image (PNG, SVG)                                                          */
/* ------------------------------------------------------------------------ */

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
  g_autofree char *run = describe_run (self);
  g_autofree char *target = rp_sysinfo_describe (rp_report_get_sysinfo (self));
  g_autofree char *scenario = rp_scenario_describe (rp_report_get_scenario (self));
  g_autofree char *verdict = rp_report_get_verdict (self);
  const char *error_message = rp_report_get_error_message (self);
  g_autoptr(PangoLayout) title = pen_layout (pen, _("Responsiveness Probe report"), 1.6, TRUE, -1, PANGO_ALIGN_LEFT);
  g_autoptr(PangoLayout) when = NULL;
  double title_height = layout_height (title);

  /* The date goes right of the title if it fits, else below it. */
  when = pen_layout (pen, run, 1.0, FALSE, -1, PANGO_ALIGN_LEFT);
  show_layout (pen, title, x, y, fg, 1);
  if (layout_width (title) + 2 * GAP + layout_width (when) <= width)
    {
      show_layout (pen, when, x + width - layout_width (when),
                   y + title_height - layout_height (when) - 2, fg, 0.7);
      y += title_height + 4;
    }
  else
    {
      y += title_height + 2;
      show_layout (pen, when, x, y, fg, 0.7);
      y += layout_height (when) + 2;
    }

  y += show_text (pen, target, x, y, width, 1.0, FALSE, fg, 0.7) + 2;
  y += show_text (pen, scenario, x, y, width, 1.0, FALSE, fg, 0.7) + GAP / 2;
  y += show_text (pen, verdict, x, y, width, 1.2, FALSE, fg, 1);
  if (error_message != NULL)
    {
      /* TRANSLATORS: %s is the error message that stopped a run */
      g_autofree char *line = g_strdup_printf (_("The run ended early: %s"), error_message);

      y += 4 + show_text (pen, line, x, y + 4, width, 1.0, TRUE, &pen->style->threshold, 1);
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
  pen_init (&pen, cr, style);
  charts_init (&charts, self);
  y = draw_image_header (&pen, self, IMAGE_MARGIN, IMAGE_MARGIN, inner) + GAP + GAP / 2;
  if (charts.plots->len == 0)
    y += show_text (&pen, _("No samples were recorded, so there is nothing to plot."),
                    IMAGE_MARGIN, y, inner, 1.0, FALSE, &style->foreground, 0.7);
  else
    y = draw_chart_grid (cr, &charts, IMAGE_MARGIN, y, inner, style);
  charts_clear (&charts);
  pen_clear (&pen);
  cairo_restore (cr);
  return ceil (y + IMAGE_MARGIN);
}

static cairo_status_t
append_bytes (void                *closure,
              const unsigned char *data,
              unsigned int         length)
{
  g_byte_array_append (closure, data, length);
  return CAIRO_STATUS_SUCCESS;
}

static gboolean
check_status (cairo_status_t   status,
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
      target = cairo_svg_surface_create_for_stream (append_bytes, bytes, RP_REPORT_IMAGE_WIDTH, height);
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
    status = cairo_surface_write_to_png_stream (target, append_bytes, bytes);
  /* Finishing writes the SVG's end. */
  cairo_surface_finish (target);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (target);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (recording);
  cairo_surface_destroy (target);
  cairo_surface_destroy (recording);

  if (!check_status (status, svg ? "SVG" : "PNG", error))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}

/* ------------------------------------------------------------------------ */
/* PDF                                                                       */
/* ------------------------------------------------------------------------ */

typedef struct {
  Pen       pen;
  RpReport *report;
  double    page_width;      /* px */
  double    page_height;
  double    left;            /* the content box */
  double    right;
  double    top;
  double    bottom;
  double    y;               /* where the next block goes */
  guint     page;            /* 1-based; 0 before the first */
  guint     n_pages;         /* 0 while counting */
  char     *footer;
} Doc;

static double
doc_width (Doc *doc)
{
  return doc->right - doc->left;
}

static void
doc_draw_footer (Doc *doc)
{
  /* TRANSLATORS: page footer, e.g. "Page 2 of 3" */
  g_autofree char *number = g_strdup_printf (_("Page %u of %u"), doc->page,
                                             doc->n_pages > 0 ? doc->n_pages : doc->page);
  g_autoptr(PangoLayout) left = pen_layout (&doc->pen, doc->footer, 0.85, FALSE, -1, PANGO_ALIGN_LEFT);
  g_autoptr(PangoLayout) right = pen_layout (&doc->pen, number, 0.85, FALSE, -1, PANGO_ALIGN_LEFT);
  double y = doc->bottom + (doc->page_height - doc->bottom - layout_height (left)) / 2;
  const RpRgba *fg = &doc->pen.style->foreground;

  set_source (doc->pen.cr, fg, 0.2);
  cairo_rectangle (doc->pen.cr, doc->left, y - 6, doc_width (doc), 1);
  cairo_fill (doc->pen.cr);
  show_layout (&doc->pen, left, doc->left, y, fg, 0.6);
  show_layout (&doc->pen, right, doc->right - layout_width (right), y, fg, 0.6);
}

static void
doc_new_page (Doc *doc)
{
  if (doc->page > 0)
    {
      doc_draw_footer (doc);
      cairo_show_page (doc->pen.cr);
    }
  doc->page++;
  doc->y = doc->top;
}

/* Starts a new page unless @height fits below the cursor (or the page is
 * still empty: a block taller than a page is cut, not repeated forever). */
static void
doc_need (Doc    *doc,
          double  height)
{
  if (doc->y + height > doc->bottom && doc->y > doc->top)
    doc_new_page (doc);
}

static void
doc_paragraph (Doc          *doc,
               const char   *text,
               double        scale,
               gboolean      bold,
               const RpRgba *color,
               double        alpha)
{
  g_autoptr(PangoLayout) layout = pen_layout (&doc->pen, text, scale, bold, doc_width (doc), PANGO_ALIGN_LEFT);
  double height = layout_height (layout);

  doc_need (doc, height);
  show_layout (&doc->pen, layout, doc->left, doc->y, color, alpha);
  doc->y += height;
}

/* A section title, kept on one page with @keep_with_next of what follows. */
static void
doc_heading (Doc        *doc,
             const char *title,
             double      keep_with_next)
{
  g_autoptr(PangoLayout) layout = pen_layout (&doc->pen, title, 1.3, TRUE, doc_width (doc), PANGO_ALIGN_LEFT);
  double height = layout_height (layout);
  const RpRgba *fg = &doc->pen.style->foreground;

  if (doc->y > doc->top)
    doc->y += 2 * GAP;
  doc_need (doc, height + 6 + keep_with_next);
  show_layout (&doc->pen, layout, doc->left, doc->y, fg, 1);
  doc->y += height + 2;
  set_source (doc->pen.cr, fg, 0.25);
  cairo_rectangle (doc->pen.cr, doc->left, doc->y, doc_width (doc), 1);
  cairo_fill (doc->pen.cr);
  doc->y += 6;
}

/* A table: cells wrap inside their column; a row that does not fit starts a
 * new page, which repeats the header. */
typedef struct {
  guint        n_columns;
  const char  *header[8];     /* NULL first cell: no header row */
  gboolean     right[8];      /* right-aligned columns (numbers) */
  GPtrArray   *rows;          /* char **, n_columns cells each */
  double       widths[8];
} DocTable;

static void
doc_table_add (DocTable    *table,
               const char  *first,
               ...) G_GNUC_NULL_TERMINATED;

static void
doc_table_add (DocTable    *table,
               const char  *first,
               ...)
{
  char **cells = g_new0 (char *, table->n_columns + 1);
  va_list args;

  cells[0] = g_strdup (first);
  va_start (args, first);
  for (guint c = 1; c < table->n_columns; c++)
    cells[c] = g_strdup (va_arg (args, const char *));
  va_end (args);
  g_ptr_array_add (table->rows, cells);
}

static double
natural_width (Doc        *doc,
               const char *text,
               gboolean    bold)
{
  g_autoptr(PangoLayout) layout = pen_layout (&doc->pen, text, 1.0, bold, -1, PANGO_ALIGN_LEFT);

  return layout_width (layout);
}

/* A table of numbers: every column but the first as wide as its widest
 * cell, the first (names) gets the rest, at least a third, and wraps. A
 * key-value table (@stretch_last): keys as wide as the widest, at most half,
 * values get the rest. */
static void
doc_table_measure (Doc      *doc,
                   DocTable *table,
                   gboolean  stretch_last)
{
  double total = doc_width (doc), used = 0, first = 0;

  for (guint c = 0; c < table->n_columns; c++)
    {
      double width = table->header[0] != NULL ? natural_width (doc, table->header[c], TRUE) : 0;

      for (guint r = 0; r < table->rows->len; r++)
        width = MAX (width, natural_width (doc, ((char **) g_ptr_array_index (table->rows, r))[c], FALSE));
      table->widths[c] = width + 2 * CELL_PAD_X;
    }
  if (stretch_last)
    {
      /* Key and value: the keys as wide as the widest, at most half. */
      table->widths[0] = MIN (table->widths[0], floor (total * 0.5));
      table->widths[1] = total - table->widths[0];
      return;
    }
  for (guint c = 1; c < table->n_columns; c++)
    used += table->widths[c];
  first = MAX (total - used, floor (total / 3));
  table->widths[0] = first;
  if (used + first > total)
    {
      /* Too wide: the number columns share what is left. */
      double scale = (total - first) / used;

      for (guint c = 1; c < table->n_columns; c++)
        table->widths[c] = floor (table->widths[c] * scale);
    }
}

static double
doc_table_row (Doc         *doc,
               DocTable    *table,
               const char **cells,
               gboolean     bold,
               gboolean     shaded,
               gboolean     draw)
{
  PangoLayout *layouts[8];
  double height = 0, x = doc->left;

  for (guint c = 0; c < table->n_columns; c++)
    {
      layouts[c] = pen_layout (&doc->pen, cells[c] ? cells[c] : "", 1.0, bold,
                               table->widths[c] - 2 * CELL_PAD_X,
                               table->right[c] ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
      height = MAX (height, layout_height (layouts[c]));
    }
  height += 2 * CELL_PAD_Y;

  if (draw)
    {
      if (shaded)
        {
          set_source (doc->pen.cr, &doc->pen.style->grid, 0.6);
          cairo_rectangle (doc->pen.cr, doc->left, doc->y, doc_width (doc), height);
          cairo_fill (doc->pen.cr);
        }
      for (guint c = 0; c < table->n_columns; c++)
        {
          show_layout (&doc->pen, layouts[c], x + CELL_PAD_X, doc->y + CELL_PAD_Y,
                       &doc->pen.style->foreground, c == 0 && !bold ? 0.75 : 1);
          x += table->widths[c];
        }
      if (bold)
        {
          set_source (doc->pen.cr, &doc->pen.style->foreground, 0.3);
          cairo_rectangle (doc->pen.cr, doc->left, doc->y + height - 1, doc_width (doc), 1);
          cairo_fill (doc->pen.cr);
        }
    }
  for (guint c = 0; c < table->n_columns; c++)
    g_object_unref (layouts[c]);
  return height;
}

static void
doc_table (Doc      *doc,
           DocTable *table,
           gboolean  key_value)
{
  gboolean has_header = table->header[0] != NULL;
  double header;

  doc_table_measure (doc, table, key_value);
  header = has_header ? doc_table_row (doc, table, table->header, TRUE, FALSE, FALSE) : 0;
  for (guint r = 0; r < table->rows->len; r++)
    {
      const char **cells = g_ptr_array_index (table->rows, r);
      double height = doc_table_row (doc, table, cells, FALSE, FALSE, FALSE);

      if (r == 0)
        doc_need (doc, header + height);
      else if (doc->y + height > doc->bottom)
        doc_new_page (doc);
      if (has_header && (r == 0 || doc->y == doc->top))
        doc->y += doc_table_row (doc, table, table->header, TRUE, FALSE, TRUE);
      doc->y += doc_table_row (doc, table, cells, FALSE, r % 2 == 1, TRUE);
    }
}

static void
doc_table_init (DocTable *table,
                guint     n_columns)
{
  memset (table, 0, sizeof *table);
  g_assert (n_columns <= G_N_ELEMENTS (table->header));
  table->n_columns = n_columns;
  table->rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
}

static void
doc_table_clear (DocTable *table)
{
  g_clear_pointer (&table->rows, g_ptr_array_unref);
}

/* The verdict in a tinted box with an accent bar: the one thing to read. */
static void
doc_verdict (Doc *doc)
{
  g_autofree char *verdict = rp_report_get_verdict (doc->report);
  const RpPlotStyle *style = doc->pen.style;
  double inset = GAP + 4;
  g_autoptr(PangoLayout) layout = pen_layout (&doc->pen, verdict, 1.2, FALSE,
                                              doc_width (doc) - 2 * inset, PANGO_ALIGN_LEFT);
  double height = layout_height (layout) + 2 * GAP;

  doc_need (doc, height);
  set_source (doc->pen.cr, &style->palette[0], 0.08);
  cairo_rectangle (doc->pen.cr, doc->left, doc->y, doc_width (doc), height);
  cairo_fill (doc->pen.cr);
  set_source (doc->pen.cr, &style->palette[0], 1);
  cairo_rectangle (doc->pen.cr, doc->left, doc->y, 4, height);
  cairo_fill (doc->pen.cr);
  show_layout (&doc->pen, layout, doc->left + inset, doc->y + GAP, &style->foreground, 1);
  doc->y += height;
}

static void
doc_title (Doc *doc)
{
  const RpRgba *fg = &doc->pen.style->foreground;
  g_autofree char *run = describe_run (doc->report);
  g_autofree char *target = rp_sysinfo_describe (rp_report_get_sysinfo (doc->report));
  const char *error_message = rp_report_get_error_message (doc->report);

  doc_paragraph (doc, _("Responsiveness Probe report"), 2.0, TRUE, fg, 1);
  doc->y += 4;
  doc_paragraph (doc, run, 1.1, FALSE, fg, 0.7);
  doc->y += 2;
  doc_paragraph (doc, target, 1.1, FALSE, fg, 0.7);
  doc->y += GAP;
  doc_verdict (doc);
  if (error_message != NULL)
    {
      g_autofree char *line = g_strdup_printf (_("The run ended early: %s"), error_message);

      doc->y += GAP / 2;
      doc_paragraph (doc, line, 1.0, TRUE, &doc->pen.style->threshold, 1);
    }
}

static void
doc_system (Doc *doc)
{
  const RpSysinfo *sysinfo = rp_report_get_sysinfo (doc->report);
  g_autoptr(GPtrArray) fields = rp_sysinfo_get_fields (sysinfo);
  g_auto(GStrv) warnings = rp_sysinfo_get_warnings (sysinfo);
  DocTable table;

  doc_table_init (&table, 2);
  for (guint i = 0; i < fields->len; i++)
    {
      const RpSysinfoField *field = g_ptr_array_index (fields, i);

      doc_table_add (&table, field->label, field->value, NULL);
    }
  doc_heading (doc, _("System"), 60);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    {
      g_autofree char *line = g_strdup_printf ("⚠ %s", warnings[i]);

      doc_paragraph (doc, line, 1.0, TRUE, &doc->pen.style->threshold, 1);
      doc->y += 4;
    }
  doc_table (doc, &table, TRUE);
  doc_table_clear (&table);
}

static char *
cut_note (const char *value)
{
  const char *end = value;
  guint lines = 0;

  /* Whichever comes first: MAX_NOTE_CHARS characters or MAX_NOTE_LINES lines. */
  for (glong chars = 0; *end != '\0' && chars < MAX_NOTE_CHARS; chars++, end = g_utf8_next_char (end))
    if (*end == '\n' && ++lines == MAX_NOTE_LINES)
      break;
  if (*end == '\0' || (*end == '\n' && end[1] == '\0'))
    return g_strdup (value);
  return g_strdup_printf ("%.*s…", (int) (end - value), value);
}

static void
doc_scenario (Doc *doc)
{
  g_autofree char *description = rp_scenario_describe (rp_report_get_scenario (doc->report));
  GHashTable *notes = rp_report_get_notes (doc->report);
  g_autoptr(GPtrArray) keys = rp_report_notes_sorted_keys (notes);
  DocTable table;

  doc_heading (doc, _("Scenario"), 30);
  doc_paragraph (doc, description, 1.0, FALSE, &doc->pen.style->foreground, 1);
  if (keys->len == 0)
    return;

  doc_table_init (&table, 2);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      g_autofree char *valid = g_utf8_make_valid (g_hash_table_lookup (notes, key), -1);
      g_autofree char *value = cut_note (valid);

      doc_table_add (&table, key, value, NULL);
    }
  doc_heading (doc, _("Notes"), 40);
  doc_table (doc, &table, TRUE);
  doc_table_clear (&table);
}

static char *
format_count (guint64 count)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, count);
}

static void
add_summary_row (DocTable      *table,
                 RpSeries      *series,
                 const RpStats *stats,
                 gboolean       latency)
{
  const char *unit = rp_series_get_unit (series);
  g_autofree char *n = format_count (stats->n);
  g_autofree char *p50 = rp_format_value (unit, stats->p50);
  g_autofree char *p90 = rp_format_value (unit, stats->p90);
  g_autofree char *p99 = rp_format_value (unit, stats->p99);
  g_autofree char *max = rp_format_value (unit, stats->max);
  g_autofree char *instant = format_count (stats->over_instant);
  g_autofree char *flow = format_count (stats->over_flow);
  const char *name = rp_series_get_name (series);

  if (latency)
    doc_table_add (table, name, n, p50, p90, p99, max, instant, flow, NULL);
  else
    doc_table_add (table, name, n, p50, p90, p99, max, NULL);
}

/* The text report's summary: latencies with their stall counts, then the
 * other series in their units. */
static void
doc_summary (Doc *doc)
{
  GPtrArray *series = rp_report_get_series (doc->report);
  g_autofree char *instant = rp_format_limit (RP_LIMIT_INSTANT);
  g_autofree char *flow = rp_format_limit (RP_LIMIT_FLOW);
  g_autofree char *over_instant = g_strdup_printf ("> %s", instant);
  g_autofree char *over_flow = g_strdup_printf ("> %s", flow);
  DocTable latencies, others;

  doc_table_init (&latencies, 8);
  doc_table_init (&others, 6);
  latencies.header[0] = _("Latency");
  others.header[0] = _("Series");
  for (guint t = 0; t < 2; t++)
    {
      DocTable *table = t == 0 ? &latencies : &others;
      const char *rest[] = { "n", "p50", "p90", "p99", _("max"), over_instant, over_flow };

      for (guint c = 1; c < table->n_columns; c++)
        {
          table->header[c] = rest[c - 1];
          table->right[c] = TRUE;
        }
    }
  for (guint i = 0; i < series->len; i++)
    {
      RpSeries *s = g_ptr_array_index (series, i);
      gboolean latency = g_strcmp0 (rp_series_get_unit (s), "s") == 0;
      RpStats stats;

      rp_report_stats_at (doc->report, i, &stats);
      if (stats.n > 0)
        add_summary_row (latency ? &latencies : &others, s, &stats, latency);
    }

  doc_heading (doc, _("Summary"), 40);
  if (latencies.rows->len == 0 && others.rows->len == 0)
    doc_paragraph (doc, _("No samples were recorded."), 1.0, FALSE, &doc->pen.style->foreground, 1);
  if (latencies.rows->len > 0)
    doc_table (doc, &latencies, FALSE);
  if (latencies.rows->len > 0 && others.rows->len > 0)
    doc->y += GAP;
  if (others.rows->len > 0)
    doc_table (doc, &others, FALSE);
  doc_table_clear (&latencies);
  doc_table_clear (&others);
}

/* Every chart across the page: half a page's width would be too small to read. */
static void
doc_charts (Doc *doc)
{
  Charts charts;

  charts_init (&charts, doc->report);
  if (charts.plots->len > 0)
    doc_heading (doc, _("Charts"), PDF_CHART_HEIGHT);
  for (guint i = 0; i < charts.plots->len; i++)
    {
      doc_need (doc, PDF_CHART_HEIGHT);
      draw_chart (doc->pen.cr, g_ptr_array_index (charts.plots, i), doc->left, doc->y,
                  doc_width (doc), PDF_CHART_HEIGHT, doc->pen.style);
      doc->y += PDF_CHART_HEIGHT + GAP;
    }
  charts_clear (&charts);
}

/* Lays the whole document out onto @surface; returns the number of pages.
 * With @n_pages 0 (unknown) the footers say "Page N of N": that pass only
 * counts. */
static guint
draw_pdf (RpReport        *self,
          cairo_surface_t *surface,
          guint            n_pages)
{
  g_autofree char *created = rp_text_format_created (rp_report_get_created (self));
  RpPlotStyle style;
  cairo_t *cr = cairo_create (surface);
  Doc doc = { 0 };

  rp_plot_style_init_default (&style, FALSE);
  cairo_scale (cr, PT_PER_PX, PT_PER_PX);
  pen_init (&doc.pen, cr, &style);
  doc.report = self;
  doc.n_pages = n_pages;
  doc.page_width = A4_WIDTH_PT / PT_PER_PX;
  doc.page_height = A4_HEIGHT_PT / PT_PER_PX;
  doc.left = PAGE_MARGIN;
  doc.right = doc.page_width - PAGE_MARGIN;
  doc.top = PAGE_MARGIN;
  doc.bottom = doc.page_height - PAGE_MARGIN;
  /* TRANSLATORS: page footer, %s is when the run started */
  doc.footer = g_strdup_printf (_("Responsiveness Probe report · %s"), created);

  doc_new_page (&doc);
  doc_title (&doc);
  doc_system (&doc);
  doc_scenario (&doc);
  doc_summary (&doc);
  doc_charts (&doc);
  doc_draw_footer (&doc);

  g_free (doc.footer);
  pen_clear (&doc.pen);
  cairo_destroy (cr);
  return doc.page;
}

static cairo_status_t
discard_bytes (void                *closure,
               const unsigned char *data,
               unsigned int         length)
{
  return CAIRO_STATUS_SUCCESS;
}

static GBytes *
render_pdf (RpReport  *self,
            GError   **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GDateTime) created = g_date_time_to_utc (rp_report_get_created (self));
  g_autofree char *date = g_date_time_format (created, "%Y-%m-%dT%H:%M:%SZ");
  g_autofree char *title = NULL;
  cairo_surface_t *surface;
  cairo_status_t status;
  guint n_pages;

  /* The footers say "of N": count the pages first. */
  surface = cairo_pdf_surface_create_for_stream (discard_bytes, NULL, A4_WIDTH_PT, A4_HEIGHT_PT);
  n_pages = draw_pdf (self, surface, 0);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (!check_status (status, "PDF", error))
    return NULL;

  surface = cairo_pdf_surface_create_for_stream (append_bytes, bytes, A4_WIDTH_PT, A4_HEIGHT_PT);
  title = g_strdup_printf ("%s (%s)", _("Responsiveness Probe report"), rp_report_get_scenario (self)->name);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "resprobe " PACKAGE_VERSION);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
  draw_pdf (self, surface, n_pages);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (!check_status (status, "PDF", error))
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
    return render_pdf (self, error);

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
