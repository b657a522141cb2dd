/* rp-compare-view.c: 2 to 8 reports side by side: configuration, results, overlaid fsync charts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <math.h>
#include <string.h>

#include "rp-chart-view.h"
#include "rp-compare-rows.h"
#include "rp-compare-view.h"
#include "rp-comparison-pdf.h"
#include "rp-report-io.h"
#include "rp-report-stalls.h"
#include "rp-stats.h"
#include "rp-text.h"
#include "rp-units.h"

struct _RpCompareView
{
  GtkWidget   parent_instance;

  GtkGrid    *config_grid;
  GtkGrid    *results_grid;
  GtkBox     *charts_box;

  GPtrArray  *reports;
  char      **labels;
  guint       n_differences;
  RpPlot     *cdf_plot;
  RpPlot     *timeline_plot;
};

G_DEFINE_FINAL_TYPE (RpCompareView, rp_compare_view, GTK_TYPE_WIDGET)

/* ------------------------------------------------------------------------- */
/* Labels and plots (no widgets: also used on worker threads for exports) */

/* "ext3 ordered cfq": each part cut to 40 characters, so that an edited
 * report's 500-character file system name makes neither a column title nor
 * a legend that fills the window. */
static char *
label_from_sysinfo (const RpSysinfo *sysinfo)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  /* Under matrix --probe-dir the cell is the loads' folder, not the probes'. */
  gboolean load = sysinfo->load_fs_type != NULL;
  const char *fs_type = load ? sysinfo->load_fs_type : sysinfo->fs_type;
  const char *journal_mode = load ? sysinfo->load_journal_mode : sysinfo->journal_mode;
  const char *scheduler = load ? sysinfo->load_scheduler : sysinfo->scheduler;
  g_autofree char *joined = NULL;

  if (fs_type != NULL)
    g_ptr_array_add (parts, rp_text_shorten (fs_type));
  /* "ordered (default)": the label says what the mode is, the table how. */
  if (journal_mode != NULL)
    {
      g_autofree char *mode = g_strndup (journal_mode, strcspn (journal_mode, " ("));

      g_ptr_array_add (parts, rp_text_shorten (mode));
    }
  if (scheduler != NULL)
    g_ptr_array_add (parts, rp_text_shorten (scheduler));
  g_ptr_array_add (parts, NULL);
  joined = g_strjoinv (" ", (char **) parts->pdata);
  if (!load || *joined == '\0')
    return g_steal_pointer (&joined);
  return g_strdup_printf (_("load on %s"), joined);
}

/* The file's name without ".json", for a label, as
 * rp_report_io_display_name() shows it: in any encoding, and without the
 * characters with which a name would show reversed in the header and the
 * legends. */
static char *
file_stem (GFile *file)
{
  g_autofree char *name = file ? rp_report_io_display_name (file) : NULL;

  if (name == NULL)
    return NULL;
  if (g_str_has_suffix (name, ".json"))
    name[strlen (name) - strlen (".json")] = '\0';
  return g_steal_pointer (&name);
}

static gboolean
label_is_shared (char  **labels,
                 guint   n,
                 guint   index)
{
  for (guint j = 0; j < n; j++)
    if (j != index && g_strcmp0 (labels[j], labels[index]) == 0)
      return TRUE;
  return FALSE;
}

/**
 * rp_compare_make_labels:
 * @reports: (element-type RpReport): the runs
 * @files: (array) (nullable): the file of each report, or %NULL
 *
 * A short name per run for legends: what differs from the baseline
 * (rp_compare_name_runs(): "data=writeback", "scheduler bfq", "load on
 * ext3", "usb2-stick"); runs of one configuration by file system, journal
 * mode and I/O scheduler ("ext3 ordered mq-deadline"), those of the loads'
 * folder when the loads wrote to one of their own. Where two runs share a
 * name, the file name (or the run number) tells them apart.
 *
 * Returns: (transfer full): a %NULL-terminated array, one label per report
 */
