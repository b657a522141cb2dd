/* rp-cli-run-options.c: the options of `resprobe-cli run`, from the parts table. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "rp-cli.h"
#include "rp-cli-run-options.h"
#include "rp-error.h"
#include "rp-units.h"

/* Short options of the parts' most used parameters, as the CLI always had
 * them: a matter of the command line, not of the parts. */
static const struct {
  const char *option;
  char        short_name;
} short_names[] = {
  { "block-size", 'b' },
  { "interval", 'i' },
  { "command", 'c' },
};

static char
short_name_of (const char *option)
{
  for (guint i = 0; i < G_N_ELEMENTS (short_names); i++)
    if (g_str_equal (short_names[i].option, option))
      return short_names[i].short_name;
  return 0;
}

/* "seq-writer, copy-loop, …, none": the ids of one role, for --help and errors. */
static char *
part_ids (RpPartRole role)
{
  GString *ids = g_string_new (NULL);
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);

  for (guint i = 0; i < n; i++)
    if (table[i]->role == role)
      g_string_append_printf (ids, "%s, ", table[i]->id);
  g_string_append (ids, "none");
  return g_string_free (ids, FALSE);
}

/* The ranges of the parameters the scenario runs, as rp_scenario_validate()
 * checks them, but naming the option the user typed ("--interval: 0.001
 * is out of range"), not the parameter ("interval"). */
static gboolean
check_option_ranges (const RpScenario  *scenario,
                     GError           **error)
{
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);

  for (guint i = 0; i < n; i++)
    {
      if (!rp_scenario_has_part (scenario, table[i]->id))
        continue;
      for (guint k = 0; k < table[i]->n_params; k++)
        {
          RpParamInfo named = table[i]->params[k];
          g_autofree char *option = NULL;

          if (named.option == NULL)
            continue;
          option = g_strdup_printf ("--%s", named.option);
          named.name = option;
          if (!rp_params_validate (scenario->params, &named, error))
            return FALSE;
        }
    }
  return TRUE;
}

static void
add_entry (GArray       *entries,
           const char   *long_name,
           char          short_name,
           GOptionArg    arg,
           gpointer      data,
           const char   *description,
           const char   *arg_description)
{
  GOptionEntry entry = { long_name, short_name, 0, arg, data, description, arg_description };

  g_array_append_val (entries, entry);
}

/**
 * rp_run_options_init:
 *
 * Empties @options and builds its option entries: the common ones, then one
 * per parameter of the parts table that has an option, in table order.
 * Descriptions are untranslated (GOption translates them with the domain).
 */
