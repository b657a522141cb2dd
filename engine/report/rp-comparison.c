/* rp-comparison.c: reports grouped by configuration, every figure with its interval and significance. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "rp-comparison.h"
#include "rp-stream-stats.h"
#include "rp-report-private.h"
#include "rp-significance.h"
#include "rp-units.h"

/* The settings the reporters of docs/SCENARIOS.md compared by hand, by their
 * rp_sysinfo_get_fields() keys, with labels short enough for a table. The
 * sysctl names stay untranslated: they are what one types. With the
 * scenario's fields they make a run's configuration. */
const RpCompareSetting rp_compare_settings[] = {
  { "fs_type", N_("File system"), TRUE },
  { "journal_mode", N_("Journal mode"), TRUE },
  /* As the window's comparison shows them: data=, barrier, commit= … */
  { "mount_options", N_("Mount options"), TRUE },
  { "scheduler", N_("I/O scheduler"), TRUE },
  { "whole_disk", N_("Disk"), TRUE },
  { "rotational", N_("Rotational"), TRUE },
  { "raid_level", N_("RAID level"), TRUE },
  { "kernel_release", N_("Kernel"), TRUE },
  { "machine", N_("Machine"), TRUE },
  { "distribution", N_("Distribution"), TRUE },
  { "userspace_bits", N_("User space"), TRUE },
  { "cpu_count", N_("CPUs"), TRUE },
  { "ram_bytes", N_("RAM"), TRUE },
  { "dirty_ratio", "dirty_ratio", FALSE },
  { "dirty_background_ratio", "dirty_background_ratio", FALSE },
  { "dirty_bytes", "dirty_bytes", FALSE },
  { "dirty_background_bytes", "dirty_background_bytes", FALSE },
  { "dirty_expire_centisecs", "dirty_expire_centisecs", FALSE },
  { "wbt_lat_usec", "wbt_lat_usec", FALSE },
  { "read_ahead_kb", "read_ahead_kb", FALSE },
  /* The USB-stick remedies (issue 20): the load disk's per-device limits. */
  { "bdi_max_ratio", "bdi max_ratio", FALSE },
  { "bdi_strict_limit", "bdi strict_limit", FALSE },
  { "loop_direct_io", N_("Loop direct I/O"), TRUE },
  { "backing_fs_type", N_("Backing file system"), TRUE },
  { "backing_disk", N_("Backing disk"), TRUE },
  { "backing_scheduler", N_("Backing scheduler"), TRUE },
  { "backing_wbt_lat_usec", N_("Backing wbt_lat_usec"), TRUE },
  /* The loads' side of a matrix under --probe-dir (the copy on the cell's
   * file system, the probes on another): what the matrix varied there. */
  { "load_fs_type", N_("Load file system"), TRUE },
  { "load_journal_mode", N_("Load journal mode"), TRUE },
  { "load_scheduler", N_("Load disk’s I/O scheduler"), TRUE },
  { "bdi_max_bytes", "bdi max_bytes", FALSE },
  /* A note, not a field: `--memory` (rp_compare_setting_value()). */
  { "memory_emulated_bytes", N_("Emulated memory"), TRUE },
};
const guint rp_n_compare_settings = G_N_ELEMENTS (rp_compare_settings);

/**
 * rp_compare_get_settings:
 * @out_n: (out): how many
 *
 * The settings a comparison lists, a row each, in order: those the
 * reporters of docs/SCENARIOS.md compared (file system, journal mode,
 * scheduler, disk, kernel, RAM, the dirty_* sysctls …), the loop device's
 * backing, and the loads' side of a matrix under `--probe-dir` (their file
 * system, journal mode and scheduler, the per-device dirty limits, the
 * emulated memory). The CLI's and the window's comparisons show the same.
 *
 * Returns: (transfer none) (array length=out_n): static settings
 */
const RpCompareSetting *
rp_compare_get_settings (guint *out_n)
{
  g_return_val_if_fail (out_n != NULL, NULL);

  *out_n = rp_n_compare_settings;
  return rp_compare_settings;
}

/**
 * rp_compare_setting_is_unused:
 * @values: (array zero-terminated=1): a setting's value in each run
 *   (rp_compare_setting_value())
 *
 * Returns: whether the setting applies to none of the runs (every value
 *   "not applicable" or "-": the loads' side of runs whose loads wrote
 *   beside the probes), so that a comparison leaves its row out
 */
gboolean
rp_compare_setting_is_unused (char **values)
{
  g_return_val_if_fail (values != NULL, FALSE);

  for (guint r = 0; values[r] != NULL; r++)
    if (!g_str_equal (values[r], "-") && !g_str_equal (values[r], _("not applicable")))
      return FALSE;
  return TRUE;
}

/* Pressure series have no title of their own (the charts show only I/O
 * "some"): their rows' labels. The avg10 ones repeat the totals smoothed,
 * so they get no row. */
static const struct {
  const char *series;
  const char *label;
} pressure_labels[] = {
  { "psi_io_some", N_("I/O pressure (some)") },
  { "psi_io_full", N_("I/O pressure (full)") },
  { "psi_cpu_some", N_("CPU pressure (some)") },
  { "psi_cpu_full", N_("CPU pressure (full)") },
  { "psi_memory_some", N_("Memory pressure (some)") },
  { "psi_memory_full", N_("Memory pressure (full)") },
};

