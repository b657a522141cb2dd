/* rp-canary-probes.c: the probe window's main-loop timer, input, wake-ups, and the main-thread save and read. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-canary-protocol.h"
#include "rp-canary.h"
#include "rp-clock.h"
#include "rp-error.h"
#include "rp-timerfd-source.h"

/* How often the wake-up thread pokes the main context. */
#define WAKEUP_PERIOD_US (50 * G_TIME_SPAN_MILLISECOND)
/* What the naive save writes: 256 KiB, a small document. */
#define SAVE_SIZE (256 * 1024)
/* What the read on SIGUSR1 reads at a time. */
#define READ_CHUNK (1024 * 1024)
/* Input events whose time differs from ours by more than this use another
 * clock (or a synthetic time): counted apart, not as latency. */
#define INPUT_CLOCK_TOLERANCE_MS 1000

/**
 * rp_canary_emit:
 * @format: one line of rp-canary-protocol.h, without its newline
 *
 * Writes the line to the samples' pipe without ever waiting: a reader that
 * lags (its process stopped, a full pipe) must not stall this main loop,
 * which would then measure its reader. A line that does not fit is dropped
 * and counted (note canary_lines_dropped); a reader that is gone ends the
 * window.
 */
void
rp_canary_emit (RpCanary   *self,
                const char *format,
                ...)
{
  char line[512];
  va_list args;
  int length;
  gssize written;

  va_start (args, format);
  length = g_vsnprintf (line, sizeof line - 1, format, args);
  va_end (args);
  length = MIN (length, (int) sizeof line - 2);
  line[length++] = '\n';

  /* A line shorter than PIPE_BUF is written whole or not at all. */
  do
    written = write (self->out_fd, line, length);
  while (written < 0 && errno == EINTR);
  if (written < 0 && errno == EAGAIN)
    self->lines_dropped++;
  else if (written < 0)
    self->quit = TRUE;
}

/* ------------------------------------------------------------------------- */
/* Main-loop lateness: a timerfd on an absolute 10 ms grid */

