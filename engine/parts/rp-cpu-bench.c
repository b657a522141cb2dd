/* rp-cpu-bench.c: the CPU benchmark load of R2: fixed work units, rate alone vs under load. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <stdatomic.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-params.h"
#include "rp-parts.h"

/* Rate samples every 0.5 s, as the other throughput series. */
#define SAMPLE_PERIOD 0.5

/* About 0.3 ms of one core today: short enough that a stop is noticed at
 * once, long enough that counting units costs nothing. */
#define UNIT_ITERATIONS 100000

/* R2's reporter ran ubench (a small-footprint CPU benchmark) beside the copy
 * loop and saw its score fall as the kernel's system time grew. A work unit
 * here is a fixed mix of integer (xorshift64) and floating-point
 * (multiply-add) steps on a few registers: no memory traffic, so the rate
 * falls only when the CPU itself is taken away (by system time, interrupts,
 * other threads), not when caches are shared. */

typedef struct _Pool Pool;

typedef struct {
  Pool                 *pool;
  GThread              *thread;
  guint                 index;
  _Atomic unsigned long long units;
  double                sink;
} BenchThread;

struct _Pool {
  atomic_int   stop;
  guint        n_threads;
  BenchThread *threads;
};

typedef struct {
  guint  n_threads;
  double baseline_rate;     /* work units per second, measured alone */
} CpuBench;

static double
work_unit (guint64 seed)
{
  guint64 x = seed * 0x9E3779B97F4A7C15u + 1;
  double f = 1.0 + (double) (seed & 0xff);

  for (guint i = 0; i < UNIT_ITERATIONS; i++)
    {
      x ^= x << 13;
      x ^= x >> 7;
      x ^= x << 17;
      f = f * 0.9999999 + (double) (x & 0xffff) * 1e-9;
    }
  return f + (double) (x & 1);
}

static gpointer
bench_thread (gpointer data)
{
  BenchThread *thread = data;
  guint64 seed = (guint64) thread->index << 32;
  double sink = 0;

  while (!atomic_load_explicit (&thread->pool->stop, memory_order_relaxed))
    {
      sink += work_unit (seed++);
      atomic_fetch_add_explicit (&thread->units, 1, memory_order_relaxed);
    }
  /* Using the result keeps the compiler from dropping the work. */
  thread->sink = sink;
  return NULL;
}

static guint64 pool_stop (Pool *pool);

/* NULL with @error set when a thread cannot be created (a pids cgroup at its
 * limit): the threads started so far are stopped. */
static Pool *
pool_start (guint    n_threads,
            GError **error)
{
  Pool *pool = g_new0 (Pool, 1);

  atomic_init (&pool->stop, 0);
  pool->threads = g_new0 (BenchThread, n_threads);
  for (guint i = 0; i < n_threads; i++)
    {
      GError *local_error = NULL;

      pool->threads[i].pool = pool;
      pool->threads[i].index = i;
      atomic_init (&pool->threads[i].units, 0);
      pool->threads[i].thread = g_thread_try_new ("rp-cpu-bench", bench_thread, &pool->threads[i],
                                                  &local_error);
      if (pool->threads[i].thread == NULL)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                       _("CPU benchmark: cannot start its threads: %s"), local_error->message);
          g_error_free (local_error);
          pool_stop (pool);
          return NULL;
        }
      pool->n_threads = i + 1;
    }
  return pool;
}

static guint64
pool_get_units (Pool *pool)
{
  guint64 units = 0;

  for (guint i = 0; i < pool->n_threads; i++)
    units += atomic_load_explicit (&pool->threads[i].units, memory_order_relaxed);
  return units;
}

/* Returns the units done in total. */
static guint64
pool_stop (Pool *pool)
{
  guint64 units;

  atomic_store (&pool->stop, 1);
  for (guint i = 0; i < pool->n_threads; i++)
    g_thread_join (pool->threads[i].thread);
  units = pool_get_units (pool);
  g_free (pool->threads);
  g_free (pool);
  return units;
}

/* Measures the rate alone, before any load starts (the session clock has not
 * started, so no samples: the result goes to the state and a note). A stop
 * requested meanwhile cuts the calibration short. */
