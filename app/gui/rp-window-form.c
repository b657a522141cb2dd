/* rp-window-form.c: the window's run form: scenario, folders, size, duration, baseline, bound to an RpRunSettings. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-run-form.h"
#include "rp-window-private.h"

/* The form edits self->run_settings, which follows the settings
 * (G_SETTINGS_BIND_GET: a change in Preferences shows at once in every idle
 * window) and is written back only when a run starts. An entry's text is
 * parsed when it is edited: valid text sets the property, invalid text marks
 * the entry and leaves the property alone. Whatever the settings backend does
 * (not writable, a write that fails), the object keeps what the user typed. */

/* ------------------------------------------------------------------------- */
/* Rows */

static void
update_folder_row (RpWindow *self)
{
  const char *directory = rp_run_settings_get_directory (self->run_settings);
  g_autofree char *fallback = rp_scenario_default_directory ();
  g_autofree char *shown = rp_run_form_display_path (directory ? directory : fallback);

  adw_action_row_set_subtitle (self->folder_row, shown);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->folder_row), directory ? directory : fallback);
}

/* The load's folder: the folder to test unless the user chose another file
 * system (scenario R6). */
static void
update_load_folder_row (RpWindow *self)
{
  const char *load_directory = rp_run_settings_get_load_directory (self->run_settings);
  g_autofree char *shown = load_directory ? rp_run_form_display_path (load_directory) : NULL;

  adw_action_row_set_subtitle (self->load_folder_row,
                               /* TRANSLATORS: the subtitle of "Folder for the Load" when none was chosen */
                               shown ? shown : _("The folder to test"));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->load_folder_row),
                               load_directory ? load_directory
                                              /* TRANSLATORS: tooltip of "Folder for the Load" */
                                              : _("Choose another file system, e.g. a USB stick, for the load to write to while the probes stay in the folder to test"));
  gtk_widget_set_visible (GTK_WIDGET (self->load_folder_clear_button), load_directory != NULL);
}

static void
on_load_folder_changed (RpWindow *self)
{
  update_load_folder_row (self);
  /* win.clear-load-folder follows. */
  rp_window_update_ui (self);
}

/* The size row says what the size means for the selected scenario. */
static void
update_size_row (RpWindow *self)
{
  RpSizeMeaning meaning = rp_run_settings_get_size_meaning (self->run_settings);

  /* A scenario that writes nothing (passive) has no size: the row goes,
   * and a run without a duration lasts until stopped. */
  gtk_widget_set_visible (GTK_WIDGET (self->size_row), meaning != RP_SIZE_MEANING_NONE);
  gtk_widget_set_visible (GTK_WIDGET (self->load_folder_row), meaning != RP_SIZE_MEANING_NONE);
  adw_action_row_set_subtitle (self->duration_row,
                               meaning == RP_SIZE_MEANING_NONE
                               ? _("Seconds, or e.g. 2m; empty: until stopped")
                               : _("Seconds, or e.g. 2m; empty: until written"));
  switch (meaning)
    {
    case RP_SIZE_MEANING_WRITER_TOTAL:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->size_row), _("Data to Write"));
      adw_action_row_set_subtitle (self->size_row, _("As dd’s bs×count, e.g. 4G"));
      gtk_entry_set_placeholder_text (self->size_entry, _("15000M"));
      break;
    case RP_SIZE_MEANING_COPY_SOURCE:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->size_row), _("File to Copy"));
      adw_action_row_set_subtitle (self->size_row, _("Copied again and again in the folder"));
      gtk_entry_set_placeholder_text (self->size_entry, _("1G"));
      break;
    case RP_SIZE_MEANING_WRITER_SHARE:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->size_row), _("Data per Writer"));
      adw_action_row_set_subtitle (self->size_row, _("Each writer thread; empty: until stopped"));
      gtk_entry_set_placeholder_text (self->size_entry, _("no limit"));
      break;
    case RP_SIZE_MEANING_NONE:
    default:
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->size_row), _("Data to Write"));
      adw_action_row_set_subtitle (self->size_row, _("This scenario writes nothing"));
      break;
    }
}

static void
on_scenario_changed (RpWindow *self)
{
  update_size_row (self);
  rp_window_update_ui (self);
}

/* ------------------------------------------------------------------------- */
/* Entries */

/* Edited: the reason of an invalid value shows as the entry's tooltip; Start
 * (disabled meanwhile) says it too if Enter is pressed in the entry. */
static void
on_entry_edited (GtkEditable *editable,
                 RpWindow    *self)
{
  gtk_widget_set_tooltip_text (GTK_WIDGET (editable), rp_run_form_get_entry_error (editable));
  rp_window_update_ui (self);
}

/**
 * rp_window_form_get_error:
 *
 * Returns: (nullable): why an entry's text is not a valid setting, or %NULL
 *   if the form can run
 */
