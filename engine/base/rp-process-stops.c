/* rp-process-stops.c: when this process was continued after a stop (SIGSTOP, Ctrl-Z), for stall attribution. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <signal.h>
#include <string.h>
#include <time.h>

#include "rp-process-stops.h"

/* A process stopped whole (SIGSTOP, SIGTSTP) stops every thread, the stall
 * sampler's too, so nothing in it sees the stop while it lasts, and its
 * threads' state 'T' is gone by the next look. What remains is the
 * SIGCONT that ends it: the kernel delivers it to a handler of ours after
 * the process runs again. Its time, together with the sampler's last look
 * before the stop (the sampler looks every 10 ms while a call is in
 * flight), bounds the stop: it began after that look and ended at the
 * continuation. The times are kept in a small ring written from the
 * handler (clock_gettime() is async-signal-safe) and read by any thread. */

#define RING 16

/* While a handler runs, the kernel blocks in its thread the signal and the
 * action's sa_mask, from the moment it sets up the handler's frame until
 * the handler returns. Ours adds SIGTTIN, which nothing of ours blocks. A
 * thread whose blocked set holds SIGCONT and SIGTTIN but not SIGTTOU is in
 * our handler or about to enter it; a thread that blocks every signal (the
 * GLib worker's and GDBus's do) holds SIGTTOU too. */
#define MARKER_SIGNAL  SIGTTIN
#define CONTROL_SIGNAL SIGTTOU

static gint64 continued_ns[RING];
static gint   entered;              /* handlers begun, atomic */
static gint   written;              /* how many were written, atomic */
static struct sigaction previous;

static void
on_continue (int        signal_number,
             siginfo_t *info,
             void      *context)
{
  struct timespec ts;
  gint slot;

  g_atomic_int_inc (&entered);
  clock_gettime (CLOCK_MONOTONIC, &ts);
  slot = g_atomic_int_add (&written, 1) % RING;
  __atomic_store_n (&continued_ns[slot], (gint64) ts.tv_sec * G_GINT64_CONSTANT (1000000000) + ts.tv_nsec,
                    __ATOMIC_RELEASE);
  /* Whoever watched SIGCONT before us still hears it. */
  if ((previous.sa_flags & SA_SIGINFO) && previous.sa_sigaction != NULL)
    previous.sa_sigaction (signal_number, info, context);
  else if (!(previous.sa_flags & SA_SIGINFO) && previous.sa_handler != SIG_DFL &&
           previous.sa_handler != SIG_IGN && previous.sa_handler != NULL)
    previous.sa_handler (signal_number);
}

/**
 * rp_process_stops_watch:
 *
 * Installs, once per process, a SIGCONT handler that notes when the
 * process was continued (rp_process_stops_continued()). SIGCONT's own
 * action, continuing a stopped process, is the kernel's and stays; a
 * handler installed before is called from ours. SA_RESTART: system calls
 * that can be restarted are; those that never are after a handler
 * (nanosleep(), poll()) return EINTR, which GLib's loops and sleeps retry.
 * Called by a session at its start.
 */
void
rp_process_stops_watch (void)
{
  static gsize installed;

  if (g_once_init_enter (&installed))
    {
      struct sigaction action;

      memset (&action, 0, sizeof action);
      action.sa_sigaction = on_continue;
      action.sa_flags = SA_SIGINFO | SA_RESTART;
      /* The marker of a thread in our handler (in_our_handler()). */
      sigemptyset (&action.sa_mask);
      sigaddset (&action.sa_mask, MARKER_SIGNAL);
      sigaction (SIGCONT, &action, &previous);
      g_once_init_leave (&installed, 1);
    }
}

/**
 * rp_process_stops_continued:
 * @after: monotonic seconds (rp_clock_now())
 * @until: monotonic seconds, at least @after
 * @out_continued: (out) (optional): the latest continuation in
 *   (@after, @until], monotonic seconds
 *
 * Returns: whether the process was continued after a stop in that span
 *   (a SIGCONT arrived while rp_process_stops_watch() watched; the last
 *   16 are kept)
 */
gboolean
rp_process_stops_continued (double  after,
                            double  until,
                            double *out_continued)
{
  gint n = g_atomic_int_get (&written);
  gboolean found = FALSE;
  double latest = 0;

  for (gint i = MAX (n - RING, 0); i < n; i++)
    {
      gint64 ns = __atomic_load_n (&continued_ns[i % RING], __ATOMIC_ACQUIRE);
      double t = (double) ns * 1e-9;

      if (ns > 0 && t > after && t <= until && (!found || t > latest))
        {
          latest = t;
          found = TRUE;
        }
    }
  if (found && out_continued != NULL)
    *out_continued = latest;
  return found;
}

/* A "SigBlk:" line of /proc/PID/task/TID/status (proc(5)): a hexadecimal
 * mask, bit N-1 for signal N. */
static gboolean
blocked_in (const char *status,
            guint64    *out_mask)
{
  const char *line = strstr (status, "\nSigBlk:");
  char *end;

  if (line == NULL)
    return FALSE;
  *out_mask = g_ascii_strtoull (line + strlen ("\nSigBlk:"), &end, 16);
  return end != line + strlen ("\nSigBlk:");
}

/* Whether a thread of this process is in our handler or has its frame set
 * up and waits to run it: the kernel took SIGCONT off the pending set, so
 * sigpending() no longer shows it, and the handler has not counted itself
 * in @entered yet. A thread taking the signal can be preempted there for
 * as long as the machine is busy (issue 30: in a landing CI run a look
 * found the stop's whole span unexplained and gave it to the pipe wait). */
static gboolean
in_our_handler (void)
{
  const guint64 ours = (G_GUINT64_CONSTANT (1) << (SIGCONT - 1)) | (G_GUINT64_CONSTANT (1) << (MARKER_SIGNAL - 1));
  const guint64 control = G_GUINT64_CONSTANT (1) << (CONTROL_SIGNAL - 1);
  g_autoptr(GDir) tasks = g_dir_open ("/proc/self/task", 0, NULL);
  const char *tid;

  if (tasks == NULL)
    return FALSE;
  while ((tid = g_dir_read_name (tasks)) != NULL)
    {
      g_autofree char *path = g_build_filename ("/proc/self/task", tid, "status", NULL);
      g_autofree char *status = NULL;
      guint64 mask;

      if (g_file_get_contents (path, &status, NULL, NULL) && blocked_in (status, &mask) &&
          (mask & ours) == ours && (mask & control) == 0)
        return TRUE;
    }
  return FALSE;
}

/**
 * rp_process_stops_continuing:
 *
 * Whether a continuation is under way that rp_process_stops_continued()
 * does not show yet: SIGCONT is pending (the kernel continued the process,
 * no thread has taken the signal yet), a thread took it and has not begun
 * the handler yet (its frame is set up: it waits for a CPU), or a handler
 * is between its start and its note. After a stop every thread runs again
 * at once, and a worker ending its call may look before the thread that
 * takes SIGCONT has noted it: for that worker the stop ended just now.
 * Reads every thread's status: for a look that found a gap no other
 * evidence explains, not for every look.
 *
 * Returns: %TRUE when so
 */
gboolean
rp_process_stops_continuing (void)
{
  sigset_t pending;

  if (g_atomic_int_get (&entered) != g_atomic_int_get (&written))
    return TRUE;
  if (sigpending (&pending) == 0 && sigismember (&pending, SIGCONT) == 1)
    return TRUE;
  return in_our_handler ();
}
