/* test-stats.c: statistics against values computed by hand. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>

#include "rp-stats.h"

static void
test_empty (void)
{
  RpStats stats;

  rp_stats_compute (NULL, 0, &stats);
  g_assert_cmpuint (stats.n, ==, 0);
  g_assert_cmpfloat (stats.max, ==, 0);
  g_assert_cmpfloat (stats.p99, ==, 0);
}

static void
test_one_sample (void)
{
  double v[] = { 0.5422 };
  RpStats stats;

  rp_stats_compute (v, 1, &stats);
  g_assert_cmpuint (stats.n, ==, 1);
  g_assert_cmpfloat (stats.min, ==, 0.5422);
  g_assert_cmpfloat (stats.max, ==, 0.5422);
  g_assert_cmpfloat (stats.mean, ==, 0.5422);
  g_assert_cmpfloat (stats.stddev, ==, 0);
  g_assert_cmpfloat (stats.p50, ==, 0.5422);
  g_assert_cmpfloat (stats.p999, ==, 0.5422);
  g_assert_cmpuint (stats.over_instant, ==, 1);
  g_assert_cmpuint (stats.over_flow, ==, 0);
}

/* R1's ext3 ordered fsync times: 0.54, 6.37, 8.60, 0.78, 0.77, 4.66, 5.60, 9.42, 10.86.
 * n = 9 (odd). Sorted: 0.54 0.77 0.78 4.66 5.60 6.37 8.60 9.42 10.86.
 * mean = 47.60 / 9 = 5.288888…; median = x[4] = 5.60;
 * p90: h = 8 × 0.9 = 7.2 → 9.42 + 0.2 × (10.86 − 9.42) = 9.708;
 * p99: h = 7.92 → 9.42 + 0.92 × 1.44 = 10.7448;
 * sample stddev = sqrt(Σ(x − mean)² / 8) = 3.93748… (checked with Python statistics.stdev). */
static void
test_odd (void)
{
  double v[] = { 0.54, 6.37, 8.60, 0.78, 0.77, 4.66, 5.60, 9.42, 10.86 };
  double m2 = 0, mean = 47.60 / 9;
  RpStats stats;

  rp_stats_compute (v, G_N_ELEMENTS (v), &stats);
  g_assert_cmpuint (stats.n, ==, 9);
  g_assert_cmpfloat_with_epsilon (stats.min, 0.54, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.max, 10.86, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.mean, mean, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.p50, 5.60, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.p90, 9.708, 1e-9);
  g_assert_cmpfloat_with_epsilon (stats.p99, 10.7448, 1e-9);
  for (guint i = 0; i < G_N_ELEMENTS (v); i++)
    m2 += (v[i] - mean) * (v[i] - mean);
  g_assert_cmpfloat_with_epsilon (stats.stddev, sqrt (m2 / 8), 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.stddev, 3.93748, 1e-4);
  g_assert_cmpuint (stats.over_instant, ==, 9);
  g_assert_cmpuint (stats.over_flow, ==, 6);
  g_assert_cmpuint (stats.over_attention, ==, 1);
}

/* Even n: 1 2 3 4 → median 2.5; p90: h = 2.7 → 3.7; stddev = sqrt(5/3). */
static void
test_even (void)
{
  double v[] = { 4, 1, 3, 2 };
  RpStats stats;

  rp_stats_compute (v, 4, &stats);
  g_assert_cmpfloat_with_epsilon (stats.p50, 2.5, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.p90, 3.7, 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.stddev, sqrt (5.0 / 3.0), 1e-12);
  g_assert_cmpfloat_with_epsilon (stats.mean, 2.5, 1e-12);
}

/* Ties: 0.1 0.1 0.1 5 — 0.1 is not *over* 0.1 (a stall is strictly over). */
static void
test_ties_and_limits (void)
{
  double v[] = { 0.1, 5, 0.1, 0.1 };
  RpStats stats;

  rp_stats_compute (v, 4, &stats);
  g_assert_cmpfloat_with_epsilon (stats.p50, 0.1, 1e-12);
  g_assert_cmpuint (stats.over_instant, ==, 1);
  g_assert_cmpuint (stats.over_flow, ==, 1);
  g_assert_cmpuint (stats.over_attention, ==, 0);
  /* p99.9: h = 3 × 0.999 = 2.997 → 0.1 + 0.997 × 4.9 */
  g_assert_cmpfloat_with_epsilon (stats.p999, 0.1 + 0.997 * 4.9, 1e-12);
}

/* Values exactly at each limit (0.1 s, 1 s, 10 s) and just above: a stall
 * is strictly over its limit, so a value at the limit is not counted. The
 * limits are the very doubles 0.1, 1.0 and 10.0, as a latency of exactly
 * that many seconds would be stored. */
static void
test_exactly_at_limits (void)
{
  double v[] = { RP_LIMIT_INSTANT, RP_LIMIT_FLOW, RP_LIMIT_ATTENTION,
                 0.1, 1.0, 10.0,
                 nextafter (0.1, 1), nextafter (1.0, 2), nextafter (10.0, 20) };
  RpStats stats;

  rp_stats_compute (v, G_N_ELEMENTS (v), &stats);
  /* over 0.1: 1, 10, 1, 10 and the three just above each limit */
  g_assert_cmpuint (stats.over_instant, ==, 7);
  /* over 1: 10, 10, just above 1, just above 10 */
  g_assert_cmpuint (stats.over_flow, ==, 4);
  /* over 10: only the one just above 10 */
  g_assert_cmpuint (stats.over_attention, ==, 1);

  /* Each limit alone. */
  for (guint i = 0; i < 3; i++)
    {
      double limit = (double[]) { 0.1, 1.0, 10.0 }[i];

      rp_stats_compute (&limit, 1, &stats);
      g_assert_cmpuint (stats.over_instant, ==, i >= 1);
      g_assert_cmpuint (stats.over_flow, ==, i >= 2);
      g_assert_cmpuint (stats.over_attention, ==, 0);
    }
}

static void
test_non_finite_skipped (void)
{
  double v[] = { 1, NAN, 3, INFINITY };
  RpStats stats;

  rp_stats_compute (v, 4, &stats);
  g_assert_cmpuint (stats.n, ==, 2);
  g_assert_cmpfloat (stats.mean, ==, 2);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/stats/empty", test_empty);
  g_test_add_func ("/stats/one-sample", test_one_sample);
  g_test_add_func ("/stats/odd", test_odd);
  g_test_add_func ("/stats/even", test_even);
  g_test_add_func ("/stats/ties-and-limits", test_ties_and_limits);
  g_test_add_func ("/stats/exactly-at-limits", test_exactly_at_limits);
  g_test_add_func ("/stats/non-finite", test_non_finite_skipped);
  return g_test_run ();
}
