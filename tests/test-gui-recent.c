/* test-gui-recent.c: the recent runs: rows that tell runs apart, one row per run after Save, the rows' trash. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <utime.h>

#include "rp-gui-fixture.h"
#include "rp-gui-util.h"
#include "rp-recent-run-info.h"
#include "rp-recent-runs.h"
#include "rp-report.h"
#include "rp-scenario.h"
#include "rp-sysinfo-private.h"
#include "rp-session.h"
#include "rp-window.h"
#include "rp-window-private.h"

/* Issue 21: rows said the file's time and name, so that a run saved under
 * another name looked like two runs, and a stopped run like any other. */

static GtkApplication *application;

static RpSysinfo *
make_sysinfo (const char *journal_mode)
{
  RpSysinfo *sysinfo = rp_sysinfo_new ();

  sysinfo->kernel_release = g_strdup ("6.1.0-13-amd64");
  sysinfo->machine = g_strdup ("x86_64");
  sysinfo->fs_type = g_strdup ("ext3");
  sysinfo->journal_mode = g_strdup (journal_mode);
  sysinfo->scheduler = g_strdup ("mq-deadline");
  return sysinfo;
}

/* R1 with fsync every second for 20 s, each call @worst once and 4 ms
 * otherwise; @notes as "key", "value", … NULL. */
static RpReport *
make_report (const char *journal_mode,
             double      worst,
             ...)
{
  g_autoptr(GHashTable) notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(RpSysinfo) sysinfo = make_sysinfo (journal_mode);
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  RpSeries *fsync = rp_series_new ("fsync_latency", "s", NULL);
  const char *key;
  va_list args;

  for (guint i = 0; i < 20; i++)
    rp_series_append (fsync, i + 0.5, i == 10 ? worst : 0.004);
  g_ptr_array_add (series, fsync);
  va_start (args, worst);
  while ((key = va_arg (args, const char *)) != NULL)
    g_hash_table_insert (notes, g_strdup (key), g_strdup (va_arg (args, const char *)));
  va_end (args);
  return rp_report_new (sysinfo, scenario, series, notes);
}

static GFile *
save_in_folder (RpReport *report)
{
  g_autoptr(GError) error = NULL;
  GFile *file = rp_recent_runs_save (report, &error);

  g_assert_no_error (error);
  return file;
}

/* The row of @file, or NULL. */
static GtkWidget *
row_of (RpWindow *window,
        GFile    *file)
{
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (window->recent_list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    {
      GFile *shown = g_object_get_data (G_OBJECT (row), "rp-file");

      if (shown != NULL && g_file_equal (shown, file))
        return row;
    }
  return NULL;
}

typedef struct {
  RpWindow *window;
  GFile    *file;
} RowWait;

/* The row of the file is there and says what its report is. */
static gboolean
row_described (gpointer data)
{
  RowWait *wait = data;
  GtkWidget *row = row_of (wait->window, wait->file);

  return row != NULL && g_object_get_data (G_OBJECT (row), "rp-info") != NULL;
}

static void
assert_row (RpWindow   *window,
            GFile      *file,
            const char *subtitle)
{
  RowWait wait = { window, file };
  g_autoptr(RpRecentRunInfo) info = NULL;
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *when = NULL;
  g_autofree char *title = NULL;
  GtkWidget *row;

  rp_gui_fixture_wait (row_described, &wait, "the row to say what its run was");
  row = row_of (window, file);
  info = rp_recent_run_info_read (file, NULL);
  g_assert_nonnull (info);
  when = rp_recent_run_info_format_time (info, now);
  title = g_strdup_printf (_("%s · %s"), when, "R1");
  g_test_message ("row: “%s” / “%s”", adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)),
                  adw_action_row_get_subtitle (ADW_ACTION_ROW (row)));
  g_assert_cmpstr (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (row)), ==, title);
  g_assert_cmpstr (adw_action_row_get_subtitle (ADW_ACTION_ROW (row)), ==, subtitle);
}

/* A folder of 14 reports (more than the list shows): the newest rows say
 * when the run started, its scenario, its verdict, the marks of a stopped
 * run, a failed run and a failed command, and the storage. */
