/* rp-timed-call.c: the registry of calls in flight: begun and ended by workers, sampled by the stall sampler. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <sys/syscall.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-timed-call.h"

/* Each worker thread owns one RpTimedCall and begins and ends its calls on
 * it; the sampler thread looks at every call in flight. A call's own mutex
 * is held only for a few field stores, by the worker and by the sampler;
 * never while the sampler reads /proc (which takes tens of µs, longer on a
 * busy machine): it notes which call it looks at (its generation), reads
 * without the lock and adds the look only if that call is still in flight.
 * So a worker never waits for the sampler, not even after its call
 * returned (issue 18, acceptance 3: the writer's throughput). */
struct _RpTimedCall {
  GMutex          lock;
  RpCallRegistry *registry;
  pid_t           tid;
  pid_t           child;       /* 0, or the process the call waits for */
  guint64         generation;  /* counts the calls begun */
  const char     *series;      /* static: a part's series name */
  double          start;       /* monotonic seconds; 0: no call in flight */
  double          last_sample; /* monotonic seconds of the latest sample */
  RpStall        *stall;       /* the breakdown so far, from the first sample */
  guint64         blkio_first;
  guint64         blkio_last;
  gboolean        blkio_known;
};

struct _RpCallRegistry {
  GMutex     lock;
  double     t0;               /* monotonic seconds of the run's start */
  GPtrArray *calls;            /* RpTimedCall, one per worker thread */
  GPtrArray *stalls;           /* RpStall, finished, in order of their end */
  guint64    dropped;

  /* The sampler's sleep while no call is in flight
   * (rp_call_registry_wait_for_call()): a begin wakes it. */
  GMutex     wake_lock;
  GCond      wake;
  gboolean   woken;            /* under wake_lock */
  gint       sampler_waiting;  /* atomic: read by every begin */
};

static void
timed_call_free (gpointer data)
{
  RpTimedCall *call = data;

  g_mutex_clear (&call->lock);
  g_clear_pointer (&call->stall, rp_stall_free);
  g_free (call);
}

/**
 * rp_call_registry_new:
 *
 * Returns: (transfer full): an empty registry; the session owns one per run
 */
RpCallRegistry *
rp_call_registry_new (void)
{
  RpCallRegistry *self = g_new0 (RpCallRegistry, 1);

  g_mutex_init (&self->lock);
  g_mutex_init (&self->wake_lock);
  g_cond_init (&self->wake);
  self->calls = g_ptr_array_new_with_free_func (timed_call_free);
  self->stalls = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_stall_free);
  return self;
}

/**
 * rp_call_registry_free:
 *
 * Frees the registry and its calls: only once no worker uses them (the
 * session frees it after joining every thread).
 */
void
rp_call_registry_free (RpCallRegistry *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->calls);
  g_ptr_array_unref (self->stalls);
  g_mutex_clear (&self->lock);
  g_mutex_clear (&self->wake_lock);
  g_cond_clear (&self->wake);
  g_free (self);
}

/**
 * rp_call_registry_set_origin:
 * @t0: monotonic seconds (rp_clock_now()) of the run's start
 *
 * Stalls carry run time; set before any worker runs.
 */
void
rp_call_registry_set_origin (RpCallRegistry *self,
                             double          t0)
{
  g_mutex_lock (&self->lock);
  self->t0 = t0;
  g_mutex_unlock (&self->lock);
}

/**
 * rp_call_registry_open:
 *
 * The calling thread's handle for its timed calls: call it on the worker
 * thread that makes them (it records the thread's id for the sampler), once,
 * before its loop.
 *
 * Returns: (transfer none): the handle, valid as long as the registry
 */
RpTimedCall *
rp_call_registry_open (RpCallRegistry *self)
{
  RpTimedCall *call = g_new0 (RpTimedCall, 1);

  g_mutex_init (&call->lock);
  call->registry = self;
  call->tid = (pid_t) syscall (SYS_gettid);
  g_mutex_lock (&self->lock);
  g_ptr_array_add (self->calls, call);
  g_mutex_unlock (&self->lock);
  return call;
}

/**
 * rp_timed_call_begin:
 * @series: the series its duration goes into, e.g. "fsync_latency" (a
 *   static string: a part's series name)
 *
 * Marks the start of a call: from now on it is in flight, visible to
 * rp_call_registry_get_in_flight() and sampled after
 * %RP_CALL_SAMPLE_AFTER.
 *
 * Returns: the start, monotonic seconds (rp_clock_now()): the time to
 *   measure the call from
 */
