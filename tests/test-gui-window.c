/* test-gui-window.c: the window as a GNOME user expects it (issue 21): runs saved on their own, a form that survives its settings, the comparison's baseline, the narrow layout. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <adwaita.h>
#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

#include "rp-compare-view.h"
#include "rp-compare-window.h"
#include "rp-gui-fixture.h"
#include "rp-recent-runs.h"
#include "rp-scenario.h"
#include "rp-sysinfo-private.h"
#include "rp-window.h"
#include "rp-window-private.h"

static GtkApplication *application;

static gboolean
run_saved (gpointer data)
{
  return rp_window_get_saved_file (data) != NULL;
}

/* The reports folder of this test (RP_GUI_FIXTURE_DATA_HOME). */
static GPtrArray *
list_reports (void)
{
  g_autofree char *directory = rp_recent_runs_get_directory ();
  g_autoptr(GDir) dir = g_dir_open (directory, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_build_filename (directory, name, NULL));
  return names;
}

/* ------------------------------------------------------------------------- */
/* Never lose a run */

typedef struct {
  RpWindow *window;
  guint     n;
} RecentWait;

static gboolean
recent_listed (gpointer data)
{
  RecentWait *wait = data;
  g_autoptr(GPtrArray) files = rp_window_list_recent_files (wait->window);

  return files->len == wait->n;
}

/* Widgets Tab reaches in @widget: focusable ones under no ancestor that
 * keeps focus from its children. */
static guint
count_tab_stops (GtkWidget *widget)
{
  guint n;

  if (!gtk_widget_get_can_focus (widget) || !gtk_widget_get_visible (widget))
    return 0;
  n = gtk_widget_get_focusable (widget) ? 1 : 0;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child != NULL;
       child = gtk_widget_get_next_sibling (child))
    n += count_tab_stops (child);
  return n;
}

/* A finished run that was never saved is in the reports folder after the
 * window closed, whole (it loads), and the next window lists it. @close_during:
 * close while the run is still going (the run stops, then is saved). */
static void
check_autosave_on_close (gboolean close_during)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-window-XXXXXX", &error);
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GPtrArray) listed = NULL;
  RpWindow *window;
  RecentWait wait;

  g_assert_no_error (error);
  rp_gui_fixture_empty_reports ();
  window = rp_gui_fixture_passive_window (target, NULL);
  g_object_add_weak_pointer (G_OBJECT (window), (gpointer *) &window);
  gtk_window_present (GTK_WINDOW (window));
  rp_window_start (window);
  g_assert_true (rp_window_get_busy (window));
  if (!close_during)
    rp_gui_fixture_wait (rp_gui_fixture_window_idle, window, "the end of the run");
  /* Closed at once: no prompt, and the window goes when the run is saved. */
  gtk_window_close (GTK_WINDOW (window));
  rp_gui_fixture_wait (rp_gui_fixture_pointer_cleared, &window, "the window to go");

  saved = list_reports ();
  g_assert_cmpuint (saved->len, ==, 1);
  g_assert_true (g_str_has_suffix (saved->pdata[0], ".json"));
  file = g_file_new_for_path (saved->pdata[0]);
  report = rp_report_load (file, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (rp_report_get_scenario (report)->directory, ==, target);
  g_assert_cmpfloat (rp_report_get_duration (report), >, 0);

  /* The next window lists it. */
  window = rp_window_new (application);
  wait.window = window;
  wait.n = 1;
  rp_gui_fixture_wait (recent_listed, &wait, "the recent runs");
  listed = rp_window_list_recent_files (window);
  g_assert_cmpstr (g_file_peek_path (listed->pdata[0]), ==, saved->pdata[0]);
  /* One Tab stop per row: the row (its tick and menu take Space and the
   * Menu key through it). */
  for (GtkWidget *row = gtk_widget_get_first_child (GTK_WIDGET (window->recent_list));
       row != NULL; row = gtk_widget_get_next_sibling (row))
    if (g_object_get_data (G_OBJECT (row), "rp-file") != NULL)
      g_assert_cmpuint (count_tab_stops (row), ==, 1);
  gtk_window_destroy (GTK_WINDOW (window));

  /* Nothing left in the folder tested. */
  g_assert_cmpint (g_rmdir (target), ==, 0);
}

