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

  /* Issued before the run's start: the other parts' preparation, not the
   * run (a report reader drops samples before the start: issue 33). */
  if (issued < 0)
    return;
  /* Every request into the figures first, then maybe a point: the
   * statistics cover every point the series has (rp_series_set_full_stats()). */
  rp_stream_stats_add (stats->all, &latency, 1);
  /* And by its issue, for a stall's window (rp_series_stats_in_windows()). */
  rp_time_histogram_add (stats->windows, issued, latency);
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

/* One task the kernel paused for dirty memory: who, how often, how long. */
typedef struct {
  int             pid;
  char           *comm;   /* its name when first paused; the one it was created
                           * with, or "?", if already gone */
  RpTraceTaskKind kind;   /* whose (rp-trace-tasks.c): the run's threads, its
                           * command's processes, its other children, or not ours */
  guint64         pauses;
  double          seconds, longest;
} RpTracePausedTask;

static void
paused_task_free (gpointer data)
{
  RpTracePausedTask *task = data;

  g_free (task->comm);
  g_free (task);
}

/**
 * rp_trace_paused_tasks_new:
 *
 * Returns: (transfer full): an empty table of paused tasks by pid, for
 *   RpTraceSink.paused_tasks
 */
GHashTable *
rp_trace_paused_tasks_new (void)
{
  return g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, paused_task_free);
}

/* Looked up when first paused (the event carries only the thread's id):
 * whose it is comes from rp-trace-tasks.c, which knew the run's threads and
 * processes from their creation, so that one that ended before the reader
 * looked is still the run's (trial: the run's own writer credited to
 * "? 28940"; a --command dd counted as another program). Its name is what
 * GLib gave a worker thread ("seq-writer"), another task's its command. */
static RpTracePausedTask *
paused_task (RpTraceSink *sink,
             int          pid)
{
  RpTracePausedTask *task = g_hash_table_lookup (sink->paused_tasks, GINT_TO_POINTER (pid));
  g_autofree char *comm_path = NULL, *comm = NULL;
  const char *created_as = "";

  if (task != NULL)
    return task;
  task = g_new0 (RpTracePausedTask, 1);
  task->pid = pid;
  task->kind = rp_trace_task_kind (sink, pid, &created_as);
  comm_path = g_strdup_printf ("/proc/%d/comm", pid);
  if (g_file_get_contents (comm_path, &comm, NULL, NULL))
    task->comm = g_strdup (g_strstrip (comm));
  else
    task->comm = g_strdup (created_as[0] != '\0' ? created_as : "?");
  g_hash_table_insert (sink->paused_tasks, GINT_TO_POINTER (pid), task);
  return task;
}

/**
 * rp_trace_pause_seconds:
 * @pause_ms: the `pause` field of writeback:balance_dirty_pages
 *
 * The tracepoint stores the pause already converted to milliseconds
 * (include/trace/events/writeback.h: `__entry->pause = pause * 1000 / HZ`,
 * as `period`, `paused` and `think`), whatever the kernel's HZ; the sleep
 * itself is at most MAX_PAUSE, HZ / 5 jiffies (200 ms, mm/page-writeback.c).
 * Dividing by HZ instead read 4× too long at HZ = 250 (trial: "worst
 * 800 ms").
 *
 * Returns: the pause in seconds
 */
double
rp_trace_pause_seconds (gint64 pause_ms)
{
  return (double) pause_ms / 1000.0;
}

static void
on_balance_dirty_pages (RpTraceSink       *sink,
                        struct tep_event  *event,
                        struct tep_record *record)
{
  gint64 pause = rp_trace_field_s64 (event, record, "pause");
  RpTracePausedTask *task;
  double seconds, t;

  /* Traced with pause 0 when the writer was let through. */
  if (pause <= 0)
    return;
  seconds = rp_trace_pause_seconds (pause);
  t = rp_trace_time (sink, record->ts);
  /* Before the run's start (its preparation): not the run's (issue 33). */
  if (t < 0)
    return;
  rp_series_append (sink->writer_pause, t, seconds);
  sink->pauses++;
  sink->pause_seconds += seconds;
  sink->pause_max = MAX (sink->pause_max, seconds);

  task = paused_task (sink, (int) rp_trace_field_s64 (event, record, "common_pid"));
  task->pauses++;
  task->seconds += seconds;
  task->longest = MAX (task->longest, seconds);
  if (task->kind == RP_TRACE_TASK_OTHER)
    rp_series_append (sink->writer_pause_other, t, seconds);
}

static int
compare_paused_seconds (gconstpointer a,
                        gconstpointer b)
{
  const RpTracePausedTask *ta = *(const RpTracePausedTask * const *) a;
  const RpTracePausedTask *tb = *(const RpTracePausedTask * const *) b;

  return (ta->seconds < tb->seconds) - (ta->seconds > tb->seconds);
}

/* The note writer_pause_tasks: the tasks paused longest first, at most
 * ten, e.g. "seq-writer 4242 (this run): 120 pauses, 3.200 s, longest
 * 0.210 s; dd 5151: 4 pauses, 0.100 s, longest 0.040 s" (data, not
 * translated, like every note's value). */
static void
note_paused_tasks (RpTraceSink *sink)
{
  static const char *const whose[] = {
    [RP_TRACE_TASK_OTHER] = "",
    [RP_TRACE_TASK_THREAD] = " (this run)",
    [RP_TRACE_TASK_COMMAND] = " (this run's command)",
    [RP_TRACE_TASK_CHILD] = " (this run's child)",
  };
  g_autoptr(GPtrArray) tasks = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  GHashTableIter iter;
  gpointer value;
  double others = 0;

  g_hash_table_iter_init (&iter, sink->paused_tasks);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (tasks, value);

  g_ptr_array_sort (tasks, compare_paused_seconds);
  for (guint i = 0; i < tasks->len; i++)
    {
      const RpTracePausedTask *task = g_ptr_array_index (tasks, i);

      if (task->kind == RP_TRACE_TASK_OTHER)
        others += task->seconds;
      if (i >= 10)
        continue;
      g_string_append_printf (text, "%s%s %d%s: %" G_GUINT64_FORMAT " pauses, %.3f s, longest %.3f s",
                              text->len ? "; " : "", task->comm, task->pid, whose[task->kind],
                              task->pauses, task->seconds, task->longest);
    }
  if (tasks->len > 10)
    g_string_append_printf (text, "; %u more tasks", tasks->len - 10);
  if (text->len > 0)
    rp_part_host_set_note (sink->host, "writer_pause_tasks", text->str);
  rp_part_host_set_number_note (sink->host, "writer_pause_other_seconds", "%.6f", others);
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
  { "block", "block_rq_issue", on_issue },
  { "block", "block_rq_complete", on_complete },
  /* Its filter keeps the pauses over 0 only (rp-trace-events.c). */
  { "writeback", "balance_dirty_pages", on_balance_dirty_pages },
  { "wbt", "wbt_lat", on_wbt_lat },
  { "wbt", "wbt_stat", on_wbt_stat },
  { "wbt", "wbt_step", on_wbt_step },
  { "wbt", "wbt_timer", on_wbt_timer },
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

      RpStats all;

      rp_part_host_set_number_note (host, count, "%.0f", (double) stats->completed);
      rp_stream_stats_get (stats->all, &all);
      if (all.n == 0)
        continue;
      rp_part_host_set_number_note (host, p50, "%.6f", all.p50);
      rp_part_host_set_number_note (host, p99, "%.6f", all.p99);
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
  note_paused_tasks (sink);
}
