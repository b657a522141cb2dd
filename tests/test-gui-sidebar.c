/* test-gui-sidebar.c: the window's sidebar: it fits 360 px in German with every section open, its recent runs are capped, the load's folder row. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <utime.h>

#include "rp-chart-view.h"
#include "rp-gui-fixture.h"
#include "rp-gui-util.h"
#include "rp-recent-runs.h"
#include "rp-report.h"
#include "rp-scenario.h"
#include "rp-stall-report.h"
#include "rp-window.h"
#include "rp-window-private.h"
#include "rp-why-view.h"

/* Runs in German (LANGUAGE=de, the build's catalogue): its words are the
 * longest of the translations the sidebar has to fit. */

static GtkApplication *application;

/* The narrowest window a phone gives (issue 21: "works at 360 px"). */
#define PHONE_WIDTH 360
/* Reports in the folder: more than the list shows. */
#define N_REPORTS 30

/* The stalls of rp_stall_report_two_stalls, the first with a wait for
 * dirty pages too, and a third (RP_STALL_REPORT_BUSY's call at 16 s). */
static const char *stalls_json =
  "[{\"series\": \"fsync_latency\", \"start\": 2.0, \"duration\": 9.85, \"source\": \"stack\","
  "  \"blkio_delay\": null, \"breakdown\": ["
  "    {\"site\": \"jbd2_log_wait_commit\", \"seconds\": 9.7},"
  "    {\"site\": \"balance_dirty_pages\", \"seconds\": 0.05},"
  "    {\"site\": \"running\", \"seconds\": 0.1}]},"
  " {\"series\": \"fsync_latency\", \"start\": 14.0, \"duration\": 0.5, \"source\": \"stack\","
  "  \"blkio_delay\": 0.25, \"breakdown\": [{\"site\": \"folio_wait_writeback\", \"seconds\": 0.5}]},"
  /* A kernel symbol this version has no words for is shown verbatim: one
   * long unbreakable word. */
  " {\"series\": \"fsync_latency\", \"start\": 16.0, \"duration\": 0.3, \"source\": \"wchan\","
  "  \"blkio_delay\": null, \"breakdown\": [{\"site\": \"__ext4_journal_get_write_access_and_wait_for_the_commit\", \"seconds\": 0.3}]}]";

static char *
write_report_with_stalls (void)
{
  return rp_stall_report_write (stalls_json, RP_STALL_REPORT_CALM_CALLS | RP_STALL_REPORT_BUSY,
                                "test-gui-sidebar-XXXXXX.json");
}

static void
fill_reports_folder (guint n)
{
  g_autofree char *path = write_report_with_stalls ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReport) report = rp_report_load (file, &error);

  g_assert_no_error (error);
  while (rp_gui_fixture_count_reports () < n)
    {
      g_autoptr(GFile) saved = rp_recent_runs_save (report, &error);

      g_assert_no_error (error);
    }
  g_unlink (path);
}

/* The list shows its cap and a last row for the rest. */
static gboolean
recent_complete (gpointer data)
{
  RpWindow *window = data;

  return gtk_list_box_get_row_at_index (window->recent_list, RP_RECENT_RUNS_MAX) != NULL;
}

static gboolean
why_listed (gpointer data)
{
  return rp_why_view_get_n_rows (((RpWindow *) data)->why_view) > 0;
}

static gboolean
is_folded (gpointer data)
{
  return rp_window_get_folded (data);
}

/* The window's minimum is its content's plus its frame (solid-csd under
 * Xvfb: 10 px). Awaited, not asserted at once: one CI run in about eight,
 * and 2 of 30 runs beside stress-ng, measured 367 px where nothing inside
 * measured over 360 (none of 220 runs since), so the content was wider
 * for a moment. A width that never fits still fails, by the hang guard;
 * the widest widgets are named when it is first too wide. */
