/* rp-report-io.c: reports from and to files on worker threads, and the file choosers for them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "rp-comparison-file.h"
#include "rp-gui-util.h"
#include "rp-report-export.h"
#include "rp-recent-runs.h"
#include "rp-report-io.h"
#include "rp-text.h"

/* ------------------------------------------------------------------------- */
/* Loading */

/* The engine's read errors name the file; its parse errors ("Key “version”:
 * …") do not, and a user who opened three files must know which one. */
static GError *
error_naming_file (GError *local_error,
                   GFile  *file)
{
  g_autofree char *name = rp_text_file_name (file);
  GError *error;

  if (strstr (local_error->message, name) != NULL)
    return local_error;
  error = g_error_new (local_error->domain, local_error->code,
                       /* TRANSLATORS: “file name”: the reason, e.g. "Key “version”: missing" */
                       _("Cannot read the report “%s”: %s"), name, local_error->message);
  g_error_free (local_error);
  return error;
}

/* Statistics are computed once per series and kept by the report: sorting
 * the samples here, on the worker, keeps the main thread from doing it when
 * a view asks for percentiles. */
static void
compute_stats (RpReport *report)
{
  GPtrArray *series = rp_report_get_series (report);

  for (guint i = 0; i < series->len; i++)
    {
      RpStats stats;

      rp_report_get_stats (report, rp_series_get_name (g_ptr_array_index (series, i)), &stats);
    }
}

/**
 * rp_report_io_loaded_free:
 * @loaded: (transfer full) (nullable): what rp_report_io_load() gave
 */
void
rp_report_io_loaded_free (RpReportIoLoaded *loaded)
{
  if (loaded == NULL)
    return;
  g_clear_pointer (&loaded->reports, g_ptr_array_unref);
  g_clear_pointer (&loaded->files, g_ptr_array_unref);
  g_clear_pointer (&loaded->failed, g_ptr_array_unref);
  g_clear_pointer (&loaded->errors, g_ptr_array_unref);
  g_free (loaded);
}

/* Loads the reports of a comparison.json (@listed), or names the
 * comparison with @comparison_error (taken). FALSE when cancelled. */
static gboolean
load_listed (RpReportIoLoaded *loaded,
             GPtrArray        *listed,
             GFile            *comparison,
             GError           *comparison_error,
             GCancellable     *cancellable,
             GError          **error)
{
  if (comparison_error != NULL)
    {
      g_ptr_array_add (loaded->failed, g_object_ref (comparison));
      g_ptr_array_add (loaded->errors, comparison_error);
      return TRUE;
    }
  for (guint i = 0; i < listed->len; i++)
    {
      GFile *file = g_ptr_array_index (listed, i);
      GError *local_error = NULL;
      RpReport *report;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      report = rp_report_load (file, &local_error);
      if (report == NULL)
        {
          g_ptr_array_add (loaded->failed, g_object_ref (file));
          g_ptr_array_add (loaded->errors, error_naming_file (local_error, file));
          continue;
        }
      compute_stats (report);
      g_ptr_array_add (loaded->reports, report);
      g_ptr_array_add (loaded->files, g_object_ref (file));
    }
  return TRUE;
}

/**
 * rp_report_io_load:
 * @files: (array length=n_files): JSON reports, or a matrix's
 *   comparison.json, which stands for the reports it lists
 *   (rp_comparison_file_read())
 * @n_files: how many
 * @cancellable: (nullable): to give up between files
 * @error: %G_IO_ERROR_CANCELLED only: a file that does not load is one of
 *   the result's errors
 *
 * Loads every report it can, in order, and computes its statistics; for
 * each file that does not load, an error naming the file with the reason
 * (%RP_ERROR_IO, %RP_ERROR_REPORT). Blocks on I/O: this is what
 * rp_report_io_load_async() runs on a worker thread.
 *
 * Returns: (transfer full) (nullable): the reports and the errors, or %NULL
 *   when cancelled
 */
