/* rp-ui-probes.c: the probes that need the GUI main thread: main loop, frames, input, wake-ups. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-parts.h"
#include "rp-timerfd-source.h"
#include "rp-ui-probes.h"

/* After gtk.h, which defines GDK_WINDOWING_X11 when GTK has that backend. */
#ifdef GDK_WINDOWING_X11
#include <gdk/x11/gdkx.h>
#endif

/* A frame is late when it took more than this many refresh intervals. */
#define LATE_FRAME_FACTOR 1.5
/* How often the wake-up thread pokes the main context. */
#define WAKEUP_PERIOD_US (50 * G_TIME_SPAN_MILLISECOND)
/* What the naive save writes: 256 KiB, a small document. */
#define SAVE_SIZE (256 * 1024)
/* Input events whose time differs from ours by more than this use another
 * clock (or a synthetic time): counted as unknown, not as latency. */
#define INPUT_CLOCK_TOLERANCE_MS 1000

/* Shared between the wake-up thread and the callbacks it queues on the main
 * context; reference counted because queued callbacks may outlive the probe. */
typedef struct {
  GMutex        lock;
  GCond         cond;
  gboolean      stop;       /* under lock */
  gboolean      closed;     /* main thread only: ignore late deliveries */
  GMainContext *context;
  RpSession    *session;
  RpSeries     *series;
} Wakeup;

typedef struct {
  Wakeup *wakeup;
  double  stamp;
} Wake;

struct _RpUiProbes
{
  GObject             parent_instance;

  RpSession          *session;
  GtkWidget          *widget;
  gboolean            running;
  gboolean            simulate_save;
  double              timer_period;

  RpSeries           *lateness;
  RpSeries           *frames;
  RpSeries           *late_frames;
  RpSeries           *input;

  GSource            *timer;

  guint               tick_id;
  double              last_tick;
  gint64              next_frame;
  gint64              last_presentation;
  gint64              last_presented_frame;
  gboolean            presentation_seen;
  guint64             n_frames_unpaired;
  gint64              refresh_us;
  gint64              monitor_refresh_us;  /* 0: ask the monitor again */
  guint64             n_frames;
  guint64             n_late_frames;
  GdkSurface         *checked_surface;

  GtkEventController *input_controller;
  guint64             n_input_events;
  guint64             n_input_unknown;
  guint64             n_input_time_zero;

  Wakeup             *wakeup;
  GThread            *wakeup_thread;

  guint               save_id;
  guint64             n_saves;
};

G_DEFINE_FINAL_TYPE (RpUiProbes, rp_ui_probes, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_SESSION,
  PROP_WIDGET,
  PROP_RUNNING,
  PROP_SIMULATE_SAVE,
  PROP_TIMER_PERIOD,
  N_PROPS
};

