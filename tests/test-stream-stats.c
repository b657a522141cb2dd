/* test-stream-stats.c: running statistics and their histogram against the exact ones of rp-stats. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <math.h>

#include "rp-histogram.h"
#include "rp-report.h"
#include "rp-stream-stats.h"
#include "rp-time-histogram.h"
#include "rp-sysinfo-private.h"

/* The documented bound (rp_histogram_percentile()): α times the exact value
 * plus 1 ns; the 1e-12 slack is for the rounding of double logarithms. */
static void
assert_within_bound (double estimate,
                     double exact)
{
  double bound = RP_HISTOGRAM_RELATIVE_ERROR * fabs (exact) * (1 + 1e-12) + RP_HISTOGRAM_LOWEST;

  if (!(fabs (estimate - exact) <= bound))
    g_error ("estimate %.17g, exact %.17g: off by %.3g, bound %.3g",
             estimate, exact, fabs (estimate - exact), bound);
}

/* Everything rp_stream_stats_get() promises against rp_stats_compute(). */
static void
assert_like_exact (const RpStats *live,
                   const RpStats *exact)
{
  g_assert_cmpuint (live->n, ==, exact->n);
  g_assert_cmpfloat (live->min, ==, exact->min);
  g_assert_cmpfloat (live->max, ==, exact->max);
  g_assert_cmpuint (live->over_instant, ==, exact->over_instant);
  g_assert_cmpuint (live->over_flow, ==, exact->over_flow);
  g_assert_cmpuint (live->over_attention, ==, exact->over_attention);
  g_assert_cmpfloat (fabs (live->mean - exact->mean), <=, 1e-9 * fabs (exact->mean) + 1e-15);
  g_assert_cmpfloat (fabs (live->stddev - exact->stddev), <=, 1e-6 * exact->stddev + 1e-15);
  assert_within_bound (live->p50, exact->p50);
  assert_within_bound (live->p90, exact->p90);
  assert_within_bound (live->p99, exact->p99);
  assert_within_bound (live->p999, exact->p999);
}

static void
check_values (const double *values,
              gsize         n)
{
  g_autoptr(RpStreamStats) stream = rp_stream_stats_new ();
  RpStats live, exact;

  rp_stream_stats_add (stream, values, n);
  rp_stream_stats_get (stream, &live);
  rp_stats_compute (values, n, &exact);
  assert_like_exact (&live, &exact);
}

static void
test_empty (void)
{
  g_autoptr(RpStreamStats) stream = rp_stream_stats_new ();
  g_autoptr(RpHistogram) histogram = rp_histogram_new ();
  RpStats stats;

  rp_stream_stats_get (stream, &stats);
  g_assert_cmpuint (stats.n, ==, 0);
  g_assert_cmpfloat (stats.max, ==, 0);
  g_assert_cmpfloat (stats.p99, ==, 0);
  g_assert_cmpfloat (rp_histogram_percentile (histogram, 0.5), ==, 0);
}

/* R1's ext3 ordered fsync times (test-stats.c works them out by hand):
 * median 5.60, p90 9.708, p99 10.7448, max 10.86. */
static void
test_known (void)
{
  static const double v[] = { 0.54, 6.37, 8.60, 0.78, 0.77, 4.66, 5.60, 9.42, 10.86 };
  static const double one[] = { 0.5422 };
  g_autoptr(RpStreamStats) stream = rp_stream_stats_new ();
  RpStats stats;

  rp_stream_stats_add (stream, v, G_N_ELEMENTS (v));
  rp_stream_stats_get (stream, &stats);
  assert_within_bound (stats.p50, 5.60);
  assert_within_bound (stats.p90, 9.708);
  assert_within_bound (stats.p99, 10.7448);
  g_assert_cmpfloat (stats.max, ==, 10.86);
  g_assert_cmpfloat (stats.min, ==, 0.54);
  g_assert_cmpuint (stats.over_flow, ==, 6);
  g_assert_cmpuint (stats.over_attention, ==, 1);
  check_values (v, G_N_ELEMENTS (v));
  /* One sample: every percentile is it, exactly. */
  check_values (one, 1);
}

