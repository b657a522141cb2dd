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
  g_test_add_func ("/series/precision", test_precision);
  return g_test_run ();
}
