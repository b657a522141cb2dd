/* test-report.c: RpReport: JSON round trip, text and CSV, atomic save, hostile input. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <fcntl.h>
#include <locale.h>
#include <math.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "rp-error.h"
#include "rp-report.h"
#include "rp-report-private.h"
#include "rp-sysinfo-private.h"
#include "rp-test-fixture.h"
#include "rp-text.h"
#include "rp-units.h"

/* The first fsync sample of make_report() as json-glib writes it in a
 * version 1 report (RP_REPORT_ENCODING_ARRAYS): one number a line, 17
 * significant digits. Tests that edit samples in the text use that
 * encoding; version 2 writes them in blocks. */
#define SAMPLE_0 "[\n          1.0,\n          0.54220000000000002\n        ]"

/* fsync times of R1 (ext3, data=ordered, amd64) from docs/SCENARIOS.md. */
#define to_json_v1(report) rp_report_to_json_encoded ((report), RP_REPORT_ENCODING_ARRAYS, NULL)

static const double r1_ext3_ordered[] = { 0.5422, 6.37, 8.60, 0.78, 0.77, 4.66, 5.60, 9.42, 10.86 };
/* ... and of ext4 with data=writeback. */
static const double r1_ext4_writeback[] = { 0.08, 0.06, 1.70, 1.47, 1.60, 1.78, 1.92, 1.49, 1.40, 1.83 };

static RpSysinfo *
make_sysinfo (const char *fs_type,
              const char *journal_mode)
{
  RpSysinfo *sysinfo = rp_sysinfo_new ();

  sysinfo->kernel_release = g_strdup ("6.1.0-18-amd64");
  sysinfo->machine = g_strdup ("x86_64");
  sysinfo->userspace_bits = 64;
  sysinfo->distribution = g_strdup ("Debian GNU/Linux 12 (bookworm)");
  sysinfo->cpu_model = g_strdup ("Intel(R) Core(TM) i7-8550U CPU @ 1.80GHz");
  sysinfo->cpu_count = 2;
  sysinfo->ram_bytes = G_GUINT64_CONSTANT (8) << 30;
  sysinfo->target_directory = g_strdup ("/home/someone/.cache/resprobe");
  sysinfo->mount_point = g_strdup ("/");
  sysinfo->fs_type = g_strdup (fs_type);
  /* Longer than a line, without spaces: the text report must wrap it. */
  sysinfo->mount_options = g_strdup_printf ("rw,relatime,errors=remount-ro,data=%s,barrier=1,"
                                            "commit=5,journal_checksum,journal_async_commit,"
                                            "inode_readahead_blks=64,stripe=256", journal_mode);
  sysinfo->journal_mode = g_strdup (journal_mode);
  sysinfo->source_device = g_strdup ("/dev/sda2");
  sysinfo->whole_disk = g_strdup ("sda");
  sysinfo->scheduler = g_strdup ("mq-deadline");
  sysinfo->available_schedulers = g_strdup ("none mq-deadline kyber bfq");
  sysinfo->rotational = 1;
  sysinfo->dirty_ratio = g_strdup ("20");
  sysinfo->dirty_background_ratio = g_strdup ("10");
  sysinfo->dirty_bytes = g_strdup ("0");
  sysinfo->dirty_background_bytes = g_strdup ("0");
  sysinfo->dirty_expire_centisecs = g_strdup ("3000");
  sysinfo->dirty_writeback_centisecs = g_strdup ("500");
  sysinfo->wbt_lat_usec = g_strdup ("75000");
  return sysinfo;
}

static RpSeries *
make_series (const char   *name,
             const char   *unit,
             const double *values,
             guint         n_values,
             double        t0,
             double        dt)
{
  RpSeries *series = rp_series_new (name, unit, NULL);

  for (guint i = 0; i < n_values; i++)
    rp_series_append (series, t0 + dt * i, values[i]);
  return series;
}

/* A report as R1 on ext3 data=ordered would give, with the kinds of series
 * a real run has: latencies, a throughput, a size, a ratio, an empty one. */
static RpReport *
make_report_full (const char   *fs_type,
                  const char   *journal_mode,
                  const double *fsync,
                  guint         n_fsync)
{
  static const double rates[] = { 95e6, 80e6, 24e6, 24.5e6, 23e6, 0 };
  static const double dirty[] = { 0, 1 << 20, 512 << 20, 1610612736.0 };
  static const double iowait[] = { 0.02, 0.5, 0.97, 1.0, 0.333333333333333 };
  static const double lateness[] = { 0.0004, 0.0012, 0.42, 0.25, 0.15, 0.0009 };
  g_autoptr(RpSysinfo) sysinfo = make_sysinfo (fs_type, journal_mode);
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) notes = g_hash_table_new (g_str_hash, g_str_equal);

  g_assert_nonnull (scenario);
  g_ptr_array_add (series, make_series (RP_SERIES_FSYNC_LATENCY, "s", fsync, n_fsync, 1.0, 1.7));
  g_ptr_array_add (series, make_series (RP_SERIES_WRITER_THROUGHPUT, "B/s", rates,
                                        G_N_ELEMENTS (rates), 0.5, 0.5));
  g_ptr_array_add (series, make_series ("dirty_bytes", "B", dirty, G_N_ELEMENTS (dirty), 0.5, 0.5));
  g_ptr_array_add (series, make_series ("cpu_iowait", "ratio", iowait, G_N_ELEMENTS (iowait), 0.5, 0.5));
  g_ptr_array_add (series, make_series (RP_SERIES_MAINLOOP_LATENESS, "s", lateness,
                                        G_N_ELEMENTS (lateness), 0.01, 0.01));
  g_ptr_array_add (series, rp_series_new ("cold_read_latency", "s", "Cold read latency"));
  g_hash_table_insert (notes, (char *) "comment", (char *) "Laptop on battery; \"quoted\", tab\there");
  g_hash_table_insert (notes, (char *) "display", (char *) "wayland");

  return rp_report_new (sysinfo, scenario, series, notes);
}

static RpReport *
make_report (void)
{
  return make_report_full ("ext3", "ordered", r1_ext3_ordered, G_N_ELEMENTS (r1_ext3_ordered));
}

static void
assert_stats_equal (const RpStats *a,
                    const RpStats *b)
{
  g_assert_cmpuint (a->n, ==, b->n);
  g_assert_cmpfloat (a->min, ==, b->min);
  g_assert_cmpfloat (a->max, ==, b->max);
  g_assert_cmpfloat (a->mean, ==, b->mean);
  g_assert_cmpfloat (a->stddev, ==, b->stddev);
  g_assert_cmpfloat (a->p50, ==, b->p50);
  g_assert_cmpfloat (a->p90, ==, b->p90);
  g_assert_cmpfloat (a->p99, ==, b->p99);
  g_assert_cmpfloat (a->p999, ==, b->p999);
  g_assert_cmpuint (a->over_instant, ==, b->over_instant);
  g_assert_cmpuint (a->over_flow, ==, b->over_flow);
  g_assert_cmpuint (a->over_attention, ==, b->over_attention);
}

static char *
node_to_string (JsonNode *node)
{
  g_autoptr(JsonNode) owned = node;

  return json_to_string (owned, FALSE);
}

/* Everything a report holds, compared exactly (doubles bit for bit). */
static void
assert_reports_equal (RpReport *a,
                      RpReport *b)
{
  GPtrArray *sa = rp_report_get_series (a);
  GPtrArray *sb = rp_report_get_series (b);
  g_autofree char *system_a = node_to_string (rp_sysinfo_to_json (rp_report_get_sysinfo (a)));
  g_autofree char *system_b = node_to_string (rp_sysinfo_to_json (rp_report_get_sysinfo (b)));
  g_autofree char *scenario_a = node_to_string (rp_scenario_to_json (rp_report_get_scenario (a)));
  g_autofree char *scenario_b = node_to_string (rp_scenario_to_json (rp_report_get_scenario (b)));
  GHashTableIter iter;
  gpointer key, value;

  g_assert_true (g_date_time_equal (rp_report_get_created (a), rp_report_get_created (b)));
  g_assert_cmpfloat (rp_report_get_duration (a), ==, rp_report_get_duration (b));
  g_assert_cmpstr (rp_report_get_error_message (a), ==, rp_report_get_error_message (b));
  g_assert_cmpstr (system_a, ==, system_b);
  g_assert_cmpstr (scenario_a, ==, scenario_b);

  g_assert_cmpuint (g_hash_table_size (rp_report_get_notes (a)), ==,
                    g_hash_table_size (rp_report_get_notes (b)));
  g_hash_table_iter_init (&iter, rp_report_get_notes (a));
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_assert_cmpstr (value, ==, g_hash_table_lookup (rp_report_get_notes (b), key));

  g_assert_cmpuint (sa->len, ==, sb->len);
  for (guint i = 0; i < sa->len; i++)
    {
      RpSeries *x = g_ptr_array_index (sa, i);
      RpSeries *y = g_ptr_array_index (sb, i);
      g_autofree RpPoint *px = NULL;
      g_autofree RpPoint *py = NULL;
      guint nx = 0, ny = 0;
      RpStats stats_x, stats_y;

      g_assert_cmpstr (rp_series_get_name (x), ==, rp_series_get_name (y));
      g_assert_cmpstr (rp_series_get_unit (x), ==, rp_series_get_unit (y));
      g_assert_cmpstr (rp_series_get_title (x), ==, rp_series_get_title (y));
      px = rp_series_copy_points (x, 0, &nx);
      py = rp_series_copy_points (y, 0, &ny);
      g_assert_cmpuint (nx, ==, ny);
      if (nx > 0)
        g_assert_cmpmem (px, nx * sizeof (RpPoint), py, ny * sizeof (RpPoint));

      g_assert_true (rp_report_get_stats (a, rp_series_get_name (x), &stats_x));
      g_assert_true (rp_report_get_stats (b, rp_series_get_name (y), &stats_y));
      assert_stats_equal (&stats_x, &stats_y);
    }
}

static RpReport *
load_ok (const char *json,
         gssize      length)
{
  g_autoptr(GError) error = NULL;
  RpReport *report = rp_report_load_from_data (json, length, &error);

  g_assert_no_error (error);
  g_assert_nonnull (report);
  return report;
}

static void
test_json_round_trip (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json_again = NULL;
  g_autofree char *json_v1 = NULL;
  g_autoptr(RpReport) loaded_v1 = NULL;
  gsize length = 0;
  RpStats stats;

  json = rp_report_to_json (report, &length);
  g_assert_cmpuint (length, ==, strlen (json));
  g_assert_true (g_str_has_prefix (json, "{\n  \"format\" : \"resprobe-report\",\n  \"version\" : 2,\n"));
  g_assert_true (g_str_has_suffix (json, "\n}\n"));
  g_assert_true (g_utf8_validate (json, (gssize) length, NULL));
  g_assert_nonnull (strstr (json, "\"generator\" : \"resprobe " PACKAGE_VERSION "\""));
  g_assert_nonnull (strstr (json, "\"error\" : null"));
  g_assert_nonnull (strstr (json, "      \"count\" : 9,\n      \"blocks\" : [\n        \"eA"));
  g_assert_null (strstr (json, "\"samples\""));
  g_assert_nonnull (strstr (json, "\"p99_9\" : "));
  g_assert_nonnull (strstr (json, "\"over_10s\" : 1"));
  /* Stall counts of a throughput would mean nothing. */
  g_assert_nonnull (strstr (json, "\"over_10s\" : null"));
  /* The notes' tab is escaped; the keys are sorted. */
  g_assert_nonnull (strstr (json, "\"comment\" : \"Laptop on battery; \\\"quoted\\\", tab\\there\",\n    \"display\""));
  g_assert_null (strstr (json, "nan"));
  g_assert_null (strstr (json, "inf"));

  loaded = load_ok (json, (gssize) length);
  assert_reports_equal (report, loaded);

  /* What was loaded saves to the same bytes: nothing drifts on re-import. */
  json_again = rp_report_to_json (loaded, NULL);
  g_assert_cmpstr (json, ==, json_again);

  /* Version 1, every sample a JSON array, as reports were before: the
   * same report, and saved again as version 2, the same file. */
  json_v1 = to_json_v1 (report);
  g_assert_true (g_str_has_prefix (json_v1, "{\n  \"format\" : \"resprobe-report\",\n  \"version\" : 1,\n"));
  g_assert_nonnull (strstr (json_v1, "      \"samples\" : [\n        " SAMPLE_0 ",\n"));
  loaded_v1 = load_ok (json_v1, -1);
  assert_reports_equal (report, loaded_v1);
  g_clear_pointer (&json_again, g_free);
  json_again = rp_report_to_json (loaded_v1, NULL);
  g_assert_cmpstr (json, ==, json_again);

  g_assert_true (rp_report_get_stats (loaded, RP_SERIES_FSYNC_LATENCY, &stats));
  g_assert_cmpuint (stats.n, ==, 9);
  g_assert_cmpfloat (stats.max, ==, 10.86);
  g_assert_cmpuint (stats.over_flow, ==, 6);
  g_assert_false (rp_report_get_stats (loaded, "no_such_series", &stats));
  g_assert_cmpuint (stats.n, ==, 0);
  g_assert_nonnull (rp_report_lookup_series (loaded, "cold_read_latency"));
  g_assert_cmpuint (rp_series_get_length (rp_report_lookup_series (loaded, "cold_read_latency")), ==, 0);
  /* The duration covers the last sample. */
  g_assert_cmpfloat (rp_report_get_duration (report), >=, 1.0 + 1.7 * 8);
}

