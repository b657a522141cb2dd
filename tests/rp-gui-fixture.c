/* rp-gui-fixture.c: what every GUI test program sets up, waits for and takes down under Xvfb. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <gdk/x11/gdkx.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdlib.h>

#include "rp-application.h"
#include "rp-gui-fixture.h"
#include "rp-gui-util.h"
#include "rp-recent-runs.h"
#include "rp-session.h"
#include "rp-window-private.h"

/* One test program, one fixture: main() sets it up once for every case. */
static GtkApplication *application;
static char *data_home;
static guint guard_seconds = RP_GUI_FIXTURE_HANG_GUARD_S;

/**
 * rp_gui_fixture_init:
 * @argc: (inout): main()'s, for g_test_init()
 * @argv: (inout): main()'s, for g_test_init()
 * @flags: what the program's cases need
 * @hang_guard_s: seconds rp_gui_fixture_wait() waits before it fails the
 *   test; 0 for %RP_GUI_FIXTURE_HANG_GUARD_S
 *
 * Sets the environment the GUI tests share (cairo rendering, no
 * accessibility bus, settings in memory, never a session bus autolaunched),
 * calls g_test_init() and initialises GTK and libadwaita. Without a display
 * it exits with status 77, which meson counts as a skip. Call it first in
 * main(); a test that needs a locale of its own sets it before.
 *
 * Returns: (transfer none) (nullable): with %RP_GUI_FIXTURE_APPLICATION a
 *   registered application, held so that closing its last window quits
 *   nothing (there is no main loop of its own); valid until
 *   rp_gui_fixture_run() returns. Otherwise %NULL.
 */
GtkApplication *
rp_gui_fixture_init (int                *argc,
                     char             ***argv,
                     RpGuiFixtureFlags   flags,
                     guint               hang_guard_s)
{
  g_autoptr(GError) error = NULL;

  if (hang_guard_s > 0)
    guard_seconds = hang_guard_s;
  g_setenv ("GSK_RENDERER", "cairo", FALSE);
  g_setenv ("GTK_A11Y", "none", TRUE);
  g_setenv ("GSETTINGS_BACKEND", "memory", TRUE);
  /* No session bus: never autolaunch one. */
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "disabled:", FALSE);
  if (flags & RP_GUI_FIXTURE_DATA_HOME)
    {
      g_autofree char *name = g_path_get_basename ((*argv)[0]);
      g_autofree char *template = g_strdup_printf ("%s-data-XXXXXX", name);

      /* Set before GLib reads it (g_get_user_data_dir() keeps the first). */
      data_home = g_dir_make_tmp (template, &error);
      g_assert_no_error (error);
      g_setenv ("XDG_DATA_HOME", data_home, TRUE);
    }
  g_test_init (argc, argv, NULL);

  if (!gtk_init_check ())
    {
      g_printerr ("no display; run under xvfb-run\n");
      if (data_home != NULL)
        rp_gui_fixture_remove_tree (data_home);
      exit (77);
    }
  adw_init ();
  if (!(flags & RP_GUI_FIXTURE_APPLICATION))
    return NULL;

  /* Windows need a registered application (its startup ran). */
  application = GTK_APPLICATION (rp_application_new ());
  g_application_set_flags (G_APPLICATION (application),
                           G_APPLICATION_NON_UNIQUE | G_APPLICATION_HANDLES_COMMAND_LINE |
                           G_APPLICATION_HANDLES_OPEN);
  g_application_register (G_APPLICATION (application), NULL, &error);
  g_assert_no_error (error);
  /* Ctrl+Q and closing windows must not end anything: the test goes on. */
  g_application_hold (G_APPLICATION (application));
  return application;
}

/**
 * rp_gui_fixture_run:
 *
 * Runs the cases added, then releases the application and removes the
 * reports folder of the test (see rp_gui_fixture_init()).
 *
 * Returns: g_test_run()'s status, for main() to return
 */
