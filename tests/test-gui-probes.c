/* test-gui-probes.c: the probe window's timer and samples, and the chart widget, under a real (X) display. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <gtk/gtk.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>

#include "rp-chart-view.h"
#include "rp-clock.h"
#include "rp-gui-fixture.h"
#include "rp-scenario.h"
#include "rp-session.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-timerfd-source.h"

typedef struct {
  guint     dispatches;
  guint64   missed;
  double    min_lateness;
  gboolean  block_once;
  gboolean  grid_ok;          /* each expiry follows the last on the grid */
  double    next_expiry;      /* where the next dispatch's expiry must be */
  double    lateness_after_block;
  guint64   missed_after_block;
  GMainLoop *loop;
} TimerRecord;

#define TIMER_PERIOD 0.005
#define BLOCK_SECONDS 0.030

static gboolean
on_timer (double   expiry,
          double   dispatched,
          guint64  missed,
          gpointer user_data)
{
  TimerRecord *record = user_data;
  double lateness = dispatched - expiry;

  record->dispatches++;
  /* No expiration lost or counted twice: this one's expiry is the last one's
   * plus the missed ones, on the absolute grid. */
  if (record->dispatches > 1 && fabs (expiry - record->next_expiry) > 1e-6)
    record->grid_ok = FALSE;
  record->next_expiry = expiry + (double) (missed + 1) * TIMER_PERIOD;
  record->missed += missed;
  record->min_lateness = MIN (record->min_lateness, lateness);
  if (record->dispatches == 11)
    {
      record->lateness_after_block = lateness;
      record->missed_after_block = missed;
    }
  if (record->block_once && record->dispatches == 10)
    {
      /* A busy main loop: the next expirations pile up. */
      g_usleep ((gulong) (BLOCK_SECONDS * G_USEC_PER_SEC));
      record->block_once = FALSE;
    }
  if (record->dispatches == 20)
    g_main_loop_quit (record->loop);
  return G_SOURCE_CONTINUE;
}

static gboolean
hang_guard (gpointer data)
{
  g_error ("%s: no progress after 30 s: hung", (const char *) data);
  return G_SOURCE_REMOVE;
}

/* The timer's lateness is dispatch − expiry on the absolute grid: never
 * negative, and a blocked loop shows as lateness of the oldest pending
 * expiration plus missed ones. Lower bounds only: a slow machine makes
 * lateness larger, never smaller, so nothing here depends on its speed. */
static void
test_timerfd_lateness (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  TimerRecord record = { 0, 0, G_MAXDOUBLE, TRUE, TRUE, 0, 0, 0, loop };
  g_autoptr(GError) error = NULL;
  GSource *source = rp_timerfd_source_new (TIMER_PERIOD, &error);
  guint guard;

  g_assert_no_error (error);
  g_source_set_callback (source, (GSourceFunc) (void (*) (void)) on_timer, &record, NULL);
  g_source_attach (source, NULL);
  guard = g_timeout_add_seconds (30, hang_guard, (gpointer) "timerfd");
  g_main_loop_run (loop);
  g_source_remove (guard);
  g_source_destroy (source);
  g_source_unref (source);

  g_test_message ("dispatches %u, missed %" G_GUINT64_FORMAT ", lateness from %.1f µs; "
                  "after blocking %.0f ms: %.1f ms late, %" G_GUINT64_FORMAT " missed",
                  record.dispatches, record.missed, record.min_lateness * 1e6, BLOCK_SECONDS * 1e3,
                  record.lateness_after_block * 1e3, record.missed_after_block);
  g_assert_cmpuint (record.dispatches, ==, 20);
  g_assert_cmpfloat (record.min_lateness, >=, 0);
  g_assert_true (record.grid_ok);
  /* Dispatch 10 came at or after its expiry E and returned 30 ms later; the
   * oldest expiration then pending is E + 5 ms: at least 25 ms late, with at
   * least (25 ms / 5 ms) − 1 = 4 more passed meanwhile. */
  g_assert_cmpfloat (record.lateness_after_block, >=, BLOCK_SECONDS - TIMER_PERIOD - 1e-6);
  g_assert_cmpuint (record.missed_after_block, >=, 4);
  g_assert_cmpuint (record.missed, >=, record.missed_after_block);
}

