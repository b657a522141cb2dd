/* rp-cli-repeats.c: runs of the same configuration grouped, their table and comparison.json. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "rp-cli.h"
#include "rp-report.h"
#include "rp-stats.h"
#include "rp-text.h"
#include "rp-units.h"

/* `matrix --repeat N` and `run --repeat N` run each configuration N times,
 * interleaved, so that drift over the session (a filling disk, a warming
 * cache, a neighbour's load) hits every configuration alike; one run per
 * configuration could not tell a difference from noise (issue 17). */

/**
 * rp_cli_group_new:
 * @key: the configuration's stable id (a matrix cell's name)
 * @label: the configuration for people
 *
 * Returns: (transfer full): an empty group; free with rp_cli_group_free()
 */
RpCliGroup *
rp_cli_group_new (const char *key,
                  const char *label)
{
  RpCliGroup *group = g_new0 (RpCliGroup, 1);

  group->key = g_strdup (key);
  group->label = g_strdup (label);
  group->reports = g_ptr_array_new_with_free_func (g_object_unref);
  group->file_names = g_ptr_array_new_with_free_func (g_free);
  return group;
}

/**
 * rp_cli_group_free:
 * @group: (nullable) (transfer full): a group
 */
void
rp_cli_group_free (RpCliGroup *group)
{
  if (group == NULL)
    return;
  g_free (group->key);
  g_free (group->label);
  g_ptr_array_unref (group->reports);
  g_ptr_array_unref (group->file_names);
  g_free (group);
}

/**
 * rp_cli_repeat_report_path:
 * @report_path: (nullable): the report file asked for, e.g. "out/run.json"
 * @repeat: which run, from 1
 * @repeats: how many runs
 *
 * The file of one repeat: "out/run-r2.json" (the extension kept last, so
 * that the file still opens as a report); @report_path itself for a single
 * run.
 *
 * Returns: (transfer full) (nullable): the path, %NULL for a %NULL @report_path
 */
char *
rp_cli_repeat_report_path (const char *report_path,
                    guint       repeat,
                    guint       repeats)
{
  const char *dot, *slash;

  if (report_path == NULL || repeats <= 1)
    return g_strdup (report_path);
  dot = strrchr (report_path, '.');
  slash = strrchr (report_path, '/');
  if (dot == NULL || (slash != NULL && dot < slash) || dot == report_path || dot[-1] == '/')
    return g_strdup_printf ("%s-r%u", report_path, repeat);
  return g_strdup_printf ("%.*s-r%u%s", (int) (dot - report_path), report_path, repeat, dot);
}

/**
 * rp_cli_repeats_table:
 * @groups: (element-type RpCliGroup): the configurations, each with its runs
 *
 * The table the matrix and `run --repeat` print: the comparison of every
 * run (rp_report_compare_text()), which puts the repeats of one
 * configuration in one column (their reports carry it:
 * rp_report_set_configuration()) and gives each figure with its interval
 * and whether a difference is significant or within noise.
 *
 * Returns: (transfer full): the table, lines of at most 80 columns
 */
char *
rp_cli_repeats_table (GPtrArray *groups)
{
  g_autoptr(GPtrArray) reports = g_ptr_array_new ();

  for (guint g = 0; g < groups->len; g++)
    {
      RpCliGroup *group = g_ptr_array_index (groups, g);

      for (guint i = 0; i < group->reports->len; i++)
        g_ptr_array_add (reports, g_ptr_array_index (group->reports, i));
    }
  return rp_report_compare_text (reports);
}

/**
 * rp_cli_write_comparison:
 * @directory: where comparison.json goes
 * @groups: (element-type RpCliGroup): the configurations, with the file
 *   names (relative to @directory) of their saved reports
 * @repeats: runs asked for per configuration
 * @error: an I/O error naming the file
 *
 * Writes `comparison.json` atomically: "reports" lists every report file,
 * "groups" each configuration with its key, label and report files
 * (docs/REPORT-FORMAT.md, "comparison.json").
 *
 * Returns: %TRUE when written
 */
gboolean
rp_cli_write_comparison (const char  *directory,
                         GPtrArray   *groups,
                         guint        repeats,
                         GError     **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *path = g_build_filename (directory, "comparison.json", NULL);
  g_autofree char *data = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "format");
  json_builder_add_string_value (builder, "resprobe-comparison");
  json_builder_set_member_name (builder, "version");
  json_builder_add_int_value (builder, 1);
  json_builder_set_member_name (builder, "repeats");
  json_builder_add_int_value (builder, repeats);
  json_builder_set_member_name (builder, "reports");
  json_builder_begin_array (builder);
  for (guint g = 0; g < groups->len; g++)
    {
      RpCliGroup *group = g_ptr_array_index (groups, g);

      for (guint i = 0; i < group->file_names->len; i++)
        json_builder_add_string_value (builder, g_ptr_array_index (group->file_names, i));
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "groups");
  json_builder_begin_array (builder);
  for (guint g = 0; g < groups->len; g++)
    {
      RpCliGroup *group = g_ptr_array_index (groups, g);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "key");
      json_builder_add_string_value (builder, group->key);
      json_builder_set_member_name (builder, "label");
      json_builder_add_string_value (builder, group->label);
      json_builder_set_member_name (builder, "reports");
      json_builder_begin_array (builder);
      for (guint i = 0; i < group->file_names->len; i++)
        json_builder_add_string_value (builder, g_ptr_array_index (group->file_names, i));
      json_builder_end_array (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json_generator_set_pretty (generator, TRUE);
  data = json_generator_to_data (generator, NULL);
  return g_file_set_contents_full (path, data, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
}
