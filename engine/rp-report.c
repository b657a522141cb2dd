/* rp-report.c: a run as an immutable value: JSON, CSV, text, comparison, and a hardened loader. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <errno.h>
#include <locale.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "rp-error.h"
#include "rp-report.h"
#include "rp-sysinfo-private.h"
#include "rp-units.h"

/* Bug trackers and mail show 80 columns without wrapping. */
#define TEXT_WIDTH 80

/* Limits of the loader beyond the public ones in rp-report.h. Our own reports
 * nest five levels deep; the generic values (everything but the samples) are
 * a few hundred; a string is a path or a note. */
#define MAX_DEPTH       64
#define MAX_VALUES      1000000
#define MAX_STRING      (1024 * 1024)
#define MAX_NAME_BYTES  200
#define MAX_UNIT_BYTES  32

struct _RpReport
{
  GObject     parent_instance;

  GDateTime  *created;        /* start of the run, UTC */
  char       *generator;      /* "resprobe 0.1.0" of whoever wrote it */
  RpSysinfo  *sysinfo;
  RpScenario *scenario;
  GPtrArray  *series;         /* RpSeries, owned; nobody appends to them */
  GHashTable *notes;          /* char * → char * */
  char       *error_message;  /* nullable */
  double      duration;       /* seconds */

  /* Statistics of each series, computed on first use. A report never changes,
   * so they stay valid; sorting 50 million samples once is enough. Locked:
   * a GUI saves a report on a worker thread while its main thread shows the
   * verdict. */
  GMutex      stats_lock;
  RpStats    *stats;
  gboolean   *stats_valid;
};

G_DEFINE_FINAL_TYPE (RpReport, rp_report, G_TYPE_OBJECT)

static void
rp_report_finalize (GObject *object)
{
  RpReport *self = RP_REPORT (object);

  g_clear_pointer (&self->created, g_date_time_unref);
  g_clear_pointer (&self->generator, g_free);
  g_clear_pointer (&self->sysinfo, rp_sysinfo_free);
  g_clear_pointer (&self->scenario, rp_scenario_free);
  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_hash_table_unref);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->stats, g_free);
  g_clear_pointer (&self->stats_valid, g_free);
  g_mutex_clear (&self->stats_lock);

  G_OBJECT_CLASS (rp_report_parent_class)->finalize (object);
}

static void
rp_report_class_init (RpReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rp_report_finalize;
}

static void
rp_report_init (RpReport *self)
{
  g_mutex_init (&self->stats_lock);
}

/* ------------------------------------------------------------------------ */
/* Construction                                                              */
/* ------------------------------------------------------------------------ */

static GHashTable *
notes_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static GHashTable *
notes_copy (GHashTable *notes)
{
  GHashTable *copy = notes_new ();
  GHashTableIter iter;
  gpointer key, value;

  if (notes == NULL)
    return copy;
  g_hash_table_iter_init (&iter, notes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (key != NULL && value != NULL)
      g_hash_table_insert (copy, g_strdup (key), g_strdup (value));
  return copy;
}

/* A private copy, so that a running session's workers can keep appending to
 * theirs while the report stays what it was when taken. */
static RpSeries *
series_snapshot (RpSeries *series)
{
  g_autofree RpPoint *points = NULL;
  RpSeries *copy;
  guint n = 0;

  copy = rp_series_new (rp_series_get_name (series),
                        rp_series_get_unit (series),
                        rp_series_get_title (series));
  points = rp_series_copy_points (series, 0, &n);
  for (guint i = 0; i < n; i++)
    rp_series_append (copy, points[i].t, points[i].v);
  return copy;
}

static GPtrArray *
series_array_snapshot (GPtrArray *series)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; series != NULL && i < series->len; i++)
    g_ptr_array_add (copy, series_snapshot (g_ptr_array_index (series, i)));
  return copy;
}

/* Takes ownership of everything. The duration is at least the last sample's
 * time, so that a plot's time axis always covers every point. */
static RpReport *
report_new_take (GDateTime  *created,
                 char       *generator,
                 RpSysinfo  *sysinfo,
                 RpScenario *scenario,
                 GPtrArray  *series,
                 GHashTable *notes,
                 char       *error_message,
                 double      duration)
{
  RpReport *self = g_object_new (RP_TYPE_REPORT, NULL);

  self->created = created;
  self->generator = generator;
  self->sysinfo = sysinfo;
  self->scenario = scenario;
  self->series = series;
  self->notes = notes;
  self->error_message = error_message;
  self->duration = isfinite (duration) && duration > 0 ? duration : 0;
  for (guint i = 0; i < series->len; i++)
    {
      double t_max = 0;

      if (rp_series_get_bounds (g_ptr_array_index (series, i), NULL, &t_max, NULL, NULL))
        self->duration = MAX (self->duration, t_max);
    }
  self->stats = g_new0 (RpStats, MAX (series->len, 1));
  self->stats_valid = g_new0 (gboolean, MAX (series->len, 1));
  return self;
}

/**
 * rp_report_new:
 * @sysinfo: (nullable): the system snapshot; %NULL: everything unknown
 * @scenario: what ran
 * @series: (element-type RpSeries) (nullable): the measurements
 * @notes: (element-type utf8 utf8) (nullable): free-form key → value notes
 *
 * Builds a report from parts, for tests and for tools that measure without a
 * session. Everything is copied (the series' points too), so later appends
 * to @series do not change the report. The creation time is now; the
 * duration is the last sample's time.
 *
 * Returns: (transfer full): the report
 */
RpReport *
rp_report_new (const RpSysinfo  *sysinfo,
               const RpScenario *scenario,
               GPtrArray        *series,
               GHashTable       *notes)
{
  g_return_val_if_fail (scenario != NULL, NULL);

  return report_new_take (g_date_time_new_now_utc (),
                          g_strdup ("resprobe " PACKAGE_VERSION),
                          sysinfo != NULL ? rp_sysinfo_copy (sysinfo) : rp_sysinfo_new (),
                          rp_scenario_copy (scenario),
                          series_array_snapshot (series),
                          notes_copy (notes),
                          NULL, 0);
}

/**
 * rp_report_new_from_session:
 * @session: a session, normally finished; a running one gives a snapshot of
 *   what has been measured so far
 *
 * The creation time is the session's start (now if it never started), the
 * duration its elapsed time (or the last sample's, if later), the error
 * message that of its fatal error.
 *
 * Returns: (transfer full): the report
 */
RpReport *
rp_report_new_from_session (RpSession *session)
{
  g_autoptr(GPtrArray) series = NULL;
  GDateTime *start;
  const RpSysinfo *sysinfo;
  const GError *error;

  g_return_val_if_fail (RP_IS_SESSION (session), NULL);

  start = rp_session_get_start_time (session);
  sysinfo = rp_session_get_sysinfo (session);
  error = rp_session_get_error (session);
  series = rp_session_get_series (session);

  return report_new_take (start != NULL ? g_date_time_to_utc (start) : g_date_time_new_now_utc (),
                          g_strdup ("resprobe " PACKAGE_VERSION),
                          sysinfo != NULL ? rp_sysinfo_copy (sysinfo) : rp_sysinfo_new (),
                          rp_scenario_copy (rp_session_get_scenario (session)),
                          series_array_snapshot (series),
                          rp_session_get_notes (session),
                          error != NULL ? g_strdup (error->message) : NULL,
                          rp_session_get_elapsed (session));
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                 */
/* ------------------------------------------------------------------------ */

/**
 * rp_report_get_created:
 *
 * Returns: (transfer none): when the run started, in UTC
 */
GDateTime *
rp_report_get_created (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->created;
}

/**
 * rp_report_get_sysinfo:
 *
 * Returns: (transfer none): the system snapshot, never %NULL (fields may be unknown)
 */
const RpSysinfo *
rp_report_get_sysinfo (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->sysinfo;
}

/**
 * rp_report_get_scenario:
 *
 * Returns: (transfer none): the scenario that ran (not validated if loaded)
 */
const RpScenario *
rp_report_get_scenario (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->scenario;
}

/**
 * rp_report_get_series:
 *
 * Returns: (transfer none) (element-type RpSeries): the series, in the order
 *   they were created (or appear in the file); do not append to them
 */
GPtrArray *
rp_report_get_series (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->series;
}

static int
report_find_series (RpReport   *self,
                    const char *name)
{
  for (guint i = 0; i < self->series->len; i++)
    if (g_strcmp0 (rp_series_get_name (g_ptr_array_index (self->series, i)), name) == 0)
      return (int) i;
  return -1;
}

/**
 * rp_report_lookup_series:
 * @name: e.g. %RP_SERIES_FSYNC_LATENCY
 *
 * Returns: (transfer none) (nullable): the series, or %NULL
 */
RpSeries *
rp_report_lookup_series (RpReport   *self,
                         const char *name)
{
  int i;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  i = report_find_series (self, name);
  return i >= 0 ? g_ptr_array_index (self->series, i) : NULL;
}

/**
 * rp_report_get_notes:
 *
 * Returns: (transfer none) (element-type utf8 utf8): free-form notes, key → value
 */
GHashTable *
rp_report_get_notes (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->notes;
}

/**
 * rp_report_get_error_message:
 *
 * Returns: (nullable): the message of the error that ended the run, or %NULL
 */
const char *
rp_report_get_error_message (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->error_message;
}

/**
 * rp_report_get_duration:
 *
 * Returns: the run's length in seconds, at least the last sample's time
 */
double
rp_report_get_duration (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), 0);
  return self->duration;
}

static void
report_stats_at (RpReport *self,
                 guint     i,
                 RpStats  *out_stats)
{
  g_assert (i < self->series->len);

  g_mutex_lock (&self->stats_lock);
  if (!self->stats_valid[i])
    {
      rp_series_compute_stats (g_ptr_array_index (self->series, i), &self->stats[i]);
      self->stats_valid[i] = TRUE;
    }
  *out_stats = self->stats[i];
  g_mutex_unlock (&self->stats_lock);
}

/**
 * rp_report_get_stats:
 * @name: a series name
 * @out_stats: (out caller-allocates): its statistics (see #RpStats); all zero
 *   when the series is missing
 *
 * The statistics always come from the samples, also for a loaded report (the
 * file's "summary" is not trusted). Computed once per series.
 *
 * Returns: %TRUE if the report has a series @name
 */
gboolean
rp_report_get_stats (RpReport   *self,
                     const char *name,
                     RpStats    *out_stats)
{
  int i;

  g_return_val_if_fail (RP_IS_REPORT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (out_stats != NULL, FALSE);

  i = report_find_series (self, name);
  if (i < 0)
    {
      memset (out_stats, 0, sizeof *out_stats);
      return FALSE;
    }
  report_stats_at (self, (guint) i, out_stats);
  return TRUE;
}

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

/* Exact and short: %.17g always reads back as the same double, but shows a
 * short decimal such as 0.5422 as 0.54220000000000002. Such a tail of
 * zeros or nines is the sign that 15 or 16 digits also read back; only then
 * are they tried, as measured values rarely have one. Always with a '.'
 * whatever the locale: snprintf() and strtod() run under a thread-local C
 * locale, twice as fast as g_ascii_formatd() for reports with tens of
 * millions of samples. */
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

/* A JSON number that reads back as a double (with a '.' or an exponent), so
 * that a reader distinguishing integers from doubles sees the same type. */
static void
append_json_double (GString *out,
                    double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }
  format_double (buffer, sizeof buffer, value);
  g_string_append (out, buffer);
  if (strpbrk (buffer, ".eE") == NULL)
    g_string_append (out, ".0");
}

