/* rp-window.c: the main window: scenario settings, Start/Stop, live charts, summary. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "rp-gui-util.h"
#include "rp-application.h"
#include "rp-chart-view.h"
#include "rp-plot.h"
#include "rp-plot-catalog.h"
#include "rp-report.h"
#include "rp-report-io.h"
#include "rp-scenario.h"
#include "rp-session.h"
#include "rp-summary-view.h"
#include "rp-sysinfo.h"
#include "rp-ui-probes.h"
#include "rp-units.h"
#include "rp-window.h"
#include "rp-window-private.h"

/* How often the elapsed time, the progress and the summary are refreshed. */
#define STATUS_PERIOD_S 1
/* After the run, how long to let the last frame paint before the screenshot. */
#define SCREENSHOT_DELAY_MS 400
/* A run at least this long that ends while the window is in the background
 * gets a desktop notification: the user has gone to do something else. */
#define NOTIFY_MIN_RUN_S 60
/* The id of that notification: a new one replaces the previous one. */
#define NOTIFICATION_ID "run-finished"

struct _RpWindow
{
  AdwApplicationWindow  parent_instance;

  /* template children */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  GtkButton            *run_button;
  GtkSpinner           *run_spinner;
  GtkLabel             *run_label;
  AdwPreferencesGroup  *run_group;
  AdwComboRow          *scenario_row;
  AdwActionRow         *folder_row;
  AdwActionRow         *size_row;
  AdwActionRow         *duration_row;
  GtkEntry             *size_entry;
  GtkEntry             *duration_entry;
  AdwActionRow         *simulate_row;
  RpSummaryView        *summary_view;
  GtkStack             *content_stack;
  GtkLabel             *headline_label;
  GtkLabel             *verdict_label;
  GtkLabel             *warning_label;
  GtkLabel             *details_label;
  GtkProgressBar       *progress_bar;
  GtkGrid              *chart_grid;

  GSettings            *settings;
  char                 *directory;
  GPtrArray            *plots;   /* RpPlot, by catalog index */
  GPtrArray            *views;   /* RpChartView, likewise */
  gboolean              simulate_save;

  RpSession            *session;
  RpUiProbes           *probes;
  gboolean              stop_requested;
  GApplication         *holding;
  guint                 inhibit_cookie;
  gboolean              close_when_finished;
  guint                 status_id;
  gboolean              summary_busy;

  GFile                *exit_report;
  GFile                *exit_screenshot;
  guint                 screenshot_tries;

  /* A report opened from a file (rp-window-reports.c), shown as a finished
   * run while there is no session: rp_window_show_report(). */
  RpReport             *loaded_report;
  GFile                *loaded_file;
};

G_DEFINE_FINAL_TYPE (RpWindow, rp_window, ADW_TYPE_APPLICATION_WINDOW)

enum {
  PROP_0,
  PROP_DIRECTORY,
  PROP_SIMULATE_SAVE,
  PROP_BUSY,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void update_ui (RpWindow *self);

static void
show_toast (RpWindow   *self,
            const char *text)
{
  AdwToast *toast = adw_toast_new (text);

  adw_toast_set_timeout (toast, 8);
  adw_toast_overlay_add_toast (self->toast_overlay, toast);
}

static RpSessionState
session_state (RpWindow *self)
{
  return self->session ? rp_session_get_state (self->session) : RP_SESSION_IDLE;
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

  state = session_state (self);
  return state == RP_SESSION_STARTING || state == RP_SESSION_RUNNING ||
         state == RP_SESSION_STOPPING || self->holding != NULL;
}

/* ------------------------------------------------------------------------- */
/* Form */

static const char *
selected_preset_id (RpWindow *self)
{
  guint n_presets, selected = adw_combo_row_get_selected (self->scenario_row);
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);

  return selected < n_presets ? presets[selected].id : "R1";
}

/* rp_parse_duration() reads "20s"; people type "20 s". */
static char *
squeeze_spaces (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

static gboolean
parse_size_entry (RpWindow  *self,
                  guint64   *out_bytes,
                  GError   **error)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->size_entry));
  g_autofree char *squeezed = squeeze_spaces (text);

  *out_bytes = 0;
  if (*squeezed == '\0')
    return TRUE;
  return rp_parse_size (squeezed, _("Data to write"), out_bytes, error);
}

static gboolean
parse_duration_entry (RpWindow  *self,
                      double    *out_seconds,
                      GError   **error)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (self->duration_entry));
  g_autofree char *squeezed = squeeze_spaces (text);

  *out_seconds = 0;
  if (*squeezed == '\0')
    return TRUE;
  return rp_parse_duration (squeezed, _("Duration"), out_seconds, error);
}

static gboolean
validate_entry (GtkEntry *entry,
                GError   *error)
{
  if (error != NULL)
    {
      gtk_widget_add_css_class (GTK_WIDGET (entry), "error");
      gtk_widget_set_tooltip_text (GTK_WIDGET (entry), error->message);
      return FALSE;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (entry), "error");
  gtk_widget_set_tooltip_text (GTK_WIDGET (entry), NULL);
  return TRUE;
}

static gboolean
form_is_valid (RpWindow *self)
{
  g_autoptr(GError) size_error = NULL;
  g_autoptr(GError) duration_error = NULL;
  guint64 bytes;
  double seconds;
  gboolean valid = TRUE;

  parse_size_entry (self, &bytes, &size_error);
  parse_duration_entry (self, &seconds, &duration_error);
  valid &= validate_entry (self->size_entry, size_error);
  valid &= validate_entry (self->duration_entry, duration_error);
  return valid;
}

/* "Data to write" means what the scenario's load writes: dd's total, the
 * size of the file the copy loop copies, or each parallel writer's share. */
