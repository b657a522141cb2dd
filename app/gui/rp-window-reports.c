/* rp-window-reports.c: the window's report actions: open (and drop), save, export, copy summary. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>

#include "rp-gui-util.h"
#include "rp-compare-window.h"
#include "rp-report-io.h"
#include "rp-window-private.h"

/* Every file operation runs on a worker thread (rp-report-io.c); the main
 * thread only shows dialogs and their outcome. A report in a bug tracker
 * comes from a stranger: a file that does not load is a message naming the
 * file and the reason, never a crash. */

static void
show_message (RpWindow   *self,
              const char *heading,
              const char *body)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, body);

  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* ------------------------------------------------------------------------- */
/* Open */

/* No report to show: the reason in a dialog, or for scripts and tests
 * (--screenshot-on-exit) on the terminal, then quit. */
static void
show_open_error (RpWindow   *self,
                 const char *message)
{
  if (rp_window_get_scripted (self))
    {
      rp_gui_printerr (message);
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  show_message (self, _("Could Not Open the Report"), message);
}

/* One report in a window: this one, or a new one if this one is running
 * (the run goes on; the report is not lost either). */
static RpWindow *
show_in_window (RpWindow *self,
                RpReport *report,
                GFile    *file)
{
  RpWindow *target = self;

  if (rp_window_get_busy (self))
    {
      target = rp_window_new (gtk_window_get_application (GTK_WINDOW (self)));
      gtk_window_present (GTK_WINDOW (target));
    }
  rp_window_show_report (target, report, file);
  return target;
}

/* What loaded shows (one report here, several compared in a new window);
 * the files that did not load are named there, or here if none did. */
/* Reports chosen together in a dialog come in the order the user clicked
 * them (or the dialog's): the comparison's baseline is then the run that
 * started first, whichever was clicked first. The command line keeps its
 * order. */
static int
by_start_time (gconstpointer a,
               gconstpointer b)
{
  RpReport *report_a = *(RpReport **) a, *report_b = *(RpReport **) b;

  return g_date_time_compare (rp_report_get_created (report_a), rp_report_get_created (report_b));
}

static void
sort_by_start_time (RpReportIoLoaded *loaded)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_copy (loaded->reports, (GCopyFunc) g_object_ref, NULL);

  g_ptr_array_set_free_func (sorted, g_object_unref);
  g_ptr_array_sort (sorted, by_start_time);
  for (guint i = 0; i < sorted->len; i++)
    {
      guint from = 0;

      g_ptr_array_find (loaded->reports, g_ptr_array_index (sorted, i), &from);
      /* Swap report and file at i and from: the pairs stay together. */
      if (from != i)
        {
          gpointer report = loaded->reports->pdata[i], file = loaded->files->pdata[i];

          loaded->reports->pdata[i] = loaded->reports->pdata[from];
          loaded->files->pdata[i] = loaded->files->pdata[from];
          loaded->reports->pdata[from] = report;
          loaded->files->pdata[from] = file;
        }
    }
}

static void
show_loaded (RpWindow         *self,
             RpReportIoLoaded *loaded,
             gboolean          by_time)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));
  gboolean scripted = rp_window_get_scripted (self);
  GtkWindow *shown;

  /* Cancelled: the window was destroyed while the files loaded. */
  if (loaded == NULL || rp_window_is_gone (self) || application == NULL)
    return;
  if (loaded->reports->len == 0)
    {
      g_autofree char *message = rp_report_io_describe_errors (loaded);

      show_open_error (self, message);
      return;
    }
  if (by_time)
    sort_by_start_time (loaded);
  if (loaded->reports->len == 1)
    shown = GTK_WINDOW (show_in_window (self, g_ptr_array_index (loaded->reports, 0),
                                        g_ptr_array_index (loaded->files, 0)));
  else
    {
      RpCompareWindow *compare = rp_compare_window_new (application);

      rp_compare_window_set_reports (compare, loaded->reports, (GFile *const *) loaded->files->pdata);
      gtk_window_present (GTK_WINDOW (compare));
      shown = GTK_WINDOW (compare);
    }
  rp_report_io_show_errors (shown, loaded, scripted);
}

