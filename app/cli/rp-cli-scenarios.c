/* rp-cli-scenarios.c: `resprobe-cli scenarios`: list the preset scenarios with what each runs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-cli.h"
#include "rp-scenario.h"
#include "rp-text.h"

/* The column of the descriptions, after "%-10s ". */
#define INDENT "           "

/**
 * rp_cli_scenarios:
 * @argc: argument count, argv[0] being "scenarios"
 * @argv: arguments
 *
 * `resprobe-cli scenarios`: one line per preset (its id and one-line
 * description, translated), then what it runs with its defaults, from
 * rp_scenario_describe().
 *
 * Returns: 0, or 2 for bad options
 */
int
rp_cli_scenarios (int    argc,
                  char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GString) out = g_string_new (NULL);
  const RpPresetInfo *presets;
  guint n_presets = 0;

  g_option_context_set_summary (context, _("List the preset scenarios for “resprobe-cli run --scenario NAME”."));
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;
  if (argc > 1)
    {
      rp_cli_printerr (_("resprobe-cli: unexpected argument “%s”\n"), argv[1]);
      return RP_CLI_EXIT_USAGE;
    }

  /* Wrapped to 80 columns, the width of the rest of the CLI's text. */
  presets = rp_scenario_list_presets (&n_presets);
  for (guint i = 0; i < n_presets; i++)
    {
      g_autoptr(RpScenario) scenario = rp_scenario_new_preset (presets[i].id, NULL);
      g_autofree char *description = NULL;
      g_autofree char *id = g_strdup_printf ("%-10s ", presets[i].id);

      /* As `run` without --duration runs it: dd's writer ends the run when
       * it has written its size ("until the loads are done"); the copy loop,
       * the CPU benchmark and writers without a size run until stopped. */
      scenario->stop_when_loads_finish = rp_scenario_has_part (scenario, "seq-writer");
      description = rp_scenario_describe (scenario);

      rp_text_append_wrapped (out, id, INDENT, _(presets[i].title));
      rp_text_append_wrapped (out, INDENT, INDENT, description);
    }
  g_string_append_c (out, '\n');
  rp_text_append_wrapped (out, "", "",
                          _("Custom combinations: resprobe-cli run --load NAME --probe NAME … (see “resprobe-cli run --help”)."));
  g_print ("%s", out->str);
  return RP_CLI_EXIT_OK;
}
