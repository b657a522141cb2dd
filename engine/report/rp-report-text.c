/* rp-report-text.c: a report as text for bug trackers, its verdict, and CSV. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "rp-report-private.h"
#include "rp-units.h"

/* ------------------------------------------------------------------------ */
/* Numbers and text helpers                                                  */
/* ------------------------------------------------------------------------ */

/* A C locale for the number formatting, whatever the program's locale. */
static locale_t
c_numeric_locale (void)
{
  static gsize once = 0;
  static locale_t locale = (locale_t) 0;

  if (g_once_init_enter (&once))
    {
      locale = newlocale (LC_NUMERIC_MASK, "C", (locale_t) 0);
      g_once_init_leave (&once, 1);
    }
  return locale;
}

/* CSV numbers, exact and short: %.17g always reads back as the same double,
 * but shows a short decimal such as 0.5422 as 0.54220000000000002, which a
 * spreadsheet user does not want to see. Such a tail of zeros or nines is
 * the sign that 15 or 16 digits also read back; only then are they tried,
 * as measured values rarely have one. Always with a '.' whatever the locale:
 * snprintf() and strtod() run under a thread-local C locale, twice as fast
 * as g_ascii_formatd() for millions of samples. */
static const char *
format_double (char   *buffer,
               gsize   size,
               double  value)
{
  locale_t c_locale = c_numeric_locale ();
  locale_t old;
  char shorter[G_ASCII_DTOSTR_BUF_SIZE];
  const char *digits;

  if (c_locale == (locale_t) 0)
    return g_ascii_formatd (buffer, size, "%.17g", value);

  old = uselocale (c_locale);
  snprintf (buffer, size, "%.17g", value);
  digits = buffer + strspn (buffer, "-0.");
  if (strstr (digits, "0000") != NULL || strstr (digits, "9999") != NULL)
    {
      snprintf (shorter, sizeof shorter, "%.15g", value);
      if (strtod (shorter, NULL) != value)
        snprintf (shorter, sizeof shorter, "%.16g", value);
      if (strtod (shorter, NULL) == value)
        g_strlcpy (buffer, shorter, size);
    }
  uselocale (old);
  return buffer;
}

static void
append_label_value (GString    *out,
                    const char *label,
                    gsize       label_width,
                    const char *value)
{
  g_autoptr(GString) prefix = g_string_new (NULL);
  g_autofree char *indent = NULL;

  g_string_append_printf (prefix, "%s: ", label);
  while (rp_text_width (prefix->str) < label_width + 2)
    g_string_append_c (prefix, ' ');
  indent = g_strnfill (label_width + 2, ' ');
  if (rp_text_length (prefix->str) > RP_TEXT_WIDTH - 20)
    {
      /* A very long (translated) label gets the value on the line below. */
      rp_text_append_wrapped (out, "", "", label);
      rp_text_append_wrapped (out, indent, indent, value);
      return;
    }
  /* Labels longer than the column push only their own value right. */
  rp_text_append_wrapped (out, prefix->str, indent, value);
}

/**
 * rp_report_get_summary:
 *
 * Returns: (transfer full): the run summary (rp-run-summary.h) of the
 *   report's series, from their exact statistics
 */
RpRunSummary *
rp_report_get_summary (RpReport *self)
{
  RpRunSummary *summary;
  g_autofree char *elapsed = NULL, *planned = NULL;
  const RpScenario *scenario;
  gboolean command_failed = FALSE;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  summary = rp_run_summary_new ();
  rp_run_summary_set_notes (summary, self->notes);
  elapsed = rp_text_format_duration (self->duration);
  scenario = rp_report_get_scenario (self);
  if (scenario != NULL && scenario->duration > 0)
    planned = rp_text_format_duration (scenario->duration);
  for (guint number = 1; number <= rp_report_notes_command_count (self->notes); number++)
    command_failed |= rp_report_notes_command_failed (self->notes, number);
  rp_run_summary_set_end (summary, self->notes != NULL ? g_hash_table_lookup (self->notes, "ended_by") : NULL,
                          elapsed, planned, command_failed);
  for (guint row = 0; row < summary->n_rows; row++)
    {
      RpStats stats;

      if (rp_report_get_stats (self, rp_run_summary_get_row_info (row)->name, &stats))
        rp_run_summary_set_row (summary, row, &stats);
    }
  /* After the rows: each row's cause is its own stalls', and the verdict's
   * sentence is about the subject the rows make. */
  rp_report_set_row_causes (self, summary);
  return summary;
}

