/* rp-parallel-writers.c: the parallel writers load of R3: N threads of timed 64 KiB write() calls. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-stats.h"
#include "rp-error.h"
#include "rp-headroom.h"
#include "rp-io.h"
#include "rp-units.h"
#include "rp-params.h"
#include "rp-parts.h"

/* A writer tells the owner about new samples at most this often: the
 * session coalesces anyway, but not taking its lock for every write() keeps
 * the writers from contending on it. */
#define CHANGED_PERIOD 0.05

/* Each writer thread keeps the longest write() of every WINDOW seconds as a
 * sample instead of every call: at 64 KiB a thread issues thousands of calls a
 * second, which over a long run would not fit in memory or in a report. What
 * R3 compared survives intact: the longest write() per thread is the max of
 * the window maxima, and a call that stalls for longer than a window closes
 * its own window, so every stall over 0.1 s stays one sample. The exact number
 * of calls, and of calls over the limits, are counted beside. */
#define WINDOW 0.1

/* Fewer than this many writes per file before wrapping around would measure
 * ftruncate() more than write(). */
#define MIN_WRITES_PER_WRAP 16

/* R3 (LKML, 2006): several threads write simultaneously, each write() of
 * 64 KiB, and the longest write() per thread is what the reporters compared
 * (10-36 s on RAID5). Each thread appends to its own file; every call is timed
 * on its own, so a write() blocked by dirty-page throttling or by the journal
 * shows as one long sample. */

typedef struct _ParallelWriters ParallelWriters;

typedef struct {
  ParallelWriters *parent;
  GThread         *thread;
  guint            index;
  int              fd;
  RpSeries        *series;
  RpTimedCall     *call;          /* opened on the thread itself */
  double           max;
  guint64          bytes;
  guint64          wraps;
  guint64          calls;
  guint64          calls_over_instant;
  guint64          calls_over_flow;
  /* the current window: its start, its longest call and when that began */
  double           window_start;
  double           window_max;
  double           window_max_t;
  gboolean         window_open;
} WriterThread;

struct _ParallelWriters {
  RpPartHost    *host;
  const char   *directory;
  guint         n_threads;
  guint64       write_size;
  guint64       file_size;      /* per thread; 0: until stopped */
  guint64       wrap_size;      /* per thread, when file_size is 0 */
  gboolean      fsync_each;
  char         *buffer;
  RpSeries     *combined;
  RpSeries     *fsync_series;
  WriterThread *threads;
};

static void
parallel_writers_free (gpointer data)
{
  ParallelWriters *writers = data;

  for (guint i = 0; i < writers->n_threads; i++)
    if (writers->threads[i].fd >= 0)
      close (writers->threads[i].fd);
  g_free (writers->threads);
  g_free (writers->buffer);
  g_free (writers);
}

/* Without a size the writers run until stopped; their files then wrap around
 * within the space the session set aside, so that the disk never fills. */
static gboolean
choose_wrap_size (ParallelWriters  *writers,
                  RpPartHost        *host,
                  GError          **error)
{
  guint64 spare = rp_part_host_get_spare_bytes (host);
  guint64 per_thread = spare / writers->n_threads;

  per_thread -= per_thread % writers->write_size;
  if (per_thread < MIN_WRITES_PER_WRAP * writers->write_size)
    {
      g_autofree char *spare_text = rp_format_size (spare);

      g_set_error (error, RP_ERROR, RP_ERROR_NO_SPACE,
                   _("Parallel writers: only %s may be written to “%s” without leaving less than 5 %% or 1 GiB free; free some space or give the writers a size"),
                   spare_text, writers->directory);
      return FALSE;
    }
  writers->wrap_size = per_thread;
  {
    g_autofree char *text = g_strdup_printf ("%" G_GUINT64_FORMAT, per_thread);
    rp_part_host_set_note (host, "writers_wrap_bytes", text);
  }
  return TRUE;
}

