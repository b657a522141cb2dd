/* rp-display-probe.c: the display server's round trip (X11 or Wayland), every 50 ms, on a connection of its own. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <stdlib.h>
#include <wayland-client.h>
#include <xcb/xcb.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-periodic-probe.h"

/* The pointer, every window's frame and every key press go through one
 * process: the X server, or the Wayland compositor. When it waits for the
 * disk (a page of its own binary evicted, a log file, a cursor theme read),
 * the whole desktop stutters, and the product's own window shows it only
 * when it happens to draw. This probe asks the server the smallest question
 * that needs an answer, from a connection and a thread of its own: on X11
 * GetInputFocus, the request XSync() uses; on Wayland wl_display.sync, whose
 * callback fires once the compositor has handled everything before it
 * (wl_display_roundtrip()). Wayland is preferred when both are there, as GTK
 * prefers it. */

typedef struct {
  xcb_connection_t  *x11;
  struct wl_display *wayland;
  double             interval;
} DisplayProbe;

static void
display_probe_free (gpointer data)
{
  DisplayProbe *probe = data;

  if (probe->x11 != NULL)
    xcb_disconnect (probe->x11);
  if (probe->wayland != NULL)
    wl_display_disconnect (probe->wayland);
  g_free (probe);
}

static gpointer
display_probe_prepare (RpPartHost *host,
                       GError    **error)
{
  DisplayProbe *probe = g_new0 (DisplayProbe, 1);
  const char *wayland_display = g_getenv ("WAYLAND_DISPLAY");
  const char *x11_display = g_getenv ("DISPLAY");

  probe->interval = rp_params_get_seconds (rp_part_host_get_params (host), "display_interval");
  if (wayland_display != NULL && *wayland_display != '\0')
    probe->wayland = wl_display_connect (NULL);
  if (probe->wayland == NULL && x11_display != NULL && *x11_display != '\0')
    {
      probe->x11 = xcb_connect (NULL, NULL);
      if (xcb_connection_has_error (probe->x11))
        g_clear_pointer (&probe->x11, xcb_disconnect);
    }
  if (probe->wayland == NULL && probe->x11 == NULL)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_FAILED,
                           _("Display probe: no display server to connect to (WAYLAND_DISPLAY or DISPLAY)"));
      display_probe_free (probe);
      return NULL;
    }
  rp_part_host_set_note (host, "display_server", probe->wayland != NULL ? "wayland" : "x11");
  return probe;
}

/* The one timed round trip (an RpTimedMeasure): from the clock read before
 * the request to the one after its answer. */
static double
round_trip (gpointer   state,
            double    *out_before,
            GError   **error)
{
  DisplayProbe *probe = state;
  double before = rp_clock_now ();

  *out_before = before;
  if (probe->wayland != NULL)
    {
      if (wl_display_roundtrip (probe->wayland) < 0)
        goto broken;
    }
  else
    {
      xcb_get_input_focus_reply_t *reply =
        xcb_get_input_focus_reply (probe->x11, xcb_get_input_focus (probe->x11), NULL);

      if (reply == NULL)
        goto broken;
      free (reply);
    }
  return rp_clock_now () - before;

broken:
  g_set_error_literal (error, RP_ERROR, RP_ERROR_FAILED,
                       _("Display probe: the connection to the display server broke"));
  return -1;
}

static void
display_probe_run (RpPartHost *host,
                   gpointer   state)
{
  DisplayProbe *probe = state;
  RpSeries *series = rp_part_host_ensure_series (host, "display_round_trip", "s",
                                                 _("Display server round trip"));

  rp_periodic_probe_run (host, series, probe->interval, round_trip, probe);
}

static const RpWorkerClass worker = {
  .name = "display",
  .prepare = display_probe_prepare,
  .run = display_probe_run,
  .free_state = display_probe_free,
};

static const RpParamInfo params[] = {
  { "display_interval", "display-interval", "display-interval", RP_PARAM_SECONDS, 0.01, 3600, 0.05, NULL,
    N_("Display probe: seconds between round trips to the display server (default 0.05)"), N_("SECONDS") },
};

static const RpSeriesInfo series[] = {
  { "display_round_trip", "s", N_("Display server round trip"), "disk-latency", N_("display server"),
    N_("Display server"),
    N_("Time for the X server or the Wayland compositor to answer a request that needs nothing but an answer"),
    20, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Display server round trips"), NULL, RP_CALL_KIND_WAIT,
    /* TRANSLATORS: opens a sentence: "A round trip to the display server took 2.1 s at 3.0 s" */
    N_("A round trip to the display server") },
};

static char *
display_describe (const RpParams *p)
{
  /* TRANSLATORS: "a round trip every 0.05 s" */
  return g_strdup_printf (_("a round trip every %g s"), rp_params_get_seconds (p, "display_interval"));
}

/* The X server's or the Wayland compositor's answer time. */
const RpPartInfo rp_display_part = {
  .id = "display",
  .role = RP_PART_PROBE,
  .label = N_("Display probe"),
  /* TRANSLATORS: %s is e.g. "a round trip every 0.05 s" */
  .sentence = N_("display server, %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .describe = display_describe,
};