char **
rp_compare_make_labels (GPtrArray    *reports,
                        GFile *const *files)
{
  guint n;
  char **labels, **unique;

  g_return_val_if_fail (reports != NULL, NULL);

  n = reports->len;
  /* The engine names them, as the CLI's comparison heads its columns. */
  labels = rp_compare_name_runs (reports);
  for (guint i = 0; i < n; i++)
    {
      if (*labels[i] == '\0')
        {
          g_free (labels[i]);
          labels[i] = label_from_sysinfo (rp_report_get_sysinfo (g_ptr_array_index (reports, i)));
        }
      if (*labels[i] == '\0')
        {
          g_free (labels[i]);
          /* TRANSLATORS: the label of a run without a known configuration */
          labels[i] = g_strdup_printf (_("Run %u"), i + 1);
        }
    }

  unique = g_new0 (char *, n + 1);
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *stem = files ? file_stem (files[i]) : NULL;

      if (!label_is_shared (labels, n, i))
        unique[i] = g_strdup (labels[i]);
      else if (stem != NULL)
        unique[i] = g_strdup_printf ("%s · %s", labels[i], stem);
      else
        unique[i] = g_strdup_printf (_("%s · run %u"), labels[i], i + 1);
    }
  /* The same file twice: only the number is left. */
  for (guint i = 0; i < n; i++)
    if (label_is_shared (unique, n, i))
      {
        char *numbered = g_strdup_printf ("%s #%u", unique[i], i + 1);

        g_free (labels[i]);
        labels[i] = numbered;
      }
    else
      {
        g_free (labels[i]);
        labels[i] = g_strdup (unique[i]);
      }
  g_strfreev (unique);
  return labels;
}

/**
 * rp_compare_new_plot:
 * @reports: (element-type RpReport): the runs
 * @labels: a legend label per report (rp_compare_make_labels())
 * @mode: %RP_PLOT_CDF: the distribution of fsync latency; %RP_PLOT_TIMELINE:
 *   fsync latency over time, every run from its start
 *
 * The overlay of one run's fsync latency per series, in the run's colour
 * (rp_comparison_run_color()), with the 0.1 s and 1 s limits. Uses no widget,
 * so that a worker thread can draw it into a file (rp_plot_save()).
 *
 * Returns: (transfer full): the plot
 */
RpPlot *
rp_compare_new_plot (GPtrArray         *reports,
                     const char *const *labels,
                     RpPlotMode         mode)
{
  RpPlot *plot;
  double t_end = 0;

  g_return_val_if_fail (reports != NULL, NULL);
  g_return_val_if_fail (labels != NULL, NULL);

  if (mode == RP_PLOT_CDF)
    plot = rp_plot_new (_("fsync latency distribution: share of calls at most this long"), "s");
  else
    plot = rp_plot_new (_("fsync latency over time, from the start of each run"), "s");
  rp_plot_set_mode (plot, mode);
  rp_plot_set_log_y (plot, TRUE);
  rp_plot_add_limit (plot, RP_LIMIT_INSTANT);
  rp_plot_add_limit (plot, RP_LIMIT_FLOW);
  rp_plot_set_placeholder (plot, _("None of the reports has fsync samples"));

  for (guint i = 0; i < reports->len; i++)
    {
      RpReport *report = g_ptr_array_index (reports, i);
      g_autofree char *name = g_strdup_printf ("run-%u", i);

      rp_plot_add_series_colored (plot, name, labels[i], RP_PLOT_LINE, rp_comparison_run_color (reports, i));
      rp_plot_bind_series (plot, name, rp_report_lookup_series (report, RP_SERIES_FSYNC_LATENCY));
      t_end = MAX (t_end, rp_report_get_duration (report));
    }
  if (mode == RP_PLOT_TIMELINE && t_end > 0)
    rp_plot_set_time_range (plot, 0, t_end);
  return plot;
}

/* The overlays beside fsync's (issue 21): what a user felt, what piled up
 * in memory and what the disk did, each run over the others. */
static const struct {
  const char *series;
  const char *title;
  const char *unit;
  gboolean    latency;
} overlays[] = {
  { "mainloop_lateness", N_("Main-loop lateness over time: the delay a click or redraw would have had"), "s", TRUE },
  { "dirty_bytes", N_("Dirty memory over time: written, not yet on the disk"), "B", FALSE },
  { "disk_write_throughput", N_("Device write throughput over time"), "B/s", FALSE },
};

/**
 * rp_compare_get_n_overlays:
 *
 * Returns: how many overlay charts beside fsync's a comparison may have
 *   (rp_compare_new_overlay_plot())
 */
guint
rp_compare_get_n_overlays (void)
{
  return G_N_ELEMENTS (overlays);
}

