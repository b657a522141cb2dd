/* rp-trace-block.c: device latency per request, writeback throttling and writer pauses, from kernel events. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-trace-private.h"

/* What biolatency (bcc) measures, without BPF: block_rq_issue to
 * block_rq_complete of each request of the target's disk, by operation as
 * the request's "rwbs" letters say (block/blk-core.c blk_fill_rwbs(): an
 * optional leading F for a pre-flush, then the operation R, W, D, F (flush)
 * or N, then F for FUA, S, M, A…). A request is found again by its sector
 * and operation. wbt (block/blk-wbt.c) throttles buffered writeback when
 * reads are slow; its events are counted. balance_dirty_pages
 * (mm/page-writeback.c) is where a writer sleeps because there is too much
 * dirty memory: each pause is a sample of writer_pause. */

#define WINDOW 0.1   /* s: one sample per operation per window, the longest */

static int
op_of (const char *rwbs)
{
  const char *p = rwbs;

  /* A pre-flush 'F' before the operation's letter. */
  if (p[0] == 'F' && p[1] != '\0' && strchr ("RWDFN", p[1]) != NULL)
    p++;
  switch (*p)
    {
    case 'R':
      return RP_TRACE_OP_READ;
    case 'W':
      return RP_TRACE_OP_WRITE;
    case 'F':
      return RP_TRACE_OP_FLUSH;
    default:
      return -1;  /* discards and the rest: not asked for */
    }
}

/* A flush has no sector of its own (the events give 0 at issue and -1 at
 * completion): flushes are found again in order, one in flight at a time per
 * flush queue (block/blk-flush.c), which is what a disk with one queue has. */
static gpointer
request_key (guint64 sector,
             int     op)
{
  if (op == RP_TRACE_OP_FLUSH)
    sector = 0;
  return GSIZE_TO_POINTER ((gsize) (sector << 2 | (guint64) op));
}

static void
flush_window (RpTraceOpStats *stats)
{
  if (stats->window_latency < 0)
    return;
  rp_series_append (stats->series, stats->window_time, stats->window_latency);
  stats->window_latency = -1;
}

/* Keeps the report bounded (≤ 10 samples per second per operation below
 * 0.1 s) while every stall stays visible. */
static void
add_latency (RpTraceOpStats *stats,
             double          issued,
             double          latency)
{
  double completed = issued + latency;

  rp_histogram_add (stats->histogram, latency);
  if (latency > WINDOW)
    {
      rp_series_append (stats->series, issued, latency);
      return;
    }
  if (stats->window_latency >= 0 && completed >= stats->window_end)
    flush_window (stats);
  if (stats->window_latency < 0)
    stats->window_end = (floor (completed / WINDOW) + 1) * WINDOW;
  if (latency > stats->window_latency)
    {
      stats->window_latency = latency;
      stats->window_time = issued;
    }
}

static void
on_issue (RpTraceSink       *sink,
          struct tep_event  *event,
          struct tep_record *record)
{
  char rwbs[16];
  int op;

  if (!rp_trace_field_text (event, record, "rwbs", rwbs, sizeof rwbs) || (op = op_of (rwbs)) < 0)
    return;
  /* A requeued request is issued again: its latency is from the last issue. */
  g_hash_table_insert (sink->issued, request_key (rp_trace_field_u64 (event, record, "sector"), op),
                       g_memdup2 (&record->ts, sizeof record->ts));
}

static void
on_complete (RpTraceSink       *sink,
             struct tep_event  *event,
             struct tep_record *record)
{
  char rwbs[16];
  int op;
  gpointer key;
  guint64 *issued;

  if (!rp_trace_field_text (event, record, "rwbs", rwbs, sizeof rwbs) || (op = op_of (rwbs)) < 0)
    return;
  /* A write with a pre-flush or FUA goes through the flush sequence
   * (block/blk-flush.c) and completes twice: its data, then with 0 sectors
   * and the same sector when the sequence ends. An empty pre-flush write
   * (sync(), blkdev_issue_flush()) completes once, with 0 sectors, never
   * issued itself (its flush is). /proc/diskstats counts each once, as a
   * write; so do we: a completion of 0 sectors counts unless it ends the
   * sequence of a write whose data completed before. */
  if (op != RP_TRACE_OP_FLUSH && rp_trace_field_u64 (event, record, "nr_sector") == 0)
    {
      gpointer sector = GSIZE_TO_POINTER ((gsize) rp_trace_field_u64 (event, record, "sector"));

      if (!g_hash_table_remove (sink->data_completed, sector))
        sink->ops[op].completed++;
      return;
    }
  if (op != RP_TRACE_OP_FLUSH)
    {
      /* Kept for the end of a flush sequence, which follows within
       * milliseconds: a bound, not a history. */
      if (g_hash_table_size (sink->data_completed) >= 4096)
        g_hash_table_remove_all (sink->data_completed);
      g_hash_table_add (sink->data_completed,
                        GSIZE_TO_POINTER ((gsize) rp_trace_field_u64 (event, record, "sector")));
    }
  sink->ops[op].completed++;
  key = request_key (rp_trace_field_u64 (event, record, "sector"), op);
  issued = g_hash_table_lookup (sink->issued, key);
  if (issued == NULL || record->ts < *issued)
    {
      sink->unmatched++;
      return;
    }
  add_latency (&sink->ops[op], rp_trace_time (sink, *issued), (double) (record->ts - *issued) * 1e-9);
  g_hash_table_remove (sink->issued, key);
}

