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
#include "rp-io.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-rate-meter.h"

/* Throughput samples every 0.5 s, as the sequential writer's. */
#define RATE_PERIOD 0.5

/* The source is written in pieces of this size while preparing. */
#define FILL_CHUNK RP_MiB

/* R2 ran `cp` in an endless loop on ext3 (2004). The load must weigh what cp
 * weighs today, or the probe would understate it: coreutils 9 copies with
 * copy_file_range(), which the kernel does within the page cache, without
 * the two copies through user space that read() and write() cost (15 % more
 * throughput here, issue 8, benchmark 2). So does this, in COPY_CHUNK pieces
 * so that progress and a stop are seen in time; where the kernel refuses
 * (another file system type, an old kernel) it falls back to read() and
 * write() of a 128 KiB buffer, as cp did in 2004. No reflink: cp tries one
 * first, but a clone copies nothing, and R2's file systems have none. Each
 * copy goes to a new anonymous file that is closed, and so discarded, once
 * complete, which is what `cp a b` over an existing b amounted to (truncate,
 * then write). */

/* copy_file_range() pieces: big enough that the call costs nothing, small
 * enough (a few ms) for the 0.5 s throughput samples and a prompt stop. */
#define COPY_CHUNK (8 * RP_MiB)

typedef struct {
  int      source_fd;
  guint64  source_size;
  guint64  buffer_size;
  char    *buffer;
  /* Cleared for good the first time the kernel refuses copy_file_range(). */
  gboolean use_copy_range;
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

/* Fills the source with pseudo-random bytes (a file system that compresses
 * would make zeros free to copy) and flushes it, so that its writeback does
 * not fall into the measured run. A stop requested meanwhile ends early. */
static gboolean
fill_source (CopyLoop    *loop,
             RpPartHost   *host,
             guint64      size,
             GError     **error)
{
  const char *directory = rp_part_host_get_directory (host);
  g_autofree guint32 *chunk = rp_buffer_try_new (FILL_CHUNK, _("Copy loop"), error);
  g_autoptr(GRand) rand = g_rand_new ();

  if (chunk == NULL)
    return FALSE;
  for (gsize i = 0; i < FILL_CHUNK / sizeof (guint32); i++)
    chunk[i] = g_rand_int (rand);

  while (loop->source_size < size && !rp_part_host_should_stop (host))
    {
      gsize n = (gsize) MIN (size - loop->source_size, FILL_CHUNK);

      if (!rp_write_all (loop->source_fd, (const char *) chunk, n))
        {
          rp_error_set_from_errno (error, errno, _("Copy loop: writing the source file in"), directory);
          return FALSE;
        }
      loop->source_size += n;
    }

  if (!rp_part_host_should_stop (host) && fdatasync (loop->source_fd) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Copy loop: flushing the source file in"), directory);
      return FALSE;
    }
  return TRUE;
}

static gpointer
copy_loop_prepare (RpPartHost *host,
                   GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  CopyLoop *loop = g_new0 (CopyLoop, 1);

  loop->buffer_size = rp_params_get_size (params, "copy_buffer_size");
  loop->source_fd = -1;
  loop->buffer = rp_buffer_try_new (loop->buffer_size, _("Copy loop"), error);
  loop->use_copy_range = TRUE;
  if (loop->buffer != NULL)
    loop->source_fd = rp_part_host_open_tmpfile (host, 0, error);
  if (loop->source_fd < 0 || !fill_source (loop, host, rp_params_get_size (params, "copy_source_size"), error))
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

/* The errors with which copy_file_range() says "not here", rather than that
 * the copy failed: then read() and write() will do. */
static gboolean
copy_range_unsupported (int saved_errno)
{
  return saved_errno == ENOSYS || saved_errno == EXDEV || saved_errno == EINVAL ||
         saved_errno == EOPNOTSUPP || saved_errno == EBADF;
}

/* The next piece of the copy at @offset: copy_file_range() while the kernel
 * takes it, else pread() and write(). Returns the bytes copied, or -1 with
 * errno set and @out_reading telling whether reading failed (for the
 * message); a short write is an error, write_all() retries partial ones. */
static ssize_t
copy_piece (CopyLoop *loop,
            int       target,
            guint64   offset,
            gboolean *out_reading)
{
  ssize_t n;

  *out_reading = FALSE;

  if (loop->use_copy_range)
    {
      loff_t in = (loff_t) offset, out = (loff_t) offset;

      n = copy_file_range (loop->source_fd, &in, target, &out,
                           (size_t) MIN (COPY_CHUNK, loop->source_size - offset), 0);
      /* Some kernels and file systems give EINVAL or EXDEV only at the first
       * call; nothing was copied, so the fallback starts at the same offset. */
      if (n >= 0 || !copy_range_unsupported (errno) || offset > 0)
        return n;
      loop->use_copy_range = FALSE;
    }

  n = pread (loop->source_fd, loop->buffer, loop->buffer_size, (off_t) offset);
  if (n <= 0)
    {
      *out_reading = TRUE;
      return n;
    }
  if (!rp_write_all (target, loop->buffer, (gsize) n))
    return -1;
  return n;
}

/* One copy, with explicit offsets so that the source's offset never matters. */
static CopyResult
copy_once (CopyLoop     *loop,
           RpPartHost    *host,
           RpRateMeter  *meter,
           GError      **error)
{
  const char *directory = rp_part_host_get_directory (host);
  guint64 offset = 0;
  CopyResult result = COPY_DONE;
  int target;

  target = rp_part_host_open_tmpfile (host, 0, error);
  if (target < 0)
    return COPY_FAILED;

  while (offset < loop->source_size)
    {
      gboolean reading;
      ssize_t n = copy_piece (loop, target, offset, &reading);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          /* copy_file_range() fails for either end: "writing" names the
           * target, where space and quota run out. */
          rp_error_set_from_errno (error, n < 0 ? errno : EIO,
                                   reading ? _("Copy loop: reading in") : _("Copy loop: writing in"),
                                   directory);
          result = COPY_FAILED;
          break;
        }
      offset += (guint64) n;
      if (rp_rate_meter_add (meter, (guint64) n, rp_part_host_now (host)))
        rp_part_host_changed (host);
      if (rp_part_host_should_stop (host))
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
copy_loop_run (RpPartHost *host,
               gpointer   state)
{
  CopyLoop *loop = state;
  RpSeries *throughput, *durations;
  RpRateMeter meter;
  CopyResult result = COPY_DONE;
  guint64 copies = 0;
  double start = rp_part_host_now (host);
  GError *error = NULL;

  throughput = rp_part_host_ensure_series (host, "copy_throughput", "B/s", _("Copy throughput"));
  durations = rp_part_host_ensure_series (host, "copy_duration", "s", _("Time per copy"));
  rp_rate_meter_init (&meter, throughput, RATE_PERIOD, start);

  while (result == COPY_DONE && !rp_part_host_should_stop (host))
    {
      double before = rp_clock_now ();

      result = copy_once (loop, host, &meter, &error);
      if (result == COPY_DONE)
        {
          double after = rp_clock_now ();

          copies++;
          rp_series_append (durations, rp_part_host_time_from_monotonic (host, after), after - before);
          rp_part_host_changed (host);
        }
    }
  if (result == COPY_FAILED)
    rp_part_host_fail (host, error);

  {
    g_autofree char *count_text = g_strdup_printf ("%" G_GUINT64_FORMAT, copies);
    g_autofree char *bytes_text = g_strdup_printf ("%" G_GUINT64_FORMAT, meter.bytes);
    g_autofree char *source_text = g_strdup_printf ("%" G_GUINT64_FORMAT, loop->source_size);
    double end = rp_part_host_now (host);

    rp_rate_meter_flush (&meter, end);
    rp_part_host_set_note (host, "copy_count", count_text);
    rp_part_host_set_note (host, "copy_bytes_total", bytes_text);
    rp_part_host_set_note (host, "copy_source_bytes", source_text);
    rp_part_host_set_number_note (host, "copy_seconds", "%.3f", end - start);
  }
}

static const RpWorkerClass worker = {
  .name = "copy-loop",
  .prepare = copy_loop_prepare,
  .run = copy_loop_run,
  .free_state = copy_loop_free,
};

static const RpParamInfo params[] = {
  /* Also set by --size when there is no writer (app/cli). */
  { "copy_source_size", "copy-size", "copy-size", RP_PARAM_SIZE, RP_MiB, (double) (G_MAXUINT64 / 4), RP_GiB, NULL,
    N_("Copy loop: size of the file copied (default 1G)"), N_("SIZE") },
  { "copy_buffer_size", "copy-buffer", "copy-buffer", RP_PARAM_SIZE, 512, 64 * RP_MiB, 128 * RP_KiB, NULL,
    N_("Copy loop: size of each read() and write() (default 128K)"), N_("SIZE") },
};

static const RpSeriesInfo series[] = {
  { "copy_throughput", "B/s", N_("Copy throughput"), "throughput", N_("copy"), NULL, NULL,
    32, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
  { "copy_duration", "s", N_("Time per copy"), NULL, NULL, NULL, NULL,
    33, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_NONE },
};

/* The copied file must hold at least one buffer, and a megabyte. */
static gboolean
copy_loop_validate (const RpParams  *p,
                    GError         **error)
{
  return rp_params_check_size (rp_params_get_size (p, "copy_source_size"),
                               MAX (rp_params_get_size (p, "copy_buffer_size"), RP_MiB),
                               G_MAXUINT64 / 4, "copy-size", error);
}

/* The source and one copy at a time. */
static guint64
copy_loop_write_budget (const RpParams *p)
{
  return 2 * rp_params_get_size (p, "copy_source_size");
}

static char *
copy_loop_describe (const RpParams *p)
{
  g_autofree char *size = rp_format_size (rp_params_get_size (p, "copy_source_size"));
  g_autofree char *buffer = rp_format_size (rp_params_get_size (p, "copy_buffer_size"));

  /* TRANSLATORS: "1.0 GiB file, 128.0 KiB buffer" */
  return g_strdup_printf (_("%s file, %s buffer"), size, buffer);
}

/* R2's endless copy of one file into the same directory. */
const RpPartInfo rp_copy_loop_part = {
  .id = "copy-loop",
  .role = RP_PART_LOAD,
  .label = N_("Copy loop"),
  /* TRANSLATORS: %s is e.g. "1.0 GiB file, 128.0 KiB buffer" */
  .sentence = N_("copy loop of a %s"),
  .start_rank = 2,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .validate = copy_loop_validate,
  .write_budget = copy_loop_write_budget,
  .describe = copy_loop_describe,
};
