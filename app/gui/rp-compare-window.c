/* rp-compare-window.c: a window comparing 2 to 8 reports. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-gui-util.h"
#include "rp-compare-export.h"
#include "rp-compare-window.h"
#include "rp-report-io.h"

/* After the reports show, how long to let the charts paint before the
 * screenshot of --screenshot-on-exit. */
#define SCREENSHOT_DELAY_MS 500

struct _RpCompareWindow
{
  AdwApplicationWindow  parent_instance;

  /* template children */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkStack             *stack;
  AdwStatusPage        *error_page;
  RpCompareView        *compare_view;
  GtkMenuButton        *order_button;
  GtkMenuButton        *menu_button;

  GPtrArray            *files;
  char                 *error_message;
  GFile                *exit_screenshot;
  /* What the last export wrote: the next one starts in its folder. */
  GFile                *last_export;
  guint                 screenshot_tries;
  /* The timer of --screenshot-on-exit, until the screenshot is taken */
  guint                 screenshot_id;
  GCancellable         *cancellable;
};

G_DEFINE_FINAL_TYPE (RpCompareWindow, rp_compare_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  SHOW_REPORT,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static void update_order_menu (RpCompareWindow *self);

static void
show_toast (RpCompareWindow *self,
            const char      *text)
{
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_timeout (toast, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static void
set_have_reports (RpCompareWindow *self,
                  gboolean         have)
{
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.copy-comparison", have);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-chart", have);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.export-all", have);
}

/* ------------------------------------------------------------------------- */
/* Scripts and tests: --screenshot-on-exit */

/* What the worker writes: plain data, no widget. GLib's worker drops its
 * reference to the task after it has queued the callback, so on a loaded
 * machine the worker may hold the last one; a window kept by the task (as its
 * source object) was then finalized on the worker while the main thread tore
 * the application down: SIGSEGV (issue 30, test gui-compare "partial"). */
typedef struct {
  GdkTexture *texture;
  char       *path;
} ScreenshotJob;

static void
screenshot_job_free (gpointer data)
{
  ScreenshotJob *job = data;

  g_clear_object (&job->texture);
  g_free (job->path);
  g_free (job);
}

static void
write_png_in_thread (GTask        *task,
                     gpointer      source_object,
                     gpointer      task_data,
                     GCancellable *cancellable)
{
  ScreenshotJob *job = task_data;

  if (job->texture == NULL || job->path == NULL || !gdk_texture_save_to_png (job->texture, job->path))
    g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                             _("Could not write the screenshot “%s”"), job->path ? job->path : "");
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_screenshot_written (GObject      *source,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  /* The task's only reference to the window: dropped here, on the main
   * thread. */
  g_autoptr(RpCompareWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    rp_gui_printerr (error->message);
  /* Closed meanwhile: destroyed already, not twice. */
  if (gtk_window_get_application (GTK_WINDOW (self)) != NULL)
    gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
on_screenshot_due (gpointer user_data)
{
  RpCompareWindow *self = user_data;
  g_autoptr(GTask) task = NULL;
  ScreenshotJob *job;
  GdkTexture *texture;

  if (!rp_gui_screenshot_ready (GTK_WIDGET (self), &self->screenshot_tries, &texture))
    return G_SOURCE_CONTINUE;
  self->screenshot_id = 0;
  job = g_new0 (ScreenshotJob, 1);
  job->texture = texture;
  job->path = g_file_get_path (self->exit_screenshot);
  task = g_task_new (NULL, NULL, on_screenshot_written, g_object_ref (self));
  g_task_set_task_data (task, job, screenshot_job_free);
  g_task_run_in_thread (task, write_png_in_thread);
  return G_SOURCE_REMOVE;
}

/* ------------------------------------------------------------------------- */
/* Loading */

static void
show_error (RpCompareWindow *self,
            const char      *message)
{
  g_autofree char *escaped = g_markup_escape_text (message, -1);

  g_free (self->error_message);
  self->error_message = g_strdup (message);
  adw_status_page_set_description (self->error_page, escaped);
  gtk_stack_set_visible_child_name (self->stack, "error");
  adw_window_title_set_subtitle (self->window_title, "");
  set_have_reports (self, FALSE);
  if (self->exit_screenshot != NULL)
    {
      rp_gui_printerr (message);
      gtk_window_destroy (GTK_WINDOW (self));
    }
}

/* One report left of those given: it shows in a main window like a finished
 * run (which then takes the screenshot of a script), not compared with
 * nothing. */
static void
show_single (RpCompareWindow        *self,
             const RpReportIoLoaded *loaded)
{
  GtkWindow *window = NULL;

  /* The application makes the main window: this window knows none. */
  g_signal_emit (self, signals[SHOW_REPORT], 0, g_ptr_array_index (loaded->reports, 0),
                 g_ptr_array_index (loaded->files, 0), self->exit_screenshot, &window);
  if (window == NULL)
    {
      rp_compare_window_set_reports (self, loaded->reports, (GFile *const *) loaded->files->pdata);
      rp_report_io_show_errors (GTK_WINDOW (self), loaded, self->exit_screenshot != NULL);
      return;
    }
  rp_report_io_show_errors (window, loaded, self->exit_screenshot != NULL);
  gtk_window_destroy (GTK_WINDOW (self));
}

/* The reports that loaded are compared (or one shown alone); the files that
 * did not are named over them, or here if none loaded. */
static void
on_loaded (GObject      *source,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(RpCompareWindow) self = user_data;
  g_autoptr(RpReportIoLoaded) loaded = rp_report_io_load_finish (result, NULL);

  /* Cancelled: other files replaced these, or the window closed. */
  if (loaded == NULL || gtk_window_get_application (GTK_WINDOW (self)) == NULL)
    return;
  if (loaded->reports->len == 0)
    {
      g_autofree char *message = rp_report_io_describe_errors (loaded);

      show_error (self, message);
      return;
    }
  if (loaded->reports->len == 1)
    {
      show_single (self, loaded);
      return;
    }
  rp_compare_window_set_reports (self, loaded->reports, (GFile *const *) loaded->files->pdata);
  rp_report_io_show_errors (GTK_WINDOW (self), loaded, self->exit_screenshot != NULL);
}

/**
 * rp_compare_window_open_files:
 * @files: (array length=n_files): 2 to 8 JSON reports
 * @n_files: how many
 *
 * Loads the reports on a worker thread, then compares those that load. A
 * file that does not is named, with the reason: in a toast over the
 * comparison (or over the one report left, which then shows in a main
 * window instead of this one), or on this window's error page if none
 * loaded.
 */
void
rp_compare_window_open_files (RpCompareWindow *self,
                              GFile *const    *files,
                              guint            n_files)
{
  g_return_if_fail (RP_IS_COMPARE_WINDOW (self));
  g_return_if_fail (files != NULL || n_files == 0);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_ptr_array_set_size (self->files, 0);
  for (guint i = 0; i < n_files; i++)
    g_ptr_array_add (self->files, g_object_ref (files[i]));

  if (n_files < RP_COMPARE_MIN_REPORTS || n_files > RP_COMPARE_MAX_REPORTS)
    {
      g_autofree char *message =
        /* TRANSLATORS: %u: how many reports were given */
        g_strdup_printf (ngettext ("A comparison shows 2 to 8 reports; %u was given.",
                                   "A comparison shows 2 to 8 reports; %u were given.", n_files),
                         n_files);

      show_error (self, message);
      return;
    }

  gtk_stack_set_visible_child_name (self->stack, "loading");
  set_have_reports (self, FALSE);
  self->cancellable = g_cancellable_new ();
  rp_report_io_load_async (files, n_files, self->cancellable, on_loaded, g_object_ref (self));
}

/**
 * rp_compare_window_set_reports:
 * @reports: (element-type RpReport): 2 to 8 loaded reports
 * @files: (array) (nullable): the file of each report
 *
 * Shows the comparison of @reports (see rp_compare_view_set_reports()).
 */
void
rp_compare_window_set_reports (RpCompareWindow *self,
                               GPtrArray       *reports,
                               GFile *const    *files)
{
  g_autofree char *subtitle = NULL;

  g_return_if_fail (RP_IS_COMPARE_WINDOW (self));
  g_return_if_fail (reports != NULL && reports->len > 0);

  if (files != NULL && files != (GFile *const *) self->files->pdata)
    {
      g_ptr_array_set_size (self->files, 0);
      for (guint i = 0; i < reports->len; i++)
        g_ptr_array_add (self->files, g_object_ref (files[i]));
    }
  rp_compare_view_set_reports (self->compare_view, reports, files);
  /* TRANSLATORS: window subtitle, e.g. "Baseline: data=ordered · 3 reports" */
  subtitle = g_strdup_printf (ngettext ("Baseline: %s · %u report", "Baseline: %s · %u reports", reports->len),
                              rp_compare_view_get_label (self->compare_view, 0), reports->len);
  adw_window_title_set_subtitle (self->window_title, subtitle);
  update_order_menu (self);
  gtk_stack_set_visible_child_name (self->stack, "compare");
  set_have_reports (self, TRUE);

  /* One timer, removed in dispose: a window closed before its screenshot
   * is not kept alive to be rendered and destroyed again. */
  if (self->exit_screenshot != NULL && self->screenshot_id == 0)
    self->screenshot_id = g_timeout_add (SCREENSHOT_DELAY_MS, on_screenshot_due, self);
}

/* ------------------------------------------------------------------------- */
/* Baseline and order: the first run is the one every change is computed
 * against. Files given on the command line keep their order; the user
 * picks the baseline and moves runs here. */

static void
update_order_menu (RpCompareWindow *self)
{
  GPtrArray *reports = rp_compare_view_get_reports (self->compare_view);
  g_autoptr(GMenu) menu = g_menu_new ();

  for (guint i = 0; reports != NULL && i < reports->len; i++)
    {
      g_autoptr(GMenu) section = g_menu_new ();
      g_autoptr(GMenuItem) baseline = g_menu_item_new (_("Use as _Baseline"), NULL);
      g_autoptr(GMenuItem) earlier = g_menu_item_new (_("Move _Earlier"), NULL);
      g_autoptr(GMenuItem) later = g_menu_item_new (_("Move _Later"), NULL);
      g_autofree char *title = NULL;

      if (i == 0)
        /* TRANSLATORS: a section of the order menu: the baseline run's name */
        title = g_strdup_printf (_("%s (baseline)"), rp_compare_view_get_label (self->compare_view, i));
      else
        title = g_strdup (rp_compare_view_get_label (self->compare_view, i));
      g_menu_item_set_action_and_target (baseline, "win.set-baseline", "u", i);
      g_menu_item_set_action_and_target (earlier, "win.move-earlier", "u", i);
      g_menu_item_set_action_and_target (later, "win.move-later", "u", i);
      if (i > 0)
        {
          g_menu_append_item (section, baseline);
          g_menu_append_item (section, earlier);
        }
      if (i + 1 < reports->len)
        g_menu_append_item (section, later);
      g_menu_append_section (menu, title, G_MENU_MODEL (section));
    }
  gtk_menu_button_set_menu_model (self->order_button, G_MENU_MODEL (menu));
}

/* Shows the runs again in @order (indices into the current order). */
static void
reorder (RpCompareWindow *self,
         const guint     *order)
{
  GPtrArray *reports = rp_compare_view_get_reports (self->compare_view);
  g_autoptr(GPtrArray) new_reports = NULL;
  g_autoptr(GPtrArray) new_files = NULL;

  if (reports == NULL)
    return;
  new_reports = g_ptr_array_new_with_free_func (g_object_unref);
  new_files = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < reports->len; i++)
    {
      g_ptr_array_add (new_reports, g_object_ref (g_ptr_array_index (reports, order[i])));
      if (self->files->len == reports->len)
        g_ptr_array_add (new_files, g_object_ref (g_ptr_array_index (self->files, order[i])));
    }
  rp_compare_window_set_reports (self, new_reports,
                                 new_files->len == new_reports->len ? (GFile *const *) new_files->pdata : NULL);
}

/**
 * rp_compare_window_set_baseline:
 * @index: the run (in the order shown) to compare the others against
 *
 * Moves run @index to the front; the others keep their order.
 */
void
rp_compare_window_set_baseline (RpCompareWindow *self,
                                guint            index)
{
  GPtrArray *reports;
  g_autofree guint *order = NULL;
  guint n = 0;

  g_return_if_fail (RP_IS_COMPARE_WINDOW (self));

  reports = rp_compare_view_get_reports (self->compare_view);
  if (reports == NULL || index == 0 || index >= reports->len)
    return;
  order = g_new (guint, reports->len);
  order[n++] = index;
  for (guint i = 0; i < reports->len; i++)
    if (i != index)
      order[n++] = i;
  reorder (self, order);
}

/* Swaps runs @a and @a + 1. */
static void
swap_with_next (RpCompareWindow *self,
                guint            a)
{
  GPtrArray *reports = rp_compare_view_get_reports (self->compare_view);
  g_autofree guint *order = NULL;

  if (reports == NULL || a + 1 >= reports->len)
    return;
  order = g_new (guint, reports->len);
  for (guint i = 0; i < reports->len; i++)
    order[i] = i;
  order[a] = a + 1;
  order[a + 1] = a;
  reorder (self, order);
}

static void
set_baseline_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  rp_compare_window_set_baseline (RP_COMPARE_WINDOW (widget), g_variant_get_uint32 (parameter));
}

static void
move_earlier_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  guint index = g_variant_get_uint32 (parameter);

  if (index > 0)
    swap_with_next (RP_COMPARE_WINDOW (widget), index - 1);
}

static void
move_later_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  swap_with_next (RP_COMPARE_WINDOW (widget), g_variant_get_uint32 (parameter));
}