static void
apply_size (RpScenario *scenario,
            guint64     bytes)
{
  const char *key = rp_scenario_get_size_key (scenario);

  if (key != NULL)
    rp_params_set_size (scenario->params, key, bytes);
}

static RpScenario *
build_scenario (RpWindow  *self,
                GError   **error)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset (selected_preset_id (self), error);
  guint64 bytes;
  double seconds;

  if (scenario == NULL)
    return NULL;
  if (self->directory != NULL)
    {
      g_free (scenario->directory);
      scenario->directory = g_strdup (self->directory);
    }
  if (!parse_size_entry (self, &bytes, error) || !parse_duration_entry (self, &seconds, error))
    return NULL;
  if (bytes > 0)
    apply_size (scenario, bytes);
  scenario->duration = seconds;
  /* Without a duration the run ends with its loads, as dd does (and as the
   * CLI does); a scenario without loads runs until stopped. */
  scenario->stop_when_loads_finish = seconds == 0 && rp_scenario_has_role (scenario, RP_PART_LOAD);

  if (!rp_scenario_validate (scenario, error))
    return NULL;
  return g_steal_pointer (&scenario);
}

static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize length = strlen (home);

  if (g_str_has_prefix (path, home) && (path[length] == '/' || path[length] == '\0'))
    return g_strconcat ("~", path + length, NULL);
  return g_strdup (path);
}

static void
update_folder_row (RpWindow *self)
{
  g_autofree char *fallback = rp_scenario_default_directory ();
  g_autofree char *shown = display_path (self->directory ? self->directory : fallback);

  adw_action_row_set_subtitle (self->folder_row, shown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->folder_row),
                               self->directory ? self->directory : fallback);
}

/* The size row says what the size means for the selected scenario. */
static void
update_size_row (RpWindow *self)
{
  g_autoptr(RpScenario) preset = rp_scenario_new_preset (selected_preset_id (self), NULL);
  const char *size_key = preset ? rp_scenario_get_size_key (preset) : NULL;

  gtk_widget_set_sensitive (GTK_WIDGET (self->size_row), size_key != NULL);
  if (g_strcmp0 (size_key, "writer_total_size") == 0)
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->size_row), _("Data to Write"));
      adw_action_row_set_subtitle (self->size_row, _("As dd’s bs×count, e.g. 4G"));
      gtk_entry_set_placeholder_text (self->size_entry, _("15000M"));
    }
  else if (g_strcmp0 (size_key, "copy_source_size") == 0)
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->size_row), _("File to Copy"));
      adw_action_row_set_subtitle (self->size_row, _("Copied again and again in the folder"));
      gtk_entry_set_placeholder_text (self->size_entry, _("1G"));
    }
  else if (g_strcmp0 (size_key, "writers_file_size") == 0)
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->size_row), _("Data per Writer"));
      adw_action_row_set_subtitle (self->size_row, _("Each writer thread; empty: until stopped"));
      gtk_entry_set_placeholder_text (self->size_entry, _("no limit"));
    }
  else
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->size_row), _("Data to Write"));
      adw_action_row_set_subtitle (self->size_row, _("This scenario writes nothing"));
    }
}

static void
on_form_changed (RpWindow *self)
{
  update_size_row (self);
  update_ui (self);
}

/* Starting a run remembers its form: the next window starts from it. The
 * simulation toggle is not stored here: its default is a preference. */
static void
save_settings (RpWindow *self)
{
  if (self->settings == NULL)
    return;
  g_settings_set_string (self->settings, "scenario", selected_preset_id (self));
  g_settings_set_string (self->settings, "directory", self->directory ? self->directory : "");
  g_settings_set_string (self->settings, "size", gtk_editable_get_text (GTK_EDITABLE (self->size_entry)));
  g_settings_set_string (self->settings, "duration", gtk_editable_get_text (GTK_EDITABLE (self->duration_entry)));
}

/* The "scenario" key holds a preset id; the combo row an index. */
static gboolean
scenario_index_from_id (GValue   *value,
                        GVariant *variant,
                        gpointer  user_data)
{
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);
  const char *id = g_variant_get_string (variant, NULL);

  for (guint i = 0; i < n_presets; i++)
    if (g_ascii_strcasecmp (presets[i].id, id) == 0)
      {
        g_value_set_uint (value, i);
        return TRUE;
      }
  /* An unknown id (a preset of another version): keep the selection. */
  return FALSE;
}

static GVariant *
scenario_id_from_index (const GValue       *value,
                        const GVariantType *expected_type,
                        gpointer            user_data)
{
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);
  guint index = g_value_get_uint (value);

  return index < n_presets ? g_variant_new_string (presets[index].id) : NULL;
}

/**
 * rp_window_bind_scenario_setting:
 * @settings: the application's settings
 * @row: a combo row listing the presets in the order of rp_scenario_list_presets()
 * @flags: how to bind
 *
 * Binds the "scenario" key (a preset id) to the row's selection. Shared with
 * the Preferences window.
 */
void
rp_window_bind_scenario_setting (GSettings          *settings,
                                 AdwComboRow        *row,
                                 GSettingsBindFlags  flags)
{
  g_return_if_fail (G_IS_SETTINGS (settings));
  g_return_if_fail (ADW_IS_COMBO_ROW (row));

  g_settings_bind_with_mapping (settings, "scenario", row, "selected", flags,
                                scenario_index_from_id, scenario_id_from_index,
                                NULL, NULL);
}

/* The charts of latencies (the catalog gives them the limit lines and a log
 * axis), as opposed to rates, sizes and shares. */
static gboolean
is_latency_plot (RpPlot *plot)
{
  return g_str_equal (rp_plot_get_unit (plot), "s");
}

/* The limit lines can be hidden (Preferences); the log axis is bound to each
 * latency plot's "log-y" property in bind_settings(). */
