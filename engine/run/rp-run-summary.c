/* rp-run-summary.c: the judgement of a run, one for the window, the CLI and exports. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rp-run-summary-private.h"
#include "rp-session.h"
#include "rp-units.h"

static gboolean
in_summary (const RpSeriesInfo *info,
            gconstpointer       data)
{
  return (info->flags & RP_SERIES_FLAG_IN_SUMMARY) != 0;
}

/* The rows: the series the parts table puts in the summary, by rank. */
static GPtrArray *
rows (void)
{
  static GPtrArray *infos;
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      infos = rp_parts_find_series (in_summary, NULL);
      g_once_init_leave (&initialized, 1);
    }
  return infos;
}

/**
 * rp_run_summary_get_n_rows:
 *
 * Returns: how many rows a summary has (the same for every run)
 */
guint
rp_run_summary_get_n_rows (void)
{
  return rows ()->len;
}

/**
 * rp_run_summary_get_row_info:
 * @row: 0 .. rp_run_summary_get_n_rows() − 1
 *
 * Returns: (transfer none): the series of that row; its @legend is the
 *   row's label and its @description the tooltip
 */
const RpSeriesInfo *
rp_run_summary_get_row_info (guint row)
{
  g_return_val_if_fail (row < rows ()->len, NULL);
  return g_ptr_array_index (rows (), row);
}

/**
 * rp_run_summary_new:
 *
 * Returns: (transfer full): a summary with no row present
 */
RpRunSummary *
rp_run_summary_new (void)
{
  RpRunSummary *self = g_new0 (RpRunSummary, 1);

  self->n_rows = rp_run_summary_get_n_rows ();
  self->stats = g_new0 (RpStats, self->n_rows);
  self->present = g_new0 (gboolean, self->n_rows);
  self->calls = g_new0 (guint64, self->n_rows);
  self->row_causes = g_new0 (char *, self->n_rows);
  return self;
}

void
rp_run_summary_free (RpRunSummary *self)
{
  if (self == NULL)
    return;
  g_free (self->stats);
  g_free (self->present);
  g_free (self->calls);
  for (guint i = 0; i < self->n_rows; i++)
    g_free (self->row_causes[i]);
  g_free (self->row_causes);
  g_free (self->in_flight_call);
  g_free (self->kernel_events_unavailable);
  g_free (self->input_clock_unusable);
  g_free (self->cause);
  g_free (self->ended_by);
  g_free (self->elapsed);
  g_free (self->planned);
  g_free (self);
}

/**
 * rp_run_summary_set_row:
 * @row: 0 .. @n_rows − 1
 * @stats: (nullable): the statistics of the row's series; %NULL: the run
 *   has no such series
 */
void
rp_run_summary_set_row (RpRunSummary  *self,
                        guint          row,
                        const RpStats *stats)
{
  g_return_if_fail (self != NULL && row < self->n_rows);

  self->present[row] = stats != NULL;
  if (stats != NULL)
    self->stats[row] = *stats;
  else
    memset (&self->stats[row], 0, sizeof self->stats[row]);
}

/**
 * rp_run_summary_set_notes:
 * @notes: (element-type utf8 utf8) (nullable): the run's notes
 *
 * Takes from @notes the exact number of calls of the rows whose series keep
 * one sample per window (#RpSeriesInfo's @count_note), and what the verdict
 * says beside the rows: the measuring
 * process's own freezes (%RP_NOTE_GAPS, %RP_NOTE_GAP_LONGEST), why
 * kernel events are missing (%RP_NOTE_KERNEL_EVENTS_UNAVAILABLE), a stop
 * before the loads started (%RP_NOTE_STOPPED_WHILE_PREPARING), whether
 * the window's input events had unusable times
 * (%RP_NOTE_INPUT_CLOCK_STATUS), and the window's frames and late frames
 * ("frames", "late_frames", noted at its end).
 */
