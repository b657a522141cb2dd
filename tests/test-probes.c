/* test-probes.c: the probes and loads of issue 19 on a real directory, nothing left behind. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <string.h>

#include "rp-error.h"
#include "rp-session.h"
#include "rp-units.h"
#include "rp-test-fixture.h"

typedef RpTestFixture Fixture;

/* At least one sample, in time order, within the run, finite and >= 0. */
static void
assert_samples (RpSession  *session,
                const char *name)
{
  RpSeries *series = rp_session_lookup_series (session, name);
  double elapsed = rp_session_get_elapsed (session);
  g_autofree RpPoint *points = NULL;
  guint n = 0;

  g_assert_nonnull (series);
  points = rp_series_copy_points (series, 0, &n);
  g_assert_cmpuint (n, >=, 1);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (points[i].t, >=, 0);
      g_assert_cmpfloat (points[i].t, <=, elapsed + 0.001);
      g_assert_true (i == 0 || points[i].t >= points[i - 1].t);
      g_assert_true (isfinite (points[i].v));
      g_assert_cmpfloat (points[i].v, >=, 0);
    }
}

/* A load's CPU time note: some CPU was used (the loads read or wrote), and
 * no thread used more CPU than the time it ran (a thread's CPU clock cannot
 * pass its wall time; 10 ms for the clocks' granularity). */
static void
assert_cpu_note (RpSession  *session,
                 const char *cpu_key,
                 const char *seconds_key,
                 guint       n_threads)
{
  const char *cpu_text = rp_test_get_note (session, cpu_key);
  const char *seconds_text = rp_test_get_note (session, seconds_key);
  double cpu = g_ascii_strtod (cpu_text, NULL);
  double seconds = g_ascii_strtod (seconds_text, NULL);

  g_assert_cmpfloat (cpu, >, 0);
  g_assert_cmpfloat (cpu, <=, seconds * n_threads + 0.01);
}

/* Readers read their files again and again: more bytes than one file. */
static void
test_seq_readers (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, "seq-readers", NULL, 2);
  g_autoptr(RpSession) session = NULL;

  rp_params_set_size (scenario->params, "readers_count", 2);
  rp_params_set_size (scenario->params, "readers_file_size", 4 * RP_MiB);
  session = rp_test_run_session (f, scenario);

  assert_samples (session, "readers_throughput");
  g_assert_cmpuint (rp_test_get_number_note (session, "readers_bytes_total"), >, 0);
  assert_cpu_note (session, "readers_cpu_seconds", "readers_seconds", 2);
  g_test_message ("readers: %" G_GUINT64_FORMAT " bytes, %" G_GUINT64_FORMAT " passes",
                  rp_test_get_number_note (session, "readers_bytes_total"), rp_test_get_number_note (session, "readers_passes"));
}

static void
test_random_writer (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, "random-writer", NULL, 2);
  g_autoptr(RpSession) session = NULL;
  guint64 bytes;

  rp_params_set_size (scenario->params, "random_file_size", 16 * RP_MiB);
  session = rp_test_run_session (f, scenario);

  assert_samples (session, "random_writer_throughput");
  bytes = rp_test_get_number_note (session, "random_writer_bytes_total");
  g_assert_cmpuint (bytes, >, 0);
  g_assert_cmpuint (bytes % (4 * RP_KiB), ==, 0);
  assert_cpu_note (session, "random_writer_cpu_seconds", "random_writer_seconds", 1);
}

/* Small files and syncfs() together; the folder of files is gone afterwards
 * (the fixture asserts an empty directory). */
static void
test_small_files_sync (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, "small-files", "sync", 2.5);
  g_autoptr(RpSession) session = NULL;

  rp_params_set_seconds (scenario->params, "sync_interval", 0.5);
  session = rp_test_run_session (f, scenario);

  assert_samples (session, "small_files_rate");
  assert_samples (session, "syncfs_latency");
  g_assert_cmpuint (rp_test_get_number_note (session, "small_files_created"), >, 0);
}

/* `true` started cold and cached: its binary is evicted (no other process
 * maps it) and mincore() finds it out of the cache after the eviction. */
static void
test_app_start_cold (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, NULL, "app-start", 1.5);
  g_autoptr(RpSession) session = NULL;
  g_autofree char *program = g_find_program_in_path ("true");
  const char *stayed;
  const char *argv[] = { "true", NULL };

  rp_params_set_argv (scenario->params, "app_start_program", argv);
  rp_params_set_seconds (scenario->params, "app_start_interval", 0.2);
  session = rp_test_run_session (f, scenario);

  assert_samples (session, "app_start_latency");
  assert_samples (session, "app_start_cached_latency");
  g_assert_cmpuint (rp_test_get_number_note (session, "app_start_files"), >=, 2);       /* true, libc, ld.so */
  g_assert_cmpuint (rp_test_get_number_note (session, "app_start_files_evicted"), >=, 1);
  stayed = rp_test_get_note (session, "app_start_stayed_cached");
  g_assert_null (strstr (stayed, program));
}