static gboolean
window_fits (gpointer data)
{
  static gboolean named;
  int minimum = 0;

  gtk_widget_measure (GTK_WIDGET (data), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  if (minimum <= PHONE_WIDTH)
    {
      g_test_message ("window minimum width: %d px", minimum);
      return TRUE;
    }
  if (!named)
    {
      g_test_message ("window minimum width: %d px, wider than the screen for now", minimum);
      rp_gui_fixture_name_widest (GTK_WIDGET (data), PHONE_WIDTH - 40, 0);
    }
  named = TRUE;
  return FALSE;
}

/* ------------------------------------------------------------------------- */

/* German, 360 px, the sidebar shown over the charts with every section
 * open: the run form, the results, each stall of the Why section expanded,
 * the recent runs and their last row. Its minimum width, and the window's,
 * fit the screen (it was ~405 px with the Why section open). */
static void
test_german_fits_phone (void)
{
  g_autofree char *path = write_report_with_stalls ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GPtrArray) expanders = g_ptr_array_new ();
  RpWindow *window;
  GtkWidget *sidebar;
  int minimum = 0;

  fill_reports_folder (N_REPORTS);
  /* German, or the test proves nothing. */
  g_assert_cmpstr (_("Recent Runs"), !=, "Recent Runs");

  window = rp_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (window), PHONE_WIDTH, 720);
  gtk_window_present (GTK_WINDOW (window));
  rp_gui_fixture_wait (is_folded, window, "the sidebar to fold at 360 px");
  rp_window_open_files (window, &file, 1);
  rp_gui_fixture_wait (why_listed, window, "the Why section");
  rp_gui_fixture_wait (recent_complete, window, "the recent runs");
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  g_assert_true (adw_flap_get_reveal_flap (window->flap));
  rp_gui_fixture_collect (GTK_WIDGET (window->why_view), ADW_TYPE_EXPANDER_ROW, expanders);
  g_assert_cmpuint (expanders->len, ==, 3);
  for (guint i = 0; i < expanders->len; i++)
    adw_expander_row_set_expanded (expanders->pdata[i], TRUE);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->why_view)));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->load_folder_row)));

  sidebar = adw_flap_get_flap (window->flap);
  /* The page has its margins: its groups have 24 px less. */
  rp_gui_fixture_name_widest (sidebar, PHONE_WIDTH - 40, 0);
  gtk_widget_measure (sidebar, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_test_message ("sidebar minimum width in German, every section open: %d px", minimum);
  if (g_getenv ("RP_DEBUG_WIDTHS"))
    {
      g_autoptr(GPtrArray) labels = g_ptr_array_new ();

      rp_gui_fixture_collect (GTK_WIDGET (window->summary_view), GTK_TYPE_LABEL, labels);
      for (guint i = 0; i < labels->len; i++)
        {
          int m = 0;

          if (!gtk_widget_get_visible (labels->pdata[i]))
            continue;
          gtk_widget_measure (labels->pdata[i], GTK_ORIENTATION_HORIZONTAL, -1, &m, NULL, NULL, NULL);
          g_test_message ("label %d “%s”", m, gtk_label_get_text (labels->pdata[i]));
        }
    }
  g_assert_cmpint (minimum, <=, PHONE_WIDTH);
  rp_gui_fixture_wait (window_fits, window, "the window's minimum width to fit 360 px");

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (path);
}

/* The list shows the newest RP_RECENT_RUNS_MAX runs and a last row that
 * says how many there are and opens the folder; listing a big folder keeps
 * only what it returns. */
