/* rp-clock.h: the one clock every measurement uses. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <time.h>

G_BEGIN_DECLS

/**
 * rp_clock_now:
 *
 * Reads CLOCK_MONOTONIC with nanosecond resolution. The fsync-tester of kernel
 * bug 12309 used gettimeofday(); a monotonic clock gives the same durations
 * without jumps when NTP steps the wall clock.
 *
 * Returns: seconds since an arbitrary fixed point (boot, on Linux).
 */
static inline double
rp_clock_now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

G_END_DECLS
