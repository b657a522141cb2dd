/* rp-report-stalls.c: each stall of a report with what ran meanwhile, and the cause the verdict names. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>

#include "rp-report-private.h"
#include "rp-report-stalls.h"
#include "rp-units.h"

/**
 * rp_report_get_stalls:
 *
 * Returns: (transfer none) (element-type RpStall): the run's stalls (calls
 *   over %RP_STALL_MIN_SECONDS) by start; empty for a report written before
 *   format version 2
 */
GPtrArray *
rp_report_get_stalls (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->stalls;
}

/**
 * rp_stall_call_name:
 * @series: a stall's series, e.g. "fsync_latency"
 *
 * Returns: (transfer none): the call in words as a sentence opens with it,
 *   from the series' row in the parts table (@call_name), e.g. "fsync",
 *   "A cold read"; the series' name for one this version does not know
 */
const char *
rp_stall_call_name (const char *series)
{
  const RpSeriesInfo *info = rp_parts_lookup_series (series, NULL);

  return info != NULL && info->call_name != NULL ? _(info->call_name) : series;
}

/* ------------------------------------------------------------------------ */
/* What ran meanwhile                                                        */

typedef enum {
  EVENTS,       /* value = duration, t = start: count, total, longest */
  PERCENTILES,  /* per-request latencies: p50, p99 */
  MEAN,         /* a rate: mean */
} Kind;

/* The series that say what the system did during a stall, whoever made them:
 * the disk sampler's (diskstats, vmstat) and the kernel-event part's
 * (tracefs: journal_commit, writer_pause, device_*_latency). One table, so
 * that a new source is one row. */
static const struct {
  const char *series;
  const char *label;
  Kind        kind;
} sources[] = {
  { "journal_commit", N_("journal commits"), EVENTS },
  { "writer_pause", N_("writer pauses (dirty throttling)"), EVENTS },
  { "writer_pause_other", N_("of them, other programs’"), EVENTS },
  { "device_write_latency", N_("device write latency"), PERCENTILES },
  { "device_read_latency", N_("device read latency"), PERCENTILES },
  { "device_flush_latency", N_("device flush latency"), PERCENTILES },
  { "disk_await", N_("device time per request"), PERCENTILES },
  { "disk_write_throughput", N_("device write rate"), MEAN },
};

/* The disk sampler's period past a stall's end (rp-report-private.h). */
#define PERIOD_SLACK RP_REPORT_PERIOD_SLACK

static double *
values_in (RpSeries *series,
           double    from,
           double    to,
           gboolean  overlapping,
           guint    *out_n)
{
  guint n_points;
  g_autofree RpPoint *points = rp_series_copy_points (series, 0, &n_points);
  double *values = g_new (double, MAX (n_points, 1));
  guint n = 0;

  for (guint i = 0; i < n_points; i++)
    if (overlapping ? points[i].t < to && points[i].t + points[i].v > from
                    : points[i].t >= from && points[i].t <= to)
      values[n++] = points[i].v;
  *out_n = n;
  return values;
}

/* The percentiles of every request in [@from, @to] where the series has
 * them (its window histograms: the device latency, whose points are the
 * longest of each 0.1 s), else of its points (diskstats' time per request,
 * a point per period), saying so when they are a thinned series'. */
static char *
describe_percentiles (RpSeries *series,
                      double    from,
                      double    to)
{
  const char *unit = rp_series_get_unit (series);
  double window[2] = { from, to };
  g_autofree char *p50 = NULL, *p99 = NULL;
  gboolean every_sample;
  RpStats stats;

  if (!rp_series_stats_in_windows (series, window, 1, &stats, &every_sample))
    return NULL;
  p50 = rp_format_value (unit, stats.p50);
  p99 = rp_format_value (unit, stats.p99);
  if (every_sample)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, stats.n);

      /* TRANSLATORS: "p50 3.00 ms, p99 5.76 ms of 50000 requests": of
       * every request the disk served in the stall's window; %3$s is the
       * number of requests */
      return g_strdup_printf (ngettext ("p50 %1$s, p99 %2$s of %3$s request",
                                        "p50 %1$s, p99 %2$s of %3$s requests",
                                        (gulong) MIN (stats.n, G_MAXULONG)),
                              p50, p99, count);
    }
  if (rp_series_get_full_stats (series) != NULL)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, stats.n);

      /* Thinned points, and no window histograms for this window (a
       * report before them, or one that did not keep this window): not
       * shown as if they were every request.
       * TRANSLATORS: "p50 6.25 ms, p99 6.34 ms of 20 requests, the longest
       * of each 0.1 s (this report has no others)": the report kept only
       * the slowest request of each 0.1 s for this time; %3$s is their
       * number */
      return g_strdup_printf (ngettext ("p50 %1$s, p99 %2$s of %3$s request, the longest of each 0.1 s (this report has no others)",
                                        "p50 %1$s, p99 %2$s of %3$s requests, the longest of each 0.1 s (this report has no others)",
                                        (gulong) MIN (stats.n, G_MAXULONG)),
                              p50, p99, count);
    }
  /* TRANSLATORS: "p50 3.0 ms, p99 40 ms" */
  return g_strdup_printf (_("p50 %s, p99 %s"), p50, p99);
}

