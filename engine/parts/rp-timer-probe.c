/* rp-timer-probe.c: how late a worker thread wakes from a short sleep. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-clock.h"
#include "rp-params.h"
#include "rp-parts.h"

/* The measuring process's own lateness, with no I/O of its own: cyclictest's
 * idea (rt-tests) at desktop resolution. A probe that is late because the
 * whole process was frozen (SIGSTOP, a swapped-out page, a cgroup freeze)
 * shows it here, where every other series only has a gap. It is also the
 * smallest complete part, which the tests use to run the session without
 * touching the disk. */

typedef struct {
  double interval;
} TimerProbe;

static gpointer
timer_probe_prepare (RpPartHost  *host,
                     GError     **error)
{
  TimerProbe *probe = g_new0 (TimerProbe, 1);

  probe->interval = rp_params_get_seconds (rp_part_host_get_params (host), "timer_interval");
  return probe;
}

static void
timer_probe_run (RpPartHost *host,
                 gpointer    state)
{
  TimerProbe *probe = state;
  RpSeries *series = rp_part_host_ensure_series (host, "timer_lateness", "s", _("Worker timer lateness"));
  /* A late wake-up is a stall too, with its evidence: the thread's wait
   * for a CPU and the process's stops (rp_timed_call_woke()). */
  RpTimedCall *call = rp_part_host_open_call (host);
  double due = rp_clock_now () + probe->interval;

  rp_timed_call_mark_sleep (call);
  while (rp_part_host_sleep (host, due - rp_clock_now ()))
    {
      double woke = rp_clock_now ();

      rp_timed_call_woke (call, "timer_lateness", due);

      rp_series_append (series, rp_part_host_time_from_monotonic (host, due), MAX (woke - due, 0));
      rp_part_host_changed (host);
      /* The next period from now, not from @due: after a freeze, one late
       * sample says how long it lasted instead of a burst of catch-ups. */
      due = woke + probe->interval;
      rp_timed_call_mark_sleep (call);
    }
}

static const RpWorkerClass worker = {
  .name = "timer-probe",
  .prepare = timer_probe_prepare,
  .run = timer_probe_run,
  .free_state = g_free,
};

static const RpParamInfo params[] = {
  { "timer_interval", "timer-interval", "timer-interval", RP_PARAM_SECONDS, 0.001, 60, 0.1, NULL,
    N_("Timer probe: seconds between wake-ups (default 0.1)"), N_("SECONDS") },
};

static const RpSeriesInfo series[] = {
  { "timer_lateness", "s", N_("Worker timer lateness"), NULL, N_("worker timer"), N_("Worker timer"),
    N_("How late a sleeping worker thread of the probe woke up: the measuring process’s own delay"),
    26, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("The probe's worker timer"), NULL, RP_CALL_KIND_WAIT,
    /* TRANSLATORS: opens a sentence: "The worker timer's wake-up took 2.1 s at 3.0 s" (late by) */
    N_("The worker timer's wake-up") },
};

static char *
timer_probe_describe (const RpParams *p)
{
  /* TRANSLATORS: "every 0.1 s" */
  return g_strdup_printf (_("every %g s"), rp_params_get_seconds (p, "timer_interval"));
}

const RpPartInfo rp_timer_part = {
  .id = "timer",
  .role = RP_PART_PROBE,
  .label = N_("Timer probe"),
  /* TRANSLATORS: %s is e.g. "every 0.1 s" */
  .sentence = N_("timer probe %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .describe = timer_probe_describe,
};
