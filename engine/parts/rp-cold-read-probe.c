/* rp-cold-read-probe.c: random 4 KiB reads of a file evicted from the page cache (ioping style). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-workers.h"

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
           RpSession      *session,
           GError        **error)
{
  const char *directory = rp_session_get_scenario (session)->directory;
  g_autofree char *chunk = g_malloc (FILL_CHUNK);
  guint64 written = 0;

  /* Not zeros: a file system that compresses or skips zero blocks would have
   * nothing to read. */
  for (gsize i = 0; i < FILL_CHUNK; i++)
    chunk[i] = (char) (i * 131 + 7);

  while (written < probe->size)
    {
      ssize_t n = write (probe->fd, chunk, (gsize) MIN (probe->size - written, FILL_CHUNK));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          rp_error_set_from_errno (error, errno, _("Cold-read probe: writing its file in"), directory);
          return FALSE;
        }
      written += (guint64) n;
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
cold_read_probe_prepare (RpSession  *session,
                         GError    **error)
{
  const RpScenario *scenario = rp_session_get_scenario (session);
  ColdReadProbe *probe = g_new0 (ColdReadProbe, 1);

  probe->size = scenario->cold_read_file_size - scenario->cold_read_file_size % READ_SIZE;
  probe->interval = scenario->cold_read_interval;
  probe->fd = rp_session_worker_open_tmpfile (session, 0, error);
  if (probe->fd < 0 || !fill_file (probe, session, error))
    {
      cold_read_probe_free (probe);
      return NULL;
    }
  return probe;
}

static void
cold_read_probe_run (RpSession *session,
                     gpointer   state)
{
  ColdReadProbe *probe = state;
  const char *directory = rp_session_get_scenario (session)->directory;
  RpSeries *series;
  g_autoptr(GRand) rand = g_rand_new ();
  guint64 blocks = probe->size / READ_SIZE;

  series = rp_session_ensure_series (session, "cold_read_latency", "s", _("Cold read latency"));

  do
    {
      guint64 block = MIN ((guint64) g_rand_double_range (rand, 0, (double) blocks), blocks - 1);
      off_t offset = (off_t) (block * READ_SIZE);
      double before, after;
      ssize_t n;

      posix_fadvise (probe->fd, 0, 0, POSIX_FADV_DONTNEED);
      before = rp_clock_now ();
      do
        n = pread (probe->fd, probe->buffer, READ_SIZE, offset);
      while (n < 0 && errno == EINTR);
      after = rp_clock_now ();
      if (n < 0)
        {
          GError *error = NULL;

          rp_error_set_from_errno (&error, errno, _("Cold-read probe: reading in"), directory);
          rp_session_worker_fail (session, error);
          return;
        }
      rp_series_append (series, rp_session_time_from_monotonic (session, before), after - before);
      rp_session_worker_changed (session);
    }
  while (rp_session_worker_sleep (session, probe->interval));
}

const RpWorkerClass rp_cold_read_probe_class = {
  .name = "cold-read",
  .prepare = cold_read_probe_prepare,
  .run = cold_read_probe_run,
  .free_state = cold_read_probe_free,
};
