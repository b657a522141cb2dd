/* rp-window.c: the main window: the object, its public API, and a report shown as a finished run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-frame-sync.h"
#include "rp-gui-util.h"
#include "rp-window-private.h"

G_DEFINE_FINAL_TYPE (RpWindow, rp_window, ADW_TYPE_APPLICATION_WINDOW)

/* Below this width (px) the sidebar folds away over the charts: beside a
 * 340 px sidebar the charts would be narrower than 560 px, too narrow to
 * read two side by side (issue 21: "below ~900 px the sidebar folds"). */
#define FOLD_WIDTH 900
/* Below this width the charts stand one under the other: two side by side
 * would be under 280 px each. */
#define ONE_COLUMN_WIDTH 600
/* From this width the sidebar grows from 340 to 400 px: the results' names
 * ("Device write", "Journal-Commit") stay on one line beside whole header
 * words, and the charts keep about 400 px each (issue 21: at 1280 px the
 * headers were cut while the charts had room to spare). */
#define WIDE_WIDTH 1200
#define SIDEBAR_WIDTH 340
#define WIDE_SIDEBAR_WIDTH 400

enum {
  PROP_0,
  PROP_SETTINGS,
  PROP_DIRECTORY,
  PROP_SIMULATE_SAVE,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
show_toast (RpWindow   *self,
            const char *text)
{
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_timeout (toast, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

/**
 * rp_window_session_state:
 *
 * Returns: the state of the window's run; %RP_SESSION_IDLE without one
 */
RpSessionState
rp_window_session_state (RpWindow *self)
{
  return self->session ? rp_session_get_state (self->session) : RP_SESSION_IDLE;
}

/**
 * rp_window_is_gone:
 *
 * Returns: whether the window was disposed: an async result that arrives
 *   now is dropped (its widgets are gone)
 */
gboolean
rp_window_is_gone (RpWindow *self)
{
  return self->cancellable == NULL || g_cancellable_is_cancelled (self->cancellable);
}

/* For the run's files: the session's state and the hold changed. */
void
rp_window_notify_busy (RpWindow *self)
{
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/**
 * rp_window_get_busy:
 *
 * Returns: whether a run is starting, running or finishing
 */
gboolean
rp_window_get_busy (RpWindow *self)
{
  RpSessionState state;

  g_return_val_if_fail (RP_IS_WINDOW (self), FALSE);

  state = rp_window_session_state (self);
  return state == RP_SESSION_STARTING || state == RP_SESSION_RUNNING ||
         state == RP_SESSION_STOPPING || self->holding != NULL;
}

/* ------------------------------------------------------------------------- */
/* A report shown as a finished run */

static void
on_report_summary (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(RpReport) report = NULL;

  self->summary_busy = FALSE;
  report = rp_summary_view_refresh_finish (RP_SUMMARY_VIEW (object), result, NULL);
  /* A run started meanwhile, or the window was destroyed: this report is
   * gone from the window. */
  if (report == NULL || report != self->loaded_report || rp_window_is_gone (self))
    return;
  rp_window_show_verdict (self);
  rp_window_update_ui (self);
  if (rp_window_get_scripted (self))
    rp_window_save_exit_outputs (self);
}

static void
on_report_folder_queried (GObject      *source,
                          GAsyncResult *result,
                          gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(GFileInfo) info = g_file_query_info_finish (G_FILE (source), result, NULL);
  g_autofree char *path = g_file_get_path (G_FILE (source));

  if (info == NULL || rp_window_is_gone (self) || self->loaded_report == NULL ||
      g_file_info_get_file_type (info) != G_FILE_TYPE_DIRECTORY || rp_window_get_busy (self) ||
      g_strcmp0 (rp_report_get_scenario (self->loaded_report)->directory, path) != 0)
    return;
  rp_run_settings_set_directory (self->run_settings, path);
}

/* The report's folder, if this machine has it: Start then runs the same
 * test on the same disk (a report from elsewhere leaves the folder alone).
 * Asked on a worker thread: the folder may be on a dead network mount. */
static void
follow_report_folder (RpWindow *self,
                      RpReport *report)
{
  const RpScenario *scenario = rp_report_get_scenario (report);
  g_autoptr(GFile) folder = NULL;

  if (scenario == NULL || scenario->directory == NULL || !g_path_is_absolute (scenario->directory))
    return;
  folder = g_file_new_for_path (scenario->directory);
  g_file_query_info_async (folder, G_FILE_ATTRIBUTE_STANDARD_TYPE, G_FILE_QUERY_INFO_NONE,
                           G_PRIORITY_DEFAULT, self->cancellable, on_report_folder_queried,
                           g_object_ref (self));
}

/**
 * rp_window_show_report:
 * @report: a loaded report
 * @file: (nullable): the file it came from, named in the subtitle
 *
 * Shows @report as a finished run: charts, verdict, summary, system. The
 * form shows its scenario, and its folder where this machine has that
 * folder. Start starts a new run (and forgets the report). A running window
 * keeps its run.
 */
void
rp_window_show_report (RpWindow *self,
                       RpReport *report,
                       GFile    *file)
{
  g_return_if_fail (RP_IS_WINDOW (self));
  g_return_if_fail (RP_IS_REPORT (report));

  if (rp_window_get_busy (self))
    return;
  rp_window_reset_session (self);
  g_set_object (&self->loaded_report, report);
  g_set_object (&self->loaded_file, file);

  rp_summary_view_clear (self->summary_view);
  /* The form shows the settings of the report on show, not those of the
   * last run, so that they are not read as the report's (and Start runs it
   * again). Only the form: the stored settings change when a run starts, as
   * always. A report of a combination that is not a preset leaves it alone. */
  if (rp_report_get_scenario (report) != NULL)
    rp_run_settings_load_scenario (self->run_settings, rp_report_get_scenario (report));
  follow_report_folder (self, report);
  rp_window_show_sysinfo (self);
  rp_window_show_verdict (self);
  rp_window_refresh_charts (self);
  gtk_stack_set_visible_child_name (self->content_stack, "charts");
  rp_window_update_ui (self);

  self->summary_busy = TRUE;
  rp_summary_view_show_report_async (self->summary_view, report, self->cancellable,
                                     on_report_summary, g_object_ref (self));
}

/* ------------------------------------------------------------------------- */
/* Adaptive layout */

static gboolean
apply_fold (gpointer user_data)
{
  RpWindow *self = user_data;

  self->fold_idle_id = 0;
  rp_window_view_set_columns (self, self->n_columns);
  gtk_widget_set_size_request (adw_flap_get_flap (self->flap),
                               self->wide ? WIDE_SIDEBAR_WIDTH : SIDEBAR_WIDTH, -1);
  gtk_widget_set_visible (GTK_WIDGET (self->sidebar_button), self->folded);
  rp_summary_view_set_compact (self->summary_view, self->folded);
  if ((adw_flap_get_fold_policy (self->flap) == ADW_FLAP_FOLD_POLICY_ALWAYS) == self->folded)
    return G_SOURCE_REMOVE;
  /* Unfolded is AUTO, not NEVER: with NEVER the window's minimum width is
   * the sidebar's plus the charts' (755 px, 870 with German results), so a
   * window dragged narrower stopped there and never folded. */
  adw_flap_set_fold_policy (self->flap, self->folded ? ADW_FLAP_FOLD_POLICY_ALWAYS
                                                     : ADW_FLAP_FOLD_POLICY_AUTO);
  /* Unfolded, the sidebar is always there; folded, it shows on demand. */
  adw_flap_set_reveal_flap (self->flap, !self->folded);
  return G_SOURCE_REMOVE;
}

/* The window's width, not its children's minimum sizes, decides: the charts
 * can shrink, but should not have to beside the sidebar. libadwaita 1.2 has
 * no breakpoints (1.4), so the allocation is watched here and the fold
 * changed in an idle (not during the allocation that caused it). */
/* Without a window manager GDK asks the X server twice a frame whether one
 * supports _NET_WM_FRAME_DRAWN (rp_frame_sync_quiet()). */
static void
rp_window_realize (GtkWidget *widget)
{
  GTK_WIDGET_CLASS (rp_window_parent_class)->realize (widget);
  rp_frame_sync_quiet (gtk_native_get_surface (GTK_NATIVE (widget)));
}

static void
rp_window_size_allocate (GtkWidget *widget,
                         int        width,
                         int        height,
                         int        baseline)
{
  RpWindow *self = RP_WINDOW (widget);
  gboolean folded = width < FOLD_WIDTH;
  guint n_columns = width < ONE_COLUMN_WIDTH ? 1 : 2;
  gboolean wide = width >= WIDE_WIDTH;

  GTK_WIDGET_CLASS (rp_window_parent_class)->size_allocate (widget, width, height, baseline);
  if ((folded != self->folded || n_columns != self->n_columns || wide != self->wide) && self->flap != NULL)
    {
      self->folded = folded;
      self->n_columns = n_columns;
      self->wide = wide;
      g_clear_handle_id (&self->fold_idle_id, g_source_remove);
      self->fold_idle_id = g_idle_add (apply_fold, self);
    }
}

/**
 * rp_window_get_folded:
 *
 * Returns: whether the window is narrower than 900 px, so that its sidebar
 *   (the form, the results, the recent runs) is folded away and shows only
 *   on demand (F9, or the header's sidebar button)
 */
gboolean
rp_window_get_folded (RpWindow *self)
{
  g_return_val_if_fail (RP_IS_WINDOW (self), FALSE);
  /* The flap's own state: the change is applied an idle after the resize. */
  return adw_flap_get_folded (self->flap);
}

static void
toggle_sidebar_action (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  RpWindow *self = RP_WINDOW (widget);

  if (adw_flap_get_folded (self->flap))
    adw_flap_set_reveal_flap (self->flap, !adw_flap_get_reveal_flap (self->flap));
}

/* ------------------------------------------------------------------------- */
/* GObject */

static gboolean
rp_window_close_request (GtkWindow *window)
{
  RpWindow *self = RP_WINDOW (window);

  /* A script's report being written (--report-on-exit): the window goes
   * from the screen now and is destroyed once, when it is written
   * (rp-window-run.c); destroyed now, the pending write would find it
   * disposed. */
  if (self->exit_outputs_pending)
    {
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return TRUE;
    }
  /* A run being saved: the window goes, the save ends first. */
  if (!rp_window_get_busy (self) && self->n_autosaves > 0)
    {
      self->close_when_finished = TRUE;
      gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
      return TRUE;
    }
  if (!rp_window_get_busy (self))
    return FALSE;

  /* Closing during a run stops it; the window goes away now and is destroyed
   * when the workers are joined and every file removed. */
  self->close_when_finished = TRUE;
  rp_window_stop (self);
  gtk_widget_set_visible (GTK_WIDGET (self), FALSE);
  return TRUE;
}

static void
rp_window_dispose (GObject *object)
{
  RpWindow *self = RP_WINDOW (object);

  /* First: a result that arrives from now on finds the window gone. */
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  rp_window_recent_dispose (self);
  g_clear_handle_id (&self->fold_idle_id, g_source_remove);
  g_clear_handle_id (&self->exit_outputs_id, g_source_remove);
  rp_window_reset_session (self);
  rp_window_release_application (self);
  g_clear_object (&self->session_signals);
  g_clear_object (&self->settings);
  gtk_widget_dispose_template (GTK_WIDGET (self), RP_TYPE_WINDOW);

  G_OBJECT_CLASS (rp_window_parent_class)->dispose (object);
}

static void
rp_window_finalize (GObject *object)
{
  RpWindow *self = RP_WINDOW (object);

  g_clear_pointer (&self->plots, g_ptr_array_unref);
  g_clear_pointer (&self->views, g_ptr_array_unref);
  g_clear_object (&self->run_settings);
  g_clear_object (&self->loaded_report);
  g_clear_object (&self->loaded_file);
  g_clear_object (&self->saved_file);
  g_clear_object (&self->last_export);
  g_clear_object (&self->exit_report);
  g_clear_object (&self->exit_screenshot);

  G_OBJECT_CLASS (rp_window_parent_class)->finalize (object);
}

static void
rp_window_get_property (GObject    *object,
                        guint       prop_id,
                        GValue     *value,
                        GParamSpec *pspec)
{
  RpWindow *self = RP_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    case PROP_DIRECTORY:
      g_value_set_string (value, rp_run_settings_get_directory (self->run_settings));
      break;
    case PROP_SIMULATE_SAVE:
      g_value_set_boolean (value, rp_run_settings_get_simulate_save (self->run_settings));
      break;
    case PROP_BUSY:
      g_value_set_boolean (value, rp_window_get_busy (self));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_window_set_property (GObject      *object,
                        guint         prop_id,
                        const GValue *value,
                        GParamSpec   *pspec)
{
  RpWindow *self = RP_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    case PROP_DIRECTORY:
      rp_window_set_directory (self, g_value_get_string (value));
      break;
    case PROP_SIMULATE_SAVE:
      rp_run_settings_set_simulate_save (self->run_settings, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

/* The window's "directory" and "simulate-save" are those of its run
 * settings (win.simulate-save is a property action on the window). */
static void
on_run_settings_notify (RpWindow   *self,
                        GParamSpec *pspec)
{
  if (g_str_equal (pspec->name, "directory"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRECTORY]);
  else if (g_str_equal (pspec->name, "simulate-save"))
    g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIMULATE_SAVE]);
}

/* The settings are known only now (a construct property). */
static void
rp_window_constructed (GObject *object)
{
  RpWindow *self = RP_WINDOW (object);

  G_OBJECT_CLASS (rp_window_parent_class)->constructed (object);

  if (self->settings != NULL)
    {
      g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "window-height", self, "default-height", G_SETTINGS_BIND_DEFAULT);
      g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);
    }
  rp_window_view_init (self);
  rp_window_reports_init (self);
  rp_window_form_init (self);
  rp_window_run_init (self);
  rp_window_recent_init (self);
  rp_window_helper_init (self);
  g_signal_connect_object (self->run_settings, "notify",
                           G_CALLBACK (on_run_settings_notify), self, G_CONNECT_SWAPPED);
  rp_window_update_ui (self);
}

static void
rp_window_class_init (RpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->constructed = rp_window_constructed;
  object_class->dispose = rp_window_dispose;
  object_class->finalize = rp_window_finalize;
  object_class->get_property = rp_window_get_property;
  object_class->set_property = rp_window_set_property;
  window_class->close_request = rp_window_close_request;
  widget_class->size_allocate = rp_window_size_allocate;
  widget_class->realize = rp_window_realize;

  /**
   * RpWindow:settings:
   *
   * io.github.resprobe.Resprobe, which the form follows and a run writes;
   * %NULL without the schema: the defaults, remembered nowhere.
   */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  /**
   * RpWindow:directory:
   *
   * The folder to test; %NULL (or empty, as stored in the settings) for the
   * default, ~/.cache/resprobe.
   */
  properties[PROP_DIRECTORY] =
    g_param_spec_string ("directory", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  /**
   * RpWindow:simulate-save:
   *
   * Whether the main thread saves a file every second during the run (the
   * "naive application" simulation).
   */
  properties[PROP_SIMULATE_SAVE] =
    g_param_spec_boolean ("simulate-save", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_BUSY] =
    g_param_spec_boolean ("busy", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (RP_TYPE_SUMMARY_VIEW);
  g_type_ensure (RP_TYPE_WHY_VIEW);
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/resprobe/Resprobe/rp-window.ui");
  gtk_widget_class_bind_template_child (widget_class, RpWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, flap);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, sidebar_button);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, recent_group);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, recent_list);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, helper_group);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, helper_allow_button);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, helper_decline_button);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, compare_button);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, menu_button);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, run_spinner);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, run_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, run_group);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, scenario_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, folder_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, load_folder_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, load_folder_clear_button);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, size_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, duration_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, size_entry);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, duration_entry);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, baseline_entry);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, simulate_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, summary_view);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, why_view);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, headline_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, verdict_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, warning_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, details_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, chart_grid);

  gtk_widget_class_install_property_action (widget_class, "win.simulate-save", "simulate-save");
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  rp_window_run_class_init (widget_class);
  rp_window_form_class_init (widget_class);
  rp_window_reports_class_init (widget_class);
  rp_window_recent_class_init (widget_class);

  /* F9 shows and hides the sidebar when folded, as in GNOME Files. */
  gtk_widget_class_install_action (widget_class, "win.toggle-sidebar", NULL, toggle_sidebar_action);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_F9, 0, "win.toggle-sidebar", NULL);
}