static void
apply_limit_lines (RpWindow *self)
{
  gboolean show = self->settings == NULL ||
                  g_settings_get_boolean (self->settings, "show-limit-lines");

  for (guint i = 0; i < self->plots->len; i++)
    {
      RpPlot *plot = g_ptr_array_index (self->plots, i);

      if (!is_latency_plot (plot))
        continue;
      rp_plot_clear_thresholds (plot);
      if (!show)
        continue;
      /* TRANSLATORS: labels of the response-time limit lines */
      rp_plot_add_threshold (plot, RP_LIMIT_INSTANT, _("0.1 s"));
      rp_plot_add_threshold (plot, RP_LIMIT_FLOW, _("1 s"));
    }
}

/* The window follows the settings as they change (G_SETTINGS_BIND_GET), so
 * that a change in Preferences shows at once; the form is written back only
 * when a run starts (save_settings()), and the window size as it changes. */
static void
bind_settings (RpWindow *self)
{
  self->settings = rp_application_new_settings ();
  /* Run from the build tree without GSETTINGS_SCHEMA_DIR: the defaults. */
  if (self->settings == NULL)
    return;

  g_settings_bind (self->settings, "window-width", self, "default-width", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-height", self, "default-height", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "window-maximized", self, "maximized", G_SETTINGS_BIND_DEFAULT);

  rp_window_bind_scenario_setting (self->settings, self->scenario_row, G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "directory", self, "directory", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "size", self->size_entry, "text", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "duration", self->duration_entry, "text", G_SETTINGS_BIND_GET);
  g_settings_bind (self->settings, "simulate-save", self, "simulate-save", G_SETTINGS_BIND_GET);

  for (guint i = 0; i < self->plots->len; i++)
    if (is_latency_plot (g_ptr_array_index (self->plots, i)))
      g_settings_bind (self->settings, "log-scale-latency",
                       g_ptr_array_index (self->plots, i), "log-y", G_SETTINGS_BIND_GET);
  g_signal_connect_object (self->settings, "changed::show-limit-lines",
                           G_CALLBACK (apply_limit_lines), self, G_CONNECT_SWAPPED);
}

/* ------------------------------------------------------------------------- */
/* Charts */

/* The charts of the catalog (engine/rp-plot-catalog.c), the same as in the
 * exported reports, at the catalog's places in a two-column grid. An optional
 * chart (writer threads, CPU benchmark) shows once one of its series exists;
 * a hidden one takes no room in the grid. */
static void
build_charts (RpWindow *self)
{
  guint n_plots = rp_plot_catalog_get_n_plots ();

  self->plots = g_ptr_array_new_full (n_plots, g_object_unref);
  self->views = g_ptr_array_new_full (n_plots, NULL);

  for (guint i = 0; i < n_plots; i++)
    {
      RpPlotPlacement placement;
      RpPlot *plot = rp_plot_catalog_new_plot (i, &placement);
      GtkWidget *view;

      rp_plot_set_placeholder (plot, _("Waiting for data…"));
      view = rp_chart_view_new (plot);
      gtk_widget_add_css_class (view, "card");
      gtk_widget_set_hexpand (view, TRUE);
      gtk_widget_set_visible (view, !placement.optional);
      g_object_set_data (G_OBJECT (view), "rp-optional", GINT_TO_POINTER (placement.optional));
      gtk_grid_attach (self->chart_grid, view, placement.column, placement.row, placement.width, 1);
      g_ptr_array_add (self->plots, plot);
      g_ptr_array_add (self->views, view);
    }
}

/* Binds the series there are now (a running session's, or a loaded
 * report's); series appear as workers and probes start. */
static void
bind_series (RpWindow *self)
{
  g_autoptr(GPtrArray) series = self->session ? rp_session_get_series (self->session) : NULL;
  gboolean complete = session_state (self) >= RP_SESSION_RUNNING;

  if (self->session == NULL && self->loaded_report != NULL)
    {
      series = g_ptr_array_ref (rp_report_get_series (self->loaded_report));
      complete = TRUE;
    }

  for (guint i = 0; i < self->plots->len; i++)
    {
      RpPlot *plot = g_ptr_array_index (self->plots, i);
      GtkWidget *view = g_ptr_array_index (self->views, i);
      gboolean any = rp_plot_catalog_bind (i, plot, series);

      if (g_object_get_data (G_OBJECT (view), "rp-optional") != NULL)
        gtk_widget_set_visible (view, any);
      /* Once the workers run, a series that is missing will not come. */
      rp_plot_set_placeholder (plot, !any && complete
                                     ? _("Not measured in this scenario")
                                     : _("Waiting for data…"));
    }
}

/* A live chart keeps its time range fixed for as long as possible (the
 * decimation cache stays valid): the planned duration, or steps that grow
 * ahead of the elapsed time. A finished run fits its data. */
static double
chart_time_end (RpWindow *self)
{
  static const double steps[] = { 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 43200, 86400 };
  double elapsed = self->session ? rp_session_get_elapsed (self->session) : 0;
  double duration = self->session ? rp_session_get_scenario (self->session)->duration : 0;

  if (self->session == NULL && self->loaded_report != NULL)
    return MAX (rp_report_get_duration (self->loaded_report), 1);
  if (session_state (self) == RP_SESSION_FINISHED)
    return MAX (elapsed, 1);
  if (duration > 0)
    return duration;
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] >= elapsed * 1.1)
      return steps[i];
  return elapsed * 1.5;
}

static void
refresh_charts (RpWindow *self)
{
  double t_end = chart_time_end (self);

  bind_series (self);
  for (guint i = 0; i < self->plots->len; i++)
    rp_plot_set_time_range (g_ptr_array_index (self->plots, i), 0, t_end);

  /* New points do not change the plots' properties: redraw explicitly, but
   * only the charts that got points (painting is main-thread time, which the
   * main-loop probe would otherwise measure as our own lateness). */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->chart_grid));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    rp_chart_view_refresh (RP_CHART_VIEW (child));
}

