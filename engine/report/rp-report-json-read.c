/* rp-report-json-read.c: a report read back from JSON, a stranger's file as much as ours. */
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
/* From the tree to a report                                                 */
/* ------------------------------------------------------------------------ */

static gboolean
set_report_error (GError    **error,
                  const char *format,
                  ...) G_GNUC_PRINTF (2, 3);

static gboolean
set_report_error (GError    **error,
                  const char *format,
                  ...)
{
  va_list args;

  va_start (args, format);
  g_propagate_error (error, g_error_new_valist (RP_ERROR, RP_ERROR_REPORT, format, args));
  va_end (args);
  return FALSE;
}

static gboolean
node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

/**
 * rp_report_json_get_number:
 * @node: (nullable): a member's node
 * @out: (out): the number
 *
 * json-glib reads 1e999 as infinity: finite numbers only, integers or not.
 *
 * Returns: %TRUE when @node holds a finite number
 */
gboolean
rp_report_json_get_number (JsonNode *node,
                           double   *out)
{
  GType type;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return FALSE;
  type = json_node_get_value_type (node);
  if (type == G_TYPE_INT64)
    *out = (double) json_node_get_int (node);
  else if (type == G_TYPE_DOUBLE)
    *out = json_node_get_double (node);
  else
    return FALSE;
  return isfinite (*out);
}

/* Every string of a stranger's report reaches a terminal, a label or a PDF:
 * each is cleaned by rp_text_clean(), the one rule (docs/REPORT-FORMAT.md),
 * in place, at any depth of @node. Only multi-line values keep their line
 * feeds and tabs. */
static void
clean_strings (JsonNode *node,
               gboolean  multiline)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      for (GList *l = members; l != NULL; l = l->next)
        clean_strings (json_object_get_member (object, l->data), multiline);
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        clean_strings (json_array_get_element (array, i), multiline);
    }
  else if (node_is_string (node))
    {
      g_autofree char *clean = rp_text_clean (json_node_get_string (node), multiline);

      if (strcmp (clean, json_node_get_string (node)) != 0)
        json_node_set_string (node, clean);
    }
}

static gboolean
check_identity (JsonObject  *root,
                GError     **error)
{
  JsonNode *format = json_object_get_member (root, "format");
  JsonNode *version = json_object_get_member (root, "version");
  g_autofree char *shown = NULL;
  char number[32];
  gint64 v;

  if (!node_is_string (format))
    return set_report_error (error, _("This is not a Responsiveness Probe report: "
                                      "the key “format” is missing or not a string"));
  if (!g_str_equal (json_node_get_string (format), RP_REPORT_FORMAT))
    {
      shown = rp_text_shorten (json_node_get_string (format));
      return set_report_error (error, _("This is not a Responsiveness Probe report: "
                                        "its format is “%s”, not “%s”"),
                               shown, RP_REPORT_FORMAT);
    }
  if (version == NULL || !JSON_NODE_HOLDS_VALUE (version) ||
      json_node_get_value_type (version) != G_TYPE_INT64)
    return set_report_error (error, _("Key “version”: missing or not an integer"));
  v = json_node_get_int (version);
  g_snprintf (number, sizeof number, "%" G_GINT64_FORMAT, v);
  if (v > RP_REPORT_VERSION)
    return set_report_error (error, _("The report has format version %s, but this version of "
                                      "Responsiveness Probe reads only up to version %d; "
                                      "please update it"),
                             number, RP_REPORT_VERSION);
  if (v < 1)
    return set_report_error (error, _("Key “version”: %s is not a valid version"), number);
  return TRUE;
}

/* An optional string member, cleaned: absent or null gives %NULL. */
static gboolean
get_optional_string (JsonObject  *object,
                     const char  *key,
                     gboolean     multiline,
                     char       **out,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!node_is_string (node))
    return set_report_error (error, _("Key “%s”: expected a string"), key);
  *out = rp_text_clean (json_node_get_string (node), multiline);
  return TRUE;
}

