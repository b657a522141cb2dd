/* rp-report-compare.c: several reports side by side, as a text table. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "rp-report-private.h"
#include "rp-sysinfo.h"
#include "rp-units.h"

/* The settings the reporters of docs/SCENARIOS.md compared by hand, by their
 * rp_sysinfo_get_fields() keys, with labels short enough for a table. The
 * sysctl names stay untranslated: they are what one types. */
static const struct {
  const char *key;
  const char *label;
  gboolean    translate;
} compare_settings[] = {
  { "fs_type", N_("File system"), TRUE },
  { "journal_mode", N_("Journal mode"), TRUE },
  { "scheduler", N_("I/O scheduler"), TRUE },
  { "whole_disk", N_("Disk"), TRUE },
  { "rotational", N_("Rotational"), TRUE },
  { "raid_level", N_("RAID level"), TRUE },
  { "kernel_release", N_("Kernel"), TRUE },
  { "machine", N_("Machine"), TRUE },
  { "userspace_bits", N_("User space"), TRUE },
  { "ram_bytes", N_("RAM"), TRUE },
  { "dirty_ratio", "dirty_ratio", FALSE },
  { "dirty_background_ratio", "dirty_background_ratio", FALSE },
  { "dirty_bytes", "dirty_bytes", FALSE },
  { "dirty_background_bytes", "dirty_background_bytes", FALSE },
  { "dirty_expire_centisecs", "dirty_expire_centisecs", FALSE },
  { "wbt_lat_usec", "wbt_lat_usec", FALSE },
};

/* The display value of @key, as the system section shows it ("none",
 * "not applicable", "unknown" included). */
static char *
setting_text (GPtrArray  *fields,
              const char *key)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const RpSysinfoField *field = g_ptr_array_index (fields, i);

      if (g_strcmp0 (field->key, key) == 0)
        return g_strdup (field->value);
    }
  return g_strdup (_("unknown"));
}

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
 * the writer's block size …), each as a row: the legend above the table
 * describes every scenario whole, but a difference inside two long
 * descriptions is easy to miss. */
static void
add_scenario_rows (GPtrArray *rows,
                   GPtrArray *reports)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  GPtrArray *first;

  for (guint r = 0; r < reports->len; r++)
    {
      RpReport *report = g_ptr_array_index (reports, r);

      g_ptr_array_add (fields, rp_scenario_get_fields (report->scenario));
    }
  first = g_ptr_array_index (fields, 0);

  /* Every scenario has the same fields in the same order. */
  for (guint i = 0; i < first->len; i++)
    {
      CompareRow *row;

      if (!rp_fields_differ (fields, i))
        continue;
      row = compare_row_new (((RpScenarioField *) g_ptr_array_index (first, i))->label, reports->len);
      row->differs = TRUE;
      for (guint r = 0; r < reports->len; r++)
        {
          GPtrArray *run_fields = g_ptr_array_index (fields, r);

          row->cells[r] = g_strdup (((RpScenarioField *) g_ptr_array_index (run_fields, i))->value);
        }
      g_ptr_array_add (rows, row);
    }
}

static void
add_setting_rows (GPtrArray *rows,
                  GPtrArray *reports)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint r = 0; r < reports->len; r++)
    {
      RpReport *report = g_ptr_array_index (reports, r);

      g_ptr_array_add (fields, rp_sysinfo_get_fields (rp_report_get_sysinfo (report)));
    }

  for (guint s = 0; s < G_N_ELEMENTS (compare_settings); s++)
    {
      const char *label = compare_settings[s].label;
      CompareRow *row = compare_row_new (compare_settings[s].translate ? _(label) : label,
                                         reports->len);

      for (guint r = 0; r < reports->len; r++)
        {
          row->cells[r] = setting_text (g_ptr_array_index (fields, r), compare_settings[s].key);
          if (r > 0 && g_strcmp0 (row->cells[r], row->cells[0]) != 0)
            row->differs = TRUE;
        }
      g_ptr_array_add (rows, row);
    }
}

/* A change of at least this fraction is worth a colour in the window. */
#define NOTABLE_CHANGE 0.1

