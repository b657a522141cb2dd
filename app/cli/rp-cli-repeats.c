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

/* Every latency sample of @series_name over the group's runs, and each run's
 * p99 in @run_p99 (runs without the series are left out). */
static GArray *
pool_samples (RpCliGroup *group,
              const char *series_name,
              GArray     *run_p99)
{
  GArray *pooled = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint r = 0; r < group->reports->len; r++)
    {
      RpReport *report = g_ptr_array_index (group->reports, r);
      RpSeries *series = rp_report_lookup_series (report, series_name);
      g_autofree RpPoint *points = NULL;
      guint n = 0;
      RpStats stats;

      if (series == NULL || (points = rp_series_copy_points (series, 0, &n)) == NULL || n == 0)
        continue;
      for (guint i = 0; i < n; i++)
        g_array_append_val (pooled, points[i].v);
      if (rp_report_get_stats (report, series_name, &stats))
        g_array_append_val (run_p99, stats.p99);
    }
  return pooled;
}

/* The latency series (unit "s") of the first run of the first group, in
 * their order in the report: what the table can show for every group. */
static GPtrArray *
latency_series_names (GPtrArray *groups)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);

  for (guint g = 0; g < groups->len && names->len == 0; g++)
    {
      RpCliGroup *group = g_ptr_array_index (groups, g);
      GPtrArray *series;

      if (group->reports->len == 0)
        continue;
      series = rp_report_get_series (g_ptr_array_index (group->reports, 0));
      for (guint i = 0; i < series->len; i++)
        if (g_strcmp0 (rp_series_get_unit (g_ptr_array_index (series, i)), "s") == 0)
          g_ptr_array_add (names, g_strdup (rp_series_get_name (g_ptr_array_index (series, i))));
    }
  return names;
}

static void
append_series_block (GString    *out,
                     GPtrArray  *groups,
                     const char *series_name)
{
  /* TRANSLATORS: column heads of the repeats table: the configuration, the
   * runs that have the series, samples over them, the median and the 99th
   * percentile of all their samples, the lowest and highest p99 of a run */
  const char *header[] = { _("Configuration"), _("Runs"), _("Samples"), "p50", "p99", _("p99 of a run") };
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);

  for (guint g = 0; g < groups->len; g++)
    {
      RpCliGroup *group = g_ptr_array_index (groups, g);
      g_autoptr(GArray) run_p99 = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GArray) pooled = pool_samples (group, series_name, run_p99);
      char **row = g_new0 (char *, G_N_ELEMENTS (header) + 1);
      RpStats stats;
      double lowest = INFINITY, highest = -INFINITY;

      row[0] = g_strdup (group->label);
      row[1] = g_strdup_printf ("%u", run_p99->len);
      row[2] = g_strdup_printf ("%u", pooled->len);
      g_ptr_array_add (rows, row);
      if (pooled->len == 0)
        {
          row[3] = g_strdup ("-");
          row[4] = g_strdup ("-");
          row[5] = g_strdup ("-");
          continue;
        }
      rp_stats_compute ((double *) pooled->data, pooled->len, &stats);
      for (guint i = 0; i < run_p99->len; i++)
        {
          lowest = MIN (lowest, g_array_index (run_p99, double, i));
          highest = MAX (highest, g_array_index (run_p99, double, i));
        }
      row[3] = rp_format_latency (stats.p50);
      row[4] = rp_format_latency (stats.p99);
      {
        g_autofree char *low = rp_format_latency (lowest);
        g_autofree char *high = rp_format_latency (highest);

        row[5] = g_strdup_printf ("%s – %s", low, high);
      }
    }
  g_string_append_printf (out, "%s\n", series_name);
  rp_text_append_table (out, G_N_ELEMENTS (header), header, rows);
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
 * The table the matrix prints when each configuration ran more than once:
 * per latency series, per configuration, the runs, the samples over them,
 * p50 and p99 of all those samples together, and the range of the runs'
 * own p99 (how much one run alone could have said). It says nothing of
 * significance yet; a comparison with tests of significance replaces this
 * function whole.
 *
 * Returns: (transfer full): the table, lines of at most 80 columns
 */
char *
rp_cli_repeats_table (GPtrArray *groups)
{
  g_autoptr(GString) out = g_string_new (NULL);
  g_autoptr(GPtrArray) names = latency_series_names (groups);

  g_string_append_printf (out, ngettext ("Latencies over the repeats of %u configuration\n",
                                         "Latencies over the repeats of %u configurations\n",
                                         groups->len), groups->len);
  for (guint i = 0; i < names->len; i++)
    {
      g_string_append_c (out, '\n');
      append_series_block (out, groups, g_ptr_array_index (names, i));
    }
  if (names->len == 0)
    g_string_append (out, _("No latency was measured.\n"));
  return g_string_free (g_steal_pointer (&out), FALSE);
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
