/* rp-series.c: an append-only, thread-safe time series of (t, value) points. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "rp-series-private.h"
#include "rp-stream-stats.h"
#include "rp-time-histogram.h"

struct _RpSeries
{
  GObject    parent_instance;

  char      *name;
  char      *unit;
  char      *title;

  /* Workers append while the main thread reads: every access to the chunks
   * takes the lock, and callers get copies or aggregates, never the storage.
   * A decimation takes it only for a snapshot, then reads the points that
   * no append writes again without it (RpSeriesSnapshot). */
  GMutex     lock;
  GPtrArray *chunks;
  guint      length;
  /* Points dropped because no chunk could be allocated (a memory limit). */
  guint      dropped;
  /* (nullable) Statistics of every sample the points stand for, when they
   * are a thinned subset (rp_series_set_full_stats()); locked by itself. */
  RpStreamStats *full_stats;
  /* (nullable) The same samples per 0.1 s (rp_series_set_window_histograms()). */
  RpTimeHistogram *windows;
};

G_DEFINE_FINAL_TYPE (RpSeries, rp_series, G_TYPE_OBJECT)

static inline RpPoint
point_at (RpSeries *self,
          guint     index)
{
  const Chunk *chunk = g_ptr_array_index (self->chunks, index / CHUNK_POINTS);
  guint i = index % CHUNK_POINTS;

  return (RpPoint) { chunk_t (chunk, i), chunk->v[i] };
}

static void
rp_series_finalize (GObject *object)
{
  RpSeries *self = RP_SERIES (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->unit, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->chunks, g_ptr_array_unref);
  g_clear_pointer (&self->full_stats, rp_stream_stats_free);
  g_clear_pointer (&self->windows, rp_time_histogram_free);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (rp_series_parent_class)->finalize (object);
}

static void
rp_series_class_init (RpSeriesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rp_series_finalize;
}

static void
rp_series_init (RpSeries *self)
{
  g_mutex_init (&self->lock);
  self->chunks = g_ptr_array_new_with_free_func (free);
}

/**
 * rp_series_new:
 * @name: stable identifier, as used in reports, e.g. "fsync_latency"
 * @unit: "s", "B", "B/s", "ratio" (0..1), "ops/s", …
 * @title: (nullable): human-readable, translated title; defaults to @name
 *
 * Returns: (transfer full): an empty series
 */
RpSeries *
rp_series_new (const char *name,
               const char *unit,
               const char *title)
{
  RpSeries *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (unit != NULL, NULL);

  self = g_object_new (RP_TYPE_SERIES, NULL);
  self->name = g_strdup (name);
  self->unit = g_strdup (unit);
  self->title = g_strdup (title ? title : name);
  return self;
}

const char *
rp_series_get_name (RpSeries *self)
{
  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  return self->name;
}

const char *
rp_series_get_unit (RpSeries *self)
{
  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  return self->unit;
}

const char *
rp_series_get_title (RpSeries *self)
{
  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  return self->title;
}

/* The chunk to append a point at @t to; a new one when the last is full;
 * %NULL when memory for a new one is refused. Called with the lock held. */
static Chunk *
writable_chunk (RpSeries *self,
                double    t)
{
  Chunk *chunk;

  if (self->length % CHUNK_POINTS != 0)
    return g_ptr_array_index (self->chunks, self->chunks->len - 1);

  /* Not g_aligned_alloc(), which aborts: under a memory limit (ulimit -v)
   * the point is dropped and counted, and the session stops the run with a
   * message (rp_series_get_dropped()). */
  if (posix_memalign ((void **) &chunk, CACHE_LINE, sizeof (Chunk)) != 0)
    return NULL;
  chunk->t_base = t;
  chunk->t_last = t;
  chunk->n = 0;
  g_ptr_array_add (self->chunks, chunk);
  return chunk;
}

/* Point @i, just stored, into its sub-block's summary. A tie keeps the
 * earlier offset: either gives the same value. */
static inline void
sub_append (Chunk *chunk,
            guint  i)
{
  Block *sub = &chunk->subs[i / SUB_POINTS];
  double v = chunk->v[i];

  if (i % SUB_POINTS == 0)
    {
      *sub = (Block) { v, v, v };
      return;
    }
  sub->min = MIN (sub->min, v);
  sub->max = MAX (sub->max, v);
  sub->sum += v;
}

/**
 * rp_series_append:
 * @t: seconds since the session started; callers append in time order
 * @v: the value in the series' unit; non-finite values are dropped
 *
 * Safe from any thread. Amortised O(1); never moves stored points. When
 * memory for a new chunk of points is refused, the point is dropped and
 * counted (rp_series_get_dropped()) instead of aborting the process.
 */