static void
on_reports_loaded (GObject      *source,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(RpReportIoLoaded) loaded = rp_report_io_load_finish (result, NULL);

  show_loaded (self, loaded, FALSE);
}

static void
on_chosen_reports_loaded (GObject      *source,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(RpReportIoLoaded) loaded = rp_report_io_load_finish (result, NULL);

  show_loaded (self, loaded, TRUE);
}

/* by_time: files chosen in a dialog (see sort_by_start_time()). */
static void
open_files (RpWindow     *self,
            GFile *const *files,
            guint         n_files,
            gboolean      by_time)
{
  if (n_files == 0)
    return;
  if (n_files > RP_COMPARE_MAX_REPORTS)
    {
      g_autofree char *body =
        /* TRANSLATORS: %u: how many files the user chose or dropped */
        g_strdup_printf (ngettext ("A comparison shows 2 to 8 reports; %u was chosen.",
                                   "A comparison shows 2 to 8 reports; %u were chosen.", n_files),
                         n_files);

      show_open_error (self, body);
      return;
    }

  rp_report_io_load_async (files, n_files, self->cancellable,
                           by_time ? on_chosen_reports_loaded : on_reports_loaded, g_object_ref (self));
}

/**
 * rp_window_open_files:
 * @files: (array length=n_files): JSON reports
 * @n_files: how many: one is shown in this window as a finished run (in a
 *   new window if this one is running); two to eight are compared in a new
 *   window, in this order (the first is the baseline)
 *
 * Loads the reports on a worker thread. A file that does not load is named
 * with the reason: in a toast over the reports that did (a comparison of
 * those left if two or more, else the one in this window), or in a dialog
 * if none did.
 */
void
rp_window_open_files (RpWindow     *self,
                      GFile *const *files,
                      guint         n_files)
{
  g_return_if_fail (RP_IS_WINDOW (self));
  g_return_if_fail (files != NULL || n_files == 0);

  open_files (self, files, n_files, FALSE);
}

static void
on_open_response (GtkNativeDialog *dialog,
                  int              response,
                  RpWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GListModel) chosen = gtk_file_chooser_get_files (GTK_FILE_CHOOSER (dialog));
      guint n = g_list_model_get_n_items (chosen);
      g_autoptr(GPtrArray) files = g_ptr_array_new_full (n, g_object_unref);

      for (guint i = 0; i < n; i++)
        g_ptr_array_add (files, g_list_model_get_item (chosen, i));
      open_files (self, (GFile *const *) files->pdata, files->len, TRUE);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
open_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  GtkFileChooserNative *dialog = rp_report_io_new_open_dialog (GTK_WINDOW (widget));

  g_signal_connect (dialog, "response", G_CALLBACK (on_open_response), widget);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* Dropping files does what Open does. */