int
rp_gui_fixture_run (void)
{
  int status = g_test_run ();

  if (application != NULL)
    {
      g_application_release (G_APPLICATION (application));
      g_clear_object (&application);
    }
  if (data_home != NULL)
    rp_gui_fixture_remove_tree (data_home);
  g_clear_pointer (&data_home, g_free);
  return status;
}

static gboolean
on_hang (gpointer user_data)
{
  g_error ("waited %u s for: %s", guard_seconds, (const char *) user_data);
  return G_SOURCE_REMOVE;
}

/**
 * rp_gui_fixture_wait:
 * @done: checked after each iteration of the default main context
 * @data: for @done
 * @what: what is awaited, for the failure's message
 *
 * Iterates the default main context until @done returns %TRUE. The time
 * it takes is no assertion: only a hang (the guard of rp_gui_fixture_init())
 * fails the test, naming @what.
 */
void
rp_gui_fixture_wait (RpGuiCondition  done,
                     gpointer        data,
                     const char     *what)
{
  guint guard = g_timeout_add_seconds (guard_seconds, on_hang, (gpointer) what);

  while (!done (data))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (guard);
}

/**
 * rp_gui_fixture_quit_loop:
 * @data: a #GMainLoop
 *
 * A #GSourceFunc that quits @data once.
 *
 * Returns: %G_SOURCE_REMOVE
 */
gboolean
rp_gui_fixture_quit_loop (gpointer data)
{
  g_main_loop_quit (data);
  return G_SOURCE_REMOVE;
}

/**
 * rp_gui_fixture_spin:
 * @milliseconds: how long
 *
 * Runs the default main context for @milliseconds: for what has no
 * condition to wait for (a redraw that must not happen).
 */
void
rp_gui_fixture_spin (guint milliseconds)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);

  g_timeout_add (milliseconds, rp_gui_fixture_quit_loop, loop);
  g_main_loop_run (loop);
}

/**
 * rp_gui_fixture_collect:
 * @widget: the top of the tree
 * @type: the widgets' type (or an ancestor type, or an interface)
 * @out: (element-type GtkWidget) (transfer none): gets each descendant of
 *   @type, @widget included, in tree order; references are not taken
 */
void
rp_gui_fixture_collect (GtkWidget *widget,
                        GType      type,
                        GPtrArray *out)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    g_ptr_array_add (out, widget);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    rp_gui_fixture_collect (child, type, out);
}

/**
 * rp_gui_fixture_find_popover:
 * @widget: e.g. a chart (its stall popover) or a combo row (its list)
 *
 * Returns: (transfer none) (nullable): the first popover under @widget, in
 *   tree order; %NULL for none (a chart's is made when first needed)
 */
GtkPopover *
rp_gui_fixture_find_popover (GtkWidget *widget)
{
  g_autoptr(GPtrArray) popovers = g_ptr_array_new ();

  rp_gui_fixture_collect (widget, GTK_TYPE_POPOVER, popovers);
  return popovers->len > 0 ? popovers->pdata[0] : NULL;
}

/**
 * rp_gui_fixture_name_widest:
 * @widget: the top of the tree
 * @limit: pixels
 * @depth: the indent of @widget's line, 0 at the top
 *
 * Names in the test's log the visible widgets whose minimum width is over
 * @limit (labels with their text), the innermost last: what to narrow
 * when a window's minimum width grows.
 */