static char *
describe_source (guint     index,
                 RpSeries *series,
                 double    from,
                 double    to)
{
  guint n;
  g_autofree double *values = NULL;
  const char *unit = rp_series_get_unit (series);

  if (sources[index].kind == PERCENTILES)
    return describe_percentiles (series, from, to);
  values = values_in (series, from, to, sources[index].kind == EVENTS, &n);
  if (n == 0)
    return NULL;
  if (sources[index].kind == EVENTS)
    {
      double total = 0, longest = 0;
      g_autofree char *total_text = NULL, *longest_text = NULL;

      for (guint i = 0; i < n; i++)
        {
          total += values[i];
          longest = MAX (longest, values[i]);
        }
      total_text = rp_format_latency (total);
      longest_text = rp_format_latency (longest);
      /* TRANSLATORS: "3, 9.20 s in all, longest 6.10 s" */
      return g_strdup_printf (ngettext ("%u, %s in all, longest %s", "%u, %s in all, longest %s", n),
                              n, total_text, longest_text);
    }
  {
    double sum = 0;

    for (guint i = 0; i < n; i++)
      sum += values[i];
    return rp_format_value (unit, sum / n);
  }
}

static char *
describe_dirty (RpSeriesLookupFunc  lookup,
                gpointer            owner,
                double              from,
                double              to)
{
  RpSeries *dirty = lookup (owner, "dirty_bytes");
  RpSeries *limit = lookup (owner, "dirty_threshold_bytes");
  g_autofree double *dirty_values = NULL, *limit_values = NULL;
  g_autofree char *peak_text = NULL, *limit_text = NULL;
  guint n_dirty = 0, n_limit = 0;
  double peak = 0;

  if (dirty == NULL)
    return NULL;
  dirty_values = values_in (dirty, from, to + PERIOD_SLACK, FALSE, &n_dirty);
  if (n_dirty == 0)
    return NULL;
  for (guint i = 0; i < n_dirty; i++)
    peak = MAX (peak, dirty_values[i]);
  peak_text = rp_format_value ("B", peak);
  if (limit != NULL)
    limit_values = values_in (limit, from, to + PERIOD_SLACK, FALSE, &n_limit);
  if (n_limit == 0)
    /* TRANSLATORS: dirty memory during a stall: "peak 3.9 GiB" */
    return g_strdup_printf (_("peak %s"), peak_text);
  limit_text = rp_format_value ("B", limit_values[n_limit - 1]);
  /* TRANSLATORS: dirty memory during a stall: "peak 3.9 GiB of a 4.6 GiB limit" */
  return g_strdup_printf (_("peak %s of a %s limit"), peak_text, limit_text);
}

/**
 * rp_stall_meanwhile_from:
 * @lookup: finds a series by name in @owner (%NULL when it has none):
 *   rp_report_lookup_series() for a report, rp_session_lookup_series() for a
 *   run that goes on (the window's live Why section)
 * @owner: the report or the session
 * @stall: a stall; one in flight counts up to its duration so far
 *
 * What the system did while @stall lasted, from whichever series @owner has:
 * journal commits and writer pauses overlapping it (kernel events), device
 * latency percentiles and write rate in its window, dirty memory against
 * its limit. Reads the whole of each series it uses: a caller that asks
 * again and again (a live view) keeps the answer for a stall that is over.
 *
 * Returns: (transfer full) (element-type utf8): pairs of strings, label then
 *   value, translated, e.g. "journal commits", "3, 9.20 s in all, longest
 *   6.10 s"; empty when @owner has none of the series
 */