/**
 * rp_compare_new_overlay_plot:
 * @reports: (element-type RpReport): the runs
 * @labels: a legend label per report (rp_compare_make_labels())
 * @index: which overlay, 0 .. rp_compare_get_n_overlays() − 1: main-loop
 *   lateness, dirty memory, device write throughput
 *
 * One series of every run over time, from each run's start, in the run's
 * colour; latencies on a log axis with the 0.1 s and 1 s limits. Uses no
 * widget (a worker thread may draw it into a file).
 *
 * Returns: (transfer full) (nullable): the plot, %NULL when no report has
 *   a sample of that series
 */
RpPlot *
rp_compare_new_overlay_plot (GPtrArray         *reports,
                             const char *const *labels,
                             guint              index)
{
  g_autoptr(RpPlot) plot = NULL;
  double t_end = 0;
  gboolean any = FALSE;

  g_return_val_if_fail (reports != NULL && labels != NULL, NULL);
  g_return_val_if_fail (index < G_N_ELEMENTS (overlays), NULL);

  plot = rp_plot_new (_(overlays[index].title), overlays[index].unit);
  rp_plot_set_mode (plot, RP_PLOT_TIMELINE);
  if (overlays[index].latency)
    {
      rp_plot_set_log_y (plot, TRUE);
      rp_plot_add_limit (plot, RP_LIMIT_INSTANT);
      rp_plot_add_limit (plot, RP_LIMIT_FLOW);
    }
  for (guint i = 0; i < reports->len; i++)
    {
      RpReport *report = g_ptr_array_index (reports, i);
      RpSeries *series = rp_report_lookup_series (report, overlays[index].series);
      g_autofree char *name = g_strdup_printf ("run-%u", i);

      rp_plot_add_series_colored (plot, name, labels[i], RP_PLOT_LINE, rp_comparison_run_color (reports, i));
      rp_plot_bind_series (plot, name, series);
      any |= series != NULL && rp_series_get_length (series) > 0;
      t_end = MAX (t_end, rp_report_get_duration (report));
    }
  if (!any)
    return NULL;
  if (t_end > 0)
    rp_plot_set_time_range (plot, 0, t_end);
  return g_steal_pointer (&plot);
}

/* Size of an exported chart: as wide as the report's images, half as tall. */
#define CHART_WIDTH  1200
#define CHART_HEIGHT 560

/* The local path of FILE, where the chart exports write; NULL, with an
 * error naming FILE, for a file of no local path (a remote location). */
static char *
local_path (GFile   *file,
            GError **error)
{
  char *path = g_file_get_path (file);

  if (path == NULL)
    {
      g_autofree char *name = g_file_get_parse_name (file);

      g_set_error (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                   _("Cannot save the chart to “%s”: choose a folder on this computer"), name);
    }
  return path;
}

/* The end of an export drawn into PARTIAL next to PATH: when it SAVED,
 * PARTIAL is renamed over PATH (never half a file there); otherwise, or
 * when the rename fails (an error naming PATH), PARTIAL is removed.
 * Returns: %TRUE when PATH now holds the export */
