/* rp-stall-sampler.c: where a stalled call waits: its thread's wait site and state, sampled at 100 Hz. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "rp-cause.h"
#include "rp-clock.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-proc.h"
#include "rp-proc-wait.h"

/* While a timed call (rp_timed_call_begin()) is in flight past 20 ms, look
 * at its thread every 10 ms: its wchan (/proc/self/task/TID/wchan, any user,
 * for the process's own threads), where that names no known wait site the
 * whole kernel stack (/proc/self/task/TID/stack where readable,
 * CAP_SYS_ADMIN: root), and field 3 (state) and 42 (blkio delay) of its
 * stat. Each look stands for the time since the previous one. What the
 * experts get from bcc's offcputime, a user gets without root.
 *
 * The cost (issue 18, acceptance 3: ≤ 1 % of a core with the disk sampler
 * and kernel events): the files of a thread stay open from one look to the
 * next (pread() at 0 makes procfs render them anew), so a look is two or
 * three reads, no path lookup; the stack, whose every frame the kernel looks
 * up in kallsyms, is read only when the wchan (one look-up) is not a site
 * the wait-site table knows; and between calls the thread sleeps until one
 * begins (rp_call_registry_wait_for_call()) rather than waking every 10 ms
 * to find none. */

/* How long the sampler looks on after the stop for calls in flight, seconds. */
#define FINAL_WAIT 60.0

/* How long it sleeps at most while no call is in flight: it notices the
 * run's stop within this, seconds. */
#define IDLE_CHECK 0.1

/* At most this many threads' files open at once; a thread or child that is
 * gone gives its place up at its first failed read. */
#define MAX_OPEN_TASKS 32

/* The /proc files of one thread of ours or child process, kept open. */
typedef struct {
  pid_t    id;
  gboolean child;
  int      stat_fd;
  int      wchan_fd;
  int      schedstat_fd;
  int      stack_fd;    /* opened at the first stack read */
} TaskFiles;

typedef struct {
  gboolean stack_readable;
  gboolean delayacct;
  guint64  samples;
  guint64  stack_reads;
  guint64  wakes;
  GArray  *tasks;       /* of TaskFiles, oldest first */
} StallSampler;

/* A thread of ours under /proc/self/task; a child process (the app-start
 * probe's program) under /proc/PID, readable by its parent (same user). */
static int
open_task_file (pid_t       id,
                gboolean    child,
                const char *name)
{
  char path[64];

  if (child)
    g_snprintf (path, sizeof path, "/proc/%d/%s", (int) id, name);
  else
    g_snprintf (path, sizeof path, "/proc/self/task/%d/%s", (int) id, name);
  return open (path, O_RDONLY | O_CLOEXEC);
}

static void
task_files_close (TaskFiles *files)
{
  if (files->stat_fd >= 0)
    close (files->stat_fd);
  if (files->wchan_fd >= 0)
    close (files->wchan_fd);
  if (files->schedstat_fd >= 0)
    close (files->schedstat_fd);
  if (files->stack_fd >= 0)
    close (files->stack_fd);
  files->stat_fd = files->wchan_fd = files->schedstat_fd = files->stack_fd = -1;
}

static void
task_files_open (TaskFiles *files,
                 pid_t      id,
                 gboolean   child)
{
  files->id = id;
  files->child = child;
  files->stat_fd = open_task_file (id, child, "stat");
  files->wchan_fd = open_task_file (id, child, "wchan");
  files->schedstat_fd = open_task_file (id, child, "schedstat");
  files->stack_fd = -1;
}

/**
 * rp_stall_sampler_site_from_stack:
 * @stack: text of /proc/…/stack, innermost frame first
 *
 * The frame that names the wait best: memory reclaim wherever it is in
 * the stack (what reclaim waits for inside is reclaim's wait, not the
 * call's); else the innermost frame the wait-site table knows that says
 * which I/O; else the innermost it knows at all (a locked page, which the
 * call's kind decides later); else the innermost that is not the
 * scheduler's.
 *
 * Returns: (transfer full) (nullable): the site; %NULL for a stack of
 *   generic frames only
 */