void
rp_run_summary_set_notes (RpRunSummary *self,
                          GHashTable   *notes)
{
  const char *gaps = notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_GAPS) : NULL;
  const char *longest = notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_GAP_LONGEST) : NULL;
  const char *input_clock = notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_INPUT_CLOCK_STATUS) : NULL;

  g_return_if_fail (self != NULL);

  self->gaps = gaps != NULL ? g_ascii_strtoull (gaps, NULL, 10) : 0;
  self->gap_longest = longest != NULL ? g_ascii_strtod (longest, NULL) : 0;
  if (!isfinite (self->gap_longest) || self->gap_longest < 0)
    self->gap_longest = 0;
  g_free (self->kernel_events_unavailable);
  self->kernel_events_unavailable =
    notes != NULL ? g_strdup (g_hash_table_lookup (notes, RP_NOTE_KERNEL_EVENTS_UNAVAILABLE)) : NULL;
  g_free (self->input_clock_unusable);
  self->input_clock_unusable = NULL;
  if (g_strcmp0 (input_clock, RP_INPUT_CLOCK_UNUSABLE_ZERO) == 0 ||
      g_strcmp0 (input_clock, RP_INPUT_CLOCK_UNUSABLE_OTHER) == 0)
    self->input_clock_unusable = g_strdup (input_clock);
  self->stopped_while_preparing =
    notes != NULL && g_strcmp0 (g_hash_table_lookup (notes, RP_NOTE_STOPPED_WHILE_PREPARING), "true") == 0;
  {
    const char *frames = notes != NULL ? g_hash_table_lookup (notes, "frames") : NULL;
    const char *late = notes != NULL ? g_hash_table_lookup (notes, "late_frames") : NULL;

    if (late != NULL)
      rp_run_summary_set_late_frames (self, frames != NULL ? g_ascii_strtoull (frames, NULL, 10) : 0,
                                      g_ascii_strtoull (late, NULL, 10));
  }
  for (guint i = 0; i < self->n_rows; i++)
    {
      const char *count_note = rp_run_summary_get_row_info (i)->count_note;
      const char *calls = notes != NULL && count_note != NULL ? g_hash_table_lookup (notes, count_note) : NULL;

      self->calls[i] = calls != NULL ? g_ascii_strtoull (calls, NULL, 10) : 0;
    }
}

/**
 * rp_run_summary_set_cause:
 * @cause: (nullable): translated sentence, e.g. "In its worst stall, fsync
 *   spent 9.70 s of 9.85 s waiting for the journal commit; …"
 *
 * The hook through which stall attribution (rp_report_get_stall_cause())
 * adds why to the verdict: said after the rows' sentences when a felt
 * series stalled.
 */
void
rp_run_summary_set_cause (RpRunSummary *self,
                          const char   *cause)
{
  g_return_if_fail (self != NULL);

  g_free (self->cause);
  self->cause = g_strdup (cause);
}

/**
 * rp_run_summary_set_end:
 * @ended_by: (nullable): why the run ended (RP_ENDED_BY_*); %NULL while it
 *   goes on
 * @elapsed: (nullable): how long it lasted in words, e.g. "7.0 s"
 * @planned: (nullable): how long its scenario asked for in words; %NULL
 *   for "until stopped"
 * @command_failed: a command of its load failed by itself (the CLI's exit 4)
 *
 * How the run ended, so that the short verdict says a stopped, failed or
 * wrongly loaded run was one: "Stopped after 7.0 s of 10.0 s: …". The
 * report formats the durations (rp_report_format_duration()'s words).
 */
void
rp_run_summary_set_end (RpRunSummary *self,
                        const char   *ended_by,
                        const char   *elapsed,
                        const char   *planned,
                        gboolean      command_failed)
{
  g_return_if_fail (self != NULL);

  g_free (self->ended_by);
  self->ended_by = g_strdup (ended_by);
  g_free (self->elapsed);
  self->elapsed = g_strdup (elapsed);
  g_free (self->planned);
  self->planned = g_strdup (planned);
  self->command_failed = command_failed;
}

/**
 * rp_run_summary_set_row_cause:
 * @row: 0 .. @n_rows − 1
 * @cause_short: (nullable): the cause of that row's own stalls in a few
 *   words with its share, e.g. "waiting for the journal to commit (89 %)"
 *   (rp_stalls_get_call_cause_short()), translated; %NULL: none sampled
 *
 * The cause the short verdict names after the row when the row is its
 * subject: each subject its own cause, never another call's.
 */
void
rp_run_summary_set_row_cause (RpRunSummary *self,
                              guint         row,
                              const char   *cause_short)
{
  g_return_if_fail (self != NULL && row < self->n_rows);

  g_free (self->row_causes[row]);
  self->row_causes[row] = g_strdup (cause_short);
}

/**
 * rp_run_summary_set_late_frames:
 * @frames: frames the window drew, 0 when not known (a run that goes on)
 * @late_frames: how many of them were late
 *
 * The window's late frames, said after the verdict's sentences; a report
 * has them in its notes (rp_run_summary_set_notes()), a live run counts
 * its late-frame series.
 */
void
rp_run_summary_set_late_frames (RpRunSummary *self,
                                guint64       frames,
                                guint64       late_frames)
{
  g_return_if_fail (self != NULL);

  self->frames = frames;
  self->late_frames = late_frames;
}

/**
 * rp_run_summary_set_in_flight:
 * @call_name: (nullable): the call in flight longest over 0.1 s in words,
 *   e.g. "fsync" (rp_stall_call_name()); %NULL: none
 * @seconds: how long it has been in flight
 *
 * While a run goes on, the worst moment is often one that has not ended,
 * which no statistic has yet: the verdicts say it last.
 */
