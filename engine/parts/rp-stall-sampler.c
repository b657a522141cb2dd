/* rp-stall-sampler.c: where a stalled call waits: its thread's wait site and state, sampled at 100 Hz. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-proc.h"
#include "rp-proc-wait.h"

/* While a timed call (rp_timed_call_begin()) is in flight past 20 ms, look
 * at its thread every 10 ms: /proc/self/task/TID/stack where readable
 * (CAP_SYS_ADMIN: root), else /proc/self/task/TID/wchan (any user, for the
 * process's own threads), and field 3 (state) and 42 (blkio delay) of its
 * stat. Each look stands for the time since the previous one. What the
 * experts get from bcc's offcputime, a user gets without root, at the cost
 * of three small reads per stalled call every 10 ms and nothing at all
 * while no call stalls. */

/* How long the sampler looks on after the stop for calls in flight, seconds. */
#define FINAL_WAIT 60.0

typedef struct {
  gboolean stack_readable;
  gboolean delayacct;
  guint64  samples;
} StallSampler;

/* A thread of ours under /proc/self/task; a child process (the app-start
 * probe's program) under /proc/PID, readable by its parent (same user). */
static char *
read_task_file (pid_t       tid,
                gboolean    child,
                const char *name)
{
  g_autofree char *path = child ? g_strdup_printf ("/proc/%d/%s", (int) tid, name)
                                : g_strdup_printf ("/proc/self/task/%d/%s", (int) tid, name);
  char buffer[4096];
  int fd = open (path, O_RDONLY | O_CLOEXEC);
  gboolean ok;

  if (fd < 0)
    return NULL;
  ok = rp_proc_read_fd (fd, buffer, sizeof buffer);
  close (fd);
  return ok ? g_strdup (buffer) : NULL;
}

/* The innermost frame the wait-site table knows; without one, the
 * innermost frame that is not the scheduler's. */
static char *
site_from_stack (const char *stack)
{
  g_auto(GStrv) symbols = rp_proc_stack_symbols (stack);

  for (guint i = 0; symbols[i] != NULL; i++)
    if (rp_wait_site_is_telling (symbols[i]))
      return g_strdup (symbols[i]);
  return g_strdup (symbols[0]);
}

/**
 * rp_stall_sampler_read:
 * @tid: a thread of this process, or a child process
 * @child: whether @tid is a child process (read under /proc/PID)
 * @use_stack: read /proc/self/task/TID/stack (needs CAP_SYS_ADMIN) rather
 *   than wchan
 * @delayacct: whether kernel.task_delayacct is on (the blkio field counts)
 * @out_sample: (out caller-allocates): where @tid waits now; @site %NULL
 *   when the thread is gone or has exited (a zombie child)
 *
 * One look at a thread: its wait site (the innermost stack frame the
 * wait-site table knows, else the innermost one not of the scheduler; or
 * its wchan), %RP_WAIT_SITE_RUNNING when it is on a CPU (state R) without
 * one, %RP_WAIT_SITE_UNKNOWN when the kernel hides it.
 */
void
rp_stall_sampler_read (pid_t         tid,
                       gboolean      child,
                       gboolean      use_stack,
                       gboolean      delayacct,
                       RpWaitSample *out_sample)
{
  g_autofree char *stat_text = read_task_file (tid, child, "stat");
  g_autofree char *where = NULL;
  RpTaskStat stat;

  out_sample->site = NULL;
  if (stat_text == NULL || !rp_proc_parse_task_stat (stat_text, &stat) ||
      stat.state == 'Z' || stat.state == 'X')
    return;
  if (use_stack)
    {
      g_autofree char *stack = read_task_file (tid, child, "stack");

      out_sample->source = "stack";
      where = stack != NULL ? site_from_stack (stack) : NULL;
    }
  else
    {
      g_autofree char *wchan = read_task_file (tid, child, "wchan");

      out_sample->source = "wchan";
      where = rp_proc_clean_wchan (wchan);
    }
  if (where == NULL)
    where = g_strdup (stat.state == 'R' ? RP_WAIT_SITE_RUNNING : RP_WAIT_SITE_UNKNOWN);
  out_sample->site = g_steal_pointer (&where);
  out_sample->blkio_ticks = stat.blkio_ticks;
  out_sample->blkio_known = delayacct;
}

static void
read_wait (pid_t         tid,
           gboolean      child,
           RpWaitSample *out,
           gpointer      data)
{
  StallSampler *sampler = data;

  rp_stall_sampler_read (tid, child, sampler->stack_readable, sampler->delayacct, out);
  if (out->site != NULL)
    sampler->samples++;
}

static gboolean
read_flag_file (const char *path)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (path, &text, NULL, NULL) && g_ascii_strtoull (text, NULL, 10) != 0;
}

static gpointer
stall_sampler_prepare (RpPartHost *host,
                       GError    **error)
{
  StallSampler *sampler = g_new0 (StallSampler, 1);
  g_autofree char *stack = read_task_file ((pid_t) getpid (), FALSE, "stack");

  /* Readable for a process with CAP_SYS_ADMIN only (proc(5)); try our own
   * main thread. */
  sampler->stack_readable = stack != NULL;
  sampler->delayacct = read_flag_file ("/proc/sys/kernel/task_delayacct");
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

  do
    rp_call_registry_sample (calls, rp_clock_now (), read_wait, sampler);
  while (rp_part_host_sleep (host, period));
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
}

static const RpWorkerClass worker = {
  .name = "stall-sampler",
  .prepare = stall_sampler_prepare,
  .run = stall_sampler_run,
  .free_state = g_free,
};

static const RpParamInfo params[] = {
  { "stall_sample_period", "stall-sample-period", NULL, RP_PARAM_SECONDS, 0.001, 0.1, 0.01, NULL,
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