static void
assert_load_fails (const char *data,
                   gssize      length,
                   const char *expected_in_message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReport) report = rp_report_load_from_data (data, length, &error);

  g_assert_null (report);
  g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
  g_assert_true (g_utf8_validate (error->message, -1, NULL));
  if (expected_in_message != NULL && strstr (error->message, expected_in_message) == NULL)
    g_error ("error “%s” lacks “%s”", error->message, expected_in_message);
}

/* Doubles that need all 17 digits, extremes, integral values, and those
 * that %.17g prints with an exponent but no '.' (json-glib 1.6 would write
 * "1e-10.0", which no JSON parser reads). The largest double is written as
 * well, but refused on loading (RP_REPORT_MAX_VALUE): the round trip is
 * that of the others. */
static void
test_json_numbers (void)
{
  static const double values[] = {
    0.1 + 0.2, 1.0 / 3.0, 5e-324, 2.2250738585072014e-308,
    -0.0, 2.0, 1e21, 123456789.123456789, -42.5, 1e-10, 2e17, -1e-300,
  };
  static const double largest[] = { 1.7976931348623157e308 };
  g_autoptr(GPtrArray) too_large = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(RpReport) refused = NULL;
  g_autofree char *refused_json = NULL;
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(RpReport) report = NULL;
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json_v2 = NULL;
  g_autoptr(RpReport) loaded_v2 = NULL;

  g_ptr_array_add (series, make_series ("odd_numbers", "", values, G_N_ELEMENTS (values),
                                        1.0 / 7.0, 1.0 / 3.0));
  report = rp_report_new (NULL, scenario, series, NULL);
  json = to_json_v1 (report);
  g_assert_nonnull (strstr (json, "0.30000000000000004"));
  g_assert_nonnull (strstr (json, " 2.0\n"));
  g_assert_nonnull (strstr (json, " -0.0\n"));
  g_assert_nonnull (strstr (json, " 1e+21\n"));
  g_assert_nonnull (strstr (json, " 1e-10\n"));
  g_assert_nonnull (strstr (json, " 2e+17\n"));
  g_assert_nonnull (strstr (json, " -1e-300\n"));
  g_assert_false (g_regex_match_simple ("[eE][-+]?[0-9]+\\.", json, 0, 0));
  loaded = load_ok (json, -1);
  assert_reports_equal (report, loaded);
  /* Blocks keep them bit for bit too: -0.0, subnormals, 17 digits. */
  json_v2 = rp_report_to_json (report, NULL);
  loaded_v2 = load_ok (json_v2, -1);
  assert_reports_equal (report, loaded_v2);

  g_ptr_array_add (too_large, make_series ("largest", "", largest, 1, 0, 1));
  refused = rp_report_new (NULL, scenario, too_large, NULL);
  refused_json = to_json_v1 (refused);
  g_assert_nonnull (strstr (refused_json, " 1.7976931348623157e+308\n"));
  assert_load_fails (refused_json, -1, "Series “largest”, sample 0:");
  g_clear_pointer (&refused_json, g_free);
  refused_json = rp_report_to_json (refused, NULL);
  assert_load_fails (refused_json, -1, "Series “largest”, sample 0:");
}

/* JSON is UTF-8; a directory may be any bytes. */
static void
test_json_invalid_utf8 (void)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GHashTable) notes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(RpReport) report = NULL;
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *json = NULL;

  g_free (scenario->directory);
  scenario->directory = g_strdup ("/mnt/caf\xe9");
  g_hash_table_insert (notes, (char *) "comment", (char *) "bad \xff byte");
  report = rp_report_new (NULL, scenario, NULL, notes);
  json = rp_report_to_json (report, NULL);
  g_assert_true (g_utf8_validate (json, -1, NULL));
  loaded = load_ok (json, -1);
  g_assert_cmpstr (rp_report_get_scenario (loaded)->directory, ==, "/mnt/caf\xef\xbf\xbd");
  g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (loaded), "comment"), ==, "bad \xef\xbf\xbd byte");
}

static char *
replace_once (const char *text,
              const char *from,
              const char *to)
{
  const char *at = strstr (text, from);

  g_assert_nonnull (at);
  return g_strdup_printf ("%.*s%s%s", (int) (at - text), text, to, at + strlen (from));
}

/* The file's summary is ignored: the numbers come from the samples. */
static void
test_json_summary_not_trusted (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autofree char *json = rp_report_to_json (report, NULL);
  g_autofree char *forged = NULL;
  g_autofree char *forged2 = NULL;
  g_autofree char *cut = NULL;
  g_autofree char *no_summary = NULL;
  g_autofree char *with_error = NULL;
  g_autoptr(RpReport) loaded = NULL;
  g_autoptr(RpReport) loaded2 = NULL;
  g_autoptr(RpReport) loaded3 = NULL;
  g_autofree char *json_error = NULL;
  g_autoptr(RpReport) loaded4 = NULL;
  RpStats stats;

  forged = replace_once (json, "\"summary\" : {\n    \"fsync_latency\" : {",
                         "\"summary\" : {\n    \"fsync_latency\" : {\"n\": 1, \"max\": 0.01}, \"x\" : {");
  loaded = load_ok (forged, -1);
  rp_report_get_stats (loaded, RP_SERIES_FSYNC_LATENCY, &stats);
  g_assert_cmpuint (stats.n, ==, 9);
  g_assert_cmpfloat (stats.max, ==, 10.86);
  g_clear_object (&loaded);
  forged2 = replace_once (json, "\"summary\" : {", "\"summary\" : [\"anything\"], \"ignored\" : {");
  loaded = load_ok (forged2, -1);
  assert_reports_equal (report, loaded);

  cut = g_strndup (json, strstr (json, ",\n  \"summary\"") - json);
  no_summary = g_strconcat (cut, "\n}\n", NULL);
  loaded2 = load_ok (no_summary, -1);
  assert_reports_equal (report, loaded2);

  /* The fatal error of a run survives the round trip. */
  with_error = replace_once (json, "\"error\" : null",
                             "\"error\" : \"Writing “/mnt/x”: No space left on device\"");
  loaded3 = load_ok (with_error, -1);
  g_assert_cmpstr (rp_report_get_error_message (loaded3), ==,
                   "Writing “/mnt/x”: No space left on device");
  json_error = rp_report_to_json (loaded3, NULL);
  loaded4 = load_ok (json_error, -1);
  assert_reports_equal (loaded3, loaded4);
}

/* A hand-edited file may have samples out of time order; RpSeries needs order. */
static void
test_json_unsorted_samples (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autofree char *json = to_json_v1 (report);
  g_autofree char *edited = replace_once (json, SAMPLE_0 ",", "[100.0, 0.5422],");
  g_autoptr(RpReport) loaded = load_ok (edited, -1);
  g_autofree RpPoint *points = NULL;
  guint n = 0;

  points = rp_series_copy_points (rp_report_lookup_series (loaded, RP_SERIES_FSYNC_LATENCY), 0, &n);
  g_assert_cmpuint (n, ==, 9);
  for (guint i = 1; i < n; i++)
    g_assert_cmpfloat (points[i - 1].t, <=, points[i].t);
  /* RpSeries keeps times as float offsets within a chunk. */
  g_assert_cmpfloat_with_epsilon (points[n - 1].t, 100.0, 1e-4);
  g_assert_cmpfloat (points[n - 1].v, ==, 0.5422);
  g_assert_cmpfloat (rp_report_get_duration (loaded), >=, 100.0);
}

/* The text of these (English, Latin-script) reports fits in @width bytes a
 * line, as mawk's length() and `wc -L` in the C locale count, not only in
 * @width columns; and its spaces are plain ones, so that `grep '1.0 MiB'`
 * finds "1.0 MiB". */
static void
assert_lines_fit (const char *text,
                  gsize       width)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      if (strlen (lines[i]) > width)
        g_error ("line %u is %zu bytes long: “%s”", i + 1, strlen (lines[i]), lines[i]);
      g_assert_true (g_utf8_validate (lines[i], -1, NULL));
      g_assert_null (strchr (lines[i], '\t'));
      for (const char *p = lines[i]; *p != '\0'; p = g_utf8_next_char (p))
        if (g_unichar_type (g_utf8_get_char (p)) == G_UNICODE_SPACE_SEPARATOR && *p != ' ')
          g_error ("line %u has U+%04X, not a plain space: “%s”", i + 1, g_utf8_get_char (p), lines[i]);
    }
}

static void
assert_verdict (RpReport   *report,
                const char *expected)
{
  g_autofree char *verdict = rp_report_get_verdict (report);

  if (strstr (verdict, expected) == NULL)
    g_error ("verdict “%s” lacks “%s”", verdict, expected);
}

static void
test_text (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autofree char *text = rp_report_to_text (report);

  if (g_test_verbose ())
    g_printerr ("%s", text);

  assert_lines_fit (text, 80);
  g_assert_true (g_str_has_prefix (text, "Responsiveness Probe report\n===="));
  g_assert_true (g_str_has_suffix (text, "\n"));
  /* Exactly the fsync-tester's lines, in sample order. */
  g_assert_nonnull (strstr (text, "\nfsync time: 0.5422\nfsync time: 6.3700\nfsync time: 8.6000\n"));
  g_assert_true (g_str_has_suffix (text, "fsync time: 10.8600\n"));
  /* The long mount options are wrapped, not cut. */
  g_assert_nonnull (strstr (text, "journal_checksum,"));
  g_assert_nonnull (strstr (text, "stripe=256"));
  g_assert_nonnull (strstr (text, "Laptop on battery; \"quoted\", tab here"));
  g_assert_nonnull (strstr (text, "\nVerdict\n-------\nfsync stalled 6 of 9 times over 1 s; worst 10.86 s. 1"));
  assert_verdict (report, "fsync stalled 6 of 9 times over 1 s; worst 10.86 s. 1 of them took over 10 s");
  assert_verdict (report, "The probe window’s main loop stalled 3 of 6 times over 0.1 s; worst 420 ms.");
  /* The summary lists series with samples, in their units. */
  g_assert_nonnull (strstr (text, "writer_throughput"));
  g_assert_nonnull (strstr (text, "MiB/s"));
  /* A plain space before the unit (g_format_size() puts a no-break one). */
  g_assert_nonnull (strstr (text, "1.5 GiB"));
  g_assert_nonnull (strstr (text, "100.0 %"));
  g_assert_null (strstr (text, "cold_read_latency"));
}

/* Latencies in µs (2 bytes, 1 column) fill the value columns and names too
 * long for theirs: every line still fits 80 bytes, not only 80 columns,
 * and the columns still line up on a terminal. */
static void
test_text_bytes (void)
{
  static const double tiny[] = { 0.000412, 0.000842, 0.000951, 0.000733, 0.000999 };
  static const double sizes[] = { 1 << 20, 1536.0 * (1 << 20) };
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(RpReport) report = NULL;
  g_autofree char *text = NULL;
  g_autofree char *summary = NULL;
  g_auto(GStrv) lines = NULL;
  gsize p50_column = 0;

  g_ptr_array_add (series, make_series ("fsync_latency_of_the_probe_on_the_slow_disk_x", "s",
                                        tiny, G_N_ELEMENTS (tiny), 0, 1));
  g_ptr_array_add (series, make_series ("write_latency_of_writer_thread_number_twelve", "s",
                                        tiny, G_N_ELEMENTS (tiny), 0, 1));
  g_ptr_array_add (series, make_series ("short", "s", tiny, G_N_ELEMENTS (tiny), 0, 1));
  g_ptr_array_add (series, make_series ("dirty_bytes", "B", sizes, G_N_ELEMENTS (sizes), 0, 1));
  report = rp_report_new (NULL, scenario, series, NULL);
  text = rp_report_to_text (report);
  summary = rp_report_to_summary_text (report);
  if (g_test_verbose ())
    g_printerr ("%s", text);

  assert_lines_fit (text, 80);
  assert_lines_fit (summary, 80);
  g_assert_nonnull (strstr (text, "1.0 MiB"));
  g_assert_nonnull (strstr (text, "1.5 GiB"));
  g_assert_nonnull (strstr (text, "842 µs"));
  /* Right-aligned in columns: every "µs" of the p50 column ends where the
   * header "p50" does, as a terminal shows them. */
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *p50 = strstr (lines[i], "p50");

      if (g_str_has_prefix (lines[i], "Latency") && p50 != NULL)
        p50_column = g_utf8_pointer_to_offset (lines[i], p50) + 3;
      else if (p50_column > 0 && strstr (lines[i], "µs") != NULL)
        {
          const char *end = g_utf8_offset_to_pointer (lines[i], (glong) p50_column - 2);

          g_assert_true (g_str_has_prefix (end, "µs"));
        }
    }
  g_assert_cmpuint (p50_column, >, 0);
}