enum {
  SAVE_FAILED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static double
session_time (RpUiProbes *self,
              double      monotonic)
{
  return rp_session_time_from_monotonic (self->session, monotonic);
}

/* ------------------------------------------------------------------------- */
/* Main-loop lateness */

static gboolean
on_timer (double   expiry,
          double   dispatched,
          guint64  missed,
          gpointer user_data)
{
  RpUiProbes *self = user_data;

  rp_series_append (self->lateness, session_time (self, expiry), dispatched - expiry);
  return G_SOURCE_CONTINUE;
}

static gboolean
start_timer (RpUiProbes  *self,
             GError     **error)
{
  self->timer = rp_timerfd_source_new (self->timer_period, error);
  if (self->timer == NULL)
    return FALSE;
  /* Default priority: the lateness is what any ordinary timeout or idle of an
   * application would see, including the time GTK spends painting. */
  g_source_set_priority (self->timer, G_PRIORITY_DEFAULT);
  g_source_set_callback (self->timer, (GSourceFunc) (void (*) (void)) on_timer, self, NULL);
  g_source_attach (self->timer, g_main_context_get_thread_default ());
  return TRUE;
}

/* ------------------------------------------------------------------------- */
/* Frames */

static void
record_frame (RpUiProbes *self,
              double      monotonic,
              double      interval)
{
  double t = session_time (self, monotonic);

  self->n_frames++;
  rp_series_append (self->frames, t, interval);
  if (interval > LATE_FRAME_FACTOR * self->refresh_us * 1e-6)
    {
      self->n_late_frames++;
      rp_series_append (self->late_frames, t, interval);
    }
}

static void
on_surface_enter_monitor (GdkSurface *surface,
                          GdkMonitor *monitor,
                          RpUiProbes *self)
{
  self->monitor_refresh_us = 0;
}

/* The refresh interval from the frame clock, or else from the window's
 * monitor. The monitor's rate is asked once per surface and monitor:
 * gdk_display_get_monitor_at_surface() compares the window with every
 * monitor's geometry and, on X11, work area, and asked every frame it was
 * about 2 % of the main thread's time while monitoring (perf, issue 8 row 5). */
static gint64
refresh_interval (RpUiProbes    *self,
                  GdkFrameClock *clock)
{
  gint64 refresh = 0, presentation = 0;
  GdkSurface *surface;

  gdk_frame_clock_get_refresh_info (clock, gdk_frame_clock_get_frame_time (clock),
                                    &refresh, &presentation);
  if (refresh > 0)
    return refresh;
  if (self->monitor_refresh_us > 0)
    return self->monitor_refresh_us;

  self->monitor_refresh_us = 16667;
  surface = gtk_native_get_surface (gtk_widget_get_native (self->widget));
  if (surface != NULL)
    {
      GdkMonitor *monitor = gdk_display_get_monitor_at_surface (gdk_surface_get_display (surface), surface);
      int rate = monitor ? gdk_monitor_get_refresh_rate (monitor) : 0;

      if (rate > 0)
        self->monitor_refresh_us = (gint64) (1e9 / rate);
    }
  return self->monitor_refresh_us;
}

/* Presentation times arrive a frame or two after the frame itself, in the
 * timings of completed frames: walk those we have not seen yet.
 *
 * Only a frame that drew something is presented: on Wayland GDK asks for
 * presentation feedback (wp_presentation, in the compositor's clock, which
 * sway and weston give as CLOCK_MONOTONIC) with each commit, and commits only
 * when the window was damaged. Our tick callback keeps the frame clock
 * counting at the refresh rate, but the window itself repaints once a second
 * while it only shows a run (the charts and status update together), so the
 * time between two presentations is mostly the time nobody asked for a
 * frame: under headless sway that made a median "frame interval" of 992 ms
 * and ten "late frames" on an idle machine. An interval counts only between
 * presented frames of consecutive frame counters, that is while the window
 * draws frame after frame (hover, scrolling, an animation): then a frame the
 * main thread delivers late is one the user sees late. Pairs with frames in
 * between that drew nothing are counted as unpaired, not measured. */
static void
collect_presentations (RpUiProbes    *self,
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
      if (self->last_presentation > 0 && frame == self->last_presented_frame + 1 &&
          presentation > self->last_presentation)
        record_frame (self, presentation * 1e-6, (presentation - self->last_presentation) * 1e-6);
      else if (self->last_presentation > 0)
        self->n_frames_unpaired++;
      self->last_presentation = presentation;
      self->last_presented_frame = frame;
    }
}

/* Our tick callback keeps the frame clock running, and at the end of every
 * frame GDK's X11 backend asks twice whether the window manager supports
 * _NET_WM_FRAME_DRAWN. It remembers the answer only once it has found a
 * window manager (fetch_net_wm_check_window() in gdkscreen-x11.c): without
 * one (Xvfb, a kiosk session) each question is a synchronous
 * XGetWindowProperty, 120 round trips to the X server a second, about a
 * sixth of the process's CPU time while monitoring. Without a window manager GDK
 * does not sync frames anyway (_gdk_x11_surface_syncs_frames() is false
 * either way): turning frame sync off for the surface changes no frame,
 * only the asking. With a window manager, GDK asks nothing of the server and
 * we leave the surface alone. GTK 4.8 cannot turn frame sync back on
 * (gdk_x11_surface_set_frame_sync_enabled() ignores its argument and always
 * turns it off), so a compositor started later does not sync this window's
 * frames: they stay what they were before it came. */