static gboolean
on_drop (GtkDropTarget *target,
         const GValue  *value,
         double         x,
         double         y,
         RpWindow      *self)
{
  GdkFileList *list = g_value_get_boxed (value);
  g_autoptr(GSList) files = list ? gdk_file_list_get_files (list) : NULL;
  g_autoptr(GPtrArray) array = g_ptr_array_new ();

  for (GSList *l = files; l != NULL; l = l->next)
    g_ptr_array_add (array, l->data);
  if (array->len == 0)
    return FALSE;
  /* Dropped together: ordered as chosen in a dialog. */
  open_files (self, (GFile *const *) array->pdata, array->len, TRUE);
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Save and export */

typedef struct {
  RpWindow *window;
  RpReport *report;
  GFile    *file;
  GFile    *renaming;   /* the run's file in the reports folder, renamed to @file */
  char     *format;
} SaveJob;

static void
save_job_free (SaveJob *job)
{
  g_clear_object (&job->window);
  g_clear_object (&job->report);
  g_clear_object (&job->file);
  g_clear_object (&job->renaming);
  g_free (job->format);
  g_free (job);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (SaveJob, save_job_free)

static void start_save (SaveJob  *job,
                        gboolean  replace);

static void
on_replace_response (AdwMessageDialog *dialog,
                     const char       *response,
                     SaveJob          *job)
{
  if (g_str_equal (response, "replace"))
    start_save (job, TRUE);
  else
    save_job_free (job);
}

/* The name got its extension after the file chooser confirmed it (see
 * rp_report_io_new_save_dialog()): ask here, as the chooser would have. */
static void
ask_replace (SaveJob *job)
{
  g_autofree char *name = rp_report_io_display_name (job->file);
  g_autofree char *heading = g_strdup_printf (_("Replace “%s”?"), name);
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (job->window), heading,
                                              _("A file with this name already exists. "
                                                "Replacing it overwrites its contents."));

  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "replace", _("_Replace"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "replace",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (on_replace_response), job);
  gtk_window_present (GTK_WINDOW (dialog));
}

static void
on_saved (GObject      *source,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(SaveJob) job = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = rp_report_io_display_name (job->file);
  gboolean saved = rp_report_io_save_finish (result, &error);

  if (rp_window_is_gone (job->window))
    {
      /* Nowhere to show it; the terminal may be watched. */
      if (!saved)
        rp_gui_printerr (error->message);
      return;
    }
  if (saved)
    {
      /* TRANSLATORS: a notification after saving, e.g. "Saved “run.pdf”" */
      g_autofree char *text = g_strdup_printf (_("Saved “%s”"), name);

      g_set_object (&job->window->last_export, job->file);
      if (job->renaming != NULL)
        rp_window_recent_renamed (job->window, job->renaming, job->file);
      /* Which run it was: Export of this run offers the same name. */
      g_object_set_data_full (G_OBJECT (job->file), "rp-report", g_object_ref (job->report), g_object_unref);
      rp_window_show_toast (job->window, text);
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
    {
      ask_replace (g_steal_pointer (&job));
    }
  else
    {
      /* TRANSLATORS: a dialog heading; the body says why */
      g_autofree char *heading = g_strdup_printf (_("Could Not Save “%s”"), name);

      show_message (job->window, heading, error->message);
    }
}

static void
start_save (SaveJob  *job,
            gboolean  replace)
{
  /* Not the window's cancellable: a report being saved is written even if
   * the window closes meanwhile (on_saved() then reports to the terminal). */
  rp_report_io_save_async (job->report, job->file, job->format, replace, job->renaming, NULL, on_saved, job);
}

/**
 * rp_window_save_chosen:
 * @report: the report to save, as it was when the dialog opened
 * @chosen: the file the save dialog returned (its replacing confirmed)
 * @filter: (nullable): the dialog's selected filter
 * @json_only: Save Report (%TRUE) or Export (%FALSE)
 *
 * Saves @report where the dialog said, on a worker: in the format of the
 * name or the filter, asking before replacing a name the dialog did not
 * confirm; in the reports folder, the run's own file there is renamed
 * rather than written twice (rp_window_recent_file_to_rename()). A toast
 * says where it went, a dialog why it did not.
 */
void
rp_window_save_chosen (RpWindow      *self,
                       RpReport      *report,
                       GFile         *chosen,
                       GtkFileFilter *filter,
                       gboolean       json_only)
{
  SaveJob *job = g_new0 (SaveJob, 1);

  job->window = g_object_ref (self);
  job->report = g_object_ref (report);
  job->format = g_strdup (rp_report_io_resolve_format (chosen, filter, json_only ? "json" : "pdf",
                                                       &job->file));
  job->renaming = rp_window_recent_file_to_rename (self, report, job->file, job->format);
  /* The chooser confirmed replacing the name it returned, no other. */
  start_save (job, g_file_equal (job->file, chosen));
}

static void
on_save_response (GtkNativeDialog *dialog,
                  int              response,
                  RpWindow        *self)
{
  RpReport *report = g_object_get_data (G_OBJECT (dialog), "rp-report");
  gboolean json_only = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (dialog), "rp-json-only"));
  g_autoptr(GFile) chosen = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (chosen != NULL)
    /* (transfer none) filter */
    rp_window_save_chosen (self, report, chosen, gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog)),
                           json_only);
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
show_save_dialog (RpWindow *self,
                  gboolean  json_only)
{
  RpReport *report = rp_window_get_report (self);
  GtkFileChooserNative *dialog;

  if (report == NULL)
    return;
  /* Export after Save offers Save's folder and name (issue 21). */
  dialog = rp_report_io_new_save_dialog (GTK_WINDOW (self), report, json_only, self->last_export,
                                         self->last_export != NULL &&
                                         g_object_get_data (G_OBJECT (self->last_export), "rp-report") == report);
  /* The report as it is now: a new run may start while the dialog is open. */
  g_object_set_data_full (G_OBJECT (dialog), "rp-report", g_object_ref (report), g_object_unref);
  g_object_set_data (G_OBJECT (dialog), "rp-json-only", GINT_TO_POINTER (json_only));
  g_signal_connect (dialog, "response", G_CALLBACK (on_save_response), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
save_report_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  show_save_dialog (RP_WINDOW (widget), TRUE);
}

static void
export_action (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  show_save_dialog (RP_WINDOW (widget), FALSE);
}

/* ------------------------------------------------------------------------- */
/* Copy summary */

static void
summary_text_in_thread (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  /* Statistics of series the summary view does not show (every writer
   * thread's) are computed here the first time: millions of samples. */
  g_task_return_pointer (task, rp_report_to_summary_text (task_data), g_free);
}

static void
on_summary_text (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autofree char *text = g_task_propagate_pointer (G_TASK (result), NULL);

  if (text == NULL || rp_window_is_gone (self))
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  rp_window_show_toast (self, _("Summary copied"));
}

static void
copy_summary_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  RpReport *report = rp_window_get_report (RP_WINDOW (widget));
  g_autoptr(GTask) task = NULL;

  if (report == NULL)
    return;
  /* The window in the callback's data, not as the source object: the
   * worker may drop the task last, and would then finalize the window. */
  task = g_task_new (NULL, RP_WINDOW (widget)->cancellable, on_summary_text, g_object_ref (widget));
  g_task_set_task_data (task, g_object_ref (report), g_object_unref);
  g_task_run_in_thread (task, summary_text_in_thread);
}

