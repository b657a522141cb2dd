/* rp-run-form.c: widgets that edit an RpRunSettings, shared by the window's form and Preferences. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "rp-run-form.h"

/* ------------------------------------------------------------------------- */
/* Scenario row: the presets' titles, bound to the preset id */

/* The combo row holds an index into rp_scenario_list_presets(); the
 * settings a preset id. */
static gboolean
index_from_id (GBinding     *binding,
               const GValue *from_value,
               GValue       *to_value,
               gpointer      user_data)
{
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);
  const char *id = g_value_get_string (from_value);

  for (guint i = 0; id != NULL && i < n_presets; i++)
    if (g_ascii_strcasecmp (presets[i].id, id) == 0)
      {
        g_value_set_uint (to_value, i);
        return TRUE;
      }
  return FALSE;
}

static gboolean
id_from_index (GBinding     *binding,
               const GValue *from_value,
               GValue       *to_value,
               gpointer      user_data)
{
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);
  guint index = g_value_get_uint (from_value);

  if (index >= n_presets)
    return FALSE;
  g_value_set_string (to_value, presets[index].id);
  return TRUE;
}

/**
 * rp_run_form_bind_scenario_row:
 * @row: a combo row without a model
 * @settings: the settings it edits
 *
 * Fills @row with the translated titles of the presets and binds its
 * selection to #RpRunSettings:scenario, both ways.
 */
void
rp_run_form_bind_scenario_row (AdwComboRow   *row,
                               RpRunSettings *settings)
{
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);

  g_return_if_fail (ADW_IS_COMBO_ROW (row));
  g_return_if_fail (RP_IS_RUN_SETTINGS (settings));

  for (guint i = 0; i < n_presets; i++)
    gtk_string_list_append (titles, _(presets[i].title));
  adw_combo_row_set_model (row, G_LIST_MODEL (titles));
  g_object_bind_property_full (settings, "scenario", row, "selected",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               index_from_id, id_from_index, NULL, NULL);
}

/* ------------------------------------------------------------------------- */
/* Size and duration entries */

/* Parses @text as @field; stores it in @settings if @store. */
static gboolean
parse_field (RpRunSettings   *settings,
             RpRunFormField   field,
             const char      *text,
             gboolean         store,
             gboolean        *out_same,
             GError         **error)
{
  guint64 bytes;
  double seconds;

  switch (field)
    {
    case RP_RUN_FORM_SIZE:
      if (!rp_run_settings_parse_size (text, &bytes, error))
        return FALSE;
      *out_same = bytes == rp_run_settings_get_size (settings);
      if (store)
        rp_run_settings_set_size (settings, bytes);
      return TRUE;
    case RP_RUN_FORM_DURATION:
    default:
      if (!rp_run_settings_parse_duration (text, &seconds, error))
        return FALSE;
      *out_same = seconds == rp_run_settings_get_duration (settings);
      if (store)
        rp_run_settings_set_duration (settings, seconds);
      return TRUE;
    }
}

/**
 * rp_run_form_apply_entry:
 * @editable: an entry of the form
 * @field: what it edits
 *
 * Reads @editable's text into @settings. Text that does not parse marks the
 * entry with the "error" style class and leaves @settings as they were.
 *
 * Returns: %FALSE with @error naming the field if the text does not parse
 */
gboolean
rp_run_form_apply_entry (GtkEditable     *editable,
                         RpRunSettings   *settings,
                         RpRunFormField   field,
                         GError         **error)
{
  gboolean same;

  g_return_val_if_fail (GTK_IS_EDITABLE (editable), FALSE);
  g_return_val_if_fail (RP_IS_RUN_SETTINGS (settings), FALSE);

  if (!parse_field (settings, field, gtk_editable_get_text (editable), TRUE, &same, error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (editable), "error");
      return FALSE;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (editable), "error");
  return TRUE;
}

/**
 * rp_run_form_load_entry:
 * @editable: an entry of the form
 * @field: what it edits
 *
 * Shows the value of @field in @editable, unless its text already means
 * that value: "512 M" stays as typed rather than become "512M".
 */
void
rp_run_form_load_entry (GtkEditable    *editable,
                        RpRunSettings  *settings,
                        RpRunFormField  field)
{
  g_autofree char *text = NULL;
  gboolean same = FALSE;

  g_return_if_fail (GTK_IS_EDITABLE (editable));
  g_return_if_fail (RP_IS_RUN_SETTINGS (settings));

  if (parse_field (settings, field, gtk_editable_get_text (editable), FALSE, &same, NULL) && same)
    return;
  if (field == RP_RUN_FORM_SIZE)
    text = rp_run_settings_format_size (rp_run_settings_get_size (settings));
  else
    text = rp_run_settings_format_duration (rp_run_settings_get_duration (settings));
  gtk_editable_set_text (editable, text);
  gtk_widget_remove_css_class (GTK_WIDGET (editable), "error");
}

/**
 * rp_run_form_display_path:
 * @path: a folder
 *
 * Returns: (transfer full): @path as the folder rows show it: ~ for the
 *   home folder
 */
char *
rp_run_form_display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize length = strlen (home);

  g_return_val_if_fail (path != NULL, NULL);

  if (g_str_has_prefix (path, home) && (path[length] == '/' || path[length] == '\0'))
    return g_strconcat ("~", path + length, NULL);
  return g_strdup (path);
}
