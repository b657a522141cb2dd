/* rp-run-summary.c: the judgement of a run, one for the window, the CLI and exports. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rp-run-summary.h"
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
  g_free (self->kernel_events_unavailable);
  g_free (self->input_clock_unusable);
  g_free (self->cause);
  g_free (self->cause_short);
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
 * before the loads started (%RP_NOTE_STOPPED_WHILE_PREPARING), and
 * whether the window's input events had unusable times
 * (%RP_NOTE_INPUT_CLOCK_STATUS).
 */
void
rp_run_summary_set_notes (RpRunSummary *self,
                          GHashTable   *notes)
{
  const char *gaps = notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_GAPS) : NULL;
  const char *longest = notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_GAP_LONGEST) : NULL;
  const char *input_clock = notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_INPUT_CLOCK_STATUS) : NULL;

  g_return_if_fail (self != NULL);

  /* Range-checked: the notes may be a stranger's (issue 33). */
  if (!rp_parse_note_count (gaps, RP_NOTE_MAX_COUNT, &self->gaps))
    self->gaps = 0;
  if (!rp_parse_note_number (longest, 0, RP_NOTE_MAX_NUMBER, &self->gap_longest))
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
  for (guint i = 0; i < self->n_rows; i++)
    {
      const char *count_note = rp_run_summary_get_row_info (i)->count_note;
      const char *calls = notes != NULL && count_note != NULL ? g_hash_table_lookup (notes, count_note) : NULL;

      if (!rp_parse_note_count (calls, RP_NOTE_MAX_COUNT, &self->calls[i]))
        self->calls[i] = 0;
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
 * rp_run_summary_set_cause_short:
 * @cause_short: (nullable): the dominant cause in a few words, e.g.
 *   "journal commit (89 %)" (rp_report_get_cause_cell()), translated
 *
 * The cause the short verdict names after what stalled.
 */
void
rp_run_summary_set_cause_short (RpRunSummary *self,
                                const char   *cause_short)
{
  g_return_if_fail (self != NULL);

  g_free (self->cause_short);
  self->cause_short = g_strdup (cause_short);
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

/* Whether row @i counts in the judgement and has samples. */
static gboolean
judged_with_samples (const RpRunSummary *self,
                     guint               i)
{
  return (rp_run_summary_get_row_info (i)->flags & RP_SERIES_FLAG_JUDGED) &&
         self->present[i] && self->stats[i].n > 0;
}

/**
 * rp_run_summary_get_severity:
 *
 * The response-time band of the worst delay of the series the parts table
 * marks %RP_SERIES_FLAG_JUDGED: every latency of every probe and load
 * (fsync, write(), the parallel writers' fsyncs, cold reads, program
 * starts, the window's main loop, frames and input …).
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
    if (judged_with_samples (self, i))
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
static const char *
subject_of (const RpSeriesInfo *info)
{
  return info->subject != NULL ? _(info->subject) : _(info->title);
}

/* What a stalled series is, in the words of the headline: a user asks
 * whether the desktop froze or a save waited, not which probe it was. */
typedef enum {
  STALL_OTHER,
  STALL_SAVING,
  STALL_READING,
  STALL_PROGRAMS,
  STALL_WINDOW,
  STALL_DESKTOP,
} StallKind;

static StallKind
stall_kind (const RpSeriesInfo *info)
{
  static const char * const reading[] = { "cold_read_latency", "open_latency", "device_read_latency" };

  /* The window's own probes share one chart: what they measure is this
   * window, not the desktop; the display server's round trip is the
   * desktop. */
  if (g_strcmp0 (info->chart, "ui-latency") == 0)
    return STALL_WINDOW;
  if (g_str_equal (info->name, "display_round_trip"))
    return STALL_DESKTOP;
  if (g_str_has_prefix (info->name, "app_start"))
    return STALL_PROGRAMS;
  for (guint i = 0; i < G_N_ELEMENTS (reading); i++)
    if (g_str_equal (info->name, reading[i]))
      return STALL_READING;
  /* A worker's timer measures the scheduler, not a file. */
  if (g_str_equal (info->name, "timer_lateness"))
    return STALL_OTHER;
  return STALL_SAVING;
}

/* The judged row with the worst delay, or -1. */
static gint
worst_row (const RpRunSummary *self)
{
  gint worst = -1;

  for (guint i = 0; i < self->n_rows; i++)
    if (judged_with_samples (self, i) && (worst < 0 || self->stats[i].max > self->stats[worst].max))
      worst = (gint) i;
  return worst;
}

/**
 * rp_run_summary_get_headline:
 * @finished: as for rp_severity_get_headline()
 *
 * The headline of the verdict, naming what stalled when a delay broke the
 * flow (over 1 s): "Saving files stalled" when the worst delay was a write,
 * an fsync or a save, "This window stalled" when it was the window's own
 * main loop, frames or input, "The desktop stalled" for the display server, so that a red headline
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
  worst = worst_row (self);
  if ((severity != RP_SEVERITY_FLOW && severity != RP_SEVERITY_ATTENTION) || worst < 0)
    return rp_severity_get_headline (severity, finished);
  switch (stall_kind (rp_run_summary_get_row_info ((guint) worst)))
    {
    case STALL_SAVING:
      return severity == RP_SEVERITY_FLOW ? _("Saving files stalled") : _("Saving files stalled severely");
    case STALL_READING:
      return severity == RP_SEVERITY_FLOW ? _("Reading files stalled") : _("Reading files stalled severely");
    case STALL_PROGRAMS:
      return severity == RP_SEVERITY_FLOW ? _("Starting programs stalled") : _("Starting programs stalled severely");
    case STALL_DESKTOP:
      return severity == RP_SEVERITY_FLOW ? _("The desktop stalled") : _("The desktop stalled severely");
    case STALL_WINDOW:
      return severity == RP_SEVERITY_FLOW ? _("This window stalled") : _("This window stalled severely");
    case STALL_OTHER:
    default:
      return rp_severity_get_headline (severity, finished);
    }
}

/* When files stalled while the desktop's own probes stayed under 0.1 s:
 * the sentence that says so, naming the calmest proof (the main loop
 * first), or %NULL. */
static char *
desktop_calm_sentence (const RpRunSummary *self)
{
  gint desktop = -1;
  gboolean other_stalled = FALSE;

  for (guint i = 0; i < self->n_rows; i++)
    {
      const RpSeriesInfo *info = rp_run_summary_get_row_info (i);

      if (!judged_with_samples (self, i))
        continue;
      if (stall_kind (info) != STALL_WINDOW && stall_kind (info) != STALL_DESKTOP)
        other_stalled |= self->stats[i].over_instant > 0;
      else if (self->stats[i].over_instant > 0)
        return NULL;
      else if (desktop < 0 || g_str_equal (info->name, RP_SERIES_MAINLOOP_LATENESS))
        desktop = (gint) i;
    }
  if (!other_stalled || desktop < 0)
    return NULL;
  {
    g_autofree char *worst = rp_format_latency (self->stats[desktop].max);

    /* The subject opens the sentence: subjects are written to start one
     * ("This window’s main loop"), and after a colon it read "…meanwhile:
     * This window’s main loop". */
    /* TRANSLATORS: "This window’s main loop never passed 14.0 ms meanwhile: it
     * stayed responsive." The first %s is a series' subject, the second a duration */
    return g_strdup_printf (_("%s never passed %s meanwhile: it stayed responsive."),
                            subject_of (rp_run_summary_get_row_info ((guint) desktop)), worst);
  }
}


static char *
stall_sentence (const RpSeriesInfo *info,
                gulong              count,
                gulong              total,
                const char         *limit,
                const char         *worst)
{
  /* TRANSLATORS: "Cold reads stalled 7 of 60 times over 0.1 s; worst 615 ms." The
   * first %s is a series' subject (e.g. "fsync of the parallel writers"); the
   * plural follows the total (60) */
  return g_strdup_printf (ngettext ("%s stalled %lu of %lu time over %s; worst %s.",
                                    "%s stalled %lu of %lu times over %s; worst %s.", total),
                          subject_of (info), count, total, limit, worst);
}

/* For a series of window maxima whose call count is not known yet (a live
 * run: the writers count at their end): every stall is a sample of its own,
 * so the count is exact, but the windows are no total to give. */
static char *
untotalled_sentence (const RpSeriesInfo *info,
                     gulong              count,
                     const char         *limit,
                     const char         *worst)
{
  if (count == 0)
    /* TRANSLATORS: "write() calls: none over 0.1 s so far; worst 11.0 ms." The first %s is a series' subject */
    return g_strdup_printf (_("%s: none over %s so far; worst %s."), subject_of (info), limit, worst);
  /* TRANSLATORS: "write() calls stalled 3 times over 0.1 s; worst 615 ms." The
   * first %s is a series' subject; the plural follows the count (3) */
  return g_strdup_printf (ngettext ("%s stalled %lu time over %s; worst %s.",
                                    "%s stalled %lu times over %s; worst %s.", count),
                          subject_of (info), count, limit, worst);
}

static char *
calm_sentence (const RpSeriesInfo *info,
               gulong              total,
               const char         *limit,
               const char         *worst)
{
  /* TRANSLATORS: "Cold reads: none of 60 over 0.1 s; worst 12 ms." The first
   * %s is a series' subject; the plural follows the total (60) */
  return g_strdup_printf (ngettext ("%s: none of %lu over %s; worst %s.",
                                    "%s: none of %lu over %s; worst %s.", total),
                          subject_of (info), total, limit, worst);
}

/* Nielsen's limits: over 1 s breaks the flow of thought, so that count is
 * the one to tell; with none, the count over 0.1 s (no longer instant). */
static char *
series_verdict (const RpSeriesInfo *info,
                const RpStats      *stats,
                guint64             calls)
{
  g_autofree char *worst = rp_format_latency (stats->max);
  double limit = stats->over_flow > 0 ? RP_LIMIT_FLOW : RP_LIMIT_INSTANT;
  guint64 count = stats->over_flow > 0 ? stats->over_flow : stats->over_instant;
  g_autofree char *limit_text = rp_format_limit (limit);
  g_autofree char *sentence = NULL;
  g_autofree char *attention_limit = NULL;
  g_autofree char *attention_sentence = NULL;
  gulong attention, total = (gulong) MIN (stats->n, G_MAXULONG);

  /* A series of window maxima counts windows: the total is its calls. */
  if (info->count_note != NULL)
    total = (gulong) MIN (calls, G_MAXULONG);
  if (info->count_note != NULL && total == 0)
    sentence = untotalled_sentence (info, (gulong) MIN (count, G_MAXULONG), limit_text, worst);
  else if (count == 0)
    return calm_sentence (info, total, limit_text, worst);
  else
    sentence = stall_sentence (info, (gulong) MIN (count, G_MAXULONG), total, limit_text, worst);
  if (count == 0)
    return g_steal_pointer (&sentence);
  if (stats->over_attention == 0)
    return g_steal_pointer (&sentence);

  attention = (gulong) MIN (stats->over_attention, G_MAXULONG);
  attention_limit = rp_format_limit (RP_LIMIT_ATTENTION);
  attention_sentence =
    g_strdup_printf (ngettext ("%lu of them took over %s: long enough to lose the user's attention.",
                               "%lu of them took over %s: long enough to lose the user's attention.",
                               attention),
                     attention, attention_limit);
  return g_strconcat (sentence, " ", attention_sentence, NULL);
}

/**
 * rp_verdict_for_stats:
 * @sysinfo: (nullable): the run's system snapshot (it tells a tmpfs target)
 * @names: (array length=n_series): series names, e.g. %RP_SERIES_FSYNC_LATENCY
 * @stats: (array length=n_series): their statistics, from rp_stats_compute()
 *   or running ones (rp_stream_stats_get())
 * @n_series: how many
 *
 * A few plain sentences for someone who is not a storage expert, one for
 * every series the parts table marks %RP_SERIES_FLAG_JUDGED that @names has
 * with samples (those that stalled first, and among them those a user
 * waits for directly, %RP_SERIES_FLAG_FELT, then by rank), naming it by its
 * @subject and using the limits of
 * rp-stats.h, e.g. "fsync of the parallel writers stalled 39 of 412 times
 * over 0.1 s; worst 278 ms." It reads only the counts,
 * the worst value and the limit counts of @stats, so running statistics,
 * which keep those exactly, give the exact verdict.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_verdict_for_stats (const RpSysinfo    *sysinfo,
                      const char * const *names,
                      const RpStats      *stats,
                      guint               n_series)
{
  g_autoptr(RpRunSummary) summary = rp_run_summary_new ();

  g_return_val_if_fail (names != NULL || n_series == 0, NULL);
  g_return_val_if_fail (stats != NULL || n_series == 0, NULL);

  for (guint row = 0; row < summary->n_rows; row++)
    for (guint i = 0; i < n_series; i++)
      if (g_str_equal (names[i], rp_run_summary_get_row_info (row)->name))
        {
          rp_run_summary_set_row (summary, row, &stats[i]);
          break;
        }
  return rp_run_summary_get_verdict (summary, sysinfo);
}

/**
 * rp_run_summary_get_verdict:
 * @sysinfo: (nullable): the run's system snapshot (it tells a tmpfs target)
 *
 * The verdict of rp_verdict_for_stats() for the summary's rows.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_run_summary_get_verdict (const RpRunSummary *self,
                            const RpSysinfo    *sysinfo)
{
  g_autoptr(GPtrArray) sentences = g_ptr_array_new_with_free_func (g_free);
  guint measured = 0, stalled = 0;

  g_return_val_if_fail (self != NULL, NULL);

  /* What stalled first, then what stayed calm; within each, the series a
   * user waits for directly first: they are what a user notices first. */
  for (guint pass = 0; pass < 4; pass++)
    for (guint i = 0; i < self->n_rows; i++)
      {
        const RpSeriesInfo *info = rp_run_summary_get_row_info (i);
        gboolean felt = (info->flags & RP_SERIES_FLAG_FELT) != 0;
        gboolean stalls;

        if (!judged_with_samples (self, i))
          continue;
        stalls = self->stats[i].over_instant > 0;
        if (stalls != (pass < 2) || felt != (pass % 2 == 0))
          continue;
        measured++;
        if (stalls)
          stalled++;
        g_ptr_array_add (sentences, series_verdict (info, &self->stats[i], self->calls[i]));
      }

  /* A stop before the loads started leaves a sample or two taken without
   * load: calling that "responsive" would mislead, and even a stall in them
   * is no judgement of the load. */
  if (self->stopped_while_preparing)
    {
      if (stalled == 0)
        g_ptr_array_set_size (sentences, 0);
      g_ptr_array_insert (sentences, 0, g_strdup (_("The run was stopped while it was preparing, before its loads started: it measured too little to judge.")));
    }
  else if (measured == 0)
    g_ptr_array_add (sentences, g_strdup (_("No latency was measured, so there is nothing to judge.")));
  else if (stalled == 0)
    {
      /* The short verdict's calm sentence, which says a stopped or failed
       * run was cut short: "the system stayed responsive" misled there. */
      g_ptr_array_set_size (sentences, 0);
      g_ptr_array_add (sentences, rp_run_summary_get_short_verdict (self));
    }
  if (stalled > 0 && self->cause != NULL)
    g_ptr_array_add (sentences, g_strdup (self->cause));
  if (stalled > 0)
    {
      char *calm = desktop_calm_sentence (self);

      if (calm != NULL)
        g_ptr_array_add (sentences, calm);
    }
  /* A frozen probe measures nothing: its hole would read as calm. */
  if (self->gaps > 0)
    {
      g_autofree char *longest = rp_format_latency (self->gap_longest);
      gulong gaps = (gulong) MIN (self->gaps, G_MAXULONG);

      g_ptr_array_add (sentences,
                       g_strdup_printf (ngettext ("The measuring process itself stood still %lu time, for up to %s (stopped, suspended or starved of CPU); nothing was measured meanwhile.",
                                                  "The measuring process itself stood still %lu times, for up to %s (stopped, suspended or starved of CPU); nothing was measured meanwhile.",
                                                  gaps),
                                        gaps, longest));
    }
  /* A calm verdict on tmpfs would mislead: fsync() returned at once
   * because there is no disk behind it. */
  if (measured > 0 && sysinfo != NULL && sysinfo->fsync_is_noop)
    g_ptr_array_add (sentences, g_strdup_printf (_("But the target is on %s, where fsync() does nothing: these fsync times say nothing about a disk."),
                                                 sysinfo->fs_type ? sysinfo->fs_type : "tmpfs"));
  /* One line, and the rest of the run stands: the unprivileged sources
   * measured as always. */
  if (self->kernel_events_unavailable != NULL)
    g_ptr_array_add (sentences,
                     /* TRANSLATORS: %s is why, e.g. "Kernel events need root (or write access to /sys/kernel/tracing/instances)" */
                     g_strdup_printf (_("%s: journal commits and device latency were not recorded."),
                                      self->kernel_events_unavailable));
  /* No input row is not calm input: say why it is missing, as wtype's
   * time 0 left it (issue 19). */
  if (g_strcmp0 (self->input_clock_unusable, RP_INPUT_CLOCK_UNUSABLE_ZERO) == 0)
    g_ptr_array_add (sentences, g_strdup (_("Input events carried no time stamp (time 0, as synthetic input such as wtype sends): input latency was not measured.")));
  else if (self->input_clock_unusable != NULL)
    g_ptr_array_add (sentences, g_strdup (_("Input events carried time stamps of another clock: input latency was not measured.")));
  g_ptr_array_add (sentences, NULL);
  return g_strjoinv (" ", (char **) sentences->pdata);
}


/* The one sentence of what stalled: the worst judged row, how often, its
 * worst and the dominant cause; or the calm or empty run's sentence. */
static char *
short_core (const RpRunSummary *self,
            gboolean            cut_short)
{
  g_autofree char *instant = rp_format_limit (RP_LIMIT_INSTANT);
  gint worst = worst_row (self);
  const RpSeriesInfo *info;
  const RpStats *stats;
  g_autofree char *limit = NULL, *worst_text = NULL;
  gulong count, total;

  if (self->stopped_while_preparing && rp_run_summary_get_severity (self) == RP_SEVERITY_UNKNOWN)
    return g_strdup (_("The run was stopped while it was preparing, before its loads started: it measured too little to judge."));
  if (worst < 0)
    return g_strdup (_("No latency was measured, so there is nothing to judge."));
  if (self->stats[worst].over_instant == 0)
    return cut_short
      /* TRANSLATORS: after "Stopped after 7.0 s of 10.0 s:"; %s is the limit, "0.1 s" */
      ? g_strdup_printf (_("no stalls over %s in that time."), instant)
      : g_strdup_printf (_("No stalls over %s: the system stayed responsive."), instant);

  info = rp_run_summary_get_row_info ((guint) worst);
  stats = &self->stats[worst];
  count = (gulong) MIN (stats->over_flow > 0 ? stats->over_flow : stats->over_instant, G_MAXULONG);
  limit = rp_format_limit (stats->over_flow > 0 ? RP_LIMIT_FLOW : RP_LIMIT_INSTANT);
  worst_text = rp_format_latency (stats->max);
  total = (gulong) MIN (info->count_note != NULL ? self->calls[worst] : stats->n, G_MAXULONG);
  /* A live series of window maxima has no total yet: the count alone. */
  if (total == 0)
    return untotalled_sentence (info, count, limit, worst_text);
  if (self->cause_short == NULL)
    return stall_sentence (info, count, total, limit, worst_text);
  /* TRANSLATORS: "fsync stalled 7 of 60 times over 1 s, worst 9.85 s; cause:
   * journal commit (89 %)." The first %s is a series' subject, the last the
   * dominant cause with its share of the stall time; the plural follows the
   * total (60) */
  return g_strdup_printf (ngettext ("%s stalled %lu of %lu time over %s, worst %s; cause: %s.",
                                    "%s stalled %lu of %lu times over %s, worst %s; cause: %s.", total),
                          subject_of (info), count, total, limit, worst_text, self->cause_short);
}

/**
 * rp_run_summary_get_short_verdict:
 *
 * The verdict in one sentence for the window's card, the CLI's summary and
 * the top of the text and PDF reports: what stalled worst, how often, its
 * worst delay and the dominant cause (rp_run_summary_set_cause_short()),
 * e.g. "fsync stalled 7 of 60 times over 1 s, worst 9.85 s; cause: journal
 * commit (89 %)."; or "No stalls over 0.1 s: the system stayed responsive."
 * A run cut short says so first (rp_run_summary_set_end()): "Stopped after
 * 7.0 s of 10.0 s: no stalls over 0.1 s in that time.", "The run failed
 * after 3.0 s: …", "The load’s command failed, …". The per-probe sentences
 * stay in rp_run_summary_get_verdict().
 *
 * Returns: (transfer full): translated text
 */
char *
rp_run_summary_get_short_verdict (const RpRunSummary *self)
{
  g_autofree char *core = NULL;
  const char *elapsed;
  gboolean stopped, failed;

  g_return_val_if_fail (self != NULL, NULL);

  stopped = g_strcmp0 (self->ended_by, RP_ENDED_BY_REQUEST) == 0 && !self->stopped_while_preparing;
  failed = g_strcmp0 (self->ended_by, RP_ENDED_BY_ERROR) == 0;
  elapsed = self->elapsed != NULL ? self->elapsed : "?";
  core = short_core (self, stopped || failed);
  if (stopped && self->planned != NULL)
    /* TRANSLATORS: "Stopped after 7.0 s of 10.0 s: no stalls over 0.1 s in that time." */
    return g_strdup_printf (_("Stopped after %s of %s: %s"), elapsed, self->planned, core);
  if (stopped)
    /* TRANSLATORS: "Stopped after 7.0 s: no stalls over 0.1 s in that time." */
    return g_strdup_printf (_("Stopped after %s: %s"), elapsed, core);
  if (failed)
    /* TRANSLATORS: "The run failed after 3.0 s: no stalls over 0.1 s in that time." */
    return g_strdup_printf (_("The run failed after %s: %s"), elapsed, core);
  if (self->command_failed)
    /* TRANSLATORS: %s is the verdict's sentence: the run was measured, but not under its load */
    return g_strdup_printf (_("The load’s command failed, so this was not the load asked for. %s"), core);
  return g_steal_pointer (&core);
}