static void
check_frame_sync (GdkSurface *surface)
{
#ifdef GDK_WINDOWING_X11
  GdkX11Screen *screen;

  if (!GDK_IS_X11_SURFACE (surface))
    return;
  screen = gdk_x11_display_get_screen (gdk_surface_get_display (surface));
  if (!gdk_x11_screen_supports_net_wm_hint (screen, "_NET_WM_FRAME_DRAWN") &&
      g_strcmp0 (gdk_x11_screen_get_window_manager_name (screen), "unknown") == 0)
    gdk_x11_surface_set_frame_sync_enabled (surface, FALSE);
#endif
}

/* Once for each surface the window gets (a window unrealized and realized
 * again has a new one). */
static void
check_surface (RpUiProbes *self)
{
  GdkSurface *surface = gtk_native_get_surface (gtk_widget_get_native (self->widget));

  if (surface == self->checked_surface)
    return;
  g_set_weak_pointer (&self->checked_surface, surface);
  self->monitor_refresh_us = 0;
  if (surface == NULL)
    return;
  g_signal_connect_object (surface, "enter-monitor", G_CALLBACK (on_surface_enter_monitor), self, 0);
  check_frame_sync (surface);
}

static gboolean
on_tick (GtkWidget     *widget,
         GdkFrameClock *clock,
         gpointer       user_data)
{
  RpUiProbes *self = user_data;
  double now = rp_clock_now ();

  check_surface (self);
  self->refresh_us = refresh_interval (self, clock);
  collect_presentations (self, clock);

  /* Without presentation times (X11 without a compositor, Xvfb, some
   * drivers), the time between two of our ticks is the frame interval the
   * application achieved, which is what a stalled main thread stretches. */
  if (!self->presentation_seen && self->last_tick > 0)
    record_frame (self, now, now - self->last_tick);
  self->last_tick = now;
  return G_SOURCE_CONTINUE;
}

/* A hidden or minimised window gets no frames; the gap is not a late frame. */
static void
on_widget_unmap (GtkWidget  *widget,
                 RpUiProbes *self)
{
  self->last_tick = 0;
  self->last_presentation = 0;
}

/* ------------------------------------------------------------------------- */
/* Input */

static gboolean
is_input_event (GdkEvent *event)
{
  switch ((int) gdk_event_get_event_type (event))
    {
    case GDK_MOTION_NOTIFY:
    case GDK_BUTTON_PRESS:
    case GDK_BUTTON_RELEASE:
    case GDK_KEY_PRESS:
    case GDK_KEY_RELEASE:
    case GDK_SCROLL:
    case GDK_TOUCH_BEGIN:
    case GDK_TOUCH_UPDATE:
    case GDK_TOUCH_END:
      return TRUE;
    default:
      return FALSE;
    }
}

/* X11 server time and Wayland event times are CLOCK_MONOTONIC in
 * milliseconds, truncated to 32 bits. Compare in that modulus, then place the
 * event on our microsecond clock: the result is exact to the event's 1 ms
 * truncation (an over-estimate of at most 1 ms; an X server that uses
 * CLOCK_MONOTONIC_COARSE adds up to one kernel tick). */
