/* test-significance.c: Mann–Whitney U, Holm and the bootstrap against values worked out by hand. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>

#include "rp-significance.h"

/* SciPy's documented example of scipy.stats.mannwhitneyu (ages of male and
 * female employees): males 19 22 16 29 24, females 20 11 17 12; with
 * method="asymptotic" it gives U = 17.0, p = 0.11134688653314041.
 * By hand: sorted 11 12 16 17 19 20 22 24 29, ranks of the males
 * 5 + 7 + 3 + 9 + 8 = 32, U = 32 − 5·6/2 = 17; mean 5·4/2 = 10; no ties, so
 * variance 5·4/12 · 10 = 16.667, σ = 4.0825; z = (|17 − 10| − 0.5)/σ =
 * 1.5922; p = erfc(1.5922/√2) = 0.111347. */
static void
test_mann_whitney_scipy_example (void)
{
  const double males[] = { 19, 22, 16, 29, 24 };
  const double females[] = { 20, 11, 17, 12 };
  double u, z, p;

  p = rp_mann_whitney_u (males, G_N_ELEMENTS (males), females, G_N_ELEMENTS (females), &u, &z);
  g_assert_cmpfloat (u, ==, 17);
  g_assert_cmpfloat_with_epsilon (z, 1.5922, 1e-4);
  g_assert_cmpfloat_with_epsilon (p, 0.11134688653314041, 1e-12);

  /* The other way round: U of the second sample is n_a·n_b − 17 = 3, the
   * same p, z of the other sign. */
  p = rp_mann_whitney_u (females, G_N_ELEMENTS (females), males, G_N_ELEMENTS (males), &u, &z);
  g_assert_cmpfloat (u, ==, 3);
  g_assert_cmpfloat (z, <, 0);
  g_assert_cmpfloat_with_epsilon (p, 0.11134688653314041, 1e-12);
}

/* Ties: a = 1 2 2 3, b = 2 3 3 4 5. Sorted 1 2 2 2 3 3 3 4 5: the three
 * 2s share rank (2 + 3 + 4)/3 = 3, the three 3s rank 6. Ranks of a:
 * 1 + 3 + 3 + 6 = 13, U = 13 − 4·5/2 = 3; mean 4·5/2 = 10. Tie groups of
 * 3 and 3: Σ(t³ − t) = 24 + 24 = 48; n = 9, variance = 20/12 · (10 −
 * 48/72) = 15.5556, σ = 3.9441; z = (7 − 0.5)/σ = 1.64805;
 * p = erfc(1.64805/√2) = 0.0993422 (R: wilcox.test(c(1,2,2,3),
 * c(2,3,3,4,5), exact = FALSE) says W = 3, p-value = 0.09934). */
static void
test_mann_whitney_ties (void)
{
  const double a[] = { 1, 2, 2, 3 };
  const double b[] = { 2, 3, 3, 4, 5 };
  double u, z, p;

  p = rp_mann_whitney_u (a, G_N_ELEMENTS (a), b, G_N_ELEMENTS (b), &u, &z);
  g_assert_cmpfloat (u, ==, 3);
  g_assert_cmpfloat_with_epsilon (z, -1.64805, 1e-5);
  g_assert_cmpfloat_with_epsilon (p, 0.0993422, 1e-6);
}

/* No difference to show: an empty sample, or one value everywhere (zero
 * variance), is p = 1, not a division by zero. */
static void
test_mann_whitney_degenerate (void)
{
  const double same[] = { 0.5, 0.5, 0.5 };
  double u;

  g_assert_cmpfloat (rp_mann_whitney_u (same, 3, NULL, 0, NULL, NULL), ==, 1);
  g_assert_cmpfloat (rp_mann_whitney_u (same, 3, same, 3, &u, NULL), ==, 1);
  g_assert_cmpfloat (u, ==, 4.5);
}

/* Two clearly different samples: 20 fsync times around 3 s and 20 around
 * 0.1 s do not overlap, U = 400 of 400 pairs; z = (200 − 0.5)/√(400·41/12)
 * = 5.397, p ≈ 6.8e-8. */
static void
test_mann_whitney_separated (void)
{
  double slow[20], fast[20], u;

  for (guint i = 0; i < 20; i++)
    {
      slow[i] = 2.5 + 0.05 * i;
      fast[i] = 0.05 + 0.005 * i;
    }
  g_assert_cmpfloat (rp_mann_whitney_u (slow, 20, fast, 20, &u, NULL), <, 1e-7);
  g_assert_cmpfloat (u, ==, 400);
}

/* R's p.adjust(c(0.01, 0.02, 0.03, 0.04, 0.05), "holm"): sorted, times
 * 5, 4, 3, 2, 1: 0.05, 0.08, 0.09, 0.08, 0.05, made monotone:
 * 0.05 0.08 0.09 0.09 0.09. The input in another order gives the same
 * values at the same places; a NAN (no test) stays out of m. */