static void
append_json_string (GString    *out,
                    const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text, -1);

  g_string_append_c (out, '"');
  for (const char *p = valid; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      switch (c)
        {
        case '"': g_string_append (out, "\\\""); break;
        case '\\': g_string_append (out, "\\\\"); break;
        case '\n': g_string_append (out, "\\n"); break;
        case '\r': g_string_append (out, "\\r"); break;
        case '\t': g_string_append (out, "\\t"); break;
        case '\b': g_string_append (out, "\\b"); break;
        case '\f': g_string_append (out, "\\f"); break;
        default:
          if (c < 0x20 || c == 0x7f)
            g_string_append_printf (out, "\\u%04x", c);
          else
            g_string_append_c (out, (char) c);
          break;
        }
    }
  g_string_append_c (out, '"');
}

static void
append_indent (GString *out,
               guint    level)
{
  for (guint i = 0; i < level; i++)
    g_string_append (out, "  ");
}

static gsize
text_width (const char *text)
{
  return g_utf8_strlen (text, -1);
}

/* Control characters (ANSI escapes, tabs, carriage returns) from a stranger's
 * report must not reach a terminal or break the layout; newlines stay. */
static char *
sanitize_text (const char *text)
{
  g_autofree char *valid = g_utf8_make_valid (text != NULL ? text : "", -1);
  GString *out = g_string_sized_new (strlen (valid));

  for (const char *p = valid; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (c == '\n')
        g_string_append_c (out, '\n');
      else if (g_unichar_iscntrl (c))
        g_string_append_c (out, ' ');
      else
        g_string_append_unichar (out, c);
    }
  return g_string_free (out, FALSE);
}

/* Long or hostile strings quoted in an error message stay short and printable. */
static char *
shorten (const char *text)
{
  g_autofree char *clean = sanitize_text (text);

  if (g_utf8_strlen (clean, -1) <= 40)
    return g_steal_pointer (&clean);
  return g_strdup_printf ("%.*s…", (int) (g_utf8_offset_to_pointer (clean, 40) - clean), clean);
}

static gboolean
is_break_after (gunichar c)
{
  return c == ' ' || c == ',' || c == ';' || c == '/';
}

/* Splits @text into lines of at most @width columns, preferring to break
 * after a space or a comma (mount options have no spaces), hard-breaking a
 * run with neither. Newlines in @text start new lines. */
static GPtrArray *
wrap_lines (const char *text,
            gsize       width)
{
  g_autofree char *clean = sanitize_text (text);
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  const char *p = clean;

  width = MAX (width, 8);
  for (;;)
    {
      const char *q = p;
      const char *end;
      const char *brk = NULL;
      gsize cols = 0;
      char *line;

      while (*q != '\0' && *q != '\n' && cols < width)
        {
          gunichar c = g_utf8_get_char (q);

          q = g_utf8_next_char (q);
          cols++;
          if (is_break_after (c))
            brk = q;
        }
      if (*q == '\0' || *q == '\n' || *q == ' ')
        end = q;
      else
        end = brk != NULL ? brk : q;

      line = g_strndup (p, (gsize) (end - p));
      g_strchomp (line);
      g_ptr_array_add (lines, line);

      p = end;
      if (*p == '\n')
        p++;
      else
        while (*p == ' ')
          p++;
      if (*p == '\0')
        break;
    }
  return lines;
}

/* Appends @text wrapped to TEXT_WIDTH: the first line after @first_prefix,
 * the others after @next_prefix. */
static void
append_wrapped (GString    *out,
                const char *first_prefix,
                const char *next_prefix,
                const char *text)
{
  gsize prefix = MAX (text_width (first_prefix), text_width (next_prefix));
  g_autoptr(GPtrArray) lines = wrap_lines (text, TEXT_WIDTH > prefix + 20 ? TEXT_WIDTH - prefix : 20);

  for (guint i = 0; i < lines->len; i++)
    {
      gsize start = out->len;

      g_string_append (out, i == 0 ? first_prefix : next_prefix);
      g_string_append (out, g_ptr_array_index (lines, i));
      /* No trailing blanks when a line (or the value) is empty. */
      while (out->len > start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
}

static void
append_padded (GString    *out,
               const char *text,
               gsize       width,
               gboolean    right)
{
  gsize w = text_width (text);

  if (right)
    for (gsize i = w; i < width; i++)
      g_string_append_c (out, ' ');
  g_string_append (out, text);
  if (!right)
    for (gsize i = w; i < width; i++)
      g_string_append_c (out, ' ');
}

static void
append_heading (GString    *out,
                const char *title,
                char        underline)
{
  gsize w = text_width (title);

  g_string_append (out, title);
  g_string_append_c (out, '\n');
  for (gsize i = 0; i < MIN (w, TEXT_WIDTH); i++)
    g_string_append_c (out, underline);
  g_string_append_c (out, '\n');
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
  while (text_width (prefix->str) < label_width + 2)
    g_string_append_c (prefix, ' ');
  indent = g_strnfill (label_width + 2, ' ');
  if (text_width (prefix->str) > TEXT_WIDTH - 20)
    {
      /* A very long (translated) label gets the value on the line below. */
      append_wrapped (out, "", "", label);
      append_wrapped (out, indent, indent, value);
      return;
    }
  /* Labels longer than the column push only their own value right. */
  append_wrapped (out, prefix->str, indent, value);
}

static gboolean
unit_is (const char *unit,
         const char *expected)
{
  return g_strcmp0 (unit, expected) == 0;
}

/* A value in the series' unit as a reader wants to see it: latencies in
 * µs/ms/s, throughputs and sizes in IEC units, ratios as percent. */
static char *
format_value (const char *unit,
              double      value)
{
  if (!isfinite (value))
    return g_strdup ("-");
  if ((unit_is (unit, "B") || unit_is (unit, "B/s")) && value < 0)
    {
      g_autofree char *magnitude = format_value (unit, -value);

      return g_strdup_printf ("-%s", magnitude);
    }
  if (unit_is (unit, "s"))
    return rp_format_latency (value);
  if (unit_is (unit, "B/s"))
    return rp_format_rate (value);
  if (unit_is (unit, "B"))
    return rp_format_size ((guint64) MIN (round (value), (double) G_MAXINT64));
  if (unit_is (unit, "ratio"))
    return g_strdup_printf ("%.1f %%", value * 100);
  if (unit == NULL || *unit == '\0')
    return g_strdup_printf ("%.4g", value);
  return g_strdup_printf ("%.4g %s", value, unit);
}

/* "0.1 s", "1 s", "10 s": the limits as the verdict names them. */
static char *
format_limit (double seconds)
{
  /* TRANSLATORS: a time limit in seconds, e.g. "0.1 s" */
  return g_strdup_printf (_("%g s"), seconds);
}

/* ------------------------------------------------------------------------ */
/* JSON writer                                                               */
/* ------------------------------------------------------------------------ */

static void append_json_node (GString *out, JsonNode *node, guint level);

static gboolean
node_is_scalar (JsonNode *node)
{
  return !JSON_NODE_HOLDS_OBJECT (node) && !JSON_NODE_HOLDS_ARRAY (node);
}

static void
append_json_value (GString  *out,
                   JsonNode *node)
{
  GType type = json_node_get_value_type (node);

  if (type == G_TYPE_INT64)
    g_string_append_printf (out, "%" G_GINT64_FORMAT, json_node_get_int (node));
  else if (type == G_TYPE_DOUBLE)
    append_json_double (out, json_node_get_double (node));
  else if (type == G_TYPE_BOOLEAN)
    g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
  else if (type == G_TYPE_STRING && json_node_get_string (node) != NULL)
    append_json_string (out, json_node_get_string (node));
  else
    g_string_append (out, "null");
}

static void
append_json_object (GString    *out,
                    JsonObject *object,
                    guint       level)
{
  g_autoptr(GList) members = json_object_get_members (object);

  if (members == NULL)
    {
      g_string_append (out, "{}");
      return;
    }
  g_string_append (out, "{\n");
  for (GList *l = members; l != NULL; l = l->next)
    {
      append_indent (out, level + 1);
      append_json_string (out, l->data);
      g_string_append (out, ": ");
      append_json_node (out, json_object_get_member (object, l->data), level + 1);
      g_string_append (out, l->next != NULL ? ",\n" : "\n");
    }
  append_indent (out, level);
  g_string_append_c (out, '}');
}

/* Arrays of scalars (loads, probes, argv) stay on one line. */
static void
append_json_array (GString   *out,
                   JsonArray *array,
                   guint      level)
{
  guint n = json_array_get_length (array);
  gboolean inline_ = TRUE;

  for (guint i = 0; i < n && inline_; i++)
    inline_ = node_is_scalar (json_array_get_element (array, i));

  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      if (!inline_)
        {
          g_string_append_c (out, '\n');
          append_indent (out, level + 1);
        }
      append_json_node (out, json_array_get_element (array, i), level + 1);
      if (i + 1 < n)
        g_string_append (out, inline_ ? ", " : ",");
    }
  if (!inline_ && n > 0)
    {
      g_string_append_c (out, '\n');
      append_indent (out, level);
    }
  g_string_append_c (out, ']');
}

/* json-glib's generator writes "key" : value and %.17g numbers; ours writes
 * the whole file in one style, 2-space indent, shortest exact numbers. */
static void
append_json_node (GString  *out,
                  JsonNode *node,
                  guint     level)
{
  if (node == NULL)
    {
      g_string_append (out, "null");
      return;
    }
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      append_json_object (out, json_node_get_object (node), level);
      break;
    case JSON_NODE_ARRAY:
      append_json_array (out, json_node_get_array (node), level);
      break;
    case JSON_NODE_VALUE:
      append_json_value (out, node);
      break;
    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

static void
append_json_key (GString    *out,
                 guint       level,
                 const char *key)
{
  append_indent (out, level);
  append_json_string (out, key);
  g_string_append (out, ": ");
}

static void
append_json_samples (GString  *out,
                     RpSeries *series,
                     guint     level)
{
  g_autofree RpPoint *points = NULL;
  guint n = 0;
  gboolean first = TRUE;

  points = rp_series_copy_points (series, 0, &n);
  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      /* RpSeries drops non-finite values already; JSON has no NaN anyway. */
      if (!isfinite (points[i].t) || !isfinite (points[i].v))
        continue;
      g_string_append (out, first ? "\n" : ",\n");
      append_indent (out, level + 1);
      g_string_append_c (out, '[');
      append_json_double (out, points[i].t);
      g_string_append (out, ", ");
      append_json_double (out, points[i].v);
      g_string_append_c (out, ']');
      first = FALSE;
    }
  if (!first)
    {
      g_string_append_c (out, '\n');
      append_indent (out, level);
    }
  g_string_append_c (out, ']');
}

static void
append_json_series (GString  *out,
                    RpReport *self)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < self->series->len; i++)
    {
      RpSeries *series = g_ptr_array_index (self->series, i);

      g_string_append (out, i == 0 ? "\n" : ",\n");
      append_json_key (out, 2, rp_series_get_name (series));
      g_string_append (out, "{\n");
      append_json_key (out, 3, "unit");
      append_json_string (out, rp_series_get_unit (series));
      g_string_append (out, ",\n");
      append_json_key (out, 3, "title");
      append_json_string (out, rp_series_get_title (series));
      g_string_append (out, ",\n");
      append_json_key (out, 3, "samples");
      append_json_samples (out, series, 3);
      g_string_append_c (out, '\n');
      append_indent (out, 2);
      g_string_append_c (out, '}');
    }
  if (self->series->len > 0)
    {
      g_string_append_c (out, '\n');
      append_indent (out, 1);
    }
  g_string_append_c (out, '}');
}

