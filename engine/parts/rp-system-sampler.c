/* rp-system-sampler.c: CPU split (/proc/stat), pressure (PSI) and dirty memory, sampled. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "rp-proc.h"
#include "rp-params.h"
#include "rp-parts.h"

/* What `top` showed the R2 reporter, and what R5 says not to trust alone: the
 * CPU split, beside PSI io pressure, beside the dirty and writeback memory that
 * drives writeback. Files stay open and are re-read with pread(): cheap enough
 * that passive monitoring costs well under 1 % of a core. */

typedef struct {
  const char *name;
  const char *title;
} CpuField;

/* The order of the fields on the "cpu" line of /proc/stat (proc(5)). guest and
 * guest_nice are already counted in user and nice, so they are left out. */
static const CpuField cpu_fields[RP_CPU_N_FIELDS] = {
  { "cpu_user", N_("User") },
  { "cpu_nice", N_("Nice") },
  { "cpu_system", N_("System") },
  { "cpu_idle", N_("Idle") },
  { "cpu_iowait", N_("I/O wait") },
  { "cpu_irq", N_("IRQ") },
  { "cpu_softirq", N_("Soft IRQ") },
  { "cpu_steal", N_("Steal") },
};

typedef struct {
  const char *resource;   /* "io", "cpu", "memory" */
  int         fd;
  RpPsi       last;
  gboolean    have_last;
  RpSeries   *some_avg10;
  RpSeries   *full_avg10;
  RpSeries   *some;
  RpSeries   *full;
} PsiSource;

typedef struct {
  int        stat_fd;
  int        meminfo_fd;
  PsiSource  psi[3];
  double     period;
} SystemSampler;

static void
system_sampler_free (gpointer data)
{
  SystemSampler *sampler = data;

  if (sampler->stat_fd >= 0)
    close (sampler->stat_fd);
  if (sampler->meminfo_fd >= 0)
    close (sampler->meminfo_fd);
  for (guint i = 0; i < G_N_ELEMENTS (sampler->psi); i++)
    if (sampler->psi[i].fd >= 0)
      close (sampler->psi[i].fd);
  g_free (sampler);
}

static gpointer
system_sampler_prepare (RpPartHost *host,
                        GError    **error)
{
  static const char *resources[] = { "io", "cpu", "memory" };
  SystemSampler *sampler = g_new0 (SystemSampler, 1);

  sampler->period = rp_params_get_seconds (rp_part_host_get_params (host), "sample_period");

  /* Missing files (no PSI before Linux 4.20, or psi=0) leave their series out;
   * the report then simply has none. */
  sampler->stat_fd = open ("/proc/stat", O_RDONLY | O_CLOEXEC);
  sampler->meminfo_fd = open ("/proc/meminfo", O_RDONLY | O_CLOEXEC);
  for (guint i = 0; i < G_N_ELEMENTS (resources); i++)
    {
      g_autofree char *path = g_strdup_printf ("/proc/pressure/%s", resources[i]);

      sampler->psi[i].resource = resources[i];
      sampler->psi[i].fd = open (path, O_RDONLY | O_CLOEXEC);
    }
  return sampler;
}

static void
ensure_psi_series (RpPartHost *host,
                   PsiSource *psi)
{
  g_autofree char *some_avg10 = g_strdup_printf ("psi_%s_some_avg10", psi->resource);
  g_autofree char *full_avg10 = g_strdup_printf ("psi_%s_full_avg10", psi->resource);
  g_autofree char *some = g_strdup_printf ("psi_%s_some", psi->resource);
  g_autofree char *full = g_strdup_printf ("psi_%s_full", psi->resource);
  /* TRANSLATORS: %s is "io", "cpu" or "memory" */
  g_autofree char *some_title = g_strdup_printf (_("%s pressure (some)"), psi->resource);
  g_autofree char *full_title = g_strdup_printf (_("%s pressure (full)"), psi->resource);
  g_autofree char *some_avg10_title = g_strdup_printf (_("%s pressure (some, avg10)"), psi->resource);
  g_autofree char *full_avg10_title = g_strdup_printf (_("%s pressure (full, avg10)"), psi->resource);

  psi->some = rp_part_host_ensure_series (host, some, "ratio", some_title);
  psi->full = rp_part_host_ensure_series (host, full, "ratio", full_title);
  psi->some_avg10 = rp_part_host_ensure_series (host, some_avg10, "ratio", some_avg10_title);
  psi->full_avg10 = rp_part_host_ensure_series (host, full_avg10, "ratio", full_avg10_title);
}

