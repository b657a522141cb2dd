/* rp-felt-evidence.c: what the probe window's main thread did while it was silent, as stall breakdowns. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <unistd.h>

#include "rp-felt-evidence.h"
#include "rp-proc.h"
#include "rp-proc-wait.h"
#include "rp-timed-call.h"

/* The probe window (app/canary) runs a 10 ms timer on its main thread and
 * says so at every dispatch: its heartbeat. While the heartbeat is silent
 * for over RP_CALL_SAMPLE_AFTER (20 ms), its main thread is held somewhere,
 * and the window part looks at it every sample period (10 ms), from its own
 * process, which a stopped or starved probe cannot do for itself:
 *
 *   - /proc/PID/stat, field 3: T (stopped), R (runnable), S or D (asleep);
 *   - /proc/PID/schedstat, field 1: its time on a CPU, ns, which grows while
 *     it runs: a runnable thread whose CPU time did not grow was waiting in
 *     the run queue for a CPU (field 2, the run-queue wait, is only added
 *     when the wait ends, too late to place it in time);
 *   - where it sleeps: its wchan, or as root its kernel stack
 *     (rp_stall_sampler_read(), the same reader as the disk calls' stalls).
 *
 * Each look makes a slice of time, from the previous look (the first: from
 * the last heartbeat) to this one, split into its time on a CPU ("running"),
 * and the rest at what the look saw: "stopped", "runqueue", or the wait
 * site. A felt stall (a late timer, frame, input event, wake-up) is then
 * explained by the slices it overlaps; the part of it no slice covers is
 * time the probe's main loop ran on time, said by the caller (the display
 * server for frames and input). Between silences the part reads the pipe
 * every 20 ms and schedstat once a read, the base of the next silence's
 * first slice. */

/* Slices older than this are dropped: stalls are explained when their
 * sample arrives, well within this. */
#define KEEP_SECONDS 120.0

typedef struct {
  double      from;
  double      to;
  double      cpu;        /* seconds on a CPU */
  double      rest;       /* seconds at @site */
  const char *site;       /* interned */
  guint64     blkio;      /* delayacct blkio ticks within the slice */
} Slice;

struct _RpFeltEvidence {
  pid_t       pid;
  gboolean    use_stack;
  gboolean    delayacct;
  int         stat_fd;
  int         schedstat_fd;

  double      last_beat;        /* 0: no heartbeat yet */
  guint64     beat_cpu_ns;
  gboolean    beat_cpu_stale;   /* beat_cpu_ns is of an older heartbeat */
  gboolean    open;             /* a silence is being looked at */
  double      prev_time;
  guint64     prev_cpu_ns;
  guint64     prev_blkio;
  gboolean    prev_blkio_known;
  const char *prev_site;
  char        prev_state;

  GArray     *slices;
  guint64     looks;
};

static int
open_proc (pid_t       pid,
           const char *name)
{
  char path[64];

  g_snprintf (path, sizeof path, "/proc/%d/%s", (int) pid, name);
  return open (path, O_RDONLY | O_CLOEXEC);
}

/**
 * rp_felt_evidence_new:
 * @pid: the probe window's process; its main thread has the same id
 * @use_stack: where its wchan names no known site, read its kernel stack
 *   (CAP_SYS_ADMIN)
 * @delayacct: kernel.task_delayacct is on (blkio delay counts)
 *
 * Returns: (transfer full): the evidence of one probe window
 */
RpFeltEvidence *
rp_felt_evidence_new (pid_t    pid,
                      gboolean use_stack,
                      gboolean delayacct)
{
  RpFeltEvidence *self = g_new0 (RpFeltEvidence, 1);

  g_return_val_if_fail (pid > 0, NULL);

  self->pid = pid;
  self->use_stack = use_stack;
  self->delayacct = delayacct;
  self->stat_fd = open_proc (pid, "stat");
  self->schedstat_fd = open_proc (pid, "schedstat");
  self->slices = g_array_new (FALSE, FALSE, sizeof (Slice));
  return self;
}

void
rp_felt_evidence_free (RpFeltEvidence *self)
{
  if (self == NULL)
    return;
  if (self->stat_fd >= 0)
    close (self->stat_fd);
  if (self->schedstat_fd >= 0)
    close (self->schedstat_fd);
  g_array_unref (self->slices);
  g_free (self);
}

