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

/* The popup's items: the whole name, wrapped, and a check mark on the
 * selected one. The combo row's own items cut a name at 20 characters
 * ("R1 · Big sequential wri…", issue 21); the row itself shows the whole
 * name of the selected one as its subtitle. */
#define SCENARIO_ITEM_WIDTH_CHARS 40

static void
setup_scenario_item (GtkSignalListItemFactory *factory,
                     GtkListItem              *list_item,
                     AdwComboRow              *row)
{
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
  GtkWidget *label = gtk_label_new (NULL);
  GtkWidget *check = gtk_image_new_from_icon_name ("object-select-symbolic");

  gtk_label_set_xalign (GTK_LABEL (label), 0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), SCENARIO_ITEM_WIDTH_CHARS);
  gtk_widget_set_hexpand (label, TRUE);
  gtk_box_append (GTK_BOX (box), label);
  gtk_widget_set_valign (check, GTK_ALIGN_CENTER);
  gtk_box_append (GTK_BOX (box), check);
  gtk_list_item_set_child (list_item, box);
}

static void
update_scenario_check (AdwComboRow *row,
                       GParamSpec  *pspec,
                       GtkListItem *list_item)
{
  GtkWidget *check = gtk_widget_get_last_child (gtk_list_item_get_child (list_item));
  gboolean selected = adw_combo_row_get_selected_item (row) == gtk_list_item_get_item (list_item);

  gtk_widget_set_opacity (check, selected ? 1 : 0);
}

static void
bind_scenario_item (GtkSignalListItemFactory *factory,
                    GtkListItem              *list_item,
                    AdwComboRow              *row)
{
  GtkWidget *label = gtk_widget_get_first_child (gtk_list_item_get_child (list_item));

  gtk_label_set_text (GTK_LABEL (label), gtk_string_object_get_string (gtk_list_item_get_item (list_item)));
  g_signal_connect (row, "notify::selected-item", G_CALLBACK (update_scenario_check), list_item);
  update_scenario_check (row, NULL, list_item);
}

static void
unbind_scenario_item (GtkSignalListItemFactory *factory,
                      GtkListItem              *list_item,
                      AdwComboRow              *row)
{
  g_signal_handlers_disconnect_by_func (row, update_scenario_check, list_item);
}

/**
 * rp_run_form_bind_scenario_row:
 * @row: a combo row without a model
 * @settings: the settings it edits
 *
 * Fills @row with the ids and translated titles of the presets and binds its
 * selection to #RpRunSettings:scenario, both ways.
 */
void
rp_run_form_bind_scenario_row (AdwComboRow   *row,
                               RpRunSettings *settings)
{
  g_autoptr(GtkStringList) titles = gtk_string_list_new (NULL);
  g_autoptr(GtkListItemFactory) factory = gtk_signal_list_item_factory_new ();
  guint n_presets;
  const RpPresetInfo *presets = rp_scenario_list_presets (&n_presets);

  g_return_if_fail (ADW_IS_COMBO_ROW (row));
  g_return_if_fail (RP_IS_RUN_SETTINGS (settings));

  /* "R1 · Big sequential write …": the ids of the README and the CLI, and
   * no two entries alike (R3 and R3-fsync differ in their ids first). */
  for (guint i = 0; i < n_presets; i++)
    {
      g_autofree char *title = g_strdup_printf ("%s · %s", presets[i].id, _(presets[i].title));

      gtk_string_list_append (titles, title);
    }
  /* The row owns the factory, which never outlives it: no references. */
  g_signal_connect (factory, "setup", G_CALLBACK (setup_scenario_item), row);
  g_signal_connect (factory, "bind", G_CALLBACK (bind_scenario_item), row);
  g_signal_connect (factory, "unbind", G_CALLBACK (unbind_scenario_item), row);
  adw_combo_row_set_list_factory (row, factory);
  adw_combo_row_set_model (row, G_LIST_MODEL (titles));
  g_object_bind_property_full (settings, "scenario", row, "selected",
                               G_BINDING_BIDIRECTIONAL | G_BINDING_SYNC_CREATE,
                               index_from_id, id_from_index, NULL, NULL);
}

/* ------------------------------------------------------------------------- */
/* Size, duration and baseline entries */

/* What an entry edits, kept on the entry. */
typedef struct {
  RpRunSettings  *settings;
  RpRunFormField  field;
  char           *error;  /* why the text is not a value; NULL if it is */
} EntryBinding;