static gboolean
on_input_event (GtkEventControllerLegacy *controller,
                GdkEvent                 *event,
                gpointer                  user_data)
{
  RpUiProbes *self = user_data;
  gint64 now_us;
  guint32 event_ms;
  gint32 delta_ms;
  gint64 event_us;

  if (!is_input_event (event))
    return GDK_EVENT_PROPAGATE;

  now_us = g_get_monotonic_time ();
  event_ms = gdk_event_get_time (event);
  delta_ms = (gint32) ((guint32) (now_us / 1000) - event_ms);
  self->n_input_events++;

  /* Time 0 is what a synthetic event carries: wtype's virtual keyboard, an
   * X11 SendEvent. Counted apart, so that the report can say that the event
   * times were unusable rather than show no latency. */
  if (event_ms == GDK_CURRENT_TIME)
    {
      self->n_input_time_zero++;
      self->n_input_unknown++;
      return GDK_EVENT_PROPAGATE;
    }
  if (ABS (delta_ms) >= INPUT_CLOCK_TOLERANCE_MS)
    {
      self->n_input_unknown++;
      return GDK_EVENT_PROPAGATE;
    }

  event_us = (now_us / 1000 - delta_ms) * 1000;
  rp_series_append (self->input, session_time (self, now_us * 1e-6),
                    MAX (now_us - event_us, 0) * 1e-6);
  return GDK_EVENT_PROPAGATE;
}

static void
start_input (RpUiProbes *self)
{
  GtkWidget *root = GTK_WIDGET (gtk_widget_get_root (self->widget));

  /* Capture phase on the toplevel: every event of the window passes here
   * before any widget handles it. */
  self->input_controller = gtk_event_controller_legacy_new ();
  gtk_event_controller_set_propagation_phase (self->input_controller, GTK_PHASE_CAPTURE);
  gtk_event_controller_set_name (self->input_controller, "resprobe-input-latency");
  g_signal_connect (self->input_controller, "event", G_CALLBACK (on_input_event), self);
  gtk_widget_add_controller (root, g_object_ref (self->input_controller));
}

static void
stop_input (RpUiProbes *self)
{
  GtkWidget *widget;

  if (self->input_controller == NULL)
    return;
  g_signal_handlers_disconnect_by_data (self->input_controller, self);
  widget = gtk_event_controller_get_widget (self->input_controller);
  if (widget != NULL)
    gtk_widget_remove_controller (widget, self->input_controller);
  g_clear_object (&self->input_controller);
}

/* ------------------------------------------------------------------------- */
/* Cross-thread wake-ups */

static void
wakeup_clear (gpointer data)
{
  Wakeup *wakeup = data;

  g_mutex_clear (&wakeup->lock);
  g_cond_clear (&wakeup->cond);
  g_main_context_unref (wakeup->context);
  g_object_unref (wakeup->session);
}

static void
wakeup_release (Wakeup *wakeup)
{
  g_atomic_rc_box_release_full (wakeup, wakeup_clear);
}

static void
wake_free (gpointer data)
{
  Wake *wake = data;

  wakeup_release (wake->wakeup);
  g_free (wake);
}

static gboolean
on_wake (gpointer data)
{
  Wake *wake = data;
  double now = rp_clock_now ();

  if (!wake->wakeup->closed)
    rp_series_append (wake->wakeup->series,
                      rp_session_time_from_monotonic (wake->wakeup->session, wake->stamp),
                      now - wake->stamp);
  return G_SOURCE_REMOVE;
}

static gpointer
wakeup_thread (gpointer data)
{
  Wakeup *wakeup = data;

  g_mutex_lock (&wakeup->lock);
  while (!wakeup->stop)
    {
      Wake *wake = g_new (Wake, 1);
      gint64 deadline;

      wake->wakeup = g_atomic_rc_box_acquire (wakeup);
      wake->stamp = rp_clock_now ();
      g_mutex_unlock (&wakeup->lock);

      /* From another thread this queues an idle at default priority and
       * wakes the context: the delay until it runs is what a worker thread
       * (a download, a file loader) waits to show its result. */
      g_main_context_invoke_full (wakeup->context, G_PRIORITY_DEFAULT, on_wake, wake, wake_free);

      g_mutex_lock (&wakeup->lock);
      deadline = g_get_monotonic_time () + WAKEUP_PERIOD_US;
      while (!wakeup->stop && g_cond_wait_until (&wakeup->cond, &wakeup->lock, deadline))
        ;
    }
  g_mutex_unlock (&wakeup->lock);
  wakeup_release (wakeup);
  return NULL;
}

