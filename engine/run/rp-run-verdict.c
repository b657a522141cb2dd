/* rp-run-verdict.c: the judgement's sentences: the verdict and the short verdict of a run summary. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-run-summary-private.h"
#include "rp-session.h"
#include "rp-units.h"

/* The kernel series that took over 0.1 s, said as what they are: causes
 * beneath the subjects' stalls, never stalls a user waited for (issue 31:
 * "Journal commits stalled 4 of 7 …" headed a run of cold reads), e.g.
 * "Journal commits took over 0.1 s 4 times (worst 3.20 s)." The count of
 * events only: a device series keeps window maxima, no total of requests.
 * %NULL when none did. */
static char *
causes_sentence (const RpRunSummary *self)
{
  g_autoptr(GPtrArray) sentences = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *limit = rp_format_limit (RP_LIMIT_INSTANT);

  for (guint i = 0; i < self->n_rows; i++)
    {
      const RpSeriesInfo *info = rp_run_summary_get_row_info (i);
      g_autofree char *worst = NULL;
      gulong count;

      if (!rp_run_summary_cause_with_samples (self, i) || self->stats[i].over_instant == 0)
        continue;
      count = (gulong) MIN (self->stats[i].over_instant, G_MAXULONG);
      worst = rp_format_latency (self->stats[i].max);
      /* TRANSLATORS: a cause beneath the stalls: "Journal commits took over
       * 0.1 s 4 times (worst 3.20 s)." The first %s is a kernel series'
       * subject, the plural follows the count (4) */
      g_ptr_array_add (sentences, g_strdup_printf (ngettext ("%s took over %s %lu time (worst %s).",
                                                             "%s took over %s %lu times (worst %s).", count),
                                                   _(info->subject), limit, count, worst));
    }
  if (sentences->len == 0)
    return NULL;
  g_ptr_array_add (sentences, NULL);
  return g_strjoinv (" ", (char **) sentences->pdata);
}

static char *
late_frames_sentence (const RpRunSummary *self)
{
  gulong late = (gulong) MIN (self->late_frames, G_MAXULONG);

  if (self->frames > 0)
    return g_strdup_printf (ngettext ("%lu of %lu frames was late.", "%lu of %lu frames were late.", late),
                            late, (gulong) MIN (self->frames, G_MAXULONG));
  return g_strdup_printf (ngettext ("%lu frame was late.", "%lu frames were late.", late), late);
}

