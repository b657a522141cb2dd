/* rp-stream-stats.c: statistics of a growing series, updated from its new samples only. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-histogram.h"
#include "rp-stream-stats.h"

/* What a live summary needs without copying and sorting a whole series on
 * every look (rp_stats_compute() does that, exactly, for reports): exact
 * running count, extremes, limit counts and moments (Welford's update), and
 * percentiles from a fixed-size histogram (rp-histogram.c), so that memory
 * stays flat however long the run. Locked: two refreshes of a summary may
 * overlap on worker threads. */
struct _RpStreamStats
{
  GMutex       lock;
  RpHistogram *histogram;    /* created with the first value */
  double       mean;
  double       m2;           /* Σ (x − mean)², Welford */
  guint64      over_instant;
  guint64      over_flow;
  guint64      over_attention;
  RpSeries    *series;       /* the series followed, or NULL */
  guint        cursor;       /* its points read so far */
};

/**
 * rp_stream_stats_new:
 *
 * Empty running statistics. Feed them with rp_stream_stats_add() or make
 * them follow one series with rp_stream_stats_follow(). Thread-safe.
 *
 * Returns: (transfer full): free with rp_stream_stats_free()
 */
RpStreamStats *
rp_stream_stats_new (void)
{
  RpStreamStats *self = g_new0 (RpStreamStats, 1);

  g_mutex_init (&self->lock);
  return self;
}

/**
 * rp_stream_stats_free:
 * @self: (nullable): running statistics
 *
 * Frees them and drops the reference to the series they followed.
 */
void
rp_stream_stats_free (RpStreamStats *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->histogram, rp_histogram_free);
  g_clear_object (&self->series);
  g_mutex_clear (&self->lock);
  g_free (self);
}

/* Called with the lock held. */
static void
add_one_locked (RpStreamStats *self,
                double         v)
{
  double delta;
  guint64 n;

  /* As rp_stats_compute(): a non-finite value is no sample. */
  if (!isfinite (v))
    return;
  if (self->histogram == NULL)
    self->histogram = rp_histogram_new ();
  rp_histogram_add (self->histogram, v);
  n = rp_histogram_get_count (self->histogram);
  delta = v - self->mean;
  self->mean += delta / (double) n;
  self->m2 += delta * (v - self->mean);
  self->over_instant += v > RP_LIMIT_INSTANT;
  self->over_flow += v > RP_LIMIT_FLOW;
  self->over_attention += v > RP_LIMIT_ATTENTION;
}

/**
 * rp_stream_stats_add:
 * @values: (array length=n_values): more samples, in any order
 * @n_values: their number
 *
 * Adds samples; non-finite ones are skipped. O(@n_values).
 */
void
rp_stream_stats_add (RpStreamStats *self,
                     const double  *values,
                     gsize          n_values)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (values != NULL || n_values == 0);

  g_mutex_lock (&self->lock);
  for (gsize i = 0; i < n_values; i++)
    add_one_locked (self, values[i]);
  g_mutex_unlock (&self->lock);
}

/**
 * rp_stream_stats_follow:
 * @series: the series to follow; always the same one for one @self
 *
 * Adds the values appended to @series since the previous call (all of them
 * on the first), so that a caller that looks now and then pays for the new
 * samples only: O(new samples) time and a temporary copy of them. Safe
 * while other threads append to @series (its own lock guards the copy).
 * Keeps a reference to @series.
 *
 * Returns: how many values were read
 */
