/* rp-significance.c: Mann–Whitney U test, Holm's step-down correction, percentile bootstrap. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rp-significance.h"

/* A value with the sample it came from, for ranking two samples at once. */
typedef struct {
  double value;
  guint  from_a;
} Ranked;

static int
compare_ranked (const void *pa,
                const void *pb)
{
  double a = ((const Ranked *) pa)->value, b = ((const Ranked *) pb)->value;

  return (a > b) - (a < b);
}

/**
 * rp_mann_whitney_u:
 * @a: (array length=n_a): the first sample (e.g. fsync latencies, seconds)
 * @n_a: how many
 * @b: (array length=n_b): the second sample, in the same unit
 * @n_b: how many
 * @out_u: (out) (optional): U of @a, the number of pairs (x of @a, y of @b)
 *   with x > y, ties counting one half
 * @out_z: (out) (optional): the standardised statistic, continuity
 *   corrected, 0 when it is undefined
 *
 * The two-sided Mann–Whitney U test (Mann & Whitney, "On a test of whether
 * one of two random variables is stochastically larger than the other",
 * Ann. Math. Statist. 18, 1947) with the normal approximation: U has mean
 * n_a·n_b/2 and, with ties, variance n_a·n_b/12 · ((n + 1) − Σ(t³ − t) /
 * (n(n − 1))) where n = n_a + n_b and t runs over the sizes of the groups
 * of tied values (Lehmann, "Nonparametrics", 1975, ch. 1.4); z subtracts
 * the continuity correction 0.5 from |U − mean|. This is what R's
 * `wilcox.test(exact = FALSE, correct = TRUE)` and SciPy's
 * `mannwhitneyu(method = "asymptotic")` compute. It needs no assumption on
 * the shape of the distributions, which latencies (long right tails)
 * would break. The approximation is good from about 8 values a sample;
 * fewer give a conservative answer rather than a wrong one only roughly.
 *
 * Returns: the two-sided p-value, 0..1; 1 when either sample is empty or
 *   every value is the same (no difference can be shown)
 */
double
rp_mann_whitney_u (const double *a,
                   gsize         n_a,
                   const double *b,
                   gsize         n_b,
                   double       *out_u,
                   double       *out_z)
{
  g_autofree Ranked *all = NULL;
  gsize n = n_a + n_b, i = 0;
  double rank_sum_a = 0, ties = 0, u, mean, variance, z;

  if (out_u != NULL)
    *out_u = NAN;
  if (out_z != NULL)
    *out_z = 0;
  g_return_val_if_fail (a != NULL || n_a == 0, 1);
  g_return_val_if_fail (b != NULL || n_b == 0, 1);
  if (n_a == 0 || n_b == 0)
    return 1;

  all = g_new (Ranked, n);
  for (gsize k = 0; k < n_a; k++)
    all[k] = (Ranked) { a[k], TRUE };
  for (gsize k = 0; k < n_b; k++)
    all[n_a + k] = (Ranked) { b[k], FALSE };
  qsort (all, n, sizeof *all, compare_ranked);

  /* Tied values share the mean of the ranks they span (1-based). */
  while (i < n)
    {
      gsize j = i;
      double t, mid_rank;

      while (j + 1 < n && all[j + 1].value == all[i].value)
        j++;
      t = (double) (j - i + 1);
      mid_rank = (double) (i + j) / 2 + 1;
      for (gsize k = i; k <= j; k++)
        if (all[k].from_a)
          rank_sum_a += mid_rank;
      ties += t * t * t - t;
      i = j + 1;
    }

  u = rank_sum_a - (double) n_a * (double) (n_a + 1) / 2;
  mean = (double) n_a * (double) n_b / 2;
  variance = (double) n_a * (double) n_b / 12 *
             ((double) (n + 1) - ties / ((double) n * (double) (n - 1)));
  if (out_u != NULL)
    *out_u = u;
  if (!(variance > 0))
    return 1;
  z = MAX (fabs (u - mean) - 0.5, 0) / sqrt (variance);
  if (out_z != NULL)
    *out_z = u >= mean ? z : -z;
  /* Two-sided: 2·(1 − Φ(z)) = erfc(z/√2). */
  return MIN (erfc (z / G_SQRT2), 1.0);
}

/* Indices ordered by their p-value, smallest first. */
static int
compare_by_p (const void *pa,
              const void *pb,
              void       *data)
{
  const double *p = data;
  double a = p[*(const gsize *) pa], b = p[*(const gsize *) pb];

  return (a > b) - (a < b);
}

/**
 * rp_holm_adjust:
 * @p_values: (array length=n): p-values of a family of tests, 0..1 (a NAN
 *   is a test that was not made: it stays NAN and is not counted)
 * @n: how many
 * @out_adjusted: (array length=n): where the adjusted p-values go, in the
 *   order of @p_values; may be @p_values itself
 *
 * Holm's step-down correction (Holm, "A simple sequentially rejective
 * multiple test procedure", Scand. J. Statist. 6, 1979): with the m made
 * tests ordered by p, p₍₁₎ ≤ … ≤ p₍ₘ₎, the adjusted p₍ᵢ₎ is
 * max over j ≤ i of min(1, (m − j + 1)·p₍ⱼ₎), as R's `p.adjust(method =
 * "holm")`. Calling a test significant when its adjusted p-value is under
 * α keeps the chance of any false call in the family under α, whatever
 * the tests' dependence, and rejects at least what Bonferroni's would.
 */
