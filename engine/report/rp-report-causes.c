/* rp-report-causes.c: each stall's causes decided by the run's evidence, per call and in words. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rp-parts.h"
#include "rp-report-private.h"
#include "rp-report-stalls.h"
#include "rp-units.h"

/* A disk that wrote at least this many bytes a second while a read waited
 * had writes queued before it. The background writes of an otherwise idle
 * desktop (journal commits, atime) stay far below: 5-second commits of a
 * few metadata blocks. */
#define WRITING_MIN_RATE (1024.0 * 1024.0)

/* The disk sampler's period past a stall's end (rp-report-private.h). */
#define PERIOD_SLACK RP_REPORT_PERIOD_SLACK

/* The mean of @series' samples from @from to @to; NAN without one. From
 * the series' block summaries (rp_series_decimate(), one column): a report
 * of thousands of stalls asks once per stall, and a copy of a day's series
 * each time cost seconds. */
static double
mean_in (RpSeries *series,
         double    from,
         double    to)
{
  RpColumn column;

  rp_series_decimate (series, from, to, 1, &column);
  return column.n > 0 && isfinite (column.mean) ? column.mean : NAN;
}

/* Whether the disk under the call's file wrote meanwhile: a load's call is
 * on the loads' disk where they have one of their own (the disk sampler's
 * load_disk_* series), a probe's on the target's (disk_*). A call with no
 * file of its own (a wait: the probe window's frames, its main loop) has
 * no disk: a page it faults in may come from any, so its read is never
 * said to be behind the target's writes (the oracle's read from an
 * emulated usb2-stick was called "behind writes" for the writes of the
 * target's disk). */
static RpEvidence
device_writing (RpSeriesLookupFunc  lookup,
                gpointer            owner,
                const RpStall      *stall,
                const RpPartInfo   *part,
                RpCallKind          kind)
{
  RpSeries *rate = NULL;
  double mean;

  if (kind == RP_CALL_KIND_WAIT || kind == RP_CALL_KIND_UNKNOWN)
    return RP_EVIDENCE_UNKNOWN;
  if (part != NULL && part->role == RP_PART_LOAD)
    rate = lookup (owner, "load_disk_write_throughput");
  if (rate == NULL)
    rate = lookup (owner, "disk_write_throughput");
  if (rate == NULL)
    return RP_EVIDENCE_UNKNOWN;
  mean = mean_in (rate, stall->start, stall->start + stall->duration + PERIOD_SLACK);
  if (isnan (mean))
    return RP_EVIDENCE_UNKNOWN;
  return mean >= WRITING_MIN_RATE ? RP_EVIDENCE_YES : RP_EVIDENCE_NO;
}

/**
 * rp_stall_evidence_from:
 * @lookup: finds a series by name in @owner (rp_stall_meanwhile_from())
 * @owner: the report or the session
 * @sysinfo: (nullable): the run's system snapshot
 * @stall: a stall of @owner's
 * @out: (out caller-allocates): the evidence
 *
 * What the run recorded that decides a stall's causes beyond its wait
 * sites (rp_cause_of_site()): what the call does (its series' row in the
 * parts table), whether the disk under its file wrote meanwhile (the disk
 * sampler's write rate over the stall), and whether that disk throttles
 * writeback (the snapshot's wbt_lat_usec).
 */
void
rp_stall_evidence_from (RpSeriesLookupFunc  lookup,
                        gpointer            owner,
                        const RpSysinfo    *sysinfo,
                        const RpStall      *stall,
                        RpCauseEvidence    *out)
{
  const RpPartInfo *part = NULL;
  const RpSeriesInfo *info;

  g_return_if_fail (stall != NULL && out != NULL);

  info = rp_parts_lookup_series (stall->series, &part);
  out->kind = info != NULL ? info->call_kind : RP_CALL_KIND_UNKNOWN;
  out->device_writing = lookup != NULL ? device_writing (lookup, owner, stall, part, out->kind) : RP_EVIDENCE_UNKNOWN;
  out->wbt = RP_EVIDENCE_UNKNOWN;
  if (sysinfo != NULL && sysinfo->wbt_lat_usec != NULL && g_ascii_isdigit (sysinfo->wbt_lat_usec[0]))
    out->wbt = g_ascii_strtoull (sysinfo->wbt_lat_usec, NULL, 10) > 0 ? RP_EVIDENCE_YES : RP_EVIDENCE_NO;
}

static RpSeries *
lookup_in_report (gpointer    owner,
                  const char *name)
{
  return rp_report_lookup_series (owner, name);
}