double
rp_timed_call_begin (RpTimedCall *call,
                     const char  *series)
{
  double now;

  g_mutex_lock (&call->lock);
  call->series = series;
  call->child = 0;
  call->generation++;
  now = rp_clock_now ();
  call->start = now;
  call->last_sample = now;
  call->blkio_known = FALSE;
  g_mutex_unlock (&call->lock);

  /* A sampler asleep for want of a call (rp_call_registry_wait_for_call())
   * is woken. The fence orders the store of start above before the load of
   * the flag, as the sampler's fence orders its flag before its look at
   * the starts: one of the two sees the other's store. The cost for a
   * writer's write() is the fence and one load while the sampler is awake. */
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
  if (g_atomic_int_get (&call->registry->sampler_waiting))
    {
      g_mutex_lock (&call->registry->wake_lock);
      call->registry->woken = TRUE;
      g_cond_signal (&call->registry->wake);
      g_mutex_unlock (&call->registry->wake_lock);
    }
  return now;
}

/**
 * rp_timed_call_set_child:
 * @child: a child process of ours that the call in flight waits for (the
 *   app-start probe's program, from its posix_spawn() until it exits)
 *
 * From now until rp_timed_call_end(), the sampler looks at @child's wait
 * site (/proc/PID/wchan, or its stack as root) instead of the calling
 * thread's, which only waits in poll() for the child: the child is what
 * waits for the disk.
 */
void
rp_timed_call_set_child (RpTimedCall *call,
                         pid_t        child)
{
  g_return_if_fail (child > 0);

  g_mutex_lock (&call->lock);
  if (call->start > 0)
    call->child = child;
  g_mutex_unlock (&call->lock);
}

static void
keep_stall (RpCallRegistry *registry,
            RpStall        *stall)
{
  g_mutex_lock (&registry->lock);
  if (registry->stalls->len < RP_CALL_REGISTRY_MAX_STALLS)
    g_ptr_array_add (registry->stalls, stall);
  else
    {
      registry->dropped++;
      rp_stall_free (stall);
    }
  g_mutex_unlock (&registry->lock);
}

/**
 * rp_call_registry_add_stall:
 * @stall: (transfer full): a stall of a call that no #RpTimedCall timed:
 *   the probe window's felt stalls (engine/parts/rp-window-probes.c), whose
 *   process and clock are not a worker's; @start in run time
 *
 * Keeps @stall with the registry's own, in the same report and under the
 * same cap.
 */
void
rp_call_registry_add_stall (RpCallRegistry *self,
                            RpStall        *stall)
{
  g_return_if_fail (self != NULL && stall != NULL);
  keep_stall (self, stall);
}

/**
 * rp_timed_call_end:
 *
 * Marks the end of the call begun last. A call over
 * %RP_STALL_MIN_SECONDS becomes a stall with its breakdown.
 *
 * Returns: the end, monotonic seconds
 */
double
rp_timed_call_end (RpTimedCall *call)
{
  double now = rp_clock_now ();
  RpStall *stall = NULL;

  g_mutex_lock (&call->lock);
  if (now - call->start >= RP_STALL_MIN_SECONDS)
    {
      stall = g_steal_pointer (&call->stall);
      if (stall == NULL)
        stall = rp_stall_new (call->series, 0, 0);
      stall->start = call->start - call->registry->t0;
      stall->duration = now - call->start;
      if (call->blkio_known)
        stall->blkio_delay = (double) (call->blkio_last - call->blkio_first) / sysconf (_SC_CLK_TCK);
      rp_stall_sort (stall);
    }
  g_clear_pointer (&call->stall, rp_stall_free);
  call->start = 0;
  g_mutex_unlock (&call->lock);

  if (stall != NULL)
    keep_stall (call->registry, stall);
  return now;
}

/**
 * rp_timed_call_abandon:
 *
 * Ends the call begun last without keeping it as a stall: it gave no
 * measurement (a program start killed by the run's stop).
 */
void
rp_timed_call_abandon (RpTimedCall *call)
{
  g_mutex_lock (&call->lock);
  g_clear_pointer (&call->stall, rp_stall_free);
  call->start = 0;
  g_mutex_unlock (&call->lock);
}

