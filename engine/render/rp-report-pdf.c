/* rp-report-pdf.c: the PDF report: A4 pages of verdict, system, scenario, summary and charts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-pdf.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rp-report-export-private.h"
#include "rp-comparison.h"
#include "rp-report-private.h"
#include "rp-units.h"

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
/* Notes shown in the PDF, in the order of their keys; the rest are counted
 * in a line below the table. Each note costs Pango layouts of its own (a
 * width, a height, a drawing, on two passes): 20 000 notes took over two
 * minutes and hundreds of pages (issue 16, item 10). The JSON and text
 * reports have them all. */
#define MAX_PDF_NOTES  100

typedef struct {
  Pen       pen;
  RpReport *report;
  double    page_width;      /* px */
  double    page_height;
  double    left;            /* the content box */
  double    right;
  double    top;
  double    bottom;          /* of this page's content */
  double    full_bottom;     /* of a page's content, but for the short page */
  guint     short_page;      /* the page that ends early, 0: none */
  double    short_bottom;    /* where it ends */
  double    y;               /* where the next block goes */
  guint     page;            /* 1-based; 0 before the first */
  guint     n_pages;         /* 0 while counting */
  double    min_fill;        /* the emptiest finished page's share of its content box */
  char     *footer;
} Doc;

/* How full the page being laid out is: a share of its content box. */
static double
doc_fill (Doc *doc)
{
  return (doc->y - doc->top) / (doc->full_bottom - doc->top);
}

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
  g_autoptr(PangoLayout) left = rp_export_pen_layout (&doc->pen, doc->footer, 0.85, FALSE, -1,
                                                      PANGO_ALIGN_LEFT);
  g_autoptr(PangoLayout) right = rp_export_pen_layout (&doc->pen, number, 0.85, FALSE, -1, PANGO_ALIGN_LEFT);
  double y = doc->full_bottom + (doc->page_height - doc->full_bottom - rp_export_layout_height (left)) / 2;
  const RpRgba *fg = &doc->pen.style->foreground;

  set_source (doc->pen.cr, fg, 0.2);
  cairo_rectangle (doc->pen.cr, doc->left, y - 6, doc_width (doc), 1);
  cairo_fill (doc->pen.cr);
  rp_export_show_layout (&doc->pen, left, doc->left, y, fg, 0.6);
  rp_export_show_layout (&doc->pen, right, doc->right - rp_export_layout_width (right), y, fg, 0.6);
}

static void
doc_new_page (Doc *doc)
{
  if (doc->page > 0)
    {
      doc->min_fill = MIN (doc->min_fill, doc_fill (doc));
      doc_draw_footer (doc);
      cairo_show_page (doc->pen.cr);
    }
  doc->page++;
  doc->y = doc->top;
  doc->bottom = doc->page == doc->short_page ? doc->short_bottom : doc->full_bottom;
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
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (&doc->pen, text, scale, bold, doc_width (doc),
                                                        PANGO_ALIGN_LEFT);
  double height = rp_export_layout_height (layout);

  doc_need (doc, height);
  rp_export_show_layout (&doc->pen, layout, doc->left, doc->y, color, alpha);
  doc->y += height;
}