void
rp_holm_adjust (const double *p_values,
                gsize         n,
                double       *out_adjusted)
{
  g_autofree gsize *order = NULL;
  g_autofree double *p = NULL;
  gsize m = 0;
  double running = 0;

  g_return_if_fail (p_values != NULL || n == 0);
  g_return_if_fail (out_adjusted != NULL || n == 0);
  if (n == 0)
    return;

  p = g_memdup2 (p_values, n * sizeof *p);
  order = g_new (gsize, n);
  for (gsize i = 0; i < n; i++)
    if (!isnan (p[i]))
      order[m++] = i;
  g_qsort_with_data (order, (gint) m, sizeof *order, compare_by_p, p);

  for (gsize i = 0; i < n; i++)
    out_adjusted[i] = NAN;
  for (gsize i = 0; i < m; i++)
    {
      double adjusted = MIN (1.0, (double) (m - i) * p[order[i]]);

      running = MAX (running, adjusted);
      out_adjusted[order[i]] = running;
    }
}

/**
 * rp_bootstrap_resamples:
 * @n_values: the size of the sample to resample
 *
 * How many resamples rp_bootstrap_interval() is given: 1000 (Efron &
 * Tibshirani, "An Introduction to the Bootstrap", 1993, ch. 13.3, call
 * about 1000 enough for percentile intervals), fewer for a sample so long
 * that 1000 would take seconds (never under 200), so that a comparison of
 * hour-long runs stays quick. The intervals of long samples are narrow, so
 * the coarser percentile costs little.
 *
 * Returns: the number of resamples
 */
guint
rp_bootstrap_resamples (gsize n_values)
{
  const double budget = 2e7;   /* values drawn in all, per interval */

  if (n_values == 0)
    return 0;
  return (guint) CLAMP (budget / (double) n_values, 200, 1000);
}

static int
compare_doubles (const void *pa,
                 const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;

  return (a > b) - (a < b);
}

/* The percentile of @sorted by Hyndman & Fan's definition 7, as rp-stats. */
static double
percentile (const double *sorted,
            gsize         n,
            double        fraction)
{
  double h = (double) (n - 1) * fraction;
  gsize lo = (gsize) floor (h);

  if (lo + 1 >= n)
    return sorted[n - 1];
  return sorted[lo] + (h - (double) lo) * (sorted[lo + 1] - sorted[lo]);
}

/**
 * rp_bootstrap_interval:
 * @values: (array length=n_values): the sample (per-run figures, or the
 *   samples of one run)
 * @n_values: how many
 * @statistic: the figure whose interval is wanted
 * @user_data: passed to @statistic
 * @n_resamples: how many resamples, e.g. rp_bootstrap_resamples()
 * @level: the confidence level, e.g. %RP_CONFIDENCE_LEVEL
 * @seed: the seed of the generator (GLib's Mersenne Twister, the same
 *   sequence on every machine): one seed, one interval, so that a
 *   comparison prints the same figures every time
 * @out_low: (out): the interval's lower end
 * @out_high: (out): its upper end
 *
 * The percentile bootstrap interval (Efron & Tibshirani, "An Introduction
 * to the Bootstrap", 1993, ch. 13): @n_resamples samples of @n_values
 * drawn from @values with replacement, @statistic of each, and the
 * (1 − @level)/2 and (1 + @level)/2 percentiles of those.
 *
 * Returns: %FALSE (both ends NAN) when @values is empty
 */
gboolean
rp_bootstrap_interval (const double    *values,
                       gsize            n_values,
                       RpStatisticFunc  statistic,
                       gpointer         user_data,
                       guint            n_resamples,
                       double           level,
                       guint32          seed,
                       double          *out_low,
                       double          *out_high)
{
  g_autoptr(GRand) rand = NULL;
  g_autofree double *resample = NULL;
  g_autofree double *figures = NULL;

  g_return_val_if_fail (statistic != NULL && out_low != NULL && out_high != NULL, FALSE);
  g_return_val_if_fail (level > 0 && level < 1, FALSE);
  *out_low = *out_high = NAN;
  if (values == NULL || n_values == 0 || n_resamples == 0)
    return FALSE;

  rand = g_rand_new_with_seed (seed);
  resample = g_new (double, n_values);
  figures = g_new (double, n_resamples);
  for (guint r = 0; r < n_resamples; r++)
    {
      for (gsize i = 0; i < n_values; i++)
        resample[i] = values[g_rand_int_range (rand, 0, (gint32) MIN (n_values, G_MAXINT32))];
      figures[r] = statistic (resample, n_values, user_data);
    }
  qsort (figures, n_resamples, sizeof *figures, compare_doubles);
  *out_low = percentile (figures, n_resamples, (1 - level) / 2);
  *out_high = percentile (figures, n_resamples, (1 + level) / 2);
  return TRUE;
}