static void
test_rows_say_the_run (void)
{
  g_autoptr(RpReport) calm = make_report ("ordered", 0.004, NULL);
  g_autoptr(RpReport) stopped = make_report ("writeback", 2.5, "ended_by", RP_ENDED_BY_REQUEST, NULL);
  g_autoptr(RpReport) command = make_report ("journal", 0.3, "command_exit_status", "exit 7",
                                             "command_line", "sh -c 'exit 7'", NULL);
  g_autoptr(RpReport) stopped_command = make_report ("journal", 0.3, "command_exit_status", "signal 15",
                                                     "command_stopped", "true", NULL);
  g_autoptr(RpReport) failed = make_report ("ordered", 0.05, "ended_by", RP_ENDED_BY_ERROR, NULL);
  g_autoptr(GFile) calm_file = NULL, stopped_file = NULL, command_file = NULL;
  g_autoptr(GFile) stopped_command_file = NULL, failed_file = NULL;
  g_autofree char *calm_text = NULL, *stopped_text = NULL, *command_text = NULL;
  g_autofree char *stopped_command_text = NULL, *failed_text = NULL;
  g_autofree char *scheduler = g_strdup_printf (_("scheduler %s"), "mq\u2011deadline");
  RpWindow *window;

  /* German, or the words prove less. */
  g_assert_cmpstr (_("Responsive"), !=, "Responsive");
  rp_gui_fixture_empty_reports ();
  for (guint i = 0; i < 9; i++)
    {
      g_autoptr(GFile) older = save_in_folder (calm);
      struct utimbuf then = { time (NULL) - 3600, time (NULL) - 3600 };

      g_assert_cmpint (utime (g_file_peek_path (older), &then), ==, 0);
    }
  calm_file = save_in_folder (calm);
  stopped_file = save_in_folder (stopped);
  command_file = save_in_folder (command);
  stopped_command_file = save_in_folder (stopped_command);
  failed_file = save_in_folder (failed);

  calm_text = g_strdup_printf ("%s\next3 data=ordered, %s", _("Responsive"), scheduler);
  stopped_text = g_strdup_printf ("%s · %s\next3 data=writeback, %s", _("Saving files stalled"),
                                  C_("run", "Stopped"), scheduler);
  command_text = g_strdup_printf ("%s · %s\next3 data=journal, %s", _("Noticeable delays"),
                                  _("Command failed"), scheduler);
  /* Stopped by the run's end: no failure. */
  stopped_command_text = g_strdup_printf ("%s\next3 data=journal, %s", _("Noticeable delays"),
                                          scheduler);
  failed_text = g_strdup_printf ("%s · %s\next3 data=ordered, %s", _("Responsive"), C_("run", "Failed"),
                                 scheduler);

  window = rp_window_new (application);
  gtk_window_present (GTK_WINDOW (window));
  assert_row (window, calm_file, calm_text);
  assert_row (window, stopped_file, stopped_text);
  assert_row (window, command_file, command_text);
  assert_row (window, stopped_command_file, stopped_command_text);
  assert_row (window, failed_file, failed_text);
  /* The file's name is in the tooltip. */
  g_assert_cmpstr (gtk_widget_get_tooltip_text (row_of (window, stopped_file)), ==,
                   g_file_peek_path (stopped_file));
  gtk_window_destroy (GTK_WINDOW (window));
  rp_gui_fixture_empty_reports ();
}

/* Read once per modification: the list is listed again after every change
 * in the folder. */
static void
test_info_cached (void)
{
  g_autoptr(RpReport) report = make_report ("ordered", 0.004, NULL);
  g_autoptr(GFile) file = NULL;
  g_autoptr(RpRecentRunInfo) first = NULL;
  g_autoptr(RpRecentRunInfo) again = NULL;
  g_autoptr(RpRecentRunInfo) changed = NULL;
  g_autoptr(GError) error = NULL;
  struct utimbuf later = { time (NULL) + 60, time (NULL) + 60 };

  rp_gui_fixture_empty_reports ();
  file = save_in_folder (report);
  first = rp_recent_run_info_read (file, &error);
  g_assert_no_error (error);
  again = rp_recent_run_info_read (file, &error);
  g_assert_true (first == again);
  /* Known without I/O to a list built again with the folder's listing. */
  {
    g_autoptr(GFileInfo) stamp = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE ","
                                                    G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                                                    G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                                    G_FILE_QUERY_INFO_NONE, NULL, &error);
    g_autoptr(RpRecentRunInfo) peeked = rp_recent_run_info_peek (file, stamp);

    g_assert_true (peeked == first);
    g_file_info_set_attribute_uint32 (stamp, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                      g_file_info_get_attribute_uint32 (stamp, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC) ^ 1);
    g_assert_null (rp_recent_run_info_peek (file, stamp));
  }
  g_assert_cmpint (utime (g_file_peek_path (file), &later), ==, 0);
  changed = rp_recent_run_info_read (file, &error);
  g_assert_no_error (error);
  g_assert_true (changed != first);
  g_assert_cmpint (g_date_time_compare (changed->created, first->created), ==, 0);

  /* Not a report: an error naming it, no info. */
  g_assert_true (g_file_set_contents (g_file_peek_path (file), "{}", -1, &error));
  g_assert_null (rp_recent_run_info_read (file, &error));
  g_assert_nonnull (error);
  rp_gui_fixture_empty_reports ();
}