RpReportIoLoaded *
rp_report_io_load (GFile *const *files,
                   guint         n_files,
                   GCancellable *cancellable,
                   GError      **error)
{
  g_autoptr(RpReportIoLoaded) loaded = g_new0 (RpReportIoLoaded, 1);

  g_return_val_if_fail (files != NULL || n_files == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  loaded->reports = g_ptr_array_new_with_free_func (g_object_unref);
  loaded->files = g_ptr_array_new_with_free_func (g_object_unref);
  loaded->failed = g_ptr_array_new_with_free_func (g_object_unref);
  loaded->errors = g_ptr_array_new_with_free_func ((GDestroyNotify) g_error_free);
  for (guint i = 0; i < n_files; i++)
    {
      GError *local_error = NULL;
      g_autoptr(GPtrArray) listed = NULL;
      RpReport *report;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return NULL;
      /* A matrix's comparison.json stands for the reports it lists. */
      listed = rp_comparison_file_read (files[i], RP_COMPARE_MAX_REPORTS, &local_error);
      if (listed != NULL || local_error != NULL)
        {
          if (!load_listed (loaded, listed, files[i], local_error, cancellable, error))
            return NULL;
          continue;
        }
      report = rp_report_load (files[i], &local_error);
      if (report == NULL)
        {
          g_ptr_array_add (loaded->failed, g_object_ref (files[i]));
          g_ptr_array_add (loaded->errors, error_naming_file (local_error, files[i]));
          continue;
        }
      compute_stats (report);
      g_ptr_array_add (loaded->reports, report);
      g_ptr_array_add (loaded->files, g_object_ref (files[i]));
    }
  return g_steal_pointer (&loaded);
}

static void
load_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  GPtrArray *files = task_data;
  GError *error = NULL;
  RpReportIoLoaded *loaded = rp_report_io_load ((GFile *const *) files->pdata, files->len,
                                                cancellable, &error);

  if (loaded == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, loaded, (GDestroyNotify) rp_report_io_loaded_free);
}

/**
 * rp_report_io_load_async:
 * @files: (array length=n_files): JSON reports
 * @n_files: how many
 * @cancellable: (nullable): to give up
 * @callback: called on the thread-default main context of the caller
 *
 * rp_report_io_load() on a worker thread: a report of a long run is tens of
 * megabytes to read and parse, and the disk may be busy.
 */
void
rp_report_io_load_async (GFile *const        *files,
                         guint                n_files,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);
  GPtrArray *copy = g_ptr_array_new_full (n_files, g_object_unref);

  g_return_if_fail (files != NULL || n_files == 0);

  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (copy, g_object_ref (files[i]));
  g_task_set_source_tag (task, rp_report_io_load_async);
  g_task_set_task_data (task, copy, (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, load_in_thread);
}

/**
 * rp_report_io_load_finish:
 * @error: %G_IO_ERROR_CANCELLED only
 *
 * Returns: (transfer full) (nullable): the reports that loaded and why the
 *   others did not, or %NULL when cancelled
 */
RpReportIoLoaded *
rp_report_io_load_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == rp_report_io_load_async, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ------------------------------------------------------------------------- */
/* Files that did not load: one path for the main and the comparison window */

/* Control and bidi characters as visible escapes ("run\\x1B[31m.json",
 * "evil\\u202Enosj.exe"): a space in their place would hide that the name
 * is odd, and the user may need to find the file in a terminal. */
static char *
escape_controls (const char *name)
{
  GString *out = g_string_sized_new (strlen (name));

  for (const char *p = name; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!rp_text_is_control (c))
        g_string_append_unichar (out, c);
      else if (c < 0x100)
        g_string_append_printf (out, "\\x%02X", c);
      else
        g_string_append_printf (out, "\\u%04X", c);
    }
  return g_string_free (out, FALSE);
}

/**
 * rp_report_io_display_name:
 * @file: a file the user chose
 *
 * Returns: (transfer full): its name for a message or a label: the basename
 *   is enough, as the user just chose the file; control and bidi
 *   characters (rp_text_is_control()), with which a name could show
 *   reversed, shown as escapes ("evil\\u202Enosj.exe")
 */
char *
rp_report_io_display_name (GFile *file)
{
  g_autofree char *path = NULL;
  g_autofree char *basename = NULL;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  /* In the file system's encoding, shown as GLib shows file names (U+FFFD
   * where it cannot tell a character), not as a URI of %XX. */
  path = g_file_get_path (file);
  if (path != NULL)
    basename = g_filename_display_basename (path);
  if (basename != NULL)
    return escape_controls (basename);
  return rp_text_file_name (file);
}

/**
 * rp_report_io_describe_errors:
 * @loaded: a result of rp_report_io_load()
 *
 * Returns: (transfer full) (nullable): each error (which names its file and
 *   says why) in a paragraph of its own, or %NULL when every file loaded
 */
