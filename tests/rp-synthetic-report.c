/* rp-synthetic-report.c: a long run's report without the wait, for the long-report test and benchmark. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-synthetic-report.h"

/* The 22 series of the system sampler every 0.5 s, 44 samples a second,
 * the rate of the CLI's default probes that issue 16 counts (3.8 million
 * samples a day), with values made the way the sampler makes them, so that
 * the block encoding meets what it meets in a real run: CPU shares as
 * ratios of /proc/stat ticks (about 100 in 0.5 s on 2 cores), PSI stall
 * microseconds over the sampler's period, PSI avg10 parsed from two
 * decimals and divided by 100, Dirty and Writeback as kB × 1024, and times
 * of CLOCK_MONOTONIC in nanoseconds, a little late each time. */

static const char *const cpu_names[] = {
  "cpu_user", "cpu_nice", "cpu_system", "cpu_idle", "cpu_iowait", "cpu_irq", "cpu_softirq", "cpu_steal",
};
static const char *const psi_names[] = {
  "psi_io_some", "psi_io_full", "psi_cpu_some", "psi_cpu_full", "psi_memory_some", "psi_memory_full",
};

static RpSeries *
add (GPtrArray  *all,
     const char *name,
     const char *unit)
{
  RpSeries *series = rp_series_new (name, unit, NULL);

  g_ptr_array_add (all, series);
  return series;
}

/**
 * rp_synthetic_report_new:
 * @hours: the run's length
 * @seed: for GRand: the same report each time
 *
 * Returns: (transfer full): a report of 44 × 3600 × @hours samples
 */
RpReport *
rp_synthetic_report_new (double hours,
                         guint  seed)
{
  g_autoptr(RpScenario) scenario = rp_scenario_new_preset ("passive", NULL);
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GRand) rand = g_rand_new_with_seed (seed);
  guint64 n_ticks = (guint64) (hours * 3600 * 2);
  gint64 t_ns = 0;
  guint64 dirty_kb = 20000;

  for (guint i = 0; i < G_N_ELEMENTS (cpu_names); i++)
    add (all, cpu_names[i], "ratio");
  for (guint i = 0; i < G_N_ELEMENTS (psi_names); i++)
    {
      g_autofree char *avg10 = g_strconcat (psi_names[i], "_avg10", NULL);

      add (all, psi_names[i], "ratio");
      add (all, avg10, "ratio");
    }
  add (all, "dirty_bytes", "B");
  add (all, "writeback_bytes", "B");

  for (guint64 tick = 0; tick < n_ticks; tick++)
    {
      gint64 period_ns = 500000000 + g_rand_int_range (rand, 50000, 2000000);
      double t = (double) (t_ns += period_ns) / 1e9;
      guint total = 100 + (guint) g_rand_int_range (rand, -1, 2);
      guint busy = (guint) g_rand_int_range (rand, 0, 60);
      guint ticks[8] = { 0 };
      guint s = 0;
      gint32 step;

      ticks[0] = busy / 2;                                   /* user */
      ticks[2] = busy / 4;                                   /* system */
      ticks[4] = (guint) g_rand_int_range (rand, 0, 30);     /* iowait */
      ticks[1] = g_rand_int_range (rand, 0, 20) == 0;        /* nice, seldom */
      ticks[6] = g_rand_int_range (rand, 0, 4) == 0;         /* softirq */
      ticks[3] = total - ticks[0] - ticks[1] - ticks[2] - ticks[4] - ticks[6];
      for (guint i = 0; i < 8; i++)
        rp_series_append (g_ptr_array_index (all, s++), t, (double) ticks[i] / total);
      for (guint i = 0; i < G_N_ELEMENTS (psi_names); i++)
        {
          gboolean quiet = i >= 3 && i != 2;   /* cpu full, memory: mostly zero */
          gint64 stall_us = quiet ? 0 : g_rand_int_range (rand, 0, 400000);
          int avg10_cents = quiet ? 0 : g_rand_int_range (rand, 0, 9000);

          rp_series_append (g_ptr_array_index (all, s++), t, (double) stall_us / (period_ns / 1000));
          rp_series_append (g_ptr_array_index (all, s++), t, (avg10_cents / 100.0) / 100);
        }
      /* A step of its own: MAX() would draw a second one. */
      step = g_rand_int_range (rand, -3000, 3100);
      dirty_kb = (gint64) dirty_kb + step < 0 ? 0 : dirty_kb + step;
      rp_series_append (g_ptr_array_index (all, s++), t, (double) (dirty_kb * 1024));
      rp_series_append (g_ptr_array_index (all, s++), t, (double) (g_rand_int_range (rand, 0, 3) == 0 ? 0 : dirty_kb / 8 * 1024));
    }
  return rp_report_new (NULL, scenario, all, NULL);
}
