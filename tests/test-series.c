/* test-series.c: append from threads, copies, bounds and per-column decimation. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>

#include "rp-series.h"

#define N_THREADS 4
#define N_PER_THREAD 10000

static gpointer
append_many (gpointer data)
{
  RpSeries *series = data;

  for (guint i = 0; i < N_PER_THREAD; i++)
    rp_series_append (series, i, 1);
  return NULL;
}

static void
test_concurrent_append (void)
{
  g_autoptr(RpSeries) series = rp_series_new ("x", "s", NULL);
  GThread *threads[N_THREADS];
  RpStats stats;

  for (guint i = 0; i < N_THREADS; i++)
    threads[i] = g_thread_new ("append", append_many, series);
  for (guint i = 0; i < N_THREADS; i++)
    g_thread_join (threads[i]);

  g_assert_cmpuint (rp_series_get_length (series), ==, N_THREADS * N_PER_THREAD);
  rp_series_compute_stats (series, &stats);
  g_assert_cmpfloat (stats.mean, ==, 1);
}

static void
test_copy_and_bounds (void)
{
  g_autoptr(RpSeries) series = rp_series_new ("fsync_latency", "s", "fsync latency");
  g_autofree RpPoint *tail = NULL;
  double t_min, t_max, v_min, v_max;
  RpPoint last;
  guint n;

  g_assert_false (rp_series_get_bounds (series, NULL, NULL, NULL, NULL));
  g_assert_false (rp_series_get_last (series, &last));
  rp_series_append (series, 0.5, 2.0);
  rp_series_append (series, 1.5, 0.25);
  rp_series_append (series, 2.5, 10.0);
  rp_series_append (series, 3.5, NAN);   /* dropped */

  g_assert_cmpuint (rp_series_get_length (series), ==, 3);
  g_assert_true (rp_series_get_bounds (series, &t_min, &t_max, &v_min, &v_max));
  g_assert_cmpfloat (t_min, ==, 0.5);
  g_assert_cmpfloat (t_max, ==, 2.5);
  g_assert_cmpfloat (v_min, ==, 0.25);
  g_assert_cmpfloat (v_max, ==, 10.0);

  tail = rp_series_copy_points (series, 1, &n);
  g_assert_cmpuint (n, ==, 2);
  g_assert_cmpfloat (tail[0].v, ==, 0.25);
  g_assert_null (rp_series_copy_points (series, 3, &n));
  g_assert_cmpuint (n, ==, 0);
  g_assert_true (rp_series_get_last (series, &last));
  g_assert_cmpfloat (last.t, ==, 2.5);
  g_assert_cmpstr (rp_series_get_title (series), ==, "fsync latency");
}

static void
test_decimate (void)
{
  g_autoptr(RpSeries) series = rp_series_new ("x", "s", NULL);
  RpColumn columns[10];

  /* 100 points over [0, 10), value = t: column c holds t in [c, c+1). */
  for (guint i = 0; i < 100; i++)
    rp_series_append (series, i * 0.1, i * 0.1);

  rp_series_decimate (series, 0, 10, 10, columns);
  for (guint c = 0; c < 10; c++)
    {
      g_assert_cmpuint (columns[c].n, ==, 10);
      g_assert_cmpfloat_with_epsilon (columns[c].min, c, 1e-9);
      g_assert_cmpfloat_with_epsilon (columns[c].max, c + 0.9, 1e-9);
      g_assert_cmpfloat_with_epsilon (columns[c].mean, c + 0.45, 1e-9);
    }

  /* A window: points outside are not counted; empty columns stay empty. */
  rp_series_decimate (series, 20, 30, 10, columns);
  for (guint c = 0; c < 10; c++)
    g_assert_cmpuint (columns[c].n, ==, 0);
  rp_series_decimate (series, 4.95, 6.05, 2, columns);
  g_assert_cmpuint (columns[0].n + columns[1].n, ==, 11);   /* 5.0 … 6.0 inclusive */
}