static gpointer
parallel_writers_prepare (RpPartHost *host,
                          GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  ParallelWriters *writers = g_new0 (ParallelWriters, 1);

  writers->host = host;
  writers->directory = rp_part_host_get_directory (host);
  writers->n_threads = rp_params_get_size (params, "writers_count");
  writers->write_size = rp_params_get_size (params, "writers_write_size");
  writers->file_size = rp_params_get_size (params, "writers_file_size");
  writers->fsync_each = rp_params_get_flag (params, "writers_fsync_each");
  /* Zeros, as the sequential writer: the page cache does not care. */
  writers->threads = g_new0 (WriterThread, writers->n_threads);
  for (guint i = 0; i < writers->n_threads; i++)
    writers->threads[i].fd = -1;
  writers->buffer = rp_buffer_try_new (writers->write_size, _("Parallel writers"), error);
  if (writers->buffer == NULL)
    goto failed;

  if (writers->file_size == 0 && !choose_wrap_size (writers, host, error))
    goto failed;

  for (guint i = 0; i < writers->n_threads; i++)
    {
      writers->threads[i].parent = writers;
      writers->threads[i].index = i;
      writers->threads[i].fd = rp_part_host_open_tmpfile (host, 0, error);
      if (writers->threads[i].fd < 0)
        goto failed;
    }
  return writers;

failed:
  parallel_writers_free (writers);
  return NULL;
}

/* Starts the file over: ftruncate() frees the blocks, so the next writes
 * allocate again, as appending to a new file would. */
static gboolean
wrap_around (WriterThread  *thread,
             GError       **error)
{
  if (ftruncate (thread->fd, 0) != 0 || lseek (thread->fd, 0, SEEK_SET) < 0)
    {
      rp_error_set_from_errno (error, errno, _("Parallel writers: truncating a file in"),
                               thread->parent->directory);
      return FALSE;
    }
  thread->wraps++;
  return TRUE;
}

static void
flush_window (WriterThread *thread)
{
  if (!thread->window_open)
    return;
  rp_series_append (thread->series, thread->window_max_t, thread->window_max);
  rp_series_append (thread->parent->combined, thread->window_max_t, thread->window_max);
  thread->window_open = FALSE;
}

/* @t: session time the call began; @latency: how long it took, seconds */
static void
record_call (WriterThread *thread,
             double        t,
             double        latency)
{
  thread->calls++;
  thread->calls_over_instant += latency > RP_LIMIT_INSTANT;
  thread->calls_over_flow += latency > RP_LIMIT_FLOW;
  thread->max = MAX (thread->max, latency);

  if (!thread->window_open)
    {
      thread->window_open = TRUE;
      thread->window_start = t;
      thread->window_max = -1;
    }
  if (latency > thread->window_max)
    {
      thread->window_max = latency;
      thread->window_max_t = t;
    }
  if (t + latency - thread->window_start >= WINDOW)
    flush_window (thread);
}

/* One block of write_size bytes; every write() call is timed on its own, so a
 * partial write and its remainder are two calls. */
static gboolean
write_block (WriterThread  *thread,
             GError       **error)
{
  ParallelWriters *writers = thread->parent;
  RpPartHost *host = writers->host;
  gsize left = writers->write_size;

  while (left > 0)
    {
      double before = rp_timed_call_begin (thread->call, RP_SERIES_WRITE_LATENCY);
      ssize_t n = write (thread->fd, writers->buffer + (writers->write_size - left), left);
      double after = rp_timed_call_end (thread->call);
      double t = rp_part_host_time_from_monotonic (host, before);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          rp_error_set_from_errno (error, errno, _("Parallel writers: writing to"), writers->directory);
          return FALSE;
        }
      record_call (thread, t, after - before);
      thread->bytes += (guint64) n;
      left -= (gsize) n;
    }

  if (writers->fsync_each)
    {
      double before = rp_timed_call_begin (thread->call, "writers_fsync_latency");
      int rc = fsync (thread->fd);
      double after = rp_timed_call_end (thread->call);

      if (rc != 0)
        {
          rp_error_set_from_errno (error, errno, _("Parallel writers: flushing"), writers->directory);
          return FALSE;
        }
      rp_series_append (writers->fsync_series, rp_part_host_time_from_monotonic (host, before),
                        after - before);
    }
  return TRUE;
}

static gpointer
writer_thread (gpointer data)
{
  WriterThread *thread = data;
  ParallelWriters *writers = thread->parent;
  RpPartHost *host = writers->host;
  guint64 in_file = 0;
  double last_changed = 0;
  GError *error = NULL;

  thread->call = rp_part_host_open_call (host);
  while (!rp_part_host_should_stop (host) &&
         (writers->file_size == 0 || in_file < writers->file_size))
    {
      double now;

      if (writers->file_size == 0 && in_file >= writers->wrap_size)
        {
          if (!wrap_around (thread, &error))
            break;
          in_file = 0;
        }
      if (!write_block (thread, &error))
        break;
      in_file += writers->write_size;

      now = rp_clock_now ();
      if (now - last_changed >= CHANGED_PERIOD)
        {
          rp_part_host_changed (host);
          last_changed = now;
        }
    }

  flush_window (thread);
  if (error != NULL)
    rp_part_host_fail (host, error);
  return NULL;
}

