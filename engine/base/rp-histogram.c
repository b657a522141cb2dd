/* rp-histogram.c: a fixed-size log-bucketed histogram for approximate percentiles. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "rp-histogram.h"

/* The scheme is DDSketch's (Masson, Rim & Lee, "DDSketch: a fast and
 * fully-mergeable quantile sketch with relative-error guarantees", VLDB
 * 2019) with a dense, fixed store: with γ = (1 + α) / (1 − α), bucket i ≥ 1
 * holds the values in (L·γ^(i−1), L·γ^i], L = RP_HISTOGRAM_LOWEST, and
 * stands for 2·L·γ^i / (γ + 1), which is within a factor 1 ± α of every
 * value of the bucket. Fixed, so that memory does not grow with a run and
 * no value ever moves: ⌈ln(10¹⁵) / ln γ⌉ = 3454 buckets, 27 KiB. Bucket 0
 * holds the values ≤ L (zero, and negatives, which latencies are not),
 * the last one the values over RP_HISTOGRAM_HIGHEST. Not locked: its owner
 * (RpStreamStats) is. */
struct _RpHistogram
{
  guint64 n;
  double  min;
  double  max;
  gsize   lo;          /* lowest and highest non-empty bucket: bound the scans */
  gsize   hi;
  guint64 counts[];    /* n_buckets */
};

typedef struct {
  double ln_gamma;
  double inv_ln_gamma;
  double rep_scale;    /* 2·L / (γ + 1) */
  gsize  n_log;        /* buckets 1..n_log are logarithmic */
} Scheme;

static const Scheme *
scheme (void)
{
  static Scheme s;
  static gsize once = 0;

  if (g_once_init_enter (&once))
    {
      double gamma = (1 + RP_HISTOGRAM_RELATIVE_ERROR) / (1 - RP_HISTOGRAM_RELATIVE_ERROR);

      s.ln_gamma = log (gamma);
      s.inv_ln_gamma = 1 / s.ln_gamma;
      s.rep_scale = 2 * RP_HISTOGRAM_LOWEST / (gamma + 1);
      s.n_log = (gsize) ceil (log (RP_HISTOGRAM_HIGHEST / RP_HISTOGRAM_LOWEST) * s.inv_ln_gamma);
      g_once_init_leave (&once, 1);
    }
  return &s;
}

/**
 * rp_histogram_get_n_buckets:
 *
 * Returns: the number of buckets of every histogram (its memory is 8 bytes a
 *   bucket): the logarithmic ones plus the zero and the overflow buckets
 */
gsize
rp_histogram_get_n_buckets (void)
{
  return scheme ()->n_log + 2;
}

/**
 * rp_histogram_new:
 *
 * An empty histogram of the scheme described at rp_histogram_percentile().
 * Not thread-safe: callers that share one lock around it.
 *
 * Returns: (transfer full): free with rp_histogram_free()
 */
RpHistogram *
rp_histogram_new (void)
{
  RpHistogram *self;

  self = g_malloc0 (sizeof *self + rp_histogram_get_n_buckets () * sizeof (guint64));
  self->lo = G_MAXSIZE;
  return self;
}

/**
 * rp_histogram_free:
 * @self: (nullable): a histogram
 */
void
rp_histogram_free (RpHistogram *self)
{
  g_free (self);
}

static gsize
bucket_of (double value)
{
  const Scheme *s = scheme ();
  double i;

  if (value <= RP_HISTOGRAM_LOWEST)
    return 0;
  if (value > RP_HISTOGRAM_HIGHEST)
    return s->n_log + 1;
  i = ceil (log (value / RP_HISTOGRAM_LOWEST) * s->inv_ln_gamma);
  /* log() may round a value on a bucket edge across it: the neighbour's
   * representative is then off by α plus a rounding error, and the clamp
   * keeps the index in range. */
  return (gsize) CLAMP (i, 1, (double) s->n_log);
}

/**
 * rp_histogram_add:
 * @value: a sample, e.g. a latency in seconds; non-finite values are ignored
 *
 * O(1): one logarithm.
 */