static void
test_recent_capped (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) listed = NULL;
  g_autoptr(GPtrArray) files = NULL;
  RpWindow *window;
  GtkListBoxRow *more;
  guint n_found = 0;
  g_autofree char *expected = NULL;

  fill_reports_folder (N_REPORTS);
  g_assert_cmpuint (rp_gui_fixture_count_reports (), >=, N_REPORTS);

  listed = rp_recent_runs_list (5, &n_found, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (listed->len, ==, 5);
  g_assert_cmpuint (n_found, ==, rp_gui_fixture_count_reports ());

  window = rp_window_new (application);
  gtk_window_present (GTK_WINDOW (window));
  rp_gui_fixture_wait (recent_complete, window, "the recent runs");
  files = rp_window_list_recent_files (window);
  g_assert_cmpuint (files->len, ==, RP_RECENT_RUNS_MAX);
  more = gtk_list_box_get_row_at_index (window->recent_list, RP_RECENT_RUNS_MAX);
  g_assert_nonnull (more);
  g_assert_null (gtk_list_box_get_row_at_index (window->recent_list, RP_RECENT_RUNS_MAX + 1));
  expected = g_strdup_printf (ngettext ("Show All %u Runs", "Show All %u Runs", n_found), n_found);
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (more)), ==, expected);
  g_assert_true (gtk_list_box_row_get_activatable (more));
  /* The rows open through the list, not through action helpers of their own. */
  g_assert_null (gtk_actionable_get_action_name (GTK_ACTIONABLE (gtk_list_box_get_row_at_index (window->recent_list, 0))));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Scenario R6: the loads on another file system. The row shows "the folder
 * to test" by default; a chosen folder reaches the scenario, is stored when
 * a run starts and comes back in the next window; Delete on the row clears
 * it; a scenario without a load hides the row. */
static void
test_load_folder_row (void)
{
  g_autoptr(GSettings) settings = g_settings_new ("io.github.resprobe.Resprobe");
  g_autoptr(GError) error = NULL;
  g_autofree char *folder = g_dir_make_tmp ("test-gui-sidebar-load-XXXXXX", &error);
  g_autoptr(RpScenario) scenario = NULL;
  g_autofree char *stored = NULL;
  RpWindow *window;
  RpWindow *next;

  g_assert_no_error (error);
  g_settings_reset (settings, "load-directory");
  window = g_object_new (RP_TYPE_WINDOW, "application", application, "settings", settings, NULL);
  g_assert_true (rp_window_set_scenario (window, "R1"));
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->load_folder_row)));
  g_assert_cmpstr (adw_action_row_get_subtitle (window->load_folder_row), ==, _("The folder to test"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->load_folder_clear_button)));

  rp_window_set_load_directory (window, folder);
  g_assert_true (gtk_widget_get_visible (GTK_WIDGET (window->load_folder_clear_button)));
  g_assert_nonnull (strstr (adw_action_row_get_subtitle (window->load_folder_row),
                            strrchr (folder, '/') + 1));
  scenario = rp_run_settings_build_scenario (window->run_settings, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (scenario->load_directory, ==, folder);

  /* Stored as a run starts: the next window starts with it. */
  rp_window_form_store (window);
  stored = g_settings_get_string (settings, "load-directory");
  g_assert_cmpstr (stored, ==, folder);
  next = g_object_new (RP_TYPE_WINDOW, "application", application, "settings", settings, NULL);
  g_object_add_weak_pointer (G_OBJECT (next), (gpointer *) &next);
  g_assert_cmpstr (rp_run_settings_get_load_directory (next->run_settings), ==, folder);
  gtk_window_destroy (GTK_WINDOW (next));
  rp_gui_fixture_wait (rp_gui_fixture_pointer_cleared, &next, "the second window to go");

  /* Delete on the row (its one Tab stop) clears it. */
  {
    g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (GTK_WIDGET (window->load_folder_row));
    gboolean handled = FALSE;

    for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
      {
        g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

        if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
          g_signal_emit_by_name (controller, "key-pressed", GDK_KEY_Delete, 0, 0, &handled);
      }
    g_assert_true (handled);
  }
  g_assert_null (rp_run_settings_get_load_directory (window->run_settings));
  g_assert_cmpstr (adw_action_row_get_subtitle (window->load_folder_row), ==, _("The folder to test"));

  /* Passive monitoring writes nothing: no folder for a load. */
  g_assert_true (rp_window_set_scenario (window, "passive"));
  g_assert_false (gtk_widget_get_visible (GTK_WIDGET (window->load_folder_row)));

  gtk_window_destroy (GTK_WINDOW (window));
  g_settings_reset (settings, "load-directory");
  g_rmdir (folder);
}