/* A section title, kept on one page with @keep_with_next of what follows. */
static void
doc_heading (Doc        *doc,
             const char *title,
             double      keep_with_next)
{
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (&doc->pen, title, 1.3, TRUE, doc_width (doc),
                                                        PANGO_ALIGN_LEFT);
  double height = rp_export_layout_height (layout);
  const RpRgba *fg = &doc->pen.style->foreground;

  if (doc->y > doc->top)
    doc->y += 2 * GAP;
  doc_need (doc, height + 6 + keep_with_next);
  rp_export_show_layout (&doc->pen, layout, doc->left, doc->y, fg, 1);
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
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (&doc->pen, text, 1.0, bold, -1, PANGO_ALIGN_LEFT);

  return rp_export_layout_width (layout);
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
      layouts[c] = rp_export_pen_layout (&doc->pen, cells[c] ? cells[c] : "", 1.0, bold,
                                         table->widths[c] - 2 * CELL_PAD_X,
                                         table->right[c] ? PANGO_ALIGN_RIGHT : PANGO_ALIGN_LEFT);
      height = MAX (height, rp_export_layout_height (layouts[c]));
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
          rp_export_show_layout (&doc->pen, layouts[c], x + CELL_PAD_X, doc->y + CELL_PAD_Y,
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

/* The verdict in one sentence in a tinted box with an accent bar: the one
 * thing to read, as the window's card says it; the per-probe sentences
 * follow it (doc_title()). */
static void
doc_verdict (Doc *doc)
{
  g_autofree char *verdict = rp_report_get_short_verdict (doc->report);
  const RpPlotStyle *style = doc->pen.style;
  double inset = GAP + 4;
  g_autoptr(PangoLayout) layout = rp_export_pen_layout (&doc->pen, verdict, 1.2, FALSE,
                                                        doc_width (doc) - 2 * inset, PANGO_ALIGN_LEFT);
  double height = rp_export_layout_height (layout) + 2 * GAP;

  doc_need (doc, height);
  set_source (doc->pen.cr, &style->palette[0], 0.08);
  cairo_rectangle (doc->pen.cr, doc->left, doc->y, doc_width (doc), height);
  cairo_fill (doc->pen.cr);
  set_source (doc->pen.cr, &style->palette[0], 1);
  cairo_rectangle (doc->pen.cr, doc->left, doc->y, 4, height);
  cairo_fill (doc->pen.cr);
  rp_export_show_layout (&doc->pen, layout, doc->left + inset, doc->y + GAP, &style->foreground, 1);
  doc->y += height;
}

static void
doc_title (Doc *doc)
{
  const RpRgba *fg = &doc->pen.style->foreground;
  g_autofree char *run = rp_export_describe_run (doc->report);
  g_autofree char *target = rp_sysinfo_describe (rp_report_get_sysinfo (doc->report));
  const char *error_message = rp_report_get_error_message (doc->report);

  g_autoptr(RpRunSummary) summary = rp_report_get_summary (doc->report);
  g_autofree char *details = rp_report_get_verdict (doc->report);
  g_autofree char *short_verdict = rp_run_summary_get_short_verdict (summary);
  /* TRANSLATORS: the line under a PDF report's headline, e.g.
   * "Responsiveness Probe report: R1, 60 s, stopped" */
  g_autofree char *subtitle = g_strdup_printf (_("Responsiveness Probe report: %s"), run);

  /* The verdict's headline is the title: what stalled, not the tool's name. */
  doc_paragraph (doc, rp_run_summary_get_headline (summary, TRUE), 2.0, TRUE, fg, 1);
  doc->y += 4;
  doc_paragraph (doc, subtitle, 1.1, FALSE, fg, 0.7);
  doc->y += 2;
  doc_paragraph (doc, target, 1.1, FALSE, fg, 0.7);
  doc->y += GAP;
  doc_verdict (doc);
  if (g_strcmp0 (details, short_verdict) != 0)
    {
      doc->y += GAP / 2;
      doc_paragraph (doc, details, 1.0, FALSE, fg, 0.8);
    }
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
  /* TRANSLATORS: heading of the PDF report's appendix */
  doc_heading (doc, _("Appendix: system"), 60);
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

  /* TRANSLATORS: heading of the PDF report's appendix */
  doc_heading (doc, _("Appendix: scenario"), 30);
  doc_paragraph (doc, description, 1.0, FALSE, &doc->pen.style->foreground, 1);
  if (keys->len == 0)
    return;

  doc_table_init (&table, 2);
  for (guint i = 0; i < keys->len && i < MAX_PDF_NOTES; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      g_autofree char *valid = g_utf8_make_valid (g_hash_table_lookup (notes, key), -1);
      g_autofree char *shown = rp_report_note_value (key, valid);
      g_autofree char *value = cut_note (shown);
      /* The key itself stays in the JSON and text reports, for scripts. */
      g_autofree char *label = rp_report_note_label (key);

      doc_table_add (&table, label, value, NULL);
    }
  /* TRANSLATORS: heading of the PDF report's appendix: the run's notes (raw settings and counts) */
  doc_heading (doc, _("Appendix: notes"), 40);
  doc_table (doc, &table, TRUE);
  doc_table_clear (&table);
  if (keys->len > MAX_PDF_NOTES)
    {
      guint more = keys->len - MAX_PDF_NOTES;
      g_autofree char *line = g_strdup_printf (ngettext ("%u more note is in the JSON and text reports.",
                                                         "%u more notes are in the JSON and text reports.",
                                                         more), more);

      doc->y += GAP / 2;
      doc_paragraph (doc, line, 1.0, FALSE, &doc->pen.style->foreground, 0.7);
    }
}

static char *
format_count (guint64 count)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, count);
}

