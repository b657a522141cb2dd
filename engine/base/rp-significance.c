/* rp-significance.c: Mann–Whitney U test, Holm's step-down correction, percentile bootstrap. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rp-significance.h"

static int
compare_doubles (const void *pa,
                 const void *pb)
{
  double a = *(const double *) pa, b = *(const double *) pb;

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
 * would break. The approximation is good from about 8 values a sample.
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
  g_autofree double *sorted_a = NULL;
  g_autofree double *sorted_b = NULL;

  g_return_val_if_fail (a != NULL || n_a == 0, 1);
  g_return_val_if_fail (b != NULL || n_b == 0, 1);

  sorted_a = g_memdup2 (a, n_a * sizeof *a);
  sorted_b = g_memdup2 (b, n_b * sizeof *b);
  if (n_a > 0)
    qsort (sorted_a, n_a, sizeof *sorted_a, compare_doubles);
  if (n_b > 0)
    qsort (sorted_b, n_b, sizeof *sorted_b, compare_doubles);
  return rp_mann_whitney_u_sorted (sorted_a, n_a, sorted_b, n_b, out_u, out_z);
}

static double p_of_rank_sum (double  rank_sum_a,
                             double  ties,
                             gsize   n_a,
                             gsize   n_b,
                             double *out_u,
                             double *out_z);

/**
 * rp_mann_whitney_u_sorted:
 * @a: (array length=n_a): the first sample, sorted ascending
 * @n_a: how many
 * @b: (array length=n_b): the second sample, sorted ascending
 * @n_b: how many
 * @out_u: (out) (optional): as rp_mann_whitney_u()
 * @out_z: (out) (optional): as rp_mann_whitney_u()
 *
 * rp_mann_whitney_u() of two sorted samples: the ranks come from one walk
 * through both, so a comparison that keeps its samples sorted tests an
 * hour's 360 000 against 360 000 without sorting them again.
 *
 * Returns: the two-sided p-value, as rp_mann_whitney_u()
 */
double
rp_mann_whitney_u_sorted (const double *a,
                          gsize         n_a,
                          const double *b,
                          gsize         n_b,
                          double       *out_u,
                          double       *out_z)
{
  gsize i = 0, j = 0;
  double rank_sum_a = 0, ties = 0;

  if (out_u != NULL)
    *out_u = NAN;
  if (out_z != NULL)
    *out_z = 0;
  g_return_val_if_fail (a != NULL || n_a == 0, 1);
  g_return_val_if_fail (b != NULL || n_b == 0, 1);
  if (n_a == 0 || n_b == 0)
    return 1;

  /* Tied values share the mean of the ranks they span (1-based): take the
   * smallest value left, count it in both samples, give them its ranks. */
  while (i < n_a || j < n_b)
    {
      double value = j >= n_b || (i < n_a && a[i] <= b[j]) ? a[i] : b[j];
      gsize from_a = 0, from_b = 0, below = i + j;
      double t, mid_rank;

      while (i < n_a && a[i] == value)
        i++, from_a++;
      while (j < n_b && b[j] == value)
        j++, from_b++;
      /* A NAN equals nothing: step over it rather than loop forever (the
       * callers pass finite values; this keeps a stranger's safe). */
      if (from_a + from_b == 0)
        {
          if (i < n_a && a[i] == a[i]) j++; else i++;
          continue;
        }
      t = (double) (from_a + from_b);
      mid_rank = (double) below + (t + 1) / 2;
      rank_sum_a += (double) from_a * mid_rank;
      ties += t * t * t - t;
    }

  return p_of_rank_sum (rank_sum_a, ties, n_a, n_b, out_u, out_z);
}

/* The test's p-value from the rank sum of the first sample and the ties'
 * Σ(t³ − t), as rp_mann_whitney_u() says. */