/* The limit counts only mean something for durations: null otherwise, so
 * that nobody reads "over_10s": 2 of a throughput as two stalls. */
static void
append_json_stats (GString       *out,
                   const RpStats *stats,
                   gboolean       seconds,
                   guint          level)
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

  g_string_append (out, "{\n");
  append_json_key (out, level + 1, "n");
  g_string_append_printf (out, "%" G_GUINT64_FORMAT, stats->n);
  for (guint i = 0; i < G_N_ELEMENTS (doubles); i++)
    {
      g_string_append (out, ",\n");
      append_json_key (out, level + 1, doubles[i].key);
      append_json_double (out, doubles[i].value);
    }
  for (guint i = 0; i < G_N_ELEMENTS (counts); i++)
    {
      g_string_append (out, ",\n");
      append_json_key (out, level + 1, counts[i].key);
      if (seconds)
        g_string_append_printf (out, "%" G_GUINT64_FORMAT, counts[i].value);
      else
        g_string_append (out, "null");
    }
  g_string_append_c (out, '\n');
  append_indent (out, level);
  g_string_append_c (out, '}');
}

static void
append_json_summary (GString  *out,
                     RpReport *self)
{
  g_string_append_c (out, '{');
  for (guint i = 0; i < self->series->len; i++)
    {
      RpSeries *series = g_ptr_array_index (self->series, i);
      RpStats stats;

      report_stats_at (self, i, &stats);
      g_string_append (out, i == 0 ? "\n" : ",\n");
      append_json_key (out, 2, rp_series_get_name (series));
      append_json_stats (out, &stats, unit_is (rp_series_get_unit (series), "s"), 2);
    }
  if (self->series->len > 0)
    {
      g_string_append_c (out, '\n');
      append_indent (out, 1);
    }
  g_string_append_c (out, '}');
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Sorted keys, so that two saves of one report are byte-identical. */
static GPtrArray *
notes_sorted_keys (GHashTable *notes)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, notes);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_strings);
  return keys;
}

static void
append_json_notes (GString  *out,
                   RpReport *self)
{
  g_autoptr(GPtrArray) keys = notes_sorted_keys (self->notes);

  g_string_append_c (out, '{');
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);

      g_string_append (out, i == 0 ? "\n" : ",\n");
      append_json_key (out, 2, key);
      append_json_string (out, g_hash_table_lookup (self->notes, key));
    }
  if (keys->len > 0)
    {
      g_string_append_c (out, '\n');
      append_indent (out, 1);
    }
  g_string_append_c (out, '}');
}

/**
 * rp_report_to_json:
 * @out_length: (out) (optional): length of the text in bytes
 *
 * The report in the format of docs/REPORT-FORMAT.md: UTF-8, 2-space indent,
 * numbers with a '.' and enough digits to read back exactly.
 *
 * Returns: (transfer full): the JSON text
 */
char *
rp_report_to_json (RpReport *self,
                   gsize    *out_length)
{
  g_autoptr(JsonNode) system = NULL;
  g_autoptr(JsonNode) scenario = NULL;
  g_autofree char *created = NULL;
  GString *out;
  gsize estimate = 4096;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  for (guint i = 0; i < self->series->len; i++)
    estimate += 48 * (gsize) rp_series_get_length (g_ptr_array_index (self->series, i));
  out = g_string_sized_new (estimate);

  system = rp_sysinfo_to_json (self->sysinfo);
  scenario = rp_scenario_to_json (self->scenario);
  created = g_date_time_format_iso8601 (self->created);

  g_string_append (out, "{\n");
  append_json_key (out, 1, "format");
  append_json_string (out, RP_REPORT_FORMAT);
  g_string_append (out, ",\n");
  append_json_key (out, 1, "version");
  g_string_append_printf (out, "%d,\n", RP_REPORT_VERSION);
  append_json_key (out, 1, "created");
  append_json_string (out, created);
  g_string_append (out, ",\n");
  append_json_key (out, 1, "generator");
  append_json_string (out, self->generator);
  g_string_append (out, ",\n");
  append_json_key (out, 1, "duration");
  append_json_double (out, self->duration);
  g_string_append (out, ",\n");
  append_json_key (out, 1, "error");
  if (self->error_message != NULL)
    append_json_string (out, self->error_message);
  else
    g_string_append (out, "null");
  g_string_append (out, ",\n");
  append_json_key (out, 1, "system");
  append_json_node (out, system, 1);
  g_string_append (out, ",\n");
  append_json_key (out, 1, "scenario");
  append_json_node (out, scenario, 1);
  g_string_append (out, ",\n");
  append_json_key (out, 1, "notes");
  append_json_notes (out, self);
  g_string_append (out, ",\n");
  append_json_key (out, 1, "series");
  append_json_series (out, self);
  g_string_append (out, ",\n");
  append_json_key (out, 1, "summary");
  append_json_summary (out, self);
  g_string_append (out, "\n}\n");

  if (out_length != NULL)
    *out_length = out->len;
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* JSON reader                                                               */
/*                                                                           */
/* Reports come from strangers' bug attachments. json-glib's parser recurses */
/* without a depth limit (a few hundred thousand '[' overflow the stack) and */
/* costs ~300 bytes per sample as a tree (15 GB for 50 million), so this is  */
/* a strict RFC 8259 parser with limits: depth, values, string length, and   */
/* the samples read straight into RpPoint arrays. Everything else becomes    */
/* JsonNodes, handed to rp_sysinfo_new_from_json() and friends.              */
/* ------------------------------------------------------------------------ */

typedef enum {
  CONTEXT_ANY,
  CONTEXT_TOP,          /* the top-level object */
  CONTEXT_SERIES_MAP,   /* the value of the top-level "series" */
  CONTEXT_ONE_SERIES,   /* one member of "series" */
} Context;

typedef struct {
  GArray   *points;     /* RpPoint */
  gboolean  unsorted;
} Samples;

typedef struct {
  const char *data;
  gsize       length;
  gsize       pos;
  guint       depth;
  guint64     n_values;
  guint64     n_samples;
  GError     *error;     /* fatal: the text is not JSON we accept */
  GError     *pending;   /* the first content error seen while reading samples */
  GHashTable *samples;   /* series name → Samples */
} Parser;

typedef enum {
  NUMBER_OK,
  NUMBER_SYNTAX,        /* not a JSON number: p->pos is at the offending byte */
  NUMBER_RANGE,         /* a JSON number, but not a finite double */
} NumberResult;

static void
samples_free (gpointer data)
{
  Samples *samples = data;

  g_array_unref (samples->points);
  g_free (samples);
}

static int
peek (Parser *p)
{
  return p->pos < p->length ? (guchar) p->data[p->pos] : -1;
}

static void
skip_whitespace (Parser *p)
{
  while (p->pos < p->length)
    {
      char c = p->data[p->pos];

      if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
        break;
      p->pos++;
    }
}

static void
parser_position (Parser *p,
                 guint  *out_line,
                 guint  *out_column)
{
  guint line = 1, column = 1;

  for (gsize i = 0; i < p->pos && i < p->length; i++)
    {
      if (p->data[i] == '\n')
        {
          line++;
          column = 1;
        }
      else if (((guchar) p->data[i] & 0xc0) != 0x80)
        column++;
    }
  *out_line = line;
  *out_column = column;
}

static gboolean
parser_fail (Parser     *p,
             const char *what)
{
  guint line, column;

  if (p->error != NULL)
    return FALSE;
  parser_position (p, &line, &column);
  g_set_error (&p->error, RP_ERROR, RP_ERROR_REPORT,
               /* TRANSLATORS: the last %s says what is wrong, e.g. "unexpected end of data" */
               _("The report is not valid JSON: line %u, column %u: %s"), line, column, what);
  return FALSE;
}

/* Valid JSON that no report has (RFC 8259 leaves duplicate keys open). */
static gboolean
parser_fail_duplicate (Parser     *p,
                       const char *key)
{
  g_autofree char *shown = shorten (key);
  guint line, column;

  if (p->error != NULL)
    return FALSE;
  parser_position (p, &line, &column);
  g_set_error (&p->error, RP_ERROR, RP_ERROR_REPORT,
               _("The report is malformed: line %u, column %u: the key “%s” appears twice"),
               line, column, shown);
  return FALSE;
}

static gboolean
parser_fail_unexpected (Parser *p)
{
  int c = peek (p);
  g_autofree char *what = NULL;

  if (c < 0)
    return parser_fail (p, _("unexpected end of data (is the file truncated?)"));
  if (g_ascii_isprint (c))
    what = g_strdup_printf (_("unexpected character “%c”"), c);
  else
    what = g_strdup_printf (_("unexpected byte 0x%02x"), (guint) c);
  return parser_fail (p, what);
}

static gboolean
parser_fail_limit (Parser     *p,
                   const char *message)
{
  if (p->error == NULL)
    g_set_error_literal (&p->error, RP_ERROR, RP_ERROR_REPORT, message);
  return FALSE;
}

static gboolean
parser_expect (Parser *p,
               char    c)
{
  skip_whitespace (p);
  if (peek (p) != (guchar) c)
    return parser_fail_unexpected (p);
  p->pos++;
  return TRUE;
}

static gboolean
parser_enter (Parser *p)
{
  if (++p->depth > MAX_DEPTH)
    return parser_fail (p, _("nested too deeply"));
  return TRUE;
}

static gboolean
is_digit (int c)
{
  return c >= '0' && c <= '9';
}

static void
skip_digits (Parser *p)
{
  while (is_digit (peek (p)))
    p->pos++;
}

/* Reads a number by the JSON grammar, without reporting: the samples reader
 * decides what a bad number means there. */
static NumberResult
scan_number (Parser   *p,
             double   *out_double,
             gint64   *out_int,
             gboolean *out_is_int)
{
  gsize start = p->pos;
  gboolean is_int = TRUE;
  char stack_buffer[64];
  g_autofree char *heap_buffer = NULL;
  char *text;
  gsize length;

  if (peek (p) == '-')
    p->pos++;
  if (peek (p) == '0')
    p->pos++;
  else if (is_digit (peek (p)))
    skip_digits (p);
  else
    return NUMBER_SYNTAX;
  if (peek (p) == '.')
    {
      p->pos++;
      is_int = FALSE;
      if (!is_digit (peek (p)))
        return NUMBER_SYNTAX;
      skip_digits (p);
    }
  if (peek (p) == 'e' || peek (p) == 'E')
    {
      p->pos++;
      is_int = FALSE;
      if (peek (p) == '+' || peek (p) == '-')
        p->pos++;
      if (!is_digit (peek (p)))
        return NUMBER_SYNTAX;
      skip_digits (p);
    }

  /* The data need not be NUL-terminated; strtod needs a terminated copy. */
  length = p->pos - start;
  if (length < sizeof stack_buffer)
    text = stack_buffer;
  else
    text = heap_buffer = g_malloc (length + 1);
  memcpy (text, p->data + start, length);
  text[length] = '\0';

  *out_double = g_ascii_strtod (text, NULL);
  if (!isfinite (*out_double))
    return NUMBER_RANGE;
  if (is_int && out_int != NULL)
    {
      errno = 0;
      *out_int = g_ascii_strtoll (text, NULL, 10);
      if (errno == ERANGE)
        is_int = FALSE;
    }
  if (out_is_int != NULL)
    *out_is_int = is_int;
  return NUMBER_OK;
}

static gboolean
read_hex4 (Parser   *p,
           gunichar *out)
{
  gunichar value = 0;

  if (p->length - p->pos < 4)
    {
      p->pos = p->length;
      return parser_fail_unexpected (p);
    }
  for (guint i = 0; i < 4; i++)
    {
      int digit = g_ascii_xdigit_value (p->data[p->pos]);

      if (digit < 0)
        return parser_fail (p, _("invalid \\u escape in a string"));
      value = value * 16 + (gunichar) digit;
      p->pos++;
    }
  *out = value;
  return TRUE;
}

/* After a backslash and a 'u': one code point, joining a surrogate pair. */
static gboolean
read_unicode_escape (Parser   *p,
                     gunichar *out)
{
  gunichar high, low;

  if (!read_hex4 (p, &high))
    return FALSE;
  if (high >= 0xdc00 && high <= 0xdfff)
    return parser_fail (p, _("invalid \\u escape in a string"));
  if (high < 0xd800 || high > 0xdbff)
    {
      *out = high;
      return TRUE;
    }
  if (p->length - p->pos < 2 || p->data[p->pos] != '\\' || p->data[p->pos + 1] != 'u')
    return parser_fail (p, _("invalid \\u escape in a string"));
  p->pos += 2;
  if (!read_hex4 (p, &low))
    return FALSE;
  if (low < 0xdc00 || low > 0xdfff)
    return parser_fail (p, _("invalid \\u escape in a string"));
  *out = 0x10000 + ((high - 0xd800) << 10) + (low - 0xdc00);
  return TRUE;
}

static gboolean
read_escape (Parser  *p,
             GString *out)
{
  static const char escapes[] = "\"\"\\\\//b\bf\fn\nr\rt\t";
  int c = peek (p);
  gunichar code_point = 0;

  if (c < 0)
    return parser_fail_unexpected (p);
  p->pos++;
  for (guint i = 0; escapes[i] != '\0'; i += 2)
    if (escapes[i] == c)
      {
        g_string_append_c (out, escapes[i + 1]);
        return TRUE;
      }
  if (c != 'u')
    {
      p->pos--;
      return parser_fail (p, _("invalid escape in a string"));
    }
  if (!read_unicode_escape (p, &code_point))
    return FALSE;
  if (code_point == 0)
    return parser_fail (p, _("a string contains a NUL character"));
  g_string_append_unichar (out, code_point);
  return TRUE;
}

/* At the opening quote. */
static gboolean
parse_string (Parser  *p,
              char   **out)
{
  g_autoptr(GString) text = g_string_new (NULL);

  p->pos++;
  for (;;)
    {
      int c = peek (p);

      if (c < 0)
        return parser_fail_unexpected (p);
      if (c == '"')
        break;
      if (c < 0x20)
        return parser_fail (p, _("a control character in a string"));
      if (c == '\\')
        {
          p->pos++;
          if (!read_escape (p, text))
            return FALSE;
        }
      else
        {
          g_string_append_c (text, (char) c);
          p->pos++;
        }
      if (text->len > MAX_STRING)
        return parser_fail (p, _("a string longer than 1 MiB"));
    }
  if (!g_utf8_validate_len (text->str, text->len, NULL))
    return parser_fail (p, _("a string that is not valid UTF-8"));
  p->pos++;
  if (out != NULL)
    *out = g_string_free (g_steal_pointer (&text), FALSE);
  return TRUE;
}

static gboolean
parse_literal (Parser   *p,
               JsonNode *node)
{
  static const char *const literals[] = { "true", "false", "null" };

  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      gsize n = strlen (literals[i]);

      if (p->length - p->pos >= n && memcmp (p->data + p->pos, literals[i], n) == 0)
        {
          p->pos += n;
          if (node == NULL)
            return TRUE;
          if (i < 2)
            json_node_init_boolean (node, i == 0);
          else
            json_node_init_null (node);
          return TRUE;
        }
    }
  return parser_fail_unexpected (p);
}

