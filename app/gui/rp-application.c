/* rp-application.c: the GtkApplication: command line, windows, app-wide actions. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>

#include "rp-application.h"
#include "rp-gui-resources.h"
#include "rp-scenario.h"
#include "rp-units.h"
#include "rp-window.h"

struct _RpApplication
{
  AdwApplication parent_instance;
};

G_DEFINE_FINAL_TYPE (RpApplication, rp_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "dir", 'd', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Folder to test (default: ~/.cache/resprobe)"), N_("DIR") },
  { "scenario", 0, 0, G_OPTION_ARG_STRING, NULL,
    N_("Scenario preset, e.g. R1 or passive"), N_("NAME") },
  { "size", 's', 0, G_OPTION_ARG_STRING, NULL,
    N_("Total size the writer writes, e.g. 4G"), N_("SIZE") },
  { "duration", 't', 0, G_OPTION_ARG_STRING, NULL,
    N_("Stop after this many seconds"), N_("SECONDS") },
  { "start", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Start the run at once"), NULL },
  { "simulate-save", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Save a file on the main thread every second, as a naive application would"), NULL },
  { "version", 0, 0, G_OPTION_ARG_NONE, NULL,
    N_("Show the version and exit"), NULL },
  /* For tests and scripted screenshots: save, then quit when the run ends. */
  { "report-on-exit", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, NULL,
    N_("Save the JSON report to FILE when the run finishes, then quit"), N_("FILE") },
  { "screenshot-on-exit", 0, G_OPTION_FLAG_HIDDEN, G_OPTION_ARG_FILENAME, NULL,
    N_("Save a PNG of the window to FILE when the run finishes, then quit"), N_("FILE") },
  G_OPTION_ENTRY_NULL
};

static int
usage_error (const GError *error)
{
  /* TRANSLATORS: an error about a command-line value, e.g. "resprobe: --size: …" */
  g_printerr (_("resprobe: %s\n"), error->message);
  return RP_APPLICATION_EXIT_USAGE;
}

/* Runs in the launching process, before any window: a bad value is reported
 * on the terminal with exit status 2, and nothing starts. */
static int
rp_application_handle_local_options (GApplication *application,
                                     GVariantDict *options)
{
  g_autoptr(GError) error = NULL;
  const char *text = NULL;

  if (g_variant_dict_contains (options, "version"))
    {
      g_print ("resprobe %s\n", PACKAGE_VERSION);
      return 0;
    }

  if (g_variant_dict_lookup (options, "scenario", "&s", &text))
    {
      g_autoptr(RpScenario) scenario = rp_scenario_new_preset (text, &error);

      if (scenario == NULL)
        return usage_error (error);
    }
  if (g_variant_dict_lookup (options, "size", "&s", &text))
    {
      guint64 bytes;

      if (!rp_parse_size (text, "--size", &bytes, &error))
        return usage_error (error);
    }
  if (g_variant_dict_lookup (options, "duration", "&s", &text))
    {
      double seconds;

      if (!rp_parse_duration (text, "--duration", &seconds, &error))
        return usage_error (error);
    }
  if (g_variant_dict_lookup (options, "dir", "^&ay", &text) &&
      !g_file_test (text, G_FILE_TEST_IS_DIR))
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("--dir: “%s” is not a folder"), text);
      return usage_error (error);
    }

  /* Go on: the options reach command_line() in the primary instance. */
  return -1;
}

static RpWindow *
find_idle_window (RpApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (RP_IS_WINDOW (window) && !rp_window_get_busy (RP_WINDOW (window)))
    return RP_WINDOW (window);
  return NULL;
}

static GFile *
lookup_file (GApplicationCommandLine *command_line,
             GVariantDict            *options,
             const char              *name)
{
  const char *path = NULL;

  /* Relative to the caller's working directory, which a remote instance
   * does not share. */
  if (g_variant_dict_lookup (options, name, "^&ay", &path))
    return g_application_command_line_create_file_for_arg (command_line, path);
  return NULL;
}

