/* rp-report-compare.c: several reports side by side, as a text table. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "rp-comparison.h"
#include "rp-device-profile.h"
#include "rp-report-private.h"
#include "rp-sysinfo.h"
#include "rp-units.h"

typedef struct {
  char     *label;
  char    **cells;      /* one per report */
  gboolean  differs;
} CompareRow;

static void
compare_row_free (gpointer data)
{
  CompareRow *row = data;

  g_free (row->label);
  g_strfreev (row->cells);
  g_free (row);
}

static CompareRow *
compare_row_new (const char *label,
                 guint       n_reports)
{
  CompareRow *row = g_new0 (CompareRow, 1);

  row->label = g_strdup (label);
  row->cells = g_new0 (char *, n_reports + 1);
  return row;
}

/* The parts of the runs' scenarios that differ (the fsync probe's interval,
 * the writer's block size …), each as a row, one cell per group (its first
 * run's: a group shares its configuration): the legend above the table
 * describes every scenario whole, but a difference inside two long
 * descriptions is easy to miss. */
static void
add_scenario_rows (GPtrArray          *rows,
                   const RpComparison *comparison)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *first;

  for (guint g = 0; g < comparison->n_groups; g++)
    {
      RpReport *report = rp_comparison_get_group_report (comparison, g, 0);

      g_ptr_array_add (fields, rp_scenario_get_fields (report->scenario));
    }
  first = g_ptr_array_index (fields, 0);

  /* Every scenario has the same fields in the same order. */
  for (guint i = 0; i < first->len; i++)
    {
      CompareRow *row;

      if (!rp_fields_differ (fields, i))
        continue;
      row = compare_row_new (((RpScenarioField *) g_ptr_array_index (first, i))->label, comparison->n_groups);
      row->differs = TRUE;
      for (guint g = 0; g < comparison->n_groups; g++)
        {
          GPtrArray *run_fields = g_ptr_array_index (fields, g);

          row->cells[g] = g_strdup (((RpScenarioField *) g_ptr_array_index (run_fields, i))->value);
        }
      g_ptr_array_add (rows, row);
    }
}

/* The first run of each group: a group shares its configuration. */
static GPtrArray *
group_firsts (const RpComparison *comparison)
{
  GPtrArray *firsts = g_ptr_array_new ();

  for (guint g = 0; g < comparison->n_groups; g++)
    g_ptr_array_add (firsts, rp_comparison_get_group_report (comparison, g, 0));
  return firsts;
}

/* The device profile of a group's runs (a matrix cell's --device), or
 * NULL. */
static const char *
group_device_profile (const RpComparison *comparison,
                      guint               group)
{
  GHashTable *notes = rp_report_get_notes (rp_comparison_get_group_report (comparison, group, 0));

  return notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_DEVICE_PROFILE) : NULL;
}

static void
add_device_row (GPtrArray          *rows,
                const RpComparison *comparison)
{
  g_autoptr(GPtrArray) firsts = group_firsts (comparison);
  CompareRow *row;
  gboolean any = FALSE;

  for (guint g = 0; g < comparison->n_groups; g++)
    any |= group_device_profile (comparison, g) != NULL;
  if (!any)
    return;
  /* TRANSLATORS: a comparison row: the emulated device a matrix cell ran on (--device), e.g. "usb2-stick" */
  row = compare_row_new (_("Device profile"), comparison->n_groups);
  for (guint g = 0; g < comparison->n_groups; g++)
    {
      const char *profile = group_device_profile (comparison, g);

      row->cells[g] = profile != NULL ? rp_text_sanitize (profile) : g_strdup ("-");
    }
  row->differs = rp_compare_device_profiles_differ (firsts);
  g_ptr_array_add (rows, row);
}