/**
 * rp_report_stall_evidence:
 * @stall: one of the report's stalls
 * @out: (out caller-allocates): its evidence (rp_stall_evidence_from())
 */
void
rp_report_stall_evidence (RpReport        *self,
                          const RpStall   *stall,
                          RpCauseEvidence *out)
{
  g_return_if_fail (RP_IS_REPORT (self));
  rp_stall_evidence_from (lookup_in_report, self, self->sysinfo, stall, out);
}

/**
 * rp_stall_breakdown_lines:
 * @stall: a stall
 * @evidence: (nullable): its evidence (rp_stall_evidence_from())
 * @max_causes: at most this many causes, the largest (0: all)
 * @with_sites: give the kernel's site beside each cause, for engineers
 *
 * Returns: (transfer full): one string per cause, most seconds first, e.g.
 *   "waiting for the journal to commit 9.70 s (98 %)", with sites
 *   "waiting for the journal to commit [jbd2_log_wait_commit] 9.70 s
 *   (98 %)"; "not sampled" alone without a sample
 */
GStrv
rp_stall_breakdown_lines (const RpStall         *stall,
                          const RpCauseEvidence *evidence,
                          guint                  max_causes,
                          gboolean               with_sites)
{
  g_autoptr(GStrvBuilder) lines = g_strv_builder_new ();
  g_autoptr(GArray) causes = NULL;
  guint n;

  g_return_val_if_fail (stall != NULL, NULL);

  causes = rp_stall_get_causes (stall, evidence);
  n = max_causes > 0 ? MIN (causes->len, max_causes) : causes->len;
  for (guint i = 0; i < n; i++)
    {
      const RpCauseShare *share = &g_array_index (causes, RpCauseShare, i);
      g_autofree char *seconds = rp_format_latency (share->seconds);
      double of = stall->duration > 0 ? MIN (share->seconds / stall->duration, 1.0) : 0;
      g_autofree char *line = NULL;

      if (with_sites)
        /* TRANSLATORS: a cause, the kernel's wait site, its seconds and its
         * share of the stall: "waiting for the journal to commit
         * [jbd2_log_wait_commit] 9.70 s (98 %)" */
        line = g_strdup_printf (_("%s [%s] %s (%.0f %%)"), rp_cause_describe (share->cause), share->site,
                                seconds, 100 * of);
      else
        /* TRANSLATORS: a cause, its seconds and its share of the stall:
         * "waiting for the journal to commit 9.70 s (98 %)" */
        line = g_strdup_printf (_("%s %s (%.0f %%)"), rp_cause_describe (share->cause), seconds, 100 * of);
      g_strv_builder_add (lines, line);
    }
  if (n == 0)
    g_strv_builder_add (lines, _("not sampled"));
  return g_strv_builder_end (lines);
}

/**
 * rp_stall_breakdown_text:
 * @stall: a stall
 * @evidence: (nullable): its evidence (rp_stall_evidence_from())
 * @max_causes: at most this many causes, the largest (0: all)
 * @with_sites: give the kernel's site beside each cause
 *
 * Returns: (transfer full): rp_stall_breakdown_lines() joined by "; "
 */
char *
rp_stall_breakdown_text (const RpStall         *stall,
                         const RpCauseEvidence *evidence,
                         guint                  max_causes,
                         gboolean               with_sites)
{
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (stall != NULL, NULL);

  lines = rp_stall_breakdown_lines (stall, evidence, max_causes, with_sites);
  return g_strjoinv ("; ", lines);
}

/**
 * rp_report_stall_breakdown_text:
 * @stall: one of the report's stalls
 * @max_causes: at most this many causes (0: all)
 * @with_sites: the kernel's sites beside the causes
 *
 * rp_stall_breakdown_text() with the report's evidence.
 *
 * Returns: (transfer full): the text
 */
char *
rp_report_stall_breakdown_text (RpReport      *self,
                                const RpStall *stall,
                                guint          max_causes,
                                gboolean       with_sites)
{
  RpCauseEvidence evidence;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  rp_report_stall_evidence (self, stall, &evidence);
  return rp_stall_breakdown_text (stall, &evidence, max_causes, with_sites);
}

