/* rp-series.c: an append-only, thread-safe time series of (t, value) points. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-series.h"

/* Storage: points live in chunks of CHUNK_POINTS, each with its own time base,
 * so that a long run never reallocates (no doubling waste, no big copies under
 * the lock) and a point costs 12 bytes: the value as a double (exact) and the
 * time as a float offset from the chunk's first point. A float keeps 24 bits,
 * so a chunk spanning S seconds stores times to S × 6e-8: 0.25 ms for 4096
 * points one second apart, 2.5 µs at 100 Hz; plenty for plots and reports.
 *
 * Every BLOCK_POINTS points of a chunk also keep their min, max and sum, so
 * that rp_series_decimate() can merge whole blocks into a pixel column instead
 * of visiting every point: drawing a one-hour 100 Hz series costs about as much
 * as drawing a one-minute one (issue 8, benchmark 6). */
#define CHUNK_POINTS   4096
#define BLOCK_POINTS   64
#define CHUNK_BLOCKS   (CHUNK_POINTS / BLOCK_POINTS)

typedef struct {
  double min;
  double max;
  double sum;
} Block;

typedef struct {
  double t_base;
  guint  n;
  float  dt[CHUNK_POINTS];
  double v[CHUNK_POINTS];
  Block  blocks[CHUNK_BLOCKS];
} Chunk;

struct _RpSeries
{
  GObject    parent_instance;

  char      *name;
  char      *unit;
  char      *title;

  /* Workers append while the main thread reads: every access to the chunks
   * takes the lock, and readers get copies or aggregates, never the storage. */
  GMutex     lock;
  GPtrArray *chunks;
  guint      length;
};

G_DEFINE_FINAL_TYPE (RpSeries, rp_series, G_TYPE_OBJECT)

static inline double
chunk_t (const Chunk *chunk,
         guint        i)
{
  return chunk->t_base + (double) chunk->dt[i];
}

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
  self->chunks = g_ptr_array_new_with_free_func (g_free);
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

/* The chunk to append a point at @t to; a new one when the last is full.
 * Called with the lock held. */
static Chunk *
writable_chunk (RpSeries *self,
                double    t)
{
  Chunk *chunk;

  if (self->length % CHUNK_POINTS != 0)
    return g_ptr_array_index (self->chunks, self->chunks->len - 1);

  chunk = g_malloc (sizeof (Chunk));
  chunk->t_base = t;
  chunk->n = 0;
  g_ptr_array_add (self->chunks, chunk);
  return chunk;
}

/**
 * rp_series_append:
 * @t: seconds since the session started; callers append in time order
 * @v: the value in the series' unit; non-finite values are dropped
 *
 * Safe from any thread. Amortised O(1); never moves stored points.
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
  i = chunk->n++;
  chunk->dt[i] = (float) (t - chunk->t_base);
  chunk->v[i] = v;
  block = &chunk->blocks[i / BLOCK_POINTS];
  if (i % BLOCK_POINTS == 0)
    *block = (Block) { v, v, v };
  else
    {
      block->min = MIN (block->min, v);
      block->max = MAX (block->max, v);
      block->sum += v;
    }
  self->length++;
  g_mutex_unlock (&self->lock);
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
 */
void
rp_series_compute_stats (RpSeries *self,
                         RpStats  *out_stats)
{
  g_autofree double *values = NULL;
  guint n = 0;

  g_return_if_fail (RP_IS_SERIES (self));

  values = rp_series_copy_values (self, &n);
  rp_stats_compute (values, n, out_stats);
}

static inline void
column_add (RpColumn *column,
            guint     n,
            double    min,
            double    max,
            double    sum)
{
  if (column->n == 0)
    {
      column->min = min;
      column->max = max;
      column->mean = sum;
    }
  else
    {
      column->min = MIN (column->min, min);
      column->max = MAX (column->max, max);
      column->mean += sum;
    }
  column->n += n;
}

/* Where a decimation puts points: the window and its columns. */
typedef struct {
  double t_start;
  double t_end;
  double scale;
  guint  n_columns;
} Grid;

/* The one formula for a point's column, so that block merges and point runs
 * agree with a point-by-point loop to the last bit. Monotonic in @t. */
static inline guint
grid_column (const Grid *grid,
             double      t)
{
  return MIN ((guint) ((t - grid->t_start) * grid->scale), grid->n_columns - 1);
}

/* The end of the run of points from @first (in column @c) that stay in @c:
 * the first index before @end in a later column, or @end. Galloping, then
 * bisecting, so that a run costs about 2 log2(length) column computations:
 * short runs (sparse series) stay cheap, long ones (dense) much cheaper than
 * visiting every point. */