static int
rp_application_command_line (GApplication            *application,
                             GApplicationCommandLine *command_line)
{
  RpApplication *self = RP_APPLICATION (application);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autoptr(GFile) directory = lookup_file (command_line, options, "dir");
  g_autoptr(GFile) report = lookup_file (command_line, options, "report-on-exit");
  g_autoptr(GFile) screenshot = lookup_file (command_line, options, "screenshot-on-exit");
  const char *text = NULL;
  RpWindow *window = find_idle_window (self);

  if (window == NULL)
    window = rp_window_new (GTK_APPLICATION (self));

  if (directory != NULL)
    {
      g_autofree char *path = g_file_get_path (directory);

      rp_window_set_directory (window, path);
    }
  if (g_variant_dict_lookup (options, "scenario", "&s", &text))
    rp_window_set_scenario (window, text);
  if (g_variant_dict_lookup (options, "size", "&s", &text))
    rp_window_set_size_text (window, text);
  if (g_variant_dict_lookup (options, "duration", "&s", &text))
    rp_window_set_duration_text (window, text);
  if (g_variant_dict_contains (options, "simulate-save"))
    g_object_set (window, "simulate-save", TRUE, NULL);
  rp_window_set_exit_outputs (window, report, screenshot);

  gtk_window_present (GTK_WINDOW (window));
  if (g_variant_dict_contains (options, "start"))
    rp_window_start (window);
  return 0;
}

static void
rp_application_activate (GApplication *application)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (application));

  if (window == NULL)
    window = GTK_WINDOW (rp_window_new (GTK_APPLICATION (application)));
  gtk_window_present (window);
}

/* Closing each window stops its run; the application quits once the
 * workers are joined (each running window holds it until then). */
static void
close_all_windows (GtkApplication *application)
{
  g_autoptr(GList) windows = g_list_copy (gtk_application_get_windows (application));

  for (GList *l = windows; l != NULL; l = l->next)
    gtk_window_close (l->data);
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  close_all_windows (user_data);
}

/* Ctrl+C in the terminal or a session logout: stop and clean up like Ctrl+Q
 * rather than die mid-write (the files would vanish anyway, being unlinked,
 * but the report would be lost). */
static gboolean
on_quit_signal (gpointer user_data)
{
  close_all_windows (user_data);
  return G_SOURCE_CONTINUE;
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *application = user_data;
  static const char *developers[] = { "The Responsiveness Probe authors", NULL };

  adw_show_about_window (gtk_application_get_active_window (application),
                         "application-name", _("Responsiveness Probe"),
                         "application-icon", APP_ID,
                         "version", PACKAGE_VERSION,
                         "comments", _("Measures how unresponsive the desktop gets while the disk is busy"),
                         "license-type", GTK_LICENSE_GPL_3_0,
                         "developers", developers,
                         NULL);
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated, NULL, NULL, NULL, { 0 } },
  { "about", about_activated, NULL, NULL, NULL, { 0 } },
};

static void
rp_application_startup (GApplication *application)
{
  static const char *quit_accels[] = { "<Control>q", NULL };

  G_APPLICATION_CLASS (rp_application_parent_class)->startup (application);

  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions,
                                   G_N_ELEMENTS (app_actions), application);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.quit", quit_accels);
  gtk_window_set_default_icon_name (APP_ID);
  g_unix_signal_add (SIGINT, on_quit_signal, application);
  g_unix_signal_add (SIGTERM, on_quit_signal, application);
}

static void
rp_application_class_init (RpApplicationClass *klass)
{
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  application_class->handle_local_options = rp_application_handle_local_options;
  application_class->command_line = rp_application_command_line;
  application_class->activate = rp_application_activate;
  application_class->startup = rp_application_startup;

  /* The resources live in a static library: register them by hand so that
   * the linker keeps them (no constructor to rely on). */
  rp_gui_register_resource ();
}

static void
rp_application_init (RpApplication *self)
{
  g_application_add_main_option_entries (G_APPLICATION (self), option_entries);
  g_application_set_option_context_parameter_string (G_APPLICATION (self), NULL);
  g_application_set_option_context_summary (G_APPLICATION (self),
                                            _("Measure how responsive the desktop stays while the disk is busy."));
}

/**
 * rp_application_new:
 *
 * Returns: (transfer full): the application, io.github.resprobe.Resprobe
 */
RpApplication *
rp_application_new (void)
{
  return g_object_new (RP_TYPE_APPLICATION,
                       "application-id", APP_ID,
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE,
                       "resource-base-path", "/io/github/resprobe/Resprobe",
                       NULL);
}
