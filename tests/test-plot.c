/* test-plot.c: the chart renderer: drawing, decimation cost, hover readout, file export. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-plot.h"

#define WIDTH  800
#define HEIGHT 240

static RpSeries *
make_series (const char *name,
             const char *unit,
             double      rate,
             double      seconds)
{
  RpSeries *series = rp_series_new (name, unit, NULL);
  guint n = (guint) (rate * seconds);

  for (guint i = 0; i < n; i++)
    rp_series_append (series, i / rate, 1e-4 * (1 + sin (i * 0.01)) + (i % 997 == 0 ? 0.5 : 0));
  return series;
}

/* Pixels that differ from the background: the chart drew something. */
static guint
count_ink (cairo_surface_t *surface)
{
  const guint32 *data;
  int stride;
  guint32 background;
  guint ink = 0;

  cairo_surface_flush (surface);
  data = (const guint32 *) (gpointer) cairo_image_surface_get_data (surface);
  stride = cairo_image_surface_get_stride (surface) / 4;
  background = data[(HEIGHT - 1) * stride + WIDTH - 1];
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++)
      if (data[y * stride + x] != background)
        ink++;
  return ink;
}

static double
time_draw (RpPlot          *plot,
           cairo_surface_t *surface)
{
  cairo_t *cr = cairo_create (surface);
  double start = rp_clock_now ();

  rp_plot_draw (plot, cr, WIDTH, HEIGHT, NULL);
  cairo_destroy (cr);
  return rp_clock_now () - start;
}

static void
test_plot_draws (void)
{
  g_autoptr(RpPlot) plot = rp_plot_new ("fsync latency", "s");
  g_autoptr(RpSeries) series = make_series ("fsync_latency", "s", 1, 60);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  guint empty_ink, ink;

  rp_plot_add_series (plot, "fsync_latency", "fsync", RP_PLOT_LINE);
  rp_plot_set_log_y (plot, TRUE);
  rp_plot_add_threshold (plot, 0.1, "0.1 s");
  rp_plot_set_placeholder (plot, "Waiting for data…");

  time_draw (plot, surface);
  empty_ink = count_ink (surface);
  g_assert_cmpuint (empty_ink, >, 0);

  rp_plot_bind_series (plot, "fsync_latency", series);
  time_draw (plot, surface);
  ink = count_ink (surface);
  g_assert_cmpuint (ink, >, empty_ink);
  cairo_surface_destroy (surface);
}

/* A 1-hour 100 Hz series must not draw much slower than a 1-minute one: the
 * decimation to pixel columns makes the path cost follow the width, and the
 * column cache makes a redraw after new points cost only the new points. */
static void
test_plot_decimation_cost (void)
{
  g_autoptr(RpSeries) minute = make_series ("mainloop_lateness", "s", 100, 60);
  g_autoptr(RpSeries) hour = make_series ("mainloop_lateness", "s", 100, 3600);
  g_autoptr(RpPlot) small = rp_plot_new ("minute", "s");
  g_autoptr(RpPlot) large = rp_plot_new ("hour", "s");
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  double t_small = G_MAXDOUBLE, t_first, t_redraw = G_MAXDOUBLE;

  rp_plot_add_series (small, "mainloop_lateness", NULL, RP_PLOT_LINE);
  rp_plot_add_series (large, "mainloop_lateness", NULL, RP_PLOT_LINE);
  rp_plot_bind_series (small, "mainloop_lateness", minute);
  rp_plot_bind_series (large, "mainloop_lateness", hour);
  rp_plot_set_time_range (small, 0, 60);
  rp_plot_set_time_range (large, 0, 3600 + 60);

  for (int i = 0; i < 5; i++)
    {
      rp_series_append (minute, 60 + i * 0.01, 1e-4);
      t_small = MIN (t_small, time_draw (small, surface));
    }

  t_first = time_draw (large, surface);
  for (int i = 0; i < 5; i++)
    {
      /* A live run: one more second of samples between two frames. */
      for (int k = 0; k < 100; k++)
        rp_series_append (hour, 3600 + i + k * 0.01, 1e-4);
      t_redraw = MIN (t_redraw, time_draw (large, surface));
    }

  g_test_message ("draw: 1 min %.2f ms; 1 h first %.2f ms, redraw %.2f ms",
                  t_small * 1e3, t_first * 1e3, t_redraw * 1e3);
  /* Generous bounds (sanitizers, loaded CI machines); the ratio is the point. */
  g_assert_cmpfloat (t_first, <, 0.5);
  g_assert_cmpfloat (t_redraw, <, MAX (3 * t_small, 0.005));
  cairo_surface_destroy (surface);
}