/* The results' column headers at 1280 and 1920 px, in German and English:
 * each shows whole words, neither ellipsized ("Sampl…", "Schli…") nor
 * broken inside a word, with a tooltip that names its column in full
 * (issue 21). The languages are switched at run time: a window's strings
 * are translated as it is built. */

typedef struct {
  RpWindow *window;
  int       width;
} Laid;

static gboolean
headers_laid_out (gpointer data)
{
  Laid *laid = data;
  GtkWidget *header = gtk_grid_get_child_at (GTK_GRID (gtk_widget_get_first_child (GTK_WIDGET (laid->window->summary_view))), 4, 0);

  return gtk_widget_get_mapped (GTK_WIDGET (laid->window)) && laid->window->fold_idle_id == 0 &&
         !rp_window_get_folded (laid->window) && laid->window->wide == (laid->width >= 1200) &&
         gtk_widget_get_mapped (header) && gtk_widget_get_width (header) > 0 &&
         gtk_widget_get_width (adw_flap_get_flap (laid->window->flap)) >= (laid->width >= 1200 ? 400 : 340);
}

static void
switch_language (const char *language)
{
  g_setenv ("LANGUAGE", language, TRUE);
  /* gettext caches translations: a textdomain() call makes it look again. */
  textdomain (GETTEXT_PACKAGE);
}

static void
assert_headers_whole (RpWindow   *window,
                      const char *language,
                      int         width)
{
  GtkGrid *grid = GTK_GRID (gtk_widget_get_first_child (GTK_WIDGET (window->summary_view)));

  for (guint c = 0; c <= 4; c++)
    {
      GtkLabel *header = GTK_LABEL (gtk_grid_get_child_at (grid, c, 0));
      PangoLayout *layout = gtk_label_get_layout (header);
      const char *text = pango_layout_get_text (layout);

      g_assert_true (gtk_widget_get_mapped (GTK_WIDGET (header)));
      g_test_message ("%s %d px: header “%s” %d px wide, %d line(s)", language, width, text,
                      gtk_widget_get_width (GTK_WIDGET (header)), pango_layout_get_line_count (layout));
      g_assert_false (pango_layout_is_ellipsized (layout));
      g_assert_false (pango_layout_is_wrapped (layout) && strchr (text, ' ') == NULL);
      /* A wrapped header breaks between words only. */
      for (GSList *l = pango_layout_get_lines_readonly (layout); l != NULL; l = l->next)
        {
          int start = ((PangoLayoutLine *) l->data)->start_index;

          g_assert_true (start == 0 || text[start - 1] == ' ' || text[start - 1] == '-');
        }
      /* Its full meaning on hover (GTK 4.8 cannot read back the
       * accessible label set beside it). */
      g_assert_nonnull (gtk_widget_get_tooltip_text (GTK_WIDGET (header)));
    }
}

static void
test_headers_whole (void)
{
  static const char *languages[] = { "de", "en" };
  static const int widths[] = { 1280, 1920 };
  g_autofree char *path = write_report_with_stalls ();
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *before = g_strdup (g_getenv ("LANGUAGE"));

  for (guint l = 0; l < G_N_ELEMENTS (languages); l++)
    for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
      {
        RpWindow *window;
        Laid laid;

        switch_language (languages[l]);
        if (g_str_equal (languages[l], "de"))
          g_assert_cmpstr (_("Samples"), !=, "Samples");
        else
          g_assert_cmpstr (_("Samples"), ==, "Samples");
        window = rp_window_new (application);
        laid = (Laid) { window, widths[w] };
        gtk_window_set_default_size (GTK_WINDOW (window), widths[w], widths[w] * 10 / 16);
        gtk_window_present (GTK_WINDOW (window));
        rp_window_open_files (window, &file, 1);
        rp_gui_fixture_wait (why_listed, window, "the results");
        rp_gui_fixture_wait (headers_laid_out, &laid, "the sidebar at its width");
        /* Allocated, and its layout made at that width. */
        for (guint i = 0; i < 20; i++)
          g_main_context_iteration (NULL, FALSE);
        assert_headers_whole (window, languages[l], widths[w]);
        gtk_window_destroy (GTK_WINDOW (window));
      }
  switch_language (before);
  g_unlink (path);
}