/* A note by which a run names its configuration itself (a matrix cell
 * repeated N times writes each repeat as a report of its own): when a
 * report has it, it is the configuration key. */
#define NOTE_CONFIGURATION "configuration"

/* A key of a configuration the run named (@kind "configuration" or "note"),
 * with its loads and their settings. */
static char *
named_key (const char *kind,
           const char *name,
           GPtrArray  *scenario_fields)
{
  GString *key = g_string_new (NULL);

  g_string_append_printf (key, "%s\n%s\n", kind, name);
  for (guint i = 0; i < scenario_fields->len; i++)
    {
      const RpField *field = g_ptr_array_index (scenario_fields, i);
      const RpPartInfo *part = rp_parts_lookup (field->key);

      if (part != NULL && part->role == RP_PART_LOAD)
        g_string_append_printf (key, "%s=%s\n", field->key, field->value);
    }
  return g_string_free (key, FALSE);
}

/**
 * rp_report_get_configuration_key:
 *
 * What makes two reports repeats of one configuration: the report's
 * configuration (rp_report_get_configuration(): `--repeat` and the matrix
 * name their runs), else the note "configuration" when the run wrote one,
 * each with the scenario's loads and their settings (a named configuration
 * with other loads is another configuration); else every field of the scenario (rp_scenario_get_fields(): preset,
 * each load and probe with its settings, duration) and every setting the
 * comparison lists (file system, journal mode, I/O scheduler, disk,
 * rotational, RAID level, kernel, machine, user space, RAM, the dirty_*
 * sysctls, wbt_lat_usec, the loads' file system and scheduler, the
 * emulated memory: rp_compare_get_settings()). Not the time of the run,
 * its target directory nor its results.
 *
 * Returns: (transfer full): an opaque key; equal keys, same configuration
 */
char *
rp_report_get_configuration_key (RpReport *report)
{
  const char *named;
  g_autoptr(GPtrArray) scenario_fields = NULL;
  GString *key;

  g_return_val_if_fail (RP_IS_REPORT (report), NULL);

  /* The loads are part of every configuration, also of one a run named
   * itself: a matrix's idle cell and its dd cell are two configurations,
   * never "one configuration: 2 runs" (issue 31, defect 8). */
  scenario_fields = rp_scenario_get_fields (report->scenario);
  named = report->notes != NULL ? g_hash_table_lookup (report->notes, NOTE_CONFIGURATION) : NULL;
  if (rp_report_get_configuration (report) != NULL)
    return named_key ("configuration", rp_report_get_configuration (report)->key, scenario_fields);
  if (named != NULL && *named != '\0')
    return named_key ("note", named, scenario_fields);

  key = g_string_new ("fields\n");
  for (guint i = 0; i < scenario_fields->len; i++)
    {
      const RpField *field = g_ptr_array_index (scenario_fields, i);

      g_string_append_printf (key, "%s=%s\n", field->key, field->value);
    }
  for (guint s = 0; s < rp_n_compare_settings; s++)
    {
      g_autofree char *value = rp_compare_setting_value (report, &rp_compare_settings[s]);

      g_string_append_printf (key, "%s=%s\n", rp_compare_settings[s].key, value);
    }
  return g_string_free (key, FALSE);
}

/* ------------------------------------------------------------------------- */
/* Groups */

static GPtrArray *
make_groups (GPtrArray      *reports,
             RpCompareFlags  flags)
{
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);

  for (guint r = 0; r < reports->len; r++)
    {
      g_autofree char *key = (flags & RP_COMPARE_GROUP)
                             ? rp_report_get_configuration_key (g_ptr_array_index (reports, r))
                             : g_strdup_printf ("%u", r);
      guint g;

      for (g = 0; g < keys->len; g++)
        if (g_str_equal (g_ptr_array_index (keys, g), key))
          break;
      if (g == keys->len)
        {
          g_ptr_array_add (keys, g_steal_pointer (&key));
          g_ptr_array_add (groups, g_array_new (FALSE, FALSE, sizeof (guint)));
        }
      g_array_append_val ((GArray *) g_ptr_array_index (groups, g), r);
    }
  return groups;
}

/**
 * rp_comparison_get_group_size:
 * @group: 0 .. @n_groups − 1
 *
 * Returns: how many runs the group has
 */
guint
rp_comparison_get_group_size (const RpComparison *self,
                              guint               group)
{
  g_return_val_if_fail (self != NULL && group < self->n_groups, 0);
  return ((GArray *) g_ptr_array_index (self->groups, group))->len;
}

/**
 * rp_comparison_get_group_report:
 * @group: 0 .. @n_groups − 1
 * @index: 0 .. rp_comparison_get_group_size() − 1
 *
 * Returns: (transfer none): that run's report
 */
RpReport *
rp_comparison_get_group_report (const RpComparison *self,
                                guint               group,
                                guint               index)
{
  GArray *members;

  g_return_val_if_fail (self != NULL && group < self->n_groups, NULL);
  members = g_ptr_array_index (self->groups, group);
  g_return_val_if_fail (index < members->len, NULL);
  return g_ptr_array_index (self->reports, g_array_index (members, guint, index));
}

/**
 * rp_comparison_get_group_label:
 * @group: 0 .. @n_groups − 1
 *
 * Returns: (transfer full): a column heading naming its runs by their
 *   1-based place among the reports: "Run 2", "Runs 1, 3, 5"
 */
