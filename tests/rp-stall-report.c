/* rp-stall-report.c: a report with fsync stalls put in, as another run's file has them, for the stall and Why tests. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <json-glib/json-glib.h>
#include <unistd.h>

#include "rp-report.h"
#include "rp-scenario.h"
#include "rp-stall-report.h"

const char rp_stall_report_two_stalls[] =
  "[{\"series\": \"fsync_latency\", \"start\": 2.0, \"duration\": 9.85, \"source\": \"stack\","
  "  \"blkio_delay\": null, \"breakdown\": ["
  "    {\"site\": \"jbd2_log_wait_commit\", \"seconds\": 9.7},"
  "    {\"site\": \"running\", \"seconds\": 0.1}]},"
  " {\"series\": \"fsync_latency\", \"start\": 14.0, \"duration\": 0.5, \"source\": \"stack\","
  "  \"blkio_delay\": 0.25, \"breakdown\": [{\"site\": \"folio_wait_writeback\", \"seconds\": 0.5}]}]";

/* R1's series over 20 s: fsync with the stalls' calls, the device's await
 * and one journal commit of 9 s that overlaps the first stall. */
static GPtrArray *
stall_series (RpStallReportFlags flags)
{
  GPtrArray *series = g_ptr_array_new_with_free_func (g_object_unref);
  RpSeries *fsync = rp_series_new ("fsync_latency", "s", NULL);
  RpSeries *await = rp_series_new ("disk_await", "s", NULL);
  RpSeries *commit = rp_series_new ("journal_commit", "s", NULL);
  RpSeries *dirty = (flags & RP_STALL_REPORT_BUSY) ? rp_series_new ("dirty_bytes", "B", NULL) : NULL;

  for (double t = 0.5; t < 20; t += 0.5)
    {
      if (flags & RP_STALL_REPORT_CALM_CALLS)
        rp_series_append (fsync, t, 0.004);
      rp_series_append (await, t, 0.003);
      if (dirty != NULL)
        rp_series_append (dirty, t, 3.9e9);
    }
  rp_series_append (fsync, 2.0, 9.85);
  rp_series_append (fsync, 14.0, 0.5);
  if (flags & RP_STALL_REPORT_BUSY)
    rp_series_append (fsync, 16.0, 0.3);
  rp_series_append (commit, 1.5, 9.0);
  g_ptr_array_add (series, fsync);
  g_ptr_array_add (series, await);
  g_ptr_array_add (series, commit);
  if (dirty != NULL)
    g_ptr_array_add (series, dirty);
  return series;
}

/**
 * rp_stall_report_json:
 * @stalls: (nullable): the report's "stalls", JSON text (e.g.
 *   rp_stall_report_two_stalls); %NULL for none
 * @version: the report format's version it claims (RP_REPORT_VERSION, or
 *   an older one)
 * @flags: which series besides
 *
 * A report of scenario R1 with @stalls put in as they are, valid or not, so
 * that the reader's checks are what is tested. The test fails if @stalls
 * is no JSON.
 *
 * Returns: (transfer full): the report's JSON text
 */
char *
rp_stall_report_json (const char         *stalls,
                      int                 version,
                      RpStallReportFlags  flags)
{
  g_autoptr(GPtrArray) series = stall_series (flags);

  return rp_stall_report_json_with (stalls, version, series);
}

/**
 * rp_stall_report_json_with:
 * @stalls: (nullable): the report's "stalls", JSON text; %NULL for none
 * @version: the report format's version it claims
 * @series: (element-type RpSeries): the run's series
 *
 * rp_stall_report_json() with series of the caller's: a run made up to
 * hold what a judgement is tested on (issue 31's ground truth in small).
 *
 * Returns: (transfer full): the report's JSON text
 */
char *
rp_stall_report_json_with (const char *stalls,
                           int         version,
                           GPtrArray  *series)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpReport) report = rp_report_new (NULL, scenario, series, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *json = rp_report_to_json (report, NULL);
  JsonObject *root;

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  json_object_set_int_member (root, "version", version);
  json_object_remove_member (root, "stalls");
  if (stalls != NULL)
    {
      g_autoptr(JsonParser) inner = json_parser_new ();

      g_assert_true (json_parser_load_from_data (inner, stalls, -1, NULL));
      json_object_set_member (root, "stalls", json_node_copy (json_parser_get_root (inner)));
    }
  json_generator_set_root (generator, json_parser_get_root (parser));
  return json_generator_to_data (generator, NULL);
}

/**
 * rp_stall_report_write:
 * @stalls: (nullable): as for rp_stall_report_json()
 * @flags: as for rp_stall_report_json()
 * @name_template: the file's name in the temporary folder, with XXXXXX
 *   (g_file_open_tmp()), e.g. "test-gui-why-XXXXXX.json"
 *
 * The report of rp_stall_report_json() at the current version, as a
 * file; the test fails if it cannot be written.
 *
 * Returns: (transfer full): its path; the caller removes the file
 */
char *
rp_stall_report_write (const char         *stalls,
                       RpStallReportFlags  flags,
                       const char         *name_template)
{
  g_autofree char *json = rp_stall_report_json (stalls, RP_REPORT_VERSION, flags);
  g_autoptr(GError) error = NULL;
  char *path = NULL;
  int fd = g_file_open_tmp (name_template, &path, &error);

  g_assert_no_error (error);
  close (fd);
  g_file_set_contents (path, json, -1, &error);
  g_assert_no_error (error);
  return path;
}