static void
rp_window_init (RpWindow *self)
{
  self->cancellable = g_cancellable_new ();
  self->run_settings = rp_run_settings_new ();
  self->n_columns = 2;
  gtk_widget_init_template (GTK_WIDGET (self));
  rp_gui_menu_button_quiet_tooltip (self->menu_button);
}

/**
 * rp_window_new:
 * @application: the application
 *
 * Returns: (transfer full): a new window, not yet shown, following the
 *   application's settings
 */
RpWindow *
rp_window_new (GtkApplication *application)
{
  g_autoptr(GSettings) settings = NULL;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  settings = rp_gui_new_settings ();
  return g_object_new (RP_TYPE_WINDOW, "application", application, "settings", settings, NULL);
}

/* ------------------------------------------------------------------------- */
/* The form, from the command line and tests */

/**
 * rp_window_set_directory:
 * @directory: (nullable): the folder to test; %NULL or empty: the default
 */
void
rp_window_set_directory (RpWindow   *self,
                         const char *directory)
{
  g_return_if_fail (RP_IS_WINDOW (self));
  rp_run_settings_set_directory (self->run_settings, directory);
}

/**
 * rp_window_set_load_directory:
 * @directory: (nullable): the folder the loads write to (a USB stick),
 *   while the probes stay in the folder to test; %NULL or empty: that folder
 */
