/* test-gui-why.c: the Why section and a stall marker's popover, for a report with stalls, under a real (X) display. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "rp-chart-view.h"
#include "rp-gui-fixture.h"
#include "rp-params.h"
#include "rp-report.h"
#include "rp-scenario.h"
#include "rp-session-private.h"
#include "rp-stall-report.h"
#include "rp-timed-call.h"
#include "rp-window.h"
#include "rp-window-private.h"
#include "rp-why-view.h"

static GtkApplication *application;

/* A report file with @stalls (JSON) and fsync's calm calls, as a chart
 * draws them. Returns its path. */
static char *
write_report (const char *stalls)
{
  return rp_stall_report_write (stalls, RP_STALL_REPORT_CALM_CALLS, "test-gui-why-XXXXXX.json");
}

static gboolean
why_has_rows (gpointer data)
{
  RpWindow *window = data;

  return rp_why_view_get_n_rows (window->why_view) > 0;
}

/* The section lists each stall, longest first, with its call, duration,
 * start and wait sites in words; the cause is its description. */
static void
test_why_lists_stalls (void)
{
  g_autofree char *path = write_report (rp_stall_report_two_stalls);
  RpWindow *window = rp_gui_fixture_open_report (path);
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  g_autoptr(GPtrArray) details = g_ptr_array_new ();
  const char *description;

  rp_gui_fixture_wait (why_has_rows, window, "the Why section's rows");
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->why_view)));
  g_assert_cmpuint (rp_why_view_get_n_rows (window->why_view), ==, 2);
  rp_gui_fixture_collect (GTK_WIDGET (window->why_view), ADW_TYPE_EXPANDER_ROW, rows);
  g_assert_cmpuint (rows->len, ==, 2);
  /* Figures keep their units on their line (issue 32): no-break spaces. */
  g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[0]), ==, "fsync took 9.85\u00a0s at 2.0\u00a0s");
  g_assert_cmpstr (adw_expander_row_get_subtitle (rows->pdata[0]), ==,
                   "waiting for the journal to commit 9.70\u00a0s (98\u00a0%); its own work on a CPU 100\u00a0ms (1\u00a0%)");
  g_assert_cmpstr (adw_preferences_row_get_title (rows->pdata[1]), ==, "fsync took 500\u00a0ms at 14.0\u00a0s");
  g_assert_nonnull (strstr (adw_expander_row_get_subtitle (rows->pdata[1]), "(100\u00a0%)"));
  description = adw_preferences_group_get_description (ADW_PREFERENCES_GROUP (window->why_view));
  g_test_message ("cause: %s", description);
  g_assert_nonnull (strstr (description, "waiting for the journal to commit"));
  /* Its figures keep their units too ("answered in 206⏎µs" at 360 px). */
  g_assert_nonnull (strstr (description, "fsync: of 10.35\u00a0s in 2 stalls"));
  g_assert_null (strstr (description, " s "));

  /* Expanded: what ran meanwhile, from the report's series. */
  rp_gui_fixture_collect (rows->pdata[0], ADW_TYPE_ACTION_ROW, details);
  g_assert_cmpuint (details->len, >=, 2);
  {
    gboolean commits = FALSE, sites = FALSE;

    for (guint i = 0; i < details->len; i++)
      {
        const char *subtitle = adw_action_row_get_subtitle (details->pdata[i]);

        g_test_message ("meanwhile: %s: %s", adw_preferences_row_get_title (details->pdata[i]), subtitle);
        commits |= g_strcmp0 (adw_preferences_row_get_title (details->pdata[i]), "journal commits") == 0;
        /* Issue 31: the kernel's site beside the cause, for engineers, in
         * the expansion only. */
        sites |= g_strcmp0 (adw_preferences_row_get_title (details->pdata[i]), "Where the time went") == 0 &&
                 strstr (subtitle, "waiting for the journal to commit [jbd2_log_wait_commit] 9.70\u00a0s") != NULL;
      }
    g_assert_true (commits);
    g_assert_true (sites);
  }
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

/* Without a stall the section stays hidden. */
static void
test_why_hidden_without_stalls (void)
{
  g_autofree char *path = write_report ("[]");
  RpWindow *window = rp_gui_fixture_open_report (path);

  g_assert_cmpuint (rp_why_view_get_n_rows (window->why_view), ==, 0);
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->why_view)));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

