/* rp-report-configuration.c: which configuration a report ran, and which of its repeats it is. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-error.h"
#include "rp-report-private.h"

/* A figure from one run of one configuration is noise as often as it is a
 * difference (issue 17: the matrix printed 1.38 s vs 1.18 s from ten fsync
 * samples each). `resprobe-cli matrix --repeat N` and `run --repeat N` run a
 * configuration N times and say in each report which configuration it was and
 * which repeat, so that a comparison can group the runs of one configuration
 * (docs/REPORT-FORMAT.md, "configuration"). */

/* Keys and labels are short: a cell name such as "ext4-writeback-bfq-dirty64M". */
#define CONFIGURATION_MAX_BYTES 256
/* More repeats than anyone runs; keeps a stranger's file from claiming 2^63. */
#define CONFIGURATION_MAX_REPEATS 100000

/**
 * rp_report_set_configuration:
 * @self: a report not yet shared with other threads (just made by
 *   rp_report_new_from_session())
 * @key: a stable id of the configuration, the same for each of its repeats,
 *   e.g. "ext3-ordered-none"; at most 256 bytes
 * @label: (nullable): the configuration for people, e.g. "ext3, data=ordered,
 *   none"; %NULL: @key
 * @repeat: which run of the configuration this is, 1 to @repeats
 * @repeats: how many runs of the configuration were asked for, at least 1
 *
 * Says which configuration the run measured, for grouping its repeats. The
 * front end that runs the repeats calls it before saving; the JSON report
 * keeps it (the optional "configuration" object).
 */
void
rp_report_set_configuration (RpReport   *self,
                             const char *key,
                             const char *label,
                             guint       repeat,
                             guint       repeats)
{
  g_return_if_fail (RP_IS_REPORT (self));
  g_return_if_fail (key != NULL && *key != '\0' && strlen (key) <= CONFIGURATION_MAX_BYTES);
  g_return_if_fail (repeats >= 1 && repeat >= 1 && repeat <= repeats);

  g_free (self->configuration.key);
  g_free (self->configuration.label);
  self->configuration.key = g_strdup (key);
  self->configuration.label = g_strdup (label != NULL ? label : key);
  self->configuration.repeat = repeat;
  self->configuration.repeats = repeats;
}

/**
 * rp_report_get_configuration:
 *
 * Returns: (transfer none) (nullable): the configuration and repeat of the
 *   run, or %NULL when the run was not one of several (a single run, or a
 *   report written before repeats existed)
 */
const RpReportConfiguration *
rp_report_get_configuration (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->configuration.key != NULL ? &self->configuration : NULL;
}

/* The "configuration" member, or %NULL when the report has none. */
JsonNode *
rp_report_configuration_to_json (RpReport *self)
{
  g_autoptr(JsonBuilder) builder = NULL;

  if (self->configuration.key == NULL)
    return NULL;
  builder = json_builder_new ();
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "key");
  json_builder_add_string_value (builder, self->configuration.key);
  json_builder_set_member_name (builder, "label");
  json_builder_add_string_value (builder, self->configuration.label);
  json_builder_set_member_name (builder, "repeat");
  json_builder_add_int_value (builder, self->configuration.repeat);
  json_builder_set_member_name (builder, "repeats");
  json_builder_add_int_value (builder, self->configuration.repeats);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static gboolean
get_text (JsonObject  *object,
          const char  *key,
          char       **out)
{
  JsonNode *node = json_object_get_member (object, key);
  const char *text;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_STRING)
    return FALSE;
  text = json_node_get_string (node);
  if (*text == '\0' || strlen (text) > CONFIGURATION_MAX_BYTES)
    return FALSE;
  *out = rp_text_clean (text, FALSE);
  return TRUE;
}

static gboolean
get_count (JsonObject *object,
           const char *key,
           guint      *out)
{
  JsonNode *node = json_object_get_member (object, key);
  gint64 value;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
    return FALSE;
  value = json_node_get_int (node);
  if (value < 1 || value > CONFIGURATION_MAX_REPEATS)
    return FALSE;
  *out = (guint) value;
  return TRUE;
}

/* Reads the optional "configuration" member of @root into @out (zeroed when
 * absent or null). */
gboolean
rp_report_configuration_from_json (JsonObject              *root,
                                   RpReportConfiguration   *out,
                                   GError                 **error)
{
  JsonNode *node = json_object_get_member (root, "configuration");
  RpReportConfiguration read = { 0 };
  JsonObject *object;

  memset (out, 0, sizeof *out);
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  if (object == NULL || !get_text (object, "key", &read.key) ||
      !get_text (object, "label", &read.label) ||
      !get_count (object, "repeat", &read.repeat) || !get_count (object, "repeats", &read.repeats) ||
      read.repeat > read.repeats)
    {
      g_free (read.key);
      g_free (read.label);
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("Key “configuration”: expected an object with a key, a label and "
                     "a repeat from 1 to its number of repeats"));
      return FALSE;
    }
  *out = read;
  return TRUE;
}