static void
test_holm (void)
{
  const double p[] = { 0.01, 0.02, 0.03, 0.04, 0.05 };
  const double expected[] = { 0.05, 0.08, 0.09, 0.09, 0.09 };
  const double shuffled[] = { 0.04, NAN, 0.01, 0.05, 0.03, 0.02 };
  const double shuffled_expected[] = { 0.09, NAN, 0.05, 0.09, 0.09, 0.08 };
  double adjusted[6];

  rp_holm_adjust (p, 5, adjusted);
  for (guint i = 0; i < 5; i++)
    g_assert_cmpfloat_with_epsilon (adjusted[i], expected[i], 1e-12);

  rp_holm_adjust (shuffled, 6, adjusted);
  for (guint i = 0; i < 6; i++)
    if (isnan (shuffled_expected[i]))
      g_assert_true (isnan (adjusted[i]));
    else
      g_assert_cmpfloat_with_epsilon (adjusted[i], shuffled_expected[i], 1e-12);

  /* Large p-values are capped at 1. */
  {
    const double big[] = { 0.6, 0.7 };

    rp_holm_adjust (big, 2, adjusted);
    g_assert_cmpfloat (adjusted[0], ==, 1);
    g_assert_cmpfloat (adjusted[1], ==, 1);
  }
}

static double
mean_of (double   *values,
         gsize     n,
         gpointer  data)
{
  double sum = 0;

  for (gsize i = 0; i < n; i++)
    sum += values[i];
  return sum / (double) n;
}

/* A constant sample has a point interval; one seed gives one interval
 * (the output of a comparison does not change from one call to the
 * next); the interval of the mean holds the sample's mean and is narrower
 * for a sample 16 times as long (about 4 times: the standard error falls
 * with √n; asserted only as "narrower", which holds by far). */
static void
test_bootstrap (void)
{
  const double constant[] = { 0.25, 0.25, 0.25, 0.25 };
  double values[400], low, high, low2, high2, short_width;

  g_assert_true (rp_bootstrap_interval (constant, 4, mean_of, NULL, 1000, 0.95, 1, &low, &high));
  g_assert_cmpfloat (low, ==, 0.25);
  g_assert_cmpfloat (high, ==, 0.25);
  g_assert_false (rp_bootstrap_interval (NULL, 0, mean_of, NULL, 1000, 0.95, 1, &low, &high));
  g_assert_true (isnan (low) && isnan (high));

  for (guint i = 0; i < 400; i++)
    values[i] = (double) ((i * 37) % 100) / 100;    /* 0 .. 0.99, mean 0.495 */
  g_assert_true (rp_bootstrap_interval (values, 25, mean_of, NULL, 1000, 0.95, 7, &low, &high));
  g_assert_true (rp_bootstrap_interval (values, 25, mean_of, NULL, 1000, 0.95, 7, &low2, &high2));
  g_assert_cmpfloat (low, ==, low2);
  g_assert_cmpfloat (high, ==, high2);
  g_assert_cmpfloat (low, <, mean_of (values, 25, NULL));
  g_assert_cmpfloat (high, >, mean_of (values, 25, NULL));
  short_width = high - low;

  g_assert_true (rp_bootstrap_interval (values, 400, mean_of, NULL, 1000, 0.95, 7, &low, &high));
  g_assert_cmpfloat (low, <, 0.495);
  g_assert_cmpfloat (high, >, 0.495);
  g_assert_cmpfloat (high - low, <, short_width / 2);

  g_assert_cmpuint (rp_bootstrap_resamples (100), ==, 1000);
  g_assert_cmpuint (rp_bootstrap_resamples (5000000), ==, 200);
}

/* Φ⁻¹ of R's qnorm(): 0.975 → 1.959964, 0.5 → 0, 0.001 → −3.090232 (the
 * tail branch of the approximation), 0.999 → 3.090232. */
static void
test_normal_quantile (void)
{
  g_assert_cmpfloat_with_epsilon (rp_normal_quantile (0.975), 1.959964, 1e-6);
  g_assert_cmpfloat_with_epsilon (rp_normal_quantile (0.5), 0, 1e-12);
  g_assert_cmpfloat_with_epsilon (rp_normal_quantile (0.001), -3.090232, 1e-6);
  g_assert_cmpfloat_with_epsilon (rp_normal_quantile (0.999), 3.090232, 1e-6);
}