/* ------------------------------------------------------------------------- */
/* Status */

static void
show_sysinfo (RpWindow *self)
{
  const RpSysinfo *sysinfo = self->session ? rp_session_get_sysinfo (self->session) : NULL;
  g_auto(GStrv) warnings = NULL;
  g_autofree char *details = NULL;
  g_autofree char *joined = NULL;

  if (sysinfo == NULL && self->session == NULL && self->loaded_report != NULL)
    sysinfo = rp_report_get_sysinfo (self->loaded_report);
  if (sysinfo == NULL)
    {
      gtk_label_set_text (self->details_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->warning_label), FALSE);
      return;
    }
  details = rp_sysinfo_describe (sysinfo);
  gtk_label_set_text (self->details_label, details);

  warnings = rp_sysinfo_get_warnings (sysinfo);
  joined = warnings ? g_strjoinv ("\n", warnings) : NULL;
  gtk_label_set_text (self->warning_label, joined ? joined : "");
  gtk_widget_set_visible (GTK_WIDGET (self->warning_label), joined != NULL && *joined != '\0');
}

static char *
format_seconds (double seconds)
{
  guint64 whole = (guint64) MAX (seconds, 0);

  if (seconds < 120)
    /* TRANSLATORS: elapsed time in seconds */
    return g_strdup_printf (_("%.0f s"), seconds);
  if (whole < 3600)
    /* TRANSLATORS: elapsed time in minutes and seconds */
    return g_strdup_printf (_("%u:%02u min"), (guint) (whole / 60), (guint) (whole % 60));
  /* TRANSLATORS: elapsed time in hours, minutes and seconds (a run lasts up
   * to 30 days: "720:00:00 h") */
  return g_strdup_printf (_("%u:%02u:%02u h"), (guint) MIN (whole / 3600, G_MAXUINT),
                          (guint) (whole % 3600 / 60), (guint) (whole % 60));
}

static char *
running_subtitle (RpWindow *self)
{
  double elapsed = rp_session_get_elapsed (self->session);
  double duration = rp_session_get_scenario (self->session)->duration;
  g_autofree char *elapsed_text = format_seconds (elapsed);

  if (duration > 0)
    {
      g_autofree char *duration_text = format_seconds (duration);

      /* TRANSLATORS: window subtitle during a run, e.g. "Running · 12 s of 60 s" */
      return g_strdup_printf (_("Running · %s of %s"), elapsed_text, duration_text);
    }
  /* TRANSLATORS: window subtitle during a run without a fixed duration */
  return g_strdup_printf (_("Running · %s"), elapsed_text);
}

static void
update_progress (RpWindow *self)
{
  RpSessionState state = session_state (self);
  double duration = self->session ? rp_session_get_scenario (self->session)->duration : 0;

  if (state == RP_SESSION_RUNNING && duration > 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
      gtk_progress_bar_set_fraction (self->progress_bar,
                                     CLAMP (rp_session_get_elapsed (self->session) / duration, 0, 1));
    }
  else if (state == RP_SESSION_STARTING || state == RP_SESSION_STOPPING ||
           (state == RP_SESSION_RUNNING && duration <= 0))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
      gtk_progress_bar_pulse (self->progress_bar);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
    }
}

static void
set_run_button (RpWindow   *self,
                const char *label,
                const char *action,
                const char *style,
                gboolean    spinning)
{
  /* Called every second: restyling an unchanged button would still cost a
   * CSS recomputation and a repaint of the header bar. */
  if (g_strcmp0 (gtk_label_get_label (self->run_label), label) == 0 &&
      gtk_widget_get_visible (GTK_WIDGET (self->run_spinner)) == spinning)
    return;

  gtk_label_set_text_with_mnemonic (self->run_label, label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->run_button), action);
  gtk_widget_remove_css_class (GTK_WIDGET (self->run_button), "suggested-action");
  gtk_widget_remove_css_class (GTK_WIDGET (self->run_button), "destructive-action");
  if (style != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->run_button), style);
  gtk_widget_set_visible (GTK_WIDGET (self->run_spinner), spinning);
  gtk_spinner_set_spinning (self->run_spinner, spinning);
}

/* An opened report: its file, and how long the run was. */
static char *
loaded_subtitle (RpWindow *self)
{
  g_autofree char *name = self->loaded_file ? rp_report_io_display_name (self->loaded_file) : NULL;
  /* As the text report and the comparisons give it: "3.5 s (stopped)". */
  g_autofree char *duration = rp_report_format_duration (self->loaded_report);

  if (name == NULL)
    /* TRANSLATORS: window subtitle of an opened report, e.g. "Report · 20 s" */
    return g_strdup_printf (_("Report · %s"), duration);
  /* TRANSLATORS: window subtitle of an opened report, e.g. "run.json · 20 s" */
  return g_strdup_printf (_("%s · %s"), name, duration);
}

