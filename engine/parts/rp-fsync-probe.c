/* rp-fsync-probe.c: the fsync-tester of kernel bug 12309, as a probe. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-io.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-units.h"

/* fsync-tester (Linux kernel bug 12309, as quoted in R1): open its own file,
 * then forever: write 1 MiB of 'a' at offset 0, time fsync(), print
 * "fsync time: %.4f", sleep 1 s. Overwriting the same megabyte keeps the file
 * small, so each fsync() writes 1 MiB plus whatever the file system makes it
 * wait for: under data=ordered ext3, the whole journal transaction, which
 * includes the dd's dirty data. That coupling is what the probe exposes. */

typedef struct {
  int      fd;
  char    *buffer;
  gsize    size;
  double   interval;
  gboolean use_fdatasync;
} FsyncProbe;

static void
fsync_probe_free (gpointer data)
{
  FsyncProbe *probe = data;

  if (probe->fd >= 0)
    close (probe->fd);
  g_free (probe->buffer);
  g_free (probe);
}

static gpointer
fsync_probe_prepare (RpPartHost *host,
                     GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  FsyncProbe *probe = g_new0 (FsyncProbe, 1);

  probe->size = rp_params_get_size (params, "fsync_size");
  probe->interval = rp_params_get_seconds (params, "fsync_interval");
  probe->use_fdatasync = rp_params_get_flag (params, "fsync_use_fdatasync");
  probe->fd = -1;
  probe->buffer = rp_buffer_try_new (probe->size, _("fsync probe"), error);
  if (probe->buffer == NULL)
    {
      fsync_probe_free (probe);
      return NULL;
    }
  memset (probe->buffer, 'a', probe->size);

  probe->fd = rp_part_host_open_tmpfile (host, 0, error);
  if (probe->fd < 0)
    {
      fsync_probe_free (probe);
      return NULL;
    }
  return probe;
}

static void
fsync_probe_run (RpPartHost *host,
                 gpointer   state)
{
  FsyncProbe *probe = state;
  const char *directory = rp_part_host_get_directory (host);
  RpSeries *fsync_series, *pwrite_series;
  RpTimedCall *call = rp_part_host_open_call (host);

  fsync_series = rp_part_host_ensure_series (host, RP_SERIES_FSYNC_LATENCY, "s",
                                           probe->use_fdatasync ? _("fdatasync latency")
                                                                : _("fsync latency"));
  pwrite_series = rp_part_host_ensure_series (host, "fsync_pwrite_latency", "s",
                                            _("Probe write latency"));

  do
    {
      double t_write, t_sync, t_done;
      GError *error = NULL;
      int rc;

      /* Both calls are in flight from their start (rp-timed-call.h): the
       * window sees an fsync() blocked for 8 s while it blocks. */
      t_write = rp_timed_call_begin (call, "fsync_pwrite_latency");
      if (!rp_pwrite_all (probe->fd, probe->buffer, probe->size, 0))
        {
          rp_timed_call_end (call);
          rp_error_set_from_errno (&error, errno, _("fsync probe: writing to"), directory);
          rp_part_host_fail (host, error);
          return;
        }
      rp_timed_call_end (call);
      t_sync = rp_timed_call_begin (call, RP_SERIES_FSYNC_LATENCY);
      rc = probe->use_fdatasync ? fdatasync (probe->fd) : fsync (probe->fd);
      t_done = rp_timed_call_end (call);
      if (rc != 0)
        {
          rp_error_set_from_errno (&error, errno, _("fsync probe: flushing"), directory);
          rp_part_host_fail (host, error);
          return;
        }

      rp_series_append (pwrite_series, rp_part_host_time_from_monotonic (host, t_write),
                        t_sync - t_write);
      rp_series_append (fsync_series, rp_part_host_time_from_monotonic (host, t_sync),
                        t_done - t_sync);
      rp_part_host_changed (host);
    }
  while (rp_part_host_sleep (host, probe->interval));
}

static const RpWorkerClass worker = {
  .name = "fsync-probe",
  .prepare = fsync_probe_prepare,
  .run = fsync_probe_run,
  .free_state = fsync_probe_free,
};

static const RpParamInfo params[] = {
  { "fsync_size", "fsync-size", "fsync-size", RP_PARAM_SIZE, 1, 256 * RP_MiB, RP_MiB, NULL,
    N_("fsync probe: bytes written at offset 0 before each fsync() (default 1M)"), N_("SIZE") },
  { "fsync_interval", "interval", "interval", RP_PARAM_SECONDS, 0.01, 3600, 1.0, NULL,
    N_("Sleep between fsync probes (default 1 s)"), N_("SECONDS") },
  { "fsync_use_fdatasync", "fsync-fdatasync", "fsync-fdatasync", RP_PARAM_FLAG, 0, 1, 0, NULL,
    N_("fsync probe: fdatasync() instead of fsync()"), NULL },
};

static const RpSeriesInfo series[] = {
  { RP_SERIES_FSYNC_LATENCY, "s", N_("fsync latency"), "disk-latency", N_("fsync"), N_("fsync"),
    N_("Time to flush 1 MiB to the disk, what an application that saves a file waits for"),
    10, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("fsync"), NULL, RP_CALL_KIND_FLUSH, N_("fsync") },
  { "fsync_pwrite_latency", "s", N_("Probe write latency"), "disk-latency",
    N_("1 MiB write before fsync"), NULL, NULL, 11, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_NONE,
    NULL, NULL, RP_CALL_KIND_WRITE, N_("The probe's write()") },
};

static guint64
fsync_probe_write_budget (const RpParams *p)
{
  return rp_params_get_size (p, "fsync_size");
}

static char *
fsync_probe_describe (const RpParams *p)
{
  g_autofree char *size = rp_format_size (rp_params_get_size (p, "fsync_size"));
  double interval = rp_params_get_seconds (p, "fsync_interval");

  if (rp_params_get_flag (p, "fsync_use_fdatasync"))
    /* TRANSLATORS: "1.0 MiB every 1 s, with fdatasync()" */
    return g_strdup_printf (_("%s every %g s, with fdatasync()"), size, interval);
  /* TRANSLATORS: "1.0 MiB every 1 s" */
  return g_strdup_printf (_("%s every %g s"), size, interval);
}

/* The fsync-tester of kernel bug 12309 (R1). */
const RpPartInfo rp_fsync_part = {
  .id = "fsync",
  .role = RP_PART_PROBE,
  .label = N_("fsync probe"),
  /* TRANSLATORS: %s is e.g. "1.0 MiB every 1 s" */
  .sentence = N_("fsync probe %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .write_budget = fsync_probe_write_budget,
  .describe = fsync_probe_describe,
};