static void
add_setting_rows (GPtrArray          *rows,
                  const RpComparison *comparison)
{
  g_autoptr(GPtrArray) firsts = group_firsts (comparison);
  guint n_settings;
  const RpCompareSetting *settings = rp_compare_get_settings (&n_settings);

  for (guint s = 0; s < n_settings; s++)
    {
      const char *label = settings[s].label;
      CompareRow *row = compare_row_new (settings[s].translate ? _(label) : label, comparison->n_groups);

      for (guint g = 0; g < comparison->n_groups; g++)
        {
          row->cells[g] = rp_compare_setting_value (g_ptr_array_index (firsts, g), &settings[s]);
          if (g > 0 && g_strcmp0 (row->cells[g], row->cells[0]) != 0)
            row->differs = TRUE;
        }
      if (rp_compare_setting_is_unused (row->cells))
        compare_row_free (row);
      else
        g_ptr_array_add (rows, row);
    }
}

/* A change of at least this fraction is worth a colour in the window. */
#define NOTABLE_CHANGE 0.1

/* A count, or the mean of counts over repeats (0.5 stalls: one run of two
 * had one): whole numbers as they are, a mean with two decimals under 1 and
 * one above (the precision of up to a few dozen repeats), trailing zeros
 * dropped. @sign puts "+" before a positive value. */
static char *
format_count (double   value,
              gboolean sign)
{
  g_autofree char *text = NULL;
  char *end;

  if (value == round (value) || !isfinite (value))
    return g_strdup_printf (sign ? "%+.0f" : "%.0f", value);
  text = g_strdup_printf (sign ? "%+.*f" : "%.*f", fabs (value) < 1 ? 2 : 1, value);
  /* Drop trailing zeros and then a bare separator ('.' or the locale's). */
  end = text + strlen (text);
  while (end > text && end[-1] == '0')
    *--end = '\0';
  if (end > text && !g_ascii_isdigit (end[-1]))
    *--end = '\0';
  /* 0.004 would show as "0": keep two significant digits instead. */
  if (strspn (text, "+-0") == strlen (text))
    return g_strdup_printf (sign ? "%+.2g" : "%.2g", value);
  return g_steal_pointer (&text);
}

/**
 * rp_report_format_change:
 * @kind: what the value measures
 * @base: the value of the first report
 * @value: the value of this report
 * @out_verdict: (out) (optional): 1 notably better, -1 notably worse (a change
 *   of 10 % or more, in the direction that matters for @kind), 0 otherwise
 *
 * The relative change for latencies and rates (what "twice as slow" means),
 * the plain difference for counts: "=", "+12 %", "-3", and with the
 * precision of a mean for means of counts over repeats: "+0.5", "-0.33".
 * Used by the CLI's
 * comparison table and the window's comparison view alike.
 *
 * Returns: (transfer full): the text
 */
char *
rp_report_format_change (RpMetricKind  kind,
                         double        base,
                         double        value,
                         int          *out_verdict)
{
  g_autofree char *magnitude = NULL;
  double relative = base != 0 ? (value - base) / base : (value > base ? INFINITY : -INFINITY);
  int direction = kind == RP_METRIC_RATE ? 1 : -1;

  if (out_verdict != NULL)
    *out_verdict = kind != RP_METRIC_SAMPLES && value != base && fabs (relative) >= NOTABLE_CHANGE
                   ? (value > base ? 1 : -1) * direction : 0;
  if (value == base)
    return g_strdup ("=");
  if (kind == RP_METRIC_COUNT || kind == RP_METRIC_SAMPLES)
    return format_count (value - base, TRUE);
  /* Under half a percent either way: "-0 %" would read as a sign error. */
  if (base != 0 && fabs (relative) < 0.005)
    return g_strdup ("±0 %");
  if (base != 0)
    return g_strdup_printf ("%+.0f %%", relative * 100);
  magnitude = kind == RP_METRIC_RATE ? rp_format_rate (fabs (value - base))
                                     : rp_format_latency (fabs (value - base));
  return g_strdup_printf ("%s%s", value >= base ? "+" : "-", magnitude);
}

/**
 * rp_report_format_metric:
 * @kind: what @value measures
 * @value: seconds, a count, or bytes per second
 *
 * Returns: (transfer full): e.g. "10.86 s", "7", "0.5" (a mean of counts
 *   over repeats), "24.0 MiB/s"
 */