/* The block summaries must give exactly what visiting every point gives. */
static void
test_decimate_matches_brute_force (void)
{
  g_autoptr(RpSeries) series = rp_series_new ("x", "s", NULL);
  g_autoptr(GRand) rand = g_rand_new_with_seed (12309);
  g_autofree RpPoint *points = NULL;
  guint n_points;

  for (guint i = 0; i < 50000; i++)
    rp_series_append (series, i * 0.01, g_rand_double_range (rand, -1, 1));
  points = rp_series_copy_points (series, 0, &n_points);
  g_assert_cmpuint (n_points, ==, 50000);

  for (guint round = 0; round < 50; round++)
    {
      double t0 = g_rand_double_range (rand, -10, 400);
      double t1 = t0 + g_rand_double_range (rand, 0.5, 600);
      guint n_columns = (guint) g_rand_int_range (rand, 1, 2000);
      g_autofree RpColumn *fast = g_new (RpColumn, n_columns);
      g_autofree RpColumn *slow = g_new0 (RpColumn, n_columns);
      double scale = n_columns / (t1 - t0);

      rp_series_decimate (series, t0, t1, n_columns, fast);
      for (guint i = 0; i < n_points; i++)
        {
          guint c;

          if (points[i].t < t0 || points[i].t > t1)
            continue;
          c = MIN ((guint) ((points[i].t - t0) * scale), n_columns - 1);
          if (slow[c].n == 0)
            slow[c].min = slow[c].max = points[i].v;
          slow[c].min = MIN (slow[c].min, points[i].v);
          slow[c].max = MAX (slow[c].max, points[i].v);
          slow[c].mean += points[i].v;
          slow[c].n++;
        }
      for (guint c = 0; c < n_columns; c++)
        {
          g_assert_cmpuint (fast[c].n, ==, slow[c].n);
          if (slow[c].n == 0)
            continue;
          g_assert_cmpfloat (fast[c].min, ==, slow[c].min);
          g_assert_cmpfloat (fast[c].max, ==, slow[c].max);
          g_assert_cmpfloat_with_epsilon (fast[c].mean, slow[c].mean / slow[c].n, 1e-9);
        }
    }
}

/* The reference for rp_series_decimate(): every point, one by one, with the
 * same column formula; sums in point order. */
static void
decimate_brute_force (const RpPoint *points,
                      guint          n_points,
                      double         t0,
                      double         t1,
                      guint          n_columns,
                      RpColumn      *columns,
                      double        *abs_sums)
{
  double scale = n_columns / (t1 - t0);

  for (guint c = 0; c < n_columns; c++)
    {
      columns[c] = (RpColumn) { 0, 0, 0, 0 };
      abs_sums[c] = 0;
    }
  for (guint i = 0; i < n_points; i++)
    {
      guint c;

      if (points[i].t < t0 || points[i].t > t1)
        continue;
      c = MIN ((guint) ((points[i].t - t0) * scale), n_columns - 1);
      if (columns[c].n == 0)
        columns[c].min = columns[c].max = points[i].v;
      columns[c].min = MIN (columns[c].min, points[i].v);
      columns[c].max = MAX (columns[c].max, points[i].v);
      columns[c].mean += points[i].v;
      abs_sums[c] += fabs (points[i].v);
      columns[c].n++;
    }
  for (guint c = 0; c < n_columns; c++)
    if (columns[c].n > 0)
      {
        columns[c].mean /= columns[c].n;
        abs_sums[c] /= columns[c].n;
      }
}

/* rp_series_decimate() of @series against the reference: counts, minima and
 * maxima exactly, means to 1e-12 of the mean magnitude (summing in another
 * order may round differently: relative to the mean itself, a column whose
 * values cancel out would have no bound). Returns the columns compared. */
static guint
check_decimate (RpSeries *series,
                double    t0,
                double    t1,
                guint     n_columns)
{
  g_autofree RpPoint *points = NULL;
  g_autofree RpColumn *fast = g_new (RpColumn, n_columns);
  g_autofree RpColumn *slow = g_new (RpColumn, n_columns);
  g_autofree double *magnitude = g_new (double, n_columns);
  guint n_points, n_filled = 0;

  points = rp_series_copy_points (series, 0, &n_points);
  rp_series_decimate (series, t0, t1, n_columns, fast);
  decimate_brute_force (points, n_points, t0, t1, n_columns, slow, magnitude);
  for (guint c = 0; c < n_columns; c++)
    {
      if (fast[c].n != slow[c].n || fast[c].min != slow[c].min || fast[c].max != slow[c].max ||
          fabs (fast[c].mean - slow[c].mean) > 1e-12 * magnitude[c])
        g_error ("window [%.17g, %.17g], %u columns, %u points: column %u is "
                 "n %u min %.17g max %.17g mean %.17g, expected n %u min %.17g max %.17g mean %.17g",
                 t0, t1, n_columns, n_points, c, fast[c].n, fast[c].min, fast[c].max, fast[c].mean,
                 slow[c].n, slow[c].min, slow[c].max, slow[c].mean);
      n_filled += slow[c].n > 0;
    }
  return n_filled;
}

