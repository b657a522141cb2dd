/* rp-window-recent.c: every finished run saved in the reports folder, and the window's list of recent runs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-gui-util.h"
#include "rp-recent-run-info.h"
#include "rp-recent-runs.h"
#include "rp-report-io.h"
#include "rp-window-private.h"

/* A run is saved when it ends, whatever the user does next (closing the
 * window included): the CLI does the same, and a run of an hour must not
 * depend on remembering Save. The list shows the reports folder, newest
 * first: open one (activate the row), compare the ticked ones, show one in
 * the file manager, move one to the trash. */

/* ------------------------------------------------------------------------- */
/* Autosave */

typedef struct {
  RpWindow       *window;
  GApplication   *application;
  RpReport       *report;
} AutosaveJob;

static void
autosave_job_free (AutosaveJob *job)
{
  if (job->application != NULL)
    g_application_release (job->application);
  g_clear_object (&job->application);
  g_clear_object (&job->window);
  g_clear_object (&job->report);
  g_free (job);
}

static void
on_autosaved (GObject      *source,
              GAsyncResult *result,
              gpointer      user_data)
{
  AutosaveJob *job = user_data;
  RpWindow *self = job->window;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) file = rp_recent_runs_save_finish (result, &error);

  self->n_autosaves--;
  if (file == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The run was not saved: %s"), error->message);

      /* The window may be gone (closed after the run): the terminal may be
       * watched. */
      if (rp_window_is_gone (self) || !gtk_widget_get_visible (GTK_WIDGET (self)))
        rp_gui_printerr (text);
      else
        rp_window_show_toast (self, text);
    }
  else if (!rp_window_is_gone (self) && rp_window_get_report (self) == job->report)
    g_set_object (&self->saved_file, file);

  if (!rp_window_is_gone (self))
    {
      rp_window_recent_refresh (self);
      rp_window_update_ui (self);
      /* Closed while the run was saved: now it can go. */
      if (self->close_when_finished && self->n_autosaves == 0 && !rp_window_get_scripted (self))
        gtk_window_destroy (GTK_WINDOW (self));
    }
  autosave_job_free (job);
}

/**
 * rp_window_autosave:
 * @report: the report of the run that just ended
 *
 * Saves @report in the reports folder on a worker thread (never cancelled:
 * a report being written is written whole), holding the application until
 * it is written, so that closing the window or quitting loses no run.
 */
void
rp_window_autosave (RpWindow *self,
                    RpReport *report)
{
  AutosaveJob *job = g_new0 (AutosaveJob, 1);
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  job->window = g_object_ref (self);
  job->report = g_object_ref (report);
  if (application != NULL)
    {
      job->application = G_APPLICATION (g_object_ref (application));
      g_application_hold (job->application);
    }
  g_clear_object (&self->saved_file);
  self->n_autosaves++;
  rp_recent_runs_save_async (report, NULL, on_autosaved, job);
}

/* ------------------------------------------------------------------------- */
/* The list */

/* Until the report is read (rp_recent_run_info_read(), on a worker):
 * "Wed 2 Dec 2026, 00:31:05", when the file was written. */
static char *
describe_time (GFileInfo *info)
{
  g_autoptr(GDateTime) modified = g_file_info_get_modification_date_time (info);
  g_autoptr(GDateTime) local = modified ? g_date_time_to_local (modified) : NULL;

  if (local == NULL)
    return g_strdup (g_file_info_get_name (info));
  /* TRANSLATORS: when a recent run ended, a g_date_time_format() format,
   * e.g. "Wed 2 Dec 2026, 00:31:05"; reorder as your language writes dates */
  /* xgettext:no-c-format */
  return g_date_time_format (local, _("%a %-d %b %Y, %H:%M:%S"));
}