static void
sample_psi (RpPartHost *host,
            PsiSource *psi,
            double     now)
{
  RpPsi current;
  char buffer[512];

  if (psi->fd < 0 || !rp_proc_read_fd (psi->fd, buffer, sizeof buffer) ||
      !rp_proc_parse_psi (buffer, &current))
    return;

  if (psi->some == NULL)
    ensure_psi_series (host, psi);

  rp_series_append (psi->some_avg10, now, current.some_avg10 / 100.0);
  if (current.has_full)
    rp_series_append (psi->full_avg10, now, current.full_avg10 / 100.0);

  /* The stall-time delta over our own period is sharper than avg10, which
   * smooths over 10 s. Totals are in µs. */
  if (psi->have_last && now > psi->last.timestamp)
    {
      double dt = now - psi->last.timestamp;

      rp_series_append (psi->some, now, (double) (current.some_total - psi->last.some_total) / 1e6 / dt);
      if (current.has_full)
        rp_series_append (psi->full, now, (double) (current.full_total - psi->last.full_total) / 1e6 / dt);
    }
  current.timestamp = now;
  psi->last = current;
  psi->have_last = TRUE;
}

/* The process's own freezes: the sampler wakes every @period; a wake-up
 * over RP_GAP_MIN (rp-parts.h) later than that means the whole process
 * stood still (SIGSTOP, a suspended machine, a cgroup freezer, no CPU for
 * it), and every series has a hole there, which would read as calm. */

typedef struct {
  double  last;
  guint64 count;
  double  longest;
  double  total;
} Gaps;

static void
note_gap (RpPartHost *host,
          Gaps       *gaps,
          double      now,
          double      period)
{
  double gap = now - gaps->last - period;
  g_autofree char *count = NULL;

  if (gaps->last > 0 && gap > RP_GAP_MIN)
    {
      gaps->count++;
      gaps->longest = MAX (gaps->longest, gap);
      gaps->total += gap;
      count = g_strdup_printf ("%" G_GUINT64_FORMAT, gaps->count);
      rp_part_host_set_note (host, RP_NOTE_GAPS, count);
      rp_part_host_set_number_note (host, RP_NOTE_GAP_LONGEST, "%.3f", gaps->longest);
      rp_part_host_set_number_note (host, RP_NOTE_GAP_TOTAL, "%.3f", gaps->total);
    }
  gaps->last = now;
}

static void
system_sampler_run (RpPartHost *host,
                    gpointer   state)
{
  SystemSampler *sampler = state;
  RpSeries *cpu_series[RP_CPU_N_FIELDS];
  RpSeries *dirty, *writeback;
  guint64 last_cpu[RP_CPU_N_FIELDS];
  gboolean have_last_cpu = FALSE;
  char buffer[8192];
  Gaps gaps = { 0 };

  for (guint i = 0; i < RP_CPU_N_FIELDS; i++)
    cpu_series[i] = rp_part_host_ensure_series (host, cpu_fields[i].name, "ratio",
                                              _(cpu_fields[i].title));
  dirty = rp_part_host_ensure_series (host, "dirty_bytes", "B", _("Dirty"));
  writeback = rp_part_host_ensure_series (host, "writeback_bytes", "B", _("Writeback"));

  do
    {
      double now = rp_part_host_now (host);
      guint64 cpu[RP_CPU_N_FIELDS];
      guint64 dirty_bytes, writeback_bytes;

      note_gap (host, &gaps, now, sampler->period);

      if (sampler->stat_fd >= 0 && rp_proc_read_fd (sampler->stat_fd, buffer, sizeof buffer) &&
          rp_proc_parse_cpu_line (buffer, cpu))
        {
          if (have_last_cpu)
            {
              double fractions[RP_CPU_N_FIELDS];

              if (rp_proc_cpu_fractions (last_cpu, cpu, fractions))
                for (guint i = 0; i < RP_CPU_N_FIELDS; i++)
                  rp_series_append (cpu_series[i], now, fractions[i]);
            }
          memcpy (last_cpu, cpu, sizeof cpu);
          have_last_cpu = TRUE;
        }

      for (guint i = 0; i < G_N_ELEMENTS (sampler->psi); i++)
        sample_psi (host, &sampler->psi[i], now);

      if (sampler->meminfo_fd >= 0 && rp_proc_read_fd (sampler->meminfo_fd, buffer, sizeof buffer) &&
          rp_proc_parse_meminfo (buffer, &dirty_bytes, &writeback_bytes))
        {
          rp_series_append (dirty, now, (double) dirty_bytes);
          rp_series_append (writeback, now, (double) writeback_bytes);
        }

      rp_part_host_changed (host);
    }
  while (rp_part_host_sleep (host, sampler->period));
}

