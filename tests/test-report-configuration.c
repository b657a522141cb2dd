/* test-report-configuration.c: a run's configuration and repeat in its report, and back. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <string.h>

#include "rp-error.h"
#include "rp-report.h"

static RpReport *
make_report (void)
{
  static const double fsync[] = { 0.5422, 6.37, 8.60 };
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  RpSeries *latency = rp_series_new ("fsync_latency", "s", NULL);

  for (guint i = 0; i < G_N_ELEMENTS (fsync); i++)
    rp_series_append (latency, 1.0 + i, fsync[i]);
  g_ptr_array_add (series, latency);
  return rp_report_new (NULL, scenario, series, NULL);
}

static RpReport *
round_trip (RpReport *report)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *json = rp_report_to_json (report, NULL);
  RpReport *loaded = rp_report_load_from_data (json, -1, &error);

  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  return loaded;
}

/* A single run has none, and a report written before repeats existed loads
 * as before. */
static void
test_absent (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *json = rp_report_to_json (report, NULL);

  g_assert_null (rp_report_get_configuration (report));
  g_assert_null (strstr (json, "\"configuration\""));
  loaded = round_trip (report);
  g_assert_null (rp_report_get_configuration (loaded));
}

static void
test_round_trip (void)
{
  g_autoptr(RpReport) report = make_report ();
  g_autoptr(RpReport) loaded = NULL;
  g_autofree char *json = NULL;
  g_autofree char *json_again = NULL;
  const RpReportConfiguration *configuration;

  rp_report_set_configuration (report, "ext3-ordered-none", "ext3 data=ordered, none", 2, 3);
  json = rp_report_to_json (report, NULL);
  g_assert_nonnull (strstr (json, "\"configuration\" : {\n    \"key\" : \"ext3-ordered-none\",\n"
                                  "    \"label\" : \"ext3 data=ordered, none\",\n"
                                  "    \"repeat\" : 2,\n    \"repeats\" : 3\n  }"));
  loaded = round_trip (report);
  configuration = rp_report_get_configuration (loaded);
  g_assert_nonnull (configuration);
  g_assert_cmpstr (configuration->key, ==, "ext3-ordered-none");
  g_assert_cmpstr (configuration->label, ==, "ext3 data=ordered, none");
  g_assert_cmpuint (configuration->repeat, ==, 2);
  g_assert_cmpuint (configuration->repeats, ==, 3);
  json_again = rp_report_to_json (loaded, NULL);
  g_assert_cmpstr (json, ==, json_again);

  /* Set again: the last one counts. */
  rp_report_set_configuration (report, "R1", NULL, 1, 1);
  configuration = rp_report_get_configuration (report);
  g_assert_cmpstr (configuration->label, ==, "R1");
  g_assert_cmpuint (configuration->repeats, ==, 1);
}

/* A report whose configuration was edited into nonsense is refused with the key named. */
static void
test_refused (void)
{
  static const char *bad[] = {
    "\"nothing\"",
    "[]",
    "{}",
    "{\"key\": \"a\", \"label\": \"a\", \"repeat\": 0, \"repeats\": 3}",
    "{\"key\": \"a\", \"label\": \"a\", \"repeat\": 4, \"repeats\": 3}",
    "{\"key\": \"a\", \"label\": \"a\", \"repeat\": 1.5, \"repeats\": 3}",
    "{\"key\": \"\", \"label\": \"a\", \"repeat\": 1, \"repeats\": 3}",
    "{\"key\": 7, \"label\": \"a\", \"repeat\": 1, \"repeats\": 3}",
    "{\"key\": \"a\", \"repeat\": 1, \"repeats\": 3}",
    "{\"key\": \"a\", \"label\": \"a\", \"repeat\": 1, \"repeats\": 1000000}",
  };
  g_autoptr(RpReport) report = make_report ();
  g_autofree char *json = rp_report_to_json (report, NULL);
  const char *cut = strstr (json, "  \"system\"");

  g_assert_nonnull (cut);
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autofree char *edited = g_strdup_printf ("%.*s  \"configuration\" : %s,\n%s",
                                                 (int) (cut - json), json, bad[i], cut);
      g_autoptr(GError) error = NULL;
      g_autoptr(RpReport) loaded = rp_report_load_from_data (edited, -1, &error);

      g_assert_null (loaded);
      g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
      g_assert_nonnull (strstr (error->message, "configuration"));
    }

  /* null is the same as absent */
  {
    g_autofree char *edited = g_strdup_printf ("%.*s  \"configuration\" : null,\n%s",
                                               (int) (cut - json), json, cut);
    g_autoptr(GError) error = NULL;
    g_autoptr(RpReport) loaded = rp_report_load_from_data (edited, -1, &error);

    g_assert_no_error (error);
    g_assert_null (rp_report_get_configuration (loaded));
  }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report/configuration/absent", test_absent);
  g_test_add_func ("/report/configuration/round-trip", test_round_trip);
  g_test_add_func ("/report/configuration/refused", test_refused);
  return g_test_run ();
}