static GtkWidget *
new_run_menu_button (GFile *file)
{
  g_autofree char *uri = g_file_get_uri (file);
  g_autoptr(GMenu) menu = g_menu_new ();
  g_autoptr(GMenuItem) open = g_menu_item_new (_("_Open"), NULL);
  g_autoptr(GMenuItem) reveal = g_menu_item_new (_("Show in _Files"), NULL);
  g_autoptr(GMenuItem) trash = g_menu_item_new (_("Move to _Trash"), NULL);
  GtkWidget *button = gtk_menu_button_new ();

  g_menu_item_set_action_and_target (open, "win.open-recent", "s", uri);
  g_menu_item_set_action_and_target (reveal, "win.reveal-recent", "s", uri);
  g_menu_item_set_action_and_target (trash, "win.trash-recent", "s", uri);
  g_menu_append_item (menu, open);
  g_menu_append_item (menu, reveal);
  g_menu_append_item (menu, trash);
  gtk_menu_button_set_menu_model (GTK_MENU_BUTTON (button), G_MENU_MODEL (menu));
  gtk_menu_button_set_icon_name (GTK_MENU_BUTTON (button), "view-more-symbolic");
  gtk_widget_set_valign (button, GTK_ALIGN_CENTER);
  gtk_widget_set_tooltip_text (button, _("More Actions"));
  gtk_widget_add_css_class (button, "flat");
  return button;
}

static void
on_tick_toggled (RpWindow *self)
{
  rp_window_recent_update (self);
}

/* The keys of a recent run's row, which is its only Tab stop. */
static gboolean
on_row_key_pressed (GtkEventControllerKey *controller,
                    guint                  keyval,
                    guint                  keycode,
                    GdkModifierType        state,
                    GtkWidget             *row)
{
  GtkCheckButton *tick = g_object_get_data (G_OBJECT (row), "rp-tick");
  GtkMenuButton *menu_button = g_object_get_data (G_OBJECT (row), "rp-menu-button");

  state &= gtk_accelerator_get_default_mod_mask ();
  if ((keyval == GDK_KEY_space || keyval == GDK_KEY_KP_Space) && state == 0)
    {
      gtk_check_button_set_active (tick, !gtk_check_button_get_active (tick));
      return GDK_EVENT_STOP;
    }
  if ((keyval == GDK_KEY_Menu && state == 0) || (keyval == GDK_KEY_F10 && state == GDK_SHIFT_MASK))
    {
      gtk_menu_button_popup (menu_button);
      return GDK_EVENT_STOP;
    }
  return GDK_EVENT_PROPAGATE;
}

static GtkWidget *
new_run_row (RpWindow  *self,
             GFileInfo *info)
{
  GFile *file = G_FILE (g_file_info_get_attribute_object (info, "rp::file"));
  g_autofree char *title = describe_time (info);
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *tick = gtk_check_button_new ();
  GtkWidget *menu_button = new_run_menu_button (file);
  GtkEventController *keys;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), g_file_info_get_name (info));
  /* The verdict, the marks and the storage; a third line would make a
   * sidebar of few runs. */
  adw_action_row_set_subtitle_lines (ADW_ACTION_ROW (row), 2);
  /* A long date (German, Polish) is ellipsized, not a wider sidebar; the
   * tooltip has the path. */
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  gtk_widget_set_tooltip_text (row, g_file_peek_path (file));
  /* Activating the row opens the run (the list's "row-activated"). Not
   * through gtk_actionable_set_action_name(): an actionable row keeps a
   * helper that observes the window's action muxer, and the list is
   * rebuilt whenever a run is saved, also while a closed window finishes
   * its run (issue: a crash in a cast to GtkActionObservable at teardown). */
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);

  gtk_widget_set_valign (tick, GTK_ALIGN_CENTER);
  /* TRANSLATORS: accessible name of the tick box of a recent run */
  gtk_widget_set_tooltip_text (tick, _("Tick to compare"));
  g_signal_connect_object (tick, "toggled", G_CALLBACK (on_tick_toggled), self, G_CONNECT_SWAPPED);
  adw_action_row_add_prefix (ADW_ACTION_ROW (row), tick);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), menu_button);
  /* One Tab stop per row (a list of ten runs was thirty): the row takes
   * focus, Enter opens the run, Space ticks it, the Menu key or Shift+F10
   * opens its menu. The pointer still reaches the tick and the button. */
  gtk_widget_set_can_focus (tick, FALSE);
  gtk_widget_set_can_focus (menu_button, FALSE);
  keys = gtk_event_controller_key_new ();
  g_signal_connect (keys, "key-pressed", G_CALLBACK (on_row_key_pressed), row);
  gtk_widget_add_controller (row, keys);

  g_object_set_data_full (G_OBJECT (row), "rp-file", g_object_ref (file), g_object_unref);
  g_object_set_data (G_OBJECT (row), "rp-tick", tick);
  g_object_set_data (G_OBJECT (row), "rp-menu-button", menu_button);
  g_object_set_data_full (G_OBJECT (row), "rp-modified",
                          g_file_info_get_modification_date_time (info),
                          (GDestroyNotify) g_date_time_unref);
  return row;
}