char *
rp_comparison_get_group_label (const RpComparison *self,
                               guint               group)
{
  GArray *members;
  GString *numbers;
  g_autofree char *list = NULL;

  g_return_val_if_fail (self != NULL && group < self->n_groups, NULL);
  members = g_ptr_array_index (self->groups, group);
  if (members->len == 1)
    return g_strdup_printf (_("Run %u"), g_array_index (members, guint, 0) + 1);
  numbers = g_string_new (NULL);
  for (guint i = 0; i < members->len; i++)
    g_string_append_printf (numbers, "%s%u", i > 0 ? ", " : "", g_array_index (members, guint, i) + 1);
  list = g_string_free (numbers, FALSE);
  /* TRANSLATORS: a column of a comparison: the repeats of one configuration, e.g. "Runs 1, 3, 5" */
  return g_strdup_printf (_("Runs %s"), list);
}

/* ------------------------------------------------------------------------- */
/* Figures of a sample */

typedef struct {
  RpMetricStat stat;
} FigureSpec;

static int
compare_doubles (const void *pa,
                 const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;

  return (a > b) - (a < b);
}

static guint64
count_over (const double *values,
            gsize         n,
            double        limit)
{
  guint64 count = 0;

  for (gsize i = 0; i < n; i++)
    count += values[i] > limit;
  return count;
}

/* The figure @stat of a sample, as rp_stats_compute() would give it. */
static double
figure_of (double   *values,
           gsize     n,
           gpointer  data)
{
  const FigureSpec *spec = data;
  double sum = 0, max = -INFINITY;

  switch (spec->stat)
    {
    case RP_METRIC_P50:
    case RP_METRIC_P99:
      qsort (values, n, sizeof *values, compare_doubles);
      return rp_stats_percentile (values, n, spec->stat == RP_METRIC_P50 ? 0.5 : 0.99);
    case RP_METRIC_MAX:
      for (gsize i = 0; i < n; i++)
        max = MAX (max, values[i]);
      return max;
    case RP_METRIC_OVER_INSTANT:
      return (double) count_over (values, n, RP_LIMIT_INSTANT);
    case RP_METRIC_OVER_FLOW:
      return (double) count_over (values, n, RP_LIMIT_FLOW);
    case RP_METRIC_OVER_ATTENTION:
      return (double) count_over (values, n, RP_LIMIT_ATTENTION);
    case RP_METRIC_N:
      return (double) n;
    case RP_METRIC_MEAN:
    default:
      for (gsize i = 0; i < n; i++)
        sum += values[i];
      return sum / (double) n;
    }
}

static double
mean_of (double   *values,
         gsize     n,
         gpointer  data)
{
  FigureSpec spec = { RP_METRIC_MEAN };

  return figure_of (values, n, &spec);
}

/* The samples of @name in @report (none when it lacks the series): of a
 * thinned series every sample its points stand for, from its full
 * statistics (each within 0.5 %), so that the rank test and the intervals
 * weigh every request as the figures do, not the longest of each 0.1 s. */
static GArray *
series_values (RpReport   *report,
               const char *name)
{
  RpSeries *series = rp_report_lookup_series (report, name);
  GArray *values = g_array_new (FALSE, FALSE, sizeof (double));
  g_autofree double *copy = NULL;
  guint n = 0;
  gsize n_full = 0;

  if (series == NULL)
    return values;
  if (rp_series_get_full_stats (series) != NULL)
    {
      copy = rp_stream_stats_copy_sorted_values (rp_series_get_full_stats (series), &n_full);
      g_array_append_vals (values, copy, n_full);
      return values;
    }
  copy = rp_series_copy_values (series, &n);
  g_array_append_vals (values, copy, n);
  return values;
}

/* ------------------------------------------------------------------------- */
/* Rows */

static void
compare_row_free (gpointer data)
{
  RpCompareRow *row = data;

  g_free (row->label);
  g_free (row->value);
  g_free (row->low);
  g_free (row->high);
  g_free (row->p);
  g_free (row->change);
  g_free (row->runs);
  g_free (row);
}

/* One Mann–Whitney test: a judged series of group @group against group 0. */
typedef struct {
  const char   *series;
  RpMetricStat  stat;     /* the row it judges: RP_METRIC_P50, or a stall share */
  guint         group;
  double        p;
} Test;

typedef struct {
  RpComparison *self;
  GArray       *tests;    /* Test */
  guint         seed;     /* of the next interval */
  GHashTable   *sorted;   /* "group:series" → GArray of the group's samples, sorted */
} Builder;

/* The samples of every run of @group, one after the other, sorted; kept
 * for the other rows and the test of the series, so that an hour's
 * samples are sorted once per comparison. (transfer none) */
static GArray *
sorted_group_values (Builder    *builder,
                     guint       group,
                     const char *series)
{
  RpComparison *self = builder->self;
  g_autofree char *key = g_strdup_printf ("%u:%s", group, series);
  GArray *all = g_hash_table_lookup (builder->sorted, key);

  if (all != NULL)
    return all;
  all = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint i = 0; i < rp_comparison_get_group_size (self, group); i++)
    {
      g_autoptr(GArray) values = series_values (rp_comparison_get_group_report (self, group, i), series);

      /* As rp_stats_compute(): only finite values count. */
      for (guint k = 0; k < values->len; k++)
        if (isfinite (g_array_index (values, double, k)))
          g_array_append_val (all, g_array_index (values, double, k));
    }
  /* qsort() of no values would get a NULL array: undefined. */
  if (all->len > 1)
    qsort (all->data, all->len, sizeof (double), compare_doubles);
  g_hash_table_insert (builder->sorted, g_steal_pointer (&key), all);
  return all;
}