/* Latency-like samples: log-normal around 2 ms with a tail of stalls of
 * 0.1..30 s, the shape of an fsync or a main loop under writeback. */
static double *
make_latencies (GRand *rand,
                gsize  n)
{
  double *v = g_new (double, n);

  for (gsize i = 0; i < n; i++)
    {
      double u1 = g_rand_double_range (rand, 1e-12, 1), u2 = g_rand_double (rand);
      double normal = sqrt (-2 * log (u1)) * cos (2 * G_PI * u2);

      v[i] = g_rand_int_range (rand, 0, 100) == 0 ? g_rand_double_range (rand, 0.1, 30)
                                                  : 0.002 * exp (normal);
    }
  return v;
}

static void
test_random (void)
{
  static const gsize sizes[] = { 2, 3, 10, 99, 1000, 12345, 200000 };
  g_autoptr(GRand) rand = g_rand_new_with_seed (20240611);

  for (guint s = 0; s < G_N_ELEMENTS (sizes); s++)
    {
      g_autofree double *latencies = make_latencies (rand, sizes[s]);
      g_autofree double *uniform = g_new (double, sizes[s]);

      check_values (latencies, sizes[s]);
      for (gsize i = 0; i < sizes[s]; i++)
        uniform[i] = g_rand_double_range (rand, 1e-6, 100);
      check_values (uniform, sizes[s]);
    }
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

/* Every percentile of a fine grid, not just the four the summary shows;
 * ties (a constant run of one value) included. */
static void
test_all_fractions (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autofree double *v = make_latencies (rand, 5000);
  g_autoptr(RpHistogram) histogram = rp_histogram_new ();

  for (guint i = 0; i < 1000; i++)
    v[i * 5] = 0.016;   /* a 60 Hz frame interval, many times */
  for (guint i = 0; i < 5000; i++)
    rp_histogram_add (histogram, v[i]);
  qsort (v, 5000, sizeof (double), compare_doubles);
  for (guint k = 0; k <= 1000; k++)
    assert_within_bound (rp_histogram_percentile (histogram, k / 1000.0),
                         rp_stats_percentile (v, 5000, k / 1000.0));
  g_assert_cmpfloat (rp_histogram_percentile (histogram, 0), ==, v[0]);
  g_assert_cmpfloat (rp_histogram_percentile (histogram, 1), ==, v[4999]);
}

/* Zero and sub-nanosecond values fall into the zero bucket: absolute error
 * ≤ 1 ns; the overflow bucket gives the exact maximum. */
static void
test_extremes (void)
{
  static const double tiny[] = { 0, 0, 0, 1e-12, 5e-10, 2e-9, 0.5, 3e6 };
  g_autoptr(RpHistogram) histogram = rp_histogram_new ();

  check_values (tiny, G_N_ELEMENTS (tiny));
  for (guint i = 0; i < G_N_ELEMENTS (tiny); i++)
    rp_histogram_add (histogram, tiny[i]);
  rp_histogram_add (histogram, NAN);
  rp_histogram_add (histogram, INFINITY);
  g_assert_cmpuint (rp_histogram_get_count (histogram), ==, G_N_ELEMENTS (tiny));
  g_assert_cmpfloat (rp_histogram_percentile (histogram, 1.0), ==, 3e6);
  g_assert_cmpfloat (rp_histogram_percentile (histogram, 0.0), ==, 0);
  /* Memory is fixed: 10⁻⁹..10⁶ at 0.5 % is 3454 buckets, plus two. */
  g_assert_cmpuint (rp_histogram_get_n_buckets (), ==, 3456);
}

/* Following a series reads only what is new, and ends where the exact
 * statistics of the whole series are. */
static void
test_follow (void)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  g_autofree double *v = make_latencies (rand, 30000);
  g_autoptr(RpSeries) series = rp_series_new ("fsync_latency", "s", NULL);
  g_autoptr(RpStreamStats) stream = rp_stream_stats_new ();
  RpStats live, exact;
  gsize done = 0;

  g_assert_cmpuint (rp_stream_stats_follow (stream, series), ==, 0);
  for (gsize step = 1; done < 30000; step = step * 3 + 1)
    {
      gsize n = MIN (step, 30000 - done);

      for (gsize i = 0; i < n; i++)
        rp_series_append (series, (double) (done + i) * 0.01, v[done + i]);
      done += n;
      g_assert_cmpuint (rp_stream_stats_follow (stream, series), ==, n);
      g_assert_cmpuint (rp_stream_stats_follow (stream, series), ==, 0);
      rp_stream_stats_get (stream, &live);
      rp_series_compute_stats (series, &exact);
      assert_like_exact (&live, &exact);
    }
}