static gboolean
read_created (JsonObject  *root,
              GDateTime  **out,
              GError     **error)
{
  JsonNode *node = json_object_get_member (root, "created");
  g_autoptr(GTimeZone) utc = g_time_zone_new_utc ();
  g_autoptr(GDateTime) parsed = NULL;
  g_autofree char *shown = NULL;

  if (!node_is_string (node))
    return set_report_error (error, _("Key “created”: missing or not a string"));
  parsed = g_date_time_new_from_iso8601 (json_node_get_string (node), utc);
  if (parsed == NULL)
    {
      shown = rp_text_shorten (json_node_get_string (node));
      return set_report_error (error, _("Key “created”: “%s” is not an ISO 8601 date and time"),
                               shown);
    }
  *out = g_date_time_to_utc (parsed);
  return TRUE;
}

static gboolean
read_duration (JsonObject  *root,
               double      *out,
               GError     **error)
{
  JsonNode *node = json_object_get_member (root, "duration");

  *out = 0;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!rp_report_json_get_number (node, out) || *out < 0)
    return set_report_error (error, _("Key “duration”: expected a number of seconds, zero or more"));
  if (*out > RP_REPORT_MAX_SECONDS)
    return set_report_error (error, _("Key “duration”: %g s is longer than a year"), *out);
  return TRUE;
}

/* "baseline": optional (reports before it had none: 0), within the run. */
static gboolean
read_baseline (JsonObject  *root,
               double       duration,
               double      *out,
               GError     **error)
{
  JsonNode *node = json_object_get_member (root, "baseline");

  *out = 0;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!rp_report_json_get_number (node, out) || *out < 0 || *out > MAX (duration, 0))
    return set_report_error (error, _("Key “baseline”: expected seconds from zero to the run’s duration"));
  return TRUE;
}

/* The sub-readers may use another code or no message prefix; a loader's
 * caller gets RP_ERROR_REPORT and the key, whatever they did. */
static gboolean
wrap_part_error (const char  *key,
                 GError      *part_error,
                 GError     **error)
{
  const char *message = part_error != NULL ? part_error->message : _("invalid");

  set_report_error (error, _("Key “%s”: %s"), key, message);
  g_clear_error (&part_error);
  return FALSE;
}

/* The member @key of @root, which must be an object, its strings cleaned;
 * %NULL with @error set. */
static JsonNode *
object_member (JsonObject  *root,
               const char  *key,
               GError     **error)
{
  JsonNode *node = json_object_get_member (root, key);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      set_report_error (error, _("Key “%s”: missing or not an object"), key);
      return NULL;
    }
  clean_strings (node, FALSE);
  return node;
}

static gboolean
read_system (JsonObject  *root,
             RpSysinfo  **out,
             GError     **error)
{
  JsonNode *node = object_member (root, "system", error);
  GError *part_error = NULL;

  if (node == NULL)
    return FALSE;
  *out = rp_sysinfo_new_from_json (node, &part_error);
  if (*out == NULL)
    return wrap_part_error ("system", part_error, error);
  return TRUE;
}

static gboolean
read_scenario (JsonObject  *root,
               RpScenario **out,
               GError     **error)
{
  JsonNode *node = object_member (root, "scenario", error);
  GError *part_error = NULL;

  if (node == NULL)
    return FALSE;
  *out = rp_scenario_new_from_json (node, &part_error);
  if (*out == NULL)
    return wrap_part_error ("scenario", part_error, error);
  /* Every run's scenario passed this check before it ran: a report that
   * fails it was edited, and would be described as "16.0 EiB every -3 s". */
  if (!rp_scenario_validate (*out, &part_error))
    {
      g_clear_pointer (out, rp_scenario_free);
      return wrap_part_error ("scenario", part_error, error);
    }
  return TRUE;
}

static gboolean
read_notes (JsonObject  *root,
            GHashTable  *notes,
            GError     **error)
{
  JsonNode *node = json_object_get_member (root, "notes");
  g_autoptr(GList) members = NULL;
  JsonObject *object;

  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return set_report_error (error, _("Key “notes”: expected an object"));
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *value = json_object_get_member (object, l->data);
      g_autofree char *shown = NULL;

      if (!node_is_string (value))
        {
          shown = rp_text_shorten (l->data);
          return set_report_error (error, _("Notes: the value of “%s” is not a string"), shown);
        }
      /* Two keys may become one; as with duplicate keys, the last counts. */
      g_hash_table_replace (notes, rp_text_clean (l->data, FALSE),
                            rp_text_clean (json_node_get_string (value), TRUE));
    }
  return TRUE;
}

/* Names and units end up in CSV rows, table cells and file names, and tools
 * look series up by name: they are refused with a control character rather
 * than cleaned, so that two names never become one. */
