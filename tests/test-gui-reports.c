/* test-gui-reports.c: open, save, export and compare reports through the GUI's code, under a real (X) display. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <adwaita.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "rp-chart-view.h"
#include "rp-compare-window.h"
#include "rp-gui-fixture.h"
#include "rp-report-export.h"
#include "rp-report-io.h"
#include "rp-sysinfo-private.h"
#include "rp-window.h"
#include "rp-window-private.h"

static GtkApplication *application;
static char *work_dir;

/* ------------------------------------------------------------------------- */
/* Helpers */

static gboolean
clipboard_has_content (gpointer widget)
{
  return gdk_clipboard_get_content (gtk_widget_get_clipboard (widget)) != NULL;
}

static GtkLabel *
find_label (gpointer    widget,
            const char *text)
{
  g_autoptr(GPtrArray) labels = g_ptr_array_new ();

  rp_gui_fixture_collect (GTK_WIDGET (widget), GTK_TYPE_LABEL, labels);
  for (guint i = 0; i < labels->len; i++)
    if (g_strcmp0 (gtk_label_get_text (g_ptr_array_index (labels, i)), text) == 0)
      return g_ptr_array_index (labels, i);
  return NULL;
}

/* A toplevel of @type, other than those in @before. */
static GtkWindow *
find_new_toplevel (GType      type,
                   GPtrArray *before)
{
  /* (transfer none) */
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (G_TYPE_CHECK_INSTANCE_TYPE (window, type) &&
          (before == NULL || !g_ptr_array_find (before, window, NULL)))
        return window;
    }
  return NULL;
}

static GPtrArray *
list_toplevels (void)
{
  /* (transfer none) */
  GListModel *toplevels = gtk_window_get_toplevels ();
  GPtrArray *out = g_ptr_array_new ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      g_ptr_array_add (out, window);
    }
  return out;
}

/* ------------------------------------------------------------------------- */
/* Reports: what the reporters of docs/SCENARIOS.md compared, ext3 ordered against
 * writeback: the same machine, one mount option apart. */

static RpSysinfo *
make_sysinfo (const char *journal_mode)
{
  RpSysinfo *sysinfo = rp_sysinfo_new ();

  sysinfo->kernel_release = g_strdup ("2.6.28-11-generic");
  sysinfo->machine = g_strdup ("x86_64");
  sysinfo->userspace_bits = 64;
  sysinfo->cpu_count = 2;
  sysinfo->ram_bytes = G_GUINT64_CONSTANT (2) << 30;
  sysinfo->fs_type = g_strdup ("ext3");
  sysinfo->mount_options = g_strdup_printf ("rw,relatime,data=%s", journal_mode);
  sysinfo->journal_mode = g_strdup (journal_mode);
  sysinfo->source_device = g_strdup ("/dev/sda2");
  sysinfo->whole_disk = g_strdup ("sda");
  sysinfo->scheduler = g_strdup ("cfq");
  sysinfo->rotational = 1;
  sysinfo->dirty_ratio = g_strdup ("10");
  return sysinfo;
}

/* fsync every @interval seconds for a minute's worth of samples: @slow
 * seconds typical, a few 10 × worse; with @writer_bytes, the writer's
 * total in the notes, over 60 s, as a real run has it. */
static RpReport *
make_report_every (const char *journal_mode,
                   double      slow,
                   double      interval,
                   guint64     writer_bytes)
{
  g_autoptr(GHashTable) notes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(RpSysinfo) sysinfo = make_sysinfo (journal_mode);
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  RpSeries *fsync = rp_series_new (RP_SERIES_FSYNC_LATENCY, "s", NULL);
  RpSeries *loop = rp_series_new (RP_SERIES_MAINLOOP_LATENESS, "s", NULL);
  RpSeries *rate = rp_series_new (RP_SERIES_WRITER_THROUGHPUT, "B/s", NULL);

  rp_params_set_seconds (scenario->params, "fsync_interval", interval);
  for (guint i = 0; i < 60; i++)
    rp_series_append (fsync, i + 0.5, slow * (1 + (i % 7)) * (i % 20 == 19 ? 10 : 1));
  for (guint i = 0; i < 600; i++)
    rp_series_append (loop, i * 0.1, 0.0002 + (i % 50 == 0 ? slow / 4 : 0));
  for (guint i = 0; i < 120; i++)
    rp_series_append (rate, i * 0.5, 40e6 + 1e6 * (i % 5));
  g_ptr_array_add (series, fsync);
  g_ptr_array_add (series, loop);
  g_ptr_array_add (series, rate);
  if (writer_bytes > 0)
    {
      g_hash_table_insert (notes, (char *) "writer_bytes_total", g_strdup_printf ("%" G_GUINT64_FORMAT, writer_bytes));
      g_hash_table_insert (notes, (char *) "writer_seconds", g_strdup ("60"));
    }
  return rp_report_new (sysinfo, scenario, series, notes);
}

/* As make_report_every(), once a second: R1's fsync-tester. */
static RpReport *
make_report (const char *journal_mode,
             double      slow)
{
  return make_report_every (journal_mode, slow, 1.0, 0);
}

static GFile *
work_file (const char *name)
{
  g_autofree char *path = g_build_filename (work_dir, name, NULL);

  return g_file_new_for_path (path);
}

