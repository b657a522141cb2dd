/* test-plot.c: the chart renderer: drawing, live redraws, hover readout, file export,
 * the raster path against the vector path, where threshold labels go. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gstdio.h>
#include <math.h>

#include "rp-error.h"
#include "rp-plot.h"
#include "rp-plot-catalog.h"
#include "rp-plot-private.h"

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

static void
draw (RpPlot          *plot,
      cairo_surface_t *surface)
{
  cairo_t *cr = cairo_create (surface);

  rp_plot_draw (plot, cr, WIDTH, HEIGHT, NULL);
  cairo_destroy (cr);
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

  draw (plot, surface);
  empty_ink = count_ink (surface);
  g_assert_cmpuint (empty_ink, >, 0);

  rp_plot_bind_series (plot, "fsync_latency", series);
  draw (plot, surface);
  ink = count_ink (surface);
  g_assert_cmpuint (ink, >, empty_ink);
  cairo_surface_destroy (surface);
}

/* A time range of 10^300 s (only an edited report could ask for it; the
 * loader now refuses one) once kept the time axis adding a step too small
 * to move t on. The axis must end, with its ticks. */
static void
test_plot_huge_time_range (void)
{
  g_autoptr(RpPlot) plot = rp_plot_new ("fsync latency", "s");
  g_autoptr(RpSeries) series = make_series ("fsync_latency", "s", 1, 60);
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  guint empty_ink;

  rp_plot_add_series (plot, "fsync_latency", "fsync", RP_PLOT_LINE);
  draw (plot, surface);
  empty_ink = count_ink (surface);
  rp_plot_bind_series (plot, "fsync_latency", series);
  rp_plot_set_time_range (plot, 1e300, 1e300 + 1e290);
  draw (plot, surface);
  g_assert_cmpuint (count_ink (surface), >=, empty_ink);
  rp_plot_set_time_range (plot, 0, 1e300);
  draw (plot, surface);
  g_assert_cmpuint (count_ink (surface), >, empty_ink);
  cairo_surface_destroy (surface);
}

/* The maximum that rp_plot_read_at() finds for the first series at time @t
 * of the last draw, or -1 when it finds nothing there. */
static double
read_max_at (RpPlot *plot,
             double  t,
             double  t0,
             double  t1)
{
  g_autoptr(GArray) readouts = g_array_new (FALSE, FALSE, sizeof (RpPlotReadout));
  double x, y, w, h;

  g_assert_true (rp_plot_get_area (plot, &x, &y, &w, &h));
  if (!rp_plot_read_at (plot, x + (t - t0) / (t1 - t0) * w, y + h / 2, NULL, readouts) ||
      readouts->len == 0)
    return -1;
  return g_array_index (readouts, RpPlotReadout, 0).max;
}

/* A live run: the range stays put and points arrive between frames. The
 * column cache must take them in (a frame after new points shows them),
 * whether the series is a minute or an hour long. How long such a frame
 * takes is measured by bench/bench-plot.c (benchmark 6), not here. */