static void
test_autosave_after_run (void)
{
  check_autosave_on_close (FALSE);
}

static void
test_autosave_during_run (void)
{
  check_autosave_on_close (TRUE);
}

/* The window knows where its run went, and a second run gets a name of its
 * own (runs in the same second: "-2"). */
static void
test_autosave_names (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-window-XXXXXX", &error);
  g_autoptr(GPtrArray) saved = NULL;
  g_autoptr(GFile) first = NULL;
  RpWindow *window;

  g_assert_no_error (error);
  rp_gui_fixture_empty_reports ();
  window = rp_gui_fixture_passive_window (target, NULL);
  gtk_window_present (GTK_WINDOW (window));
  rp_window_start (window);
  rp_gui_fixture_wait (rp_gui_fixture_window_idle, window, "the first run");
  rp_gui_fixture_wait (run_saved, window, "the run to be saved");
  first = g_object_ref (rp_window_get_saved_file (window));
  g_assert_true (g_file_query_exists (first, NULL));
  /* Saved again: the same report, a new name beside it. */
  {
    g_autoptr(GFile) again = rp_recent_runs_save (rp_window_get_report (window), &error);

    g_assert_no_error (error);
    g_assert_false (g_file_equal (again, first));
    g_assert_true (g_str_has_suffix (g_file_peek_path (again), "-2.json"));
  }
  saved = list_reports ();
  g_assert_cmpuint (saved->len, ==, 2);
  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_rmdir (target), ==, 0);
}

/* ------------------------------------------------------------------------- */
/* A form that survives its settings backend */

/* A backend that accepts every write and then undoes it, as dconf does
 * without a session bus: the write fails later and the old value comes back
 * as a change. Every read gives the schema's default. */
typedef GSettingsBackend RevertingBackend;
typedef GSettingsBackendClass RevertingBackendClass;
static GType reverting_backend_get_type (void);
G_DEFINE_TYPE (RevertingBackend, reverting_backend, G_TYPE_SETTINGS_BACKEND)

static GVariant *
reverting_read (GSettingsBackend   *backend,
                const char         *key,
                const GVariantType *expected_type,
                gboolean            default_value)
{
  return NULL;
}

static gboolean
reverting_get_writable (GSettingsBackend *backend,
                        const char       *key)
{
  return TRUE;
}

typedef struct {
  GSettingsBackend *backend;
  char             *key;
} Revert;

static gboolean
revert_later (gpointer data)
{
  Revert *revert = data;

  g_settings_backend_changed (revert->backend, revert->key, NULL);
  g_object_unref (revert->backend);
  g_free (revert->key);
  g_free (revert);
  return G_SOURCE_REMOVE;
}

static gboolean
reverting_write (GSettingsBackend *backend,
                 const char       *key,
                 GVariant         *value,
                 gpointer          origin_tag)
{
  Revert *revert = g_new0 (Revert, 1);

  g_variant_unref (g_variant_ref_sink (value));
  /* Accepted: GSettings tells its objects, who see the new value... */
  g_settings_backend_changed (backend, key, origin_tag);
  /* ...until the failure arrives: the old value is back. */
  revert->backend = g_object_ref (backend);
  revert->key = g_strdup (key);
  g_idle_add (revert_later, revert);
  return TRUE;
}

static void
reverting_reset (GSettingsBackend *backend,
                 const char       *key,
                 gpointer          origin_tag)
{
}

static GPermission *
reverting_get_permission (GSettingsBackend *backend,
                          const char       *path)
{
  return g_simple_permission_new (TRUE);
}

static void
reverting_backend_class_init (RevertingBackendClass *klass)
{
  klass->read = reverting_read;
  klass->get_writable = reverting_get_writable;
  klass->write = reverting_write;
  klass->reset = reverting_reset;
  klass->get_permission = reverting_get_permission;
}

static void
reverting_backend_init (RevertingBackend *backend)
{
}