/**
 * rp_stalls_get_call_cause:
 * @stalls: (element-type RpStall): a run's stalls
 * @series: the call whose stalls count, e.g. "fsync_latency"
 * @lookup: (nullable): finds the run's series (rp_stall_meanwhile_from())
 * @owner: the report or the session
 * @sysinfo: (nullable): the run's snapshot
 * @out: (out caller-allocates): the cause with the most of their time,
 *   its seconds summed over them and its top site
 * @out_sampled: (out) (optional): the stalls' time the cause is a share of:
 *   the durations of those that were sampled
 * @out_count: (out) (optional): how many of them were sampled
 *
 * The cause of one call's stalls: each stall's sites decided by its own
 * evidence, summed over the call's stalls, so that one odd stall does not
 * name the cause; each call its own (issue 31: the frames' stalls are no
 * fsync's).
 *
 * Returns: whether @series had a sampled stall
 */
gboolean
rp_stalls_get_call_cause (GPtrArray          *stalls,
                          const char         *series,
                          RpSeriesLookupFunc  lookup,
                          gpointer            owner,
                          const RpSysinfo    *sysinfo,
                          RpCauseShare       *out,
                          double             *out_sampled,
                          guint              *out_count)
{
  double seconds[RP_N_CAUSES] = { 0 }, site_seconds[RP_N_CAUSES] = { 0 }, sampled = 0;
  const char *sites[RP_N_CAUSES] = { NULL };
  guint count = 0, best = RP_N_CAUSES;

  g_return_val_if_fail (series != NULL && out != NULL, FALSE);

  for (guint i = 0; stalls != NULL && i < stalls->len; i++)
    {
      const RpStall *stall = g_ptr_array_index (stalls, i);
      g_autoptr(GArray) causes = NULL;
      RpCauseEvidence evidence;

      if (!g_str_equal (stall->series, series) || stall->breakdown->len == 0)
        continue;
      rp_stall_evidence_from (lookup, owner, sysinfo, stall, &evidence);
      causes = rp_stall_get_causes (stall, &evidence);
      count++;
      sampled += stall->duration;
      for (guint k = 0; k < causes->len; k++)
        {
          const RpCauseShare *share = &g_array_index (causes, RpCauseShare, k);

          seconds[share->cause] += share->seconds;
          if (share->seconds > site_seconds[share->cause])
            {
              site_seconds[share->cause] = share->seconds;
              sites[share->cause] = share->site;
            }
        }
    }
  for (guint c = 0; c < RP_N_CAUSES; c++)
    if (sites[c] != NULL && (best == RP_N_CAUSES || seconds[c] > seconds[best]))
      best = c;
  if (out_sampled != NULL)
    *out_sampled = sampled;
  if (out_count != NULL)
    *out_count = count;
  if (best == RP_N_CAUSES)
    return FALSE;
  out->cause = (RpCause) best;
  out->seconds = seconds[best];
  out->site = sites[best];
  return TRUE;
}

/**
 * rp_stalls_get_call_cause_short:
 * @stalls: (element-type RpStall): a run's stalls
 * @series: a call's series
 * @lookup: (nullable): finds the run's series
 * @owner: the report or the session
 * @sysinfo: (nullable): the run's snapshot
 *
 * Returns: (transfer full) (nullable): the cause of @series' stalls with
 *   its share of their time, e.g. "waiting for the journal to commit
 *   (89 %)"; %NULL when none was sampled
 */
char *
rp_stalls_get_call_cause_short (GPtrArray          *stalls,
                                const char         *series,
                                RpSeriesLookupFunc  lookup,
                                gpointer            owner,
                                const RpSysinfo    *sysinfo)
{
  RpCauseShare share;
  double sampled;

  if (!rp_stalls_get_call_cause (stalls, series, lookup, owner, sysinfo, &share, &sampled, NULL) || sampled <= 0)
    return NULL;
  /* TRANSLATORS: a cause with its share of the stalls' time: "waiting for
   * the journal to commit (89 %)" */
  return g_strdup_printf (_("%s (%.0f %%)"), rp_cause_describe (share.cause),
                          100 * MIN (share.seconds / sampled, 1.0));
}

/* The calls whose stalls took the most time, summed over its stalls. */
static const char *
dominant_series (GPtrArray *stalls)
{
  g_autoptr(GHashTable) totals = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  const char *best = NULL;
  double best_total = 0;

  for (guint i = 0; i < stalls->len; i++)
    {
      const RpStall *stall = g_ptr_array_index (stalls, i);
      double *total = g_hash_table_lookup (totals, stall->series);

      if (stall->breakdown->len == 0)
        continue;
      if (total == NULL)
        {
          total = g_new0 (double, 1);
          g_hash_table_insert (totals, stall->series, total);
        }
      *total += stall->duration;
      if (*total > best_total || (*total == best_total && g_strcmp0 (stall->series, best) < 0))
        {
          best_total = *total;
          best = stall->series;
        }
    }
  return best;
}