/* ------------------------------------------------------------------------- */
/* Actions */

static void
compare_text_in_thread (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  g_task_return_pointer (task, rp_report_compare_text (task_data), g_free);
}

static void
on_compare_text (GObject      *source,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(RpCompareWindow) self = user_data;
  g_autofree char *text = g_task_propagate_pointer (G_TASK (result), NULL);

  if (text == NULL || gtk_window_get_application (GTK_WINDOW (self)) == NULL)
    return;
  gdk_clipboard_set_text (gtk_widget_get_clipboard (GTK_WIDGET (self)), text);
  show_toast (self, _("Comparison copied"));
}

/* The text of `resprobe-cli compare`, for a bug tracker. */
static void
copy_comparison_action (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  RpCompareWindow *self = RP_COMPARE_WINDOW (widget);
  GPtrArray *reports = rp_compare_view_get_reports (self->compare_view);
  g_autoptr(GTask) task = NULL;

  if (reports == NULL)
    return;
  /* The window in the callback's data, not as the source object: the
   * worker may drop the task last (see ScreenshotJob). */
  task = g_task_new (NULL, NULL, on_compare_text, g_object_ref (self));
  g_task_set_task_data (task, g_ptr_array_ref (reports), (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, compare_text_in_thread);
}

typedef struct {
  GPtrArray  *reports;
  char      **labels;
  GFile      *file;
  char       *format;
  gboolean    replace;
  /* The whole comparison (rp_compare_save_all()), not the one chart. */
  gboolean    all;
} ChartJob;

static void
chart_job_free (gpointer data)
{
  ChartJob *job = data;

  g_clear_pointer (&job->reports, g_ptr_array_unref);
  g_clear_pointer (&job->labels, g_strfreev);
  g_clear_object (&job->file);
  g_free (job->format);
  g_free (job);
}

static void
save_chart_in_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  ChartJob *job = task_data;
  GError *error = NULL;

  if (!rp_report_io_check_new_file (job->file, job->replace, cancellable, &error) ||
      !(job->all
          ? rp_compare_save_all (job->reports, (const char *const *) job->labels, job->file, job->format, &error)
          : rp_compare_save_plot (job->reports, (const char *const *) job->labels, RP_PLOT_CDF,
                                  job->file, job->format, &error)))
    g_task_return_error (task, error);
  else
    g_task_return_boolean (task, TRUE);
}

