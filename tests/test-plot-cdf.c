/* test-plot-cdf.c: the distribution mode of RpPlot (compare view) and the wrapped legend. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "rp-plot.h"
#include "rp-stats.h"

#define WIDTH  640
#define HEIGHT 320

static RpSeries *
make_latencies (const char *name,
                double      low,
                double      high,
                guint       n)
{
  RpSeries *series = rp_series_new (name, "s", NULL);

  /* Log-uniform between low and high: a flat CDF on a log axis. */
  for (guint i = 0; i < n; i++)
    rp_series_append (series, i, low * pow (high / low, (double) i / (n - 1)));
  return series;
}

static RpPlot *
make_cdf_plot (RpSeries *a,
               RpSeries *b)
{
  RpPlot *plot = rp_plot_new ("fsync latency distribution", "s");

  rp_plot_set_mode (plot, RP_PLOT_CDF);
  rp_plot_add_threshold (plot, RP_LIMIT_INSTANT, "0.1 s");
  rp_plot_add_threshold (plot, RP_LIMIT_FLOW, "1 s");
  rp_plot_add_series (plot, "run-0", "ext3 ordered cfq", RP_PLOT_LINE);
  rp_plot_add_series (plot, "run-1", "ext3 writeback cfq", RP_PLOT_LINE);
  rp_plot_bind_series (plot, "run-0", a);
  rp_plot_bind_series (plot, "run-1", b);
  return plot;
}

static void
draw (RpPlot *plot,
      double  width,
      double  height)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  cairo_t *cr = cairo_create (surface);

  rp_plot_draw (plot, cr, width, height, NULL);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);
}

/* The share under the pointer is the share of samples at most the value
 * under it, to the resolution of a pixel column; the x axis is the value. */
static void
test_cdf_readout (void)
{
  g_autoptr(RpSeries) a = make_latencies ("fsync_latency", 0.01, 10, 1000);
  g_autoptr(RpSeries) b = make_latencies ("fsync_latency", 0.002, 0.01, 1000);
  g_autoptr(RpPlot) plot = make_cdf_plot (a, b);
  g_autoptr(GArray) readouts = g_array_new (FALSE, FALSE, sizeof (RpPlotReadout));
  double x, y, w, h, value;

  g_assert_cmpint (rp_plot_get_mode (plot), ==, RP_PLOT_CDF);
  draw (plot, WIDTH, HEIGHT);
  g_assert_true (rp_plot_get_area (plot, &x, &y, &w, &h));

  /* 1 ms .. 10 s: four decades; the middle is 0.1 s, where run 0 is at a
   * third (log-uniform over three decades) and run 1 complete. */
  g_assert_true (rp_plot_read_at (plot, x + w / 2, y + h / 2, &value, readouts));
  g_test_message ("value at the middle %g s, %u readouts", value, readouts->len);
  g_assert_cmpfloat_with_epsilon (log10 (value), -1, 0.02);
  g_assert_cmpuint (readouts->len, ==, 1);
  g_assert_cmpstr (g_array_index (readouts, RpPlotReadout, 0).label, ==, "ext3 ordered cfq");
  g_assert_cmpfloat_with_epsilon (g_array_index (readouts, RpPlotReadout, 0).max, 1.0 / 3, 0.01);

  /* Left of both curves: nothing; at 5 ms only run 1, at log(5/2)/log(5). */
  g_assert_true (rp_plot_read_at (plot, x + 1, y + h / 2, &value, readouts));
  g_assert_cmpuint (readouts->len, ==, 0);
  g_assert_true (rp_plot_read_at (plot, x + w * (log10 (0.005) + 3) / 4, y + h / 2, &value, readouts));
  g_assert_cmpuint (readouts->len, ==, 1);
  g_assert_cmpstr (g_array_index (readouts, RpPlotReadout, 0).label, ==, "ext3 writeback cfq");
  g_assert_cmpfloat_with_epsilon (g_array_index (readouts, RpPlotReadout, 0).max,
                                  log10 (2.5) / log10 (5), 0.03);
}

/* A curve never falls, and each spans from its smallest value to its largest. */
static void
test_cdf_monotonic (void)
{
  g_autoptr(RpSeries) a = rp_series_new ("fsync_latency", "s", NULL);
  g_autoptr(RpSeries) b = make_latencies ("fsync_latency", 0.002, 0.2, 50);
  g_autoptr(RpPlot) plot = make_cdf_plot (a, b);
  g_autoptr(GArray) readouts = g_array_new (FALSE, FALSE, sizeof (RpPlotReadout));
  double x, y, w, h, previous = 0;
  guint seen = 0;

  /* Stragglers and garbage: zero, NaN and infinity must not break it. */
  for (guint i = 0; i < 200; i++)
    rp_series_append (a, i, i % 50 == 0 ? 5.0 : 0.004 + 0.0001 * (i % 7));
  rp_series_append (a, 201, 0);
  rp_series_append (a, 202, NAN);
  rp_series_append (a, 203, INFINITY);

  draw (plot, WIDTH, HEIGHT);
  g_assert_true (rp_plot_get_area (plot, &x, &y, &w, &h));
  for (double px = x; px <= x + w; px += 1)
    {
      double value;

      g_assert_true (rp_plot_read_at (plot, px, y + 1, &value, readouts));
      for (guint i = 0; i < readouts->len; i++)
        {
          const RpPlotReadout *readout = &g_array_index (readouts, RpPlotReadout, i);

          g_assert_cmpfloat (readout->max, >=, 0);
          g_assert_cmpfloat (readout->max, <=, 1);
          if (g_str_equal (readout->label, "ext3 ordered cfq"))
            {
              /* nearest_column() may look a few columns sideways. */
              g_assert_cmpfloat (readout->max, >=, previous - 0.05);
              previous = MAX (previous, readout->max);
              seen++;
            }
        }
    }
  g_assert_cmpuint (seen, >, 0);
  g_assert_cmpfloat (previous, ==, 1.0);
}

