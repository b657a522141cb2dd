/* test-session.c: real runs on a temporary directory: samples, stop, errors, no leftovers. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gstdio.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-proc.h"
#include "rp-report.h"
#include "rp-run-folder.h"
#include "rp-session.h"
#include "rp-units.h"
#include "rp-test-fixture.h"

typedef RpTestFixture Fixture;

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  GError **error = user_data;

  rp_session_start_finish (RP_SESSION (object), result, error);
}

/* Samples arrived, in time order, within the run, with sane values: how
 * many arrived depends on the machine's speed (an fsync under load may take
 * seconds), so only "at least @min_length" of a few is asserted. */
static void
assert_series_sane (RpSeries *series,
                    guint     min_length,
                    double    elapsed,
                    double    max_value)
{
  g_autofree RpPoint *points = NULL;
  guint n = 0;

  g_assert_nonnull (series);
  points = rp_series_copy_points (series, 0, &n);
  g_assert_cmpuint (n, >=, min_length);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (points[i].t, >=, 0);
      g_assert_cmpfloat (points[i].t, <=, elapsed + 0.001);
      if (i > 0)
        g_assert_cmpfloat (points[i].t, >=, points[i - 1].t);
      g_assert_true (isfinite (points[i].v));
      g_assert_cmpfloat (points[i].v, >=, 0);
      g_assert_cmpfloat (points[i].v, <=, max_value);
    }
}

static void
test_r1_ten_seconds (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(RpReport) reloaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  RpSeries *fsync, *throughput, *iowait;
  RpStats stats, reloaded_stats;
  double elapsed;
  gsize length;

  rp_params_set_size (scenario->params, "writer_total_size", RP_GiB);
  scenario->duration = 10;
  session = rp_test_run_until_finished (f, scenario);
  g_assert_cmpint (rp_session_get_state (session), ==, RP_SESSION_FINISHED);
  g_assert_cmpfloat (rp_session_get_elapsed (session), >=, 9.9);

  /* How many samples arrive depends on the machine (an fsync under load may
   * take seconds): at least one of each, in order, within the run. An fsync
   * takes no longer than the run; iowait is a share of the CPU time. */
  elapsed = rp_session_get_elapsed (session);
  fsync = rp_session_lookup_series (session, "fsync_latency");
  assert_series_sane (fsync, 1, elapsed, elapsed);
  throughput = rp_session_lookup_series (session, "writer_throughput");
  assert_series_sane (throughput, 1, elapsed, G_MAXDOUBLE);
  rp_series_compute_stats (throughput, &stats);
  g_assert_cmpfloat (stats.max, >, 0);
  iowait = rp_session_lookup_series (session, "cpu_iowait");
  assert_series_sane (iowait, 1, elapsed, 1.0);

  /* Coalesced: at most 20 updates a second of the run as it really lasted
   * (a slow machine only makes fewer), plus the final one. */
  g_assert_cmpuint (f->updates, >, 0);
  g_assert_cmpfloat (f->updates, <=, 20 * (elapsed + 1) + 2);

  /* The sysinfo names the file system of the target. */
  g_assert_nonnull (rp_session_get_sysinfo (session));
  g_assert_nonnull (rp_session_get_sysinfo (session)->fs_type);

  report = rp_report_new_from_session (session);
  json = rp_report_to_json (report, &length);
  reloaded = rp_report_load_from_data (json, (gssize) length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rp_series_get_length (rp_report_lookup_series (reloaded, "fsync_latency")),
                    ==, rp_series_get_length (fsync));
  rp_series_compute_stats (fsync, &stats);
  rp_series_compute_stats (rp_report_lookup_series (reloaded, "fsync_latency"), &reloaded_stats);
  g_assert_cmpfloat (stats.p99, ==, reloaded_stats.p99);
  g_assert_cmpfloat (stats.max, ==, reloaded_stats.max);

  /* It ran its 10 s: the report says so, and nothing of a stop. */
  g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (reloaded), "ended_by"), ==, RP_ENDED_BY_DURATION);
  {
    g_autofree char *duration = rp_report_format_duration (reloaded);

    g_assert_null (strstr (duration, "stopped"));
  }
}

