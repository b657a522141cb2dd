/* rp-canary-frames.c: the probe window's animation, drawn every frame, and the frame intervals it measures. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-canary-protocol.h"
#include "rp-canary.h"
#include "rp-clock.h"
#include "rp-frame-sync.h"

/* After gtk.h, which defines GDK_WINDOWING_X11 when GTK has that backend. */
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* The pulse: a bar that sweeps its track once every PULSE_PERIOD_US. It is
 * redrawn at every tick of the frame clock, so the window presents a new
 * frame at every refresh of the output, as a video or an animation does:
 * a frame interval then says how late the desktop showed a frame, not how
 * often this window had something to draw (on Wayland a window that draws
 * nothing commits nothing and gets no presentation times). */
#define PULSE_PERIOD_US (2 * G_USEC_PER_SEC)
#define PULSE_HEIGHT 6

/* Room left between the window and the screen's corner where we place it
 * ourselves (X11 without a window manager). */
#define CORNER_MARGIN 16

#define RP_TYPE_CANARY_PULSE (rp_canary_pulse_get_type ())
G_DECLARE_FINAL_TYPE (RpCanaryPulse, rp_canary_pulse, RP, CANARY_PULSE, GtkWidget)

struct _RpCanaryPulse
{
  GtkWidget  parent_instance;
  RpCanary  *canary;
};

G_DEFINE_FINAL_TYPE (RpCanaryPulse, rp_canary_pulse, GTK_TYPE_WIDGET)

/* Two rectangles of the theme's accent colour: the cheapest frame a real
 * application would draw (two colour nodes, no text, no cairo), so that the
 * probe window's own cost stays small at 60 frames a second. */
static void
rp_canary_pulse_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  GdkFrameClock *clock = gtk_widget_get_frame_clock (widget);
  int width = gtk_widget_get_width (widget);
  int height = gtk_widget_get_height (widget);
  gint64 now = clock ? gdk_frame_clock_get_frame_time (clock) : 0;
  double phase = (double) (now % PULSE_PERIOD_US) / PULSE_PERIOD_US;
  double bar = width / 4.0;
  GdkRGBA track = { 0.5, 0.5, 0.5, 0.25 };
  GdkRGBA accent;

  /* GTK 4.8 has no gtk_widget_get_color() (4.10). */
  gtk_style_context_get_color (gtk_widget_get_style_context (widget), &accent);
  gtk_snapshot_append_color (snapshot, &track, &GRAPHENE_RECT_INIT (0, 0, width, height));
  gtk_snapshot_append_color (snapshot, &accent,
                             &GRAPHENE_RECT_INIT ((width - bar) * (phase < 0.5 ? 2 * phase : 2 - 2 * phase),
                                                  0, bar, height));
}

static void
rp_canary_pulse_measure (GtkWidget      *widget,
                         GtkOrientation  orientation,
                         int             for_size,
                         int            *minimum,
                         int            *natural,
                         int            *minimum_baseline,
                         int            *natural_baseline)
{
  *minimum = *natural = orientation == GTK_ORIENTATION_VERTICAL ? PULSE_HEIGHT : 48;
}

static void
rp_canary_pulse_class_init (RpCanaryPulseClass *klass)
{
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  widget_class->snapshot = rp_canary_pulse_snapshot;
  widget_class->measure = rp_canary_pulse_measure;
  gtk_widget_class_set_css_name (widget_class, "pulse");
}

static void
rp_canary_pulse_init (RpCanaryPulse *self)
{
}

/* ------------------------------------------------------------------------- */
/* Frame intervals */

static void
on_surface_enter_monitor (GdkSurface *surface,
                          GdkMonitor *monitor,
                          RpCanary   *self)
{
  self->monitor_refresh_us = 0;
}

/* The refresh interval from the frame clock (presentation feedback gives
 * it), else from the window's monitor, else 60 Hz. The monitor's rate is
 * asked once per surface and monitor: gdk_display_get_monitor_at_surface()
 * compares the window with every monitor, which costs at 60 Hz. */
static gint64
refresh_interval (RpCanary      *self,
                  GdkFrameClock *clock)
{
  gint64 refresh = 0, presentation = 0;
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self->window));

  gdk_frame_clock_get_refresh_info (clock, gdk_frame_clock_get_frame_time (clock),
                                    &refresh, &presentation);
  if (refresh > 0)
    return refresh;
  if (self->monitor_refresh_us > 0)
    return self->monitor_refresh_us;

  self->monitor_refresh_us = 16667;
  if (surface != NULL)
    {
      GdkMonitor *monitor = gdk_display_get_monitor_at_surface (gdk_surface_get_display (surface), surface);
      int rate = monitor ? gdk_monitor_get_refresh_rate (monitor) : 0;

      if (rate > 0)
        self->monitor_refresh_us = (gint64) (1e9 / rate);
    }
  return self->monitor_refresh_us;
}

/* Presentation times arrive a frame or two after the frame, in the timings
 * of completed frames: walk those not seen yet. Because the pulse draws
 * every frame, consecutive frame counters are consecutive presentations;
 * a frame the compositor did not show (presentation time 0: discarded,
 * the window hidden) breaks the pair and is counted apart. */