typedef struct {
  RpSeries *series;
  guint     seed;
} Writer;

#define N_WRITERS 4
#define PER_WRITER 50000

static gpointer
append_thread (gpointer data)
{
  Writer *writer = data;
  g_autoptr(GRand) rand = g_rand_new_with_seed (writer->seed);

  for (guint i = 0; i < PER_WRITER; i++)
    rp_series_append (writer->series, i * 1e-3, g_rand_double_range (rand, 1e-4, 2));
  return NULL;
}

/* Workers append while a reader follows (as the summary's refresh thread
 * does): nothing is read twice or lost. Run it under ASan/TSan to check
 * the locking. */
static void
test_follow_concurrent (void)
{
  g_autoptr(RpSeries) series = rp_series_new ("write_latency", "s", NULL);
  g_autoptr(RpStreamStats) stream = rp_stream_stats_new ();
  Writer writers[N_WRITERS];
  GThread *threads[N_WRITERS];
  RpStats live, exact;
  guint64 read = 0;

  for (guint i = 0; i < N_WRITERS; i++)
    {
      writers[i] = (Writer) { series, i + 1 };
      threads[i] = g_thread_new ("writer", append_thread, &writers[i]);
    }
  while (read < N_WRITERS * PER_WRITER)
    read += rp_stream_stats_follow (stream, series);
  for (guint i = 0; i < N_WRITERS; i++)
    g_thread_join (threads[i]);
  g_assert_cmpuint (rp_stream_stats_follow (stream, series), ==, 0);
  rp_stream_stats_get (stream, &live);
  rp_series_compute_stats (series, &exact);
  assert_like_exact (&live, &exact);
}

static RpSeries *
series_of (const char   *name,
           const double *values,
           gsize         n)
{
  RpSeries *series = rp_series_new (name, "s", NULL);

  for (gsize i = 0; i < n; i++)
    rp_series_append (series, (double) i, values[i]);
  return series;
}

/* The live verdict is the report's, word for word: it reads only exact
 * figures (counts, maxima). Also on tmpfs, where it adds a warning. */
