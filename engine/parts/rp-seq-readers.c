/* rp-seq-readers.c: N threads reading big files sequentially, `dd if=big of=/dev/null` each. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <unistd.h>

#include "rp-call-window.h"
#include "rp-clock.h"
#include "rp-error.h"
#include "rp-headroom.h"
#include "rp-io.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-rate-meter.h"
#include "rp-units.h"

/* Throughput samples every 0.5 s, as the writers'. */
#define RATE_PERIOD 0.5

/* The files are written in pieces of this size while preparing. */
#define FILL_CHUNK (1024 * 1024)

/* The load of the BFQ papers (Valente et al., the S suite's comm_startup_lat
 * "with 5 or 10 readers in the background"): several processes each reading
 * a big file sequentially, buffered, as `dd if=big of=/dev/null bs=1M` does.
 * Reads are what compete with a program being started: its pages are read
 * too, and each scheduler orders the two kinds differently. Each thread has
 * its own file, written and flushed before the run and evicted from the page
 * cache (POSIX_FADV_DONTNEED) before every pass, so that every pass comes
 * from the disk as a first read of a big file does. */

typedef struct _SeqReaders SeqReaders;

typedef struct {
  SeqReaders *parent;
  GThread    *thread;
  int         fd;
  char       *buffer;       /* block_size bytes, from prepare: a memory limit fails the start, not a thread */
  guint64     passes;
  double      cpu_seconds;  /* the thread's own CPU time, set when it ends */
  RpCallWindow calls;       /* its read()s, each timed */
} ReaderThread;

struct _SeqReaders {
  RpPartHost   *host;
  ReaderThread *threads;
  guint         n_threads;
  guint64       block_size;
  guint64       file_size;
  gsize         bytes;        /* atomic (pointer-sized): every thread's reads */
  RpSeries     *latency;      /* read_latency: every thread's window maxima */
  GError       *error;        /* the first thread that failed; under @lock */
  GMutex        lock;
};

static void
seq_readers_free (gpointer data)
{
  SeqReaders *readers = data;

  for (guint i = 0; i < readers->n_threads; i++)
    {
      if (readers->threads[i].fd >= 0)
        close (readers->threads[i].fd);
      g_free (readers->threads[i].buffer);
    }
  g_free (readers->threads);
  g_clear_error (&readers->error);
  g_mutex_clear (&readers->lock);
  g_free (readers);
}

/* Not zeros: a file system that compresses or skips zero blocks would have
 * nothing to read. Flushed, so that the pages are clean and can be evicted. */
static gboolean
fill_file (SeqReaders  *readers,
           int          fd,
           const char  *chunk,
           GError     **error)
{
  const char *directory = rp_part_host_get_directory (readers->host);

  for (guint64 written = 0; written < readers->file_size; written += FILL_CHUNK)
    if (!rp_write_all (fd, chunk, (gsize) MIN (readers->file_size - written, FILL_CHUNK)))
      {
        rp_error_set_from_errno (error, errno, _("Sequential readers: writing their files in"), directory);
        return FALSE;
      }
  if (fsync (fd) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Sequential readers: flushing their files in"), directory);
      return FALSE;
    }
  /* No POSIX_FADV_SEQUENTIAL: `dd` gives no hint, and the hint doubles the
   * read-ahead window, so that each request holds the device longer. On a
   * slow loop device under bfq (bench/app-start-slow-device.sh) the probe's
   * cold start took 18.4 s (median of 3) beside six readers with the hint,
   * 11.3 s (median of 4) without it, 8.8 s beside six `dd` (issue 19). */
  return TRUE;
}

static gpointer
seq_readers_prepare (RpPartHost *host,
                     GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  SeqReaders *readers = g_new0 (SeqReaders, 1);
  g_autofree char *chunk = NULL;

  g_mutex_init (&readers->lock);
  readers->host = host;
  readers->n_threads = (guint) rp_params_get_size (params, "readers_count");
  readers->block_size = rp_params_get_size (params, "readers_block_size");
  readers->file_size = rp_params_get_size (params, "readers_file_size");
  readers->threads = g_new0 (ReaderThread, readers->n_threads);
  for (guint i = 0; i < readers->n_threads; i++)
    readers->threads[i].fd = -1;

  /* Every buffer now: under a memory limit (ulimit -v) g_malloc() in a
   * reader thread aborted the process, report and all (issue 33). */
  chunk = rp_buffer_try_new (FILL_CHUNK, _("Sequential readers"), error);
  if (chunk == NULL)
    {
      seq_readers_free (readers);
      return NULL;
    }
  for (gsize i = 0; i < FILL_CHUNK; i++)
    chunk[i] = (char) (i * 151 + 3);
  for (guint i = 0; i < readers->n_threads; i++)
    {
      ReaderThread *thread = &readers->threads[i];

      thread->parent = readers;
      thread->buffer = rp_buffer_try_new (readers->block_size, _("Sequential readers"), error);
      if (thread->buffer == NULL)
        {
          seq_readers_free (readers);
          return NULL;
        }
      thread->fd = rp_part_host_open_tmpfile (host, 0, error);
      if (thread->fd < 0 || !fill_file (readers, thread->fd, chunk, error))
        {
          seq_readers_free (readers);
          return NULL;
        }
    }
  return readers;
}