static void
test_plot_live_redraw (void)
{
  static const double seconds[] = { 60, 3600 };
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);

  for (guint k = 0; k < G_N_ELEMENTS (seconds); k++)
    {
      g_autoptr(RpSeries) series = make_series ("mainloop_lateness", "s", 100, seconds[k]);
      g_autoptr(RpPlot) plot = rp_plot_new ("live", "s");
      double t0 = 0, t1 = seconds[k] * 1.1, t_new = seconds[k] * 1.05;

      rp_plot_add_series (plot, "mainloop_lateness", NULL, RP_PLOT_LINE);
      rp_plot_bind_series (plot, "mainloop_lateness", series);
      rp_plot_set_time_range (plot, t0, t1);
      draw (plot, surface);
      /* Nothing reaches 2 s yet (make_series() stays below 0.6 s). */
      g_assert_cmpfloat (read_max_at (plot, t_new, t0, t1), <, 1);

      for (int i = 0; i < 5; i++)
        {
          /* One more stretch of samples between two frames. */
          double from = seconds[k] + i * (t_new - seconds[k]) / 5;

          for (int n = 1; n <= 100; n++)
            rp_series_append (series, from + n * (t_new - seconds[k]) / 500, 2.0);
          draw (plot, surface);
          g_assert_cmpfloat (read_max_at (plot, from + (t_new - seconds[k]) / 5, t0, t1), ==, 2.0);
        }
      g_assert_cmpfloat (read_max_at (plot, t_new, t0, t1), ==, 2.0);
    }
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
  draw (plot, surface);
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
  g_clear_error (&error);

  /* A folder that does not exist: each format, of one plot and of all, fails
   * with an I/O error naming the file (finish_surface() serves both). */
  for (guint i = 0; i < G_N_ELEMENTS (formats); i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/missing/chart.%s", dir, formats[i]);
      RpPlot *plots[] = { plot, plot };

      g_assert_false (rp_plot_save (plot, path, formats[i], WIDTH, HEIGHT, NULL, &error));
      g_assert_error (error, RP_ERROR, RP_ERROR_IO);
      g_assert_nonnull (strstr (error->message, path));
      g_clear_error (&error);
      /* Several charts in one file: a PNG (a comparison's PDF is
       * rp_comparison_render_pdf()'s). */
      if (!g_str_equal (formats[i], "png"))
        continue;
      g_assert_false (rp_plot_save_all (plots, G_N_ELEMENTS (plots), path, formats[i],
                                        WIDTH, HEIGHT, NULL, &error));
      g_assert_error (error, RP_ERROR, RP_ERROR_IO);
      g_assert_nonnull (strstr (error->message, path));
      g_clear_error (&error);
    }
  g_assert_cmpint (g_rmdir (dir), ==, 0);
}

/* ---- the raster path (image and GTK's recording surfaces) against the
 * vector path (PDF, SVG) ---- */

/* Ragged latency-like values (as bench-plot's) with a gap of a minute, so
 * that bars meet jumps and step over empty columns. */
