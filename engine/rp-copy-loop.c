/* rp-copy-loop.c: the copy loop load of R2: copy one file into the same directory, again and again. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-units.h"
#include "rp-workers.h"

/* Throughput samples every 0.5 s, as the sequential writer's. */
#define RATE_PERIOD 0.5

/* The source is written in pieces of this size while preparing. */
#define FILL_CHUNK RP_MiB

/* R2 ran `cp` in an endless loop on ext3 (2004): cp then copied with read()
 * and write() of a fixed buffer, so this does the same (no copy_file_range(),
 * no reflink), 128 KiB at a time, as coreutils' buffer was. Each copy goes to
 * a new anonymous file that is closed, and so discarded, once complete, which
 * is what `cp a b` over an existing b amounted to (truncate, then write). */

typedef struct {
  int     source_fd;
  guint64 source_size;
  guint64 buffer_size;
  char   *buffer;
} CopyLoop;

static void
copy_loop_free (gpointer data)
{
  CopyLoop *loop = data;

  if (loop->source_fd >= 0)
    close (loop->source_fd);
  g_free (loop->buffer);
  g_free (loop);
}

static gboolean
write_all (int         fd,
           const char *buffer,
           gsize       size)
{
  while (size > 0)
    {
      ssize_t n = write (fd, buffer, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      buffer += n;
      size -= (gsize) n;
    }
  return TRUE;
}

/* Fills the source with pseudo-random bytes (a file system that compresses
 * would make zeros free to copy) and flushes it, so that its writeback does
 * not fall into the measured run. A stop requested meanwhile ends early. */
static gboolean
fill_source (CopyLoop    *loop,
             RpSession   *session,
             guint64      size,
             GError     **error)
{
  const char *directory = rp_session_get_scenario (session)->directory;
  g_autofree guint32 *chunk = g_new (guint32, FILL_CHUNK / sizeof (guint32));
  g_autoptr(GRand) rand = g_rand_new ();

  for (gsize i = 0; i < FILL_CHUNK / sizeof (guint32); i++)
    chunk[i] = g_rand_int (rand);

  while (loop->source_size < size && !rp_session_worker_should_stop (session))
    {
      gsize n = (gsize) MIN (size - loop->source_size, FILL_CHUNK);

      if (!write_all (loop->source_fd, (const char *) chunk, n))
        {
          rp_error_set_from_errno (error, errno, _("Copy loop: writing the source file in"), directory);
          return FALSE;
        }
      loop->source_size += n;
    }

  if (!rp_session_worker_should_stop (session) && fdatasync (loop->source_fd) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Copy loop: flushing the source file in"), directory);
      return FALSE;
    }
  return TRUE;
}

static gpointer
copy_loop_prepare (RpSession  *session,
                   GError    **error)
{
  const RpScenario *scenario = rp_session_get_scenario (session);
  CopyLoop *loop = g_new0 (CopyLoop, 1);

  loop->buffer_size = scenario->copy_buffer_size;
  loop->buffer = g_malloc (loop->buffer_size);
  loop->source_fd = rp_session_worker_open_tmpfile (session, 0, error);
  if (loop->source_fd < 0 || !fill_source (loop, session, scenario->copy_source_size, error))
    {
      copy_loop_free (loop);
      return NULL;
    }
  return loop;
}

typedef enum {
  COPY_DONE,
  COPY_STOPPED,
  COPY_FAILED,
} CopyResult;

/* One copy, read with pread() so that the source's offset never matters. */
static CopyResult
copy_once (CopyLoop     *loop,
           RpSession    *session,
           RpRateMeter  *meter,
           GError      **error)
{
  const char *directory = rp_session_get_scenario (session)->directory;
  guint64 offset = 0;
  CopyResult result = COPY_DONE;
  int target;

  target = rp_session_worker_open_tmpfile (session, 0, error);
  if (target < 0)
    return COPY_FAILED;

  while (offset < loop->source_size)
    {
      ssize_t n = pread (loop->source_fd, loop->buffer, loop->buffer_size, (off_t) offset);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          rp_error_set_from_errno (error, n < 0 ? errno : EIO, _("Copy loop: reading in"), directory);
          result = COPY_FAILED;
          break;
        }
      if (!write_all (target, loop->buffer, (gsize) n))
        {
          rp_error_set_from_errno (error, errno, _("Copy loop: writing in"), directory);
          result = COPY_FAILED;
          break;
        }
      offset += (guint64) n;
      if (rp_rate_meter_add (meter, (guint64) n, rp_session_worker_now (session)))
        rp_session_worker_changed (session);
      if (rp_session_worker_should_stop (session))
        {
          result = COPY_STOPPED;
          break;
        }
    }

  /* Closing drops the unlinked copy: its dirty pages are discarded, the
   * blocks freed, as `rm` or cp's truncation would. */
  close (target);
  return result;
}

static void
copy_loop_run (RpSession *session,
               gpointer   state)
{
  CopyLoop *loop = state;
  RpSeries *throughput, *durations;
  RpRateMeter meter;
  CopyResult result = COPY_DONE;
  guint64 copies = 0;
  double start = rp_session_worker_now (session);
  GError *error = NULL;

  throughput = rp_session_ensure_series (session, "copy_throughput", "B/s", _("Copy throughput"));
  durations = rp_session_ensure_series (session, "copy_duration", "s", _("Time per copy"));
  rp_rate_meter_init (&meter, throughput, RATE_PERIOD, start);

  while (result == COPY_DONE && !rp_session_worker_should_stop (session))
    {
      double before = rp_clock_now ();

      result = copy_once (loop, session, &meter, &error);
      if (result == COPY_DONE)
        {
          double after = rp_clock_now ();

          copies++;
          rp_series_append (durations, rp_session_time_from_monotonic (session, after), after - before);
          rp_session_worker_changed (session);
        }
    }
  if (result == COPY_FAILED)
    rp_session_worker_fail (session, error);

  {
    g_autofree char *count_text = g_strdup_printf ("%" G_GUINT64_FORMAT, copies);
    g_autofree char *bytes_text = g_strdup_printf ("%" G_GUINT64_FORMAT, meter.bytes);
    g_autofree char *source_text = g_strdup_printf ("%" G_GUINT64_FORMAT, loop->source_size);
    g_autofree char *seconds_text = NULL;
    double end = rp_session_worker_now (session);

    seconds_text = g_strdup_printf ("%.3f", end - start);
    rp_rate_meter_flush (&meter, end);
    rp_session_set_note (session, "copy_count", count_text);
    rp_session_set_note (session, "copy_bytes_total", bytes_text);
    rp_session_set_note (session, "copy_source_bytes", source_text);
    rp_session_set_note (session, "copy_seconds", seconds_text);
  }
}

const RpWorkerClass rp_copy_loop_class = {
  .name = "copy-loop",
  .prepare = copy_loop_prepare,
  .run = copy_loop_run,
  .free_state = copy_loop_free,
};
