/* rp-trace-private.h: what the kernel-event files of the parts layer share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <event-parse.h>
#include <glib.h>
#include <tracefs.h>

#include "rp-part-host.h"
#include "rp-stream-stats.h"
#include "rp-time-histogram.h"
#include "rp-trace-events.h"

G_BEGIN_DECLS

/* Block request operations, in the order of their series and notes. */
typedef enum {
  RP_TRACE_OP_READ,
  RP_TRACE_OP_WRITE,
  RP_TRACE_OP_FLUSH,
  RP_TRACE_N_OPS,
} RpTraceOp;

/* wbt (writeback throttling, block/blk-wbt.c) events, counted. */
typedef enum {
  RP_TRACE_WBT_LAT,
  RP_TRACE_WBT_STAT,
  RP_TRACE_WBT_STEP,
  RP_TRACE_WBT_TIMER,
  RP_TRACE_N_WBT,
} RpTraceWbt;

/* Per operation: the series gets the longest request of every 0.1 s
 * (a request over 0.1 s is always its own sample, as the parallel writers'
 * write_latency does) to be drawn; its full statistics every request, for
 * every figure (n, percentiles, counts over the limits: issue 31). */
typedef struct {
  RpSeries      *series;
  RpStreamStats *all;          /* the series' full statistics (it owns them) */
  RpTimeHistogram *windows;    /* every request again, per 0.1 s (it owns them) */
  guint64        completed;
  double       window_end;     /* run clock, s: end of the current 0.1 s */
  double       window_time;    /* issue time of its longest request */
  double       window_latency; /* its latency, s; < 0: window empty */
} RpTraceOpStats;

/* Whose a task is (rp-trace-tasks.c). */
typedef enum {
  RP_TRACE_TASK_OTHER,     /* another program's */
  RP_TRACE_TASK_THREAD,    /* a thread of this process: a load's, a probe's */
  RP_TRACE_TASK_COMMAND,   /* a process of the run's command load */
  RP_TRACE_TASK_CHILD,     /* another process the run started (a program start) */
} RpTraceTaskKind;

/* Everything the event handlers aggregate, owned by the reader. */
typedef struct {
  RpPartHost    *host;
  RpTraceTarget  target;
  double         hz;          /* kernel jiffies per second (CONFIG_HZ): jbd2_run_stats */

  /* The run's own tasks by tid (rp-trace-tasks.c) */
  GHashTable    *own_tasks;

  /* Journal (jbd2): commit start times by transaction id, ns */
  GHashTable    *commit_starts;
  RpSeries      *journal_commit;
  guint64        commits;
  double         commit_seconds;
  guint64        first_tid, last_tid;
  guint64        run_stats;
  double         phase_seconds[4];   /* running, locked, flushing, logging */
  guint64        blocks, blocks_logged, handles;

  /* ext4_sync_file_enter/exit: start times by pid, ns */
  GHashTable    *sync_starts;
  guint64        syncs;
  double         sync_seconds, sync_max;

  /* writeback:balance_dirty_pages: all tasks' pauses, those of other
   * processes than ours, and per task (RpTracePausedTask by pid) */
  RpSeries      *writer_pause;
  RpSeries      *writer_pause_other;
  GHashTable    *paused_tasks;
  guint64        pauses;
  double         pause_seconds, pause_max;

  /* block_rq_issue/complete: issue times by sector and operation, ns */
  GHashTable    *issued;
  GHashTable    *data_completed;   /* sectors of writes whose data completed */
  RpTraceOpStats ops[RP_TRACE_N_OPS];
  guint64        unmatched;

  guint64        wbt[RP_TRACE_N_WBT];
} RpTraceSink;

typedef void (*RpTraceHandler) (RpTraceSink        *sink,
                                struct tep_event   *event,
                                struct tep_record  *record);

/* The handler of one event of the set (rp_trace_event_specs(), which also
 * says its filter), found by system and name in the tep handle. */
typedef struct {
  const char     *system;
  const char     *name;
  RpTraceHandler  handler;
} RpTraceEventInfo;

/* rp-trace-journal.c, rp-trace-block.c and rp-trace-tasks.c: their events */
const RpTraceEventInfo *rp_trace_journal_events (guint *out_n);
const RpTraceEventInfo *rp_trace_block_events   (guint *out_n);
const RpTraceEventInfo *rp_trace_task_events    (guint *out_n);
void                    rp_trace_tasks_init     (RpTraceSink *sink);
RpTraceTaskKind         rp_trace_task_kind      (RpTraceSink  *sink,
                                                 int           tid,
                                                 const char  **out_comm);
double                  rp_trace_pause_seconds  (gint64 pause_ms);
void                    rp_trace_block_flush    (RpTraceSink *sink);
void                    rp_trace_journal_notes  (RpTraceSink *sink);
void                    rp_trace_block_notes    (RpTraceSink *sink);
GHashTable             *rp_trace_paused_tasks_new (void);

/* The sink's series and tables, and their end (rp-trace-reader.c) */
void     rp_trace_sink_init    (RpTraceSink *sink,
                                RpPartHost  *host);
void     rp_trace_sink_clear   (RpTraceSink *sink);

/* Shared helpers (rp-trace-reader.c) */
guint64  rp_trace_field_u64  (struct tep_event  *event,
                              struct tep_record *record,
                              const char        *name);
gint64   rp_trace_field_s64  (struct tep_event  *event,
                              struct tep_record *record,
                              const char        *name);
gboolean rp_trace_field_text (struct tep_event  *event,
                              struct tep_record *record,
                              const char        *name,
                              char              *out,
                              gsize              size);
double   rp_trace_time       (RpTraceSink       *sink,
                              guint64            ts_ns);

G_END_DECLS