static gboolean
is_plain_text (const char *text,
               gsize       max_bytes,
               gboolean    may_be_empty)
{
  if (text == NULL || strlen (text) > max_bytes || (!may_be_empty && *text == '\0'))
    return FALSE;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (rp_text_is_control (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

/* One [t, value] pair of finite numbers. */
static gboolean
read_point (JsonNode *node,
            RpPoint  *out)
{
  JsonArray *pair;

  if (!JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  pair = json_node_get_array (node);
  return json_array_get_length (pair) == 2 &&
         rp_report_json_get_number (json_array_get_element (pair, 0), &out->t) &&
         rp_report_json_get_number (json_array_get_element (pair, 1), &out->v) &&
         fabs (out->t) <= RP_REPORT_MAX_SECONDS &&
         fabs (out->v) <= RP_REPORT_MAX_VALUE;
}

static int
compare_points_by_time (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  const RpPoint *pa = a, *pb = b;

  return (pa->t > pb->t) - (pa->t < pb->t);
}

/* Durations, sizes, rates and fractions are never negative: no probe of the
 * program writes one (each is an end minus a start of CLOCK_MONOTONIC, a
 * count, or a delta of counters clamped or unsigned), and one would show as
 * "-1000000 µs" and a better-than-ever comparison. Other units may be. A
 * fraction may exceed 1: a PSI stall-time delta over a late sampler's
 * period does. */
static gboolean
unit_is_never_negative (const char *unit)
{
  static const char *const units[] = { "s", "B", "B/s", "ops/s", "ratio" };

  for (guint i = 0; i < G_N_ELEMENTS (units); i++)
    if (g_str_equal (unit, units[i]))
      return TRUE;
  return FALSE;
}

/* What the series of a report add up to while they are read. */
typedef struct {
  guint64 samples;       /* every sample, against the limits */
  guint64 before_start;  /* dropped: a time before the run's start */
} Tally;

/* Adds @n to the report's count, refusing more than @limit samples. */
static gboolean
count_samples (guint64     *n_samples,
               guint64      n,
               guint        limit,
               GError     **error)
{
  *n_samples += n;
  if (*n_samples > limit)
    return set_report_error (error, g_dngettext (GETTEXT_PACKAGE,
                                                 "The report has more than %u sample, more than this program reads",
                                                 "The report has more than %u samples, more than this program reads",
                                                 limit), limit);
  return TRUE;
}

/* The samples of one series, from arrays or blocks, checked as strangers'
 * and appended to @series in time order. */
static gboolean
append_points (const char  *shown,
               const char  *unit,
               GArray      *points,
               RpSeries    *series,
               Tally       *tally,
               GError     **error)
{
  gboolean unsorted = FALSE;
  gboolean never_negative = unit_is_never_negative (unit);
  guint kept = 0;

  for (guint i = 0; i < points->len; i++)
    {
      const RpPoint *point = &g_array_index (points, RpPoint, i);

      if (!isfinite (point->t) || !isfinite (point->v) ||
          fabs (point->t) > RP_REPORT_MAX_SECONDS || fabs (point->v) > RP_REPORT_MAX_VALUE)
        return set_report_error (error, _("Series “%s”, sample %u: expected [t, value], a time within a year and a value of at most 10²¹"),
                                 shown, i);
      /* -0.0 is not below 0: "after - before" of an instant. */
      if (never_negative && point->v < 0)
        /* TRANSLATORS: e.g. "Series “fsync_latency”, sample 3: the value -1 is negative, but values in “s” cannot be" */
        return set_report_error (error, _("Series “%s”, sample %u: the value %g is negative, but values in “%s” cannot be"),
                                 shown, i, point->v, unit);
      /* A time before the start is no sample of the run (t counts from
       * it): dropped and counted, not judged (issue 33: a hand-made
       * "-5" was counted as a stall of the run). */
      if (point->t < 0)
        {
          tally->before_start++;
          continue;
        }
      if (kept > 0 && point->t < g_array_index (points, RpPoint, kept - 1).t)
        unsorted = TRUE;
      g_array_index (points, RpPoint, kept++) = *point;
    }
  g_array_set_size (points, kept);
  /* RpSeries keeps points in time order (its decimation bisects); a
   * hand-edited file may not. g_qsort_with_data() is stable. */
  if (unsorted)
    g_qsort_with_data (points->data, (gint) points->len, sizeof (RpPoint),
                       compare_points_by_time, NULL);
  for (guint i = 0; i < points->len; i++)
    rp_series_append (series, g_array_index (points, RpPoint, i).t, g_array_index (points, RpPoint, i).v);
  return TRUE;
}

/* The value of series.NAME.samples (version 1) into @series, counted in
 * @n_samples. */
static gboolean
read_samples (const char  *shown,
              const char  *unit,
              JsonNode    *node,
              RpSeries    *series,
              Tally       *tally,
              GError     **error)
{
  g_autoptr(GArray) points = NULL;
  JsonArray *samples;
  guint n;

  if (node == NULL)
    return set_report_error (error, _("Series “%s”: key “samples” is missing"), shown);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return set_report_error (error, _("Series “%s”: “samples” must be an array of [t, value] pairs"),
                             shown);
  samples = json_node_get_array (node);
  n = json_array_get_length (samples);
  if (!count_samples (&tally->samples, n, RP_REPORT_MAX_JSON_SAMPLES, error))
    return FALSE;

  points = g_array_sized_new (FALSE, FALSE, sizeof (RpPoint), n);
  for (guint i = 0; i < n; i++)
    {
      RpPoint point;

      if (!read_point (json_array_get_element (samples, i), &point))
        return set_report_error (error, _("Series “%s”, sample %u: expected [t, value], a time within a year and a value of at most 10²¹"),
                                 shown, i);
      g_array_append_val (points, point);
    }
  return append_points (shown, unit, points, series, tally, error);
}

/* series.NAME.count and .blocks (version 2) into @series: each block's
 * base64 decoded straight into points, no JSON value per sample. The count
 * comes first, so that a report over the limit is refused before anything
 * is decoded, and a missing or extra block is told. */
static gboolean
read_blocks (const char  *shown,
             const char  *unit,
             JsonObject  *object,
             RpSeries    *series,
             Tally       *tally,
             GError     **error)
{
  JsonNode *count_node = json_object_get_member (object, "count");
  JsonNode *blocks_node = json_object_get_member (object, "blocks");
  g_autoptr(GArray) points = NULL;
  JsonArray *blocks;
  gint64 count;
  char expected[32], found[32];

  if (count_node == NULL || !JSON_NODE_HOLDS_VALUE (count_node) ||
      json_node_get_value_type (count_node) != G_TYPE_INT64 || json_node_get_int (count_node) < 0)
    return set_report_error (error, _("Series “%s”: key “count” is missing or not a number of samples"),
                             shown);
  if (blocks_node == NULL || !JSON_NODE_HOLDS_ARRAY (blocks_node))
    return set_report_error (error, _("Series “%s”: “blocks” must be an array of strings"), shown);
  count = json_node_get_int (count_node);
  if (!count_samples (&tally->samples, (guint64) count, RP_REPORT_MAX_SAMPLES, error))
    return FALSE;

  blocks = json_node_get_array (blocks_node);
  /* Room for what the blocks can hold, not for what a stranger's count
   * claims: "count": 150000000 beside one block must not take 2.4 GB. */
  points = g_array_sized_new (FALSE, FALSE, sizeof (RpPoint),
                              (guint) MIN ((guint64) count,
                                           (guint64) json_array_get_length (blocks) * RP_REPORT_BLOCK_SAMPLES));
  for (guint b = 0; b < json_array_get_length (blocks); b++)
    {
      JsonNode *block = json_array_get_element (blocks, b);

      if (!node_is_string (block))
        return set_report_error (error, _("Series “%s”: “blocks” must be an array of strings"), shown);
      if (!rp_report_blocks_decode (json_node_get_string (block), strlen (json_node_get_string (block)),
                                    shown, b, points, error))
        return FALSE;
      if (points->len > (guint64) count)
        break;
    }
  if (points->len != (guint64) count)
    {
      g_snprintf (expected, sizeof expected, "%" G_GINT64_FORMAT, count);
      g_snprintf (found, sizeof found, "%u", points->len);
      /* TRANSLATORS: e.g. "Series “fsync_latency”: key “count” says 8192 samples, but its blocks hold 4096 (is the report truncated?)" */
      return set_report_error (error, _("Series “%s”: key “count” says %s samples, but its blocks hold %s (is the report truncated?)"),
                               shown, expected, found);
    }
  return append_points (shown, unit, points, series, tally, error);
}

static RpSeries *
read_one_series (const char  *name,
                 JsonNode    *node,
                 Tally       *tally,
                 GError     **error)
{
  g_autofree char *shown = rp_text_shorten (name);
  g_autofree char *clean_title = NULL;
  g_autoptr(RpSeries) series = NULL;
  JsonObject *object;
  JsonNode *unit, *title;

  if (!is_plain_text (name, RP_REPORT_JSON_MAX_NAME_BYTES, FALSE))
    {
      set_report_error (error,
                        _("Series “%s”: the name is empty, too long or has control characters"),
                        shown);
      return NULL;
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    {
      set_report_error (error, _("Series “%s”: expected an object"), shown);
      return NULL;
    }
  object = json_node_get_object (node);
  unit = json_object_get_member (object, "unit");
  title = json_object_get_member (object, "title");
  if (!node_is_string (unit) || !is_plain_text (json_node_get_string (unit), RP_REPORT_JSON_MAX_UNIT_BYTES, TRUE))
    {
      set_report_error (error, _("Series “%s”: key “unit” is missing or not a short string"),
                        shown);
      return NULL;
    }
  if (title != NULL && !JSON_NODE_HOLDS_NULL (title) &&
      (!node_is_string (title) || strlen (json_node_get_string (title)) > RP_REPORT_JSON_MAX_NAME_BYTES))
    {
      set_report_error (error, _("Series “%s”: key “title” is not a short string"), shown);
      return NULL;
    }

  clean_title = node_is_string (title) ? rp_text_clean (json_node_get_string (title), FALSE) : NULL;
  series = rp_series_new (name, json_node_get_string (unit), clean_title);
  /* Blocks where the writer wrote them (version 2), else arrays: a reader
   * takes either whatever the version, as the keys tell. */
  if (json_object_has_member (object, "blocks") || json_object_has_member (object, "count"))
    {
      if (!read_blocks (shown, json_node_get_string (unit), object, series, tally, error))
        return NULL;
    }
  else if (!read_samples (shown, json_node_get_string (unit), json_object_get_member (object, "samples"),
                          series, tally, error))
    return NULL;
  if (!rp_report_read_full_stats (shown, json_object_get_member (object, "full_statistics"), series,
                                  unit_is_never_negative (json_node_get_string (unit)), error) ||
      !rp_report_read_windows (shown, json_object_get_member (object, "window_histograms"), series, error))
    return NULL;
  /* The tree's samples (~300 bytes a sample as arrays, the text of the
   * blocks) go back before the next series is read. */
  json_object_remove_member (object, "samples");
  json_object_remove_member (object, "blocks");
  json_object_remove_member (object, "window_histograms");
  return g_steal_pointer (&series);
}

static gboolean
read_series (JsonObject  *root,
             GPtrArray   *out,
             GHashTable  *notes,
             GError     **error)
{
  JsonNode *node = json_object_get_member (root, "series");
  g_autoptr(GList) members = NULL;
  JsonObject *object;
  Tally tally = { 0 };

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return set_report_error (error, _("Key “series”: missing or not an object"));
  object = json_node_get_object (node);
  /* Counted before any is read: each costs a chunk, whatever it holds. */
  if (json_object_get_size (object) > RP_REPORT_MAX_SERIES)
    return set_report_error (error, g_dngettext (GETTEXT_PACKAGE,
                                                 "The report has more than %u series, more than this program reads",
                                                 "The report has more than %u series, more than this program reads",
                                                 RP_REPORT_MAX_SERIES), RP_REPORT_MAX_SERIES);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      RpSeries *series = read_one_series (l->data, json_object_get_member (object, l->data),
                                          &tally, error);

      if (series == NULL)
        return FALSE;
      g_ptr_array_add (out, series);
    }
  if (tally.before_start > 0)
    g_hash_table_replace (notes, g_strdup (RP_NOTE_SAMPLES_BEFORE_START),
                          g_strdup_printf ("%" G_GUINT64_FORMAT, tally.before_start));
  return TRUE;
}

/* Checks in the order a user needs them: is it a report at all, of a version
 * we read, then each part. The file's "summary" is ignored on purpose: the
 * statistics are recomputed from the samples, so nobody can make a report
 * claim numbers its samples do not have. */
static RpReport *
report_from_object (JsonObject  *root,
                    GError     **error)
{
  g_autoptr(GDateTime) created = NULL;
  g_autofree char *generator = NULL;
  g_autofree char *error_message = NULL;
  g_autoptr(RpSysinfo) sysinfo = NULL;
  g_autoptr(RpScenario) scenario = NULL;
  g_autoptr(GHashTable) notes = rp_report_notes_new ();
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  RpReportConfiguration configuration = { 0 };
  g_autoptr(GPtrArray) stalls = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_stall_free);
  RpReport *report;
  double duration = 0, baseline = 0;

  if (!check_identity (root, error) ||
      !read_created (root, &created, error) ||
      !get_optional_string (root, "generator", FALSE, &generator, error) ||
      !read_duration (root, &duration, error) ||
      !read_baseline (root, duration, &baseline, error) ||
      !get_optional_string (root, "error", TRUE, &error_message, error) ||
      !read_system (root, &sysinfo, error) ||
      !read_scenario (root, &scenario, error) ||
      !read_notes (root, notes, error) ||
      !read_series (root, series, notes, error) ||
      !rp_report_configuration_from_json (root, &configuration, error) ||
      !rp_report_read_stalls (root, stalls, error))
    return NULL;

  report = rp_report_new_take (g_steal_pointer (&created),
                             generator != NULL ? g_steal_pointer (&generator) : g_strdup (""),
                             g_steal_pointer (&sysinfo),
                             g_steal_pointer (&scenario),
                             g_steal_pointer (&series),
                             g_steal_pointer (&notes),
                             g_steal_pointer (&error_message),
                             duration);
  report->configuration = configuration;
  report->baseline = MIN (baseline, report->duration);
  rp_report_take_stalls (report, g_steal_pointer (&stalls));
  return report;
}

/* The checked parse of a report's text: the pre-check, then json-glib. */
static JsonParser *
parse_report (const char  *data,
              gsize        length,
              GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  if ((guint64) length > RP_REPORT_MAX_FILE_SIZE)
    {
      g_autofree char *limit = rp_format_size (RP_REPORT_MAX_FILE_SIZE);

      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("The report is larger than %s, more than this program reads"), limit);
      return NULL;
    }
  if (!rp_report_json_precheck (data, length, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, (gssize) length, &local_error))
    {
      /* json-glib's message has the line and column. */
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("The report is not valid JSON: %s"), local_error->message);
      return NULL;
    }
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("This is not a Responsiveness Probe report: it is not a JSON object"));
      return NULL;
    }
  return g_steal_pointer (&parser);
}