/**
 * rp_report_get_short_verdict:
 *
 * The verdict in one sentence, rp_run_summary_get_short_verdict(), for the
 * report's series: what stalled, how often, worst, the dominant cause, and
 * whether the run was stopped or failed.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_report_get_short_verdict (RpReport *self)
{
  g_autoptr(RpRunSummary) summary = NULL;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  summary = rp_report_get_summary (self);
  return rp_run_summary_get_short_verdict (summary);
}

/**
 * rp_report_notes_command_count:
 * @notes: (element-type utf8 utf8) (nullable): a report's notes
 *
 * Returns: how many commands the run's command load had (notes command_*,
 *   command_2_* …): "command_count", or 1
 */
guint
rp_report_notes_command_count (GHashTable *notes)
{
  const char *count_text = notes != NULL ? g_hash_table_lookup (notes, "command_count") : NULL;

  return count_text != NULL ? MAX ((guint) g_ascii_strtoull (count_text, NULL, 10), 1) : 1;
}

/**
 * rp_report_notes_command_note:
 * @notes: (element-type utf8 utf8) (nullable): a report's notes
 * @number: 1 .. rp_report_notes_command_count()
 * @name: e.g. "exit_status"
 *
 * Returns: (transfer none) (nullable): the note "command_NAME" (the first
 *   command) or "command_NUMBER_NAME"
 */
const char *
rp_report_notes_command_note (GHashTable *notes,
                              guint       number,
                              const char *name)
{
  g_autofree char *key = NULL;

  if (notes == NULL)
    return NULL;
  key = number == 1 ? g_strconcat ("command_", name, NULL)
                    : g_strdup_printf ("command_%u_%s", number, name);
  return g_hash_table_lookup (notes, key);
}

/**
 * rp_report_notes_command_failed:
 * @notes: (element-type utf8 utf8) (nullable): a report's notes
 * @number: 1 .. rp_report_notes_command_count()
 *
 * Returns: whether that command of the load failed by itself: a status
 *   other than "exit 0", and not ended by the run's own stop
 */
gboolean
rp_report_notes_command_failed (GHashTable *notes,
                                guint       number)
{
  const char *status = rp_report_notes_command_note (notes, number, "exit_status");

  return status != NULL && !g_str_equal (status, "exit 0") &&
         g_strcmp0 (rp_report_notes_command_note (notes, number, "stopped"), "true") != 0;
}

/**
 * rp_report_get_verdict:
 *
 * The verdict of rp_run_summary_get_verdict() for the report's series.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_report_get_verdict (RpReport *self)
{
  g_autoptr(RpRunSummary) summary = NULL;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  summary = rp_report_get_summary (self);
  return rp_run_summary_get_verdict (summary, self->sysinfo);
}

/* ------------------------------------------------------------------------ */
/* Plain text                                                                */
/* ------------------------------------------------------------------------ */

/* "14.6 s", "2 min 5 s", "1 h 20 min": a run's length, not a latency. */
char *
rp_text_format_duration (double seconds)
{
  guint64 whole;

  if (!isfinite (seconds) || seconds < 60)
    /* TRANSLATORS: a duration in seconds */
    return g_strdup_printf (_("%.1f s"), isfinite (seconds) ? seconds : 0.0);
  whole = (guint64) (seconds + 0.5);
  if (whole < 3600)
    /* TRANSLATORS: a duration, e.g. "2 min 5 s" */
    return g_strdup_printf (_("%u min %u s"), (guint) (whole / 60), (guint) (whole % 60));
  /* TRANSLATORS: a duration, e.g. "1 h 20 min" */
  return g_strdup_printf (_("%u h %u min"), (guint) MIN (whole / 3600, G_MAXUINT),
                          (guint) (whole % 3600 / 60));
}

