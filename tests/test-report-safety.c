/* test-report-safety.c: a report from a stranger is data: loading, showing and comparing it runs nothing and writes nothing. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>

#include <glib/gstdio.h>

#include "rp-report.h"
#include "rp-test-fixture.h"

/* A report whose scenario asks for a command that would leave a marker, and
 * for the loads that write into a directory of the victim's. */
static char *
write_hostile_report (const char *report_dir,
                      const char *victim_dir,
                      const char *marker)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *json = NULL;
  g_autofree char *command = g_strdup_printf ("touch %s", marker);
  char *path = g_build_filename (report_dir, "hostile.json", NULL);
  const char *argv[] = { "/bin/sh", "-c", command, NULL };

  rp_scenario_set_part (scenario, "command", TRUE);
  rp_scenario_set_part (scenario, "copy-loop", TRUE);
  rp_scenario_set_part (scenario, "parallel-writers", TRUE);
  rp_params_set_argv (scenario->params, "command_argv", argv);
  g_free (scenario->directory);
  scenario->directory = g_strdup (victim_dir);
  report = rp_report_new (NULL, scenario, NULL, NULL);
  json = rp_report_to_json (report, NULL);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
  return path;
}

static void
test_hostile_report_runs_nothing (void)
{
  g_autofree char *report_dir = g_dir_make_tmp ("resprobe-report-XXXXXX", NULL);
  g_autofree char *victim_dir = g_dir_make_tmp ("resprobe-victim-XXXXXX", NULL);
  g_autofree char *marker = g_build_filename (victim_dir, "pwned", NULL);
  g_autofree char *path = write_hostile_report (report_dir, victim_dir, marker);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReport) loaded = rp_report_load (file, &error);
  g_autoptr(GPtrArray) both = g_ptr_array_new ();
  g_autofree char *text = NULL, *csv = NULL, *json = NULL, *compare = NULL, *verdict = NULL;
  g_autofree char *describe = NULL;
  const RpScenario *scenario;
  RpStats stats;
  int status;

  g_assert_no_error (error);
  g_assert_nonnull (loaded);

  /* The command is kept, so that a reader can see what was run… */
  scenario = rp_report_get_scenario (loaded);
  g_assert_true (rp_scenario_has_part (scenario, "command"));
  g_assert_cmpstr (rp_params_get_argv (scenario->params, "command_argv")[0], ==, "/bin/sh");
  g_assert_cmpstr (scenario->directory, ==, victim_dir);

  /* … and every way of looking at the report leaves it at that. */
  text = rp_report_to_text (loaded);
  csv = rp_report_to_csv (loaded);
  json = rp_report_to_json (loaded, NULL);
  verdict = rp_report_get_verdict (loaded);
  describe = rp_scenario_describe (scenario);
  rp_report_get_stats (loaded, RP_SERIES_FSYNC_LATENCY, &stats);
  g_ptr_array_add (both, loaded);
  g_ptr_array_add (both, loaded);
  compare = rp_report_compare_text (both);
  g_assert_nonnull (strstr (describe, marker));

  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (rp_test_count_entries (victim_dir), ==, 0);
  g_assert_cmpuint (rp_test_count_entries (report_dir), ==, 1);
  /* No child was ever started, not even one that exited at once. */
  g_assert_cmpint (waitpid (-1, &status, WNOHANG), ==, -1);
  g_assert_cmpint (errno, ==, ECHILD);

  g_assert_no_errno (g_unlink (path));
  g_assert_no_errno (g_rmdir (report_dir));
  g_assert_no_errno (g_rmdir (victim_dir));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-safety/hostile-report-runs-nothing", test_hostile_report_runs_nothing);
  return g_test_run ();
}