void
rp_window_set_load_directory (RpWindow   *self,
                              const char *directory)
{
  g_return_if_fail (RP_IS_WINDOW (self));
  rp_run_settings_set_load_directory (self->run_settings, directory);
}

/**
 * rp_window_set_scenario:
 * @id: a preset id (case-insensitive)
 *
 * Returns: %FALSE if there is no such preset (the selection is unchanged)
 */
gboolean
rp_window_set_scenario (RpWindow   *self,
                        const char *id)
{
  g_return_val_if_fail (RP_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  return rp_run_settings_set_scenario (self->run_settings, id);
}

/**
 * rp_window_set_size_text:
 * @text: (nullable): what to write, as typed ("4G"); empty: the preset's
 *
 * As if typed in the form: invalid text shows as an error.
 */
void
rp_window_set_size_text (RpWindow   *self,
                         const char *text)
{
  g_return_if_fail (RP_IS_WINDOW (self));
  gtk_editable_set_text (GTK_EDITABLE (self->size_entry), text ? text : "");
}

/**
 * rp_window_set_duration_text:
 * @text: (nullable): the duration, as typed ("20", "2m"); empty: until written
 *
 * As if typed in the form: invalid text shows as an error.
 */
void
rp_window_set_duration_text (RpWindow   *self,
                             const char *text)
{
  g_return_if_fail (RP_IS_WINDOW (self));
  gtk_editable_set_text (GTK_EDITABLE (self->duration_entry), text ? text : "");
}

/**
 * rp_window_set_exit_outputs:
 * @report: (nullable): where to save the JSON report when the run finishes
 * @screenshot: (nullable): where to save a PNG of the window then
 *
 * For scripts and tests: after the run the window writes these files and
 * closes itself (the application quits with its last window).
 */
void
rp_window_set_exit_outputs (RpWindow *self,
                            GFile    *report,
                            GFile    *screenshot)
{
  g_return_if_fail (RP_IS_WINDOW (self));

  g_set_object (&self->exit_report, report);
  g_set_object (&self->exit_screenshot, screenshot);
}

/* ------------------------------------------------------------------------- */
/* For the window's files */

/**
 * rp_window_show_toast:
 * @text: a short message
 */
void
rp_window_show_toast (RpWindow   *self,
                      const char *text)
{
  g_return_if_fail (RP_IS_WINDOW (self));

  /* A worker may finish after the window was destroyed. */
  if (self->toast_overlay != NULL)
    show_toast (self, text);
}

/**
 * rp_window_get_report:
 *
 * Returns: (transfer none) (nullable): the report shown: the last summary
 *   of the run, or the opened report
 */
RpReport *
rp_window_get_report (RpWindow *self)
{
  g_return_val_if_fail (RP_IS_WINDOW (self), NULL);
  return rp_summary_view_get_report (self->summary_view);
}

/**
 * rp_window_get_scripted:
 *
 * Returns: whether a script drives the window (rp_window_set_exit_outputs()):
 *   errors then go to stderr and the window closes
 */
gboolean
rp_window_get_scripted (RpWindow *self)
{
  g_return_val_if_fail (RP_IS_WINDOW (self), FALSE);
  return self->exit_report != NULL || self->exit_screenshot != NULL;
}
