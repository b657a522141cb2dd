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
#include "rp-params.h"
#include "rp-units.h"
#include "rp-parts.h"
#include "rp-rate-meter.h"

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
seq_writer_prepare (RpPartHost *host,
                    GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  SeqWriter *writer = g_new0 (SeqWriter, 1);
  int flags = rp_params_get_flag (params, "writer_direct") ? O_DIRECT : 0;

  writer->block_size = rp_params_get_size (params, "writer_block_size");
  writer->total_size = rp_params_get_size (params, "writer_total_size");
  writer->fdatasync_at_end = rp_params_get_flag (params, "writer_fdatasync");

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

  writer->fd = rp_part_host_open_tmpfile (host, flags, error);
  if (writer->fd < 0)
    {
      if (rp_params_get_flag (params, "writer_direct") && error && *error && g_error_matches (*error, RP_ERROR, RP_ERROR_IO))
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
             RpPartHost *host)
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
                                   rp_part_host_get_directory (host));
          return FALSE;
        }
      p += n;
      left -= (guint64) n;
    }
  return TRUE;
}

static void
seq_writer_run (RpPartHost *host,
                gpointer   state)
{
  SeqWriter *writer = state;
  RpSeries *throughput, *written;
  RpRateMeter meter;
  guint64 bytes = 0;
  double start = rp_part_host_now (host);
  GError *error = NULL;

  throughput = rp_part_host_ensure_series (host, "writer_throughput", "B/s",
                                         _("Writer throughput"));
  written = rp_part_host_ensure_series (host, "writer_bytes", "B", _("Bytes written"));
  rp_rate_meter_init (&meter, throughput, RATE_PERIOD, start);

  while (bytes < writer->total_size && !rp_part_host_should_stop (host))
    {
      guint64 length = MIN (writer->block_size, writer->total_size - bytes);
      double now;

      if (!write_block (writer, length, &error, host))
        {
          rp_part_host_fail (host, error);
          break;
        }
      bytes += length;
      now = rp_part_host_now (host);
      if (rp_rate_meter_add (&meter, length, now))
        {
          rp_series_append (written, now, (double) bytes);
          rp_part_host_changed (host);
        }
    }

  if (bytes >= writer->total_size && writer->fdatasync_at_end && error == NULL)
    {
      double before = rp_clock_now ();

      /* conv=fdatasync: dd's throughput then includes writing the data out. */
      if (fdatasync (writer->fd) != 0)
        {
          rp_error_set_from_errno (&error, errno, _("Flushing"),
                                   rp_part_host_get_directory (host));
          rp_part_host_fail (host, error);
        }
      else
        rp_part_host_set_number_note (host, "writer_fdatasync_seconds", "%.4f", rp_clock_now () - before);
    }

  {
    double end = rp_part_host_now (host);
    g_autofree char *bytes_text = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);

    rp_rate_meter_flush (&meter, end);
    rp_series_append (written, end, (double) bytes);
    rp_part_host_set_note (host, "writer_bytes_total", bytes_text);
    rp_part_host_set_number_note (host, "writer_seconds", "%.3f", end - start);
  }
}

static const RpWorkerClass worker = {
  .name = "seq-writer",
  .prepare = seq_writer_prepare,
  .run = seq_writer_run,
  .free_state = seq_writer_free,
};

static const RpParamInfo params[] = {
  { "writer_block_size", "block-size", "block-size", RP_PARAM_SIZE, 512, 64 * RP_MiB, RP_MiB, NULL,
    N_("Writer block size, dd’s bs= (default 1M)"), N_("SIZE") },
  /* Set by --size, whose meaning depends on the loads (app/cli). 0: R1's
   * 15000 MiB, lowered to at most half the free space (run/rp-target.c). */
  { "writer_total_size", "size", NULL, RP_PARAM_SIZE, 1, (double) (G_MAXUINT64 / 2), 0,
    N_("default size"), NULL, NULL, .cli_rule = "size" },
  { "writer_fdatasync", "fdatasync", "fdatasync", RP_PARAM_FLAG, 0, 1, 0, NULL,
    N_("Writer calls fdatasync() at the end (dd conv=fdatasync)"), NULL },
  { "writer_direct", "direct", "direct", RP_PARAM_FLAG, 0, 1, 0, NULL,
    N_("Writer uses O_DIRECT (dd oflag=direct)"), NULL },
};

static const RpSeriesInfo series[] = {
  { "writer_throughput", "B/s", N_("Writer throughput"), "throughput", N_("writer"), NULL, NULL,
    30, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
  { "writer_bytes", "B", N_("Bytes written"), NULL, NULL, NULL, NULL,
    31, RP_SUMMARY_LEVEL, RP_SERIES_FLAG_NONE },
};

/* In bytes, not "1.5 MiB": a rounded size would hide why. */
static gboolean
refuse_unaligned (const char  *name,
                  guint64      value,
                  GError     **error)
{
  g_autofree char *size_text = g_strdup_printf ("%" G_GUINT64_FORMAT, value);

  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("%s: O_DIRECT needs a multiple of 4096 bytes, not %s"), name, size_text);
  return FALSE;
}

static gboolean
seq_writer_validate (const RpParams  *p,
                     GError         **error)
{
  guint64 block_size = rp_params_get_size (p, "writer_block_size");
  guint64 total_size = rp_params_get_size (p, "writer_total_size");
  gboolean direct = rp_params_get_flag (p, "writer_direct");

  if (direct && block_size % 4096 != 0)
    return refuse_unaligned ("block-size", block_size, error);
  if (total_size != 0 && total_size < block_size)
    {
      g_autofree char *size_text = rp_format_size (total_size);
      g_autofree char *block_text = rp_format_size (block_size);

      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: "size: 16.0 MiB is less than one block (block-size 64.0 MiB)" */
                   _("size: %s is less than one block (block-size %s)"), size_text, block_text);
      return FALSE;
    }
  /* The last block is as long as what is left; O_DIRECT takes whole 4 KiB
   * pages only. */
  if (direct && total_size % 4096 != 0)
    return refuse_unaligned ("size", total_size, error);
  return TRUE;
}

static char *
seq_writer_describe (const RpParams *p)
{
  g_autofree char *bs = rp_format_size (rp_params_get_size (p, "writer_block_size"));
  guint64 total_size = rp_params_get_size (p, "writer_total_size");
  g_autofree char *total = total_size ? rp_format_size (total_size) : g_strdup (_("default size"));

  /* TRANSLATORS: block size, total size, "O_DIRECT" or "buffered", and ", conv=fdatasync" or nothing */
  return g_strdup_printf (_("bs=%s, %s, %s%s"), bs, total,
                          rp_params_get_flag (p, "writer_direct") ? "O_DIRECT" : _("buffered"),
                          rp_params_get_flag (p, "writer_fdatasync") ? ", conv=fdatasync" : "");
}

/* The `dd if=/dev/zero of=F bs=1M count=15000` of R1. Its size is budgeted
 * by the target's free-space check itself, which also picks the default. */
const RpPartInfo rp_seq_writer_part = {
  .id = "seq-writer",
  .role = RP_PART_LOAD,
  .label = N_("Sequential writer"),
  /* TRANSLATORS: %s is e.g. "bs=1.0 MiB, 64.0 MiB, buffered" */
  .sentence = N_("sequential writer %s"),
  .start_rank = 2,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .validate = seq_writer_validate,
  .write_budget = NULL,
  .describe = seq_writer_describe,
};
