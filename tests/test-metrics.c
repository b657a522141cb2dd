/* test-metrics.c: the monitor's metrics (issue 22): fixed buckets, harvest of a real session, exposition text. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>
#include <string.h>

#include "rp-metrics.h"
#include "rp-part-host.h"
#include "rp-scenario.h"
#include "rp-sysinfo-private.h"
#include "rp-session.h"
#include "rp-test-fixture.h"

typedef RpTestFixture Fixture;

/* The bounds are 10^(k/4) s from 10 µs to 100 s, 4 significant digits:
 * the same everywhere, with the stall limits among them. */
static void
test_bounds (void)
{
  g_assert_cmpuint (RP_METRICS_N_BOUNDS, ==, 29);
  g_assert_cmpfloat (rp_metrics_get_bound (0), ==, 1e-5);
  g_assert_cmpfloat (rp_metrics_get_bound (1), ==, 1.778e-5);
  g_assert_cmpfloat (rp_metrics_get_bound (16), ==, 0.1);
  g_assert_cmpfloat (rp_metrics_get_bound (18), ==, 0.3162);
  g_assert_cmpfloat (rp_metrics_get_bound (20), ==, 1.0);
  g_assert_cmpfloat (rp_metrics_get_bound (24), ==, 10.0);
  g_assert_cmpfloat (rp_metrics_get_bound (28), ==, 100.0);
  for (guint i = 1; i < RP_METRICS_N_BOUNDS; i++)
    g_assert_cmpfloat (rp_metrics_get_bound (i), >, rp_metrics_get_bound (i - 1));

  /* `le`: a value equal to a bound is in that bucket. */
  g_assert_cmpuint (rp_metrics_bucket_of (0), ==, 0);
  g_assert_cmpuint (rp_metrics_bucket_of (0.1), ==, 16);
  g_assert_cmpuint (rp_metrics_bucket_of (0.1001), ==, 17);
  g_assert_cmpuint (rp_metrics_bucket_of (1000), ==, RP_METRICS_N_BOUNDS);
}

/* Labels as the exposition format escapes them; a folder that could not
 * start is down. */
static void
test_labels (void)
{
  g_autoptr(RpMetrics) metrics = rp_metrics_new ();
  RpSysinfo sysinfo = { 0 };
  g_autofree char *text = NULL;

  sysinfo.fs_type = (char *) "ext4";
  sysinfo.journal_mode = (char *) "ordered";
  sysinfo.scheduler = (char *) "bfq";
  sysinfo.kernel_release = (char *) "6.1.0";
  rp_metrics_begin_session (metrics, "/srv/a\"b\\c\nd", &sysinfo);
  rp_metrics_set_up (metrics, "/gone", FALSE);
  rp_metrics_add_period (metrics);
  text = rp_metrics_to_text (metrics);
  g_assert_nonnull (strstr (text, "resprobe_monitor_up{folder=\"/srv/a\\\"b\\\\c\\nd\"} 1\n"));
  g_assert_nonnull (strstr (text, "resprobe_monitor_up{folder=\"/gone\"} 0\n"));
  g_assert_nonnull (strstr (text, "resprobe_monitor_periods_total 1\n"));
  g_assert_nonnull (strstr (text, "# TYPE resprobe_stall_causes_total counter\n"));
  /* No latency measured yet: no histogram. */
  g_assert_null (strstr (text, "_bucket"));
}

/* A real session's fsync samples, harvested twice and across a new
 * session: each counted once, the counts cumulative, the labels the
 * snapshot's, the journal mode one spelling. */