static gboolean
parse_number (Parser   *p,
              JsonNode *node)
{
  gsize start = p->pos;
  double d = 0;
  gint64 i = 0;
  gboolean is_int = FALSE;

  switch (scan_number (p, &d, &i, &is_int))
    {
    case NUMBER_SYNTAX:
      return parser_fail_unexpected (p);
    case NUMBER_RANGE:
      /* Only checking (after a bad sample): the sample's error says it. */
      if (node == NULL)
        return TRUE;
      p->pos = start;
      return parser_fail (p, _("a number too large for a double"));
    case NUMBER_OK:
    default:
      break;
    }
  if (node == NULL)
    return TRUE;
  if (is_int)
    json_node_init_int (node, i);
  else
    json_node_init_double (node, d);
  return TRUE;
}

static gboolean parse_value (Parser *p, Context context, const char *name, JsonNode **out);
static gboolean parse_samples (Parser *p, const char *series_name, JsonNode **out);

static Context
child_context (Context     context,
               const char *key)
{
  if (context == CONTEXT_TOP && g_strcmp0 (key, "series") == 0)
    return CONTEXT_SERIES_MAP;
  if (context == CONTEXT_SERIES_MAP)
    return CONTEXT_ONE_SERIES;
  return CONTEXT_ANY;
}

static gboolean
parse_member (Parser     *p,
              Context     context,
              const char *name,
              JsonObject *object)
{
  g_autofree char *key = NULL;
  JsonNode *child = NULL;
  gboolean ok;

  skip_whitespace (p);
  if (peek (p) != '"')
    return parser_fail_unexpected (p);
  if (!parse_string (p, &key) || !parser_expect (p, ':'))
    return FALSE;
  if (object != NULL && json_object_has_member (object, key))
    return parser_fail_duplicate (p, key);
  if (context == CONTEXT_ONE_SERIES && g_str_equal (key, "samples"))
    ok = parse_samples (p, name, object != NULL ? &child : NULL);
  else
    ok = parse_value (p, child_context (context, key), key, object != NULL ? &child : NULL);
  if (ok && object != NULL)
    json_object_set_member (object, key, child);
  return ok;
}

/* At the '{'. With @out NULL the object is only checked (skipped). */
static gboolean
parse_object (Parser     *p,
              Context     context,
              const char *name,
              JsonNode  **out)
{
  g_autoptr(JsonObject) object = out != NULL ? json_object_new () : NULL;

  if (!parser_enter (p))
    return FALSE;
  p->pos++;
  skip_whitespace (p);
  if (peek (p) == '}')
    p->pos++;
  else
    for (;;)
      {
        if (!parse_member (p, context, name, object))
          return FALSE;
        skip_whitespace (p);
        if (peek (p) == ',')
          p->pos++;
        else if (peek (p) == '}')
          {
            p->pos++;
            break;
          }
        else
          return parser_fail_unexpected (p);
      }
  p->depth--;
  if (out != NULL)
    {
      *out = json_node_new (JSON_NODE_OBJECT);
      json_node_take_object (*out, g_steal_pointer (&object));
    }
  return TRUE;
}

/* At the '['. With @out NULL the array is only checked (skipped). */
static gboolean
parse_array (Parser    *p,
             JsonNode **out)
{
  g_autoptr(JsonArray) array = out != NULL ? json_array_new () : NULL;

  if (!parser_enter (p))
    return FALSE;
  p->pos++;
  skip_whitespace (p);
  if (peek (p) == ']')
    p->pos++;
  else
    for (;;)
      {
        JsonNode *child = NULL;

        if (!parse_value (p, CONTEXT_ANY, NULL, array != NULL ? &child : NULL))
          return FALSE;
        if (array != NULL)
          json_array_add_element (array, child);
        skip_whitespace (p);
        if (peek (p) == ',')
          p->pos++;
        else if (peek (p) == ']')
          {
            p->pos++;
            break;
          }
        else
          return parser_fail_unexpected (p);
      }
  p->depth--;
  if (out != NULL)
    {
      *out = json_node_new (JSON_NODE_ARRAY);
      json_node_take_array (*out, g_steal_pointer (&array));
    }
  return TRUE;
}

static gboolean
parse_scalar (Parser    *p,
              JsonNode **out)
{
  g_autoptr(JsonNode) node = out != NULL ? json_node_new (JSON_NODE_NULL) : NULL;
  int c = peek (p);
  gboolean ok;

  if (c == '"')
    {
      g_autofree char *text = NULL;

      ok = parse_string (p, out != NULL ? &text : NULL);
      if (ok && node != NULL)
        json_node_init_string (node, text);
    }
  else if (c == '-' || is_digit (c))
    ok = parse_number (p, node);
  else
    ok = parse_literal (p, node);
  if (ok && out != NULL)
    *out = g_steal_pointer (&node);
  return ok;
}

/* @name is the key this value belongs to (for CONTEXT_ONE_SERIES: the series
 * name). With @out NULL nothing is built: the value is only checked. */
static gboolean
parse_value (Parser      *p,
             Context      context,
             const char  *name,
             JsonNode   **out)
{
  int c;

  skip_whitespace (p);
  if (out != NULL && ++p->n_values > MAX_VALUES)
    return parser_fail_limit (p, _("The report has too many values outside its samples"));

  c = peek (p);
  if (c == '{')
    return parse_object (p, context, name, out);
  if (c == '[')
    return parse_array (p, out);
  return parse_scalar (p, out);
}

