/* rp-series.c: an append-only, thread-safe time series of (t, value) points. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

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
 * as drawing a one-minute one (issue 8, benchmark 6). In a dense plot every
 * column edge cuts a block; so that splitting it does not read all its
 * points, every SUB_POINTS points also keep their min, max and sum: 1.5 bytes
 * a point, 14 in all. Values: offsets of the extremes took 0.56 byte a
 * point, but a split then read the values they pointed at, a cache line
 * for most sub-blocks of the block, and these misses were most of what a
 * one-hour series cost more than a one-minute one. A split reads the one
 * sub-block the edge cuts point by point.
 *
 * Chunks are aligned to cache lines, so that a sub-block's values are two
 * lines, not three. */
#define CHUNK_POINTS   4096
#define BLOCK_POINTS   64
#define SUB_POINTS     16
#define CHUNK_BLOCKS   (CHUNK_POINTS / BLOCK_POINTS)
#define CHUNK_SUBS     (CHUNK_POINTS / SUB_POINTS)
#define CACHE_LINE     64

G_STATIC_ASSERT (BLOCK_POINTS % SUB_POINTS == 0);

/* The min, max and sum of a block's or a sub-block's points. */
typedef struct {
  double min;
  double max;
  double sum;
} Block;

/* The values first: at the aligned start of the allocation. */
typedef struct {
  double v[CHUNK_POINTS];
  float  dt[CHUNK_POINTS];
  Block  subs[CHUNK_SUBS];
  Block  blocks[CHUNK_BLOCKS];
  /* dt of each block's first point again, packed: telling which blocks a
   * column edge cuts then reads 256 bytes a chunk, not a cache line a block
   * (reading dt[] instead makes a dense decimation a fifth slower) */
  float  block_dt[CHUNK_BLOCKS];
  double t_base;
  /* The time of the last point, beside t_base: a decimation tells whether
   * the chunk lies wholly inside its window from this one cache line. */
  double t_last;
  guint  n;
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

/* The time of the first point of block @b. */
static inline double
block_t (const Chunk *chunk,
         guint        b)
{
  return chunk->t_base + (double) chunk->block_dt[b];
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
  self->chunks = g_ptr_array_new_with_free_func (g_aligned_free);
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

  chunk = g_aligned_alloc (1, sizeof (Chunk), CACHE_LINE);
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

/* Where a decimation puts points: the window and its columns. */
typedef struct {
  double t_start;
  double t_end;
  double scale;   /* columns per second */
  double width;   /* seconds per column */
  guint  n_columns;
} Grid;

/* The one formula for a point's column, so that block merges and point runs
 * agree with a point-by-point loop to the last bit. Monotonic in @t; only
 * for t in [t_start, t_end] (casting a negative double is undefined). */
static inline guint
grid_column (const Grid *grid,
             double      t)
{
  return MIN ((guint) ((t - grid->t_start) * grid->scale), grid->n_columns - 1);
}

/* The first index in [@lo, @hi) whose point lies in a column after @c, or
 * @hi: bisection, for a run known to end by @hi. (A branchless bisection
 * is slower here: each step would wait for the previous one's load.) */
static inline guint
first_after (const Chunk *chunk,
             guint        lo,
             guint        hi,
             const Grid  *grid,
             guint        c)
{
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

/* The end of the run of points from @first (in column @c) that stay in @c:
 * the first index before @end in a later column, or @end. Galloping, then
 * bisecting, so that a run costs about 2 log2(length) column computations:
 * short runs (sparse series, many edges in a block) stay cheap. */
static guint
run_end (const Chunk *chunk,
         guint        first,
         guint        end,
         const Grid  *grid,
         guint        c)
{
  guint lo = first + 1, step = 1;

  while (lo < end && grid_column (grid, chunk_t (chunk, lo)) <= c)
    {
      first = lo;
      lo += step;
      step *= 2;
    }
  return first_after (chunk, first + 1, MIN (lo, end), grid, c);
}

/* The column being gathered: consecutive parts of one column (blocks,
 * sub-blocks, runs of points) are merged here, in registers, and the column
 * is written once, when the next one begins. */
typedef struct {
  guint  c;
  guint  n;     /* 0: nothing gathered yet */
  double min;
  double max;
  double sum;
} Gather;

static void
column_store (RpColumn *column,
              guint     n,
              double    min,
              double    max,
              double    sum)
{
  /* Points out of time order (which callers must not append, but which
   * must not get lost) can come back to a column already stored. */
  if (column->n == 0)
    *column = (RpColumn) { n, min, max, sum };
  else
    {
      column->min = MIN (column->min, min);
      column->max = MAX (column->max, max);
      column->mean += sum;
      column->n += n;
    }
}

G_ALWAYS_INLINE static inline void
gather_add (Gather   *g,
            RpColumn *columns,
            guint     c,
            guint     n,
            double    min,
            double    max,
            double    sum)
{
  if (c != g->c || g->n == 0)
    {
      if (g->n > 0)
        column_store (&columns[g->c], g->n, g->min, g->max, g->sum);
      *g = (Gather) { c, n, min, max, sum };
      return;
    }
  g->n += n;
  g->min = MIN (g->min, min);
  g->max = MAX (g->max, max);
  g->sum += sum;
}

/* Points [@first, @stop) of @chunk into *@min, *@max and *@sum. Two
 * points a step where SSE2 is (every x86-64): the sub-block that each
 * column edge cuts, scanned so, was a quarter of the instructions of a
 * dense decimation. minpd and maxpd pick as MIN() and MAX() do; the sum
 * only adds in another order. */
G_ALWAYS_INLINE static inline void
scan_points (const Chunk *chunk,
             guint        first,
             guint        stop,
             double      *min,
             double      *max,
             double      *sum)
{
#ifdef __SSE2__
  if (first + 2 <= stop)
    {
      __m128d mins = _mm_set1_pd (*min), maxs = _mm_set1_pd (*max);
      __m128d sums = _mm_set_sd (*sum);

      for (; first + 2 <= stop; first += 2)
        {
          __m128d v = _mm_loadu_pd (chunk->v + first);

          mins = _mm_min_pd (mins, v);
          maxs = _mm_max_pd (maxs, v);
          sums = _mm_add_pd (sums, v);
        }
      /* Lane 0 against lane 1, in registers: min_sd (a, b) is a < b ? a : b. */
      *min = _mm_cvtsd_f64 (_mm_min_sd (mins, _mm_unpackhi_pd (mins, mins)));
      *max = _mm_cvtsd_f64 (_mm_max_sd (maxs, _mm_unpackhi_pd (maxs, maxs)));
      *sum = _mm_cvtsd_f64 (_mm_add_sd (sums, _mm_unpackhi_pd (sums, sums)));
    }
#endif
  for (guint i = first; i < stop; i++)
    {
      double v = chunk->v[i];

      *min = MIN (*min, v);
      *max = MAX (*max, v);
      *sum += v;
    }
}

/* Whole sub-block @s of @chunk into *@min, *@max and *@sum: the last of
 * a chunk that is still being filled is whole up to the chunk's end. */
G_ALWAYS_INLINE static inline void
merge_sub (const Chunk *chunk,
           guint        s,
           double      *min,
           double      *max,
           double      *sum)
{
  *min = MIN (*min, chunk->subs[s].min);
  *max = MAX (*max, chunk->subs[s].max);
  *sum += chunk->subs[s].sum;
}

/* Points [@first, @stop) of @chunk, all in column @c, one by one: the
 * short runs of a sparse plot, where sub-blocks would not pay. */
G_ALWAYS_INLINE static inline void
gather_points (const Chunk *chunk,
               guint        first,
               guint        stop,
               guint        c,
               Gather      *g,
               RpColumn    *columns)
{
  double min = INFINITY, max = -INFINITY, sum = 0;

  scan_points (chunk, first, stop, &min, &max, &sum);
  gather_add (g, columns, c, stop - first, min, max, sum);
}

/* Points [@first, @stop) of @chunk, all in column @c: the whole sub-blocks
 * in between from their summaries, the cut ones at either end point by
 * point. The last sub-block of a chunk is whole up to the chunk's end. */
G_ALWAYS_INLINE static inline void
gather_run (const Chunk *chunk,
            guint        first,
            guint        stop,
            guint        c,
            Gather      *g,
            RpColumn    *columns)
{
  guint head_end = MIN ((first + SUB_POINTS - 1) / SUB_POINTS * SUB_POINTS, stop);
  guint tail = stop == chunk->n ? stop : MAX (head_end, stop / SUB_POINTS * SUB_POINTS);
  double min = INFINITY, max = -INFINITY, sum = 0;

  scan_points (chunk, first, head_end, &min, &max, &sum);
  for (guint i = head_end; i < tail; i += SUB_POINTS)
    merge_sub (chunk, i / SUB_POINTS, &min, &max, &sum);
  scan_points (chunk, tail, stop, &min, &max, &sum);
  gather_add (g, columns, c, stop - first, min, max, sum);
}

/* Points [@first, @end) of @chunk, a block whose points before @edge lie in
 * column @c and the others in @c + 1, into the two columns: its whole
 * sub-blocks from their summaries, the one @edge cuts point by point (two
 * loops, so that each side's sums and extremes are chains of their own). */
G_ALWAYS_INLINE static inline void
split_block (const Chunk *chunk,
             guint        first,
             guint        edge,
             guint        end,
             guint        c,
             Gather      *g,
             RpColumn    *columns)
{
  guint cut = edge / SUB_POINTS * SUB_POINTS, cut_end = MIN (cut + SUB_POINTS, end);
  double l_min = INFINITY, l_max = -INFINITY, l_sum = 0;
  double r_min = INFINITY, r_max = -INFINITY, r_sum = 0;

  for (guint i = first; i < cut; i += SUB_POINTS)
    merge_sub (chunk, i / SUB_POINTS, &l_min, &l_max, &l_sum);
  for (guint i = cut + SUB_POINTS; i < end; i += SUB_POINTS)
    merge_sub (chunk, i / SUB_POINTS, &r_min, &r_max, &r_sum);
  scan_points (chunk, cut, edge, &l_min, &l_max, &l_sum);
  scan_points (chunk, edge, cut_end, &r_min, &r_max, &r_sum);

  gather_add (g, columns, c, edge - first, l_min, l_max, l_sum);
  if (edge < end)
    gather_add (g, columns, c + 1, end - edge, r_min, r_max, r_sum);
}

/* Points @first..@last of @chunk (a block with several column edges inside,
 * or an end of the window) into their columns. Times ascend, so each
 * column's points form a run: when runs are long, each one's end is found
 * by search and its whole sub-blocks merged from their summaries; when they
 * are short (a sparse plot), every point's column is computed instead. */
static void
decimate_points (const Chunk *chunk,
                 guint        first,
                 guint        last,
                 const Grid  *grid,
                 Gather      *g,
                 RpColumn    *columns)
{
  guint end = last + 1, c_first, c_last;
  Gather acc = *g;

  /* Only the blocks at the window's ends have points outside it. */
  while (first < end && chunk_t (chunk, first) < grid->t_start)
    first++;
  while (end > first && chunk_t (chunk, end - 1) > grid->t_end)
    end--;
  if (first == end)
    return;

  c_last = grid_column (grid, chunk_t (chunk, end - 1));
  c_first = grid_column (grid, chunk_t (chunk, first));
  if (end - first < 8 * (c_last - c_first + 1))
    {
      /* Runs of fewer than 8 points (a sparse plot): a search would cost
       * more than computing every point's column. */
      double min = chunk->v[first], max = min, sum = 0;
      guint c = c_first, run = first;

      for (guint i = first; i < end; i++)
        {
          guint ci = grid_column (grid, chunk_t (chunk, i));
          double v = chunk->v[i];

          if (ci != c)
            {
              gather_add (&acc, columns, c, i - run, min, max, sum);
              c = ci;
              run = i;
              min = max = v;
              sum = 0;
            }
          min = MIN (min, v);
          max = MAX (max, v);
          sum += v;
        }
      gather_add (&acc, columns, c, end - run, min, max, sum);
      *g = acc;
      return;
    }

  while (first < end)
    {
      guint c = grid_column (grid, chunk_t (chunk, first));
      guint stop = c == c_last ? end : run_end (chunk, first, end, grid, c);

      if (stop - first < 2 * SUB_POINTS)
        gather_points (chunk, first, stop, c, &acc, columns);
      else
        gather_run (chunk, first, stop, c, &acc, columns);
      first = stop;
    }
  *g = acc;
}

/* Where the first point of column @c + 1 among points @first..@last
 * (@first in column @c, @last in @c + 1, times @t_first and @t_last)
 * probably is, in (@first, @last]: sampled series are evenly spaced or
 * nearly, so a guess interpolated from the times of the ends is right or
 * off by one. Reads no point. */
static inline guint
edge_guess (guint        first,
            guint        last,
            double       t_first,
            double       t_last,
            const Grid  *grid,
            guint        c)
{
  double edge_t = grid->t_start + (c + 1) * grid->width;
  double x = (edge_t - t_first) / (t_last - t_first) * (last - first);

  return first + 1 + (guint) CLAMP (x, 0, last - first - 1);
}

/* The first index of points @first..@last of @chunk (as for edge_guess())
 * in column @c + 1: probing around @guess, then galloping away from it,
 * usually reads two times, on one cache line, where a bisection would read
 * six, on three or four. */
static inline guint
edge_search (const Chunk *chunk,
             guint        first,
             guint        last,
             guint        guess,
             const Grid  *grid,
             guint        c)
{
  guint step = 1;

  if (grid_column (grid, chunk_t (chunk, guess)) <= c)
    {
      /* The edge is after the guess: gallop up towards @last. */
      guint lo = guess + 1;

      while (lo + step - 1 < last && grid_column (grid, chunk_t (chunk, lo + step - 1)) <= c)
        {
          lo += step;
          step *= 2;
        }
      return first_after (chunk, lo, MIN (lo + step - 1, last), grid, c);
    }

  /* At or before the guess: gallop down towards @first. */
  while (step < guess - first && grid_column (grid, chunk_t (chunk, guess - step)) > c)
    {
      guess -= step;
      step *= 2;
    }
  return first_after (chunk, step < guess - first ? guess - step + 1 : first + 1, guess, grid, c);
}

/* The first block index in [@lo, @hi) whose first point (with @next, the
 * next block's first point, or the chunk's last point for its last block)
 * is after @t, or @hi; with @inclusive, at or after @t. From the packed
 * block times: a bisection over dt[] would wait for a cache miss a step. */
static guint
first_block_after (const Chunk *chunk,
                   guint        lo,
                   guint        hi,
                   gboolean     next,
                   double       t,
                   gboolean     inclusive)
{
  guint n_blocks = (chunk->n + BLOCK_POINTS - 1) / BLOCK_POINTS;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2, b = mid + (next ? 1 : 0);
      double t_mid = b < n_blocks ? block_t (chunk, b) : chunk->t_last;

      if (t_mid > t || (inclusive && t_mid == t))
        hi = mid;
      else
        lo = mid + 1;
    }
  return lo;
}

/* Asks for what splitting block @b at about @guess reads, ahead of the
 * edge search: the summaries of the block's sub-blocks and the values of
 * the one the edge probably cuts. Their addresses are known before the
 * edge is, so the cache misses overlap the search instead of following it;
 * and only those: the block's other values are not read. */
static inline void
prefetch_split (const Chunk *chunk,
                guint        b,
                guint        guess)
{
#ifdef __GNUC__
  const double *v = chunk->v + guess / SUB_POINTS * SUB_POINTS;

  G_STATIC_ASSERT (SUB_POINTS * sizeof (double) == 128);
  __builtin_prefetch (v);
  __builtin_prefetch (v + 8);
  __builtin_prefetch (&chunk->subs[b * BLOCK_POINTS / SUB_POINTS]);
  __builtin_prefetch (&chunk->subs[(b + 1) * BLOCK_POINTS / SUB_POINTS - 1]);
#endif
}

/* Block @b of @chunk, whose first point (at @t_first) lies in column @c and
 * whose next point (the next block's first, or for the chunk's last block
 * its own last point, at @t_next) in @c_next, after @c: split at the edge
 * when there is one, point by point otherwise. decimate_points() is not
 * inlined: it gathers into a copy, so that the caller's Gather, whose
 * address would otherwise escape, can live in registers. */
G_ALWAYS_INLINE static inline void
decimate_cut_block (const Chunk *chunk,
                    guint        b,
                    double       t_first,
                    double       t_next,
                    guint        c,
                    guint        c_next,
                    const Grid  *grid,
                    Gather      *g,
                    RpColumn    *columns)
{
  guint first = b * BLOCK_POINTS, end = MIN (first + BLOCK_POINTS, chunk->n);

  if (c_next == c + 1)
    {
      guint last = MIN (end, chunk->n - 1);
      guint guess = edge_guess (first, last, t_first, t_next, grid, c);
      guint edge;

      prefetch_split (chunk, b, guess);
      edge = edge_search (chunk, first, last, guess, grid, c);

      split_block (chunk, first, edge, end, c, g, columns);
    }
  else
    {
      Gather copy = *g;

      decimate_points (chunk, first, end - 1, grid, &copy, columns);
      *g = copy;
    }
}

/* One chunk's points into their columns. The blocks inside the window
 * (found by bisection, so that the loop over them needs no window test)
 * are told apart by the columns of their first point and of the next
 * block's first point, one column computation a block, from the packed
 * block times: in one column, merged from the summary; in two (the edge of
 * a dense plot), split; in more, point by point. At most one block at each
 * end of the window has points outside it. */
static void
decimate_chunk (const Chunk *chunk,
                const Grid  *grid,
                Gather      *g,
                RpColumn    *columns)
{
  guint n_blocks = (chunk->n + BLOCK_POINTS - 1) / BLOCK_POINTS;
  /* Most chunks lie wholly inside the window: no search. */
  guint b_in = chunk->t_base >= grid->t_start ? 0 :
    first_block_after (chunk, 0, n_blocks, FALSE, grid->t_start, TRUE);
  guint b_out = chunk->t_last <= grid->t_end ? n_blocks :
    first_block_after (chunk, b_in > 0 ? b_in - 1 : 0, n_blocks, TRUE, grid->t_end, FALSE);
  /* The chunk's last block has no next block: handled apart, so that the
   * loop over the others reads the next block's time without a test. */
  guint b_lim = MIN (b_out, n_blocks - 1);
  double t_next = b_in < n_blocks ? block_t (chunk, b_in) : chunk->t_last, t_first = t_next;
  guint c_next = b_in < b_out ? grid_column (grid, t_next) : 0;
  guint b = b_in;
  Gather acc;

  /* A block before the window whose end reaches into it. */
  if (b_in > 0 && b_in - 1 < b_out)
    decimate_points (chunk, (b_in - 1) * BLOCK_POINTS, MIN (b_in * BLOCK_POINTS, chunk->n) - 1, grid, g, columns);
  acc = *g;

  while (b < b_out)
    {
      guint c = c_next, b_run = b;
      double min = INFINITY, max = -INFINITY, sum = 0;

      /* The blocks wholly in column c, merged in registers: most blocks of
       * a dense plot, so this loop is kept to the fewest instructions. */
      for (; b < b_lim; b++)
        {
          t_first = t_next;
          t_next = chunk->t_base + (double) chunk->block_dt[b + 1];
          c_next = grid_column (grid, t_next);
          if (c_next != c)
            break;
          min = MIN (min, chunk->blocks[b].min);
          max = MAX (max, chunk->blocks[b].max);
          sum += chunk->blocks[b].sum;
        }
      if (b == b_lim && b_lim < b_out)
        {
          t_first = t_next;
          t_next = chunk->t_last;
          c_next = grid_column (grid, t_next);
          if (c_next == c)
            {
              min = MIN (min, chunk->blocks[b].min);
              max = MAX (max, chunk->blocks[b].max);
              sum += chunk->blocks[b].sum;
              b++;
            }
        }
      if (b > b_run)
        gather_add (&acc, columns, c, MIN (b * BLOCK_POINTS, chunk->n) - b_run * BLOCK_POINTS, min, max, sum);

      if (b < b_out)
        decimate_cut_block (chunk, b++, t_first, t_next, c, c_next, grid, &acc, columns);
    }
  *g = acc;

  /* The block whose end leaves the window (or that spans all of it). */
  if (b_out < n_blocks)
    decimate_points (chunk, b_out * BLOCK_POINTS, MIN ((b_out + 1) * BLOCK_POINTS, chunk->n) - 1, grid, g, columns);
}

/* Asks for what decimate_chunk() reads first of @chunk: its header, its
 * block times and the first lines of its block summaries. Each chunk is an
 * allocation of its own, where the hardware prefetcher only catches up
 * after a few misses, in turn; issued a chunk ahead, these misses overlap
 * the work on the chunk before. (Asking for all the summaries too was
 * slower: the prefetcher follows them.) */
static inline void
prefetch_chunk (const Chunk *chunk)
{
#ifdef __GNUC__
  __builtin_prefetch (&chunk->t_base);
  for (gsize i = 0; i < sizeof chunk->block_dt; i += CACHE_LINE)
    __builtin_prefetch ((const char *) chunk->block_dt + i);
  for (gsize i = 0; i < 3 * CACHE_LINE; i += CACHE_LINE)
    __builtin_prefetch ((const char *) chunk->blocks + i);
#endif
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
 * into one column is merged from its summary; a block that a column edge
 * cuts is split there (the edge found around a guess interpolated from the
 * block's times), each side from the summaries of its sub-blocks of 16
 * points and the one sub-block the edge cuts point by point; a block with
 * several edges (a sparse plot) is read point by point. Cost: about n / 64
 * block merges plus, per column, a few column computations, four sub-block
 * summaries and 16 values. Counts, minima and maxima are exactly those of
 * a point-by-point loop; means differ from it only by the order of the
 * additions.
 */
void
rp_series_decimate (RpSeries *self,
                    double    t_start,
                    double    t_end,
                    guint     n_columns,
                    RpColumn *out_columns)
{
  Grid grid;
  Gather gather = { 0, 0, 0, 0, 0 };

  g_return_if_fail (RP_IS_SERIES (self));
  g_return_if_fail (out_columns != NULL || n_columns == 0);

  for (guint c = 0; c < n_columns; c++)
    out_columns[c] = (RpColumn) { 0, 0, 0, 0 };
  if (n_columns == 0 || !(t_end > t_start))
    return;

  grid = (Grid) { t_start, t_end, n_columns / (t_end - t_start), (t_end - t_start) / n_columns, n_columns };

  g_mutex_lock (&self->lock);
  for (guint k = 0; k < self->chunks->len; k++)
    {
      const Chunk *chunk = g_ptr_array_index (self->chunks, k);

      if (k + 1 < self->chunks->len)
        prefetch_chunk (g_ptr_array_index (self->chunks, k + 1));
      if (chunk->n == 0 || chunk->t_base > t_end || chunk->t_last < t_start)
        continue;
      decimate_chunk (chunk, &grid, &gather, out_columns);
    }
  if (gather.n > 0)
    column_store (&out_columns[gather.c], gather.n, gather.min, gather.max, gather.sum);
  g_mutex_unlock (&self->lock);

  for (guint c = 0; c < n_columns; c++)
    if (out_columns[c].n > 0)
      out_columns[c].mean /= out_columns[c].n;
}
