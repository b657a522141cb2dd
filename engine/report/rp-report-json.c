/* rp-report-json.c: a report to and from JSON (docs/REPORT-FORMAT.md) with json-glib. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-units.h"

/* Limits of the loader beyond the public ones in rp-report.h. Our own reports
 * nest five levels deep; a string is a path or a note; names and units end
 * up in table cells and CSV rows. */
#define MAX_DEPTH      64
#define MAX_STRING     (1024 * 1024)
#define MAX_NAME_BYTES 200
#define MAX_UNIT_BYTES 32

/* json-glib 1.6 builds about 100 bytes of tree per array element and 300 per
 * object or member (measured). The pre-check counts 1 per '[' and ',' and 3
 * per '{' and ':', enough for RP_REPORT_MAX_SAMPLES samples (3 each) and a
 * million other values, and so keeps the tree under about 1.8 GB whatever
 * the shape of the file. */
#define MAX_TREE_UNITS (3 * (guint64) RP_REPORT_MAX_SAMPLES + 1000000)

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

static JsonObject *
series_to_json (RpReport *self)
{
  JsonObject *all = json_object_new ();

  for (guint i = 0; i < self->series->len; i++)
    {
      RpSeries *series = g_ptr_array_index (self->series, i);
      JsonObject *object = json_object_new ();

      json_object_set_string_member (object, "unit", rp_series_get_unit (series));
      json_object_set_string_member (object, "title", rp_series_get_title (series));
      json_object_set_array_member (object, "samples", samples_to_json (series));
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
report_to_node (RpReport *self)
{
  g_autofree char *created = g_date_time_format_iso8601 (self->created);
  JsonObject *root = json_object_new ();
  JsonNode *node;

  json_object_set_string_member (root, "format", RP_REPORT_FORMAT);
  json_object_set_int_member (root, "version", RP_REPORT_VERSION);
  json_object_set_string_member (root, "created", created);
  json_object_set_string_member (root, "generator", self->generator);
  add_double_member (root, "duration", self->duration);
  json_object_set_string_member (root, "error", self->error_message);
  json_object_set_member (root, "system", rp_sysinfo_to_json (self->sysinfo));
  json_object_set_member (root, "scenario", rp_scenario_to_json (self->scenario));
  json_object_set_object_member (root, "notes", notes_to_json (self));
  json_object_set_object_member (root, "series", series_to_json (self));
  json_object_set_object_member (root, "summary", summary_to_json (self));
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
 * The report in the format of docs/REPORT-FORMAT.md, written by json-glib:
 * UTF-8, 2-space indent, doubles with 17 significant digits (so that they
 * read back exactly) and a '.' whatever the locale, ending with a newline.
 * Takes about 300 bytes of memory per sample while it runs.
 *
 * Returns: (transfer full): the JSON text
 */
char *
rp_report_to_json (RpReport *self,
                   gsize    *out_length)
{
  g_autoptr(JsonGenerator) generator = NULL;
  g_autoptr(JsonNode) root = NULL;
  GString *out;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  root = report_to_node (self);
  generator = json_generator_new ();
  json_generator_set_pretty (generator, TRUE);
  json_generator_set_indent (generator, 2);
  json_generator_set_root (generator, root);

  /* At most about 96 bytes a sample (every number is on a line of its own),
   * so that the string never doubles while it grows. */
  out = g_string_sized_new (8192 + 96 * rp_report_count_samples (self));
  json_generator_to_gstring (generator, out);
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

/* ------------------------------------------------------------------------ */
/* The pre-check                                                             */
/*                                                                           */
/* Reports come from strangers' bug attachments. json-glib 1.6's parser      */
/* recurses without a depth limit (200 000 '[' overflow the stack) and costs */
/* about 300 bytes per sample, so one pass over the bytes checks the depth   */
/* and the size of the tree to come before json-glib sees them. For its      */
/* bracket count to be json-glib's, it must agree on where strings end: so   */
/* it accepts outside strings only JSON's own bytes (json-glib also takes    */
/* '…' strings and comments, which could hide a '"'), and in strings only    */
/* JSON's escapes (json-glib reads four bytes after \u, and a second escape  */
/* after a surrogate, even if one of them is the closing quote).             */
/* ------------------------------------------------------------------------ */

typedef struct {
  const char *data;
  gsize       length;
  gsize       pos;
} Scan;

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* What JSON has outside strings, besides brackets: numbers, true, false,
 * null. A switch, not strchr(): this runs for every byte of a 256 MiB file. */
static gboolean
is_json_byte (char c)
{
  switch (c)
    {
    case ' ': case '\n': case '\r': case '\t': case ',': case ':':
    case '-': case '+': case '.': case 'E':
    case 'a': case 'e': case 'f': case 'l': case 'n': case 'r': case 's': case 't': case 'u':
      return TRUE;
    default:
      return g_ascii_isdigit (c);
    }
}

static gboolean
scan_fail (const Scan  *scan,
           const char  *what,
           GError     **error)
{
  guint line = 1, column = 1;

  for (gsize i = 0; i < scan->pos && i < scan->length; i++)
    {
      if (scan->data[i] == '\n')
        {
          line++;
          column = 1;
        }
      else if (((guchar) scan->data[i] & 0xc0) != 0x80)
        column++;
    }
  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               /* TRANSLATORS: the last %s says what is wrong, e.g. "nested too deeply" */
               _("The report is not valid JSON: line %u, column %u: %s"), line, column, what);
  return FALSE;
}

static gboolean
scan_fail_truncated (Scan    *scan,
                     GError **error)
{
  scan->pos = scan->length;
  return scan_fail (scan, _("unexpected end of data (is the file truncated?)"), error);
}

static gboolean
scan_fail_byte (const Scan  *scan,
                GError     **error)
{
  guchar c = (guchar) scan->data[scan->pos];
  g_autofree char *what = NULL;

  if (g_ascii_isprint (c))
    what = g_strdup_printf (_("unexpected character “%c”"), c);
  else
    what = g_strdup_printf (_("unexpected byte 0x%02x"), (guint) c);
  return scan_fail (scan, what, error);
}

/* Four hex digits at @at, or -1 if there are not (-2: the data ends first). */
static int
scan_hex4 (const Scan *scan,
           gsize       at)
{
  int value = 0;

  for (guint i = 0; i < 4; i++)
    {
      int digit;

      if (at + i >= scan->length)
        return -2;
      digit = g_ascii_xdigit_value (scan->data[at + i]);
      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }
  return value;
}

/* At a backslash in a string: moves past the escape. A surrogate must be a
 * high one followed by an escaped low one. */
static gboolean
scan_escape (Scan    *scan,
             GError **error)
{
  gsize at = scan->pos + 1;
  int code, low = 0xdc00;

  if (at >= scan->length)
    return scan_fail_truncated (scan, error);
  if (scan->data[at] != 'u')
    {
      scan->pos = at + 1;
      if (scan->data[at] != '\0' && strchr ("\"\\/bfnrt", scan->data[at]) != NULL)
        return TRUE;
      return scan_fail (scan, _("invalid escape in a string"), error);
    }
  code = scan_hex4 (scan, at + 1);
  scan->pos = at + 5;
  if (code >= 0xd800 && code <= 0xdbff)
    {
      if (at + 6 < scan->length && (scan->data[at + 5] != '\\' || scan->data[at + 6] != 'u'))
        low = -1;
      else
        low = scan_hex4 (scan, at + 7);
      scan->pos = at + 11;
    }
  if (code == -2 || low == -2)
    return scan_fail_truncated (scan, error);
  if (code < 0 || (code >= 0xdc00 && code <= 0xdfff) || low < 0xdc00 || low > 0xdfff)
    return scan_fail (scan, _("invalid \\u escape in a string"), error);
  return TRUE;
}

/* At the opening quote: moves to the closing one. */
static gboolean
scan_string (Scan    *scan,
             GError **error)
{
  gsize start = scan->pos;

  scan->pos++;
  while (scan->pos < scan->length && scan->data[scan->pos] != '"')
    {
      if (scan->data[scan->pos] != '\\')
        scan->pos++;
      else if (!scan_escape (scan, error))
        return FALSE;
    }
  if (scan->pos >= scan->length)
    return scan_fail_truncated (scan, error);
  if (scan->pos - start > MAX_STRING)
    {
      scan->pos = start;
      return scan_fail (scan, _("a string longer than 1 MiB"), error);
    }
  return TRUE;
}

/* After the top-level object: only white space. */
static gboolean
scan_end (Scan    *scan,
          GError **error)
{
  for (scan->pos++; scan->pos < scan->length; scan->pos++)
    if (!is_space (scan->data[scan->pos]))
      return scan_fail (scan, _("unexpected data after the end of the report"), error);
  return TRUE;
}

/* At the top-level '{'. */
static gboolean
scan_document (Scan    *scan,
               GError **error)
{
  guint depth = 0;
  guint64 units = 0;

  for (; scan->pos < scan->length; scan->pos++)
    {
      char c = scan->data[scan->pos];

      if (c == '"')
        {
          if (!scan_string (scan, error))
            return FALSE;
        }
      else if (c == '{' || c == '[')
        {
          if (++depth > MAX_DEPTH)
            return scan_fail (scan, _("nested too deeply"), error);
        }
      else if (c == '}' || c == ']')
        {
          if (--depth == 0)
            return scan_end (scan, error);
        }
      else if (!is_json_byte (c))
        return scan_fail_byte (scan, error);

      units += (c == '{' || c == ':') ? 3 : (c == '[' || c == ',') ? 1 : 0;
      if (units > MAX_TREE_UNITS)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                       _("The report has too many values, more than this program reads"));
          return FALSE;
        }
    }
  return scan_fail_truncated (scan, error);
}

static gboolean
precheck (const char  *data,
          gsize        length,
          GError     **error)
{
  Scan scan = { data, length, 0 };

  /* A UTF-8 byte order mark, as some Windows editors write: json-glib skips it. */
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    scan.pos = 3;
  while (scan.pos < length && is_space (data[scan.pos]))
    scan.pos++;
  if (scan.pos == length)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT, _("The report is empty"));
      return FALSE;
    }
  if (data[scan.pos] != '{')
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("This is not a Responsiveness Probe report: it is not a JSON object"));
      return FALSE;
    }
  return scan_document (&scan, error);
}

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