static char *
in_flight_sentence (const RpRunSummary *self)
{
  g_autofree char *seconds = rp_format_latency (self->in_flight_seconds);

  /* TRANSLATORS: after the live verdict: "Right now fsync has not returned for 8.20 s." */
  return g_strdup_printf (_("Right now %s has not returned for %s."), self->in_flight_call, seconds);
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

      if (!rp_run_summary_judged_with_samples (self, i))
        continue;
      if (rp_run_summary_stall_kind (info) != RP_STALL_WINDOW && rp_run_summary_stall_kind (info) != RP_STALL_DESKTOP)
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
     * ("The probe window’s main loop"), and after a colon it read "…meanwhile:
     * The probe window’s main loop". */
    /* TRANSLATORS: "The probe window’s main loop never passed 14.0 ms meanwhile: it
     * stayed responsive." The first %s is a series' subject, the second a duration */
    return g_strdup_printf (_("%s never passed %s meanwhile: it stayed responsive."),
                            rp_run_summary_subject_of (rp_run_summary_get_row_info ((guint) desktop)), worst);
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
                          rp_run_summary_subject_of (info), count, total, limit, worst);
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
    return g_strdup_printf (_("%s: none over %s so far; worst %s."), rp_run_summary_subject_of (info), limit, worst);
  /* TRANSLATORS: "write() calls stalled 3 times over 0.1 s; worst 615 ms." The
   * first %s is a series' subject; the plural follows the count (3) */
  return g_strdup_printf (ngettext ("%s stalled %lu time over %s; worst %s.",
                                    "%s stalled %lu times over %s; worst %s.", count),
                          rp_run_summary_subject_of (info), count, limit, worst);
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
                          rp_run_summary_subject_of (info), total, limit, worst);
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

        if (!rp_run_summary_judged_with_samples (self, i))
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
  if (stalled > 0)
    {
      char *beneath = causes_sentence (self);

      if (beneath != NULL)
        g_ptr_array_add (sentences, beneath);
    }
  if (stalled > 0 && self->cause != NULL)
    g_ptr_array_add (sentences, g_strdup (self->cause));
  if (stalled > 0)
    {
      char *calm = desktop_calm_sentence (self);

      if (calm != NULL)
        g_ptr_array_add (sentences, calm);
    }
  if (self->late_frames > 0)
    g_ptr_array_add (sentences, late_frames_sentence (self));
  if (self->in_flight_call != NULL)
    g_ptr_array_add (sentences, in_flight_sentence (self));
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
  gint worst = rp_run_summary_get_subject (self);
  const RpSeriesInfo *info;
  const RpStats *stats;
  g_autofree char *limit = NULL, *worst_text = NULL;
  gulong count, total;

  if (self->stopped_while_preparing && rp_run_summary_get_severity (self) == RP_SEVERITY_UNKNOWN)
    return g_strdup (_("The run was stopped while it was preparing, before its loads started: it measured too little to judge."));
  if (worst < 0)
    return g_strdup (_("No latency was measured, so there is nothing to judge."));
  /* While it runs, what has been seen so far, not "stayed responsive". */
  if (self->stats[worst].over_instant == 0 && self->live)
    /* TRANSLATORS: the card's sentence during a run; %s is the limit, "0.1 s" */
    return g_strdup_printf (_("No stalls over %s so far."), instant);
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
  /* The subject's own cause: a row without sampled stalls (the window's
   * frames, which no timed call measures) gets none, never another's. */
  if (self->row_causes[worst] == NULL)
    return stall_sentence (info, count, total, limit, worst_text);
  /* TRANSLATORS: "fsync stalled 7 of 60 times over 1 s, worst 9.85 s; cause:
   * waiting for the journal to commit (89 %)." The first %s is a series'
   * subject, the last the cause of its own stalls with its share of their
   * time; the plural follows the total (60) */
  return g_strdup_printf (ngettext ("%s stalled %lu of %lu time over %s, worst %s; cause: %s.",
                                    "%s stalled %lu of %lu times over %s, worst %s; cause: %s.", total),
                          rp_run_summary_subject_of (info), count, total, limit, worst_text, self->row_causes[worst]);
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
  g_autofree char *core = NULL, *sentence = NULL;
  const char *elapsed;
  gboolean stopped, failed;

  g_return_val_if_fail (self != NULL, NULL);

  stopped = g_strcmp0 (self->ended_by, RP_ENDED_BY_REQUEST) == 0 && !self->stopped_while_preparing;
  failed = g_strcmp0 (self->ended_by, RP_ENDED_BY_ERROR) == 0;
  elapsed = self->elapsed != NULL ? self->elapsed : "?";
  core = short_core (self, stopped || failed);
  if (stopped && self->planned != NULL)
    /* TRANSLATORS: "Stopped after 7.0 s of 10.0 s: no stalls over 0.1 s in that time." */
    sentence = g_strdup_printf (_("Stopped after %s of %s: %s"), elapsed, self->planned, core);
  else if (stopped)
    /* TRANSLATORS: "Stopped after 7.0 s: no stalls over 0.1 s in that time." */
    sentence = g_strdup_printf (_("Stopped after %s: %s"), elapsed, core);
  else if (failed)
    /* TRANSLATORS: "The run failed after 3.0 s: no stalls over 0.1 s in that time." */
    sentence = g_strdup_printf (_("The run failed after %s: %s"), elapsed, core);
  else if (self->command_failed)
    /* TRANSLATORS: %s is the verdict's sentence: the run was measured, but not under its load */
    sentence = g_strdup_printf (_("The load’s command failed, so this was not the load asked for. %s"), core);
  else
    sentence = g_steal_pointer (&core);
  /* A call still in flight is the worst moment of a live run. */
  if (self->in_flight_call != NULL)
    {
      g_autofree char *in_flight = in_flight_sentence (self);

      return g_strconcat (sentence, " ", in_flight, NULL);
    }
  return g_steal_pointer (&sentence);
}