static void
parser_set_pending (Parser     *p,
                    const char *format,
                    ...) G_GNUC_PRINTF (2, 3);

static void
parser_set_pending (Parser     *p,
                    const char *format,
                    ...)
{
  va_list args;

  if (p->pending != NULL)
    return;
  va_start (args, format);
  p->pending = g_error_new_valist (RP_ERROR, RP_ERROR_REPORT, format, args);
  va_end (args);
}

/* One [t, value] pair of finite numbers, or FALSE with nothing reported. */
static gboolean
try_parse_point (Parser  *p,
                 RpPoint *out)
{
  skip_whitespace (p);
  if (peek (p) != '[')
    return FALSE;
  p->pos++;
  skip_whitespace (p);
  if (scan_number (p, &out->t, NULL, NULL) != NUMBER_OK)
    return FALSE;
  skip_whitespace (p);
  if (peek (p) != ',')
    return FALSE;
  p->pos++;
  skip_whitespace (p);
  if (scan_number (p, &out->v, NULL, NULL) != NUMBER_OK)
    return FALSE;
  skip_whitespace (p);
  if (peek (p) != ']')
    return FALSE;
  p->pos++;
  return TRUE;
}

/* One element of a samples array. A bad one becomes the pending error and
 * the element is checked as generic JSON: a truncated or broken file still
 * says so, and a newer version's samples are reported as such (the version
 * check comes before the pending error). */
static gboolean
parse_sample (Parser     *p,
              const char *series_name,
              Samples    *samples,
              guint       index)
{
  gsize start = p->pos;
  RpPoint point;

  if (samples != NULL && try_parse_point (p, &point))
    {
      if (++p->n_samples > RP_REPORT_MAX_SAMPLES)
        {
          g_autofree char *message =
            g_strdup_printf (_("The report has more than %u samples, more than this program reads"),
                             RP_REPORT_MAX_SAMPLES);

          return parser_fail_limit (p, message);
        }
      if (samples->points->len > 0 &&
          point.t < g_array_index (samples->points, RpPoint, samples->points->len - 1).t)
        samples->unsorted = TRUE;
      g_array_append_val (samples->points, point);
      return TRUE;
    }
  p->pos = start;
  if (samples != NULL)
    parser_set_pending (p, _("Series “%s”, sample %u: expected [t, value] with two finite numbers"),
                        series_name, index);
  return parse_value (p, CONTEXT_ANY, NULL, NULL);
}

static int
compare_points_by_time (gconstpointer a,
                        gconstpointer b,
                        gpointer      user_data)
{
  const RpPoint *pa = a, *pb = b;

  return (pa->t > pb->t) - (pa->t < pb->t);
}

/* The value of series.NAME.samples, read into a Samples record. */
static gboolean
parse_samples (Parser      *p,
               const char  *series_name,
               JsonNode   **out)
{
  Samples *samples;
  guint index = 0;

  skip_whitespace (p);
  if (peek (p) != '[')
    {
      parser_set_pending (p, _("Series “%s”: “samples” must be an array of [t, value] pairs"),
                          series_name);
      if (!parse_value (p, CONTEXT_ANY, NULL, NULL))
        return FALSE;
      if (out != NULL)
        *out = json_node_new (JSON_NODE_NULL);
      return TRUE;
    }
  if (!parser_enter (p))
    return FALSE;
  p->pos++;

  samples = g_new0 (Samples, 1);
  samples->points = g_array_new (FALSE, FALSE, sizeof (RpPoint));
  g_hash_table_replace (p->samples, g_strdup (series_name), samples);

  skip_whitespace (p);
  if (peek (p) == ']')
    p->pos++;
  else
    for (;; index++)
      {
        /* After the first bad element the rest is only checked. */
        gboolean bad = p->pending != NULL;

        if (!parse_sample (p, series_name, bad ? NULL : samples, index))
          return FALSE;
        skip_whitespace (p);
        if (peek (p) == ',')
          p->pos++;
        else if (peek (p) == ']')
          {
            p->pos++;
            break;
          }
        else
          return parser_fail_unexpected (p);
      }
  p->depth--;

  /* RpSeries keeps points in time order (its decimation bisects); a
   * hand-edited file may not. The sort is stable. */
  if (samples->unsorted)
    g_qsort_with_data (samples->points->data, (gint) samples->points->len, sizeof (RpPoint),
                       compare_points_by_time, NULL);
  if (out != NULL)
    *out = json_node_new (JSON_NODE_NULL);
  return TRUE;
}

static JsonNode *
parse_document (Parser *p)
{
  JsonNode *root = NULL;

  /* A UTF-8 byte order mark, as some Windows editors write. */
  if (p->length >= 3 && memcmp (p->data, "\xef\xbb\xbf", 3) == 0)
    p->pos = 3;
  skip_whitespace (p);
  if (peek (p) < 0)
    {
      parser_fail_limit (p, _("The report is empty"));
      return NULL;
    }
  if (peek (p) != '{')
    {
      parser_fail_limit (p, _("This is not a Responsiveness Probe report: it is not a JSON object"));
      return NULL;
    }
  if (!parse_value (p, CONTEXT_TOP, NULL, &root))
    return NULL;
  skip_whitespace (p);
  if (p->pos < p->length)
    {
      parser_fail (p, _("unexpected data after the end of the report"));
      json_node_unref (root);
      return NULL;
    }
  return root;
}

/* ------------------------------------------------------------------------ */
/* From the parsed document to a report                                      */
/* ------------------------------------------------------------------------ */

static gboolean
node_is_string (JsonNode *node)
{
  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING;
}

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
      shown = shorten (json_node_get_string (format));
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

/* An optional string member: absent or null gives %NULL. */
static gboolean
get_optional_string (JsonObject  *object,
                     const char  *key,
                     char       **out,
                     GError     **error)
{
  JsonNode *node = json_object_get_member (object, key);

  *out = NULL;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (!node_is_string (node))
    return set_report_error (error, _("Key “%s”: expected a string"), key);
  *out = g_strdup (json_node_get_string (node));
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
      shown = shorten (json_node_get_string (node));
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
  *out = rp_scenario_new_from_json (node, &part_error);
  if (*out == NULL)
    return wrap_part_error ("scenario", part_error, error);
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
          shown = shorten (l->data);
          return set_report_error (error, _("Notes: the value of “%s” is not a string"), shown);
        }
      g_hash_table_replace (notes, g_strdup (l->data), g_strdup (json_node_get_string (value)));
    }
  return TRUE;
}

/* Names and units end up in CSV rows, table cells and file names. */
static gboolean
is_plain_text (const char *text,
               gsize       max_bytes,
               gboolean    may_be_empty)
{
  if (text == NULL || strlen (text) > max_bytes || (!may_be_empty && *text == '\0'))
    return FALSE;
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_iscntrl (g_utf8_get_char (p)))
      return FALSE;
  return TRUE;
}

static RpSeries *
read_one_series (const char  *name,
                 JsonNode    *node,
                 GHashTable  *all_samples,
                 GError     **error)
{
  g_autofree char *shown = shorten (name);
  JsonObject *object;
  JsonNode *unit, *title;
  Samples *samples;
  RpSeries *series;

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
      (!node_is_string (title) || !is_plain_text (json_node_get_string (title), MAX_NAME_BYTES, TRUE)))
    {
      set_report_error (error, _("Series “%s”: key “title” is not a short string"), shown);
      return NULL;
    }
  samples = g_hash_table_lookup (all_samples, name);
  if (samples == NULL)
    {
      set_report_error (error, _("Series “%s”: key “samples” is missing"), shown);
      return NULL;
    }

  series = rp_series_new (name, json_node_get_string (unit),
                          node_is_string (title) ? json_node_get_string (title) : NULL);
  for (guint i = 0; i < samples->points->len; i++)
    {
      const RpPoint *point = &g_array_index (samples->points, RpPoint, i);

      rp_series_append (series, point->t, point->v);
    }
  /* Half the memory back before the next series is copied. */
  g_hash_table_remove (all_samples, name);
  return series;
}

static gboolean
read_series (JsonObject  *root,
             GHashTable  *all_samples,
             GPtrArray   *out,
             GError     **error)
{
  JsonNode *node = json_object_get_member (root, "series");
  g_autoptr(GList) members = NULL;
  JsonObject *object;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return set_report_error (error, _("Key “series”: missing or not an object"));
  object = json_node_get_object (node);
  members = json_object_get_members (object);
  for (GList *l = members; l != NULL; l = l->next)
    {
      RpSeries *series = read_one_series (l->data, json_object_get_member (object, l->data),
                                          all_samples, error);

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
report_from_document (JsonObject  *root,
                      Parser      *p,
                      GError     **error)
{
  g_autoptr(GDateTime) created = NULL;
  g_autofree char *generator = NULL;
  g_autofree char *error_message = NULL;
  g_autoptr(RpSysinfo) sysinfo = NULL;
  g_autoptr(RpScenario) scenario = NULL;
  g_autoptr(GHashTable) notes = notes_new ();
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  double duration = 0;

  if (!check_identity (root, error))
    return NULL;
  if (p->pending != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&p->pending));
      return NULL;
    }
  if (!read_created (root, &created, error) ||
      !get_optional_string (root, "generator", &generator, error) ||
      !read_duration (root, &duration, error) ||
      !get_optional_string (root, "error", &error_message, error) ||
      !read_system (root, &sysinfo, error) ||
      !read_scenario (root, &scenario, error) ||
      !read_notes (root, notes, error) ||
      !read_series (root, p->samples, series, error))
    return NULL;

  return report_new_take (g_steal_pointer (&created),
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
 *   column (malformed JSON) or the key (wrong content)
 *
 * Reads a report written by rp_report_to_json(), possibly by a stranger:
 * everything is checked (format, version ≤ %RP_REPORT_VERSION, types, finite
 * samples, %RP_REPORT_MAX_SAMPLES samples, nesting depth), nothing in the
 * file can crash the program. The statistics are recomputed from the
 * samples. The result behaves like the report of a finished run.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error set
 */
RpReport *
rp_report_load_from_data (const char  *data,
                          gssize       length,
                          GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GHashTable) samples = NULL;
  Parser p = { 0 };
  RpReport *report;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (length < 0)
    length = (gssize) strlen (data);
  if ((guint64) length > RP_REPORT_MAX_FILE_SIZE)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("The report is larger than 1 GiB, more than this program reads"));
      return NULL;
    }

  samples = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, samples_free);
  p.data = data;
  p.length = (gsize) length;
  p.samples = samples;

  root = parse_document (&p);
  if (root == NULL)
    {
      g_clear_error (&p.pending);
      g_propagate_error (error, g_steal_pointer (&p.error));
      return NULL;
    }
  report = report_from_document (json_node_get_object (root), &p, error);
  g_clear_error (&p.pending);
  return report;
}

/* Reads at most RP_REPORT_MAX_FILE_SIZE + 1 bytes, so that a huge or endless
 * file (a FIFO, /dev/zero) is refused without filling the memory. */