static gpointer
cpu_bench_prepare (RpPartHost *host,
                   GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  CpuBench *bench = g_new0 (CpuBench, 1);
  Pool *pool;
  double start, elapsed;
  guint64 units;

  bench->n_threads = rp_params_get_flag (params, "cpu_single_thread") ? 1 : MAX (g_get_num_processors (), 1);
  start = rp_clock_now ();
  pool = pool_start (bench->n_threads, error);
  if (pool == NULL)
    {
      g_free (bench);
      return NULL;
    }
  while (rp_clock_now () - start < rp_params_get_seconds (params, "cpu_calibration") &&
         !rp_part_host_should_stop (host))
    g_usleep (20 * 1000);
  units = pool_stop (pool);
  elapsed = rp_clock_now () - start;

  bench->baseline_rate = elapsed > 0 ? (double) units / elapsed : 0;
  rp_part_host_set_number_note (host, "cpu_bench_baseline_rate", "%.1f", bench->baseline_rate);
  {
    g_autofree char *threads = g_strdup_printf ("%u", bench->n_threads);
    rp_part_host_set_note (host, "cpu_bench_threads", threads);
  }
  return bench;
}

static void
cpu_bench_run (RpPartHost *host,
               gpointer   state)
{
  CpuBench *bench = state;
  RpSeries *rate;
  Pool *pool;
  double start, last_t;
  guint64 last_units = 0, units;
  guint n_samples = 0;
  GError *error = NULL;

  rate = rp_part_host_ensure_series (host, "cpu_bench_rate", "ops/s", _("CPU benchmark rate"));
  start = last_t = rp_clock_now ();
  pool = pool_start (bench->n_threads, &error);
  if (pool == NULL)
    {
      rp_part_host_fail (host, error);
      return;
    }

  while (rp_part_host_sleep (host, SAMPLE_PERIOD))
    {
      double now = rp_clock_now ();

      units = pool_get_units (pool);
      rp_series_append (rate, rp_part_host_time_from_monotonic (host, now),
                        (double) (units - last_units) / (now - last_t));
      last_units = units;
      last_t = now;
      n_samples++;
      rp_part_host_changed (host);
    }
  units = pool_stop (pool);

  /* A run stopped before its first sample (Ctrl-C while preparing) measured
   * nothing under load: "0 ops/s, 100 % lost" would be a false verdict. */
  if (n_samples == 0)
    return;

  /* Units over the whole run rather than the mean of the samples: a stall
   * that spans a sample boundary then weighs what it cost. */
  {
    double elapsed = rp_clock_now () - start;
    double under_load = elapsed > 0 ? (double) units / elapsed : 0;

    rp_part_host_set_number_note (host, "cpu_bench_rate_under_load", "%.1f", under_load);
    if (bench->baseline_rate > 0)
      rp_part_host_set_number_note (host, "cpu_bench_loss_percent", "%.1f",
                     100.0 * (1.0 - under_load / bench->baseline_rate));
  }
}

static const RpWorkerClass worker = {
  .name = "cpu-bench",
  .prepare = cpu_bench_prepare,
  .run = cpu_bench_run,
  .free_state = g_free,
};

static const RpParamInfo params[] = {
  { "cpu_single_thread", "single-thread", "single-thread", RP_PARAM_FLAG, 0, 1, 0, NULL,
    N_("CPU benchmark: one thread instead of one per CPU"), NULL },
  { "cpu_calibration", "calibration", "calibration", RP_PARAM_SECONDS, 0.5, 600, 3.0, NULL,
    N_("CPU benchmark: seconds measured alone before the run (default 3)"), N_("SECONDS") },
};

static const RpSeriesInfo series[] = {
  { "cpu_bench_rate", "ops/s", N_("CPU benchmark rate"), "cpu-bench", N_("work units per second"), NULL,
    NULL, 50, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
};

static char *
cpu_bench_describe (const RpParams *p)
{
  /* TRANSLATORS: "every CPU, calibrated for 3 s" or "one thread, calibrated for 3 s" */
  return g_strdup_printf (_("%s, calibrated for %g s"),
                          rp_params_get_flag (p, "cpu_single_thread") ? _("one thread") : _("every CPU"),
                          rp_params_get_seconds (p, "cpu_calibration"));
}

/* R2's ubench-style benchmark: its rate alone against its rate under load.
 * It calibrates in prepare(), before the copy loop's prepare() writes its
 * source, so that the rate alone is measured on a quiet disk. */
const RpPartInfo rp_cpu_bench_part = {
  .id = "cpu-bench",
  .role = RP_PART_LOAD,
  .label = N_("CPU benchmark"),
  /* TRANSLATORS: %s is e.g. "every CPU, calibrated for 3 s" */
  .sentence = N_("CPU benchmark on %s"),
  .start_rank = 1,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .describe = cpu_bench_describe,
};