void
rp_run_summary_set_in_flight (RpRunSummary *self,
                              const char   *call_name,
                              double        seconds)
{
  g_return_if_fail (self != NULL);

  g_free (self->in_flight_call);
  self->in_flight_call = g_strdup (call_name);
  self->in_flight_seconds = seconds;
}

/**
 * rp_run_summary_set_live:
 * @live: the run goes on
 *
 * A live judgement says what it has seen "so far", never that the system
 * "stayed" responsive.
 */
void
rp_run_summary_set_live (RpRunSummary *self,
                         gboolean      live)
{
  g_return_if_fail (self != NULL);
  self->live = live;
}

/**
 * rp_run_summary_has_samples:
 *
 * Returns: whether any row has a sample
 */
gboolean
rp_run_summary_has_samples (const RpRunSummary *self)
{
  for (guint i = 0; i < self->n_rows; i++)
    if (self->present[i] && self->stats[i].n > 0)
      return TRUE;
  return FALSE;
}

/* Whether row @i is a subject of the judgement, something a user waits
 * for, and has samples: a kernel series is a cause, never a subject. */
gboolean
rp_run_summary_judged_with_samples (const RpRunSummary *self,
                     guint               i)
{
  RpSeriesFlags flags = rp_run_summary_get_row_info (i)->flags;

  return (flags & RP_SERIES_FLAG_JUDGED) && !(flags & RP_SERIES_FLAG_CAUSE) &&
         self->present[i] && self->stats[i].n > 0;
}

/* Whether row @i is a kernel series that explains (a cause) with samples. */
gboolean
rp_run_summary_cause_with_samples (const RpRunSummary *self,
                    guint               i)
{
  return (rp_run_summary_get_row_info (i)->flags & RP_SERIES_FLAG_CAUSE) && self->present[i] &&
         self->stats[i].n > 0;
}

/**
 * rp_run_summary_get_severity:
 *
 * The response-time band of the worst delay of the series the parts table
 * marks %RP_SERIES_FLAG_JUDGED, but for the kernel's (%RP_SERIES_FLAG_CAUSE):
 * every latency a user or a program waits for (fsync, write(), the parallel
 * writers' fsyncs, cold reads, program starts, the window's main loop,
 * frames and input …).
 *
 * A run stopped while it prepared whose few samples were all instant is
 * %RP_SEVERITY_UNKNOWN too: a sample or two before the loads started is no
 * "Responsive" (the verdict says why).
 *
 * Returns: the severity; %RP_SEVERITY_UNKNOWN while none of them has a sample
 */
RpSeverity
rp_run_summary_get_severity (const RpRunSummary *self)
{
  double worst = -1;

  g_return_val_if_fail (self != NULL, RP_SEVERITY_UNKNOWN);

  for (guint i = 0; i < self->n_rows; i++)
    if (rp_run_summary_judged_with_samples (self, i))
      worst = MAX (worst, self->stats[i].max);

  if (worst < 0)
    return RP_SEVERITY_UNKNOWN;
  if (worst <= RP_LIMIT_INSTANT)
    return self->stopped_while_preparing ? RP_SEVERITY_UNKNOWN : RP_SEVERITY_INSTANT;
  if (worst <= RP_LIMIT_FLOW)
    return RP_SEVERITY_NOTICEABLE;
  if (worst <= RP_LIMIT_ATTENTION)
    return RP_SEVERITY_FLOW;
  return RP_SEVERITY_ATTENTION;
}

/**
 * rp_severity_get_headline:
 * @finished: whether the run is over (a report): then %RP_SEVERITY_UNKNOWN
 *   means that it measured no latency, not that it is still measuring
 *
 * Returns: (transfer none): a translated headline, e.g. "Responsive"
 */
const char *
rp_severity_get_headline (RpSeverity severity,
                          gboolean   finished)
{
  switch (severity)
    {
    case RP_SEVERITY_INSTANT:
      /* A live run has not earned the past tense: at 2 s, before its first
       * fsync, "Responsive" read as a verdict (issue 21's re-check). */
      return finished ? _("Responsive") : _("Responsive so far");
    case RP_SEVERITY_NOTICEABLE:
      return _("Noticeable delays");
    case RP_SEVERITY_FLOW:
      return _("Stalls that break the flow");
    case RP_SEVERITY_ATTENTION:
      return _("Severe stalls");
    case RP_SEVERITY_UNKNOWN:
    default:
      return finished ? _("No latency measured") : _("Measuring…");
    }
}

/* The series' subject ("Cold reads") in the user's language. */
const char *
rp_run_summary_subject_of (const RpSeriesInfo *info)
{
  return info->subject != NULL ? _(info->subject) : _(info->title);
}