void
rp_gui_fixture_name_widest (GtkWidget *widget,
                            int        limit,
                            guint      depth)
{
  int minimum = 0;

  if (!gtk_widget_get_visible (widget))
    return;
  gtk_widget_measure (widget, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  if (minimum <= limit)
    return;
  if (GTK_IS_LABEL (widget))
    g_test_message ("%*s%s “%s”: minimum width %d", (int) depth, "", G_OBJECT_TYPE_NAME (widget),
                    gtk_label_get_text (GTK_LABEL (widget)), minimum);
  else
    g_test_message ("%*s%s: minimum width %d", (int) depth, "", G_OBJECT_TYPE_NAME (widget), minimum);
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    rp_gui_fixture_name_widest (child, limit, depth + 1);
}

/**
 * rp_gui_fixture_settings_with_backend:
 * @backend: (transfer none): e.g. a read-only or a failing one
 *
 * Returns: (transfer full): the application's settings kept by @backend
 */
GSettings *
rp_gui_fixture_settings_with_backend (GSettingsBackend *backend)
{
  g_autoptr(GSettings) probe = rp_gui_new_settings ();
  g_autoptr(GSettingsSchema) schema = NULL;

  g_object_get (probe, "settings-schema", &schema, NULL);
  return g_settings_new_full (schema, backend, NULL);
}

/**
 * rp_gui_fixture_passive_window:
 * @target: the folder its run measures
 * @settings: (nullable): the window's settings; %NULL for none
 *
 * Returns: (transfer none): a new window, not shown, whose form is set to
 *   watch @target passively for 1 s (a run that writes nothing); it is
 *   the application's until destroyed
 */
RpWindow *
rp_gui_fixture_passive_window (const char *target,
                               GSettings  *settings)
{
  RpWindow *window = g_object_new (RP_TYPE_WINDOW, "application", application, "settings", settings, NULL);

  g_assert_true (rp_window_set_scenario (window, "passive"));
  rp_window_set_directory (window, target);
  rp_window_set_duration_text (window, "1");
  return window;
}

static gboolean
has_report (gpointer data)
{
  return rp_window_get_report (data) != NULL && !rp_window_get_busy (data);
}

/**
 * rp_gui_fixture_open_report:
 * @path: a report file
 *
 * Returns: (transfer none): a new 1280 × 800 window, shown, once it shows
 *   the report of @path; the application's until destroyed
 */
RpWindow *
rp_gui_fixture_open_report (const char *path)
{
  RpWindow *window = rp_window_new (application);
  g_autoptr(GFile) file = g_file_new_for_path (path);

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  rp_window_open_files (window, &file, 1);
  rp_gui_fixture_wait (has_report, window, "the report in the window");
  return window;
}

/**
 * rp_gui_fixture_count_reports:
 *
 * Returns: how many entries the reports folder (rp_recent_runs_get_directory())
 *   has; 0 without the folder
 */
guint
rp_gui_fixture_count_reports (void)
{
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autoptr(GDir) dir = g_dir_open (directory, 0, NULL);
  guint n = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    n++;
  return n;
}

/**
 * rp_gui_fixture_empty_reports:
 *
 * Removes every file of the reports folder (rp_recent_runs_get_directory()),
 * asserting each goes: a test starts from a folder it knows.
 */
void
rp_gui_fixture_empty_reports (void)
{
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autoptr(GDir) dir = g_dir_open (directory, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (directory, name, NULL);

      g_assert_cmpint (g_unlink (path), ==, 0);
    }
}

/**
 * rp_gui_fixture_use_build_catalogue:
 * @language: the language unless RP_SHOTS_LANGUAGE names another (for
 *   screenshots), e.g. "de"
 *
 * Translates from the build's catalogues (po/ beside tests/ in the build) in
 * @language, with its locale (de_DE.UTF-8 for German, else C.UTF-8). Call it
 * first in main(), before rp_gui_fixture_init().
 */
void
rp_gui_fixture_use_build_catalogue (const char *language)
{
  g_autofree char *localedir = NULL;

  g_setenv ("LANGUAGE", g_getenv ("RP_SHOTS_LANGUAGE") ? g_getenv ("RP_SHOTS_LANGUAGE") : language, TRUE);
  g_setenv ("LC_ALL", g_str_has_prefix (g_getenv ("LANGUAGE"), "de") ? "de_DE.UTF-8" : "C.UTF-8", TRUE);
  setlocale (LC_ALL, "");
  localedir = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".", "..", "po", NULL);
  bindtextdomain (GETTEXT_PACKAGE, localedir);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}

/**
 * rp_gui_fixture_remove_tree:
 * @path: a folder the test made
 *
 * Removes @path and everything in it; what cannot be removed stays.
 */