char *
rp_report_format_metric (RpMetricKind kind,
                         double       value)
{
  if (kind == RP_METRIC_COUNT || kind == RP_METRIC_SAMPLES)
    return format_count (value, FALSE);
  if (kind == RP_METRIC_RATE)
    return rp_format_rate (value);
  return rp_format_latency (value);
}

/* The writer's throughput series: the sequential writer's, else the copy
 * loop's; NULL when the report has neither with samples. */
static RpSeries *
find_throughput_series (RpReport *report)
{
  static const char *const names[] = { RP_SERIES_WRITER_THROUGHPUT, "copy_throughput" };

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      RpSeries *series = rp_report_lookup_series (report, names[i]);

      if (series != NULL && rp_series_get_length (series) > 0)
        return series;
    }
  return NULL;
}

/* The writer's overall throughput as the run's summary gives it (bytes
 * over the writer's seconds), which the mean of the per-interval rates only
 * approaches; 0 when the notes do not have it. */
static double
writer_mean_rate (RpReport *report)
{
  GHashTable *notes = rp_report_get_notes (report);
  const char *bytes = notes ? g_hash_table_lookup (notes, "writer_bytes_total") : NULL;
  const char *seconds = notes ? g_hash_table_lookup (notes, "writer_seconds") : NULL;
  double s, b;

  if (!rp_parse_note_number (seconds, 0, RP_REPORT_MAX_SECONDS, &s) || s <= 0 ||
      !rp_parse_note_number (bytes, 0, RP_NOTE_MAX_NUMBER, &b))
    return 0;
  return b / s;
}

/**
 * rp_report_get_metric:
 * @series_name: (nullable): a series, e.g. %RP_SERIES_FSYNC_LATENCY; %NULL
 *   for the writer's throughput (B/s): bytes over the writer's seconds as
 *   the run's summary gives them, else the mean of the sequential writer's
 *   or the copy loop's throughput samples
 * @stat: which figure
 *
 * One figure of a report as the comparisons show it, so that the CLI's
 * table and the window's agree. Statistics come from the report's cache
 * (rp_report_get_stats()).
 *
 * Returns: the figure in the series' unit (a count for the OVER ones), or
 *   NAN when the report lacks the series or its samples
 */
double
rp_report_get_metric (RpReport     *self,
                      const char   *series_name,
                      RpMetricStat  stat)
{
  RpStats stats;
  RpSeries *series;

  g_return_val_if_fail (RP_IS_REPORT (self), NAN);

  series = series_name != NULL ? rp_report_lookup_series (self, series_name) : find_throughput_series (self);
  if (series_name == NULL && stat == RP_METRIC_MEAN && writer_mean_rate (self) > 0)
    return writer_mean_rate (self);
  if (series == NULL || !rp_report_get_stats (self, rp_series_get_name (series), &stats) || stats.n == 0)
    return NAN;
  switch (stat)
    {
    case RP_METRIC_P50: return stats.p50;
    case RP_METRIC_P99: return stats.p99;
    case RP_METRIC_MAX: return stats.max;
    case RP_METRIC_OVER_INSTANT: return (double) stats.over_instant;
    case RP_METRIC_OVER_FLOW: return (double) stats.over_flow;
    case RP_METRIC_OVER_ATTENTION: return (double) stats.over_attention;
    case RP_METRIC_N: return (double) stats.n;
    case RP_METRIC_MEAN:
    default:
      return stats.mean;
    }
}

/* One cell: the figure, its interval, its change against the first
 * column with what the change means ("noise" or its p-value). */
static char *
metric_cell (const RpCompareRow *row,
             guint               group)
{
  g_autofree char *value = rp_compare_row_format_value (row, group);
  g_autofree char *interval = rp_compare_row_format_interval (row, group);
  g_autofree char *change = rp_compare_row_format_change (row, group);
  GString *cell = g_string_new (value);

  if (interval != NULL)
    g_string_append_printf (cell, " %s", interval);
  if (change != NULL)
    g_string_append_printf (cell, " (%s)", change);
  return g_string_free (cell, FALSE);
}