/* On target: the copy is started from the folder under test, and removed. */
static void
test_app_start_on_target (Fixture       *f,
                          gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, NULL, "app-start", 1.5);
  g_autoptr(RpSession) session = NULL;
  const char *copied;
  const char *argv[] = { "true", "--ignored-argument", NULL };

  rp_params_set_argv (scenario->params, "app_start_program", argv);
  rp_params_set_flag (scenario->params, "app_start_on_target", TRUE);
  rp_params_set_seconds (scenario->params, "app_start_interval", 0.2);
  session = rp_test_run_session (f, scenario);

  assert_samples (session, "app_start_latency");
  copied = rp_test_get_note (session, "app_start_copied_to");
  g_assert_true (g_str_has_prefix (copied, f->directory));
  g_assert_false (g_file_test (copied, G_FILE_TEST_EXISTS));
}

/* A program that fails did not start: the run fails saying so, before it
 * begins (the discovery run in prepare). */
static void
test_app_start_failing (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, NULL, "app-start", 5);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  const char *failing[] = { "sh", "-c", "echo no display here >&2; exit 3", NULL };

  rp_params_set_argv (scenario->params, "app_start_program", failing);
  session = rp_test_run_to_end (f, scenario, &error);
  if (error == NULL)
    error = g_error_copy (rp_session_get_error (session));
  g_assert_error (error, RP_ERROR, RP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "status 3"));
  g_assert_nonnull (strstr (error->message, "no display here"));
}

static void
test_app_start_missing (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, NULL, "app-start", 5);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(GError) error = NULL;
  const char *missing[] = { "resprobe-no-such-program", NULL };

  rp_params_set_argv (scenario->params, "app_start_program", missing);
  session = rp_test_run_to_end (f, scenario, &error);
  if (error == NULL)
    error = g_error_copy (rp_session_get_error (session));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "resprobe-no-such-program"));
}

/* The command's own CPU and wall time: a shell counting to 200000 uses CPU
 * time of its own, and cannot have used more of one CPU than it lived. */
static void
test_command_usage (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, "command", NULL, 600);
  g_autoptr(RpSession) session = NULL;
  const char *argv[] = { "sh", "-c", "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done", NULL };
  const char *user, *system, *wall;

  rp_params_set_argv (scenario->params, "command_argv", argv);
  scenario->stop_when_loads_finish = TRUE;
  session = rp_test_run_session (f, scenario);

  user = rp_test_get_note (session, "command_user_seconds");
  system = rp_test_get_note (session, "command_system_seconds");
  wall = rp_test_get_note (session, "command_wall_seconds");
  g_test_message ("command: user %s s, system %s s, wall %s s", user, system, wall);
  g_assert_cmpfloat (g_ascii_strtod (user, NULL) + g_ascii_strtod (system, NULL), >, 0);
  g_assert_cmpfloat (g_ascii_strtod (user, NULL), <=, g_ascii_strtod (wall, NULL) + 0.01);
}

/* Each save's whole time is the sum of its four steps; the document's
 * folder is gone afterwards (the fixture asserts an empty directory). */
static void
test_save_open (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, NULL, "save", 1.5);
  g_autoptr(RpSession) session = NULL;
  const char *steps[] = { "save_write_latency", "save_fsync_latency", "save_rename_latency",
                          "save_folder_fsync_latency" };
  g_autofree RpPoint *whole = NULL;
  guint n = 0;

  rp_scenario_set_part (scenario, "open", TRUE);
  rp_params_set_seconds (scenario->params, "save_interval", 0.2);
  rp_params_set_seconds (scenario->params, "open_interval", 0.2);
  rp_params_set_size (scenario->params, "open_file_size", RP_MiB);
  session = rp_test_run_session (f, scenario);

  assert_samples (session, "save_latency");
  assert_samples (session, "open_latency");
  whole = rp_series_copy_points (rp_session_lookup_series (session, "save_latency"), 0, &n);
  for (guint i = 0; i < n; i++)
    {
      double sum = 0;

      for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
        {
          g_autofree RpPoint *points = NULL;
          guint m = 0;

          points = rp_series_copy_points (rp_session_lookup_series (session, steps[k]), 0, &m);
          g_assert_cmpuint (m, ==, n);
          g_assert_cmpfloat (points[i].t, ==, whole[i].t);
          sum += points[i].v;
        }
      g_assert_cmpfloat (fabs (sum - whole[i].v), <, 1e-9);
    }
}