static guint
run_end (const Chunk *chunk,
         guint        first,
         guint        end,
         const Grid  *grid,
         guint        c)
{
  guint lo = first + 1, hi, step = 1;

  while (lo < end && grid_column (grid, chunk_t (chunk, lo)) <= c)
    {
      first = lo;
      lo += step;
      step *= 2;
    }
  hi = MIN (lo, end);
  lo = first + 1;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (grid_column (grid, chunk_t (chunk, mid)) > c)
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* Points @first..@last of @chunk (a block that straddles a column edge or an
 * end of the window) into their columns. Every column of a dense plot has
 * such a block, so this is most of a cold decimation's cost (issue 8,
 * benchmark 6): times ascend, so each column's points form a run whose ends
 * are found by search, and only the values of a run are visited, in a loop
 * that keeps min, max and sum in registers. */
static void
decimate_points (const Chunk *chunk,
                 guint        first,
                 guint        last,
                 const Grid  *grid,
                 RpColumn    *out_columns)
{
  guint end = last + 1;

  /* Only the blocks at the window's ends have points outside it. */
  while (first < end && chunk_t (chunk, first) < grid->t_start)
    first++;
  while (end > first && chunk_t (chunk, end - 1) > grid->t_end)
    end--;

  while (first < end)
    {
      guint c = grid_column (grid, chunk_t (chunk, first));
      guint stop = run_end (chunk, first, end, grid, c);
      double min = chunk->v[first], max = min, sum = 0;

      for (guint i = first; i < stop; i++)
        {
          double v = chunk->v[i];

          min = MIN (min, v);
          max = MAX (max, v);
          sum += v;
        }
      column_add (&out_columns[c], stop - first, min, max, sum);
      first = stop;
    }
}

/**
 * rp_series_decimate:
 * @t_start: time at the left edge of column 0, seconds
 * @t_end: time at the right edge of the last column (> @t_start)
 * @n_columns: number of pixel columns
 * @out_columns: (out caller-allocates) (array length=n_columns): per column,
 *   the count, min, max and mean of the points whose t falls into
 *   [@t_start, @t_end]
 *
 * Reduces the series to what a plot @n_columns pixels wide can show (min and
 * max per column, as Sysprof's charts do), so drawing cost follows the width
 * of the widget, not the length of the run. A block of 64 points that falls
 * into one column is merged from its summary; in a block that straddles a
 * column edge, each column's run of points is found by search and only its
 * values are read. Cost: about n / 64 block merges plus, per column, a
 * dozen column computations and at most 64 values summed.
 */
void
rp_series_decimate (RpSeries *self,
                    double    t_start,
                    double    t_end,
                    guint     n_columns,
                    RpColumn *out_columns)
{
  Grid grid;

  g_return_if_fail (RP_IS_SERIES (self));
  g_return_if_fail (out_columns != NULL || n_columns == 0);

  for (guint c = 0; c < n_columns; c++)
    out_columns[c] = (RpColumn) { 0, 0, 0, 0 };
  if (n_columns == 0 || !(t_end > t_start))
    return;

  grid = (Grid) { t_start, t_end, n_columns / (t_end - t_start), n_columns };

  g_mutex_lock (&self->lock);
  for (guint k = 0; k < self->chunks->len; k++)
    {
      const Chunk *chunk = g_ptr_array_index (self->chunks, k);

      if (chunk->n == 0 || chunk->t_base > t_end || chunk_t (chunk, chunk->n - 1) < t_start)
        continue;

      for (guint first = 0; first < chunk->n; first += BLOCK_POINTS)
        {
          guint last = MIN (first + BLOCK_POINTS, chunk->n) - 1;
          double t_first = chunk_t (chunk, first);
          double t_last = chunk_t (chunk, last);
          guint c_first, c_last;

          if (t_last < t_start || t_first > t_end)
            continue;

          c_first = grid_column (&grid, t_first);
          c_last = grid_column (&grid, t_last);
          if (t_first >= t_start && t_last <= t_end && c_first == c_last)
            {
              const Block *block = &chunk->blocks[first / BLOCK_POINTS];

              column_add (&out_columns[c_first], last - first + 1, block->min, block->max, block->sum);
              continue;
            }

          decimate_points (chunk, first, last, &grid, out_columns);
        }
    }
  g_mutex_unlock (&self->lock);

  for (guint c = 0; c < n_columns; c++)
    if (out_columns[c].n > 0)
      out_columns[c].mean /= out_columns[c].n;
}