static void
write_text (const char *name,
            const char *text,
            gssize      length)
{
  g_autofree char *path = g_build_filename (work_dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents (path, text, length, &error);
  g_assert_no_error (error);
}

/* ------------------------------------------------------------------------- */
/* Workers */

typedef struct {
  gboolean      done;
  GAsyncResult *result;
} Wait;

static void
on_done (GObject      *source,
         GAsyncResult *result,
         gpointer      user_data)
{
  Wait *wait = user_data;

  wait->result = g_object_ref (result);
  wait->done = TRUE;
}

static gboolean
wait_done (gpointer data)
{
  return ((Wait *) data)->done;
}

static gboolean
save (RpReport   *report,
      GFile      *file,
      const char *format,
      gboolean    replace,
      GError    **error)
{
  Wait wait = { 0 };
  gboolean ok;

  rp_report_io_save_async (report, file, format, replace, NULL, NULL, on_done, &wait);
  rp_gui_fixture_wait (wait_done, &wait, "the report's file to be saved");
  ok = rp_report_io_save_finish (wait.result, error);
  g_object_unref (wait.result);
  return ok;
}

static RpReportIoLoaded *
load (GFile *const *files,
      guint         n_files)
{
  Wait wait = { 0 };
  g_autoptr(GError) error = NULL;
  RpReportIoLoaded *loaded;

  rp_report_io_load_async (files, n_files, NULL, on_done, &wait);
  rp_gui_fixture_wait (wait_done, &wait, "the files to be read");
  loaded = rp_report_io_load_finish (wait.result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (loaded);
  g_assert_cmpuint (loaded->reports->len + loaded->errors->len, ==, n_files);
  g_assert_cmpuint (loaded->files->len, ==, loaded->reports->len);
  g_assert_cmpuint (loaded->failed->len, ==, loaded->errors->len);
  g_object_unref (wait.result);
  return loaded;
}

static void
assert_same_stats (RpReport *a,
                   RpReport *b)
{
  RpStats sa, sb;

  g_assert_true (rp_report_get_stats (a, RP_SERIES_FSYNC_LATENCY, &sa));
  g_assert_true (rp_report_get_stats (b, RP_SERIES_FSYNC_LATENCY, &sb));
  g_assert_cmpuint (sa.n, ==, sb.n);
  g_assert_cmpfloat (sa.p50, ==, sb.p50);
  g_assert_cmpfloat (sa.p99, ==, sb.p99);
  g_assert_cmpfloat (sa.max, ==, sb.max);
  g_assert_cmpuint (sa.over_instant, ==, sb.over_instant);
}

/* Every format of the Export dialog, through the worker the dialog uses:
 * each file has its format's signature, and the JSON reloads to the same
 * statistics. */
static void
test_save_every_format (void)
{
  g_autoptr(RpReport) report = make_report ("ordered", 0.5);
  guint n_formats;
  const RpReportFormat *formats = rp_report_list_formats (&n_formats);
  const char *signatures[][2] = {
    { "json", "{" }, { "csv", "series,t_seconds,value\n" }, { "txt", "Responsiveness Probe report" },
    { "png", "\x89PNG" }, { "svg", "<?xml" }, { "pdf", "%PDF" },
  };

  g_assert_cmpuint (n_formats, ==, G_N_ELEMENTS (signatures));
  for (guint i = 0; i < n_formats; i++)
    {
      g_autofree char *name = rp_report_io_suggest_name (report, formats[i].format);
      g_autoptr(GFile) file = work_file (name);
      g_autoptr(GError) error = NULL;
      g_autofree char *contents = NULL;
      gsize length = 0;

      g_assert_true (g_str_has_suffix (name, formats[i].extension));
      g_assert_cmpstr (rp_report_format_for_filename (name), ==, formats[i].format);
      g_assert_true (save (report, file, formats[i].format, FALSE, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_load_contents (file, NULL, &contents, &length, NULL, NULL));
      g_test_message ("%s: %" G_GSIZE_FORMAT " bytes", name, length);
      g_assert_cmpstr (signatures[i][0], ==, formats[i].format);
      g_assert_true (length > strlen (signatures[i][1]) &&
                     memcmp (contents, signatures[i][1], strlen (signatures[i][1])) == 0);
      if (g_str_equal (formats[i].format, "json"))
        {
          g_autoptr(RpReportIoLoaded) reloaded = load (&file, 1);

          g_assert_cmpuint (reloaded->reports->len, ==, 1);
          assert_same_stats (report, g_ptr_array_index (reloaded->reports, 0));
        }
      if (g_str_equal (formats[i].format, "txt"))
        g_assert_nonnull (strstr (contents, "fsync time: "));
    }
}

/* A name the file chooser did not confirm is not replaced. */
static void
test_save_no_replace (void)
{
  g_autoptr(RpReport) report = make_report ("ordered", 0.5);
  g_autoptr(GFile) file = work_file ("existing.pdf");
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;

  write_text ("existing.pdf", "keep me", -1);
  g_assert_false (save (report, file, "pdf", FALSE, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS);
  g_assert_nonnull (strstr (error->message, "existing.pdf"));
  g_assert_true (g_file_load_contents (file, NULL, &contents, NULL, NULL, NULL));
  g_assert_cmpstr (contents, ==, "keep me");

  g_clear_error (&error);
  g_assert_true (save (report, file, "pdf", TRUE, &error));
  g_assert_no_error (error);
}

/* The extension wins; without one, the filter's format, then the fallback. */
static void
test_resolve_format (void)
{
  g_autoptr(GFile) pdf = work_file ("run.PDF");
  g_autoptr(GFile) bare = work_file ("run");
  g_autoptr(GtkFileFilter) svg = gtk_file_filter_new ();
  g_autoptr(GFile) out = NULL;
  g_autofree char *name = NULL;

  g_object_set_data (G_OBJECT (svg), "rp-format", (gpointer) "svg");
  g_assert_cmpstr (rp_report_io_resolve_format (pdf, svg, "json", &out), ==, "pdf");
  g_assert_true (g_file_equal (out, pdf));
  g_clear_object (&out);

  g_assert_cmpstr (rp_report_io_resolve_format (bare, svg, "json", &out), ==, "svg");
  name = g_file_get_basename (out);
  g_assert_cmpstr (name, ==, "run.svg");
  g_clear_object (&out);
  g_clear_pointer (&name, g_free);

  g_assert_cmpstr (rp_report_io_resolve_format (bare, NULL, "json", &out), ==, "json");
  name = g_file_get_basename (out);
  g_assert_cmpstr (name, ==, "run.json");
}

/* Reports from strangers: every bad file is an error naming it and saying
 * why, never a crash; a bad file among good ones is the one named, and the
 * good ones still load, in order. */
static void
test_load_errors (void)
{
  g_autoptr(RpReport) report = make_report ("ordered", 0.5);
  g_autoptr(GFile) good = work_file ("good.json");
  g_autofree char *json = rp_report_to_json (report, NULL);
  g_autofree char *wrong_version = NULL;
  struct { const char *name; const char *contents; gssize length; const char *reason; } cases[] = {
    { "truncated.json", json, (gssize) strlen (json) / 2, "truncated" },
    { "garbage.json", "\x7f" "ELF\x02\x01\x01", 7, "JSON" },
    { "empty.json", "", 0, "empty" },
    { "array.json", "[1, 2, 3]", -1, "not a Responsiveness Probe report" },
    { "version.json", NULL, -1, "version" },
    { "nan.json", "{\"format\": \"resprobe-report\", \"version\": 1, \"duration\": NaN}", -1, "JSON" },
    { "missing.json", NULL, -2, "No such file" },
  };
  g_autoptr(GError) error = NULL;

  g_assert_true (save (report, good, "json", TRUE, &error));
  wrong_version = g_strdup (json);
  memcpy (strstr (wrong_version, "\"version\" : 2") + strlen ("\"version\" : "), "9", 1);
  cases[4].contents = wrong_version;

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GFile) bad = work_file (cases[i].name);
      g_autofree char *path = g_file_get_path (bad);
      GFile *files[3] = { good, bad, good };
      g_autoptr(RpReportIoLoaded) loaded = NULL;
      g_autoptr(RpReportIoLoaded) none = NULL;
      g_autofree char *described = NULL;
      const GError *reason;

      if (cases[i].length != -2)
        write_text (cases[i].name, cases[i].contents, cases[i].length);
      loaded = load (files, 3);
      g_assert_cmpuint (loaded->reports->len, ==, 2);
      g_assert_true (g_file_equal (g_ptr_array_index (loaded->files, 1), good));
      g_assert_cmpuint (loaded->errors->len, ==, 1);
      g_assert_true (g_file_equal (g_ptr_array_index (loaded->failed, 0), bad));
      reason = g_ptr_array_index (loaded->errors, 0);
      g_test_message ("%s: %s", cases[i].name, reason->message);
      g_assert_nonnull (strstr (reason->message, path));
      g_assert_nonnull (strstr (reason->message, cases[i].reason));

      /* Nothing loads: the description has every file and reason. */
      files[0] = bad;
      files[2] = bad;
      none = load (files + 1, 2);
      g_assert_cmpuint (none->reports->len, ==, 0);
      described = rp_report_io_describe_errors (none);
      g_assert_nonnull (strstr (described, path));
      g_assert_nonnull (strstr (strstr (described, "\n\n"), path));
    }
}

/* ------------------------------------------------------------------------- */
/* Windows */

static gboolean
window_has_report (gpointer data)
{
  return rp_window_get_report (data) != NULL;
}

/* The summary table shows its sample counts (issue 17): a visible
 * "Samples" header. */
static gboolean
summary_shows_samples (gpointer data)
{
  GtkLabel *header = find_label (data, "Samples");

  return header != NULL && gtk_widget_is_visible (GTK_WIDGET (header));
}

typedef struct {
  GType      type;
  GPtrArray *before;
} Toplevel;

static gboolean
found_toplevel (gpointer data)
{
  Toplevel *wanted = data;

  return find_new_toplevel (wanted->type, wanted->before) != NULL;
}

/* Waits for a new toplevel of @type; @before lists the old ones. */
static GtkWindow *
wait_for_toplevel (GType      type,
                   GPtrArray *before)
{
  Toplevel wanted = { type, before };

  rp_gui_fixture_wait (found_toplevel, &wanted, "the new window");
  return find_new_toplevel (type, before);
}

/* One report opens in the window like a finished run: its verdict, its
 * file in the subtitle, Start enabled; Copy Summary fills the clipboard. */
static void
test_window_shows_report (void)
{
  g_autoptr(RpReport) report = make_report ("writeback", 0.02);
  g_autoptr(GFile) file = work_file ("one.json");
  g_autoptr(GError) error = NULL;
  RpWindow *window = rp_window_new (application);
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();
  g_autofree char *text = NULL;
  RpReport *shown;

  g_assert_true (save (report, file, "json", TRUE, &error));
  gtk_window_present (GTK_WINDOW (window));
  rp_window_open_files (window, &file, 1);
  rp_gui_fixture_wait (window_has_report, window, "the report in the window");
  shown = rp_window_get_report (window);
  assert_same_stats (report, shown);
  g_assert_false (rp_window_get_busy (window));
  /* Each row of the summary with how many samples it rests on. */
  rp_gui_fixture_wait (summary_shows_samples, window, "the samples column of the summary");
  {
    RpStats stats;
    g_autofree char *n = NULL;

    g_assert_true (rp_report_get_stats (shown, RP_SERIES_FSYNC_LATENCY, &stats));
    n = g_strdup_printf ("%" G_GUINT64_FORMAT, stats.n);
    g_assert_nonnull (find_label (window, n));
    g_assert_true (gtk_widget_is_visible (GTK_WIDGET (find_label (window, n))));
  }

  rp_gui_fixture_collect (GTK_WIDGET (window), ADW_TYPE_WINDOW_TITLE, titles);
  g_assert_cmpuint (titles->len, >=, 1);
  g_test_message ("subtitle: %s", adw_window_title_get_subtitle (g_ptr_array_index (titles, 0)));
  g_assert_nonnull (strstr (adw_window_title_get_subtitle (g_ptr_array_index (titles, 0)), "one.json"));

  text = rp_report_to_summary_text (shown);
  g_assert_nonnull (strstr (text, "fsync_latency"));
  g_assert_nonnull (strstr (text, "Verdict"));
  g_assert_null (strstr (text, "fsync time:"));
  gdk_clipboard_set_content (gtk_widget_get_clipboard (GTK_WIDGET (window)), NULL);
  g_assert_true (gtk_widget_activate_action (GTK_WIDGET (window), "win.copy-summary", NULL));
  /* The text is made on a worker thread: wait for it (a hang guard of 30 s),
   * not a fixed half second. */
  rp_gui_fixture_wait (clipboard_has_content, window, "the summary on the clipboard");
  {
    GdkContentProvider *content = gdk_clipboard_get_content (gtk_widget_get_clipboard (GTK_WIDGET (window)));
    GValue value = G_VALUE_INIT;

    g_assert_nonnull (content);
    g_value_init (&value, G_TYPE_STRING);
    g_assert_true (gdk_content_provider_get_value (content, &value, NULL));
    g_assert_cmpstr (g_value_get_string (&value), ==, text);
    g_value_unset (&value);
  }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A file name is a stranger's string too: one with a right-to-left override
 * and an escape ("evil", U+202E, "nosj.exe" shows as "evilexe.json") is shown
 * with them escaped, readable and findable, in the subtitle as in the
 * comparison's headers. */
static void
test_window_hostile_file_name (void)
{
  g_autoptr(RpReport) report = make_report ("writeback", 0.02);
  g_autoptr(GFile) file = work_file ("evil\u202Enosj.exe\x1b[31m.json");
  g_autoptr(GError) error = NULL;
  RpWindow *window = rp_window_new (application);
  g_autoptr(GPtrArray) titles = g_ptr_array_new ();
  const char *subtitle;

  g_assert_true (save (report, file, "json", TRUE, &error));
  gtk_window_present (GTK_WINDOW (window));
  rp_window_open_files (window, &file, 1);
  rp_gui_fixture_wait (window_has_report, window, "the report in the window");
  rp_gui_fixture_collect (GTK_WIDGET (window), ADW_TYPE_WINDOW_TITLE, titles);
  subtitle = adw_window_title_get_subtitle (g_ptr_array_index (titles, 0));
  g_test_message ("subtitle: %s", subtitle);
  g_assert_nonnull (strstr (subtitle, "evil\\u202Enosj.exe\\x1B[31m.json"));
  g_assert_null (strstr (subtitle, "\u202E"));
  g_assert_null (strchr (subtitle, '\x1b'));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A bad file: a dialog naming it and the reason, the window unharmed. */
static void
test_window_bad_file (void)
{
  g_autoptr(GFile) bad = work_file ("window-bad.json");
  g_autofree char *path = g_file_get_path (bad);
  g_autoptr(GPtrArray) before = list_toplevels ();
  RpWindow *window = rp_window_new (application);
  GtkWindow *dialog;

  write_text ("window-bad.json", "{\"format\": \"resprobe-report\", \"version\": 1,", -1);
  gtk_window_present (GTK_WINDOW (window));
  g_ptr_array_add (before, window);
  rp_window_open_files (window, &bad, 1);
  dialog = wait_for_toplevel (ADW_TYPE_MESSAGE_DIALOG, before);
  g_test_message ("%s: %s", adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)),
                  adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), path));
  g_assert_nonnull (strstr (adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog)), "truncated"));
  g_assert_null (rp_window_get_report (window));
  gtk_window_destroy (dialog);
  gtk_window_destroy (GTK_WINDOW (window));
}