static gboolean
replace_with_partial (const char *partial,
                      const char *path,
                      gboolean    saved,
                      GError    **error)
{
  if (!saved)
    {
      g_unlink (partial);
      return FALSE;
    }
  if (g_rename (partial, path) != 0)
    {
      int saved_errno = errno;

      g_unlink (partial);
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   _("Cannot save the chart to “%s”: %s"), path, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_compare_save_plot:
 * @reports: (element-type RpReport): the runs
 * @labels: a legend label per report
 * @mode: which chart (see rp_compare_new_plot())
 * @file: a local file; replaced atomically if it exists (ask first)
 * @format: "png", "svg" or "pdf"
 * @error: %RP_ERROR_INVALID_ARGUMENT for a remote file, or rp_plot_save()'s
 *
 * Draws the chart into a file with the same code as on screen, in the
 * light style. Blocks on I/O: call it from a worker thread in a GUI.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_compare_save_plot (GPtrArray         *reports,
                      const char *const *labels,
                      RpPlotMode         mode,
                      GFile             *file,
                      const char        *format,
                      GError           **error)
{
  g_autoptr(RpPlot) plot = NULL;
  g_autofree char *path = NULL;
  g_autofree char *partial = NULL;
  RpPlotStyle style;
  gboolean saved;

  g_return_val_if_fail (reports != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);
  g_return_val_if_fail (format != NULL, FALSE);

  path = local_path (file, error);
  if (path == NULL)
    return FALSE;
  plot = rp_compare_new_plot (reports, labels, mode);
  rp_plot_style_init_default (&style, FALSE);
  /* Drawn next to the target, then renamed over it: never half a file. */
  partial = g_strdup_printf ("%s.%08x.part", path, g_random_int ());
  saved = rp_plot_save (plot, partial, format, CHART_WIDTH, CHART_HEIGHT, &style, error);
  return replace_with_partial (partial, path, saved, error);
}

/**
 * rp_compare_new_all_plots:
 * @reports: (element-type RpReport): the runs
 * @labels: a legend label per report
 *
 * Every chart of a comparison, in the window's order: fsync's distribution
 * and timeline, then each overlay the runs have
 * (rp_compare_new_overlay_plot()).
 *
 * Returns: (transfer full) (element-type RpPlot): the charts
 */
GPtrArray *
rp_compare_new_all_plots (GPtrArray         *reports,
                          const char *const *labels)
{
  GPtrArray *plots = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (plots, rp_compare_new_plot (reports, labels, RP_PLOT_CDF));
  g_ptr_array_add (plots, rp_compare_new_plot (reports, labels, RP_PLOT_TIMELINE));
  for (guint i = 0; i < G_N_ELEMENTS (overlays); i++)
    {
      RpPlot *overlay = rp_compare_new_overlay_plot (reports, labels, i);

      if (overlay != NULL)
        g_ptr_array_add (plots, overlay);
    }
  return plots;
}

/**
 * rp_compare_save_all:
 * @reports: (element-type RpReport): the runs
 * @labels: a legend label per report
 * @file: a local file; replaced atomically if it exists (ask first)
 * @format: "pdf" (A4: a headline, the table, the charts two to a page,
 *   the settings: rp_comparison_render_pdf()), "png" (every chart, one
 *   below the other) or "txt" (the table, as `resprobe-cli compare`
 *   prints it)
 * @error: %RP_ERROR_INVALID_ARGUMENT for a remote file, or the writer's
 *
 * The whole comparison in one file: fsync's distribution and timeline and
 * every overlay the runs have (rp_compare_new_overlay_plot()), drawn as on
 * screen in the light style. Blocks on I/O: call it from a worker thread.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_compare_save_all (GPtrArray         *reports,
                     const char *const *labels,
                     GFile             *file,
                     const char        *format,
                     GError           **error)
{
  g_autoptr(GPtrArray) plots = NULL;
  g_autofree char *path = NULL;
  g_autofree char *partial = NULL;
  RpPlotStyle style;
  gboolean saved;

  g_return_val_if_fail (reports != NULL && labels != NULL, FALSE);
  g_return_val_if_fail (G_IS_FILE (file) && format != NULL, FALSE);

  path = local_path (file, error);
  if (path == NULL)
    return FALSE;
  partial = g_strdup_printf ("%s.%08x.part", path, g_random_int ());
  if (g_str_equal (format, "txt"))
    {
      g_autofree char *text = rp_report_compare_text (reports);

      saved = g_file_set_contents_full (partial, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
      return replace_with_partial (partial, path, saved, error);
    }
  plots = rp_compare_new_all_plots (reports, labels);
  if (g_str_equal (format, "pdf"))
    {
      /* A4 pages as a run's PDF has them (rp-comparison-pdf.c). */
      g_autoptr(GBytes) pdf = rp_comparison_render_pdf (reports, labels, (RpPlot *const *) plots->pdata,
                                                        plots->len, error);

      saved = pdf != NULL &&
        g_file_set_contents_full (partial, g_bytes_get_data (pdf, NULL), g_bytes_get_size (pdf),
                                  G_FILE_SET_CONTENTS_CONSISTENT, 0644, error);
      return replace_with_partial (partial, path, saved, error);
    }
  rp_plot_style_init_default (&style, FALSE);
  saved = rp_plot_save_all ((RpPlot **) plots->pdata, plots->len, partial, format,
                            CHART_WIDTH, CHART_HEIGHT, &style, error);
  return replace_with_partial (partial, path, saved, error);
}

/* ------------------------------------------------------------------------- */
/* Tables */

static void
clear_grid (GtkGrid *grid)
{
  GtkWidget *child;

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (grid))) != NULL)
    gtk_grid_remove (grid, child);
}