/* What a stalled series is, in the words of the headline: a user asks
 * whether the desktop froze or a save waited, not which probe it was. */
RpStallKind
rp_run_summary_stall_kind (const RpSeriesInfo *info)
{
  static const char * const reading[] = { "cold_read_latency", "open_latency", "read_latency" };

  /* The window's own probes share one chart: what they measure is this
   * window, not the desktop; the display server's round trip is the
   * desktop. */
  if (g_strcmp0 (info->chart, "ui-latency") == 0)
    return RP_STALL_WINDOW;
  if (g_str_equal (info->name, "display_round_trip"))
    return RP_STALL_DESKTOP;
  if (g_str_has_prefix (info->name, "app_start"))
    return RP_STALL_PROGRAMS;
  for (guint i = 0; i < G_N_ELEMENTS (reading); i++)
    if (g_str_equal (info->name, reading[i]))
      return RP_STALL_READING;
  /* A worker's timer measures the scheduler, not a file. */
  if (g_str_equal (info->name, "timer_lateness"))
    return RP_STALL_OTHER;
  return RP_STALL_SAVING;
}

/**
 * rp_run_summary_get_subject:
 *
 * The subject of the judgement: the row of what a user or a program waited
 * for (never a kernel series: those are causes) with the worst delay; of
 * equal ones the one a user waits for directly (%RP_SERIES_FLAG_FELT), then
 * the first by rank. The headline and the short verdict name it, with its
 * own cause.
 *
 * Returns: the row, or -1 while no such row has a sample
 */
gint
rp_run_summary_get_subject (const RpRunSummary *self)
{
  gint worst = -1;

  g_return_val_if_fail (self != NULL, -1);

  for (guint i = 0; i < self->n_rows; i++)
    {
      gboolean felt, worst_felt;

      if (!rp_run_summary_judged_with_samples (self, i))
        continue;
      if (worst < 0 || self->stats[i].max > self->stats[worst].max)
        {
          worst = (gint) i;
          continue;
        }
      felt = (rp_run_summary_get_row_info (i)->flags & RP_SERIES_FLAG_FELT) != 0;
      worst_felt = (rp_run_summary_get_row_info ((guint) worst)->flags & RP_SERIES_FLAG_FELT) != 0;
      if (self->stats[i].max == self->stats[worst].max && felt && !worst_felt)
        worst = (gint) i;
    }
  return worst;
}

/**
 * rp_run_summary_get_headline:
 * @finished: as for rp_severity_get_headline()
 *
 * The headline of the verdict, naming what stalled when a delay broke the
 * flow (over 1 s): "Saving files stalled" when the worst delay was a write,
 * an fsync or a save, "The probe window stalled" when it was the probe
 * window's main loop, frames or input (a small window that stands for any
 * application, app/canary), "The desktop stalled" for the display server, so that a red headline
 * over a calm desktop does not read as if the desktop froze; "Stopped before
 * it measured" for a run stopped while it prepared. Otherwise
 * rp_severity_get_headline() of rp_run_summary_get_severity().
 *
 * Returns: (transfer none): a translated headline
 */
const char *
rp_run_summary_get_headline (const RpRunSummary *self,
                             gboolean            finished)
{
  RpSeverity severity;
  gint worst;

  g_return_val_if_fail (self != NULL, NULL);

  severity = rp_run_summary_get_severity (self);
  if (self->stopped_while_preparing && severity == RP_SEVERITY_UNKNOWN)
    return _("Stopped before it measured");
  worst = rp_run_summary_get_subject (self);
  if ((severity != RP_SEVERITY_FLOW && severity != RP_SEVERITY_ATTENTION) || worst < 0)
    return rp_severity_get_headline (severity, finished);
  switch (rp_run_summary_stall_kind (rp_run_summary_get_row_info ((guint) worst)))
    {
    case RP_STALL_SAVING:
      return severity == RP_SEVERITY_FLOW ? _("Saving files stalled") : _("Saving files stalled severely");
    case RP_STALL_READING:
      return severity == RP_SEVERITY_FLOW ? _("Reading files stalled") : _("Reading files stalled severely");
    case RP_STALL_PROGRAMS:
      return severity == RP_SEVERITY_FLOW ? _("Starting programs stalled") : _("Starting programs stalled severely");
    case RP_STALL_DESKTOP:
      return severity == RP_SEVERITY_FLOW ? _("The desktop stalled") : _("The desktop stalled severely");
    case RP_STALL_WINDOW:
      return severity == RP_SEVERITY_FLOW ? _("The probe window stalled") : _("The probe window stalled severely");
    case RP_STALL_OTHER:
    default:
      return rp_severity_get_headline (severity, finished);
    }
}

