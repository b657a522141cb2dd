/* test-gui-teardown.c: closing the window during and right after a run (SIGTERM, Ctrl+Q, a second close) with every warning fatal. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <signal.h>

#include "rp-gui-fixture.h"
#include "rp-recent-runs.h"
#include "rp-report.h"
#include "rp-scenario.h"
#include "rp-window.h"
#include "rp-window-private.h"

/* gui-wayland once died with SIGSEGV after "invalid uninstantiatable type
 * '(null)' in cast to 'GtkActionObservable'" when SIGTERM closed the window
 * during a run on a busy machine. g_test_init() makes every warning and
 * critical fatal here: a window that touches a widget, an action helper or
 * a muxer after it was disposed fails these tests instead of crashing a
 * user's session now and then. Each case closes at several moments of a
 * run (the order of idles and worker results varies with the load), with a
 * full recent-runs list (its rows and their menus) in the sidebar. */

static GtkApplication *application;

/* R1 runs on a busy machine: the windows may take long to go. */
#define HANG_GUARD_S 90
/* More reports than the list shows: its rows, their menus and the last row. */
#define N_OLD_REPORTS (RP_RECENT_RUNS_MAX + 3)

static gboolean
recent_listed (gpointer data)
{
  RpWindow *window = data;

  return gtk_list_box_get_row_at_index (window->recent_list, RP_RECENT_RUNS_MAX) != NULL;
}

static gboolean
exit_outputs_pending (gpointer data)
{
  return ((RpWindow *) data)->exit_outputs_pending;
}

/* Old runs in the reports folder: a small passive run's report, saved
 * N_OLD_REPORTS times. */
static void
fill_reports_folder (const char *target)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  RpSeries *fsync = rp_series_new ("fsync_latency", "s", NULL);
  g_autoptr(RpReport) report = NULL;

  g_free (scenario->directory);
  scenario->directory = g_strdup (target);
  for (double t = 0.5; t < 5; t += 0.5)
    rp_series_append (fsync, t, 0.004);
  g_ptr_array_add (series, fsync);
  report = rp_report_new (NULL, scenario, series, NULL);
  while (rp_gui_fixture_count_reports () < N_OLD_REPORTS)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GFile) file = rp_recent_runs_save (report, &error);

      g_assert_no_error (error);
    }
}

typedef enum {
  CLOSE_BY_SIGTERM,
  CLOSE_BY_CTRL_Q,
} CloseHow;

static void
close_window (RpWindow *window,
              CloseHow  how)
{
  if (how == CLOSE_BY_SIGTERM)
    {
      /* As `kill -TERM`: the application's g_unix_signal_add() handler
       * closes every window from the main loop. */
      g_assert_cmpint (kill (getpid (), SIGTERM), ==, 0);
      return;
    }
  /* Ctrl+Q is app.quit. */
  {
    g_auto(GStrv) accels = gtk_application_get_accels_for_action (application, "app.quit");

    g_assert_true (g_strv_contains ((const char *const *) accels, "<Control>q"));
  }
  gtk_widget_activate_action (GTK_WIDGET (window), "app.quit", NULL);
}

/* R1 (small), closed @how after @ticks main-loop iterations of measuring;
 * @scripted: with --report-on-exit. The window goes once its workers are
 * joined; the run is saved (autosave, or the script's file); nothing of the
 * run is left in the folder tested. */