/* A series as the window's summary and the CLI name it: the parts table's
 * label or title, translated ("fsync latency", "Device write"); a thread of
 * a per-thread series gets its number. The stable name ("fsync_latency")
 * is for scripts: it stays in the JSON, CSV and text reports. */
static char *
series_label (const char *name)
{
  const RpSeriesInfo *info = rp_parts_lookup_series (name, NULL);
  char *pressure = rp_pressure_series_label (name);
  const char *label;

  if (pressure != NULL)
    return pressure;
  if (info == NULL)
    return g_strdup (name);
  label = info->label != NULL ? info->label : info->title;
  if (label == NULL)
    return g_strdup (name);
  if (g_str_has_prefix (name, "cpu_") && info->role == RP_SUMMARY_LEVEL && info->label == NULL)
    /* As the comparison names the CPU split: "User" alone says little. */
    return g_strdup_printf (_("CPU %s"), _(label));
  if (info->flags & RP_SERIES_FLAG_PER_THREAD)
    /* TRANSLATORS: a series of one thread of several, e.g. "write() latency, thread 3" */
    return g_strdup_printf (_("%s, thread %s"), _(label), name + strlen (info->name));
  return g_strdup (_(label));
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
  g_autofree char *name = series_label (rp_series_get_name (series));

  if (latency)
    doc_table_add (table, name, n, p50, p90, p99, max, instant, flow, NULL);
  else
    doc_table_add (table, name, n, p50, p90, p99, max, NULL);
}

/* Where series @name goes in the summary tables: the window's Results
 * rows' rank (fsync first), then the others in the report's order. */
static guint
summary_rank (const char *name,
              guint       index)
{
  for (guint row = 0; row < rp_run_summary_get_n_rows (); row++)
    if (g_strcmp0 (rp_run_summary_get_row_info (row)->name, name) == 0)
      return row;
  return rp_run_summary_get_n_rows () + index;
}

static int
compare_rank (gconstpointer a,
              gconstpointer b)
{
  const guint *ra = a, *rb = b;

  return (ra[0] > rb[0]) - (ra[0] < rb[0]);
}

/* The text report's summary: latencies with their stall counts
 * (@latency_part), or the other series in their units. The latencies come
 * before the charts, the others (CPU, PSI, dirty memory, the device: as
 * many rows as a page) after them, so that the charts are on the first
 * pages (issue 21: a page of series tables came before the first chart). */