char *
rp_stall_sampler_site_from_stack (const char *stack)
{
  g_auto(GStrv) symbols = rp_proc_stack_symbols (stack);
  const char *telling = NULL;

  for (guint i = 0; symbols[i] != NULL; i++)
    if (rp_wait_site_is_reclaim (symbols[i]))
      return g_strdup (symbols[i]);
  for (guint i = 0; symbols[i] != NULL; i++)
    if (rp_wait_site_is_telling (symbols[i]) && !rp_wait_site_is_ambiguous (symbols[i]))
      return g_strdup (symbols[i]);
  for (guint i = 0; symbols[i] != NULL && telling == NULL; i++)
    if (rp_wait_site_is_telling (symbols[i]))
      telling = symbols[i];
  return g_strdup (telling != NULL ? telling : symbols[0]);
}

/* The wchan when it is what the stack would say: the kernel's wchan is the
 * innermost frame outside the scheduler (get_wchan()), which is the frame
 * the stack's reader picks when the table knows it, it says which I/O
 * (not a locked page, whose caller the stack tells), and the stack's
 * reader would not skip it as a generic wait helper. Reclaim further out
 * is missed this way; a wchan inside reclaim is one of its own sites. */
static char *
telling_wchan (const char *wchan)
{
  g_autofree char *symbol = rp_proc_clean_wchan (wchan);
  g_auto(GStrv) frames = NULL;

  if (symbol == NULL || !rp_wait_site_is_telling (symbol) || rp_wait_site_is_ambiguous (symbol))
    return NULL;
  frames = rp_proc_stack_symbols (symbol);
  return frames[0] != NULL ? g_steal_pointer (&symbol) : NULL;
}

/* One look through @files. %FALSE when the task is gone (its files fail):
 * the caller opens them anew once, for a thread id the kernel reused. */
static gboolean
task_files_read (TaskFiles    *files,
                 gboolean      use_stack,
                 gboolean      delayacct,
                 guint64      *stack_reads,
                 RpWaitSample *out_sample)
{
  char buffer[4096];
  g_autofree char *where = NULL;
  RpTaskStat stat;

  out_sample->site = NULL;
  if (files->stat_fd < 0 || !rp_proc_read_fd (files->stat_fd, buffer, sizeof buffer) ||
      !rp_proc_parse_task_stat (buffer, &stat))
    return FALSE;
  if (stat.state == 'Z' || stat.state == 'X')
    return TRUE;
  out_sample->run_delay_known = files->schedstat_fd >= 0 &&
    rp_proc_read_fd (files->schedstat_fd, buffer, sizeof buffer) &&
    rp_proc_parse_schedstat (buffer, &out_sample->on_cpu, &out_sample->run_delay);
  out_sample->source = use_stack ? "stack" : "wchan";
  /* Stopped by a signal (T) or a tracer (t): where it sleeps says nothing. */
  if (stat.state == 'T' || stat.state == 't')
    {
      out_sample->site = g_strdup (RP_WAIT_SITE_STOPPED);
      out_sample->blkio_ticks = stat.blkio_ticks;
      out_sample->blkio_known = delayacct;
      return TRUE;
    }
  if (files->wchan_fd >= 0 && rp_proc_read_fd (files->wchan_fd, buffer, sizeof buffer))
    where = use_stack ? telling_wchan (buffer) : rp_proc_clean_wchan (buffer);
  if (where == NULL && use_stack)
    {
      if (files->stack_fd < 0)
        files->stack_fd = open_task_file (files->id, files->child, "stack");
      if (files->stack_fd >= 0 && rp_proc_read_fd (files->stack_fd, buffer, sizeof buffer))
        where = rp_stall_sampler_site_from_stack (buffer);
      (*stack_reads)++;
    }
  if (where == NULL)
    where = g_strdup (stat.state == 'R' ? RP_WAIT_SITE_RUNNING : RP_WAIT_SITE_UNKNOWN);
  out_sample->site = g_steal_pointer (&where);
  out_sample->blkio_ticks = stat.blkio_ticks;
  out_sample->blkio_known = delayacct;
  return TRUE;
}

