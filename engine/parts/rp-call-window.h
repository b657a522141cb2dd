/* rp-call-window.h: a load's timed calls kept as the longest of every 0.1 s, with exact counts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-part-host.h"

G_BEGIN_DECLS

/* The window, seconds: a stall (over 0.1 s) is always a sample of its own. */
#define RP_CALL_WINDOW 0.1

/**
 * RpCallWindow:
 * @series: where the window maxima go (shared by the load's threads: a
 *   series is appended under its own lock)
 * @calls: every call recorded
 * @over_instant: those over 0.1 s
 * @over_flow: those over 1 s
 *
 * One thread's calls of a load that makes thousands a second (a reader's
 * read(), the random writer's write()): each timed (so that a stall has
 * its breakdown), kept as the longest of every %RP_CALL_WINDOW, counted
 * exactly, so that the verdict counts calls, not windows.
 */
typedef struct {
  RpSeries *series;
  guint64   calls;
  guint64   over_instant;
  guint64   over_flow;
  /*< private >*/
  gboolean  open;
  double    start;
  double    max;
  double    max_t;
} RpCallWindow;

void rp_call_window_init   (RpCallWindow *window,
                            RpSeries     *series);
void rp_call_window_record (RpCallWindow *window,
                            double        t,
                            double        latency);
void rp_call_window_flush  (RpCallWindow *window);
void rp_call_window_notes  (RpPartHost   *host,
                            const char   *prefix,
                            guint64       calls,
                            guint64       over_instant,
                            guint64       over_flow);

G_END_DECLS
