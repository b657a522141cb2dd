/* bench-plot.c: benchmark 6, the chart renderer's cost per frame for a long run and a short one. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rp-clock.h"
#include "rp-plot.h"

/* Four latency series at 100 Hz, drawn 1280 × 300 as the window's "This
 * window" chart is (log y axis, the 0.1 s and 1 s limit lines). Two frame kinds, because the GUI meets both:
 *  cold: the decimation cache is invalid (a resize, the time axis stepping to
 *        a longer range, a theme change): every point is read again;
 *  live: the time range stays put and each series got one new point since
 *        the last frame (a running session): only new columns are decimated,
 *        but the data layer is still drawn whole.
 * The figure is the median over the frames; the driver compares 360 000
 * points (1 h) with 6 000 (1 min). A third argument names a PNG file for
 * the last live frame.
 *
 * Then, beside the figures: how long a worker's rp_series_append() waits
 * while cold frames decimate the series it appends to (a probe at 1 kHz on
 * another thread), since workers must not stall behind the chart. */

#define N_SERIES 4
#define RATE     100.0

static const char *names[N_SERIES] = {
  "mainloop_lateness", "frame_interval", "input_latency", "wakeup_latency",
};
static const char *labels[N_SERIES] = { "main loop", "frames", "input", "wake-up" };

/* Latency-like values: a floor with exponential noise and rare stalls, so that
 * the per-column envelope is as ragged as a real run's (the worst case for
 * drawing: no column is flat). */
static double
sample (GRand *rand,
        guint  i)
{
  double v = 1e-4 * (1 + 3 * -log (1 - g_rand_double (rand)));

  if (i % 1999 == 0)
    v += 0.2 * g_rand_double (rand);
  return v;
}

/* A worker appending to a series at about 1 kHz, timing each append. */
typedef struct {
  RpSeries *series;
  double    t;
  gint      stop;
  GArray   *waits;    /* double, seconds */
} Appender;

static gpointer
append_loop (gpointer data)
{
  Appender *a = data;

  while (!g_atomic_int_get (&a->stop))
    {
      double start = rp_clock_now (), wait;

      rp_series_append (a->series, a->t, 1e-4);
      wait = rp_clock_now () - start;
      g_array_append_val (a->waits, wait);
      a->t += 1e-3;
      g_usleep (1000);
    }
  return NULL;
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y;
}