static void
test_stop_during_writer (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  double before, returned;

  rp_params_set_size (scenario->params, "writer_total_size", 3 * RP_GiB);
  scenario->duration = 60;
  session = rp_test_start_session (f, scenario, &error);

  /* Let the writer get going, then stop from the main loop. A start that
   * failed, or a run that ended on an error of its own, ends the wait too
   * (and the test, with what it says) rather than hanging until meson's
   * timeout without a word. */
  while (error == NULL && rp_session_get_state (session) != RP_SESSION_FINISHED &&
         (rp_session_get_state (session) != RP_SESSION_RUNNING ||
          rp_session_lookup_series (session, "writer_bytes") == NULL ||
          rp_series_get_length (rp_session_lookup_series (session, "writer_bytes")) < 2))
    g_main_context_iteration (NULL, TRUE);
  g_assert_no_error (error);
  if (rp_session_get_state (session) == RP_SESSION_FINISHED)
    g_error ("the run ended before it was stopped: %s",
             rp_session_get_error (session) ? rp_session_get_error (session)->message : "no error");

  before = rp_clock_now ();
  rp_session_stop (session);
  returned = rp_clock_now ();

  /* rp_session_stop() never blocks: it returns with the workers still to be
   * joined, and "finished" comes later, from the main loop. */
  g_assert_cmpint (rp_session_get_state (session), !=, RP_SESSION_FINISHED);
  g_assert_cmpfloat (f->finished_at, ==, 0);
  g_main_loop_run (f->loop);
  g_assert_cmpint (rp_session_get_state (session), ==, RP_SESSION_FINISHED);
  g_test_message ("stop returned after %.6f s, finished after %.3f s",
                  returned - before, f->finished_at - before);
  /* A hang guard, not a speed test: about a second is usual (a writer
   * finishes its current write()), 30 s means the stop was not heard. */
  g_assert_cmpfloat (f->finished_at - before, <, 30);
  /* It did not run its 60 s. */
  g_assert_cmpfloat (rp_session_get_elapsed (session), <, scenario->duration);

  /* Stopped before its 60 s: the report's duration says so, wherever a
   * report's duration is written (text, PDF, comparisons). */
  {
    g_autoptr(RpReport) report = rp_report_new_from_session (session);
    g_autofree char *duration = rp_report_format_duration (report);
    g_autofree char *text = rp_report_to_text (report);

    g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (report), "ended_by"), ==, RP_ENDED_BY_REQUEST);
    g_assert_true (g_str_has_suffix (duration, " (stopped)"));
    g_assert_nonnull (strstr (text, duration));
  }

  /* Nothing follows "finished": an owner may free what its handlers use. */
  {
    guint updates = f->updates;
    gint64 until = g_get_monotonic_time () + 300 * G_TIME_SPAN_MILLISECOND;

    while (g_get_monotonic_time () < until)
      g_main_context_iteration (NULL, FALSE);
    g_assert_cmpuint (f->updates, ==, updates);
  }
}

/* The writer writes the size asked for, not the next multiple of its block
 * (1.5 MiB at bs=1M was 2 MiB): the last block is short. */
static void
test_writer_exact_size (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(RpReport) report = NULL;

  rp_params_set_size (scenario->params, "writer_total_size", 3 * RP_MiB / 2);
  scenario->stop_when_loads_finish = TRUE;
  rp_scenario_clear_role (scenario, RP_PART_PROBE);
  session = rp_test_run_until_finished (f, scenario);
  report = rp_report_new_from_session (session);
  g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (report), "writer_bytes_total"), ==, "1572864");
  g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (report), "ended_by"), ==, RP_ENDED_BY_LOADS);
}

