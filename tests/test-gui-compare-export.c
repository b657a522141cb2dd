/* test-gui-compare-export.c: a comparison exported whole: the PNG's every chart, the chooser's folder and name, Ctrl+E. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <string.h>

#include "rp-compare-export.h"
#include "rp-comparison-pdf.h"
#include "rp-compare-window.h"
#include "rp-gui-fixture.h"
#include "rp-recent-runs.h"
#include "rp-sysinfo-private.h"

static GtkApplication *application;
static char *work_dir;

/* The height of each chart in a comparison's PNG (rp-compare-view.c). */
#define CHART_HEIGHT 560

static RpSysinfo *
make_sysinfo (const char *journal_mode)
{
  RpSysinfo *sysinfo = rp_sysinfo_new ();

  sysinfo->kernel_release = g_strdup ("6.1.0-13-amd64");
  sysinfo->fs_type = g_strdup ("ext4");
  sysinfo->mount_options = g_strdup_printf ("rw,relatime,data=%s", journal_mode);
  sysinfo->journal_mode = g_strdup (journal_mode);
  sysinfo->scheduler = g_strdup ("mq-deadline");
  return sysinfo;
}

/* A minute of fsync every second (@slow seconds typical) and every series a
 * comparison overlays: main-loop lateness, dirty memory, device writes. */
static RpReport *
make_report (const char *journal_mode,
             double      slow)
{
  g_autoptr(RpSysinfo) sysinfo = make_sysinfo (journal_mode);
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  RpSeries *fsync = rp_series_new (RP_SERIES_FSYNC_LATENCY, "s", NULL);
  RpSeries *loop = rp_series_new ("mainloop_lateness", "s", NULL);
  RpSeries *dirty = rp_series_new ("dirty_bytes", "B", NULL);
  RpSeries *disk = rp_series_new ("disk_write_throughput", "B/s", NULL);

  for (guint i = 0; i < 60; i++)
    rp_series_append (fsync, i + 0.5, slow * (1 + (i % 7)) * (i % 20 == 19 ? 10 : 1));
  for (guint i = 0; i < 600; i++)
    rp_series_append (loop, i * 0.1, 0.0002 + (i % 50 == 0 ? slow / 4 : 0));
  for (guint i = 0; i < 120; i++)
    {
      rp_series_append (dirty, i * 0.5, 1e8 * (1 + i % 10) * slow);
      rp_series_append (disk, i * 0.5, 40e6 + 1e6 * (i % 5));
    }
  g_ptr_array_add (series, fsync);
  g_ptr_array_add (series, loop);
  g_ptr_array_add (series, dirty);
  g_ptr_array_add (series, disk);
  return rp_report_new (sysinfo, scenario, series, NULL);
}

/* A window comparing data=ordered (the baseline) with data=writeback. */
static RpCompareWindow *
new_compare_window (void)
{
  g_autoptr(RpReport) ordered = make_report ("ordered", 0.5);
  g_autoptr(RpReport) writeback = make_report ("writeback", 0.02);
  g_autoptr(GPtrArray) reports = g_ptr_array_new ();
  g_autoptr(GFile) a = g_file_new_build_filename (work_dir, "ordered.json", NULL);
  g_autoptr(GFile) b = g_file_new_build_filename (work_dir, "writeback.json", NULL);
  GFile *files[] = { a, b };
  RpCompareWindow *window = rp_compare_window_new (application);

  g_ptr_array_add (reports, ordered);
  g_ptr_array_add (reports, writeback);
  gtk_window_set_default_size (GTK_WINDOW (window), 1280, 800);
  gtk_window_present (GTK_WINDOW (window));
  rp_compare_window_set_reports (window, reports, files);
  return window;
}

/* Pixels of the rows [@top, @bottom) of @surface unlike its top-left one
 * (the background). */
static guint
count_ink (cairo_surface_t *surface,
           int              top,
           int              bottom)
{
  const guchar *data = cairo_image_surface_get_data (surface);
  int stride = cairo_image_surface_get_stride (surface);
  int width = cairo_image_surface_get_width (surface);
  guint32 background = *(const guint32 *) data;
  guint ink = 0;

  for (int y = top; y < bottom; y++)
    for (int x = 0; x < width; x++)
      ink += *(const guint32 *) (data + y * stride + 4 * x) != background;
  return ink;
}

/* Issue 21: the PNG of a whole comparison was white but for its last
 * chart: each chart painted its background over the whole image. */