/* "Today 11:15", "Yesterday 18:02", this year's date, another year's. */
static void
test_info_time (void)
{
  g_autoptr(GTimeZone) local_zone = g_time_zone_new_local ();
  g_autoptr(GDateTime) now = g_date_time_new (local_zone, 2026, 12, 2, 11, 30, 0);
  RpRecentRunInfo info = { 0 };
  struct {
    int         year, month, day, hour, minute;
    const char *format;
  } cases[] = {
    { 2026, 12, 2, 11, 15, N_("Today %H:%M") },
    { 2026, 12, 1, 18, 2, N_("Yesterday %H:%M") },
    { 2026, 11, 30, 9, 41, N_("%a %-d %b, %H:%M") },
    { 2025, 12, 2, 11, 15, N_("%-d %b %Y, %H:%M") },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GDateTime) local = g_date_time_new (local_zone, cases[i].year, cases[i].month, cases[i].day,
                                                    cases[i].hour, cases[i].minute, 0);
      g_autofree char *expected = g_date_time_format (local, _(cases[i].format));
      g_autofree char *text = NULL;

      info.created = g_date_time_to_utc (local);
      text = rp_recent_run_info_format_time (&info, now);
      g_test_message ("%s", text);
      g_assert_cmpstr (text, ==, expected);
      g_clear_pointer (&info.created, g_date_time_unref);
    }
}

/* ------------------------------------------------------------------------- */
/* One row per run */

typedef struct {
  RpWindow   *window;
  const char *name;   /* the one file listed */
} OneRow;

static gboolean
one_row_named (gpointer data)
{
  OneRow *wait = data;
  g_autoptr(GPtrArray) files = rp_window_list_recent_files (wait->window);
  g_autofree char *name = files->len == 1 ? g_file_get_basename (files->pdata[0]) : NULL;

  return g_strcmp0 (name, wait->name) == 0;
}

static gboolean
run_saved (gpointer data)
{
  return rp_window_get_saved_file (data) != NULL;
}

typedef struct {
  GFile    *file;
  gboolean  exists;
} FileWait;

static gboolean
file_as_wanted (gpointer data)
{
  FileWait *wait = data;

  return g_file_query_exists (wait->file, NULL) == wait->exists;
}

/* The window's header subtitle begins with the saved file's new name. */
static gboolean
subtitle_names_writeback (gpointer data)
{
  RpWindow *window = data;

  return g_str_has_prefix (adw_window_title_get_subtitle (window->window_title), "writeback.json");
}

/* Issue 21: a run saved when it ended, then Save Report… into the reports
 * folder as "ordered.json", was two rows. The run's file is renamed; Save
 * into another folder writes a copy there and the list keeps one row; Save
 * again in the folder renames it again. */