static void
start_wakeup (RpUiProbes *self,
              RpSeries   *series)
{
  Wakeup *wakeup = g_atomic_rc_box_new0 (Wakeup);

  g_mutex_init (&wakeup->lock);
  g_cond_init (&wakeup->cond);
  wakeup->context = g_main_context_ref_thread_default ();
  wakeup->session = g_object_ref (self->session);
  wakeup->series = series;
  self->wakeup = wakeup;
  self->wakeup_thread = g_thread_new ("rp-wakeup-probe", wakeup_thread,
                                      g_atomic_rc_box_acquire (wakeup));
}

static void
stop_wakeup (RpUiProbes *self)
{
  if (self->wakeup == NULL)
    return;

  g_mutex_lock (&self->wakeup->lock);
  self->wakeup->stop = TRUE;
  g_cond_signal (&self->wakeup->cond);
  g_mutex_unlock (&self->wakeup->lock);

  /* The thread only sleeps on the condition: the join returns at once. */
  g_thread_join (g_steal_pointer (&self->wakeup_thread));
  self->wakeup->closed = TRUE;
  g_clear_pointer (&self->wakeup, wakeup_release);
}

/* ------------------------------------------------------------------------- */
/* The naive save */

static int
open_anonymous (const char  *directory,
                GError     **error)
{
  g_autofree char *path = NULL;
  int fd, saved_errno;

  fd = open (directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0)
    return fd;

  /* File systems without O_TMPFILE: a unique name, unlinked at once. */
  path = g_build_filename (directory, ".resprobe-save-XXXXXX", NULL);
  fd = g_mkstemp_full (path, O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0)
    {
      g_unlink (path);
      return fd;
    }
  saved_errno = errno;
  rp_error_set_from_errno (error, saved_errno, _("Simulated save: creating a file in"), directory);
  return -1;
}

/* Deliberately blocking, on the main thread: this is the mistake the toggle
 * demonstrates. The file has no name, so nothing is left behind. */
static gboolean
naive_save (const char  *directory,
            GError     **error)
{
  g_autofree char *data = g_malloc (SAVE_SIZE);
  gsize done = 0;
  int fd, saved_errno = 0;

  memset (data, 'a', SAVE_SIZE);
  fd = open_anonymous (directory, error);
  if (fd < 0)
    return FALSE;

  while (done < SAVE_SIZE)
    {
      gssize n = write (fd, data + done, SAVE_SIZE - done);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        {
          saved_errno = n < 0 ? errno : ENOSPC;
          break;
        }
      done += n;
    }
  if (saved_errno == 0 && fsync (fd) < 0)
    saved_errno = errno;
  close (fd);

  if (saved_errno != 0)
    {
      rp_error_set_from_errno (error, saved_errno, _("Simulated save: writing in"), directory);
      return FALSE;
    }
  return TRUE;
}

static gboolean
on_save_timer (gpointer user_data)
{
  RpUiProbes *self = user_data;
  const char *directory = rp_scenario_get_directory (rp_session_get_scenario (self->session));
  g_autoptr(GError) error = NULL;
  RpSeries *series;
  double start = rp_clock_now ();

  if (!naive_save (directory, &error))
    {
      self->save_id = 0;
      rp_ui_probes_set_simulate_save (self, FALSE);
      g_signal_emit (self, signals[SAVE_FAILED], 0, error);
      return G_SOURCE_REMOVE;
    }

  series = rp_session_ensure_series (self->session, RP_SERIES_MAIN_THREAD_SAVE, "s",
                                     _("Save on the main thread"));
  rp_series_append (series, session_time (self, start), rp_clock_now () - start);
  self->n_saves++;
  return G_SOURCE_CONTINUE;
}