/* Wrapping keeps a number with its unit where it can ("every 0.5 s", not
 * "every 0.5" and "s" on the next line), and counts "µ" as the 2 bytes it
 * is; a run without any break is still cut. */
static void
test_text_wrap (void)
{
  g_autoptr(GPtrArray) units = rp_text_wrap_lines ("system sampler every 0.5 s; writer 1.0 MiB", 24);
  g_autoptr(GPtrArray) micro = rp_text_wrap_lines ("µµµµµµµµµµ µµµµ", 20);
  g_autoptr(GPtrArray) digits = rp_text_wrap_lines ("1 2 3 4 5 6 7 8 9 10 11 12", 10);

  g_assert_cmpuint (units->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (units, 0), ==, "system sampler every");
  g_assert_cmpstr (g_ptr_array_index (units, 1), ==, "0.5 s; writer 1.0 MiB");
  g_assert_cmpuint (micro->len, ==, 2);
  g_assert_cmpuint (strlen (g_ptr_array_index (micro, 0)), ==, 20);
  g_assert_cmpuint (rp_text_width (g_ptr_array_index (micro, 0)), ==, 10);
  g_assert_cmpuint (rp_text_length ("µs"), ==, 3);
  g_assert_cmpuint (rp_text_length ("отчёт"), ==, 5);
  for (guint i = 0; i < digits->len; i++)
    g_assert_cmpuint (strlen (g_ptr_array_index (digits, i)), <=, 10);
}

/* East Asian wide characters take two columns of a terminal line, combining
 * marks none: a Chinese or Japanese line of 80 holds 40 of them, and a table
 * aligns them by their columns. */
static void
test_text_wide (void)
{
  g_autoptr(GPtrArray) lines = rp_text_wrap_lines ("日本語日本語", 8);

  g_assert_cmpuint (rp_text_width ("日本語"), ==, 6);
  g_assert_cmpuint (rp_text_length ("日本語"), ==, 6);
  g_assert_cmpuint (rp_text_width ("e\xcc\x81t\xc3\xa9"), ==, 3);
  g_assert_cmpuint (rp_text_width ("ab"), ==, 2);
  g_assert_cmpuint (lines->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (lines, 0), ==, "日本語日");
  g_assert_cmpstr (g_ptr_array_index (lines, 1), ==, "本語");
}

/* Checks @text wrapped at every width from 8 to 70: lines fit, nothing is
 * lost, a decimal comma never ends a line ("1," then "0 MiB"), and every
 * word (between spaces; @text has no comma before a letter) that fits on a
 * line is on one line whole. */
static void
assert_wraps_at_spaces (const char *text)
{
  g_auto(GStrv) words = g_strsplit (text, " ", -1);
  g_autofree char *no_spaces = g_strjoinv ("", words);

  for (gsize width = 8; width <= 70; width++)
    {
      g_autoptr(GPtrArray) lines = rp_text_wrap_lines (text, width);
      g_autoptr(GString) joined = g_string_new (NULL);

      for (guint i = 0; i < lines->len; i++)
        {
          const char *line = g_ptr_array_index (lines, i);
          gsize n = strlen (line);

          g_assert_cmpuint (rp_text_length (line), <=, width);
          for (const char *c = line; *c != '\0'; c++)
            if (*c != ' ')
              g_string_append_c (joined, *c);
          if (i + 1 < lines->len && n >= 2 && line[n - 1] == ',' && g_ascii_isdigit (line[n - 2]))
            g_assert_false (g_ascii_isdigit (*(const char *) g_ptr_array_index (lines, i + 1)));
        }
      for (guint w = 0; words[w] != NULL; w++)
        {
          gboolean whole = FALSE;

          if (rp_text_length (words[w]) > width)
            continue;
          for (guint i = 0; i < lines->len && !whole; i++)
            {
              g_auto(GStrv) on_line = g_strsplit (g_ptr_array_index (lines, i), " ", -1);

              whole = g_strv_contains ((const char *const *) on_line, words[w]);
            }
          if (!whole)
            g_error ("“%s” split at width %" G_GSIZE_FORMAT, words[w], width);
        }
      /* Only spaces are lost at the breaks. */
      g_assert_cmpstr (joined->str, ==, no_spaces);
    }
}

/* Translations with a decimal comma: "bs=1,0 MiB" is a number, not a list,
 * and the old wrapper broke after its comma. A word with a hyphen stays
 * whole unless it is longer than a line; then it breaks after the hyphen
 * rather than anywhere. */
static void
test_text_wrap_translations (void)
{
  static const char decimal[] = "bs=1,0 MiB, 64,0 MiB, gepuffert; fsync-Sonde 1,0 MiB alle 0,5 s; "
                                "Systemmessung alle 0,5 s; bis zum Anhalten";
  static const char hyphen[] = "parallele Schreiber, 4 Threads mit write()-Aufrufen zu 64,0 KiB";
  g_autoptr(GPtrArray) at_15 = rp_text_wrap_lines (decimal, 15);
  g_autoptr(GPtrArray) long_word = rp_text_wrap_lines (hyphen, 15);
  g_autoptr(GPtrArray) mount = rp_text_wrap_lines ("rw,relatime,resuid=65534,resgid=65534", 28);

  /* Before: "bs=1,0 MiB, 64," and "0 MiB, gepuffert;". */
  g_assert_cmpstr (g_ptr_array_index (at_15, 0), ==, "bs=1,0 MiB,");
  g_assert_cmpstr (g_ptr_array_index (at_15, 1), ==, "64,0 MiB,");
  g_assert_cmpstr (g_ptr_array_index (at_15, 2), ==, "gepuffert;");
  /* Before: "write()-Aufrufe" and "n zu 64,0 KiB". */
  g_assert_cmpstr (g_ptr_array_index (long_word, 2), ==, "4 Threads mit");
  g_assert_cmpstr (g_ptr_array_index (long_word, 3), ==, "write()-");
  g_assert_cmpstr (g_ptr_array_index (long_word, 4), ==, "Aufrufen zu");
  g_assert_cmpstr (g_ptr_array_index (long_word, 5), ==, "64,0 KiB");
  /* Mount options have no spaces: a comma before a letter is a break. */
  g_assert_cmpuint (mount->len, ==, 2);
  g_assert_cmpstr (g_ptr_array_index (mount, 0), ==, "rw,relatime,resuid=65534,");
  g_assert_cmpstr (g_ptr_array_index (mount, 1), ==, "resgid=65534");

  assert_wraps_at_spaces (decimal);
  assert_wraps_at_spaces (hyphen);
  assert_wraps_at_spaces ("R3: równoległe wątki zapisu, 4 wątki z wywołaniami write() po 64,0 KiB, "
                          "każdy 64,0 MiB; sonda fsync 1,0 MiB co 1 s");
  assert_wraps_at_spaces ("R3: параллельные писатели, 4 потока с вызовами write() по 64,0 КиБ, "
                          "каждый по 64,0 МиБ; проба fsync 1,0 МиБ каждые 0,5 с");
}

/* The decimal point of the fsync lines, the JSON and the CSV stays a '.'. */
/* Issue 21, item 1: the PDF's notes for people. Labels from the notes'
 * table (this test binds no translation: the English ones), values in the
 * locale (a decimal comma in German), kernel names as they are; the
 * requests in flight counted with plurals. */
static void
test_notes_for_people (void)
{
  char *old = g_strdup (setlocale (LC_NUMERIC, NULL));
  g_autofree char *seconds = NULL, *bytes = NULL, *decimal = NULL, *count = NULL, *kernel = NULL;
  g_autofree char *word = NULL, *one = NULL, *none = NULL, *mean = NULL;
  g_autofree char *known = NULL, *wbt = NULL, *unknown = NULL;

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_free (old);
      g_test_skip ("de_DE.UTF-8 locale not available");
      return;
    }
  seconds = rp_report_note_value ("close_seconds", "0.055");
  bytes = rp_report_note_value ("memory_emulated_bytes", "4294967296");
  decimal = rp_report_note_value ("cpu_bench_loss_percent", "12.5");
  count = rp_report_note_value ("device_write_requests", "272");
  kernel = rp_report_note_value ("stall_source", "stack");
  word = rp_report_note_value ("ending_drained", "false");
  one = rp_format_value ("requests", 1);
  none = rp_format_value ("requests", 0);
  mean = rp_format_value ("requests", 2.5);
  setlocale (LC_NUMERIC, old);
  g_free (old);

  g_assert_cmpstr (seconds, ==, "55,0 ms");
  g_assert_cmpstr (bytes, ==, "4,0 GiB");
  g_assert_cmpstr (decimal, ==, "12,5");
  g_assert_cmpstr (count, ==, "272");
  g_assert_cmpstr (kernel, ==, "stack");
  g_assert_cmpstr (word, ==, "no");
  g_assert_cmpstr (one, ==, "1 request");
  g_assert_cmpstr (none, ==, "0 requests");
  g_assert_cmpstr (mean, ==, "2,5 requests");

  known = rp_report_note_label ("writer_pauses");
  wbt = rp_report_note_label ("wbt_lat_events");
  unknown = rp_report_note_label ("copy_bytes_total");
  g_assert_cmpstr (known, ==, "Dirty-page pauses (balance_dirty_pages)");
  g_assert_cmpstr (wbt, ==, "Writeback throttling events (wbt_lat)");
  g_assert_cmpstr (unknown, ==, "Copy bytes total");
}

static void
test_text_locale (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autofree char *text = NULL;
  g_autofree char *json = NULL;
  g_autofree char *csv = NULL;
  g_autoptr(RpReport) loaded = NULL;
  char *old = g_strdup (setlocale (LC_NUMERIC, NULL));

  if (setlocale (LC_NUMERIC, "de_DE.UTF-8") == NULL)
    {
      g_free (old);
      g_test_skip ("de_DE.UTF-8 locale not available");
      return;
    }
  text = rp_report_to_text (report);
  json = to_json_v1 (report);
  csv = rp_report_to_csv (report);
  loaded = load_ok (json, -1);
  setlocale (LC_NUMERIC, old);
  g_free (old);

  g_assert_nonnull (strstr (text, "\nfsync time: 0.5422\n"));
  g_assert_nonnull (strstr (json, SAMPLE_0));
  g_assert_nonnull (strstr (csv, "\nfsync_latency,1,0.5422\n"));
  assert_reports_equal (report, loaded);
}

static RpReport *
make_report_with (const char   *name,
                  const double *values,
                  guint         n_values)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);

  if (name != NULL)
    g_ptr_array_add (series, make_series (name, "s", values, n_values, 0, 1));
  return rp_report_new (NULL, scenario, series, NULL);
}

static void
test_verdict (void)
{
  static const double calm[] = { 0.01, 0.02, 0.05 };
  static const double one[] = { 0.01, 1.5, 0.05 };
  static const double loop[] = { 0.001, 0.42, 0.2, 0.15, 0.002 };
  static const double writes[] = { 0.001, 0.2, 3.5, 12.0 };
  g_autoptr(RpReport) calm_report = make_report_with (RP_SERIES_FSYNC_LATENCY, calm, 3);
  g_autoptr(RpReport) one_report = make_report_with (RP_SERIES_FSYNC_LATENCY, one, 3);
  g_autoptr(RpReport) loop_report = make_report_with (RP_SERIES_MAINLOOP_LATENESS, loop, 5);
  g_autoptr(RpReport) write_report = make_report_with (RP_SERIES_WRITE_LATENCY, writes, 4);
  g_autoptr(RpReport) empty_report = make_report_with (NULL, NULL, 0);

  assert_verdict (calm_report, "No stalls over 0.1 s: the system stayed responsive.");
  assert_verdict (one_report, "fsync stalled 1 of 3 times over 1 s; worst 1.50 s.");
  assert_verdict (loop_report, "The probe window’s main loop stalled 3 of 5 times over 0.1 s; worst 420 ms.");
  /* Its 4 samples are windows, and no write_calls note counts the calls:
   * no total, rather than windows called calls. */
  assert_verdict (write_report, "write() calls stalled 2 times over 1 s; worst 12.00 s. "
                                "1 of them took over 10 s");
  assert_verdict (empty_report, "No latency was measured");
}

/* A report of fsync @values, 1 s apart, whose run ended as @ended_by says
 * after 7 of the scenario's 10 s, with @notes' other notes. */
static RpReport *
make_ended_report (const double *values,
                   guint         n_values,
                   const char   *ended_by,
                   const char   *status)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) notes = g_hash_table_new (g_str_hash, g_str_equal);

  scenario->duration = 10;
  g_ptr_array_add (series, make_series (RP_SERIES_FSYNC_LATENCY, "s", values, n_values, 0, 1));
  if (ended_by != NULL)
    g_hash_table_insert (notes, (char *) "ended_by", (char *) ended_by);
  if (status != NULL)
    g_hash_table_insert (notes, (char *) "command_exit_status", (char *) status);
  return rp_report_new (NULL, scenario, series, notes);
}