/* The series the judgement names (its subject) when it had sampled stalls,
 * else the call whose stalls took the most time. */
static const char *
cause_series (RpReport           *self,
              const RpRunSummary *summary)
{
  gint subject = summary != NULL ? rp_run_summary_get_subject (summary) : -1;

  if (subject >= 0)
    {
      const char *name = rp_run_summary_get_row_info ((guint) subject)->name;

      for (guint i = 0; i < self->stalls->len; i++)
        {
          const RpStall *stall = g_ptr_array_index (self->stalls, i);

          if (g_str_equal (stall->series, name) && stall->breakdown->len > 0)
            return name;
        }
    }
  return dominant_series (self->stalls);
}

static double
median_in_stalls (RpReport   *self,
                  const char *series_name,
                  const char *call_series)
{
  RpSeries *series = rp_report_lookup_series (self, series_name);
  g_autoptr(GArray) windows = g_array_new (FALSE, FALSE, sizeof (double));
  RpStats stats;

  if (series == NULL)
    return NAN;
  /* Of every request in the stalls' windows where the series has them
   * (the device latency's window histograms), not of its thinned points. */
  for (guint i = 0; i < self->stalls->len; i++)
    {
      const RpStall *stall = g_ptr_array_index (self->stalls, i);
      double window[2] = { stall->start, stall->start + stall->duration + PERIOD_SLACK };

      if (g_str_equal (stall->series, call_series))
        g_array_append_vals (windows, window, 2);
    }
  if (!rp_series_stats_in_windows (series, (const double *) windows->data, windows->len / 2, &stats, NULL))
    return NAN;
  return stats.p50;
}

/* The words the verdict names @series by ("Cold reads"), from its row. */
static const char *
subject_of (const char *series)
{
  const RpSeriesInfo *info = rp_parts_lookup_series (series, NULL);

  if (info != NULL && info->subject != NULL)
    return _(info->subject);
  return rp_stall_call_name (series);
}

/* Whether @series is one of the probe window's (its chart, "ui-latency",
 * as rp_run_summary_stall_kind() tells them apart). */
static gboolean
is_felt (const char *series)
{
  const RpSeriesInfo *info = rp_parts_lookup_series (series, NULL);

  return info != NULL && g_strcmp0 (info->chart, "ui-latency") == 0;
}

/**
 * rp_report_get_cause_sentence:
 * @summary: (nullable): the report's judgement, whose subject the sentence
 *   is about (rp_run_summary_get_subject()); %NULL: the call whose stalls
 *   took the most time
 *
 * Why the subject's stalls took their time, for the verdict: its stalls'
 * cause summed over them (rp_stalls_get_call_cause()), in the words of
 * the file system's data= mode, and how fast the disk answered
 * meanwhile, e.g. "fsync: of 9.85 s in 5 stalls (calls over 0.1 s),
 * 9.70 s had the cause “waiting for the journal to commit (data=ordered:
 * the file data written first)”; the disk answered in 3.0 ms per request
 * (median), so not a slow disk." The call's subject opens it, as the
 * verdict's other sentences; the cause is quoted, words of any form.
 *
 * Returns: (transfer full) (nullable): the sentence, %NULL without a
 *   sampled stall
 */