static void
update_save_timer (RpUiProbes *self)
{
  gboolean wanted = self->running && self->simulate_save;

  if (wanted && self->save_id == 0)
    {
      self->save_id = g_timeout_add_seconds (1, on_save_timer, self);
      g_source_set_name_by_id (self->save_id, "[resprobe] simulated save");
    }
  else if (!wanted)
    {
      g_clear_handle_id (&self->save_id, g_source_remove);
    }
}

/* ------------------------------------------------------------------------- */

static void
rp_ui_probes_dispose (GObject *object)
{
  RpUiProbes *self = RP_UI_PROBES (object);

  rp_ui_probes_stop (self);
  if (self->widget != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->widget, self);
      g_object_remove_weak_pointer (G_OBJECT (self->widget), (gpointer *) &self->widget);
      self->widget = NULL;
    }
  g_clear_object (&self->session);

  G_OBJECT_CLASS (rp_ui_probes_parent_class)->dispose (object);
}

static void
rp_ui_probes_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  RpUiProbes *self = RP_UI_PROBES (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      g_value_set_object (value, self->session);
      break;
    case PROP_WIDGET:
      g_value_set_object (value, self->widget);
      break;
    case PROP_RUNNING:
      g_value_set_boolean (value, self->running);
      break;
    case PROP_SIMULATE_SAVE:
      g_value_set_boolean (value, self->simulate_save);
      break;
    case PROP_TIMER_PERIOD:
      g_value_set_double (value, self->timer_period);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_ui_probes_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  RpUiProbes *self = RP_UI_PROBES (object);

  switch (prop_id)
    {
    case PROP_SESSION:
      self->session = g_value_dup_object (value);
      break;
    case PROP_WIDGET:
      self->widget = g_value_get_object (value);
      g_object_add_weak_pointer (G_OBJECT (self->widget), (gpointer *) &self->widget);
      break;
    case PROP_SIMULATE_SAVE:
      rp_ui_probes_set_simulate_save (self, g_value_get_boolean (value));
      break;
    case PROP_TIMER_PERIOD:
      rp_ui_probes_set_timer_period (self, g_value_get_double (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_ui_probes_class_init (RpUiProbesClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = rp_ui_probes_dispose;
  object_class->get_property = rp_ui_probes_get_property;
  object_class->set_property = rp_ui_probes_set_property;

  properties[PROP_SESSION] =
    g_param_spec_object ("session", NULL, NULL, RP_TYPE_SESSION,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_WIDGET] =
    g_param_spec_object ("widget", NULL, NULL, GTK_TYPE_WIDGET,
                         G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS);
  properties[PROP_RUNNING] =
    g_param_spec_boolean ("running", NULL, NULL, FALSE,
                          G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_SIMULATE_SAVE] =
    g_param_spec_boolean ("simulate-save", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_TIMER_PERIOD] =
    g_param_spec_double ("timer-period", NULL, NULL, 0.001, 1.0, 0.01,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * RpUiProbes::save-failed:
   * @error: why
   *
   * The simulated save could not write (read-only folder, full disk); the
   * toggle has been switched off.
   */
  signals[SAVE_FAILED] = g_signal_new ("save-failed", G_TYPE_FROM_CLASS (klass),
                                       G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 1, G_TYPE_ERROR);
}

static void
rp_ui_probes_init (RpUiProbes *self)
{
  self->timer_period = 0.01;
  self->refresh_us = 16667;
}

/**
 * rp_ui_probes_new:
 * @session: the session whose series receive the samples
 * @widget: a widget of the window to measure (its frame clock, its events)
 *
 * Returns: (transfer full): stopped probes
 */
RpUiProbes *
rp_ui_probes_new (RpSession *session,
                  GtkWidget *widget)
{
  g_return_val_if_fail (RP_IS_SESSION (session), NULL);
  g_return_val_if_fail (GTK_IS_WIDGET (widget), NULL);

  return g_object_new (RP_TYPE_UI_PROBES, "session", session, "widget", widget, NULL);
}

static void
set_notes_at_start (RpUiProbes *self)
{
  g_autofree char *timer = NULL;

  timer = g_strdup_printf ("timerfd CLOCK_MONOTONIC, period %.0f ms, G_PRIORITY_DEFAULT",
                           self->timer_period * 1e3);
  rp_session_set_note (self->session, "mainloop_timer", timer);
  rp_session_set_note (self->session, "input_clock",
                       "event time (ms, 32 bit) compared with CLOCK_MONOTONIC; |delta| >= 1 s counted as unknown");
  rp_session_set_note (self->session, "wakeup_period", "0.05 s");
}

/* What the input latency series can be trusted for, in the report's note
 * "input_clock_status": "known" when every event's time was on our clock,
 * "unusable: time 0" when all events carried time 0 (nothing measured),
 * "unusable: other clock" when none was within a second of ours, "mixed"
 * otherwise, "no events" without input. */
static const char *
input_clock_verdict (RpUiProbes *self)
{
  if (self->n_input_events == 0)
    return "no events";
  if (self->n_input_unknown == 0)
    return "known";
  if (self->n_input_time_zero == self->n_input_events)
    return RP_INPUT_CLOCK_UNUSABLE_ZERO;
  if (self->n_input_unknown == self->n_input_events)
    return RP_INPUT_CLOCK_UNUSABLE_OTHER;
  return "mixed";
}

static void
set_notes_at_stop (RpUiProbes *self)
{
  g_autofree char *frames = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_frames);
  g_autofree char *late = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_late_frames);
  g_autofree char *apart = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_frames_unpaired);
  char refresh[G_ASCII_DTOSTR_BUF_SIZE];
  g_autofree char *events = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_input_events);
  g_autofree char *unknown = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_input_unknown);
  g_autofree char *zero = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_input_time_zero);
  g_autofree char *saves = g_strdup_printf ("%" G_GUINT64_FORMAT, self->n_saves);

  /* A number in a report is read back with g_ascii_strtod(), whatever the
   * locale it was written in. */
  g_ascii_formatd (refresh, sizeof refresh, "%.6f", self->refresh_us * 1e-6);

  rp_session_set_note (self->session, "frame_timing_source",
                       self->presentation_seen ? "presentation" : "tick-monotonic");
  rp_session_set_note (self->session, "frames", frames);
  if (self->presentation_seen)
    rp_session_set_note (self->session, "frames_presented_apart", apart);
  rp_session_set_note (self->session, "late_frames", late);
  rp_session_set_note (self->session, "refresh_interval", refresh);
  rp_session_set_note (self->session, "input_events", events);
  rp_session_set_note (self->session, "input_events_unknown_clock", unknown);
  rp_session_set_note (self->session, "input_events_time_zero", zero);
  rp_session_set_note (self->session, RP_NOTE_INPUT_CLOCK_STATUS, input_clock_verdict (self));
  rp_session_set_note (self->session, "simulate_save", self->n_saves > 0 ? "on" : "off");
  rp_session_set_note (self->session, "main_thread_saves", saves);
}