char *
rp_report_io_describe_errors (const RpReportIoLoaded *loaded)
{
  g_autoptr(GStrvBuilder) messages = g_strv_builder_new ();
  g_auto(GStrv) strv = NULL;

  g_return_val_if_fail (loaded != NULL, NULL);

  if (loaded->errors->len == 0)
    return NULL;
  for (guint i = 0; i < loaded->errors->len; i++)
    g_strv_builder_add (messages, ((GError *) g_ptr_array_index (loaded->errors, i))->message);
  strv = g_strv_builder_end (messages);
  return g_strjoinv ("\n\n", strv);
}

static void
on_details_clicked (AdwToast  *toast,
                    GtkWindow *window)
{
  const char *heading = g_object_get_data (G_OBJECT (toast), "rp-heading");
  const char *body = g_object_get_data (G_OBJECT (toast), "rp-body");
  GtkWidget *dialog = adw_message_dialog_new (window, heading, body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* "Could not open “bad.json”" (and how many others), for a toast. */
static char *
errors_title (const RpReportIoLoaded *loaded)
{
  GFile *first_failed = g_ptr_array_index (loaded->failed, 0);
  guint others = loaded->failed->len - 1;
  g_autofree char *name = rp_report_io_display_name (first_failed);
  g_autofree char *text = NULL;

  if (others == 0)
    /* TRANSLATORS: a notification; the Details button says why */
    text = g_strdup_printf (_("Could not open “%s”"), name);
  else
    /* TRANSLATORS: a notification, e.g. "Could not open “a.json” and 2 other files" */
    text = g_strdup_printf (ngettext ("Could not open “%s” and %u other file",
                                      "Could not open “%s” and %u other files", others),
                            name, others);
  return g_markup_escape_text (text, -1);
}

static char *
errors_heading (const RpReportIoLoaded *loaded)
{
  guint n = loaded->errors->len;

  if (n == 1)
    return g_strdup (_("Could Not Open the Report"));
  /* TRANSLATORS: a dialog heading; n is at least 2 */
  return g_strdup_printf (ngettext ("Could Not Open %u Report", "Could Not Open %u Reports", n), n);
}

/**
 * rp_report_io_show_errors:
 * @window: the window showing the reports that did load: its content must
 *   be an #AdwToastOverlay, as in both windows' templates
 * @loaded: what rp_report_io_load() gave
 * @scripted: a script drives the window (--screenshot-on-exit): the
 *   messages go to stderr too
 *
 * The files that did not load while others did: a toast naming the (first)
 * file, whose Details button shows every file with its reason. Nothing when
 * every file loaded. A window showing none of them says so its own way,
 * with rp_report_io_describe_errors().
 */
void
rp_report_io_show_errors (GtkWindow              *window,
                          const RpReportIoLoaded *loaded,
                          gboolean                scripted)
{
  GtkWidget *content;
  AdwToast *toast;
  g_autofree char *title = NULL;

  g_return_if_fail (ADW_IS_APPLICATION_WINDOW (window));
  g_return_if_fail (loaded != NULL);

  if (loaded->errors->len == 0)
    return;
  for (guint i = 0; scripted && i < loaded->errors->len; i++)
    rp_gui_printerr (((GError *) g_ptr_array_index (loaded->errors, i))->message);

  content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  g_return_if_fail (ADW_IS_TOAST_OVERLAY (content));
  /* AdwToast titles are markup: a file may be called "a&b.json". */
  title = errors_title (loaded);
  toast = adw_toast_new (title);
  adw_toast_set_timeout (toast, 10);
  adw_toast_set_button_label (toast, _("_Details"));
  g_object_set_data_full (G_OBJECT (toast), "rp-heading", errors_heading (loaded), g_free);
  g_object_set_data_full (G_OBJECT (toast), "rp-body", rp_report_io_describe_errors (loaded), g_free);
  g_signal_connect_object (toast, "button-clicked", G_CALLBACK (on_details_clicked), window, 0);
  adw_toast_overlay_add_toast (ADW_TOAST_OVERLAY (content), toast);
}

/* ------------------------------------------------------------------------- */
/* Saving */

typedef struct {
  RpReport *report;
  GFile    *file;
  GFile    *renaming;
  char     *format;
  gboolean  replace;
} SaveData;

static void
save_data_free (gpointer data)
{
  SaveData *save = data;

  g_clear_object (&save->report);
  g_clear_object (&save->file);
  g_clear_object (&save->renaming);
  g_free (save->format);
  g_free (save);
}

/**
 * rp_report_io_check_new_file:
 * @file: where a worker is about to write
 * @replace: %TRUE: the user confirmed replacing @file (nothing to check)
 * @cancellable: (nullable): to give up
 * @error: %G_IO_ERROR_EXISTS naming @file
 *
 * For workers only: the check is I/O too (a stat while the disk is busy
 * takes seconds).
 *
 * Returns: %TRUE if @file may be written
 */
gboolean
rp_report_io_check_new_file (GFile         *file,
                             gboolean       replace,
                             GCancellable  *cancellable,
                             GError       **error)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  if (replace || !g_file_query_exists (file, cancellable))
    return TRUE;
  name = rp_text_file_name (file);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS, _("A file named “%s” already exists"), name);
  return FALSE;
}

