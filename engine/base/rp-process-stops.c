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
      sigemptyset (&action.sa_mask);
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

/**
 * rp_process_stops_continuing:
 *
 * Whether a continuation is under way that rp_process_stops_continued()
 * does not show yet: SIGCONT is pending (the kernel continued the process,
 * no thread has taken the signal yet) or a handler is between its start
 * and its note. After a stop every thread runs again at once, and a worker
 * ending its call may look before the thread that takes SIGCONT has noted
 * it: for that worker the stop ended just now.
 *
 * Returns: %TRUE when so
 */
gboolean
rp_process_stops_continuing (void)
{
  sigset_t pending;

  if (g_atomic_int_get (&entered) != g_atomic_int_get (&written))
    return TRUE;
  return sigpending (&pending) == 0 && sigismember (&pending, SIGCONT) == 1;
}
