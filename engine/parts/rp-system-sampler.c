/* rp-system-sampler.c: CPU split (/proc/stat), pressure (PSI) and dirty memory, sampled. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "rp-proc.h"
#include "rp-workers.h"

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
system_sampler_prepare (RpSession  *session,
                        GError    **error)
{
  static const char *resources[] = { "io", "cpu", "memory" };
  SystemSampler *sampler = g_new0 (SystemSampler, 1);

  sampler->period = rp_session_get_scenario (session)->sample_period;

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
ensure_psi_series (RpSession *session,
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

  psi->some = rp_session_ensure_series (session, some, "ratio", some_title);
  psi->full = rp_session_ensure_series (session, full, "ratio", full_title);
  psi->some_avg10 = rp_session_ensure_series (session, some_avg10, "ratio", some_avg10_title);
  psi->full_avg10 = rp_session_ensure_series (session, full_avg10, "ratio", full_avg10_title);
}

static void
sample_psi (RpSession *session,
            PsiSource *psi,
            double     now)
{
  RpPsi current;
  char buffer[512];

  if (psi->fd < 0 || !rp_proc_read_fd (psi->fd, buffer, sizeof buffer) ||
      !rp_proc_parse_psi (buffer, &current))
    return;

  if (psi->some == NULL)
    ensure_psi_series (session, psi);

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

static void
system_sampler_run (RpSession *session,
                    gpointer   state)
{
  SystemSampler *sampler = state;
  RpSeries *cpu_series[RP_CPU_N_FIELDS];
  RpSeries *dirty, *writeback;
  guint64 last_cpu[RP_CPU_N_FIELDS];
  gboolean have_last_cpu = FALSE;
  char buffer[8192];

  for (guint i = 0; i < RP_CPU_N_FIELDS; i++)
    cpu_series[i] = rp_session_ensure_series (session, cpu_fields[i].name, "ratio",
                                              _(cpu_fields[i].title));
  dirty = rp_session_ensure_series (session, "dirty_bytes", "B", _("Dirty"));
  writeback = rp_session_ensure_series (session, "writeback_bytes", "B", _("Writeback"));

  do
    {
      double now = rp_session_worker_now (session);
      guint64 cpu[RP_CPU_N_FIELDS];
      guint64 dirty_bytes, writeback_bytes;

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
        sample_psi (session, &sampler->psi[i], now);

      if (sampler->meminfo_fd >= 0 && rp_proc_read_fd (sampler->meminfo_fd, buffer, sizeof buffer) &&
          rp_proc_parse_meminfo (buffer, &dirty_bytes, &writeback_bytes))
        {
          rp_series_append (dirty, now, (double) dirty_bytes);
          rp_series_append (writeback, now, (double) writeback_bytes);
        }

      rp_session_worker_changed (session);
    }
  while (rp_session_worker_sleep (session, sampler->period));
}

const RpWorkerClass rp_system_sampler_class = {
  .name = "system-sampler",
  .prepare = system_sampler_prepare,
  .run = system_sampler_run,
  .free_state = system_sampler_free,
};
