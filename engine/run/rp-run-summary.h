/* rp-run-summary.h: the judgement of a run, one for the window, the CLI and exports. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-parts.h"
#include "rp-stats.h"
#include "rp-sysinfo.h"

G_BEGIN_DECLS

/**
 * RpSeverity:
 * @RP_SEVERITY_UNKNOWN: nothing measured yet
 * @RP_SEVERITY_INSTANT: the worst delay stayed under 0.1 s
 * @RP_SEVERITY_NOTICEABLE: under 1 s: noticed, but the flow of thought holds
 * @RP_SEVERITY_FLOW: under 10 s: breaks the flow
 * @RP_SEVERITY_ATTENTION: over 10 s: long enough to lose attention
 *
 * The response-time band (Nielsen, "Usability Engineering", 1993, ch. 5)
 * of the worst delay a user would have felt.
 */
typedef enum {
  RP_SEVERITY_UNKNOWN,
  RP_SEVERITY_INSTANT,
  RP_SEVERITY_NOTICEABLE,
  RP_SEVERITY_FLOW,
  RP_SEVERITY_ATTENTION,
} RpSeverity;

/**
 * RpRunSummary:
 * @n_rows: how many rows, rp_run_summary_get_n_rows()
 * @stats: (array length=n_rows): each row's statistics
 * @present: (array length=n_rows): whether the run has that series at all
 * @calls: (array length=n_rows): for a row whose series keeps one sample per
 *   window (its #RpSeriesInfo's @count_note), the exact number of calls
 *   from that note; 0 when every call is a sample or the note is not there
 * @gaps: how often the measuring process itself stood still for over a
 *   second (the system sampler's note %RP_NOTE_GAPS)
 * @gap_longest: the longest of those, seconds
 * @kernel_events_unavailable: (nullable): why kernel events were not
 *   recorded (the note %RP_NOTE_KERNEL_EVENTS_UNAVAILABLE), owned
 * @input_clock_unusable: (nullable): the window's input events had no
 *   usable time (the note %RP_NOTE_INPUT_CLOCK_STATUS:
 *   %RP_INPUT_CLOCK_UNUSABLE_ZERO or %RP_INPUT_CLOCK_UNUSABLE_OTHER), owned
 * @cause: (nullable): a sentence naming why the subject's stalls took their
 *   time (engine/report/rp-report-causes.c), said after the rows' sentences
 * @stopped_while_preparing: the run was stopped before its loads started
 *   (the note %RP_NOTE_STOPPED_WHILE_PREPARING): too little to call calm
 * @row_causes: (array length=n_rows) (nullable): each row's call's own
 *   cause in a few words with its share of its stalls' time, e.g.
 *   "waiting for the journal to commit (89 %)"
 *   (rp_run_summary_set_row_cause()), owned; %NULL where not sampled
 * @frames: frames the window drew (the note "frames"); 0 when unknown
 * @late_frames: of them late (the note "late_frames", or the live count)
 * @in_flight_call: (nullable): while a run goes on, the call in flight
 *   longest over 0.1 s in words, e.g. "fsync", owned
 * @in_flight_seconds: how long it has been in flight
 * @live: the run goes on: the judgement says "so far"
 * @ended_by: (nullable): why the run ended, an RP_ENDED_BY_* of the note
 *   "ended_by"; %NULL while it goes on, owned
 * @elapsed: (nullable): how long the run lasted, e.g. "7.0 s", owned
 * @planned: (nullable): how long its scenario asked for; %NULL: until
 *   stopped, owned
 * @command_failed: a command of the load (`--command`) failed by itself
 *
 * The statistics of the summary's rows: every series of the parts table
 * marked %RP_SERIES_FLAG_IN_SUMMARY, in rank order. Filled from a report's
 * exact statistics or from running ones; the severity and the verdict read
 * only counts, maxima and counts over the limits, which running
 * statistics keep exactly.
 */
typedef struct {
  guint     n_rows;
  RpStats  *stats;
  gboolean *present;
  guint64  *calls;
  guint64   gaps;
  double    gap_longest;
  char     *kernel_events_unavailable;
  char     *input_clock_unusable;
  char     *cause;
  gboolean  stopped_while_preparing;
  char    **row_causes;
  guint64   frames;
  guint64   late_frames;
  char     *in_flight_call;
  double    in_flight_seconds;
  gboolean  live;
  char     *ended_by;
  char     *elapsed;
  char     *planned;
  gboolean  command_failed;
} RpRunSummary;

guint               rp_run_summary_get_n_rows     (void);
const RpSeriesInfo *rp_run_summary_get_row_info   (guint               row);

RpRunSummary       *rp_run_summary_new            (void);
void                rp_run_summary_free           (RpRunSummary       *self);
void                rp_run_summary_set_row        (RpRunSummary       *self,
                                                   guint               row,
                                                   const RpStats      *stats);
void                rp_run_summary_set_notes      (RpRunSummary       *self,
                                                   GHashTable         *notes);
void                rp_run_summary_set_cause      (RpRunSummary       *self,
                                                   const char         *cause);
void                rp_run_summary_set_end        (RpRunSummary       *self,
                                                   const char         *ended_by,
                                                   const char         *elapsed,
                                                   const char         *planned,
                                                   gboolean            command_failed);
void                rp_run_summary_set_row_cause  (RpRunSummary       *self,
                                                   guint               row,
                                                   const char         *cause_short);
void                rp_run_summary_set_late_frames (RpRunSummary      *self,
                                                   guint64             frames,
                                                   guint64             late_frames);
void                rp_run_summary_set_in_flight  (RpRunSummary       *self,
                                                   const char         *call_name,
                                                   double              seconds);
void                rp_run_summary_set_live       (RpRunSummary       *self,
                                                   gboolean            live);
gint                rp_run_summary_get_subject    (const RpRunSummary *self);
char               *rp_run_summary_get_short_verdict (const RpRunSummary *self);
gboolean            rp_run_summary_has_samples    (const RpRunSummary *self);
RpSeverity          rp_run_summary_get_severity   (const RpRunSummary *self);
char               *rp_run_summary_get_verdict    (const RpRunSummary *self,
                                                   const RpSysinfo    *sysinfo);
const char         *rp_severity_get_headline      (RpSeverity          severity,
                                                   gboolean            finished);
const char         *rp_run_summary_get_headline   (const RpRunSummary *self,
                                                   gboolean            finished);

char               *rp_verdict_for_stats          (const RpSysinfo    *sysinfo,
                                                   const char * const *names,
                                                   const RpStats      *stats,
                                                   guint               n_series);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpRunSummary, rp_run_summary_free)

G_END_DECLS
