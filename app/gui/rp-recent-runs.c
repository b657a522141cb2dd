/* rp-recent-runs.c: the reports folder: every finished run saved there, and the list of recent runs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>

#include "rp-recent-runs.h"

/* A run exists only in memory until it is saved: the window saves every
 * finished run here, as resprobe-cli does, so that closing the window never
 * loses one. The folder and the names are the CLI's (docs/CLI.md,
 * "Synopsis"), so that the window lists the CLI's runs too. */

/* How many "-N" suffixes to try when runs end in the same second. */
#define MAX_NAME_TRIES 100

/**
 * rp_recent_runs_get_directory:
 *
 * Returns: (transfer full): the reports folder,
 *   `$XDG_DATA_HOME/resprobe/reports` (~/.local/share/resprobe/reports), the
 *   one where resprobe-cli saves a report without --report
 */
char *
rp_recent_runs_get_directory (void)
{
  return g_build_filename (g_get_user_data_dir (), "resprobe", "reports", NULL);
}

/* "resprobe-20261202-003100": the name the CLI gives, from the start of the
 * run in local time. */
static char *
report_stem (RpReport *report)
{
  g_autoptr(GDateTime) local = g_date_time_to_local (rp_report_get_created (report));

  return g_date_time_format (local, "resprobe-%Y%m%d-%H%M%S");
}

/**
 * rp_recent_runs_save:
 * @report: a finished run
 * @error: why the folder could not be made or the report not written
 *   (naming the file)
 *
 * Saves @report in the reports folder under a name of its own: "-2", "-3" …
 * are added rather than replacing another report. The name is reserved with
 * an exclusive create, then the report is written atomically over it
 * (rp_report_save()). Blocking: call it on a worker thread.
 *
 * Returns: (transfer full) (nullable): the file written
 */
GFile *
rp_recent_runs_save (RpReport  *report,
                     GError   **error)
{
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autofree char *stem = NULL;

  g_return_val_if_fail (RP_IS_REPORT (report), NULL);

  if (g_mkdir_with_parents (directory, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   /* TRANSLATORS: %s: a folder; the second %s: the system's reason */
                   _("Cannot create the reports folder “%s”: %s"), directory, g_strerror (saved_errno));
      return NULL;
    }
  stem = report_stem (report);
  for (guint i = 1; i <= MAX_NAME_TRIES; i++)
    {
      g_autofree char *name = i == 1 ? g_strdup_printf ("%s.json", stem)
                                     : g_strdup_printf ("%s-%u.json", stem, i);
      g_autoptr(GFile) file = g_file_new_build_filename (directory, name, NULL);
      g_autoptr(GFileOutputStream) reserved = NULL;
      g_autoptr(GError) local_error = NULL;

      reserved = g_file_create (file, G_FILE_CREATE_PRIVATE, NULL, &local_error);
      if (reserved == NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        continue;
      if (reserved == NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      g_output_stream_close (G_OUTPUT_STREAM (reserved), NULL, NULL);
      if (!rp_report_save (report, file, "json", error))
        {
          /* No empty file under a report's name. */
          g_file_delete (file, NULL, NULL);
          return NULL;
        }
      return g_steal_pointer (&file);
    }
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
               _("Cannot save the report in “%s”: every name for this time is taken"), directory);
  return NULL;
}

static void
save_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;
  GFile *file = rp_recent_runs_save (task_data, &error);

  if (file == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, file, g_object_unref);
}

/**
 * rp_recent_runs_save_async:
 * @report: a finished run
 * @cancellable: (nullable): cancels only the callback's result; a report
 *   being written is written whole
 *
 * rp_recent_runs_save() on a worker thread.
 */
void
rp_recent_runs_save_async (RpReport            *report,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (RP_IS_REPORT (report));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, rp_recent_runs_save_async);
  g_task_set_task_data (task, g_object_ref (report), g_object_unref);
  g_task_run_in_thread (task, save_in_thread);
}

/**
 * rp_recent_runs_save_finish:
 *
 * Returns: (transfer full) (nullable): the file written, or %NULL with @error
 */