void
rp_run_options_init (RpRunOptions *options)
{
  static char *load_help, *probe_help;
  static gsize initialized;
  guint n;
  const RpParamEntry *params = rp_parts_get_params (&n);
  GArray *e;

  if (g_once_init_enter (&initialized))
    {
      g_autofree char *loads = part_ids (RP_PART_LOAD);
      g_autofree char *probes = part_ids (RP_PART_PROBE);

      /* Built once and kept: GOption keeps pointers to the descriptions. */
      load_help = g_strdup_printf (_("Load to run instead of the preset’s, repeatable: %s"), loads);
      probe_help = g_strdup_printf (_("Probe to run instead of the preset’s, repeatable: %s"), probes);
      g_once_init_leave (&initialized, 1);
    }

  memset (options, 0, sizeof *options);
  options->repeat = 1;
  options->param_texts = g_new0 (char *, n);
  options->param_lists = g_new0 (char **, n);
  options->param_flags = g_new0 (gboolean, n);
  options->entries = e = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));

  add_entry (e, "scenario", 0, G_OPTION_ARG_STRING, &options->scenario, N_("Preset to run (default R1)"), N_("NAME"));
  add_entry (e, "dir", 'd', G_OPTION_ARG_FILENAME, &options->directory, N_("Target directory (default ~/.cache/resprobe)"), N_("DIR"));
  add_entry (e, "load-dir", 0, G_OPTION_ARG_FILENAME, &options->load_directory, N_("Run the loads in this directory, on another file system (a USB stick), while the probes stay in --dir (default: the loads in --dir too)"), N_("DIR"));
  add_entry (e, "memory", 0, G_OPTION_ARG_STRING, &options->memory, N_("Emulate a machine with this much memory (root): pin the rest for the run, so that the kernel’s default dirty thresholds are those of that machine (at least 1G)"), N_("SIZE"));
  add_entry (e, "size", 's', G_OPTION_ARG_STRING, &options->size, N_("Size of the main load: the writer’s total (default 15000M, at most half the free space), else the copied file, else each parallel writer’s file"), N_("SIZE"));
  add_entry (e, "duration", 't', G_OPTION_ARG_STRING, &options->duration, N_("Stop after this many seconds (default: when the loads are done, or Ctrl-C)"), N_("SECONDS"));
  add_entry (e, "report", 'o', G_OPTION_ARG_FILENAME, &options->report, N_("Save the JSON report here (default ~/.local/share/resprobe/reports/)"), N_("FILE"));
  add_entry (e, "force", 0, G_OPTION_ARG_NONE, &options->force, N_("Replace the --report file if it exists"), NULL);
  add_entry (e, "repeat", 'r', G_OPTION_ARG_INT, &options->repeat, N_("Run the scenario this many times, a report each (FILE-r1.json …; default 1)"), N_("N"));
  /* Already translated: GOption would look the built text up again. */
  add_entry (e, "load", 'l', G_OPTION_ARG_STRING_ARRAY, &options->loads, load_help, N_("NAME"));
  add_entry (e, "probe", 'p', G_OPTION_ARG_STRING_ARRAY, &options->probes, probe_help, N_("NAME"));

  for (guint i = 0; i < n; i++)
    {
      const RpParamInfo *p = params[i].param;

      if (p->option == NULL)
        continue;
      if (p->kind == RP_PARAM_FLAG)
        add_entry (e, p->option, short_name_of (p->option), G_OPTION_ARG_NONE,
                   &options->param_flags[i], p->help, NULL);
      else if (p->kind == RP_PARAM_ARGV)
        /* Collected, so that a second one is refused rather than dropped. */
        add_entry (e, p->option, short_name_of (p->option), G_OPTION_ARG_STRING_ARRAY,
                   &options->param_lists[i], p->help, p->arg_description);
      else
        add_entry (e, p->option, short_name_of (p->option), G_OPTION_ARG_STRING,
                   &options->param_texts[i], p->help, p->arg_description);
    }
}

void
rp_run_options_clear (RpRunOptions *options)
{
  g_clear_pointer (&options->scenario, g_free);
  g_clear_pointer (&options->directory, g_free);
  g_clear_pointer (&options->load_directory, g_free);
  g_clear_pointer (&options->memory, g_free);
  g_clear_pointer (&options->size, g_free);
  g_clear_pointer (&options->duration, g_free);
  g_clear_pointer (&options->report, g_free);
  g_clear_pointer (&options->loads, g_strfreev);
  g_clear_pointer (&options->probes, g_strfreev);
  g_clear_pointer (&options->command_args, g_strfreev);
  /* Sparse (NULL where an option was not given): not a GStrv. */
  if (options->param_texts != NULL)
    {
      guint n;

      rp_parts_get_params (&n);
      for (guint i = 0; i < n; i++)
        {
          g_free (options->param_texts[i]);
          g_strfreev (options->param_lists[i]);
        }
      g_clear_pointer (&options->param_texts, g_free);
      g_clear_pointer (&options->param_lists, g_free);
    }
  g_clear_pointer (&options->param_flags, g_free);
  if (options->entries != NULL)
    g_array_unref (g_steal_pointer (&options->entries));
}

/**
 * rp_run_options_get_entries:
 *
 * Returns: (transfer none): the entries for g_option_context_add_main_entries()
 */
GOptionEntry *
rp_run_options_get_entries (RpRunOptions *options)
{
  return (GOptionEntry *) options->entries->data;
}

static gboolean
param_given (const RpRunOptions *options,
             guint               index)
{
  return options->param_texts[index] != NULL || options->param_lists[index] != NULL ||
         options->param_flags[index];
}

/* --load and --probe name parts of their role; each value may also be a
 * comma-separated list; "none" selects nothing. */