static void
on_chart_saved (GObject      *source,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(RpCompareWindow) self = user_data;
  ChartJob *job = g_task_get_task_data (G_TASK (result));
  g_autoptr(GError) error = NULL;
  g_autofree char *name = rp_report_io_display_name (job->file);

  /* Closed meanwhile: no window to tell. */
  if (gtk_window_get_application (GTK_WINDOW (self)) == NULL)
    return;
  if (g_task_propagate_boolean (G_TASK (result), &error))
    {
      g_autofree char *text = g_strdup_printf (_("Saved “%s”"), name);

      g_set_object (&self->last_export, job->file);

      show_toast (self, text);
      return;
    }
  {
    g_autofree char *heading = g_strdup_printf (_("Could Not Save “%s”"), name);
    GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (self), heading, error->message);

    adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
    gtk_window_present (GTK_WINDOW (dialog));
  }
}

static void
on_chart_file_chosen (GtkNativeDialog *dialog,
                      int              response,
                      RpCompareWindow *self)
{
  g_autoptr(GFile) chosen = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    chosen = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
  if (chosen != NULL)
    {
      /* (transfer none) */
      GtkFileFilter *filter = gtk_file_chooser_get_filter (GTK_FILE_CHOOSER (dialog));
      /* The window in the callback's data (see ScreenshotJob). */
      g_autoptr(GTask) task = g_task_new (NULL, NULL, on_chart_saved, g_object_ref (self));
      GPtrArray *reports = rp_compare_view_get_reports (self->compare_view);
      ChartJob *job = g_new0 (ChartJob, 1);
      gboolean all = g_object_get_data (G_OBJECT (dialog), "rp-all") != NULL;
      const char *fallback = all ? "pdf" : "png";
      const char *format = rp_report_io_resolve_format (chosen, filter, fallback, &job->file);

      /* Only what this export writes: "run.json" here is a PNG (or, for
       * the whole comparison, a PDF) called run.json.png. */
      if (g_strcmp0 (format, "png") != 0 && g_strcmp0 (format, "pdf") != 0 &&
          g_strcmp0 (format, all ? "txt" : "svg") != 0)
        {
          g_autofree char *name = g_file_get_basename (chosen);
          g_autofree char *renamed = g_strdup_printf ("%s.%s", name, fallback);
          g_autoptr(GFile) parent = g_file_get_parent (chosen);

          g_clear_object (&job->file);
          job->file = parent ? g_file_get_child (parent, renamed) : g_file_new_for_path (renamed);
          format = fallback;
        }
      job->all = all;
      job->reports = g_ptr_array_ref (reports);
      job->labels = g_new0 (char *, reports->len + 1);
      for (guint i = 0; i < reports->len; i++)
        job->labels[i] = g_strdup (rp_compare_view_get_label (self->compare_view, i));
      job->format = g_strdup (format);
      /* The chooser asked about replacing the name it returned, no other. */
      job->replace = g_file_equal (job->file, chosen);
      g_task_set_task_data (task, job, chart_job_free);
      g_task_run_in_thread (task, save_chart_in_thread);
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
add_image_filter (GtkFileChooser *chooser,
                  const char     *format,
                  const char     *label)
{
  g_autoptr(GtkFileFilter) filter = gtk_file_filter_new ();
  g_autofree char *name = g_strdup_printf (_("%s (*.%s)"), label, format);

  gtk_file_filter_set_name (filter, name);
  gtk_file_filter_add_suffix (filter, format);
  g_object_set_data (G_OBJECT (filter), "rp-format", (gpointer) format);
  gtk_file_chooser_add_filter (chooser, filter);
}

/* A file format offered by an export chooser: the file name suffix (also
 * the format on_chart_file_chosen() writes) and its translated label. */
typedef struct
{
  const char *format;
  const char *label;
} ExportFormat;

/* Opens the modal save chooser both exports use, titled TITLE, with a
 * filter for each of the N_FORMATS FORMATS (the first one chosen) and a
 * name of PREFIX and the runs' labels proposed
 * (rp_compare_export_suggest_name()), in the folder of this window's last
 * export, else the reports folder; ALL marks the whole-comparison export
 * for on_chart_file_chosen(). Nothing happens while no reports are shown.
 * GTK 4's file choosers ask before replacing a file. */
static void
show_export_chooser (RpCompareWindow    *self,
                     const char         *title,
                     const ExportFormat *formats,
                     gsize               n_formats,
                     const char         *prefix,
                     gboolean            all)
{
  GPtrArray *reports = rp_compare_view_get_reports (self->compare_view);
  g_autofree const char **labels = NULL;
  g_autofree char *current_name = NULL;
  GtkFileChooserNative *dialog;

  if (reports == NULL)
    return;
  labels = g_new0 (const char *, reports->len + 1);
  for (guint i = 0; i < reports->len; i++)
    labels[i] = rp_compare_view_get_label (self->compare_view, i);
  current_name = rp_compare_export_suggest_name (prefix, labels, reports->len, formats[0].format);
  dialog = gtk_file_chooser_native_new (title, GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  for (gsize i = 0; i < n_formats; i++)
    add_image_filter (GTK_FILE_CHOOSER (dialog), formats[i].format, formats[i].label);
  rp_report_io_set_start_folder (GTK_FILE_CHOOSER (dialog), self->last_export);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (dialog), current_name);
  if (all)
    g_object_set_data (G_OBJECT (dialog), "rp-all", GINT_TO_POINTER (TRUE));
  g_signal_connect (dialog, "response", G_CALLBACK (on_chart_file_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* The distribution chart in a file, drawn by the same code as on screen. */
static void
export_chart_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  const ExportFormat formats[] = {
    { "png", _("PNG image") },
    { "svg", _("SVG image") },
    { "pdf", _("PDF document") },
  };

  show_export_chooser (RP_COMPARE_WINDOW (widget), _("Export Distribution Chart"),
                       formats, G_N_ELEMENTS (formats), "fsync-distribution", FALSE);
}

/* The whole comparison in a file: every chart and the table (PDF), every
 * chart (PNG) or the table (text). */
static void
export_all_action (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  const ExportFormat formats[] = {
    { "pdf", _("PDF document") },
    { "png", _("PNG image") },
    { "txt", _("Plain text") },
  };

  show_export_chooser (RP_COMPARE_WINDOW (widget), _("Export Comparison"),
                       formats, G_N_ELEMENTS (formats), "comparison", TRUE);
}

/* ------------------------------------------------------------------------- */
/* GObject */

static void
rp_compare_window_dispose (GObject *object)
{
  RpCompareWindow *self = RP_COMPARE_WINDOW (object);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->screenshot_id, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (self), RP_TYPE_COMPARE_WINDOW);

  G_OBJECT_CLASS (rp_compare_window_parent_class)->dispose (object);
}

static void
rp_compare_window_finalize (GObject *object)
{
  RpCompareWindow *self = RP_COMPARE_WINDOW (object);

  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_object (&self->exit_screenshot);
  g_clear_object (&self->last_export);

  G_OBJECT_CLASS (rp_compare_window_parent_class)->finalize (object);
}

static void
rp_compare_window_class_init (RpCompareWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  /**
   * RpCompareWindow::show-report:
   * @report: the one report that loaded of those given
   * @file: its file
   * @screenshot: (nullable): the --screenshot-on-exit file of this window
   *
   * Asks for a main window showing @report, which then takes the place of
   * this one (closed after the signal).
   *
   * Returns: (transfer none) (nullable): the window showing @report
   */
  signals[SHOW_REPORT] =
    g_signal_new ("show-report", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                  0, g_signal_accumulator_first_wins, NULL, NULL,
                  GTK_TYPE_WINDOW, 3, RP_TYPE_REPORT, G_TYPE_FILE, G_TYPE_FILE);

  object_class->dispose = rp_compare_window_dispose;
  object_class->finalize = rp_compare_window_finalize;

  g_type_ensure (RP_TYPE_COMPARE_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/resprobe/Resprobe/rp-compare-window.ui");
  gtk_widget_class_bind_template_child (widget_class, RpCompareWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, RpCompareWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, RpCompareWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, RpCompareWindow, error_page);
  gtk_widget_class_bind_template_child (widget_class, RpCompareWindow, compare_view);
  gtk_widget_class_bind_template_child (widget_class, RpCompareWindow, order_button);
  gtk_widget_class_bind_template_child (widget_class, RpCompareWindow, menu_button);

  gtk_widget_class_install_action (widget_class, "win.set-baseline", "u", set_baseline_action);
  gtk_widget_class_install_action (widget_class, "win.move-earlier", "u", move_earlier_action);
  gtk_widget_class_install_action (widget_class, "win.move-later", "u", move_later_action);
  gtk_widget_class_install_action (widget_class, "win.copy-comparison", NULL, copy_comparison_action);
  gtk_widget_class_install_action (widget_class, "win.export-chart", NULL, export_chart_action);
  gtk_widget_class_install_action (widget_class, "win.export-all", NULL, export_all_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_c, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.copy-comparison", NULL);
  /* Ctrl+E exports what the window shows, as win.export does in the main
   * window: the whole comparison. The one chart has its menu item only. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, GDK_CONTROL_MASK, "win.export-all", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
}

static void
rp_compare_window_init (RpCompareWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  rp_gui_menu_button_quiet_tooltip (self->order_button);
  rp_gui_menu_button_quiet_tooltip (self->menu_button);
  self->files = g_ptr_array_new_with_free_func (g_object_unref);
  set_have_reports (self, FALSE);
}

/**
 * rp_compare_window_new:
 * @application: the application
 *
 * Returns: (transfer full): a new window, showing "Loading…" until
 *   rp_compare_window_open_files() or rp_compare_window_set_reports()
 */
RpCompareWindow *
rp_compare_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (RP_TYPE_COMPARE_WINDOW, "application", application, NULL);
}

/**
 * rp_compare_window_set_exit_screenshot:
 * @screenshot: (nullable): where to save a PNG of the window once the
 *   comparison shows
 *
 * For scripts and tests: the window then closes itself; if the reports do
 * not load, it prints the error on stderr and closes.
 */
void
rp_compare_window_set_exit_screenshot (RpCompareWindow *self,
                                       GFile           *screenshot)
{
  g_return_if_fail (RP_IS_COMPARE_WINDOW (self));
  g_set_object (&self->exit_screenshot, screenshot);
}

/**
 * rp_compare_window_get_view:
 *
 * Returns: (transfer none): the comparison
 */
RpCompareView *
rp_compare_window_get_view (RpCompareWindow *self)
{
  g_return_val_if_fail (RP_IS_COMPARE_WINDOW (self), NULL);
  return self->compare_view;
}

/**
 * rp_compare_window_get_error:
 *
 * Returns: (transfer none) (nullable): the message shown when the reports
 *   did not load
 */
const char *
rp_compare_window_get_error (RpCompareWindow *self)
{
  g_return_val_if_fail (RP_IS_COMPARE_WINDOW (self), NULL);
  return self->error_message;
}
