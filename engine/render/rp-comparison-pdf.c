/* rp-comparison-pdf.c: a comparison as an A4 PDF: headline, results table, overlaid charts, configuration. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-comparison-pdf.h"
#include "rp-comparison.h"
#include "rp-report-doc-private.h"
#include "rp-report-private.h"

/* Two overlaid charts to an A4 page at its full width, with a heading
 * above the first pair: charts of a comparison carry up to 8 legends. */
#define COMPARE_CHART_HEIGHT 460.0
/* The most runs the headline names; more are listed below it. */
#define MAX_TITLE_RUNS 3

typedef struct {
  GPtrArray         *reports;
  const char *const *labels;
  RpPlot *const     *plots;
  guint              n_plots;
  RpComparison      *comparison;
} CompareDoc;

/* The runs' labels, "data=ordered, data=writeback". */
static char *
join_labels (const char *const *labels,
             guint              n_labels)
{
  GString *joined = g_string_new (NULL);

  for (guint i = 0; i < n_labels; i++)
    g_string_append_printf (joined, i == 0 ? "%s" : ", %s", labels[i]);
  return g_string_free (joined, FALSE);
}

/* A significant change in words, the colour of the window on paper; %NULL
 * for the others, whose change text says "noise" or "one run" already. */
static const char *
change_word (RpChange change)
{
  switch (change)
    {
    case RP_CHANGE_BETTER:
      return _("significantly better");
    case RP_CHANGE_WORSE:
      return _("significantly worse");
    case RP_CHANGE_DIFFERENT:
      return _("significantly different");
    case RP_CHANGE_NONE:
    case RP_CHANGE_NOISE:
    case RP_CHANGE_ONE_RUN:
    default:
      return NULL;
    }
}

/* The settings whose values differ between the runs, by their labels,
 * or %NULL when every setting is the same. */
static char *
describe_differences (GPtrArray *reports)
{
  guint n_settings;
  const RpCompareSetting *settings = rp_compare_get_settings (&n_settings);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();

  for (guint s = 0; s < n_settings; s++)
    {
      g_autofree char *first = rp_compare_setting_value (g_ptr_array_index (reports, 0), &settings[s]);

      for (guint i = 1; i < reports->len; i++)
        {
          g_autofree char *value = rp_compare_setting_value (g_ptr_array_index (reports, i), &settings[s]);

          if (g_strcmp0 (first, value) != 0)
            {
              g_ptr_array_add (names, (gpointer) (settings[s].translate ? _(settings[s].label) : settings[s].label));
              break;
            }
        }
    }
  if (names->len == 0)
    return NULL;
  g_ptr_array_add (names, NULL);
  return g_strjoinv (", ", (char **) names->pdata);
}

/* fsync's p99 and worst, each run against the baseline, with the verdict
 * of the comparison's test: the lines of the first page's box. */
static char *
describe_main_changes (CompareDoc *cd)
{
  GString *text = g_string_new (NULL);
  const RpMetricStat stats[] = { RP_METRIC_P99, RP_METRIC_MAX };

  for (guint r = 0; r < cd->comparison->rows->len; r++)
    {
      const RpCompareRow *row = g_ptr_array_index (cd->comparison->rows, r);

      if (g_strcmp0 (row->series, RP_SERIES_FSYNC_LATENCY) != 0 ||
          (row->stat != stats[0] && row->stat != stats[1]))
        continue;
      for (guint g = 1; g < cd->comparison->n_groups; g++)
        {
          g_autofree char *value = rp_compare_row_format_value (row, g);
          g_autofree char *baseline = rp_compare_row_format_value (row, 0);
          g_autofree char *change = rp_compare_row_format_change (row, g);
          const char *word = change_word (row->change[g]);

          /* "=": nothing to tell on the first page. */
          if (change == NULL || value == NULL || baseline == NULL || row->change[g] == RP_CHANGE_NONE)
            continue;
          if (text->len > 0)
            g_string_append_c (text, '\n');
          /* TRANSLATORS: a comparison's main change, e.g. "data=writeback:
           * fsync p99 132 ms against 1.86 s (-93 %, p<0.001)", followed by
           * ", significantly better" when significant */
          g_string_append_printf (text, _("%s: %s %s against %s (%s)"), cd->labels[g], row->label, value,
                                  baseline, change);
          if (word != NULL)
            g_string_append_printf (text, _(", %s"), word);
        }
    }
  if (text->len == 0)
    g_string_append (text, _("The runs have no fsync figures to compare."));
  return g_string_free (text, FALSE);
}