void
rp_series_append (RpSeries *self,
                  double    t,
                  double    v)
{
  Chunk *chunk;
  Block *block;
  guint i;

  g_return_if_fail (RP_IS_SERIES (self));

  if (!isfinite (t) || !isfinite (v))
    return;

  g_mutex_lock (&self->lock);
  chunk = writable_chunk (self, t);
  if (chunk == NULL)
    {
      self->dropped++;
      g_mutex_unlock (&self->lock);
      return;
    }
  i = chunk->n++;
  chunk->dt[i] = (float) (t - chunk->t_base);
  chunk->t_last = chunk_t (chunk, i);
  chunk->v[i] = v;
  block = &chunk->blocks[i / BLOCK_POINTS];
  if (i % BLOCK_POINTS == 0)
    {
      *block = (Block) { v, v, v };
      chunk->block_dt[i / BLOCK_POINTS] = chunk->dt[i];
    }
  else
    {
      block->min = MIN (block->min, v);
      block->max = MAX (block->max, v);
      block->sum += v;
    }
  sub_append (chunk, i);
  self->length++;
  g_mutex_unlock (&self->lock);
}

/**
 * rp_series_get_dropped:
 *
 * Returns: how many points rp_series_append() dropped because memory for
 *   them was refused (0 unless a memory limit was reached)
 */
guint
rp_series_get_dropped (RpSeries *self)
{
  guint n;

  g_return_val_if_fail (RP_IS_SERIES (self), 0);
  g_mutex_lock (&self->lock);
  n = self->dropped;
  g_mutex_unlock (&self->lock);
  return n;
}