static gboolean
on_timer (double   expiry,
          double   dispatched,
          guint64  missed,
          gpointer user_data)
{
  RpCanary *self = user_data;

  rp_canary_emit (self, "L " RP_SECONDS_FORMAT " " RP_SECONDS_FORMAT " %" G_GUINT64_FORMAT,
                  RP_SECONDS (expiry), RP_SECONDS (dispatched), missed);
  return G_SOURCE_CONTINUE;
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
 * milliseconds, truncated to 32 bits (wlroots and mutter stamp input with
 * the kernel's CLOCK_MONOTONIC event times). Compared in that modulus, then
 * placed on our clock: exact to the event's 1 ms truncation. */
static gboolean
on_input_event (GtkEventControllerLegacy *controller,
                GdkEvent                 *event,
                gpointer                  user_data)
{
  RpCanary *self = user_data;
  gint64 now_us;
  guint32 event_ms;
  gint32 delta_ms;

  if (!self->measuring || !is_input_event (event))
    return GDK_EVENT_PROPAGATE;

  now_us = g_get_monotonic_time ();
  event_ms = gdk_event_get_time (event);
  delta_ms = (gint32) ((guint32) (now_us / 1000) - event_ms);
  /* Time 0 is what synthetic input carries (wtype's virtual keyboard, an
   * X11 SendEvent): counted, never measured. */
  if (event_ms == GDK_CURRENT_TIME)
    rp_canary_emit (self, "Z");
  else if (ABS (delta_ms) >= INPUT_CLOCK_TOLERANCE_MS)
    rp_canary_emit (self, "U");
  else
    rp_canary_emit (self, "I %.6f %.6f", (now_us / 1000 - delta_ms) * 1e-3, now_us * 1e-6);
  return GDK_EVENT_PROPAGATE;
}

/**
 * rp_canary_watch_input:
 *
 * A capture-phase controller on the window: every event passes it before
 * any widget handles it.
 */
void
rp_canary_watch_input (RpCanary *self)
{
  GtkEventController *controller = gtk_event_controller_legacy_new ();

  gtk_event_controller_set_propagation_phase (controller, GTK_PHASE_CAPTURE);
  g_signal_connect (controller, "event", G_CALLBACK (on_input_event), self);
  gtk_widget_add_controller (self->window, controller);
}

/* ------------------------------------------------------------------------- */
/* Wake-ups: a thread posts to the main context every 50 ms */

struct _RpCanaryWakeup {
  GMutex        lock;
  GCond         cond;
  gboolean      stop;       /* under lock */
  gboolean      pending;    /* under lock: a wake-up posted, not yet run */
  GMainContext *context;
  RpCanary     *canary;     /* main thread only: NULL once stopped */
  GThread      *thread;
};

typedef struct {
  RpCanaryWakeup *wakeup;
  double          stamp;
} Wake;

static void
wakeup_clear (gpointer data)
{
  RpCanaryWakeup *wakeup = data;

  g_mutex_clear (&wakeup->lock);
  g_cond_clear (&wakeup->cond);
  g_main_context_unref (wakeup->context);
}

static void
wake_free (gpointer data)
{
  Wake *wake = data;

  g_atomic_rc_box_release_full (wake->wakeup, wakeup_clear);
  g_free (wake);
}

static gboolean
on_wake (gpointer data)
{
  Wake *wake = data;
  RpCanaryWakeup *wakeup = wake->wakeup;

  if (wakeup->canary != NULL)
    rp_canary_emit (wakeup->canary, "W " RP_SECONDS_FORMAT " " RP_SECONDS_FORMAT,
                    RP_SECONDS (wake->stamp), RP_SECONDS (rp_clock_now ()));
  g_mutex_lock (&wakeup->lock);
  wakeup->pending = FALSE;
  g_cond_signal (&wakeup->cond);
  g_mutex_unlock (&wakeup->lock);
  return G_SOURCE_REMOVE;
}

/* From another thread, g_main_context_invoke_full() queues an idle and wakes
 * the context: the delay until it runs is what a worker thread of an
 * application (a loader, a download) waits to show its result. One at a
 * time, as an application coalesces its results into one pending idle: a
 * main loop held for 300 ms is one late wake-up, not six. */
static gpointer
wakeup_thread (gpointer data)
{
  RpCanaryWakeup *wakeup = data;

  g_mutex_lock (&wakeup->lock);
  while (!wakeup->stop)
    {
      Wake *wake = g_new (Wake, 1);
      gint64 deadline;

      wake->wakeup = g_atomic_rc_box_acquire (wakeup);
      wake->stamp = rp_clock_now ();
      wakeup->pending = TRUE;
      g_mutex_unlock (&wakeup->lock);
      g_main_context_invoke_full (wakeup->context, G_PRIORITY_DEFAULT, on_wake, wake, wake_free);
      g_mutex_lock (&wakeup->lock);
      while (!wakeup->stop && wakeup->pending)
        g_cond_wait (&wakeup->cond, &wakeup->lock);
      deadline = g_get_monotonic_time () + WAKEUP_PERIOD_US;
      while (!wakeup->stop && g_cond_wait_until (&wakeup->cond, &wakeup->lock, deadline))
        ;
    }
  g_mutex_unlock (&wakeup->lock);
  g_atomic_rc_box_release_full (wakeup, wakeup_clear);
  return NULL;
}

/* ------------------------------------------------------------------------- */
/* The naive save and the read, both on the main thread on purpose */

static int
open_anonymous (const char *directory)
{
  g_autofree char *path = NULL;
  int fd = open (directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);

  if (fd >= 0)
    return fd;
  /* File systems without O_TMPFILE: a unique name, unlinked at once. */
  path = g_build_filename (directory, ".resprobe-save-XXXXXX", NULL);
  fd = g_mkstemp_full (path, O_WRONLY | O_CLOEXEC, 0600);
  if (fd >= 0)
    g_unlink (path);
  return fd;
}

/* 256 KiB written and fsync()ed on the main thread, as a naive editor
 * saves: the freeze it causes itself under disk load is what the
 * simulation shows. The file has no name: nothing is left behind. */
static int
naive_save (const char *directory)
{
  g_autofree char *data = g_malloc (SAVE_SIZE);
  gsize done = 0;
  int fd, saved_errno = 0;

  memset (data, 'a', SAVE_SIZE);
  fd = open_anonymous (directory);
  if (fd < 0)
    return errno;
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
  return saved_errno;
}

static gboolean
on_save_timer (gpointer user_data)
{
  RpCanary *self = user_data;
  double start = rp_clock_now ();
  int saved_errno = naive_save (self->save_dir);

  if (saved_errno != 0)
    {
      g_autoptr(GError) error = NULL;

      rp_error_set_from_errno (&error, saved_errno, _("Simulated save: writing in"), self->save_dir);
      rp_canary_emit (self, "E %s", error->message);
      self->save_id = 0;
      return G_SOURCE_REMOVE;
    }
  rp_canary_emit (self, "S %.6f %.6f", start, rp_clock_now () - start);
  return G_SOURCE_CONTINUE;
}

/**
 * rp_canary_read_file:
 *
 * Reads $RESPROBE_CANARY_READ to its end on the main thread, as an
 * application opens a document, and says how long it took: the tests'
 * known stall of a read from a slow device (SIGUSR1 asks for it).
 */
void
rp_canary_read_file (RpCanary *self)
{
  g_autofree char *buffer = NULL;
  guint64 total = 0;
  double start;
  gssize n;
  int fd;

  if (self->read_path == NULL || !self->measuring)
    return;
  buffer = g_malloc (READ_CHUNK);
  start = rp_clock_now ();
  fd = open (self->read_path, O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    {
      rp_canary_emit (self, "E cannot open %s: %s", self->read_path, g_strerror (errno));
      return;
    }
  while ((n = read (fd, buffer, READ_CHUNK)) > 0 || (n < 0 && errno == EINTR))
    total += MAX (n, 0);
  close (fd);
  rp_canary_emit (self, "R %.6f %.6f %" G_GUINT64_FORMAT, start, rp_clock_now () - start, total);
}

/* ------------------------------------------------------------------------- */

/**
 * rp_canary_start_probes:
 * @error: when the kernel refuses a timerfd
 *
 * Starts measuring: the main-loop timer, the wake-up thread, the save.
 *
 * Returns: %TRUE when measuring
 */
gboolean
rp_canary_start_probes (RpCanary  *self,
                        GError   **error)
{
  RpCanaryWakeup *wakeup;

  self->timer = rp_timerfd_source_new (RP_CANARY_TIMER_PERIOD, error);
  if (self->timer == NULL)
    return FALSE;
  /* Default priority: what any ordinary timeout or idle of an application
   * sees, after input and before redraws. */
  g_source_set_priority (self->timer, G_PRIORITY_DEFAULT);
  g_source_set_callback (self->timer, (GSourceFunc) (void (*) (void)) on_timer, self, NULL);
  g_source_attach (self->timer, NULL);

  wakeup = g_atomic_rc_box_new0 (RpCanaryWakeup);
  g_mutex_init (&wakeup->lock);
  g_cond_init (&wakeup->cond);
  wakeup->context = g_main_context_ref_thread_default ();
  wakeup->canary = self;
  wakeup->thread = g_thread_new ("rp-wakeup-probe", wakeup_thread, g_atomic_rc_box_acquire (wakeup));
  self->wakeup = wakeup;

  if (self->save_dir != NULL)
    self->save_id = g_timeout_add_seconds (1, on_save_timer, self);
  self->measuring = TRUE;
  rp_canary_emit (self, RP_CANARY_READY);
  return TRUE;
}

/**
 * rp_canary_stop_probes:
 *
 * Stops measuring and joins the wake-up thread (which only sleeps).
 */
void
rp_canary_stop_probes (RpCanary *self)
{
  RpCanaryWakeup *wakeup = g_steal_pointer (&self->wakeup);

  self->measuring = FALSE;
  g_clear_handle_id (&self->save_id, g_source_remove);
  if (self->timer != NULL)
    {
      g_source_destroy (self->timer);
      g_clear_pointer (&self->timer, g_source_unref);
    }
  if (wakeup == NULL)
    return;
  g_mutex_lock (&wakeup->lock);
  wakeup->stop = TRUE;
  g_cond_signal (&wakeup->cond);
  g_mutex_unlock (&wakeup->lock);
  g_thread_join (wakeup->thread);
  wakeup->canary = NULL;
  g_atomic_rc_box_release_full (wakeup, wakeup_clear);
}