void
rp_histogram_add (RpHistogram *self,
                  double       value)
{
  gsize b;

  g_return_if_fail (self != NULL);

  if (!isfinite (value))
    return;
  b = bucket_of (value);
  self->counts[b]++;
  self->lo = MIN (self->lo, b);
  self->hi = self->n == 0 ? b : MAX (self->hi, b);
  self->min = self->n == 0 ? value : MIN (self->min, value);
  self->max = self->n == 0 ? value : MAX (self->max, value);
  self->n++;
}

guint64
rp_histogram_get_count (const RpHistogram *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->n;
}

/**
 * rp_histogram_get_min:
 *
 * Returns: the smallest value added, exactly; 0 when empty
 */
double
rp_histogram_get_min (const RpHistogram *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->min;
}

/**
 * rp_histogram_get_max:
 *
 * Returns: the largest value added, exactly; 0 when empty
 */
double
rp_histogram_get_max (const RpHistogram *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->max;
}

/* What bucket @b stands for, clamped to the exact extremes: that only moves
 * the estimate towards the true value, which lies between them. */
static double
representative (const RpHistogram *self,
                gsize              b)
{
  const Scheme *s = scheme ();
  double r;

  if (b == 0)
    r = 0;
  else if (b > s->n_log)
    r = self->max;
  else
    r = s->rep_scale * exp ((double) b * s->ln_gamma);
  return CLAMP (r, self->min, self->max);
}

/* The estimates of the order statistics x[@k] and x[@k + 1] (0-based, in
 * ascending order), in one scan of the cumulative counts; the first and the
 * last are the exact extremes. */
static void
order_statistics (const RpHistogram *self,
                  guint64            k,
                  double            *out_k,
                  double            *out_next)
{
  guint64 cumulative = 0;
  gsize b = self->lo;

  while (cumulative + self->counts[b] <= k)
    cumulative += self->counts[b++];
  *out_k = k == 0 ? self->min : k == self->n - 1 ? self->max : representative (self, b);
  if (k + 1 >= self->n)
    {
      *out_next = *out_k;
      return;
    }
  while (cumulative + self->counts[b] <= k + 1)
    cumulative += self->counts[b++];
  *out_next = k + 1 == self->n - 1 ? self->max : representative (self, b);
}

/**
 * rp_histogram_percentile:
 * @fraction: 0..1, e.g. 0.99 for p99
 *
 * The percentile by the rule of rp_stats_percentile() (Hyndman & Fan 1996,
 * definition 7: interpolation between the order statistics around rank
 * (n − 1)·@fraction), with each order statistic replaced by the
 * representative of its bucket (the smallest and the largest are exact).
 *
 * Error bound: the buckets follow DDSketch (Masson, Rim & Lee, VLDB 2019):
 * every value v in (RP_HISTOGRAM_LOWEST, RP_HISTOGRAM_HIGHEST] is
 * represented within |r − v| ≤ α·v, α = RP_HISTOGRAM_RELATIVE_ERROR
 * (0.5 %), up to the rounding of a double logarithm. The interpolation is a
 * convex combination of two such estimates, so for non-negative samples
 * the result differs from the exact rp_stats_percentile() of the same
 * values by at most α times the exact result, plus RP_HISTOGRAM_LOWEST
 * (1 ns) where the values at those ranks are at or under 1 ns. Ranks that
 * fall on a value over RP_HISTOGRAM_HIGHEST give the maximum (no bound).
 * Cost: O(number of buckets between the smallest and the largest value),
 * at most rp_histogram_get_n_buckets().
 *
 * Returns: the estimate, or 0 when the histogram is empty
 */
double
rp_histogram_percentile (const RpHistogram *self,
                         double             fraction)
{
  double h, lower, x_k, x_next;

  g_return_val_if_fail (self != NULL, 0);

  if (self->n == 0)
    return 0;
  h = (double) (self->n - 1) * CLAMP (fraction, 0.0, 1.0);
  lower = floor (h);
  order_statistics (self, (guint64) lower, &x_k, &x_next);
  return x_k + (h - lower) * (x_next - x_k);
}

/**
 * rp_histogram_copy:
 *
 * Returns: (transfer full): an independent copy of @self
 */