/* Issue 21: reports the CLI saves while the window is open. */

typedef struct {
  RpWindow   *window;
  const char *name;       /* a report's file name */
  gboolean    listed;     /* wanted: listed, or gone */
} Listed;

static gboolean
listed_as_wanted (gpointer data)
{
  Listed *wait = data;
  g_autoptr(GPtrArray) files = rp_window_list_recent_files (wait->window);
  gboolean found = FALSE;

  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *name = g_file_get_basename (files->pdata[i]);

      found = found || g_str_equal (name, wait->name);
    }
  return found == wait->listed;
}

static gboolean
names_listed (RpWindow   *window,
              const char *name)
{
  Listed wait = { window, name, TRUE };

  return listed_as_wanted (&wait);
}

/* With the window open, a report written elsewhere and renamed into the
 * reports folder (as a copy or the CLI's save ends) is listed; the empty
 * file that reserves a name and a temporary file being written are not;
 * deleted outside the window, the report leaves the list. The main loop
 * runs until each change shows (the test's own timeout bounds it). */
static void
test_recent_follows_folder (void)
{
  g_autofree char *source = write_report_with_stalls ();
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autofree char *target = NULL;
  g_autofree char *reserved = NULL;
  g_autofree char *partial = NULL;
  g_autofree char *outside = NULL;
  g_autoptr(GError) error = NULL;
  struct utimbuf later;
  RpWindow *window;
  Listed wait;

  fill_reports_folder (N_REPORTS);
  window = rp_window_new (application);
  gtk_window_present (GTK_WINDOW (window));
  rp_gui_fixture_wait (recent_complete, window, "the recent runs");

  /* Half-written: a name reserved (empty) and a temporary file. */
  reserved = g_build_filename (directory, "2099-01-01-reserved.json", NULL);
  partial = g_build_filename (directory, ".resprobe-Ab12Cd", NULL);
  g_assert_true (g_file_set_contents (reserved, "", 0, &error));
  g_assert_true (g_file_set_contents (partial, "{\"version\": 1, \"ser", -1, &error));
  g_assert_no_error (error);

  /* Copied beside the folder, then renamed in; its time the newest, so
   * that it is among the runs the list shows. */
  outside = g_build_filename (g_get_user_data_dir (), "copy-under-way.json", NULL);
  {
    g_autofree char *contents = NULL;
    gsize length = 0;

    g_assert_true (g_file_get_contents (source, &contents, &length, &error));
    g_assert_true (g_file_set_contents (outside, contents, length, &error));
  }
  later.actime = later.modtime = time (NULL) + 3600;
  g_assert_cmpint (utime (outside, &later), ==, 0);
  target = g_build_filename (directory, "2099-01-01-from-the-cli.json", NULL);
  g_assert_cmpint (g_rename (outside, target), ==, 0);

  wait = (Listed) { window, "2099-01-01-from-the-cli.json", TRUE };
  rp_gui_fixture_wait (listed_as_wanted, &wait, "the renamed report to be listed");
  g_assert_false (names_listed (window, "2099-01-01-reserved.json"));
  g_assert_false (names_listed (window, ".resprobe-Ab12Cd"));

  /* Deleted outside the window. */
  g_assert_cmpint (g_unlink (target), ==, 0);
  wait.listed = FALSE;
  rp_gui_fixture_wait (listed_as_wanted, &wait, "the deleted report to leave the list");

  /* Saved in place (GLib's temporary name, then a rename), then moved to
   * the trash by a file manager. */
  {
    g_autofree char *contents = NULL;
    g_autoptr(GFile) file = g_file_new_for_path (target);
    gsize length = 0;

    g_assert_true (g_file_get_contents (source, &contents, &length, &error));
    g_assert_true (g_file_set_contents (target, contents, length, &error));
    g_assert_cmpint (utime (target, &later), ==, 0);
    wait.listed = TRUE;
    rp_gui_fixture_wait (listed_as_wanted, &wait, "the report saved in place to be listed");
    if (!g_file_trash (file, NULL, &error))
      {
        g_test_message ("no trash here (%s): deleted instead", error->message);
        g_clear_error (&error);
        g_assert_cmpint (g_unlink (target), ==, 0);
      }
    wait.listed = FALSE;
    rp_gui_fixture_wait (listed_as_wanted, &wait, "the trashed report to leave the list");
  }

  gtk_window_destroy (GTK_WINDOW (window));
  g_unlink (reserved);
  g_unlink (partial);
  g_unlink (source);
}

