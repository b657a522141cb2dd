/* rp-periodic-probe.c: the loop of a probe that times one call, then sleeps, until the run stops. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-periodic-probe.h"

/**
 * rp_periodic_probe_run:
 * @host: the run
 * @series: where each call's seconds go, at the time read before the call
 * @interval: seconds slept after each call (not a fixed rate: a call that
 *   takes 3 s delays the next, so that the probe never piles calls up)
 * @measure: the timed call
 * @state: @measure's state
 *
 * Calls @measure at once and then after every @interval until the run
 * stops. A failed call ends the run with its error (rp_part_host_fail());
 * the samples so far stay. Returns when the run stops or failed. A worker's
 * run function, shared by the sync and display probes. Each call is a timed
 * call of the run (rp_timed_call_begin()), named by @series, so that a
 * stall of it has a breakdown.
 */
void
rp_periodic_probe_run (RpPartHost     *host,
                       RpSeries       *series,
                       double          interval,
                       RpTimedMeasure  measure,
                       gpointer        state)
{
  RpTimedCall *call;

  g_return_if_fail (host != NULL && series != NULL && measure != NULL);

  /* Every timed call is in flight for the stall sampler, so that its
   * stalls have their causes (issue 31): the series' name is its own for
   * the session's life. */
  call = rp_part_host_open_call (host);
  do
    {
      GError *error = NULL;
      double before = 0;
      double seconds;

      rp_timed_call_begin (call, rp_series_get_name (series));
      seconds = measure (state, &before, &error);
      if (seconds < 0)
        rp_timed_call_abandon (call);
      else
        rp_timed_call_end (call);

      if (seconds < 0)
        {
          rp_part_host_fail (host, error);
          return;
        }
      rp_series_append (series, rp_part_host_time_from_monotonic (host, before), seconds);
      rp_part_host_changed (host);
    }
  while (rp_part_host_sleep (host, interval));
}