/**
 * rp_stall_sampler_read:
 * @tid: a thread of this process, or a child process
 * @child: whether @tid is a child process (read under /proc/PID)
 * @use_stack: read /proc/self/task/TID/stack (needs CAP_SYS_ADMIN) where
 *   the wchan is not a wait site the table knows
 * @delayacct: whether kernel.task_delayacct is on (the blkio field counts)
 * @out_sample: (out caller-allocates): where @tid waits now; @site %NULL
 *   when the thread is gone or has exited (a zombie child)
 *
 * One look at a thread, its files opened and closed (the sampler keeps
 * them open): its wait site (with @use_stack the innermost stack frame the
 * wait-site table knows, else the innermost one not of the scheduler;
 * without, its wchan), %RP_WAIT_SITE_RUNNING when it is on a CPU (state R)
 * without one, %RP_WAIT_SITE_UNKNOWN when the kernel hides it.
 */
void
rp_stall_sampler_read (pid_t         tid,
                       gboolean      child,
                       gboolean      use_stack,
                       gboolean      delayacct,
                       RpWaitSample *out_sample)
{
  TaskFiles files;
  guint64 stack_reads = 0;

  task_files_open (&files, tid, child);
  task_files_read (&files, use_stack, delayacct, &stack_reads, out_sample);
  task_files_close (&files);
}

static TaskFiles *
sampler_task_files (StallSampler *sampler,
                    pid_t         id,
                    gboolean      child)
{
  TaskFiles files;

  for (guint i = 0; i < sampler->tasks->len; i++)
    {
      TaskFiles *known = &g_array_index (sampler->tasks, TaskFiles, i);

      if (known->id == id && known->child == child)
        return known;
    }
  if (sampler->tasks->len >= MAX_OPEN_TASKS)
    {
      task_files_close (&g_array_index (sampler->tasks, TaskFiles, 0));
      g_array_remove_index (sampler->tasks, 0);
    }
  task_files_open (&files, id, child);
  g_array_append_val (sampler->tasks, files);
  return &g_array_index (sampler->tasks, TaskFiles, sampler->tasks->len - 1);
}

static void
read_wait (pid_t         tid,
           gboolean      child,
           RpWaitSample *out,
           gpointer      data)
{
  StallSampler *sampler = data;
  TaskFiles *files = sampler_task_files (sampler, tid, child);

  if (!task_files_read (files, sampler->stack_readable, sampler->delayacct, &sampler->stack_reads, out))
    {
      /* Gone, or its id now another thread's: the files of the old one
       * fail. Once more with the id's files of now. */
      task_files_close (files);
      task_files_open (files, tid, child);
      if (!task_files_read (files, sampler->stack_readable, sampler->delayacct, &sampler->stack_reads, out))
        task_files_close (files);
    }
  if (out->site != NULL)
    sampler->samples++;
}

static void
stall_sampler_free (gpointer data)
{
  StallSampler *sampler = data;

  for (guint i = 0; i < sampler->tasks->len; i++)
    task_files_close (&g_array_index (sampler->tasks, TaskFiles, i));
  g_array_unref (sampler->tasks);
  g_free (sampler);
}