char *
rp_report_get_cause_sentence (RpReport           *self,
                              const RpRunSummary *summary)
{
  const char *series;
  RpCauseShare share;
  g_autofree char *spent = NULL, *of = NULL, *limit = NULL, *words = NULL, *first = NULL;
  double sampled, median;
  guint n;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  series = cause_series (self, summary);
  if (series == NULL ||
      !rp_stalls_get_call_cause (self->stalls, series, lookup_in_report, self, self->sysinfo, &share, &sampled, &n))
    return NULL;
  spent = rp_format_latency (share.seconds);
  of = rp_format_latency (sampled);
  limit = rp_format_limit (RP_LIMIT_INSTANT);
  words = rp_cause_describe_in_mode (share.cause, share.site,
                                     self->sysinfo != NULL ? self->sysinfo->journal_mode : NULL);
  /* A stall is a call over 0.1 s (rp-stats.h): said here, where the verdict
   * counts them, so that the count means something to a reader. The call
   * opens the sentence by its subject, as the verdict's other sentences do. */
  /* TRANSLATORS: "fsync: of 9.85 s in 5 stalls (calls over 0.1 s), 9.70 s
   * had the cause “waiting for the journal to commit”": fsync is %1$s (a
   * series' subject), 9.70 s %2$s, 9.85 s %3$s, the cause's words %4$s,
   * 5 %5$u, the limit %6$s */
  if (is_felt (series))
    /* The probe window's stalls are frames, timer runs and events, not
     * calls (issue 32's screenshots: "Frames …: of 803 ms in 4 stalls
     * (calls over 0.1 s)"). */
    /* TRANSLATORS: "Frames of the probe window: of 803 ms in 4 stalls (each
     * over 0.1 s), 302 ms had the cause “the process was stopped”": the
     * subject is %1$s, 302 ms %2$s, 803 ms %3$s, the cause's words %4$s,
     * 4 %5$u, the limit %6$s */
    first = g_strdup_printf (ngettext ("%1$s: of %3$s in %5$u stall (over %6$s), %2$s had the cause “%4$s”",
                                       "%1$s: of %3$s in %5$u stalls (each over %6$s), %2$s had the cause “%4$s”", n),
                             subject_of (series), spent, of, words, n, limit);
  else
    first = g_strdup_printf (ngettext ("%1$s: of %3$s in %5$u stall (a call over %6$s), %2$s had the cause “%4$s”",
                                       "%1$s: of %3$s in %5$u stalls (calls over %6$s), %2$s had the cause “%4$s”", n),
                             subject_of (series), spent, of, words, n, limit);
  /* The disk's answer to the kind of request the call waited for. A wait
   * has no disk of its own: the read it waited for may have gone to any,
   * so the target's is not quoted beside a disk's cause (gui-felt-device's
   * read from a usb2-stick beside "the disk answered in 213 µs"). */
  {
    const RpSeriesInfo *info = rp_parts_lookup_series (series, NULL);
    gboolean reading = info != NULL && info->call_kind == RP_CALL_KIND_READ;

    if (info != NULL && info->call_kind == RP_CALL_KIND_WAIT && rp_cause_is_disk (share.cause))
      return g_strdup_printf ("%s.", first);
    median = median_in_stalls (self, reading ? "device_read_latency" : "device_write_latency", series);
  }
  if (isnan (median))
    median = median_in_stalls (self, "disk_await", series);
  if (!isnan (median))
    {
      g_autofree char *median_text = rp_format_latency (median);

      if (median < RP_LIMIT_INSTANT / 2 && !rp_cause_is_disk (share.cause) && share.cause != RP_CAUSE_UNKNOWN)
        /* TRANSLATORS: "…; the disk answered in 3.0 ms per request (median), so not a slow disk." */
        return g_strdup_printf (_("%s; the disk answered in %s per request (median), so not a slow disk."),
                                first, median_text);
      /* TRANSLATORS: "…; the disk answered in 250 ms per request (median)." */
      return g_strdup_printf (_("%s; the disk answered in %s per request (median)."), first, median_text);
    }
  return g_strdup_printf ("%s.", first);
}

/**
 * rp_report_get_cause_cell:
 *
 * The cause of the stalls of the report's judgement's subject in a few
 * words, for a comparison's table: e.g. "waiting for the journal to commit
 * (89 %)" (rp_stalls_get_call_cause_short()).
 *
 * Returns: (transfer full) (nullable): the text, %NULL without a sampled stall
 */
char *
rp_report_get_cause_cell (RpReport *self)
{
  g_autoptr(RpRunSummary) summary = NULL;
  const char *series;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  summary = rp_report_get_summary (self);
  series = cause_series (self, summary);
  return series != NULL ? rp_stalls_get_call_cause_short (self->stalls, series, lookup_in_report, self, self->sysinfo)
                        : NULL;
}

/**
 * rp_report_set_row_causes:
 * @summary: the report's judgement
 *
 * Gives every row of @summary whose call had sampled stalls the cause of
 * its own stalls (rp_run_summary_set_row_cause()), and the verdict the
 * sentence of its subject's (rp_report_get_cause_sentence()).
 */
void
rp_report_set_row_causes (RpReport     *self,
                          RpRunSummary *summary)
{
  g_autofree char *sentence = NULL;

  g_return_if_fail (RP_IS_REPORT (self) && summary != NULL);

  for (guint row = 0; row < summary->n_rows; row++)
    {
      g_autofree char *cause = rp_stalls_get_call_cause_short (self->stalls, rp_run_summary_get_row_info (row)->name,
                                                               lookup_in_report, self, self->sysinfo);

      rp_run_summary_set_row_cause (summary, row, cause);
    }
  sentence = rp_report_get_cause_sentence (self, summary);
  rp_run_summary_set_cause (summary, sentence);
}