/**
 * rp_ui_probes_start:
 * @error: %RP_ERROR_FAILED when the timer cannot be created
 *
 * Creates the GUI series in the session and starts measuring. Call on the
 * main thread once the session runs (its time base is set then).
 *
 * Returns: %TRUE when the probes run
 */
gboolean
rp_ui_probes_start (RpUiProbes  *self,
                    GError     **error)
{
  RpSeries *wakeup;

  g_return_val_if_fail (RP_IS_UI_PROBES (self), FALSE);
  g_return_val_if_fail (self->widget != NULL, FALSE);

  if (self->running)
    return TRUE;

  self->lateness = rp_session_ensure_series (self->session, RP_SERIES_MAINLOOP_LATENESS, "s",
                                             _("Main-loop lateness"));
  self->frames = rp_session_ensure_series (self->session, RP_SERIES_FRAME_INTERVAL, "s",
                                           _("Frame interval"));
  self->late_frames = rp_session_ensure_series (self->session, RP_SERIES_LATE_FRAMES, "s",
                                                _("Late frames"));
  self->input = rp_session_ensure_series (self->session, RP_SERIES_INPUT_LATENCY, "s",
                                          _("Input latency"));
  wakeup = rp_session_ensure_series (self->session, RP_SERIES_WAKEUP_LATENCY, "s",
                                     _("Wake-up latency"));

  if (!start_timer (self, error))
    return FALSE;

  self->last_tick = 0;
  self->last_presentation = 0;
  self->tick_id = gtk_widget_add_tick_callback (self->widget, on_tick, self, NULL);
  g_signal_connect (self->widget, "unmap", G_CALLBACK (on_widget_unmap), self);
  start_input (self);
  start_wakeup (self, wakeup);
  set_notes_at_start (self);

  self->running = TRUE;
  update_save_timer (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
  return TRUE;
}

/**
 * rp_ui_probes_stop:
 *
 * Stops measuring and writes the probes' counters into the session's notes.
 * Returns at once (the wake-up thread only sleeps). Safe to call twice.
 */
void
rp_ui_probes_stop (RpUiProbes *self)
{
  g_return_if_fail (RP_IS_UI_PROBES (self));

  if (!self->running)
    return;

  self->running = FALSE;
  update_save_timer (self);
  if (self->timer != NULL)
    {
      g_source_destroy (self->timer);
      g_clear_pointer (&self->timer, g_source_unref);
    }
  if (self->widget != NULL)
    {
      if (self->tick_id != 0)
        gtk_widget_remove_tick_callback (self->widget, self->tick_id);
      g_signal_handlers_disconnect_by_func (self->widget, on_widget_unmap, self);
    }
  self->tick_id = 0;
  g_clear_weak_pointer (&self->checked_surface);
  stop_input (self);
  stop_wakeup (self);
  set_notes_at_stop (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_RUNNING]);
}