RpHistogram *
rp_histogram_copy (const RpHistogram *self)
{
  gsize size = sizeof *self + rp_histogram_get_n_buckets () * sizeof (guint64);

  g_return_val_if_fail (self != NULL, NULL);
  return g_memdup2 (self, size);
}

/**
 * rp_histogram_next_bucket:
 * @index: (inout): the bucket to start at (0 for the first); on %TRUE the
 *   bucket found, so that the next call starts at *@index + 1
 * @out_count: (out): its count
 *
 * Walks the non-empty buckets in ascending order of value, e.g. to save a
 * histogram: `for (gsize i = 0; rp_histogram_next_bucket (h, &i, &c); i++)`.
 *
 * Returns: %FALSE when no bucket at or after *@index holds a value
 */
gboolean
rp_histogram_next_bucket (const RpHistogram *self,
                          gsize             *index,
                          guint64           *out_count)
{
  g_return_val_if_fail (self != NULL && index != NULL && out_count != NULL, FALSE);

  if (self->n == 0)
    return FALSE;
  for (gsize b = MAX (*index, self->lo); b <= self->hi; b++)
    if (self->counts[b] > 0)
      {
        *index = b;
        *out_count = self->counts[b];
        return TRUE;
      }
  return FALSE;
}

/**
 * rp_histogram_add_bucket:
 * @index: a bucket, below rp_histogram_get_n_buckets()
 * @count: values to add to it, at least 1
 * @min: the smallest value of the whole histogram being restored
 * @max: its largest
 *
 * Restores a saved histogram bucket by bucket (rp_histogram_next_bucket()),
 * with the exact extremes that the buckets alone do not keep.
 *
 * Returns: %FALSE (and changes nothing) for an index out of range, a count
 *   of 0, a count that would overflow, or extremes that are not finite or
 *   not min ≤ max
 */
gboolean
rp_histogram_add_bucket (RpHistogram *self,
                         gsize        index,
                         guint64      count,
                         double       min,
                         double       max)
{
  g_return_val_if_fail (self != NULL, FALSE);

  if (index >= rp_histogram_get_n_buckets () || count == 0 || self->n > G_MAXUINT64 - count ||
      !isfinite (min) || !isfinite (max) || min > max)
    return FALSE;
  self->counts[index] += count;
  self->lo = MIN (self->lo, index);
  self->hi = self->n == 0 ? index : MAX (self->hi, index);
  self->n += count;
  self->min = min;
  self->max = max;
  return TRUE;
}

/**
 * rp_histogram_bucket_value:
 * @index: a bucket
 *
 * Returns: the value that bucket @index stands for (within
 *   %RP_HISTOGRAM_RELATIVE_ERROR of each of its values), clamped to the
 *   histogram's exact extremes; what rp_histogram_percentile() uses
 */
double
rp_histogram_bucket_value (const RpHistogram *self,
                           gsize              index)
{
  g_return_val_if_fail (self != NULL, 0);
  return representative (self, MIN (index, rp_histogram_get_n_buckets () - 1));
}

/**
 * rp_histogram_index_of:
 * @value: a finite sample
 *
 * For stores of their own of the same buckets (rp-time-histogram.c), so
 * that what they merge back into a histogram keeps its error bound.
 *
 * Returns: the bucket rp_histogram_add() puts @value in
 */
gsize
rp_histogram_index_of (double value)
{
  return bucket_of (value);
}

/**
 * rp_histogram_index_value:
 * @index: a bucket, below rp_histogram_get_n_buckets()
 *
 * Returns: what bucket @index stands for, within
 *   %RP_HISTOGRAM_RELATIVE_ERROR of each of its values, not clamped to any
 *   histogram's extremes: 0 for the zero bucket, %RP_HISTOGRAM_HIGHEST for
 *   the overflow bucket (no bound there)
 */
double
rp_histogram_index_value (gsize index)
{
  const Scheme *s = scheme ();

  if (index == 0)
    return 0;
  if (index > s->n_log)
    return RP_HISTOGRAM_HIGHEST;
  return s->rep_scale * exp ((double) index * s->ln_gamma);
}