static void
test_verdict (void)
{
  static const double fsync[] = { 0.54, 6.37, 8.60, 0.78, 0.77, 4.66, 5.60, 9.42, 10.86 };
  static const double writes[] = { 0.001, 0.002, 0.25, 0.003 };
  static const double calm[] = { 0.0004, 0.0012, 0.0009 };
  static const char *const names[] = { RP_SERIES_FSYNC_LATENCY, RP_SERIES_WRITE_LATENCY,
                                       RP_SERIES_MAINLOOP_LATENESS };
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("R1", NULL);
  g_autoptr(RpSysinfo) tmpfs = rp_sysinfo_new ();

  tmpfs->fsync_is_noop = TRUE;
  tmpfs->fs_type = g_strdup ("tmpfs");
  for (guint k = 0; k < 3; k++)
    {
      g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
      g_autoptr(RpReport) report = NULL;
      g_autofree char *expected = NULL, *live_verdict = NULL;
      RpStats stats[3];

      /* k = 0: stalls everywhere; 1: calm; 2: calm on tmpfs */
      g_ptr_array_add (series, series_of (names[0], k == 0 ? fsync : calm, k == 0 ? 9 : 3));
      g_ptr_array_add (series, series_of (names[1], k == 0 ? writes : calm, k == 0 ? 4 : 3));
      g_ptr_array_add (series, series_of (names[2], calm, 3));
      report = rp_report_new (k == 2 ? tmpfs : NULL, scenario, series, NULL);
      expected = rp_report_get_verdict (report);
      for (guint i = 0; i < 3; i++)
        {
          g_autoptr(RpStreamStats) stream = rp_stream_stats_new ();

          rp_stream_stats_follow (stream, g_ptr_array_index (series, i));
          rp_stream_stats_get (stream, &stats[i]);
        }
      live_verdict = rp_verdict_for_stats (k == 2 ? tmpfs : NULL, (const char *const *) names, stats, 3);
      g_assert_cmpstr (live_verdict, ==, expected);
    }
}

/* Stall counts of the live statistics at exactly 0.1 s, 1 s and 10 s: not
 * over (the counts are exact, like the report's). */
static void
test_exactly_at_limits (void)
{
  static const double v[] = { 0.1, 1.0, 10.0, 0.1, 1.0, 10.0, 0.05 };
  static const double above[] = { 0.1000001, 1.0000001, 10.0000001 };
  g_autoptr(RpStreamStats) stream = rp_stream_stats_new ();
  RpStats stats;

  rp_stream_stats_add (stream, v, G_N_ELEMENTS (v));
  rp_stream_stats_get (stream, &stats);
  g_assert_cmpuint (stats.over_instant, ==, 4);
  g_assert_cmpuint (stats.over_flow, ==, 2);
  g_assert_cmpuint (stats.over_attention, ==, 0);
  rp_stream_stats_add (stream, above, G_N_ELEMENTS (above));
  rp_stream_stats_get (stream, &stats);
  g_assert_cmpuint (stats.over_instant, ==, 7);
  g_assert_cmpuint (stats.over_flow, ==, 4);
  g_assert_cmpuint (stats.over_attention, ==, 1);
}

/* The values a comparison's rank test reads of a thinned series' full
 * statistics: every value, in order, each within the histogram's bound of
 * the exact one at its rank, the extremes exact. */
static void
test_sorted_values (void)
{
  g_autoptr(RpStreamStats) stats = rp_stream_stats_new ();
  g_autoptr(RpStreamStats) copy = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  g_autofree double *values = NULL;
  double exact[3000];
  gsize n = 0;

  for (guint i = 0; i < G_N_ELEMENTS (exact); i++)
    exact[i] = 1e-4 * exp (g_rand_double_range (rand, 0, 9));
  rp_stream_stats_add (stats, exact, G_N_ELEMENTS (exact));
  copy = rp_stream_stats_copy (stats);
  qsort (exact, G_N_ELEMENTS (exact), sizeof (double), compare_doubles);
  values = rp_stream_stats_copy_sorted_values (copy, &n);
  g_assert_cmpuint (n, ==, G_N_ELEMENTS (exact));
  g_assert_cmpfloat (values[0], ==, exact[0]);
  g_assert_cmpfloat (values[n - 1], ==, exact[n - 1]);
  for (gsize i = 0; i < n; i++)
    {
      assert_within_bound (values[i], exact[i]);
      g_assert_true (i == 0 || values[i] >= values[i - 1]);
    }
  for (guint k = 1; k < 1000; k += 37)
    assert_within_bound (rp_stats_percentile (values, n, k / 1000.0), rp_stats_percentile (exact, n, k / 1000.0));
}