static void
thread_fail (ReaderThread *thread,
             int           saved_errno)
{
  SeqReaders *readers = thread->parent;

  g_mutex_lock (&readers->lock);
  if (readers->error == NULL)
    rp_error_set_from_errno (&readers->error, saved_errno, _("Sequential readers: reading in"),
                             rp_part_host_get_directory (readers->host));
  g_mutex_unlock (&readers->lock);
}

/* One reader: the file from the start to the end in blocks, evicted before
 * each pass, again and again until the run stops. */
static gpointer
reader_thread (gpointer data)
{
  ReaderThread *thread = data;
  SeqReaders *readers = thread->parent;
  char *buffer = thread->buffer;
  /* Each read() is a timed call (issue 31): in flight for the stall
   * sampler, so that a reader's stall has its cause; thousands a second,
   * so the sampler takes its run-delay baseline itself. */
  RpTimedCall *call = rp_part_host_open_call (readers->host);
  double cpu_start;
  off_t offset = 0;

  rp_timed_call_set_frequent (call, TRUE);
  rp_call_window_init (&thread->calls, readers->latency);
  /* The CPU time from after the first eviction, which drops the pages the
   * preparation wrote (as a reference's file is evicted before its `dd`
   * starts); the evictions between passes are the readers' own work. */
  posix_fadvise (thread->fd, 0, 0, POSIX_FADV_DONTNEED);
  cpu_start = rp_clock_thread_cpu_seconds ();
  while (!rp_part_host_should_stop (readers->host))
    {
      double before = rp_timed_call_begin (call, "read_latency");
      ssize_t n = pread (thread->fd, buffer, readers->block_size, offset);
      double after = rp_timed_call_end (call);

      if (n >= 0)
        rp_call_window_record (&thread->calls, rp_part_host_time_from_monotonic (readers->host, before),
                               after - before);
      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          thread_fail (thread, errno);
          break;
        }
      if (n == 0)
        {
          posix_fadvise (thread->fd, 0, 0, POSIX_FADV_DONTNEED);
          offset = 0;
          thread->passes++;
          continue;
        }
      offset += n;
      g_atomic_pointer_add (&readers->bytes, n);
    }
  rp_call_window_flush (&thread->calls);
  thread->cpu_seconds = rp_clock_thread_cpu_seconds () - cpu_start;
  return NULL;
}

static void
set_notes (SeqReaders *readers,
           double      seconds)
{
  RpPartHost *host = readers->host;
  guint64 passes = 0, calls = 0, over_instant = 0, over_flow = 0;
  double cpu_seconds = 0;

  /* Read after the joins: each thread wrote its own figures before ending. */
  for (guint i = 0; i < readers->n_threads; i++)
    {
      passes += readers->threads[i].passes;
      cpu_seconds += readers->threads[i].cpu_seconds;
      calls += readers->threads[i].calls.calls;
      over_instant += readers->threads[i].calls.over_instant;
      over_flow += readers->threads[i].calls.over_flow;
    }
  rp_call_window_notes (host, "read", calls, over_instant, over_flow);
  rp_part_host_set_number_note (host, "readers_bytes_total", "%.0f", (double) g_atomic_pointer_get (&readers->bytes));
  rp_part_host_set_number_note (host, "readers_seconds", "%.3f", seconds);
  rp_part_host_set_number_note (host, "readers_passes", "%.0f", (double) passes);
  rp_part_host_set_number_note (host, "readers_cpu_seconds", "%.3f", cpu_seconds);
}