/* Field 1 of schedstat: ns on a CPU (se.sum_exec_runtime). */
static guint64
read_cpu_ns (RpFeltEvidence *self)
{
  char buffer[128];

  if (self->schedstat_fd < 0 || !rp_proc_read_fd (self->schedstat_fd, buffer, sizeof buffer))
    return 0;
  return g_ascii_strtoull (buffer, NULL, 10);
}

static void
add_slice (RpFeltEvidence *self,
           double          to,
           guint64         cpu_ns,
           guint64         blkio,
           gboolean        blkio_known)
{
  Slice slice = { self->prev_time, to, 0, 0, self->prev_site, 0 };
  double length = MAX (to - self->prev_time, 0);

  slice.cpu = CLAMP ((double) (cpu_ns - MIN (cpu_ns, self->prev_cpu_ns)) * 1e-9, 0, length);
  slice.rest = length - slice.cpu;
  if (blkio_known && self->prev_blkio_known && blkio >= self->prev_blkio)
    slice.blkio = blkio - self->prev_blkio;
  if (length > 0)
    g_array_append_val (self->slices, slice);

  /* Forget what no stall will ask about. */
  while (self->slices->len > 0 && g_array_index (self->slices, Slice, 0).to < to - KEEP_SECONDS)
    g_array_remove_index (self->slices, 0);
}

/**
 * rp_felt_evidence_heartbeat:
 * @when: CLOCK_MONOTONIC seconds at which the probe's main loop ran (its
 *   timer's dispatch)
 *
 * The probe's main loop ran: a silence being looked at ends there (its
 * last slice, from the last look, goes to what that look saw). Call
 * rp_felt_evidence_settle() once the heartbeats read at a time are in.
 */
void
rp_felt_evidence_heartbeat (RpFeltEvidence *self,
                            double          when)
{
  if (self->open)
    {
      guint64 cpu_ns = read_cpu_ns (self);

      add_slice (self, MAX (when, self->prev_time), cpu_ns, self->prev_blkio, self->prev_blkio_known);
      self->open = FALSE;
      self->beat_cpu_ns = cpu_ns;
    }
  else
    self->beat_cpu_stale = TRUE;
  self->last_beat = MAX (when, self->last_beat);
}

/**
 * rp_felt_evidence_settle:
 *
 * Reads the probe's CPU time as the base of a silence that may follow the
 * latest heartbeat: once per batch of heartbeats read, not once each (one
 * pread() of schedstat; the reader reads every 20 ms).
 */
void
rp_felt_evidence_settle (RpFeltEvidence *self)
{
  if (!self->beat_cpu_stale)
    return;
  self->beat_cpu_ns = read_cpu_ns (self);
  self->beat_cpu_stale = FALSE;
}

/**
 * rp_felt_evidence_next_look:
 * @period: seconds between looks during a silence
 *
 * Returns: CLOCK_MONOTONIC seconds at which the probe should be looked at
 *   if no heartbeat comes first; 0 before the first heartbeat
 */
double
rp_felt_evidence_next_look (RpFeltEvidence *self,
                            double          period)
{
  if (self->last_beat == 0)
    return 0;
  return self->open ? self->prev_time + period : self->last_beat + RP_CALL_SAMPLE_AFTER;
}

/* What a look saw, as a site of the breakdown: a stopped process, a
 * runnable one (the time not on a CPU was run-queue wait), or where it
 * sleeps. */
static const char *
site_of (RpFeltEvidence *self,
         char            state)
{
  RpWaitSample sample = { NULL, NULL, 0, FALSE };
  const char *site;

  if (state == 'T' || state == 't')
    return RP_WAIT_SITE_STOPPED;
  if (state == 'R')
    return RP_WAIT_SITE_RUNQUEUE;
  rp_stall_sampler_read (self->pid, TRUE, self->use_stack, self->delayacct, &sample);
  site = g_intern_string (sample.site != NULL ? sample.site : RP_WAIT_SITE_UNKNOWN);
  g_free (sample.site);
  return site;
}

/**
 * rp_felt_evidence_look:
 * @now: CLOCK_MONOTONIC seconds
 *
 * Looks at the probe's main thread once: a slice from the previous look
 * (or the last heartbeat) to @now.
 */