GPtrArray *
rp_stall_meanwhile_from (RpSeriesLookupFunc  lookup,
                         gpointer            owner,
                         const RpStall      *stall)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  double from, to;
  char *dirty;

  g_return_val_if_fail (lookup != NULL, lines);
  g_return_val_if_fail (stall != NULL, lines);

  from = stall->start;
  to = stall->start + stall->duration;
  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    {
      RpSeries *series = lookup (owner, sources[i].series);
      double slack = sources[i].kind == EVENTS ? 0 : PERIOD_SLACK;
      char *text = series != NULL ? describe_source (i, series, from, to + slack) : NULL;

      if (text == NULL)
        continue;
      g_ptr_array_add (lines, g_strdup (_(sources[i].label)));
      g_ptr_array_add (lines, text);
    }
  dirty = describe_dirty (lookup, owner, from, to);
  if (dirty != NULL)
    {
      g_ptr_array_add (lines, g_strdup (_("dirty memory")));
      g_ptr_array_add (lines, dirty);
    }
  return lines;
}

static RpSeries *
lookup_in_report (gpointer    owner,
                  const char *name)
{
  return rp_report_lookup_series (owner, name);
}

/**
 * rp_report_stall_meanwhile:
 * @stall: one of rp_report_get_stalls()
 *
 * rp_stall_meanwhile_from() with the report's series.
 *
 * Returns: (transfer full) (element-type utf8): pairs of strings, label then
 *   value, translated, e.g. "journal commits", "3, 9.20 s in all, longest
 *   6.10 s"
 */
GPtrArray *
rp_report_stall_meanwhile (RpReport      *self,
                           const RpStall *stall)
{
  g_return_val_if_fail (RP_IS_REPORT (self), g_ptr_array_new_with_free_func (g_free));
  return rp_stall_meanwhile_from (lookup_in_report, self, stall);
}

/* ------------------------------------------------------------------------ */
/* The cause (decided in rp-report-causes.c)                                 */

/**
 * rp_report_get_stall_cause:
 *
 * The sentence of rp_report_get_cause_sentence() about the subject of the
 * report's judgement: why its stalls took their time.
 *
 * Returns: (transfer full) (nullable): the sentence, %NULL without a
 *   sampled stall
 */
char *
rp_report_get_stall_cause (RpReport *self)
{
  g_autoptr(RpRunSummary) summary = NULL;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  summary = rp_report_get_summary (self);
  return g_strdup (summary->cause);
}

/* ------------------------------------------------------------------------ */
/* Text and CSV                                                              */

/* A text report for a bug tracker names the longest stalls; the JSON keeps
 * them all. */
#define TEXT_MAX_STALLS 12

static int
compare_duration_desc (gconstpointer a,
                       gconstpointer b)
{
  const RpStall *sa = *(const RpStall * const *) a;
  const RpStall *sb = *(const RpStall * const *) b;

  return (sa->duration < sb->duration) - (sa->duration > sb->duration);
}

static void
append_sources_text (GString  *out,
                     RpReport *self)
{
  const char *source = g_hash_table_lookup (self->notes, "stall_source");
  const char *delayacct = g_hash_table_lookup (self->notes, "task_delayacct");

  if (g_strcmp0 (source, "stack") == 0)
    rp_text_append_wrapped (out, "", "", _("Wait sites from each stalled thread's kernel stack (/proc/self/task/TID/stack), sampled every 10 ms."));
  else if (g_strcmp0 (source, "wchan") == 0)
    rp_text_append_wrapped (out, "", "", _("Wait sites from each stalled thread's wchan (/proc/self/task/TID/wchan), sampled every 10 ms; run as root for the richer kernel stack."));
  if (g_strcmp0 (delayacct, "off") == 0)
    rp_text_append_wrapped (out, "", "", _("Delay accounting is off, so no block-I/O delay per stall: as root, “sysctl kernel.task_delayacct=1” turns it on (until the next boot)."));
}

/**
 * rp_report_stalls_to_text:
 *
 * The "Stalls" section of the text report (80 columns): the longest stalls
 * with start, duration, breakdown and what ran meanwhile, and where the
 * wait sites came from.
 *
 * Returns: (transfer full): text ending with a newline, or "" without stalls
 */