static void
add_metric_rows (GPtrArray          *rows,
                 const RpComparison *comparison)
{
  for (guint i = 0; i < comparison->rows->len; i++)
    {
      const RpCompareRow *metric = g_ptr_array_index (comparison->rows, i);
      CompareRow *row = compare_row_new (metric->label, comparison->n_groups);

      for (guint g = 0; g < comparison->n_groups; g++)
        row->cells[g] = metric_cell (metric, g);
      g_ptr_array_add (rows, row);
    }
}

/* Why each configuration stalled, side by side (rp_report_get_cause_cell()
 * of its first run that has a cause). */
static void
add_cause_row (GPtrArray    *rows,
               RpComparison *comparison)
{
  CompareRow *row = compare_row_new (_("Dominant cause"), comparison->n_groups);
  gboolean any = FALSE;

  for (guint g = 0; g < comparison->n_groups; g++)
    {
      GArray *members = g_ptr_array_index (comparison->groups, g);

      for (guint i = 0; i < members->len && row->cells[g] == NULL; i++)
        row->cells[g] = rp_report_get_cause_cell (g_ptr_array_index (comparison->reports,
                                                                     g_array_index (members, guint, i)));
      any |= row->cells[g] != NULL;
      if (row->cells[g] == NULL)
        row->cells[g] = g_strdup ("-");
    }
  if (any)
    g_ptr_array_add (rows, row);
  else
    compare_row_free (row);
}

/* A block of at most three columns side by side: the table of up to eight
 * is printed as blocks one below the other, so that every line fits. */
typedef struct {
  guint first;          /* index of the block's first run */
  guint n;              /* runs in the block */
  gsize label_width;    /* columns */
  gsize cell_width;     /* columns */
} CompareBlock;

#define BLOCK_MAX_COLUMNS 3

/* Whether a setting of some run of @block differs from run 1's: in a block
 * of runs 4 and 5, a setting only run 2 changed is not marked. */
static gboolean
differs_in_block (const CompareRow   *row,
                  const CompareBlock *block)
{
  for (guint r = block->first; row->differs && r < block->first + block->n; r++)
    if (r > 0 && g_strcmp0 (row->cells[r], row->cells[0]) != 0)
      return TRUE;
  return FALSE;
}