/* The figure of one run: the report's cached statistics (the same figures
 * as its summary), the writer's throughput as its summary gives it. */
/* Figures a part writes as a note rather than a series (the command load's
 * times, issue 19), named "note:KEY" in a row's series. */
#define NOTE_FIGURE_PREFIX "note:"

/* A note's number (written with a decimal point whatever the locale), or
 * NAN when the report lacks it. */
static double
note_figure (RpReport   *report,
             const char *key)
{
  GHashTable *notes = rp_report_get_notes (report);
  const char *text = notes != NULL ? g_hash_table_lookup (notes, key) : NULL;
  double value;

  /* A stranger's "12 apples" or "1e300" is not a figure of a run. */
  if (!rp_parse_note_number (text, -RP_NOTE_MAX_NUMBER, RP_NOTE_MAX_NUMBER, &value))
    return NAN;
  return value;
}

static double
run_figure (RpReport     *report,
            const char   *series,
            RpMetricStat  stat)
{
  RpSeries *own;

  if (g_str_has_prefix (series, NOTE_FIGURE_PREFIX))
    return note_figure (report, series + strlen (NOTE_FIGURE_PREFIX));
  own = rp_report_lookup_series (report, series);
  if (g_strcmp0 (series, RP_SERIES_WRITER_THROUGHPUT) == 0 && stat == RP_METRIC_MEAN &&
      own != NULL && rp_series_get_length (own) > 0)
    return rp_report_get_metric (report, NULL, stat);
  return rp_report_get_metric (report, series, stat);
}

static double
limit_of (RpMetricStat stat)
{
  return stat == RP_METRIC_OVER_INSTANT ? RP_LIMIT_INSTANT
         : stat == RP_METRIC_OVER_FLOW ? RP_LIMIT_FLOW : RP_LIMIT_ATTENTION;
}

/* The percentile bootstrap interval of a figure of one run's samples: in
 * closed form where it has one (quantiles from order statistics, the
 * maximum and the counts over a limit exactly), so that an hour's 360 000
 * samples take one sort rather than a thousand; by resampling for the
 * mean. @samples is sorted. */
static void
sample_interval (GArray       *samples,
                 RpMetricStat  stat,
                 guint32       seed,
                 double       *out_low,
                 double       *out_high)
{
  const double *values = (const double *) samples->data;
  FigureSpec spec = { stat };

  switch (stat)
    {
    case RP_METRIC_P50:
    case RP_METRIC_P99:
    case RP_METRIC_MAX:
      if (stat == RP_METRIC_MAX)
        rp_max_interval (values, samples->len, RP_CONFIDENCE_LEVEL, out_low, out_high);
      else
        rp_quantile_interval (values, samples->len, stat == RP_METRIC_P50 ? 0.5 : 0.99,
                              RP_CONFIDENCE_LEVEL, out_low, out_high);
      return;
    case RP_METRIC_OVER_INSTANT:
    case RP_METRIC_OVER_FLOW:
    case RP_METRIC_OVER_ATTENTION:
      rp_count_interval (count_over (values, samples->len, limit_of (stat)), samples->len,
                         RP_CONFIDENCE_LEVEL, out_low, out_high);
      return;
    case RP_METRIC_MEAN:
    case RP_METRIC_N:
    default:
      rp_bootstrap_interval (values, samples->len, figure_of, &spec, rp_bootstrap_resamples (samples->len),
                             RP_CONFIDENCE_LEVEL, seed, out_low, out_high);
      return;
    }
}

/* A run's stalls over @stat's limit and its calls of @series: the note
 * of its calls where the series keeps one sample a window (a stall is
 * always a sample of its own, so its count is exact either way), else its
 * samples. FALSE when the run lacks the series. */
static gboolean
run_stalls (RpReport     *report,
            const char   *series,
            RpMetricStat  stat,
            double       *out_count,
            double       *out_calls)
{
  const RpSeriesInfo *info = rp_parts_lookup_series (series, NULL);
  double count = rp_report_get_metric (report, series, stat);
  double calls = rp_report_get_metric (report, series, RP_METRIC_N);
  double noted = info != NULL && info->count_note != NULL ? note_figure (report, info->count_note) : NAN;

  if (isnan (count) || isnan (calls) || calls <= 0)
    return FALSE;
  /* A live or cut run may lack the note: its windows are the calls known. */
  if (!isnan (noted) && noted >= calls)
    calls = noted;
  *out_count = count;
  *out_calls = calls;
  return TRUE;
}

/* The run's minutes, or NAN for a report without a length. */
static double
run_minutes (RpReport *report)
{
  double seconds = rp_report_get_duration (report);

  return seconds > 0 ? seconds / 60 : NAN;
}

/* One run's figure of @row: the figure itself, or its count over a limit
 * as a share of the calls or per minute. */
static double
row_figure (RpReport           *report,
            const RpCompareRow *row)
{
  double count, calls;

  if (row->measure == RP_COMPARE_FIGURE)
    return run_figure (report, row->series, row->stat);
  if (!run_stalls (report, row->series, row->stat, &count, &calls))
    return NAN;
  return row->measure == RP_COMPARE_SHARE ? count / calls : count / run_minutes (report);
}