/* ------------------------------------------------------------------------- */
/* Screenshots for a reviewer (not a test: registered only when
 * RP_SHOTS_DIR names a folder): the window at each size the issue names,
 * with every sidebar section open, and a chart's stall popover reached by
 * the keys. */

typedef struct {
  GtkWidget *widget;
  int        width;
} SizeWait;

static gboolean
laid_out (gpointer data)
{
  SizeWait *wait = data;

  /* Mapped, and folded as its width says (a window's width may count the
   * shadow of its client-side decoration). */
  return gtk_widget_get_mapped (wait->widget) && gtk_widget_get_width (wait->widget) > 0 &&
         RP_WINDOW (wait->widget)->fold_idle_id == 0 &&
         rp_window_get_folded (RP_WINDOW (wait->widget)) == (wait->width < 900);
}

static gboolean
flap_shown (gpointer data)
{
  return adw_flap_get_reveal_progress (data) >= 1.0;
}

static void
save_widget (GtkWidget  *widget,
             const char *name)
{
  g_autoptr(GdkTexture) texture = NULL;
  g_autofree char *path = g_build_filename (g_getenv ("RP_SHOTS_DIR"), name, NULL);

  /* A few frames: the rows just expanded animate. */
  for (guint i = 0; i < 200; i++)
    g_main_context_iteration (NULL, FALSE), g_usleep (2000);
  g_test_message ("%s: %d x %d", name, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  texture = rp_gui_render_widget (widget);
  g_assert_nonnull (texture);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("saved %s", path);
}

static void
take_screenshots (void)
{
  static const int sizes[][2] = { { 360, 720 }, { 800, 600 }, { 1280, 800 }, { 1920, 1080 } };
  const char *language = g_getenv ("LANGUAGE");
  g_autofree char *path = write_report_with_stalls ();
  g_autoptr(GFile) file = g_file_new_for_path (path);

  fill_reports_folder (N_REPORTS);
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      RpWindow *window = rp_window_new (application);
      g_autoptr(GPtrArray) expanders = g_ptr_array_new ();
      g_autofree char *name = g_strdup_printf ("main-%s-%dx%d.png", language, sizes[s][0], sizes[s][1]);
      SizeWait wait = { GTK_WIDGET (window), sizes[s][0] };

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[s][0], sizes[s][1]);
      gtk_window_present (GTK_WINDOW (window));
      rp_gui_fixture_wait (laid_out, &wait, "the window at its size");
      rp_window_set_load_directory (window, "/media/usb-stick/resprobe");
      rp_window_open_files (window, &file, 1);
      rp_gui_fixture_wait (why_listed, window, "the Why section");
      rp_gui_fixture_wait (recent_complete, window, "the recent runs");
      if (rp_window_get_folded (window))
        {
          gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
          rp_gui_fixture_wait (flap_shown, window->flap, "the sidebar over the charts");
        }
      rp_gui_fixture_collect (GTK_WIDGET (window->why_view), ADW_TYPE_EXPANDER_ROW, expanders);
      for (guint i = 0; i < expanders->len; i++)
        adw_expander_row_set_expanded (expanders->pdata[i], TRUE);
      save_widget (GTK_WIDGET (window), name);
      /* The sidebar scrolled down to the Why section and the recent runs. */
      {
        GtkWidget *page = adw_flap_get_flap (window->flap);
        g_autoptr(GPtrArray) scrolled = g_ptr_array_new ();
        g_autofree char *lower = g_strdup_printf ("sidebar-end-%s-%dx%d.png", language, sizes[s][0], sizes[s][1]);

        rp_gui_fixture_collect (page, GTK_TYPE_SCROLLED_WINDOW, scrolled);
        if (scrolled->len > 0)
          {
            GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scrolled->pdata[0]);
            g_autofree char *middle = g_strdup_printf ("sidebar-why-%s-%dx%d.png", language, sizes[s][0], sizes[s][1]);
            graphene_point_t top = GRAPHENE_POINT_INIT (0, 0);
            graphene_point_t at;

            /* The results and the Why section at the top. */
            if (gtk_widget_compute_point (GTK_WIDGET (window->summary_view),
                                          gtk_scrolled_window_get_child (scrolled->pdata[0]), &top, &at))
              {
                gtk_adjustment_set_value (adjustment, at.y - 12);
                save_widget (GTK_WIDGET (window), middle);
              }

            gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
            save_widget (GTK_WIDGET (window), lower);
          }
      }
      if (s == 2)
        {
          g_autoptr(GPtrArray) charts = g_ptr_array_new ();
          g_autofree char *popover_name = g_strdup_printf ("chart-stall-popover-%s.png", language);

          rp_gui_fixture_collect (GTK_WIDGET (window), RP_TYPE_CHART_VIEW, charts);
          for (guint i = 0; i < charts->len; i++)
            {
              GtkWidget *chart = charts->pdata[i];
              g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (chart);
              gboolean handled = FALSE;

              for (guint k = 0; k < g_list_model_get_n_items (controllers) && !handled; k++)
                {
                  g_autoptr(GObject) controller = g_list_model_get_item (controllers, k);

                  if (GTK_IS_EVENT_CONTROLLER_KEY (controller))
                    g_signal_emit_by_name (controller, "key-pressed", GDK_KEY_Right, 0, 0, &handled);
                }
              if (!handled)
                continue;
              for (GtkWidget *child = gtk_widget_get_first_child (chart); child; child = gtk_widget_get_next_sibling (child))
                if (GTK_IS_POPOVER (child))
                  save_widget (child, popover_name);
              g_test_message ("%s: %s", popover_name, rp_chart_view_get_description (RP_CHART_VIEW (chart)));
              break;
            }
        }
      gtk_window_destroy (GTK_WINDOW (window));
    }
  g_unlink (path);
}

