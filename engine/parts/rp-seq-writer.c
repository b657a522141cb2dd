/* rp-seq-writer.c: the sequential writer load, `dd if=/dev/zero of=F bs=BS count=N` of R1. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-workers.h"

/* Throughput samples every 0.5 s (issue 2). */
#define RATE_PERIOD 0.5

/* O_DIRECT needs buffers aligned to the logical block size; 4096 covers every
 * disk in use today. */
#define BUFFER_ALIGNMENT 4096

typedef struct {
  int      fd;
  void    *buffer;
  guint64  block_size;
  guint64  total_size;
  gboolean fdatasync_at_end;
} SeqWriter;

static void
seq_writer_free (gpointer data)
{
  SeqWriter *writer = data;

  if (writer->fd >= 0)
    close (writer->fd);
  free (writer->buffer);
  g_free (writer);
}

static gpointer
seq_writer_prepare (RpSession  *session,
                    GError    **error)
{
  const RpScenario *scenario = rp_session_get_scenario (session);
  SeqWriter *writer = g_new0 (SeqWriter, 1);
  int flags = scenario->writer_direct ? O_DIRECT : 0;

  writer->block_size = scenario->writer_block_size;
  writer->total_size = scenario->writer_total_size;
  writer->fdatasync_at_end = scenario->writer_fdatasync;

  /* Zeros, as from /dev/zero: the page cache does not care about content, and
   * no file system here compresses or deduplicates by default. */
  if (posix_memalign (&writer->buffer, BUFFER_ALIGNMENT, writer->block_size) != 0)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_FAILED,
                           _("Out of memory for the writer’s buffer"));
      writer->fd = -1;
      seq_writer_free (writer);
      return NULL;
    }
  memset (writer->buffer, 0, writer->block_size);

  writer->fd = rp_session_worker_open_tmpfile (session, flags, error);
  if (writer->fd < 0)
    {
      if (scenario->writer_direct && error && *error && g_error_matches (*error, RP_ERROR, RP_ERROR_IO))
        g_prefix_error (error, _("O_DIRECT may not be supported here: "));
      seq_writer_free (writer);
      return NULL;
    }
  return writer;
}

/* One block of @length bytes (the last one may be short, so that the
 * writer writes the size asked for, not the next multiple of the block),
 * retrying partial writes and EINTR as dd does. */
static gboolean
write_block (SeqWriter  *writer,
             guint64     length,
             GError    **error,
             RpSession  *session)
{
  const char *p = writer->buffer;
  guint64 left = length;

  while (left > 0)
    {
      ssize_t n = write (writer->fd, p, left);

      if (n < 0)
        {
          if (errno == EINTR)
            continue;
          rp_error_set_from_errno (error, errno, _("Writing to"),
                                   rp_session_get_scenario (session)->directory);
          return FALSE;
        }
      p += n;
      left -= (guint64) n;
    }
  return TRUE;
}

static void
seq_writer_run (RpSession *session,
                gpointer   state)
{
  SeqWriter *writer = state;
  RpSeries *throughput, *written;
  RpRateMeter meter;
  guint64 bytes = 0;
  double start = rp_session_worker_now (session);
  GError *error = NULL;

  throughput = rp_session_ensure_series (session, "writer_throughput", "B/s",
                                         _("Writer throughput"));
  written = rp_session_ensure_series (session, "writer_bytes", "B", _("Bytes written"));
  rp_rate_meter_init (&meter, throughput, RATE_PERIOD, start);

  while (bytes < writer->total_size && !rp_session_worker_should_stop (session))
    {
      guint64 length = MIN (writer->block_size, writer->total_size - bytes);
      double now;

      if (!write_block (writer, length, &error, session))
        {
          rp_session_worker_fail (session, error);
          break;
        }
      bytes += length;
      now = rp_session_worker_now (session);
      if (rp_rate_meter_add (&meter, length, now))
        {
          rp_series_append (written, now, (double) bytes);
          rp_session_worker_changed (session);
        }
    }

  if (bytes >= writer->total_size && writer->fdatasync_at_end && error == NULL)
    {
      double before = rp_clock_now ();

      /* conv=fdatasync: dd's throughput then includes writing the data out. */
      if (fdatasync (writer->fd) != 0)
        {
          rp_error_set_from_errno (&error, errno, _("Flushing"),
                                   rp_session_get_scenario (session)->directory);
          rp_session_worker_fail (session, error);
        }
      else
        {
          g_autofree char *text = g_strdup_printf ("%.4f", rp_clock_now () - before);
          rp_session_set_note (session, "writer_fdatasync_seconds", text);
        }
    }

  {
    double end = rp_session_worker_now (session);
    g_autofree char *bytes_text = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
    g_autofree char *seconds_text = g_strdup_printf ("%.3f", end - start);

    rp_rate_meter_flush (&meter, end);
    rp_series_append (written, end, (double) bytes);
    rp_session_set_note (session, "writer_bytes_total", bytes_text);
    rp_session_set_note (session, "writer_seconds", seconds_text);
  }
}

const RpWorkerClass rp_seq_writer_class = {
  .name = "seq-writer",
  .prepare = seq_writer_prepare,
  .run = seq_writer_run,
  .free_state = seq_writer_free,
};