typedef struct {
  RpWindow    *window;
  RpChartView *chart;
  double       x;
} Marker;

/* A chart, drawn, with a stall marker somewhere along it: its x. */
static gboolean
find_marker (gpointer data)
{
  Marker *marker = data;
  g_autoptr(GPtrArray) charts = g_ptr_array_new ();

  rp_gui_fixture_collect (GTK_WIDGET (marker->window), RP_TYPE_CHART_VIEW, charts);
  for (guint i = 0; i < charts->len; i++)
    {
      RpPlot *plot = rp_chart_view_get_plot (charts->pdata[i]);
      int width = gtk_widget_get_width (charts->pdata[i]);

      if (plot == NULL || !gtk_widget_is_drawable (charts->pdata[i]))
        continue;
      for (int x = 0; x < width; x++)
        if (rp_plot_span_at (plot, x) != NULL)
          {
            marker->chart = charts->pdata[i];
            marker->x = x;
            return TRUE;
          }
    }
  return FALSE;
}

/* A click where a marker is drawn opens a popover with its breakdown;
 * a click where none is, nothing. */
static void
test_marker_click_popover (void)
{
  g_autofree char *path = write_report (rp_stall_report_two_stalls);
  Marker marker = { .window = rp_gui_fixture_open_report (path) };
  g_autoptr(GPtrArray) controllers = g_ptr_array_new ();
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  GListModel *list;
  GtkGesture *click = NULL;
  GtkPopover *popover;

  rp_gui_fixture_wait (find_marker, &marker, "a chart with a stall marker");
  list = gtk_widget_observe_controllers (GTK_WIDGET (marker.chart));
  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (list, i);

      if (GTK_IS_GESTURE_CLICK (controller))
        click = GTK_GESTURE (controller);
    }
  g_object_unref (list);
  g_assert_nonnull (click);

  /* Left of every marker (x 0 is the axis' side): no popover, but the
   * chart has the focus, for the keys (issue 21: Right after a click did
   * nothing). */
  g_assert_null (rp_plot_span_at (rp_chart_view_get_plot (marker.chart), 0));
  g_signal_emit_by_name (click, "pressed", 1, 0.0, 10.0);
  g_assert_null (rp_gui_fixture_find_popover (GTK_WIDGET (marker.chart)));
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (marker.window)) == GTK_WIDGET (marker.chart));

  g_signal_emit_by_name (click, "pressed", 1, marker.x, 10.0);
  popover = rp_gui_fixture_find_popover (GTK_WIDGET (marker.chart));
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  rp_gui_fixture_collect (GTK_WIDGET (popover), GTK_TYPE_LABEL, labels);
  g_assert_cmpuint (labels->len, ==, 1);
  g_test_message ("popover: %s", gtk_label_get_text (labels->pdata[0]));
  g_assert_cmpstr (gtk_label_get_text (labels->pdata[0]), ==, rp_plot_span_at (rp_chart_view_get_plot (marker.chart), marker.x));
  g_assert_nonnull (strstr (gtk_label_get_text (labels->pdata[0]), "waiting for"));
  gtk_popover_popdown (popover);
  gtk_window_destroy (GTK_WINDOW (marker.window));
  g_unlink (path);
}

