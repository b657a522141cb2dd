/* rp-comparison.h: reports grouped by configuration, every figure with its interval and significance. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-report.h"

G_BEGIN_DECLS

/**
 * RpChange:
 * @RP_CHANGE_NONE: the baseline itself, no figure, or the same figure
 * @RP_CHANGE_NOISE: a different figure, but within noise (not significant)
 * @RP_CHANGE_BETTER: significantly better
 * @RP_CHANGE_WORSE: significantly worse
 * @RP_CHANGE_DIFFERENT: significantly different where neither direction is
 *   better (the CPU split, dirty memory)
 * @RP_CHANGE_ONE_RUN: a figure no test of its samples judges whose 95 %
 *   intervals do not overlap, but where a side has a single run: its
 *   interval is over that run's samples, which follow one another (each
 *   half second much like the last), so it is narrower than a repeat of the
 *   run would show. Not called significant, nor noise: a repeat decides.
 *
 * How a group's figure stands against the baseline's (group 0). Only
 * @RP_CHANGE_BETTER and @RP_CHANGE_WORSE deserve a colour.
 */
typedef enum {
  RP_CHANGE_NONE,
  RP_CHANGE_NOISE,
  RP_CHANGE_BETTER,
  RP_CHANGE_WORSE,
  RP_CHANGE_DIFFERENT,
  RP_CHANGE_ONE_RUN,
} RpChange;

/**
 * RpCompareSetting:
 * @key: a rp_sysinfo_get_fields() key ("fs_type", "load_scheduler"), or
 *   the note "memory_emulated_bytes"
 * @label: its row's label, N_() when @translate (the sysctl and sysfs
 *   names stay untranslated: they are what one types)
 * @translate: whether @label is translated
 *
 * A setting a comparison lists, one row each (rp_compare_setting_value()).
 */
typedef struct {
  const char *key;
  const char *label;
  gboolean    translate;
} RpCompareSetting;

/**
 * RpCompareFlags:
 * @RP_COMPARE_NONE: one group per report
 * @RP_COMPARE_GROUP: reports of the same configuration
 *   (rp_report_get_configuration_key()) form one group, as repeats of it
 */
typedef enum {
  RP_COMPARE_NONE  = 0,
  RP_COMPARE_GROUP = 1 << 0,
} RpCompareFlags;

/**
 * RpCompareMeasure:
 * @RP_COMPARE_FIGURE: the figure @stat of the series itself
 * @RP_COMPARE_SHARE: the stalls over @stat's limit as a share of the
 *   series' calls (0..1): the stall figure a comparison judges, so that a
 *   setting that made more calls is not worse for having more stalls at a
 *   lower share (issue 31)
 * @RP_COMPARE_PER_MINUTE: the stalls over @stat's limit per minute of the
 *   run: beside the share, neither better nor worse
 *
 * What a row's figure is of (#RpCompareRow's @measure). The counts
 * themselves are @RP_COMPARE_FIGURE rows, beside the shares, never judged.
 */
typedef enum {
  RP_COMPARE_FIGURE,
  RP_COMPARE_SHARE,
  RP_COMPARE_PER_MINUTE,
} RpCompareMeasure;

