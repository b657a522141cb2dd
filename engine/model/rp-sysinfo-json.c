/* rp-sysinfo-json.c: the system snapshot in a report, written and read back. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "rp-error.h"
#include "rp-sysinfo-fields.h"
#include "rp-sysinfo-private.h"

/**
 * rp_sysinfo_to_json:
 * @self: a snapshot
 *
 * A JSON object keyed by the field keys of rp_sysinfo_get_fields(): strings
 * as strings, counts and sizes (bytes) as numbers, the caveats as booleans,
 * unknown as null. The vm sysctls and wbt_lat_usec stay verbatim strings.
 *
 * Returns: (transfer full): the object node
 */
JsonNode *
rp_sysinfo_to_json (const RpSysinfo *self)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_val_if_fail (self != NULL, NULL);

  json_builder_begin_object (builder);
  for (guint i = 0; i < rp_sysinfo_n_field_specs; i++)
    {
      const FieldSpec *spec = &rp_sysinfo_field_specs[i];

      json_builder_set_member_name (builder, spec->key);
      if (!rp_sysinfo_field_is_known (self, spec))
        {
          json_builder_add_null_value (builder);
          continue;
        }
      switch (spec->kind)
        {
        case KIND_STRING:
          json_builder_add_string_value (builder, STRING_MEMBER (self, spec));
          break;
        case KIND_UINT:
          json_builder_add_int_value (builder, UINT_MEMBER (self, spec));
          break;
        case KIND_UINT64:
          json_builder_add_int_value (builder, (gint64) MIN (UINT64_MEMBER (self, spec), G_MAXINT64));
          break;
        case KIND_TRISTATE:
          json_builder_add_int_value (builder, INT_MEMBER (self, spec));
          break;
        case KIND_BOOLEAN:
        default:
          json_builder_add_boolean_value (builder, BOOLEAN_MEMBER (self, spec));
          break;
        }
    }
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* A whole number in [0, max]; a double such as 64.0 counts, as some writers emit it. */
static gboolean
node_get_count (JsonNode *node,
                guint64   max,
                guint64  *out_value,
                gboolean *out_in_range)
{
  GType type = json_node_get_value_type (node);

  *out_in_range = FALSE;
  if (type == G_TYPE_INT64)
    {
      gint64 value = json_node_get_int (node);

      *out_in_range = value >= 0 && (guint64) value <= max;
      *out_value = (guint64) value;
      return TRUE;
    }
  if (type == G_TYPE_DOUBLE)
    {
      double value = json_node_get_double (node);

      if (!(value >= 0 && value <= (double) max))
        return TRUE;
      *out_value = (guint64) value;
      if ((double) *out_value != value)
        return FALSE;
      *out_in_range = TRUE;
      return TRUE;
    }
  return FALSE;
}

static gboolean
read_json_field (RpSysinfo        *self,
                 const FieldSpec  *spec,
                 JsonNode         *node,
                 GError          **error)
{
  gboolean is_value = JSON_NODE_HOLDS_VALUE (node);
  guint64 count = 0;
  gboolean in_range = FALSE;

  switch (spec->kind)
    {
    case KIND_STRING:
      if (!is_value || json_node_get_value_type (node) != G_TYPE_STRING)
        break;
      /* The longest field a system gives is the kernel command line, at
       * most 4096 bytes (COMMAND_LINE_SIZE); an edited report's 100 000
       * characters took the PDF export two minutes to wrap. */
      if (strlen (json_node_get_string (node)) > SYSINFO_MAX_STRING)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                       _("System information field “%s” is longer than %d bytes"),
                       spec->key, SYSINFO_MAX_STRING);
          return FALSE;
        }
      g_free (STRING_MEMBER (self, spec));
      STRING_MEMBER (self, spec) = g_strdup (json_node_get_string (node));
      return TRUE;

    case KIND_BOOLEAN:
      if (!is_value || json_node_get_value_type (node) != G_TYPE_BOOLEAN)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                       _("System information field “%s” should be true or false"), spec->key);
          return FALSE;
        }
      BOOLEAN_MEMBER (self, spec) = json_node_get_boolean (node);
      return TRUE;

    case KIND_UINT:
    case KIND_UINT64:
    case KIND_TRISTATE:
    default:
      if (!is_value || !node_get_count (node, spec->kind == KIND_UINT ? G_MAXUINT :
                                              spec->kind == KIND_TRISTATE ? 1 : G_MAXINT64,
                                        &count, &in_range))
        {
          g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                       _("System information field “%s” should be a whole number or null"),
                       spec->key);
          return FALSE;
        }
      if (!in_range)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                       _("System information field “%s” is out of range"), spec->key);
          return FALSE;
        }
      if (spec->kind == KIND_UINT)
        UINT_MEMBER (self, spec) = (guint) count;
      else if (spec->kind == KIND_UINT64)
        UINT64_MEMBER (self, spec) = count;
      else
        INT_MEMBER (self, spec) = (int) count;
      return TRUE;
    }

  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               _("System information field “%s” should be text or null"), spec->key);
  return FALSE;
}

/**
 * rp_sysinfo_new_from_json:
 * @node: (nullable): an object as written by rp_sysinfo_to_json()
 * @error: %RP_ERROR_REPORT naming the offending key when @node is not an
 *   object or a field has the wrong type or range
 *
 * Reads a snapshot back from a report, which may come from anyone: missing
 * keys and null values are unknown, unknown keys are ignored (newer reports),
 * wrong types are an error.
 *
 * Returns: (transfer full) (nullable): the snapshot, or %NULL with @error set
 */
RpSysinfo *
rp_sysinfo_new_from_json (JsonNode  *node,
                          GError   **error)
{
  g_autoptr(RpSysinfo) self = NULL;
  JsonObject *object;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("The system information in the report is not a JSON object"));
      return NULL;
    }

  object = json_node_get_object (node);
  self = rp_sysinfo_new ();
  for (guint i = 0; i < rp_sysinfo_n_field_specs; i++)
    {
      JsonNode *member = json_object_get_member (object, rp_sysinfo_field_specs[i].key);

      if (member == NULL || JSON_NODE_HOLDS_NULL (member))
        continue;
      if (!read_json_field (self, &rp_sysinfo_field_specs[i], member, error))
        return NULL;
    }
  rp_sysinfo_make_strings_valid (self);
  return g_steal_pointer (&self);
}

