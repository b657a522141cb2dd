/* rp-comparison-file.c: reading a matrix's comparison.json: which report files it lists. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "rp-comparison-file.h"
#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-text.h"
#include "rp-units.h"

/* A comparison.json lists file names; a matrix of 8 configurations with
 * 10 repeats writes a few kilobytes. Anything larger is not one. */
#define MAX_COMPARISON_FILE_SIZE (1024 * 1024)
/* Where a comparison's "format" is: the first key the matrix writes. */
#define HEAD_BYTES 4096

/* Whether a file too large to be read as a comparison says it is one near
 * its start, where the matrix writes "format". */
static gboolean
starts_as_comparison (GFile *file)
{
  g_autoptr(GFileInputStream) stream = g_file_read (file, NULL, NULL);
  char head[HEAD_BYTES];
  gsize n = 0;

  if (stream == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (stream), head, sizeof head, &n, NULL, NULL))
    return FALSE;
  return g_strstr_len (head, (gssize) n, "\"resprobe-comparison\"") != NULL;
}

/* The file's bytes when it is small enough to be a comparison, else NULL:
 * without an error when it is not one (a report is larger, and not ours
 * to read here), with one naming the limit when it says it is one (a
 * hand-made list of 100 000 reports was "not a report": issue 33). */
static GBytes *
read_small (GFile   *file,
            GError **error)
{
  g_autoptr(GFileInfo) info = NULL;
  g_autofree char *data = NULL;
  gsize length = 0;

  info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_STANDARD_TYPE,
                            G_FILE_QUERY_INFO_NONE, NULL, NULL);
  if (info == NULL || g_file_info_get_file_type (info) != G_FILE_TYPE_REGULAR)
    return NULL;
  if (g_file_info_get_size (info) > MAX_COMPARISON_FILE_SIZE)
    {
      g_autofree char *name = NULL;
      g_autofree char *limit = NULL;

      if (!starts_as_comparison (file))
        return NULL;
      name = rp_text_file_name (file);
      limit = rp_format_size (MAX_COMPARISON_FILE_SIZE);
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   /* TRANSLATORS: a matrix's comparison.json; %s is its name, then a size, "1.0 MiB" */
                   _("Comparison “%s” is larger than %s, more than a comparison this program reads "
                     "(a matrix writes a few kilobytes: a list of its reports)"), name, limit);
      return NULL;
    }
  if (!g_file_load_contents (file, NULL, &data, &length, NULL, error))
    return NULL;
  return g_bytes_new_take (g_steal_pointer (&data), length);
}

/* The root object when @bytes is a comparison ("format":
 * "resprobe-comparison"), else NULL. */
static JsonObject *
comparison_root (JsonParser *parser,
                 GBytes     *bytes)
{
  gsize length;
  const char *data = g_bytes_get_data (bytes, &length);
  JsonNode *root;
  JsonObject *object;

  /* json-glib recurses without a limit: the reports' pre-check (depth,
   * size of the tree) first, as for a report. */
  if (!rp_report_json_precheck (data, length, NULL) ||
      !json_parser_load_from_data (parser, data, (gssize) length, NULL))
    return NULL;
  root = json_parser_get_root (parser);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return NULL;
  object = json_node_get_object (root);
  if (g_strcmp0 (json_object_get_string_member_with_default (object, "format", NULL),
                 "resprobe-comparison") != 0)
    return NULL;
  return object;
}

/* A listed name as a file beside the comparison: a plain relative path,
 * never absolute, never up out of the folder. NULL for another. */
static GFile *
resolve (GFile      *folder,
         const char *name)
{
  g_auto(GStrv) parts = NULL;

  if (name == NULL || name[0] == '\0' || g_path_is_absolute (name))
    return NULL;
  parts = g_strsplit (name, "/", -1);
  for (guint i = 0; parts[i] != NULL; i++)
    if (g_str_equal (parts[i], ".."))
      return NULL;
  return g_file_resolve_relative_path (folder, name);
}

/* Appends the files of @array's names to @out; FALSE when one is not a
 * plain name. */