static void
update_ui (RpWindow *self)
{
  RpSessionState state = session_state (self);
  gboolean busy = rp_window_get_busy (self);
  g_autofree char *subtitle = NULL;

  switch (state)
    {
    case RP_SESSION_STARTING:
      /* Preparing can take a while (the copy loop creates its source file):
       * let the user give up. */
      set_run_button (self, _("_Stop"), "win.stop", "destructive-action", TRUE);
      subtitle = g_strdup (_("Preparing the test files…"));
      break;
    case RP_SESSION_RUNNING:
      if (self->stop_requested)
        {
          set_run_button (self, _("Finishing…"), "win.stop", NULL, TRUE);
          subtitle = g_strdup (_("Finishing…"));
          break;
        }
      set_run_button (self, _("_Stop"), "win.stop", "destructive-action", FALSE);
      subtitle = running_subtitle (self);
      break;
    case RP_SESSION_STOPPING:
      set_run_button (self, _("Finishing…"), "win.stop", NULL, TRUE);
      /* A worker in fsync() cannot be interrupted; say why it takes a while. */
      subtitle = g_strdup (_("Finishing… waiting for the disk"));
      break;
    case RP_SESSION_FINISHED:
    case RP_SESSION_IDLE:
    default:
      set_run_button (self, _("_Start"), "win.start", "suggested-action", busy);
      if (state == RP_SESSION_FINISHED)
        {
          g_autofree char *elapsed = format_seconds (rp_session_get_elapsed (self->session));

          /* TRANSLATORS: window subtitle after a run, e.g. "Finished after 20 s" */
          subtitle = g_strdup_printf (_("Finished after %s"), elapsed);
        }
      else if (self->loaded_report != NULL)
        subtitle = loaded_subtitle (self);
      break;
    }

  adw_window_title_set_subtitle (self->window_title, subtitle ? subtitle : "");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.start", !busy && form_is_valid (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop",
                                 (state == RP_SESSION_STARTING || state == RP_SESSION_RUNNING) &&
                                 !self->stop_requested);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-folder", !busy);
  rp_window_reports_update (self, busy);
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_group), !busy);
  update_progress (self);
}

static void
show_verdict (RpWindow *self)
{
  const char *headline = rp_summary_view_get_headline (self->summary_view);
  const char *verdict = rp_summary_view_get_verdict (self->summary_view);
  const GError *error = self->session ? rp_session_get_error (self->session) : NULL;
  const char *failure = error ? error->message : NULL;
  static const char *classes[] = { NULL, "success", "warning", "error", "error" };
  RpSeverity severity = rp_summary_view_get_severity (self->summary_view);

  /* An opened report of a failed run says so as the run did. */
  if (self->session == NULL && self->loaded_report != NULL)
    failure = rp_report_get_error_message (self->loaded_report);

  /* The headline takes the colour of its response-time band. */
  for (guint i = 1; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->headline_label), classes[i]);
  if (failure != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->headline_label), "error");
  else if (severity < G_N_ELEMENTS (classes) && classes[severity] != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->headline_label), classes[severity]);

  gtk_label_set_text (self->headline_label, headline ? headline : _("Measuring…"));
  if (failure != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The run stopped early: %s"), failure);

      gtk_label_set_text (self->headline_label, _("Run Failed"));
      gtk_label_set_text (self->verdict_label, text);
      return;
    }
  gtk_label_set_text (self->verdict_label,
                      verdict ? verdict : _("The first results appear within a few seconds."));
}

/* ------------------------------------------------------------------------- */
/* Session */

static void
on_summary_refreshed (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(RpReport) report = NULL;

  self->summary_busy = FALSE;
  report = rp_summary_view_refresh_finish (RP_SUMMARY_VIEW (object), result, NULL);
  show_verdict (self);
}

static void
refresh_summary (RpWindow *self)
{
  /* One at a time: statistics of a long run take a moment to compute. */
  if (self->summary_busy || self->session == NULL)
    return;
  self->summary_busy = TRUE;
  rp_summary_view_refresh_async (self->summary_view, self->session, NULL,
                                 on_summary_refreshed, g_object_ref (self));
}

static gboolean
on_status_tick (gpointer user_data)
{
  RpWindow *self = user_data;

  update_ui (self);
  /* Each refresh reads only the samples new since the last one
   * (rp_summary_view_refresh_async()): an hour costs what a minute does. */
  refresh_summary (self);
  return G_SOURCE_CONTINUE;
}

static void
on_session_updated (RpSession *session,
                    RpWindow  *self)
{
  refresh_charts (self);
}

static void
on_session_state (RpSession  *session,
                  GParamSpec *pspec,
                  RpWindow   *self)
{
  update_ui (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

/* Suspend would stop the run (and the machine would report nothing); a
 * screen saver or screen lock would stop the frame clock. The inhibitor
 * lives exactly as long as the hold on the application. */
static void
inhibit_session (RpWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  self->inhibit_cookie =
    gtk_application_inhibit (application, GTK_WINDOW (self),
                             GTK_APPLICATION_INHIBIT_SUSPEND | GTK_APPLICATION_INHIBIT_IDLE,
                             /* TRANSLATORS: shown by the desktop, e.g. when the user tries to suspend */
                             _("Measuring desktop responsiveness under disk load"));
}

static void
release_application (RpWindow *self)
{
  g_autoptr(GApplication) application = g_steal_pointer (&self->holding);

  if (application == NULL)
    return;
  /* 0 when no session manager or portal granted it. */
  if (self->inhibit_cookie != 0)
    gtk_application_uninhibit (GTK_APPLICATION (application), self->inhibit_cookie);
  self->inhibit_cookie = 0;
  g_application_release (application);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_BUSY]);
}

static void
save_outputs_in_thread (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  RpWindow *self = source_object;
  RpReport *report = g_object_get_data (G_OBJECT (task), "report");
  GdkTexture *texture = g_object_get_data (G_OBJECT (task), "texture");
  GError *error = NULL;

  if (self->exit_report != NULL && report != NULL &&
      !rp_report_save (report, self->exit_report, "json", &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (self->exit_screenshot != NULL)
    {
      g_autofree char *path = g_file_get_path (self->exit_screenshot);

      /* No texture: the window was never drawn (see rp_gui_screenshot_ready()). */
      if (texture == NULL || path == NULL || !gdk_texture_save_to_png (texture, path))
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                   _("Could not write the screenshot “%s”"), path ? path : "");
          return;
        }
    }
  g_task_return_boolean (task, TRUE);
}