static const RpWorkerClass worker = {
  .name = "system-sampler",
  .prepare = system_sampler_prepare,
  .run = system_sampler_run,
  .free_state = system_sampler_free,
};

static const RpParamInfo params[] = {
  { "sample_period", "sample-period", "sample-period", RP_PARAM_SECONDS, 0.05, 60, 0.5, NULL,
    N_("System sampler: seconds between samples (default 0.5)"), N_("SECONDS") },
  /* Read by the session (rp-session.c), which holds the loads back. */
  { "baseline", "baseline", "baseline", RP_PARAM_SECONDS, 0.5, 600, 3.0, N_("no baseline"),
    N_("Seconds the system-wide samplers (CPU, PSI, device) run before the loads and the other probes start, so that activity from elsewhere shows as such; 0: none (default 3)"),
    N_("SECONDS") },
};

#define LEVEL(name, title, chart, legend, rank, flags) \
  { name, "ratio", title, chart, legend, NULL, NULL, rank, RP_SUMMARY_LEVEL, flags }
#define PSI(resource, rank) \
  LEVEL ("psi_" resource "_some", NULL, NULL, NULL, rank, RP_SERIES_FLAG_NONE), \
  LEVEL ("psi_" resource "_full", NULL, NULL, NULL, rank + 1, RP_SERIES_FLAG_NONE), \
  LEVEL ("psi_" resource "_some_avg10", NULL, NULL, NULL, rank + 2, RP_SERIES_FLAG_NONE), \
  LEVEL ("psi_" resource "_full_avg10", NULL, NULL, NULL, rank + 3, RP_SERIES_FLAG_NONE)

/* The CPU chart stacks user, system and iowait (what `top` showed R2's
 * reporter) and draws I/O pressure over them (R5: do not trust iowait
 * alone). PSI titles are made at run time from the resource's name. */
static const RpSeriesInfo series[] = {
  LEVEL ("cpu_user", N_("User"), "cpu", N_("user"), 60, RP_SERIES_FLAG_STACKED),
  LEVEL ("cpu_system", N_("System"), "cpu", N_("system"), 61, RP_SERIES_FLAG_STACKED),
  LEVEL ("cpu_iowait", N_("I/O wait"), "cpu", N_("iowait"), 62, RP_SERIES_FLAG_STACKED),
  LEVEL ("psi_io_some", NULL, "cpu", N_("I/O pressure"), 63, RP_SERIES_FLAG_NONE),
  LEVEL ("cpu_nice", N_("Nice"), NULL, NULL, 64, RP_SERIES_FLAG_NONE),
  LEVEL ("cpu_idle", N_("Idle"), NULL, NULL, 65, RP_SERIES_FLAG_NONE),
  LEVEL ("cpu_irq", N_("IRQ"), NULL, NULL, 66, RP_SERIES_FLAG_NONE),
  LEVEL ("cpu_softirq", N_("Soft IRQ"), NULL, NULL, 67, RP_SERIES_FLAG_NONE),
  LEVEL ("cpu_steal", N_("Steal"), NULL, NULL, 68, RP_SERIES_FLAG_NONE),
  LEVEL ("psi_io_full", NULL, NULL, NULL, 69, RP_SERIES_FLAG_NONE),
  LEVEL ("psi_io_some_avg10", NULL, NULL, NULL, 70, RP_SERIES_FLAG_NONE),
  LEVEL ("psi_io_full_avg10", NULL, NULL, NULL, 71, RP_SERIES_FLAG_NONE),
  PSI ("cpu", 72),
  PSI ("memory", 76),
  { "dirty_bytes", "B", N_("Dirty"), "memory", N_("dirty"), NULL, NULL, 80, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
  { "writeback_bytes", "B", N_("Writeback"), "memory", N_("writeback"), NULL, NULL, 81, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
};

#undef PSI
#undef LEVEL

static char *
system_sampler_describe (const RpParams *p)
{
  /* TRANSLATORS: "every 0.5 s" */
  return g_strdup_printf (_("every %g s"), rp_params_get_seconds (p, "sample_period"));
}

/* /proc/stat, PSI and /proc/meminfo, sampled. */
const RpPartInfo rp_system_part = {
  .id = "system",
  .role = RP_PART_PROBE,
  .label = N_("System sampler"),
  /* TRANSLATORS: %s is e.g. "every 0.5 s" */
  .sentence = N_("system sampler %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .in_baseline = TRUE,
  .describe = system_sampler_describe,
};
