/* test-report-limits.c: the report loader's limit on samples, at the limit and one over. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "rp-error.h"
#include "rp-report.h"

/* A report whose one series has @n_samples samples (all the report's: the
 * limit counts them over every series), each @sample. */
static GString *
report_with_n_samples (guint       n_samples,
                       const char *sample)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(RpReport) report = NULL;
  g_autofree char *json = NULL;
  const char *samples, *open, *close;
  GString *out;

  g_ptr_array_add (series, rp_series_new (RP_SERIES_FSYNC_LATENCY, "s", NULL));
  report = rp_report_new (NULL, scenario, series, NULL);
  json = rp_report_to_json_encoded (report, RP_REPORT_ENCODING_ARRAYS, NULL);
  samples = strstr (json, "\"samples\"");
  g_assert_nonnull (samples);
  open = strchr (samples, '[');
  close = strchr (open, ']');
  g_assert_nonnull (close);
  g_assert_null (strstr (close, "\"samples\""));
  out = g_string_sized_new (strlen (json) + (strlen (sample) + 1) * (gsize) n_samples);
  g_string_append_len (out, json, open + 1 - json);
  for (guint i = 0; i < n_samples; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      g_string_append (out, sample);
    }
  g_string_append (out, close);
  return out;
}

static void
assert_load_fails (const GString *json,
                   const char    *expected_in_message)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReport) report = rp_report_load_from_data (json->str, (gssize) json->len, &error);

  g_assert_null (report);
  g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
  if (strstr (error->message, expected_in_message) == NULL)
    g_error ("error “%s” lacks “%s”", error->message, expected_in_message);
}

/* The per-report sample limit: exactly RP_REPORT_MAX_JSON_SAMPLES pass the count
 * (the load then fails on the first sample, a bare 0 instead of [t, value]:
 * scalars cost json-glib a third of pairs); one more is refused by the count
 * (the scan of the text lets that many through). And a few well-formed
 * samples load, so that the bare 0 is what fails. Five million JSON nodes:
 * ~5 s and ~430 MB in a plain build, minutes under AddressSanitizer with
 * full allocation stacks, so tests/meson.build keeps it out of the
 * sanitizer run (suite 'slow'). */
static void
test_sample_limit (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReport) loaded = NULL;
  GString *json;

  json = report_with_n_samples (3, "[0,0]");
  loaded = rp_report_load_from_data (json->str, (gssize) json->len, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rp_series_get_length (rp_report_lookup_series (loaded, RP_SERIES_FSYNC_LATENCY)), ==, 3);
  g_string_free (json, TRUE);

  json = report_with_n_samples (RP_REPORT_MAX_JSON_SAMPLES, "0");
  assert_load_fails (json, "sample 0: expected [t, value]");
  g_string_free (json, TRUE);

  json = report_with_n_samples (RP_REPORT_MAX_JSON_SAMPLES + 1, "0");
  assert_load_fails (json, "more than 5000000 samples");
  g_string_free (json, TRUE);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-limits/samples", test_sample_limit);
  return g_test_run ();
}