static gboolean
idle_drained (gpointer data)
{
  /* Every pending idle (the backend's reverts) has run once nothing is
   * ready: g_main_context_pending() is FALSE. */
  return !g_main_context_pending (NULL);
}

/* run.sh under xvfb-run without a session bus: starting a run wrote the
 * form to the settings, the backend undid it, and the form went back to the
 * defaults, so that the next Start ran R1 on the default folder. */
static void
test_form_survives_reverting_backend (void)
{
  g_autoptr(GSettingsBackend) backend = g_object_new (reverting_backend_get_type (), NULL);
  g_autoptr(GSettings) settings = rp_gui_fixture_settings_with_backend (backend);
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-window-XXXXXX", &error);
  g_autoptr(GPtrArray) entries = g_ptr_array_new ();
  g_autofree char *directory = NULL;
  g_autoptr(GFile) first = NULL;
  RpWindow *window;

  g_assert_no_error (error);
  g_assert_true (g_settings_is_writable (settings, "directory"));
  window = rp_gui_fixture_passive_window (target, settings);
  rp_window_set_size_text (window, "512 M");
  gtk_window_present (GTK_WINDOW (window));

  for (guint round = 0; round < 2; round++)
    {
      rp_window_start (window);
      rp_gui_fixture_wait (rp_gui_fixture_window_idle, window, "the run");
      /* Its autosave too: one still writing its temporary file when the
       * folder is emptied below fails the unlink. */
      rp_gui_fixture_wait (run_saved, window, "the run to be saved");
      /* The backend's reverts have arrived. */
      rp_gui_fixture_wait (idle_drained, NULL, "the settings backend");
      /* The settings went back... */
      g_assert_cmpstr (g_settings_get_string (settings, "scenario"), ==, "R1");
      /* ...the form did not, so that the second run runs the same. */
      g_object_get (window, "directory", &directory, NULL);
      g_assert_cmpstr (directory, ==, target);
      g_clear_pointer (&directory, g_free);
      g_assert_nonnull (rp_window_get_report (window));
      g_assert_cmpstr (rp_report_get_scenario (rp_window_get_report (window))->name, ==, "passive");
      g_assert_cmpstr (rp_report_get_scenario (rp_window_get_report (window))->directory, ==, target);
    }
  rp_gui_fixture_collect (GTK_WIDGET (window), GTK_TYPE_ENTRY, entries);
  /* Size, duration, baseline. */
  g_assert_cmpuint (entries->len, ==, 3);
  g_assert_cmpstr (gtk_editable_get_text (entries->pdata[1]), ==, "1");
  /* That a change made elsewhere (Preferences) still shows is
   * test-gui-preferences' /preferences/window-follows-settings: this
   * backend keeps no value. */

  gtk_window_destroy (GTK_WINDOW (window));
  rp_gui_fixture_empty_reports ();
  g_assert_cmpint (g_rmdir (target), ==, 0);
}

/* ------------------------------------------------------------------------- */
/* The comparison's baseline */

static RpReport *
make_report (const char *journal_mode,
             const char *scheduler,
             double      fsync_seconds)
{
  g_autoptr(RpSysinfo) sysinfo = rp_sysinfo_new ();
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GHashTable) notes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  RpSeries *fsync = rp_series_new (RP_SERIES_FSYNC_LATENCY, "s", NULL);

  sysinfo->kernel_release = g_strdup ("6.18.0");
  sysinfo->fs_type = g_strdup ("ext3");
  sysinfo->journal_mode = g_strdup (journal_mode);
  sysinfo->mount_options = g_strdup_printf ("rw,data=%s", journal_mode);
  sysinfo->whole_disk = g_strdup ("loop0");
  sysinfo->scheduler = g_strdup (scheduler);
  for (guint i = 0; i < 20; i++)
    rp_series_append (fsync, i + 0.5, fsync_seconds * (1 + i % 3));
  g_ptr_array_add (series, fsync);
  return rp_report_new (sysinfo, scenario, series, notes);
}

