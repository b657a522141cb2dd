/* rp-report-json.c: a report as JSON (docs/REPORT-FORMAT.md), written with json-glib. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-units.h"

/* ------------------------------------------------------------------------ */
/* Writing                                                                   */
/* ------------------------------------------------------------------------ */

/* JSON has no NaN: a non-finite number (which RpSeries never stores) is null. */
static void
add_double_member (JsonObject *object,
                   const char *key,
                   double      value)
{
  if (isfinite (value))
    json_object_set_double_member (object, key, value);
  else
    json_object_set_null_member (object, key);
}

static JsonArray *
samples_to_json (RpSeries *series)
{
  g_autofree RpPoint *points = NULL;
  JsonArray *samples;
  guint n = 0;

  points = rp_series_copy_points (series, 0, &n);
  samples = json_array_sized_new (n);
  for (guint i = 0; i < n; i++)
    {
      JsonArray *pair;

      if (!isfinite (points[i].t) || !isfinite (points[i].v))
        continue;
      pair = json_array_sized_new (2);
      json_array_add_double_element (pair, points[i].t);
      json_array_add_double_element (pair, points[i].v);
      json_array_add_array_element (samples, pair);
    }
  return samples;
}

/* Version 2: "count" and "blocks" (rp-report-blocks.c); one string per
 * 4096 samples, so that the tree is small whatever the run's length. */
static void
add_blocks (JsonObject *object,
            RpSeries   *series)
{
  g_autofree RpPoint *points = NULL;
  g_autoptr(GPtrArray) blocks = NULL;
  JsonArray *array;
  guint n = 0, n_finite = 0;

  points = rp_series_copy_points (series, 0, &n);
  for (guint i = 0; i < n; i++)
    n_finite += isfinite (points[i].t) && isfinite (points[i].v);
  blocks = rp_report_blocks_encode (points, n);
  g_clear_pointer (&points, g_free);
  array = json_array_sized_new (blocks->len);
  for (guint i = 0; i < blocks->len; i++)
    json_array_add_string_element (array, g_ptr_array_index (blocks, i));
  json_object_set_int_member (object, "count", n_finite);
  json_object_set_array_member (object, "blocks", array);
}

static JsonObject *
series_to_json (RpReport         *self,
                RpReportEncoding  encoding)
{
  JsonObject *all = json_object_new ();
  /* Only the stalls' slots of the window histograms (rp_report_windows_to_json()). */
  g_autoptr(GArray) stall_windows = rp_report_stall_windows (self);

  for (guint i = 0; i < self->series->len; i++)
    {
      RpSeries *series = g_ptr_array_index (self->series, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "unit", rp_series_get_unit (series));
      json_object_set_string_member (object, "title", rp_series_get_title (series));
      if (encoding == RP_REPORT_ENCODING_ARRAYS)
        json_object_set_array_member (object, "samples", samples_to_json (series));
      else
        add_blocks (object, series);
      /* A thinned series' figures are of every sample (issue 31). */
      if (rp_series_get_full_stats (series) != NULL)
        {
          JsonObject *full = rp_report_full_stats_to_json (rp_series_get_full_stats (series));

          if (full != NULL)
            json_object_set_object_member (object, "full_statistics", full);
        }
      /* And by time, for each stall's window (issue 31, defect 5): of those only. */
      if (rp_series_get_window_histograms (series) != NULL)
        {
          JsonObject *windows = rp_report_windows_to_json (rp_series_get_window_histograms (series), stall_windows);

          if (windows != NULL)
            json_object_set_object_member (object, "window_histograms", windows);
        }
      json_object_set_object_member (all, rp_series_get_name (series), object);
    }
  return all;
}

/* The limit counts only mean something for durations: null otherwise, so
 * that nobody reads "over_10s": 2 of a throughput as two stalls. */
