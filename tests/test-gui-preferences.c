/* test-gui-preferences.c: the Preferences window edits the settings, and the main window follows them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <locale.h>
#include <string.h>
#include <adwaita.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "rp-chart-view.h"
#include "rp-error.h"
#include "rp-gui-fixture.h"
#include "rp-gui-util.h"
#include "rp-preferences-window.h"
#include "rp-report.h"
#include "rp-run-settings.h"
#include "rp-summary-view.h"
#include "rp-scenario.h"
#include "rp-units.h"
#include "rp-window.h"

static GtkApplication *application;

static GPtrArray *
find_all (gpointer widget,
          GType    type)
{
  GPtrArray *out = g_ptr_array_new ();

  rp_gui_fixture_collect (GTK_WIDGET (widget), type, out);
  return out;
}

static GSettings *
fresh_settings (void)
{
  GSettings *settings = rp_gui_new_settings ();
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_assert_nonnull (settings);
  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    g_settings_reset (settings, keys[i]);
  return settings;
}

static guint
preset_index (const char *id)
{
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);

  for (guint i = 0; i < n_presets; i++)
    if (g_str_equal (presets[i].id, id))
      return i;
  g_assert_not_reached ();
}

static void
apply (AdwEntryRow *row,
       const char  *text)
{
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  g_signal_emit_by_name (row, "apply");
}

static void
test_preferences_edit_settings (void)
{
  g_autoptr(GSettings) settings = fresh_settings ();
  RpPreferencesWindow *preferences = rp_preferences_window_new (settings);
  g_autoptr(GPtrArray) switches = find_all (preferences, GTK_TYPE_SWITCH);
  g_autoptr(GPtrArray) combos = find_all (preferences, ADW_TYPE_COMBO_ROW);
  g_autoptr(GPtrArray) entries = find_all (preferences, ADW_TYPE_ENTRY_ROW);
  g_autofree char *scenario = NULL;
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);

  /* Simulation default, tracing through resprobed, logarithmic axis, limit lines. */
  g_assert_cmpuint (switches->len, ==, 4);
  g_assert_false (gtk_switch_get_active (switches->pdata[0]));
  g_assert_false (gtk_switch_get_active (switches->pdata[1]));
  g_assert_true (gtk_switch_get_active (switches->pdata[2]));
  g_assert_true (gtk_switch_get_active (switches->pdata[3]));
  gtk_switch_set_active (switches->pdata[0], TRUE);
  gtk_switch_set_active (switches->pdata[2], FALSE);
  gtk_switch_set_active (switches->pdata[3], FALSE);
  g_assert_true (g_settings_get_boolean (settings, "simulate-save"));
  g_assert_false (g_settings_get_boolean (settings, "log-scale-latency"));
  g_assert_false (g_settings_get_boolean (settings, "show-limit-lines"));

  /* The helper's switch answers the window's offer: on "yes", off "no";
   * an open question ("ask") shows off. */
  {
    g_autofree char *before = g_settings_get_string (settings, "kernel-tracing-helper");
    g_autofree char *on = NULL, *off = NULL;

    g_assert_cmpstr (before, ==, "ask");
    gtk_switch_set_active (switches->pdata[1], TRUE);
    on = g_settings_get_string (settings, "kernel-tracing-helper");
    gtk_switch_set_active (switches->pdata[1], FALSE);
    off = g_settings_get_string (settings, "kernel-tracing-helper");
    g_assert_cmpstr (on, ==, "yes");
    g_assert_cmpstr (off, ==, "no");
    g_settings_set_string (settings, "kernel-tracing-helper", "yes");
    g_assert_true (gtk_switch_get_active (switches->pdata[1]));
    g_settings_set_string (settings, "kernel-tracing-helper", "ask");
    g_assert_false (gtk_switch_get_active (switches->pdata[1]));
  }

  /* The scenario row shows and stores preset ids. */
  g_assert_cmpuint (combos->len, ==, 1);
  g_assert_cmpuint (adw_combo_row_get_selected (combos->pdata[0]), ==, preset_index ("R1"));
  g_assert_cmpuint (n_presets, >=, 3);
  adw_combo_row_set_selected (combos->pdata[0], 2);
  scenario = g_settings_get_string (settings, "scenario");
  g_assert_cmpstr (scenario, ==, presets[2].id);
  g_settings_set_string (settings, "scenario", "passive");
  g_assert_cmpuint (adw_combo_row_get_selected (combos->pdata[0]), ==, preset_index ("passive"));

  /* Size and duration: a bad value is refused, marked and not stored. */
  g_assert_cmpuint (entries->len, ==, 2);
  g_assert_cmpstr (gtk_editable_get_text (entries->pdata[0]), ==, "4G");
  apply (entries->pdata[0], "12 parsecs");
  g_assert_cmpuint (g_settings_get_uint64 (settings, "size-bytes"), ==, 4 * RP_GiB);
  g_assert_true (gtk_widget_has_css_class (entries->pdata[0], "error"));
  apply (entries->pdata[0], "512 M");
  g_assert_cmpuint (g_settings_get_uint64 (settings, "size-bytes"), ==, 512 * RP_MiB);
  g_assert_false (gtk_widget_has_css_class (entries->pdata[0], "error"));
  /* As typed, not as it would be written back ("512M"). */
  g_assert_cmpstr (gtk_editable_get_text (entries->pdata[0]), ==, "512 M");

  apply (entries->pdata[1], "soon");
  g_assert_cmpfloat (g_settings_get_double (settings, "duration-seconds"), ==, 60);
  apply (entries->pdata[1], "2m");
  g_assert_cmpfloat (g_settings_get_double (settings, "duration-seconds"), ==, 120);
  /* An empty duration means "until the load is done". */
  apply (entries->pdata[1], "");
  g_assert_cmpfloat (g_settings_get_double (settings, "duration-seconds"), ==, 0);

  /* A run stores its values meanwhile: the window shows them. */
  g_settings_set_uint64 (settings, "size-bytes", RP_GiB);
  g_assert_cmpstr (gtk_editable_get_text (entries->pdata[0]), ==, "1G");

  gtk_window_destroy (GTK_WINDOW (preferences));
}