static double
median (double *values,
        guint   n)
{
  qsort (values, n, sizeof *values, compare_doubles);
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

static double
draw_once (RpPlot          *plot,
           cairo_surface_t *surface,
           int              width,
           int              height)
{
  cairo_t *cr = cairo_create (surface);
  double start = rp_clock_now (), elapsed;

  rp_plot_draw (plot, cr, width, height, NULL);
  /* Cairo may defer work to the flush: count it. */
  cairo_surface_flush (surface);
  elapsed = rp_clock_now () - start;
  cairo_destroy (cr);
  return elapsed;
}

/* A cold frame: a range that differs from the last one in the last bit
 * invalidates the decimation cache without changing what is drawn. Not
 * inlined, nor draw_live(), so that a profile tells the two kinds of frame
 * apart: valgrind --tool=callgrind --toggle-collect='draw_cold*'. */
static G_NO_INLINE double
draw_cold (RpPlot          *plot,
           cairo_surface_t *surface,
           int              width,
           int              height,
           double           t_end)
{
  rp_plot_set_time_range (plot, 0, t_end);
  return draw_once (plot, surface, width, height);
}

/* A live frame: each series got one new point since the last frame. */
static G_NO_INLINE double
draw_live (RpPlot          *plot,
           RpSeries       **series,
           guint            index,
           GRand           *rand,
           cairo_surface_t *surface,
           int              width,
           int              height)
{
  for (guint s = 0; s < N_SERIES; s++)
    rp_series_append (series[s], index / RATE, sample (rand, index));
  return draw_once (plot, surface, width, height);
}

int
main (int   argc,
      char *argv[])
{
  guint n_points = 360000, n_frames = 60;
  int width = 1280, height = 300;
  g_autoptr(RpPlot) plot = rp_plot_new ("This window", "s");
  RpSeries *series[N_SERIES];
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autofree double *cold = NULL, *live = NULL;
  cairo_surface_t *surface;
  double t_end, cold_median, live_median, wait_max, wait_p99;

  if (argc > 1)
    n_points = (guint) g_ascii_strtoull (argv[1], NULL, 10);
  if (argc > 2)
    n_frames = (guint) g_ascii_strtoull (argv[2], NULL, 10);
  if (n_points == 0 || n_frames == 0)
    {
      fprintf (stderr, "usage: %s [POINTS_PER_SERIES [FRAMES [PNG]]]\n", argv[0]);
      return 2;
    }

  for (guint s = 0; s < N_SERIES; s++)
    {
      series[s] = rp_series_new (names[s], "s", NULL);
      rp_plot_add_series (plot, names[s], labels[s], RP_PLOT_LINE);
      rp_plot_bind_series (plot, names[s], series[s]);
      for (guint i = 0; i < n_points; i++)
        rp_series_append (series[s], i / RATE, sample (rand, i));
    }
  rp_plot_set_log_y (plot, TRUE);
  rp_plot_add_threshold (plot, 0.1, "0.1 s");
  rp_plot_add_threshold (plot, 1.0, "1 s");
  /* As the window does: a fixed range a little ahead of the data. */
  t_end = n_points / RATE * 1.1;
  rp_plot_set_time_range (plot, 0, t_end);

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, width, height);
  cold = g_new (double, n_frames);
  live = g_new (double, n_frames);

  /* Warm up fonts and caches once. */
  draw_once (plot, surface, width, height);

  for (guint f = 0; f < n_frames; f++)
    cold[f] = draw_cold (plot, surface, width, height, t_end * (f % 2 ? 1 + 1e-12 : 1 - 1e-12));

  rp_plot_set_time_range (plot, 0, t_end);
  draw_once (plot, surface, width, height);
  for (guint f = 0; f < n_frames; f++)
    live[f] = draw_live (plot, series, n_points + f, rand, surface, width, height);

  /* The last live frame, to compare renderings before and after a change. */
  if (argc > 3 && cairo_surface_write_to_png (surface, argv[3]) != CAIRO_STATUS_SUCCESS)
    fprintf (stderr, "%s: could not write %s\n", argv[0], argv[3]);

  /* Cold frames (every point read again) while a worker appends, after
   * the end of the time range so that they change nothing drawn. */
  {
    Appender appender = { series[0], t_end + 1, 0, g_array_new (FALSE, FALSE, sizeof (double)) };
    GThread *thread = g_thread_new ("appender", append_loop, &appender);

    for (guint f = 0; f < n_frames; f++)
      draw_cold (plot, surface, width, height, t_end * (f % 2 ? 1 + 1e-12 : 1 - 1e-12));
    g_atomic_int_set (&appender.stop, 1);
    g_thread_join (thread);
    qsort (appender.waits->data, appender.waits->len, sizeof (double), compare_doubles);
    wait_max = appender.waits->len > 0 ? g_array_index (appender.waits, double, appender.waits->len - 1) : 0;
    wait_p99 = appender.waits->len > 0 ? g_array_index (appender.waits, double, appender.waits->len * 99 / 100) : 0;
    g_array_unref (appender.waits);
  }

  /* median() sorts: [0] is then the minimum. */
  cold_median = median (cold, n_frames);
  live_median = median (live, n_frames);
  /* The median is the figure; the minimum, what a frame costs when nothing
   * else competes for the CPU, helps to compare code changes on a busy machine. */
  printf ("{\"points\": %u, \"series\": %d, \"width\": %d, \"frames\": %u, "
          "\"cold_ms\": %.4f, \"live_ms\": %.4f, \"cold_min_ms\": %.4f, \"live_min_ms\": %.4f, "
          "\"append_wait_p99_ms\": %.4f, \"append_wait_max_ms\": %.4f}\n",
          n_points, N_SERIES, width, n_frames, cold_median * 1e3, live_median * 1e3,
          cold[0] * 1e3, live[0] * 1e3, wait_p99 * 1e3, wait_max * 1e3);

  cairo_surface_destroy (surface);
  for (guint s = 0; s < N_SERIES; s++)
    g_object_unref (series[s]);
  return 0;
}
