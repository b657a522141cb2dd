/* rp-application.c: the GtkApplication: command line, windows, app-wide actions. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>

#include "rp-application.h"
#include "rp-gui-util.h"
#include "rp-compare-window.h"
#include "rp-gui-resources.h"
#include "rp-help.h"
#include "rp-preferences-window.h"
#include "rp-report-io.h"
#include "rp-scenario.h"
#include "rp-units.h"
#include "rp-window.h"

/* The application's resources (the icons are elsewhere: see
 * resprobe.gresource.xml). */
#define RESOURCE_PATH "/io/github/resprobe/Resprobe"

struct _RpApplication
{
  AdwApplication  parent_instance;

  /* style.css, and the ones that apply on top of it in the dark and in the
   * high-contrast appearance (see load_styles()) */
  GtkCssProvider *style;
  GtkCssProvider *style_dark;
  GtkCssProvider *style_hc;
};

G_DEFINE_FINAL_TYPE (RpApplication, rp_application, ADW_TYPE_APPLICATION)

static const GOptionEntry option_entries[] = {
  { "dir", 'd', 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Folder to test (default: ~/.cache/resprobe)"), N_("DIR") },
  { "load-dir", 0, 0, G_OPTION_ARG_FILENAME, NULL,
    N_("Folder the loads write to, on another file system such as a USB stick, while the probes stay in --dir"), N_("DIR") },
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
  /* Reports: one shows as a finished run, two to eight are compared. */
  { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, NULL,
    NULL, N_("[REPORT.json…]") },
  G_OPTION_ENTRY_NULL
};

static int
usage_error (const GError *error)
{
  rp_gui_printerr (error->message);
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
  if (g_variant_dict_lookup (options, "load-dir", "^&ay", &text) &&
      !g_file_test (text, G_FILE_TEST_IS_DIR))
    {
      g_set_error (&error, G_IO_ERROR, G_IO_ERROR_NOT_DIRECTORY,
                   _("--load-dir: “%s” is not a folder"), text);
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

/* The one report left of those a comparison was given shows in a main
 * window like a finished run (which then takes the screenshot of a script). */
static GtkWindow *
on_compare_show_report (RpCompareWindow *compare,
                        RpReport        *report,
                        GFile           *file,
                        GFile           *screenshot,
                        GtkApplication  *application)
{
  RpWindow *window = rp_window_new (application);

  rp_window_set_exit_outputs (window, NULL, screenshot);
  gtk_window_present (GTK_WINDOW (window));
  rp_window_show_report (window, report, file);
  return GTK_WINDOW (window);
}

/* Two to eight reports (or too many, which the window explains) open in a
 * comparison window of their own; one in an idle main window. */
static void
open_reports (RpApplication *self,
              GFile *const  *files,
              guint          n_files,
              GFile         *screenshot)
{
  RpWindow *window;

  if (n_files >= RP_COMPARE_MIN_REPORTS)
    {
      RpCompareWindow *compare = rp_compare_window_new (GTK_APPLICATION (self));

      rp_compare_window_set_exit_screenshot (compare, screenshot);
      gtk_window_present (GTK_WINDOW (compare));
      rp_compare_window_open_files (compare, files, n_files);
      return;
    }
  window = find_idle_window (self);
  if (window == NULL)
    window = rp_window_new (GTK_APPLICATION (self));
  gtk_window_present (GTK_WINDOW (window));
  rp_window_open_files (window, files, n_files);
}

static GPtrArray *
lookup_report_files (GApplicationCommandLine *command_line,
                     GVariantDict            *options)
{
  GPtrArray *files = g_ptr_array_new_with_free_func (g_object_unref);
  g_autofree const char **paths = NULL;

  if (g_variant_dict_lookup (options, G_OPTION_REMAINING, "^a&ay", &paths))
    for (guint i = 0; paths[i] != NULL; i++)
      g_ptr_array_add (files, g_application_command_line_create_file_for_arg (command_line, paths[i]));
  return files;
}

/* The desktop (a file manager, `gapplication launch`) opening reports. */
static void
rp_application_open (GApplication  *application,
                     GFile        **files,
                     int            n_files,
                     const char    *hint)
{
  open_reports (RP_APPLICATION (application), files, (guint) MAX (n_files, 0), NULL);
}

static int
rp_application_command_line (GApplication            *application,
                             GApplicationCommandLine *command_line)
{
  RpApplication *self = RP_APPLICATION (application);
  GVariantDict *options = g_application_command_line_get_options_dict (command_line);
  g_autoptr(GFile) directory = lookup_file (command_line, options, "dir");
  g_autoptr(GFile) load_directory = lookup_file (command_line, options, "load-dir");
  g_autoptr(GFile) report = lookup_file (command_line, options, "report-on-exit");
  g_autoptr(GFile) screenshot = lookup_file (command_line, options, "screenshot-on-exit");
  g_autoptr(GPtrArray) reports = lookup_report_files (command_line, options);
  const char *text = NULL;
  RpWindow *window;

  if (reports->len >= RP_COMPARE_MIN_REPORTS)
    {
      open_reports (self, (GFile *const *) reports->pdata, reports->len, screenshot);
      return 0;
    }

  window = find_idle_window (self);
  if (window == NULL)
    window = rp_window_new (GTK_APPLICATION (self));

  if (directory != NULL)
    {
      g_autofree char *path = g_file_get_path (directory);

      rp_window_set_directory (window, path);
    }
  if (load_directory != NULL)
    {
      g_autofree char *path = g_file_get_path (load_directory);

      rp_window_set_load_directory (window, path);
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
  if (reports->len == 1)
    rp_window_open_files (window, (GFile *const *) reports->pdata, 1);
  else if (g_variant_dict_contains (options, "start"))
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

#define HOMEPAGE_URL "https://github.com/resprobe/resprobe"
#define ISSUES_URL   HOMEPAGE_URL "/issues"

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  GtkApplication *application = user_data;
  AdwAboutWindow *about = ADW_ABOUT_WINDOW (adw_about_window_new ());
  const char *developers[] = { _("The Responsiveness Probe authors"), NULL };

  gtk_window_set_transient_for (GTK_WINDOW (about), gtk_application_get_active_window (application));
  adw_about_window_set_application_name (about, _("Responsiveness Probe"));
  adw_about_window_set_application_icon (about, APP_ID);
  adw_about_window_set_version (about, PACKAGE_VERSION);
  adw_about_window_set_developer_name (about, _("The Responsiveness Probe authors"));
  adw_about_window_set_developers (about, developers);
  adw_about_window_set_comments (about, _("Measures how unresponsive the desktop gets while the disk is busy: "
                                          "fsync and write() latency, the delays of an application window, the CPU time "
                                          "I/O takes, and the configuration that explains them."));
  adw_about_window_set_license_type (about, GTK_LICENSE_GPL_3_0);
  adw_about_window_set_copyright (about, _("© 2026 The Responsiveness Probe authors"));
  adw_about_window_set_website (about, HOMEPAGE_URL);
  adw_about_window_set_issue_url (about, ISSUES_URL);
  /* TRANSLATORS: your name and e-mail address, one translator per line */
  adw_about_window_set_translator_credits (about, _("translator-credits"));
  gtk_window_present (GTK_WINDOW (about));
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  GtkApplication *application = user_data;
  g_autoptr(GSettings) settings = rp_gui_new_settings ();
  RpPreferencesWindow *preferences;

  /* Without the schema there is nothing to edit; the action is disabled
   * then (startup()), but a remote activation could still come. */
  if (settings == NULL)
    return;
  preferences = rp_preferences_window_new (settings);
  gtk_window_set_transient_for (GTK_WINDOW (preferences), gtk_application_get_active_window (application));
  gtk_window_present (GTK_WINDOW (preferences));
}

/* Help (F1, the main menu): the guide's front page. */
static void
help_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (user_data);

  if (window != NULL)
    rp_help_show (window, NULL);
}

/* A page's link to its topic in the guide (help-topic('verdict')). */
static void
help_topic_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  GtkWindow *window = gtk_application_get_active_window (user_data);

  if (window != NULL)
    rp_help_show (window, g_variant_get_string (parameter, NULL));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated, NULL, NULL, NULL, { 0 } },
  { "about", about_activated, NULL, NULL, NULL, { 0 } },
  { "preferences", preferences_activated, NULL, NULL, NULL, { 0 } },
  { "help", help_activated, NULL, NULL, NULL, { 0 } },
  { "help-topic", help_topic_activated, "s", NULL, NULL, { 0 } },
};

/* What AdwApplication would do with the resource base path, which is unset
 * (see rp_application_constructed()): style.css always, style-dark.css and
 * style-hc.css on top of it while the appearance is dark or high-contrast, at
 * the same priority and in the same order. */
static void
update_styles (RpApplication *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();
  GdkDisplay *display = gdk_display_get_default ();

  gtk_style_context_remove_provider_for_display (display, GTK_STYLE_PROVIDER (self->style_dark));
  gtk_style_context_remove_provider_for_display (display, GTK_STYLE_PROVIDER (self->style_hc));
  if (adw_style_manager_get_dark (manager))
    gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (self->style_dark),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  if (adw_style_manager_get_high_contrast (manager))
    gtk_style_context_add_provider_for_display (display, GTK_STYLE_PROVIDER (self->style_hc),
                                                GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
}

static GtkCssProvider *
new_style (const char *name)
{
  GtkCssProvider *provider = gtk_css_provider_new ();
  g_autofree char *path = g_strconcat (RESOURCE_PATH "/", name, NULL);

  gtk_css_provider_load_from_resource (provider, path);
  return provider;
}

static void
load_styles (RpApplication *self)
{
  AdwStyleManager *manager = adw_style_manager_get_default ();

  self->style = new_style ("style.css");
  self->style_dark = new_style ("style-dark.css");
  self->style_hc = new_style ("style-hc.css");
  gtk_style_context_add_provider_for_display (gdk_display_get_default (), GTK_STYLE_PROVIDER (self->style),
                                              GTK_STYLE_PROVIDER_PRIORITY_APPLICATION);
  g_signal_connect_object (manager, "notify::dark", G_CALLBACK (update_styles), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (manager, "notify::high-contrast", G_CALLBACK (update_styles), self, G_CONNECT_SWAPPED);
  update_styles (self);
}

/* The shortcuts window is built the first time it is asked for (Ctrl+?, the
 * menu), not with every window as GtkApplication would do with
 * gtk/help-overlay.ui under the resource base path. */
static void
show_help_overlay_activated (GSimpleAction *action,
                             GVariant      *parameter,
                             gpointer       user_data)
{
  GtkApplicationWindow *window = user_data;
  GtkShortcutsWindow *overlay = gtk_application_window_get_help_overlay (window);

  if (overlay == NULL)
    {
      g_autoptr(GtkBuilder) builder = gtk_builder_new_from_resource (RESOURCE_PATH "/gtk/help-overlay.ui");

      overlay = GTK_SHORTCUTS_WINDOW (gtk_builder_get_object (builder, "help_overlay"));
      /* Keeps our action: GTK adds its own only when there is none. */
      gtk_application_window_set_help_overlay (window, overlay);
    }
  gtk_window_present (GTK_WINDOW (overlay));
}

static void
on_window_added (GtkApplication *application,
                 GtkWindow      *window)
{
  g_autoptr(GSimpleAction) action = NULL;

  /* Every comparison window, whoever opened it, hands a lone report to a
   * main window through the application: a window does not create the
   * other kind. */
  if (RP_IS_COMPARE_WINDOW (window))
    g_signal_connect_object (window, "show-report", G_CALLBACK (on_compare_show_report), application, 0);
  if (!GTK_IS_APPLICATION_WINDOW (window) ||
      g_action_map_lookup_action (G_ACTION_MAP (window), "show-help-overlay") != NULL)
    return;
  action = g_simple_action_new ("show-help-overlay", NULL);
  g_signal_connect_object (action, "activate", G_CALLBACK (show_help_overlay_activated), window, 0);
  g_action_map_add_action (G_ACTION_MAP (window), G_ACTION (action));
}

static void
rp_application_startup (GApplication *application)
{
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  static const char *help_overlay_accels[] = { "<Control>question", NULL };
  static const char *help_accels[] = { "F1", NULL };
  RpApplication *self = RP_APPLICATION (application);
  g_autoptr(GSettings) settings = NULL;
  GAction *preferences;

  /* What AdwApplication's startup does (GTK, then libadwaita; both are
   * idempotent, so its own calls are no-ops), but in an order that costs
   * less before the first frame: libadwaita before anything else asks for
   * the icon theme. The icon theme is read on a worker thread
   * from the moment it exists, and every resource path added once that
   * reading has finished throws it away: it is read again on the main
   * thread at the first icon, and every widget is restyled. libadwaita adds
   * its path at once; we add none (the resource base path is unset). */
  gtk_init ();
  adw_init ();

  G_APPLICATION_CLASS (rp_application_parent_class)->startup (application);
  load_styles (self);

  g_action_map_add_action_entries (G_ACTION_MAP (application), app_actions,
                                   G_N_ELEMENTS (app_actions), application);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.preferences", preferences_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "win.show-help-overlay", help_overlay_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (application), "app.help", help_accels);
  g_signal_connect (application, "window-added", G_CALLBACK (on_window_added), NULL);
  settings = rp_gui_new_settings ();
  preferences = g_action_map_lookup_action (G_ACTION_MAP (application), "preferences");
  g_simple_action_set_enabled (G_SIMPLE_ACTION (preferences), settings != NULL);
  gtk_window_set_default_icon_name (APP_ID);
  g_unix_signal_add (SIGINT, on_quit_signal, application);
  g_unix_signal_add (SIGTERM, on_quit_signal, application);
}

/* GApplication rejects an unknown option itself, with exit status 1 and a
 * bare message. The project's convention (and the man page) is status 2 for
 * bad command-line values, with a pointer to --help, as resprobe-cli does.
 * The default handler only returns TRUE with status 1 when parsing failed
 * (registration errors are not fatal here: without a session bus the app
 * runs unregistered). */
static gboolean
rp_application_local_command_line (GApplication   *application,
                                   char         ***arguments,
                                   int            *exit_status)
{
  gboolean handled;

  handled = G_APPLICATION_CLASS (rp_application_parent_class)->local_command_line (application, arguments, exit_status);
  if (handled && *exit_status == EXIT_FAILURE)
    {
      g_printerr (_("Run “%s --help” for the options.\n"), g_get_prgname ());
      *exit_status = 2;
    }
  return handled;
}

/* No resource base path: GtkApplication would add its icons to the icon
 * theme after libadwaita did (too late, see rp_application_startup()) and
 * build a shortcuts window with every window; AdwApplication would load the
 * style sheets. The application does these itself, when they are due. */
static void
rp_application_constructed (GObject *object)
{
  G_OBJECT_CLASS (rp_application_parent_class)->constructed (object);

  g_application_set_resource_base_path (G_APPLICATION (object), NULL);
}

static void
rp_application_dispose (GObject *object)
{
  RpApplication *self = RP_APPLICATION (object);

  g_clear_object (&self->style);
  g_clear_object (&self->style_dark);
  g_clear_object (&self->style_hc);

  G_OBJECT_CLASS (rp_application_parent_class)->dispose (object);
}

static void
rp_application_class_init (RpApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *application_class = G_APPLICATION_CLASS (klass);

  object_class->constructed = rp_application_constructed;
  object_class->dispose = rp_application_dispose;

  application_class->local_command_line = rp_application_local_command_line;
  application_class->handle_local_options = rp_application_handle_local_options;
  application_class->command_line = rp_application_command_line;
  application_class->open = rp_application_open;
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
                       "flags", G_APPLICATION_HANDLES_COMMAND_LINE | G_APPLICATION_HANDLES_OPEN,
                       NULL);
}