/* Whether the run's owner stopped it (Stop, Ctrl-C, SIGTERM) before the
 * end its scenario asked for: its "ended_by" note is RP_ENDED_BY_REQUEST. */
static gboolean
report_was_stopped (RpReport *self)
{
  return self->notes != NULL &&
         g_strcmp0 (g_hash_table_lookup (self->notes, "ended_by"), RP_ENDED_BY_REQUEST) == 0;
}

/**
 * rp_report_format_duration:
 *
 * How long the run lasted, e.g. "14.6 s", and "3.0 s (stopped)" when
 * report_was_stopped(), so that a cut-short run is not read as a
 * complete one.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_report_format_duration (RpReport *self)
{
  g_autofree char *duration = NULL;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  duration = rp_text_format_duration (self->duration);
  if (report_was_stopped (self))
    /* TRANSLATORS: a run's duration, e.g. "3.0 s", when it was stopped by hand before its end */
    return g_strdup_printf (_("%s (stopped)"), duration);
  return g_steal_pointer (&duration);
}

/**
 * rp_report_format_baseline:
 *
 * The run's baseline in words, e.g. "the first 3.0 s: system-wide samplers
 * only, before the loads and the other probes", for the text report, the
 * PDF and the window.
 *
 * Returns: (transfer full) (nullable): translated text; %NULL when the run
 *   had no baseline
 */
char *
rp_report_format_baseline (RpReport *self)
{
  g_autofree char *seconds = NULL;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  if (self->baseline <= 0)
    return NULL;
  seconds = rp_text_format_duration (self->baseline);
  /* TRANSLATORS: %s is a duration, e.g. "3.0 s"; "system-wide samplers":
   * CPU split, pressure (PSI), the device's counters */
  return g_strdup_printf (_("the first %s: system-wide samplers only, before the loads and the other probes"),
                          seconds);
}

char *
rp_text_format_created (GDateTime *created)
{
  return g_date_time_format (created, "%Y-%m-%d %H:%M:%S UTC");
}

static void
append_text_header (GString  *out,
                    RpReport *self)
{
  g_autofree char *created = rp_text_format_created (self->created);
  g_autofree char *duration = rp_report_format_duration (self);
  g_autofree char *baseline = rp_report_format_baseline (self);
  g_autofree char *in_short = rp_report_get_short_verdict (self);
  /* The verdict in one sentence first, as the window's card gives it; the
   * per-probe sentences follow in the "Verdict" section. */
  /* TRANSLATORS: the label of the one-sentence verdict at the top of the text report */
  const char *labels[] = { _("In short"), _("Created"), _("Generator"), _("Duration"), _("Baseline"), _("Error") };
  const char *values[] = { in_short, created, self->generator, duration, baseline, self->error_message };
  gsize width = 0;

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    width = MAX (width, rp_text_width (labels[i]));

  rp_text_append_heading (out, _("Responsiveness Probe report"), '=');
  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    if (values[i] != NULL && *values[i] != '\0')
      append_label_value (out, labels[i], width, values[i]);
}

static void
append_text_system (GString  *out,
                    RpReport *self)
{
  g_autoptr(GPtrArray) fields = rp_sysinfo_get_fields (self->sysinfo);
  g_auto(GStrv) warnings = rp_sysinfo_get_warnings (self->sysinfo);
  gsize width = 0;

  for (guint i = 0; i < fields->len; i++)
    {
      const RpSysinfoField *field = g_ptr_array_index (fields, i);

      /* Labels longer than the usual ones do not push every value right. */
      if (rp_text_width (field->label) <= 28)
        width = MAX (width, rp_text_width (field->label));
    }

  g_string_append_c (out, '\n');
  rp_text_append_heading (out, _("System"), '-');
  for (guint i = 0; i < fields->len; i++)
    {
      const RpSysinfoField *field = g_ptr_array_index (fields, i);

      append_label_value (out, field->label, width, field->value);
    }

  if (warnings != NULL && warnings[0] != NULL)
    {
      g_string_append_c (out, '\n');
      rp_text_append_heading (out, _("Warnings"), '-');
      for (guint i = 0; warnings[i] != NULL; i++)
        rp_text_append_wrapped (out, "* ", "  ", warnings[i]);
    }
}

