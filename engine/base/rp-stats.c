/* rp-stats.c: summary statistics of a sample: moments, percentiles, limit counts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-stats.h"

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a;
  double y = *(const double *) b;

  return (x > y) - (x < y);
}

/**
 * rp_stats_percentile:
 * @sorted: (array length=n_values): values in ascending order
 * @n_values: their number
 * @fraction: 0..1, e.g. 0.99 for p99
 *
 * Linear interpolation between closest ranks, Hyndman & Fan (1996) definition 7,
 * the default of R's quantile() and NumPy's percentile().
 *
 * Returns: the percentile, or 0 when @n_values is 0
 */
double
rp_stats_percentile (const double *sorted,
                     gsize         n_values,
                     double        fraction)
{
  double h, lower;
  gsize i;

  if (n_values == 0)
    return 0;

  h = (double) (n_values - 1) * CLAMP (fraction, 0.0, 1.0);
  lower = floor (h);
  i = (gsize) lower;
  if (i + 1 >= n_values)
    return sorted[n_values - 1];
  return sorted[i] + (h - lower) * (sorted[i + 1] - sorted[i]);
}

/**
 * rp_stats_compute:
 * @values: (array length=n_values): the sample, in any order (not modified)
 * @n_values: number of values
 * @out_stats: (out caller-allocates): the result; all zero when @n_values is 0
 *
 * Computes the statistics documented at #RpStats. Costs one sorted copy of the
 * sample: O(n log n) time, n doubles of memory. Non-finite values are skipped.
 */
void
rp_stats_compute (const double *values,
                  gsize         n_values,
                  RpStats      *out_stats)
{
  g_autofree double *sorted = NULL;
  double sum = 0, m2 = 0;
  gsize n = 0;

  g_return_if_fail (out_stats != NULL);
  g_return_if_fail (values != NULL || n_values == 0);

  memset (out_stats, 0, sizeof *out_stats);
  if (n_values == 0)
    return;

  sorted = g_new (double, n_values);
  for (gsize i = 0; i < n_values; i++)
    if (isfinite (values[i]))
      sorted[n++] = values[i];
  if (n == 0)
    return;

  qsort (sorted, n, sizeof (double), compare_doubles);

  for (gsize i = 0; i < n; i++)
    {
      sum += sorted[i];
      if (sorted[i] > RP_LIMIT_INSTANT)
        out_stats->over_instant++;
      if (sorted[i] > RP_LIMIT_FLOW)
        out_stats->over_flow++;
      if (sorted[i] > RP_LIMIT_ATTENTION)
        out_stats->over_attention++;
    }

  out_stats->n = n;
  out_stats->min = sorted[0];
  out_stats->max = sorted[n - 1];
  out_stats->mean = sum / (double) n;

  /* Two-pass variance: exact enough for latencies spanning µs to tens of s. */
  for (gsize i = 0; i < n; i++)
    m2 += (sorted[i] - out_stats->mean) * (sorted[i] - out_stats->mean);
  out_stats->stddev = n > 1 ? sqrt (m2 / (double) (n - 1)) : 0;

  out_stats->p50 = rp_stats_percentile (sorted, n, 0.50);
  out_stats->p90 = rp_stats_percentile (sorted, n, 0.90);
  out_stats->p99 = rp_stats_percentile (sorted, n, 0.99);
  out_stats->p999 = rp_stats_percentile (sorted, n, 0.999);
}