/* The list stops at RP_RECENT_RUNS_MAX rows (a folder of a year of runs
 * would be a sidebar of hundreds); the last row says how many there are
 * and opens the folder, where the file manager lists, sorts and searches
 * them all. */
static GtkWidget *
new_more_row (guint n_found)
{
  GtkWidget *row = adw_action_row_new ();
  GtkWidget *icon = gtk_image_new_from_icon_name ("folder-open-symbolic");
  g_autofree char *title = g_strdup_printf (/* TRANSLATORS: the last row of the recent runs when there are more than it shows */
                                            ngettext ("Show All %u Runs", "Show All %u Runs", n_found), n_found);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  /* TRANSLATORS: subtitle of "Show All 40 Runs" */
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), _("In the reports folder"));
  adw_action_row_set_title_lines (ADW_ACTION_ROW (row), 1);
  adw_action_row_add_suffix (ADW_ACTION_ROW (row), icon);
  gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
  g_object_set_data (G_OBJECT (row), "rp-more", GUINT_TO_POINTER (n_found));
  return row;
}

/* ------------------------------------------------------------------------- */
/* What each run was, read on a worker once the rows are shown */

static void
read_infos_in_thread (GTask        *task,
                      gpointer      source_object,
                      gpointer      task_data,
                      GCancellable *cancellable)
{
  GPtrArray *files = task_data;
  GPtrArray *infos = g_ptr_array_new_full (files->len, (GDestroyNotify) rp_recent_run_info_unref);

  for (guint i = 0; i < files->len; i++)
    {
      g_autoptr(GError) error = NULL;

      if (g_cancellable_is_cancelled (cancellable))
        break;
      /* A file that does not load keeps its name and time: opening it says
       * why. */
      g_ptr_array_add (infos, rp_recent_run_info_read (files->pdata[i], &error));
      if (error != NULL)
        g_debug ("recent run %s: %s", g_file_peek_path (files->pdata[i]), error->message);
    }
  g_task_return_pointer (task, infos, (GDestroyNotify) g_ptr_array_unref);
}

/* The row says when the run started, which scenario, how it went and on
 * which storage; the file's name is in its tooltip. */
static void
show_run_info (GtkWidget       *row,
               RpRecentRunInfo *info,
               GDateTime       *now)
{
  g_autofree char *when = rp_recent_run_info_format_time (info, now);
  /* TRANSLATORS: a recent run's title: when it started, then its scenario, e.g. "Today 11:15 · R1" */
  g_autofree char *title = g_strdup_printf (_("%s · %s"), when, info->scenario);
  g_autofree char *subtitle = rp_recent_run_info_describe (info);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), title);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  g_object_set_data_full (G_OBJECT (row), "rp-info", rp_recent_run_info_ref (info),
                          (GDestroyNotify) rp_recent_run_info_unref);
}

static void
on_infos_read (GObject      *source,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  GPtrArray *files = g_task_get_task_data (G_TASK (result));
  g_autoptr(GPtrArray) infos = g_task_propagate_pointer (G_TASK (result), NULL);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();

  if (infos == NULL || g_cancellable_is_cancelled (g_task_get_cancellable (G_TASK (result))) ||
      rp_window_is_gone (self))
    return;
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GFile *file = g_object_get_data (G_OBJECT (row), "rp-file");
      guint index = 0;

      if (file != NULL && g_ptr_array_find_with_equal_func (files, file, (GEqualFunc) g_file_equal, &index) &&
          index < infos->len && infos->pdata[index] != NULL)
        show_run_info (row, infos->pdata[index], now);
    }
}

