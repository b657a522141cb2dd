/* test-gui-help.c: Help (F1, the main menu) and the pages' links ask the desktop for help:resprobe URIs of pages the guide has. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>

#include "rp-compare-window.h"
#include "rp-gui-fixture.h"
#include "rp-window.h"

/* The handler of help: URIs during this test: a desktop entry of the test's
 * own (XDG_DATA_HOME) made the default for x-scheme-handler/help
 * (XDG_CONFIG_HOME/mimeapps.list), whose program writes each URI it is
 * given to a file. gtk_show_uri_full() goes the way it goes on a desktop
 * without a portal: GIO's default handler of the scheme, launched with the
 * display's launch context; only Yelp is replaced. */
#define RECORDER_ID "rp-test-help-recorder.desktop"

static GtkApplication *application;
static char *home;      /* XDG_DATA_HOME and XDG_CONFIG_HOME, removed at the end */
static char *uri_log;   /* one URI a line, as the recorder was launched */

static void
write_file (const char *path,
            const char *contents,
            int         mode)
{
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, contents, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

/* Before GLib reads XDG_*_HOME (it keeps the first value it sees). */
static void
install_recorder (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *applications = NULL;
  g_autofree char *script = NULL;
  g_autofree char *script_text = NULL;
  g_autofree char *entry = NULL;
  g_autofree char *entry_text = NULL;
  g_autofree char *mimeapps = NULL;

  home = g_dir_make_tmp ("test-gui-help-XXXXXX", &error);
  g_assert_no_error (error);
  g_setenv ("XDG_DATA_HOME", home, TRUE);
  g_setenv ("XDG_CONFIG_HOME", home, TRUE);
  uri_log = g_build_filename (home, "uris.log", NULL);

  script = g_build_filename (home, "record-help-uri", NULL);
  script_text = g_strdup_printf ("#!/bin/sh\nprintf '%%s\\n' \"$1\" >>'%s'\n", uri_log);
  write_file (script, script_text, 0755);

  applications = g_build_filename (home, "applications", NULL);
  g_assert_cmpint (g_mkdir_with_parents (applications, 0700), ==, 0);
  entry = g_build_filename (applications, RECORDER_ID, NULL);
  entry_text = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Help URI recorder\n"
                                "Exec=%s %%u\nMimeType=x-scheme-handler/help;\nNoDisplay=true\n", script);
  write_file (entry, entry_text, 0644);

  mimeapps = g_build_filename (home, "mimeapps.list", NULL);
  write_file (mimeapps, "[Default Applications]\nx-scheme-handler/help=" RECORDER_ID "\n", 0644);
}

/* The URIs the recorder got so far, oldest first. */
static GStrv
recorded_uris (void)
{
  g_autofree char *text = NULL;

  if (!g_file_get_contents (uri_log, &text, NULL, NULL))
    return g_new0 (char *, 1);
  g_strchomp (text);
  return *text == '\0' ? g_new0 (char *, 1) : g_strsplit (text, "\n", -1);
}

static gboolean
recorded_n (gpointer data)
{
  g_auto(GStrv) uris = recorded_uris ();

  return g_strv_length (uris) >= GPOINTER_TO_UINT (data);
}

/* Waits for the @n-th URI the recorder is launched with, and returns it. */
static char *
wait_for_uri (guint n)
{
  g_auto(GStrv) uris = NULL;

  rp_gui_fixture_wait (recorded_n, GUINT_TO_POINTER (n), "the help viewer launched with a help: URI");
  uris = recorded_uris ();
  g_assert_cmpuint (g_strv_length (uris), ==, n);
  return g_strdup (uris[n - 1]);
}

/* help:resprobe/PAGE names a page of help/C. */
static void
assert_page_exists (const char *page)
{
  g_autofree char *name = g_strconcat (page, ".page", NULL);
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "help", "C", name, NULL);

  g_test_message ("topic %s: %s", page, path);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
}

static gboolean
window_active (gpointer data)
{
  return gtk_window_is_active (data);
}

/* The menu model has an item for @action (with @target, if given). */
static gboolean
menu_has_item (GMenuModel *model,
               const char *action,
               const char *target)
{
  for (int i = 0; i < g_menu_model_get_n_items (model); i++)
    {
      g_autofree char *name = NULL;
      g_autoptr(GVariant) value = NULL;
      g_autoptr(GMenuModel) section = g_menu_model_get_item_link (model, i, G_MENU_LINK_SECTION);

      if (section != NULL && menu_has_item (section, action, target))
        return TRUE;
      if (!g_menu_model_get_item_attribute (model, i, G_MENU_ATTRIBUTE_ACTION, "s", &name) ||
          g_strcmp0 (name, action) != 0)
        continue;
      value = g_menu_model_get_item_attribute_value (model, i, G_MENU_ATTRIBUTE_TARGET, G_VARIANT_TYPE_STRING);
      if (target == NULL || (value != NULL && g_strcmp0 (g_variant_get_string (value, NULL), target) == 0))
        return TRUE;
    }
  return FALSE;
}