/* Closed forms of the one-run intervals, by hand:
 * - the median of 1 … 100 at 95 %: z = 1.96, spread 1.96·√(100·0.5·0.5) =
 *   9.8, ranks ⌊50 − 9.8⌋ = 40 and ⌈59.8⌉ = 60 (Conover's exact table has 40
 *   and 61);
 * - the maximum of R1's nine ext3 fsync times (sorted 0.54 0.77 0.78 4.66
 *   5.60 6.37 8.60 9.42 10.86): the smallest k with (k/9)⁹ ≥ 0.025 is 6
 *   ((6/9)⁹ = 0.026, (5/9)⁹ = 0.005), so [6.37, 10.86];
 * - 5 of 10 over a limit: binomial (10, 0.5) has P(≤ 1) = 0.0107,
 *   P(≤ 2) = 0.0547, P(≤ 7) = 0.9453, P(≤ 8) = 0.9893, so [2, 8] (R:
 *   qbinom(c(0.025, 0.975), 10, 0.5)); none of 10 stays [0, 0]. */
static void
test_closed_form_intervals (void)
{
  const double r1[] = { 0.54, 0.77, 0.78, 4.66, 5.60, 6.37, 8.60, 9.42, 10.86 };
  double hundred[100], low, high;

  for (guint i = 0; i < 100; i++)
    hundred[i] = i + 1;
  rp_quantile_interval (hundred, 100, 0.5, 0.95, &low, &high);
  g_assert_cmpfloat (low, ==, 40);
  g_assert_cmpfloat (high, ==, 60);
  rp_quantile_interval (r1, 1, 0.99, 0.95, &low, &high);
  g_assert_cmpfloat (low, ==, 0.54);
  g_assert_cmpfloat (high, ==, 0.54);

  rp_max_interval (r1, G_N_ELEMENTS (r1), 0.95, &low, &high);
  g_assert_cmpfloat (low, ==, 6.37);
  g_assert_cmpfloat (high, ==, 10.86);

  rp_count_interval (5, 10, 0.95, &low, &high);
  g_assert_cmpfloat (low, ==, 2);
  g_assert_cmpfloat (high, ==, 8);
  rp_count_interval (0, 10, 0.95, &low, &high);
  g_assert_cmpfloat (low, ==, 0);
  g_assert_cmpfloat (high, ==, 0);
}

/* The test of 0s and 1s from counts alone is the test of the values. */
static void
test_mwu_binary (void)
{
  const guint64 cases[][4] = { { 40, 400, 100, 2000 }, { 3, 10, 0, 12 }, { 5, 50, 5, 50 }, { 0, 9, 0, 30 } };

  for (guint c = 0; c < G_N_ELEMENTS (cases); c++)
    {
      g_autofree double *a = g_new0 (double, cases[c][1]);
      g_autofree double *b = g_new0 (double, cases[c][3]);
      double z_values, z_counts, p_values, p_counts;

      for (guint i = 0; i < cases[c][0]; i++)
        a[i] = 1;
      for (guint i = 0; i < cases[c][2]; i++)
        b[i] = 1;
      p_values = rp_mann_whitney_u (a, cases[c][1], b, cases[c][3], NULL, &z_values);
      p_counts = rp_mann_whitney_u_binary (cases[c][0], cases[c][1], cases[c][2], cases[c][3], &z_counts);
      g_assert_cmpfloat_with_epsilon (p_counts, p_values, 1e-12);
      g_assert_cmpfloat_with_epsilon (z_counts, z_values, 1e-9);
    }
  /* 40 of 400 against 100 of 2000: the 2×2 table's χ² is 15.17 (R:
   * prop.test(c(40, 100), c(400, 2000), correct = FALSE)); the rank test's
   * z² is (N − 1)/N of it, 15.16, p = 9.85e-5 (its continuity correction
   * is half a pair, not Yates's half a call). */
  g_assert_cmpfloat_with_epsilon (rp_mann_whitney_u_binary (40, 400, 100, 2000, NULL), 9.85e-5, 0.02e-5);
  g_assert_cmpfloat (rp_mann_whitney_u_binary (0, 10, 0, 10, NULL), ==, 1);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/significance/mwu-binary", test_mwu_binary);
  g_test_add_func ("/significance/mann-whitney/scipy-example", test_mann_whitney_scipy_example);
  g_test_add_func ("/significance/mann-whitney/ties", test_mann_whitney_ties);
  g_test_add_func ("/significance/mann-whitney/degenerate", test_mann_whitney_degenerate);
  g_test_add_func ("/significance/mann-whitney/separated", test_mann_whitney_separated);
  g_test_add_func ("/significance/holm", test_holm);
  g_test_add_func ("/significance/bootstrap", test_bootstrap);
  g_test_add_func ("/significance/normal-quantile", test_normal_quantile);
  g_test_add_func ("/significance/closed-form-intervals", test_closed_form_intervals);
  return g_test_run ();
}