/* Reading a report is loading it (tens of megabytes for a day's run): on a
 * worker, after the rows are shown with their files' times; the listing's
 * cancellable drops it when the folder is listed again. */
static void
read_infos (RpWindow  *self,
            GPtrArray *runs)
{
  GPtrArray *files = g_ptr_array_new_full (runs->len, g_object_unref);
  g_autoptr(GTask) task = g_task_new (NULL, self->recent_cancellable, on_infos_read, g_object_ref (self));

  for (guint i = 0; i < runs->len; i++)
    g_ptr_array_add (files, g_object_ref (g_file_info_get_attribute_object (runs->pdata[i], "rp::file")));
  g_task_set_task_data (task, files, (GDestroyNotify) g_ptr_array_unref);
  g_task_run_in_thread (task, read_infos_in_thread);
}

static void
on_recent_listed (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  guint n_found = 0;
  g_autoptr(GPtrArray) runs = rp_recent_runs_list_finish (result, &n_found, &error);
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  GtkListBoxRow *row;

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || rp_window_is_gone (self))
    return;
  /* The rows only: the placeholder is a child too. */
  while ((row = gtk_list_box_get_row_at_index (self->recent_list, 0)) != NULL)
    gtk_list_box_remove (self->recent_list, GTK_WIDGET (row));
  if (runs == NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The reports folder cannot be read: %s"), error->message);

      adw_preferences_group_set_description (self->recent_group, text);
      rp_window_recent_update (self);
      return;
    }
  adw_preferences_group_set_description (self->recent_group,
                                         _("Every finished run is saved in the reports folder"));
  for (guint i = 0; i < runs->len; i++)
    {
      GFileInfo *info = g_ptr_array_index (runs, i);
      GtkWidget *run_row = new_run_row (self, info);
      /* Read before, as it is: shown at once, not the file's time first. */
      g_autoptr(RpRecentRunInfo) known =
        rp_recent_run_info_peek (G_FILE (g_file_info_get_attribute_object (info, "rp::file")), info);

      if (known != NULL)
        show_run_info (run_row, known, now);
      gtk_list_box_append (self->recent_list, run_row);
    }
  if (n_found > runs->len)
    gtk_list_box_append (self->recent_list, new_more_row (n_found));
  rp_window_recent_update (self);
  read_infos (self, runs);
}

/**
 * rp_window_recent_refresh:
 *
 * Lists the reports folder again (on a worker thread), newest first.
 */
void
rp_window_recent_refresh (RpWindow *self)
{
  g_cancellable_cancel (self->recent_cancellable);
  g_clear_object (&self->recent_cancellable);
  self->recent_cancellable = g_cancellable_new ();
  rp_recent_runs_list_async (RP_RECENT_RUNS_MAX, self->recent_cancellable,
                             on_recent_listed, g_object_ref (self));
}

/* The ticked runs, oldest first: the first is the comparison's baseline. */
static GPtrArray *
ticked_files (RpWindow *self)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);

  for (GtkWidget *row = gtk_widget_get_last_child (GTK_WIDGET (self->recent_list));
       row != NULL; row = gtk_widget_get_prev_sibling (row))
    {
      GtkCheckButton *tick = g_object_get_data (G_OBJECT (row), "rp-tick");

      if (tick != NULL && gtk_check_button_get_active (tick))
        g_ptr_array_add (files, g_object_ref (g_object_get_data (G_OBJECT (row), "rp-file")));
    }
  return files;
}

/**
 * rp_window_recent_update:
 *
 * Compare is enabled for 2 to 8 ticked runs.
 */
void
rp_window_recent_update (RpWindow *self)
{
  g_autoptr(GPtrArray) files = ticked_files (self);

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.compare-selected",
                                 files->len >= RP_COMPARE_MIN_REPORTS &&
                                 files->len <= RP_COMPARE_MAX_REPORTS);
}