static GtkEventControllerKey *
key_controller (GtkWidget *widget)
{
  g_autoptr(GListModel) list = gtk_widget_observe_controllers (widget);

  for (guint i = 0; i < g_list_model_get_n_items (list); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (list, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
        return GTK_EVENT_CONTROLLER_KEY (controller);
    }
  return NULL;
}

static gboolean
press (GtkEventControllerKey *keys,
       guint                  keyval)
{
  gboolean handled = FALSE;

  g_signal_emit_by_name (keys, "key-pressed", keyval, 0, 0, &handled);
  return handled;
}

/* Issue 21: with the chart focused, Right/Left (or n/p) step through its
 * stall markers, left to right: the popover shows the stall's breakdown
 * and stays without taking the focus; the accessible description begins
 * with "Stall i of n". Escape hides the popover. */
static void
test_keys_step_through_stalls (void)
{
  g_autofree char *path = write_report (rp_stall_report_two_stalls);
  Marker marker = { .window = rp_gui_fixture_open_report (path) };
  RpPlot *plot;
  GtkEventControllerKey *keys;
  GtkPopover *popover;
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();
  GtkLabel *label;
  const char *first, *second;

  rp_gui_fixture_wait (find_marker, &marker, "a chart with a stall marker");
  plot = rp_chart_view_get_plot (marker.chart);
  g_assert_cmpuint (rp_plot_get_n_spans (plot), ==, 2);
  /* The spans this chart draws, left to right: 2.0 s, then 14.0 s. */
  first = rp_plot_get_span_x (plot, 0, NULL, NULL);
  second = rp_plot_get_span_x (plot, 1, NULL, NULL);
  g_assert_nonnull (first);
  g_assert_nonnull (second);
  g_assert_cmpint (rp_chart_view_get_stall_index (marker.chart), ==, -1);
  keys = key_controller (GTK_WIDGET (marker.chart));
  g_assert_nonnull (keys);
  gtk_widget_grab_focus (GTK_WIDGET (marker.chart));
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (marker.window)) == GTK_WIDGET (marker.chart));

  g_assert_true (press (keys, GDK_KEY_Right));
  g_assert_cmpint (rp_chart_view_get_stall_index (marker.chart), ==, 0);
  /* The cursor line marks it, in the middle of its marker. */
  g_assert_cmpstr (rp_plot_span_at (plot, rp_chart_view_get_marked_x (marker.chart)), ==, first);
  popover = rp_gui_fixture_find_popover (GTK_WIDGET (marker.chart));
  g_assert_nonnull (popover);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (popover)));
  rp_gui_fixture_collect (GTK_WIDGET (popover), GTK_TYPE_LABEL, labels);
  label = labels->pdata[0];
  g_assert_cmpstr (gtk_label_get_text (label), ==, first);
  g_assert_true (g_str_has_prefix (rp_chart_view_get_description (marker.chart), "Stall 1 of 2: "));
  /* The focus stays on the chart: the next key steps on. */
  g_assert_true (gtk_window_get_focus (GTK_WINDOW (marker.window)) == GTK_WIDGET (marker.chart));

  g_assert_true (press (keys, GDK_KEY_n));
  g_assert_cmpint (rp_chart_view_get_stall_index (marker.chart), ==, 1);
  g_assert_cmpstr (gtk_label_get_text (label), ==, second);
  g_test_message ("description: %s", rp_chart_view_get_description (marker.chart));
  g_assert_true (g_str_has_prefix (rp_chart_view_get_description (marker.chart), "Stall 2 of 2: "));
  /* The last stays the last. */
  g_assert_true (press (keys, GDK_KEY_Right));
  g_assert_cmpint (rp_chart_view_get_stall_index (marker.chart), ==, 1);
  g_assert_true (press (keys, GDK_KEY_Left));
  g_assert_cmpint (rp_chart_view_get_stall_index (marker.chart), ==, 0);
  g_assert_cmpstr (gtk_label_get_text (label), ==, first);
  g_assert_true (press (keys, GDK_KEY_p));
  g_assert_cmpint (rp_chart_view_get_stall_index (marker.chart), ==, 0);

  g_assert_true (press (keys, GDK_KEY_Escape));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (popover)));
  /* The cursor line goes with the popover. */
  g_assert_cmpfloat (rp_chart_view_get_marked_x (marker.chart), <, 0);
  /* Escape again is the window's. */
  g_assert_false (press (keys, GDK_KEY_Escape));
  gtk_window_destroy (GTK_WINDOW (marker.window));
  g_unlink (path);
}

/* On a chart without stalls Left and Right do nothing (issue 21: they
 * moved the focus to a neighbouring chart, where the next Right opened a
 * stall of another chart); its description says there are none. */
