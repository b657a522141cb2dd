/* rp-open-probe.c: reading a cold file of a few MiB from start to end, like `time cat`. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-io.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-units.h"

/* cat(1)'s buffer size (coreutils io_blksize(): 128 KiB). */
#define READ_CHUNK (128 * 1024)

/* Opening a document, a picture, a PDF: a file of a few MiB read from its
 * start to its end, not in the page cache, behind whatever the load queued.
 * The cold-read probe's single 4 KiB read shows one request's wait; this one
 * what a user waits for, read-ahead included, to the last byte. The file is
 * anonymous (O_TMPFILE), written and flushed before the run, and evicted
 * (POSIX_FADV_DONTNEED) before every read. */

typedef struct {
  int     fd;
  guint64 size;
  double  interval;
  char   *buffer;
} OpenProbe;

static void
open_probe_free (gpointer data)
{
  OpenProbe *probe = data;

  if (probe->fd >= 0)
    close (probe->fd);
  g_free (probe->buffer);
  g_free (probe);
}

static gpointer
open_probe_prepare (RpPartHost *host,
                    GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  const char *directory = rp_part_host_get_directory (host);
  OpenProbe *probe = g_new0 (OpenProbe, 1);

  probe->size = rp_params_get_size (params, "open_file_size");
  probe->interval = rp_params_get_seconds (params, "open_interval");
  probe->buffer = g_malloc (READ_CHUNK);
  for (gsize i = 0; i < READ_CHUNK; i++)
    probe->buffer[i] = (char) (i * 73 + 1);
  probe->fd = rp_part_host_open_tmpfile (host, 0, error);
  if (probe->fd < 0)
    {
      open_probe_free (probe);
      return NULL;
    }
  for (guint64 written = 0; written < probe->size; written += READ_CHUNK)
    if (!rp_write_all (probe->fd, probe->buffer, (gsize) MIN (probe->size - written, READ_CHUNK)))
      {
        rp_error_set_from_errno (error, errno, _("Open probe: writing its file in"), directory);
        open_probe_free (probe);
        return NULL;
      }
  if (fsync (probe->fd) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Open probe: flushing its file in"), directory);
      open_probe_free (probe);
      return NULL;
    }
  return probe;
}

/* The one timed span: from the first read() to the one that returns the
 * end of the file. Returns its seconds, or a negative value with errno set. */
static double
read_whole_file (OpenProbe *probe,
                 double    *out_started)
{
  off_t offset = 0;
  double before = rp_clock_now ();

  *out_started = before;
  for (;;)
    {
      ssize_t n = pread (probe->fd, probe->buffer, READ_CHUNK, offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return -1;
      if (n == 0)
        break;
      offset += n;
    }
  return rp_clock_now () - before;
}

static void
open_probe_run (RpPartHost *host,
                gpointer   state)
{
  OpenProbe *probe = state;
  RpSeries *series = rp_part_host_ensure_series (host, "open_latency", "s", _("File open time"));
  /* One timed call from the first read() to the last, so that a stall of
   * it has a cause. */
  RpTimedCall *call = rp_part_host_open_call (host);

  do
    {
      double started, seconds;

      posix_fadvise (probe->fd, 0, 0, POSIX_FADV_DONTNEED);
      rp_timed_call_begin (call, "open_latency");
      seconds = read_whole_file (probe, &started);
      if (seconds < 0)
        {
          GError *error = NULL;

          rp_error_set_from_errno (&error, errno, _("Open probe: reading in"), rp_part_host_get_directory (host));
          rp_timed_call_abandon (call);
          rp_part_host_fail (host, error);
          return;
        }
      rp_timed_call_end (call);
      rp_series_append (series, rp_part_host_time_from_monotonic (host, started), seconds);
      rp_part_host_changed (host);
    }
  while (rp_part_host_sleep (host, probe->interval));
}

static const RpWorkerClass worker = {
  .name = "open",
  .prepare = open_probe_prepare,
  .run = open_probe_run,
  .free_state = open_probe_free,
};

static const RpParamInfo params[] = {
  { "open_file_size", "open-file-size", "open-file-size", RP_PARAM_SIZE, 4 * RP_KiB, 4 * RP_GiB, 4 * RP_MiB, NULL,
    N_("Open probe: size of the file read to its end (default 4M)"), N_("SIZE") },
  { "open_interval", "open-interval", "open-interval", RP_PARAM_SECONDS, 0.05, 3600, 2.0, NULL,
    N_("Open probe: seconds between reads of the file (default 2)"), N_("SECONDS") },
};

static const RpSeriesInfo series[] = {
  { "open_latency", "s", N_("File open time"), "disk-latency", N_("open file"), N_("Open file"),
    N_("Time to read a file of a few MiB that is not in the page cache, to its last byte"),
    19, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Opening files"), NULL, RP_CALL_KIND_READ,
    /* TRANSLATORS: opens a sentence: "Opening a file took 2.1 s at 3.0 s" */
    N_("Opening a file") },
};

static guint64
open_write_budget (const RpParams *p)
{
  return rp_params_get_size (p, "open_file_size");
}

static char *
open_describe (const RpParams *p)
{
  g_autofree char *size = rp_format_size (rp_params_get_size (p, "open_file_size"));

  /* TRANSLATORS: "a 4.0 MiB file every 2 s" */
  return g_strdup_printf (_("a %s file every %g s"), size, rp_params_get_seconds (p, "open_interval"));
}

/* A cold file of a few MiB read to its end, as opening a document does. */
const RpPartInfo rp_open_part = {
  .id = "open",
  .role = RP_PART_PROBE,
  .label = N_("Open probe"),
  /* TRANSLATORS: %s is e.g. "a 4.0 MiB file every 2 s" */
  .sentence = N_("file open, %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .write_budget = open_write_budget,
  .describe = open_describe,
};