static guint
series_length (RpSession  *session,
               const char *name)
{
  RpSeries *series = rp_session_lookup_series (session, name);

  return series ? rp_series_get_length (series) : 0;
}

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GError **error = user_data;

  rp_session_start_finish (RP_SESSION (object), result, error);
}

static gboolean
session_finished (gpointer data)
{
  return rp_session_get_state (data) == RP_SESSION_FINISHED;
}

/* The window part's probe window (app/canary, a process of its own): samples
 * in every felt series, its notes, the simulated save in its process
 * leaving nothing in its folder, and no probe window left after the stop. */
static void
test_probes_record (void)
{
  g_autofree char *dir = g_dir_make_tmp ("test-gui-probes-XXXXXX", NULL);
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(GHashTable) notes = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDir) listing = NULL;
  guint guard;
  int pid;

  g_assert_nonnull (dir);
  scenario->directory = g_strdup (dir);
  rp_scenario_set_part (scenario, "window", TRUE);
  rp_params_set_flag (scenario->params, "simulate_save", TRUE);
  session = rp_session_new (scenario);
  rp_session_start_async (session, NULL, on_started, &error);

  /* Until every probe has recorded (how soon depends on the machine: the
   * probe window starts, settles, and its first save is due after a
   * second); a hang guard of 30 s. */
  guard = g_timeout_add_seconds (30, hang_guard, (gpointer) "probes");
  while (error == NULL &&
         (series_length (session, RP_SERIES_MAINLOOP_LATENESS) < 2 ||
          series_length (session, RP_SERIES_WAKEUP_LATENCY) < 1 ||
          series_length (session, RP_SERIES_FRAME_INTERVAL) < 1 ||
          series_length (session, RP_SERIES_MAIN_THREAD_SAVE) < 1))
    rp_gui_fixture_spin (50);
  g_assert_no_error (error);
  rp_session_stop (session);
  rp_gui_fixture_wait (session_finished, session, "the run to finish");
  g_source_remove (guard);
  g_assert_null (rp_session_get_error (session));

  /* Samples in time order, not negative. */
  {
    const char *names[] = { RP_SERIES_MAINLOOP_LATENESS, RP_SERIES_WAKEUP_LATENCY,
                            RP_SERIES_FRAME_INTERVAL, RP_SERIES_MAIN_THREAD_SAVE };

    for (guint i = 0; i < G_N_ELEMENTS (names); i++)
      {
        guint n = 0;
        g_autofree RpPoint *points = rp_series_copy_points (rp_session_lookup_series (session, names[i]), 0, &n);

        g_test_message ("%s: %u samples", names[i], n);
        g_assert_cmpuint (n, >=, 1);
        for (guint j = 0; j < n; j++)
          {
            g_assert_cmpfloat (points[j].v, >=, 0);
            g_assert_true (j == 0 || points[j].t >= points[j - 1].t);
          }
      }
  }

  notes = rp_session_get_notes (session);
  g_assert_cmpstr (g_hash_table_lookup (notes, "frame_timing_source"), ==, "tick-monotonic");
  g_assert_cmpstr (g_hash_table_lookup (notes, "simulate_save"), ==, "on");
  g_assert_cmpstr (g_hash_table_lookup (notes, "probe_window_backend"), ==, "x11");
  g_assert_cmpstr (g_hash_table_lookup (notes, "canary_lines_dropped"), ==, "0");
  /* The probe window went with the run (reaped: kill() finds no process). */
  pid = atoi (g_hash_table_lookup (notes, "probe_window_pid"));
  g_assert_cmpint (pid, >, 0);
  g_assert_cmpint (kill (pid, 0), ==, -1);

  listing = g_dir_open (dir, 0, NULL);
  g_assert_null (g_dir_read_name (listing));
  g_rmdir (dir);
}

typedef struct {
  GdkSurface *surface;
  guint       renders;
} RenderCount;

/* An emission hook, not a handler: GTK's own handler of GdkSurface::render
 * returns TRUE, which ends the emission before later handlers. */