#define ENTRY_BINDING_KEY "rp-run-form-entry"

static void
entry_binding_free (gpointer data)
{
  EntryBinding *binding = data;

  g_clear_object (&binding->settings);
  g_free (binding->error);
  g_free (binding);
}

/* Parses @text as the field of @binding; stores it if @store. */
static gboolean
parse_field (EntryBinding  *binding,
             const char    *text,
             gboolean       store,
             gboolean      *out_same,
             GError       **error)
{
  guint64 bytes;
  double seconds;

  switch (binding->field)
    {
    case RP_RUN_FORM_SIZE:
      if (!rp_run_settings_parse_size (text, &bytes, error))
        return FALSE;
      *out_same = bytes == rp_run_settings_get_size (binding->settings);
      if (store)
        rp_run_settings_set_size (binding->settings, bytes);
      return TRUE;
    case RP_RUN_FORM_BASELINE:
      if (!rp_run_settings_parse_baseline (text, &seconds, error))
        return FALSE;
      *out_same = seconds == rp_run_settings_get_baseline (binding->settings);
      if (store)
        rp_run_settings_set_baseline (binding->settings, seconds);
      return TRUE;
    case RP_RUN_FORM_DURATION:
    default:
      if (!rp_run_settings_parse_duration (text, &seconds, error))
        return FALSE;
      *out_same = seconds == rp_run_settings_get_duration (binding->settings);
      if (store)
        rp_run_settings_set_duration (binding->settings, seconds);
      return TRUE;
    }
}

static void
set_entry_error (GtkEditable  *editable,
                 EntryBinding *binding,
                 const GError *error)
{
  g_free (binding->error);
  binding->error = error ? g_strdup (error->message) : NULL;
  if (error != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (editable), "error");
  else
    gtk_widget_remove_css_class (GTK_WIDGET (editable), "error");
}

/* Text that parses sets the property; other text marks the entry and leaves
 * the property as it was. */
static void
on_entry_apply (GtkEditable  *editable,
                EntryBinding *binding)
{
  g_autoptr(GError) error = NULL;
  gboolean same;

  parse_field (binding, gtk_editable_get_text (editable), TRUE, &same, &error);
  set_entry_error (editable, binding, error);
}

/* The property changed (the settings, a report shown, the command line):
 * the entry shows it, unless its text already means that value ("512 M"
 * stays as typed rather than become "512M"). */
static void
on_setting_changed (GtkEditable *editable)
{
  EntryBinding *binding = g_object_get_data (G_OBJECT (editable), ENTRY_BINDING_KEY);
  g_autofree char *text = NULL;
  gboolean same = FALSE;

  if (parse_field (binding, gtk_editable_get_text (editable), FALSE, &same, NULL) && same)
    return;
  if (binding->field == RP_RUN_FORM_SIZE)
    text = rp_run_settings_format_size (rp_run_settings_get_size (binding->settings));
  else if (binding->field == RP_RUN_FORM_BASELINE)
    /* The duration's text: "3", "0.5"; "" for none. */
    text = rp_run_settings_format_duration (rp_run_settings_get_baseline (binding->settings));
  else
    text = rp_run_settings_format_duration (rp_run_settings_get_duration (binding->settings));
  gtk_editable_set_text (editable, text);
  set_entry_error (editable, binding, NULL);
}

/**
 * rp_run_form_bind_entry:
 * @editable: an entry of a form
 * @settings: the settings it edits
 * @field: which of them, as text
 * @apply_signal: the signal of @editable on which its text is parsed:
 *   "changed" (as typed) or "apply" (an #AdwEntryRow's apply button)
 *
 * Shows @field in @editable, and parses the text on @apply_signal: a value
 * sets the property; text that is not one marks @editable with the "error"
 * style class (rp_run_form_get_entry_error() says why) and leaves the
 * property alone. Connect to @apply_signal after this call to see the result.
 */
void
rp_run_form_bind_entry (GtkEditable    *editable,
                        RpRunSettings  *settings,
                        RpRunFormField  field,
                        const char     *apply_signal)
{
  EntryBinding *binding = g_new0 (EntryBinding, 1);

  g_return_if_fail (GTK_IS_EDITABLE (editable));
  g_return_if_fail (RP_IS_RUN_SETTINGS (settings));

  binding->settings = g_object_ref (settings);
  binding->field = field;
  g_object_set_data_full (G_OBJECT (editable), ENTRY_BINDING_KEY, binding, entry_binding_free);
  on_setting_changed (editable);
  g_signal_connect (editable, apply_signal, G_CALLBACK (on_entry_apply), binding);
  g_signal_connect_object (settings,
                           field == RP_RUN_FORM_SIZE       ? "notify::size"
                           : field == RP_RUN_FORM_BASELINE ? "notify::baseline"
                                                           : "notify::duration",
                           G_CALLBACK (on_setting_changed), editable, G_CONNECT_SWAPPED);
}

