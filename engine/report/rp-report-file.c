/* rp-report-file.c: a report's file: loading any of them safely, saving atomically. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>

#include "rp-error.h"
#include "rp-io.h"
#include "rp-report-private.h"
#include "rp-text.h"
#include "rp-units.h"

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
  return rp_report_load_from_bytes (g_steal_pointer (&bytes), error);
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

static gboolean
fail_errno (GError    **error,
            int         saved_errno,
            const char *temporary)
{
  if (temporary != NULL)
    g_unlink (temporary);
  g_set_error_literal (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       g_strerror (saved_errno));
  return FALSE;
}

/* What g_file_set_contents_full (…, G_FILE_SET_CONTENTS_CONSISTENT) does,
 * but with a temporary name of its own length: GLib's is @path plus 7
 * bytes, so a name of 249 to 255 bytes could not be saved at all. The
 * temporary file is written whole, flushed, then renamed over @path; it is
 * removed on any error. Mode 0666 less the umask, as a new file gets. */
static gboolean
write_atomically (const char  *path,
                  const char  *data,
                  gsize        length,
                  GError     **error)
{
  g_autofree char *parent = g_path_get_dirname (path);
  g_autofree char *temporary = g_build_filename (parent, ".resprobe-XXXXXX", NULL);
  int fd = g_mkstemp_full (temporary, O_RDWR | O_CLOEXEC, 0666);
  int saved_errno;

  if (fd < 0)
    return fail_errno (error, errno, NULL);
  if (!rp_write_all (fd, data, length) || fsync (fd) != 0)
    {
      saved_errno = errno;
      close (fd);
      return fail_errno (error, saved_errno, temporary);
    }
  if (close (fd) != 0)
    return fail_errno (error, errno, temporary);
  if (g_rename (temporary, path) != 0)
    return fail_errno (error, errno, temporary);
  return TRUE;
}

/* Never a half-written report, not even on ENOSPC. g_file_replace_contents()
 * is not enough: on a failed write it closes the stream normally, which
 * renames the partial temporary file over the target. So local files go
 * through write_atomically() (temporary file, rename, temporary removed on
 * any error), other GFiles through g_file_replace() closed with a
 * cancelled cancellable on error, which drops the temporary file. */
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
      return write_atomically (path, data, length, error);
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
 * lost: CSV has no limits. The message says the limit in a run's terms:
 * the CLI's default probes write 44 samples a second, 114 million in the
 * 30 days --duration allows. @n_bytes 0: not known yet. */
gboolean
rp_report_check_savable (guint64   n_samples,
                         guint64   n_bytes,
                         GError  **error)
{
  if (n_samples > RP_REPORT_MAX_SAMPLES)
    {
      g_autofree char *count = g_strdup_printf ("%" G_GUINT64_FORMAT, n_samples);

      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The report has %s samples, more than the %u a JSON report may have "
                     "(30 days at 44 samples a second are 114 million); save it as CSV instead"),
                   count, RP_REPORT_MAX_SAMPLES);
      return FALSE;
    }
  if (n_bytes > RP_REPORT_MAX_FILE_SIZE)
    {
      g_autofree char *size = rp_format_size (n_bytes);
      g_autofree char *limit = rp_format_size (RP_REPORT_MAX_FILE_SIZE);

      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The report would be %s, more than the %s a report may have; "
                     "save it as CSV instead"), size, limit);
      return FALSE;
    }
  return TRUE;
}

/* The count comes first, so that a hopeless report is not serialized at all. */
static char *
to_loadable_json (RpReport  *self,
                  gsize     *out_length,
                  GError   **error)
{
  g_autofree char *data = NULL;

  if (!rp_report_check_savable (rp_report_count_samples (self), 0, error))
    return NULL;
  data = rp_report_to_json (self, out_length);
  if (!rp_report_check_savable (0, *out_length, error))
    return NULL;
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
 *   %RP_REPORT_MAX_FILE_SIZE bytes (no reader would load it; 150 million
 *   samples take about 700 MB); %RP_ERROR_NO_SPACE, %RP_ERROR_PERMISSION or %RP_ERROR_IO if
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
