/* rp-periodic-probe.h: the loop of a probe that times one call, then sleeps, until the run stops. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-part-host.h"

G_BEGIN_DECLS

/**
 * RpTimedMeasure:
 * @state: the probe's state, from its prepare
 * @out_before: (out): the CLOCK_MONOTONIC time (rp_clock_now(), seconds)
 *   read just before the call: the sample's time
 * @error: set, naming the thing, when the call failed
 *
 * Makes the probe's one timed call (a syncfs(), a round trip to the
 * display server).
 *
 * Returns: the call's seconds, from the clock read before it to the one
 *   after; negative, with @error set, when it failed
 */
typedef double (*RpTimedMeasure) (gpointer   state,
                                  double    *out_before,
                                  GError   **error);

void rp_periodic_probe_run (RpPartHost     *host,
                            RpSeries       *series,
                            double          interval,
                            RpTimedMeasure  measure,
                            gpointer        state);

G_END_DECLS