static void
set_notes (ParallelWriters *writers)
{
  guint64 bytes = 0, wraps = 0, calls = 0, over_instant = 0, over_flow = 0;

  for (guint i = 0; i < writers->n_threads; i++)
    {
      WriterThread *thread = &writers->threads[i];
      g_autofree char *key = g_strdup_printf ("write_latency_%u_max", i);

      rp_part_host_set_number_note (writers->host, key, "%.6f", thread->max);
      bytes += thread->bytes;
      wraps += thread->wraps;
      calls += thread->calls;
      over_instant += thread->calls_over_instant;
      over_flow += thread->calls_over_flow;
    }
  {
    g_autofree char *bytes_text = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
    g_autofree char *wraps_text = g_strdup_printf ("%" G_GUINT64_FORMAT, wraps);
    g_autofree char *calls_text = g_strdup_printf ("%" G_GUINT64_FORMAT, calls);
    g_autofree char *instant_text = g_strdup_printf ("%" G_GUINT64_FORMAT, over_instant);
    g_autofree char *flow_text = g_strdup_printf ("%" G_GUINT64_FORMAT, over_flow);

    rp_part_host_set_note (writers->host, "writers_bytes_total", bytes_text);
    rp_part_host_set_note (writers->host, "writers_wraps", wraps_text);
    rp_part_host_set_note (writers->host, "write_calls", calls_text);
    rp_part_host_set_note (writers->host, "write_calls_over_0_1s", instant_text);
    rp_part_host_set_note (writers->host, "write_calls_over_1s", flow_text);
  }
}

static void
parallel_writers_run (RpPartHost *host,
                      gpointer   state)
{
  ParallelWriters *writers = state;
  RpHeadroom *headroom;

  writers->combined = rp_part_host_ensure_series (host, "write_latency", "s",
                                                _("Longest write() per 0.1 s, all writers"));
  if (writers->fsync_each)
    writers->fsync_series = rp_part_host_ensure_series (host, "writers_fsync_latency", "s",
                                                      _("fsync() latency after each write"));

  /* Series first, threads second: the writers then start within microseconds
   * of each other, as R3's did. */
  for (guint i = 0; i < writers->n_threads; i++)
    {
      g_autofree char *name = g_strdup_printf ("write_latency_%u", i);
      g_autofree char *title = g_strdup_printf (_("Longest write() per 0.1 s, writer %u"), i);

      writers->threads[i].series = rp_part_host_ensure_series (host, name, "s", title);
    }
  /* The run's other threads keep room to stop in (rp-headroom.c). */
  {
    GError *error = NULL;

    headroom = rp_headroom_try_take (RP_HEADROOM_THREADS, _("Parallel writers"), &error);
    if (headroom == NULL)
      rp_part_host_fail (host, error);
  }
  for (guint i = 0; headroom != NULL && i < writers->n_threads; i++)
    {
      GError *error = NULL;

      writers->threads[i].thread = g_thread_try_new ("rp-writer", writer_thread, &writers->threads[i],
                                                     &error);
      if (writers->threads[i].thread == NULL)
        {
          /* The run stops; the writers started so far see it and return. */
          g_clear_pointer (&headroom, rp_headroom_release);
          rp_part_host_fail (host, g_error_new (RP_ERROR, RP_ERROR_FAILED,
                                                _("Parallel writers: cannot start writer %u: %s"),
                                                i, error->message));
          g_error_free (error);
          break;
        }
    }
  g_clear_pointer (&headroom, rp_headroom_release);
  for (guint i = 0; i < writers->n_threads; i++)
    if (writers->threads[i].thread != NULL)
      g_thread_join (writers->threads[i].thread);

  set_notes (writers);
}

static const RpWorkerClass worker = {
  .name = "parallel-writers",
  .prepare = parallel_writers_prepare,
  .run = parallel_writers_run,
  .free_state = parallel_writers_free,
};