void
rp_felt_evidence_look (RpFeltEvidence *self,
                       double          now)
{
  char buffer[1024];
  RpTaskStat stat = { 'R', 0 };
  gboolean known = self->stat_fd >= 0 && rp_proc_read_fd (self->stat_fd, buffer, sizeof buffer) &&
                   rp_proc_parse_task_stat (buffer, &stat);
  guint64 cpu_ns = read_cpu_ns (self);

  /* Gone (exited, a zombie): nothing to say. */
  if (!known || stat.state == 'Z' || stat.state == 'X' || self->last_beat == 0)
    return;
  self->looks++;
  if (!self->open)
    {
      self->open = TRUE;
      self->prev_time = self->last_beat;
      self->prev_cpu_ns = self->beat_cpu_ns;
      self->prev_blkio_known = FALSE;
    }
  self->prev_site = site_of (self, stat.state);
  self->prev_state = stat.state;
  add_slice (self, MAX (now, self->prev_time), cpu_ns, stat.blkio_ticks, self->delayacct);
  self->prev_time = MAX (now, self->prev_time);
  self->prev_cpu_ns = cpu_ns;
  self->prev_blkio = stat.blkio_ticks;
  self->prev_blkio_known = self->delayacct;
}

/**
 * rp_felt_evidence_explain:
 * @series: the series of the stall, e.g. "mainloop_lateness" (copied)
 * @start: CLOCK_MONOTONIC seconds at which it began (a timer's expiry, the
 *   previous frame, an event's time)
 * @end: CLOCK_MONOTONIC seconds at which it ended
 * @uncovered_site: the site of the time no look covers, when the probe's
 *   main loop ran on time: %RP_WAIT_SITE_DISPLAY for frames and input,
 *   %RP_WAIT_SITE_UNKNOWN for the rest
 *
 * Returns: (transfer full): the stall, @start still CLOCK_MONOTONIC (the
 *   caller makes it run time), with the breakdown of the slices it
 *   overlaps in proportion, its blkio delay where delay accounting is on,
 *   and @source "stack" or "wchan" when looks covered it, "heartbeat" when
 *   only the heartbeat did
 */
RpStall *
rp_felt_evidence_explain (RpFeltEvidence *self,
                          const char     *series,
                          double          start,
                          double          end,
                          const char     *uncovered_site)
{
  RpStall *stall = rp_stall_new (series, start, MAX (end - start, 0));
  double covered = 0, blkio = 0;

  for (guint i = 0; i < self->slices->len; i++)
    {
      const Slice *slice = &g_array_index (self->slices, Slice, i);
      double overlap = MIN (end, slice->to) - MAX (start, slice->from);
      double share;

      if (overlap <= 0)
        continue;
      share = overlap / (slice->to - slice->from);
      covered += overlap;
      blkio += slice->blkio * share;
      if (slice->cpu * share > 0)
        rp_stall_add_wait (stall, RP_WAIT_SITE_RUNNING, slice->cpu * share);
      if (slice->rest * share > 0)
        rp_stall_add_wait (stall, slice->site, slice->rest * share);
    }
  /* Under a millisecond is the slop between a heartbeat and a frame, not
   * the display server's doing. */
  if (stall->duration - covered > 1e-3)
    rp_stall_add_wait (stall, uncovered_site, stall->duration - covered);
  stall->source = g_strdup (covered > 0 ? (self->use_stack ? "stack" : "wchan") : "heartbeat");
  if (self->delayacct && covered > 0)
    stall->blkio_delay = blkio / sysconf (_SC_CLK_TCK);
  rp_stall_sort (stall);
  return stall;
}

/**
 * rp_felt_evidence_get_looks:
 *
 * Returns: how many looks were taken (the attribution's cost)
 */
guint64
rp_felt_evidence_get_looks (RpFeltEvidence *self)
{
  return self->looks;
}

/**
 * rp_felt_evidence_get_source:
 *
 * Returns: "stack" or "wchan": where the wait sites come from
 */
const char *
rp_felt_evidence_get_source (RpFeltEvidence *self)
{
  return self->use_stack ? "stack" : "wchan";
}