/* The first column: names of settings and results, whole words. */
static GtkWidget *
new_row_label (const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_yalign (GTK_LABEL (label), 0.0);
  /* Between words only: a narrow window takes "fsync 99th | percentile". */
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 18);
  gtk_widget_add_css_class (label, "rp-cell");
  return label;
}

/* @text with a zero-width space after each comma that a letter follows, so
 * that a cell may wrap a list without spaces there ("rw,relatime,…,
 * resgid=65534" broke inside "65534"), never at a decimal comma. */
static char *
commas_breakable (const char *text)
{
  GString *out = g_string_new (NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      g_string_append_c (out, *p);
      if ((*p == ',' || *p == ';') && g_ascii_isalpha (p[1]))
        g_string_append (out, "\u200b");
    }
  return g_string_free (out, FALSE);
}

/* "rw,relatime,di-scard": a hyphen Pango inserts where it breaks a word
 * would read as part of the value. */
static void
set_no_hyphens (GtkLabel *label)
{
  PangoAttrList *attrs = pango_attr_list_new ();

  pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
  gtk_label_set_attributes (label, attrs);
  pango_attr_list_unref (attrs);
}

static GtkWidget *
new_cell (const char *text)
{
  g_autofree char *breakable = commas_breakable (text);
  GtkWidget *label = gtk_label_new (breakable);

  gtk_label_set_xalign (GTK_LABEL (label), 0.0);
  gtk_label_set_yalign (GTK_LABEL (label), 0.0);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_max_width_chars (GTK_LABEL (label), 24);
  set_no_hyphens (GTK_LABEL (label));
  gtk_label_set_selectable (GTK_LABEL (label), TRUE);
  gtk_widget_add_css_class (label, "rp-cell");
  return label;
}

/* Row 0 of a table: each run's colour (as in the charts), label and file. */
static void
attach_header (RpCompareView *self,
               GtkGrid       *grid,
               GFile *const  *files)
{
  GtkWidget *corner = new_cell ("");

  gtk_widget_add_css_class (corner, "rp-header");
  gtk_grid_attach (grid, corner, 0, 0, 1, 1);
  for (guint r = 0; r < self->reports->len; r++)
    {
      GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 2);
      GtkWidget *title = gtk_box_new (GTK_ORIENTATION_HORIZONTAL, 6);
      GtkWidget *swatch = gtk_label_new ("●");
      GtkWidget *label = gtk_label_new (self->labels[r]);
      g_autofree char *swatch_class = g_strdup_printf ("rp-run-%u", rp_comparison_run_color (self->reports, r) % 8 + 1);
      g_autofree char *name = files && files[r] ? rp_report_io_display_name (files[r]) : NULL;

      gtk_widget_add_css_class (swatch, swatch_class);
      gtk_widget_add_css_class (label, "heading");
      gtk_label_set_wrap (GTK_LABEL (label), TRUE);
      /* Lines break between words and after their own hyphens
       * ("mq-|deadline"), never inside a word with a hyphen of Pango's
       * ("order-|ed" read as a different word); what does not fit in four
       * lines (a 500-character file system name from an edited report) is
       * ellipsized instead of widening the window past the screen, and the
       * tooltip has it whole. */
      gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
      gtk_label_set_lines (GTK_LABEL (label), 4);
      gtk_label_set_ellipsize (GTK_LABEL (label), PANGO_ELLIPSIZE_END);
      gtk_label_set_max_width_chars (GTK_LABEL (label), 20);
      gtk_label_set_width_chars (GTK_LABEL (label), 6);
      set_no_hyphens (GTK_LABEL (label));
      gtk_widget_set_tooltip_text (label, self->labels[r]);
      gtk_label_set_xalign (GTK_LABEL (label), 0);
      gtk_box_append (GTK_BOX (title), swatch);
      gtk_box_append (GTK_BOX (title), label);
      gtk_box_append (GTK_BOX (box), title);
      if (name != NULL)
        {
          GtkWidget *file_label = gtk_label_new (name);

          gtk_label_set_xalign (GTK_LABEL (file_label), 0);
          gtk_label_set_ellipsize (GTK_LABEL (file_label), PANGO_ELLIPSIZE_MIDDLE);
          gtk_label_set_max_width_chars (GTK_LABEL (file_label), 22);
          gtk_label_set_width_chars (GTK_LABEL (file_label), 6);
          gtk_widget_set_tooltip_text (file_label, name);
          gtk_widget_add_css_class (file_label, "caption");
          gtk_widget_add_css_class (file_label, "dim-label");
          gtk_box_append (GTK_BOX (box), file_label);
        }
      gtk_widget_add_css_class (box, "rp-cell");
      gtk_widget_add_css_class (box, "rp-header");
      gtk_widget_set_hexpand (box, TRUE);
      gtk_grid_attach (grid, box, r + 1, 0, 1, 1);
    }
}