/* The integral of a rate series over its samples' periods, the first
 * period taken as @first_period. */
static double
integral (RpSeries *series,
          double    first_period)
{
  guint n = 0;
  g_autofree RpPoint *points = rp_series_copy_points (series, 0, &n);
  double sum = 0;

  for (guint i = 0; i < n; i++)
    sum += points[i].v * (i == 0 ? first_period : points[i].t - points[i - 1].t);
  return sum;
}

/* The disk sampler's figures agree with one another (issue 31: device
 * figures from diskstats, bytes and their rates): what its write and read
 * rates add up to over the run is the total it notes, bytes of 512-byte
 * sectors, and the writer's 16 MiB, flushed with fdatasync, are in it. */
static void
test_disk_figures (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(RpScenario) scenario = rp_test_new_scenario (f, "seq-writer", "disk", 3);
  g_autoptr(RpSession) session = NULL;
  double period = 0.5, written, read, write_sum, read_sum;
  RpSeries *writes, *reads;

  rp_scenario_set_part (scenario, "cold-read", TRUE);
  rp_params_set_size (scenario->params, "writer_total_size", 16 * RP_MiB);
  rp_params_set_flag (scenario->params, "writer_fdatasync", TRUE);
  rp_params_set_size (scenario->params, "cold_read_file_size", 4 * RP_MiB);
  rp_params_set_seconds (scenario->params, "cold_read_interval", 0.05);
  rp_params_set_seconds (scenario->params, "disk_period", period);
  session = rp_test_run_session (f, scenario);

  writes = rp_session_lookup_series (session, "disk_write_throughput");
  reads = rp_session_lookup_series (session, "disk_read_throughput");
  if (writes == NULL || rp_test_get_note (session, "disk_write_bytes_total") == NULL)
    {
      g_test_skip ("the target's folder is on no block device the disk sampler can read");
      return;
    }
  written = (double) rp_test_get_number_note (session, "disk_write_bytes_total");
  read = (double) rp_test_get_number_note (session, "disk_read_bytes_total");
  write_sum = integral (writes, period);
  read_sum = integral (reads, period);
  g_test_message ("device wrote %.0f B (rates' sum %.0f), read %.0f B (rates' sum %.0f)",
                  written, write_sum, read, read_sum);
  g_assert_cmpfloat (written, >=, 16 * RP_MiB);
  /* The totals are the rates' sum up to the length of the first period
   * and of the last look's (other programs' I/O there): within a third. */
  g_assert_cmpfloat (write_sum, >=, written * 2 / 3);
  g_assert_cmpfloat (write_sum, <=, written * 4 / 3);
  g_assert_cmpfloat (fmod (written, 512), ==, 0);
  g_assert_cmpfloat (fmod (read, 512), ==, 0);
  if (read > 64 * RP_KiB)
    {
      g_assert_cmpfloat (read_sum, >=, read * 2 / 3);
      g_assert_cmpfloat (read_sum, <=, read * 4 / 3);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add ("/loads/seq-readers", Fixture, NULL, rp_test_fixture_set_up, test_seq_readers, rp_test_fixture_tear_down);
  g_test_add ("/loads/random-writer", Fixture, NULL, rp_test_fixture_set_up, test_random_writer, rp_test_fixture_tear_down);
  g_test_add ("/loads/small-files-sync", Fixture, NULL, rp_test_fixture_set_up, test_small_files_sync, rp_test_fixture_tear_down);
  g_test_add ("/probes/app-start-cold", Fixture, NULL, rp_test_fixture_set_up, test_app_start_cold, rp_test_fixture_tear_down);
  g_test_add ("/probes/app-start-on-target", Fixture, NULL, rp_test_fixture_set_up, test_app_start_on_target, rp_test_fixture_tear_down);
  g_test_add ("/probes/app-start-failing", Fixture, NULL, rp_test_fixture_set_up, test_app_start_failing, rp_test_fixture_tear_down);
  g_test_add ("/probes/app-start-missing", Fixture, NULL, rp_test_fixture_set_up, test_app_start_missing, rp_test_fixture_tear_down);
  g_test_add ("/loads/command-usage", Fixture, NULL, rp_test_fixture_set_up, test_command_usage, rp_test_fixture_tear_down);
  g_test_add ("/probes/save-open", Fixture, NULL, rp_test_fixture_set_up, test_save_open, rp_test_fixture_tear_down);
  g_test_add ("/probes/disk-figures", Fixture, NULL, rp_test_fixture_set_up, test_disk_figures, rp_test_fixture_tear_down);
  return g_test_run ();
}