static gboolean
select_parts (RpScenario         *scenario,
              char * const       *values,
              RpPartRole          role,
              const char         *option,
              GError            **error)
{
  rp_scenario_clear_role (scenario, role);
  for (guint i = 0; values[i] != NULL; i++)
    {
      g_auto(GStrv) items = g_strsplit (values[i], ",", -1);

      for (guint j = 0; items[j] != NULL; j++)
        {
          const char *id = g_strstrip (items[j]);
          const RpPartInfo *part = rp_parts_lookup (id);
          g_autofree char *known = NULL;

          if (g_str_equal (id, "none"))
            continue;
          if (part != NULL && part->role == role)
            {
              rp_scenario_set_part (scenario, id, TRUE);
              continue;
            }
          known = part_ids (role);
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("%s: unknown name “%s”; choose from %s"), option, id, known);
          return FALSE;
        }
    }
  return TRUE;
}

/* --command 'dd if=/dev/zero of=x' is split as a shell would split it, but
 * no shell runs it; arguments after "--" are taken as they are. Giving a
 * command is asking for it to run. --command given again adds a command
 * that runs beside the first (the command load's more_commands). */
static gboolean
apply_command (const RpRunOptions  *options,
               char * const        *command_texts,
               RpScenario          *scenario,
               GError             **error)
{
  const RpParamInfo *param = rp_params_lookup ("command_argv", NULL);
  const char *command_text = command_texts != NULL ? command_texts[0] : NULL;

  if (command_text != NULL && options->command_args != NULL)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("--command: give the command either with --command or after “--”, not both"));
      return FALSE;
    }
  if (options->command_args != NULL)
    rp_params_set_argv (scenario->params, "command_argv", (const char * const *) options->command_args);
  else if (command_text == NULL)
    return TRUE;
  else if (!rp_params_parse (scenario->params, param, command_text, "--command", error))
    return FALSE;
  /* Split and checked by the command load's validation, which names the
   * command ("command 2 …"). */
  if (command_text != NULL && command_texts[1] != NULL)
    rp_params_set_argv (scenario->params, "more_commands", (const char * const *) command_texts + 1);
  rp_scenario_set_part (scenario, "command", TRUE);
  return TRUE;
}

static gboolean
apply_combination (const RpRunOptions  *options,
                   RpScenario          *scenario,
                   GError             **error)
{
  guint64 preset_parts = scenario->parts;
  int command = rp_parts_lookup_param ("command_argv")->index;

  if (options->loads != NULL &&
      !select_parts (scenario, options->loads, RP_PART_LOAD, "--load", error))
    return FALSE;
  if (options->probes != NULL &&
      !select_parts (scenario, options->probes, RP_PART_PROBE, "--probe", error))
    return FALSE;
  if (!apply_command (options, options->param_lists[command], scenario, error))
    return FALSE;
  if (scenario->parts != preset_parts)
    {
      g_free (scenario->name);
      scenario->name = g_strdup ("custom");
    }
  return TRUE;
}

/* An option for a part the run does not have would be silently ignored, and
 * the user would measure something else than they asked for. */
static gboolean
refuse_inapplicable (const RpScenario  *scenario,
                     const char        *option,
                     GError           **error)
{
  g_autofree char *dashed = g_strconcat ("--", option, NULL);

  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("%s does not apply to scenario %s: it has no load or probe that uses it (see “resprobe-cli scenarios”)"),
               dashed, scenario->name);
  return FALSE;
}

/* The baseline is a parameter of the system sampler's row, but every part
 * that runs in it (the disk and stall samplers, kernel events) makes one,
 * and "0" (none) is what a run without such a part does anyway: neither is
 * refused (issue 33: `--probe fsync --baseline 0` was). */
static gboolean
baseline_applies (const RpScenario  *scenario,
                  const RpParamInfo *param,
                  const char        *text)
{
  g_autoptr(RpParams) parsed = rp_params_copy (scenario->params);
  const RpPartInfo * const *parts;
  guint n;

  /* Parsed as the option is ("0", "0s", "0,0"): 0 is "no baseline". */
  if (text != NULL && rp_params_parse (parsed, param, text, NULL, NULL) &&
      rp_params_get_seconds (parsed, param->key) == 0)
    return TRUE;
  parts = rp_parts_get_table (&n);
  for (guint i = 0; i < n; i++)
    if (parts[i]->in_baseline && rp_scenario_has_part (scenario, parts[i]->id))
      return TRUE;
  return FALSE;
}