static void
collect_presentations (RpCanary      *self,
                       GdkFrameClock *clock)
{
  gint64 current = gdk_frame_clock_get_frame_counter (clock);
  gint64 frame = MAX (self->next_frame, gdk_frame_clock_get_history_start (clock));

  for (; frame < current; frame++)
    {
      GdkFrameTimings *timings = gdk_frame_clock_get_timings (clock, frame);
      gint64 presentation;

      if (timings == NULL)
        continue;
      if (!gdk_frame_timings_get_complete (timings))
        break;
      self->next_frame = frame + 1;
      presentation = gdk_frame_timings_get_presentation_time (timings);
      if (presentation == 0)
        continue;

      if (!self->presentation_seen)
        {
          self->presentation_seen = TRUE;
          self->last_presentation = 0;
        }
      if (self->measuring && self->last_presentation > 0 &&
          frame == self->last_presented_frame + 1 && presentation > self->last_presentation)
        rp_canary_emit (self, "F " RP_SECONDS_FORMAT " " RP_SECONDS_FORMAT " " RP_SECONDS_FORMAT " p",
                        RP_SECONDS (self->last_presentation * 1e-6), RP_SECONDS (presentation * 1e-6),
                        RP_SECONDS (self->refresh_us * 1e-6));
      else if (self->measuring && self->last_presentation > 0)
        self->frames_apart++;
      self->last_presentation = presentation;
      self->last_presented_frame = frame;
    }
}

static void
check_surface (RpCanary *self)
{
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self->window));

  if (surface == self->checked_surface)
    return;
  g_set_weak_pointer (&self->checked_surface, surface);
  self->monitor_refresh_us = 0;
  if (surface == NULL)
    return;
  g_signal_connect (surface, "enter-monitor", G_CALLBACK (on_surface_enter_monitor), self);
  rp_frame_sync_quiet (surface);
}

/* Every tick: ask for the next frame (the animation), then read what the
 * frames so far took. Without presentation times (X11 without a compositing
 * window manager), the time between two of our ticks is the interval the
 * window achieved: a stalled main loop or a starved process stretches it. */
static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  RpCanary *self = user_data;
  double now = rp_clock_now ();

  gtk_widget_queue_draw (widget);
  check_surface (self);
  self->refresh_us = refresh_interval (self, clock);
  collect_presentations (self, clock);

  if (self->measuring && !self->presentation_seen && self->last_tick > 0)
    rp_canary_emit (self, "F " RP_SECONDS_FORMAT " " RP_SECONDS_FORMAT " " RP_SECONDS_FORMAT " t",
                    RP_SECONDS (self->last_tick), RP_SECONDS (now), RP_SECONDS (self->refresh_us * 1e-6));
  self->last_tick = self->measuring ? now : 0;
  return G_SOURCE_CONTINUE;
}

/* A hidden or minimised window gets no frames: the gap is no late frame. */
static void
on_unmap (GtkWidget *widget,
          RpCanary  *self)
{
  self->last_tick = 0;
  self->last_presentation = 0;
}

/**
 * rp_canary_pulse_new:
 *
 * Returns: (transfer floating): the animated bar, whose tick callback
 *   measures the frame intervals once @self measures
 */
GtkWidget *
rp_canary_pulse_new (RpCanary *self)
{
  RpCanaryPulse *pulse = g_object_new (RP_TYPE_CANARY_PULSE, NULL);

  pulse->canary = self;
  gtk_widget_add_tick_callback (GTK_WIDGET (pulse), on_tick, self, NULL);
  g_signal_connect (pulse, "unmap", G_CALLBACK (on_unmap), self);
  return GTK_WIDGET (pulse);
}

/**
 * rp_canary_frames_notes:
 *
 * Writes the frame probe's notes: where its times came from, the frames
 * presented apart.
 */
void
rp_canary_frames_notes (RpCanary *self)
{
  rp_canary_emit (self, "N frame_timing_source %s", self->presentation_seen ? "presentation" : "tick-monotonic");
  if (self->presentation_seen)
    rp_canary_emit (self, "N frames_presented_apart %" G_GUINT64_FORMAT, self->frames_apart);
  rp_canary_emit (self, "N refresh_interval %.6f", self->refresh_us * 1e-6);
}

/**
 * rp_canary_place:
 *
 * Where nobody places windows (X11 without a window manager: Xvfb, a kiosk),
 * puts the probe window in the screen's bottom right corner rather than over
 * the main window's header bar at 0,0. A window manager or a Wayland
 * compositor places it as it places any window.
 */
void
rp_canary_place (RpCanary *self)
{
#ifdef GDK_WINDOWING_X11
  GdkSurface *surface = gtk_native_get_surface (GTK_NATIVE (self->window));
  GdkDisplay *display;
  GdkX11Screen *screen;
  Display *xdisplay;
  int width, height;

  if (surface == NULL || !GDK_IS_X11_SURFACE (surface))
    return;
  display = gdk_surface_get_display (surface);
  screen = gdk_x11_display_get_screen (display);
  if (g_strcmp0 (gdk_x11_screen_get_window_manager_name (screen), "unknown") != 0)
    return;
  xdisplay = gdk_x11_display_get_xdisplay (display);
  width = gdk_surface_get_width (surface);
  height = gdk_surface_get_height (surface);
  XMoveWindow (xdisplay, gdk_x11_surface_get_xid (surface),
               MAX (0, DisplayWidth (xdisplay, DefaultScreen (xdisplay)) - width - CORNER_MARGIN),
               MAX (0, DisplayHeight (xdisplay, DefaultScreen (xdisplay)) - height - CORNER_MARGIN));
#endif
}