/* Times of an evenly sampled series with some jitter, a gap and bursts of
 * equal times, so that a guess interpolated from a block's ends is right,
 * off by a few points, or far off. */
static double
irregular_time (GRand *rand,
                guint  i)
{
  double t = i * 0.01 + g_rand_double_range (rand, 0, 0.004);

  if (i > 3000 && i < 3500)
    t = 30 + (i - 3000) / 50 * 0.5;   /* bursts of 50 equal times */
  else if (i >= 3500)
    t += 200;                          /* a gap of 200 s */
  return t;
}

static RpSeries *
random_series (GRand   *rand,
               guint    n_points,
               gboolean irregular)
{
  RpSeries *series = rp_series_new ("x", "s", NULL);

  for (guint i = 0; i < n_points; i++)
    {
      /* Magnitudes that differ by 1e6 and repeated values: sums that round
       * and ties for the extremes. */
      double v = g_rand_int_range (rand, 0, 8) == 0 ? 1e6 * g_rand_double (rand)
               : g_rand_int_range (rand, 0, 4) == 0 ? 0.25
               : g_rand_double_range (rand, -1, 1);

      rp_series_append (series, irregular ? irregular_time (rand, i) : 1000 + i * 0.01, v);
    }
  return series;
}

/* Every density the decimation treats apart (a column edge in every 64-point
 * block, or several, or a column holding many blocks; the ends of the
 * window anywhere in a block), against the point-by-point reference. */
static void
test_decimate_densities (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (4242);

  for (guint irregular = 0; irregular < 2; irregular++)
    {
      /* 3 chunks of 4096 and a part, with a partial last block. */
      g_autoptr(RpSeries) series = random_series (rand, 3 * 4096 + 1000 + 37, irregular);
      double t_min, t_max;

      g_assert_true (rp_series_get_bounds (series, &t_min, &t_max, NULL, NULL));
      for (guint round = 0; round < 300; round++)
        {
          /* From 1 to 4000 points a column. */
          guint n_columns = (guint) g_rand_int_range (rand, 4, 4000);
          double span = (t_max - t_min) * g_rand_double_range (rand, 0.01, 1.2);
          double t0 = g_rand_double_range (rand, t_min - span / 4, t_max - span / 2);

          check_decimate (series, t0, t0 + span, n_columns);
        }
      /* The whole series, and a window inside one block. */
      check_decimate (series, t_min, t_max, 1280);
      check_decimate (series, t_min + 0.105, t_min + 0.3, 7);
    }
}

/* Column edges at every offset inside a 64-point block and its 16-point
 * sub-blocks: points one second apart, columns of w points whose first
 * edge moves one point at a time. */
static void
test_decimate_edge_offsets (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (777);
  g_autoptr(RpSeries) series = rp_series_new ("x", "s", NULL);
  const guint widths[] = { 15, 16, 17, 31, 63, 64, 65, 100, 129, 281, 1000 };
  guint n_points = 2 * 4096 + 500;

  for (guint i = 0; i < n_points; i++)
    rp_series_append (series, i, g_rand_double_range (rand, 0, 1));

  for (guint w = 0; w < G_N_ELEMENTS (widths); w++)
    for (guint offset = 0; offset < 64; offset++)
      {
        /* Edges half a point before points offset, offset + w, …; and on
         * the points themselves (t = edge goes to the later column). */
        double t0 = offset - 0.5 - widths[w];
        guint n_columns = (n_points - offset) / widths[w] + 2;

        g_assert_cmpuint (check_decimate (series, t0, t0 + n_columns * (double) widths[w], n_columns), >, 0);
        t0 = offset;
        check_decimate (series, t0, t0 + n_columns * (double) widths[w], n_columns);
      }
}

/* Points appended after a decimation (the chart's incremental path, which
 * decimates from the last column it had on) and across sub-block, block
 * and chunk boundaries; non-finite values are dropped, not summarised. */