static RpSeries *
make_ragged_series (const char *name,
                    guint       seed,
                    double      rate,
                    double      seconds)
{
  RpSeries *series = rp_series_new (name, "s", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint n = (guint) (rate * seconds);

  for (guint i = 0; i < n; i++)
    {
      double t = i / rate;
      double v = 1e-4 * (1 + 3 * -log (1 - g_rand_double (rand)));

      if (t > seconds / 2 && t < seconds / 2 + 60)
        continue;
      if (i % 797 == seed)
        v += 0.3 * g_rand_double (rand);
      rp_series_append (series, t, v);
    }
  return series;
}

/* Four dense line series (the window's chart) and, in @stacked, three dense
 * stacked areas under a dense line (the CPU chart). One series colour is
 * translucent, so that a pixel column blended twice would show. */
static RpPlot *
make_dense_plot (gboolean      stacked,
                 RpPlotStyle  *style,
                 GPtrArray    *keep)
{
  static const char *lines[] = { "a", "b", "c", "d" };
  static const char *areas[] = { "user", "system", "iowait" };
  RpPlot *plot = rp_plot_new ("dense", stacked ? "ratio" : "s");

  rp_plot_style_init_default (style, FALSE);
  style->palette[1].alpha = 0.6;
  if (stacked)
    {
      rp_plot_set_y_range (plot, 0, 1);
      for (guint k = 0; k < G_N_ELEMENTS (areas); k++)
        {
          RpSeries *series = rp_series_new (areas[k], "ratio", NULL);

          for (guint i = 0; i < 3000; i++)
            rp_series_append (series, i * 0.5, 0.1 + 0.08 * (k + 1) * (1 + sin (i * 0.05 * (k + 1))));
          rp_plot_add_series (plot, areas[k], NULL, RP_PLOT_STACKED_AREA);
          rp_plot_bind_series (plot, areas[k], series);
          g_ptr_array_add (keep, series);
        }
    }
  for (guint k = 0; k < (stacked ? 1 : G_N_ELEMENTS (lines)); k++)
    {
      RpSeries *series = make_ragged_series (lines[k], k + 1, stacked ? 2 : 100, stacked ? 1500 : 600);

      rp_plot_add_series (plot, lines[k], NULL, RP_PLOT_LINE);
      rp_plot_bind_series (plot, lines[k], series);
      g_ptr_array_add (keep, series);
    }
  if (!stacked)
    {
      rp_plot_set_log_y (plot, TRUE);
      rp_plot_add_threshold (plot, 0.1, "0.1 s");
    }
  return plot;
}

/* Pixels of two images of the same size that differ by more than @tolerance
 * in a channel. */
static guint
count_differences (cairo_surface_t *a,
                   cairo_surface_t *b,
                   guint            tolerance)
{
  int width = cairo_image_surface_get_width (a), height = cairo_image_surface_get_height (a);
  int stride = cairo_image_surface_get_stride (a) / 4;
  const guint32 *pa, *pb;
  guint n = 0;

  g_assert_cmpint (width, ==, cairo_image_surface_get_width (b));
  g_assert_cmpint (height, ==, cairo_image_surface_get_height (b));
  cairo_surface_flush (a);
  cairo_surface_flush (b);
  pa = (const guint32 *) (gpointer) cairo_image_surface_get_data (a);
  pb = (const guint32 *) (gpointer) cairo_image_surface_get_data (b);
  for (int i = 0; i < height * stride; i++)
    for (guint shift = 0; shift < 32; shift += 8)
      if ((guint) ABS ((int) ((pa[i] >> shift) & 0xff) - (int) ((pb[i] >> shift) & 0xff)) > tolerance)
        {
          n++;
          break;
        }
  return n;
}

static cairo_surface_t *
draw_image (RpPlot            *plot,
            const RpPlotStyle *style,
            gboolean           force_vector)
{
  cairo_surface_t *surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_t *cr = cairo_create (surface);

  rp_plot_set_force_vector (plot, force_vector);
  rp_plot_draw (plot, cr, WIDTH, HEIGHT, style);
  cairo_destroy (cr);
  return surface;
}

/* The layer written by hand must give the pixels that cairo's fill of the
 * boxes gives: the same picture on screen as in a PDF. */
static void
test_plot_raster_matches_vector (void)
{
  for (int stacked = 0; stacked <= 1; stacked++)
    {
      g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func (g_object_unref);
      RpPlotStyle style;
      g_autoptr(RpPlot) plot = make_dense_plot (stacked, &style, keep);
      cairo_surface_t *vector = draw_image (plot, &style, TRUE);
      cairo_surface_t *raster = draw_image (plot, &style, FALSE);
      guint ink = count_ink (vector);
      guint off = count_differences (vector, raster, 0), far = count_differences (vector, raster, 2);

      g_test_message ("%s: %u pixels of ink, %u differ, %u by more than 2 levels",
                      stacked ? "stacked" : "lines", ink, off, far);
      /* Dense enough to take the bars; rounding may differ where translucent
       * colours meet, nothing more. */
      g_assert_cmpuint (ink, >, WIDTH * HEIGHT / 10);
      g_assert_cmpuint (far, ==, 0);
      g_assert_cmpuint (off, <=, ink / 100);

      /* The next frame reuses the layer: it must start clean. */
      cairo_surface_destroy (raster);
      raster = draw_image (plot, &style, FALSE);
      g_assert_cmpuint (count_differences (vector, raster, 2), ==, 0);
      cairo_surface_destroy (vector);
      cairo_surface_destroy (raster);
    }
}

/* GTK records the data layer on a recording surface the size of a strip,
 * then replays it at the screen's scale: a layer of pixels must come out as
 * crisp as boxes drawn at that scale (whole device pixels, no blur). */
static void
test_plot_raster_scaled (void)
{
  g_autoptr(GPtrArray) keep = g_ptr_array_new_with_free_func (g_object_unref);
  RpPlotStyle style;
  g_autoptr(RpPlot) plot = make_dense_plot (FALSE, &style, keep);
  cairo_surface_t *vector = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 2 * WIDTH, 2 * HEIGHT);
  cairo_surface_t *replayed = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 2 * WIDTH, 2 * HEIGHT);
  cairo_surface_t *recording;
  cairo_t *cr;
  double x, width;
  guint far;

  rp_plot_prepare (plot, WIDTH, HEIGHT, &style);
  g_assert_true (rp_plot_get_area (plot, &x, NULL, &width, NULL));

  rp_plot_set_force_vector (plot, TRUE);
  cr = cairo_create (vector);
  cairo_scale (cr, 2, 2);
  rp_plot_draw_data (plot, cr, &style);
  cairo_destroy (cr);

  /* In two strips, as the widget draws it. */
  rp_plot_set_force_vector (plot, FALSE);
  for (int strip = 0; strip < 2; strip++)
    {
      double x0 = strip == 0 ? 0 : x + 100, x1 = strip == 0 ? x + 100 : WIDTH;

      recording = cairo_recording_surface_create (CAIRO_CONTENT_COLOR_ALPHA,
                                                  &(cairo_rectangle_t) { x0, 0, x1 - x0, HEIGHT });
      cr = cairo_create (recording);
      cairo_rectangle (cr, x0, 0, x1 - x0, HEIGHT);
      cairo_clip (cr);
      rp_plot_draw_data (plot, cr, &style);
      cairo_destroy (cr);

      cr = cairo_create (replayed);
      cairo_scale (cr, 2, 2);
      cairo_set_source_surface (cr, recording, 0, 0);
      cairo_paint (cr);
      cairo_destroy (cr);
      cairo_surface_destroy (recording);
    }

  far = count_differences (vector, replayed, 2);
  g_test_message ("scale 2: %u of %u ink pixels differ", far, count_ink (vector));
  g_assert_cmpuint (far, <=, 4 * HEIGHT);
  cairo_surface_destroy (vector);
  cairo_surface_destroy (replayed);
}