/* Issue 21: a stopped run's verdict said "the system stayed responsive",
 * as if it had run its course; a failed load command went unsaid. The
 * short verdict, the full one and the text report's first lines say it. */
static void
test_verdict_ended (void)
{
  static const double calm[] = { 0.01, 0.02, 0.05, 0.01, 0.02, 0.05, 0.01, 0.02 };
  static const double stalled[] = { 0.01, 1.5, 0.05, 0.01, 0.02, 0.05, 0.01, 0.02 };
  g_autoptr(RpReport) stopped = make_ended_report (calm, G_N_ELEMENTS (calm), RP_ENDED_BY_REQUEST, NULL);
  g_autoptr(RpReport) stopped_stall = make_ended_report (stalled, G_N_ELEMENTS (stalled), RP_ENDED_BY_REQUEST, NULL);
  g_autoptr(RpReport) failed = make_ended_report (calm, G_N_ELEMENTS (calm), RP_ENDED_BY_ERROR, NULL);
  g_autoptr(RpReport) command = make_ended_report (calm, G_N_ELEMENTS (calm), RP_ENDED_BY_DURATION, "exit 7");
  g_autoptr(RpReport) whole = make_ended_report (calm, G_N_ELEMENTS (calm), RP_ENDED_BY_DURATION, "exit 0");
  g_autofree char *stopped_short = rp_report_get_short_verdict (stopped);
  g_autofree char *stopped_stall_short = rp_report_get_short_verdict (stopped_stall);
  g_autofree char *failed_short = rp_report_get_short_verdict (failed);
  g_autofree char *command_short = rp_report_get_short_verdict (command);
  g_autofree char *whole_short = rp_report_get_short_verdict (whole);
  g_autofree char *stopped_full = rp_report_get_verdict (stopped);
  g_autofree char *text = rp_report_to_text (stopped);

  g_assert_cmpstr (stopped_short, ==, "Stopped after 7.0 s of 10.0 s: no stalls over 0.1 s in that time.");
  g_assert_cmpstr (stopped_stall_short, ==, "Stopped after 7.0 s of 10.0 s: fsync stalled 1 of 8 times over 1 s; worst 1.50 s.");
  g_assert_cmpstr (failed_short, ==, "The run failed after 7.0 s: no stalls over 0.1 s in that time.");
  g_assert_cmpstr (command_short, ==, "The load’s command failed, so this was not the load asked for. "
                                      "No stalls over 0.1 s: the system stayed responsive.");
  g_assert_cmpstr (whole_short, ==, "No stalls over 0.1 s: the system stayed responsive.");
  /* The full verdict's calm sentence is the short one. */
  g_assert_cmpstr (stopped_full, ==, stopped_short);
  /* The text report: the short verdict first, the machine-read lines kept. */
  g_assert_true (g_str_has_prefix (strstr (text, "\nIn short"), "\nIn short:  Stopped after 7.0 s of 10.0 s:"));
  g_assert_true (strstr (text, "\nIn short") < strstr (text, "\nCreated"));
  g_assert_nonnull (strstr (text, "\nfsync time: 0.0100\n"));
}

/* Input events that carried no usable time (wtype's time 0, another clock)
 * left the window's input row empty: the verdict says why instead of
 * passing over it; with a known clock it says nothing of it. */
static void
test_verdict_input_clock (void)
{
  static const double calm[] = { 0.01, 0.02, 0.05 };
  const char *statuses[] = { RP_INPUT_CLOCK_UNUSABLE_ZERO, RP_INPUT_CLOCK_UNUSABLE_OTHER, "known", "mixed" };
  const char *expected[] = {
    "Input events carried no time stamp (time 0, as synthetic input such as wtype sends): input latency was not measured.",
    "Input events carried time stamps of another clock: input latency was not measured.",
    NULL, NULL,
  };
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (statuses); i++)
    {
      g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GHashTable) notes = g_hash_table_new (g_str_hash, g_str_equal);
      g_autoptr(RpReport) report = NULL;
      g_autofree char *verdict = NULL;

      g_ptr_array_add (series, make_series (RP_SERIES_FSYNC_LATENCY, "s", calm, 3, 0, 1));
      g_hash_table_insert (notes, (gpointer) RP_NOTE_INPUT_CLOCK_STATUS, (gpointer) statuses[i]);
      report = rp_report_new (NULL, scenario, series, notes);
      verdict = rp_report_get_verdict (report);
      if (expected[i] != NULL)
        g_assert_nonnull (strstr (verdict, expected[i]));
      else
        g_assert_null (strstr (verdict, "Input events carried"));
      g_assert_nonnull (strstr (verdict, "No stalls over 0.1 s"));
    }
}

/* On tmpfs (or ramfs) fsync() returns at once: a calm verdict must say that
 * its fsync times mean nothing, and stalls too; elsewhere nothing is added.
 * Whole verdicts, so that a missing or extra sentence fails. */
static void
test_verdict_tmpfs (void)
{
  static const double calm[] = { 0.01, 0.02, 0.05 };
  static const double one[] = { 0.01, 1.5, 0.05 };
  const char *names[] = { RP_SERIES_FSYNC_LATENCY };
  g_autoptr(RpSysinfo) tmpfs = rp_sysinfo_new ();
  g_autoptr(RpSysinfo) unnamed = rp_sysinfo_new ();
  g_autoptr(RpSysinfo) ext4 = rp_sysinfo_new ();
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(RpReport) report = NULL;
  g_autofree char *calm_tmpfs = NULL, *calm_unnamed = NULL, *calm_ext4 = NULL, *stall_tmpfs = NULL;
  g_autofree char *from_report = NULL;
  RpStats stats[2];

  tmpfs->fsync_is_noop = TRUE;
  tmpfs->fs_type = g_strdup ("tmpfs");
  unnamed->fsync_is_noop = TRUE;
  ext4->fs_type = g_strdup ("ext4");
  rp_stats_compute (calm, G_N_ELEMENTS (calm), &stats[0]);
  rp_stats_compute (one, G_N_ELEMENTS (one), &stats[1]);

  calm_tmpfs = rp_verdict_for_stats (tmpfs, names, &stats[0], 1);
  g_assert_cmpstr (calm_tmpfs, ==, "No stalls over 0.1 s: the system stayed responsive. "
                   "But the target is on tmpfs, where fsync() does nothing: these fsync times say "
                   "nothing about a disk.");
  /* No file system name: tmpfs all the same. */
  calm_unnamed = rp_verdict_for_stats (unnamed, names, &stats[0], 1);
  g_assert_cmpstr (calm_unnamed, ==, calm_tmpfs);
  calm_ext4 = rp_verdict_for_stats (ext4, names, &stats[0], 1);
  g_assert_cmpstr (calm_ext4, ==, "No stalls over 0.1 s: the system stayed responsive.");
  stall_tmpfs = rp_verdict_for_stats (tmpfs, names, &stats[1], 1);
  g_assert_cmpstr (stall_tmpfs, ==, "fsync stalled 1 of 3 times over 1 s; worst 1.50 s. "
                   "But the target is on tmpfs, where fsync() does nothing: these fsync times say "
                   "nothing about a disk.");

  /* A report's verdict from its own snapshot. */
  g_ptr_array_add (series, make_series (RP_SERIES_FSYNC_LATENCY, "s", calm, G_N_ELEMENTS (calm), 0, 1));
  report = rp_report_new (tmpfs, scenario, series, NULL);
  from_report = rp_report_get_verdict (report);
  g_assert_cmpstr (from_report, ==, calm_tmpfs);
}

static void
test_csv (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autofree char *csv = rp_report_to_csv (report);
  g_auto(GStrv) lines = g_strsplit (csv, "\n", -1);
  GPtrArray *series = rp_report_get_series (report);
  guint expected = 1;

  for (guint i = 0; i < series->len; i++)
    expected += rp_series_get_length (g_ptr_array_index (series, i));

  g_assert_true (g_str_has_prefix (csv, "series,t_seconds,value\n"));
  g_assert_true (g_str_has_suffix (csv, "\n"));
  /* Split leaves one empty string after the final newline. */
  g_assert_cmpuint (g_strv_length (lines), ==, expected + 1);
  g_assert_cmpstr (lines[1], ==, "fsync_latency,1,0.5422");
  /* The time went through RpSeries' float offsets; the value is exact. */
  g_assert_true (g_regex_match_simple ("^fsync_latency,14\\.6[0-9]*,10\\.86$", csv, G_REGEX_MULTILINE, 0));
  g_assert_nonnull (strstr (csv, "\ndirty_bytes,2,1610612736\n"));
  for (guint i = 1; i < expected; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], ",", -1);

      g_assert_cmpuint (g_strv_length (fields), ==, 3);
    }
}