static gboolean
count_render (GSignalInvocationHint *hint,
              guint                  n_params,
              const GValue          *params,
              gpointer               data)
{
  RenderCount *count = data;

  if (g_value_get_object (&params[0]) == (gpointer) count->surface)
    count->renders++;
  return TRUE;
}

/* Waits for the chart's own once-a-second redraw timer to have fired: GLib
 * fires the seconds timeouts of a process together, so one added after it
 * fires with it or later; then lets the frame that a redraw queued paint. */
static void
wait_for_redraw_timer (void)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  g_timeout_add_seconds (1, rp_gui_fixture_quit_loop, loop);
  g_main_loop_run (loop);
  rp_gui_fixture_spin (200);
}

/* The chart widget draws through the same renderer as the window and only
 * asks for a redraw when its series grew: the window's surface, which shows
 * nothing else that changes, renders again only then. */
static void
test_chart_view (void)
{
  g_autoptr(RpPlot) plot = rp_plot_new ("test", "s");
  g_autoptr(RpSeries) series = rp_series_new ("x", "s", NULL);
  g_autoptr(GdkPaintable) paintable = NULL;
  GtkWidget *window = gtk_window_new ();
  GtkWidget *view = rp_chart_view_new (plot);
  GtkSnapshot *snapshot;
  GskRenderNode *node;
  RenderCount count = { NULL, 0 };
  guint signal_id = g_signal_lookup ("render", GDK_TYPE_SURFACE);
  guint guard;
  gulong hook;

  for (int i = 0; i < 1000; i++)
    rp_series_append (series, i * 0.01, 1e-3 * (1 + i % 7));
  rp_plot_add_series (plot, "x", "x", RP_PLOT_LINE);
  rp_plot_bind_series (plot, "x", series);
  gtk_window_set_child (GTK_WINDOW (window), view);
  gtk_window_set_default_size (GTK_WINDOW (window), 400, 200);
  gtk_window_present (GTK_WINDOW (window));

  /* Shown and drawn once, then quiet. */
  count.surface = gtk_native_get_surface (GTK_NATIVE (window));
  g_assert_nonnull (count.surface);
  hook = g_signal_add_emission_hook (signal_id, 0, count_render, &count, NULL);
  guard = g_timeout_add_seconds (30, hang_guard, (gpointer) "first draw");
  while (count.renders == 0 || gtk_widget_get_width (view) <= 0)
    rp_gui_fixture_spin (20);
  g_source_remove (guard);
  wait_for_redraw_timer ();

  g_assert_true (rp_chart_view_get_plot (RP_CHART_VIEW (view)) == plot);
  paintable = gtk_widget_paintable_new (view);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (view), gtk_widget_get_height (view));
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  gsk_render_node_unref (node);

  /* Nothing new: a refresh draws nothing, even after its timer. */
  count.renders = 0;
  rp_chart_view_refresh (RP_CHART_VIEW (view));
  wait_for_redraw_timer ();
  g_assert_cmpuint (count.renders, ==, 0);

  /* A new point: the refresh redraws once its timer fired (a hang guard
   * for a slow machine: 30 s). */
  rp_series_append (series, 10.0, 5e-3);
  rp_chart_view_refresh (RP_CHART_VIEW (view));
  guard = g_timeout_add_seconds (30, hang_guard, (gpointer) "redraw after a new point");
  while (count.renders == 0)
    rp_gui_fixture_spin (20);
  g_source_remove (guard);

  /* Drawn: the next refresh without new points draws nothing again. */
  wait_for_redraw_timer ();
  count.renders = 0;
  rp_chart_view_refresh (RP_CHART_VIEW (view));
  wait_for_redraw_timer ();
  g_assert_cmpuint (count.renders, ==, 0);

  g_signal_remove_emission_hook (signal_id, hook);
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_WIDGETS_ONLY, 0);

  g_test_add_func ("/gui/timerfd-lateness", test_timerfd_lateness);
  g_test_add_func ("/gui/probes-record", test_probes_record);
  g_test_add_func ("/gui/chart-view", test_chart_view);

  return rp_gui_fixture_run ();
}