static void
doc_summary (Doc      *doc,
             gboolean  latency_part)
{
  GPtrArray *series = rp_report_get_series (doc->report);
  g_autofree char *instant = rp_format_limit (RP_LIMIT_INSTANT);
  g_autofree char *flow = rp_format_limit (RP_LIMIT_FLOW);
  g_autofree char *over_instant = g_strdup_printf ("> %s", instant);
  g_autofree char *over_flow = g_strdup_printf ("> %s", flow);
  DocTable latencies, others;
  g_autofree guint *order = NULL;

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
  /* In the window's order: the Results table lists fsync first, and so
   * did the users; the journal's commits came first here. */
  order = g_new (guint, 2 * MAX (series->len, 1));
  for (guint i = 0; i < series->len; i++)
    {
      order[2 * i] = summary_rank (rp_series_get_name (g_ptr_array_index (series, i)), i);
      order[2 * i + 1] = i;
    }
  qsort (order, series->len, 2 * sizeof (guint), compare_rank);
  for (guint k = 0; k < series->len; k++)
    {
      guint i = order[2 * k + 1];
      RpSeries *s = g_ptr_array_index (series, i);
      gboolean latency = g_strcmp0 (rp_series_get_unit (s), "s") == 0;
      RpStats stats;

      rp_report_stats_at (doc->report, i, &stats);
      if (stats.n > 0)
        add_summary_row (latency ? &latencies : &others, s, &stats, latency);
    }

  if (latency_part)
    {
      doc_heading (doc, _("Summary"), 40);
      if (latencies.rows->len == 0 && others.rows->len == 0)
        doc_paragraph (doc, _("No samples were recorded."), 1.0, FALSE, &doc->pen.style->foreground, 1);
      if (latencies.rows->len > 0)
        doc_table (doc, &latencies, FALSE);
    }
  else if (others.rows->len > 0)
    {
      doc->y += GAP;
      doc_table (doc, &others, FALSE);
    }
  doc_table_clear (&latencies);
  doc_table_clear (&others);
}

/* Every chart across the page: half a page's width would be too small to read. */
static void
doc_charts (Doc *doc)
{
  Charts charts;

  rp_export_charts_init (&charts, doc->report);
  if (charts.plots->len > 0)
    doc_heading (doc, _("Charts"), PDF_CHART_HEIGHT);
  for (guint i = 0; i < charts.plots->len; i++)
    {
      doc_need (doc, PDF_CHART_HEIGHT);
      rp_export_draw_chart (doc->pen.cr, g_ptr_array_index (charts.plots, i), doc->left, doc->y,
                            doc_width (doc), PDF_CHART_HEIGHT, doc->pen.style);
      doc->y += PDF_CHART_HEIGHT + GAP;
    }
  rp_export_charts_clear (&charts);
}

/* The longest stalls with where their time went and what ran meanwhile,
 * as the text report's section has them. */
#define PDF_MAX_STALLS 8

static int
compare_stall_duration (gconstpointer a,
                        gconstpointer b)
{
  const RpStall *sa = *(const RpStall * const *) a;
  const RpStall *sb = *(const RpStall * const *) b;

  return (sa->duration < sb->duration) - (sa->duration > sb->duration);
}

static void
doc_stalls (Doc *doc)
{
  GPtrArray *stalls = rp_report_get_stalls (doc->report);
  g_autoptr(GPtrArray) longest = NULL;
  const RpRgba *fg = &doc->pen.style->foreground;

  if (stalls->len == 0)
    return;
  longest = g_ptr_array_copy (stalls, NULL, NULL);
  g_ptr_array_set_free_func (longest, NULL);
  g_ptr_array_sort (longest, compare_stall_duration);
  doc_heading (doc, _("Stalls: where the time went"), 60);
  for (guint i = 0; i < MIN (longest->len, PDF_MAX_STALLS); i++)
    {
      const RpStall *stall = g_ptr_array_index (longest, i);
      g_autofree char *start = rp_format_latency (stall->start);
      g_autofree char *duration = rp_format_latency (stall->duration);
      g_autofree char *title = g_strdup_printf (_("%s at %s: %s"), rp_stall_call_name (stall->series),
                                                start, duration);
      g_autofree char *breakdown = rp_report_stall_breakdown_text (stall, 4);
      g_autoptr(GPtrArray) meanwhile = rp_report_stall_meanwhile (doc->report, stall);

      if (i > 0)
        doc->y += GAP;
      doc_paragraph (doc, title, 1.0, TRUE, fg, 1);
      doc_paragraph (doc, breakdown, 1.0, FALSE, fg, 1);
      for (guint k = 0; k + 1 < meanwhile->len; k += 2)
        {
          g_autofree char *line = g_strdup_printf (_("%s: %s"), (char *) g_ptr_array_index (meanwhile, k),
                                                   (char *) g_ptr_array_index (meanwhile, k + 1));

          doc_paragraph (doc, line, 0.9, FALSE, fg, 0.75);
        }
    }
}