/* Empty plots, a plot without series, and switching back to a timeline. */
static void
test_cdf_edges (void)
{
  g_autoptr(RpSeries) a = make_latencies ("fsync_latency", 0.01, 1, 30);
  g_autoptr(RpPlot) empty = rp_plot_new ("nothing", "s");
  g_autoptr(RpPlot) plot = rp_plot_new ("switch", "s");
  g_autoptr(GArray) readouts = g_array_new (FALSE, FALSE, sizeof (RpPlotReadout));
  double x, y, w, h, t;

  rp_plot_set_mode (empty, RP_PLOT_CDF);
  rp_plot_set_placeholder (empty, "No samples");
  draw (empty, WIDTH, HEIGHT);
  draw (empty, 30, 30);

  rp_plot_add_series (plot, "a", "a", RP_PLOT_LINE);
  rp_plot_bind_series (plot, "a", a);
  rp_plot_set_mode (plot, RP_PLOT_CDF);
  draw (plot, WIDTH, HEIGHT);
  rp_plot_set_mode (plot, RP_PLOT_TIMELINE);
  draw (plot, WIDTH, HEIGHT);
  g_assert_true (rp_plot_get_area (plot, &x, &y, &w, &h));
  /* A timeline again: x is the time, 0 .. 29 s. */
  g_assert_true (rp_plot_read_at (plot, x + w, y + 1, &t, readouts));
  g_assert_cmpfloat_with_epsilon (t, 29, 0.1);
}

/* The same drawing code writes the files. */
static void
test_cdf_save (void)
{
  g_autoptr(RpSeries) a = make_latencies ("fsync_latency", 0.01, 10, 100);
  g_autoptr(RpSeries) b = make_latencies ("fsync_latency", 0.001, 0.01, 100);
  g_autoptr(RpPlot) plot = make_cdf_plot (a, b);
  g_autofree char *dir = g_dir_make_tmp ("test-plot-cdf-XXXXXX", NULL);
  const char *formats[] = { "png", "svg", "pdf" };

  g_assert_nonnull (dir);
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *name = g_strdup_printf ("cdf.%s", formats[i]);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autoptr(GError) error = NULL;
      GStatBuf st;

      g_assert_true (rp_plot_save (plot, path, formats[i], 800, 400, NULL, &error));
      g_assert_no_error (error);
      g_assert_cmpint (g_stat (path, &st), ==, 0);
      g_assert_cmpint (st.st_size, >, 1000);
      g_unlink (path);
    }
  g_rmdir (dir);
}

/* Eight runs with long labels: the legend wraps below the title instead of
 * running off the chart, and the plot area moves down to make room. */
static void
test_legend_wraps (void)
{
  g_autoptr(RpPlot) one = rp_plot_new ("fsync latency distribution", "s");
  g_autoptr(RpPlot) eight = rp_plot_new ("fsync latency distribution", "s");
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  double y_one, y_eight;

  for (guint i = 0; i < 8; i++)
    {
      g_autofree char *name = g_strdup_printf ("run-%u", i);
      g_autofree char *label = g_strdup_printf ("ext%u writeback mq-deadline · run-%u", 3 + i % 2, i);
      RpSeries *s = make_latencies ("fsync_latency", 0.001 * (i + 1), 1, 20);

      g_ptr_array_add (series, s);
      rp_plot_add_series (eight, name, label, RP_PLOT_LINE);
      rp_plot_bind_series (eight, name, s);
      if (i == 0)
        {
          rp_plot_add_series (one, name, label, RP_PLOT_LINE);
          rp_plot_bind_series (one, name, s);
        }
    }
  rp_plot_set_mode (eight, RP_PLOT_CDF);
  rp_plot_set_mode (one, RP_PLOT_CDF);
  draw (one, 500, 400);
  draw (eight, 500, 400);
  g_assert_true (rp_plot_get_area (one, NULL, &y_one, NULL, NULL));
  g_assert_true (rp_plot_get_area (eight, NULL, &y_eight, NULL, NULL));
  g_test_message ("plot area top: %.0f with one run, %.0f with eight", y_one, y_eight);
  /* Eight labels of ~230 px in 500 px: four lines at least, not one. */
  g_assert_cmpfloat (y_eight, >=, y_one + 3 * 10);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot-cdf/readout", test_cdf_readout);
  g_test_add_func ("/plot-cdf/monotonic", test_cdf_monotonic);
  g_test_add_func ("/plot-cdf/edges", test_cdf_edges);
  g_test_add_func ("/plot-cdf/save", test_cdf_save);
  g_test_add_func ("/plot-cdf/legend-wraps", test_legend_wraps);
  return g_test_run ();
}