/* A snapshot of @data (a widget) as it is drawn now, or NULL while it
 * has not been drawn yet. */
static GskRenderNode *
snapshot_now (GtkWidget *widget)
{
  g_autoptr(GdkPaintable) paintable = gtk_widget_paintable_new (widget);
  GtkSnapshot *snapshot = gtk_snapshot_new ();

  gdk_paintable_snapshot (paintable, snapshot, gtk_widget_get_width (widget), gtk_widget_get_height (widget));
  return gtk_snapshot_free_to_node (snapshot);
}

static gboolean
drawn (gpointer data)
{
  g_autoptr(GskRenderNode) node = snapshot_now (data);

  return node != NULL;
}

static GdkTexture *
render (GtkWidget *widget)
{
  g_autoptr(GskRenderNode) node = NULL;
  GskRenderer *renderer;
  graphene_rect_t bounds;

  /* On a busy machine the first frame can come later than any fixed wait:
   * wait for it (a hang guard of 60 s); the renderer exists once it is
   * realized. */
  rp_gui_fixture_wait (drawn, widget, "the widget drawn");
  renderer = gtk_native_get_renderer (gtk_widget_get_native (widget));
  node = snapshot_now (widget);
  g_assert_nonnull (node);
  gsk_render_node_get_bounds (node, &bounds);
  return gsk_renderer_render_texture (renderer, node, &bounds);
}