/* A last page is filled at least this much (a share of its content box)
 * when the document has two pages or more: a page of nine lines after a
 * full one looks like a mistake. */
#define MIN_LAST_PAGE_FILL (1.0 / 3)

/* How a pass lays the pages out: @n_pages 0 (unknown) while counting (the
 * footers say "Page N of N"); the page that ends early to give the last
 * page its share (@short_page, 0: none) and by how much. */
typedef struct {
  guint  n_pages;
  guint  short_page;
  double shorten;
} PdfPass;

/* Lays the whole document out onto @surface; returns the number of pages,
 * how full the last one is (@out_last_fill: share of its content box) and
 * the emptiest of the others (@out_min_fill, 1 for a single page). */
static guint
draw_pdf (RpReport        *self,
          cairo_surface_t *surface,
          const PdfPass   *pass,
          double          *out_last_fill,
          double          *out_min_fill)
{
  g_autofree char *created = rp_text_format_created (rp_report_get_created (self));
  RpPlotStyle style;
  cairo_t *cr = cairo_create (surface);
  Doc doc = { 0 };

  rp_plot_style_init_default (&style, FALSE);
  cairo_scale (cr, PT_PER_PX, PT_PER_PX);
  rp_export_pen_init (&doc.pen, cr, &style);
  doc.report = self;
  doc.n_pages = pass->n_pages;
  doc.min_fill = 1;
  doc.short_page = pass->short_page;
  doc.page_width = A4_WIDTH_PT / PT_PER_PX;
  doc.page_height = A4_HEIGHT_PT / PT_PER_PX;
  doc.left = PAGE_MARGIN;
  doc.right = doc.page_width - PAGE_MARGIN;
  doc.top = PAGE_MARGIN;
  doc.full_bottom = doc.bottom = doc.page_height - PAGE_MARGIN;
  doc.short_bottom = doc.full_bottom - pass->shorten;
  /* TRANSLATORS: page footer, %s is when the run started */
  doc.footer = g_strdup_printf (_("Responsiveness Probe report · %s"), created);

  /* What a reader came for first: the verdict, the latencies and the
   * charts, the other series' figures; why the stalls happened; then, as an appendix, the system and
   * the scenario's settings. */
  doc_new_page (&doc);
  doc_title (&doc);
  doc_summary (&doc, TRUE);
  doc_charts (&doc);
  doc_summary (&doc, FALSE);
  doc_stalls (&doc);
  doc_system (&doc);
  doc_scenario (&doc);
  doc_draw_footer (&doc);
  *out_last_fill = doc_fill (&doc);
  if (out_min_fill != NULL)
    *out_min_fill = doc.min_fill;

  g_free (doc.footer);
  rp_export_pen_clear (&doc.pen);
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

/* One pass that only counts, onto a surface that discards its bytes. */
static gboolean
count_pages (RpReport       *self,
             const PdfPass  *pass,
             guint          *out_pages,
             double         *out_last_fill,
             GError        **error)
{
  cairo_surface_t *surface = cairo_pdf_surface_create_for_stream (discard_bytes, NULL,
                                                                  A4_WIDTH_PT, A4_HEIGHT_PT);
  cairo_status_t status;

  *out_pages = draw_pdf (self, surface, pass, out_last_fill, NULL);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  return rp_export_check_status (status, "PDF", error);
}

/* The footers say "of N": count the pages first. A last page filled less
 * than MIN_LAST_PAGE_FILL takes lines from the page before it, which ends
 * early by what is missing (widow control, as a typesetter does): the
 * pages before stay as they were, so the count does not change; a second
 * count confirms it. */
static gboolean
plan_pages (RpReport  *self,
                    PdfPass   *out_pass,
                    double    *out_last_fill,
                    GError   **error)
{
  PdfPass pass = { 0, 0, 0 };
  PdfPass shortened;
  guint n_pages, n_shortened;
  double fill, shortened_fill, content = A4_HEIGHT_PT / PT_PER_PX - 2 * PAGE_MARGIN;

  if (!count_pages (self, &pass, &n_pages, &fill, error))
    return FALSE;
  pass.n_pages = n_pages;
  *out_pass = pass;
  *out_last_fill = fill;
  if (n_pages < 2 || fill >= MIN_LAST_PAGE_FILL)
    return TRUE;

  /* The page before ended with some slack (a row that did not fit), so
   * ending it earlier by the deficit may move less than the deficit: end it
   * earlier again by what is still missing, a few times at most. */
  shortened = pass;
  shortened.n_pages = 0;
  shortened.short_page = n_pages - 1;
  shortened_fill = fill;
  for (guint attempt = 0; attempt < 4 && shortened_fill < MIN_LAST_PAGE_FILL; attempt++)
    {
      shortened.shorten += (MIN_LAST_PAGE_FILL - shortened_fill) * content + 1;
      if (!count_pages (self, &shortened, &n_shortened, &shortened_fill, error))
        return FALSE;
      /* A block taller than what the short page lost (a chart) may move
       * whole: still one page, fuller. A layout with another page count
       * is not taken. */
      if (n_shortened != n_pages)
        return TRUE;
    }
  shortened.n_pages = n_pages;
  *out_pass = shortened;
  *out_last_fill = shortened_fill;
  return TRUE;
}

/**
 * rp_report_pdf_layout:
 * @out_last_fill: (out): how full the last page is, a share of its
 *   content box (0..1)
 * @out_min_fill: (out) (optional): how full the emptiest of the other
 *   pages is (1 when there is one page)
 *
 * How rp_report_render_pdf() pages @self, for tests: the layout is
 * deterministic (no time, no randomness), so a test may assert it.
 *
 * Returns: the number of pages, 0 on a cairo error
 */
guint
rp_report_pdf_layout (RpReport *self,
                      double   *out_last_fill,
                      double   *out_min_fill)
{
  PdfPass pass;
  cairo_surface_t *surface;
  double last;

  g_return_val_if_fail (RP_IS_REPORT (self), 0);
  g_return_val_if_fail (out_last_fill != NULL, 0);

  if (!plan_pages (self, &pass, out_last_fill, NULL))
    return 0;
  if (out_min_fill != NULL)
    {
      /* The planned pass once more, to measure its every page. */
      surface = cairo_pdf_surface_create_for_stream (discard_bytes, NULL, A4_WIDTH_PT, A4_HEIGHT_PT);
      draw_pdf (self, surface, &pass, &last, out_min_fill);
      cairo_surface_finish (surface);
      cairo_surface_destroy (surface);
    }
  return pass.n_pages;
}

/* The PDF report in memory, for rp_report_render(). */
GBytes *
rp_report_render_pdf (RpReport  *self,
                      GError   **error)
{
  g_autoptr(GByteArray) bytes = g_byte_array_new ();
  g_autoptr(GDateTime) created = g_date_time_to_utc (rp_report_get_created (self));
  g_autofree char *date = g_date_time_format (created, "%Y-%m-%dT%H:%M:%SZ");
  g_autofree char *title = NULL;
  cairo_surface_t *surface;
  cairo_status_t status;
  PdfPass pass;
  double fill;

  if (!plan_pages (self, &pass, &fill, error))
    return NULL;

  surface = cairo_pdf_surface_create_for_stream (rp_export_append_bytes, bytes, A4_WIDTH_PT, A4_HEIGHT_PT);
  title = g_strdup_printf ("%s (%s)", _("Responsiveness Probe report"), rp_report_get_scenario (self)->name);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_TITLE, title);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATOR, "resprobe " PACKAGE_VERSION);
  cairo_pdf_surface_set_metadata (surface, CAIRO_PDF_METADATA_CREATE_DATE, date);
  draw_pdf (self, surface, &pass, &fill, NULL);
  cairo_surface_finish (surface);
  status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);
  if (!rp_export_check_status (status, "PDF", error))
    return NULL;
  return g_byte_array_free_to_bytes (g_steal_pointer (&bytes));
}