static void
save_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  SaveData *save = task_data;
  GError *error = NULL;

  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (!rp_report_io_check_new_file (save->file, save->replace, cancellable, &error))
    {
      g_task_return_error (task, error);
      return;
    }
  /* One rename: the folder never holds the run twice, not even for a
   * moment. The file is the report as it was written (a report loaded and
   * saved again is the same file). */
  if (save->renaming != NULL && g_file_equal (save->renaming, save->file))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  if (save->renaming != NULL &&
      g_file_move (save->renaming, save->file, save->replace ? G_FILE_COPY_OVERWRITE : G_FILE_COPY_NONE,
                   cancellable, NULL, NULL, &error))
    {
      g_task_return_boolean (task, TRUE);
      return;
    }
  /* Gone meanwhile (trashed): write it, as without one. */
  if (error != NULL && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND))
    {
      g_task_return_error (task, error);
      return;
    }
  g_clear_error (&error);
  if (!rp_report_export (save->report, save->file, save->format, &error))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

/**
 * rp_report_io_save_async:
 * @report: the report to write
 * @file: where; replaced atomically if it exists (ask first)
 * @format: as rp_report_save() takes it, e.g. from rp_report_io_resolve_format()
 * @replace: %FALSE: fail with %G_IO_ERROR_EXISTS if @file exists (a name
 *   the file chooser did not confirm); %TRUE: replace it
 * @renaming: (nullable): a file that already holds @report as JSON (the
 *   run's file in the reports folder): renamed to @file rather than
 *   written again, so that a Save into the reports folder keeps one file
 *   of the run (issue 21); written as without it if it is gone. Only for
 *   @format "json" and a @file in the same file system
 * @cancellable: (nullable): to give up before writing
 * @callback: called on the thread-default main context of the caller
 *
 * rp_report_save() on a worker thread: writing blocks while the disk is
 * busy (the very situation this program measures), and the PNG, SVG and
 * PDF exports draw every chart first.
 */
void
rp_report_io_save_async (RpReport            *report,
                         GFile               *file,
                         const char          *format,
                         gboolean             replace,
                         GFile               *renaming,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  SaveData *save;

  g_return_if_fail (RP_IS_REPORT (report));
  g_return_if_fail (G_IS_FILE (file));
  g_return_if_fail (format != NULL);
  g_return_if_fail (renaming == NULL || (G_IS_FILE (renaming) && g_str_equal (format, "json")));

  save = g_new0 (SaveData, 1);
  save->renaming = renaming != NULL ? g_object_ref (renaming) : NULL;
  save->report = g_object_ref (report);
  save->file = g_object_ref (file);
  save->format = g_strdup (format);
  save->replace = replace;
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, rp_report_io_save_async);
  g_task_set_task_data (task, save, save_data_free);
  g_task_run_in_thread (task, save_in_thread);
}

/**
 * rp_report_io_save_finish:
 * @error: from rp_report_save()
 *
 * Returns: %TRUE if the file was written
 */