static void
test_keys_without_stalls (void)
{
  g_autofree char *path = write_report ("[]");
  RpWindow *window = rp_gui_fixture_open_report (path);
  g_autoptr(GPtrArray) charts = g_ptr_array_new ();

  rp_gui_fixture_collect (GTK_WIDGET (window), RP_TYPE_CHART_VIEW, charts);
  g_assert_cmpuint (charts->len, >, 0);
  g_assert_true (press (key_controller (charts->pdata[0]), GDK_KEY_Right));
  g_assert_true (press (key_controller (charts->pdata[0]), GDK_KEY_Left));
  g_assert_cmpint (rp_chart_view_get_stall_index (charts->pdata[0]), ==, -1);
  g_assert_cmpfloat (rp_chart_view_get_marked_x (charts->pdata[0]), <, 0);
  g_assert_null (rp_gui_fixture_find_popover (GTK_WIDGET (charts->pdata[0])));
  g_assert_true (g_str_has_prefix (rp_chart_view_get_description (charts->pdata[0]), "No stalls marked on this chart\n"));
  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

typedef struct {
  RpWindow   *window;
  const char *prefix;    /* of the first row's title */
  const char *detail;    /* a detail row's title it must have, or NULL */
} LiveWait;

static gboolean
live_row_shows (gpointer data)
{
  LiveWait *wait = data;
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  g_autoptr(GPtrArray) details = g_ptr_array_new ();

  rp_gui_fixture_collect (GTK_WIDGET (wait->window->why_view), ADW_TYPE_EXPANDER_ROW, rows);
  if (rows->len == 0 || !g_str_has_prefix (adw_preferences_row_get_title (rows->pdata[0]), wait->prefix))
    return FALSE;
  if (wait->detail == NULL)
    return TRUE;
  rp_gui_fixture_collect (rows->pdata[0], ADW_TYPE_ACTION_ROW, details);
  for (guint i = 0; i < details->len; i++)
    if (g_strcmp0 (adw_preferences_row_get_title (details->pdata[i]), wait->detail) == 0)
      return TRUE;
  return FALSE;
}

/* Issue 18 item 4, live: while the run goes on, a call in flight past
 * 0.1 s gets a row at once ("in flight for"), and once it returned the
 * same row says what it took and what ran meanwhile so far (a journal
 * commit the run recorded), before the run ends. */
static void
test_why_rows_live (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-why-live-XXXXXX", &error);
  RpWindow *window = rp_window_new (application);
  RpSeries *commits;
  RpTimedCall *call;
  double begun;
  LiveWait wait = { .window = window };
  g_autoptr(GPtrArray) rows = g_ptr_array_new ();
  GtkWidget *in_flight_row;

  g_assert_no_error (error);
  g_assert_true (rp_window_set_scenario (window, "passive"));
  rp_window_set_directory (window, target);
  rp_window_set_duration_text (window, "");
  gtk_window_present (GTK_WINDOW (window));
  rp_window_start (window);
  rp_gui_fixture_wait (rp_gui_fixture_run_measuring, window, "the run to measure");

  /* A timed call of our own in the run's registry, as a probe makes one. */
  commits = rp_session_ensure_series (window->session, "journal_commit", "s", NULL);
  call = rp_call_registry_open (window->session->calls);
  begun = rp_session_time_from_monotonic (window->session, rp_timed_call_begin (call, "fsync_latency"));
  rp_series_append (commits, begun + 0.01, 0.08);
  wait.prefix = "fsync in flight for";
  rp_gui_fixture_wait (live_row_shows, &wait, wait.prefix);
  rp_gui_fixture_collect (GTK_WIDGET (window->why_view), ADW_TYPE_EXPANDER_ROW, rows);
  in_flight_row = rows->pdata[0];
  /* What ran meanwhile so far, already while in flight. */
  wait.detail = "journal commits";
  rp_gui_fixture_wait (live_row_shows, &wait, "the journal commits in the row in flight");

  rp_timed_call_end (call);
  wait.prefix = "fsync took";
  rp_gui_fixture_wait (live_row_shows, &wait, wait.prefix);
  g_assert_true (rp_window_get_busy (window));
  g_ptr_array_set_size (rows, 0);
  rp_gui_fixture_collect (GTK_WIDGET (window->why_view), ADW_TYPE_EXPANDER_ROW, rows);
  /* Updated in place, not rebuilt. */
  g_assert_true (rows->pdata[0] == in_flight_row);

  rp_window_stop (window);
  rp_gui_fixture_wait (rp_gui_fixture_window_idle, window, "the run to stop");
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_rmdir (target), ==, 0);
}

