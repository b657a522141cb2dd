/* rp-report-pdf.c: the PDF report: A4 pages of verdict, system, scenario, summary and charts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-pdf.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rp-report-doc-private.h"
#include "rp-comparison.h"
#include "rp-report-private.h"
#include "rp-units.h"

#define PDF_CHART_HEIGHT 238.0   /* four to a page */

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

/* The verdict in one sentence in a tinted box with an accent bar: the one
 * thing to read, as the window's card says it; the per-probe sentences
 * follow it (doc_title()). */
static void
doc_verdict (Doc *doc)
{
  g_autofree char *verdict = rp_report_get_short_verdict (doc->report);

  doc_box (doc, verdict);
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
      g_autofree char *breakdown = rp_report_stall_breakdown_text (doc->report, stall, 4, TRUE);
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


/* Lays the whole document out onto @surface; returns the number of pages,
 * how full the last one is (@out_last_fill: share of its content box) and
 * the emptiest of the others (@out_min_fill, 1 for a single page). */
static guint
draw_pdf (gpointer         data,
          cairo_surface_t *surface,
          const PdfPass   *pass,
          double          *out_last_fill,
          double          *out_min_fill)
{
  RpReport *self = data;
  g_autofree char *created = rp_text_format_created (rp_report_get_created (self));
  Doc doc;

  /* TRANSLATORS: page footer, %s is when the run started */
  doc_begin (&doc, surface, pass, g_strdup_printf (_("Responsiveness Probe report · %s"), created));
  doc.report = self;

  /* What a reader came for first: the verdict, the latencies and the
   * charts, the other series' figures; why the stalls happened; then, as an appendix, the system and
   * the scenario's settings. */
  doc_title (&doc);
  doc_summary (&doc, TRUE);
  doc_charts (&doc);
  doc_summary (&doc, FALSE);
  doc_stalls (&doc);
  doc_system (&doc);
  doc_scenario (&doc);
  return doc_end (&doc, out_last_fill, out_min_fill);
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
  g_return_val_if_fail (RP_IS_REPORT (self), 0);
  g_return_val_if_fail (out_last_fill != NULL, 0);

  return doc_layout (draw_pdf, self, out_last_fill, out_min_fill);
}

/* The PDF report in memory, for rp_report_render(). */
GBytes *
rp_report_render_pdf (RpReport  *self,
                      GError   **error)
{
  g_autofree char *title = g_strdup_printf ("%s (%s)", _("Responsiveness Probe report"),
                                            rp_report_get_scenario (self)->name);

  return doc_render (draw_pdf, self, title, rp_report_get_created (self), error);
}