static JsonObject *
stats_to_json (const RpStats *stats,
               gboolean       seconds)
{
  const struct { const char *key; double value; } doubles[] = {
    { "min", stats->min }, { "max", stats->max }, { "mean", stats->mean },
    { "stddev", stats->stddev }, { "p50", stats->p50 }, { "p90", stats->p90 },
    { "p99", stats->p99 }, { "p99_9", stats->p999 },
  };
  const struct { const char *key; guint64 value; } counts[] = {
    { "over_0_1s", stats->over_instant }, { "over_1s", stats->over_flow },
    { "over_10s", stats->over_attention },
  };
  JsonObject *object = json_object_new ();

  json_object_set_int_member (object, "n", (gint64) MIN (stats->n, G_MAXINT64));
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    add_double_member (object, doubles[i].key, doubles[i].value);
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    if (seconds)
      json_object_set_int_member (object, counts[i].key, (gint64) MIN (counts[i].value, G_MAXINT64));
    else
      json_object_set_null_member (object, counts[i].key);
  return object;
}

static JsonObject *
summary_to_json (RpReport *self)
{
  JsonObject *summary = json_object_new ();

  for (guint i = 0; i < self->series->len; i++)
    {
      RpSeries *series = g_ptr_array_index (self->series, i);
      RpStats stats;

      rp_report_stats_at (self, i, &stats);
      json_object_set_object_member (summary, rp_series_get_name (series),
                                     stats_to_json (&stats, g_strcmp0 (rp_series_get_unit (series), "s") == 0));
    }
  return summary;
}

static RpSeries *
lookup_in_report (gpointer    owner,
                  const char *name)
{
  return rp_report_lookup_series (owner, name);
}

/* The judgement as every front end gives it (rp-run-summary.c): written for
 * readers of the file, never read back (a reader of ours judges anew). */
static JsonObject *
judgement_to_json (RpReport *self)
{
  g_autoptr(RpRunSummary) summary = rp_report_get_summary (self);
  g_autofree char *short_verdict = rp_run_summary_get_short_verdict (summary);
  g_autofree char *verdict = rp_run_summary_get_verdict (summary, self->sysinfo);
  gint subject = rp_run_summary_get_subject (summary);
  JsonObject *object = json_object_new ();
  RpCauseShare cause;
  double sampled = 0;

  json_object_set_string_member (object, "headline", rp_run_summary_get_headline (summary, TRUE));
  json_object_set_string_member (object, "short_verdict", short_verdict);
  json_object_set_string_member (object, "verdict", verdict);
  if (subject < 0)
    {
      json_object_set_null_member (object, "subject");
      json_object_set_null_member (object, "cause");
      return object;
    }
  json_object_set_string_member (object, "subject", rp_run_summary_get_row_info ((guint) subject)->name);
  if (summary->stats[subject].over_instant > 0 &&
      rp_stalls_get_call_cause (self->stalls, rp_run_summary_get_row_info ((guint) subject)->name,
                                lookup_in_report, self, self->sysinfo,
                                &cause, &sampled, NULL) && sampled > 0)
    {
      json_object_set_string_member (object, "cause", rp_cause_get_id (cause.cause));
      json_object_set_string_member (object, "cause_site", cause.site);
      json_object_set_double_member (object, "cause_share", MIN (cause.seconds / sampled, 1.0));
    }
  else
    json_object_set_null_member (object, "cause");
  return object;
}

static JsonObject *
notes_to_json (RpReport *self)
{
  g_autoptr(GPtrArray) keys = rp_report_notes_sorted_keys (self->notes);
  JsonObject *notes = json_object_new ();

  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);

      json_object_set_string_member (notes, key, g_hash_table_lookup (self->notes, key));
    }
  return notes;
}

/* Members in the order of docs/REPORT-FORMAT.md: json-glib keeps it. */
static JsonNode *
report_to_node (RpReport         *self,
                RpReportEncoding  encoding)
{
  g_autofree char *created = g_date_time_format_iso8601 (self->created);
  JsonObject *root = json_object_new ();
  JsonNode *node;

  json_object_set_string_member (root, "format", RP_REPORT_FORMAT);
  json_object_set_int_member (root, "version", encoding == RP_REPORT_ENCODING_ARRAYS ? 1 : RP_REPORT_VERSION);
  json_object_set_string_member (root, "created", created);
  json_object_set_string_member (root, "generator", self->generator);
  add_double_member (root, "duration", self->duration);
  add_double_member (root, "baseline", self->baseline);
  json_object_set_string_member (root, "error", self->error_message);
  if (self->configuration.key != NULL)
    json_object_set_member (root, "configuration", rp_report_configuration_to_json (self));
  json_object_set_member (root, "system", rp_sysinfo_to_json (self->sysinfo));
  json_object_set_member (root, "scenario", rp_scenario_to_json (self->scenario));
  json_object_set_object_member (root, "notes", notes_to_json (self));
  json_object_set_object_member (root, "series", series_to_json (self, encoding));
  json_object_set_array_member (root, "stalls", rp_report_stalls_to_json (self));
  json_object_set_object_member (root, "summary", summary_to_json (self));
  json_object_set_object_member (root, "judgement", judgement_to_json (self));
  node = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (node, root);
  return node;
}