static RpSysinfo *
make_report_sysinfo (RpReport *report)
{
  return rp_sysinfo_copy (rp_report_get_sysinfo (report));
}

static gboolean
compare_settled (gpointer data)
{
  return rp_compare_view_get_reports (rp_compare_window_get_view (data)) != NULL;
}

/* Which of the three runs: "ordered/mq-deadline" … */
static char *
report_id (RpReport *report)
{
  const RpSysinfo *sysinfo = rp_report_get_sysinfo (report);

  return g_strdup_printf ("%s/%s", sysinfo->journal_mode, sysinfo->scheduler);
}

static void
assert_order (RpCompareView *view,
              const char    *first,
              const char    *second,
              const char    *third)
{
  GPtrArray *shown = rp_compare_view_get_reports (view);
  const char *expected[] = { first, second, third };

  g_assert_cmpuint (shown->len, ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *id = report_id (shown->pdata[i]);

      g_assert_cmpstr (id, ==, expected[i]);
    }
}

/* The first run is the baseline; the user picks another, and moves runs;
 * runs are named by what differs from the baseline. */
static void
test_compare_baseline (void)
{
  g_autoptr(RpReport) ordered = make_report ("ordered", "mq-deadline", 0.5);
  g_autoptr(RpReport) writeback = make_report ("writeback", "mq-deadline", 0.02);
  g_autoptr(RpReport) bfq = make_report ("ordered", "bfq", 0.2);
  g_autofree char *dir = g_dir_make_tmp ("test-gui-window-XXXXXX", NULL);
  g_autofree char *path_a = g_build_filename (dir, "ordered.json", NULL);
  g_autofree char *path_b = g_build_filename (dir, "writeback.json", NULL);
  g_autofree char *path_c = g_build_filename (dir, "bfq.json", NULL);
  g_autoptr(GFile) a = g_file_new_for_path (path_a);
  g_autoptr(GFile) b = g_file_new_for_path (path_b);
  g_autoptr(GFile) c = g_file_new_for_path (path_c);
  GFile *files[] = { a, b, c };
  g_autoptr(GError) error = NULL;
  RpCompareWindow *window;
  RpCompareView *view;

  g_assert_true (rp_report_save (ordered, a, "json", &error));
  g_assert_true (rp_report_save (writeback, b, "json", &error));
  g_assert_true (rp_report_save (bfq, c, "json", &error));
  window = rp_compare_window_new (application);
  view = rp_compare_window_get_view (window);
  gtk_window_present (GTK_WINDOW (window));
  rp_compare_window_open_files (window, files, G_N_ELEMENTS (files));
  rp_gui_fixture_wait (compare_settled, window, "the comparison");

  /* The given order; names by what differs from the first. */
  g_assert_cmpstr (rp_compare_view_get_label (view, 0), ==, "data=ordered, scheduler mq-deadline");
  g_assert_cmpstr (rp_compare_view_get_label (view, 1), ==, "data=writeback");
  g_assert_cmpstr (rp_compare_view_get_label (view, 2), ==, "scheduler bfq");

  /* writeback as the baseline: first, the others in their order. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.set-baseline", "u", 1);
  assert_order (view, "writeback/mq-deadline", "ordered/mq-deadline", "ordered/bfq");
  g_assert_cmpstr (rp_compare_view_get_label (view, 0), ==, "data=writeback, scheduler mq-deadline");
  g_assert_cmpstr (rp_compare_view_get_label (view, 1), ==, "data=ordered");
  g_assert_cmpstr (rp_compare_view_get_label (view, 2), ==, "data=ordered, scheduler bfq");

  /* The last run one place earlier. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.move-earlier", "u", 2);
  assert_order (view, "writeback/mq-deadline", "ordered/bfq", "ordered/mq-deadline");
  /* The last run cannot move later: nothing changes. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.move-later", "u", 2);
  assert_order (view, "writeback/mq-deadline", "ordered/bfq", "ordered/mq-deadline");
  /* The baseline one place later: the next run becomes the baseline. */
  gtk_widget_activate_action (GTK_WIDGET (window), "win.move-later", "u", 0);
  assert_order (view, "ordered/bfq", "writeback/mq-deadline", "ordered/mq-deadline");
  g_assert_cmpstr (rp_compare_view_get_label (view, 0), ==, "data=ordered, scheduler bfq");

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_unlink (path_a), ==, 0);
  g_assert_cmpint (g_unlink (path_b), ==, 0);
  g_assert_cmpint (g_unlink (path_c), ==, 0);
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

