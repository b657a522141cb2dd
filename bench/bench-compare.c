/* bench-compare.c: benchmark 9, the comparison's cost (intervals and tests) against the reports' own summaries. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rp-clock.h"
#include "rp-comparison.h"

/* Two runs as the window records them, one report each, @seconds long:
 * main-loop lateness at 100 Hz, frame intervals at 60 Hz, fsync every
 * second. The comparison of the window (one column per report: every
 * interval over one run's samples, a Mann–Whitney test per series) is
 * timed against what any view of the two reports computes anyway: their
 * summaries (every series sorted once, rp_report_get_summary() and
 * rp_report_get_verdict()), on fresh reports each time, so that neither
 * finds the other's cached statistics. Prints one JSON object. */

static RpReport *
make_report (double   seconds,
             guint32  seed)
{
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  g_autoptr(GPtrArray) series = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  const struct { const char *name; double rate; double floor; double scale; } kinds[] = {
    { RP_SERIES_MAINLOOP_LATENESS, 100, 0.0002, 0.0005 },
    { RP_SERIES_FRAME_INTERVAL, 60, 0.0166, 0.001 },
    { RP_SERIES_FSYNC_LATENCY, 1, 0.01, 0.5 },
  };

  for (guint k = 0; k < G_N_ELEMENTS (kinds); k++)
    {
      RpSeries *s = rp_series_new (kinds[k].name, "s", kinds[k].name);
      guint n = (guint) (seconds * kinds[k].rate);

      for (guint i = 0; i < n; i++)
        rp_series_append (s, i / kinds[k].rate,
                          kinds[k].floor - kinds[k].scale * log (1 - g_rand_double (rand)));
      g_ptr_array_add (series, s);
    }
  return rp_report_new (NULL, scenario, series, NULL);
}

static gint
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return (x > y) - (x < y);
}

static GPtrArray *
make_pair (double seconds)
{
  GPtrArray *reports = g_ptr_array_new_with_free_func (g_object_unref);

  g_ptr_array_add (reports, make_report (seconds, 1));
  g_ptr_array_add (reports, make_report (seconds, 2));
  return reports;
}

int
main (int argc, char **argv)
{
  double seconds = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 3600;
  guint rounds = argc > 2 ? (guint) atoi (argv[2]) : 3;
  g_autoptr(GArray) compare_ms = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) summary_ms = g_array_new (FALSE, FALSE, sizeof (double));
  double compare_median, summary_median;

  if (!(seconds > 0) || rounds == 0)
    {
      fprintf (stderr, "usage: %s [SECONDS [ROUNDS]]\n", argv[0]);
      return 2;
    }
  for (guint r = 0; r < rounds; r++)
    {
      g_autoptr(GPtrArray) a = make_pair (seconds);
      g_autoptr(GPtrArray) b = make_pair (seconds);
      double start, ms;

      start = rp_clock_now ();
      for (guint i = 0; i < b->len; i++)
        {
          g_autoptr(RpRunSummary) summary = rp_report_get_summary (g_ptr_array_index (b, i));
          g_autofree char *verdict = rp_report_get_verdict (g_ptr_array_index (b, i));
        }
      ms = (rp_clock_now () - start) * 1000;
      g_array_append_val (summary_ms, ms);

      start = rp_clock_now ();
      {
        g_autoptr(RpComparison) comparison = rp_comparison_new (a, RP_COMPARE_NONE);
      }
      ms = (rp_clock_now () - start) * 1000;
      g_array_append_val (compare_ms, ms);
    }
  g_array_sort (compare_ms, compare_doubles);
  g_array_sort (summary_ms, compare_doubles);
  compare_median = g_array_index (compare_ms, double, rounds / 2);
  summary_median = g_array_index (summary_ms, double, rounds / 2);
  printf ("{\"seconds\": %.0f, \"rounds\": %u, \"compare_ms\": %.1f, \"summary_ms\": %.1f}\n",
          seconds, rounds, compare_median, summary_median);
  return 0;
}