/* Counts the window's latency charts (unit "s") and how many of them have a
 * logarithmic axis. */
static guint
count_log_plots (RpWindow *window,
                 guint    *out_n_latency)
{
  g_autoptr(GPtrArray) views = find_all (window, RP_TYPE_CHART_VIEW);
  guint n = 0;

  *out_n_latency = 0;
  g_assert_cmpuint (views->len, >=, 4);
  for (guint i = 0; i < views->len; i++)
    {
      RpPlot *plot = rp_chart_view_get_plot (views->pdata[i]);

      if (!g_str_equal (rp_plot_get_unit (plot), "s"))
        continue;
      *out_n_latency += 1;
      n += rp_plot_get_log_y (plot);
    }
  return n;
}

static void
test_window_follows_settings (void)
{
  g_autoptr(GSettings) settings = fresh_settings ();
  RpWindow *window = rp_window_new (application);
  gboolean simulate_save = TRUE;
  g_autofree char *directory = NULL;
  guint n_latency = 0;

  g_object_get (window, "simulate-save", &simulate_save, NULL);
  g_assert_false (simulate_save);
  g_settings_set_boolean (settings, "simulate-save", TRUE);
  g_object_get (window, "simulate-save", &simulate_save, NULL);
  g_assert_true (simulate_save);

  g_settings_set_string (settings, "directory", "/var/tmp");
  g_object_get (window, "directory", &directory, NULL);
  g_assert_cmpstr (directory, ==, "/var/tmp");
  g_clear_pointer (&directory, g_free);
  /* Empty in the settings: the default folder. */
  g_settings_set_string (settings, "directory", "");
  g_object_get (window, "directory", &directory, NULL);
  g_assert_null (directory);

  /* The latency charts (disk calls, this window, …) follow the log-axis option. */
  g_assert_cmpuint (count_log_plots (window, &n_latency), ==, n_latency);
  g_assert_cmpuint (n_latency, >=, 2);
  g_settings_set_boolean (settings, "log-scale-latency", FALSE);
  g_assert_cmpuint (count_log_plots (window, &n_latency), ==, 0);
  g_settings_set_boolean (settings, "log-scale-latency", TRUE);
  g_assert_cmpuint (count_log_plots (window, &n_latency), ==, n_latency);

  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
on_timeout (gpointer user_data)
{
  g_assert_not_reached ();
  return G_SOURCE_REMOVE;
}

/* Starts a run and waits until it is over (a minute at most). */
static void
run_to_end (RpWindow *window)
{
  guint timeout_id;

  rp_window_start (window);
  g_assert_true (rp_window_get_busy (window));
  timeout_id = g_timeout_add_seconds (60, on_timeout, NULL);
  while (rp_window_get_busy (window))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout_id);
}

static void
test_run_stores_form (void)
{
  g_autoptr(GSettings) settings = fresh_settings ();
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-preferences-XXXXXX", &error);
  RpWindow *window = rp_window_new (application);
  g_autofree char *scenario = NULL;
  g_autofree char *directory = NULL;

  g_assert_no_error (error);
  g_assert_true (rp_window_set_scenario (window, "passive"));
  rp_window_set_directory (window, target);
  rp_window_set_duration_text (window, "1");
  gtk_window_present (GTK_WINDOW (window));
  run_to_end (window);

  scenario = g_settings_get_string (settings, "scenario");
  directory = g_settings_get_string (settings, "directory");
  g_assert_cmpstr (scenario, ==, "passive");
  g_assert_cmpstr (directory, ==, target);
  g_assert_cmpfloat (g_settings_get_double (settings, "duration-seconds"), ==, 1);

  gtk_window_destroy (GTK_WINDOW (window));
  /* Nothing left behind: rmdir fails on a non-empty folder. */
  g_assert_cmpint (g_rmdir (target), ==, 0);
}

/* Settings that cannot be written (locked down, a read-only backend): the
 * form keeps what was typed, before and after a run. */