/**
 * rp_report_load_from_data:
 * @data: (array length=length): the JSON text, need not be NUL-terminated
 * @length: its length in bytes, or -1 if NUL-terminated
 * @error: %RP_ERROR_REPORT with a translated message naming the line and
 *   column (malformed JSON) or the key, series, block and sample (wrong
 *   content)
 *
 * Reads a report written by rp_report_to_json() (version 2, or version 1),
 * possibly by a stranger: everything is checked (format, version ≤
 * %RP_REPORT_VERSION, types, finite samples, no negative durations, sizes,
 * rates or fractions, %RP_REPORT_MAX_SAMPLES samples, whole blocks, nesting
 * depth), nothing in the file can crash the program. Control and
 * bidirectional characters in its strings become spaces (rp_text_clean()).
 * The statistics are recomputed from the samples. The result behaves like
 * the report of a finished run.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error set
 */
RpReport *
rp_report_load_from_data (const char  *data,
                          gssize       length,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  parser = parse_report (data, length < 0 ? strlen (data) : (gsize) length, error);
  if (parser == NULL)
    return NULL;
  return report_from_object (json_node_get_object (json_parser_get_root (parser)), error);
}

/* rp_report_load_from_data() that frees the file's text once json-glib has
 * parsed it, before the samples are decoded: a long report's memory is then
 * its blocks' text or its samples, hardly both. */
RpReport *
rp_report_load_from_bytes (GByteArray  *bytes,
                           GError     **error)
{
  g_autoptr(JsonParser) parser = parse_report ((const char *) bytes->data, bytes->len, error);

  g_byte_array_unref (bytes);
  if (parser == NULL)
    return NULL;
  return report_from_object (json_node_get_object (json_parser_get_root (parser)), error);
}