/* Pixels of @texture within a small distance of @rgb. */
static guint
count_colour (GdkTexture *texture,
              guint32     rgb)
{
  int width = gdk_texture_get_width (texture), height = gdk_texture_get_height (texture);
  g_autofree guchar *data = g_malloc ((gsize) width * height * 4);
  guint n = 0;

  gdk_texture_download (texture, data, (gsize) width * 4);
  for (gsize i = 0; i < (gsize) width * height; i++)
    {
      /* CAIRO_FORMAT_ARGB32 on a little-endian machine: B, G, R, A. */
      int b = data[i * 4], g = data[i * 4 + 1], r = data[i * 4 + 2];

      if (ABS (r - (int) (rgb >> 16 & 0xff)) < 24 && ABS (g - (int) (rgb >> 8 & 0xff)) < 24 &&
          ABS (b - (int) (rgb & 0xff)) < 24)
        n++;
    }
  return n;
}

static gboolean
is_highlighted (RpCompareView *view,
                const char    *row_label)
{
  GtkLabel *label = find_label (view, row_label);

  g_assert_nonnull (label);
  return gtk_widget_has_css_class (GTK_WIDGET (label), "rp-differs");
}

/* ext3 ordered against writeback: the journal mode (and the mount options)
 * highlighted, nothing else of the system; a colour and a label per run in
 * both overlay charts; the distribution drawn in both colours. The window
 * is kept as tests/gui-compare.png, the chart as gui-compare-cdf.png. */
static void
test_compare_view (void)
{
  g_autoptr(RpReport) ordered = make_report ("ordered", 0.5);
  g_autoptr(RpReport) writeback = make_report ("writeback", 0.02);
  g_autoptr(GPtrArray) reports = g_ptr_array_new ();
  g_autoptr(GFile) a = work_file ("ext3-ordered.json");
  g_autoptr(GFile) b = work_file ("ext3-writeback.json");
  GFile *files[] = { a, b };
  RpCompareWindow *window = rp_compare_window_new (application);
  RpCompareView *view = rp_compare_window_get_view (window);
  g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                           "gui-compare.png", NULL);
  g_autofree char *cdf_png = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                               "gui-compare-cdf.png", NULL);
  g_autoptr(GFile) cdf_file = g_file_new_for_path (cdf_png);
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GdkTexture) chart = NULL;
  g_autoptr(GError) error = NULL;
  const char *labels[3];
  RpPlot *cdf;

  g_ptr_array_add (reports, ordered);
  g_ptr_array_add (reports, writeback);
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 1000);
  gtk_window_present (GTK_WINDOW (window));
  rp_compare_window_set_reports (window, reports, files);

  g_assert_cmpstr (rp_compare_view_get_label (view, 0), ==, "data=ordered");
  g_assert_cmpstr (rp_compare_view_get_label (view, 1), ==, "data=writeback");
  g_assert_true (is_highlighted (view, "Journal mode"));
  g_assert_true (is_highlighted (view, "Mount options"));
  g_assert_false (is_highlighted (view, "File system"));
  g_assert_false (is_highlighted (view, "I/O scheduler"));
  g_assert_false (is_highlighted (view, "Kernel"));
  g_assert_cmpuint (rp_compare_view_get_n_differences (view), ==, 2);
  /* The fsync difference: median 2.0 s against 80 ms, in the results,
   * after how many samples each figure rests on (60 each: "=" and no
   * colour, a count is neither better nor worse). 60 against 60 samples
   * that far apart: significant, so green; the CPU's I/O wait, which both
   * runs lack, has no row. */
  g_assert_nonnull (find_label (view, "fsync samples"));
  g_assert_nonnull (find_label (view, "60"));
  g_assert_nonnull (find_label (view, "fsync p50"));
  g_assert_nonnull (find_label (view, "-96 %, p<0.001"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (find_label (view, "-96 %, p<0.001")), "success"));
  g_assert_true (gtk_widget_has_css_class (GTK_WIDGET (find_label (view, "=")), "dim-label"));
  g_assert_null (find_label (view, "CPU I/O wait"));

  cdf = rp_compare_view_get_plot (view, RP_PLOT_CDF);
  g_assert_cmpint (rp_plot_get_mode (cdf), ==, RP_PLOT_CDF);
  g_assert_cmpuint (rp_plot_get_n_series (cdf), ==, 2);
  g_assert_cmpuint (rp_plot_count_points (cdf), ==, 120);
  g_assert_cmpint (rp_plot_get_mode (rp_compare_view_get_plot (view, RP_PLOT_TIMELINE)), ==, RP_PLOT_TIMELINE);

  rp_gui_fixture_spin (1000);
  texture = render (GTK_WIDGET (window));
  g_assert_true (gdk_texture_save_to_png (texture, png));
  g_test_message ("the compare window: %s (%dx%d)", png,
                  gdk_texture_get_width (texture), gdk_texture_get_height (texture));

  /* The chart as the Export Chart action writes it, in the light style. */
  labels[0] = rp_compare_view_get_label (view, 0);
  labels[1] = rp_compare_view_get_label (view, 1);
  labels[2] = NULL;
  g_assert_true (rp_compare_save_plot (reports, labels, RP_PLOT_CDF, cdf_file, "png", &error));
  g_assert_no_error (error);
  chart = gdk_texture_new_from_file (cdf_file, &error);
  g_assert_no_error (error);
  g_test_message ("blue pixels %u, orange pixels %u", count_colour (chart, 0x1c71d8), count_colour (chart, 0xe66100));
  g_assert_cmpuint (count_colour (chart, 0x1c71d8), >, 300);
  g_assert_cmpuint (count_colour (chart, 0xe66100), >, 300);
  for (guint i = 0; i < 2; i++)
    {
      const char *formats[] = { "svg", "pdf" };
      g_autofree char *name = g_strdup_printf ("cdf.%s", formats[i]);
      g_autoptr(GFile) file = work_file (name);

      g_assert_true (rp_compare_save_plot (reports, labels, RP_PLOT_CDF, file, formats[i], &error));
      g_assert_no_error (error);
      g_assert_true (g_file_query_exists (file, NULL));
    }
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The same system, the fsync probe twice as often in the second run: the
 * scenario row highlighted, and under it a row for the part that differs,
 * highlighted and counted; no other part. Kept as
 * tests/gui-compare-scenario.png. */