static void
test_save (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-report-XXXXXX", NULL);
  g_autofree char *json_path = g_build_filename (dir, "run.json", NULL);
  g_autofree char *csv_path = g_build_filename (dir, "run.csv", NULL);
  g_autofree char *txt_path = g_build_filename (dir, "run.txt", NULL);
  g_autofree char *png_path = g_build_filename (dir, "run.png", NULL);
  g_autofree char *missing_dir = g_build_filename (dir, "missing", NULL);
  g_autofree char *missing_path = g_build_filename (missing_dir, "run.json", NULL);
  g_autoptr(GFile) json_file = g_file_new_for_path (json_path);
  g_autoptr(GFile) csv_file = g_file_new_for_path (csv_path);
  g_autoptr(GFile) txt_file = g_file_new_for_path (txt_path);
  g_autoptr(GFile) png_file = g_file_new_for_path (png_path);
  g_autoptr(GFile) missing_file = g_file_new_for_path (missing_path);
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *expected = NULL;

  g_assert_nonnull (dir);

  /* Saving over an existing file replaces it whole. */
  g_assert_true (g_file_set_contents (json_path, "old junk that is not a report", -1, NULL));
  g_assert_true (rp_report_save (report, json_file, "json", &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (json_path, &contents, NULL, NULL));
  expected = rp_report_to_json (report, NULL);
  g_assert_cmpstr (contents, ==, expected);
  loaded = rp_report_load (json_file, &error);
  g_assert_no_error (error);
  assert_reports_equal (report, loaded);

  g_assert_true (rp_report_save (report, csv_file, "csv", &error));
  g_assert_no_error (error);
  g_assert_true (rp_report_save (report, txt_file, "txt", &error));
  g_assert_no_error (error);
  g_clear_pointer (&contents, g_free);
  g_assert_true (g_file_get_contents (txt_path, &contents, NULL, NULL));
  g_assert_nonnull (strstr (contents, "fsync time: 0.5422\n"));

  /* An unknown format: a clear error, and no file (PNG, SVG and PDF are
   * tested in test-export.c). */
  g_assert_false (rp_report_save (report, png_file, "bmp", &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "bmp"));
  g_clear_error (&error);
  g_assert_false (g_file_test (png_path, G_FILE_TEST_EXISTS));

  /* A JSON report that no reader would load is refused before it is
   * written (rp_report_save() checks the count first, the size after),
   * saying the limit in a run's terms; CSV has no such limit. Checked
   * with the counts alone: 150 million samples would take gigabytes. */
  g_assert_true (rp_report_check_savable (RP_REPORT_MAX_SAMPLES, RP_REPORT_MAX_FILE_SIZE, &error));
  g_assert_no_error (error);
  g_assert_false (rp_report_check_savable (RP_REPORT_MAX_SAMPLES + 1, 0, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "150000001 samples, more than the 150000000"));
  g_assert_nonnull (strstr (error->message, "30 days"));
  g_assert_nonnull (strstr (error->message, "CSV"));
  g_clear_error (&error);
  g_assert_false (rp_report_check_savable (0, RP_REPORT_MAX_FILE_SIZE + 1, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_FAILED);
  g_assert_nonnull (strstr (error->message, "1.0 GiB"));
  g_clear_error (&error);

  /* A failed save leaves nothing behind, not even a temporary file. */
  g_assert_false (rp_report_save (report, missing_file, "json", &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_IO);
  g_clear_error (&error);
  g_assert_false (g_file_test (missing_dir, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (rp_test_count_entries (dir), ==, 3);

  g_assert_no_errno (g_remove (json_path));
  g_assert_no_errno (g_remove (csv_path));
  g_assert_no_errno (g_remove (txt_path));
  g_assert_no_errno (g_rmdir (dir));
}

static void
test_load_file_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-report-XXXXXX", NULL);
  g_autofree char *missing_path = g_build_filename (dir, "missing.json", NULL);
  g_autofree char *huge_path = g_build_filename (dir, "huge.json", NULL);
  g_autoptr(GFile) missing = g_file_new_for_path (missing_path);
  g_autoptr(GFile) directory = g_file_new_for_path (dir);
  g_autoptr(GFile) huge = g_file_new_for_path (huge_path);
  int fd;

  g_assert_null (rp_report_load (missing, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_IO);
  g_clear_error (&error);

  g_assert_null (rp_report_load (directory, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_IO);
  g_clear_error (&error);

  /* A sparse file one byte over the limit: refused before it is read. */
  fd = g_open (huge_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_no_errno (ftruncate (fd, (off_t) RP_REPORT_MAX_FILE_SIZE + 1));
  g_assert_no_errno (close (fd));
  g_assert_null (rp_report_load (huge, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
  g_assert_nonnull (strstr (error->message, "1.0 GiB"));
  g_clear_error (&error);

  g_assert_no_errno (g_remove (huge_path));
  g_assert_no_errno (g_rmdir (dir));
}


/* A valid report with @from replaced by @to must fail, saying @expected. */
static void
assert_edit_fails (const char *json,
                   const char *from,
                   const char *to,
                   const char *expected)
{
  g_autofree char *edited = replace_once (json, from, to);

  assert_load_fails (edited, -1, expected);
}

static void
test_load_bad_corpus (void)
{
  /* Prefixes that make json-glib and a scanner that only knows "…" and \x
   * disagree on where strings end, so that the nesting after them would
   * hide from a pre-check: single quotes and comments (json-glib reads
   * both), a high surrogate or a short \u escape (after which json-glib
   * swallows the closing quote). Each crashes json-glib 1.6 on its own. */
  static const struct { const char *prefix; const char *expected; } smugglers[] = {
    { "{\"a\": '\"', \"b\": ", "“'”" },
    { "{\"a\": /* \" */ ", "“/”" },
    { "{\"a\\ud800\"X\": ", "escape" },
    { "{\"\\u12\"X\": ", "escape" },
  };
  g_autoptr(RpReport) report = make_report ();
  g_autofree char *json = to_json_v1 (report);
  g_autofree char *newer = NULL;
  g_autofree char *deep = NULL;
  g_autofree char *deep_inside = NULL;
  g_autoptr(GString) many = g_string_new ("{\"format\": \"resprobe-report\", \"version\": 1, \"x\": [");
  g_autoptr(GString) long_string = g_string_new ("{\"format\": \"");
  static const char junk[] = "\x7f" "ELF\x02\x01\x01\0\0\0\0\0\0\0\0\0\x03\0>\0\x01\0\0\0\xff\xfe\xfd";

  /* Not a report at all. */
  assert_load_fails ("", 0, "empty");
  assert_load_fails (" \n\t ", -1, "empty");
  assert_load_fails ("\xef\xbb\xbf\n", -1, "empty");
  assert_load_fails (junk, sizeof junk - 1, "not a JSON object");
  assert_load_fails ("null", -1, NULL);
  assert_load_fails ("[]", -1, NULL);
  assert_load_fails ("\"resprobe-report\"", -1, NULL);
  assert_load_fails ("var report = {};", -1, "not a JSON object");
  assert_load_fails ("{}", -1, "format");
  assert_load_fails ("{\"format\": \"something-else\", \"version\": 1}", -1, "something-else");
  assert_load_fails ("{\"format\": 1, \"version\": 1}", -1, "format");
  assert_load_fails ("{\"format\": \"resprobe-report\"}", -1, "version");
  assert_load_fails ("{\"format\": \"resprobe-report\", \"version\": \"1\"}", -1, "version");
  assert_load_fails ("{\"format\": \"resprobe-report\", \"version\": 1.5}", -1, "version");
  assert_load_fails ("{\"format\": \"resprobe-report\", \"version\": 0}", -1, "version");
  assert_load_fails ("{\"format\": \"resprobe-report\", \"version\": -1}", -1, "version");
  assert_load_fails ("{\"format\": \"resprobe-report\", \"version\": 99999999999999999999999}", -1, "version");
  assert_edit_fails (json, "\"version\" : 1,", "\"version\" : 3,", "version 3");
  /* A newer version's samples may look different: the version is what to tell. */
  newer = replace_once (json, "\"series\" : {", "\"series\" : {\"a\": {\"samples\": [{}]}, ");
  assert_edit_fails (newer, "\"version\" : 1,", "\"version\" : 3,", "version 3");

  /* Broken JSON: json-glib's message (with its line and column) or the
   * pre-check's. */
  assert_load_fails ("{\"format\": \"resprobe-report\",}", -1, "not valid JSON");
  assert_load_fails ("{\"format\": 'resprobe-report'}", -1, "line 1, column 12: unexpected character “'”");
  assert_load_fails ("{\"format\": \"resprobe-report\"} trailing", -1, "after the end");
  assert_load_fails ("{\"format\": \"resprobe-report\"} {}", -1, "after the end");
  assert_load_fails ("{\"format\": \"resprobe-report\", \"version\": 1", -1, "truncated");
  assert_load_fails ("{\"format\": \"resprobe-rep", -1, "truncated");
  assert_load_fails ("{\"format\": \"\\u00", -1, "truncated");
  assert_load_fails ("{\"format\": \"\xc3\x28\"}", -1, "UTF-8");
  assert_load_fails ("{\"format\": \"\\ud800\"}", -1, "escape");
  assert_load_fails ("{\"format\": \"\\udc00\\ud800\"}", -1, "escape");
  assert_load_fails ("{\"format\": \"\\ud800\\u0041\"}", -1, "escape");
  assert_load_fails ("{\"format\": \"\\uzzzz\"}", -1, "escape");
  assert_load_fails ("{\"format\": \"\\x41\"}", -1, "escape");
  /* json-glib takes these; the format check does not. */
  assert_load_fails ("{\"format\": \"resprobe-\x01report\"}", -1, "format");
  assert_load_fails ("{\"format\": \"\\u0000\"}", -1, "format");
  assert_load_fails ("{\"format\": \"resprobe-report\"\0, \"version\": 1}", 40, "0x00");
  assert_load_fails ("{\"version\": 01}", -1, NULL);
  assert_load_fails ("{\"version\": -}", -1, NULL);
  assert_load_fails ("{\"version\": 1.}", -1, NULL);
  assert_load_fails ("{\"version\": 1e}", -1, NULL);
  assert_load_fails ("{\"version\": tru}", -1, NULL);
  assert_load_fails ("{\"version\": 0x10}", -1, "“x”");
  assert_load_fails ("{\"format\": \"resprobe-report\", \"version\": 1e999}", -1, "version");
  assert_load_fails ("{\"version\": NaN}", -1, "“N”");
  assert_load_fails ("{\"version\": Infinity}", -1, NULL);

  /* Deep nesting: json-glib's recursive parser overflows the stack on this. */
  deep = g_strnfill (200000, '[');
  assert_load_fails (deep, -1, "not a JSON object");
  deep_inside = g_strconcat ("{\"format\": \"resprobe-report\", \"version\": 1, \"notes\": ", deep, NULL);
  assert_load_fails (deep_inside, -1, "nested too deeply");
  assert_edit_fails (json, "\"samples\" : [", "\"samples\" : [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["
                     "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[", "nested too deeply");
  for (guint i = 0; i < G_N_ELEMENTS (smugglers); i++)
    {
      g_autofree char *smuggled = g_strconcat (smugglers[i].prefix, deep, NULL);

      assert_load_fails (smuggled, -1, smugglers[i].expected);
    }

  /* More samples than the limit, refused before json-glib builds ~300 bytes
   * of tree for each; a string over 1 MiB. */
  for (guint i = 0; i < RP_REPORT_MAX_SAMPLES + RP_REPORT_MAX_SAMPLES / 10; i++)
    g_string_append (many, i > 0 ? ",[0,0]" : "[0,0]");
  g_string_append (many, "]}");
  assert_load_fails (many->str, (gssize) many->len, "too many values");
  for (guint i = 0; i < 1100000; i++)
    g_string_append_c (long_string, 'a');
  g_string_append (long_string, "\"}");
  assert_load_fails (long_string->str, (gssize) long_string->len, "1 MiB");

  /* Samples: NaN as a literal, strings, huge numbers, wrong shapes. */
  assert_edit_fails (json, SAMPLE_0, "[1.0, NaN]", NULL);
  assert_edit_fails (json, SAMPLE_0, "[1.0, \"NaN\"]", "Series “fsync_latency”, sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[1.0, 1e999]", "Series “fsync_latency”, sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[-1e400, 0.5]", "Series “fsync_latency”, sample 0:");
  /* Finite but beyond what series and axes handle: a year, 10^18. */
  assert_edit_fails (json, SAMPLE_0, "[1e308, 0.5]", "Series “fsync_latency”, sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[1.0, -1e300]", "Series “fsync_latency”, sample 0:");
  /* The limits themselves: values up to 10^21 and times up to 366 days load,
   * just beyond them not. */
  assert_edit_fails (json, SAMPLE_0, "[1.0, 2e21]", "Series “fsync_latency”, sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[31622401.0, 0.5]", "Series “fsync_latency”, sample 0:");
  {
    g_autofree char *at_value_limit = replace_once (json, SAMPLE_0, "[1.0, 1e21]");
    g_autofree char *at_time_limit = replace_once (json, SAMPLE_0, "[31622400.0, 0.5]");
    g_autoptr(RpReport) value_ok = load_ok (at_value_limit, -1);
    g_autoptr(RpReport) time_ok = load_ok (at_time_limit, -1);
    double t_max = 0, v_max = 0;

    g_assert_true (rp_series_get_bounds (rp_report_lookup_series (value_ok, "fsync_latency"), NULL, NULL, NULL, &v_max));
    g_assert_cmpfloat (v_max, ==, 1e21);
    g_assert_true (rp_series_get_bounds (rp_report_lookup_series (time_ok, "fsync_latency"), NULL, &t_max, NULL, NULL));
    g_assert_cmpfloat (t_max, >=, 31622400.0);
  }
  assert_edit_fails (json, SAMPLE_0, "[-4e7, 0.5]", "Series “fsync_latency”, sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[1.0, null]", "sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[1.0]", "sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[1.0, 0.5422, 3]", "sample 0:");
  assert_edit_fails (json, SAMPLE_0, "{\"t\": 1.0, \"v\": 0.5422}", "sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[[1.0], 0.5422]", "sample 0:");
  assert_edit_fails (json, SAMPLE_0, "[true, 0.5422]", "sample 0:");
  /* 8.6, the third fsync time, as json-glib writes it. */
  assert_edit_fails (json, "8.5999999999999996", "\"8.6\"", "Series “fsync_latency”, sample 2:");
  assert_edit_fails (json, "\"samples\" : [", "\"samples\" : {\"a\": 1}, \"other\" : [", "must be an array");
  assert_edit_fails (json, "\"samples\" : [", "\"samples\" : \"none\", \"other\" : [", "must be an array");

  /* Wrong types or values of the other keys. */
  assert_edit_fails (json, "\"unit\" : \"s\"", "\"unit\" : 1", "unit");
  assert_edit_fails (json, "\"unit\" : \"s\"", "\"unit\" : \"s\\u001b[2J\"", "unit");
  assert_edit_fails (json, "\"unit\" : \"s\",", "", "unit");
  assert_edit_fails (json, "\"title\" : \"fsync_latency\"", "\"title\" : []", "title");
  assert_edit_fails (json, "\"fsync_latency\" : {\n      \"unit\"", "\"\" : {\n      \"unit\"", "name");
  assert_edit_fails (json, "\"fsync_latency\" : {\n      \"unit\"", "\"fsync\\nlatency\" : {\n      \"unit\"", "name");
  assert_edit_fails (json, "\"series\" : {", "\"series\" : {\"bad\": 3, ", "Series “bad”");
  assert_edit_fails (json, "\"series\" : {", "\"series\" : {\"bad\": {\"unit\": \"s\"}, ", "samples");
  assert_edit_fails (json, "\"series\" : {", "\"old_series\" : {", "series");
  assert_edit_fails (json, "\"series\" : {", "\"series\" : [], \"x\" : {", "series");
  assert_edit_fails (json, "\"notes\" : {", "\"notes\" : {\"n\": 1, ", "“n”");
  assert_edit_fails (json, "\"notes\" : {", "\"notes\" : [], \"x\" : {", "notes");
  assert_edit_fails (json, "\"created\" : \"", "\"created\" : 1, \"x\" : \"", "created");
  assert_edit_fails (json, "\"created\" : \"", "\"created\" : \"yesterday\", \"x\" : \"", "yesterday");
  assert_edit_fails (json, "\"duration\" : ", "\"duration\" : -5, \"x\" : ", "duration");
  assert_edit_fails (json, "\"duration\" : ", "\"duration\" : 1e307, \"x\" : ", "longer than a year");
  /* A text field no system has: 9 000 bytes (the PDF took minutes on 100 000). */
  {
    g_autofree char *filler = g_strnfill (9000, 'a');
    g_autofree char *long_fs = g_strconcat ("\"fs_type\" : \"", filler, NULL);

    assert_edit_fails (json, "\"fs_type\" : \"", long_fs, "longer than 8192 bytes");
  }
  /* A scenario no run could have had. */
  assert_edit_fails (json, "\"fsync_interval\" : ", "\"fsync_interval\" : -3, \"x\" : ", "interval");
  assert_edit_fails (json, "\"fsync_size\" : ", "\"fsync_size\" : 0, \"x\" : ", "fsync-size");
  assert_edit_fails (json, "\"duration\" : ", "\"duration\" : \"long\", \"x\" : ", "duration");
  assert_edit_fails (json, "\"error\" : null", "\"error\" : 12", "error");
  assert_edit_fails (json, "\"generator\" : ", "\"generator\" : {}, \"x\" : ", "generator");
  assert_edit_fails (json, "\"system\" : {", "\"system\" : \"linux\", \"x\" : {", "system");
  assert_edit_fails (json, "\"ram_bytes\" : 8589934592", "\"ram_bytes\" : \"lots\"", "system");
  assert_edit_fails (json, "\"cpu_count\" : 2", "\"cpu_count\" : -3", "system");
  assert_edit_fails (json, "\"scenario\" : {", "\"scenario\" : 7, \"x\" : {", "scenario");
  assert_edit_fails (json, "\"sample_period\" : 0.5", "\"sample_period\" : \"forever\"", "scenario");
}

/* Every control character, C0 and C1, every bidirectional control of
 * Unicode and the line and paragraph separators, in UTF-8: what must not
 * reach a terminal or a label. */
#define HOSTILE "a\x1b[2J\x07\r\n\t\xc2\x9b" \
                "\xd8\x9c\xe2\x80\x8e\xe2\x80\x8f" \
                "\xe2\x80\xaa\xe2\x80\xab\xe2\x80\xac\xe2\x80\xad\xe2\x80\xae" \
                "\xe2\x81\xa6\xe2\x81\xa7\xe2\x81\xa8\xe2\x81\xa9\xe2\x80\xa8\xe2\x80\xa9z"
#define RLO "\xe2\x80\xae"
/* Accents (one combining), CJK, Cyrillic, an emoji joined by U+200D, a
 * no-break space: text, not controls. */
#define VALID "Ünïcöde\xcc\x81 中文 Кириллица \xf0\x9f\x91\xa9\xe2\x80\x8d\xf0\x9f\x92\xbb a\xc2\xa0" "b"

/* Written independently of rp_text_is_control(), from the list above. */
static void
assert_clean (const char *text,
              gboolean    multiline)
{
  g_assert_nonnull (text);
  g_assert_true (g_utf8_validate (text, -1, NULL));
  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gboolean layout = multiline && (c == '\n' || c == '\t');

      if ((c < 0x20 && !layout) || (c >= 0x7f && c <= 0x9f) || c == 0x061c ||
          c == 0x200e || c == 0x200f || (c >= 0x202a && c <= 0x202e) ||
          (c >= 0x2066 && c <= 0x2069) || c == 0x2028 || c == 0x2029)
        g_error ("U+%04X in “%s”", c, text);
    }
}

static void
assert_node_clean (JsonNode *node)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      g_autoptr(GList) members = json_object_get_members (json_node_get_object (node));

      for (GList *l = members; l != NULL; l = l->next)
        assert_node_clean (json_object_get_member (json_node_get_object (node), l->data));
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
      assert_node_clean (json_array_get_element (json_node_get_array (node), i));
  else if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
    assert_clean (json_node_get_string (node), FALSE);
}

/* One rule for loaded strings (rp_text_clean()) and shown text
 * (rp_text_sanitize(), which also makes every space a plain one). */
static void
test_text_clean (void)
{
  static const char mixed[] = "a" RLO "b\x1b[0m\nc\td\xc2\xa0" "e";
  g_autofree char *clean_line = rp_text_clean (mixed, FALSE);
  g_autofree char *clean_lines = rp_text_clean (mixed, TRUE);
  g_autofree char *sanitized = rp_text_sanitize (mixed);
  g_autofree char *valid = rp_text_clean (VALID, FALSE);
  g_autofree char *hostile = rp_text_sanitize (HOSTILE);

  g_assert_cmpstr (clean_line, ==, "a b [0m c d\xc2\xa0" "e");
  g_assert_cmpstr (clean_lines, ==, "a b [0m\nc\td\xc2\xa0" "e");
  g_assert_cmpstr (sanitized, ==, "a b [0m\nc d e");
  g_assert_cmpstr (valid, ==, VALID);
  g_assert_null (rp_text_clean (NULL, FALSE));
  assert_clean (hostile, TRUE);
  g_assert_cmpuint (g_utf8_strlen (hostile, -1), ==, g_utf8_strlen (HOSTILE, -1));
}

/* A stranger's report with terminal escapes and bidirectional controls in
 * every kind of string ("…evil · x86_64" shown as "46_68x · live"): it
 * loads, each such character a space, and the rest of the text as it was. */
static void
test_load_hostile_strings (void)
{
  static const char *const argv[] = { "sh", "-c", "echo " HOSTILE, NULL };
  g_autoptr(RpSysinfo) sysinfo = make_sysinfo ("ext4", HOSTILE);
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) notes = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(RpReport) report = NULL;
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *json = NULL;
  g_autofree char *with_generator = NULL;
  g_autofree char *with_error = NULL;
  g_autofree char *text = NULL;
  const RpSysinfo *system;
  const RpScenario *loaded_scenario;
  RpSeries *fsync;
  GHashTableIter iter;
  gpointer key, value;

  g_free (sysinfo->machine);
  sysinfo->machine = g_strdup ("x86_64" RLO "evil");
  g_free (sysinfo->cpu_model);
  sysinfo->cpu_model = g_strdup (VALID);
  g_free (sysinfo->distribution);
  sysinfo->distribution = g_strdup (HOSTILE);
  g_free (sysinfo->target_directory);
  sysinfo->target_directory = g_strdup ("/home/" HOSTILE);
  g_free (scenario->directory);
  scenario->directory = g_strdup ("/home/" HOSTILE);
  rp_scenario_set_part (scenario, "command", TRUE);
  rp_params_set_argv (scenario->params, "command_argv", argv);
  g_ptr_array_add (series, rp_series_new (RP_SERIES_FSYNC_LATENCY, "s", "fsync " HOSTILE));
  g_hash_table_insert (notes, (char *) "comment", (char *) HOSTILE);
  g_hash_table_insert (notes, (char *) "k" RLO "ey", (char *) VALID);
  report = rp_report_new (sysinfo, scenario, series, notes);
  json = rp_report_to_json (report, NULL);
  with_generator = replace_once (json, "\"generator\" : \"", "\"generator\" : \"\\u202e\\u001b[1m");
  with_error = replace_once (with_generator, "\"error\" : null", "\"error\" : \"" RLO "gone\\u0007\\nline 2\"");
  loaded = load_ok (with_error, -1);

  system = rp_report_get_sysinfo (loaded);
  loaded_scenario = rp_report_get_scenario (loaded);
  assert_node_clean (rp_sysinfo_to_json (system));
  assert_node_clean (rp_scenario_to_json (loaded_scenario));
  g_assert_cmpstr (system->machine, ==, "x86_64 evil");
  g_assert_cmpstr (system->cpu_model, ==, VALID);
  /* A space for each: ESC, then the 19 after "[2J". */
  g_assert_cmpstr (system->distribution, ==, "a [2J" "                   " "z");
  g_assert_cmpuint (g_utf8_strlen (system->journal_mode, -1), ==, g_utf8_strlen (HOSTILE, -1));
  g_assert_cmpstr (rp_params_get_argv (loaded_scenario->params, "command_argv")[2], ==, "echo a [2J" "                   " "z");

  fsync = rp_report_lookup_series (loaded, RP_SERIES_FSYNC_LATENCY);
  g_assert_nonnull (fsync);
  assert_clean (rp_series_get_title (fsync), FALSE);
  assert_clean (rp_report_get_error_message (loaded), TRUE);
  g_assert_cmpstr (rp_report_get_error_message (loaded), ==, " gone \nline 2");
  g_hash_table_iter_init (&iter, rp_report_get_notes (loaded));
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      assert_clean (key, FALSE);
      assert_clean (value, TRUE);
    }
  /* Multi-line notes keep their line feeds and tabs. */
  g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (loaded), "comment"), ==,
                   "a [2J" "  " "\n\t" "               " "z");
  g_assert_cmpstr (g_hash_table_lookup (rp_report_get_notes (loaded), "k ey"), ==, VALID);

  /* What is shown has none either. */
  text = rp_report_to_text (loaded);
  assert_clean (text, TRUE);
  g_assert_nonnull (strstr (text, "x86_64 evil"));
  g_assert_nonnull (strstr (text, "中文 Кириллица"));

  /* Names and units are identifiers: refused, not cleaned, so that two
   * never become one. */
  assert_edit_fails (json, "\"fsync_latency\" : {\n      \"unit\"", "\"fsync\\u202elatency\" : {\n      \"unit\"", "name");
  assert_edit_fails (json, "\"unit\" : \"s\"", "\"unit\" : \"s\\u2066\"", "unit");
}

/* Durations, sizes, rates and fractions cannot be negative: such a sample is
 * refused with its series and index. -0.0 is not negative, a fraction may
 * exceed 1 (PSI over a late sampler period), other units may be negative. */
static void
test_load_negative_values (void)
{
  static const char *const never_negative[] = { "s", "B", "B/s", "ops/s", "ratio" };
  static const char *const may_be_negative[] = { "", "°C", "dB" };
  static const double negative[] = { 0.5, -1.0 };
  static const double tiny[] = { 0.5, -1e-300 };
  static const double fine[] = { 0.0, -0.0, 1.5 };

  for (guint i = 0; i < G_N_ELEMENTS (never_negative); i++)
    {
      g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
      g_autoptr(GPtrArray) bad = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(GPtrArray) good = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(RpReport) bad_report = NULL;
      g_autoptr(RpReport) good_report = NULL;
      g_autoptr(RpReport) loaded = NULL;
      g_autofree char *bad_json = NULL;
      g_autofree char *good_json = NULL;
      g_autofree char *expected = g_strdup_printf ("“%s”", never_negative[i]);

      g_ptr_array_add (bad, make_series ("x", never_negative[i], negative, 2, 0, 1));
      g_ptr_array_add (bad, make_series ("y", never_negative[i], tiny, 2, 0, 1));
      bad_report = rp_report_new (NULL, scenario, bad, NULL);
      bad_json = rp_report_to_json (bad_report, NULL);
      assert_load_fails (bad_json, -1, "Series “x”, sample 1: ");
      assert_load_fails (bad_json, -1, expected);
      g_ptr_array_remove_index (bad, 0);
      g_clear_object (&bad_report);
      g_clear_pointer (&bad_json, g_free);
      bad_report = rp_report_new (NULL, scenario, bad, NULL);
      bad_json = rp_report_to_json (bad_report, NULL);
      assert_load_fails (bad_json, -1, "Series “y”, sample 1: ");

      g_ptr_array_add (good, make_series ("x", never_negative[i], fine, 3, 0, 1));
      good_report = rp_report_new (NULL, scenario, good, NULL);
      good_json = rp_report_to_json (good_report, NULL);
      loaded = load_ok (good_json, -1);
      assert_reports_equal (good_report, loaded);
    }
  for (guint i = 0; i < G_N_ELEMENTS (may_be_negative); i++)
    {
      g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
      g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(RpReport) report = NULL;
      g_autoptr(RpReport) loaded = NULL;
      g_autofree char *json = NULL;

      g_ptr_array_add (series, make_series ("x", may_be_negative[i], negative, 2, 0, 1));
      report = rp_report_new (NULL, scenario, series, NULL);
      json = rp_report_to_json (report, NULL);
      loaded = load_ok (json, -1);
      assert_reports_equal (report, loaded);
    }

  /* The tester's report: an fsync latency of -1 s. */
  {
    g_autoptr(RpReport) report = make_report ();
    g_autofree char *json = to_json_v1 (report);

    assert_edit_fails (json, SAMPLE_0, "[1.0, -1]", "Series “fsync_latency”, sample 0: ");
  }
}

/* RFC 8259 leaves duplicate keys open; json-glib keeps the last. */
static void
test_load_duplicate_keys (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autofree char *json = to_json_v1 (report);
  g_autofree char *version = replace_once (json, "\"version\" : 1,", "\"version\" : 2, \"version\" : 1,");
  g_autofree char *samples = replace_once (json, "\"samples\" : [",
                                           "\"samples\" : [[1.0, 0.5422]], \"samples\" : [");
  g_autoptr(RpReport) loaded = load_ok (version, -1);
  g_autoptr(RpReport) loaded2 = load_ok (samples, -1);

  assert_reports_equal (report, loaded);
  assert_reports_equal (report, loaded2);
}

/* Reports of every earlier version, as the program of the time wrote them
 * (tests/fixtures/reports), load; saved again as version 2 they keep every
 * sample: the CSV of both is the same text. */
static void
test_load_old_versions (void)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "fixtures", "reports", NULL);
  g_autoptr(GDir) listing = g_dir_open (dir, 0, NULL);
  const char *name;
  guint n_files = 0;

  g_assert_nonnull (listing);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GFile) file = g_file_new_for_path (path);
      g_autoptr(GError) error = NULL;
      g_autoptr(RpReport) old = rp_report_load (file, &error);
      g_autoptr(RpReport) again = NULL;
      g_autofree char *json = NULL;
      g_autofree char *csv_old = NULL;
      g_autofree char *csv_again = NULL;
      RpStats stats;

      g_assert_no_error (error);
      g_assert_cmpuint (rp_report_get_series (old)->len, >, 0);
      g_assert_true (rp_report_get_stats (old, RP_SERIES_FSYNC_LATENCY, &stats));
      g_assert_cmpuint (stats.n, >, 0);
      json = rp_report_to_json (old, NULL);
      again = load_ok (json, -1);
      assert_reports_equal (old, again);
      csv_old = rp_report_to_csv (old);
      csv_again = rp_report_to_csv (again);
      g_assert_cmpstr (csv_old, ==, csv_again);
      n_files++;
    }
  g_assert_cmpuint (n_files, >=, 1);
}