static gpointer
stall_sampler_prepare (RpPartHost *host,
                       GError    **error)
{
  StallSampler *sampler = g_new0 (StallSampler, 1);
  char buffer[4096];
  int stack_fd = open_task_file ((pid_t) getpid (), FALSE, "stack");

  /* Readable for a process with CAP_SYS_ADMIN only (proc(5)); try our own
   * main thread. */
  sampler->stack_readable = stack_fd >= 0 && rp_proc_read_fd (stack_fd, buffer, sizeof buffer);
  if (stack_fd >= 0)
    close (stack_fd);
  sampler->tasks = g_array_new (FALSE, FALSE, sizeof (TaskFiles));
  sampler->delayacct = rp_proc_read_flag ("/proc/sys/kernel/task_delayacct");
  rp_part_host_set_note (host, "stall_source", sampler->stack_readable ? "stack" : "wchan");
  rp_part_host_set_note (host, "task_delayacct", sampler->delayacct ? "on" : "off");
  return sampler;
}

static void
stall_sampler_run (RpPartHost *host,
                   gpointer    state)
{
  StallSampler *sampler = state;
  RpCallRegistry *calls = rp_part_host_get_calls (host);
  double period = rp_params_get_seconds (rp_part_host_get_params (host), "stall_sample_period");

  while (!rp_part_host_should_stop (host))
    {
      double wait;

      sampler->wakes++;
      /* No call in flight: asleep until one begins. */
      if (!rp_call_registry_next_due (calls, rp_clock_now (), &wait))
        {
          rp_call_registry_wait_for_call (calls, IDLE_CHECK);
          continue;
        }
      /* One in flight, not yet for 20 ms: asleep until it is. */
      if (wait > 0)
        {
          rp_part_host_sleep (host, wait);
          continue;
        }
      rp_call_registry_sample (calls, rp_clock_now (), read_wait, sampler);
      rp_part_host_sleep (host, period);
    }
  /* A call in flight at the stop (an fsync() the join waits for) is a stall
   * of the run too: look on until it returns, at most FINAL_WAIT seconds. */
  for (double waited = 0; waited < FINAL_WAIT && rp_call_registry_any_in_flight (calls, rp_clock_now (), 0);
       waited += period)
    {
      rp_call_registry_sample (calls, rp_clock_now (), read_wait, sampler);
      g_usleep ((gulong) (period * G_USEC_PER_SEC));
    }

  /* What attribution cost (bench/, issue 18 acceptance 3: ≤ 1 % of a core). */
  rp_part_host_set_number_note (host, "stall_sampler_cpu_seconds", "%.4f", rp_clock_thread_cpu_seconds ());
  rp_part_host_set_number_note (host, "stall_samples", "%.0f", (double) sampler->samples);
  rp_part_host_set_number_note (host, "stall_stack_reads", "%.0f", (double) sampler->stack_reads);
  rp_part_host_set_number_note (host, "stall_sampler_wakes", "%.0f", (double) sampler->wakes);
}

static const RpWorkerClass worker = {
  .name = "stall-sampler",
  .prepare = stall_sampler_prepare,
  .run = stall_sampler_run,
  .free_state = stall_sampler_free,
};

static const RpParamInfo params[] = {
  { "stall_sample_period", "stall-sample-period", "stall-sample-period", RP_PARAM_SECONDS, 0.001, 0.1, 0.01, NULL,
    N_("Stall attribution: seconds between looks at a stalled call's thread (default 0.01)"),
    N_("SECONDS") },
};

static char *
stall_sampler_describe (const RpParams *p)
{
  /* TRANSLATORS: "every 0.5 s" */
  return g_strdup_printf (_("every %g s"),
                          rp_params_get_seconds (p, "stall_sample_period"));
}

/* Where each stall's time went: wait sites of the stalled threads. */
const RpPartInfo rp_stall_sampler_part = {
  .id = "stalls",
  .role = RP_PART_PROBE,
  .label = N_("Stall attribution"),
  /* TRANSLATORS: %s is e.g. "every 0.01 s" (while a call stalls) */
  .sentence = N_("stall attribution %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  .worker = &worker,
  .in_baseline = TRUE,
  .describe = stall_sampler_describe,
};