typedef struct {
  RpWindow   *window;
  const char *directory;
} FolderWait;

static gboolean
folder_is (gpointer data)
{
  FolderWait *wait = data;
  g_autofree char *directory = NULL;

  g_object_get (wait->window, "directory", &directory, NULL);
  return g_strcmp0 (directory, wait->directory) == 0;
}

/* An opened report puts its folder in the form when this machine has it
 * (Start runs the same test on the same disk); one from elsewhere leaves
 * the form's folder alone. */
static void
test_report_folder (void)
{
  g_autofree char *here = g_dir_make_tmp ("test-gui-window-XXXXXX", NULL);
  g_autoptr(RpReport) local = NULL;
  g_autoptr(RpReport) foreign = NULL;
  RpWindow *window = rp_window_new (application);
  FolderWait wait = { window, here };
  g_autofree char *directory = NULL;

  {
    g_autoptr(RpReport) base = make_report ("ordered", "mq-deadline", 0.1);
    g_autoptr(RpScenario) scenario = rp_scenario_copy (rp_report_get_scenario (base));
    g_autoptr(RpSysinfo) sysinfo = make_report_sysinfo (base);

    g_free (scenario->directory);
    scenario->directory = g_strdup (here);
    local = rp_report_new (sysinfo, scenario, rp_report_get_series (base), NULL);
    g_free (scenario->directory);
    scenario->directory = g_strdup ("/nonexistent/resprobe-test");
    foreign = rp_report_new (sysinfo, scenario, rp_report_get_series (base), NULL);
  }
  rp_window_set_directory (window, "/var/tmp");
  rp_window_show_report (window, local, NULL);
  rp_gui_fixture_wait (folder_is, &wait, "the report's folder in the form");

  rp_window_show_report (window, foreign, NULL);
  /* The query of a missing folder answers at once; let it. */
  rp_gui_fixture_wait (idle_drained, NULL, "the folder query");
  g_object_get (window, "directory", &directory, NULL);
  g_assert_cmpstr (directory, ==, here);

  gtk_window_destroy (GTK_WINDOW (window));
  g_assert_cmpint (g_rmdir (here), ==, 0);
}

/* ------------------------------------------------------------------------- */
/* Narrow layout */

static gboolean
is_folded (gpointer data)
{
  return rp_window_get_folded (data);
}

static gboolean
is_unfolded (gpointer data)
{
  return !rp_window_get_folded (data) && gtk_widget_get_width (data) >= 900;
}

static GtkWidget *
find_type (GtkWidget *widget,
           GType      type)
{
  if (G_TYPE_CHECK_INSTANCE_TYPE (widget, type))
    return widget;
  for (GtkWidget *child = gtk_widget_get_first_child (widget); child; child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_type (child, type);

      if (found != NULL)
        return found;
    }
  return NULL;
}

/* At 700 px the sidebar folds away: the charts get the width, F9 (the
 * sidebar button) shows the form over them; wide, it is beside them. */