/* A stop while the run prepares (Ctrl-C during a long prepare) used to end
 * in "No stalls over 0.1 s: the system stayed responsive." on the one fsync
 * the probe took before it saw the stop: the report notes the early stop and
 * the verdict says the run measured too little, in every front end (they all
 * read rp_run_summary_get_verdict()). */
static void
test_stop_while_preparing (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *verdict = NULL;
  g_autofree char *text = NULL;

  rp_params_set_size (scenario->params, "writer_total_size", 64 * RP_MiB);
  scenario->duration = 60;
  session = rp_test_start_session (f, scenario, &error);
  g_assert_cmpint (rp_session_get_state (session), ==, RP_SESSION_STARTING);
  rp_session_stop (session);
  g_main_loop_run (f->loop);
  g_assert_no_error (error);

  report = rp_report_new_from_session (session);
  g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (report), "ended_by"), ==, RP_ENDED_BY_REQUEST);
  g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (report), RP_NOTE_STOPPED_WHILE_PREPARING), ==, "true");
  verdict = rp_report_get_verdict (report);
  g_test_message ("%s", verdict);
  g_assert_null (strstr (verdict, "stayed responsive"));
  g_assert_nonnull (strstr (verdict, "stopped while it was preparing"));
  text = rp_report_to_text (report);
  g_assert_nonnull (strstr (text, "stopped while it was preparing"));
  g_assert_cmpuint (rp_test_count_entries (f->directory), ==, 0);
}

/* The PID of a process that has ended (a child reaped). fork(), not
 * GSubprocess: its identifier is gone once the child exited, which a quick
 * child may do before it is read. */
static int
dead_pid (void)
{
  pid_t pid = fork ();
  int status;

  g_assert_cmpint (pid, >=, 0);
  if (pid == 0)
    _exit (0);
  g_assert_cmpint (waitpid (pid, &status, 0), ==, pid);
  return (int) pid;
}

static char *
make_folder (const char *directory,
             const char *name,
             gboolean    with_contents)
{
  char *path = g_build_filename (directory, name, NULL);

  g_assert_cmpint (g_mkdir (path, 0700), ==, 0);
  if (with_contents)
    {
      g_autofree char *file = g_build_filename (path, "doc.txt", NULL);
      g_autofree char *sub = g_build_filename (path, "lib", NULL);
      g_autofree char *inner = g_build_filename (sub, "libc.so.6", NULL);
      g_autofree char *link = g_build_filename (path, "outside", NULL);

      g_assert_true (g_file_set_contents (file, "text", -1, NULL));
      g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
      g_assert_true (g_file_set_contents (inner, "elf", -1, NULL));
      /* A link out of the folder is removed, not followed. */
      g_assert_cmpint (symlink (directory, link), ==, 0);
    }
  return path;
}

/* kill -9 of a run with the save probe or the small-files load left their
 * folders in the target: the next run's start removes those of dead runs
 * (name + PID + start time), notes them, and leaves everything else. */