/* The interval of a share or rate of one run: a count over a limit of
 * that many calls, binomial (rp_count_interval()), over its calls or its
 * minutes. */
static void
stall_interval (RpReport     *report,
                RpCompareRow *row,
                guint         group)
{
  double count, calls, low, high, per;

  if (!run_stalls (report, row->series, row->stat, &count, &calls))
    return;
  per = row->measure == RP_COMPARE_SHARE ? calls : run_minutes (report);
  rp_count_interval ((guint64) count, (guint64) calls, RP_CONFIDENCE_LEVEL, &low, &high);
  if (isnan (per) || isnan (low))
    return;
  row->low[group] = low / per;
  row->high[group] = high / per;
}

/* A group's figure and interval: the mean of its runs' figures and the
 * bootstrap over runs when it has two or more; the run's figure and the
 * bootstrap over its samples when it has one. */
static void
fill_group (Builder      *builder,
            RpCompareRow *row,
            guint         group)
{
  RpComparison *self = builder->self;
  guint size = rp_comparison_get_group_size (self, group);
  g_autoptr(GArray) figures = g_array_new (FALSE, FALSE, sizeof (double));
  guint32 seed = ++builder->seed;
  double total = 0;

  RpReport *only = NULL;

  for (guint i = 0; i < size; i++)
    {
      RpReport *report = rp_comparison_get_group_report (self, group, i);
      double figure = row_figure (report, row);

      if (!isnan (figure))
        {
          g_array_append_val (figures, figure);
          total += figure;
          only = report;
        }
    }
  row->value[group] = row->low[group] = row->high[group] = NAN;
  row->runs[group] = figures->len;
  if (figures->len == 0)
    return;
  if (row->stat == RP_METRIC_N)
    {
      row->value[group] = total;
      return;
    }
  row->value[group] = total / figures->len;
  if (figures->len >= 2)
    rp_bootstrap_interval ((double *) figures->data, figures->len, mean_of, NULL,
                           rp_bootstrap_resamples (figures->len), RP_CONFIDENCE_LEVEL, seed,
                           &row->low[group], &row->high[group]);
  else if (row->measure != RP_COMPARE_FIGURE)
    stall_interval (only, row, group);
  else
    {
      /* One run has the figure, so the group's samples are that run's
       * (the others have none of the series). */
      GArray *samples = sorted_group_values (builder, group, row->series);

      if (samples->len > 0)
        sample_interval (samples, row->stat, seed, &row->low[group], &row->high[group]);
    }
}

/* Adds the row when some group has its figure. */
static RpCompareRow *
add_measure_row (Builder          *builder,
                 char             *label,
                 const char       *series,
                 const char       *unit,
                 RpMetricStat      stat,
                 RpCompareMeasure  measure,
                 int               direction,
                 gboolean          tested)
{
  RpComparison *self = builder->self;
  RpCompareRow *row = g_new0 (RpCompareRow, 1);
  gboolean any = FALSE;

  row->label = label;
  row->series = series;
  row->unit = unit;
  row->stat = stat;
  row->measure = measure;
  row->direction = direction;
  row->tested = tested;
  row->value = g_new (double, self->n_groups);
  row->low = g_new (double, self->n_groups);
  row->high = g_new (double, self->n_groups);
  row->p = g_new (double, self->n_groups);
  row->change = g_new0 (RpChange, self->n_groups);
  row->runs = g_new0 (guint, self->n_groups);
  for (guint g = 0; g < self->n_groups; g++)
    {
      fill_group (builder, row, g);
      row->p[g] = NAN;
      any |= !isnan (row->value[g]);
    }
  if (!any)
    {
      compare_row_free (row);
      return NULL;
    }
  g_ptr_array_add (self->rows, row);
  return row;
}

static RpCompareRow *
add_row (Builder      *builder,
         char         *label,
         const char   *series,
         const char   *unit,
         RpMetricStat  stat,
         int           direction,
         gboolean      tested)
{
  return add_measure_row (builder, label, series, unit, stat, RP_COMPARE_FIGURE, direction, tested);
}

/* One test per judged series and group: its latency samples against the
 * baseline's, for the series' median (p50) row. */
static void
add_tests (Builder    *builder,
           const char *series)
{
  RpComparison *self = builder->self;
  GArray *base = sorted_group_values (builder, 0, series);

  for (guint g = 1; g < self->n_groups; g++)
    {
      GArray *other = sorted_group_values (builder, g, series);
      Test test = { series, RP_METRIC_P50, g, NAN };

      if (base->len > 0 && other->len > 0)
        test.p = rp_mann_whitney_u_sorted ((double *) other->data, other->len,
                                           (double *) base->data, base->len, NULL, NULL);
      g_array_append_val (builder->tests, test);
    }
}

/* One test per group of the share of calls that stalled over @stat's
 * limit, against the baseline's: each group's runs pooled, every call a
 * 0 or a 1 (rp_mann_whitney_u_binary()). */
