/* rp-trace-journal.c: journal commits (jbd2) and fsync in the file system (ext4), from kernel events. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-trace-private.h"

/* Under ext3/ext4 data=ordered an fsync() waits for the journal commit, and
 * the commit first writes every dirty data block of the transaction: the
 * coupling behind kernel bug 12309. jbd2_start_commit and jbd2_end_commit
 * time each commit (fs/jbd2/commit.c); jbd2_run_stats says where it spent
 * its time (include/trace/events/jbd2.h: "running" the transaction was
 * open, "locked" waiting for its handles to finish, "flushing" writing the
 * ordered data, "logging" writing the journal blocks; in jiffies) and how
 * many blocks it logged. ext3 is mounted by the ext4 driver on kernels since
 * 4.3 (CONFIG_EXT4_USE_FOR_EXT2/3), so ext4's events cover it. All carry the
 * file system's dev_t and are filtered to the target's. */

/* Pairs a begin event with its end: @starts maps @key (a transaction, a
 * thread) to the begin's timestamp. */
static void
span_begin (GHashTable        *starts,
            guint64            key,
            struct tep_record *record)
{
  g_hash_table_insert (starts, GSIZE_TO_POINTER ((gsize) key), g_memdup2 (&record->ts, sizeof record->ts));
}

/* The end of @key's span: its begin's timestamp (*@out_start) and length
 * (*@out_seconds). A span that began before the instance did has no begin:
 * %FALSE, left out as trace-cmd's pairing would. */
static gboolean
span_end (GHashTable        *starts,
          guint64            key,
          struct tep_record *record,
          guint64           *out_start,
          double            *out_seconds)
{
  guint64 *start = g_hash_table_lookup (starts, GSIZE_TO_POINTER ((gsize) key));

  if (start == NULL || record->ts < *start)
    return FALSE;
  *out_start = *start;
  *out_seconds = (double) (record->ts - *start) * 1e-9;
  g_hash_table_remove (starts, GSIZE_TO_POINTER ((gsize) key));
  return TRUE;
}

static void
on_start_commit (RpTraceSink       *sink,
                 struct tep_event  *event,
                 struct tep_record *record)
{
  span_begin (sink->commit_starts, rp_trace_field_u64 (event, record, "transaction"), record);
}

static void
on_end_commit (RpTraceSink       *sink,
               struct tep_event  *event,
               struct tep_record *record)
{
  guint64 tid = rp_trace_field_u64 (event, record, "transaction");
  guint64 start;
  double seconds;

  /* A commit begun before the run's start (its preparation) is not the
   * run's: a report reader drops samples before the start (issue 33). */
  if (!span_end (sink->commit_starts, tid, record, &start, &seconds) || rp_trace_time (sink, start) < 0)
    return;
  rp_series_append (sink->journal_commit, rp_trace_time (sink, start), seconds);
  if (sink->commits == 0 || tid < sink->first_tid)
    sink->first_tid = tid;
  sink->last_tid = MAX (sink->last_tid, tid);
  sink->commits++;
  sink->commit_seconds += seconds;
}

static void
on_run_stats (RpTraceSink       *sink,
              struct tep_event  *event,
              struct tep_record *record)
{
  static const char *phases[] = { "running", "locked", "flushing", "logging" };

  for (guint i = 0; i < G_N_ELEMENTS (phases); i++)
    sink->phase_seconds[i] += (double) rp_trace_field_u64 (event, record, phases[i]) / sink->hz;
  sink->blocks += rp_trace_field_u64 (event, record, "blocks");
  sink->blocks_logged += rp_trace_field_u64 (event, record, "blocks_logged");
  sink->handles += rp_trace_field_u64 (event, record, "handle_count");
  sink->run_stats++;
}

/* By thread: one thread is in one fsync() at a time. */
static void
on_sync_enter (RpTraceSink       *sink,
               struct tep_event  *event,
               struct tep_record *record)
{
  span_begin (sink->sync_starts, (guint64) rp_trace_field_s64 (event, record, "common_pid"), record);
}

static void
on_sync_exit (RpTraceSink       *sink,
              struct tep_event  *event,
              struct tep_record *record)
{
  guint64 start;
  double seconds;

  if (!span_end (sink->sync_starts, (guint64) rp_trace_field_s64 (event, record, "common_pid"), record,
                 &start, &seconds))
    return;
  sink->syncs++;
  sink->sync_seconds += seconds;
  sink->sync_max = MAX (sink->sync_max, seconds);
}

static const RpTraceEventInfo events[] = {
  { "jbd2", "jbd2_start_commit", on_start_commit },
  { "jbd2", "jbd2_end_commit", on_end_commit },
  { "jbd2", "jbd2_run_stats", on_run_stats },
  { "ext4", "ext4_sync_file_enter", on_sync_enter },
  { "ext4", "ext4_sync_file_exit", on_sync_exit },
};

/**
 * rp_trace_journal_events:
 * @out_n: (out): how many
 *
 * Returns: (transfer none): the journal's and ext4's events
 */
const RpTraceEventInfo *
rp_trace_journal_events (guint *out_n)
{
  *out_n = G_N_ELEMENTS (events);
  return events;
}

/**
 * rp_trace_journal_notes:
 *
 * Sets the notes of the journal (counts, seconds, blocks; see
 * docs/REPORT-FORMAT.md) from what @sink aggregated.
 */
void
rp_trace_journal_notes (RpTraceSink *sink)
{
  static const char *phase_notes[] = {
    "journal_running_seconds", "journal_locked_seconds",
    "journal_flushing_seconds", "journal_logging_seconds",
  };
  RpPartHost *host = sink->host;

  rp_part_host_set_number_note (host, "journal_commits", "%.0f", (double) sink->commits);
  rp_part_host_set_number_note (host, "journal_commit_seconds", "%.6f", sink->commit_seconds);
  if (sink->commits > 0)
    {
      rp_part_host_set_number_note (host, "journal_first_transaction", "%.0f", (double) sink->first_tid);
      rp_part_host_set_number_note (host, "journal_last_transaction", "%.0f", (double) sink->last_tid);
    }
  if (sink->run_stats > 0)
    {
      for (guint i = 0; i < G_N_ELEMENTS (phase_notes); i++)
        rp_part_host_set_number_note (host, phase_notes[i], "%.3f", sink->phase_seconds[i]);
      rp_part_host_set_number_note (host, "journal_blocks", "%.0f", (double) sink->blocks);
      rp_part_host_set_number_note (host, "journal_blocks_logged", "%.0f", (double) sink->blocks_logged);
      rp_part_host_set_number_note (host, "journal_handles", "%.0f", (double) sink->handles);
    }
  rp_part_host_set_number_note (host, "ext4_sync_file_calls", "%.0f", (double) sink->syncs);
  if (sink->syncs > 0)
    {
      rp_part_host_set_number_note (host, "ext4_sync_file_seconds", "%.6f", sink->sync_seconds);
      rp_part_host_set_number_note (host, "ext4_sync_file_max", "%.6f", sink->sync_max);
    }
}