char *
rp_report_stalls_to_text (RpReport *self)
{
  g_autoptr(GPtrArray) longest = NULL;
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  if (self->stalls->len == 0)
    return g_string_free (out, FALSE);
  longest = g_ptr_array_copy (self->stalls, NULL, NULL);
  g_ptr_array_set_free_func (longest, NULL);
  g_ptr_array_sort (longest, compare_duration_desc);

  g_string_append_c (out, '\n');
  rp_text_append_heading (out, _("Stalls: where the time went"), '-');
  append_sources_text (out, self);
  for (guint i = 0; i < MIN (longest->len, TEXT_MAX_STALLS); i++)
    {
      const RpStall *stall = g_ptr_array_index (longest, i);
      g_autofree char *start = rp_format_latency (stall->start);
      g_autofree char *duration = rp_format_latency (stall->duration);
      g_auto(GStrv) causes = NULL;
      g_autoptr(GPtrArray) meanwhile = rp_report_stall_meanwhile (self, stall);
      RpCauseEvidence evidence;
      g_autofree char *title = NULL;

      /* TRANSLATORS: "fsync at 12.3 s: 9.85 s" */
      title = g_strdup_printf (_("%s at %s: %s"), rp_stall_call_name (stall->series), start, duration);
      g_string_append_c (out, '\n');
      rp_text_append_wrapped (out, "", "  ", title);
      /* A cause a line, the kernel's site beside it: the stall records are
       * for engineers too. */
      rp_report_stall_evidence (self, stall, &evidence);
      causes = rp_stall_breakdown_lines (stall, &evidence, 4, TRUE);
      for (guint k = 0; causes[k] != NULL; k++)
        rp_text_append_wrapped (out, "  ", "    ", causes[k]);
      if (stall->blkio_delay >= 0)
        {
          g_autofree char *blkio = rp_format_latency (stall->blkio_delay);
          g_autofree char *line = g_strdup_printf (_("block-I/O delay (delay accounting): %s"), blkio);

          rp_text_append_wrapped (out, "  ", "    ", line);
        }
      for (guint k = 0; k + 1 < meanwhile->len; k += 2)
        {
          /* TRANSLATORS: what ran meanwhile: "journal commits: 3, 9.20 s in all" */
          g_autofree char *line = g_strdup_printf (_("%s: %s"), (char *) g_ptr_array_index (meanwhile, k),
                                                   (char *) g_ptr_array_index (meanwhile, k + 1));

          rp_text_append_wrapped (out, "  ", "    ", line);
        }
    }
  if (longest->len > TEXT_MAX_STALLS)
    {
      guint more = longest->len - TEXT_MAX_STALLS;
      g_autofree char *line = g_strdup_printf (ngettext ("… and %u shorter stall (in the JSON report).",
                                                         "… and %u shorter stalls (in the JSON report).", more),
                                               more);

      g_string_append_c (out, '\n');
      rp_text_append_wrapped (out, "", "", line);
    }
  return g_string_free (out, FALSE);
}

static void
append_csv_row (GString    *out,
                const char *name,
                double      t,
                double      value)
{
  char t_text[G_ASCII_DTOSTR_BUF_SIZE], v_text[G_ASCII_DTOSTR_BUF_SIZE];

  /* Names of a stranger's report may hold commas or quotes (RFC 4180). */
  if (strpbrk (name, ",\"") != NULL)
    {
      g_auto(GStrv) parts = g_strsplit (name, "\"", -1);
      g_autofree char *escaped = g_strjoinv ("\"\"", parts);

      g_string_append_printf (out, "\"%s\"", escaped);
    }
  else
    g_string_append (out, name);
  g_string_append_printf (out, ",%s,%s\n", g_ascii_formatd (t_text, sizeof t_text, "%.17g", t),
                          g_ascii_formatd (v_text, sizeof v_text, "%.17g", value));
}

/**
 * rp_report_stalls_to_csv:
 *
 * The stalls as rows of the CSV export's long format
 * (`series,t_seconds,value`): `stall.SERIES,START,DURATION` for each stall,
 * then `stall.SERIES.SITE,START,SECONDS` for each wait site of it.
 *
 * Returns: (transfer full): CSV lines (no header)
 */
char *
rp_report_stalls_to_csv (RpReport *self)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  for (guint i = 0; i < self->stalls->len; i++)
    {
      const RpStall *stall = g_ptr_array_index (self->stalls, i);
      g_autofree char *name = g_strconcat ("stall.", stall->series, NULL);

      append_csv_row (out, name, stall->start, stall->duration);
      for (guint k = 0; k < stall->breakdown->len; k++)
        {
          const RpWaitShare *share = &g_array_index (stall->breakdown, RpWaitShare, k);
          g_autofree char *site = g_strconcat (name, ".", share->site, NULL);

          append_csv_row (out, site, stall->start, share->seconds);
        }
    }
  return g_string_free (out, FALSE);
}
