/* rp-plot-catalog.c: which charts a run gets, for the window and for exported files alike. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "rp-parts.h"
#include "rp-plot-catalog.h"
#include "rp-report-stalls.h"
#include "rp-stall.h"
#include "rp-units.h"
#include "rp-stats.h"

/* The per-thread series of the parallel writers: write_latency_0, _1, … */
#define WRITER_PREFIX "write_latency_"

typedef struct {
  const char      *title;
  const char      *unit;
  gboolean         log_y;
  gboolean         limits;       /* dashed lines at 0.1 s and 1 s */
  gboolean         per_writer;   /* the series are write_latency_N, found at bind time */
  RpPlotPlacement  placement;
} CatalogEntry;

/* In reading order, which is also the order of exported charts. Which
 * series a chart shows, with their legend labels and colours, is said by
 * the parts table (RpSeriesInfo's chart and rank); the legend names those
 * a run has. The latency of disk calls is the headline measurement of the
 * reports (R1, R3, R4) and gets the full width. */
static const CatalogEntry catalog[] = {
  { N_("Disk call latency"), "s", TRUE, TRUE, FALSE, { "disk-latency", 0, 0, 2, FALSE } },
  /* R3 compares the writers with each other: does one of them starve? */
  { N_("write() latency per writer thread"), "s", TRUE, TRUE, TRUE, { "writer-threads", 0, 1, 2, TRUE } },
  /* What is measured is the probe window (app/canary), an application of
   * its own that the desktop serves: said so. */
  { N_("Probe window: main loop, frames, input"), "s", TRUE, TRUE, FALSE, { "ui-latency", 0, 2, 1, FALSE } },
  { N_("CPU time, system-wide"), "ratio", FALSE, FALSE, FALSE, { "cpu", 1, 2, 1, FALSE } },
  { N_("Throughput"), "B/s", FALSE, FALSE, FALSE, { "throughput", 0, 3, 1, FALSE } },
  { N_("Dirty and writeback memory, system-wide"), "B", FALSE, FALSE, FALSE, { "memory", 1, 3, 1, FALSE } },
  { N_("CPU benchmark"), "ops/s", FALSE, FALSE, FALSE, { "cpu-bench", 0, 4, 2, TRUE } },
  /* Why the disk calls above were slow, where kernel events were allowed. */
  { N_("Journal and device (kernel events)"), "s", TRUE, TRUE, FALSE, { "kernel", 0, 5, 2, TRUE } },
  /* What the target's device did (/proc/diskstats): requests per second.
   * A row of its own: on the kernel events' row it hid that chart in the
   * window (issue 21's re-check: a Tab stop with nothing visible). */
  { N_("Disk: the target’s device, system-wide"), "ops/s", FALSE, FALSE, FALSE, { "disk", 0, 6, 2, TRUE } },
};

/* The series of the parts table that chart @data shows; per-thread series
 * are bound by bind_writers() instead. */
static gboolean
in_chart (const RpSeriesInfo *info,
          gconstpointer       data)
{
  return g_strcmp0 (info->chart, data) == 0 && !(info->flags & RP_SERIES_FLAG_PER_THREAD);
}

/**
 * rp_plot_catalog_get_n_plots:
 *
 * Returns: the number of charts in the catalog; indices 0 .. n − 1 are in
 *   reading order (left to right, top to bottom)
 */
guint
rp_plot_catalog_get_n_plots (void)
{
  return G_N_ELEMENTS (catalog);
}

/**
 * rp_plot_catalog_new_plot:
 * @index: 0 .. rp_plot_catalog_get_n_plots() − 1
 * @out_placement: (out) (optional): where the chart goes in a two-column grid
 *
 * A chart with its title, unit, axis, limit lines and every series it can
 * show declared but none bound: lay it out before a session starts, then
 * call rp_plot_catalog_bind() as series appear. Charts of ratios span 0..1
 * (the whole CPU); latencies have a log axis. The per-writer chart declares
 * its series when they are bound, as their number depends on the run.
 *
 * Returns: (transfer full): the plot
 */
RpPlot *
rp_plot_catalog_new_plot (guint            index,
                          RpPlotPlacement *out_placement)
{
  const CatalogEntry *entry;
  g_autoptr(GPtrArray) series = NULL;
  RpPlot *plot;

  g_return_val_if_fail (index < G_N_ELEMENTS (catalog), NULL);

  entry = &catalog[index];
  plot = rp_plot_new (_(entry->title), entry->unit);
  rp_plot_set_log_y (plot, entry->log_y);
  if (g_str_equal (entry->unit, "ratio"))
    rp_plot_set_y_range (plot, 0, 1);
  if (entry->limits)
    {
      rp_plot_add_limit (plot, RP_LIMIT_INSTANT);
      rp_plot_add_limit (plot, RP_LIMIT_FLOW);
    }
  series = rp_parts_find_series (in_chart, entry->placement.id);
  for (guint k = 0; k < series->len; k++)
    {
      const RpSeriesInfo *info = g_ptr_array_index (series, k);

      rp_plot_add_series (plot, info->name, _(info->legend),
                          (info->flags & RP_SERIES_FLAG_STACKED) ? RP_PLOT_STACKED_AREA : RP_PLOT_LINE);
    }
  if (out_placement != NULL)
    *out_placement = entry->placement;
  return plot;
}