/**
 * rp_run_form_get_entry_error:
 * @editable: an entry bound with rp_run_form_bind_entry()
 *
 * Returns: (nullable): why its text is not a value, or %NULL if it is
 */
const char *
rp_run_form_get_entry_error (GtkEditable *editable)
{
  EntryBinding *binding;

  g_return_val_if_fail (GTK_IS_EDITABLE (editable), NULL);

  binding = g_object_get_data (G_OBJECT (editable), ENTRY_BINDING_KEY);
  return binding != NULL ? binding->error : NULL;
}

/* ------------------------------------------------------------------------- */
/* Folder */

static void
on_folder_chosen (GtkNativeDialog *dialog,
                  int              response,
                  RpRunSettings   *settings)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;
      RpRunFormToastFunc toast = g_object_get_data (G_OBJECT (dialog), "rp-toast-func");
      const char *property = g_object_get_data (G_OBJECT (dialog), "rp-property");

      if (path != NULL)
        g_object_set (settings, property, path, NULL);
      else
        toast (gtk_native_dialog_get_transient_for (dialog),
               _("Choose a local folder: the probe needs a file system path"));
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose (GtkWindow          *parent,
        RpRunSettings      *settings,
        const char         *property,
        const char         *title,
        const char         *current_path,
        RpRunFormToastFunc  toast)
{
  GtkFileChooserNative *dialog;
  g_autoptr(GFile) current = g_file_new_for_path (current_path);

  dialog = gtk_file_chooser_native_new (title, parent, GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                        _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  /* The default folder may not exist yet; then the chooser opens elsewhere. */
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), current, NULL);
  g_object_set_data (G_OBJECT (dialog), "rp-toast-func", toast);
  g_object_set_data (G_OBJECT (dialog), "rp-property", (gpointer) property);
  g_signal_connect_object (dialog, "response", G_CALLBACK (on_folder_chosen), settings, 0);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

/**
 * rp_run_form_choose_folder:
 * @parent: the window of the form
 * @settings: the settings whose folder the user chooses
 * @toast: how @parent shows a short message (a folder without a local path)
 *
 * Opens a folder chooser at the current folder to test and sets the chosen
 * one (#RpRunSettings:directory).
 */
void
rp_run_form_choose_folder (GtkWindow          *parent,
                           RpRunSettings      *settings,
                           RpRunFormToastFunc  toast)
{
  const char *directory;
  g_autofree char *fallback = rp_scenario_default_directory ();

  g_return_if_fail (GTK_IS_WINDOW (parent));
  g_return_if_fail (RP_IS_RUN_SETTINGS (settings));

  directory = rp_run_settings_get_directory (settings);
  choose (parent, settings, "directory", _("Choose the Folder to Test"),
          directory != NULL ? directory : fallback, toast);
}

/**
 * rp_run_form_choose_load_folder:
 * @parent: the window of the form
 * @settings: the settings whose load folder the user chooses
 * @toast: how @parent shows a short message (a folder without a local path)
 *
 * Opens a folder chooser for the folder the load writes to
 * (#RpRunSettings:load-directory, scenario R6: the copy on a USB stick while
 * the probes stay on the disk to test), at that folder, or at the folder to
 * test while there is none, and sets the chosen one.
 */
void
rp_run_form_choose_load_folder (GtkWindow          *parent,
                                RpRunSettings      *settings,
                                RpRunFormToastFunc  toast)
{
  const char *load_directory;
  const char *directory;
  g_autofree char *fallback = rp_scenario_default_directory ();

  g_return_if_fail (GTK_IS_WINDOW (parent));
  g_return_if_fail (RP_IS_RUN_SETTINGS (settings));

  load_directory = rp_run_settings_get_load_directory (settings);
  directory = rp_run_settings_get_directory (settings);
  choose (parent, settings, "load-directory", _("Choose the Folder for the Load"),
          load_directory != NULL ? load_directory : directory != NULL ? directory : fallback, toast);
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