guint
rp_series_get_length (RpSeries *self)
{
  guint n;

  g_return_val_if_fail (RP_IS_SERIES (self), 0);

  g_mutex_lock (&self->lock);
  n = self->length;
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * rp_series_get_last:
 * @out_point: (out): the newest point
 *
 * Returns: %FALSE when the series is empty
 */
gboolean
rp_series_get_last (RpSeries *self,
                    RpPoint  *out_point)
{
  gboolean found;

  g_return_val_if_fail (RP_IS_SERIES (self), FALSE);
  g_return_val_if_fail (out_point != NULL, FALSE);

  g_mutex_lock (&self->lock);
  found = self->length > 0;
  if (found)
    *out_point = point_at (self, self->length - 1);
  g_mutex_unlock (&self->lock);
  return found;
}

/* The state of the series for a reader outside the lock (see
 * RpSeriesSnapshot): a copy of the chunk pointers, and of what appends
 * change in the last chunk. Appends wait only for this copy. */
void
rp_series_take_snapshot (RpSeries         *self,
                         RpSeriesSnapshot *out_snapshot)
{
  g_mutex_lock (&self->lock);
  *out_snapshot = (RpSeriesSnapshot) {
    g_memdup2 (self->chunks->pdata, self->chunks->len * sizeof (gpointer)),
    self->chunks->len, 0, 0, { 0, 0, 0 }, { 0, 0, 0 },
  };
  if (self->chunks->len > 0)
    {
      const Chunk *last = g_ptr_array_index (self->chunks, self->chunks->len - 1);

      /* writable_chunk() adds a chunk with its first point: n > 0. */
      g_assert (last->n > 0);
      out_snapshot->last_n = last->n;
      out_snapshot->last_t_last = last->t_last;
      out_snapshot->last_block = last->blocks[(last->n - 1) / BLOCK_POINTS];
      out_snapshot->last_sub = last->subs[(last->n - 1) / SUB_POINTS];
    }
  g_mutex_unlock (&self->lock);
}

void
rp_series_snapshot_clear (RpSeriesSnapshot *snapshot)
{
  g_clear_pointer (&snapshot->chunks, g_free);
  snapshot->n_chunks = 0;
}

/**
 * rp_series_copy_points:
 * @first: index of the first point to copy (points before it are skipped, so a
 *   caller can fetch only what is new since its last look)
 * @out_n_points: (out): how many were copied
 *
 * Returns: (transfer full) (array length=out_n_points) (nullable): a copy, or
 *   %NULL when there is nothing from @first on; free with g_free()
 */
RpPoint *
rp_series_copy_points (RpSeries *self,
                       guint     first,
                       guint    *out_n_points)
{
  RpPoint *copy = NULL;
  guint n = 0;

  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  g_return_val_if_fail (out_n_points != NULL, NULL);

  g_mutex_lock (&self->lock);
  if (first < self->length)
    {
      n = self->length - first;
      copy = g_new (RpPoint, n);
      for (guint i = 0; i < n; i++)
        copy[i] = point_at (self, first + i);
    }
  g_mutex_unlock (&self->lock);

  *out_n_points = n;
  return copy;
}

/**
 * rp_series_copy_values:
 * @out_n_values: (out): how many
 *
 * Returns: (transfer full) (array length=out_n_values) (nullable): the values
 *   without their times, for statistics; free with g_free()
 */
double *
rp_series_copy_values (RpSeries *self,
                       guint    *out_n_values)
{
  double *values = NULL;
  guint n;

  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  g_return_val_if_fail (out_n_values != NULL, NULL);

  g_mutex_lock (&self->lock);
  n = self->length;
  if (n > 0)
    {
      values = g_new (double, n);
      for (guint c = 0, done = 0; c < self->chunks->len; c++)
        {
          const Chunk *chunk = g_ptr_array_index (self->chunks, c);

          memcpy (values + done, chunk->v, chunk->n * sizeof (double));
          done += chunk->n;
        }
    }
  g_mutex_unlock (&self->lock);

  *out_n_values = n;
  return values;
}

/**
 * rp_series_get_bounds:
 * @out_t_min: (out) (optional): first time
 * @out_t_max: (out) (optional): last time
 * @out_v_min: (out) (optional): smallest value
 * @out_v_max: (out) (optional): largest value
 *
 * Reads the block summaries, not every point: cost n / 64.
 *
 * Returns: %FALSE (and leaves the outputs alone) when the series is empty
 */
gboolean
rp_series_get_bounds (RpSeries *self,
                      double   *out_t_min,
                      double   *out_t_max,
                      double   *out_v_min,
                      double   *out_v_max)
{
  double v_min = INFINITY, v_max = -INFINITY;
  guint n;

  g_return_val_if_fail (RP_IS_SERIES (self), FALSE);

  g_mutex_lock (&self->lock);
  n = self->length;
  for (guint c = 0; c < self->chunks->len; c++)
    {
      const Chunk *chunk = g_ptr_array_index (self->chunks, c);

      for (guint b = 0; b * BLOCK_POINTS < chunk->n; b++)
        {
          v_min = MIN (v_min, chunk->blocks[b].min);
          v_max = MAX (v_max, chunk->blocks[b].max);
        }
    }
  if (n > 0)
    {
      if (out_t_min)
        *out_t_min = point_at (self, 0).t;
      if (out_t_max)
        *out_t_max = point_at (self, n - 1).t;
      if (out_v_min)
        *out_v_min = v_min;
      if (out_v_max)
        *out_v_max = v_max;
    }
  g_mutex_unlock (&self->lock);

  return n > 0;
}

/**
 * rp_series_compute_stats:
 * @out_stats: (out caller-allocates): statistics of all values (see #RpStats)
 *
 * Exact, of the points, unless the series has full statistics
 * (rp_series_set_full_stats()): then those of every sample its points
 * stand for (rp_stream_stats_get(): n, extremes and limit counts exact,
 * percentiles within 0.5 %). A figure is of every request, never of the
 * thinned points that are only for drawing.
 */
void
rp_series_compute_stats (RpSeries *self,
                         RpStats  *out_stats)
{
  g_autofree double *values = NULL;
  guint n = 0;

  g_return_if_fail (RP_IS_SERIES (self));

  if (self->full_stats != NULL)
    {
      rp_stream_stats_get (self->full_stats, out_stats);
      return;
    }
  values = rp_series_copy_values (self, &n);
  rp_stats_compute (values, n, out_stats);
}

/**
 * rp_series_set_full_stats:
 * @stats: (transfer full) (nullable): statistics of every sample
 *
 * For a series whose points are a subset of what was measured (the kernel
 * events' device latency keeps the longest request of each 0.1 s and every
 * one over 0.1 s, to be drawn): the statistics of all of it, which its
 * producer keeps adding to (each sample before the point that may stand for
 * it, so that they always cover every point). Set once, before the series
 * is shared; the series owns them. Reports save and load them
 * (`full_statistics`, docs/REPORT-FORMAT.md).
 */
void
rp_series_set_full_stats (RpSeries      *self,
                          RpStreamStats *stats)
{
  g_return_if_fail (RP_IS_SERIES (self));

  g_clear_pointer (&self->full_stats, rp_stream_stats_free);
  self->full_stats = stats;
}

/**
 * rp_series_get_full_stats:
 *
 * Returns: (transfer none) (nullable): the statistics of every sample the
 *   points stand for, %NULL when the points are every sample
 */
RpStreamStats *
rp_series_get_full_stats (RpSeries *self)
{
  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  return self->full_stats;
}

/**
 * rp_series_set_window_histograms:
 * @histograms: (transfer full) (nullable): every sample by its time
 *
 * For a series with full statistics (rp_series_set_full_stats()): the same
 * samples, each at its time, so that a window's figures are of every
 * sample in it, not of the thinned points (rp_series_stats_in_windows()).
 * Set once, before the series is shared; the series owns them. Reports
 * save and load them (`window_histograms`, docs/REPORT-FORMAT.md).
 */
void
rp_series_set_window_histograms (RpSeries        *self,
                                 RpTimeHistogram *histograms)
{
  g_return_if_fail (RP_IS_SERIES (self));

  g_clear_pointer (&self->windows, rp_time_histogram_free);
  self->windows = histograms;
}

/**
 * rp_series_get_window_histograms:
 *
 * Returns: (transfer none) (nullable): the samples per 0.1 s, %NULL when
 *   the points are every sample
 */
RpTimeHistogram *
rp_series_get_window_histograms (RpSeries *self)
{
  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  return self->windows;
}

static void
stats_of_histogram (const RpHistogram *h,
                    RpStats           *out)
{
  guint64 count;
  double sum = 0;

  memset (out, 0, sizeof *out);
  out->n = rp_histogram_get_count (h);
  out->min = rp_histogram_get_min (h);
  out->max = rp_histogram_get_max (h);
  out->p50 = rp_histogram_percentile (h, 0.50);
  out->p90 = rp_histogram_percentile (h, 0.90);
  out->p99 = rp_histogram_percentile (h, 0.99);
  out->p999 = rp_histogram_percentile (h, 0.999);
  for (gsize b = 0; rp_histogram_next_bucket (h, &b, &count); b++)
    {
      double v = rp_histogram_bucket_value (h, b);

      sum += v * (double) count;
      out->over_instant += v > RP_LIMIT_INSTANT ? count : 0;
      out->over_flow += v > RP_LIMIT_FLOW ? count : 0;
      out->over_attention += v > RP_LIMIT_ATTENTION ? count : 0;
    }
  out->mean = sum / (double) out->n;
}

/**
 * rp_series_stats_in_windows:
 * @windows: (array length=n_windows): pairs of run times, from and to (s)
 * @n_windows: how many pairs
 * @out_stats: (out caller-allocates): the statistics of the samples in
 *   the windows (all zero when there is none)
 * @out_every_sample: (out) (optional): %TRUE when they are of every sample
 *   the series stands for (its window histograms), %FALSE when of its points
 *   (the series has none, or not for all of the windows)
 *
 * For a stall's "what ran meanwhile" (rp-report-stalls.c): with window
 * histograms (rp_series_set_window_histograms()) that hold every slot the
 * windows touch (rp_time_histogram_covers(): a report keeps only its
 * stalls' windows), of every sample of the
 * 0.1 s slots the windows touch (each widened by at most 0.1 s at each
 * end, a slot counted once): n exact; percentiles, extremes and mean within
 * %RP_TIME_HISTOGRAM_RELATIVE_ERROR (2.5 %), the counts over the limits by the
 * buckets' representatives, stddev 0 (rp_time_histogram_merge()).
 * Otherwise exactly of the points whose time lies in a window (a point in
 * two counted once).
 *
 * Returns: %FALSE when no sample lies in the windows
 */
gboolean
rp_series_stats_in_windows (RpSeries     *self,
                            const double *windows,
                            guint         n_windows,
                            RpStats      *out_stats,
                            gboolean     *out_every_sample)
{
  g_autofree RpPoint *points = NULL;
  g_autofree double *values = NULL;
  guint n_points = 0, n = 0;
  gboolean every_sample;

  g_return_val_if_fail (RP_IS_SERIES (self), FALSE);
  g_return_val_if_fail (windows != NULL || n_windows == 0, FALSE);
  g_return_val_if_fail (out_stats != NULL, FALSE);

  memset (out_stats, 0, sizeof *out_stats);
  /* A report keeps only its stalls' slots: a window it did not keep whole
   * is of the points, and says so, rather than of part of its requests. */
  every_sample = self->windows != NULL && rp_time_histogram_covers (self->windows, windows, n_windows);
  if (out_every_sample != NULL)
    *out_every_sample = every_sample;
  if (every_sample)
    {
      g_autoptr(RpHistogram) merged = rp_time_histogram_merge (self->windows, windows, n_windows);

      if (merged == NULL)
        return FALSE;
      stats_of_histogram (merged, out_stats);
      return TRUE;
    }
  points = rp_series_copy_points (self, 0, &n_points);
  values = g_new (double, MAX (n_points, 1));
  for (guint i = 0; i < n_points; i++)
    for (guint w = 0; w < n_windows; w++)
      if (points[i].t >= windows[2 * w] && points[i].t <= windows[2 * w + 1])
        {
          values[n++] = points[i].v;
          break;
        }
  if (n == 0)
    return FALSE;
  rp_stats_compute (values, n, out_stats);
  return TRUE;
}