static RpSeries *
find_series (GPtrArray  *series,
             const char *name)
{
  for (guint i = 0; series != NULL && i < series->len; i++)
    if (g_strcmp0 (rp_series_get_name (g_ptr_array_index (series, i)), name) == 0)
      return g_ptr_array_index (series, i);
  return NULL;
}

static gboolean
plot_declares (RpPlot     *plot,
               const char *name)
{
  for (guint k = 0; k < rp_plot_get_n_series (plot); k++)
    if (g_str_equal (rp_plot_get_series_name (plot, k), name))
      return TRUE;
  return FALSE;
}

/* N of "write_latency_N" (decimal digits only, no sign, no leading zeros
 * beyond "0" itself), or -1. Reports come from strangers. */
static gint64
writer_number (const char *name)
{
  const char *digits;
  char *end = NULL;
  guint64 n;

  if (name == NULL || !g_str_has_prefix (name, WRITER_PREFIX))
    return -1;
  digits = name + strlen (WRITER_PREFIX);
  if (!g_ascii_isdigit (digits[0]) || (digits[0] == '0' && digits[1] != '\0'))
    return -1;
  n = g_ascii_strtoull (digits, &end, 10);
  if (*end != '\0' || n > G_MAXUINT)
    return -1;
  return (gint64) n;
}

static int
compare_writer_series (gconstpointer a,
                       gconstpointer b)
{
  gint64 na = writer_number (rp_series_get_name (*(RpSeries * const *) a));
  gint64 nb = writer_number (rp_series_get_name (*(RpSeries * const *) b));

  return na < nb ? -1 : na > nb ? 1 : 0;
}

/* The writers' series, by thread number; one colour each, so at most a
 * palette's worth (a chart of 64 threads would be unreadable anyway): the
 * title says when some are left out. */
static gboolean
bind_writers (RpPlot    *plot,
              GPtrArray *series)
{
  g_autoptr(GPtrArray) writers = g_ptr_array_new ();
  guint shown;

  for (guint i = 0; series != NULL && i < series->len; i++)
    if (writer_number (rp_series_get_name (g_ptr_array_index (series, i))) >= 0)
      g_ptr_array_add (writers, g_ptr_array_index (series, i));
  g_ptr_array_sort (writers, compare_writer_series);

  shown = MIN (writers->len, RP_PLOT_PALETTE_SIZE);
  for (guint i = 0; i < shown; i++)
    {
      RpSeries *s = g_ptr_array_index (writers, i);
      const char *name = rp_series_get_name (s);

      if (!plot_declares (plot, name))
        {
          /* TRANSLATORS: legend label of writer thread N in the chart
           * "write() latency per writer thread"; short, eight must fit */
          g_autofree char *label = g_strdup_printf (_("#%u"), (guint) writer_number (name));

          rp_plot_add_series (plot, name, label, RP_PLOT_LINE);
        }
      rp_plot_bind_series (plot, name, s);
    }
  if (writers->len > shown)
    {
      g_autofree char *title =
        /* TRANSLATORS: chart title when only the first 8 writer threads fit */
        g_strdup_printf (_("write() latency of the first %u of %u writer threads"),
                         shown, writers->len);

      rp_plot_set_title (plot, title);
    }
  /* One writer's series is the same as the combined write() latency. */
  return shown >= 2;
}

/**
 * rp_plot_catalog_bind:
 * @index: the catalog index @plot was made with
 * @plot: a plot from rp_plot_catalog_new_plot()
 * @series: (element-type RpSeries) (nullable): the series a run has so far,
 *   e.g. rp_session_get_series() or rp_report_get_series()
 *
 * Binds each series the chart declares to the one of the same name in
 * @series, or to %NULL when there is none (the legend names only the bound
 * ones). Call it again as a session creates series; the per-writer chart
 * adds the writers it has not seen yet.
 *
 * Returns: %TRUE if the chart has something to show: one of its series
 *   exists (for the per-writer chart: at least two writers)
 */
gboolean
rp_plot_catalog_bind (guint      index,
                      RpPlot    *plot,
                      GPtrArray *series)
{
  gboolean any = FALSE;

  g_return_val_if_fail (index < G_N_ELEMENTS (catalog), FALSE);
  g_return_val_if_fail (RP_IS_PLOT (plot), FALSE);

  if (catalog[index].per_writer)
    return bind_writers (plot, series);

  for (guint k = 0; k < rp_plot_get_n_series (plot); k++)
    {
      const char *name = rp_plot_get_series_name (plot, k);
      RpSeries *found = find_series (series, name);

      rp_plot_bind_series (plot, name, found);
      any |= found != NULL;
    }
  return any;
}