/**
 * RpCompareRow:
 * @label: translated label, e.g. "Cold read p99"
 * @series: the series the figure is of, e.g. "cold_read_latency"
 * @unit: the unit of the figure: the series' ("s", "B/s", "B", "ratio",
 *   "ops/s"), or "" for a count
 * @stat: which figure of the series
 * @measure: #RpCompareMeasure: the figure itself, or for a count over a
 *   limit its share of the calls or its rate per minute
 * @direction: −1 lower is better (latencies, stalls, pressure), +1 higher
 *   is better (throughputs), 0 neither (the CPU split, dirty memory)
 * @tested: whether a Mann–Whitney U test on the series' samples decides
 *   its significance (the median, p50, of each judged latency: the test is
 *   of the whole distribution, not of its tail; the share of stalled
 *   calls, by the test of the calls as stalled or not,
 *   rp_mann_whitney_u_binary()); otherwise (p99, worst, the counts and
 *   rates of stalls, every other figure) both groups need two or
 *   more runs and 95 % intervals that do not overlap (one run's samples
 *   follow one another too closely to tell: intervals apart over one run
 *   are %RP_CHANGE_ONE_RUN)
 * @value: (array length=n_groups): each group's figure, NAN where the
 *   group lacks it: the run's own figure for a group of one run, the mean
 *   of the runs' figures for a group of several; for %RP_METRIC_N the sum
 *   of the samples of the group's runs
 * @low: (array length=n_groups): the lower end of its 95 % interval
 *   (percentile bootstrap over the group's runs when it has two or more,
 *   over the samples of its one run otherwise: for quantiles, the maximum
 *   and counts over a limit in closed form, rp_quantile_interval(),
 *   rp_max_interval(), rp_count_interval()), NAN when there is none
 * @high: (array length=n_groups): the upper end
 * @p: (array length=n_groups): the Holm-adjusted p-value of the group's
 *   difference to group 0, NAN where no test was made
 * @change: (array length=n_groups): #RpChange of each group against group 0
 * @runs: (array length=n_groups): how many of the group's runs have the
 *   figure
 *
 * One row of a comparison.
 */
typedef struct {
  char         *label;
  const char   *series;
  const char   *unit;
  RpMetricStat  stat;
  RpCompareMeasure measure;
  int           direction;
  gboolean      tested;
  double       *value;
  double       *low;
  double       *high;
  double       *p;
  RpChange     *change;
  guint        *runs;
} RpCompareRow;

/**
 * RpComparison:
 * @reports: (element-type RpReport): every report, in the order given
 * @n_groups: how many groups (columns)
 * @groups: (element-type GArray): per group, the indices (guint) into
 *   @reports of its runs, in order; group 0 is the baseline
 * @rows: (element-type RpCompareRow): the figures, latency series first
 *   (in the summary's order), then CPU split, pressure, memory and
 *   throughputs
 *
 * Several reports as the CLI's `compare`, the matrix and the window show
 * them: one engine computation, three front ends.
 */
typedef struct {
  GPtrArray *reports;
  guint      n_groups;
  GPtrArray *groups;
  GPtrArray *rows;
} RpComparison;

RpComparison *rp_comparison_new               (GPtrArray           *reports,
                                               RpCompareFlags       flags);
void          rp_comparison_free              (RpComparison        *self);
guint         rp_comparison_get_group_size    (const RpComparison  *self,
                                               guint                group);
RpReport     *rp_comparison_get_group_report  (const RpComparison  *self,
                                               guint                group,
                                               guint                index);
char         *rp_comparison_get_group_label   (const RpComparison  *self,
                                               guint                group);
char         *rp_compare_row_format_value     (const RpCompareRow  *row,
                                               guint                group);
char         *rp_compare_row_format_interval  (const RpCompareRow  *row,
                                               guint                group);
char         *rp_compare_row_format_change    (const RpCompareRow  *row,
                                               guint                group);
char         *rp_report_get_configuration_key (RpReport            *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpComparison, rp_comparison_free)

const RpCompareSetting *rp_compare_get_settings           (guint                  *out_n);
char                   *rp_compare_setting_value          (RpReport               *report,
                                                           const RpCompareSetting *setting);
gboolean                rp_compare_setting_is_unused      (char                  **values);
gboolean                rp_compare_device_profiles_differ (GPtrArray              *reports);
char                  **rp_compare_name_runs              (GPtrArray              *reports);

char               *rp_pressure_series_label (const char *series);
guint               rp_comparison_run_color  (GPtrArray  *reports,
                                              guint       index);

G_END_DECLS