gboolean
rp_report_io_save_finish (GAsyncResult  *result,
                          GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), FALSE);
  g_return_val_if_fail (g_task_get_source_tag (G_TASK (result)) == rp_report_io_save_async, FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------- */
/* File choosers */

static const RpReportFormat *
lookup_format (const char *format)
{
  guint n_formats;
  const RpReportFormat *formats = rp_report_list_formats (&n_formats);

  for (guint i = 0; i < n_formats; i++)
    if (g_ascii_strcasecmp (formats[i].format, format) == 0)
      return &formats[i];
  return NULL;
}

/**
 * rp_report_io_suggest_name:
 * @report: (nullable): the report; %NULL: now
 * @format: a format of rp_report_list_formats()
 *
 * Returns: (transfer full): a file name from the start of the run in local
 *   time, e.g. "resprobe-20240501-100000.pdf", so that exports of one run
 *   sort together
 */
char *
rp_report_io_suggest_name (RpReport   *report,
                           const char *format)
{
  const RpReportFormat *known = lookup_format (format);
  g_autoptr(GDateTime) local = NULL;
  g_autofree char *stem = NULL;

  g_return_val_if_fail (report == NULL || RP_IS_REPORT (report), NULL);
  g_return_val_if_fail (known != NULL, NULL);

  local = report ? g_date_time_to_local (rp_report_get_created (report)) : g_date_time_new_now_local ();
  stem = g_date_time_format (local, "resprobe-%Y%m%d-%H%M%S");
  return g_strdup_printf ("%s.%s", stem, known->extension);
}

/**
 * rp_report_io_set_start_folder:
 * @chooser: a save chooser, not shown yet
 * @last: (nullable): the file the window's last Save or Export wrote
 *
 * Opens @chooser in the folder of @last, else in the reports folder
 * (rp_recent_runs_get_directory()), where every run is saved, rather than
 * in the process's working directory. If the folder does not exist (yet),
 * the chooser opens where it likes.
 */
void
rp_report_io_set_start_folder (GtkFileChooser *chooser,
                               GFile          *last)
{
  g_autofree char *reports = rp_recent_runs_get_directory ();
  g_autoptr(GFile) folder = last != NULL ? g_file_get_parent (last) : g_file_new_for_path (reports);

  if (folder != NULL)
    gtk_file_chooser_set_current_folder (chooser, folder, NULL);
}

static GtkFileFilter *
new_format_filter (const RpReportFormat *format)
{
  GtkFileFilter *filter = gtk_file_filter_new ();
  /* TRANSLATORS: a file type in the save dialog, e.g. "PDF report (*.pdf)" */
  g_autofree char *name = g_strdup_printf (_("%s (*.%s)"), format->label, format->extension);

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_suffix (filter, format->extension);
  /* Static strings of the format table: no copy needed. */
  g_object_set_data (G_OBJECT (filter), "rp-format", (gpointer) format->format);
  return filter;
}

/**
 * rp_report_io_new_save_dialog:
 * @parent: (nullable): the window it belongs to
 * @report: the report to save, for the suggested name
 * @json_only: %TRUE: "Save Report" (the re-importable JSON); %FALSE:
 *   "Export" with a filter per format of rp_report_list_formats(), PDF first
 *   selected
 * @last: (nullable): the file the last Save or Export of this window wrote
 * @same_run: whether @last was written of @report: then its name is offered
 *   too, else only its folder
 *
 * A save dialog. GTK 4 has no overwrite-confirmation switch any more: its
 * own chooser and the portal's both ask before replacing an existing file,
 * which is the behaviour gtk_file_chooser_set_do_overwrite_confirmation()
 * used to turn on. A name typed without a known extension gets one from
 * rp_report_io_resolve_format(); that name was not confirmed, so the caller
 * asks itself if it exists.
 *
 * It starts in the folder of @last (with @last's name, given the format's
 * extension, if @same_run), else in the reports folder (rp_recent_runs_get_directory(),
 * where the run was saved when it ended).
 *
 * Returns: (transfer full): the dialog, not shown
 */
GtkFileChooserNative *
rp_report_io_new_save_dialog (GtkWindow *parent,
                              RpReport  *report,
                              gboolean   json_only,
                              GFile     *last,
                              gboolean   same_run)
{
  const char *preferred = json_only ? "json" : "pdf";
  GtkFileChooserNative *dialog;
  GtkFileChooser *chooser;
  guint n_formats;
  const RpReportFormat *formats = rp_report_list_formats (&n_formats);
  g_autofree char *name = NULL;

  g_return_val_if_fail (RP_IS_REPORT (report), NULL);

  dialog = gtk_file_chooser_native_new (json_only ? _("Save Report") : _("Export Report"), parent,
                                        GTK_FILE_CHOOSER_ACTION_SAVE,
                                        json_only ? _("_Save") : _("_Export"), _("_Cancel"));
  chooser = GTK_FILE_CHOOSER (dialog);
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  for (guint i = 0; i < n_formats; i++)
    {
      g_autoptr(GtkFileFilter) filter = NULL;

      if (json_only && !g_str_equal (formats[i].format, "json"))
        continue;
      filter = new_format_filter (&formats[i]);
      gtk_file_chooser_add_filter (chooser, filter);
      if (g_str_equal (formats[i].format, preferred))
        gtk_file_chooser_set_filter (chooser, filter);
    }
  name = rp_report_io_suggest_name (report, preferred);
  if (last != NULL && same_run)
    {
      g_autofree char *last_name = g_file_get_basename (last);
      const char *dot = strrchr (last_name, '.');
      const RpReportFormat *known = lookup_format (preferred);

      /* "ordered.json" saved: Export offers "ordered.pdf" beside it. */
      if (dot != NULL && dot != last_name && known != NULL)
        {
          g_free (name);
          name = g_strdup_printf ("%.*s.%s", (int) (dot - last_name), last_name, known->extension);
        }
    }
  rp_report_io_set_start_folder (chooser, last);
  gtk_file_chooser_set_current_name (chooser, name);
  return dialog;
}

/**
 * rp_report_io_new_open_dialog:
 * @parent: (nullable): the window it belongs to
 *
 * Returns: (transfer full): a dialog to choose one or more JSON reports
 *   (one shows as a finished run, two to eight are compared), not shown
 */
GtkFileChooserNative *
rp_report_io_new_open_dialog (GtkWindow *parent)
{
  GtkFileChooserNative *dialog;
  g_autoptr(GtkFileFilter) reports = gtk_file_filter_new ();
  g_autoptr(GtkFileFilter) all = gtk_file_filter_new ();

  dialog = gtk_file_chooser_native_new (_("Open Reports"), parent, GTK_FILE_CHOOSER_ACTION_OPEN,
                                        _("_Open"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_select_multiple (GTK_FILE_CHOOSER (dialog), TRUE);

  gtk_file_filter_set_name (reports, _("Reports (*.json)"));
  gtk_file_filter_add_suffix (reports, "json");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), reports);
  gtk_file_filter_set_name (all, _("All Files"));
  gtk_file_filter_add_pattern (all, "*");
  gtk_file_chooser_add_filter (GTK_FILE_CHOOSER (dialog), all);
  gtk_file_chooser_set_filter (GTK_FILE_CHOOSER (dialog), reports);
  rp_report_io_set_start_folder (GTK_FILE_CHOOSER (dialog), NULL);
  return dialog;
}

/**
 * rp_report_io_resolve_format:
 * @chosen: the file the user chose
 * @filter: (nullable): the filter selected in the dialog
 * @fallback: the format when neither the name nor the filter tells
 * @out_file: (out) (transfer full): @chosen, or @chosen with the format's
 *   extension appended when its name has no known extension
 *
 * The format of a save: the extension of the chosen name wins (rp_report_
 * format_for_filename(): "run.svg" is SVG whatever the filter); without one,
 * the selected filter's format, then @fallback, and the name gets its
 * extension.
 *
 * Returns: the format, as rp_report_save() takes it
 */
const char *
rp_report_io_resolve_format (GFile          *chosen,
                             GtkFileFilter  *filter,
                             const char     *fallback,
                             GFile         **out_file)
{
  g_autofree char *name = NULL;
  g_autofree char *with_extension = NULL;
  g_autoptr(GFile) parent = NULL;
  const RpReportFormat *known;
  const char *format;

  g_return_val_if_fail (G_IS_FILE (chosen), NULL);
  g_return_val_if_fail (fallback != NULL && lookup_format (fallback) != NULL, NULL);
  g_return_val_if_fail (out_file != NULL, NULL);

  name = g_file_get_basename (chosen);
  format = name ? rp_report_format_for_filename (name) : NULL;
  if (format != NULL)
    {
      *out_file = g_object_ref (chosen);
      return format;
    }

  format = filter ? g_object_get_data (G_OBJECT (filter), "rp-format") : NULL;
  known = lookup_format (format ? format : fallback);
  parent = g_file_get_parent (chosen);
  with_extension = g_strdup_printf ("%s.%s", name ? name : "report", known->extension);
  *out_file = parent ? g_file_get_child (parent, with_extension) : g_file_new_for_path (with_extension);
  return known->format;
}
