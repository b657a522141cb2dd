/* rp-nbdkit-disk-filter.c: an nbdkit filter that serves its plugin's disk at the speed of a slow device. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* nbdkit's own filters can slow a disk down by a rate (rate filter) and a
 * fixed delay per read or write (delay filter), but not what made the old
 * reports' stalls: the cost of a cache flush, a seek that grows with the
 * distance the head travels, a write cache that a flush must empty, and
 * RAID5's read-modify-write of a write smaller than a stripe. This filter
 * models one device as a clock (busy_until): each request starts when both
 * it and the device are ready and keeps the device busy for its service
 * time; the data is read or written by the plugin below meanwhile, and the
 * reply waits until the request's service time is over. The clock serves
 * requests one at a time, as one disk head (or one stick controller) does;
 * their data moves in parallel (nbdkit's parallel thread model), so that the
 * image's own I/O does not add to the device's time.
 *
 * The way to us (loop device, FUSE, nbdfuse, the socket) costs time of its
 * own: 0.4 ms per request on an idle machine, several ms on a busy one. A
 * program that waits for each request would see that on top of the device.
 * So the filter measures it: the gap between the end of one request and the
 * arrival of the next, when under 10 ms (a stream of requests, each sent as
 * the last came back), is the transport's round trip; its running mean is
 * taken off the start of every request (never before the device was free).
 * On a busy machine the round trip varies, and what is over its mean still
 * adds to a request that waits alone (bench row 16 measures how much).
 * A device slower than the transport is then seen at its own speed; one
 * faster than it cannot be.
 *
 * Service time of a request of COUNT bytes at OFFSET:
 *   access   0 when OFFSET is within 2 MiB of where the last request
 *            ended (sequential, see SEQUENTIAL_WINDOW),
 *            else rp-latency (rp-write-latency for writes) + rp-seek ×
 *            sqrt(distance / size) (the seek-time curve of a disk arm:
 *            Ruemmler & Wilkes, "An introduction to disk drive modeling",
 *            IEEE Computer 27(3), 1994, a square root for short seeks);
 *   transfer COUNT / rp-read (or rp-write) bytes per second;
 *   rmw      rp-rmw more for a write that is not sequential and not made of
 *            whole rp-stripe stripes (md RAID5 reads the old data and
 *            parity, then writes both: Documentation/driver-api/md/raid5-cache.rst);
 *   flush    rp-flush, after the write cache is empty.
 * A write returns when the device clock is no more than rp-cache bytes'
 * worth of writing ahead of now (the write cache absorbs it); reads and
 * flushes wait for the whole backlog.
 *
 * Keys (durations "12ms", "150us" or seconds "0.012"; sizes and rates as
 * nbdkit_parse_size() reads them, "30M" = 30 MiB):
 *   rp-read, rp-write, rp-latency, rp-write-latency, rp-seek, rp-flush,
 *   rp-cache, rp-stripe, rp-rmw;
 *   rp-drain-file=PATH: once PATH exists, the device runs at the speed of
 *   the disk below (no service time, the backlog forgotten), so that what
 *   a run left dirty is written out at once. The matrix creates it when a
 *   cell's ending (a closed file waiting for its writeback) outlasts
 *   --drain-limit: the measurement is over by then. */

#define NBDKIT_API_VERSION 2
#include <nbdkit-filter.h>

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double read_rate;        /* bytes per second, 0: no limit */
static double write_rate;
static double latency;          /* seconds per non-sequential read */
static double write_latency = -1; /* -1: as rp-latency */
static double seek_full;        /* seconds for a seek over the whole disk */
static double flush_cost;       /* seconds per flush, after the cache is empty */
static double cache_bytes;      /* the write cache */
static double stripe_bytes;     /* 0: no RAID5 */
static double rmw_cost;         /* seconds more for a sub-stripe write */

static char *drain_file;        /* rp-drain-file, or NULL */
static int drained;             /* drain_file seen (atomic) */
static double drain_checked;    /* when it was last looked for (atomic) */

static pthread_mutex_t clock_lock = PTHREAD_MUTEX_INITIALIZER;
static double busy_until;       /* CLOCK_MONOTONIC seconds */
static double transport;        /* running mean of the round trip outside, s */
static uint64_t head;           /* where the last request ended */
static uint64_t disk_size;

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec / 1e9;
}

/* Whether rp-drain-file exists; looked for at most every 50 ms. */
static int
is_drained (void)
{
  double t, last;

  if (drain_file == NULL || __atomic_load_n (&drained, __ATOMIC_RELAXED))
    return drain_file != NULL;
  t = now ();
  __atomic_load (&drain_checked, &last, __ATOMIC_RELAXED);
  if (t - last < 0.050)
    return 0;
  __atomic_store (&drain_checked, &t, __ATOMIC_RELAXED);
  if (access (drain_file, F_OK) == 0)
    __atomic_store_n (&drained, 1, __ATOMIC_RELAXED);
  return __atomic_load_n (&drained, __ATOMIC_RELAXED);
}