static void
test_save_renames (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-recent-XXXXXX", &error);
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autoptr(GFile) autosaved = NULL;
  g_autoptr(GFile) ordered = NULL;
  g_autoptr(GFile) elsewhere = NULL;
  g_autoptr(GFile) renamed = NULL;
  g_autoptr(GFile) opened = NULL;
  g_autoptr(RpReport) loaded = NULL;
  RpWindow *window;
  OneRow one;
  FileWait exists;

  g_assert_no_error (error);
  rp_gui_fixture_empty_reports ();
  window = rp_gui_fixture_passive_window (target, NULL);
  gtk_window_present (GTK_WINDOW (window));
  rp_window_start (window);
  rp_gui_fixture_wait (rp_gui_fixture_window_idle, window, "the end of the run");
  rp_gui_fixture_wait (run_saved, window, "the run to be saved");
  autosaved = g_object_ref (rp_window_get_saved_file (window));

  ordered = g_file_new_build_filename (directory, "ordered.json", NULL);
  rp_window_save_chosen (window, rp_window_get_report (window), ordered, NULL, TRUE);
  exists = (FileWait) { autosaved, FALSE };
  rp_gui_fixture_wait (file_as_wanted, &exists, "the autosaved file to be renamed");
  one = (OneRow) { window, "ordered.json" };
  rp_gui_fixture_wait (one_row_named, &one, "one row, ordered.json");
  g_assert_true (g_file_equal (rp_window_get_saved_file (window), ordered));
  loaded = rp_report_load (ordered, &error);
  g_assert_no_error (error);

  /* Elsewhere: a copy there, the folder's file stays. */
  elsewhere = g_file_new_build_filename (target, "copy.json", NULL);
  rp_window_save_chosen (window, rp_window_get_report (window), elsewhere, NULL, TRUE);
  exists = (FileWait) { elsewhere, TRUE };
  rp_gui_fixture_wait (file_as_wanted, &exists, "the copy elsewhere");
  g_assert_true (g_file_query_exists (ordered, NULL));
  rp_gui_fixture_spin (500);
  g_assert_true (one_row_named (&one));

  /* A PDF into the folder is an export: the run's file stays. */
  g_assert_null (rp_window_recent_file_to_rename (window, rp_window_get_report (window), ordered, "pdf"));

  /* Opened from the list and saved again under a third name. */
  opened = g_object_ref (ordered);
  rp_window_open_files (window, &opened, 1);
  rp_gui_fixture_wait (rp_gui_fixture_window_idle, window, "the report to open");
  renamed = g_file_new_build_filename (directory, "writeback.json", NULL);
  {
    RpReport *shown = rp_window_get_report (window);

    g_assert_nonnull (shown);
    rp_window_save_chosen (window, shown, renamed, NULL, TRUE);
  }
  one = (OneRow) { window, "writeback.json" };
  rp_gui_fixture_wait (one_row_named, &one, "one row, writeback.json");
  g_assert_false (g_file_query_exists (ordered, NULL));

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_unlink (g_file_peek_path (elsewhere)), ==, 0);
  g_assert_cmpint (g_rmdir (target), ==, 0);
  rp_gui_fixture_empty_reports ();
}

/* An opened report saved under a new name in the reports folder: its file
 * is renamed, and the header names the new file (the re-check saw the old
 * name stay). The save's end may come after the folder's monitor saw it. */
static void
test_save_renames_title (void)
{
  g_autoptr(RpReport) report = make_report ("ordered", 0.004, NULL);
  g_autofree char *directory = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GFile) renamed = NULL;
  RpWindow *window;
  FileWait gone;

  rp_gui_fixture_empty_reports ();
  directory = rp_recent_runs_get_directory ();
  file = save_in_folder (report);
  window = rp_gui_fixture_open_report (g_file_peek_path (file));
  g_assert_true (g_str_has_prefix (adw_window_title_get_subtitle (window->window_title), "resprobe"));
  renamed = g_file_new_build_filename (directory, "writeback.json", NULL);
  rp_window_save_chosen (window, rp_window_get_report (window), renamed, NULL, TRUE);
  rp_gui_fixture_wait (subtitle_names_writeback, window, "the header to name writeback.json");
  gone = (FileWait) { file, FALSE };
  rp_gui_fixture_wait (file_as_wanted, &gone, "the opened file to be renamed");
  g_assert_true (g_file_query_exists (renamed, NULL));
  gtk_window_destroy (GTK_WINDOW (window));
  rp_gui_fixture_empty_reports ();
}

/* Move to Trash of a row: the file goes to the trash (not deleted), a toast
 * says so, and its row leaves the list. */
static void
test_trash_row (void)
{
  g_autoptr(RpReport) report = make_report ("ordered", 0.004, NULL);
  g_autoptr(GFile) kept = NULL;
  g_autoptr(GFile) trashed = NULL;
  g_autofree char *uri = NULL;
  RpWindow *window;
  RowWait wait;
  FileWait gone;

  rp_gui_fixture_empty_reports ();
  kept = save_in_folder (report);
  trashed = save_in_folder (report);
  window = rp_window_new (application);
  gtk_window_present (GTK_WINDOW (window));
  wait = (RowWait) { window, trashed };
  rp_gui_fixture_wait (row_described, &wait, "the row to trash");
  uri = g_file_get_uri (trashed);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.trash-recent", "s", uri);
  gone = (FileWait) { trashed, FALSE };
  rp_gui_fixture_wait (file_as_wanted, &gone, "the report to go to the trash");
  {
    g_autofree char *name = g_file_get_basename (trashed);
    g_autofree char *in_trash = g_build_filename (g_get_user_data_dir (), "Trash", "files", name, NULL);

    g_assert_true (g_file_test (in_trash, G_FILE_TEST_EXISTS));
  }
  {
    OneRow one = { window, NULL };
    g_autofree char *kept_name = g_file_get_basename (kept);

    one.name = kept_name;
    rp_gui_fixture_wait (one_row_named, &one, "the trashed row to leave the list");
  }
  gtk_window_destroy (GTK_WINDOW (window));
  rp_gui_fixture_empty_reports ();
}

