/* rp-scenario-text.c: a scenario as text, one sentence or one field per load and probe. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "rp-scenario.h"
#include "rp-units.h"

/* A part's settings as text: its own describe(), else its parameters'
 * values side by side. */
static char *
part_value (const RpScenario *self,
            const RpPartInfo *part)
{
  GString *text;

  if (part->describe != NULL)
    return part->describe (self->params);
  text = g_string_new (NULL);
  for (guint k = 0; k < part->n_params; k++)
    {
      g_autofree char *value = rp_params_format (self->params, &part->params[k]);

      g_string_append_printf (text, "%s%s %s", k > 0 ? ", " : "", part->params[k].name, value);
    }
  return g_string_free (text, FALSE);
}

static char *
duration_text (const RpScenario *self)
{
  if (self->duration > 0)
    return g_strdup_printf (_("%g s"), self->duration);
  /* As dd does: a writer with a size ends the run when it is done. */
  if (self->stop_when_loads_finish && rp_scenario_has_role (self, RP_PART_LOAD))
    return g_strdup (_("until the loads are done"));
  return g_strdup (_("until stopped"));
}

/* The parts a description names, loads first, then probes, each in table
 * order; calls @func with each part that can run, and whether it does. */
static void
foreach_part (const RpScenario *self,
              void            (*func) (const RpScenario *, const RpPartInfo *, gboolean, gpointer),
              gpointer          data)
{
  static const RpPartRole roles[] = { RP_PART_LOAD, RP_PART_PROBE };
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);

  for (guint r = 0; r < G_N_ELEMENTS (roles); r++)
    for (guint i = 0; i < n; i++)
      if (table[i]->role == roles[r])
        func (self, table[i], rp_scenario_has_part (self, table[i]->id), data);
}

/* @template with its one "%s" replaced by @value. The templates come from
 * the parts table, so they are not literals that the compiler could check
 * against printf's arguments; this takes no other conversion. */
static void
append_filled (GString    *out,
               const char *template,
               const char *value)
{
  const char *mark = strstr (template, "%s");

  if (mark == NULL)
    {
      g_string_append (out, template);
      return;
    }
  g_string_append_len (out, template, mark - template);
  g_string_append (out, value);
  g_string_append (out, mark + 2);
}

static void
append_sentence (const RpScenario *self,
                 const RpPartInfo *part,
                 gboolean          runs,
                 gpointer          data)
{
  g_autofree char *value = NULL;

  if (!runs)
    return;
  value = part_value (self, part);
  g_string_append_c (data, ' ');
  append_filled (data, _(part->sentence), value);
  g_string_append_c (data, ';');
}

/**
 * rp_scenario_describe:
 *
 * A one-paragraph, translated description of what runs, for headers and reports,
 * e.g. "R1: sequential writer bs=1.0 MiB, 15000 MiB, buffered; fsync probe
 * 1.0 MiB every 1 s; system sampler every 0.5 s; 20 s", with the folders
 * of the loads and of the probes first when the loads have a folder of their
 * own (RpScenario.load_directory). The values are those
 * of rp_scenario_get_fields().
 *
 * Returns: (transfer full): the text
 */
char *
rp_scenario_describe (const RpScenario *self)
{
  GString *s;
  g_autofree char *duration = NULL;

  g_return_val_if_fail (self != NULL, NULL);

  s = g_string_new (NULL);
  g_string_append_printf (s, "%s:", self->name);
  if (self->load_directory != NULL)
    /* TRANSLATORS: where each part ran: the load folder, then the target directory */
    g_string_append_printf (s, _(" loads in “%s”, probes in “%s”;"), self->load_directory,
                            rp_scenario_get_directory (self));
  if (!rp_scenario_has_role (self, RP_PART_LOAD))
    g_string_append_printf (s, " %s;", _("no load"));
  foreach_part (self, append_sentence, s);
  duration = duration_text (self);
  g_string_append_printf (s, " %s", duration);
  return g_string_free (s, FALSE);
}

static void
add_field (const RpScenario *self,
           const RpPartInfo *part,
           gboolean          runs,
           gpointer          data)
{
  g_ptr_array_add (data, rp_field_new (part->id, _(part->label),
                                       runs ? part_value (self, part) : g_strdup (_("none"))));
}

/**
 * rp_scenario_get_fields:
 *
 * Every part of the scenario for a table, so that runs can be compared part
 * by part: the preset, each load, each probe (value "none" where it does not
 * run) and the duration, always the same keys in the same order. Labels are
 * translated; values are short texts, e.g. "1.0 MiB every 1 s" for the fsync
 * probe.
 *
 * Returns: (transfer container) (element-type RpScenarioField): the fields,
 *   freeing the array frees them
 */
GPtrArray *
rp_scenario_get_fields (const RpScenario *self)
{
  GPtrArray *fields;

  g_return_val_if_fail (self != NULL, NULL);

  fields = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_field_free);
  g_ptr_array_add (fields, rp_field_new ("name", _("Preset"), g_strdup (self->name)));
  foreach_part (self, add_field, fields);
  g_ptr_array_add (fields, rp_field_new ("duration", _("Planned duration"), duration_text (self)));
  return fields;
}