void
rp_gui_fixture_remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR) && !g_file_test (child, G_FILE_TEST_IS_SYMLINK))
        rp_gui_fixture_remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

/**
 * rp_gui_fixture_has_real_input:
 *
 * Whether rp_gui_fixture_xdotool() can reach the windows: xdotool is
 * installed and the display is X11. Marks the test skipped when not.
 *
 * Returns: %TRUE when it can
 */
gboolean
rp_gui_fixture_has_real_input (void)
{
  g_autofree char *path = g_find_program_in_path ("xdotool");

  if (path != NULL && GDK_IS_X11_DISPLAY (gdk_display_get_default ()))
    return TRUE;
  g_test_skip ("needs xdotool and an X display (real input)");
  return FALSE;
}

/**
 * rp_gui_fixture_xdotool:
 * @arguments: xdotool's, e.g. "key --clearmodifiers Tab"
 *
 * Runs xdotool (see rp_gui_fixture_has_real_input()), fails the test if it
 * fails, then runs the main context for 200 ms, through which the events
 * reach GTK.
 */
void
rp_gui_fixture_xdotool (const char *arguments)
{
  g_autofree char *command = g_strdup_printf ("xdotool %s", arguments);
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_test_message ("%s", command);
  g_spawn_command_line_sync (command, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  rp_gui_fixture_spin (200);
}

/**
 * rp_gui_fixture_point_at:
 * @widget: a shown widget
 * @x: in @widget's coordinates
 * @y: likewise
 * @then: (nullable): xdotool's commands to chain after the move, e.g.
 *   "click 1"
 *
 * Moves the pointer to (@x, @y) of @widget, with rp_gui_fixture_xdotool().
 * The window is at the screen's origin under Xvfb without a window
 * manager.
 */
void
rp_gui_fixture_point_at (GtkWidget  *widget,
                         double      x,
                         double      y,
                         const char *then)
{
  GtkNative *native = gtk_widget_get_native (widget);
  graphene_point_t at;
  double dx, dy;
  g_autofree char *arguments = NULL;
  int sx, sy;

  g_assert_true (gtk_widget_compute_point (widget, GTK_WIDGET (native), &GRAPHENE_POINT_INIT (x, y), &at));
  gtk_native_get_surface_transform (native, &dx, &dy);
  sx = (int) (at.x + dx), sy = (int) (at.y + dy);
  arguments = g_strdup_printf ("mousemove --sync %d %d %s", sx, sy, then != NULL ? then : "");
  rp_gui_fixture_xdotool (arguments);
}

/**
 * rp_gui_fixture_click_at:
 * @widget: a shown widget
 * @x: in @widget's coordinates
 * @y: likewise
 *
 * Clicks the primary button at (@x, @y) of @widget (rp_gui_fixture_point_at()).
 */
void
rp_gui_fixture_click_at (GtkWidget *widget,
                         double     x,
                         double     y)
{
  rp_gui_fixture_point_at (widget, x, y, "click 1");
}

/**
 * rp_gui_fixture_pointer_cleared:
 * @data: a weak pointer's address (g_object_add_weak_pointer())
 *
 * Returns: whether its object is gone
 */
gboolean
rp_gui_fixture_pointer_cleared (gpointer data)
{
  return *(gpointer *) data == NULL;
}

/**
 * rp_gui_fixture_window_idle:
 * @data: an #RpWindow
 *
 * Returns: whether the window has no run going (nor a report loading)
 */
gboolean
rp_gui_fixture_window_idle (gpointer data)
{
  return !rp_window_get_busy (data);
}

/**
 * rp_gui_fixture_run_measuring:
 * @data: an #RpWindow
 *
 * Returns: whether the window's run is under way and its window probes too
 */
gboolean
rp_gui_fixture_run_measuring (gpointer data)
{
  RpWindow *window = data;

  return window->session != NULL && rp_session_get_state (window->session) == RP_SESSION_RUNNING &&
         window->status_id != 0;
}