static void
test_plot_stacked_and_readout (void)
{
  static const char *names[] = { "cpu_user", "cpu_system", "cpu_iowait" };
  g_autoptr(RpPlot) plot = rp_plot_new ("CPU time", "ratio");
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GArray) readouts = g_array_new (FALSE, FALSE, sizeof (RpPlotReadout));
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  double t = -1;

  rp_plot_set_y_range (plot, 0, 1);
  for (guint k = 0; k < G_N_ELEMENTS (names); k++)
    {
      RpSeries *s = rp_series_new (names[k], "ratio", NULL);

      for (int i = 0; i <= 40; i++)
        rp_series_append (s, i * 0.5, 0.1 * (k + 1));
      rp_plot_add_series (plot, names[k], names[k] + 4, RP_PLOT_STACKED_AREA);
      rp_plot_bind_series (plot, names[k], s);
      g_ptr_array_add (series, s);
    }
  time_draw (plot, surface);
  g_assert_cmpuint (count_ink (surface), >, WIDTH * HEIGHT / 10);

  /* Outside the plot area: nothing. In the middle: all three series. */
  g_assert_false (rp_plot_read_at (plot, 1, 1, &t, readouts));
  g_assert_true (rp_plot_read_at (plot, WIDTH / 2.0, HEIGHT / 2.0, &t, readouts));
  g_assert_cmpuint (readouts->len, ==, 3);
  g_assert_cmpfloat (t, >, 5);
  g_assert_cmpfloat (t, <, 15);
  g_assert_cmpfloat_with_epsilon (g_array_index (readouts, RpPlotReadout, 2).mean, 0.3, 1e-9);
  cairo_surface_destroy (surface);
}

static void
test_plot_units (void)
{
  g_autoptr(RpPlot) latency = rp_plot_new (NULL, "s");
  g_autoptr(RpPlot) rate = rp_plot_new (NULL, "B/s");
  g_autoptr(RpPlot) ratio = rp_plot_new (NULL, "ratio");
  g_autoptr(RpPlot) ops = rp_plot_new (NULL, "ops/s");
  g_autofree char *a = rp_plot_format_value (latency, 0.0123);
  g_autofree char *b = rp_plot_format_value (latency, 10.9);
  g_autofree char *c = rp_plot_format_value (latency, 42e-6);
  g_autofree char *d = rp_plot_format_value (rate, 24.0 * 1024 * 1024);
  g_autofree char *e = rp_plot_format_value (ratio, 0.42);
  g_autofree char *f = rp_plot_format_value (ops, 1.5e6);

  g_assert_cmpstr (a, ==, "12.3 ms");
  g_assert_cmpstr (b, ==, "10.9 s");
  g_assert_cmpstr (c, ==, "42.0 µs");
  g_assert_cmpstr (d, ==, "24.0 MiB/s");
  g_assert_cmpstr (e, ==, "42%");
  g_assert_cmpstr (f, ==, "1.50 Mops/s");
}

static void
test_plot_save (void)
{
  static const char *formats[] = { "png", "svg", "pdf" };
  g_autoptr(RpPlot) plot = rp_plot_new ("fsync latency", "s");
  g_autoptr(RpSeries) series = make_series ("fsync_latency", "s", 1, 30);
  g_autofree char *dir = g_dir_make_tmp ("test-plot-XXXXXX", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *bad = g_build_filename (dir, "chart.bmp", NULL);

  g_assert_nonnull (dir);
  rp_plot_add_series (plot, "fsync_latency", "fsync", RP_PLOT_LINE);
  rp_plot_bind_series (plot, "fsync_latency", series);

  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *name = g_strdup_printf ("chart.%s", formats[i]);
      g_autofree char *path = g_build_filename (dir, name, NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;

      g_assert_true (rp_plot_save (plot, path, formats[i], WIDTH, HEIGHT, NULL, &error));
      g_assert_no_error (error);
      g_assert_true (g_file_get_contents (path, &contents, &length, NULL));
      g_assert_cmpuint (length, >, 1000);
      g_unlink (path);
    }

  g_assert_false (rp_plot_save (plot, bad, "bmp", WIDTH, HEIGHT, NULL, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  g_assert_false (g_file_test (bad, G_FILE_TEST_EXISTS));
  g_rmdir (dir);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot/draws", test_plot_draws);
  g_test_add_func ("/plot/decimation-cost", test_plot_decimation_cost);
  g_test_add_func ("/plot/stacked-and-readout", test_plot_stacked_and_readout);
  g_test_add_func ("/plot/units", test_plot_units);
  g_test_add_func ("/plot/save", test_plot_save);

  return g_test_run ();
}