static GByteArray *
read_capped (GFile   *file,
             GError **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = g_file_get_parse_name (file);
  guint64 size_hint = 0;

  stream = g_file_read (file, NULL, &local_error);
  if (stream == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_IO, _("Cannot read the report “%s”: %s"),
                   name, local_error->message);
      return NULL;
    }
  info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, NULL);
  if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
    size_hint = (guint64) g_file_info_get_size (info);
  if (size_hint > RP_REPORT_MAX_FILE_SIZE)
    goto too_large;

  bytes = g_byte_array_sized_new ((guint) MAX (size_hint, 4096));
  for (;;)
    {
      guint8 buffer[65536];
      gssize n = g_input_stream_read (G_INPUT_STREAM (stream), buffer, sizeof buffer,
                                      NULL, &local_error);

      if (n < 0)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_IO, _("Cannot read the report “%s”: %s"),
                       name, local_error->message);
          return NULL;
        }
      if (n == 0)
        break;
      if (bytes->len + (guint64) n > RP_REPORT_MAX_FILE_SIZE)
        goto too_large;
      g_byte_array_append (bytes, buffer, (guint) n);
    }
  return g_steal_pointer (&bytes);

too_large:
  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               _("The report “%s” is larger than 1 GiB, more than this program reads"), name);
  return NULL;
}

/**
 * rp_report_load:
 * @file: a JSON report
 * @error: %RP_ERROR_IO if the file cannot be read, %RP_ERROR_REPORT if it is
 *   not a report this program reads (see rp_report_load_from_data())
 *
 * Blocks on I/O: call it from a worker thread (GTask) in a GUI.
 *
 * Returns: (transfer full) (nullable): the report, or %NULL with @error set
 */
RpReport *
rp_report_load (GFile   *file,
                GError **error)
{
  g_autoptr(GByteArray) bytes = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bytes = read_capped (file, error);
  if (bytes == NULL)
    return NULL;
  return rp_report_load_from_data ((const char *) bytes->data, (gssize) bytes->len, error);
}

/* ------------------------------------------------------------------------ */
/* Verdict                                                                   */
/* ------------------------------------------------------------------------ */

static char *
stall_sentence (const char *series,
                gulong      count,
                const char *limit,
                const char *worst)
{
  if (g_str_equal (series, RP_SERIES_FSYNC_LATENCY))
    return g_strdup_printf (ngettext ("fsync stalled %lu time over %s; worst %s.",
                                      "fsync stalled %lu times over %s; worst %s.", count),
                            count, limit, worst);
  if (g_str_equal (series, RP_SERIES_WRITE_LATENCY))
    return g_strdup_printf (ngettext ("A write() call stalled %lu time over %s; worst %s.",
                                      "write() calls stalled %lu times over %s; worst %s.", count),
                            count, limit, worst);
  return g_strdup_printf (ngettext ("The desktop's main loop stalled %lu time over %s; worst %s.",
                                    "The desktop's main loop stalled %lu times over %s; worst %s.",
                                    count),
                          count, limit, worst);
}

static char *
calm_sentence (const char *series,
               const char *limit,
               const char *worst)
{
  if (g_str_equal (series, RP_SERIES_FSYNC_LATENCY))
    return g_strdup_printf (_("fsync never took over %s; worst %s."), limit, worst);
  if (g_str_equal (series, RP_SERIES_WRITE_LATENCY))
    return g_strdup_printf (_("No write() call took over %s; worst %s."), limit, worst);
  return g_strdup_printf (_("The desktop's main loop never stalled over %s; worst %s."),
                          limit, worst);
}

/* Nielsen's limits: over 1 s breaks the flow of thought, so that count is
 * the one to tell; with none, the count over 0.1 s (no longer instant). */
static char *
series_verdict (const char    *series,
                const RpStats *stats)
{
  g_autofree char *worst = rp_format_latency (stats->max);
  double limit = stats->over_flow > 0 ? RP_LIMIT_FLOW : RP_LIMIT_INSTANT;
  guint64 count = stats->over_flow > 0 ? stats->over_flow : stats->over_instant;
  g_autofree char *limit_text = format_limit (limit);
  g_autofree char *sentence = NULL;
  g_autofree char *attention_limit = NULL;
  g_autofree char *attention_sentence = NULL;
  gulong attention;

  if (count == 0)
    return calm_sentence (series, limit_text, worst);
  sentence = stall_sentence (series, (gulong) MIN (count, G_MAXULONG), limit_text, worst);
  if (stats->over_attention == 0)
    return g_steal_pointer (&sentence);

  attention = (gulong) MIN (stats->over_attention, G_MAXULONG);
  attention_limit = format_limit (RP_LIMIT_ATTENTION);
  attention_sentence =
    g_strdup_printf (ngettext ("%lu of them took over %s: long enough to lose the user's attention.",
                               "%lu of them took over %s: long enough to lose the user's attention.",
                               attention),
                     attention, attention_limit);
  return g_strconcat (sentence, " ", attention_sentence, NULL);
}

/**
 * rp_report_get_verdict:
 *
 * A few plain sentences for someone who is not a storage expert, from the
 * fsync latency, the write() latency and the desktop's main-loop lateness
 * (whichever were measured), using the limits of rp-stats.h, e.g. "fsync
 * stalled 7 times over 1 s; worst 10.86 s."
 *
 * Returns: (transfer full): translated text
 */
char *
rp_report_get_verdict (RpReport *self)
{
  static const char *const names[] = {
    RP_SERIES_FSYNC_LATENCY, RP_SERIES_WRITE_LATENCY, RP_SERIES_MAINLOOP_LATENESS,
  };
  g_autoptr(GPtrArray) sentences = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *instant = format_limit (RP_LIMIT_INSTANT);
  guint measured = 0, stalled = 0;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      RpStats stats;

      if (!rp_report_get_stats (self, names[i], &stats) || stats.n == 0)
        continue;
      measured++;
      if (stats.over_instant > 0)
        stalled++;
      g_ptr_array_add (sentences, series_verdict (names[i], &stats));
    }

  if (measured == 0)
    return g_strdup (_("No latency was measured, so there is nothing to judge."));
  if (stalled == 0)
    return g_strdup_printf (_("No stalls over %s: the system stayed responsive."), instant);
  g_ptr_array_add (sentences, NULL);
  return g_strjoinv (" ", (char **) sentences->pdata);
}

/* ------------------------------------------------------------------------ */
/* Plain text                                                                */
/* ------------------------------------------------------------------------ */

/* "14.6 s", "2 min 5 s", "1 h 20 min": a run's length, not a latency. */
static char *
format_duration (double seconds)
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

static char *
format_created (GDateTime *created)
{
  return g_date_time_format (created, "%Y-%m-%d %H:%M:%S UTC");
}

static void
append_text_header (GString  *out,
                    RpReport *self)
{
  g_autofree char *created = format_created (self->created);
  g_autofree char *duration = format_duration (self->duration);
  const char *labels[] = { _("Created"), _("Generator"), _("Duration"), _("Error") };
  const char *values[] = { created, self->generator, duration, self->error_message };
  gsize width = 0;

  for (guint i = 0; i < G_N_ELEMENTS (labels); i++)
    width = MAX (width, text_width (labels[i]));

  append_heading (out, _("Responsiveness Probe report"), '=');
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
      if (text_width (field->label) <= 28)
        width = MAX (width, text_width (field->label));
    }

  g_string_append_c (out, '\n');
  append_heading (out, _("System"), '-');
  for (guint i = 0; i < fields->len; i++)
    {
      const RpSysinfoField *field = g_ptr_array_index (fields, i);

      append_label_value (out, field->label, width, field->value);
    }

  if (warnings != NULL && warnings[0] != NULL)
    {
      g_string_append_c (out, '\n');
      append_heading (out, _("Warnings"), '-');
      for (guint i = 0; warnings[i] != NULL; i++)
        append_wrapped (out, "* ", "  ", warnings[i]);
    }
}

static void
append_text_scenario (GString  *out,
                      RpReport *self)
{
  g_autofree char *description = rp_scenario_describe (self->scenario);
  g_autoptr(GPtrArray) keys = notes_sorted_keys (self->notes);

  g_string_append_c (out, '\n');
  append_heading (out, _("Scenario"), '-');
  append_wrapped (out, "", "", description);

  if (keys->len == 0)
    return;
  g_string_append_c (out, '\n');
  append_heading (out, _("Notes"), '-');
  for (guint i = 0; i < keys->len; i++)
    {
      const char *key = g_ptr_array_index (keys, i);
      g_autofree char *line = g_strdup_printf ("%s: %s", key,
                                               (const char *) g_hash_table_lookup (self->notes, key));

      append_wrapped (out, "", "  ", line);
    }
}

/* A table of the summary: a name column, then right-aligned value columns. */
typedef struct {
  guint       n_columns;
  const char *header[8];
  GPtrArray  *rows;       /* char ** of n_columns cells */
} Table;

static gsize
table_values_width (const Table *table,
                    gsize       *widths)
{
  gsize total = 0;

  for (guint c = 0; c < table->n_columns; c++)
    {
      widths[c] = text_width (table->header[c]);
      for (guint r = 0; r < table->rows->len; r++)
        widths[c] = MAX (widths[c], text_width (((char **) g_ptr_array_index (table->rows, r))[c]));
      if (c > 0)
        total += 2 + widths[c];
    }
  return total;
}

static void
append_table_row (GString           *out,
                  const char *const *cells,
                  guint              n_columns,
                  const gsize       *widths)
{
  gsize start = out->len;

  for (guint c = 0; c < n_columns; c++)
    {
      if (c > 0)
        g_string_append (out, "  ");
      append_padded (out, cells[c], widths[c], c > 0);
    }
  while (out->len > start && out->str[out->len - 1] == ' ')
    g_string_truncate (out, out->len - 1);
  g_string_append_c (out, '\n');
}

/* Too wide even with names on their own lines (long translations, huge
 * counts): each series gets a name line and a wrapped "key value" line. */
static void
append_table_blocks (GString     *out,
                     const Table *table)
{
  for (guint r = 0; r < table->rows->len; r++)
    {
      char **cells = g_ptr_array_index (table->rows, r);
      g_autoptr(GString) values = g_string_new (NULL);

      append_wrapped (out, "", "  ", cells[0]);
      for (guint c = 1; c < table->n_columns; c++)
        g_string_append_printf (values, "%s%s %s", c > 1 ? ", " : "", table->header[c], cells[c]);
      append_wrapped (out, "  ", "  ", values->str);
    }
}

/* The name column gets what the values leave of 80 columns; a longer name
 * goes on a line of its own above its values. */