static void
highlight_row (GtkGrid *grid,
               int      row,
               guint    n_columns)
{
  for (guint c = 0; c < n_columns; c++)
    {
      GtkWidget *cell = gtk_grid_get_child_at (grid, c, row);

      if (cell != NULL)
        gtk_widget_add_css_class (cell, "rp-differs");
    }
}

/* Rows of the run itself: what ran, how long, when. */
enum {
  RUN_SCENARIO,
  RUN_DURATION,
  RUN_STARTED,
  N_RUN_ROWS
};

static char *
run_row_text (RpReport *report,
              guint     which)
{
  g_autoptr(GDateTime) local = NULL;

  switch (which)
    {
    case RUN_SCENARIO:
      return rp_scenario_describe (rp_report_get_scenario (report));
    case RUN_DURATION:
      return rp_report_format_duration (report);
    case RUN_STARTED:
    default:
      local = g_date_time_to_local (rp_report_get_created (report));
      return g_date_time_format (local, "%Y-%m-%d %H:%M");
    }
}

/* Under a scenario row that differs, the parts of the scenarios that do
 * (the fsync probe's interval, the writer's block size …), a row each:
 * a difference inside two long descriptions is easy to miss. */
static void
fill_scenario_rows (RpCompareView *self,
                    int           *row)
{
  g_autoptr(GPtrArray) fields = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  guint n = self->reports->len;
  GPtrArray *first;

  for (guint r = 0; r < n; r++)
    g_ptr_array_add (fields, rp_scenario_get_fields (rp_report_get_scenario (g_ptr_array_index (self->reports, r))));
  first = g_ptr_array_index (fields, 0);

  for (guint i = 0; i < first->len; i++)
    {
      GtkWidget *label;

      if (!rp_fields_differ (fields, i))
        continue;
      (*row)++;
      label = new_row_label (((RpScenarioField *) g_ptr_array_index (first, i))->label);
      gtk_widget_add_css_class (label, "rp-scenario-part");
      gtk_grid_attach (self->config_grid, label, 0, *row, 1, 1);
      for (guint r = 0; r < n; r++)
        {
          GPtrArray *run_fields = g_ptr_array_index (fields, r);
          const char *value = ((RpScenarioField *) g_ptr_array_index (run_fields, i))->value;

          gtk_grid_attach (self->config_grid, new_cell (value), r + 1, *row, 1, 1);
        }
      highlight_row (self->config_grid, *row, n + 1);
      self->n_differences++;
    }
}

/* The scenario and the date first: a comparison of different scenarios
 * compares the loads as much as the configuration. A scenario common to
 * all runs (the usual case; its description is long) is written once,
 * across the columns; different ones are highlighted. Dates differ by
 * nature and are not. */
static void
fill_run_rows (RpCompareView *self,
               int           *row)
{
  const char *labels[N_RUN_ROWS] = { N_("Scenario"), N_("Duration"), N_("Started") };
  guint n = self->reports->len;

  for (guint k = 0; k < N_RUN_ROWS; k++, (*row)++)
    {
      g_auto(GStrv) texts = g_new0 (char *, n + 1);
      gboolean differs = FALSE;

      gtk_grid_attach (self->config_grid, new_row_label (_(labels[k])), 0, *row, 1, 1);
      for (guint r = 0; r < n; r++)
        {
          texts[r] = run_row_text (g_ptr_array_index (self->reports, r), k);
          differs |= g_strcmp0 (texts[r], texts[0]) != 0;
        }
      if (k == RUN_SCENARIO && !differs)
        {
          gtk_grid_attach (self->config_grid, new_cell (texts[0]), 1, *row, n, 1);
          continue;
        }
      for (guint r = 0; r < n; r++)
        gtk_grid_attach (self->config_grid, new_cell (texts[r]), r + 1, *row, 1, 1);
      if (k == RUN_SCENARIO && differs)
        {
          highlight_row (self->config_grid, *row, n + 1);
          fill_scenario_rows (self, row);
        }
    }
}