static void
append_compare_row (GString            *out,
                    const CompareRow   *row,
                    const CompareBlock *block)
{
  gboolean marked = differs_in_block (row, block);
  g_autoptr(GPtrArray) label_lines = rp_text_wrap_lines (row->label, block->label_width);
  g_autofree GPtrArray **cell_lines = g_new0 (GPtrArray *, block->n);
  guint height = label_lines->len;

  for (guint r = 0; r < block->n; r++)
    {
      cell_lines[r] = rp_text_wrap_lines (row->cells[block->first + r], block->cell_width);
      height = MAX (height, cell_lines[r]->len);
    }
  for (guint line = 0; line < height; line++)
    {
      gsize start = out->len;

      g_string_append (out, line == 0 && marked ? "* " : "  ");
      rp_text_append_padded (out, line < label_lines->len ? g_ptr_array_index (label_lines, line) : "",
                             block->label_width, FALSE);
      for (guint r = 0; r < block->n; r++)
        {
          g_string_append (out, "  ");
          rp_text_append_padded (out, line < cell_lines[r]->len ? g_ptr_array_index (cell_lines[r], line) : "",
                                 block->cell_width, FALSE);
        }
      while (out->len > start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
  for (guint r = 0; r < block->n; r++)
    g_ptr_array_unref (cell_lines[r]);
}

/* Column widths of a block sharing 80 columns, long cells wrapped. Cells are
 * padded to columns (so that they align on a terminal), so room is kept for
 * what their "µs" or "ä" take beyond their columns (rp_text_length()): an
 * upper bound for every wrapped line, whose extra is at most its cell's. */
static void
compute_compare_widths (GPtrArray    *rows,
                        CompareBlock *block)
{
  gsize label_width = 0, cell_width = 0, label_extra = 0, cell_extra = 0;
  gsize room;

  for (guint i = 0; i < rows->len; i++)
    {
      const CompareRow *row = g_ptr_array_index (rows, i);

      label_width = MAX (label_width, rp_text_width (row->label));
      label_extra = MAX (label_extra, rp_text_length (row->label) - rp_text_width (row->label));
      for (guint r = block->first; r < block->first + block->n; r++)
        {
          cell_width = MAX (cell_width, rp_text_width (row->cells[r]));
          cell_extra = MAX (cell_extra, rp_text_length (row->cells[r]) - rp_text_width (row->cells[r]));
        }
    }
  label_width = MIN (label_width, 22);
  room = (RP_TEXT_WIDTH - 2 - label_width - label_extra) / block->n;
  block->label_width = label_width;
  /* The wrapping needs 8; so much extra would take a stranger's report. */
  block->cell_width = CLAMP (MIN (cell_width, room - 2 - MIN (cell_extra, room - 10)), 8, room - 2);
}

/* Groups of at most three runs, as even as can be: 4 runs are 2 + 2, 5 are
 * 3 + 2, 8 are 3 + 3 + 2. */
static GArray *
compare_blocks (GPtrArray *rows,
                guint      n_reports)
{
  guint n_groups = (n_reports + BLOCK_MAX_COLUMNS - 1) / BLOCK_MAX_COLUMNS;
  guint per_group = (n_reports + n_groups - 1) / n_groups;
  GArray *groups = g_array_new (FALSE, TRUE, sizeof (CompareBlock));

  for (guint first = 0; first < n_reports; first += per_group)
    {
      CompareBlock block = { first, MIN (per_group, n_reports - first), 0, 0 };

      compute_compare_widths (rows, &block);
      g_array_append_val (groups, block);
    }
  return groups;
}

static void
append_compare_legend (GString   *out,
                       GPtrArray *reports)
{
  for (guint r = 0; r < reports->len; r++)
    {
      RpReport *report = g_ptr_array_index (reports, r);
      g_autofree char *created = rp_text_format_created (report->created);
      g_autofree char *duration = rp_report_format_duration (report);
      g_autofree char *description = rp_scenario_describe (report->scenario);
      /* TRANSLATORS: "Run 2: 2024-05-01 10:00:00 UTC, 62.00 s, R1: sequential writer …" */
      g_autofree char *line = g_strdup_printf (_("Run %u: %s, %s, %s"), r + 1, created, duration,
                                               description);

      rp_text_append_wrapped (out, "", "    ", line);
    }
}

static void
append_compare_block (GString            *out,
                      GPtrArray          *settings,
                      GPtrArray          *metrics,
                      const CompareBlock *block)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < settings->len; i++)
    append_compare_row (out, g_ptr_array_index (settings, i), block);
  g_string_append_c (out, '\n');
  if (metrics->len == 0)
    rp_text_append_wrapped (out, "  ", "  ", _("None of the reports has samples to compare."));
  for (guint i = 0; i < metrics->len; i++)
    append_compare_row (out, g_ptr_array_index (metrics, i), block);
}

