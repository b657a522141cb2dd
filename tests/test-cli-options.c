/* test-cli-options.c: every parameter of the parts table set from `resprobe-cli run`'s options, into the report. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "rp-cli-run-options.h"
#include "rp-parts.h"
#include "rp-report.h"
#include "rp-sysinfo-private.h"
#include "rp-units.h"

/* A value of @p other than its default and within its range, as typed on
 * the command line (*@out_text) and as the report's scenario holds it
 * (*@out_expected, a JSON text). */
static void
other_value (const RpParamInfo  *p,
             char              **out_text,
             char              **out_expected)
{
  /* A size whose default is "the default size" (0): 64 MiB, more than a
   * block of any load. */
  double base = p->default_value > 0 ? p->default_value
                : p->kind == RP_PARAM_SIZE ? CLAMP (64.0 * RP_MiB, p->min, p->max) : p->min;
  double v = base * 2 <= p->max ? base * 2 : (p->min + base) / 2;

  switch (p->kind)
    {
    case RP_PARAM_SIZE:
      v = floor (v);
      *out_text = g_strdup_printf ("%.0f", v);
      *out_expected = g_strdup_printf ("%.0f", v);
      return;
    case RP_PARAM_SECONDS:
      *out_text = g_strdup_printf ("%.9g", v);
      *out_expected = g_strdup (*out_text);
      return;
    case RP_PARAM_COUNT:
      v = p->default_value + 1 <= p->max ? p->default_value + 1 : p->default_value - 1;
      *out_text = g_strdup_printf ("%.0f", v);
      *out_expected = g_strdup (*out_text);
      return;
    case RP_PARAM_FLAG:
      g_assert_cmpfloat (p->default_value, ==, 0);
      *out_text = NULL;
      *out_expected = g_strdup ("true");
      return;
    case RP_PARAM_CHOICE:
      {
        guint n = g_strv_length ((char **) p->choices);
        const char *word = p->choices[((guint) p->default_value + 1) % n];

        *out_text = g_strdup (word);
        *out_expected = g_strdup_printf ("\"%s\"", word);
        return;
      }
    case RP_PARAM_ARGV:
    default:
      *out_text = g_strdup ("true 31");
      *out_expected = g_strdup ("[\"true\",\"31\"]");
      return;
    }
}

/* The member @key of the "scenario" of @report's JSON, as JSON text. */
static char *
scenario_member (RpReport   *report,
                 const char *key)
{
  g_autofree char *json = rp_report_to_json (report, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *scenario;
  JsonNode *member;

  g_assert_true (json_parser_load_from_data (parser, json, -1, &error));
  g_assert_no_error (error);
  scenario = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "scenario");
  member = json_object_get_member (scenario, key);
  if (member == NULL)
    return NULL;
  return json_to_string (member, FALSE);
}

/* Issue 31, item 9: `--fsync-size` and `--cold-read-size` were parameters
 * of the table but "Unknown option". Each parameter, from the table: its
 * option (or the rule that sets it: --size, a second --command) is
 * accepted, and its value lands in the report's scenario. */
static void
test_every_parameter (void)
{
  guint n;
  const RpParamEntry *params = rp_parts_get_params (&n);
  g_autoptr(RpSysinfo) sysinfo = rp_sysinfo_new ();
  guint checked = 0;

  for (guint i = 0; i < n; i++)
    {
      const RpParamInfo *p = params[i].param;
      const RpPartInfo *part = params[i].part;
      g_auto(RpRunOptions) options = { 0 };
      g_autoptr(GOptionContext) context = g_option_context_new (NULL);
      g_autoptr(GPtrArray) args = g_ptr_array_new_with_free_func (g_free);
      g_autoptr(GError) error = NULL;
      g_autoptr(RpScenario) scenario = NULL;
      g_autoptr(RpReport) report = NULL;
      g_autoptr(GPtrArray) series = g_ptr_array_new ();
      g_autofree char *text = NULL, *expected = NULL, *got = NULL;
      const char *option = p->option != NULL ? p->option : p->cli_rule;
      g_auto(GStrv) argv = NULL;
      int argc;

      g_test_message ("%s (%s): --%s", p->key, part->id, option != NULL ? option : "(none)");
      /* Every parameter has its option, or a rule of the CLI that sets it. */
      g_assert_nonnull (option);
      g_assert_true (p->option == NULL || p->cli_rule == NULL);
      g_assert_true (part->role == RP_PART_LOAD || part->role == RP_PART_PROBE);

      other_value (p, &text, &expected);
      g_ptr_array_add (args, g_strdup ("run"));
      g_ptr_array_add (args, g_strdup (part->role == RP_PART_LOAD ? "--load" : "--probe"));
      g_ptr_array_add (args, g_strdup (part->id));
      if (g_strcmp0 (p->cli_rule, "command") == 0)
        {
          /* The first --command is the command, the others run beside it. */
          g_ptr_array_add (args, g_strdup ("--command=true 1"));
          g_clear_pointer (&expected, g_free);
          expected = g_strdup ("[\"true 31\"]");
        }
      g_ptr_array_add (args, text != NULL ? g_strdup_printf ("--%s=%s", option, text)
                                          : g_strdup_printf ("--%s", option));
      g_ptr_array_add (args, NULL);
      argv = g_strdupv ((char **) args->pdata);
      argc = (int) args->len - 1;

      rp_run_options_init (&options);
      g_option_context_add_main_entries (context, rp_run_options_get_entries (&options), NULL);
      {
        /* GOption takes what it parses out of the array it is given: a
         * copy of the pointers, so that argv still frees every string. */
        g_autofree char **parsed = g_memdup2 (argv, sizeof (char *) * (args->len));

        g_assert_true (g_option_context_parse (context, &argc, &parsed, &error));
      }
      g_assert_no_error (error);
      scenario = rp_run_options_to_scenario (&options, &error);
      g_assert_no_error (error);
      g_assert_nonnull (scenario);

      report = rp_report_new (sysinfo, scenario, series, NULL);
      got = scenario_member (report, p->key);
      g_test_message ("  %s: expected %s, got %s", p->key, expected, got);
      if (p->kind == RP_PARAM_SECONDS && got != NULL)
        g_assert_cmpfloat_with_epsilon (g_ascii_strtod (got, NULL), g_ascii_strtod (expected, NULL), 1e-9);
      else
        g_assert_cmpstr (got, ==, expected);
      checked++;
    }
  g_assert_cmpuint (checked, ==, n);
  g_assert_cmpuint (checked, >=, 40);
}

/* `--help` lists each option with its help text. */
static void
test_help_lists_every_option (void)
{
  guint n;
  const RpParamEntry *params = rp_parts_get_params (&n);
  g_auto(RpRunOptions) options = { 0 };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autofree char *help = NULL;

  rp_run_options_init (&options);
  g_option_context_add_main_entries (context, rp_run_options_get_entries (&options), NULL);
  help = g_option_context_get_help (context, TRUE, NULL);
  for (guint i = 0; i < n; i++)
    {
      const RpParamInfo *p = params[i].param;
      g_autofree char *dashed = NULL;

      if (p->option == NULL)
        continue;
      dashed = g_strdup_printf ("--%s", p->option);
      if (strstr (help, dashed) == NULL)
        g_error ("--help lacks %s:\n%s", dashed, help);
    }
  g_assert_nonnull (strstr (help, "--fsync-size"));
  g_assert_nonnull (strstr (help, "--cold-read-size"));
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/cli-options/every-parameter", test_every_parameter);
  g_test_add_func ("/cli-options/help", test_help_lists_every_option);
  return g_test_run ();
}
