/* rp-sync-probe.c: how long syncfs() of the target's file system takes, every few seconds. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-periodic-probe.h"

/* `sync` is what a user types before pulling a USB stick, what a package
 * manager calls after unpacking, and what a desktop's "safely remove" waits
 * for: every dirty page and every pending metadata change of the file
 * system written out. syncfs(2) does that for the target's file system
 * only, so the time is the backlog of that disk, not of every disk. */

typedef struct {
  int    fd;
  double interval;
  char  *directory;
} SyncProbe;

static void
sync_probe_free (gpointer data)
{
  SyncProbe *probe = data;

  if (probe->fd >= 0)
    close (probe->fd);
  g_free (probe->directory);
  g_free (probe);
}

static gpointer
sync_probe_prepare (RpPartHost *host,
                    GError    **error)
{
  const char *directory = rp_part_host_get_directory (host);
  SyncProbe *probe = g_new0 (SyncProbe, 1);

  probe->interval = rp_params_get_seconds (rp_part_host_get_params (host), "sync_interval");
  probe->directory = g_strdup (directory);
  probe->fd = open (directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (probe->fd < 0)
    {
      rp_error_set_from_errno (error, errno, _("Sync probe: opening"), directory);
      sync_probe_free (probe);
      return NULL;
    }
  return probe;
}

/* The one timed call (an RpTimedMeasure): syncfs() from the clock read
 * before it to the one after. */
static double
time_syncfs (gpointer   state,
             double    *out_before,
             GError   **error)
{
  SyncProbe *probe = state;
  double before = rp_clock_now ();

  *out_before = before;
  if (syncfs (probe->fd) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Sync probe: syncfs() of"), probe->directory);
      return -1;
    }
  return rp_clock_now () - before;
}

static void
sync_probe_run (RpPartHost *host,
                gpointer   state)
{
  SyncProbe *probe = state;
  RpSeries *series = rp_part_host_ensure_series (host, "syncfs_latency", "s", _("syncfs() latency"));

  rp_periodic_probe_run (host, series, probe->interval, time_syncfs, probe);
}

static const RpWorkerClass worker = {
  .name = "sync",
  .prepare = sync_probe_prepare,
  .run = sync_probe_run,
  .free_state = sync_probe_free,
};

static const RpParamInfo params[] = {
  /* syncfs() back to back would itself be a load. */
  { "sync_interval", "sync-interval", "sync-interval", RP_PARAM_SECONDS, 0.1, 3600, 5.0, NULL,
    N_("Sync probe: seconds between syncfs() calls (default 5)"), N_("SECONDS") },
};

static const RpSeriesInfo series[] = {
  { "syncfs_latency", "s", N_("syncfs() latency"), "disk-latency", N_("syncfs()"), N_("syncfs()"),
    N_("Time for syncfs() to write out the target file system’s dirty data and metadata"),
    17, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("syncfs() calls"), NULL, RP_CALL_KIND_FLUSH,
    /* TRANSLATORS: opens a sentence: "A syncfs() took 2.1 s at 3.0 s" */
    N_("A syncfs()") },
};

static char *
sync_describe (const RpParams *p)
{
  /* TRANSLATORS: "syncfs() every 5 s" */
  return g_strdup_printf (_("syncfs() every %g s"), rp_params_get_seconds (p, "sync_interval"));
}

/* syncfs() of the target's file system, timed. */
const RpPartInfo rp_sync_part = {
  .id = "sync",
  .role = RP_PART_PROBE,
  .label = N_("Sync probe"),
  /* TRANSLATORS: %s is e.g. "syncfs() every 5 s" */
  .sentence = N_("sync probe, %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .describe = sync_describe,
};