/* Where block @k of series @name begins in @json: its opening quote. */
static const char *
find_block (const char *json,
            const char *name,
            guint       k)
{
  g_autofree char *key = g_strdup_printf ("\"%s\" : {", name);
  const char *at = strstr (json, key);

  g_assert_nonnull (at);
  at = strstr (at, "\"blocks\" : [");
  g_assert_nonnull (at);
  at = strchr (at, '[');
  for (guint i = 0; i <= k; i++)
    {
      at = strchr (at + 1, '"');
      g_assert_nonnull (at);
      if (i < k)
        at = strchr (at + 1, '"');
    }
  return at;
}

/* @json with @length bytes at @at replaced by @with. */
static char *
splice_text (const char *json,
        const char *at,
        gsize       length,
        const char *with)
{
  return g_strdup_printf ("%.*s%s%s", (int) (at - json), json, with, at + length);
}

/* Issue 16, item 3: a block that is damaged, cut short, not base64, or
 * missing is an error naming the series and the block, never a crash nor
 * other samples. */
static void
test_load_damaged_blocks (void)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(RpReport) report = NULL;
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *json = NULL;
  g_autofree char *flipped = NULL, *cut = NULL, *not_base64 = NULL, *missing = NULL, *too_many = NULL;
  g_autofree char *claims = NULL;
  g_autofree double *values = g_new (double, 10000);
  const char *block, *end;
  char *middle;

  for (guint i = 0; i < 10000; i++)
    values[i] = (i % 97) / 97.0;
  g_ptr_array_add (series, make_series ("cpu_user", "ratio", values, 10000, 0.5, 0.5));
  report = rp_report_new (NULL, scenario, series, NULL);
  json = rp_report_to_json (report, NULL);
  loaded = load_ok (json, -1);
  assert_reports_equal (report, loaded);
  g_assert_nonnull (strstr (json, "\"count\" : 10000,"));

  /* One base64 character of the second block changed. */
  block = find_block (json, "cpu_user", 1);
  end = strchr (block + 1, '"');
  flipped = g_strdup (json);
  middle = flipped + (block - json) + (end - block) / 2;
  *middle = *middle == 'A' ? 'B' : 'A';
  assert_load_fails (flipped, -1, "Series “cpu_user”, block 1: the samples are damaged or truncated");

  /* The block cut to its first 40 characters (still base64). */
  cut = splice_text (json, block + 41, (gsize) (end - block - 41), "");
  assert_load_fails (cut, -1, "Series “cpu_user”, block 1: the samples are damaged or truncated");

  not_base64 = splice_text (json, block + 1, 4, "ab!d");
  assert_load_fails (not_base64, -1, "Series “cpu_user”, block 1: not base64");

  /* The last block gone: the count tells. */
  block = find_block (json, "cpu_user", 2);
  {
    const char *comma = block;

    while (*comma != ',')
      comma--;
    missing = splice_text (json, comma, (gsize) (strchr (block + 1, '"') + 1 - comma), "");
  }
  assert_load_fails (missing, -1, "Series “cpu_user”: key “count” says 10000 samples, but its blocks hold 8192");

  /* A count within the limit that the blocks do not hold: told, without
   * room for 150 million samples taken first. */
  claims = replace_once (json, "\"count\" : 10000,", "\"count\" : 149999999,");
  assert_load_fails (claims, -1, "says 149999999 samples, but its blocks hold 10000");

  /* A count over the limit is refused before anything is decoded. */
  too_many = replace_once (json, "\"count\" : 10000,", "\"count\" : 150000001,");
  assert_load_fails (too_many, -1, "more than 150000000 samples");
}