static void
test_harvest (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(RpMetrics) metrics = rp_metrics_new ();
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("custom", NULL);
  g_autoptr(GError) error = NULL;
  guint64 total = 0;
  double sum = 0;

  scenario->directory = g_strdup (f->directory);
  rp_scenario_clear_role (scenario, RP_PART_LOAD);
  rp_scenario_clear_role (scenario, RP_PART_PROBE);
  rp_scenario_set_part (scenario, "fsync", TRUE);
  rp_params_set_seconds (scenario->params, "fsync_interval", 0.05);
  rp_params_set_size (scenario->params, "fsync_size", 4096);
  scenario->duration = 1;

  for (guint run = 0; run < 2; run++)
    {
      g_autoptr(RpSession) session = rp_test_start_session (f, scenario, &error);
      g_autofree char *text = NULL;
      g_autofree char *count_line = NULL;
      g_autofree char *inf_line = NULL;
      const RpSysinfo *sysinfo;
      RpSysinfo labelled;
      RpSeries *series;

      g_assert_no_error (error);
      /* The snapshot is there once the session runs (or a short one ended). */
      while (rp_session_get_sysinfo (session) == NULL)
        g_main_context_iteration (NULL, TRUE);
      sysinfo = rp_session_get_sysinfo (session);
      /* The mode the kernel chose by default, then the same mode named in
       * the mount options: one label value for both. */
      labelled = *sysinfo;
      labelled.journal_mode = (char *) (run == 0 ? "ordered (default)" : "ordered");
      rp_metrics_begin_session (metrics, f->directory, &labelled);
      while (rp_session_get_state (session) != RP_SESSION_FINISHED)
        {
          g_main_context_iteration (NULL, TRUE);
          rp_metrics_harvest (metrics, f->directory, session);
        }
      rp_metrics_harvest (metrics, f->directory, session);
      rp_metrics_harvest (metrics, f->directory, session);
      series = rp_session_lookup_series (session, "fsync_latency");
      g_assert_nonnull (series);
      g_assert_cmpuint (rp_series_get_length (series), >, 0);
      total += rp_series_get_length (series);
      {
        guint n = 0;
        g_autofree double *values = rp_series_copy_values (series, &n);

        for (guint i = 0; i < n; i++)
          sum += values[i];
      }

      text = rp_metrics_to_text (metrics);
      count_line = g_strdup_printf ("_count{folder=\"%s\",fs=\"%s\"", f->directory,
                                    sysinfo->fs_type ? sysinfo->fs_type : "unknown");
      g_assert_nonnull (strstr (text, count_line));
      count_line = (g_free (count_line), g_strdup_printf ("} %" G_GUINT64_FORMAT "\n", total));
      inf_line = g_strdup_printf ("le=\"+Inf\"} %" G_GUINT64_FORMAT "\n", total);
      g_assert_nonnull (strstr (text, inf_line));
      /* Issue 31: the histogram's _sum is the seconds of every sample, as
       * Prometheus' rate(_sum) / rate(_count) is their mean. */
      {
        g_autofree char *sum_key = g_strdup_printf ("resprobe_fsync_latency_seconds_sum{folder=\"%s\"", f->directory);
        const char *line = strstr (text, sum_key);
        const char *value;

        g_assert_nonnull (line);
        value = strchr (line, '}');
        g_assert_nonnull (value);
        g_test_message ("_sum %s, samples' sum %.9g", value + 2, sum);
        g_assert_cmpfloat_with_epsilon (g_ascii_strtod (value + 2, NULL), sum, 1e-9 * MAX (sum, 1));
        g_assert_cmpfloat (sum, >, 0);
      }
      g_assert_nonnull (strstr (text, "# TYPE resprobe_fsync_latency_seconds histogram\n"));
      g_assert_nonnull (strstr (text, "threshold_seconds=\"0.1\""));
      g_assert_nonnull (strstr (text, ",le=\"1e-05\"} "));
      g_assert_nonnull (strstr (text, ",journal_mode=\"ordered\","));
      g_assert_null (strstr (text, "(default)"));
    }
  g_assert_cmpuint (rp_test_count_entries (f->directory), ==, 0);
}

/* The stall counters by value: a sample of exactly 0.1 s or 1 s is no
 * stall over it (a stall is over the limit, rp-stats.h), and each limit
 * counts its own. */
static void
test_stall_counts (void)
{
  g_autoptr(RpMetrics) metrics = rp_metrics_new ();
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("custom", NULL);
  g_autoptr(RpSession) session = rp_session_new (scenario);
  RpSeries *fsync = rp_part_host_ensure_series (RP_PART_HOST (session), "fsync_latency", "s", "fsync latency");
  const double values[] = { 0.004, 0.1, 0.25, 1.0, 1.5, 12.0 };
  g_autofree char *text = NULL;
  const char *folder = "/nonexistent/truth";

  g_autoptr(RpSysinfo) sysinfo = rp_sysinfo_new ();
  const char *sum;

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    rp_series_append (fsync, 0.5 * (i + 1), values[i]);
  rp_metrics_begin_session (metrics, folder, sysinfo);
  rp_metrics_harvest (metrics, folder, session);
  text = rp_metrics_to_text (metrics);
  g_test_message ("%s", text);
  g_assert_nonnull (strstr (text, "series=\"fsync_latency\",threshold_seconds=\"0.1\"} 4\n"));
  g_assert_nonnull (strstr (text, "series=\"fsync_latency\",threshold_seconds=\"1\"} 2\n"));
  g_assert_nonnull (strstr (text, "series=\"fsync_latency\",threshold_seconds=\"10\"} 1\n"));
  sum = strstr (text, "resprobe_fsync_latency_seconds_sum{");
  g_assert_nonnull (sum);
  g_assert_cmpfloat_with_epsilon (g_ascii_strtod (strstr (sum, "} ") + 2, NULL), 14.854, 1e-9);
  g_assert_nonnull (strstr (strstr (text, "resprobe_fsync_latency_seconds_count{"), "} 6\n"));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/metrics/bounds", test_bounds);
  g_test_add_func ("/metrics/labels", test_labels);
  g_test_add_func ("/metrics/stall-counts", test_stall_counts);
  g_test_add ("/metrics/harvest", Fixture, NULL, rp_test_fixture_set_up, test_harvest, rp_test_fixture_tear_down);
  return g_test_run ();
}