/* json-glib up to 1.6 appends ".0" to every double printed without a '.',
 * exponents too: 1e-10 becomes "1e-10.0", which is not JSON and which
 * json-glib itself cannot read back. Removes that ".0" after an exponent,
 * outside strings; a fixed json-glib leaves nothing to remove. */
static void
drop_dot_zero_after_exponents (GString *json)
{
  char *s = json->str;
  gboolean in_string = FALSE;
  gsize w = 0;

  for (gsize r = 0; r < json->len; r++)
    {
      char c = s[r];

      s[w++] = c;
      if (in_string)
        {
          if (c == '\\' && r + 1 < json->len)
            s[w++] = s[++r];
          else if (c == '"')
            in_string = FALSE;
        }
      else if (c == '"')
        in_string = TRUE;
      else if (c == 'e' || c == 'E')
        {
          /* Only numbers have an 'e' followed by a sign or a digit. */
          while (r + 1 < json->len && (s[r + 1] == '+' || s[r + 1] == '-' || g_ascii_isdigit (s[r + 1])))
            s[w++] = s[++r];
          if (r + 2 < json->len && s[r + 1] == '.' && s[r + 2] == '0' && g_ascii_isdigit (s[r]))
            r += 2;
        }
    }
  g_string_truncate (json, w);
}

/**
 * rp_report_to_json:
 * @out_length: (out) (optional): length of the text in bytes
 *
 * The report in the format of docs/REPORT-FORMAT.md, version 2 (samples in
 * blocks): rp_report_to_json_encoded() with %RP_REPORT_ENCODING_BLOCKS.
 *
 * Returns: (transfer full): the JSON text
 */
char *
rp_report_to_json (RpReport *self,
                   gsize    *out_length)
{
  return rp_report_to_json_encoded (self, RP_REPORT_ENCODING_BLOCKS, out_length);
}

/**
 * rp_report_to_json_encoded:
 * @encoding: samples in blocks (version 2) or as JSON arrays (version 1)
 * @out_length: (out) (optional): length of the text in bytes
 *
 * The report in the format of docs/REPORT-FORMAT.md, written by json-glib:
 * UTF-8, 2-space indent, doubles with 17 significant digits (so that they
 * read back exactly) and a '.' whatever the locale, ending with a newline.
 * Blocks keep values exactly and times to the microsecond, in about 4 to 7
 * bytes a sample; arrays keep both exactly, in 50 to 90 bytes, and take
 * about 300 bytes of memory per sample while they are written.
 *
 * Returns: (transfer full): the JSON text
 */
char *
rp_report_to_json_encoded (RpReport         *self,
                           RpReportEncoding  encoding,
                           gsize            *out_length)
{
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;
  guint64 n_samples;
  GString *out;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  n_samples = rp_report_count_samples (self);
  root = report_to_node (self, encoding);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);

  /* At most about 96 bytes a sample as arrays (every number is on a line of
   * its own), about 12 in blocks, so that the string rarely doubles while
   * it grows. */
  out = g_string_sized_new (8192 + (encoding == RP_REPORT_ENCODING_ARRAYS ? 96 : 12) * n_samples);
  json_generator_to_gstring (generator, out);
  g_clear_pointer (&root, json_node_unref);
  drop_dot_zero_after_exponents (out);
  g_string_append_c (out, '\n');
  /* JSON is UTF-8, but a directory in the scenario may be any bytes. The
   * structure is ASCII, so only the contents of strings change. */
  if (!g_utf8_validate_len (out->str, out->len, NULL))
    {
      g_autofree char *valid = g_utf8_make_valid (out->str, (gssize) out->len);

      g_string_assign (out, valid);
    }

  if (out_length != NULL)
    *out_length = out->len;
  return g_string_free (out, FALSE);
}