/* ---- threshold labels ---- */

/* The label of the 0.1 s line (@label, or none) must not share a pixel with
 * the data, with room around the line or none (@crowded). Returns the
 * frame's pixels off the line's row: the label's, and the line's edges. */
static guint
check_threshold_label (gboolean    crowded,
                       const char *label)
{
  g_autoptr(RpPlot) plot = rp_plot_new (NULL, "s");
  g_autoptr(RpSeries) series = rp_series_new ("frame_interval", "s", NULL);
  cairo_surface_t *frame = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  cairo_surface_t *data = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, WIDTH, HEIGHT);
  const guint32 *pf, *pd;
  RpPlotStyle style;
  guint text = 0, shared = 0;
  double threshold_y;
  cairo_t *cr;
  int stride;

  /* Just below and just above the line at the right end, where the label
   * used to go; on the left, far below it unless crowded. */
  for (guint i = 0; i < 600; i++)
    rp_series_append (series, i * 0.1, i < 400 && !crowded ? 1e-3 : (i % 2 ? 0.07 : 0.14));
  rp_plot_add_series (plot, "frame_interval", "frames", RP_PLOT_LINE);
  rp_plot_bind_series (plot, "frame_interval", series);
  rp_plot_set_log_y (plot, TRUE);
  rp_plot_add_threshold (plot, 0.1, label);

  /* Only the threshold shows in the frame: its line and its label. */
  rp_plot_style_init_default (&style, FALSE);
  style.foreground.alpha = style.grid.alpha = style.background.alpha = 0;
  rp_plot_prepare (plot, WIDTH, HEIGHT, &style);
  cr = cairo_create (frame);
  rp_plot_draw_frame (plot, cr, &style);
  cairo_destroy (cr);
  cr = cairo_create (data);
  rp_plot_draw_data (plot, cr, &style);
  cairo_destroy (cr);

  cairo_surface_flush (frame);
  cairo_surface_flush (data);
  pf = (const guint32 *) (gpointer) cairo_image_surface_get_data (frame);
  pd = (const guint32 *) (gpointer) cairo_image_surface_get_data (data);
  stride = cairo_image_surface_get_stride (frame) / 4;
  /* The dashed line is the row with the most threshold pixels. */
  threshold_y = 0;
  for (int y = 0, best = 0; y < HEIGHT; y++)
    {
      int n = 0;

      for (int x = 0; x < WIDTH; x++)
        n += pf[y * stride + x] != 0;
      if (n > best)
        best = n, threshold_y = y;
    }
  for (int y = 0; y < HEIGHT; y++)
    for (int x = 0; x < WIDTH; x++)
      if (fabs (y - threshold_y) > 0.5 && pf[y * stride + x] != 0)
        {
          text++;
          shared += pd[y * stride + x] != 0;
        }
  g_test_message ("%s, %s: %u pixels off the line, %u over data", crowded ? "crowded" : "room",
                  label ? label : "no label", text, shared);
  g_assert_cmpuint (shared, ==, 0);
  cairo_surface_destroy (frame);
  cairo_surface_destroy (data);
  return text;
}