static void
append_table (GString     *out,
              const Table *table)
{
  gsize widths[G_N_ELEMENTS (table->header)];
  gsize values = table_values_width (table, widths);

  if (table->rows->len == 0)
    return;
  if (values + 8 > TEXT_WIDTH)
    {
      append_table_blocks (out, table);
      return;
    }
  widths[0] = MIN (widths[0], TEXT_WIDTH - values);
  append_table_row (out, table->header, table->n_columns, widths);
  for (guint r = 0; r < table->rows->len; r++)
    {
      char **cells = g_ptr_array_index (table->rows, r);

      if (text_width (cells[0]) > widths[0])
        {
          g_autofree char *name = g_steal_pointer (&cells[0]);

          append_wrapped (out, "", "  ", name);
          cells[0] = g_strdup ("");
        }
      append_table_row (out, (const char *const *) cells, table->n_columns, widths);
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

  g_ptr_array_add (cells, sanitize_text (rp_series_get_name (series)));
  g_ptr_array_add (cells, format_count (stats->n));
  g_ptr_array_add (cells, format_value (unit, stats->p50));
  g_ptr_array_add (cells, format_value (unit, stats->p90));
  g_ptr_array_add (cells, format_value (unit, stats->p99));
  g_ptr_array_add (cells, format_value (unit, stats->max));
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
  g_autofree char *instant = format_limit (RP_LIMIT_INSTANT);
  g_autofree char *flow = format_limit (RP_LIMIT_FLOW);
  g_autofree char *over_instant = g_strdup_printf ("> %s", instant);
  g_autofree char *over_flow = g_strdup_printf ("> %s", flow);
  g_autoptr(GPtrArray) latency_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GPtrArray) other_rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  Table latencies = {
    8, { _("Latency"), "n", "p50", "p90", "p99", _("max"), over_instant, over_flow }, latency_rows,
  };
  Table others = { 6, { _("Series"), "n", "p50", "p90", "p99", _("max") }, other_rows };

  for (guint i = 0; i < self->series->len; i++)
    {
      RpSeries *series = g_ptr_array_index (self->series, i);
      gboolean latency = unit_is (rp_series_get_unit (series), "s");
      RpStats stats;

      report_stats_at (self, i, &stats);
      if (stats.n > 0)
        g_ptr_array_add (latency ? latency_rows : other_rows, summary_cells (series, &stats, latency));
    }

  g_string_append_c (out, '\n');
  append_heading (out, _("Summary"), '-');
  if (latency_rows->len == 0 && other_rows->len == 0)
    {
      append_wrapped (out, "", "", _("No samples were recorded."));
      return;
    }
  append_table (out, &latencies);
  if (latency_rows->len > 0 && other_rows->len > 0)
    g_string_append_c (out, '\n');
  append_table (out, &others);
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
  append_heading (out, _("fsync-tester output"), '-');
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
  GString *out;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);

  out = g_string_new (NULL);
  append_text_header (out, self);
  append_text_system (out, self);
  append_text_scenario (out, self);
  append_text_summary (out, self);

  verdict = rp_report_get_verdict (self);
  g_string_append_c (out, '\n');
  append_heading (out, _("Verdict"), '-');
  append_wrapped (out, "", "", verdict);

  append_fsync_lines (out, self);
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
  return g_string_free (out, FALSE);
}

/* ------------------------------------------------------------------------ */
/* Saving                                                                    */
/* ------------------------------------------------------------------------ */

static int
code_from_save_error (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE) ||
      g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOSPC))
    return RP_ERROR_NO_SPACE;
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED) ||
      g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_ACCES) ||
      g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_PERM))
    return RP_ERROR_PERMISSION;
  return RP_ERROR_IO;
}

/* Never a half-written report, not even on ENOSPC. g_file_replace_contents()
 * is not enough: on a failed write it closes the stream normally, which
 * renames the partial temporary file over the target. So local files go
 * through g_file_set_contents_full() (temporary file, rename, temporary
 * removed on any error), other GFiles through g_file_replace() closed with
 * a cancelled cancellable on error, which drops the temporary file. */
static gboolean
replace_contents (GFile       *file,
                  const char  *data,
                  gsize        length,
                  GError     **error)
{
  g_autofree char *path = g_file_get_path (file);
  g_autoptr(GFileOutputStream) stream = NULL;
  g_autoptr(GCancellable) abort = NULL;

  if (path != NULL)
    return g_file_set_contents_full (path, data, (gssize) length,
                                     G_FILE_SET_CONTENTS_CONSISTENT, 0666, error);

  stream = g_file_replace (file, NULL, FALSE, G_FILE_CREATE_NONE, NULL, error);
  if (stream == NULL)
    return FALSE;
  if (!g_output_stream_write_all (G_OUTPUT_STREAM (stream), data, length, NULL, NULL, error))
    {
      abort = g_cancellable_new ();
      g_cancellable_cancel (abort);
      g_output_stream_close (G_OUTPUT_STREAM (stream), abort, NULL);
      return FALSE;
    }
  return g_output_stream_close (G_OUTPUT_STREAM (stream), NULL, error);
}

/**
 * rp_report_save:
 * @file: where to write; replaced atomically if it exists
 * @format: "json" (re-importable), "csv" (samples) or "txt" (for bug trackers)
 * @error: %RP_ERROR_INVALID_ARGUMENT for an unknown @format;
 *   %RP_ERROR_FAILED for JSON over %RP_REPORT_MAX_FILE_SIZE (no reader would
 *   load it; about 20 million samples); %RP_ERROR_NO_SPACE,
 *   %RP_ERROR_PERMISSION or %RP_ERROR_IO if writing fails
 *
 * Writes the whole file or nothing: the text goes to a temporary file in the
 * same directory, renamed over @file when complete. Blocks on I/O (while the
 * disk is busy, for seconds): call it from a worker thread in a GUI.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_report_save (RpReport    *self,
                GFile       *file,
                const char  *format,
                GError     **error)
{
  g_autofree char *data = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;
  gsize length;

  g_return_val_if_fail (RP_IS_REPORT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (format != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (g_ascii_strcasecmp (format, "json") == 0)
    data = rp_report_to_json (self, &length);
  else if (g_ascii_strcasecmp (format, "csv") == 0)
    data = rp_report_to_csv (self);
  else if (g_ascii_strcasecmp (format, "txt") == 0 || g_ascii_strcasecmp (format, "text") == 0)
    data = rp_report_to_text (self);
  else
    {
      g_autofree char *shown = shorten (format);

      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Unknown report format “%s”"), shown);
      return FALSE;
    }
  if (g_ascii_strcasecmp (format, "json") != 0)
    length = strlen (data);
  else if (length > RP_REPORT_MAX_FILE_SIZE)
    {
      /* A JSON report that no reader would accept is a trap; the samples
       * are not lost: CSV has no such limit. */
      g_autofree char *size = rp_format_size (length);

      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The report would be %s, more than the 1 GiB a report may have; "
                     "save it as CSV instead"), size);
      return FALSE;
    }

  if (replace_contents (file, data, length, &local_error))
    return TRUE;
  name = g_file_get_parse_name (file);
  g_set_error (error, RP_ERROR, code_from_save_error (local_error),
               _("Cannot save the report to “%s”: %s"), name, local_error->message);
  return FALSE;
}

/* ------------------------------------------------------------------------ */
/* Comparison                                                                */
/* ------------------------------------------------------------------------ */

/* The settings the reporters of SCENARIOS.md compared by hand, by their
 * rp_sysinfo_get_fields() keys, with labels short enough for a table. The
 * sysctl names stay untranslated: they are what one types. */
static const struct {
  const char *key;
  const char *label;
  gboolean    translate;
} compare_settings[] = {
  { "fs_type", N_("File system"), TRUE },
  { "journal_mode", N_("Journal mode"), TRUE },
  { "scheduler", N_("I/O scheduler"), TRUE },
  { "whole_disk", N_("Disk"), TRUE },
  { "rotational", N_("Rotational"), TRUE },
  { "raid_level", N_("RAID level"), TRUE },
  { "kernel_release", N_("Kernel"), TRUE },
  { "machine", N_("Machine"), TRUE },
  { "userspace_bits", N_("User space"), TRUE },
  { "ram_bytes", N_("RAM"), TRUE },
  { "dirty_ratio", "dirty_ratio", FALSE },
  { "dirty_background_ratio", "dirty_background_ratio", FALSE },
  { "dirty_bytes", "dirty_bytes", FALSE },
  { "dirty_background_bytes", "dirty_background_bytes", FALSE },
  { "dirty_expire_centisecs", "dirty_expire_centisecs", FALSE },
  { "wbt_lat_usec", "wbt_lat_usec", FALSE },
};

/* The display value of @key, as the system section shows it ("none",
 * "not applicable", "unknown" included). */
static char *
setting_text (GPtrArray  *fields,
              const char *key)
{
  for (guint i = 0; i < fields->len; i++)
    {
      const RpSysinfoField *field = g_ptr_array_index (fields, i);

      if (g_strcmp0 (field->key, key) == 0)
        return g_strdup (field->value);
    }
  return g_strdup (_("unknown"));
}

typedef struct {
  char     *label;
  char    **cells;      /* one per report */
  gboolean  differs;
} CompareRow;

static void
compare_row_free (gpointer data)
{
  CompareRow *row = data;

  g_free (row->label);
  g_strfreev (row->cells);
  g_free (row);
}

static CompareRow *
compare_row_new (const char *label,
                 guint       n_reports)
{
  CompareRow *row = g_new0 (CompareRow, 1);

  row->label = g_strdup (label);
  row->cells = g_new0 (char *, n_reports + 1);
  return row;
}

static void
add_setting_rows (GPtrArray *rows,
                  GPtrArray *reports)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);

  for (guint r = 0; r < reports->len; r++)
    {
      RpReport *report = g_ptr_array_index (reports, r);

      g_ptr_array_add (fields, rp_sysinfo_get_fields (rp_report_get_sysinfo (report)));
    }

  for (guint s = 0; s < G_N_ELEMENTS (compare_settings); s++)
    {
      const char *label = compare_settings[s].label;
      CompareRow *row = compare_row_new (compare_settings[s].translate ? _(label) : label,
                                         reports->len);

      for (guint r = 0; r < reports->len; r++)
        {
          row->cells[r] = setting_text (g_ptr_array_index (fields, r), compare_settings[s].key);
          if (r > 0 && g_strcmp0 (row->cells[r], row->cells[0]) != 0)
            row->differs = TRUE;
        }
      g_ptr_array_add (rows, row);
    }
}

typedef enum {
  METRIC_LATENCY,
  METRIC_COUNT,
  METRIC_RATE,
} MetricKind;

/* Relative change for latencies and rates (what "twice as slow" means), the
 * plain difference for counts. */
static char *
format_delta (MetricKind kind,
              double     base,
              double     value)
{
  g_autofree char *magnitude = NULL;

  if (value == base)
    return g_strdup ("=");
  if (kind == METRIC_COUNT)
    return g_strdup_printf ("%+.0f", value - base);
  if (base != 0)
    return g_strdup_printf ("%+.0f %%", (value - base) / base * 100);
  magnitude = kind == METRIC_RATE ? rp_format_rate (fabs (value - base))
                                  : rp_format_latency (fabs (value - base));
  return g_strdup_printf ("%s%s", value >= base ? "+" : "-", magnitude);
}