/**
 * rp_plot_catalog_build:
 * @series: (element-type RpSeries): the series of a finished run or a report
 * @t_end: right end of every chart's time axis, seconds (e.g.
 *   rp_report_get_duration()), so that all charts share one axis from 0; 0:
 *   each chart fits its own data
 * @out_placements: (element-type RpPlotPlacement) (nullable): an array of
 *   #RpPlotPlacement to append one placement per returned plot to
 *
 * The charts of a report: those of the catalog that have a series with
 * samples, in catalog order, each bound to the series with samples (so that
 * the legend names only what was measured).
 *
 * Returns: (transfer container) (element-type RpPlot): the plots, possibly
 *   none
 */
GPtrArray *
rp_plot_catalog_build (GPtrArray *series,
                       double     t_end,
                       GArray    *out_placements)
{
  g_autoptr(GPtrArray) measured = g_ptr_array_new ();
  GPtrArray *plots = g_ptr_array_new_with_free_func (g_object_unref);

  g_return_val_if_fail (series != NULL, plots);
  g_return_val_if_fail (out_placements == NULL ||
                        g_array_get_element_size (out_placements) == sizeof (RpPlotPlacement), plots);

  for (guint i = 0; i < series->len; i++)
    if (rp_series_get_length (g_ptr_array_index (series, i)) > 0)
      g_ptr_array_add (measured, g_ptr_array_index (series, i));

  for (guint i = 0; i < G_N_ELEMENTS (catalog); i++)
    {
      RpPlotPlacement placement;
      g_autoptr(RpPlot) plot = rp_plot_catalog_new_plot (i, &placement);

      if (!rp_plot_catalog_bind (i, plot, measured))
        continue;
      if (t_end > 0)
        rp_plot_set_time_range (plot, 0, t_end);
      g_ptr_array_add (plots, g_steal_pointer (&plot));
      if (out_placements != NULL)
        g_array_append_val (out_placements, placement);
    }
  return plots;
}

static void
add_spans (GArray    *spans,
           GPtrArray *stalls,
           gboolean   in_flight)
{
  for (guint i = 0; stalls != NULL && i < stalls->len; i++)
    {
      const RpStall *stall = g_ptr_array_index (stalls, i);
      g_autofree char *duration = rp_format_latency (stall->duration);
      g_autofree char *breakdown = NULL;
      RpPlotSpan span = { stall->series, stall->start, stall->start + stall->duration, in_flight, NULL };
      RpCauseEvidence evidence;

      /* A tooltip's causes from the call's kind alone: the chart has no
       * series of the run to decide a read behind writes from another. */
      rp_stall_evidence_from (NULL, NULL, NULL, stall, &evidence);
      breakdown = rp_stall_breakdown_text (stall, &evidence, 3, FALSE);

      span.label = in_flight ?
        /* TRANSLATORS: tooltip of a call in flight: "fsync in flight, 8.20 s so far: waiting for the journal commit 8.10 s (99 %)" */
        g_strdup_printf (_("%s in flight, %s so far: %s"), rp_stall_call_name (stall->series), duration, breakdown) :
        /* TRANSLATORS: tooltip of a stall: "fsync stalled 9.85 s: waiting for the journal commit 9.70 s (98 %)" */
        g_strdup_printf (_("%s stalled %s: %s"), rp_stall_call_name (stall->series), duration, breakdown);
      g_array_append_val (spans, span);
    }
}

/**
 * rp_plot_catalog_set_baseline:
 * @plots: (element-type RpPlot): charts of the catalog
 * @seconds: the end of the run's baseline (rp_report_get_baseline(),
 *   rp_session_get_baseline()), 0 for none
 *
 * Shades the baseline on every chart.
 */
void
rp_plot_catalog_set_baseline (GPtrArray *plots,
                              double     seconds)
{
  g_return_if_fail (plots != NULL);

  for (guint i = 0; i < plots->len; i++)
    rp_plot_set_baseline (g_ptr_array_index (plots, i), seconds);
}

/**
 * rp_plot_catalog_set_stalls:
 * @plots: (element-type RpPlot): charts of the catalog
 * @stalls: (element-type RpStall) (nullable): finished stalls
 *   (rp_report_get_stalls(), rp_session_get_stalls())
 * @in_flight: (element-type RpStall) (nullable): calls not returned yet
 *   (rp_session_get_in_flight()), drawn to their duration so far
 *
 * Gives every chart its stalls as spans; each chart draws those of the
 * series it shows (fsync in "Disk call latency", a writer's write() in the
 * per-thread chart).
 */
void
rp_plot_catalog_set_stalls (GPtrArray *plots,
                            GPtrArray *stalls,
                            GPtrArray *in_flight)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (RpPlotSpan));

  g_return_if_fail (plots != NULL);

  add_spans (spans, stalls, FALSE);
  add_spans (spans, in_flight, TRUE);
  for (guint i = 0; i < plots->len; i++)
    rp_plot_set_spans (g_ptr_array_index (plots, i), (const RpPlotSpan *) spans->data, spans->len);
  for (guint i = 0; i < spans->len; i++)
    g_free (g_array_index (spans, RpPlotSpan, i).label);
}