/**
 * rp_window_get_saved_file:
 *
 * Returns: (transfer none) (nullable): where the run shown was saved in the
 *   reports folder when it ended; %NULL before (or for an opened report)
 */
GFile *
rp_window_get_saved_file (RpWindow *self)
{
  g_return_val_if_fail (RP_IS_WINDOW (self), NULL);
  return self->saved_file;
}

/* Where the report shown came from in the reports folder: saved there when
 * its run ended, or opened from there. */
static GFile *
file_of_report (RpWindow *self,
                RpReport *report)
{
  if (rp_window_get_report (self) != report)
    return NULL;
  if (self->saved_file != NULL)
    return self->saved_file;
  if (self->loaded_report == report)
    return self->loaded_file;
  return NULL;
}

/**
 * rp_window_recent_file_to_rename:
 * @report: the report Save writes
 * @target: where
 * @format: as rp_report_save() takes it
 *
 * What a GNOME user expects of Save in the reports folder (issue 21): the
 * run's own file there (saved when the run ended, or opened from there) is
 * renamed to @target, not written beside it a second time, so that the
 * list shows the run once. Saved elsewhere, or as another format, the run
 * is written there and its file stays.
 *
 * Returns: (transfer full) (nullable): the file to rename to @target, or
 *   %NULL: write @target
 */
GFile *
rp_window_recent_file_to_rename (RpWindow   *self,
                                 RpReport   *report,
                                 GFile      *target,
                                 const char *format)
{
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autoptr(GFile) folder = g_file_new_for_path (directory);
  g_autoptr(GFile) target_folder = g_file_get_parent (target);
  g_autoptr(GFile) own_folder = NULL;
  GFile *own = file_of_report (self, report);

  if (own == NULL || !g_str_equal (format, "json") || target_folder == NULL)
    return NULL;
  own_folder = g_file_get_parent (own);
  if (own_folder == NULL || !g_file_equal (own_folder, folder) || !g_file_equal (target_folder, folder))
    return NULL;
  return g_object_ref (own);
}

/**
 * rp_window_recent_renamed:
 * @from: the run's file in the reports folder
 * @to: its new name
 *
 * The run's file was renamed by a Save: the window's run lives at @to now
 * (the next Save renames it again, Move to Trash of its row finds it). The
 * list follows through the folder's monitor.
 */
void
rp_window_recent_renamed (RpWindow *self,
                          GFile    *from,
                          GFile    *to)
{
  if (self->saved_file != NULL && g_file_equal (self->saved_file, from))
    g_set_object (&self->saved_file, to);
  if (self->loaded_file != NULL && g_file_equal (self->loaded_file, from))
    {
      g_set_object (&self->loaded_file, to);
      /* The header's subtitle names the file: the new name, not the gone one. */
      rp_window_update_ui (self);
    }
}

/**
 * rp_window_list_recent_files:
 *
 * Returns: (transfer full) (element-type GFile): the files of the
 *   recent-runs list as shown, newest first
 */
GPtrArray *
rp_window_list_recent_files (RpWindow *self)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (RP_IS_WINDOW (self), files);

  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (self->recent_list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GFile *file = g_object_get_data (G_OBJECT (row), "rp-file");

      if (file != NULL)
        g_ptr_array_add (files, g_object_ref (file));
    }
  return files;
}

/* ------------------------------------------------------------------------- */
/* Actions */

static void
compare_selected_action (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  RpWindow *self = RP_WINDOW (widget);
  g_autoptr(GPtrArray) files = ticked_files (self);

  if (files->len < RP_COMPARE_MIN_REPORTS)
    return;
  rp_window_open_files (self, (GFile *const *) files->pdata, files->len);
}

static void
open_recent_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  rp_window_open_files (RP_WINDOW (widget), &file, 1);
  /* Folded: the report is what the user wants to see now. */
  if (RP_WINDOW (widget)->folded)
    adw_flap_set_reveal_flap (RP_WINDOW (widget)->flap, FALSE);
}

