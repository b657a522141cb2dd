/* rp-frame-sync.c: no frame-sync questions to an X server without a window manager. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-frame-sync.h"

/* After gtk.h, which defines GDK_WINDOWING_X11 when GTK has that backend. */
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/**
 * rp_frame_sync_quiet:
 * @surface: a window's surface, of any backend
 *
 * GDK's X11 backend asks, at the end of every frame, whether the window
 * manager supports _NET_WM_FRAME_DRAWN, and remembers the answer only once
 * it has found a window manager (fetch_net_wm_check_window() in GTK 4.8's
 * gdkscreen-x11.c): without one (Xvfb, a kiosk session) each question is a
 * synchronous XGetWindowProperty, two round trips to the X server a frame.
 * Without a window manager GDK does not sync frames anyway
 * (_gdk_x11_surface_syncs_frames() is false either way): turning frame sync
 * off changes no frame, only the asking. With a window manager, or on
 * another backend, nothing is changed. GTK 4.8 cannot turn frame sync back
 * on, so a window manager started later does not sync this surface.
 * Used by the probe window (60 frames a second) and the main window.
 */
void
rp_frame_sync_quiet (GdkSurface *surface)
{
#ifdef GDK_WINDOWING_X11
  GdkX11Screen *screen;

  g_return_if_fail (GDK_IS_SURFACE (surface));

  if (!GDK_IS_X11_SURFACE (surface))
    return;
  screen = gdk_x11_display_get_screen (gdk_surface_get_display (surface));
  if (!gdk_x11_screen_supports_net_wm_hint (screen, "_NET_WM_FRAME_DRAWN") &&
      g_strcmp0 (gdk_x11_screen_get_window_manager_name (screen), "unknown") == 0)
    gdk_x11_surface_set_frame_sync_enabled (surface, FALSE);
#endif
}
