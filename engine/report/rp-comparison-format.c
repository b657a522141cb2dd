/* rp-comparison-format.c: a comparison's cells as text, the figure, its interval and its change. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "rp-comparison.h"
#include "rp-units.h"

/* ------------------------------------------------------------------------- */
/* Text of a cell */

static char *
format_figure (const RpCompareRow *row,
               double              value)
{
  if (isnan (value))
    return g_strdup ("-");
  if (*row->unit == '\0')
    return rp_report_format_metric (RP_METRIC_COUNT, value);
  return rp_format_value (row->unit, value);
}

/**
 * rp_compare_row_format_value:
 * @group: 0 .. @n_groups − 1
 *
 * Returns: (transfer full): the group's figure, e.g. "1.38 s", "12.5 %",
 *   "7", "6.3" (a mean of counts over runs), "-" where it has none
 */
char *
rp_compare_row_format_value (const RpCompareRow *row,
                             guint               group)
{
  g_return_val_if_fail (row != NULL, NULL);
  return format_figure (row, row->value[group]);
}

/**
 * rp_compare_row_format_interval:
 * @group: 0 .. @n_groups − 1
 *
 * Returns: (transfer full) (nullable): the group's 95 % interval, e.g.
 *   "[1.10 s, 1.62 s]", or %NULL where there is none (a sample count, a
 *   run with one sample)
 */
char *
rp_compare_row_format_interval (const RpCompareRow *row,
                                guint               group)
{
  g_autofree char *low = NULL;
  g_autofree char *high = NULL;

  g_return_val_if_fail (row != NULL, NULL);
  if (isnan (row->low[group]) || isnan (row->high[group]) || row->low[group] == row->high[group])
    return NULL;
  low = format_figure (row, row->low[group]);
  high = format_figure (row, row->high[group]);
  return g_strdup_printf ("[%s, %s]", low, high);
}

/**
 * rp_compare_row_format_change:
 * @group: 1 .. @n_groups − 1
 *
 * The change against the baseline as rp_report_format_change() gives it,
 * with what it means: "+17 %, p=0.003" when significant, "+4 %, noise"
 * when within noise, "+73 %, one run" when the intervals of a single run
 * do not overlap (%RP_CHANGE_ONE_RUN), "=" when equal.
 *
 * Returns: (transfer full) (nullable): the text; %NULL for the baseline
 *   or where either figure is missing
 */
char *
rp_compare_row_format_change (const RpCompareRow *row,
                              guint               group)
{
  RpMetricKind kind;
  g_autofree char *delta = NULL;
  double base, value;

  g_return_val_if_fail (row != NULL, NULL);
  base = row->value[0];
  value = row->value[group];
  if (group == 0 || isnan (base) || isnan (value))
    return NULL;
  kind = row->stat == RP_METRIC_N ? RP_METRIC_SAMPLES
         : *row->unit == '\0' ? RP_METRIC_COUNT
         : g_str_equal (row->unit, "s") ? RP_METRIC_LATENCY : RP_METRIC_RATE;
  if (base == 0 && value != 0 && kind != RP_METRIC_COUNT && kind != RP_METRIC_SAMPLES)
    {
      g_autofree char *magnitude = format_figure (row, fabs (value - base));

      delta = g_strdup_printf ("%s%s", value > base ? "+" : "-", magnitude);
    }
  else
    delta = rp_report_format_change (kind, base, value, NULL);
  switch (row->change[group])
    {
    case RP_CHANGE_NOISE:
      /* TRANSLATORS: a change in a comparison that is within noise (not significant), e.g. "+4 %, noise" */
      return g_strdup_printf (_("%s, noise"), delta);
    case RP_CHANGE_ONE_RUN:
      /* TRANSLATORS: a change in a comparison whose 95 % intervals do not overlap, but
       * over the samples of a single run (a repeat of the run decides), e.g. "+73 %, one run" */
      return g_strdup_printf (_("%s, one run"), delta);
    case RP_CHANGE_BETTER:
    case RP_CHANGE_WORSE:
    case RP_CHANGE_DIFFERENT:
      if (!isnan (row->p[group]))
        {
          /* No spaces: a wrapped cell keeps "p=0.003" on one line. */
          g_autofree char *p = row->p[group] < 0.001 ? g_strdup_printf ("<%.3f", 0.001)
                                                     : g_strdup_printf ("=%.3f", row->p[group]);
          /* TRANSLATORS: a significant change in a comparison and its (Holm-adjusted) p-value, e.g. "+17 %, p=0.003" */
          return g_strdup_printf (_("%s, p%s"), delta, p);
        }
      /* TRANSLATORS: a significant change in a comparison (its 95 % intervals do not overlap), e.g. "+17 %, significant" */
      return g_strdup_printf (_("%s, significant"), delta);
    case RP_CHANGE_NONE:
    default:
      return g_steal_pointer (&delta);
    }
}