static gboolean
report_shown (gpointer data)
{
  RpWindow *window = data;

  return rp_window_get_report (window) != NULL && !rp_window_get_busy (window);
}

/* Saves @window's sidebar scrolled to the Results and the Why section, its
 * stall rows expanded (the sidebar shown over the charts when folded). */
static void
save_why (RpWindow   *window,
          const char *name)
{
  g_autoptr(GPtrArray) expanders = g_ptr_array_new ();
  g_autoptr(GPtrArray) scrolled = g_ptr_array_new ();
  graphene_point_t top = GRAPHENE_POINT_INIT (0, 0);
  graphene_point_t at;

  if (rp_window_get_folded (window))
    {
      gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
      rp_gui_fixture_wait (flap_shown, window->flap, "the sidebar over the charts");
    }
  rp_gui_fixture_collect (GTK_WIDGET (window->why_view), ADW_TYPE_EXPANDER_ROW, expanders);
  for (guint i = 0; i < expanders->len && i < 2; i++)
    adw_expander_row_set_expanded (expanders->pdata[i], TRUE);
  rp_gui_fixture_collect (adw_flap_get_flap (window->flap), GTK_TYPE_SCROLLED_WINDOW, scrolled);
  if (scrolled->len > 0 &&
      gtk_widget_compute_point (GTK_WIDGET (window->summary_view),
                                gtk_scrolled_window_get_child (scrolled->pdata[0]), &top, &at))
    {
      /* Two passes: the expanded rows grow the page, then the scroll holds. */
      save_widget (GTK_WIDGET (window), name);
      gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (scrolled->pdata[0]), at.y - 12);
    }
  save_widget (GTK_WIDGET (window), name);
}