static void
add_share_tests (Builder      *builder,
                 const char   *series,
                 RpMetricStat  stat)
{
  RpComparison *self = builder->self;
  double count[2] = { 0, 0 }, calls[2] = { 0, 0 };

  for (guint g = 0; g < self->n_groups; g++)
    {
      guint side = g == 0 ? 0 : 1;
      Test test = { series, stat, g, NAN };

      count[1] = calls[1] = 0;
      for (guint i = 0; i < rp_comparison_get_group_size (self, g); i++)
        {
          double k, n;

          if (run_stalls (rp_comparison_get_group_report (self, g, i), series, stat, &k, &n))
            count[side] += k, calls[side] += n;
        }
      if (g == 0)
        continue;
      if (calls[0] > 0 && calls[1] > 0)
        test.p = rp_mann_whitney_u_binary ((guint64) count[1], (guint64) calls[1],
                                           (guint64) count[0], (guint64) calls[0], NULL);
      g_array_append_val (builder->tests, test);
    }
}

static gboolean
any_over (RpComparison *self,
          const char   *series,
          RpMetricStat  stat)
{
  for (guint r = 0; r < self->reports->len; r++)
    if (rp_report_get_metric (g_ptr_array_index (self->reports, r), series, stat) > 0)
      return TRUE;
  return FALSE;
}

/* Every judged latency: samples, p50, p99, worst and the stalls over each
 * limit (over 1 s and 10 s only where some run has them). */
static void
add_latency_rows (Builder *builder)
{
  g_autofree char *instant = rp_format_limit (RP_LIMIT_INSTANT);
  g_autofree char *flow = rp_format_limit (RP_LIMIT_FLOW);
  g_autofree char *attention = rp_format_limit (RP_LIMIT_ATTENTION);
  const struct {
    RpMetricStat stat;
    const char  *limit;
  } stalls[] = {
    { RP_METRIC_OVER_INSTANT, instant },
    { RP_METRIC_OVER_FLOW, flow },
    { RP_METRIC_OVER_ATTENTION, attention },
  };

  for (guint i = 0; i < rp_run_summary_get_n_rows (); i++)
    {
      const RpSeriesInfo *info = rp_run_summary_get_row_info (i);
      const char *name = _(info->label != NULL ? info->label : info->title);

      if (!(info->flags & RP_SERIES_FLAG_JUDGED))
        continue;
      /* TRANSLATORS: a comparison row: how many samples the figures below rest on; %s is a series, e.g. "Cold read" */
      if (add_row (builder, g_strdup_printf (_("%s samples"), name), info->name, "",
                   RP_METRIC_N, 0, FALSE) == NULL)
        continue;
      add_tests (builder, info->name);
      /* The Mann–Whitney test is of the whole distribution (is one's latency
       * stochastically larger than the other's?): it judges the median.
       * The tail (p99, worst, the stalls over a limit) is a few samples it
       * hardly weighs: ext3 data=ordered against writeback, fsync p99
       * 2.68 s against 38 ms with the medians alike (4.9 ms, 6.2 ms), gave
       * p = 0.60 and called the tail "noise". The tail rows are judged as
       * the other figures, by their own intervals (over runs, else "one
       * run"). */
      /* TRANSLATORS: a comparison row, the median; %s is a series, e.g. "Cold read" */
      add_row (builder, g_strdup_printf (_("%s p50"), name), info->name, "s", RP_METRIC_P50, -1, TRUE);
      /* TRANSLATORS: a comparison row, the 99th percentile; %s is a series, e.g. "Cold read" */
      add_row (builder, g_strdup_printf (_("%s p99"), name), info->name, "s", RP_METRIC_P99, -1, FALSE);
      /* TRANSLATORS: a comparison row, the longest; %s is a series, e.g. "Cold read" */
      add_row (builder, g_strdup_printf (_("%s worst"), name), info->name, "s", RP_METRIC_MAX, -1, FALSE);
      /* Stalls as shares of the calls, judged by the test of the calls
       * as stalled or not: a faster setting makes more calls, and more of
       * them may stall at a lower share (issue 31, defect 8). The rate per
       * minute and the count stand beside the share, neither better nor
       * worse. */
      for (guint s = 0; s < G_N_ELEMENTS (stalls); s++)
        {
          if (s > 0 && !any_over (builder->self, info->name, stalls[s].stat))
            continue;
          /* TRANSLATORS: a comparison row: the share of a series' calls (e.g. "Cold read") that took over e.g. "0.1 s", shown as "5.0 %" */
          if (add_measure_row (builder, g_strdup_printf (_("%s > %s, share"), name, stalls[s].limit),
                               info->name, "ratio", stalls[s].stat, RP_COMPARE_SHARE, -1, TRUE) != NULL)
            add_share_tests (builder, info->name, stalls[s].stat);
          /* TRANSLATORS: a comparison row: how many calls of a series (e.g. "Cold read") took over e.g. "0.1 s" in a minute, shown as "12.1 /min" */
          add_measure_row (builder, g_strdup_printf (_("%s > %s, rate"), name, stalls[s].limit),
                           info->name, "/min", stalls[s].stat, RP_COMPARE_PER_MINUTE, 0, FALSE);
          /* TRANSLATORS: a comparison row: how many samples of a series (e.g. "Cold read") took over e.g. "0.1 s" */
          add_row (builder, g_strdup_printf (_("%s > %s"), name, stalls[s].limit), info->name, "",
                   stalls[s].stat, 0, FALSE);
        }
    }
}