static void
test_plot_threshold_label_avoids_data (void)
{
  /* With room or crowded, the label shows (issue 21: after a run one
   * vanished), and never over data. */
  g_assert_cmpuint (check_threshold_label (FALSE, "0.1 s"), >, check_threshold_label (FALSE, NULL) + 20);
  g_assert_cmpuint (check_threshold_label (TRUE, "0.1 s"), >, check_threshold_label (TRUE, NULL) + 20);
}

/* Pixels of the data layer inside a box: none may be drawn there. */
static guint
data_pixels_in (cairo_surface_t *data,
                double           x,
                double           y,
                double           width,
                double           height)
{
  const guint32 *pixels;
  int stride, w = cairo_image_surface_get_width (data), h = cairo_image_surface_get_height (data);
  guint n = 0;

  cairo_surface_flush (data);
  pixels = (const guint32 *) (gpointer) cairo_image_surface_get_data (data);
  stride = cairo_image_surface_get_stride (data) / 4;
  for (int py = MAX ((int) floor (y), 0); py < MIN ((int) ceil (y + height), h); py++)
    for (int px = MAX ((int) floor (x), 0); px < MIN ((int) ceil (x + width), w); px++)
      n += pixels[py * stride + px] != 0;
  return n;
}

/* Issue 21: "0.1 s" sat on a 249 ms main-loop stall and its span, a label
 * vanished after a run, comparison labels stayed mid-chart after a resize.
 * A full chart (a stall span over the right end, points all over the band
 * of both limits) at several sizes, each prepared after the one before as
 * a resized window does: every label is shown, and the data layer has no
 * pixel inside any label's box (the render layer knows both). */