/* json-glib reads 1e999 as infinity: finite numbers only. */
static gboolean
node_get_number (JsonNode *node,
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
  if (!node_get_number (node, out) || *out < 0)
    return set_report_error (error, _("Key “duration”: expected a number of seconds, zero or more"));
  if (*out > RP_REPORT_MAX_SECONDS)
    return set_report_error (error, _("Key “duration”: %g s is longer than a year"), *out);
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

static gboolean
read_system (JsonObject  *root,
             RpSysinfo  **out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (root, "system");
  GError *part_error = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return set_report_error (error, _("Key “system”: missing or not an object"));
  clean_strings (node, FALSE);
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
  JsonNode *node = json_object_get_member (root, "scenario");
  GError *part_error = NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return set_report_error (error, _("Key “scenario”: missing or not an object"));
  clean_strings (node, FALSE);
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
         node_get_number (json_array_get_element (pair, 0), &out->t) &&
         node_get_number (json_array_get_element (pair, 1), &out->v) &&
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

/* The value of series.NAME.samples into @series, counted in @n_samples. */
static gboolean
read_samples (const char  *shown,
              const char  *unit,
              JsonNode    *node,
              RpSeries    *series,
              guint64     *n_samples,
              GError     **error)
{
  g_autoptr(GArray) points = NULL;
  JsonArray *samples;
  gboolean unsorted = FALSE;
  gboolean never_negative = unit_is_never_negative (unit);
  guint n;

  if (node == NULL)
    return set_report_error (error, _("Series “%s”: key “samples” is missing"), shown);
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return set_report_error (error, _("Series “%s”: “samples” must be an array of [t, value] pairs"),
                             shown);
  samples = json_node_get_array (node);
  n = json_array_get_length (samples);
  *n_samples += n;
  if (*n_samples > RP_REPORT_MAX_SAMPLES)
    return set_report_error (error, _("The report has more than %u samples, more than this program reads"),
                             RP_REPORT_MAX_SAMPLES);

  points = g_array_sized_new (FALSE, FALSE, sizeof (RpPoint), n);
  for (guint i = 0; i < n; i++)
    {
      RpPoint point;

      if (!read_point (json_array_get_element (samples, i), &point))
        return set_report_error (error, _("Series “%s”, sample %u: expected [t, value], a time within a year and a value of at most 10²¹"),
                                 shown, i);
      /* -0.0 is not below 0: "after - before" of an instant. */
      if (never_negative && point.v < 0)
        /* TRANSLATORS: e.g. "Series “fsync_latency”, sample 3: the value -1 is negative, but values in “s” cannot be" */
        return set_report_error (error, _("Series “%s”, sample %u: the value %g is negative, but values in “%s” cannot be"),
                                 shown, i, point.v, unit);
      if (i > 0 && point.t < g_array_index (points, RpPoint, i - 1).t)
        unsorted = TRUE;
      g_array_append_val (points, point);
    }
  /* RpSeries keeps points in time order (its decimation bisects); a
   * hand-edited file may not. g_qsort_with_data() is stable. */
  if (unsorted)
    g_qsort_with_data (points->data, (gint) points->len, sizeof (RpPoint),
                       compare_points_by_time, NULL);
  for (guint i = 0; i < points->len; i++)
    rp_series_append (series, g_array_index (points, RpPoint, i).t, g_array_index (points, RpPoint, i).v);
  return TRUE;
}

static RpSeries *
read_one_series (const char  *name,
                 JsonNode    *node,
                 guint64     *n_samples,
                 GError     **error)
{
  g_autofree char *shown = rp_text_shorten (name);
  g_autofree char *clean_title = NULL;
  g_autoptr(RpSeries) series = NULL;
  JsonObject *object;
  JsonNode *unit, *title;

  if (!is_plain_text (name, MAX_NAME_BYTES, FALSE))
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
  if (!node_is_string (unit) || !is_plain_text (json_node_get_string (unit), MAX_UNIT_BYTES, TRUE))
    {
      set_report_error (error, _("Series “%s”: key “unit” is missing or not a short string"),
                        shown);
      return NULL;
    }
  if (title != NULL && !JSON_NODE_HOLDS_NULL (title) &&
      (!node_is_string (title) || strlen (json_node_get_string (title)) > MAX_NAME_BYTES))
    {
      set_report_error (error, _("Series “%s”: key “title” is not a short string"), shown);
      return NULL;
    }

  clean_title = node_is_string (title) ? rp_text_clean (json_node_get_string (title), FALSE) : NULL;
  series = rp_series_new (name, json_node_get_string (unit), clean_title);
  if (!read_samples (shown, json_node_get_string (unit), json_object_get_member (object, "samples"),
                     series, n_samples, error))
    return NULL;
  /* The tree's ~300 bytes a sample go back before the next series is read. */
  json_object_remove_member (object, "samples");
  return g_steal_pointer (&series);
}

static gboolean
read_series (JsonObject  *root,
             GPtrArray   *out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (root, "series");
  g_autoptr(GList) members = NULL;
  JsonObject *object;
  guint64 n_samples = 0;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return set_report_error (error, _("Key “series”: missing or not an object"));
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      RpSeries *series = read_one_series (l->data, json_object_get_member (object, l->data),
                                          &n_samples, error);

      if (series == NULL)
        return FALSE;
      g_ptr_array_add (out, series);
    }
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
  double duration = 0;

  if (!check_identity (root, error) ||
      !read_created (root, &created, error) ||
      !get_optional_string (root, "generator", FALSE, &generator, error) ||
      !read_duration (root, &duration, error) ||
      !get_optional_string (root, "error", TRUE, &error_message, error) ||
      !read_system (root, &sysinfo, error) ||
      !read_scenario (root, &scenario, error) ||
      !read_notes (root, notes, error) ||
      !read_series (root, series, error))
    return NULL;

  return rp_report_new_take (g_steal_pointer (&created),
                             generator != NULL ? g_steal_pointer (&generator) : g_strdup (""),
                             g_steal_pointer (&sysinfo),
                             g_steal_pointer (&scenario),
                             g_steal_pointer (&series),
                             g_steal_pointer (&notes),
                             g_steal_pointer (&error_message),
                             duration);
}

/**
 * rp_report_load_from_data:
 * @data: (array length=length): the JSON text, need not be NUL-terminated
 * @length: its length in bytes, or -1 if NUL-terminated
 * @error: %RP_ERROR_REPORT with a translated message naming the line and
 *   column (malformed JSON) or the key, series and sample (wrong content)
 *
 * Reads a report written by rp_report_to_json(), possibly by a stranger:
 * everything is checked (format, version ≤ %RP_REPORT_VERSION, types, finite
 * samples, no negative durations, sizes, rates or fractions,
 * %RP_REPORT_MAX_SAMPLES samples, nesting depth), nothing in the file can
 * crash the program. Control and bidirectional characters in its strings
 * become spaces (rp_text_clean()). The statistics are recomputed from the
 * samples. The result behaves like the report of a finished run.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error set
 */
RpReport *
rp_report_load_from_data (const char  *data,
                          gssize       length,
                          GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GError) local_error = NULL;
  JsonNode *root;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length < 0)
    length = (gssize) strlen (data);
  if ((guint64) length > RP_REPORT_MAX_FILE_SIZE)
    {
      g_autofree char *limit = rp_format_size (RP_REPORT_MAX_FILE_SIZE);

      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("The report is larger than %s, more than this program reads"), limit);
      return NULL;
    }
  if (!precheck (data, (gsize) length, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, data, length, &local_error))
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
  return report_from_object (json_node_get_object (root), error);
}