static void
on_balance_dirty_pages (RpTraceSink       *sink,
                        struct tep_event  *event,
                        struct tep_record *record)
{
  gint64 pause = rp_trace_field_s64 (event, record, "pause");
  double seconds;

  /* Traced with pause 0 when the writer was let through. */
  if (pause <= 0)
    return;
  seconds = (double) pause / sink->hz;
  rp_series_append (sink->writer_pause, rp_trace_time (sink, record->ts), seconds);
  sink->pauses++;
  sink->pause_seconds += seconds;
  sink->pause_max = MAX (sink->pause_max, seconds);
}

#define WBT_HANDLER(fn, index) \
  static void fn (RpTraceSink *sink, struct tep_event *event, struct tep_record *record) \
  { sink->wbt[index]++; }
WBT_HANDLER (on_wbt_lat, RP_TRACE_WBT_LAT)
WBT_HANDLER (on_wbt_stat, RP_TRACE_WBT_STAT)
WBT_HANDLER (on_wbt_step, RP_TRACE_WBT_STEP)
WBT_HANDLER (on_wbt_timer, RP_TRACE_WBT_TIMER)
#undef WBT_HANDLER

static const RpTraceEventInfo events[] = {
  { "block", "block_rq_issue", on_issue, RP_TRACE_FILTER_DISK },
  { "block", "block_rq_complete", on_complete, RP_TRACE_FILTER_DISK },
  { "writeback", "balance_dirty_pages", on_balance_dirty_pages, RP_TRACE_FILTER_BDI },
  { "wbt", "wbt_lat", on_wbt_lat, RP_TRACE_FILTER_NAME },
  { "wbt", "wbt_stat", on_wbt_stat, RP_TRACE_FILTER_NAME },
  { "wbt", "wbt_step", on_wbt_step, RP_TRACE_FILTER_NAME },
  { "wbt", "wbt_timer", on_wbt_timer, RP_TRACE_FILTER_NAME },
};

/**
 * rp_trace_block_events:
 * @out_n: (out): how many
 *
 * Returns: (transfer none): the block layer's, wbt's and writeback's events
 */
const RpTraceEventInfo *
rp_trace_block_events (guint *out_n)
{
  *out_n = G_N_ELEMENTS (events);
  return events;
}

/**
 * rp_trace_block_flush:
 *
 * Appends the pending longest request of each operation: at the end of a
 * run, so that its last 0.1 s is not lost.
 */
void
rp_trace_block_flush (RpTraceSink *sink)
{
  for (guint op = 0; op < RP_TRACE_N_OPS; op++)
    flush_window (&sink->ops[op]);
}

/**
 * rp_trace_block_notes:
 *
 * Sets the notes of the device, writeback throttling and writer pauses
 * (see docs/REPORT-FORMAT.md) from what @sink aggregated.
 */
void
rp_trace_block_notes (RpTraceSink *sink)
{
  static const char *ops[] = { "read", "write", "flush" };
  static const char *wbt[] = { "wbt_lat", "wbt_stat", "wbt_step", "wbt_timer" };
  RpPartHost *host = sink->host;

  for (guint op = 0; op < RP_TRACE_N_OPS; op++)
    {
      const RpTraceOpStats *stats = &sink->ops[op];
      g_autofree char *count = g_strdup_printf ("device_%s_requests", ops[op]);
      g_autofree char *p50 = g_strdup_printf ("device_%s_latency_p50", ops[op]);
      g_autofree char *p99 = g_strdup_printf ("device_%s_latency_p99", ops[op]);

      rp_part_host_set_number_note (host, count, "%.0f", (double) stats->completed);
      if (rp_histogram_get_count (stats->histogram) == 0)
        continue;
      rp_part_host_set_number_note (host, p50, "%.6f", rp_histogram_percentile (stats->histogram, 0.5));
      rp_part_host_set_number_note (host, p99, "%.6f", rp_histogram_percentile (stats->histogram, 0.99));
    }
  for (guint i = 0; i < RP_TRACE_N_WBT; i++)
    {
      g_autofree char *key = g_strdup_printf ("%s_events", wbt[i]);

      rp_part_host_set_number_note (host, key, "%.0f", (double) sink->wbt[i]);
    }
  rp_part_host_set_number_note (host, "writer_pauses", "%.0f", (double) sink->pauses);
  if (sink->pauses > 0)
    {
      rp_part_host_set_number_note (host, "writer_pause_seconds", "%.6f", sink->pause_seconds);
      rp_part_host_set_number_note (host, "writer_pause_max", "%.6f", sink->pause_max);
    }
}