/* The run form's Baseline row edits the system sampler's "baseline"
 * parameter: typed text reaches the scenario a run starts with, a stored
 * form comes back in the next window, an opened report's baseline shows,
 * and text that is no duration is an error naming the field. */
static void
test_baseline_row (void)
{
  RpWindow *window = rp_window_new (application);
  RpWindow *next = NULL;
  g_autoptr(RpScenario) scenario = NULL;
  g_autoptr(RpScenario) preset = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GError) error = NULL;

  /* The default is the parameter's own. */
  g_assert_cmpfloat (rp_run_settings_get_baseline (window->run_settings), ==,
                     rp_params_get_seconds (preset->params, "baseline"));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (window->baseline_entry)), ==, "3");

  gtk_editable_set_text (GTK_EDITABLE (window->baseline_entry), "7.5 s");
  g_assert_null (rp_window_form_get_error (window));
  g_assert_cmpfloat (rp_run_settings_get_baseline (window->run_settings), ==, 7.5);
  scenario = rp_run_settings_build_scenario (window->run_settings, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (rp_params_get_seconds (scenario->params, "baseline"), ==, 7.5);

  /* Stored as a run starts: the next window's form starts from it. */
  rp_window_form_store (window);
  next = rp_window_new (application);
  g_assert_cmpfloat (rp_run_settings_get_baseline (next->run_settings), ==, 7.5);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (next->baseline_entry)), ==, "7.5");

  /* 0 and empty are none. */
  gtk_editable_set_text (GTK_EDITABLE (window->baseline_entry), "0");
  g_assert_null (rp_window_form_get_error (window));
  g_assert_cmpfloat (rp_run_settings_get_baseline (window->run_settings), ==, 0);
  rp_run_settings_set_baseline (window->run_settings, 2);
  gtk_editable_set_text (GTK_EDITABLE (window->baseline_entry), "");
  g_assert_null (rp_window_form_get_error (window));
  g_assert_cmpfloat (rp_run_settings_get_baseline (window->run_settings), ==, 0);

  /* A scenario shown in the form (an opened report's) brings its baseline. */
  rp_params_set_seconds (preset->params, "baseline", 12);
  g_assert_true (rp_run_settings_load_scenario (window->run_settings, preset));
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (window->baseline_entry)), ==, "12");

  /* Not a duration: the entry is marked, the setting stays. Typed after
   * the "12" (setting the whole text would pass through "", none). */
  {
    int position = -1;

    gtk_editable_insert_text (GTK_EDITABLE (window->baseline_entry), "x", -1, &position);
  }
  g_assert_nonnull (rp_window_form_get_error (window));
  g_test_message ("error: %s", rp_window_form_get_error (window));
  g_assert_nonnull (strstr (rp_window_form_get_error (window), "Baseline"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (window->baseline_entry), "error"));
  g_assert_cmpfloat (rp_run_settings_get_baseline (window->run_settings), ==, 12);

  gtk_window_destroy (GTK_WINDOW (next));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
fold_applied (gpointer data)
{
  return RP_WINDOW (data)->fold_idle_id == 0;
}

static gboolean
popover_shown (gpointer data)
{
  GtkPopover *popover = rp_gui_fixture_find_popover (GTK_WIDGET (data));

  return popover != NULL && gtk_widget_get_mapped (GTK_WIDGET (popover));
}

static gboolean
popover_hidden (gpointer data)
{
  GtkPopover *popover = rp_gui_fixture_find_popover (GTK_WIDGET (data));

  return popover == NULL || !gtk_widget_get_visible (GTK_WIDGET (popover));
}

static gboolean
chart_has_focus (gpointer data)
{
  RpChartView *chart = data;
  GtkRoot *root = gtk_widget_get_root (GTK_WIDGET (chart));

  return root != NULL && gtk_root_get_focus (root) == GTK_WIDGET (chart);
}

/* @chart's popover, once shown, closed by Escape or by a click elsewhere
 * (left of every marker, in the chart): it goes, and the focus is back
 * on the chart. */