/* ------------------------------------------------------------------------- */

/**
 * rp_window_reports_class_init:
 *
 * Installs win.open (Ctrl+O), win.save-report (Ctrl+S, JSON),
 * win.export (Ctrl+E, every format) and win.copy-summary (Ctrl+Shift+C).
 */
void
rp_window_reports_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.open", NULL, open_action);
  gtk_widget_class_install_action (widget_class, "win.save-report", NULL, save_report_action);
  gtk_widget_class_install_action (widget_class, "win.export", NULL, export_action);
  gtk_widget_class_install_action (widget_class, "win.copy-summary", NULL, copy_summary_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK, "win.open", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_s, GDK_CONTROL_MASK, "win.save-report", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.copy-summary", NULL);
}

/**
 * rp_window_reports_init:
 *
 * Makes the window a drop target for report files.
 */
void
rp_window_reports_init (RpWindow *self)
{
  GtkDropTarget *target = gtk_drop_target_new (GDK_TYPE_FILE_LIST, GDK_ACTION_COPY);

  g_signal_connect_object (target, "drop", G_CALLBACK (on_drop), self, 0);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (target));
}

/**
 * rp_window_reports_update:
 * @busy: whether a run is in progress
 *
 * Saving, exporting and copying need a finished run or an opened report;
 * opening is always possible (a running window opens a new one).
 */
void
rp_window_reports_update (RpWindow *self,
                          gboolean  busy)
{
  gboolean have_report = !busy && rp_window_get_report (self) != NULL;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.save-report", have_report);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export", have_report);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-summary", have_report);
}