/* Issue 32's screenshots: each report of RP_SHOTS_REPORTS ("NAME=PATH;…":
 * an idle run, each known stall) opened at 360 × 720 and 1280 × 800, as it
 * opens (NAME-LANGUAGE-WxH.png) and with the Why section in view
 * (NAME-why-LANGUAGE-WxH.png). */
static void
take_report_screenshots (void)
{
  static const int sizes[][2] = { { 360, 720 }, { 1280, 800 } };
  const char *language = g_getenv ("LANGUAGE");
  g_auto(GStrv) items = g_strsplit (g_getenv ("RP_SHOTS_REPORTS"), ";", -1);

  for (guint r = 0; items[r] != NULL; r++)
    {
      g_auto(GStrv) pair = g_strsplit (items[r], "=", 2);
      g_autoptr(GFile) file = NULL;

      if (pair[0] == NULL || pair[1] == NULL)
        continue;
      file = g_file_new_for_path (pair[1]);
      for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
        {
          RpWindow *window = rp_window_new (application);
          SizeWait wait = { GTK_WIDGET (window), sizes[s][0] };
          g_autofree char *name = g_strdup_printf ("%s-%s-%dx%d.png", pair[0], language, sizes[s][0], sizes[s][1]);
          g_autofree char *why = g_strdup_printf ("%s-why-%s-%dx%d.png", pair[0], language, sizes[s][0], sizes[s][1]);

          gtk_window_set_default_size (GTK_WINDOW (window), sizes[s][0], sizes[s][1]);
          gtk_window_present (GTK_WINDOW (window));
          rp_gui_fixture_wait (laid_out, &wait, "the window at its size");
          rp_window_open_files (window, &file, 1);
          rp_gui_fixture_wait (report_shown, window, "the report");
          save_widget (GTK_WIDGET (window), name);
          save_why (window, why);
          gtk_window_destroy (GTK_WINDOW (window));
        }
    }
}

int
main (int   argc,
      char *argv[])
{
  /* German from the build's catalogues; screenshots may be taken in
   * another language (RP_SHOTS_LANGUAGE). */
  rp_gui_fixture_use_build_catalogue ("de");
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION | RP_GUI_FIXTURE_DATA_HOME, 0);

  g_test_add_func ("/sidebar/german-fits-phone", test_german_fits_phone);
  g_test_add_func ("/sidebar/recent-capped", test_recent_capped);
  g_test_add_func ("/sidebar/load-folder-row", test_load_folder_row);
  g_test_add_func ("/sidebar/headers-whole", test_headers_whole);
  g_test_add_func ("/sidebar/recent-follows-folder", test_recent_follows_folder);
  if (g_getenv ("RP_SHOTS_DIR") != NULL && g_getenv ("RP_SHOTS_REPORTS") != NULL)
    g_test_add_func ("/sidebar/report-screenshots", take_report_screenshots);
  else if (g_getenv ("RP_SHOTS_DIR") != NULL)
    g_test_add_func ("/sidebar/screenshots", take_screenshots);

  return rp_gui_fixture_run ();
}