static void
test_plot_label_boxes_clear_of_data (void)
{
  static const int sizes[][2] = { { 800, 240 }, { 340, 180 }, { 1800, 500 }, { 600, 160 } };
  g_autoptr(RpPlot) plot = rp_plot_new ("Main loop", "s");
  g_autoptr(RpSeries) loop = rp_series_new ("mainloop_lateness", "s", NULL);
  g_autoptr(RpSeries) fsync = rp_series_new ("fsync_latency", "s", NULL);
  RpPlotSpan span = { (char *) "fsync_latency", 50, 60, FALSE, NULL };
  RpPlotStyle style;

  for (guint i = 0; i < 600; i++)
    {
      rp_series_append (loop, i * 0.1, i % 3 == 0 ? 0.249 : i % 3 == 1 ? 0.09 : 1.2);
      rp_series_append (fsync, i * 0.1, i % 2 ? 0.11 : 0.95);
    }
  rp_plot_add_series (plot, "mainloop_lateness", "main loop", RP_PLOT_LINE);
  rp_plot_bind_series (plot, "mainloop_lateness", loop);
  rp_plot_add_series (plot, "fsync_latency", "fsync", RP_PLOT_LINE);
  rp_plot_bind_series (plot, "fsync_latency", fsync);
  rp_plot_set_spans (plot, &span, 1);
  rp_plot_set_log_y (plot, TRUE);
  rp_plot_add_threshold (plot, 0.1, "0.1 s");
  rp_plot_add_threshold (plot, 1.0, "1 s");
  rp_plot_style_init_default (&style, FALSE);
  style.background.alpha = 0;

  for (guint k = 0; k < G_N_ELEMENTS (sizes); k++)
    {
      cairo_surface_t *data = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, sizes[k][0], sizes[k][1]);
      double area_x, area_w;
      cairo_t *cr;

      rp_plot_prepare (plot, sizes[k][0], sizes[k][1], &style);
      cr = cairo_create (data);
      rp_plot_draw_data (plot, cr, &style);
      cairo_destroy (cr);
      g_assert_true (rp_plot_get_area (plot, &area_x, NULL, &area_w, NULL));
      g_assert_cmpuint (data_pixels_in (data, 0, 0, sizes[k][0], sizes[k][1]), >, 1000);
      for (guint t = 0; t < 2; t++)
        {
          double x, y, width, height;

          g_assert_true (rp_plot_get_threshold_label (plot, t, &x, &y, &width, &height));
          g_test_message ("%d×%d: label %u at %.0f,%.0f %.0f×%.0f", sizes[k][0], sizes[k][1], t, x, y, width, height);
          g_assert_cmpfloat (width, >, 5);
          g_assert_cmpuint (data_pixels_in (data, x, y, width, height), ==, 0);
          /* At the right end, not stranded where a narrower chart had it. */
          g_assert_cmpfloat (x, >=, area_x + area_w);
          g_assert_cmpfloat (x + width, <=, sizes[k][0]);
        }
      cairo_surface_destroy (data);
    }
}

/* Issue 18: "a finished stall is drawn as a span from its start to its end,
 * not a point joined to its neighbours by a slope". A 9.85 s fsync at 5 s
 * and the next sample at 15 s: without the span the line ramps across the
 * middle of the chart (the control), with it the middle column holds the
 * faint band only, no opaque pixel of a line below the span's top bar. */
static guint
opaque_pixels_mid_chart (gboolean with_span,
                         gboolean with_gap)
{
  g_autoptr(RpPlot) plot = rp_plot_new ("Disk call latency", "s");
  g_autoptr(RpSeries) fsync = rp_series_new ("fsync_latency", "s", NULL);
  RpPlotSpan span = { (char *) "fsync_latency", 5, 15, FALSE, NULL };
  const double gap[] = { 5, 15 };
  cairo_surface_t *data = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 800, 240);
  const guint32 *pixels;
  double area_x, area_y, area_w, area_h;
  RpPlotStyle style;
  cairo_t *cr;
  int stride;
  guint n = 0;

  for (guint i = 0; i <= 20; i++)
    if (i <= 5 || i >= 15)
      rp_series_append (fsync, i, i == 5 ? 9.85 : 0.005);
  rp_plot_add_series (plot, "fsync_latency", "fsync", RP_PLOT_LINE);
  rp_plot_bind_series (plot, "fsync_latency", fsync);
  if (with_span)
    rp_plot_set_spans (plot, &span, 1);
  if (with_gap)
    rp_plot_set_gaps (plot, gap, 1);
  rp_plot_set_log_y (plot, TRUE);
  rp_plot_style_init_default (&style, FALSE);
  style.background.alpha = 0;
  rp_plot_prepare (plot, 800, 240, &style);
  cr = cairo_create (data);
  rp_plot_draw_data (plot, cr, &style);
  cairo_destroy (cr);
  g_assert_true (rp_plot_get_area (plot, &area_x, &area_y, &area_w, &area_h));
  cairo_surface_flush (data);
  pixels = (const guint32 *) (gpointer) cairo_image_surface_get_data (data);
  stride = cairo_image_surface_get_stride (data) / 4;
  for (int py = (int) area_y + 4; py < (int) (area_y + area_h); py++)
    for (int px = (int) (area_x + area_w / 2) - 2; px <= (int) (area_x + area_w / 2) + 2; px++)
      n += (pixels[py * stride + px] >> 24) > 128;
  cairo_surface_destroy (data);
  return n;
}