static void
on_outputs_saved (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  RpWindow *self = RP_WINDOW (object);
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    rp_gui_printerr (error->message);
  gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
on_screenshot_due (gpointer user_data)
{
  RpWindow *self = user_data;
  RpReport *report = rp_summary_view_get_report (self->summary_view);
  GdkTexture *texture = NULL;
  GTask *task;

  if (self->exit_screenshot != NULL &&
      !rp_gui_screenshot_ready (GTK_WIDGET (self), &self->screenshot_tries, &texture))
    return G_SOURCE_CONTINUE;
  task = g_task_new (self, NULL, on_outputs_saved, NULL);
  if (report != NULL)
    g_object_set_data_full (G_OBJECT (task), "report", g_object_ref (report), g_object_unref);
  if (texture != NULL)
    g_object_set_data_full (G_OBJECT (task), "texture", texture, g_object_unref);
  /* Writing files is I/O: off the main thread, then close. */
  g_task_run_in_thread (task, save_outputs_in_thread);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* A long run that ends while the user is elsewhere: tell them, with the
 * verdict, so that they need not keep looking. Not when they closed the
 * window (they no longer care) or when the window has the focus. */
static void
notify_if_unattended (RpWindow *self)
{
  g_autoptr(GNotification) notification = NULL;
  const GError *error = rp_session_get_error (self->session);
  const char *headline = rp_summary_view_get_headline (self->summary_view);
  GApplication *application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  if (application == NULL || self->close_when_finished ||
      rp_session_get_elapsed (self->session) < NOTIFY_MIN_RUN_S ||
      gtk_window_is_active (GTK_WINDOW (self)))
    return;

  notification = g_notification_new (error ? _("Run Failed") : _("Run Finished"));
  if (error != NULL)
    g_notification_set_body (notification, error->message);
  else if (headline != NULL)
    g_notification_set_body (notification, headline);
  /* Clicking it activates the application, which presents this window. */
  g_application_send_notification (application, NOTIFICATION_ID, notification);
}

/* Once the user is back, the notification has served its purpose. */
static void
on_is_active_changed (RpWindow   *self,
                      GParamSpec *pspec,
                      gpointer    user_data)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  if (application != NULL && gtk_window_is_active (GTK_WINDOW (self)))
    g_application_withdraw_notification (G_APPLICATION (application), NOTIFICATION_ID);
}

static void
on_final_summary (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GError) error = NULL;

  self->summary_busy = FALSE;
  report = rp_summary_view_refresh_finish (RP_SUMMARY_VIEW (object), result, &error);
  show_verdict (self);
  notify_if_unattended (self);
  release_application (self);
  update_ui (self);

  if (self->close_when_finished && self->exit_report == NULL && self->exit_screenshot == NULL)
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  if (self->exit_report != NULL || self->exit_screenshot != NULL)
    g_timeout_add_full (G_PRIORITY_DEFAULT, SCREENSHOT_DELAY_MS, on_screenshot_due,
                        g_object_ref (self), g_object_unref);
}

static void
on_session_finished (RpSession *session,
                     RpWindow  *self)
{
  const GError *error = rp_session_get_error (session);

  if (self->probes != NULL)
    rp_ui_probes_stop (self->probes);
  g_clear_handle_id (&self->status_id, g_source_remove);
  refresh_charts (self);
  update_ui (self);

  if (error != NULL)
    {
      show_toast (self, error->message);
      if (self->exit_report != NULL)
        rp_gui_printerr (error->message);
    }

  /* The last summary is the run's report: wait for it even if a periodic
   * refresh is running (the newer result wins). */
  self->summary_busy = TRUE;
  rp_summary_view_refresh_async (self->summary_view, session, NULL,
                                 on_final_summary, g_object_ref (self));
}

static void
on_save_failed (RpUiProbes   *probes,
                const GError *error,
                RpWindow     *self)
{
  show_toast (self, error->message);
}

static void
on_session_started (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  RpSession *session = RP_SESSION (object);

  if (session != self->session)
    return;

  if (!rp_session_start_finish (session, result, &error))
    {
      show_toast (self, error->message);
      gtk_label_set_text (self->headline_label, _("Could Not Start"));
      gtk_label_set_text (self->verdict_label, error->message);
      if (self->exit_report != NULL || self->exit_screenshot != NULL)
        rp_gui_printerr (error->message);
      release_application (self);
      update_ui (self);
      if (self->close_when_finished || self->exit_report != NULL || self->exit_screenshot != NULL)
        gtk_window_destroy (GTK_WINDOW (self));
      return;
    }

  show_sysinfo (self);
  if (!self->stop_requested && !rp_ui_probes_start (self->probes, &error))
    show_toast (self, error->message);
  refresh_charts (self);
  self->status_id = g_timeout_add_seconds (STATUS_PERIOD_S, on_status_tick, self);
  g_source_set_name_by_id (self->status_id, "[resprobe] window status");
  update_ui (self);
}

static void
reset_session (RpWindow *self)
{
  g_clear_handle_id (&self->status_id, g_source_remove);
  if (self->probes != NULL)
    {
      rp_ui_probes_stop (self->probes);
      g_signal_handlers_disconnect_by_data (self->probes, self);
      g_clear_object (&self->probes);
    }
  if (self->session != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->session, self);
      g_clear_object (&self->session);
    }
  self->stop_requested = FALSE;
}

/**
 * rp_window_start:
 *
 * Starts a run with the settings in the form; an invalid setting is shown in
 * a toast and nothing starts.
 */