static void
test_compare_scenario_parts (void)
{
  g_autoptr(RpReport) every_second = make_report ("ordered", 0.5);
  /* 3000 MB in 60 s: 50 MB/s, where the samples' mean is 42 MB/s. */
  g_autoptr(RpReport) twice_a_second = make_report_every ("ordered", 0.5, 0.5, 3000000000);
  g_autoptr(GPtrArray) reports = g_ptr_array_new ();
  RpCompareWindow *window = rp_compare_window_new (application);
  RpCompareView *view = rp_compare_window_get_view (window);
  g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                           "gui-compare-scenario.png", NULL);
  g_autoptr(GdkTexture) texture = NULL;

  g_ptr_array_add (reports, every_second);
  g_ptr_array_add (reports, twice_a_second);
  gtk_window_set_default_size (GTK_WINDOW (window), 1000, 700);
  gtk_window_present (GTK_WINDOW (window));
  rp_compare_window_set_reports (window, reports, NULL);

  g_assert_true (is_highlighted (view, "Scenario"));
  g_assert_true (is_highlighted (view, "fsync probe"));
  g_assert_nonnull (find_label (view, "1.0 MiB every 0.5 s"));
  g_assert_null (find_label (view, "Sequential writer"));
  g_assert_null (find_label (view, "Preset"));
  g_assert_false (is_highlighted (view, "Journal mode"));
  g_assert_cmpuint (rp_compare_view_get_n_differences (view), ==, 1);
  /* The writer's throughput as the CLI's comparison gives it: the run's
   * bytes over its seconds where the notes have them. */
  g_assert_nonnull (find_label (view, "47.7 MiB/s"));
  g_assert_cmpfloat (rp_report_get_metric (twice_a_second, NULL, RP_METRIC_MEAN), ==, 50e6);
  g_assert_cmpfloat (rp_report_get_metric (every_second, NULL, RP_METRIC_MEAN), ==, 42e6);

  rp_gui_fixture_spin (500);
  texture = render (GTK_WIDGET (window));
  g_assert_true (gdk_texture_save_to_png (texture, png));
  gtk_window_destroy (GTK_WINDOW (window));
}

static gboolean
compare_settled (gpointer data)
{
  RpCompareWindow *window = data;

  return rp_compare_window_get_error (window) != NULL ||
         rp_compare_view_get_reports (rp_compare_window_get_view (window)) != NULL;
}

/* Two files from the main window open a comparison window; with no good one
 * the bad ones are named there; too few or too many are explained. */