static void
test_png_every_chart (void)
{
  RpCompareWindow *window = new_compare_window ();
  RpCompareView *view = rp_compare_window_get_view (window);
  const char *labels[] = { rp_compare_view_get_label (view, 0), rp_compare_view_get_label (view, 1), NULL };
  g_autofree char *path = g_build_filename (work_dir, "comparison.png", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  cairo_surface_t *surface;
  int n_charts;

  g_assert_true (rp_compare_save_all (rp_compare_view_get_reports (view), labels, file, "png", &error));
  g_assert_no_error (error);
  surface = cairo_image_surface_create_from_png (path);
  g_assert_cmpint (cairo_surface_status (surface), ==, CAIRO_STATUS_SUCCESS);
  /* fsync's distribution and timeline, then the three overlays. */
  n_charts = cairo_image_surface_get_height (surface) / CHART_HEIGHT;
  g_assert_cmpint (n_charts, ==, 2 + (int) rp_compare_get_n_overlays ());
  g_assert_cmpint (cairo_image_surface_get_height (surface) % CHART_HEIGHT, ==, 0);
  cairo_surface_flush (surface);
  for (int i = 0; i < n_charts; i++)
    {
      guint ink = count_ink (surface, i * CHART_HEIGHT, (i + 1) * CHART_HEIGHT);

      g_test_message ("chart %d: %u pixels of ink", i, ink);
      /* A title, axes, labels and curves: thousands of pixels. */
      g_assert_cmpuint (ink, >, 2000);
    }
  cairo_surface_destroy (surface);
  g_unlink (path);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The output of @argv (a poppler tool), which must succeed. */
static char *
run_tool (const char *const *argv)
{
  g_autofree char *out = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_assert_true (g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL,
                               &out, NULL, &status, &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_steal_pointer (&out);
}

/* Issue 21: the comparison's PDF had pages of 1200 × 560 pt, a chart a
 * page, no title page and the table as monospaced text over 6 pages. */
static void
test_pdf (void)
{
  RpCompareWindow *window = new_compare_window ();
  RpCompareView *view = rp_compare_window_get_view (window);
  GPtrArray *reports = rp_compare_view_get_reports (view);
  const char *labels[] = { rp_compare_view_get_label (view, 0), rp_compare_view_get_label (view, 1), NULL };
  g_autofree char *path = g_build_filename (work_dir, "comparison.pdf", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GPtrArray) plots = rp_compare_new_all_plots (reports, labels);
  g_autoptr(GError) error = NULL;
  g_autofree char *info = NULL;
  g_autofree char *first = NULL;
  g_autofree char *all = NULL;
  double last_fill = 0, min_fill = 0;
  guint n_pages;

  if (!g_find_program_in_path ("pdfinfo") || !g_find_program_in_path ("pdftotext"))
    {
      g_test_skip ("poppler-utils (pdfinfo, pdftotext) are not installed");
      gtk_window_destroy (GTK_WINDOW (window));
      return;
    }
  g_assert_true (rp_compare_save_all (reports, labels, file, "pdf", &error));
  g_assert_no_error (error);

  info = run_tool ((const char *[]) { "pdfinfo", path, NULL });
  g_test_message ("%s", info);
  g_assert_nonnull (strstr (info, "595.276 x 841.89 pts (A4)"));

  /* Page 1: what was compared, the baseline, what differs, fsync's p99
   * and worst against the baseline with their verdicts. */
  first = run_tool ((const char *[]) { "pdftotext", "-f", "1", "-l", "1", path, "-", NULL });
  g_test_message ("%s", first);
  g_assert_nonnull (strstr (first, "Comparison: data=ordered, data=writeback"));
  g_assert_nonnull (strstr (first, "baseline: data=ordered"));
  g_assert_nonnull (strstr (first, "The runs differ in: Journal mode, Mount options"));
  g_assert_nonnull (strstr (first, "data=writeback: fsync p99"));
  g_assert_nonnull (strstr (first, "data=writeback: fsync worst"));
  g_assert_nonnull (strstr (first, "significantly better"));

  /* The table: a column per run, changes with their significance. */
  all = run_tool ((const char *[]) { "pdftotext", "-layout", path, "-", NULL });
  g_assert_nonnull (strstr (all, "Results"));
  g_assert_nonnull (strstr (all, "p<0.001, significantly better"));
  g_assert_nonnull (strstr (all, "Configuration"));

  /* Two charts to a page, and no page under a third full. */
  n_pages = rp_comparison_pdf_layout (reports, labels, (RpPlot *const *) plots->pdata, plots->len,
                                      &last_fill, &min_fill);
  g_test_message ("%u pages, last %.2f full, emptiest other %.2f", n_pages, last_fill, min_fill);
  g_assert_cmpuint (n_pages, >=, 2);
  g_assert_cmpuint (n_pages, <=, 1 + (plots->len + 1) / 2 + 2);
  g_assert_cmpfloat (last_fill, >=, 1.0 / 3);
  g_assert_cmpfloat (min_fill, >=, 1.0 / 3);

  g_unlink (path);
  gtk_window_destroy (GTK_WINDOW (window));
}

static GtkFileChooser *
find_chooser (void)
{
  /* (transfer none) */
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (toplevel) && gtk_widget_get_visible (GTK_WIDGET (toplevel)))
        return GTK_FILE_CHOOSER (toplevel);
    }
  return NULL;
}

/* Shown, with its folder set (the chooser loads it after showing). */
static gboolean
chooser_shown (gpointer data)
{
  GtkFileChooser *chooser = find_chooser ();
  g_autoptr(GFile) folder = chooser ? gtk_file_chooser_get_current_folder (chooser) : NULL;

  return folder != NULL;
}

/* Issue 21: Export Comparison… opened in the process's working directory
 * with "resprobe-comparison.pdf": the reports folder now, and the runs'
 * names. */
static void
test_chooser_folder_and_name (void)
{
  g_autofree char *reports_dir = rp_recent_runs_get_directory ();
  g_autoptr(GFile) reports_folder = g_file_new_for_path (reports_dir);
  RpCompareWindow *window = NULL;
  GtkFileChooser *chooser;
  g_autoptr(GFile) folder = NULL;
  g_autofree char *name = NULL;

  g_assert_cmpint (g_mkdir_with_parents (reports_dir, 0700), ==, 0);
  window = new_compare_window ();
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.export-all", NULL));
  rp_gui_fixture_wait (chooser_shown, NULL, "the Export Comparison chooser");
  chooser = find_chooser ();
  folder = gtk_file_chooser_get_current_folder (chooser);
  name = gtk_file_chooser_get_current_name (chooser);
  g_assert_nonnull (folder);
  g_assert_true (g_file_equal (folder, reports_folder));
  g_assert_cmpstr (name, ==, "comparison-data=ordered-vs-data=writeback.pdf");
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_CANCEL);
  rp_gui_fixture_spin (50);
  g_assert_null (find_chooser ());
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Labels that would make a bad file name: a slash, a control character,
 * spaces, a colon; and one long enough to pass NAME_MAX. */
static void
test_suggest_name (void)
{
  const char *odd[] = { "ext4 ordered", "a/b:c\td" };
  g_autofree char *long_label = g_strnfill (300, 'x');
  const char *longer[] = { "é", long_label };
  g_autofree char *name = rp_compare_export_suggest_name ("comparison", odd, 2, "pdf");
  g_autofree char *cut = rp_compare_export_suggest_name ("comparison", longer, 2, "png");

  g_assert_cmpstr (name, ==, "comparison-ext4_ordered-vs-a_b_c_d.pdf");
  g_assert_cmpuint (strlen (cut), <, 255);
  g_assert_true (g_str_has_prefix (cut, "comparison-é-vs-xxx"));
  g_assert_true (g_str_has_suffix (cut, "x.png"));
  g_assert_true (g_utf8_validate (cut, -1, NULL));
}

/* The action a widget's class binds to Ctrl+E, or NULL. */
static char *
ctrl_e_action (GtkWidget *widget)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  g_autoptr(GtkShortcutTrigger) ctrl_e = gtk_shortcut_trigger_parse_string ("<Control>e");

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (!GTK_IS_SHORTCUT_CONTROLLER (controller))
        continue;
      for (guint k = 0; k < g_list_model_get_n_items (G_LIST_MODEL (controller)); k++)
        {
          g_autoptr(GtkShortcut) shortcut = g_list_model_get_item (G_LIST_MODEL (controller), k);
          GtkShortcutAction *action = gtk_shortcut_get_action (shortcut);

          if (gtk_shortcut_trigger_equal (gtk_shortcut_get_trigger (shortcut), ctrl_e) &&
              GTK_IS_NAMED_ACTION (action))
            return g_strdup (gtk_named_action_get_action_name (GTK_NAMED_ACTION (action)));
        }
    }
  return NULL;
}

/* Issue 21: Ctrl+E exported the distribution chart alone in the
 * comparison window, where the main window's is Export…. */
static void
test_ctrl_e_exports_all (void)
{
  RpCompareWindow *window = new_compare_window ();
  g_autofree char *action = ctrl_e_action (GTK_WIDGET (window));

  g_assert_cmpstr (action, ==, "win.export-all");
  gtk_window_destroy (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  /* A data folder of its own: the chooser test makes the reports folder. */
  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION | RP_GUI_FIXTURE_DATA_HOME, 0);
  work_dir = g_dir_make_tmp ("test-gui-compare-export-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/gui-compare-export/png-every-chart", test_png_every_chart);
  g_test_add_func ("/gui-compare-export/pdf", test_pdf);
  g_test_add_func ("/gui-compare-export/chooser-folder-and-name", test_chooser_folder_and_name);
  g_test_add_func ("/gui-compare-export/suggest-name", test_suggest_name);
  g_test_add_func ("/gui-compare-export/ctrl-e-exports-all", test_ctrl_e_exports_all);
  status = rp_gui_fixture_run ();
  rp_gui_fixture_remove_tree (work_dir);
  g_free (work_dir);
  return status;
}
