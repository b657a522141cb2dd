/* rp-fsync-probe.c: the fsync-tester of kernel bug 12309, as a probe. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-workers.h"

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
fsync_probe_prepare (RpSession  *session,
                     GError    **error)
{
  const RpScenario *scenario = rp_session_get_scenario (session);
  FsyncProbe *probe = g_new0 (FsyncProbe, 1);

  probe->size = scenario->fsync_size;
  probe->interval = scenario->fsync_interval;
  probe->use_fdatasync = scenario->fsync_use_fdatasync;
  probe->buffer = g_malloc (probe->size);
  memset (probe->buffer, 'a', probe->size);

  probe->fd = rp_session_worker_open_tmpfile (session, 0, error);
  if (probe->fd < 0)
    {
      fsync_probe_free (probe);
      return NULL;
    }
  return probe;
}

static gboolean
pwrite_all (int         fd,
            const char *buffer,
            gsize       size)
{
  gsize done = 0;

  while (done < size)
    {
      ssize_t n = pwrite (fd, buffer + done, size - done, (off_t) done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      done += (gsize) n;
    }
  return TRUE;
}

static void
fsync_probe_run (RpSession *session,
                 gpointer   state)
{
  FsyncProbe *probe = state;
  const char *directory = rp_session_get_scenario (session)->directory;
  RpSeries *fsync_series, *pwrite_series;

  fsync_series = rp_session_ensure_series (session, "fsync_latency", "s",
                                           probe->use_fdatasync ? _("fdatasync latency")
                                                                : _("fsync latency"));
  pwrite_series = rp_session_ensure_series (session, "fsync_pwrite_latency", "s",
                                            _("Probe write latency"));

  do
    {
      double t_write, t_sync, t_done;
      GError *error = NULL;
      int rc;

      t_write = rp_clock_now ();
      if (!pwrite_all (probe->fd, probe->buffer, probe->size))
        {
          rp_error_set_from_errno (&error, errno, _("fsync probe: writing to"), directory);
          rp_session_worker_fail (session, error);
          return;
        }
      t_sync = rp_clock_now ();
      rc = probe->use_fdatasync ? fdatasync (probe->fd) : fsync (probe->fd);
      t_done = rp_clock_now ();
      if (rc != 0)
        {
          rp_error_set_from_errno (&error, errno, _("fsync probe: flushing"), directory);
          rp_session_worker_fail (session, error);
          return;
        }

      rp_series_append (pwrite_series, rp_session_time_from_monotonic (session, t_write),
                        t_sync - t_write);
      rp_series_append (fsync_series, rp_session_time_from_monotonic (session, t_sync),
                        t_done - t_sync);
      rp_session_worker_changed (session);
    }
  while (rp_session_worker_sleep (session, probe->interval));
}

const RpWorkerClass rp_fsync_probe_class = {
  .name = "fsync-probe",
  .prepare = fsync_probe_prepare,
  .run = fsync_probe_run,
  .free_state = fsync_probe_free,
};