static void
test_compare_open (void)
{
  g_autoptr(RpReport) ordered = make_report ("ordered", 0.5);
  g_autoptr(RpReport) writeback = make_report ("writeback", 0.02);
  g_autoptr(GFile) a = work_file ("open-ordered.json");
  g_autoptr(GFile) b = work_file ("open-writeback.json");
  g_autoptr(GFile) bad = work_file ("open-bad.json");
  g_autoptr(GFile) bad2 = work_file ("open-bad-2.json");
  g_autofree char *bad_path = g_file_get_path (bad);
  g_autofree char *bad2_path = g_file_get_path (bad2);
  g_autoptr(GPtrArray) before = list_toplevels ();
  g_autoptr(GError) error = NULL;
  GFile *pair[] = { a, b };
  GFile *both_bad[] = { bad, bad2 };
  GFile *nine[9];
  RpWindow *window = rp_window_new (application);
  RpCompareWindow *compare;

  g_assert_true (save (ordered, a, "json", TRUE, &error));
  g_assert_true (save (writeback, b, "json", TRUE, &error));
  write_text ("open-bad.json", "{\"format\": \"something else\", \"version\": 1}", -1);
  write_text ("open-bad-2.json", "", 0);

  gtk_window_present (GTK_WINDOW (window));
  g_ptr_array_add (before, window);
  rp_window_open_files (window, pair, 2);
  compare = RP_COMPARE_WINDOW (wait_for_toplevel (RP_TYPE_COMPARE_WINDOW, before));
  rp_gui_fixture_wait (compare_settled, compare, "the comparison");
  g_assert_null (rp_compare_window_get_error (compare));
  g_assert_cmpuint (rp_compare_view_get_n_differences (rp_compare_window_get_view (compare)), ==, 2);
  /* The main window keeps what it had: nothing. */
  g_assert_null (rp_window_get_report (window));
  gtk_window_destroy (GTK_WINDOW (compare));

  /* Nothing to compare: both files named, with their reasons. */
  compare = rp_compare_window_new (application);
  rp_compare_window_open_files (compare, both_bad, 2);
  rp_gui_fixture_wait (compare_settled, compare, "the comparison");
  g_test_message ("%s", rp_compare_window_get_error (compare));
  g_assert_nonnull (strstr (rp_compare_window_get_error (compare), bad_path));
  g_assert_nonnull (strstr (rp_compare_window_get_error (compare), "not a Responsiveness Probe report"));
  g_assert_nonnull (strstr (rp_compare_window_get_error (compare), bad2_path));

  for (guint i = 0; i < G_N_ELEMENTS (nine); i++)
    nine[i] = a;
  rp_compare_window_open_files (compare, nine, G_N_ELEMENTS (nine));
  g_assert_nonnull (strstr (rp_compare_window_get_error (compare), "2 to 8"));
  rp_compare_window_open_files (compare, pair, 1);
  g_assert_nonnull (strstr (rp_compare_window_get_error (compare), "2 to 8"));
  gtk_window_destroy (GTK_WINDOW (compare));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The toast naming the file that did not load, over the reports that did;
 * its Details button shows the file with the reason. */
static void
assert_failure_toast (GtkWindow  *window,
                      const char *title,
                      const char *path,
                      const char *reason)
{
  g_autoptr(GPtrArray) before = list_toplevels ();
  g_autoptr(GPtrArray) buttons = g_ptr_array_new ();
  GtkLabel *label = find_label (window, title);
  GtkWidget *details = NULL;
  GtkWindow *dialog;
  const char *body;

  g_assert_nonnull (label);
  g_assert_true (gtk_widget_get_ancestor (GTK_WIDGET (label), ADW_TYPE_TOAST_OVERLAY) != NULL);
  rp_gui_fixture_collect (GTK_WIDGET (window), GTK_TYPE_BUTTON, buttons);
  for (guint i = 0; i < buttons->len; i++)
    if (g_strcmp0 (gtk_button_get_label (g_ptr_array_index (buttons, i)), "_Details") == 0)
      details = g_ptr_array_index (buttons, i);
  g_assert_nonnull (details);
  g_signal_emit_by_name (details, "clicked");
  dialog = wait_for_toplevel (ADW_TYPE_MESSAGE_DIALOG, before);
  body = adw_message_dialog_get_body (ADW_MESSAGE_DIALOG (dialog));
  g_test_message ("%s: %s", adw_message_dialog_get_heading (ADW_MESSAGE_DIALOG (dialog)), body);
  g_assert_nonnull (strstr (body, path));
  g_assert_nonnull (strstr (body, reason));
  gtk_window_destroy (dialog);
}

static gboolean
is_gone (gpointer data)
{
  GtkWindow **window = data;

  return *window == NULL;
}

/* One unreadable file among several blocks nothing: the main window compares
 * the two good ones, the comparison window too; with one good one left, it
 * shows in a main window. Each time a toast names the bad file, and its
 * Details say why. Screenshot: tests/gui-compare-partial.png. */
static void
test_open_partial (void)
{
  g_autoptr(RpReport) ordered = make_report ("ordered", 0.5);
  g_autoptr(RpReport) writeback = make_report ("writeback", 0.02);
  g_autoptr(GFile) a = work_file ("partial-ordered.json");
  g_autoptr(GFile) b = work_file ("partial-writeback.json");
  g_autoptr(GFile) bad = work_file ("partial & bad.json");
  g_autofree char *bad_path = g_file_get_path (bad);
  g_autofree char *png = g_build_filename (g_getenv ("G_TEST_BUILDDIR") ? g_getenv ("G_TEST_BUILDDIR") : ".",
                                           "gui-compare-partial.png", NULL);
  g_autoptr(GPtrArray) before = list_toplevels ();
  g_autoptr(GError) error = NULL;
  GFile *three[] = { a, bad, b };
  GFile *two[] = { bad, b };
  RpWindow *window = rp_window_new (application);
  RpCompareWindow *compare;
  GtkWindow *compare_alive;
  RpWindow *single;

  g_assert_true (save (ordered, a, "json", TRUE, &error));
  g_assert_true (save (writeback, b, "json", TRUE, &error));
  write_text ("partial & bad.json", "{\"format\": \"resprobe-report\", \"version\": 1,", -1);
  gtk_window_present (GTK_WINDOW (window));
  g_ptr_array_add (before, window);

  /* From the main window (Open, drop): a comparison of the two good ones. */
  rp_window_open_files (window, three, G_N_ELEMENTS (three));
  compare = RP_COMPARE_WINDOW (wait_for_toplevel (RP_TYPE_COMPARE_WINDOW, before));
  rp_gui_fixture_wait (compare_settled, compare, "the comparison");
  g_assert_null (rp_compare_window_get_error (compare));
  g_assert_cmpuint (rp_compare_view_get_reports (rp_compare_window_get_view (compare))->len, ==, 2);
  g_assert_null (rp_window_get_report (window));
  assert_failure_toast (GTK_WINDOW (compare), "Could not open “partial & bad.json”", bad_path, "truncated");
  gtk_window_destroy (GTK_WINDOW (compare));

  /* The comparison window itself (`resprobe a.json bad.json b.json`). */
  compare = rp_compare_window_new (application);
  gtk_window_set_default_size (GTK_WINDOW (compare), 1200, 900);
  gtk_window_present (GTK_WINDOW (compare));
  rp_compare_window_open_files (compare, three, G_N_ELEMENTS (three));
  rp_gui_fixture_wait (compare_settled, compare, "the comparison");
  g_assert_null (rp_compare_window_get_error (compare));
  g_assert_cmpuint (rp_compare_view_get_reports (rp_compare_window_get_view (compare))->len, ==, 2);
  rp_gui_fixture_spin (800);
  {
    g_autoptr(GdkTexture) texture = render (GTK_WIDGET (compare));

    g_assert_true (gdk_texture_save_to_png (texture, png));
    g_test_message ("the comparison with a toast: %s", png);
  }
  assert_failure_toast (GTK_WINDOW (compare), "Could not open “partial & bad.json”", bad_path, "truncated");
  gtk_window_destroy (GTK_WINDOW (compare));

  /* One good one left: it shows alone in a main window; the comparison
   * window goes away. */
  g_clear_pointer (&before, g_ptr_array_unref);
  before = list_toplevels ();
  compare = rp_compare_window_new (application);
  compare_alive = GTK_WINDOW (compare);
  g_object_add_weak_pointer (G_OBJECT (compare), (gpointer *) &compare_alive);
  g_ptr_array_add (before, compare);
  gtk_window_present (GTK_WINDOW (compare));
  rp_compare_window_open_files (compare, two, G_N_ELEMENTS (two));
  single = RP_WINDOW (wait_for_toplevel (RP_TYPE_WINDOW, before));
  rp_gui_fixture_wait (window_has_report, single, "the report in a window of its own");
  rp_gui_fixture_wait (is_gone, &compare_alive, "the comparison window to go");
  assert_same_stats (writeback, rp_window_get_report (single));
  assert_failure_toast (GTK_WINDOW (single), "Could not open “partial & bad.json”", bad_path, "truncated");
  gtk_window_destroy (GTK_WINDOW (single));

  /* And from the main window: the good one shows there. */
  rp_window_open_files (window, two, G_N_ELEMENTS (two));
  rp_gui_fixture_wait (window_has_report, window, "the report in the window");
  assert_same_stats (writeback, rp_window_get_report (window));
  assert_failure_toast (GTK_WINDOW (window), "Could not open “partial & bad.json”", bad_path, "truncated");
  gtk_window_destroy (GTK_WINDOW (window));
}

/* Dropping report files on the window does what Open does. */
static void
test_window_drop (void)
{
  g_autoptr(RpReport) ordered = make_report ("ordered", 0.5);
  g_autoptr(RpReport) writeback = make_report ("writeback", 0.02);
  g_autoptr(GFile) a = work_file ("drop-ordered.json");
  g_autoptr(GFile) b = work_file ("drop-writeback.json");
  g_autoptr(GPtrArray) before = list_toplevels ();
  g_autoptr(GListModel) controllers = NULL;
  g_autoptr(GError) error = NULL;
  GFile *pair[] = { a, b };
  RpWindow *window = rp_window_new (application);
  GtkDropTarget *target = NULL;
  GValue value = G_VALUE_INIT;
  RpCompareWindow *compare;
  gboolean accepted = FALSE;

  g_assert_true (save (ordered, a, "json", TRUE, &error));
  g_assert_true (save (writeback, b, "json", TRUE, &error));
  gtk_window_present (GTK_WINDOW (window));
  g_ptr_array_add (before, window);

  controllers = gtk_widget_observe_controllers (GTK_WIDGET (window));
  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GObject) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_DROP_TARGET (controller))
        target = GTK_DROP_TARGET (controller);
    }
  g_assert_nonnull (target);
  g_assert_true (g_type_is_a (gtk_drop_target_get_gtypes (target, NULL)[0], GDK_TYPE_FILE_LIST));

  g_value_init (&value, GDK_TYPE_FILE_LIST);
  g_value_take_boxed (&value, gdk_file_list_new_from_array (pair, G_N_ELEMENTS (pair)));
  g_signal_emit_by_name (target, "drop", &value, 10.0, 10.0, &accepted);
  g_value_unset (&value);
  g_assert_true (accepted);

  compare = RP_COMPARE_WINDOW (wait_for_toplevel (RP_TYPE_COMPARE_WINDOW, before));
  rp_gui_fixture_wait (compare_settled, compare, "the comparison");
  g_assert_cmpstr (rp_compare_view_get_label (rp_compare_window_get_view (compare), 1), ==,
                   "data=writeback");
  gtk_window_destroy (GTK_WINDOW (compare));
  gtk_window_destroy (GTK_WINDOW (window));
}