static void
doc_compare_title (Doc        *doc,
                   CompareDoc *cd)
{
  const RpRgba *fg = &doc->pen.style->foreground;
  g_autofree char *runs = join_labels (cd->labels, cd->reports->len);
  g_autofree char *title = NULL;
  g_autofree char *subtitle = NULL;
  g_autofree char *differences = describe_differences (cd->reports);
  g_autofree char *differ_line = NULL;
  g_autofree char *changes = describe_main_changes (cd);

  /* TRANSLATORS: the headline of a comparison's PDF, %s the runs, e.g.
   * "Comparison: data=ordered, data=writeback" */
  title = g_strdup_printf (_("Comparison: %s"), runs);
  subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                           "Responsiveness Probe, %u run; baseline: %s (changes are relative to it)",
                                           "Responsiveness Probe, %u runs; baseline: %s (changes are relative to it)",
                                           cd->reports->len),
                              cd->reports->len, cd->labels[0]);
  differ_line = differences != NULL
    /* TRANSLATORS: %s lists settings, e.g. "Journal mode, Mount options" */
    ? g_strdup_printf (_("The runs differ in: %s"), differences)
    : g_strdup (_("The runs have the same settings."));

  /* Four runs or more make a headline of many lines: their names go below. */
  if (cd->reports->len > MAX_TITLE_RUNS)
    {
      g_free (title);
      title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Comparison of %u run", "Comparison of %u runs",
                                            cd->reports->len), cd->reports->len);
    }
  doc_paragraph (doc, title, 2.0, TRUE, fg, 1);
  doc->y += 4;
  if (cd->reports->len > MAX_TITLE_RUNS)
    {
      /* TRANSLATORS: the runs of a comparison, e.g. "Runs: data=ordered, data=writeback, …" */
      g_autofree char *line = g_strdup_printf (_("Runs: %s"), runs);

      doc_paragraph (doc, line, 1.1, FALSE, fg, 0.7);
      doc->y += 2;
    }
  doc_paragraph (doc, subtitle, 1.1, FALSE, fg, 0.7);
  doc->y += 2;
  doc_paragraph (doc, differ_line, 1.1, FALSE, fg, 0.7);
  doc->y += GAP;
  doc_box (doc, changes);
}

/* Every figure, a column per run: its value and, beside the baseline, its
 * change with its significance in words. */
static void
doc_compare_results (Doc        *doc,
                     CompareDoc *cd)
{
  const RpComparison *comparison = cd->comparison;
  DocTable table;

  doc_table_init (&table, 1 + comparison->n_groups);
  table.equal = TRUE;
  table.header[0] = _("Figure");
  for (guint g = 0; g < comparison->n_groups; g++)
    table.header[1 + g] = cd->labels[g];
  for (guint r = 0; r < comparison->rows->len; r++)
    {
      const RpCompareRow *row = g_ptr_array_index (comparison->rows, r);
      char **cells = g_new0 (char *, table.n_columns + 1);

      cells[0] = g_strdup (row->label);
      for (guint g = 0; g < comparison->n_groups; g++)
        {
          g_autofree char *value = rp_compare_row_format_value (row, g);
          g_autofree char *change = g > 0 ? rp_compare_row_format_change (row, g) : NULL;
          const char *word = change_word (row->change[g]);

          if (value == NULL)
            cells[1 + g] = g_strdup ("–");
          else if (change == NULL)
            cells[1 + g] = g_steal_pointer (&value);
          else if (word == NULL)
            cells[1 + g] = g_strdup_printf ("%s\n%s", value, change);
          else
            cells[1 + g] = g_strdup_printf ("%s\n%s, %s", value, change, word);
        }
      g_ptr_array_add (table.rows, cells);
    }
  doc_heading (doc, _("Results"), 60);
  doc_table (doc, &table, FALSE);
  doc_table_clear (&table);
  doc->y += GAP / 2;
  /* xgettext:no-c-format */
  doc_paragraph (doc, _("Changes are relative to the baseline, the first column. Latencies are judged by a "
                        "Mann–Whitney U test (Holm-corrected), other figures by 95 % intervals that do not overlap; "
                        "“noise” means the difference is within noise."),
                 0.9, FALSE, &doc->pen.style->foreground, 0.7);
}

static void
doc_compare_charts (Doc        *doc,
                    CompareDoc *cd)
{
  if (cd->n_plots > 0)
    doc_heading (doc, _("Charts"), COMPARE_CHART_HEIGHT);
  for (guint i = 0; i < cd->n_plots; i++)
    {
      doc_need (doc, COMPARE_CHART_HEIGHT);
      rp_export_draw_chart (doc->pen.cr, cd->plots[i], doc->left, doc->y, doc_width (doc),
                            COMPARE_CHART_HEIGHT, doc->pen.style);
      doc->y += COMPARE_CHART_HEIGHT + GAP;
    }
}

/* The settings of every run, those that differ marked. */
static void
doc_compare_configuration (Doc        *doc,
                           CompareDoc *cd)
{
  guint n_settings;
  const RpCompareSetting *settings = rp_compare_get_settings (&n_settings);
  DocTable table;

  doc_table_init (&table, 1 + cd->reports->len);
  table.equal = TRUE;
  table.header[0] = _("Setting");
  for (guint i = 0; i < cd->reports->len; i++)
    table.header[1 + i] = cd->labels[i];
  for (guint s = 0; s < n_settings; s++)
    {
      char **cells = g_new0 (char *, table.n_columns + 1);
      const char *label = settings[s].translate ? _(settings[s].label) : settings[s].label;
      gboolean differs = FALSE;

      for (guint i = 0; i < cd->reports->len; i++)
        {
          cells[1 + i] = rp_compare_setting_value (g_ptr_array_index (cd->reports, i), &settings[s]);
          differs |= i > 0 && g_strcmp0 (cells[1], cells[1 + i]) != 0;
        }
      if (rp_compare_setting_is_unused (cells + 1))
        {
          g_strfreev (cells);
          continue;
        }
      /* TRANSLATORS: a setting of a comparison's table whose value differs between the runs */
      cells[0] = differs ? g_strdup_printf (_("%s (differs)"), label) : g_strdup (label);
      g_ptr_array_add (table.rows, cells);
    }
  doc_heading (doc, _("Configuration"), 60);
  doc_table (doc, &table, FALSE);
  doc_table_clear (&table);
}

