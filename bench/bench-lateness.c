/* bench-lateness.c: benchmark 4, the probe window's main-loop lateness timer on an idle GMainLoop. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include "rp-stats.h"
#include "rp-timerfd-source.h"

/* The same source the probe window's main-loop probe uses (app/canary/rp-timerfd-source.c,
 * compiled in), on a plain GMainLoop with nothing else attached: what is
 * left is the cost of the kernel's wake-up, the scheduler and GLib's
 * dispatch, which cyclictest's clock_nanosleep() loop measures without GLib.
 * Prints p50, p99 and max in microseconds as one JSON line. */

typedef struct {
  GMainLoop *loop;
  GArray    *lateness;
  guint      wanted;
} Run;

static gboolean
on_timer (double   expiry,
          double   dispatched,
          guint64  missed,
          gpointer user_data)
{
  Run *run = user_data;
  double late = dispatched - expiry;

  g_array_append_val (run->lateness, late);
  if (run->lateness->len < run->wanted)
    return G_SOURCE_CONTINUE;
  g_main_loop_quit (run->loop);
  return G_SOURCE_REMOVE;
}

int
main (int   argc,
      char *argv[])
{
  double seconds = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 10;
  double period = argc > 2 ? g_ascii_strtod (argv[2], NULL) : 0.01;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  g_autoptr(GArray) lateness = g_array_new (FALSE, FALSE, sizeof (double));
  Run run = { loop, lateness, (guint) (seconds / period) };
  GSource *source;
  RpStats stats;

  if (!(period > 0) || run.wanted == 0)
    {
      fprintf (stderr, "usage: %s [SECONDS [PERIOD]]\n", argv[0]);
      return 2;
    }

  source = rp_timerfd_source_new (period, &error);
  if (source == NULL)
    {
      fprintf (stderr, "%s\n", error->message);
      return 1;
    }
  g_source_set_callback (source, (GSourceFunc) (void (*) (void)) on_timer, &run, NULL);
  g_source_attach (source, NULL);
  g_main_loop_run (loop);
  g_source_destroy (source);
  g_source_unref (source);

  rp_stats_compute ((const double *) (gpointer) lateness->data, lateness->len, &stats);
  printf ("{\"n\": %u, \"period_s\": %g, \"p50_us\": %.1f, \"p99_us\": %.1f, \"max_us\": %.1f}\n",
          lateness->len, period, stats.p50 * 1e6, stats.p99 * 1e6, stats.max * 1e6);
  return 0;
}