static GPtrArray *
calls_snapshot (RpCallRegistry *self)
{
  GPtrArray *calls;

  g_mutex_lock (&self->lock);
  calls = g_ptr_array_copy (self->calls, NULL, NULL);
  g_mutex_unlock (&self->lock);
  /* The copy would inherit the free function: the registry owns the calls. */
  g_ptr_array_set_free_func (calls, NULL);
  return calls;
}

/* Under the call's lock. Each sample stands for the time since the previous
 * one (the first: since the call's start), the usual estimate of a
 * sampling profiler: the first 20 ms go to the site seen at 20 ms. */
static void
add_sample (RpTimedCall  *call,
            double        now,
            RpWaitSample *sample)
{
  if (call->stall == NULL)
    {
      call->stall = rp_stall_new (call->series, 0, 0);
      call->stall->source = g_strdup (sample->source);
      call->blkio_first = sample->blkio_ticks;
    }
  rp_stall_add_wait (call->stall, sample->site, now - call->last_sample);
  call->last_sample = now;
  call->blkio_last = sample->blkio_ticks;
  call->blkio_known = sample->blkio_known;
}

/* Looks at one call if it has been in flight long enough: which one and
 * whose thread under the lock, the /proc read without it (see the top of
 * this file), the look added only to the same call. */
static gboolean
sample_call (RpTimedCall  *call,
             double        now,
             RpWaitReader  reader,
             gpointer      data)
{
  RpWaitSample sample = { NULL, NULL, 0, FALSE };
  gboolean due, added = FALSE;
  guint64 generation;
  pid_t task;

  g_mutex_lock (&call->lock);
  due = call->start > 0 && now - call->start >= RP_CALL_SAMPLE_AFTER;
  generation = call->generation;
  task = call->child > 0 ? call->child : call->tid;
  g_mutex_unlock (&call->lock);
  if (!due)
    return FALSE;

  reader (task, task != call->tid, &sample, data);
  if (sample.site == NULL)
    return FALSE;
  g_mutex_lock (&call->lock);
  if (call->start > 0 && call->generation == generation)
    {
      add_sample (call, rp_clock_now (), &sample);
      added = TRUE;
    }
  g_mutex_unlock (&call->lock);
  g_free (sample.site);
  return added;
}

/**
 * rp_call_registry_sample:
 * @now: monotonic seconds
 * @reader: reads where a thread waits
 * @data: for @reader
 *
 * Looks once at every call in flight for over %RP_CALL_SAMPLE_AFTER.
 *
 * Returns: how many calls were sampled
 */
guint
rp_call_registry_sample (RpCallRegistry *self,
                         double          now,
                         RpWaitReader    reader,
                         gpointer        data)
{
  g_autoptr(GPtrArray) calls = calls_snapshot (self);
  guint sampled = 0;

  for (guint i = 0; i < calls->len; i++)
    {
      if (sample_call (g_ptr_array_index (calls, i), now, reader, data))
        sampled++;
    }
  return sampled;
}

/**
 * rp_call_registry_any_in_flight:
 * @now: monotonic seconds
 * @min_age: seconds
 *
 * Returns: whether a call has been in flight for at least @min_age
 */
gboolean
rp_call_registry_any_in_flight (RpCallRegistry *self,
                                double          now,
                                double          min_age)
{
  g_autoptr(GPtrArray) calls = calls_snapshot (self);
  gboolean any = FALSE;

  for (guint i = 0; i < calls->len && !any; i++)
    {
      RpTimedCall *call = g_ptr_array_index (calls, i);

      g_mutex_lock (&call->lock);
      any = call->start > 0 && now - call->start >= min_age;
      g_mutex_unlock (&call->lock);
    }
  return any;
}

/**
 * rp_call_registry_next_due:
 * @now: monotonic seconds
 * @out_wait: (out): seconds from @now until the call in flight longest has
 *   been in flight for %RP_CALL_SAMPLE_AFTER; 0 when one has already
 *
 * When the sampler should look next: it sleeps until then rather than
 * waking every sample period for calls too young to sample.
 *
 * Returns: whether a call is in flight (%FALSE: *@out_wait is not set)
 */