static void
fill_config (RpCompareView *self,
             GFile *const  *files)
{
  guint n = self->reports->len, n_settings;
  const RpCompareSetting *settings = rp_compare_get_settings (&n_settings);
  int row = 1;

  clear_grid (self->config_grid);
  attach_header (self, self->config_grid, files);
  self->n_differences = 0;
  fill_run_rows (self, &row);

  for (guint s = 0; s < n_settings; s++)
    {
      g_auto(GStrv) values = g_new0 (char *, n + 1);
      gboolean differs = FALSE;

      for (guint r = 0; r < n; r++)
        {
          values[r] = rp_compare_setting_value (g_ptr_array_index (self->reports, r), &settings[s]);
          differs |= g_strcmp0 (values[r], values[0]) != 0;
        }
      if (rp_compare_setting_is_unused (values))
        continue;
      gtk_grid_attach (self->config_grid,
                       new_row_label (settings[s].translate ? _(settings[s].label) : settings[s].label),
                       0, row, 1, 1);
      for (guint r = 0; r < n; r++)
        gtk_grid_attach (self->config_grid, new_cell (values[r]), r + 1, row, 1, 1);
      if (differs)
        {
          highlight_row (self->config_grid, row, n + 1);
          self->n_differences++;
        }
      row++;
    }
}

/* Why each run stalled, side by side, first: the CLI's comparison has the
 * same row (rp_report_get_cause_cell()). No row when no run has a sampled
 * stall. Returns the grid row after it. */
static int
attach_cause_row (RpCompareView *self,
                  int            row)
{
  g_autoptr(GPtrArray) cells = g_ptr_array_new_with_free_func (g_free);
  gboolean any = FALSE;

  for (guint r = 0; r < self->reports->len; r++)
    {
      char *cell = rp_report_get_cause_cell (g_ptr_array_index (self->reports, r));

      any |= cell != NULL;
      g_ptr_array_add (cells, cell);
    }
  if (!any)
    return row;
  gtk_grid_attach (self->results_grid, new_row_label (_("Dominant cause")), 0, row, 1, 1);
  for (guint r = 0; r < self->reports->len; r++)
    {
      const char *cell = g_ptr_array_index (cells, r);

      gtk_grid_attach (self->results_grid, new_cell (cell != NULL ? cell : "–"), r + 1, row, 1, 1);
    }
  return row + 1;
}

/* Every figure the runs measured, one column per report (as the header),
 * with intervals and significance marks (rp-compare-rows.c). */
static void
fill_results (RpCompareView *self,
              GFile *const  *files)
{
  g_autoptr(RpComparison) comparison = rp_comparison_new (self->reports, RP_COMPARE_NONE);
  int row;

  clear_grid (self->results_grid);
  attach_header (self, self->results_grid, files);
  row = attach_cause_row (self, 1);
  row = rp_compare_rows_attach (self->results_grid, comparison, row);
  if (row == 1)
    {
      GtkWidget *none = new_cell (_("None of the reports has samples to compare."));

      gtk_grid_attach (self->results_grid, none, 0, row, self->reports->len + 1, 1);
    }
}

/* ------------------------------------------------------------------------- */
/* Charts */

static void
append_chart (RpCompareView *self,
              RpPlot        *plot)
{
  GtkWidget *view = rp_chart_view_new (plot);

  gtk_widget_add_css_class (view, "card");
  gtk_widget_set_size_request (view, -1, 320);
  gtk_box_append (self->charts_box, view);
}

static void
fill_charts (RpCompareView *self)
{
  GtkWidget *child;
  RpPlot *plots[2];

  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self->charts_box))) != NULL)
    gtk_box_remove (self->charts_box, child);
  g_clear_object (&self->cdf_plot);
  g_clear_object (&self->timeline_plot);

  self->cdf_plot = rp_compare_new_plot (self->reports, (const char *const *) self->labels, RP_PLOT_CDF);
  self->timeline_plot = rp_compare_new_plot (self->reports, (const char *const *) self->labels,
                                             RP_PLOT_TIMELINE);
  plots[0] = self->cdf_plot;
  plots[1] = self->timeline_plot;
  for (guint i = 0; i < G_N_ELEMENTS (plots); i++)
    append_chart (self, plots[i]);
  for (guint i = 0; i < G_N_ELEMENTS (overlays); i++)
    {
      g_autoptr(RpPlot) overlay = rp_compare_new_overlay_plot (self->reports, (const char *const *) self->labels, i);

      if (overlay != NULL)
        append_chart (self, overlay);
    }
}

