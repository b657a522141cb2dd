/* rp-preferences-window.c: the Preferences window: defaults of new runs, chart options. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "rp-preferences-window.h"
#include "rp-scenario.h"
#include "rp-units.h"
#include "rp-window.h"

struct _RpPreferencesWindow
{
  AdwPreferencesWindow  parent_instance;

  /* template children */
  AdwComboRow          *scenario_row;
  AdwActionRow         *folder_row;
  GtkButton            *folder_button;
  GtkButton            *folder_reset_button;
  AdwEntryRow          *size_row;
  AdwEntryRow          *duration_row;
  GtkSwitch            *simulate_switch;
  GtkSwitch            *log_scale_switch;
  GtkSwitch            *limit_lines_switch;

  GSettings            *settings;
};

G_DEFINE_FINAL_TYPE (RpPreferencesWindow, rp_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* ------------------------------------------------------------------------- */
/* Folder */

/* As the main window shows it: ~ for the home folder. */
static char *
display_path (const char *path)
{
  const char *home = g_get_home_dir ();
  gsize length = strlen (home);

  if (g_str_has_prefix (path, home) && (path[length] == '/' || path[length] == '\0'))
    return g_strconcat ("~", path + length, NULL);
  return g_strdup (path);
}

static void
update_folder_row (RpPreferencesWindow *self)
{
  g_autofree char *directory = g_settings_get_string (self->settings, "directory");
  g_autofree char *fallback = rp_scenario_default_directory ();
  const char *path = *directory != '\0' ? directory : fallback;
  g_autofree char *shown = display_path (path);

  adw_action_row_set_subtitle (self->folder_row, shown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->folder_row), path);
  gtk_widget_set_sensitive (GTK_WIDGET (self->folder_reset_button), *directory != '\0');
}

static void
on_folder_chosen (GtkNativeDialog     *dialog,
                  int                  response,
                  RpPreferencesWindow *self)
{
  if (response == GTK_RESPONSE_ACCEPT)
    {
      g_autoptr(GFile) folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (dialog));
      g_autofree char *path = folder ? g_file_get_path (folder) : NULL;

      if (path != NULL)
        g_settings_set_string (self->settings, "directory", path);
      else
        adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self),
                                          adw_toast_new (_("Choose a local folder: the probe needs a file system path")));
    }
  gtk_native_dialog_destroy (dialog);
  g_object_unref (dialog);
}

static void
choose_folder (RpPreferencesWindow *self)
{
  GtkFileChooserNative *dialog;
  g_autofree char *directory = g_settings_get_string (self->settings, "directory");
  g_autofree char *fallback = rp_scenario_default_directory ();
  g_autoptr(GFile) current = g_file_new_for_path (*directory != '\0' ? directory : fallback);

  dialog = gtk_file_chooser_native_new (_("Choose the Folder to Test"), GTK_WINDOW (self),
                                        GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                        _("_Select"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (dialog), TRUE);
  gtk_file_chooser_set_current_folder (GTK_FILE_CHOOSER (dialog), current, NULL);
  g_signal_connect (dialog, "response", G_CALLBACK (on_folder_chosen), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (dialog));
}

static void
reset_folder (RpPreferencesWindow *self)
{
  g_settings_reset (self->settings, "directory");
}

/* ------------------------------------------------------------------------- */
/* Size and duration: stored when applied (Enter or the apply button) and
 * valid, so that a half-typed value never reaches an open window. */

typedef gboolean (*ParseFunc) (const char *text, const char *field, GError **error);

static gboolean
parse_size (const char  *text,
            const char  *field,
            GError     **error)
{
  guint64 bytes;

  return rp_parse_size (text, field, &bytes, error);
}

static gboolean
parse_duration (const char  *text,
                const char  *field,
                GError     **error)
{
  double seconds;

  return rp_parse_duration (text, field, &seconds, error);
}

/* The main window reads "20 s" as "20s"; accept what it accepts. */
static char *
squeeze_spaces (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    if (!g_ascii_isspace (*p))
      g_string_append_c (out, *p);
  return g_string_free (out, FALSE);
}

static void
apply_entry (RpPreferencesWindow *self,
             AdwEntryRow         *row,
             const char          *key,
             const char          *field,
             ParseFunc            parse)
{
  const char *text = gtk_editable_get_text (GTK_EDITABLE (row));
  g_autofree char *squeezed = squeeze_spaces (text);
  g_autoptr(GError) error = NULL;

  if (*squeezed != '\0' && !parse (squeezed, field, &error))
    {
      gtk_widget_add_css_class (GTK_WIDGET (row), "error");
      adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (self), adw_toast_new (error->message));
      return;
    }
  gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
  g_settings_set_string (self->settings, key, text);
}