/**
 * rp_report_format_change:
 * @kind: what the value measures
 * @base: the value of the first report
 * @value: the value of this report
 * @out_verdict: (out) (optional): 1 notably better, -1 notably worse (a change
 *   of 10 % or more, in the direction that matters for @kind), 0 otherwise
 *
 * The relative change for latencies and rates (what "twice as slow" means),
 * the plain difference for counts: "=", "+12 %", "-3". Used by the CLI's
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
    return g_strdup_printf ("%+.0f", value - base);
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
 * Returns: (transfer full): e.g. "10.86 s", "7", "24.0 MiB/s"
 */
char *
rp_report_format_metric (RpMetricKind kind,
                         double       value)
{
  if (kind == RP_METRIC_COUNT || kind == RP_METRIC_SAMPLES)
    return g_strdup_printf ("%.0f", value);
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
  double s = seconds ? g_ascii_strtod (seconds, NULL) : 0;

  if (bytes == NULL || !(s > 0))
    return 0;
  return g_ascii_strtod (bytes, NULL) / s;
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

static void
add_metric_row (GPtrArray  *rows,
                GPtrArray  *reports,
                const char *label,
                const char   *series_name,
                RpMetricStat  stat,
                RpMetricKind  kind)
{
  CompareRow *row = compare_row_new (label, reports->len);
  double base = rp_report_get_metric (g_ptr_array_index (reports, 0), series_name, stat);
  gboolean any = FALSE;

  for (guint r = 0; r < reports->len; r++)
    {
      double value = rp_report_get_metric (g_ptr_array_index (reports, r), series_name, stat);
      g_autofree char *text = NULL;
      g_autofree char *delta = NULL;

      if (isnan (value))
        {
          row->cells[r] = g_strdup ("-");
          continue;
        }
      any = TRUE;
      text = rp_report_format_metric (kind, value);
      if (r == 0 || isnan (base))
        row->cells[r] = g_steal_pointer (&text);
      else
        {
          delta = rp_report_format_change (kind, base, value, NULL);
          row->cells[r] = g_strdup_printf ("%s (%s)", text, delta);
        }
    }
  if (any)
    g_ptr_array_add (rows, row);
  else
    compare_row_free (row);
}

static void
add_metric_rows (GPtrArray *rows,
                 GPtrArray *reports)
{
  g_autofree char *instant = rp_format_limit (RP_LIMIT_INSTANT);
  g_autofree char *flow = rp_format_limit (RP_LIMIT_FLOW);
  g_autofree char *attention = rp_format_limit (RP_LIMIT_ATTENTION);
  /* TRANSLATORS: a table row: how many fsync calls took longer than e.g. "1 s" */
  g_autofree char *fsync_instant = g_strdup_printf (_("fsync > %s"), instant);
  g_autofree char *fsync_flow = g_strdup_printf (_("fsync > %s"), flow);
  g_autofree char *fsync_attention = g_strdup_printf (_("fsync > %s"), attention);
  /* TRANSLATORS: a table row: how often the desktop's main loop was late by more than e.g. "0.1 s" */
  g_autofree char *loop_instant = g_strdup_printf (_("Main loop > %s"), instant);

  /* TRANSLATORS: a table row: how many fsync() calls the figures below rest on */
  add_metric_row (rows, reports, _("fsync samples"), RP_SERIES_FSYNC_LATENCY, RP_METRIC_N, RP_METRIC_SAMPLES);
  add_metric_row (rows, reports, _("fsync p50"), RP_SERIES_FSYNC_LATENCY, RP_METRIC_P50, RP_METRIC_LATENCY);
  add_metric_row (rows, reports, _("fsync p99"), RP_SERIES_FSYNC_LATENCY, RP_METRIC_P99, RP_METRIC_LATENCY);
  add_metric_row (rows, reports, _("fsync max"), RP_SERIES_FSYNC_LATENCY, RP_METRIC_MAX, RP_METRIC_LATENCY);
  add_metric_row (rows, reports, fsync_instant, RP_SERIES_FSYNC_LATENCY, RP_METRIC_OVER_INSTANT, RP_METRIC_COUNT);
  add_metric_row (rows, reports, fsync_flow, RP_SERIES_FSYNC_LATENCY, RP_METRIC_OVER_FLOW, RP_METRIC_COUNT);
  add_metric_row (rows, reports, fsync_attention, RP_SERIES_FSYNC_LATENCY, RP_METRIC_OVER_ATTENTION, RP_METRIC_COUNT);
  add_metric_row (rows, reports, _("write() max"), RP_SERIES_WRITE_LATENCY, RP_METRIC_MAX, RP_METRIC_LATENCY);
  add_metric_row (rows, reports, _("Main loop max"), RP_SERIES_MAINLOOP_LATENESS, RP_METRIC_MAX, RP_METRIC_LATENCY);
  add_metric_row (rows, reports, loop_instant, RP_SERIES_MAINLOOP_LATENESS, RP_METRIC_OVER_INSTANT, RP_METRIC_COUNT);
  add_metric_row (rows, reports, _("Writer throughput"), NULL, RP_METRIC_MEAN, RP_METRIC_RATE);
}

/* Why each run stalled, side by side (rp_report_get_cause_cell()). */
static void
add_cause_row (GPtrArray *rows,
               GPtrArray *reports)
{
  CompareRow *row = compare_row_new (_("Dominant cause"), reports->len);
  gboolean any = FALSE;

  for (guint r = 0; r < reports->len; r++)
    {
      row->cells[r] = rp_report_get_cause_cell (g_ptr_array_index (reports, r));
      any |= row->cells[r] != NULL;
      if (row->cells[r] == NULL)
        row->cells[r] = g_strdup ("-");
    }
  if (any)
    g_ptr_array_add (rows, row);
  else
    compare_row_free (row);
}

/* A group of at most three runs side by side: the table of up to eight is
 * printed as groups one below the other, so that every line fits. */
typedef struct {
  guint first;          /* index of the group's first run */
  guint n;              /* runs in the group */
  gsize label_width;    /* columns */
  gsize cell_width;     /* columns */
} CompareGroup;

#define GROUP_MAX_RUNS 3

/* Whether a setting of some run of @group differs from run 1's: in a group
 * of runs 4 and 5, a setting only run 2 changed is not marked. */
static gboolean
differs_in_group (const CompareRow   *row,
                  const CompareGroup *group)
{
  for (guint r = group->first; row->differs && r < group->first + group->n; r++)
    if (r > 0 && g_strcmp0 (row->cells[r], row->cells[0]) != 0)
      return TRUE;
  return FALSE;
}

static void
append_compare_row (GString            *out,
                    const CompareRow   *row,
                    const CompareGroup *group)
{
  gboolean marked = differs_in_group (row, group);
  g_autoptr(GPtrArray) label_lines = rp_text_wrap_lines (row->label, group->label_width);
  g_autofree GPtrArray **cell_lines = g_new0 (GPtrArray *, group->n);
  guint height = label_lines->len;

  for (guint r = 0; r < group->n; r++)
    {
      cell_lines[r] = rp_text_wrap_lines (row->cells[group->first + r], group->cell_width);
      height = MAX (height, cell_lines[r]->len);
    }
  for (guint line = 0; line < height; line++)
    {
      gsize start = out->len;

      g_string_append (out, line == 0 && marked ? "* " : "  ");
      rp_text_append_padded (out, line < label_lines->len ? g_ptr_array_index (label_lines, line) : "",
                             group->label_width, FALSE);
      for (guint r = 0; r < group->n; r++)
        {
          g_string_append (out, "  ");
          rp_text_append_padded (out, line < cell_lines[r]->len ? g_ptr_array_index (cell_lines[r], line) : "",
                                 group->cell_width, FALSE);
        }
      while (out->len > start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
  for (guint r = 0; r < group->n; r++)
    g_ptr_array_unref (cell_lines[r]);
}

/* Column widths of a group sharing 80 columns, long cells wrapped. Cells are
 * padded to columns (so that they align on a terminal), so room is kept for
 * what their "µs" or "ä" take beyond their columns (rp_text_length()): an
 * upper bound for every wrapped line, whose extra is at most its cell's. */
static void
compute_compare_widths (GPtrArray    *rows,
                        CompareGroup *group)
{
  gsize label_width = 0, cell_width = 0, label_extra = 0, cell_extra = 0;
  gsize room;

  for (guint i = 0; i < rows->len; i++)
    {
      const CompareRow *row = g_ptr_array_index (rows, i);

      label_width = MAX (label_width, rp_text_width (row->label));
      label_extra = MAX (label_extra, rp_text_length (row->label) - rp_text_width (row->label));
      for (guint r = group->first; r < group->first + group->n; r++)
        {
          cell_width = MAX (cell_width, rp_text_width (row->cells[r]));
          cell_extra = MAX (cell_extra, rp_text_length (row->cells[r]) - rp_text_width (row->cells[r]));
        }
    }
  label_width = MIN (label_width, 22);
  room = (RP_TEXT_WIDTH - 2 - label_width - label_extra) / group->n;
  group->label_width = label_width;
  /* The wrapping needs 8; so much extra would take a stranger's report. */
  group->cell_width = CLAMP (MIN (cell_width, room - 2 - MIN (cell_extra, room - 10)), 8, room - 2);
}

/* Groups of at most three runs, as even as can be: 4 runs are 2 + 2, 5 are
 * 3 + 2, 8 are 3 + 3 + 2. */
static GArray *
compare_groups (GPtrArray *rows,
                guint      n_reports)
{
  guint n_groups = (n_reports + GROUP_MAX_RUNS - 1) / GROUP_MAX_RUNS;
  guint per_group = (n_reports + n_groups - 1) / n_groups;
  GArray *groups = g_array_new (FALSE, TRUE, sizeof (CompareGroup));

  for (guint first = 0; first < n_reports; first += per_group)
    {
      CompareGroup group = { first, MIN (per_group, n_reports - first), 0, 0 };

      compute_compare_widths (rows, &group);
      g_array_append_val (groups, group);
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
append_compare_group (GString            *out,
                      GPtrArray          *settings,
                      GPtrArray          *metrics,
                      const CompareGroup *group)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < settings->len; i++)
    append_compare_row (out, g_ptr_array_index (settings, i), group);
  g_string_append_c (out, '\n');
  if (metrics->len == 0)
    rp_text_append_wrapped (out, "  ", "  ", _("None of the reports has fsync, write() or main-loop samples."));
  for (guint i = 0; i < metrics->len; i++)
    append_compare_row (out, g_ptr_array_index (metrics, i), group);
}

/**
 * rp_report_compare_text:
 * @reports: (element-type RpReport): two or more reports (one works too)
 *
 * A side-by-side table, one column per report: the parts of the scenarios
 * that differ (rp_scenario_get_fields()), the settings the reporters of
 * docs/SCENARIOS.md compared (file system, journal mode, scheduler, kernel,
 * machine, RAM, dirty_* sysctls), rows that differ marked with "*"; then
 * fsync p50/p99/max and stall counts, write() and main-loop results where
 * measured, and the writer's mean throughput, each with its change relative
 * to the first report. At most 80 columns a line (long cells wrap; more
 * than three reports make several tables of two or three runs, one below
 * the other), at most 80 bytes in Latin-script languages.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_report_compare_text (GPtrArray *reports)
{
  g_autoptr(GPtrArray) settings = g_ptr_array_new_with_free_func (compare_row_free);
  g_autoptr(GPtrArray) metrics = g_ptr_array_new_with_free_func (compare_row_free);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autoptr(GArray) groups = NULL;
  g_autofree char *title = NULL;
  CompareRow *header;
  GString *out;

  g_return_val_if_fail (reports != NULL && reports->len > 0, NULL);
  for (guint r = 0; r < reports->len; r++)
    g_return_val_if_fail (RP_IS_REPORT (g_ptr_array_index (reports, r)), NULL);

  header = compare_row_new ("", reports->len);
  for (guint r = 0; r < reports->len; r++)
    header->cells[r] = g_strdup_printf (_("Run %u"), r + 1);
  g_ptr_array_add (settings, header);
  add_scenario_rows (settings, reports);
  add_setting_rows (settings, reports);
  add_metric_rows (metrics, reports);
  add_cause_row (metrics, reports);
  g_ptr_array_extend (all, settings, NULL, NULL);
  g_ptr_array_extend (all, metrics, NULL, NULL);
  groups = compare_groups (all, reports->len);

  out = g_string_new (NULL);
  title = g_strdup_printf (ngettext ("Comparison of %u report", "Comparison of %u reports",
                                     reports->len), reports->len);
  rp_text_append_heading (out, title, '=');
  append_compare_legend (out, reports);
  for (guint g = 0; g < groups->len; g++)
    append_compare_group (out, settings, metrics, &g_array_index (groups, CompareGroup, g));

  g_string_append_c (out, '\n');
  rp_text_append_wrapped (out, "", "", _("* marks settings that differ from run 1. Changes in "
                                         "parentheses are relative to run 1."));
  return g_string_free (out, FALSE);
}
