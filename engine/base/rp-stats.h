/* rp-stats.h: summary statistics of a latency (or any) sample. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Response-time limits of Nielsen (Usability Engineering, 1993, ch. 5):
 * 0.1 s feels instantaneous, 1 s keeps the flow of thought, 10 s keeps attention.
 * A latency over the first limit is a *stall*. */
#define RP_LIMIT_INSTANT 0.1
#define RP_LIMIT_FLOW    1.0
#define RP_LIMIT_ATTENTION 10.0

/**
 * RpStats:
 * @n: number of samples
 * @min: smallest value (0 when @n is 0)
 * @max: largest value
 * @mean: arithmetic mean
 * @stddev: sample standard deviation (n − 1 in the denominator; 0 when @n < 2)
 * @p50: median
 * @p90: 90th percentile
 * @p99: 99th percentile
 * @p999: 99.9th percentile
 * @over_instant: samples strictly greater than %RP_LIMIT_INSTANT (0.1)
 * @over_flow: samples strictly greater than %RP_LIMIT_FLOW (1.0)
 * @over_attention: samples strictly greater than %RP_LIMIT_ATTENTION (10.0)
 *
 * Percentiles use linear interpolation between closest ranks (Hyndman & Fan
 * 1996, definition 7; the default of R and NumPy): for sorted x[0..n-1] and
 * fraction p, h = (n − 1)·p, the result is x[⌊h⌋] + (h − ⌊h⌋)(x[⌊h⌋+1] − x[⌊h⌋]).
 * The limit counts are meaningful for series in seconds.
 */
typedef struct {
  guint64 n;
  double  min;
  double  max;
  double  mean;
  double  stddev;
  double  p50;
  double  p90;
  double  p99;
  double  p999;
  guint64 over_instant;
  guint64 over_flow;
  guint64 over_attention;
} RpStats;

void   rp_stats_compute    (const double *values,
                            gsize         n_values,
                            RpStats      *out_stats);
double rp_stats_percentile (const double *sorted,
                            gsize         n_values,
                            double        fraction);

G_END_DECLS