/* A DocDrawFunc: the whole comparison. */
static guint
draw_comparison (gpointer         data,
                 cairo_surface_t *surface,
                 const PdfPass   *pass,
                 double          *out_last_fill,
                 double          *out_min_fill)
{
  CompareDoc *cd = data;
  g_autofree char *created = rp_text_format_created (rp_report_get_created (g_ptr_array_index (cd->reports, 0)));
  Doc doc;

  /* TRANSLATORS: page footer of a comparison's PDF, %s is when the baseline run started */
  doc_begin (&doc, surface, pass, g_strdup_printf (_("Responsiveness Probe comparison · %s"), created));
  /* What was compared and what changed first, the figures, then the
   * charts; the settings as an appendix, as in a run's PDF. */
  doc_compare_title (&doc, cd);
  doc_compare_results (&doc, cd);
  doc_compare_charts (&doc, cd);
  doc_compare_configuration (&doc, cd);
  return doc_end (&doc, out_last_fill, out_min_fill);
}

static void
compare_doc_init (CompareDoc        *cd,
                  GPtrArray         *reports,
                  const char *const *labels,
                  RpPlot *const     *plots,
                  guint              n_plots)
{
  cd->reports = reports;
  cd->labels = labels;
  cd->plots = plots;
  cd->n_plots = n_plots;
  /* One column per report, in the labels' order. */
  cd->comparison = rp_comparison_new (reports, RP_COMPARE_NONE);
}

/**
 * rp_comparison_render_pdf:
 * @reports: (element-type RpReport): 2 to 8 runs, the first the baseline
 * @labels: a label per report, as the window and the legends show them
 * @plots: (array length=n_plots): the overlaid charts, in order
 * @n_plots: how many
 * @error: %RP_ERROR_FAILED when cairo cannot draw
 *
 * The comparison as an A4 PDF in the run PDF's fonts and tables: a first
 * page with what was compared, the baseline, the settings that differ and
 * fsync's p99 and worst against the baseline with their verdicts; every
 * figure in a table with a column per run and each change's significance;
 * the charts two to a page at the page's width; the settings. No page
 * after the first is filled less than a third (widow control). Blocks: call
 * it from a worker thread in a GUI.
 *
 * Returns: (transfer full): the PDF, or %NULL with @error
 */
GBytes *
rp_comparison_render_pdf (GPtrArray          *reports,
                          const char *const  *labels,
                          RpPlot *const      *plots,
                          guint               n_plots,
                          GError            **error)
{
  CompareDoc cd;
  g_autofree char *title = NULL;
  g_autofree char *runs = NULL;
  GBytes *bytes;

  g_return_val_if_fail (reports != NULL && reports->len >= 1 && labels != NULL, NULL);
  g_return_val_if_fail (plots != NULL || n_plots == 0, NULL);

  compare_doc_init (&cd, reports, labels, plots, n_plots);
  runs = join_labels (labels, reports->len);
  title = g_strdup_printf (_("Comparison: %s"), runs);
  bytes = doc_render (draw_comparison, &cd, title, rp_report_get_created (g_ptr_array_index (reports, 0)), error);
  rp_comparison_free (cd.comparison);
  return bytes;
}

/**
 * rp_comparison_pdf_layout:
 * @reports: (element-type RpReport): as for rp_comparison_render_pdf()
 * @labels: likewise
 * @plots: (array length=n_plots): likewise
 * @n_plots: likewise
 * @out_last_fill: (out): how full the last page is, a share of its
 *   content box (0..1)
 * @out_min_fill: (out) (optional): how full the emptiest of the other
 *   pages is (1 when there is one page)
 *
 * How rp_comparison_render_pdf() pages the comparison, for tests.
 *
 * Returns: the number of pages, 0 on a cairo error
 */
guint
rp_comparison_pdf_layout (GPtrArray          *reports,
                          const char *const  *labels,
                          RpPlot *const      *plots,
                          guint               n_plots,
                          double             *out_last_fill,
                          double             *out_min_fill)
{
  CompareDoc cd;
  guint n_pages;

  g_return_val_if_fail (reports != NULL && reports->len >= 1 && labels != NULL, 0);
  g_return_val_if_fail (out_last_fill != NULL, 0);

  compare_doc_init (&cd, reports, labels, plots, n_plots);
  n_pages = doc_layout (draw_comparison, &cd, out_last_fill, out_min_fill);
  rp_comparison_free (cd.comparison);
  return n_pages;
}