const char *
rp_window_form_get_error (RpWindow *self)
{
  GtkEditable *entries[] = {
    GTK_EDITABLE (self->size_entry), GTK_EDITABLE (self->duration_entry), GTK_EDITABLE (self->baseline_entry),
  };

  for (guint i = 0; i < G_N_ELEMENTS (entries); i++)
    if (rp_run_form_get_entry_error (entries[i]) != NULL)
      return rp_run_form_get_entry_error (entries[i]);
  return NULL;
}

/**
 * rp_window_form_store:
 *
 * Starting a run remembers its form: the next window starts from it.
 */
void
rp_window_form_store (RpWindow *self)
{
  if (self->settings != NULL)
    rp_run_settings_store_form (self->run_settings, self->settings);
}

/* ------------------------------------------------------------------------- */
/* Folder */

static void
show_toast (GtkWindow  *window,
            const char *text)
{
  rp_window_show_toast (RP_WINDOW (window), text);
}

static void
choose_folder_action (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  rp_run_form_choose_folder (GTK_WINDOW (widget), RP_WINDOW (widget)->run_settings, show_toast);
}

static void
choose_load_folder_action (GtkWidget  *widget,
                           const char *action_name,
                           GVariant   *parameter)
{
  rp_run_form_choose_load_folder (GTK_WINDOW (widget), RP_WINDOW (widget)->run_settings, show_toast);
}

static void
clear_load_folder_action (GtkWidget  *widget,
                          const char *action_name,
                          GVariant   *parameter)
{
  rp_run_settings_set_load_directory (RP_WINDOW (widget)->run_settings, NULL);
}

/* The row is the one Tab stop: Delete or BackSpace there clears it. */
static gboolean
on_load_folder_key (GtkEventControllerKey *controller,
                    guint                  keyval,
                    guint                  keycode,
                    GdkModifierType        state,
                    RpWindow              *self)
{
  if ((keyval != GDK_KEY_Delete && keyval != GDK_KEY_KP_Delete && keyval != GDK_KEY_BackSpace) ||
      (state & gtk_accelerator_get_default_mod_mask ()) != 0 ||
      rp_run_settings_get_load_directory (self->run_settings) == NULL)
    return GDK_EVENT_PROPAGATE;
  gtk_widget_activate_action (GTK_WIDGET (self), "win.clear-load-folder", NULL);
  return GDK_EVENT_STOP;
}

/* ------------------------------------------------------------------------- */

/**
 * rp_window_form_class_init:
 *
 * Installs win.choose-folder (Shift+Ctrl+O), win.choose-load-folder and
 * win.clear-load-folder.
 */
void
rp_window_form_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.choose-folder", NULL, choose_folder_action);
  gtk_widget_class_install_action (widget_class, "win.choose-load-folder", NULL, choose_load_folder_action);
  gtk_widget_class_install_action (widget_class, "win.clear-load-folder", NULL, clear_load_folder_action);
  /* Ctrl+O is Open, as everywhere; the folder is one Shift away. */
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_o, GDK_CONTROL_MASK | GDK_SHIFT_MASK,
                                       "win.choose-folder", NULL);
}

/**
 * rp_window_form_init:
 *
 * Binds the form to self->run_settings, and those to the settings.
 */
void
rp_window_form_init (RpWindow *self)
{
  if (self->settings != NULL)
    rp_run_settings_bind (self->run_settings, self->settings, G_SETTINGS_BIND_GET);
  rp_run_form_bind_scenario_row (self->scenario_row, self->run_settings);
  rp_run_form_bind_entry (GTK_EDITABLE (self->size_entry), self->run_settings, RP_RUN_FORM_SIZE, "changed");
  rp_run_form_bind_entry (GTK_EDITABLE (self->duration_entry), self->run_settings, RP_RUN_FORM_DURATION, "changed");
  rp_run_form_bind_entry (GTK_EDITABLE (self->baseline_entry), self->run_settings, RP_RUN_FORM_BASELINE, "changed");
  update_folder_row (self);
  update_load_folder_row (self);
  update_size_row (self);
  {
    GtkEventController *keys = gtk_event_controller_key_new ();

    g_signal_connect_object (keys, "key-pressed", G_CALLBACK (on_load_folder_key), self, 0);
    gtk_widget_add_controller (GTK_WIDGET (self->load_folder_row), keys);
  }

  g_signal_connect_object (self->run_settings, "notify::scenario",
                           G_CALLBACK (on_scenario_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->run_settings, "notify::directory",
                           G_CALLBACK (update_folder_row), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->run_settings, "notify::load-directory",
                           G_CALLBACK (on_load_folder_changed), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->size_entry, "changed", G_CALLBACK (on_entry_edited), self, 0);
  g_signal_connect_object (self->duration_entry, "changed", G_CALLBACK (on_entry_edited), self, 0);
  g_signal_connect_object (self->baseline_entry, "changed", G_CALLBACK (on_entry_edited), self, 0);
  g_signal_connect_object (self->size_entry, "activate",
                           G_CALLBACK (rp_window_start), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->duration_entry, "activate",
                           G_CALLBACK (rp_window_start), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (self->baseline_entry, "activate",
                           G_CALLBACK (rp_window_start), self, G_CONNECT_SWAPPED);
}