static void
test_plot_span_breaks_line (void)
{
  g_assert_cmpuint (opaque_pixels_mid_chart (FALSE, FALSE), >, 0);
  g_assert_cmpuint (opaque_pixels_mid_chart (TRUE, FALSE), ==, 0);
}

/* Issue 33: where the measuring process stood still (a SIGSTOP of 10 s),
 * no line is drawn across the gap, as across a stall's span; nor anything
 * else (a gap has no band). */
static void
test_plot_gap_breaks_line (void)
{
  g_assert_cmpuint (opaque_pixels_mid_chart (FALSE, FALSE), >, 0);
  g_assert_cmpuint (opaque_pixels_mid_chart (FALSE, TRUE), ==, 0);
}

/* Issue 21, item 6: a series may have a colour of its own (a comparison's
 * run keeps its colour whatever its place); the others follow the order. */
static void
test_plot_series_color (void)
{
  g_autoptr(RpPlot) plot = rp_plot_new ("runs", "s");

  rp_plot_add_series_colored (plot, "run-0", "writeback", RP_PLOT_LINE, 2);
  rp_plot_add_series_colored (plot, "run-1", "ordered", RP_PLOT_LINE, RP_PLOT_PALETTE_SIZE);
  rp_plot_add_series (plot, "run-2", "other", RP_PLOT_LINE);
  g_assert_cmpint (rp_plot_get_series_color (plot, "run-0"), ==, 2);
  g_assert_cmpint (rp_plot_get_series_color (plot, "run-1"), ==, 0);
  g_assert_cmpint (rp_plot_get_series_color (plot, "run-2"), ==, 2);
  g_assert_cmpint (rp_plot_get_series_color (plot, "missing"), ==, -1);
}

/* Every chart of the catalog has grid cells of its own: two charts on one
 * cell draw one over the other in the window's grid, and the one beneath
 * is never seen (the kernel events' chart was, under the device's). */
static void
test_plot_catalog_cells_apart (void)
{
  guint n = rp_plot_catalog_get_n_plots ();
  g_autoptr(GHashTable) taken = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint i = 0; i < n; i++)
    {
      RpPlotPlacement placement;
      g_autoptr(RpPlot) plot = rp_plot_catalog_new_plot (i, &placement);

      g_assert_nonnull (plot);
      g_assert_cmpuint (placement.column + placement.width, <=, 2);
      for (guint c = placement.column; c < placement.column + placement.width; c++)
        {
          char *cell = g_strdup_printf ("%u,%u", placement.row, c);
          const char *other = g_hash_table_lookup (taken, cell);

          if (other != NULL)
            g_error ("charts “%s” and “%s” share the grid cell %s", other, placement.id, cell);
          g_hash_table_insert (taken, cell, g_strdup (placement.id));
        }
    }
  g_assert_cmpuint (g_hash_table_size (taken), >=, n);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/plot/draws", test_plot_draws);
  g_test_add_func ("/plot/huge-time-range", test_plot_huge_time_range);
  g_test_add_func ("/plot/live-redraw", test_plot_live_redraw);
  g_test_add_func ("/plot/stacked-and-readout", test_plot_stacked_and_readout);
  g_test_add_func ("/plot/units", test_plot_units);
  g_test_add_func ("/plot/save", test_plot_save);
  g_test_add_func ("/plot/raster-matches-vector", test_plot_raster_matches_vector);
  g_test_add_func ("/plot/raster-scaled", test_plot_raster_scaled);
  g_test_add_func ("/plot/threshold-label-avoids-data", test_plot_threshold_label_avoids_data);
  g_test_add_func ("/plot/label-boxes-clear-of-data", test_plot_label_boxes_clear_of_data);
  g_test_add_func ("/plot/span-breaks-line", test_plot_span_breaks_line);
  g_test_add_func ("/plot/gap-breaks-line", test_plot_gap_breaks_line);
  g_test_add_func ("/plot/series-color", test_plot_series_color);
  g_test_add_func ("/plot/catalog-cells-apart", test_plot_catalog_cells_apart);

  return g_test_run ();
}
