/* rp-random-writer.c: 4 KiB buffered writes at random offsets of a big file, `fio --rw=randwrite`. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "rp-call-window.h"
#include "rp-clock.h"
#include "rp-error.h"
#include "rp-io.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-rate-meter.h"
#include "rp-units.h"

/* Throughput samples every 0.5 s, as the other loads'. */
#define RATE_PERIOD 0.5

/* The file is laid out in pieces of this size before the run. */
#define LAYOUT_CHUNK (1024 * 1024)

/* The load of a database, a browser profile, a VM image: small writes all
 * over a big file, buffered, so that the page cache fills with dirty pages
 * that writeback must write out in a seek-heavy order (fio --rw=randwrite
 * --bs=4k, without --direct). The file is written before the run, as fio
 * lays its file out first, so that the run measures rewriting, not block
 * allocation. Offsets are aligned to the
 * write size and drawn uniformly (fio's default random distribution). */

typedef struct {
  int      fd;
  guint64  file_size;
  guint64  write_size;
  char    *buffer;
} RandomWriter;

static void
random_writer_free (gpointer data)
{
  RandomWriter *writer = data;

  if (writer->fd >= 0)
    close (writer->fd);
  g_free (writer->buffer);
  g_free (writer);
}

/* Written once from start to end and flushed, as fio lays its file out.
 * Not posix_fallocate(): random writes into unwritten extents split them
 * into tens of thousands, and freeing such a file on a file system mounted
 * with `discard` was seen to take minutes of synchronous discards at the
 * end of a run. */
static gboolean
lay_out (RandomWriter  *writer,
         RpPartHost    *host,
         GError       **error)
{
  g_autofree char *chunk = g_malloc (LAYOUT_CHUNK);

  for (gsize i = 0; i < LAYOUT_CHUNK; i++)
    chunk[i] = (char) (i * 97 + 11);
  for (guint64 written = 0; written < writer->file_size; written += LAYOUT_CHUNK)
    if (!rp_write_all (writer->fd, chunk, (gsize) MIN (writer->file_size - written, LAYOUT_CHUNK)))
      {
        rp_error_set_from_errno (error, errno, _("Random writer: writing its file in"),
                                 rp_part_host_get_directory (host));
        return FALSE;
      }
  if (fdatasync (writer->fd) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Random writer: writing its file in"),
                               rp_part_host_get_directory (host));
      return FALSE;
    }
  /* Out of the page cache, as fio drops its file's pages before a job
   * (invalidate=1). Left there, the layout's 1 MiB writes leave large folios
   * behind (ext4 has them since Linux 6.x), and each 4 KiB write dirties a
   * whole folio, which writeback then writes whole: seen here as 9 MB/s
   * against 58 MB/s with the pages dropped, on the same file system. */
  posix_fadvise (writer->fd, 0, 0, POSIX_FADV_DONTNEED);
  return TRUE;
}

static gpointer
random_writer_prepare (RpPartHost *host,
                       GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  RandomWriter *writer = g_new0 (RandomWriter, 1);

  writer->file_size = rp_params_get_size (params, "random_file_size");
  writer->write_size = rp_params_get_size (params, "random_write_size");
  writer->buffer = g_malloc (writer->write_size);
  /* Not zeros: nothing below may skip or compress them. */
  for (guint64 i = 0; i < writer->write_size; i++)
    writer->buffer[i] = (char) (i * 97 + 11);
  writer->fd = rp_part_host_open_tmpfile (host, 0, error);
  if (writer->fd < 0)
    {
      random_writer_free (writer);
      return NULL;
    }
  if (!lay_out (writer, host, error))
    {
      random_writer_free (writer);
      return NULL;
    }
  return writer;
}