guint
rp_stream_stats_follow (RpStreamStats *self,
                        RpSeries      *series)
{
  g_autofree RpPoint *points = NULL;
  guint n = 0;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (RP_IS_SERIES (series), 0);

  g_mutex_lock (&self->lock);
  if (self->series == NULL)
    self->series = g_object_ref (series);
  if (self->series != series)
    {
      g_mutex_unlock (&self->lock);
      g_critical ("%s: already following series “%s”", G_STRFUNC, rp_series_get_name (self->series));
      return 0;
    }

  /* Lock order: ours, then the series' (it never calls back). */
  points = rp_series_copy_points (series, self->cursor, &n);
  for (guint i = 0; i < n; i++)
    add_one_locked (self, points[i].v);
  self->cursor += n;
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * rp_stream_stats_get:
 * @out_stats: (out caller-allocates): the statistics of every value so far
 *
 * Fills #RpStats as rp_stats_compute() would for the same values, except:
 * n, min, max and the limit counts are exact; mean and stddev are exact up
 * to the rounding of a running (Welford) sum; p50, p90, p99 and p99.9 are
 * the estimates of rp_histogram_percentile(), within a relative error of
 * %RP_HISTOGRAM_RELATIVE_ERROR (0.5 %) of the exact percentile for
 * non-negative values (plus 1 ns for values at or under 1 ns). Cost: a scan
 * of the histogram's occupied buckets, not of the samples. All zero while
 * there is no value. Following a series with full statistics
 * (rp_series_set_full_stats()), those of the series.
 */
void
rp_stream_stats_get (RpStreamStats *self,
                     RpStats       *out_stats)
{
  const RpHistogram *h;
  RpStreamStats *full;
  guint64 n;

  g_return_if_fail (self != NULL);
  g_return_if_fail (out_stats != NULL);

  memset (out_stats, 0, sizeof *out_stats);

  /* A series that stands for more samples than its points (the kernel
   * events' device latency) has the statistics of all of them: those are
   * the figures, not the points'. The series is set once, under the lock. */
  g_mutex_lock (&self->lock);
  full = self->series != NULL ? rp_series_get_full_stats (self->series) : NULL;
  g_mutex_unlock (&self->lock);
  if (full != NULL)
    {
      rp_stream_stats_get (full, out_stats);
      return;
    }

  g_mutex_lock (&self->lock);
  h = self->histogram;
  n = h != NULL ? rp_histogram_get_count (h) : 0;
  if (n > 0)
    {
      out_stats->n = n;
      out_stats->min = rp_histogram_get_min (h);
      out_stats->max = rp_histogram_get_max (h);
      out_stats->mean = self->mean;
      out_stats->stddev = n > 1 ? sqrt (self->m2 / (double) (n - 1)) : 0;
      out_stats->p50 = rp_histogram_percentile (h, 0.50);
      out_stats->p90 = rp_histogram_percentile (h, 0.90);
      out_stats->p99 = rp_histogram_percentile (h, 0.99);
      out_stats->p999 = rp_histogram_percentile (h, 0.999);
      out_stats->over_instant = self->over_instant;
      out_stats->over_flow = self->over_flow;
      out_stats->over_attention = self->over_attention;
    }
  g_mutex_unlock (&self->lock);
}

/**
 * rp_stream_stats_copy:
 *
 * Returns: (transfer full): a copy of @self's statistics, following no
 *   series
 */
RpStreamStats *
rp_stream_stats_copy (RpStreamStats *self)
{
  RpStreamStats *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = rp_stream_stats_new ();
  g_mutex_lock (&self->lock);
  copy->histogram = self->histogram != NULL ? rp_histogram_copy (self->histogram) : NULL;
  copy->mean = self->mean;
  copy->m2 = self->m2;
  copy->over_instant = self->over_instant;
  copy->over_flow = self->over_flow;
  copy->over_attention = self->over_attention;
  g_mutex_unlock (&self->lock);
  return copy;
}

/**
 * rp_stream_stats_get_moments:
 * @out_moments: (out caller-allocates): the exact state besides the
 *   histogram (all zero while there is no value)
 */
void
rp_stream_stats_get_moments (RpStreamStats   *self,
                             RpStreamMoments *out_moments)
{
  g_return_if_fail (self != NULL && out_moments != NULL);

  memset (out_moments, 0, sizeof *out_moments);
  g_mutex_lock (&self->lock);
  if (self->histogram != NULL && rp_histogram_get_count (self->histogram) > 0)
    {
      out_moments->n = rp_histogram_get_count (self->histogram);
      out_moments->min = rp_histogram_get_min (self->histogram);
      out_moments->max = rp_histogram_get_max (self->histogram);
      out_moments->mean = self->mean;
      out_moments->m2 = self->m2;
      out_moments->over_instant = self->over_instant;
      out_moments->over_flow = self->over_flow;
      out_moments->over_attention = self->over_attention;
    }
  g_mutex_unlock (&self->lock);
}

/**
 * rp_stream_stats_copy_histogram:
 *
 * Returns: (transfer full) (nullable): a copy of the histogram of every
 *   value, %NULL while there is none
 */
RpHistogram *
rp_stream_stats_copy_histogram (RpStreamStats *self)
{
  RpHistogram *copy;

  g_return_val_if_fail (self != NULL, NULL);

  g_mutex_lock (&self->lock);
  copy = self->histogram != NULL ? rp_histogram_copy (self->histogram) : NULL;
  g_mutex_unlock (&self->lock);
  return copy;
}

/**
 * rp_stream_stats_new_restored:
 * @moments: the state rp_stream_stats_get_moments() gave
 * @histogram: (transfer full): the histogram rp_stream_stats_copy_histogram()
 *   gave, restored, with @moments' count, minimum and maximum
 *
 * Statistics saved in a report, back; the caller has checked that
 * @moments and @histogram agree (rp-report-full-stats.c).
 *
 * Returns: (transfer full): statistics that give what the saved ones gave
 */
RpStreamStats *
rp_stream_stats_new_restored (const RpStreamMoments *moments,
                              RpHistogram           *histogram)
{
  RpStreamStats *self = rp_stream_stats_new ();

  g_return_val_if_fail (moments != NULL && histogram != NULL, self);

  self->histogram = histogram;
  self->mean = moments->mean;
  self->m2 = moments->m2;
  self->over_instant = moments->over_instant;
  self->over_flow = moments->over_flow;
  self->over_attention = moments->over_attention;
  return self;
}

/**
 * rp_stream_stats_copy_sorted_values:
 * @out_n: (out): how many values
 *
 * Every value added, each as its histogram bucket's representative (within
 * %RP_HISTOGRAM_RELATIVE_ERROR, the extremes exact), in ascending order:
 * for what needs the values themselves, such as the comparison's rank test
 * and intervals. 8 bytes a value.
 *
 * Returns: (transfer full) (nullable): the values; %NULL when there are none
 */
double *
rp_stream_stats_copy_sorted_values (RpStreamStats *self,
                                    gsize         *out_n)
{
  g_autoptr(RpHistogram) h = NULL;
  double *values;
  guint64 count, n, k = 0;

  g_return_val_if_fail (self != NULL && out_n != NULL, NULL);

  *out_n = 0;
  h = rp_stream_stats_copy_histogram (self);
  if (h == NULL || (n = rp_histogram_get_count (h)) == 0 || n > G_MAXSIZE / sizeof (double))
    return NULL;
  values = g_new (double, n);
  for (gsize b = 0; rp_histogram_next_bucket (h, &b, &count); b++)
    for (guint64 c = 0; c < count; c++)
      values[k++] = rp_histogram_bucket_value (h, b);
  /* The first and the last are the exact extremes, as in the percentiles. */
  values[0] = rp_histogram_get_min (h);
  values[n - 1] = rp_histogram_get_max (h);
  *out_n = n;
  return values;
}