/**
 * rp_ui_probes_get_running:
 *
 * Returns: whether the probes measure (between start and stop)
 */
gboolean
rp_ui_probes_get_running (RpUiProbes *self)
{
  g_return_val_if_fail (RP_IS_UI_PROBES (self), FALSE);
  return self->running;
}

/**
 * rp_ui_probes_get_simulate_save:
 *
 * Returns: whether the simulated save is on
 */
gboolean
rp_ui_probes_get_simulate_save (RpUiProbes *self)
{
  g_return_val_if_fail (RP_IS_UI_PROBES (self), FALSE);
  return self->simulate_save;
}

/**
 * rp_ui_probes_set_simulate_save:
 * @simulate_save: whether the main thread writes and fsyncs a 256 KiB file in
 *   the target folder every second while the probes run
 *
 * Shows the freeze a naive application causes itself under disk load.
 */
void
rp_ui_probes_set_simulate_save (RpUiProbes *self,
                                gboolean    simulate_save)
{
  g_return_if_fail (RP_IS_UI_PROBES (self));

  simulate_save = !!simulate_save;
  if (self->simulate_save == simulate_save)
    return;
  self->simulate_save = simulate_save;
  update_save_timer (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_SIMULATE_SAVE]);
}

/**
 * rp_ui_probes_get_timer_period:
 *
 * Returns: seconds between main-loop lateness samples
 */
double
rp_ui_probes_get_timer_period (RpUiProbes *self)
{
  g_return_val_if_fail (RP_IS_UI_PROBES (self), 0);
  return self->timer_period;
}

/**
 * rp_ui_probes_set_timer_period:
 * @period: seconds between main-loop lateness samples (default 0.01); takes
 *   effect at the next start
 */
void
rp_ui_probes_set_timer_period (RpUiProbes *self,
                               double      period)
{
  g_return_if_fail (RP_IS_UI_PROBES (self));
  g_return_if_fail (period > 0);

  if (self->timer_period == period)
    return;
  self->timer_period = period;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TIMER_PERIOD]);
}