static gboolean
is_other_figure (const RpSeriesInfo *info,
                 gconstpointer       data)
{
  return (info->role == RP_SUMMARY_THROUGHPUT || info->role == RP_SUMMARY_LEVEL) &&
         !(info->flags & RP_SERIES_FLAG_PER_THREAD) && !g_str_has_suffix (info->name, "_avg10");
}

static const char *
pressure_label (const char *series)
{
  for (guint i = 0; i < G_N_ELEMENTS (pressure_labels); i++)
    if (g_str_equal (pressure_labels[i].series, series))
      return _(pressure_labels[i].label);
  return NULL;
}

/**
 * rp_pressure_series_label:
 * @series: a series name, e.g. "psi_io_some" or "psi_cpu_full_avg10"
 *
 * The plain name of a pressure (PSI) series, as the comparison's rows name
 * them: the parts table gives these series no title of their own.
 *
 * Returns: (transfer full) (nullable): translated, e.g. "I/O pressure
 *   (some)", "CPU pressure (full), 10 s average"; %NULL for another series
 */
char *
rp_pressure_series_label (const char *series)
{
  g_autofree char *base = NULL;
  const char *label;

  g_return_val_if_fail (series != NULL, NULL);

  if (!g_str_has_suffix (series, "_avg10"))
    return g_strdup (pressure_label (series));
  base = g_strndup (series, strlen (series) - strlen ("_avg10"));
  label = pressure_label (base);
  if (label == NULL)
    return NULL;
  /* TRANSLATORS: the kernel's own 10-second average of a pressure figure, e.g. "I/O pressure (some), 10 s average" */
  return g_strdup_printf (_("%s, 10 s average"), label);
}

/* Every level and throughput the parts table knows: CPU split means,
 * pressure means, the peaks of dirty and writeback memory, the loads'
 * throughputs and the CPU benchmark's rate. */
static void
add_other_rows (Builder *builder)
{
  g_autoptr(GPtrArray) infos = rp_parts_find_series (is_other_figure, NULL);

  for (guint i = 0; i < infos->len; i++)
    {
      const RpSeriesInfo *info = g_ptr_array_index (infos, i);
      const char *label = pressure_label (info->name);
      gboolean pressure = label != NULL, bytes = g_str_equal (info->unit, "B");

      if (label == NULL && info->title == NULL)
        continue;
      if (label == NULL && g_str_has_prefix (info->name, "cpu_") && info->role == RP_SUMMARY_LEVEL)
        /* TRANSLATORS: a comparison row: the mean share of CPU time, %s is e.g. "I/O wait" */
        add_row (builder, g_strdup_printf (_("CPU %s"), _(info->title)), info->name, info->unit,
                 RP_METRIC_MEAN, 0, FALSE);
      else if (bytes)
        /* TRANSLATORS: a comparison row: the highest value of e.g. "Dirty" memory */
        add_row (builder, g_strdup_printf (_("%s peak"), _(info->title)), info->name, info->unit,
                 RP_METRIC_MAX, 0, FALSE);
      else
        add_row (builder, g_strdup (pressure ? label : _(info->title)), info->name, info->unit,
                 RP_METRIC_MEAN, info->role == RP_SUMMARY_THROUGHPUT ? 1 : -1, FALSE);
    }
}

/* The command load's own times (notes of rp-command-load.c): how long the
 * command took and the CPU it used, lower is better. */
