/* rp-series-decimate.c: RpSeries reduced to pixel columns (count, min, max, mean), outside the lock. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

#include "rp-series-private.h"

/* A chunk as the snapshot saw it. Of a chunk's storage, a decimation reads
 * outside the lock only what no append writes again: the times and values
 * of the view's n points, the block times of its blocks, the summaries of
 * its complete blocks and sub-blocks. What appends still change (the count,
 * the last time, the summaries of the block and sub-block being filled)
 * comes from the copies in the view. All chunks but the last are full,
 * hence no longer written: their views are their own fields. */
typedef struct {
  const Chunk *chunk;
  guint        n;
  double       t_last;
  guint        last_sub;    /* index of the chunk's last sub-block */
  const Block *sub;         /* its summary */
  const Block *block;       /* the summary of the chunk's last block */
} ChunkView;

static void
view_init (ChunkView              *view,
           const RpSeriesSnapshot *snapshot,
           guint                   k)
{
  const Chunk *chunk = snapshot->chunks[k];

  /* Pointers, not copies, so that a chunk outside the window costs only
   * the cache line of its header. */
  if (k + 1 < snapshot->n_chunks)
    *view = (ChunkView) { chunk, chunk->n, chunk->t_last, CHUNK_SUBS - 1,
                          &chunk->subs[CHUNK_SUBS - 1], &chunk->blocks[CHUNK_BLOCKS - 1] };
  else
    *view = (ChunkView) { chunk, snapshot->last_n, snapshot->last_t_last,
                          (snapshot->last_n - 1) / SUB_POINTS, &snapshot->last_sub,
                          &snapshot->last_block };
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
merge_sub (const ChunkView *view,
           guint            s,
           double          *min,
           double          *max,
           double          *sum)
{
  /* The last sub-block may still be filling: its summary from the view. */
  const Block *sub = s == view->last_sub ? view->sub : &view->chunk->subs[s];

  *min = MIN (*min, sub->min);
  *max = MAX (*max, sub->max);
  *sum += sub->sum;
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
gather_run (const ChunkView *view,
            guint            first,
            guint            stop,
            guint            c,
            Gather          *g,
            RpColumn        *columns)
{
  const Chunk *chunk = view->chunk;
  guint head_end = MIN ((first + SUB_POINTS - 1) / SUB_POINTS * SUB_POINTS, stop);
  guint tail = stop == view->n ? stop : MAX (head_end, stop / SUB_POINTS * SUB_POINTS);
  double min = INFINITY, max = -INFINITY, sum = 0;

  scan_points (chunk, first, head_end, &min, &max, &sum);
  for (guint i = head_end; i < tail; i += SUB_POINTS)
    merge_sub (view, i / SUB_POINTS, &min, &max, &sum);
  scan_points (chunk, tail, stop, &min, &max, &sum);
  gather_add (g, columns, c, stop - first, min, max, sum);
}

/* Points [@first, @end) of @chunk, a block whose points before @edge lie in
 * column @c and the others in @c + 1, into the two columns: its whole
 * sub-blocks from their summaries, the one @edge cuts point by point (two
 * loops, so that each side's sums and extremes are chains of their own). */
G_ALWAYS_INLINE static inline void
split_block (const ChunkView *view,
             guint            first,
             guint            edge,
             guint            end,
             guint            c,
             Gather          *g,
             RpColumn        *columns)
{
  const Chunk *chunk = view->chunk;
  guint cut = edge / SUB_POINTS * SUB_POINTS, cut_end = MIN (cut + SUB_POINTS, end);
  double l_min = INFINITY, l_max = -INFINITY, l_sum = 0;
  double r_min = INFINITY, r_max = -INFINITY, r_sum = 0;

  for (guint i = first; i < cut; i += SUB_POINTS)
    merge_sub (view, i / SUB_POINTS, &l_min, &l_max, &l_sum);
  for (guint i = cut + SUB_POINTS; i < end; i += SUB_POINTS)
    merge_sub (view, i / SUB_POINTS, &r_min, &r_max, &r_sum);
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
decimate_points (const ChunkView *view,
                 guint            first,
                 guint            last,
                 const Grid      *grid,
                 Gather          *g,
                 RpColumn        *columns)
{
  const Chunk *chunk = view->chunk;
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
        gather_run (view, first, stop, c, &acc, columns);
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
first_block_after (const ChunkView *view,
                   guint            lo,
                   guint            hi,
                   gboolean         next,
                   double           t,
                   gboolean         inclusive)
{
  const Chunk *chunk = view->chunk;
  guint n_blocks = (view->n + BLOCK_POINTS - 1) / BLOCK_POINTS;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2, b = mid + (next ? 1 : 0);
      double t_mid = b < n_blocks ? block_t (chunk, b) : view->t_last;

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
decimate_cut_block (const ChunkView *view,
                    guint            b,
                    double           t_first,
                    double           t_next,
                    guint            c,
                    guint            c_next,
                    const Grid      *grid,
                    Gather          *g,
                    RpColumn        *columns)
{
  const Chunk *chunk = view->chunk;
  guint first = b * BLOCK_POINTS, end = MIN (first + BLOCK_POINTS, view->n);

  if (c_next == c + 1)
    {
      guint last = MIN (end, view->n - 1);
      guint guess = edge_guess (first, last, t_first, t_next, grid, c);
      guint edge;

      prefetch_split (chunk, b, guess);
      edge = edge_search (chunk, first, last, guess, grid, c);

      split_block (view, first, edge, end, c, g, columns);
    }
  else
    {
      Gather copy = *g;

      decimate_points (view, first, end - 1, grid, &copy, columns);
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
decimate_chunk (const ChunkView *view,
                const Grid      *grid,
                Gather          *g,
                RpColumn        *columns)
{
  const Chunk *chunk = view->chunk;
  guint n_blocks = (view->n + BLOCK_POINTS - 1) / BLOCK_POINTS;
  /* Most chunks lie wholly inside the window: no search. */
  guint b_in = chunk->t_base >= grid->t_start ? 0 :
    first_block_after (view, 0, n_blocks, FALSE, grid->t_start, TRUE);
  guint b_out = view->t_last <= grid->t_end ? n_blocks :
    first_block_after (view, b_in > 0 ? b_in - 1 : 0, n_blocks, TRUE, grid->t_end, FALSE);
  /* The chunk's last block has no next block: handled apart, so that the
   * loop over the others reads the next block's time without a test. */
  guint b_lim = MIN (b_out, n_blocks - 1);
  double t_next = b_in < n_blocks ? block_t (chunk, b_in) : view->t_last, t_first = t_next;
  guint c_next = b_in < b_out ? grid_column (grid, t_next) : 0;
  guint b = b_in;
  Gather acc;

  /* A block before the window whose end reaches into it. */
  if (b_in > 0 && b_in - 1 < b_out)
    decimate_points (view, (b_in - 1) * BLOCK_POINTS, MIN (b_in * BLOCK_POINTS, view->n) - 1, grid, g, columns);
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
          t_next = view->t_last;
          c_next = grid_column (grid, t_next);
          /* The chunk's last block, perhaps still filling: from the view. */
          if (c_next == c)
            {
              min = MIN (min, view->block->min);
              max = MAX (max, view->block->max);
              sum += view->block->sum;
              b++;
            }
        }
      if (b > b_run)
        gather_add (&acc, columns, c, MIN (b * BLOCK_POINTS, view->n) - b_run * BLOCK_POINTS, min, max, sum);

      if (b < b_out)
        decimate_cut_block (view, b++, t_first, t_next, c, c_next, grid, &acc, columns);
    }
  *g = acc;

  /* The block whose end leaves the window (or that spans all of it). */
  if (b_out < n_blocks)
    decimate_points (view, b_out * BLOCK_POINTS, MIN ((b_out + 1) * BLOCK_POINTS, view->n) - 1, grid, g, columns);
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
 *
 * Safe from any thread, and appends from other threads do not wait for it:
 * it decimates the points the series had when it started.
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
  RpSeriesSnapshot snapshot;

  g_return_if_fail (RP_IS_SERIES (self));
  g_return_if_fail (out_columns != NULL || n_columns == 0);

  for (guint c = 0; c < n_columns; c++)
    out_columns[c] = (RpColumn) { 0, 0, 0, 0 };
  if (n_columns == 0 || !(t_end > t_start))
    return;

  grid = (Grid) { t_start, t_end, n_columns / (t_end - t_start), (t_end - t_start) / n_columns, n_columns };

  /* Workers go on appending meanwhile: the lock is held only to copy the
   * chunk pointers and what appends still change (see ChunkView). */
  rp_series_take_snapshot (self, &snapshot);
  for (guint k = 0; k < snapshot.n_chunks; k++)
    {
      ChunkView view;

      view_init (&view, &snapshot, k);
      if (k + 1 < snapshot.n_chunks)
        prefetch_chunk (snapshot.chunks[k + 1]);
      if (view.n == 0 || view.chunk->t_base > t_end || view.t_last < t_start)
        continue;
      decimate_chunk (&view, &grid, &gather, out_columns);
    }
  if (gather.n > 0)
    column_store (&out_columns[gather.c], gather.n, gather.min, gather.max, gather.sum);
  rp_series_snapshot_clear (&snapshot);

  for (guint c = 0; c < n_columns; c++)
    if (out_columns[c].n > 0)
      out_columns[c].mean /= out_columns[c].n;
}