static char *
format_metric (MetricKind kind,
               double     value)
{
  if (kind == METRIC_COUNT)
    return g_strdup_printf ("%.0f", value);
  if (kind == METRIC_RATE)
    return rp_format_rate (value);
  return rp_format_latency (value);
}

/* The writer's throughput series: ours is "writer_throughput"; other writers
 * (copy loop, parallel writers) may add more B/s series named after them. */
static RpSeries *
find_throughput_series (RpReport *report)
{
  RpSeries *series = rp_report_lookup_series (report, RP_SERIES_WRITER_THROUGHPUT);
  GPtrArray *all = rp_report_get_series (report);

  for (guint i = 0; series == NULL && i < all->len; i++)
    {
      RpSeries *candidate = g_ptr_array_index (all, i);

      if (unit_is (rp_series_get_unit (candidate), "B/s") &&
          strstr (rp_series_get_name (candidate), "writ") != NULL &&
          rp_series_get_length (candidate) > 0)
        series = candidate;
    }
  return series;
}

/* NAN when the report lacks the series (or its samples). */
static double
metric_value (RpReport   *report,
              const char *series_name,
              guint       which)
{
  RpStats stats;
  RpSeries *series = series_name != NULL ? rp_report_lookup_series (report, series_name)
                                         : find_throughput_series (report);

  if (series == NULL)
    return NAN;
  rp_report_get_stats (report, rp_series_get_name (series), &stats);
  if (stats.n == 0)
    return NAN;
  switch (which)
    {
    case 0: return stats.p50;
    case 1: return stats.p99;
    case 2: return stats.max;
    case 3: return (double) stats.over_instant;
    case 4: return (double) stats.over_flow;
    case 5: return (double) stats.over_attention;
    case 6:
    default:
      return stats.mean;
    }
}

static void
add_metric_row (GPtrArray  *rows,
                GPtrArray  *reports,
                const char *label,
                const char *series_name,
                guint       which,
                MetricKind  kind)
{
  CompareRow *row = compare_row_new (label, reports->len);
  double base = metric_value (g_ptr_array_index (reports, 0), series_name, which);
  gboolean any = FALSE;

  for (guint r = 0; r < reports->len; r++)
    {
      double value = metric_value (g_ptr_array_index (reports, r), series_name, which);
      g_autofree char *text = NULL;
      g_autofree char *delta = NULL;

      if (isnan (value))
        {
          row->cells[r] = g_strdup ("-");
          continue;
        }
      any = TRUE;
      text = format_metric (kind, value);
      if (r == 0 || isnan (base))
        row->cells[r] = g_steal_pointer (&text);
      else
        {
          delta = format_delta (kind, base, value);
          row->cells[r] = g_strdup_printf ("%s (%s)", text, delta);
        }
    }
  if (any)
    g_ptr_array_add (rows, row);
  else
    compare_row_free (row);
}

static void
add_metric_rows (GPtrArray *rows,
                 GPtrArray *reports)
{
  g_autofree char *instant = format_limit (RP_LIMIT_INSTANT);
  g_autofree char *flow = format_limit (RP_LIMIT_FLOW);
  g_autofree char *attention = format_limit (RP_LIMIT_ATTENTION);
  /* TRANSLATORS: a table row: how many fsync calls took longer than e.g. "1 s" */
  g_autofree char *fsync_instant = g_strdup_printf (_("fsync > %s"), instant);
  g_autofree char *fsync_flow = g_strdup_printf (_("fsync > %s"), flow);
  g_autofree char *fsync_attention = g_strdup_printf (_("fsync > %s"), attention);
  /* TRANSLATORS: a table row: how often the desktop's main loop was late by more than e.g. "0.1 s" */
  g_autofree char *loop_instant = g_strdup_printf (_("Main loop > %s"), instant);

  add_metric_row (rows, reports, _("fsync p50"), RP_SERIES_FSYNC_LATENCY, 0, METRIC_LATENCY);
  add_metric_row (rows, reports, _("fsync p99"), RP_SERIES_FSYNC_LATENCY, 1, METRIC_LATENCY);
  add_metric_row (rows, reports, _("fsync max"), RP_SERIES_FSYNC_LATENCY, 2, METRIC_LATENCY);
  add_metric_row (rows, reports, fsync_instant, RP_SERIES_FSYNC_LATENCY, 3, METRIC_COUNT);
  add_metric_row (rows, reports, fsync_flow, RP_SERIES_FSYNC_LATENCY, 4, METRIC_COUNT);
  add_metric_row (rows, reports, fsync_attention, RP_SERIES_FSYNC_LATENCY, 5, METRIC_COUNT);
  add_metric_row (rows, reports, _("write() max"), RP_SERIES_WRITE_LATENCY, 2, METRIC_LATENCY);
  add_metric_row (rows, reports, _("Main loop max"), RP_SERIES_MAINLOOP_LATENESS, 2, METRIC_LATENCY);
  add_metric_row (rows, reports, loop_instant, RP_SERIES_MAINLOOP_LATENESS, 3, METRIC_COUNT);
  add_metric_row (rows, reports, _("Writer throughput"), NULL, 6, METRIC_RATE);
}

static void
append_compare_row (GString          *out,
                    const CompareRow *row,
                    gsize             label_width,
                    gsize             cell_width,
                    guint             n_reports)
{
  g_autoptr(GPtrArray) label_lines = wrap_lines (row->label, label_width);
  g_autofree GPtrArray **cell_lines = g_new0 (GPtrArray *, n_reports);
  guint height = label_lines->len;

  for (guint r = 0; r < n_reports; r++)
    {
      cell_lines[r] = wrap_lines (row->cells[r], cell_width);
      height = MAX (height, cell_lines[r]->len);
    }
  for (guint line = 0; line < height; line++)
    {
      gsize start = out->len;

      g_string_append (out, line == 0 && row->differs ? "* " : "  ");
      append_padded (out, line < label_lines->len ? g_ptr_array_index (label_lines, line) : "",
                     label_width, FALSE);
      for (guint r = 0; r < n_reports; r++)
        {
          g_string_append (out, "  ");
          append_padded (out, line < cell_lines[r]->len ? g_ptr_array_index (cell_lines[r], line) : "",
                         cell_width, FALSE);
        }
      while (out->len > start && out->str[out->len - 1] == ' ')
        g_string_truncate (out, out->len - 1);
      g_string_append_c (out, '\n');
    }
  for (guint r = 0; r < n_reports; r++)
    g_ptr_array_unref (cell_lines[r]);
}

/* Column widths: up to three runs share 80 columns, wrapping long cells;
 * more runs get columns as wide as their content (up to 24), wider than 80. */
static void
compute_compare_widths (GPtrArray *rows,
                        guint      n_reports,
                        gsize     *out_label_width,
                        gsize     *out_cell_width)
{
  gsize label_width = 0, cell_width = 0;

  for (guint i = 0; i < rows->len; i++)
    {
      const CompareRow *row = g_ptr_array_index (rows, i);

      label_width = MAX (label_width, text_width (row->label));
      for (guint r = 0; r < n_reports; r++)
        cell_width = MAX (cell_width, text_width (row->cells[r]));
    }
  label_width = MIN (label_width, 22);
  if (n_reports <= 3)
    cell_width = MIN (cell_width, (TEXT_WIDTH - 2 - label_width) / n_reports - 2);
  else
    cell_width = MIN (cell_width, 24);
  *out_label_width = label_width;
  *out_cell_width = MAX (cell_width, 8);
}

static void
append_compare_legend (GString   *out,
                       GPtrArray *reports)
{
  for (guint r = 0; r < reports->len; r++)
    {
      RpReport *report = g_ptr_array_index (reports, r);
      g_autofree char *created = format_created (report->created);
      g_autofree char *duration = format_duration (report->duration);
      g_autofree char *description = rp_scenario_describe (report->scenario);
      /* TRANSLATORS: "Run 2: 2024-05-01 10:00:00 UTC, 62.00 s, R1: sequential writer …" */
      g_autofree char *line = g_strdup_printf (_("Run %u: %s, %s, %s"), r + 1, created, duration,
                                               description);

      append_wrapped (out, "", "    ", line);
    }
}

/**
 * rp_report_compare_text:
 * @reports: (element-type RpReport): two or more reports (one works too)
 *
 * A side-by-side table, one column per report: the settings the reporters of
 * SCENARIOS.md compared (file system, journal mode, scheduler, kernel,
 * machine, RAM, dirty_* sysctls), rows that differ marked with "*"; then
 * fsync p50/p99/max and stall counts, write() and main-loop results where
 * measured, and the writer's mean throughput, each with its change relative
 * to the first report. At most 80 columns for up to three reports (long
 * cells wrap); wider for more.
 *
 * Returns: (transfer full): translated text
 */
char *
rp_report_compare_text (GPtrArray *reports)
{
  g_autoptr(GPtrArray) settings = g_ptr_array_new_with_free_func (compare_row_free);
  g_autoptr(GPtrArray) metrics = g_ptr_array_new_with_free_func (compare_row_free);
  g_autoptr(GPtrArray) all = g_ptr_array_new ();
  g_autofree char *title = NULL;
  CompareRow *header;
  gsize label_width, cell_width;
  GString *out;

  g_return_val_if_fail (reports != NULL && reports->len > 0, NULL);
  for (guint r = 0; r < reports->len; r++)
    g_return_val_if_fail (RP_IS_REPORT (g_ptr_array_index (reports, r)), NULL);

  header = compare_row_new ("", reports->len);
  for (guint r = 0; r < reports->len; r++)
    header->cells[r] = g_strdup_printf (_("Run %u"), r + 1);
  g_ptr_array_add (settings, header);
  add_setting_rows (settings, reports);
  add_metric_rows (metrics, reports);
  g_ptr_array_extend (all, settings, NULL, NULL);
  g_ptr_array_extend (all, metrics, NULL, NULL);
  compute_compare_widths (all, reports->len, &label_width, &cell_width);

  out = g_string_new (NULL);
  title = g_strdup_printf (ngettext ("Comparison of %u report", "Comparison of %u reports",
                                     reports->len), reports->len);
  append_heading (out, title, '=');
  append_compare_legend (out, reports);

  g_string_append_c (out, '\n');
  for (guint i = 0; i < settings->len; i++)
    append_compare_row (out, g_ptr_array_index (settings, i), label_width, cell_width, reports->len);
  g_string_append_c (out, '\n');
  if (metrics->len == 0)
    append_wrapped (out, "  ", "  ", _("None of the reports has fsync, write() or main-loop samples."));
  for (guint i = 0; i < metrics->len; i++)
    append_compare_row (out, g_ptr_array_index (metrics, i), label_width, cell_width, reports->len);

  g_string_append_c (out, '\n');
  append_wrapped (out, "", "", _("* marks settings that differ. Changes in parentheses are "
                                 "relative to run 1."));
  return g_string_free (out, FALSE);
}