static gboolean
add_names (GPtrArray *out,
           GFile     *folder,
           JsonArray *array,
           guint      first_only)
{
  guint n = json_array_get_length (array);

  for (guint i = 0; i < n && (first_only == 0 || i < 1); i++)
    {
      JsonNode *node = json_array_get_element (array, i);
      GFile *file = JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
                      ? resolve (folder, json_node_get_string (node)) : NULL;

      if (file == NULL)
        return FALSE;
      g_ptr_array_add (out, file);
    }
  return TRUE;
}

/* The first run of each configuration ("groups"), or NULL. */
static GPtrArray *
first_of_each_group (JsonObject *root,
                     GFile      *folder)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  JsonNode *groups = json_object_get_member (root, "groups");
  JsonArray *array;

  if (groups == NULL || !JSON_NODE_HOLDS_ARRAY (groups))
    return NULL;
  array = json_node_get_array (groups);
  for (guint g = 0; g < json_array_get_length (array); g++)
    {
      JsonNode *group = json_array_get_element (array, g);
      JsonNode *reports;

      if (!JSON_NODE_HOLDS_OBJECT (group))
        return NULL;
      reports = json_object_get_member (json_node_get_object (group), "reports");
      if (reports == NULL || !JSON_NODE_HOLDS_ARRAY (reports) ||
          json_array_get_length (json_node_get_array (reports)) == 0 ||
          !add_names (files, folder, json_node_get_array (reports), TRUE))
        return NULL;
    }
  return g_steal_pointer (&files);
}

/**
 * rp_comparison_file_read:
 * @file: a file that may be a matrix's `comparison.json`
 * @max_reports: the most reports the caller compares (a window: 8)
 * @error: %RP_ERROR_REPORT naming @file when it is a comparison that lists
 *   no usable report, a name outside its folder, or more reports than
 *   @max_reports in more configurations than that; an I/O error from
 *   reading it
 *
 * Tells a comparison from a report: a regular file of at most 1 MiB whose
 * JSON object has `"format": "resprobe-comparison"` (written by
 * `resprobe-cli matrix`, docs/REPORT-FORMAT.md). Its `reports` are
 * resolved beside it, in its order (the matrix's). When there are more
 * than @max_reports, the first run of each configuration (`groups`) is
 * taken instead, if they are few enough. Reads no report.
 *
 * Returns: (transfer full) (element-type GFile) (nullable): the report
 *   files, or %NULL: with @error set when @file is a comparison that cannot
 *   be used, without when it is not a comparison (a report, say)
 */
GPtrArray *
rp_comparison_file_read (GFile   *file,
                         guint    max_reports,
                         GError **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonParser) parser = json_parser_new_immutable ();
  g_autoptr(GFile) folder = NULL;
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree char *name = NULL;
  JsonObject *root;
  JsonNode *reports;

  g_return_val_if_fail (G_IS_FILE (file), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  bytes = read_small (file, error);
  if (bytes == NULL || (root = comparison_root (parser, bytes)) == NULL)
    return NULL;
  folder = g_file_get_parent (file);
  name = rp_text_file_name (file);
  reports = json_object_get_member (root, "reports");
  if (folder == NULL || reports == NULL || !JSON_NODE_HOLDS_ARRAY (reports) ||
      !add_names (files, folder, json_node_get_array (reports), 0))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("Comparison “%s” does not list its reports as file names in its folder"), name);
      return NULL;
    }
  if (files->len > max_reports)
    {
      g_autoptr(GPtrArray) firsts = first_of_each_group (root, folder);

      if (firsts == NULL || firsts->len > max_reports)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                       /* TRANSLATORS: the first %u is how many reports the file lists, the second the most that can be compared */
                       g_dngettext (GETTEXT_PACKAGE,
                                    "Comparison “%s” lists %u report in more configurations than the %u that can be compared",
                                    "Comparison “%s” lists %u reports in more configurations than the %u that can be compared",
                                    files->len),
                       name, files->len, max_reports);
          return NULL;
        }
      g_ptr_array_unref (files);
      files = g_steal_pointer (&firsts);
    }
  if (files->len == 0)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT, _("Comparison “%s” lists no reports"), name);
      return NULL;
    }
  return g_steal_pointer (&files);
}