static void
close_during_run (CloseHow     how,
                  gboolean     scripted,
                  guint        ticks)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-teardown-XXXXXX", &error);
  g_autofree char *exit_path = NULL;
  g_autoptr(GFile) exit_file = NULL;
  RpWindow *window;
  guint before;

  g_assert_no_error (error);
  fill_reports_folder (target);
  before = rp_gui_fixture_count_reports ();
  window = g_object_new (RP_TYPE_WINDOW, "application", application, NULL);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  g_assert_true (rp_window_set_scenario (window, "R1"));
  rp_window_set_directory (window, target);
  rp_window_set_size_text (window, "32M");
  rp_window_set_duration_text (window, "300");
  if (scripted)
    {
      exit_path = g_build_filename (g_get_tmp_dir (), "test-gui-teardown-exit.json", NULL);
      g_unlink (exit_path);
      exit_file = g_file_new_for_path (exit_path);
      rp_window_set_exit_outputs (window, exit_file, NULL);
    }
  gtk_window_present (GTK_WINDOW (window));
  rp_gui_fixture_wait (recent_listed, window, "the recent runs with their last row");
  rp_window_start (window);
  rp_gui_fixture_wait (rp_gui_fixture_run_measuring, window, "the run to measure");
  for (guint i = 0; i < ticks; i++)
    g_main_context_iteration (NULL, TRUE);

  close_window (window, how);
  rp_gui_fixture_wait (rp_gui_fixture_pointer_cleared, &window, "the window to go after the run stopped");

  if (scripted)
    {
      g_autoptr(RpReport) report = rp_report_load (exit_file, &error);

      g_assert_no_error (error);
      g_assert_nonnull (report);
      g_unlink (exit_path);
    }
  else
    g_assert_cmpuint (rp_gui_fixture_count_reports (), ==, before + 1);
  /* The run's files are gone with it. */
  g_assert_cmpint (g_rmdir (target), ==, 0);
}

static void
test_sigterm_during_run (void)
{
  for (guint ticks = 0; ticks < 30; ticks += 10)
    close_during_run (CLOSE_BY_SIGTERM, FALSE, ticks);
}

static void
test_ctrl_q_during_run (void)
{
  for (guint ticks = 0; ticks < 30; ticks += 10)
    close_during_run (CLOSE_BY_CTRL_Q, FALSE, ticks);
}

static void
test_sigterm_scripted (void)
{
  for (guint ticks = 0; ticks < 30; ticks += 10)
    close_during_run (CLOSE_BY_SIGTERM, TRUE, ticks);
}

/* A script's window whose run ended writes its report after the last frame
 * (rp_window_save_exit_outputs()). SIGTERM or Ctrl+Q in that moment closed
 * the window at once, and the pending write then worked on a disposed
 * window (and destroyed it a second time). Now the window hides, the
 * report is written whole, and the window goes once. */
static void
test_close_while_script_writes (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-teardown-XXXXXX", &error);
  g_autofree char *exit_path = g_build_filename (g_get_tmp_dir (), "test-gui-teardown-late.json", NULL);
  g_autoptr(GFile) exit_file = g_file_new_for_path (exit_path);
  g_autoptr(RpReport) report = NULL;
  RpWindow *window;

  g_assert_no_error (error);
  g_unlink (exit_path);
  for (guint how = CLOSE_BY_SIGTERM; how <= CLOSE_BY_CTRL_Q; how++)
    {
      window = rp_gui_fixture_passive_window (target, NULL);
      g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
      rp_window_set_exit_outputs (window, exit_file, NULL);
      gtk_window_present (GTK_WINDOW (window));
      rp_window_start (window);
      rp_gui_fixture_wait (exit_outputs_pending, window, "the run to end and its report to be due");
      close_window (window, how);
      rp_gui_fixture_wait (rp_gui_fixture_pointer_cleared, &window, "the window to go once its report is written");
      report = rp_report_load (exit_file, &error);
      g_assert_no_error (error);
      g_assert_cmpfloat (rp_report_get_duration (report), >, 0);
      g_clear_object (&report);
      g_unlink (exit_path);
    }
  g_assert_cmpint (g_rmdir (target), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION | RP_GUI_FIXTURE_DATA_HOME,
                                     HANG_GUARD_S);

  g_test_add_func ("/teardown/sigterm-during-run", test_sigterm_during_run);
  g_test_add_func ("/teardown/ctrl-q-during-run", test_ctrl_q_during_run);
  g_test_add_func ("/teardown/sigterm-scripted", test_sigterm_scripted);
  g_test_add_func ("/teardown/close-while-script-writes", test_close_while_script_writes);

  return rp_gui_fixture_run ();
}