/* Window histograms (rp-time-histogram.c): a window's percentiles of the
 * samples of the 0.1 s slots it touches, within 2.5 % of the exact ones;
 * two windows over one slot count it once; a count past a word's 20 bits
 * continues in a second word; a copy and a restore bucket by bucket give
 * the same. */
static void
test_time_histogram (void)
{
  g_autoptr(RpTimeHistogram) h = rp_time_histogram_new ();
  g_autoptr(RpTimeHistogram) restored = rp_time_histogram_new ();
  g_autoptr(RpTimeHistogram) copy = NULL;
  g_autoptr(GArray) inside = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GRand) rand = g_rand_new_with_seed (31);
  g_autoptr(RpHistogram) merged = NULL, twice = NULL, again = NULL, none = NULL;
  const double window[2] = { 5.0, 5.25 }, overlapping[4] = { 5.0, 5.25, 5.1, 5.2 }, empty[2] = { 50, 60 };
  RpStats exact;

  for (guint i = 0; i < 30000; i++)
    {
      double t = g_rand_double_range (rand, 0, 10);
      double v = 1e-3 * exp (g_rand_double_range (rand, -2, 2));

      rp_time_histogram_add (h, t, v);
      /* Slots 50, 51, 52: [5.0, 5.3). */
      if (t >= 5.0 && t < 5.3)
        g_array_append_val (inside, v);
    }
  rp_time_histogram_add (h, -1, 1e-3);
  rp_time_histogram_add (h, 1, NAN);
  g_assert_cmpuint (rp_time_histogram_get_count (h), ==, 30000);
  rp_stats_compute ((double *) inside->data, inside->len, &exact);
  merged = rp_time_histogram_merge (h, window, 1);
  g_assert_nonnull (merged);
  g_assert_cmpuint (rp_histogram_get_count (merged), ==, inside->len);
  g_assert_cmpfloat (fabs (rp_histogram_percentile (merged, 0.5) - exact.p50), <=, RP_TIME_HISTOGRAM_RELATIVE_ERROR * exact.p50);
  g_assert_cmpfloat (fabs (rp_histogram_percentile (merged, 0.99) - exact.p99), <=, RP_TIME_HISTOGRAM_RELATIVE_ERROR * exact.p99);
  g_assert_cmpfloat (fabs (rp_histogram_get_max (merged) - exact.max), <=, RP_TIME_HISTOGRAM_RELATIVE_ERROR * exact.max);
  twice = rp_time_histogram_merge (h, overlapping, 2);
  g_assert_cmpuint (rp_histogram_get_count (twice), ==, inside->len);
  none = rp_time_histogram_merge (h, empty, 1);
  g_assert_null (none);

  /* 2²⁰ + 5 equal samples in one slot: two words, one bucket. */
  for (guint i = 0; i < (1u << 20) + 5; i++)
    rp_time_histogram_add (h, 70.05, 0.25);
  copy = rp_time_histogram_copy (h);
  for (guint k = 0; k < rp_time_histogram_get_n_slots (copy); k++)
    {
      guint n;
      g_autofree RpTimeBucket *buckets = rp_time_histogram_copy_slot (copy, k, &n);

      if (k == 700)
        {
          g_assert_cmpuint (n, ==, 1);
          g_assert_cmpuint (buckets[0].count, ==, (1u << 20) + 5);
        }
      for (guint i = 0; i < n; i++)
        g_assert_true (rp_time_histogram_add_bucket (restored, k, buckets[i].index, buckets[i].count));
    }
  g_assert_cmpuint (rp_time_histogram_get_count (restored), ==, 30000 + (1u << 20) + 5);
  again = rp_time_histogram_merge (restored, window, 1);
  g_assert_cmpfloat (rp_histogram_percentile (again, 0.5), ==, rp_histogram_percentile (merged, 0.5));
  g_assert_cmpfloat (rp_histogram_percentile (again, 0.99), ==, rp_histogram_percentile (merged, 0.99));
  g_assert_false (rp_time_histogram_add_bucket (restored, 1, rp_histogram_get_n_buckets (), 1));
  g_assert_false (rp_time_histogram_add_bucket (restored, 1, 10, 0));
}