static GMenuModel *
window_menu (GtkWidget *window)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();

  rp_gui_fixture_collect (window, GTK_TYPE_MENU_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (gtk_menu_button_get_menu_model (buttons->pdata[i]) != NULL)
      return gtk_menu_button_get_menu_model (buttons->pdata[i]);
  return NULL;
}

/* The interception is in place: GIO would hand help: URIs to the recorder. */
static void
test_recorder (void)
{
  g_autoptr(GAppInfo) handler = g_app_info_get_default_for_uri_scheme ("help");

  g_assert_nonnull (handler);
  g_assert_cmpstr (g_app_info_get_id (handler), ==, RECORDER_ID);
}

/* The action exists, F1 is its accelerator, the main menu has Help, and
 * pressing F1 (real X input) asks for the guide's front page. Without the
 * action this fails at once, not by a hang. */
static void
test_f1 (void)
{
  g_auto(GStrv) accels = NULL;
  g_autofree char *uri = NULL;
  RpWindow *window;
  GMenuModel *menu;
  g_auto(GStrv) before = recorded_uris ();

  g_assert_true (g_action_group_has_action (G_ACTION_GROUP (application), "help"));
  accels = gtk_application_get_accels_for_action (application, "app.help");
  g_assert_true (g_strv_contains ((const char *const *) accels, "F1"));

  window = rp_window_new (application);
  gtk_window_present (GTK_WINDOW (window));
  menu = window_menu (GTK_WIDGET (window));
  g_assert_nonnull (menu);
  g_assert_true (menu_has_item (menu, "app.help", NULL));

  if (!rp_gui_fixture_has_real_input ())
    {
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  rp_gui_fixture_wait (window_active, window, "the window active");
  /* The pointer on the title: X gives the keyboard to the window under it
   * (no window manager). */
  rp_gui_fixture_xdotool ("mousemove --sync 200 12");
  rp_gui_fixture_xdotool ("key --clearmodifiers F1");
  uri = wait_for_uri (g_strv_length (before) + 1);
  g_assert_cmpstr (uri, ==, "help:resprobe");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Each link of the window to a topic of the guide (app.help-topic), when
 * activated, asks for help:resprobe/PAGE, a page the guide has; the
 * comparison window's menu has its topic too. */
static void
test_topics (void)
{
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  RpWindow *window = rp_window_new (application);
  RpCompareWindow *compare;
  GMenuModel *menu;
  guint links = 0;

  gtk_window_present (GTK_WINDOW (window));
  rp_gui_fixture_collect (GTK_WIDGET (window), GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    {
      GtkActionable *button = buttons->pdata[i];
      GVariant *target = gtk_actionable_get_action_target_value (button);
      g_auto(GStrv) before = recorded_uris ();
      g_autofree char *uri = NULL;
      g_autofree char *expected = NULL;

      if (g_strcmp0 (gtk_actionable_get_action_name (button), "app.help-topic") != 0)
        continue;
      g_assert_nonnull (target);
      assert_page_exists (g_variant_get_string (target, NULL));
      expected = g_strdup_printf ("help:resprobe/%s", g_variant_get_string (target, NULL));
      /* What a hang needs to be read (one CI run beside stress-ng: the third
       * link's URI never came, the product logged no launch error). */
      g_test_message ("link to %s: sensitive %d, mapped %d, %u URIs so far", expected,
                      gtk_widget_is_sensitive (GTK_WIDGET (button)), gtk_widget_get_mapped (GTK_WIDGET (button)),
                      g_strv_length (before));
      g_signal_emit_by_name (button, "clicked");
      uri = wait_for_uri (g_strv_length (before) + 1);
      g_assert_cmpstr (uri, ==, expected);
      links++;
    }
  /* The first page, Results and Why. */
  g_assert_cmpuint (links, >=, 3);
  gtk_window_destroy (GTK_WINDOW (window));

  compare = rp_compare_window_new (application);
  menu = window_menu (GTK_WIDGET (compare));
  g_assert_nonnull (menu);
  g_assert_true (menu_has_item (menu, "app.help-topic", "compare"));
  assert_page_exists ("compare");
  gtk_window_destroy (GTK_WINDOW (compare));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  install_recorder ();
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION, 0);

  g_test_add_func ("/gui-help/recorder", test_recorder);
  g_test_add_func ("/gui-help/f1", test_f1);
  g_test_add_func ("/gui-help/topics", test_topics);
  status = rp_gui_fixture_run ();
  rp_gui_fixture_remove_tree (home);
  g_free (home);
  g_free (uri_log);
  return status;
}