static double
p_of_rank_sum (double  rank_sum_a,
               double  ties,
               gsize   n_a,
               gsize   n_b,
               double *out_u,
               double *out_z)
{
  gsize n = n_a + n_b;
  double u, mean, variance, z;

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

/**
 * rp_mann_whitney_u_binary:
 * @k_a: how many of the first sample's values are over a limit (stalled calls)
 * @n_a: how many values it has (calls), at least @k_a
 * @k_b: the same of the second sample
 * @n_b: its number of values
 * @out_z: (out) (optional): as rp_mann_whitney_u()
 *
 * rp_mann_whitney_u() of two samples of 0s and 1s (a call stalled or not),
 * from their counts alone: every 0 ties with every other 0 and every 1 with
 * every 1, so the ranks and the ties' correction follow in closed form, and
 * a run's million write() calls need no array. With the tie correction this
 * is the two-sample test of proportions (χ² of the 2×2 table), continuity
 * corrected: the test of whether one configuration stalls a larger share
 * of its calls than another, whatever their numbers of calls.
 *
 * Returns: the two-sided p-value, 0..1; 1 when either sample is empty or
 *   every call of both stalled, or none did
 */
double
rp_mann_whitney_u_binary (guint64  k_a,
                          guint64  n_a,
                          guint64  k_b,
                          guint64  n_b,
                          double  *out_z)
{
  double zeros, ones, rank_sum_a, ties;

  if (out_z != NULL)
    *out_z = 0;
  g_return_val_if_fail (k_a <= n_a && k_b <= n_b, 1);
  if (n_a == 0 || n_b == 0)
    return 1;
  zeros = (double) (n_a - k_a) + (double) (n_b - k_b);
  ones = (double) k_a + (double) k_b;
  /* The 0s hold ranks 1 .. zeros, the 1s the ranks after them. */
  rank_sum_a = (double) (n_a - k_a) * (zeros + 1) / 2 + (double) k_a * (zeros + (ones + 1) / 2);
  ties = zeros * zeros * zeros - zeros + ones * ones * ones - ones;
  return p_of_rank_sum (rank_sum_a, ties, (gsize) n_a, (gsize) n_b, NULL, out_z);
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

/**
 * rp_normal_quantile:
 * @probability: 0 < p < 1
 *
 * The standard normal quantile Φ⁻¹(p), by Acklam's rational approximation
 * (relative error under 1.2·10⁻⁹; P. J. Acklam, "An algorithm for computing
 * the inverse normal cumulative distribution function", 2003), e.g.
 * 1.959964 for 0.975.
 *
 * Returns: z with Φ(z) = @probability
 */
double
rp_normal_quantile (double probability)
{
  static const double a[] = { -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                              1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00 };
  static const double b[] = { -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                              6.680131188771972e+01, -1.328068155288572e+01 };
  static const double c[] = { -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                              -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00 };
  static const double d[] = { 7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                              3.754408661907416e+00 };
  double p = probability, q, r;

  g_return_val_if_fail (p > 0 && p < 1, NAN);
  if (p < 0.02425)
    {
      q = sqrt (-2 * log (p));
      return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) /
             ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
    }
  if (p > 1 - 0.02425)
    return -rp_normal_quantile (1 - p);
  q = p - 0.5;
  r = q * q;
  return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q /
         (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * rp_quantile_interval:
 * @sorted: (array length=n_values): a sample, sorted ascending
 * @n_values: how many, at least 1
 * @fraction: the quantile, e.g. 0.99
 * @level: the confidence level, e.g. %RP_CONFIDENCE_LEVEL
 * @out_low: (out): the interval's lower end
 * @out_high: (out): its upper end
 *
 * The distribution-free interval of a quantile from order statistics
 * (Conover, "Practical Nonparametric Statistics", 3rd ed., 1999, ch. 3.2,
 * large-sample form): the number of values below the quantile is
 * binomial (n, @fraction), so the values of rank n·q ∓ z·√(n·q·(1 − q))
 * (1-based, rounded outwards, kept within 1 … n) bound it. It needs one
 * sorted sample instead of a thousand resorted ones: for one run of an
 * hour (360 000 main-loop samples) the bootstrap would take minutes.
 */
void
rp_quantile_interval (const double *sorted,
                      gsize         n_values,
                      double        fraction,
                      double        level,
                      double       *out_low,
                      double       *out_high)
{
  double n = (double) n_values, z, spread, lo, hi;

  g_return_if_fail (out_low != NULL && out_high != NULL);
  *out_low = *out_high = NAN;
  g_return_if_fail (sorted != NULL && n_values > 0 && level > 0 && level < 1);

  z = rp_normal_quantile ((1 + level) / 2);
  spread = z * sqrt (n * fraction * (1 - fraction));
  lo = floor (n * fraction - spread);
  hi = ceil (n * fraction + spread);
  *out_low = sorted[(gsize) CLAMP (lo, 1, n) - 1];
  *out_high = sorted[(gsize) CLAMP (hi, 1, n) - 1];
}

/**
 * rp_max_interval:
 * @sorted: (array length=n_values): a sample, sorted ascending
 * @n_values: how many, at least 1
 * @level: the confidence level
 * @out_low: (out): the interval's lower end
 * @out_high: (out): its upper end
 *
 * The percentile bootstrap interval of the maximum, computed exactly
 * instead of by resampling: a resample's maximum is at most the k-th
 * smallest value with probability (k/n)ⁿ, so the lower end is the value
 * of the smallest rank k with (k/n)ⁿ ≥ (1 − @level)/2, and the upper end
 * the maximum itself (((n − 1)/n)ⁿ < 1/2 for every n ≥ 2, so more than
 * half of the resamples hold it). A maximum is always a lower bound of
 * what the system can do: the interval says how much it rests on one
 * sample.
 */
void
rp_max_interval (const double *sorted,
                 gsize         n_values,
                 double        level,
                 double       *out_low,
                 double       *out_high)
{
  double n = (double) n_values, k;

  g_return_if_fail (out_low != NULL && out_high != NULL);
  *out_low = *out_high = NAN;
  g_return_if_fail (sorted != NULL && n_values > 0 && level > 0 && level < 1);

  /* (k/n)ⁿ ≥ a  ⇔  k ≥ n·a^(1/n) */
  k = ceil (n * pow ((1 - level) / 2, 1 / n) - 1e-9);
  *out_low = sorted[(gsize) CLAMP (k, 1, n) - 1];
  *out_high = sorted[n_values - 1];
}

/**
 * rp_count_interval:
 * @count: how many of the sample's values are over a limit
 * @n: how many values the sample has
 * @level: the confidence level
 * @out_low: (out): the interval's lower end (a count)
 * @out_high: (out): its upper end
 *
 * The percentile bootstrap interval of a count over a limit, computed
 * exactly: in a resample of n values the count is binomial (n, @count/n),
 * so the ends are that distribution's (1 ∓ @level)/2 quantiles, from its
 * probabilities summed in log space (lgamma) from 0 up.
 */
void
rp_count_interval (guint64  count,
                   guint64  n,
                   double   level,
                   double  *out_low,
                   double  *out_high)
{
  double p, cumulative = 0, lower = (1 - level) / 2, upper = (1 + level) / 2;
  gboolean have_low = FALSE;

  g_return_if_fail (out_low != NULL && out_high != NULL);
  *out_low = *out_high = NAN;
  g_return_if_fail (n > 0 && count <= n && level > 0 && level < 1);

  p = (double) count / (double) n;
  if (count == 0 || count == n)
    {
      *out_low = *out_high = (double) count;
      return;
    }
  for (guint64 k = 0; k <= n; k++)
    {
      double log_pmf = lgamma ((double) n + 1) - lgamma ((double) k + 1) - lgamma ((double) (n - k) + 1) +
                       (double) k * log (p) + (double) (n - k) * log1p (-p);

      cumulative += exp (log_pmf);
      if (!have_low && cumulative >= lower)
        {
          *out_low = (double) k;
          have_low = TRUE;
        }
      if (cumulative >= upper)
        {
          *out_high = (double) k;
          return;
        }
    }
  *out_high = (double) n;
}