static void
assert_ranges (GArray      *ranges,
               const guint *expected,
               guint        n_expected)
{
  g_assert_cmpuint (ranges->len, ==, n_expected / 2);
  for (guint i = 0; i < n_expected; i++)
    g_assert_cmpuint (g_array_index (ranges, guint, i), ==, expected[i]);
}

/* A report keeps only its stalls' slots (rp_report_windows_to_json()): the
 * slots windows touch, joined where they overlap or meet; cut to those a
 * restored histogram holds; a window is covered only when every slot of
 * it is held, so that part of a window's requests never passes for all. */
static void
test_time_histogram_covered (void)
{
  g_autoptr(RpTimeHistogram) h = rp_time_histogram_new ();
  g_autoptr(RpTimeHistogram) copy = NULL;
  g_autoptr(GArray) all = NULL, cut = NULL, held = NULL;
  /* Slots 10-12, 12-14 (meeting: one range), 30-30, and 20-21. */
  const double windows[8] = { 1.0, 1.25, 1.2, 1.45, 3.0, 3.05, 2.0, 2.1 };
  const guint joined[6] = { 10, 14, 20, 21, 30, 30 };
  const guint kept[6] = { 11, 14, 20, 21, 30, 30 };
  const double inside[2] = { 1.15, 1.4 }, partly[2] = { 1.0, 1.4 }, outside[2] = { 5, 6 };

  all = rp_time_histogram_get_ranges (h, windows, 4);
  assert_ranges (all, joined, G_N_ELEMENTS (joined));
  /* A run's own holds every slot. */
  g_assert_true (rp_time_histogram_covers (h, windows, 4));
  g_assert_true (rp_time_histogram_covers (h, outside, 1));

  g_assert_true (rp_time_histogram_add_covered (h, 11, 12));
  g_assert_true (rp_time_histogram_add_covered (h, 13, 14));
  g_assert_true (rp_time_histogram_add_covered (h, 20, 40));
  g_assert_false (rp_time_histogram_add_covered (h, 40, 41));
  g_assert_false (rp_time_histogram_add_covered (h, 50, 49));
  cut = rp_time_histogram_get_ranges (h, windows, 4);
  assert_ranges (cut, kept, G_N_ELEMENTS (kept));
  g_assert_true (rp_time_histogram_covers (h, inside, 1));
  g_assert_false (rp_time_histogram_covers (h, partly, 1));
  g_assert_false (rp_time_histogram_covers (h, outside, 1));
  g_assert_false (rp_time_histogram_covers (h, windows, 4));
  copy = rp_time_histogram_copy (h);
  held = rp_time_histogram_get_ranges (copy, windows, 4);
  assert_ranges (held, kept, G_N_ELEMENTS (kept));
  g_assert_false (rp_time_histogram_covers (copy, partly, 1));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stream-stats/empty", test_empty);
  g_test_add_func ("/stream-stats/known", test_known);
  g_test_add_func ("/stream-stats/random", test_random);
  g_test_add_func ("/stream-stats/all-fractions", test_all_fractions);
  g_test_add_func ("/stream-stats/extremes", test_extremes);
  g_test_add_func ("/stream-stats/follow", test_follow);
  g_test_add_func ("/stream-stats/follow-concurrent", test_follow_concurrent);
  g_test_add_func ("/stream-stats/verdict", test_verdict);
  g_test_add_func ("/stream-stats/exactly-at-limits", test_exactly_at_limits);
  g_test_add_func ("/stream-stats/sorted-values", test_sorted_values);
  g_test_add_func ("/stream-stats/time-histogram", test_time_histogram);
  g_test_add_func ("/stream-stats/time-histogram-covered", test_time_histogram_covered);

  return g_test_run ();
}