/* ------------------------------------------------------------------------- */
/* Screenshots for a reviewer (registered only when RP_SHOTS_DIR names a
 * folder): the list at each size the issue names, scrolled to its end. */

typedef struct {
  RpWindow *window;
  int       width;
} SizeWait;

static gboolean
laid_out (gpointer data)
{
  SizeWait *wait = data;

  return gtk_widget_get_mapped (GTK_WIDGET (wait->window)) && wait->window->fold_idle_id == 0 &&
         rp_window_get_folded (wait->window) == (wait->width < 900);
}

static void
take_screenshots (void)
{
  static const int sizes[][2] = { { 800, 600 }, { 1280, 800 }, { 1920, 1080 } };
  static const char *modes[] = { "ordered", "writeback", "journal" };
  const char *language = g_getenv ("LANGUAGE") ? g_getenv ("LANGUAGE") : "en";
  g_autoptr(GFile) last = NULL;

  rp_gui_fixture_empty_reports ();
  for (guint i = 0; i < 14; i++)
    {
      g_autoptr(RpReport) report = i % 4 == 1 ? make_report (modes[i % 3], 2.5, "ended_by", RP_ENDED_BY_REQUEST, NULL)
                                 : i % 4 == 2 ? make_report (modes[i % 3], 0.3, "command_exit_status", "exit 7", NULL)
                                 : make_report (modes[i % 3], i % 4 == 3 ? 12.0 : 0.004, NULL);

      g_set_object (&last, save_in_folder (report));
    }
  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      RpWindow *window = rp_window_new (application);
      SizeWait wait = { window, sizes[s][0] };
      RowWait described = { window, last };
      g_autoptr(GPtrArray) scrolled = g_ptr_array_new ();
      g_autoptr(GdkTexture) texture = NULL;
      g_autofree char *name = g_strdup_printf ("recent-%s-%dx%d.png", language, sizes[s][0], sizes[s][1]);
      g_autofree char *path = g_build_filename (g_getenv ("RP_SHOTS_DIR"), name, NULL);

      gtk_window_set_default_size (GTK_WINDOW (window), sizes[s][0], sizes[s][1]);
      gtk_window_present (GTK_WINDOW (window));
      rp_gui_fixture_wait (laid_out, &wait, "the window at its size");
      rp_gui_fixture_wait (row_described, &described, "the rows");
      if (rp_window_get_folded (window))
        gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
      rp_gui_fixture_spin (600);
      rp_gui_fixture_collect (adw_flap_get_flap (window->flap), GTK_TYPE_SCROLLED_WINDOW, scrolled);
      if (scrolled->len > 0)
        {
          GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (scrolled->pdata[0]);

          gtk_adjustment_set_value (adjustment, gtk_adjustment_get_upper (adjustment));
        }
      rp_gui_fixture_spin (400);
      texture = rp_gui_render_widget (GTK_WIDGET (window));
      g_assert_nonnull (texture);
      g_assert_true (gdk_texture_save_to_png (texture, path));
      g_test_message ("saved %s", path);
      gtk_window_destroy (GTK_WINDOW (window));
    }
  rp_gui_fixture_empty_reports ();
}

int
main (int    argc,
      char **argv)
{
  /* German: the rows' words and dates as a translated window shows them.
   * Screenshots may be taken in English (RP_SHOTS_LANGUAGE=en). */
  rp_gui_fixture_use_build_catalogue ("de");
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION | RP_GUI_FIXTURE_DATA_HOME, 150);

  g_test_add_func ("/gui-recent/info-time", test_info_time);
  g_test_add_func ("/gui-recent/info-cached", test_info_cached);
  g_test_add_func ("/gui-recent/rows-say-the-run", test_rows_say_the_run);
  g_test_add_func ("/gui-recent/save-renames", test_save_renames);
  g_test_add_func ("/gui-recent/save-renames-title", test_save_renames_title);
  g_test_add_func ("/gui-recent/trash-row", test_trash_row);
  if (g_getenv ("RP_SHOTS_DIR") != NULL)
    g_test_add_func ("/gui-recent/screenshots", take_screenshots);
  return rp_gui_fixture_run ();
}