static void
close_popover (GtkWidget *chart,
               gboolean   by_escape,
               double     y)
{
  rp_gui_fixture_wait (popover_shown, chart, "the stall's popover shown");
  if (by_escape)
    rp_gui_fixture_xdotool ("key --clearmodifiers Escape");
  else
    rp_gui_fixture_click_at (chart, 2, y);
  rp_gui_fixture_wait (popover_hidden, chart, "the stall's popover hidden");
  rp_gui_fixture_wait (chart_has_focus, chart, "the focus back on the chart");
}

/* Issue 21: a stall's popover opened by a primary click on its marker or
 * by Enter, closed by Escape or by a click elsewhere, prints no
 * Gtk-CRITICAL (fatal here, as G_DEBUG=fatal-criticals makes them) and
 * gives the focus back to the chart that opened it (it went to the Start
 * button: a click did not focus the chart). */
static void
test_popover_closes_to_chart (void)
{
  g_autofree char *path = NULL;
  Marker marker = { 0 };
  GtkWidget *chart;
  GLogLevelFlags fatal;
  double y;

  if (!rp_gui_fixture_has_real_input ())
    return;
  /* g_test_init() made them fatal already; this test holds whatever a
   * caller changes. */
  fatal = g_log_set_always_fatal (G_LOG_FATAL_MASK);
  g_log_set_always_fatal (fatal | G_LOG_LEVEL_CRITICAL);
  path = write_report (rp_stall_report_two_stalls);
  marker.window = rp_gui_fixture_open_report (path);
  for (guint round = 0; round < 2; round++)
    {
      /* Where the marker is once the layout settled (the sidebar widens a
       * frame after the first allocation at 1280 px). */
      rp_gui_fixture_wait (fold_applied, marker.window, "the window's fold applied");
      rp_gui_fixture_xdotool ("sleep 0.2");
      rp_gui_fixture_wait (find_marker, &marker, "a chart with a stall marker");
      chart = GTK_WIDGET (marker.chart);
      y = gtk_widget_get_height (chart) / 2.0;
      /* The middle of that stall's marker, not its first pixel. */
      {
        RpPlot *plot = rp_chart_view_get_plot (marker.chart);
        double end = marker.x;

        while (end + 1 < gtk_widget_get_width (chart) && rp_plot_span_at (plot, end + 1) != NULL)
          end++;
        marker.x = (marker.x + end) / 2;
      }

      /* Opened by a primary click on the marker, then by Enter on the
       * chart it focused (the pointer still over the marker); closed by
       * Escape in the first round, by a click elsewhere in the second. */
      rp_gui_fixture_click_at (chart, marker.x, y);
      close_popover (chart, round == 0, y);
      rp_gui_fixture_xdotool ("key --clearmodifiers Return");
      close_popover (chart, round == 0, y);
    }
  /* The pointer off the charts: GTK 4.8's tooltip timeout, left pending
   * over a chart, reads the surface of a window destroyed meanwhile
   * (a Gdk-CRITICAL of its own, gdk_surface_get_device_position). */
  rp_gui_fixture_xdotool ("mousemove --sync 640 12");
  gtk_window_destroy (GTK_WINDOW (marker.window));
  g_unlink (path);
  g_log_set_always_fatal (fatal);
}

int
main (int   argc,
      char *argv[])
{
  /* The rows' words are compared as written. */
  g_setenv ("LANGUAGE", "C", TRUE);
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION, 0);

  g_test_add_func ("/gui-why/lists-stalls", test_why_lists_stalls);
  g_test_add_func ("/gui-why/hidden-without-stalls", test_why_hidden_without_stalls);
  g_test_add_func ("/gui-why/marker-click-popover", test_marker_click_popover);
  g_test_add_func ("/gui-why/baseline-row", test_baseline_row);
  g_test_add_func ("/gui-why/keys-step-through-stalls", test_keys_step_through_stalls);
  g_test_add_func ("/gui-why/keys-without-stalls", test_keys_without_stalls);
  g_test_add_func ("/gui-why/rows-live", test_why_rows_live);
  g_test_add_func ("/gui-why/popover-closes-to-chart", test_popover_closes_to_chart);
  return rp_gui_fixture_run ();
}