static void
test_form_without_writable_settings (void)
{
  g_autoptr(GSettingsBackend) backend = g_null_settings_backend_new ();
  g_autoptr(GSettings) settings = rp_gui_fixture_settings_with_backend (backend);
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-preferences-XXXXXX", &error);
  g_autoptr(GPtrArray) entries = NULL;
  RpWindow *window;

  g_assert_no_error (error);
  g_assert_false (g_settings_is_writable (settings, "size-bytes"));
  window = g_object_new (RP_TYPE_WINDOW, "application", application, "settings", settings, NULL);
  entries = find_all (window, GTK_TYPE_ENTRY);

  g_assert_true (rp_window_set_scenario (window, "passive"));
  rp_window_set_directory (window, target);
  rp_window_set_size_text (window, "512 M");
  rp_window_set_duration_text (window, "1 s");
  gtk_window_present (GTK_WINDOW (window));
  run_to_end (window);

  /* Size, duration and baseline (untouched: its default). */
  g_assert_cmpuint (entries->len, ==, 3);
  g_assert_cmpstr (gtk_editable_get_text (entries->pdata[0]), ==, "512 M");
  g_assert_cmpstr (gtk_editable_get_text (entries->pdata[1]), ==, "1 s");
  g_assert_cmpstr (gtk_editable_get_text (entries->pdata[2]), ==, "3");
  g_assert_cmpuint (g_settings_get_uint64 (settings, "size-bytes"), ==, 4 * RP_GiB);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_rmdir (target), ==, 0);
}

/* The window's form reads German decimal commas as the CLI does ("2,5" for
 * a duration, "1,5 G" for a size), and the '.' it writes back itself. */
static void
test_form_decimal_comma (void)
{
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autofree char *written = NULL;
  g_autoptr(GError) error = NULL;
  double seconds = 0;
  guint64 bytes = 0;

  g_assert_nonnull (setlocale (LC_NUMERIC, "de_DE.UTF-8"));
  g_assert_true (rp_run_settings_parse_duration ("2,5", &seconds, NULL));
  g_assert_cmpfloat (seconds, ==, 2.5);
  g_assert_true (rp_run_settings_parse_size ("1,5 G", &bytes, NULL));
  g_assert_cmpuint (bytes, ==, 3ull << 29);
  written = rp_run_settings_format_duration (2.5);
  g_assert_true (rp_run_settings_parse_duration (written, &seconds, NULL));
  g_assert_cmpfloat (seconds, ==, 2.5);
  g_assert_false (rp_run_settings_parse_duration ("2,5,0", &seconds, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  setlocale (LC_NUMERIC, saved);
}

static void
on_report_shown (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(RpReport) report = rp_summary_view_refresh_finish (RP_SUMMARY_VIEW (object), result, NULL);

  *(gboolean *) user_data = TRUE;
}

/* A run stopped while it prepared took one calm fsync: the window's
 * headline said "Responsive" in green above a verdict saying it measured
 * too little. Now a neutral headline that says what happened. */
static void
test_stopped_while_preparing_headline (void)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) notes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(RpReport) report = NULL;
  GtkWidget *view = g_object_ref_sink (rp_summary_view_new ());
  RpSeries *fsync = rp_series_new (RP_SERIES_FSYNC_LATENCY, "s", "fsync");
  gboolean shown = FALSE;

  rp_series_append (fsync, 0.01, 0.005);
  g_ptr_array_add (series, fsync);
  g_hash_table_insert (notes, (char *) "ended_by", (char *) RP_ENDED_BY_REQUEST);
  g_hash_table_insert (notes, (char *) RP_NOTE_STOPPED_WHILE_PREPARING, (char *) "true");
  report = rp_report_new (NULL, scenario, series, notes);
  rp_summary_view_show_report_async (RP_SUMMARY_VIEW (view), report, NULL, on_report_shown, &shown);
  while (!shown)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpstr (rp_summary_view_get_headline (RP_SUMMARY_VIEW (view)), ==, "Stopped before it measured");
  g_assert_cmpint (rp_summary_view_get_severity (RP_SUMMARY_VIEW (view)), ==, RP_SEVERITY_UNKNOWN);
  g_assert_nonnull (strstr (rp_summary_view_get_verdict (RP_SUMMARY_VIEW (view)), "stopped while it was preparing"));
  g_object_unref (view);
}

int
main (int   argc,
      char *argv[])
{
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION, 0);

  g_test_add_func ("/preferences/edit-settings", test_preferences_edit_settings);
  g_test_add_func ("/preferences/window-follows-settings", test_window_follows_settings);
  g_test_add_func ("/preferences/run-stores-form", test_run_stores_form);
  g_test_add_func ("/preferences/form-without-writable-settings", test_form_without_writable_settings);
  g_test_add_func ("/preferences/form-decimal-comma", test_form_decimal_comma);
  g_test_add_func ("/summary/stopped-while-preparing-headline", test_stopped_while_preparing_headline);

  return rp_gui_fixture_run ();
}