/**
 * rp_report_compare_text:
 * @reports: (element-type RpReport): two or more reports (one works too)
 *
 * A side-by-side table, one column per configuration (rp_comparison_new()
 * with %RP_COMPARE_GROUP: repeats of one configuration share a column):
 * the parts of the scenarios that differ (rp_scenario_get_fields()), the
 * settings the reporters of docs/SCENARIOS.md compared (file system,
 * journal mode, scheduler, kernel, machine, RAM, dirty_* sysctls), rows
 * that differ marked with "*"; then every figure the runs measured (each
 * judged latency's samples, p50, p99, worst and stalls, the CPU split,
 * pressure, memory peaks, throughputs) with its 95 % interval in brackets
 * and its change against the first column, marked "noise", "one run",
 * "significant" or with its Holm-adjusted p-value (the medians'
 * Mann–Whitney tests). At most 80 columns a line (long cells wrap; more
 * than three columns make several tables of two or three, one below the
 * other), at most 80 bytes in Latin-script languages.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_report_compare_text (GPtrArray *reports)
{
  g_autoptr(GPtrArray) settings = g_ptr_array_new_with_free_func (compare_row_free);
  g_autoptr(GPtrArray) metrics = g_ptr_array_new_with_free_func (compare_row_free);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autoptr(GArray) blocks = NULL;
  g_autoptr(RpComparison) comparison = NULL;
  g_autofree char *title = NULL;
  g_autoptr(GPtrArray) firsts = NULL;
  g_auto(GStrv) names = NULL;
  gboolean any_name = FALSE;
  CompareRow *header, *named;
  GString *out;

  g_return_val_if_fail (reports != NULL && reports->len > 0, NULL);
  for (guint r = 0; r < reports->len; r++)
    g_return_val_if_fail (RP_IS_REPORT (g_ptr_array_index (reports, r)), NULL);

  comparison = rp_comparison_new (reports, RP_COMPARE_GROUP);
  header = compare_row_new ("", comparison->n_groups);
  named = compare_row_new ("", comparison->n_groups);
  firsts = group_firsts (comparison);
  names = rp_compare_name_runs (firsts);
  for (guint g = 0; g < comparison->n_groups; g++)
    {
      header->cells[g] = rp_comparison_get_group_label (comparison, g);
      /* Under the runs' numbers, what differs, as the window names them:
       * "data=writeback", "load on ext3, load scheduler bfq", "usb2-stick". */
      named->cells[g] = g_strdup (names[g]);
      any_name |= *names[g] != '\0';
    }
  g_ptr_array_add (settings, header);
  if (any_name)
    g_ptr_array_add (settings, named);
  else
    compare_row_free (named);
  add_device_row (settings, comparison);
  add_scenario_rows (settings, comparison);
  add_setting_rows (settings, comparison);
  add_metric_rows (metrics, comparison);
  add_cause_row (metrics, comparison);
  g_ptr_array_extend (all, settings, NULL, NULL);
  g_ptr_array_extend (all, metrics, NULL, NULL);
  blocks = compare_blocks (all, comparison->n_groups);

  out = g_string_new (NULL);
  /* One configuration (a one-cell matrix, run --repeat) compares nothing:
   * the title says what the table is, its runs side by side in one column. */
  if (comparison->n_groups == 1)
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "One configuration: %u run",
                                          "One configuration: %u runs", reports->len), reports->len);
  else
    title = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Comparison of %u report", "Comparison of %u reports",
                                          reports->len), reports->len);
  rp_text_append_heading (out, title, '=');
  append_compare_legend (out, reports);
  for (guint b = 0; b < blocks->len; b++)
    append_compare_block (out, settings, metrics, &g_array_index (blocks, CompareBlock, b));

  g_string_append_c (out, '\n');
  /* xgettext:no-c-format */
  rp_text_append_wrapped (out, "", "", _("* marks settings that differ from the first column. Runs of "
                                         "the same configuration share a column. Brackets give 95 % "
                                         "intervals (bootstrap over runs, or over samples of a single "
                                         "run). Changes in parentheses are relative to the first column: "
                                         "a p-value or \"significant\" marks a significant difference (the "
                                         "median, p50, of a latency: Mann-Whitney U test of the samples, "
                                         "Holm-corrected across rows, and intervals that do not overlap; "
                                         "the share of calls over a limit: the same test of the calls as "
                                         "stalled or not; the tail, p99 and worst, and other figures: "
                                         "intervals over two or more runs each that do not overlap; counts "
                                         "and rates of stalls stand beside their shares, neither better "
                                         "nor worse), "
                                         "\"noise\" one that is not, \"one run\" intervals that do "
                                         "not overlap but rest on a single run's samples, which a "
                                         "repeat of the run would widen."));
  return g_string_free (out, FALSE);
}