void
rp_window_start (RpWindow *self)
{
  g_autoptr(RpScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (RP_IS_WINDOW (self));

  if (rp_window_get_busy (self))
    return;

  scenario = build_scenario (self, &error);
  if (scenario == NULL)
    {
      show_toast (self, error->message);
      if (self->exit_report != NULL || self->exit_screenshot != NULL)
        {
          rp_gui_printerr (error->message);
          gtk_window_destroy (GTK_WINDOW (self));
        }
      return;
    }
  save_settings (self);

  reset_session (self);
  g_clear_object (&self->loaded_report);
  g_clear_object (&self->loaded_file);
  self->session = rp_session_new (scenario);
  g_signal_connect_object (self->session, "updated", G_CALLBACK (on_session_updated), self, 0);
  g_signal_connect_object (self->session, "finished", G_CALLBACK (on_session_finished), self, 0);
  g_signal_connect_object (self->session, "notify::state", G_CALLBACK (on_session_state), self, 0);

  self->probes = rp_ui_probes_new (self->session, GTK_WIDGET (self));
  rp_ui_probes_set_simulate_save (self->probes, self->simulate_save);
  g_signal_connect_object (self->probes, "save-failed", G_CALLBACK (on_save_failed), self, 0);

  rp_summary_view_clear (self->summary_view);
  show_sysinfo (self);
  show_verdict (self);
  refresh_charts (self);
  gtk_stack_set_visible_child_name (self->content_stack, "charts");

  /* Keep the application alive until the workers are joined and the files
   * removed, even if the window closes. */
  self->holding = G_APPLICATION (g_object_ref (gtk_window_get_application (GTK_WINDOW (self))));
  g_application_hold (self->holding);
  inhibit_session (self);
  g_application_withdraw_notification (self->holding, NOTIFICATION_ID);

  rp_session_start_async (self->session, NULL, on_session_started, g_object_ref (self));
  update_ui (self);
}

/**
 * rp_window_stop:
 *
 * Asks the run to stop and returns at once; the window shows "Finishing…"
 * until the workers have finished their current call.
 */
void
rp_window_stop (RpWindow *self)
{
  RpSessionState state;

  g_return_if_fail (RP_IS_WINDOW (self));

  state = session_state (self);
  if (state != RP_SESSION_STARTING && state != RP_SESSION_RUNNING)
    return;
  self->stop_requested = TRUE;
  if (self->probes != NULL)
    rp_ui_probes_stop (self->probes);
  rp_session_stop (self->session);
  update_ui (self);
}

/* ------------------------------------------------------------------------- */
/* Actions */

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  rp_window_start (RP_WINDOW (widget));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  rp_window_stop (RP_WINDOW (widget));
}

static void
on_folder_chosen (GtkNativeDialog *dialog,
                  int              response,
                  RpWindow        *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        rp_window_set_directory (self, path);
      else
        show_toast (self, _("Choose a local folder: the probe needs a file system path"));
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  RpWindow *self = RP_WINDOW (widget);
  GtkFileChooserNative *dialog;
  g_autofree char *fallback = rp_scenario_default_directory ();
  g_autoptr(GFile) current = g_file_new_for_path (self->directory ? self->directory : fallback);

  dialog = gtk_file_chooser_native_new (_("Choose the Folder to Test"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                        _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  /* The default folder may not exist yet; then the chooser opens elsewhere. */
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), current, NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (on_folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/* ------------------------------------------------------------------------- */
/* Reports (the actions are in rp-window-reports.c) */

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

static void
on_report_summary (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(RpReport) report = NULL;

  self->summary_busy = FALSE;
  report = rp_summary_view_refresh_finish (RP_SUMMARY_VIEW (object), result, NULL);
  /* A run started meanwhile: this report is gone from the window. */
  if (report == NULL || report != self->loaded_report)
    return;
  show_verdict (self);
  update_ui (self);
  if (rp_window_get_scripted (self))
    g_timeout_add_full (G_PRIORITY_DEFAULT, SCREENSHOT_DELAY_MS, on_screenshot_due,
                        g_object_ref (self), g_object_unref);
}

/* As the size field reads it back (dd's units): "4G", "256M", or bytes. */
static char *
size_text (guint64 bytes)
{
  if (bytes == 0)
    return g_strdup ("");
  if (bytes % (G_GUINT64_CONSTANT (1) << 30) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "G", bytes >> 30);
  if (bytes % (G_GUINT64_CONSTANT (1) << 20) == 0)
    return g_strdup_printf ("%" G_GUINT64_FORMAT "M", bytes >> 20);
  return g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
}

/* The form shows the settings of the report on show, not those of the last
 * run, so that they are not read as the report's (and Start runs it again).
 * Only the fields: the stored settings change when a run starts, as always.
 * A report of a combination that is not a preset leaves the form alone. */
static void
show_report_settings (RpWindow *self,
                      RpReport *report)
{
  const RpScenario *scenario = rp_report_get_scenario (report);
  g_autofree char *size = NULL;
  g_autofree char *duration = NULL;
  guint64 bytes = 0;

  if (scenario == NULL || scenario->name == NULL || !rp_window_set_scenario (self, scenario->name))
    return;
  if (rp_scenario_get_size_key (scenario) != NULL)
    bytes = rp_params_get_size (scenario->params, rp_scenario_get_size_key (scenario));
  size = size_text (bytes);
  duration = scenario->duration > 0 ? g_strdup_printf ("%g", scenario->duration) : g_strdup ("");
  rp_window_set_size_text (self, size);
  rp_window_set_duration_text (self, duration);
}

/**
 * rp_window_show_report:
 * @report: a loaded report
 * @file: (nullable): the file it came from, named in the subtitle
 *
 * Shows @report as a finished run: charts, verdict, summary, system. Start
 * starts a new run (and forgets the report). A running window keeps its run.
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
  reset_session (self);
  g_set_object (&self->loaded_report, report);
  g_set_object (&self->loaded_file, file);

  rp_summary_view_clear (self->summary_view);
  show_report_settings (self, report);
  show_sysinfo (self);
  show_verdict (self);
  refresh_charts (self);
  gtk_stack_set_visible_child_name (self->content_stack, "charts");
  update_ui (self);

  self->summary_busy = TRUE;
  rp_summary_view_show_report_async (self->summary_view, report, NULL,
                                     on_report_summary, g_object_ref (self));
}

/* ------------------------------------------------------------------------- */
/* GObject */

static gboolean
rp_window_close_request (GtkWindow *window)
{
  RpWindow *self = RP_WINDOW (window);

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

  reset_session (self);
  release_application (self);
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
  g_clear_object (&self->loaded_report);
  g_clear_object (&self->loaded_file);
  g_clear_pointer (&self->directory, g_free);
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
    case PROP_DIRECTORY:
      g_value_set_string (value, self->directory);
      break;
    case PROP_SIMULATE_SAVE:
      g_value_set_boolean (value, self->simulate_save);
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
  gboolean simulate_save;

  switch (prop_id)
    {
    case PROP_DIRECTORY:
      rp_window_set_directory (self, g_value_get_string (value));
      break;
    case PROP_SIMULATE_SAVE:
      simulate_save = g_value_get_boolean (value);
      if (self->simulate_save == simulate_save)
        break;
      self->simulate_save = simulate_save;
      if (self->probes != NULL)
        rp_ui_probes_set_simulate_save (self->probes, simulate_save);
      g_object_notify_by_pspec (object, pspec);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_window_class_init (RpWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);
  GtkWindowClass *window_class = GTK_WINDOW_CLASS (klass);

  object_class->dispose = rp_window_dispose;
  object_class->finalize = rp_window_finalize;
  object_class->get_property = rp_window_get_property;
  object_class->set_property = rp_window_set_property;
  window_class->close_request = rp_window_close_request;

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
  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/resprobe/Resprobe/rp-window.ui");
  gtk_widget_class_bind_template_child (widget_class, RpWindow, toast_overlay);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, window_title);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, run_button);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, run_spinner);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, run_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, run_group);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, scenario_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, folder_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, size_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, duration_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, size_entry);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, duration_entry);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, simulate_row);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, summary_view);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, content_stack);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, headline_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, verdict_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, warning_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, details_label);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, progress_bar);
  gtk_widget_class_bind_template_child (widget_class, RpWindow, chart_grid);

  gtk_widget_class_install_action (widget_class, "win.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);
  gtk_widget_class_install_action (widget_class, "win.choose-folder", NULL, choose_folder_action);
  gtk_widget_class_install_property_action (widget_class, "win.simulate-save", "simulate-save");

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "win.start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK, "win.start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_period, GDK_CONTROL_MASK, "win.stop", NULL);
  /* Ctrl+O is Open, as everywhere; the folder is one Shift away. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.choose-folder", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_w, GDK_CONTROL_MASK, "window.close", NULL);
  rp_window_reports_class_init (widget_class);
}

/**
 * rp_window_create_scenario_model:
 *
 * Returns: (transfer full): the translated titles of the presets, in the
 *   order of rp_scenario_list_presets(), for a combo row
 */
