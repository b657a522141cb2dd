/* rp-series-private.h: the storage of RpSeries, shared by its files: chunks, block summaries, snapshots. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-series.h"

G_BEGIN_DECLS

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

/* The time of point @i of @chunk. */
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

/* What a reader outside the lock may use of a series (rp-series-decimate.c):
 * the chunk pointers, copied because the array holding them moves when a
 * chunk is added, and of the last chunk what appends still change: its
 * count, its last time, and the summaries of its last block and sub-block,
 * copied. The chunks themselves are never moved nor freed while the series
 * lives (appends only add chunks; rp_series_finalize() frees them), and a
 * point, once counted, is never written again. Taking the lock for the
 * snapshot makes every append before it visible to the reader; appends
 * after it write only past what the snapshot counts, and the copies. */
typedef struct {
  const Chunk **chunks;
  guint         n_chunks;
  guint         last_n;
  double        last_t_last;
  Block         last_block;
  Block         last_sub;
} RpSeriesSnapshot;

void rp_series_take_snapshot  (RpSeries         *self,
                               RpSeriesSnapshot *out_snapshot);
void rp_series_snapshot_clear (RpSeriesSnapshot *snapshot);

G_END_DECLS