/* A report cut anywhere before its final '}' is an error, never a crash. */
static void
test_load_truncated (void)
{
  g_autoptr(RpReport) report = make_report ();
  gsize length = 0;
  g_autofree char *json = rp_report_to_json (report, &length);
  gsize last_brace = strrchr (json, '}') - json;

  for (gsize cut = 0; cut <= last_brace; cut++)
    {
      /* A copy of exactly @cut bytes, so that a read past the end is caught
       * by the sanitizers rather than hidden by the rest of the buffer. */
      g_autofree char *copy = g_memdup2 (json, MAX (cut, 1));

      assert_load_fails (copy, (gssize) cut, NULL);
    }
}

static void
exercise (RpReport *report)
{
  g_autofree char *text = rp_report_to_text (report);
  g_autofree char *json = rp_report_to_json (report, NULL);
  g_autofree char *csv = rp_report_to_csv (report);
  g_autofree char *verdict = rp_report_get_verdict (report);

  assert_lines_fit (text, 80);
}

/* Deterministic mutations of a valid report: flipped bits, deleted,
 * inserted and duplicated bytes. Loading must end in a report or an
 * RP_ERROR_REPORT, and a loaded report must print. */
static void
test_load_mutations (void)
{
  g_autoptr(RpReport) report = make_report ();
  gsize length = 0;
  g_autofree char *json = rp_report_to_json (report, &length);
  g_autoptr(GRand) rand = g_rand_new_with_seed (20090112);
  guint n_loaded = 0;

  for (guint round = 0; round < 2000; round++)
    {
      g_autoptr(GByteArray) data = g_byte_array_sized_new ((guint) length);
      g_autoptr(GError) error = NULL;
      g_autoptr(RpReport) loaded = NULL;
      guint n_edits = (guint) g_rand_int_range (rand, 1, 9);

      g_byte_array_append (data, (const guint8 *) json, (guint) length);
      for (guint e = 0; e < n_edits && data->len > 1; e++)
        {
          guint at = (guint) g_rand_int_range (rand, 0, (gint32) data->len);
          guint8 byte = (guint8) g_rand_int_range (rand, 0, 256);
          guint span = (guint) g_rand_int_range (rand, 1, 64);

          switch (g_rand_int_range (rand, 0, 4))
            {
            case 0:
              data->data[at] ^= (guint8) (1u << g_rand_int_range (rand, 0, 8));
              break;
            case 1:
              g_byte_array_remove_range (data, at, MIN (span % 16 + 1, data->len - at));
              break;
            case 2:
              g_array_insert_val ((GArray *) data, at, byte);
              break;
            default:
              {
                guint n = MIN (span, data->len - at);
                g_autofree guint8 *chunk = g_memdup2 (data->data + at, n);

                g_array_insert_vals ((GArray *) data, at, chunk, n);
              }
              break;
            }
        }

      loaded = rp_report_load_from_data ((const char *) data->data, (gssize) data->len, &error);
      if (loaded == NULL)
        {
          g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
          continue;
        }
      g_assert_no_error (error);
      n_loaded++;
      exercise (loaded);
    }
  g_test_message ("%u of 2000 mutated reports still loaded", n_loaded);
  /* Both ends were reached: most mutations break the report (up to 8 edits
   * each), and some (a digit or a letter of a string changed) leave one that
   * loads and so is printed, exported and judged above. A loader that
   * refused everything, or accepted everything, would fail here. */
  g_assert_cmpuint (n_loaded, >, 0);
  g_assert_cmpuint (n_loaded, <, 2000 / 2);
}