static void
add_command_rows (Builder *builder)
{
  static const struct {
    const char *series;
    const char *label;
  } rows[] = {
    /* TRANSLATORS: a comparison row: how long the command load ran */
    { NOTE_FIGURE_PREFIX "command_wall_seconds", N_("Command wall time") },
    /* TRANSLATORS: a comparison row: the command's CPU time in user mode (rusage) */
    { NOTE_FIGURE_PREFIX "command_user_seconds", N_("Command user CPU time") },
    /* TRANSLATORS: a comparison row: the command's CPU time in the kernel (rusage) */
    { NOTE_FIGURE_PREFIX "command_system_seconds", N_("Command system CPU time") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (rows); i++)
    add_row (builder, g_strdup (_(rows[i].label)), rows[i].series, "s", RP_METRIC_MEAN, -1, FALSE);
}

/* The dominant stall causes (issue 18) come here, as rows of their own,
 * once reports carry them. */
static void
add_cause_rows (Builder *builder)
{
}

static RpChange
change_of (const RpCompareRow *row,
           guint               group,
           gboolean            significant)
{
  double base = row->value[0], value = row->value[group];

  if (group == 0 || row->stat == RP_METRIC_N || isnan (base) || isnan (value) || value == base)
    return RP_CHANGE_NONE;
  if (!significant)
    return RP_CHANGE_NOISE;
  if (row->direction == 0)
    return RP_CHANGE_DIFFERENT;
  return (value < base) == (row->direction < 0) ? RP_CHANGE_BETTER : RP_CHANGE_WORSE;
}

/* Holm across every test of the comparison, then each row's changes: by
 * its series' test where it has one, else by its intervals. */
static void
judge_rows (Builder *builder)
{
  RpComparison *self = builder->self;
  g_autofree double *raw = g_new (double, builder->tests->len + 1);
  g_autofree double *adjusted = g_new (double, builder->tests->len + 1);

  for (guint t = 0; t < builder->tests->len; t++)
    raw[t] = g_array_index (builder->tests, Test, t).p;
  rp_holm_adjust (raw, builder->tests->len, adjusted);

  for (guint i = 0; i < self->rows->len; i++)
    {
      RpCompareRow *row = g_ptr_array_index (self->rows, i);

      for (guint g = 1; g < self->n_groups; g++)
        {
          gboolean significant, separate;

          if (row->tested)
            for (guint t = 0; t < builder->tests->len; t++)
              {
                const Test *test = &g_array_index (builder->tests, Test, t);

                if (test->group == g && test->stat == row->stat && g_str_equal (test->series, row->series))
                  row->p[g] = adjusted[t];
              }
          /* The samples of one run of the CPU split or of pressure follow
           * one another (each half second much like the last), so their
           * interval is narrower than a repeat of the run would show:
           * such a figure is only called different over repeated runs. */
          /* The test judges the median only where the median's own
           * intervals do not overlap too: a median that moved 10 % inside
           * wide intervals is not called different. */
          separate = !isnan (row->low[g]) && !isnan (row->low[0]) &&
                     (row->low[g] > row->high[0] || row->high[g] < row->low[0]);
          if (row->tested)
            significant = row->p[g] < RP_SIGNIFICANCE_ALPHA &&
                          (isnan (row->low[g]) || isnan (row->low[0]) || separate);
          else
            significant = row->runs[0] >= 2 && row->runs[g] >= 2 && separate;
          row->change[g] = change_of (row, g, significant);
          /* "Noise" means the intervals overlap (the rule the comparison
           * states): separate intervals of a single run are not noise,
           * only not yet repeated. */
          if (!row->tested && separate && row->change[g] == RP_CHANGE_NOISE)
            row->change[g] = RP_CHANGE_ONE_RUN;
        }
    }
}

/**
 * rp_comparison_run_color:
 * @reports: (element-type RpReport): the runs of a comparison, in any order
 * @index: one of them, 0 .. @reports->len − 1
 *
 * A colour for a run that does not follow its place: its rank when the
 * runs are sorted by when they were made (rp_report_get_created(); equal
 * times by place), so that picking another baseline or reordering the runs
 * leaves every run its colour, in every chart, legend and table of the
 * comparison. A front end takes it modulo its palette's size.
 *
 * Returns: the rank, 0 for the oldest run
 */
guint
rp_comparison_run_color (GPtrArray *reports,
                         guint      index)
{
  RpReport *report;
  guint rank = 0;

  g_return_val_if_fail (reports != NULL && index < reports->len, 0);

  report = g_ptr_array_index (reports, index);
  for (guint i = 0; i < reports->len; i++)
    {
      gint order;

      if (i == index)
        continue;
      order = g_date_time_compare (rp_report_get_created (g_ptr_array_index (reports, i)),
                                   rp_report_get_created (report));
      if (order < 0 || (order == 0 && i < index))
        rank++;
    }
  return rank;
}

/**
 * rp_comparison_new:
 * @reports: (element-type RpReport): one or more reports; the first one's
 *   group is the baseline
 * @flags: #RpCompareFlags: whether reports of one configuration form a group
 *
 * Compares reports: a row for every figure any of them has (each judged
 * latency's samples, p50, p99, worst and stalls; the CPU split, pressure,
 * dirty and writeback peaks, throughputs), each group's figure with its
 * 95 % interval, and whether it differs from the baseline's beyond noise:
 * for the median (p50) of a latency a two-sided Mann–Whitney U test of the
 * group's samples against the baseline's (rp_mann_whitney_u()),
 * Holm-adjusted across every series and group of the comparison
 * (rp_holm_adjust()), significant under %RP_SIGNIFICANCE_ALPHA and the
 * median's own intervals apart; for the tail of a latency (p99, worst, the
 * stalls over a limit) and the other figures intervals over two or more
 * runs on each side that do not overlap (with a single run on a side,
 * intervals apart give %RP_CHANGE_ONE_RUN, never "noise"). Intervals are
 * percentile bootstraps with fixed seeds: the same reports give the same
 * figures every time.
 *
 * Returns: (transfer full): the comparison
 */
RpComparison *
rp_comparison_new (GPtrArray      *reports,
                   RpCompareFlags  flags)
{
  RpComparison *self;
  g_autoptr(GArray) tests = g_array_new (FALSE, FALSE, sizeof (Test));
  g_autoptr(GHashTable) sorted = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                        (GDestroyNotify) g_array_unref);
  Builder builder = { NULL, tests, 0, sorted };

  g_return_val_if_fail (reports != NULL && reports->len > 0, NULL);
  for (guint r = 0; r < reports->len; r++)
    g_return_val_if_fail (RP_IS_REPORT (g_ptr_array_index (reports, r)), NULL);

  self = g_new0 (RpComparison, 1);
  self->reports = g_ptr_array_copy (reports, (GCopyFunc) (void (*) (void)) g_object_ref, NULL);
  g_ptr_array_set_free_func (self->reports, g_object_unref);
  self->groups = make_groups (reports, flags);
  self->n_groups = self->groups->len;
  self->rows = g_ptr_array_new_with_free_func (compare_row_free);
  builder.self = self;

  add_latency_rows (&builder);
  add_other_rows (&builder);
  add_command_rows (&builder);
  add_cause_rows (&builder);
  judge_rows (&builder);
  return self;
}

void
rp_comparison_free (RpComparison *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->reports);
  g_ptr_array_unref (self->groups);
  g_ptr_array_unref (self->rows);
  g_free (self);
}
