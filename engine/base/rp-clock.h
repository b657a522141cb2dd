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

/**
 * rp_clock_thread_cpu_seconds:
 *
 * Reads CLOCK_THREAD_CPUTIME_ID: the user plus system CPU time the calling
 * thread has used. The loads note it beside their throughput, so that a
 * comparison with a reference tool on a busy machine can tell a costlier
 * load (more CPU a byte) from a smaller share of the CPU.
 *
 * Returns: seconds of CPU time of the calling thread since it started
 */
static inline double
rp_clock_thread_cpu_seconds (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts);
  return (double) ts.tv_sec + (double) ts.tv_nsec * 1e-9;
}

G_END_DECLS