/* The desktop opening files (a file manager, `gapplication launch`): two
 * reports get a comparison window, as on the command line. */
static void
test_application_open (void)
{
  g_autoptr(RpReport) ordered = make_report ("ordered", 0.5);
  g_autoptr(RpReport) writeback = make_report ("writeback", 0.02);
  g_autoptr(GFile) a = work_file ("app-ordered.json");
  g_autoptr(GFile) b = work_file ("app-writeback.json");
  g_autoptr(GPtrArray) before = list_toplevels ();
  g_autoptr(GError) error = NULL;
  GFile *pair[] = { a, b };
  RpCompareWindow *compare;

  g_assert_true (save (ordered, a, "json", TRUE, &error));
  g_assert_true (save (writeback, b, "json", TRUE, &error));
  g_assert_true (g_application_get_flags (G_APPLICATION (application)) & G_APPLICATION_HANDLES_OPEN);
  g_application_open (G_APPLICATION (application), pair, G_N_ELEMENTS (pair), "");
  compare = RP_COMPARE_WINDOW (wait_for_toplevel (RP_TYPE_COMPARE_WINDOW, before));
  rp_gui_fixture_wait (compare_settled, compare, "the comparison");
  g_assert_null (rp_compare_window_get_error (compare));
  gtk_window_destroy (GTK_WINDOW (compare));
}

/* Labels tell runs apart even when their configurations are the same. */
static void
test_labels (void)
{
  g_autoptr(RpReport) a = make_report ("ordered", 0.5);
  g_autoptr(RpReport) b = make_report ("ordered", 0.5);
  g_autoptr(GPtrArray) reports = g_ptr_array_new ();
  g_autoptr(GFile) fa = g_file_new_for_path ("/tmp/monday.json");
  g_autoptr(GFile) fb = g_file_new_for_path ("/tmp/tuesday.json");
  GFile *files[] = { fa, fb };
  GFile *same[] = { fa, fa };
  g_auto(GStrv) by_file = NULL;
  g_auto(GStrv) by_number = NULL;
  g_auto(GStrv) twice = NULL;

  g_ptr_array_add (reports, a);
  g_ptr_array_add (reports, b);
  by_file = rp_compare_make_labels (reports, files);
  g_assert_cmpstr (by_file[0], ==, "ext3 ordered cfq · monday");
  g_assert_cmpstr (by_file[1], ==, "ext3 ordered cfq · tuesday");
  by_number = rp_compare_make_labels (reports, NULL);
  g_assert_cmpstr (by_number[0], !=, by_number[1]);
  twice = rp_compare_make_labels (reports, same);
  g_assert_cmpstr (twice[0], !=, twice[1]);
}

/* A report of a matrix cell on an emulated device (note device_profile),
 * whose loop device rotates where the profile is a disk. */
static RpReport *
make_device_report (const char *profile,
                    gboolean    rotational)
{
  g_autoptr(GHashTable) notes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_free);
  g_autoptr(RpSysinfo) sysinfo = make_sysinfo ("ordered");
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  RpSeries *fsync = rp_series_new (RP_SERIES_FSYNC_LATENCY, "s", NULL);

  sysinfo->rotational = rotational;
  for (guint i = 0; i < 10; i++)
    rp_series_append (fsync, i + 0.5, 0.01);
  g_ptr_array_add (series, fsync);
  g_hash_table_insert (notes, (char *) "device_profile", g_strdup (profile));
  return rp_report_new (sysinfo, scenario, series, notes);
}

/* Issue 20/21 trial: runs of `matrix --device native,hdd-laptop` are named
 * by the profile, not by "Rotational disk yes/no", which only follows from
 * it; other differences still follow the profile. */
static void
test_labels_device_profile (void)
{
  g_autoptr(RpReport) native = make_device_report ("native", FALSE);
  g_autoptr(RpReport) disk = make_device_report ("hdd-laptop", TRUE);
  g_autoptr(RpReport) writeback = make_report ("writeback", 0.02);
  g_autoptr(GPtrArray) reports = g_ptr_array_new ();
  g_auto(GStrv) labels = NULL;
  g_auto(GStrv) plain = NULL;

  g_ptr_array_add (reports, native);
  g_ptr_array_add (reports, disk);
  labels = rp_compare_make_labels (reports, NULL);
  g_assert_cmpstr (labels[0], ==, "native");
  g_assert_cmpstr (labels[1], ==, "hdd-laptop");

  /* Without profiles to tell them apart, the journal mode names them. */
  g_ptr_array_set_size (reports, 0);
  g_ptr_array_add (reports, make_report ("ordered", 0.5));
  g_ptr_array_add (reports, writeback);
  plain = rp_compare_make_labels (reports, NULL);
  g_assert_null (strstr (plain[1], "hdd-laptop"));
  g_assert_nonnull (strstr (plain[1], "writeback"));
  g_object_unref (g_ptr_array_index (reports, 0));
}

/* Issue 21: a matrix's comparison.json (as `resprobe-cli matrix` writes it
 * beside its reports) opens as a comparison of its runs, in its order; the
 * charts take focus and read their values out; a comparison that points
 * out of its folder is refused, naming it. */
