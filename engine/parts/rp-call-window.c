/* rp-call-window.c: a load's timed calls kept as the longest of every 0.1 s, with exact counts. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "rp-call-window.h"
#include "rp-stats.h"

/**
 * rp_call_window_init:
 * @series: the series of the window maxima
 */
void
rp_call_window_init (RpCallWindow *window,
                     RpSeries     *series)
{
  memset (window, 0, sizeof *window);
  window->series = series;
}

/**
 * rp_call_window_flush:
 *
 * Appends the open window's longest call, if any: at a window's end and
 * when the thread ends.
 */
void
rp_call_window_flush (RpCallWindow *window)
{
  if (!window->open)
    return;
  rp_series_append (window->series, window->max_t, window->max);
  window->open = FALSE;
}

/**
 * rp_call_window_record:
 * @t: session time the call began, seconds
 * @latency: how long it took, seconds
 */
void
rp_call_window_record (RpCallWindow *window,
                       double        t,
                       double        latency)
{
  window->calls++;
  window->over_instant += latency > RP_LIMIT_INSTANT;
  window->over_flow += latency > RP_LIMIT_FLOW;
  if (!window->open)
    {
      window->open = TRUE;
      window->start = t;
      window->max = -1;
    }
  if (latency > window->max)
    {
      window->max = latency;
      window->max_t = t;
    }
  if (t + latency - window->start >= RP_CALL_WINDOW)
    rp_call_window_flush (window);
}

/**
 * rp_call_window_notes:
 * @prefix: e.g. "read": notes "read_calls", "read_calls_over_0_1s",
 *   "read_calls_over_1s" (the series' @count_note is PREFIX_calls)
 *
 * Notes the counts of all of a load's threads.
 */
void
rp_call_window_notes (RpPartHost *host,
                      const char *prefix,
                      guint64     calls,
                      guint64     over_instant,
                      guint64     over_flow)
{
  const char *suffixes[] = { "_calls", "_calls_over_0_1s", "_calls_over_1s" };
  guint64 values[] = { calls, over_instant, over_flow };

  for (guint i = 0; i < G_N_ELEMENTS (values); i++)
    {
      g_autofree char *key = g_strconcat (prefix, suffixes[i], NULL);

      rp_part_host_set_number_note (host, key, "%.0f", (double) values[i]);
    }
}
