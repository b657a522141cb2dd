/* rp-timed-call.c: the registry of calls in flight: begun and ended by workers, sampled by the stall sampler. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-proc.h"
#include "rp-proc-wait.h"
#include "rp-process-stops.h"
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

  /* Waits for a CPU (schedstat's run delay) and stops of the process
   * (SIGCONT, rp-process-stops.h): neither shows in a wait site. */
  int             schedstat_fd; /* the worker's own, /proc/thread-self/schedstat */
  gboolean        frequent;     /* no read of it at each begin */
  pid_t           delay_task;   /* whose run delay @delay_last is */
  double          delay_last;   /* seconds, at the start or the latest look */
  gboolean        delay_known;
  double          sleep_start;  /* rp_timed_call_mark_sleep() */
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
  if (call->schedstat_fd >= 0)
    close (call->schedstat_fd);
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
  call->schedstat_fd = open ("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
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
/* The calling thread's run delay, seconds; FALSE when unreadable. */
static gboolean
own_run_delay (RpTimedCall *call,
               double      *out_delay)
{
  char buffer[128];
  double on_cpu;

  return call->schedstat_fd >= 0 && rp_proc_read_fd (call->schedstat_fd, buffer, sizeof buffer) &&
         rp_proc_parse_schedstat (buffer, &on_cpu, out_delay);
}

/**
 * rp_timed_call_set_frequent:
 * @frequent: the thread makes many calls a second (a load's write() or
 *   read()), not a few (a probe's)
 *
 * A call begun by a thread that is not frequent reads the thread's run
 * delay (/proc/thread-self/schedstat, a few µs) so that a call starved of
 * CPU from its first moment shows the wait even when the sampler, starved
 * too, never looked; a frequent one leaves that to the sampler's first look
 * (the cost at every write() of a load would be its own load). Call it on
 * the worker's thread, before its first call.
 */
void
rp_timed_call_set_frequent (RpTimedCall *call,
                            gboolean     frequent)
{
  g_mutex_lock (&call->lock);
  call->frequent = frequent;
  g_mutex_unlock (&call->lock);
}

double
rp_timed_call_begin (RpTimedCall *call,
                     const char  *series)
{
  double now, delay = 0;
  gboolean delay_known = !call->frequent && own_run_delay (call, &delay);

  g_mutex_lock (&call->lock);
  call->delay_task = call->tid;
  call->delay_last = delay;
  call->delay_known = delay_known;
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

/* Under the call's lock: what no wait site shows of the time from the
 * previous look (or the start) to @now, given first to it: the time the
 * process was stopped (a SIGCONT arrived meanwhile: the stop began after
 * the previous look, when the sampler still ran, and ended then), and the
 * time the thread waited for a CPU (its run delay grew; only for the same
 * task as before: a call's child has a run delay of its own). Adds the two
 * to the stall and returns what is left of the span. */
static double
add_unseen (RpTimedCall *call,
            double       now,
            pid_t        task,
            gboolean     delay_known,
            double       delay)
{
  double span = MAX (now - call->last_sample, 0), queued = 0, stopped = 0, continued;

  if (delay_known && call->delay_known && task == call->delay_task)
    queued = CLAMP (delay - call->delay_last, 0, span);
  if (rp_process_stops_continued (call->last_sample, now, &continued))
    stopped = CLAMP (continued - call->last_sample, 0, span - queued);
  else if (span >= RP_STALL_MIN_SECONDS && rp_process_stops_continuing ())
    stopped = MAX (span - queued, 0);
  if (queued > 0)
    rp_stall_add_wait (call->stall, RP_WAIT_SITE_RUNQUEUE, queued);
  if (stopped > 0)
    rp_stall_add_wait (call->stall, RP_WAIT_SITE_STOPPED, stopped);
  call->delay_task = task;
  call->delay_last = delay;
  call->delay_known = delay_known;
  call->last_sample = now;
  return span - queued - stopped;
}

/* Under the call's lock. Each sample stands for the time since the previous
 * one (the first: since the call's start), the usual estimate of a
 * sampling profiler: the first 20 ms go to the site seen at 20 ms, but for
 * what add_unseen() tells apart. */
static void
add_sample (RpTimedCall  *call,
            double        now,
            pid_t         task,
            RpWaitSample *sample)
{
  double rest;

  if (call->stall == NULL)
    {
      call->stall = rp_stall_new (call->series, 0, 0);
      call->stall->source = g_strdup (sample->source);
      call->blkio_first = sample->blkio_ticks;
    }
  else if (call->stall->source == NULL)
    call->stall->source = g_strdup (sample->source);
  rest = add_unseen (call, now, task, sample->run_delay_known, sample->run_delay);
  if (rest > 0)
    rp_stall_add_wait (call->stall, sample->site, rest);
  call->blkio_last = sample->blkio_ticks;
  call->blkio_known = sample->blkio_known;
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
  double delay = 0;
  gboolean delay_known = FALSE;

  /* Only a stall reads the run delay here: the time since the sampler's
   * last look (or since the start, when it never looked: a starved
   * sampler) that went to waiting for a CPU. */
  if (now - call->start >= RP_STALL_MIN_SECONDS && call->start > 0)
    delay_known = own_run_delay (call, &delay);
  g_mutex_lock (&call->lock);
  if (now - call->start >= RP_STALL_MIN_SECONDS)
    {
      if (call->stall == NULL)
        call->stall = rp_stall_new (call->series, 0, 0);
      add_unseen (call, now, call->tid, delay_known, delay);
      stall = g_steal_pointer (&call->stall);
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

/**
 * rp_timed_call_mark_sleep:
 *
 * Before a sleep whose lateness is measured (the timer probe): notes the
 * thread's run delay and the time, for rp_timed_call_woke().
 */
void
rp_timed_call_mark_sleep (RpTimedCall *call)
{
  double delay = 0;
  gboolean known = own_run_delay (call, &delay);

  g_mutex_lock (&call->lock);
  call->sleep_start = rp_clock_now ();
  call->delay_task = call->tid;
  call->delay_last = delay;
  call->delay_known = known;
  g_mutex_unlock (&call->lock);
}

/**
 * rp_timed_call_woke:
 * @series: the series the lateness goes into, e.g. "timer_lateness" (static)
 * @due: monotonic seconds the sleep was to end
 *
 * After the sleep begun at rp_timed_call_mark_sleep(): a wake-up over
 * %RP_STALL_MIN_SECONDS late becomes a stall of @series from @due, with no
 * wait site to sample (a sleeping thread is not in flight; the sampler
 * would look at every sleep): its lateness split into the process's stop
 * (a SIGCONT after @due: the stop ended then), the thread's wait for a CPU
 * (its run delay grew over the sleep: a sleeping thread does not queue, so
 * all of it was the wake-up's) and what neither tells, %RP_WAIT_SITE_UNKNOWN.
 */
void
rp_timed_call_woke (RpTimedCall *call,
                    const char  *series,
                    double       due)
{
  double now = rp_clock_now (), late = now - due, delay = 0, queued = 0, stopped = 0, continued;
  gboolean known;
  RpStall *stall;

  if (late < RP_STALL_MIN_SECONDS)
    return;
  known = own_run_delay (call, &delay);
  g_mutex_lock (&call->lock);
  stall = rp_stall_new (series, due - call->registry->t0, late);
  stall->source = g_strdup ("schedstat");
  if (known && call->delay_known)
    queued = CLAMP (delay - call->delay_last, 0, late);
  if (rp_process_stops_continued (call->sleep_start, now, &continued))
    stopped = CLAMP (continued - due, 0, late - queued);
  else if (rp_process_stops_continuing ())
    stopped = MAX (late - queued, 0);
  g_mutex_unlock (&call->lock);
  if (stopped > 0)
    rp_stall_add_wait (stall, RP_WAIT_SITE_STOPPED, stopped);
  if (queued > 0)
    rp_stall_add_wait (stall, RP_WAIT_SITE_RUNQUEUE, queued);
  if (late - queued - stopped > 0.001)
    rp_stall_add_wait (stall, RP_WAIT_SITE_UNKNOWN, late - queued - stopped);
  rp_stall_sort (stall);
  keep_stall (call->registry, stall);
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

/* Looks at one call if it has been in flight long enough: which one and
 * whose thread under the lock, the /proc read without it (see the top of
 * this file), the look added only to the same call. */
static gboolean
sample_call (RpTimedCall  *call,
             double        now,
             RpWaitReader  reader,
             gpointer      data)
{
  RpWaitSample sample = { NULL, NULL, 0, FALSE, 0, 0, FALSE };
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
      add_sample (call, rp_clock_now (), task, &sample);
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