static void
test_open_matrix_comparison (void)
{
  g_autoptr(RpReport) ordered = make_report ("ordered", 0.5);
  g_autoptr(RpReport) writeback = make_report ("writeback", 0.02);
  g_autoptr(GFile) a = work_file ("matrix-a.json");
  g_autoptr(GFile) b = work_file ("matrix-b.json");
  g_autoptr(GFile) comparison = work_file ("comparison.json");
  g_autoptr(GFile) outside = work_file ("comparison-outside.json");
  g_autoptr(GPtrArray) before = list_toplevels ();
  g_autoptr(GPtrArray) charts = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReportIoLoaded) refused = NULL;
  RpWindow *window = rp_window_new (application);
  RpCompareWindow *compare;
  RpCompareView *view;

  g_assert_true (save (ordered, a, "json", TRUE, &error));
  g_assert_true (save (writeback, b, "json", TRUE, &error));
  write_text ("comparison.json",
              "{\"format\": \"resprobe-comparison\", \"version\": 1, \"repeats\": 1,"
              " \"reports\": [\"matrix-b.json\", \"matrix-a.json\"],"
              " \"groups\": [{\"key\": \"b\", \"label\": \"writeback\", \"reports\": [\"matrix-b.json\"]},"
              " {\"key\": \"a\", \"label\": \"ordered\", \"reports\": [\"matrix-a.json\"]}]}", -1);

  gtk_window_present (GTK_WINDOW (window));
  g_ptr_array_add (before, window);
  rp_window_open_files (window, &comparison, 1);
  compare = RP_COMPARE_WINDOW (wait_for_toplevel (RP_TYPE_COMPARE_WINDOW, before));
  rp_gui_fixture_wait (compare_settled, compare, "the comparison");
  g_assert_null (rp_compare_window_get_error (compare));
  view = rp_compare_window_get_view (compare);
  g_assert_cmpuint (rp_compare_view_get_reports (view)->len, ==, 2);
  /* The matrix's order: its first configuration is the baseline. */
  g_assert_cmpstr (rp_compare_view_get_label (view, 0), ==, "data=writeback");
  g_assert_cmpstr (rp_compare_view_get_label (view, 1), ==, "data=ordered");

  rp_gui_fixture_collect (GTK_WIDGET (compare), RP_TYPE_CHART_VIEW, charts);
  g_assert_cmpuint (charts->len, >=, 2);
  for (guint i = 0; i < charts->len; i++)
    {
      RpChartView *chart = g_ptr_array_index (charts, i);
      const char *description = rp_chart_view_get_description (chart);

      g_test_message ("chart %u: %s", i, description);
      g_assert_true (gtk_widget_get_focusable (GTK_WIDGET (chart)));
      g_assert_nonnull (strstr (description, "data=writeback: "));
      g_assert_nonnull (strstr (description, "samples, median "));
      g_assert_nonnull (strstr (description, ", worst "));
    }

  /* The whole comparison exported: a page per chart then the table, the
   * charts one below the other, the table as text. */
  {
    const char *formats[] = { "pdf", "png", "txt" };
    const char *labels[] = { rp_compare_view_get_label (view, 0), rp_compare_view_get_label (view, 1) };

    for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
      {
        g_autofree char *name = g_strdup_printf ("whole-comparison.%s", formats[i]);
        g_autoptr(GFile) out = work_file (name);
        g_autofree char *contents = NULL;
        gsize length = 0;

        g_assert_true (rp_compare_save_all (rp_compare_view_get_reports (view), labels, out, formats[i], &error));
        g_assert_no_error (error);
        g_assert_true (g_file_load_contents (out, NULL, &contents, &length, NULL, &error));
        g_assert_cmpuint (length, >, 100);
        if (g_str_equal (formats[i], "pdf"))
          g_assert_true (g_str_has_prefix (contents, "%PDF"));
        else if (g_str_equal (formats[i], "txt"))
          g_assert_nonnull (strstr (contents, "fsync"));
        else
          {
            g_autoptr(GdkTexture) image = gdk_texture_new_from_file (out, &error);

            g_assert_no_error (error);
            /* fsync's two charts at least, one below the other. */
            g_assert_cmpint (gdk_texture_get_height (image), >=, 2 * gdk_texture_get_width (image) * 560 / 1200);
          }
      }
  }
  gtk_window_destroy (GTK_WINDOW (compare));
  g_assert_null (rp_window_get_report (window));
  gtk_window_destroy (GTK_WINDOW (window));

  /* A name out of the folder is not followed. */
  write_text ("comparison-outside.json",
              "{\"format\": \"resprobe-comparison\", \"version\": 1,"
              " \"reports\": [\"matrix-a.json\", \"../matrix-b.json\"]}", -1);
  refused = rp_report_io_load (&outside, 1, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (refused->reports->len, ==, 0);
  g_assert_cmpuint (refused->errors->len, ==, 1);
  g_test_message ("%s", ((GError *) g_ptr_array_index (refused->errors, 0))->message);
  g_assert_nonnull (strstr (((GError *) g_ptr_array_index (refused->errors, 0))->message,
                            "comparison-outside.json"));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  int status;

  application = rp_gui_fixture_init (&argc, &argv, RP_GUI_FIXTURE_APPLICATION, 0);

  /* Files of the tests, removed at the end. */
  work_dir = g_dir_make_tmp ("test-gui-reports-XXXXXX", &error);
  g_assert_no_error (error);

  g_test_add_func ("/gui-reports/save-every-format", test_save_every_format);
  g_test_add_func ("/gui-reports/save-no-replace", test_save_no_replace);
  g_test_add_func ("/gui-reports/resolve-format", test_resolve_format);
  g_test_add_func ("/gui-reports/load-errors", test_load_errors);
  g_test_add_func ("/gui-reports/labels", test_labels);
  g_test_add_func ("/gui-reports/labels-device-profile", test_labels_device_profile);
  g_test_add_func ("/gui-reports/window-shows-report", test_window_shows_report);
  g_test_add_func ("/gui-reports/window-bad-file", test_window_bad_file);
  g_test_add_func ("/gui-reports/window-hostile-file-name", test_window_hostile_file_name);
  g_test_add_func ("/gui-reports/compare-view", test_compare_view);
  g_test_add_func ("/gui-reports/compare-open", test_compare_open);
  g_test_add_func ("/gui-reports/open-matrix-comparison", test_open_matrix_comparison);
  g_test_add_func ("/gui-reports/compare-scenario-parts", test_compare_scenario_parts);
  g_test_add_func ("/gui-reports/open-partial", test_open_partial);
  g_test_add_func ("/gui-reports/window-drop", test_window_drop);
  g_test_add_func ("/gui-reports/application-open", test_application_open);
  status = rp_gui_fixture_run ();
  rp_gui_fixture_remove_tree (work_dir);
  g_free (work_dir);
  return status;
}