/* Each parameter given, parsed by rp-units so that a bad value names its
 * option, for a part that runs. */
static gboolean
apply_parameters (const RpRunOptions  *options,
                  RpScenario          *scenario,
                  GError             **error)
{
  guint n;
  const RpParamEntry *params = rp_parts_get_params (&n);

  for (guint i = 0; i < n; i++)
    {
      const RpParamInfo *p = params[i].param;
      g_autofree char *dashed = NULL;

      if (p->option == NULL || !param_given (options, i))
        continue;
      if (!rp_scenario_has_part (scenario, params[i].part->id) &&
          !(g_str_equal (p->key, "baseline") && baseline_applies (scenario, p, options->param_texts[i])))
        return refuse_inapplicable (scenario, p->option, error);
      if (p->kind == RP_PARAM_ARGV && g_str_equal (p->key, "command_argv"))
        continue;  /* apply_command() */
      dashed = g_strconcat ("--", p->option, NULL);
      if (p->kind == RP_PARAM_ARGV)
        {
          if (options->param_lists[i][1] != NULL)
            {
              g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("%s: give it once"), dashed);
              return FALSE;
            }
          if (!rp_params_parse (scenario->params, p, options->param_lists[i][0], dashed, error))
            return FALSE;
          continue;
        }
      if (p->kind == RP_PARAM_FLAG)
        {
          rp_params_set_flag (scenario->params, p->key, TRUE);
          continue;
        }
      if (!rp_params_parse (scenario->params, p, options->param_texts[i], dashed, error))
        return FALSE;
    }
  return TRUE;
}

/**
 * rp_run_options_to_scenario:
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the option
 *
 * Applies the options to the preset (R1 by default; "custom" when --load,
 * --probe or a command is given without --scenario); every bad value is an
 * error naming its option, and nothing runs.
 *
 * Returns: (transfer full) (nullable): the validated scenario
 */
RpScenario *
rp_run_options_to_scenario (const RpRunOptions  *options,
                            GError             **error)
{
  g_autoptr(RpScenario) scenario = NULL;
  int command = rp_parts_lookup_param ("command_argv")->index;
  gboolean custom = options->loads != NULL || options->probes != NULL ||
                    options->param_lists[command] != NULL || options->command_args != NULL;
  const char *preset = options->scenario ? options->scenario : custom ? "custom" : "R1";
  const char *size = NULL;

  /* Named by the option: the scenario's check names its field. */
  if (!rp_cli_check_folder_option ("--dir", options->directory, FALSE, error) ||
      !rp_cli_check_folder_option ("--load-dir", options->load_directory, FALSE, error))
    return NULL;
  scenario = rp_scenario_new_preset (preset, error);
  if (scenario == NULL)
    return NULL;
  if (!apply_combination (options, scenario, error))
    return NULL;
  if (options->size != NULL && (size = rp_scenario_get_size_key (scenario)) == NULL)
    {
      refuse_inapplicable (scenario, "size", error);
      return NULL;
    }
  if (!apply_parameters (options, scenario, error))
    return NULL;

  if (options->directory != NULL)
    {
      g_free (scenario->directory);
      scenario->directory = g_strdup (options->directory);
    }
  if (options->load_directory != NULL)
    {
      g_free (scenario->load_directory);
      scenario->load_directory = g_strdup (options->load_directory);
    }
  if (size != NULL)
    {
      guint64 bytes;

      if (!rp_parse_size (options->size, "--size", &bytes, error))
        return NULL;
      rp_params_set_size (scenario->params, size, bytes);
    }
  if (options->duration != NULL &&
      !rp_parse_duration (options->duration, "--duration", &scenario->duration, error))
    return NULL;

  /* The writer stops by itself when no duration is given: dd's behaviour. */
  scenario->stop_when_loads_finish = options->duration == NULL;

  if (!check_option_ranges (scenario, error) || !rp_scenario_validate (scenario, error))
    return NULL;
  return g_steal_pointer (&scenario);
}