static void
append_text_scenario (GString  *out,
                      RpReport *self)
{
  g_autofree char *description = rp_scenario_describe (self->scenario);
  g_autoptr(GPtrArray) keys = rp_report_notes_sorted_keys (self->notes);

  g_string_append_c (out, '\n');
  rp_text_append_heading (out, _("Scenario"), '-');
  rp_text_append_wrapped (out, "", "", description);

  if (keys->len == 0)
    return;
  g_string_append_c (out, '\n');
  rp_text_append_heading (out, _("Notes"), '-');
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      g_autofree char *line = g_strdup_printf ("%s: %s", key,
                                               (const char *) g_hash_table_lookup (self->notes, key));

      rp_text_append_wrapped (out, "", "  ", line);
    }
}

static char *
format_count (guint64 count)
{
  return g_strdup_printf ("%" G_GUINT64_FORMAT, count);
}

/* Latencies get the stall counts over Nielsen's first two limits. */
static char **
summary_cells (RpSeries      *series,
               const RpStats *stats,
               gboolean       latency)
{
  const char *unit = rp_series_get_unit (series);
  GPtrArray *cells = g_ptr_array_new ();

  g_ptr_array_add (cells, rp_text_sanitize (rp_series_get_name (series)));
  g_ptr_array_add (cells, format_count (stats->n));
  g_ptr_array_add (cells, rp_format_value (unit, stats->p50));
  g_ptr_array_add (cells, rp_format_value (unit, stats->p90));
  g_ptr_array_add (cells, rp_format_value (unit, stats->p99));
  g_ptr_array_add (cells, rp_format_value (unit, stats->max));
  if (latency)
    {
      g_ptr_array_add (cells, format_count (stats->over_instant));
      g_ptr_array_add (cells, format_count (stats->over_flow));
    }
  g_ptr_array_add (cells, NULL);
  return (char **) g_ptr_array_free (cells, FALSE);
}

static void
append_text_summary (GString  *out,
                     RpReport *self)
{
  g_autofree char *instant = rp_format_limit (RP_LIMIT_INSTANT);
  g_autofree char *flow = rp_format_limit (RP_LIMIT_FLOW);
  g_autofree char *over_instant = g_strdup_printf ("> %s", instant);
  g_autofree char *over_flow = g_strdup_printf ("> %s", flow);
  g_autoptr(GPtrArray) latency_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GPtrArray) other_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  const char *latency_header[] = {
    _("Latency"), "n", "p50", "p90", "p99", _("max"), over_instant, over_flow,
  };
  const char *other_header[] = { _("Series"), "n", "p50", "p90", "p99", _("max") };

  for (guint i = 0; i < self->series->len; i++)
    {
      RpSeries *series = g_ptr_array_index (self->series, i);
      gboolean latency = g_strcmp0 (rp_series_get_unit (series), "s") == 0;
      RpStats stats;

      rp_report_stats_at (self, i, &stats);
      if (stats.n > 0)
        g_ptr_array_add (latency ? latency_rows : other_rows, summary_cells (series, &stats, latency));
    }

  g_string_append_c (out, '\n');
  rp_text_append_heading (out, _("Summary"), '-');
  if (latency_rows->len == 0 && other_rows->len == 0)
    {
      rp_text_append_wrapped (out, "", "", _("No samples were recorded."));
      return;
    }
  rp_text_append_table (out, G_N_ELEMENTS (latency_header), latency_header, latency_rows);
  if (latency_rows->len > 0 && other_rows->len > 0)
    g_string_append_c (out, '\n');
  rp_text_append_table (out, G_N_ELEMENTS (other_header), other_header, other_rows);
}

/* Exactly the output of the fsync-tester of kernel bug 12309, so that the
 * numbers can be pasted beside the old reports and read by their scripts. */
static void
append_fsync_lines (GString  *out,
                    RpReport *self)
{
  RpSeries *series = rp_report_lookup_series (self, RP_SERIES_FSYNC_LATENCY);
  g_autofree RpPoint *points = NULL;
  guint n = 0;

  if (series == NULL)
    return;
  points = rp_series_copy_points (series, 0, &n);
  if (n == 0)
    return;

  g_string_append_c (out, '\n');
  rp_text_append_heading (out, _("fsync-tester output"), '-');
  for (guint i = 0; i < n; i++)
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];

      g_string_append_printf (out, "fsync time: %s\n",
                              g_ascii_formatd (number, sizeof number, "%.4f", points[i].v));
    }
}