static void
test_leftovers_removed (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *save_name = g_strdup_printf ("resprobe-save-%d-12345-a1B2c3", dead_pid ());
  g_autofree char *files_name = g_strdup_printf ("resprobe-files-%d-12345-Zz9yX8", dead_pid ());
  g_autofree char *live_name = g_strdup_printf ("resprobe-save-%d-%" G_GUINT64_FORMAT "-q1w2e3", (int) getpid (),
                                                rp_proc_start_time ((int) getpid ()));
  g_autofree char *stale_save = make_folder (f->directory, save_name, TRUE);
  g_autofree char *stale_files = make_folder (f->directory, files_name, FALSE);
  g_autofree char *live = make_folder (f->directory, live_name, FALSE);
  g_autofree char *old_style = make_folder (f->directory, "resprobe-save-a1B2c3", FALSE);
  /* Not a name of ours (its random part is not six characters). */
  g_autofree char *users = make_folder (f->directory, "resprobe-save-1-2-notours", FALSE);
  g_autofree char *template = rp_run_folder_template (f->directory, "files");
  const char *removed;

  /* What a run names its own folders: alive while it runs. */
  g_assert_nonnull (g_mkdtemp_full (template, 0700));
  g_assert_false (rp_run_folder_is_stale (strrchr (template, '/') + 1));
  g_assert_true (rp_run_folder_is_stale (save_name));
  g_assert_false (rp_run_folder_is_stale (live_name));
  g_assert_false (rp_run_folder_is_stale ("resprobe-save-a1B2c3"));
  g_assert_false (rp_run_folder_is_stale ("resprobe-4242-12345-0"));

  rp_params_set_seconds (scenario->params, "fsync_interval", 0.5);
  scenario->duration = 1;
  session = rp_test_start_session (f, scenario, &error);
  g_main_loop_run (f->loop);
  g_assert_no_error (error);
  report = rp_report_new_from_session (session);
  removed = g_hash_table_lookup (rp_report_get_notes (report), RP_NOTE_LEFTOVERS_REMOVED);
  g_test_message ("removed: %s", removed);
  g_assert_nonnull (removed);
  g_assert_nonnull (strstr (removed, save_name));
  g_assert_nonnull (strstr (removed, files_name));
  g_assert_false (g_file_test (stale_save, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (stale_files, G_FILE_TEST_EXISTS));
  /* The target itself, which the link pointed at, is still there. */
  g_assert_true (g_file_test (f->directory, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (live, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (old_style, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (users, G_FILE_TEST_IS_DIR));
  g_assert_true (g_file_test (template, G_FILE_TEST_IS_DIR));
  g_assert_cmpint (g_rmdir (live), ==, 0);
  g_assert_cmpint (g_rmdir (old_style), ==, 0);
  g_assert_cmpint (g_rmdir (users), ==, 0);
  g_assert_cmpint (g_rmdir (template), ==, 0);
}

/* The baseline (issue 18): the system sampler runs alone first, the writer
 * only after it; the report keeps its length, through JSON too, and a
 * report without the member (every report before it) has none. Ordering of
 * samples, not a clock: the writer sleeps the baseline before it starts. */
static void
test_baseline (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(RpReport) reloaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree RpPoint *writer = NULL, *cpu = NULL;
  g_autofree char *json = NULL;
  g_autoptr(GString) old = NULL;
  guint n_writer = 0, n_cpu = 0, n_cpu_before = 0;

  rp_params_set_size (scenario->params, "writer_total_size", 4 * RP_MiB);
  rp_params_set_seconds (scenario->params, "baseline", 1.5);
  scenario->stop_when_loads_finish = TRUE;
  rp_scenario_clear_role (scenario, RP_PART_PROBE);
  rp_scenario_set_part (scenario, "system", TRUE);
  session = rp_test_run_until_finished (f, scenario);
  g_assert_cmpfloat (rp_session_get_baseline (session), ==, 1.5);
  report = rp_report_new_from_session (session);
  g_assert_cmpfloat (rp_report_get_baseline (report), ==, 1.5);
  g_assert_cmpfloat (rp_report_get_duration (report), >=, 1.5);

  writer = rp_series_copy_points (rp_report_lookup_series (report, "writer_bytes"), 0, &n_writer);
  cpu = rp_series_copy_points (rp_report_lookup_series (report, "cpu_user"), 0, &n_cpu);
  g_assert_cmpuint (n_writer, >=, 1);
  for (guint i = 0; i < n_writer; i++)
    g_assert_cmpfloat (writer[i].t, >=, 1.5);
  for (guint i = 0; i < n_cpu; i++)
    n_cpu_before += cpu[i].t < 1.5;
  g_assert_cmpuint (n_cpu_before, >=, 1);

  json = rp_report_to_json (report, NULL);
  g_assert_nonnull (strstr (json, "\"baseline\" : 1.5"));
  reloaded = rp_report_load_from_data (json, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (rp_report_get_baseline (reloaded), ==, 1.5);
  g_clear_object (&reloaded);

  /* A report of before the baseline: none. One beyond its run: an error
   * naming the key. */
  old = g_string_new (json);
  g_string_replace (old, "\"baseline\" : 1.5,", "", 1);
  reloaded = rp_report_load_from_data (old->str, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpfloat (rp_report_get_baseline (reloaded), ==, 0);
  g_string_assign (old, json);
  g_string_replace (old, "\"baseline\" : 1.5,", "\"baseline\" : 1e6,", 1);
  g_assert_null (rp_report_load_from_data (old->str, -1, &error));
  g_assert_nonnull (strstr (error->message, "“baseline”"));
}

static void
expect_start_error (Fixture     *f,
                    RpScenario  *scenario,
                    const char  *directory,
                    int          code)
{
  g_autoptr(RpSession) session = NULL;
  g_autoptr(GError) error = NULL;

  session = rp_session_new (scenario);
  if (directory != NULL)
    {
      g_free (scenario->directory);
      scenario->directory = g_strdup (directory);
      g_clear_object (&session);
      session = rp_session_new (scenario);
    }
  rp_session_start_async (session, NULL, on_started, &error);
  while (error == NULL && rp_session_get_state (session) != RP_SESSION_FINISHED)
    g_main_context_iteration (NULL, TRUE);
  g_assert_error (error, RP_ERROR, code);
  g_test_message ("%s", error->message);
  g_assert_cmpint (rp_session_get_state (session), ==, RP_SESSION_FINISHED);
}

static void
test_start_errors (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autofree char *missing = g_build_filename (f->directory, "missing", NULL);
  g_autofree char *file = g_build_filename (f->directory, "a-file", NULL);

  expect_start_error (f, scenario, missing, RP_ERROR_TARGET);

  g_assert_true (g_file_set_contents (file, "x", 1, NULL));
  expect_start_error (f, scenario, file, RP_ERROR_TARGET);
  g_unlink (file);

  /* 1 PiB cannot fit: refused before anything is written. */
  rp_params_set_size (scenario->params, "writer_total_size", RP_GiB * 1024 * 1024);
  expect_start_error (f, scenario, f->directory, RP_ERROR_NO_SPACE);

  rp_params_set_size (scenario->params, "writer_total_size", RP_GiB);
  rp_params_set_size (scenario->params, "writer_block_size", 3);
  expect_start_error (f, scenario, f->directory, RP_ERROR_INVALID_ARGUMENT);
}

static void
on_start_cancelled (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  GError **error = user_data;

  g_assert_false (rp_session_start_finish (RP_SESSION (object), result, error));
}

/* A start cancelled while its thread prepares (the copy loop writes its
 * 64 MiB source there) runs nothing and leaves nothing behind, however far
 * the thread got: GTask reports the cancellation even when the thread ended
 * first. */
static void
test_start_cancelled (Fixture       *f,
                      gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R2", NULL);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(RpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) series = NULL;

  scenario->directory = g_strdup (f->directory);
  rp_params_set_size (scenario->params, "copy_source_size", 64 * RP_MiB);
  rp_params_set_seconds (scenario->params, "cpu_calibration", 0.5);
  session = rp_session_new (scenario);
  rp_session_start_async (session, cancellable, on_start_cancelled, &error);
  g_cancellable_cancel (cancellable);
  while (error == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (rp_session_get_state (session), ==, RP_SESSION_FINISHED);
  series = rp_session_get_series (session);
  g_assert_cmpuint (series->len, ==, 0);
  g_assert_cmpuint (rp_test_count_entries (f->directory), ==, 0);
}

typedef struct {
  GMutex   lock;
  GCond    cond;
  gboolean gone;
  GThread *finalized_on;
} Release;

static void
on_session_gone (gpointer  data,
                 GObject  *where_the_object_was)
{
  Release *release = data;

  g_mutex_lock (&release->lock);
  release->gone = TRUE;
  release->finalized_on = g_thread_self ();
  g_cond_broadcast (&release->cond);
  g_mutex_unlock (&release->lock);
}

/* Drops the owner's reference and asserts that the session is finalised on
 * the owner's thread: its start, stop and closer threads are joined before
 * the owner hears from them. A thread that still held a reference finalised
 * the session after the owner had gone on, and in resprobe-cli, which
 * exits at once after a failed start check, while the process exited.
 * What the owner's context still holds (a second stop request's pending
 * call) goes when the context dispatches it: the loop dispatches, and
 * waits a while between rounds for a finalisation on another thread. */
static void
assert_released_by_owner (RpSession *session)
{
  Release release = { 0 };

  g_mutex_init (&release.lock);
  g_cond_init (&release.cond);
  g_object_weak_ref (G_OBJECT (session), on_session_gone, &release);
  g_object_unref (session);
  g_mutex_lock (&release.lock);
  while (!release.gone)
    {
      g_mutex_unlock (&release.lock);
      while (g_main_context_iteration (NULL, FALSE))
        ;
      g_mutex_lock (&release.lock);
      if (!release.gone)
        g_cond_wait_until (&release.cond, &release.lock, g_get_monotonic_time () + 10 * G_TIME_SPAN_MILLISECOND);
    }
  g_mutex_unlock (&release.lock);
  g_assert_true (release.finalized_on == g_thread_self ());
  g_cond_clear (&release.cond);
  g_mutex_clear (&release.lock);
}

/* Twenty times: the start thread's last steps race the owner, which lost
 * about one race in two before the join. */
static void
test_released_after_start_error (Fixture       *f,
                                 gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);

  g_free (scenario->directory);
  scenario->directory = g_build_filename (f->directory, "missing", NULL);
  for (guint i = 0; i < 20; i++)
    {
      g_autoptr(GError) error = NULL;
      RpSession *session = rp_session_new (scenario);

      rp_session_start_async (session, NULL, on_started, &error);
      while (error == NULL)
        g_main_context_iteration (NULL, TRUE);
      g_assert_error (error, RP_ERROR, RP_ERROR_TARGET);
      assert_released_by_owner (session);
    }
}

/* The same after a run that ended: the stop's thread and the closer. */
static void
test_released_after_stop (Fixture       *f,
                          gconstpointer  data)
{
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, NULL, "fsync", 1);

      assert_released_by_owner (rp_test_run_session (f, scenario));
      g_assert_cmpuint (rp_test_count_entries (f->directory), ==, 0);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/session/r1-ten-seconds", Fixture, NULL, rp_test_fixture_set_up, test_r1_ten_seconds, rp_test_fixture_tear_down);
  g_test_add ("/session/stop-during-writer", Fixture, NULL, rp_test_fixture_set_up, test_stop_during_writer, rp_test_fixture_tear_down);
  g_test_add ("/session/stop-while-preparing", Fixture, NULL, rp_test_fixture_set_up, test_stop_while_preparing, rp_test_fixture_tear_down);
  g_test_add ("/session/leftovers-removed", Fixture, NULL, rp_test_fixture_set_up, test_leftovers_removed, rp_test_fixture_tear_down);
  g_test_add ("/session/writer-exact-size", Fixture, NULL, rp_test_fixture_set_up, test_writer_exact_size, rp_test_fixture_tear_down);
  g_test_add ("/session/baseline", Fixture, NULL, rp_test_fixture_set_up, test_baseline, rp_test_fixture_tear_down);
  g_test_add ("/session/start-errors", Fixture, NULL, rp_test_fixture_set_up, test_start_errors, rp_test_fixture_tear_down);
  g_test_add ("/session/start-cancelled", Fixture, NULL, rp_test_fixture_set_up, test_start_cancelled, rp_test_fixture_tear_down);
  g_test_add ("/session/released-after-start-error", Fixture, NULL, rp_test_fixture_set_up,
              test_released_after_start_error, rp_test_fixture_tear_down);
  g_test_add ("/session/released-after-stop", Fixture, NULL, rp_test_fixture_set_up,
              test_released_after_stop, rp_test_fixture_tear_down);
  return g_test_run ();
}