/* Starts the threads, samples their bytes every 0.5 s, joins them. */
static void
seq_readers_run (RpPartHost *host,
                 gpointer   state)
{
  SeqReaders *readers = state;
  RpSeries *throughput = rp_part_host_ensure_series (host, "readers_throughput", "B/s",
                                                     _("Sequential readers’ throughput"));
  double start = rp_part_host_now (host);
  RpRateMeter meter;
  RpHeadroom *headroom;
  guint started = 0;
  GError *error = NULL;

  readers->latency = rp_part_host_ensure_series (host, "read_latency", "s", _("Longest read() per 0.1 s, all readers"));

  rp_rate_meter_init (&meter, throughput, RATE_PERIOD, start);
  /* The run's other threads keep room to stop in when the readers' stacks
   * take the last of a memory limit (rp-headroom.c). */
  headroom = rp_headroom_try_take (RP_HEADROOM_THREADS, _("Sequential readers"), &error);
  if (headroom == NULL)
    rp_part_host_fail (host, g_steal_pointer (&error));
  for (; headroom != NULL && started < readers->n_threads; started++)
    {
      readers->threads[started].thread = g_thread_try_new ("rp-reader", reader_thread,
                                                           &readers->threads[started], &error);
      if (readers->threads[started].thread == NULL)
        {
          g_clear_pointer (&headroom, rp_headroom_release);
          /* TRANSLATORS: %u counts from 0; %s is why, e.g. "Error creating thread: Resource temporarily unavailable" */
          rp_part_host_fail (host, g_error_new (RP_ERROR, RP_ERROR_FAILED, _("Sequential readers: cannot start reader %u: %s"),
                                                started, error->message));
          g_clear_error (&error);
          break;
        }
    }
  g_clear_pointer (&headroom, rp_headroom_release);

  while (started == readers->n_threads && rp_part_host_sleep (host, RATE_PERIOD))
    {
      guint64 bytes = (guint64) g_atomic_pointer_get (&readers->bytes);

      rp_rate_meter_add (&meter, bytes - meter.bytes, rp_part_host_now (host));
      rp_part_host_changed (host);
      if (readers->error != NULL)
        break;
    }
  for (guint i = 0; i < started; i++)
    g_thread_join (readers->threads[i].thread);
  if (readers->error != NULL)
    rp_part_host_fail (host, g_steal_pointer (&readers->error));

  rp_rate_meter_add (&meter, (guint64) readers->bytes - meter.bytes, rp_part_host_now (host));
  rp_rate_meter_flush (&meter, rp_part_host_now (host));
  set_notes (readers, rp_part_host_now (host) - start);
}

static const RpWorkerClass worker = {
  .name = "seq-readers",
  .prepare = seq_readers_prepare,
  .run = seq_readers_run,
  .free_state = seq_readers_free,
};

static const RpParamInfo params[] = {
  { "readers_count", "readers", "readers", RP_PARAM_COUNT, 1, 64, 6, NULL,
    N_("Sequential readers: number of threads, each reading its own file, 1 to 64 (default 6)"), N_("N") },
  { "readers_file_size", "reader-file-size", "reader-file-size", RP_PARAM_SIZE, RP_MiB, 64 * RP_GiB, 256 * RP_MiB, NULL,
    N_("Sequential readers: size of each reader’s file, written before the run (default 256M)"), N_("SIZE") },
  { "readers_block_size", "read-size", "read-size", RP_PARAM_SIZE, 512, 64 * RP_MiB, RP_MiB, NULL,
    N_("Sequential readers: size of each read(), dd’s bs= (default 1M)"), N_("SIZE") },
};

static const RpSeriesInfo series[] = {
  { "readers_throughput", "B/s", N_("Sequential readers’ throughput"), "throughput", N_("readers"), NULL, NULL,
    32, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
  { "read_latency", "s", N_("Longest read() per 0.1 s, all readers"), "disk-latency",
    N_("readers’ read()"), N_("Readers’ read()"), N_("Time of one read() call of the sequential readers"),
    27, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("The readers’ read() calls"), "read_calls", RP_CALL_KIND_READ,
    /* TRANSLATORS: opens a sentence: "A reader's read() took 2.1 s at 3.0 s" */
    N_("A reader’s read()") },
};

static guint64
seq_readers_write_budget (const RpParams *p)
{
  return rp_params_get_size (p, "readers_count") * rp_params_get_size (p, "readers_file_size");
}

static char *
seq_readers_describe (const RpParams *p)
{
  guint count = (guint) rp_params_get_size (p, "readers_count");
  g_autofree char *file_size = rp_format_size (rp_params_get_size (p, "readers_file_size"));
  g_autofree char *block_size = rp_format_size (rp_params_get_size (p, "readers_block_size"));

  /* TRANSLATORS: "6 threads, each reading a 256.0 MiB file in 1.0 MiB blocks" */
  return g_strdup_printf (ngettext ("%u thread, reading a %s file in %s blocks",
                                    "%u threads, each reading a %s file in %s blocks", count),
                          count, file_size, block_size);
}

/* Several `dd if=big of=/dev/null` at once: the readers of the BFQ benchmarks. */
const RpPartInfo rp_seq_readers_part = {
  .id = "seq-readers",
  .role = RP_PART_LOAD,
  .label = N_("Sequential readers"),
  /* TRANSLATORS: %s is e.g. "6 threads, each reading a 256.0 MiB file in 1.0 MiB blocks" */
  .sentence = N_("sequential readers, %s"),
  .start_rank = 2,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .write_budget = seq_readers_write_budget,
  .describe = seq_readers_describe,
};