/**
 * rp_report_to_text:
 *
 * The report for a bug tracker: every line at most 80 columns (long values
 * wrapped), with the system snapshot, warnings, scenario, notes, a summary
 * table per series with samples, the verdict, and the fsync samples as
 * `fsync time: 0.5422` lines (always with a '.', whatever the locale).
 *
 * Returns: (transfer full): UTF-8 text ending with a newline
 */
char *
rp_report_to_text (RpReport *self)
{
  g_autofree char *verdict = NULL;
  g_autofree char *stalls = NULL;
  GString *out;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  out = g_string_new (NULL);
  append_text_header (out, self);
  append_text_system (out, self);
  append_text_scenario (out, self);
  append_text_summary (out, self);

  verdict = rp_report_get_verdict (self);
  g_string_append_c (out, '\n');
  rp_text_append_heading (out, _("Verdict"), '-');
  rp_text_append_wrapped (out, "", "", verdict);

  stalls = rp_report_stalls_to_text (self);
  g_string_append (out, stalls);
  append_fsync_lines (out, self);
  return g_string_free (out, FALSE);
}

/**
 * rp_report_to_summary_text:
 *
 * The part of rp_report_to_text() a user pastes into a conversation: the
 * summary table and the verdict (at most 80 columns), for "Copy Summary".
 *
 * Returns: (transfer full): UTF-8 text ending with a newline
 */
char *
rp_report_to_summary_text (RpReport *self)
{
  g_autofree char *verdict = NULL;
  GString *out;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  out = g_string_new (NULL);
  append_text_summary (out, self);
  /* The section starts with the blank line that separates it in the report. */
  if (out->len > 0 && out->str[0] == '\n')
    g_string_erase (out, 0, 1);

  verdict = rp_report_get_verdict (self);
  g_string_append_c (out, '\n');
  rp_text_append_heading (out, _("Verdict"), '-');
  rp_text_append_wrapped (out, "", "", verdict);
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* CSV                                                                       */
/* ------------------------------------------------------------------------ */

/* RFC 4180 quoting; loaded names have no control characters, but may have
 * commas or quotes. */
static void
append_csv_field (GString    *out,
                  const char *text)
{
  if (strpbrk (text, ",\"\r\n") == NULL)
    {
      g_string_append (out, text);
      return;
    }
  g_string_append_c (out, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (out, '"');
      g_string_append_c (out, *p);
    }
  g_string_append_c (out, '"');
}

/**
 * rp_report_to_csv:
 *
 * Every sample of every series in long format: a header line
 * `series,t_seconds,value`, then one line per sample, values in the series'
 * unit (see the JSON report for the units), numbers with a '.' whatever the
 * locale and enough digits to read back exactly.
 *
 * Returns: (transfer full): the CSV text
 */
char *
rp_report_to_csv (RpReport *self)
{
  GString *out;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  out = g_string_new ("series,t_seconds,value\n");
  for (guint i = 0; i < self->series->len; i++)
    {
      RpSeries *series = g_ptr_array_index (self->series, i);
      g_autofree RpPoint *points = NULL;
      guint n = 0;

      points = rp_series_copy_points (series, 0, &n);
      for (guint j = 0; j < n; j++)
        {
          char t[G_ASCII_DTOSTR_BUF_SIZE], v[G_ASCII_DTOSTR_BUF_SIZE];

          if (!isfinite (points[j].t) || !isfinite (points[j].v))
            continue;
          append_csv_field (out, rp_series_get_name (series));
          g_string_append_printf (out, ",%s,%s\n",
                                  format_double (t, sizeof t, points[j].t),
                                  format_double (v, sizeof v, points[j].v));
        }
    }
  {
    g_autofree char *stalls = rp_report_stalls_to_csv (self);

    g_string_append (out, stalls);
  }
  return g_string_free (out, FALSE);
}