static gboolean
write_at (RandomWriter *writer,
          off_t         offset)
{
  guint64 done = 0;

  while (done < writer->write_size)
    {
      ssize_t n = pwrite (writer->fd, writer->buffer + done, writer->write_size - done, offset + (off_t) done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      done += (guint64) n;
    }
  return TRUE;
}

static void
random_writer_run (RpPartHost *host,
                   gpointer   state)
{
  RandomWriter *writer = state;
  RpSeries *throughput = rp_part_host_ensure_series (host, "random_writer_throughput", "B/s",
                                                     _("Random writer throughput"));
  g_autoptr(GRand) rand = g_rand_new ();
  guint64 slots = writer->file_size / writer->write_size;
  double start = rp_part_host_now (host);
  double cpu_start = rp_clock_thread_cpu_seconds ();
  guint64 bytes = 0;
  RpRateMeter meter;
  /* Each write is a timed call (issue 31), so that its stalls have their
   * causes; thousands a second: the longest of every 0.1 s is kept. */
  RpTimedCall *call = rp_part_host_open_call (host);
  RpCallWindow calls;

  rp_timed_call_set_frequent (call, TRUE);
  rp_call_window_init (&calls, rp_part_host_ensure_series (host, "random_write_latency", "s",
                                                           _("Longest write() per 0.1 s, random writer")));
  rp_rate_meter_init (&meter, throughput, RATE_PERIOD, start);
  while (!rp_part_host_should_stop (host))
    {
      guint64 slot = (guint64) g_rand_double_range (rand, 0, (double) slots);
      double before = rp_timed_call_begin (call, "random_write_latency");
      gboolean written = write_at (writer, (off_t) (MIN (slot, slots - 1) * writer->write_size));
      double after = rp_timed_call_end (call);

      if (written)
        rp_call_window_record (&calls, rp_part_host_time_from_monotonic (host, before), after - before);
      if (!written)
        {
          GError *error = NULL;

          rp_error_set_from_errno (&error, errno, _("Random writer: writing in"),
                                   rp_part_host_get_directory (host));
          rp_part_host_fail (host, error);
          break;
        }
      bytes += writer->write_size;
      if (rp_rate_meter_add (&meter, writer->write_size, rp_part_host_now (host)))
        rp_part_host_changed (host);
    }
  rp_rate_meter_flush (&meter, rp_part_host_now (host));
  rp_call_window_flush (&calls);
  rp_call_window_notes (host, "random_write", calls.calls, calls.over_instant, calls.over_flow);
  rp_part_host_set_number_note (host, "random_writer_bytes_total", "%.0f", (double) bytes);
  rp_part_host_set_number_note (host, "random_writer_seconds", "%.3f", rp_part_host_now (host) - start);
  rp_part_host_set_number_note (host, "random_writer_cpu_seconds", "%.3f",
                                rp_clock_thread_cpu_seconds () - cpu_start);
}

static const RpWorkerClass worker = {
  .name = "random-writer",
  .prepare = random_writer_prepare,
  .run = random_writer_run,
  .free_state = random_writer_free,
};

static const RpParamInfo params[] = {
  { "random_file_size", "random-file-size", "random-file-size", RP_PARAM_SIZE, RP_MiB, 1024 * RP_GiB, RP_GiB, NULL,
    N_("Random writer: size of its file, written before the run (default 1G)"), N_("SIZE") },
  { "random_write_size", "random-write-size", "random-write-size", RP_PARAM_SIZE, 512, RP_MiB, 4 * RP_KiB, NULL,
    N_("Random writer: size of each write() at a random offset (default 4K)"), N_("SIZE") },
};

static const RpSeriesInfo series[] = {
  { "random_writer_throughput", "B/s", N_("Random writer throughput"), "throughput", N_("random writer"), NULL, NULL,
    33, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
  { "random_write_latency", "s", N_("Longest write() per 0.1 s, random writer"), "disk-latency",
    N_("random write()"), N_("Random write()"), N_("Time of one write() call of the random writer"),
    28, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("The random writer’s write() calls"), "random_write_calls", RP_CALL_KIND_WRITE,
    /* TRANSLATORS: opens a sentence: "The random writer's write() took 2.1 s at 3.0 s" */
    N_("The random writer’s write()") },
};

static gboolean
random_writer_validate (const RpParams  *p,
                        GError         **error)
{
  return rp_params_check_size (rp_params_get_size (p, "random_file_size"),
                               rp_params_get_size (p, "random_write_size"), 1024 * RP_GiB,
                               "random-file-size", error);
}

static guint64
random_writer_write_budget (const RpParams *p)
{
  return rp_params_get_size (p, "random_file_size");
}

static char *
random_writer_describe (const RpParams *p)
{
  g_autofree char *write_size = rp_format_size (rp_params_get_size (p, "random_write_size"));
  g_autofree char *file_size = rp_format_size (rp_params_get_size (p, "random_file_size"));

  /* TRANSLATORS: "4.0 KiB writes at random offsets of a 1.0 GiB file" */
  return g_strdup_printf (_("%s writes at random offsets of a %s file"), write_size, file_size);
}

/* fio --rw=randwrite --bs=4k, buffered. */
const RpPartInfo rp_random_writer_part = {
  .id = "random-writer",
  .role = RP_PART_LOAD,
  .label = N_("Random writer"),
  /* TRANSLATORS: %s is e.g. "4.0 KiB writes at random offsets of a 1.0 GiB file" */
  .sentence = N_("random writer, %s"),
  .start_rank = 2,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .validate = random_writer_validate,
  .write_budget = random_writer_write_budget,
  .describe = random_writer_describe,
};