/* ------------------------------------------------------------------------- */
/* GObject */

static void
rp_compare_view_dispose (GObject *object)
{
  RpCompareView *self = RP_COMPARE_VIEW (object);
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (self), RP_TYPE_COMPARE_VIEW);
  /* The scrolled window is not bound: unparent it as the template's root. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (self))) != NULL)
    gtk_widget_unparent (child);
  g_clear_pointer (&self->reports, g_ptr_array_unref);
  g_clear_pointer (&self->labels, g_strfreev);
  g_clear_object (&self->cdf_plot);
  g_clear_object (&self->timeline_plot);

  G_OBJECT_CLASS (rp_compare_view_parent_class)->dispose (object);
}

static void
rp_compare_view_class_init (RpCompareViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = rp_compare_view_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/resprobe/Resprobe/rp-compare-view.ui");
  gtk_widget_class_bind_template_child (widget_class, RpCompareView, config_grid);
  gtk_widget_class_bind_template_child (widget_class, RpCompareView, results_grid);
  gtk_widget_class_bind_template_child (widget_class, RpCompareView, charts_box);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rpcompareview");
}

static void
rp_compare_view_init (RpCompareView *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}

/**
 * rp_compare_view_new:
 *
 * Returns: (transfer floating): an empty comparison
 */
GtkWidget *
rp_compare_view_new (void)
{
  return g_object_new (RP_TYPE_COMPARE_VIEW, NULL);
}

/**
 * rp_compare_view_set_reports:
 * @reports: (element-type RpReport): 2 to 8 reports (one works too), in the
 *   order of their colours
 * @files: (array) (nullable): the file of each report, shown under its label
 *
 * Shows the configuration of each run with the settings that differ
 * highlighted, the results side by side (changes relative to the first
 * run), and the fsync latency of every run overlaid: its distribution on a
 * log axis and its course from the start of each run.
 */
void
rp_compare_view_set_reports (RpCompareView *self,
                             GPtrArray     *reports,
                             GFile *const  *files)
{
  g_return_if_fail (RP_IS_COMPARE_VIEW (self));
  g_return_if_fail (reports != NULL && reports->len > 0);

  g_clear_pointer (&self->reports, g_ptr_array_unref);
  g_clear_pointer (&self->labels, g_strfreev);
  self->reports = g_ptr_array_new_full (reports->len, g_object_unref);
  for (guint i = 0; i < reports->len; i++)
    g_ptr_array_add (self->reports, g_object_ref (g_ptr_array_index (reports, i)));
  self->labels = rp_compare_make_labels (reports, files);

  fill_config (self, files);
  fill_results (self, files);
  fill_charts (self);
}

/**
 * rp_compare_view_get_reports:
 *
 * Returns: (transfer none) (element-type RpReport) (nullable): the reports shown
 */
GPtrArray *
rp_compare_view_get_reports (RpCompareView *self)
{
  g_return_val_if_fail (RP_IS_COMPARE_VIEW (self), NULL);
  return self->reports;
}

/**
 * rp_compare_view_get_label:
 * @index: a report's index
 *
 * Returns: (transfer none) (nullable): the legend label of the run
 */
const char *
rp_compare_view_get_label (RpCompareView *self,
                           guint          index)
{
  g_return_val_if_fail (RP_IS_COMPARE_VIEW (self), NULL);

  if (self->labels == NULL || index >= g_strv_length (self->labels))
    return NULL;
  return self->labels[index];
}

/**
 * rp_compare_view_get_n_differences:
 *
 * Returns: how many settings of the configuration table differ (and are
 *   highlighted): parts of the scenarios (rp_scenario_get_fields()) and
 *   settings of the systems
 */
guint
rp_compare_view_get_n_differences (RpCompareView *self)
{
  g_return_val_if_fail (RP_IS_COMPARE_VIEW (self), 0);
  return self->n_differences;
}

/**
 * rp_compare_view_get_plot:
 * @mode: which chart: the distribution or the timeline
 *
 * Returns: (transfer none) (nullable): the plot of that chart
 */
RpPlot *
rp_compare_view_get_plot (RpCompareView *self,
                          RpPlotMode     mode)
{
  g_return_val_if_fail (RP_IS_COMPARE_VIEW (self), NULL);
  return mode == RP_PLOT_CDF ? self->cdf_plot : self->timeline_plot;
}
