/* rp-report.c: a run as an immutable value: construction, accessors, loading and atomic saving. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-text.h"
#include "rp-sysinfo-private.h"
#include "rp-units.h"

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

GHashTable *
rp_report_notes_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static GHashTable *
notes_copy (GHashTable *notes)
{
  GHashTable *copy = rp_report_notes_new ();
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
RpReport *
rp_report_new_take (GDateTime  *created,
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

  return rp_report_new_take (g_date_time_new_now_utc (),
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

  return rp_report_new_take (start != NULL ? g_date_time_to_utc (start) : g_date_time_new_now_utc (),
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

void
rp_report_stats_at (RpReport *self,
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
  rp_report_stats_at (self, (guint) i, out_stats);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Shared with the JSON, text and comparison files                           */
/* ------------------------------------------------------------------------ */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Sorted keys, so that two saves of one report are byte-identical. */
GPtrArray *
rp_report_notes_sorted_keys (GHashTable *notes)
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

guint64
rp_report_count_samples (RpReport *self)
{
  guint64 n = 0;

  for (guint i = 0; i < self->series->len; i++)
    n += rp_series_get_length (g_ptr_array_index (self->series, i));
  return n;
}

/* ------------------------------------------------------------------------ */
/* Loading                                                                   */
/* ------------------------------------------------------------------------ */

/* Reads at most RP_REPORT_MAX_FILE_SIZE + 1 bytes, so that a huge or endless
 * file (a FIFO, /dev/zero) is refused without filling the memory. */

/* Why a file did not open, without the path GIO's message repeats (the
 * caller names the file): the C library's words for the usual causes. */
static const char *
open_failure (const GError *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return g_strerror (ENOENT);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_PERMISSION_DENIED))
    return g_strerror (EACCES);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_IS_DIRECTORY))
    return g_strerror (EISDIR);
  return error->message;
}
static GByteArray *
read_capped (GFile   *file,
             GError **error)
{
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GByteArray) bytes = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = rp_text_file_name (file);
  g_autofree char *limit = NULL;
  guint64 size_hint = 0;

  /* Opening a FIFO blocks until someone writes to it, and a device may never
   * end: a report is a regular file (a symbolic link to one is followed). */
  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info != NULL && g_file_info_get_file_type (info) == G_FILE_TYPE_SPECIAL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("The report “%s” is not a regular file (a pipe, socket or device)"), name);
      return NULL;
    }
  g_clear_object (&info);

  stream = g_file_read (file, NULL, &local_error);
  if (stream == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_IO, _("Cannot read the report “%s”: %s"),
                   name, open_failure (local_error));
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
  limit = rp_format_size (RP_REPORT_MAX_FILE_SIZE);
  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               _("The report “%s” is larger than %s, more than this program reads"), name, limit);
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
    {
      g_autofree char *parent = g_path_get_dirname (path);
      GStatBuf st;

      /* The rename would put a regular file in the place of a device, a
       * pipe or a symbolic link (as root, of /dev/full): refuse those. */
      if (g_lstat (path, &st) == 0 && !S_ISREG (st.st_mode))
        {
          g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_REGULAR_FILE,
                               _("it is not a regular file, and only a regular file is replaced"));
          return FALSE;
        }
      /* Said here, not with the name of GLib's temporary file. */
      if (!g_file_test (parent, G_FILE_TEST_IS_DIR))
        {
          g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                       _("the folder “%s” does not exist"), parent);
          return FALSE;
        }
      return g_file_set_contents_full (path, data, (gssize) length,
                                       G_FILE_SET_CONTENTS_CONSISTENT, 0666, error);
    }

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

/* A JSON report that no reader would load is a trap; the samples are not
 * lost: CSV has no limits. The count comes first, so that a hopeless report
 * is not serialized at all. */
static char *
to_loadable_json (RpReport  *self,
                  gsize     *out_length,
                  GError   **error)
{
  guint64 n_samples = rp_report_count_samples (self);
  g_autofree char *data = NULL;

  if (n_samples > RP_REPORT_MAX_SAMPLES)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_samples);

      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The report has %s samples, more than the %u a JSON report may have; "
                     "save it as CSV instead"), count, RP_REPORT_MAX_SAMPLES);
      return NULL;
    }
  data = rp_report_to_json (self, out_length);
  if (*out_length > RP_REPORT_MAX_FILE_SIZE)
    {
      g_autofree char *size = rp_format_size (*out_length);
      g_autofree char *limit = rp_format_size (RP_REPORT_MAX_FILE_SIZE);

      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The report would be %s, more than the %s a report may have; "
                     "save it as CSV instead"), size, limit);
      return NULL;
    }
  return g_steal_pointer (&data);
}

static char *
serialize (RpReport    *self,
           const char  *format,
           gsize       *out_length,
           GError     **error)
{
  char *data;

  if (g_ascii_strcasecmp (format, "json") == 0)
    return to_loadable_json (self, out_length, error);
  if (g_ascii_strcasecmp (format, "csv") == 0)
    data = rp_report_to_csv (self);
  else if (g_ascii_strcasecmp (format, "txt") == 0 || g_ascii_strcasecmp (format, "text") == 0)
    data = rp_report_to_text (self);
  else
    {
      g_autofree char *shown = rp_text_shorten (format);

      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Unknown report format “%s”; use json, csv, txt, png, svg or pdf"), shown);
      return NULL;
    }
  *out_length = strlen (data);
  return data;
}

/**
 * rp_report_save_contents:
 * @file: where to write; replaced atomically if it exists
 * @data: (array length=length): the whole file
 * @length: bytes
 * @error: %RP_ERROR_NO_SPACE, %RP_ERROR_PERMISSION or %RP_ERROR_IO naming @file
 *
 * Writes the whole file or nothing: the contents go to a temporary file in
 * the same directory (@file's name plus a random suffix), renamed over @file
 * when complete and removed on any error, so that @file is either the old
 * file or the new one. Blocks on I/O: call it from a worker thread in a GUI.
 * Every format of a report, textual or drawn (render/rp-report-export.c),
 * is written here.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_report_save_contents (GFile       *file,
                         const char  *data,
                         gsize        length,
                         GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (data != NULL || length == 0, FALSE);

  if (replace_contents (file, data, length, &local_error))
    return TRUE;
  name = rp_text_file_name (file);
  g_set_error (error, RP_ERROR, code_from_save_error (local_error),
               _("Cannot save the report to “%s”: %s"), name, local_error->message);
  return FALSE;
}

/**
 * rp_report_save:
 * @file: where to write; replaced atomically if it exists
 * @format: "json" (re-importable), "csv" (samples) or "txt" (for bug
 *   trackers; "text" too); case-insensitive. The drawn formats (PNG, SVG,
 *   PDF) and this one are written by rp_report_export() of the render
 *   library, which sits above this one.
 * @error: %RP_ERROR_INVALID_ARGUMENT for an unknown or drawn @format;
 *   %RP_ERROR_FAILED for JSON over %RP_REPORT_MAX_SAMPLES samples or
 *   %RP_REPORT_MAX_FILE_SIZE bytes (no reader would load it; about 3 million
 *   samples); %RP_ERROR_NO_SPACE, %RP_ERROR_PERMISSION or %RP_ERROR_IO if
 *   writing fails
 *
 * Writes the whole file or nothing (rp_report_save_contents()). It replaces
 * an existing @file without asking: ask first.
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
  gsize length = 0;

  g_return_val_if_fail (RP_IS_REPORT (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (format != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  data = serialize (self, format, &length, error);
  if (data == NULL)
    return FALSE;
  return rp_report_save_contents (file, data, length, error);
}