static void
test_narrow_layout (void)
{
  RpWindow *window = rp_window_new (application);
  AdwFlap *flap;
  int minimum = 0;

  gtk_window_set_default_size (GTK_WINDOW (window), 700, 600);
  gtk_window_present (GTK_WINDOW (window));
  rp_gui_fixture_wait (is_folded, window, "the sidebar to fold at 700 px");
  flap = ADW_FLAP (find_type (GTK_WIDGET (window), ADW_TYPE_FLAP));
  g_assert_nonnull (flap);
  g_assert_false (adw_flap_get_reveal_flap (flap));
  g_assert_cmpint (gtk_widget_get_width (GTK_WIDGET (window)), <, 900);
  /* A user can drag it down to a phone's 360 px (the flap's unfolded
   * policy once kept it at 755). */
  rp_gui_fixture_name_widest (GTK_WIDGET (window), 360, 0);
  gtk_widget_measure (GTK_WIDGET (window), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_assert_cmpint (minimum, <=, 360);
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  g_assert_true (adw_flap_get_reveal_flap (flap));
  gtk_widget_activate_action (GTK_WIDGET (window), "win.toggle-sidebar", NULL);
  g_assert_false (adw_flap_get_reveal_flap (flap));

  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  rp_gui_fixture_wait (is_unfolded, window, "the sidebar to unfold at 1280 px");
  g_assert_true (adw_flap_get_reveal_flap (flap));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
run_measuring (gpointer data)
{
  RpWindow *window = data;

  return window->session != NULL && rp_session_get_state (window->session) == RP_SESSION_RUNNING;
}

static gboolean
is_active (gpointer data)
{
  return gtk_window_is_active (data);
}

/* Issue 32: Ctrl+Enter typed in a field of the form starts the run, and the
 * form's turning insensitive leaves no text field with a focus it never
 * lost (GtkText warned "did not receive a focus-out event" at its next
 * cursor blink, which g_test_init() makes fatal here): the Stop button has
 * it. The header counts the same span in its elapsed time and its total:
 * the 1 s asked for and the 3 s baseline the session adds before it. */
static void
test_start_from_field (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *target = g_dir_make_tmp ("test-gui-window-XXXXXX", &error);
  RpWindow *window;
  const char *subtitle;

  if (!rp_gui_fixture_has_real_input ())
    return;
  g_assert_no_error (error);
  rp_gui_fixture_empty_reports ();
  window = rp_gui_fixture_passive_window (target, NULL);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  /* Without a window manager the focus follows the pointer. */
  rp_gui_fixture_xdotool ("mousemove --sync 640 400");
  rp_gui_fixture_wait (is_active, window, "the window to be active");
  gtk_widget_grab_focus (GTK_WIDGET (window->duration_entry));
  g_assert_true (gtk_widget_is_ancestor (gtk_root_get_focus (GTK_ROOT (window)),
                                         GTK_WIDGET (window->duration_entry)));
  rp_gui_fixture_xdotool ("key --clearmodifiers ctrl+Return");
  g_assert_true (rp_window_get_busy (window));
  g_assert_true (gtk_root_get_focus (GTK_ROOT (window)) == GTK_WIDGET (window->run_button));

  rp_gui_fixture_wait (run_measuring, window, "the run to start");
  subtitle = adw_window_title_get_subtitle (window->window_title);
  g_test_message ("header: %s", subtitle);
  g_assert_true (g_str_has_prefix (subtitle, "Running · "));
  g_assert_true (g_str_has_suffix (subtitle, " of 4 s"));
  /* A cursor blink (GTK's is 1.2 s) would have warned meanwhile. */
  rp_gui_fixture_wait (rp_gui_fixture_window_idle, window, "the end of the run");
  subtitle = adw_window_title_get_subtitle (window->window_title);
  g_test_message ("header: %s", subtitle);
  g_assert_true (g_str_has_prefix (subtitle, "Finished after "));
  gtk_window_destroy (GTK_WINDOW (window));
  rp_gui_fixture_remove_tree (target);
}

int
main (int   argc,
      char *argv[])
{
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION | RP_GUI_FIXTURE_DATA_HOME, 0);

  g_test_add_func ("/window/autosave-after-run", test_autosave_after_run);
  g_test_add_func ("/window/autosave-during-run", test_autosave_during_run);
  g_test_add_func ("/window/autosave-names", test_autosave_names);
  g_test_add_func ("/window/form-survives-reverting-backend", test_form_survives_reverting_backend);
  g_test_add_func ("/window/compare-baseline", test_compare_baseline);
  g_test_add_func ("/window/report-folder", test_report_folder);
  g_test_add_func ("/window/narrow-layout", test_narrow_layout);
  g_test_add_func ("/window/start-from-field", test_start_from_field);

  return rp_gui_fixture_run ();
}