static const RpParamInfo params[] = {
  { "writers_count", "writers", "writers", RP_PARAM_COUNT, 1, 64, 4, NULL,
    N_("Parallel writers: number of threads, 1 to 64 (default 4)"), N_("N") },
  { "writers_write_size", "write-size", "write-size", RP_PARAM_SIZE, 512, 64 * RP_MiB, 64 * RP_KiB, NULL,
    N_("Parallel writers: size of each write() (default 64K)"), N_("SIZE") },
  /* Also set by --size when there is neither writer nor copy loop (app/cli). */
  { "writers_file_size", "file-size", "file-size", RP_PARAM_SIZE, 512, (double) (G_MAXUINT64 / 128), 0,
    N_("until stopped"),
    N_("Parallel writers: stop after this much per thread (default: until stopped, wrapping around)"), N_("SIZE") },
  { "writers_fsync_each", "fsync-each", "fsync-each", RP_PARAM_FLAG, 0, 1, 0, NULL,
    N_("Parallel writers: fsync() after each write()"), NULL },
};

static const RpSeriesInfo series[] = {
  { RP_SERIES_WRITE_LATENCY, "s", N_("Longest write() per 0.1 s, all writers"), "disk-latency",
    N_("write()"), N_("write()"), N_("Time of one 64 KiB write() call of the parallel writers"),
    12, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("write() calls"), "write_calls", RP_CALL_KIND_WRITE, N_("write()") },
  { "writers_fsync_latency", "s", N_("fsync() latency after each write"), "disk-latency",
    N_("fsync after write()"), N_("fsync after write()"), N_("Time of the fsync() each parallel writer makes after its write()"),
    13, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("fsync of the parallel writers"), NULL, RP_CALL_KIND_FLUSH, N_("The writers' fsync") },
  /* write_latency_0, _1, …: R3 compares the writers with each other. */
  { "write_latency_", "s", N_("Longest write() per 0.1 s of one writer"), "writer-threads",
    NULL, NULL, NULL, 40, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_PER_THREAD },
};

/* Each thread's file holds at least one write(). */
static gboolean
parallel_writers_validate (const RpParams  *p,
                           GError         **error)
{
  guint64 file_size = rp_params_get_size (p, "writers_file_size");

  return file_size == 0 ||
         rp_params_check_size (file_size, rp_params_get_size (p, "writers_write_size"),
                               G_MAXUINT64 / 128, "file-size", error);
}

/* Writers with a size write that much each; without one they wrap around
 * within the spare space the run sets aside (rp_part_host_get_spare_bytes()). */
static guint64
parallel_writers_write_budget (const RpParams *p)
{
  return rp_params_get_size (p, "writers_count") * rp_params_get_size (p, "writers_file_size");
}

static char *
parallel_writers_describe (const RpParams *p)
{
  guint count = (guint) rp_params_get_size (p, "writers_count");
  guint64 file_size_bytes = rp_params_get_size (p, "writers_file_size");
  g_autofree char *write_size = rp_format_size (rp_params_get_size (p, "writers_write_size"));
  g_autofree char *file_size = rp_format_size (file_size_bytes);
  g_autofree char *text = NULL;

  if (file_size_bytes != 0)
    /* TRANSLATORS: "4 threads of 64.0 KiB write() calls, 1.0 GiB each": threads, write size, file size */
    text = g_strdup_printf (ngettext ("%u thread of %s write() calls, %s each",
                                      "%u threads of %s write() calls, %s each", count),
                            count, write_size, file_size);
  else
    /* TRANSLATORS: "4 threads of 64.0 KiB write() calls until stopped": threads, write size */
    text = g_strdup_printf (ngettext ("%u thread of %s write() calls until stopped",
                                      "%u threads of %s write() calls until stopped", count),
                            count, write_size);
  if (rp_params_get_flag (p, "writers_fsync_each"))
    /* TRANSLATORS: %s is the text above */
    return g_strdup_printf (_("%s, fsync after each write"), text);
  return g_steal_pointer (&text);
}

/* R3's concurrent writers of 64 KiB write() calls. */
const RpPartInfo rp_parallel_writers_part = {
  .id = "parallel-writers",
  .role = RP_PART_LOAD,
  .label = N_("Parallel writers"),
  /* TRANSLATORS: %s is e.g. "4 threads of 64.0 KiB write() calls until stopped" */
  .sentence = N_("parallel writers, %s"),
  .start_rank = 2,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .validate = parallel_writers_validate,
  .write_budget = parallel_writers_write_budget,
  .describe = parallel_writers_describe,
};