static void
on_size_applied (RpPreferencesWindow *self)
{
  apply_entry (self, self->size_row, "size", _("Data to write"), parse_size);
}

static void
on_duration_applied (RpPreferencesWindow *self)
{
  apply_entry (self, self->duration_row, "duration", _("Duration"), parse_duration);
}

/* A run started meanwhile stores its values: show them. */
static void
load_entry (RpPreferencesWindow *self,
            AdwEntryRow         *row,
            const char          *key)
{
  g_autofree char *text = g_settings_get_string (self->settings, key);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (row)), text) == 0)
    return;
  gtk_editable_set_text (GTK_EDITABLE (row), text);
  gtk_widget_remove_css_class (GTK_WIDGET (row), "error");
}

static void
on_setting_changed (GSettings           *settings,
                    const char          *key,
                    RpPreferencesWindow *self)
{
  if (g_str_equal (key, "directory"))
    update_folder_row (self);
  else if (g_str_equal (key, "size"))
    load_entry (self, self->size_row, "size");
  else if (g_str_equal (key, "duration"))
    load_entry (self, self->duration_row, "duration");
}

/* ------------------------------------------------------------------------- */
/* GObject */

static void
rp_preferences_window_constructed (GObject *object)
{
  RpPreferencesWindow *self = RP_PREFERENCES_WINDOW (object);
  g_autoptr(GListModel) scenarios = rp_window_create_scenario_model ();

  G_OBJECT_CLASS (rp_preferences_window_parent_class)->constructed (object);

  g_assert (G_IS_SETTINGS (self->settings));

  adw_combo_row_set_model (self->scenario_row, scenarios);
  rp_window_bind_scenario_setting (self->settings, self->scenario_row, G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "simulate-save", self->simulate_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "log-scale-latency", self->log_scale_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "show-limit-lines", self->limit_lines_switch, "active", G_SETTINGS_BIND_DEFAULT);

  update_folder_row (self);
  load_entry (self, self->size_row, "size");
  load_entry (self, self->duration_row, "duration");
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (on_setting_changed), self, 0);
}

static void
rp_preferences_window_dispose (GObject *object)
{
  RpPreferencesWindow *self = RP_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), RP_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (rp_preferences_window_parent_class)->dispose (object);
}

static void
rp_preferences_window_get_property (GObject    *object,
                                    guint       prop_id,
                                    GValue     *value,
                                    GParamSpec *pspec)
{
  RpPreferencesWindow *self = RP_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      g_value_set_object (value, self->settings);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_preferences_window_set_property (GObject      *object,
                                    guint         prop_id,
                                    const GValue *value,
                                    GParamSpec   *pspec)
{
  RpPreferencesWindow *self = RP_PREFERENCES_WINDOW (object);

  switch (prop_id)
    {
    case PROP_SETTINGS:
      self->settings = g_value_dup_object (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_preferences_window_class_init (RpPreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = rp_preferences_window_constructed;
  object_class->dispose = rp_preferences_window_dispose;
  object_class->get_property = rp_preferences_window_get_property;
  object_class->set_property = rp_preferences_window_set_property;

  /**
   * RpPreferencesWindow:settings:
   *
   * The io.github.resprobe.Resprobe settings this window edits.
   */
  properties[PROP_SETTINGS] =
    g_param_spec_object ("settings", NULL, NULL, G_TYPE_SETTINGS,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/resprobe/Resprobe/rp-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, scenario_row);
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, folder_row);
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, folder_button);
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, folder_reset_button);
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, size_row);
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, duration_row);
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, simulate_switch);
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, log_scale_switch);
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, limit_lines_switch);
  gtk_widget_class_bind_template_callback (widget_class, on_size_applied);
  gtk_widget_class_bind_template_callback (widget_class, on_duration_applied);
  gtk_widget_class_bind_template_callback (widget_class, choose_folder);
  gtk_widget_class_bind_template_callback (widget_class, reset_folder);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Escape, 0, "window.close", NULL);
}

static void
rp_preferences_window_init (RpPreferencesWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * rp_preferences_window_new:
 * @settings: the settings to edit
 *
 * Returns: (transfer full): a new Preferences window, not yet shown
 */
RpPreferencesWindow *
rp_preferences_window_new (GSettings *settings)
{
  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  return g_object_new (RP_TYPE_PREFERENCES_WINDOW, "settings", settings, NULL);
}
