/* rp-preferences-window.c: the Preferences window: defaults of new runs, chart options. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-preferences-window.h"
#include "rp-run-form.h"

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
  GtkSwitch            *helper_switch;

  GSettings            *settings;
  /* The defaults of new runs, bound both ways to @settings. */
  RpRunSettings        *run_settings;
};

G_DEFINE_FINAL_TYPE (RpPreferencesWindow, rp_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)

enum {
  PROP_0,
  PROP_SETTINGS,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

/* kernel-tracing-helper: the switch is on for "yes" only ("ask" is off
 * until the window's offer is answered); turned, it answers the offer. */
static gboolean
helper_to_switch (GValue   *value,
                  GVariant *variant,
                  gpointer  data)
{
  g_value_set_boolean (value, g_strcmp0 (g_variant_get_string (variant, NULL), "yes") == 0);
  return TRUE;
}

static GVariant *
helper_from_switch (const GValue       *value,
                    const GVariantType *type,
                    gpointer            data)
{
  return g_variant_new_string (g_value_get_boolean (value) ? "yes" : "no");
}

/* ------------------------------------------------------------------------- */
/* Folder */

static void
update_folder_row (RpPreferencesWindow *self)
{
  const char *directory = rp_run_settings_get_directory (self->run_settings);
  g_autofree char *fallback = rp_scenario_default_directory ();
  const char *path = directory != NULL ? directory : fallback;
  g_autofree char *shown = rp_run_form_display_path (path);

  adw_action_row_set_subtitle (self->folder_row, shown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->folder_row), path);
  gtk_widget_set_sensitive (GTK_WIDGET (self->folder_reset_button), directory != NULL);
}

static void
show_toast (GtkWindow  *window,
            const char *text)
{
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (window), adw_toast_new (text));
}

static void
choose_folder (RpPreferencesWindow *self)
{
  rp_run_form_choose_folder (GTK_WINDOW (self), self->run_settings, show_toast);
}

static void
reset_folder (RpPreferencesWindow *self)
{
  g_settings_reset (self->settings, "directory");
}

/* ------------------------------------------------------------------------- */
/* Size and duration: stored when applied (Enter or the apply button) and
 * valid, so that a half-typed value never reaches an open window. */

static void
on_entry_applied (GtkEditable         *editable,
                  RpPreferencesWindow *self)
{
  const char *error = rp_run_form_get_entry_error (editable);

  if (error != NULL)
    show_toast (GTK_WINDOW (self), error);
}

/* ------------------------------------------------------------------------- */
/* GObject */

static void
rp_preferences_window_constructed (GObject *object)
{
  RpPreferencesWindow *self = RP_PREFERENCES_WINDOW (object);

  G_OBJECT_CLASS (rp_preferences_window_parent_class)->constructed (object);

  g_assert (G_IS_SETTINGS (self->settings));

  self->run_settings = rp_run_settings_new ();
  rp_run_settings_bind (self->run_settings, self->settings, G_SETTINGS_BIND_DEFAULT);
  rp_run_form_bind_scenario_row (self->scenario_row, self->run_settings);
  g_settings_bind (self->settings, "simulate-save", self->simulate_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "log-scale-latency", self->log_scale_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (self->settings, "show-limit-lines", self->limit_lines_switch, "active", G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (self->settings, "kernel-tracing-helper", self->helper_switch, "active",
                                G_SETTINGS_BIND_DEFAULT, helper_to_switch, helper_from_switch, NULL, NULL);

  /* A run started meanwhile stores its values: the rows show them. */
  rp_run_form_bind_entry (GTK_EDITABLE (self->size_row), self->run_settings, RP_RUN_FORM_SIZE, "apply");
  rp_run_form_bind_entry (GTK_EDITABLE (self->duration_row), self->run_settings, RP_RUN_FORM_DURATION, "apply");
  g_signal_connect_object (self->size_row, "apply", G_CALLBACK (on_entry_applied), self, 0);
  g_signal_connect_object (self->duration_row, "apply", G_CALLBACK (on_entry_applied), self, 0);
  update_folder_row (self);
  g_signal_connect_object (self->run_settings, "notify::directory",
                           G_CALLBACK (update_folder_row), self, G_CONNECT_SWAPPED);
}

static void
rp_preferences_window_dispose (GObject *object)
{
  RpPreferencesWindow *self = RP_PREFERENCES_WINDOW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), RP_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->run_settings);
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
  gtk_widget_class_bind_template_child (widget_class, RpPreferencesWindow, helper_switch);
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