static void
test_compare (void)
{
  g_autoptr(RpReport) ordered = make_report ();
  g_autoptr(RpReport) writeback = make_report_full ("ext4", "writeback", r1_ext4_writeback,
                                                    G_N_ELEMENTS (r1_ext4_writeback));
  g_autoptr(RpReport) empty = make_report_with (NULL, NULL, 0);
  g_autoptr(GPtrArray) two = g_ptr_array_new ();
  g_autoptr(GPtrArray) five = g_ptr_array_new ();
  g_autofree char *text = NULL;
  g_autofree char *wide = NULL;

  g_ptr_array_add (two, ordered);
  g_ptr_array_add (two, writeback);
  text = rp_report_compare_text (two);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_lines_fit (text, 80);
  g_assert_true (g_str_has_prefix (text, "Comparison of 2 reports\n"));

  /* One report (a one-cell matrix) compares nothing: the title says so. */
  {
    g_autoptr(GPtrArray) one = g_ptr_array_new ();
    g_autofree char *single = NULL;

    g_ptr_array_add (one, ordered);
    single = rp_report_compare_text (one);
    g_assert_true (g_str_has_prefix (single, "One configuration: 1 run\n"));
    g_assert_null (strstr (single, "Comparison of"));
  }
  g_assert_true (g_regex_match_simple ("^\\* File system +ext3 +ext4$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^\\* Journal mode +ordered +writeback$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^  Kernel +6\\.1\\.0-18-amd64 +6\\.1\\.0-18-amd64$", text,
                                       G_REGEX_MULTILINE, 0));
  /* Each figure with its 95 % interval, the change with what it means:
   * 9 against 10 samples that overlap this much are within noise (the
   * median's Mann–Whitney test); the tails' own intervals are apart, but
   * over one run each: "one run", not "noise". */
  g_assert_true (g_regex_match_simple ("^  fsync worst +10\\.86 s \\[6\\.37 s, 10\\.86 s\\] +1\\.92 s \\[1\\.70 s, 1\\.92 s\\]$",
                                       text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +\\(-72 %, noise\\)$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +\\(-82 %, one run\\)$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^  fsync > 1 s +6 \\[3, 9\\] +8 \\[5, 10\\] \\(\\+2, noise\\)$", text,
                                       G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^  fsync samples +9 +10 \\(\\+1\\)$", text, G_REGEX_MULTILINE, 0));
  g_assert_nonnull (strstr (text, "CPU I/O wait"));
  g_assert_nonnull (strstr (text, "Dirty peak"));
  g_assert_nonnull (strstr (text, "Writer throughput"));
  /* Changes: relative for latencies, under half a percent "±0 %" (it was
   * "-0 %"), plain differences for counts. */
  {
    g_autofree char *tiny = rp_report_format_change (RP_METRIC_LATENCY, 1.0, 0.998, NULL);
    g_autofree char *one = rp_report_format_change (RP_METRIC_RATE, 100, 101, NULL);
    g_autofree char *count = rp_report_format_change (RP_METRIC_COUNT, 6, 8, NULL);

    g_assert_cmpstr (tiny, ==, "±0 %");
    g_assert_cmpstr (one, ==, "+1 %");
    g_assert_cmpstr (count, ==, "+2");
  }
  /* Means of counts over repeats keep their precision: stalls 0.5 → 1 was
   * "+1" (rounded), a third of a stall was "0". */
  {
    g_autofree char *half = rp_report_format_change (RP_METRIC_COUNT, 0.5, 1, NULL);
    g_autofree char *third = rp_report_format_change (RP_METRIC_COUNT, 1, 2.0 / 3, NULL);
    g_autofree char *samples = rp_report_format_change (RP_METRIC_SAMPLES, 60, 60.5, NULL);
    g_autofree char *tiny = rp_report_format_change (RP_METRIC_COUNT, 0, 0.004, NULL);
    g_autofree char *mean = rp_report_format_metric (RP_METRIC_COUNT, 0.5);
    g_autofree char *mean_third = rp_report_format_metric (RP_METRIC_COUNT, 1.0 / 3);
    g_autofree char *whole = rp_report_format_metric (RP_METRIC_COUNT, 7);
    g_autofree char *big = rp_report_format_metric (RP_METRIC_COUNT, 12.25);

    g_assert_cmpstr (half, ==, "+0.5");
    g_assert_cmpstr (third, ==, "-0.33");
    g_assert_cmpstr (samples, ==, "+0.5");
    g_assert_cmpstr (tiny, ==, "+0.004");
    g_assert_cmpstr (mean, ==, "0.5");
    g_assert_cmpstr (mean_third, ==, "0.33");
    g_assert_cmpstr (whole, ==, "7");
    g_assert_cmpstr (big, ==, "12.2");
  }
  /* The same scenario: no row of its parts. */
  g_assert_null (strstr (text, "Preset"));
  g_assert_null (strstr (text, "fsync probe  "));

  /* Five runs of three configurations, one without samples: repeats share
   * a column, named by their runs. */
  g_ptr_array_add (five, ordered);
  g_ptr_array_add (five, writeback);
  g_ptr_array_add (five, empty);
  g_ptr_array_add (five, ordered);
  g_ptr_array_add (five, writeback);
  wide = rp_report_compare_text (five);
  if (g_test_verbose ())
    g_printerr ("%s", wide);
  assert_lines_fit (wide, 80);
  g_assert_true (g_regex_match_simple ("^ +Runs 1, 4 +Runs 2, 5 +Run 3$", wide, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^\\* File system +ext3 +ext4 +unknown$", wide, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^\\* Preset +R1 +R1 +passive$", wide, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^\\* Sequential writer +bs=1\\.0 MiB, +bs=1\\.0 MiB, +none$", wide,
                                       G_REGEX_MULTILINE, 0));
  /* Two identical runs: their mean, an interval of no width (none shown),
   * sample counts summed. */
  g_assert_true (g_regex_match_simple ("^  fsync samples +18 +20 \\(\\+2\\) +-$", wide, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^  fsync worst +10\\.86 s +1\\.92 s \\(-82 %, ", wide,
                                       G_REGEX_MULTILINE, 0));

  /* Four configurations: two tables of two columns, one below the other:
   * 80 columns for a bug tracker however many runs. */
  {
    g_autoptr(RpReport) xfs = make_report_full ("xfs", "none", r1_ext4_writeback, G_N_ELEMENTS (r1_ext4_writeback));
    g_autoptr(RpReport) btrfs = make_report_full ("btrfs", "none", r1_ext4_writeback, G_N_ELEMENTS (r1_ext4_writeback));
    g_autoptr(GPtrArray) four = g_ptr_array_new ();
    g_autofree char *blocks = NULL;

    g_ptr_array_add (four, ordered);
    g_ptr_array_add (four, writeback);
    g_ptr_array_add (four, xfs);
    g_ptr_array_add (four, btrfs);
    blocks = rp_report_compare_text (four);
    if (g_test_verbose ())
      g_printerr ("%s", blocks);
    assert_lines_fit (blocks, 80);
    g_assert_true (g_regex_match_simple ("^ +Run 1 +Run 2$", blocks, G_REGEX_MULTILINE, 0));
    g_assert_true (g_regex_match_simple ("^ +Run 3 +Run 4$", blocks, G_REGEX_MULTILINE, 0));
    g_assert_true (g_regex_match_simple ("^\\* File system +xfs +btrfs$", blocks, G_REGEX_MULTILINE, 0));
  }
}

/* Runs whose scenarios differ in one part (here the fsync probe's interval,
 * which the description of each run says only in passing) get a row for
 * that part, marked, above the system's settings. */
static void
test_compare_scenarios (void)
{
  static const double calm[] = { 0.01, 0.02, 0.05 };
  g_autoptr(RpReport) every_second = make_report_with (RP_SERIES_FSYNC_LATENCY, calm, 3);
  g_autoptr(RpScenario) faster = rp_scenario_copy (rp_report_get_scenario (every_second));
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(RpReport) twice_a_second = NULL;
  g_autoptr(GPtrArray) two = g_ptr_array_new ();
  g_autofree char *text = NULL;
  const char *row;

  rp_params_set_seconds (faster->params, "fsync_interval", 0.5);
  g_ptr_array_add (series, make_series (RP_SERIES_FSYNC_LATENCY, "s", calm, 3, 0, 0.5));
  twice_a_second = rp_report_new (NULL, faster, series, NULL);
  g_ptr_array_add (two, every_second);
  g_ptr_array_add (two, twice_a_second);
  text = rp_report_compare_text (two);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_lines_fit (text, 80);
  g_assert_true (g_regex_match_simple ("^\\* fsync probe +1\\.0 MiB every 1 s +1\\.0 MiB every 0\\.5 s$", text,
                                       G_REGEX_MULTILINE, 0));
  g_assert_null (strstr (text, "Preset"));
  g_assert_null (strstr (text, "Duration"));
  row = strstr (text, "* fsync probe");
  g_assert_nonnull (row);
  g_assert_nonnull (strstr (row, "File system"));
}

/* A session that never ran still gives a complete (empty) report. */
static void
test_from_idle_session (void)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpSession) session = rp_session_new (scenario);
  g_autoptr(RpReport) report = rp_report_new_from_session (session);
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *json = NULL;

  g_assert_nonnull (rp_report_get_sysinfo (report));
  g_assert_cmpuint (rp_report_get_series (report)->len, ==, 0);
  g_assert_null (rp_report_get_error_message (report));
  exercise (report);
  json = rp_report_to_json (report, NULL);
  loaded = load_ok (json, -1);
  assert_reports_equal (report, loaded);
}

static void
on_finished (RpSession *session,
             gpointer   user_data)
{
  *(gboolean *) user_data = TRUE;
}

/* A real (short, passive) run with the fsync probe, saved and loaded. */
static void
test_from_session (void)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(RpSession) session = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-report-XXXXXX", NULL);
  g_autofree char *json = NULL;
  g_autofree char *text = NULL;
  gboolean finished = FALSE;
  RpStats stats;

  g_free (scenario->directory);
  scenario->directory = g_strdup (dir);
  rp_scenario_clear_role (scenario, RP_PART_PROBE);
  rp_scenario_set_part (scenario, "fsync", TRUE);
  scenario->duration = 2.5;
  rp_params_set_seconds (scenario->params, "fsync_interval", 0.2);
  rp_params_set_size (scenario->params, "fsync_size", 64 * 1024);

  session = rp_session_new (scenario);
  g_signal_connect (session, "finished", G_CALLBACK (on_finished), &finished);
  rp_session_start_async (session, NULL, NULL, NULL);
  while (!finished)
    g_main_context_iteration (NULL, TRUE);

  report = rp_report_new_from_session (session);
  g_assert_true (rp_report_get_stats (report, RP_SERIES_FSYNC_LATENCY, &stats));
  g_assert_cmpuint (stats.n, >=, 2);
  g_assert_cmpfloat (rp_report_get_duration (report), >=, 2.0);
  g_assert_cmpstr (rp_report_get_sysinfo (report)->target_directory, !=, NULL);
  text = rp_report_to_text (report);
  assert_lines_fit (text, 80);
  g_assert_true (g_regex_match_simple ("^fsync time: [0-9]+\\.[0-9]{4}$", text, G_REGEX_MULTILINE, 0));
  json = rp_report_to_json (report, NULL);
  loaded = load_ok (json, -1);
  assert_reports_equal (report, loaded);
  if (g_test_verbose ())
    g_printerr ("%s", text);

  g_assert_cmpuint (rp_test_count_entries (dir), ==, 0);
  g_assert_no_errno (g_rmdir (dir));
}

/* A matrix cell under --probe-dir as its JSON report has it: the probes on
 * the same ext4 in every cell, the loads on the cell's file system with
 * its scheduler, and the memory the cell emulated (NULL: none). */
static RpReport *
make_load_side_report (const char *load_fs,
                       const char *load_scheduler,
                       const char *memory)
{
  g_autoptr(RpReport) report = make_report_full ("ext4", "ordered", r1_ext4_writeback,
                                                 G_N_ELEMENTS (r1_ext4_writeback));
  g_autoptr(GError) error = NULL;
  g_autofree char *json = rp_report_to_json (report, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autofree char *edited = NULL;
  JsonObject *root, *system;
  RpReport *loaded;

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  root = json_node_get_object (json_parser_get_root (parser));
  system = json_object_get_object_member (root, "system");
  json_object_set_string_member (system, "load_directory", "/var/tmp/cell");
  json_object_set_string_member (system, "load_fs_type", load_fs);
  json_object_set_string_member (system, "load_journal_mode", "ordered");
  json_object_set_string_member (system, "load_scheduler", load_scheduler);
  if (memory != NULL)
    json_object_set_string_member (json_object_get_object_member (root, "notes"), "memory_emulated_bytes", memory);
  json_generator_set_root (generator, json_parser_get_root (parser));
  edited = json_generator_to_data (generator, NULL);
  loaded = rp_report_load_from_data (edited, -1, &error);
  g_assert_no_error (error);
  return loaded;
}

/* Issue 21, item 3: a matrix under --probe-dir varies the loads' side; the
 * probes' file system is the same in every cell. The comparison names the
 * runs by the loads' file system, scheduler and emulated memory, and shows
 * them as rows, marked where they differ. */
static void
test_compare_load_side (void)
{
  g_autoptr(RpReport) base = make_load_side_report ("ext4", "mq-deadline", NULL);
  g_autoptr(RpReport) ext3 = make_load_side_report ("ext3", "mq-deadline", NULL);
  g_autoptr(RpReport) bfq = make_load_side_report ("ext4", "bfq", NULL);
  g_autoptr(RpReport) small = make_load_side_report ("ext4", "mq-deadline", "4294967296");
  g_autoptr(GPtrArray) reports = g_ptr_array_new ();
  g_autofree char *text = NULL;
  g_auto(GStrv) names = NULL;

  g_ptr_array_add (reports, base);
  g_ptr_array_add (reports, ext3);
  g_ptr_array_add (reports, bfq);
  g_ptr_array_add (reports, small);
  names = rp_compare_name_runs (reports);
  g_assert_cmpstr (names[0], ==, "load on ext4, load scheduler mq-deadline, machine’s own memory");
  g_assert_cmpstr (names[1], ==, "load on ext3");
  g_assert_cmpstr (names[2], ==, "load scheduler bfq");
  g_assert_cmpstr (names[3], ==, "memory 4.0 GiB");

  text = rp_report_compare_text (reports);
  if (g_test_verbose ())
    g_printerr ("%s", text);
  assert_lines_fit (text, 80);
  /* Columns named by what differs; the probes' file system is no name.
   * Four runs are two blocks of two: Runs 3 and 4 are the second. */
  g_assert_true (g_regex_match_simple ("^ +Run 1 +Run 2$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^ +load scheduler bfq +memory 4\\.0 GiB$", text, G_REGEX_MULTILINE, 0));
  g_assert_nonnull (strstr (text, "load on ext3"));
  g_assert_true (g_regex_match_simple ("^\\* Load file system +ext4 +ext3$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^\\* Load disk’s I/O +bfq +mq-deadline$", text,
                                       G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^\\* Emulated memory +- +4\\.0 GiB$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^  Load journal mode +ordered +ordered$", text, G_REGEX_MULTILINE, 0));
  g_assert_true (g_regex_match_simple ("^  File system +ext4 +ext4$", text, G_REGEX_MULTILINE, 0));

  /* Runs whose loads wrote beside the probes have no such rows. */
  g_ptr_array_set_size (reports, 0);
  g_ptr_array_add (reports, make_report ());
  g_ptr_array_add (reports, make_report_full ("ext4", "writeback", r1_ext4_writeback, G_N_ELEMENTS (r1_ext4_writeback)));
  g_clear_pointer (&text, g_free);
  text = rp_report_compare_text (reports);
  g_assert_null (strstr (text, "Load file system"));
  g_assert_null (strstr (text, "Emulated memory"));
  g_object_unref (g_ptr_array_index (reports, 0));
  g_object_unref (g_ptr_array_index (reports, 1));
}

int
main (int   argc,
      char *argv[])
{
  setlocale (LC_ALL, "");
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/report/json/round-trip", test_json_round_trip);
  g_test_add_func ("/report/json/numbers", test_json_numbers);
  g_test_add_func ("/report/json/invalid-utf8", test_json_invalid_utf8);
  g_test_add_func ("/report/json/summary-not-trusted", test_json_summary_not_trusted);
  g_test_add_func ("/report/json/unsorted-samples", test_json_unsorted_samples);
  g_test_add_func ("/report/text", test_text);
  g_test_add_func ("/report/text/locale", test_text_locale);
  g_test_add_func ("/report/notes/for-people", test_notes_for_people);
  g_test_add_func ("/report/text/bytes", test_text_bytes);
  g_test_add_func ("/report/text/wrap", test_text_wrap);
  g_test_add_func ("/report/text/wide", test_text_wide);
  g_test_add_func ("/report/text/wrap-translations", test_text_wrap_translations);
  g_test_add_func ("/report/verdict", test_verdict);
  g_test_add_func ("/report/csv", test_csv);
  g_test_add_func ("/report/save", test_save);
  g_test_add_func ("/report/load/file-errors", test_load_file_errors);
  g_test_add_func ("/report/load/bad-corpus", test_load_bad_corpus);
  g_test_add_func ("/report/verdict-tmpfs", test_verdict_tmpfs);
  g_test_add_func ("/report/verdict-input-clock", test_verdict_input_clock);
  g_test_add_func ("/report/verdict-ended", test_verdict_ended);
  g_test_add_func ("/report/load/duplicate-keys", test_load_duplicate_keys);
  g_test_add_func ("/report/text/clean", test_text_clean);
  g_test_add_func ("/report/load/hostile-strings", test_load_hostile_strings);
  g_test_add_func ("/report/load/negative-values", test_load_negative_values);
  g_test_add_func ("/report/load/truncated", test_load_truncated);
  g_test_add_func ("/report/load/mutations", test_load_mutations);
  g_test_add_func ("/report/load/old-versions", test_load_old_versions);
  g_test_add_func ("/report/load/damaged-blocks", test_load_damaged_blocks);
  g_test_add_func ("/report/compare", test_compare);
  g_test_add_func ("/report/compare/scenarios", test_compare_scenarios);
  g_test_add_func ("/report/compare/load-side", test_compare_load_side);
  g_test_add_func ("/report/session/idle", test_from_idle_session);
  g_test_add_func ("/report/session/run", test_from_session);

  return g_test_run ();
}
