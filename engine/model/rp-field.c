/* rp-field.c: a labelled value for display, as a system snapshot and a scenario list theirs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-field.h"

/**
 * rp_field_new:
 * @key: (transfer none): a static string
 * @label: (transfer none): a static or translated (gettext-owned) string
 * @value: (transfer full): the value
 *
 * Returns: (transfer full): a field; free with rp_field_free(), or put it in
 *   an array made with rp_field_free() as the free function
 */
RpField *
rp_field_new (const char *key,
              const char *label,
              char       *value)
{
  RpField *field = g_new (RpField, 1);

  field->key = key;
  field->label = label;
  field->value = value;
  return field;
}

void
rp_field_free (RpField *field)
{
  if (field == NULL)
    return;
  g_free (field->value);
  g_free (field);
}

/**
 * rp_fields_differ:
 * @field_sets: (element-type GPtrArray): one array of #RpField per run, all
 *   with the same fields in the same order (rp_scenario_get_fields(),
 *   rp_sysinfo_get_fields())
 * @index: a field's index in them
 *
 * Whether the runs differ in field @index, so that a comparison marks it.
 *
 * Returns: %TRUE when two of the values differ
 */
gboolean
rp_fields_differ (GPtrArray *field_sets,
                  guint      index)
{
  const RpField *first;

  g_return_val_if_fail (field_sets != NULL && field_sets->len > 0, FALSE);

  first = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (field_sets, 0), index);
  for (guint r = 1; r < field_sets->len; r++)
    {
      const RpField *other = g_ptr_array_index ((GPtrArray *) g_ptr_array_index (field_sets, r), index);

      if (g_strcmp0 (other->value, first->value) != 0)
        return TRUE;
    }
  return FALSE;
}
