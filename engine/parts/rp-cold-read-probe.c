/* rp-cold-read-probe.c: random 4 KiB reads of a file evicted from the page cache (ioping style). */
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
#include "rp-units.h"
#include "rp-parts.h"

#define READ_SIZE 4096

/* The file is written in pieces of this size while preparing. */
#define FILL_CHUNK (1024 * 1024)

/* The R1 reporter found that fsync times and felt responsiveness did not
 * always agree. What a desktop feels first is reads: opening a menu, starting
 * a program, loading a thumbnail, each a few pages not in the cache, queued
 * behind the writers. ioping measures that with small direct reads; here the
 * page is evicted with POSIX_FADV_DONTNEED before each read instead, so the
 * read takes the ordinary buffered path an application takes. */

typedef struct {
  int      fd;
  guint64  size;
  double   interval;
  char     buffer[READ_SIZE];
} ColdReadProbe;

static void
cold_read_probe_free (gpointer data)
{
  ColdReadProbe *probe = data;

  if (probe->fd >= 0)
    close (probe->fd);
  g_free (probe);
}

/* Writes the file and flushes it: only clean pages can be dropped from the
 * cache, and its writeback should not fall into the run. */
static gboolean
fill_file (ColdReadProbe  *probe,
           RpPartHost      *host,
           GError        **error)
{
  const char *directory = rp_part_host_get_directory (host);
  g_autofree char *chunk = rp_buffer_try_new (FILL_CHUNK, _("Cold-read probe"), error);

  if (chunk == NULL)
    return FALSE;

  /* Not zeros: a file system that compresses or skips zero blocks would have
   * nothing to read. */
  for (gsize i = 0; i < FILL_CHUNK; i++)
    chunk[i] = (char) (i * 131 + 7);

  for (guint64 written = 0; written < probe->size; written += FILL_CHUNK)
    if (!rp_write_all (probe->fd, chunk, (gsize) MIN (probe->size - written, FILL_CHUNK)))
      {
        rp_error_set_from_errno (error, errno, _("Cold-read probe: writing its file in"), directory);
        return FALSE;
      }
  if (fsync (probe->fd) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Cold-read probe: flushing its file in"), directory);
      return FALSE;
    }
  /* Without read-ahead, one 4 KiB read is one 4 KiB read from the disk. */
  posix_fadvise (probe->fd, 0, 0, POSIX_FADV_RANDOM);
  return TRUE;
}

static gpointer
cold_read_probe_prepare (RpPartHost *host,
                         GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  ColdReadProbe *probe = g_new0 (ColdReadProbe, 1);

  probe->size = rp_params_get_size (params, "cold_read_file_size") - rp_params_get_size (params, "cold_read_file_size") % READ_SIZE;
  probe->interval = rp_params_get_seconds (params, "cold_read_interval");
  probe->fd = rp_part_host_open_tmpfile (host, 0, error);
  if (probe->fd < 0 || !fill_file (probe, host, error))
    {
      cold_read_probe_free (probe);
      return NULL;
    }
  return probe;
}

static void
cold_read_probe_run (RpPartHost *host,
                     gpointer   state)
{
  ColdReadProbe *probe = state;
  const char *directory = rp_part_host_get_directory (host);
  RpSeries *series;
  g_autoptr(GRand) rand = g_rand_new ();
  guint64 blocks = probe->size / READ_SIZE;

  RpTimedCall *call = rp_part_host_open_call (host);

  series = rp_part_host_ensure_series (host, "cold_read_latency", "s", _("Cold read latency"));

  do
    {
      guint64 block = MIN ((guint64) g_rand_double_range (rand, 0, (double) blocks), blocks - 1);
      off_t offset = (off_t) (block * READ_SIZE);
      double before, after;
      ssize_t n;

      posix_fadvise (probe->fd, 0, 0, POSIX_FADV_DONTNEED);
      before = rp_timed_call_begin (call, "cold_read_latency");
      do
        n = pread (probe->fd, probe->buffer, READ_SIZE, offset);
      while (n < 0 && errno == EINTR);
      after = rp_timed_call_end (call);
      if (n < 0)
        {
          GError *error = NULL;

          rp_error_set_from_errno (&error, errno, _("Cold-read probe: reading in"), directory);
          rp_part_host_fail (host, error);
          return;
        }
      rp_series_append (series, rp_part_host_time_from_monotonic (host, before), after - before);
      rp_part_host_changed (host);
    }
  while (rp_part_host_sleep (host, probe->interval));
}

static const RpWorkerClass worker = {
  .name = "cold-read",
  .prepare = cold_read_probe_prepare,
  .run = cold_read_probe_run,
  .free_state = cold_read_probe_free,
};

static const RpParamInfo params[] = {
  /* At least one 4 KiB block to read; a file the size of the RAM would take
   * as long to prepare as a run. */
  { "cold_read_file_size", "cold-read-size", "cold-read-size", RP_PARAM_SIZE, 64 * RP_KiB, 16 * RP_GiB, 64 * RP_MiB, NULL,
    N_("Cold-read probe: size of the file read from (default 64M)"), N_("SIZE") },
  { "cold_read_interval", "cold-read-interval", "cold-read-interval", RP_PARAM_SECONDS, 0.01, 3600, 0.5, NULL,
    N_("Cold-read probe: seconds between reads (default 0.5)"), N_("SECONDS") },
};

static const RpSeriesInfo series[] = {
  { "cold_read_latency", "s", N_("Cold read latency"), "disk-latency", N_("cold read"), N_("Cold read"),
    N_("Time to read 4 KiB of a file that is not in the page cache"),
    14, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Cold reads"), NULL, RP_CALL_KIND_READ, N_("A cold read") },
};

static guint64
cold_read_write_budget (const RpParams *p)
{
  return rp_params_get_size (p, "cold_read_file_size");
}

static char *
cold_read_describe (const RpParams *p)
{
  g_autofree char *size = rp_format_size (rp_params_get_size (p, "cold_read_file_size"));

  /* TRANSLATORS: "4 KiB of a 64.0 MiB file every 0.5 s" */
  return g_strdup_printf (_("4 KiB of a %s file every %g s"), size,
                          rp_params_get_seconds (p, "cold_read_interval"));
}

/* ioping-style random 4 KiB reads of pages evicted from the page cache. */
const RpPartInfo rp_cold_read_part = {
  .id = "cold-read",
  .role = RP_PART_PROBE,
  .label = N_("Cold-read probe"),
  /* TRANSLATORS: %s is e.g. "4 KiB of a 64.0 MiB file every 0.5 s" */
  .sentence = N_("cold read %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .write_budget = cold_read_write_budget,
  .describe = cold_read_describe,
};