/* Sleeps in slices of at most 100 ms, so that a request waiting for a long
 * backlog ends soon after the drain file appears. */
static void
sleep_until (double deadline)
{
  struct timespec ts;

  while (!is_drained () && deadline > now ())
    {
      double slice = deadline - now () > 0.1 ? now () + 0.1 : deadline;

      ts.tv_sec = (time_t) slice;
      ts.tv_nsec = (long) ((slice - (double) ts.tv_sec) * 1e9);
      while (clock_nanosleep (CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
    }
}

/* "12ms", "150us", "2s" or "0.012" (seconds). */
static int
parse_duration (const char *key, const char *value, double *out)
{
  char *end = NULL;
  double number = strtod (value, &end);
  double scale = 1;

  if (end == value || number < 0 || !isfinite (number))
    goto bad;
  if (strcmp (end, "ms") == 0)
    scale = 1e-3;
  else if (strcmp (end, "us") == 0)
    scale = 1e-6;
  else if (strcmp (end, "s") != 0 && *end != '\0')
    goto bad;
  *out = number * scale;
  return 0;
bad:
  nbdkit_error ("%s: “%s” is not a duration such as 12ms", key, value);
  return -1;
}

static int
parse_bytes (const char *key, const char *value, double *out)
{
  int64_t bytes = nbdkit_parse_size (value);

  if (bytes < 0)
    return -1;          /* nbdkit_parse_size() said why */
  (void) key;
  *out = (double) bytes;
  return 0;
}

static int
disk_config (nbdkit_next_config *next, nbdkit_backend *nxdata,
             const char *key, const char *value)
{
  if (strcmp (key, "rp-read") == 0)
    return parse_bytes (key, value, &read_rate);
  if (strcmp (key, "rp-write") == 0)
    return parse_bytes (key, value, &write_rate);
  if (strcmp (key, "rp-cache") == 0)
    return parse_bytes (key, value, &cache_bytes);
  if (strcmp (key, "rp-stripe") == 0)
    return parse_bytes (key, value, &stripe_bytes);
  if (strcmp (key, "rp-latency") == 0)
    return parse_duration (key, value, &latency);
  if (strcmp (key, "rp-write-latency") == 0)
    return parse_duration (key, value, &write_latency);
  if (strcmp (key, "rp-seek") == 0)
    return parse_duration (key, value, &seek_full);
  if (strcmp (key, "rp-flush") == 0)
    return parse_duration (key, value, &flush_cost);
  if (strcmp (key, "rp-rmw") == 0)
    return parse_duration (key, value, &rmw_cost);
  if (strcmp (key, "rp-drain-file") == 0)
    {
      free (drain_file);
      drain_file = nbdkit_absolute_path (value);
      return drain_file != NULL ? 0 : -1;
    }
  return next (nxdata, key, value);
}

/* Requests in parallel: the device clock (under clock_lock) serialises
 * their service times, not their data. */
static int
disk_thread_model (void)
{
  return NBDKIT_THREAD_MODEL_PARALLEL;
}

static int
disk_prepare (nbdkit_next *next, void *handle, int readonly)
{
  int64_t size = next->get_size (next);

  (void) handle;
  (void) readonly;
  if (size < 0)
    return -1;
  disk_size = (uint64_t) size;
  return 0;
}

/* Whether a request goes on near where the last ended. The loop device,
 * FUSE and nbdfuse cut a large request into pieces (128 KiB) that reach us
 * on several connections, not always in order; a disk's command queue
 * (NCQ) puts such pieces back in order before it moves the head. So a
 * request within SEQUENTIAL_WINDOW of the head counts as sequential. */
#define SEQUENTIAL_WINDOW (2.0 * 1024 * 1024)

static double
distance_from_head (uint64_t offset)
{
  return offset > head ? (double) (offset - head) : (double) (head - offset);
}

/* The request's access time: nothing when it goes on where the last ended. */
static double
access_time (uint64_t offset, int writing)
{
  double distance = distance_from_head (offset);

  if (distance <= SEQUENTIAL_WINDOW)
    return 0;
  return (writing && write_latency >= 0 ? write_latency : latency) +
         (disk_size > 0 ? seek_full * sqrt (distance / (double) disk_size) : 0);
}

/* Books the request on the device clock; returns when it ends. */
static double
book (uint32_t count, uint64_t offset, int writing)
{
  double rate = writing ? write_rate : read_rate;
  double start = now ();
  double service, gap;

  pthread_mutex_lock (&clock_lock);
  if (is_drained ())
    {
      busy_until = start;
      head = offset + count;
      pthread_mutex_unlock (&clock_lock);
      return start;
    }
  service = access_time (offset, writing) + (rate > 0 ? count / rate : 0);
  gap = start - busy_until;
  if (gap > 0 && gap < 0.010)
    transport = transport == 0 ? gap : 0.9 * transport + 0.1 * gap;
  start -= transport;
  if (writing && stripe_bytes > 0 && distance_from_head (offset) > SEQUENTIAL_WINDOW &&
      (fmod ((double) offset, stripe_bytes) != 0 || fmod ((double) count, stripe_bytes) != 0))
    service += rmw_cost;
  if (busy_until > start)
    start = busy_until;
  busy_until = start + service;
  head = offset + count;
  start = busy_until;
  pthread_mutex_unlock (&clock_lock);
  return start;
}

static int
disk_pread (nbdkit_next *next, void *handle, void *buf, uint32_t count,
            uint64_t offset, uint32_t flags, int *err)
{
  double done = book (count, offset, 0);
  int r = next->pread (next, buf, count, offset, flags, err);

  (void) handle;
  sleep_until (done);
  return r;
}

static int
disk_pwrite (nbdkit_next *next, void *handle, const void *buf, uint32_t count,
             uint64_t offset, uint32_t flags, int *err)
{
  double done = book (count, offset, 1);
  int r = next->pwrite (next, buf, count, offset, flags, err);

  (void) handle;
  if (flags & NBDKIT_FLAG_FUA)
    {
      pthread_mutex_lock (&clock_lock);
      busy_until += flush_cost;
      done = busy_until;
      pthread_mutex_unlock (&clock_lock);
      sleep_until (done);
    }
  else
    sleep_until (done - (write_rate > 0 ? cache_bytes / write_rate : 0));
  return r;
}

/* Trims and zeroes move the head and cost an access, no transfer: after
 * the request was booked (book (0, …), DONE) and passed on, the head stands
 * at its end, and the caller waits until the device clock reaches DONE. */
static void
move_head_and_wait (uint32_t count, uint64_t offset, double done)
{
  pthread_mutex_lock (&clock_lock);
  head = offset + count;
  pthread_mutex_unlock (&clock_lock);
  sleep_until (done);
}

static int
disk_zero (nbdkit_next *next, void *handle, uint32_t count, uint64_t offset,
           uint32_t flags, int *err)
{
  double done = book (0, offset, 1);
  int r = next->zero (next, count, offset, flags, err);

  (void) handle;
  move_head_and_wait (count, offset, done);
  return r;
}

static int
disk_trim (nbdkit_next *next, void *handle, uint32_t count, uint64_t offset,
           uint32_t flags, int *err)
{
  double done = book (0, offset, 1);
  int r = next->trim (next, count, offset, flags, err);

  (void) handle;
  move_head_and_wait (count, offset, done);
  return r;
}

/* Empties the write cache (waits for the backlog), then pays the flush. */
static int
disk_flush (nbdkit_next *next, void *handle, uint32_t flags, int *err)
{
  double start = now ();
  int r = next->flush (next, flags, err);
  double done;

  (void) handle;
  pthread_mutex_lock (&clock_lock);
  if (busy_until > start)
    start = busy_until;
  busy_until = start + flush_cost;
  done = busy_until;
  pthread_mutex_unlock (&clock_lock);
  sleep_until (done);
  return r;
}

static struct nbdkit_filter filter = {
  .name = "resprobe-disk",
  .longname = "Responsiveness Probe slow-device filter",
  .config = disk_config,
  .config_help =
    "rp-read=RATE rp-write=RATE        sequential bytes per second\n"
    "rp-latency=DURATION               access time of a non-sequential read\n"
    "rp-write-latency=DURATION         … of a write (default rp-latency)\n"
    "rp-seek=DURATION                  seek over the whole disk (sqrt of distance)\n"
    "rp-flush=DURATION                 cost of a cache flush\n"
    "rp-cache=SIZE                     write cache a flush empties\n"
    "rp-stripe=SIZE rp-rmw=DURATION    RAID5 stripe and read-modify-write cost\n"
    "rp-drain-file=PATH                full speed once PATH exists",
  .thread_model = disk_thread_model,
  .prepare = disk_prepare,
  .pread = disk_pread,
  .pwrite = disk_pwrite,
  .zero = disk_zero,
  .trim = disk_trim,
  .flush = disk_flush,
};

NBDKIT_REGISTER_FILTER (filter)