static void
test_decimate_appends (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (31337);
  g_autoptr(RpSeries) series = rp_series_new ("x", "s", NULL);
  const guint steps[] = { 1, 1, 14, 1, 1, 15, 16, 17, 30, 64, 63, 65, 500, 4096, 3000, 1, 2000 };
  guint n = 0;

  for (guint k = 0; k < G_N_ELEMENTS (steps); k++)
    {
      double t1 = 120;   /* ahead of the data, as the window's range is */
      guint n_columns = 640;
      guint first;
      g_autofree RpPoint *last = NULL;
      guint n_last;

      for (guint i = 0; i < steps[k]; i++, n++)
        {
          rp_series_append (series, n * 0.01, g_rand_double_range (rand, 1e-4, 2e-4));
          if (i % 7 == 3)
            {
              rp_series_append (series, n * 0.01 + 0.001, NAN);
              rp_series_append (series, n * 0.01 + 0.002, INFINITY);
            }
        }
      g_assert_cmpuint (rp_series_get_length (series), ==, n);
      check_decimate (series, 0, t1, n_columns);

      /* From the column of the last point on, as rp-plot does. */
      last = rp_series_copy_points (series, n - 1, &n_last);
      first = (guint) floor (last[0].t / t1 * n_columns);
      check_decimate (series, t1 * first / n_columns, t1, n_columns - first);
    }
}

static gpointer
append_in_order (gpointer data)
{
  RpSeries *series = data;

  for (guint i = 0; i < 3 * 4096; i++)
    rp_series_append (series, i * 0.01, i % 97);
  return NULL;
}

/* Decimations while a worker appends (the window during a run) see a
 * consistent prefix of the series: never more points than appended, never
 * fewer than before. An empty window or no columns gives empty columns. */
static void
test_decimate_while_appending (void)
{
  g_autoptr(RpSeries) series = rp_series_new ("x", "s", NULL);
  GThread *thread = g_thread_new ("append", append_in_order, series);
  RpColumn columns[300];
  guint seen = 0;

  while (seen < 3 * 4096)
    {
      guint n = 0;

      rp_series_decimate (series, 0, 130, G_N_ELEMENTS (columns), columns);
      for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
        n += columns[c].n;
      g_assert_cmpuint (n, >=, seen);
      g_assert_cmpuint (n, <=, rp_series_get_length (series));
      seen = n;
    }
  g_thread_join (thread);
  check_decimate (series, 0, 130, G_N_ELEMENTS (columns));

  rp_series_decimate (series, 50, 50, G_N_ELEMENTS (columns), columns);
  for (guint c = 0; c < G_N_ELEMENTS (columns); c++)
    g_assert_cmpuint (columns[c].n, ==, 0);
  rp_series_decimate (series, 0, 130, 0, NULL);
}

/* Values are stored exactly; times to within the documented float offset. */
static void
test_precision (void)
{
  g_autoptr(RpSeries) series = rp_series_new ("x", "s", NULL);
  g_autofree RpPoint *points = NULL;
  guint n;

  for (guint i = 0; i < 10000; i++)
    rp_series_append (series, 1000.0 + i * 1.0001, 0.5422 + i * 1e-9);
  points = rp_series_copy_points (series, 0, &n);
  for (guint i = 0; i < n; i++)
    {
      g_assert_cmpfloat (points[i].v, ==, 0.5422 + i * 1e-9);
      g_assert_cmpfloat_with_epsilon (points[i].t, 1000.0 + i * 1.0001, 0.5e-3);
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/series/concurrent-append", test_concurrent_append);
  g_test_add_func ("/series/copy-and-bounds", test_copy_and_bounds);
  g_test_add_func ("/series/decimate", test_decimate);
  g_test_add_func ("/series/decimate-matches-brute-force", test_decimate_matches_brute_force);
  g_test_add_func ("/series/decimate-densities", test_decimate_densities);
  g_test_add_func ("/series/decimate-edge-offsets", test_decimate_edge_offsets);
  g_test_add_func ("/series/decimate-appends", test_decimate_appends);
  g_test_add_func ("/series/decimate-while-appending", test_decimate_while_appending);
  g_test_add_func ("/series/precision", test_precision);
  return g_test_run ();
}