gboolean
rp_call_registry_next_due (RpCallRegistry *self,
                           double          now,
                           double         *out_wait)
{
  g_autoptr(GPtrArray) calls = calls_snapshot (self);
  double oldest = 0;

  for (guint i = 0; i < calls->len; i++)
    {
      RpTimedCall *call = g_ptr_array_index (calls, i);

      g_mutex_lock (&call->lock);
      if (call->start > 0 && (oldest == 0 || call->start < oldest))
        oldest = call->start;
      g_mutex_unlock (&call->lock);
    }
  if (oldest == 0)
    return FALSE;
  *out_wait = MAX (0, oldest + RP_CALL_SAMPLE_AFTER - now);
  return TRUE;
}

/**
 * rp_call_registry_wait_for_call:
 * @timeout: seconds to wait at most
 *
 * Sleeps until a call begins (rp_timed_call_begin() wakes it), at most
 * @timeout; returns at once when one is in flight already. The sampler's
 * sleep between calls: a thread that wakes every 10 ms to find nothing in
 * flight costs more CPU than its looks at stalled calls (bench/ row 15.1).
 *
 * Returns: whether a call is in flight now
 */
gboolean
rp_call_registry_wait_for_call (RpCallRegistry *self,
                                double          timeout)
{
  gint64 end = g_get_monotonic_time () + (gint64) (timeout * G_USEC_PER_SEC);
  gboolean any;

  g_mutex_lock (&self->wake_lock);
  self->woken = FALSE;
  g_atomic_int_set (&self->sampler_waiting, 1);
  /* Pairs with the fence of rp_timed_call_begin(). */
  __atomic_thread_fence (__ATOMIC_SEQ_CST);
  any = rp_call_registry_any_in_flight (self, rp_clock_now (), 0);
  while (!any && !self->woken && g_cond_wait_until (&self->wake, &self->wake_lock, end))
    ;
  g_atomic_int_set (&self->sampler_waiting, 0);
  g_mutex_unlock (&self->wake_lock);
  return any || rp_call_registry_any_in_flight (self, rp_clock_now (), 0);
}

/**
 * rp_call_registry_get_in_flight:
 * @now: monotonic seconds
 * @min_age: only calls in flight for at least this long, seconds
 *
 * Returns: (transfer full) (element-type RpStall): the calls in flight, as
 *   stalls so far: start (run time), duration until @now, breakdown so far
 */
GPtrArray *
rp_call_registry_get_in_flight (RpCallRegistry *self,
                                double          now,
                                double          min_age)
{
  g_autoptr(GPtrArray) calls = calls_snapshot (self);
  GPtrArray *flying = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_stall_free);

  for (guint i = 0; i < calls->len; i++)
    {
      RpTimedCall *call = g_ptr_array_index (calls, i);

      g_mutex_lock (&call->lock);
      if (call->start > 0 && now - call->start >= min_age)
        {
          RpStall *stall = call->stall != NULL ? rp_stall_copy (call->stall)
                                               : rp_stall_new (call->series, 0, 0);

          stall->start = call->start - self->t0;
          stall->duration = now - call->start;
          rp_stall_sort (stall);
          g_ptr_array_add (flying, stall);
        }
      g_mutex_unlock (&call->lock);
    }
  return flying;
}

static int
compare_start (gconstpointer a,
               gconstpointer b)
{
  const RpStall *sa = *(const RpStall * const *) a;
  const RpStall *sb = *(const RpStall * const *) b;

  return (sa->start > sb->start) - (sa->start < sb->start);
}

/**
 * rp_call_registry_get_stalls:
 *
 * Returns: (transfer full) (element-type RpStall): copies of the finished
 *   stalls, by start
 */
GPtrArray *
rp_call_registry_get_stalls (RpCallRegistry *self)
{
  GPtrArray *copy;

  g_mutex_lock (&self->lock);
  copy = g_ptr_array_copy (self->stalls, (GCopyFunc) rp_stall_copy, NULL);
  g_mutex_unlock (&self->lock);
  g_ptr_array_sort (copy, compare_start);
  return copy;
}

/**
 * rp_call_registry_get_dropped:
 *
 * Returns: stalls beyond %RP_CALL_REGISTRY_MAX_STALLS, counted but not kept
 */
guint64
rp_call_registry_get_dropped (RpCallRegistry *self)
{
  guint64 dropped;

  g_mutex_lock (&self->lock);
  dropped = self->dropped;
  g_mutex_unlock (&self->lock);
  return dropped;
}