static void
on_file_manager_answered (GObject      *source,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(GVariant) reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (source), result, NULL);
  GFile *folder = g_object_get_data (G_OBJECT (self), "rp-reveal-folder");
  g_autofree char *uri = NULL;

  if (reply != NULL || rp_window_is_gone (self) || folder == NULL)
    return;
  /* No file manager that selects a file: open its folder. */
  uri = g_file_get_uri (folder);
  gtk_show_uri (GTK_WINDOW (self), uri, GDK_CURRENT_TIME);
}

/* The freedesktop file manager interface selects the file in its folder
 * (Files, Dolphin, Thunar, Nemo all implement it); without it the folder
 * opens. */
static void
reveal_file (RpWindow *self,
             GFile    *file)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autofree char *uri = g_file_get_uri (file);
  const char *uris[] = { uri, NULL };
  g_autoptr(GFile) folder = g_file_get_parent (file);

  g_object_set_data_full (G_OBJECT (self), "rp-reveal-folder", g_object_ref (folder), g_object_unref);
  if (bus == NULL)
    {
      g_autofree char *folder_uri = g_file_get_uri (folder);

      gtk_show_uri (GTK_WINDOW (self), folder_uri, GDK_CURRENT_TIME);
      return;
    }
  g_dbus_connection_call (bus, "org.freedesktop.FileManager1", "/org/freedesktop/FileManager1",
                          "org.freedesktop.FileManager1", "ShowItems",
                          g_variant_new ("(^ass)", uris, ""), NULL, G_DBUS_CALL_FLAGS_NONE,
                          -1, self->cancellable, on_file_manager_answered, g_object_ref (self));
}

static void
reveal_recent_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  reveal_file (RP_WINDOW (widget), file);
}

static void
open_folder_action (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autoptr(GFile) folder = g_file_new_for_path (directory);
  g_autofree char *uri = g_file_get_uri (folder);

  /* The folder exists once a run was saved; before, make it, so that the
   * file manager has something to show. */
  g_mkdir_with_parents (directory, 0700);
  gtk_show_uri (GTK_WINDOW (widget), uri, GDK_CURRENT_TIME);
}

static void
on_trashed (GObject      *source,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *name = rp_report_io_display_name (G_FILE (source));

  if (!g_file_trash_finish (G_FILE (source), result, &error))
    {
      g_autofree char *text = NULL;

      if (rp_window_is_gone (self))
        return;
      /* TRANSLATORS: %s: a report's file name; the second %s: why */
      text = g_strdup_printf (_("Could not move “%s” to the trash: %s"), name, error->message);
      rp_window_show_toast (self, text);
      return;
    }
  if (rp_window_is_gone (self))
    return;
  {
    /* TRANSLATORS: %s: a report's file name */
    g_autofree char *text = g_strdup_printf (_("“%s” moved to the trash"), name);

    rp_window_show_toast (self, text);
  }
  if (self->saved_file != NULL && g_file_equal (self->saved_file, G_FILE (source)))
    g_clear_object (&self->saved_file);
  rp_window_recent_refresh (self);
}

/* To the trash, not deleted: a run deleted by a slip would be lost for good. */
static void
trash_recent_action (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  g_autoptr(GFile) file = g_file_new_for_uri (g_variant_get_string (parameter, NULL));

  g_file_trash_async (file, G_PRIORITY_DEFAULT, RP_WINDOW (widget)->cancellable,
                      on_trashed, g_object_ref (widget));
}

/**
 * rp_window_recent_class_init:
 *
 * Installs win.compare-selected, win.open-reports-folder, and
 * win.open-recent, win.reveal-recent, win.trash-recent (each with the URI of
 * a report).
 */
void
rp_window_recent_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.compare-selected", NULL, compare_selected_action);
  gtk_widget_class_install_action (widget_class, "win.open-reports-folder", NULL, open_folder_action);
  gtk_widget_class_install_action (widget_class, "win.open-recent", "s", open_recent_action);
  gtk_widget_class_install_action (widget_class, "win.reveal-recent", "s", reveal_recent_action);
  gtk_widget_class_install_action (widget_class, "win.trash-recent", "s", trash_recent_action);
}

/* Enter or a click on a row: a run opens; the last row ("Show All …")
 * opens the reports folder. */