GFile *
rp_recent_runs_save_finish (GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------- */
/* The list */

static int
newest_first (gconstpointer a,
              gconstpointer b)
{
  GFileInfo *info_a = *(GFileInfo **) a, *info_b = *(GFileInfo **) b;
  guint64 time_a = g_file_info_get_attribute_uint64 (info_a, G_FILE_ATTRIBUTE_TIME_MODIFIED);
  guint64 time_b = g_file_info_get_attribute_uint64 (info_b, G_FILE_ATTRIBUTE_TIME_MODIFIED);

  if (time_a != time_b)
    return time_a > time_b ? -1 : 1;
  /* The same second: the later name ("-2") first. */
  return -g_strcmp0 (g_file_info_get_name (info_a), g_file_info_get_name (info_b));
}

/* Keeps the newest @max_runs of @runs. */
static void
keep_newest (GPtrArray *runs,
             guint      max_runs)
{
  g_ptr_array_sort (runs, newest_first);
  if (runs->len > max_runs)
    g_ptr_array_set_size (runs, max_runs);
}

/**
 * rp_recent_runs_list:
 * @max_runs: at most this many
 * @n_found: (out) (optional): how many reports the folder holds in all
 * @error: why the folder could not be read (a missing folder is no error:
 *   no runs yet)
 *
 * The newest @max_runs reports (`*.json`) of the reports folder, newest first
 * by modification time. A folder of thousands costs the memory of about
 * 2 × @max_runs entries: the older ones are dropped while it is read.
 * Blocking: call it on a worker thread.
 *
 * Returns: (transfer full) (element-type GFileInfo) (nullable): the runs,
 *   each with its name, size and modification time (with its
 *   microseconds, for rp_recent_run_info_peek()), and its #GFile as the
 *   object attribute "rp::file"
 */
GPtrArray *
rp_recent_runs_list (guint          max_runs,
                     guint         *n_found,
                     GCancellable  *cancellable,
                     GError       **error)
{
  g_autofree char *path = rp_recent_runs_get_directory ();
  g_autoptr(GFile) directory = g_file_new_for_path (path);
  g_autoptr(GFileEnumerator) enumerator = NULL;
  g_autoptr(GPtrArray) runs = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GError) local_error = NULL;
  guint found = 0;

  if (n_found != NULL)
    *n_found = 0;
  enumerator = g_file_enumerate_children (directory,
                                          G_FILE_ATTRIBUTE_STANDARD_NAME ","
                                          G_FILE_ATTRIBUTE_STANDARD_TYPE ","
                                          G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                                          G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                                          G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                          G_FILE_QUERY_INFO_NONE, cancellable, &local_error);
  if (enumerator == NULL && g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    return g_steal_pointer (&runs);
  if (enumerator == NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }
  for (;;)
    {
      GFileInfo *info = NULL;
      GFile *child = NULL;

      if (!g_file_enumerator_iterate (enumerator, &info, &child, cancellable, error))
        return NULL;
      if (info == NULL)
        break;
      /* comparison.json of a matrix lists reports; it is none. */
      if (g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR ||
          !g_str_has_suffix (g_file_info_get_name (info), ".json") ||
          g_str_equal (g_file_info_get_name (info), "comparison.json") ||
          g_file_info_get_size (info) == 0)
        continue;
      found++;
      g_file_info_set_attribute_object (info, "rp::file", G_OBJECT (child));
      g_ptr_array_add (runs, g_object_ref (info));
      /* Bounded whatever the folder holds: a sort per @max_runs entries. */
      if (runs->len >= 2 * MAX (max_runs, 1))
        keep_newest (runs, max_runs);
    }
  keep_newest (runs, max_runs);
  if (n_found != NULL)
    *n_found = found;
  return g_steal_pointer (&runs);
}

typedef struct {
  GPtrArray *runs;
  guint      n_found;
} Listing;

static void
listing_free (Listing *listing)
{
  g_clear_pointer (&listing->runs, g_ptr_array_unref);
  g_free (listing);
}

static void
list_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GError *error = NULL;
  Listing *listing = g_new0 (Listing, 1);

  listing->runs = rp_recent_runs_list (GPOINTER_TO_UINT (task_data), &listing->n_found, cancellable, &error);
  if (listing->runs == NULL)
    {
      listing_free (listing);
      g_task_return_error (task, error);
    }
  else
    g_task_return_pointer (task, listing, (GDestroyNotify) listing_free);
}

/**
 * rp_recent_runs_list_async:
 * @max_runs: at most this many
 *
 * rp_recent_runs_list() on a worker thread.
 */
void
rp_recent_runs_list_async (guint                max_runs,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, rp_recent_runs_list_async);
  g_task_set_task_data (task, GUINT_TO_POINTER (max_runs), NULL);
  g_task_run_in_thread (task, list_in_thread);
}

/**
 * rp_recent_runs_list_finish:
 * @n_found: (out) (optional): how many reports the folder holds in all
 *
 * Returns: (transfer full) (element-type GFileInfo) (nullable): see
 *   rp_recent_runs_list()
 */
GPtrArray *
rp_recent_runs_list_finish (GAsyncResult  *result,
                            guint         *n_found,
                            GError       **error)
{
  Listing *listing;
  GPtrArray *runs;

  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  if (n_found != NULL)
    *n_found = 0;
  listing = g_task_propagate_pointer (G_TASK (result), error);
  if (listing == NULL)
    return NULL;
  if (n_found != NULL)
    *n_found = listing->n_found;
  runs = g_steal_pointer (&listing->runs);
  listing_free (listing);
  return runs;
}