GListModel *
rp_window_create_scenario_model (void)
{
  GtkStringList *list = gtk_string_list_new (NULL);
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);

  for (guint i = 0; i < n_presets; i++)
    gtk_string_list_append (list, _(presets[i].title));
  return G_LIST_MODEL (list);
}

static void
rp_window_init (RpWindow *self)
{
  g_autoptr(GListModel) scenarios = rp_window_create_scenario_model ();

  gtk_widget_init_template (GTK_WIDGET (self));

  adw_combo_row_set_model (self->scenario_row, scenarios);
  build_charts (self);
  rp_window_reports_init (self);
  update_folder_row (self);
  bind_settings (self);
  apply_limit_lines (self);

  g_signal_connect (self, "notify::is-active", G_CALLBACK (on_is_active_changed), NULL);
  g_signal_connect_object (self->scenario_row, "notify::selected",
                           G_CALLBACK (on_form_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->size_entry, "changed",
                           G_CALLBACK (on_form_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->duration_entry, "changed",
                           G_CALLBACK (on_form_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->size_entry, "activate",
                           G_CALLBACK (rp_window_start), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->duration_entry, "activate",
                           G_CALLBACK (rp_window_start), self, G_CONNECT_SWAPPED);
  on_form_changed (self);
}

/**
 * rp_window_new:
 * @application: the application
 *
 * Returns: (transfer full): a new window, not yet shown
 */
RpWindow *
rp_window_new (GtkApplication *application)
{
  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);

  return g_object_new (RP_TYPE_WINDOW, "application", application, NULL);
}

/**
 * rp_window_set_directory:
 * @directory: (nullable): the folder to test; %NULL or empty: the default
 */
void
rp_window_set_directory (RpWindow   *self,
                         const char *directory)
{
  g_return_if_fail (RP_IS_WINDOW (self));

  if (directory != NULL && *directory == '\0')
    directory = NULL;
  if (g_strcmp0 (self->directory, directory) == 0)
    return;
  g_free (self->directory);
  self->directory = g_strdup (directory);
  update_folder_row (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_DIRECTORY]);
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
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);

  g_return_val_if_fail (RP_IS_WINDOW (self), FALSE);
  g_return_val_if_fail (id != NULL, FALSE);

  for (guint i = 0; i < n_presets; i++)
    if (g_ascii_strcasecmp (presets[i].id, id) == 0)
      {
        adw_combo_row_set_selected (self->scenario_row, i);
        return TRUE;
      }
  return FALSE;
}

/**
 * rp_window_set_size_text:
 * @text: (nullable): what to write, as typed ("4G"); empty: the preset's
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