static void
on_row_activated (RpWindow      *self,
                  GtkListBoxRow *row)
{
  GFile *file = g_object_get_data (G_OBJECT (row), "rp-file");
  g_autofree char *uri = NULL;

  if (rp_window_is_gone (self))
    return;
  if (g_object_get_data (G_OBJECT (row), "rp-more") != NULL)
    {
      gtk_widget_activate_action (GTK_WIDGET (self), "win.open-reports-folder", NULL);
      return;
    }
  if (file == NULL)
    return;
  uri = g_file_get_uri (file);
  gtk_widget_activate_action (GTK_WIDGET (self), "win.open-recent", "s", uri);
}

/* How long the folder must be quiet before it is listed again (ms): a
 * matrix's runs, a copy of many reports or a trash emptied come as bursts
 * of events, listed once. */
#define RELOAD_DELAY_MS 300

static gboolean
reload_recent (gpointer user_data)
{
  RpWindow *self = user_data;

  self->recent_reload_id = 0;
  rp_window_recent_refresh (self);
  return G_SOURCE_REMOVE;
}

static gboolean
names_report (GFile *file)
{
  g_autofree char *name = file != NULL ? g_file_get_basename (file) : NULL;

  return name != NULL && g_str_has_suffix (name, ".json");
}

/* A report written by the CLI, copied or moved in, deleted or trashed by a
 * file manager. A report being written is not listed meanwhile: it is
 * written under a temporary name (".resprobe-XXXXXX", rp-report-file.c)
 * and renamed whole, and the empty file that reserves a name is skipped
 * (rp_recent_runs_list()); a copy that takes longer is listed again when
 * its last change arrives. */
static void
on_reports_folder_changed (GFileMonitor      *monitor,
                           GFile             *file,
                           GFile             *other,
                           GFileMonitorEvent  event,
                           RpWindow          *self)
{
  if (event == G_FILE_MONITOR_EVENT_ATTRIBUTE_CHANGED || (!names_report (file) && !names_report (other)))
    return;
  g_clear_handle_id (&self->recent_reload_id, g_source_remove);
  self->recent_reload_id = g_timeout_add (RELOAD_DELAY_MS, reload_recent, self);
}

/* GIO's monitor follows a folder that does not exist yet (no run saved so
 * far) and notices when it is made. */
static void
watch_reports_folder (RpWindow *self)
{
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autoptr(GFile) folder = g_file_new_for_path (directory);
  g_autoptr(GError) error = NULL;

  self->recent_monitor = g_file_monitor_directory (folder, G_FILE_MONITOR_WATCH_MOVES, NULL, &error);
  if (self->recent_monitor == NULL)
    {
      g_debug ("the reports folder %s is not watched: %s", directory, error->message);
      return;
    }
  g_signal_connect (self->recent_monitor, "changed", G_CALLBACK (on_reports_folder_changed), self);
}

/**
 * rp_window_recent_init:
 *
 * Lists the recent runs, and lists them again whenever reports are added
 * to the reports folder, renamed or removed there, by this window or not.
 */
void
rp_window_recent_init (RpWindow *self)
{
  GtkWidget *placeholder = gtk_label_new (_("No runs yet"));

  g_signal_connect_object (self->recent_list, "row-activated", G_CALLBACK (on_row_activated), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_css_class (placeholder, "dim-label");
  gtk_widget_set_margin_top (placeholder, 12);
  gtk_widget_set_margin_bottom (placeholder, 12);
  gtk_list_box_set_placeholder (self->recent_list, placeholder);
  watch_reports_folder (self);
  rp_window_recent_refresh (self);
}

/**
 * rp_window_recent_dispose:
 *
 * Stops watching the reports folder and drops a listing under way; the
 * window's dispose calls it before anything else goes.
 */
void
rp_window_recent_dispose (RpWindow *self)
{
  g_clear_handle_id (&self->recent_reload_id, g_source_remove);
  if (self->recent_monitor != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->recent_monitor, self);
      g_file_monitor_cancel (self->recent_monitor);
      g_clear_object (&self->recent_monitor);
    }
  g_cancellable_cancel (self->recent_cancellable);
  g_clear_object (&self->recent_cancellable);
}
