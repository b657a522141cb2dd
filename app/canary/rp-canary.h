/* rp-canary.h: the probe window's state, shared by its files (main, frames, probes). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

typedef struct _RpCanaryWakeup RpCanaryWakeup;

/* One probe window: a process of its own whose only job is to be a typical
 * application, so that what its main loop, frames and input go through is
 * the desktop's doing and never the measuring window's (docs/
 * ARCHITECTURE.md, "Felt probes"). Main thread only, except @out_fd and
 * @lines_dropped, which the wake-up thread never touches either: it posts
 * to the main context, and the main thread writes. */
typedef struct {
  int             out_fd;           /* the samples' pipe, non-blocking */
  guint64         lines_dropped;    /* the pipe was full: the reader lagged */
  gboolean        quit;

  GtkWidget      *window;
  GtkWidget      *pulse;
  gboolean        drawn;            /* the first frame has been painted */
  gboolean        measuring;        /* after RP_CANARY_SETTLE */

  /* Frames (rp-canary-frames.c) */
  double          last_tick;
  gint64          next_frame;
  gint64          last_presentation;
  gint64          last_presented_frame;
  gboolean        presentation_seen;
  guint64         frames_apart;
  gint64          refresh_us;
  gint64          monitor_refresh_us;
  GdkSurface     *checked_surface;

  /* Probes (rp-canary-probes.c) */
  GSource        *timer;
  RpCanaryWakeup *wakeup;
  char           *save_dir;
  guint           save_id;
  char           *read_path;
} RpCanary;

/* A time or length in seconds as the protocol writes it, six decimals
 * (microseconds), formatted from integers: "%.6f" went through glibc's
 * floating-point printer, an eighth of the probe window's CPU time at 180
 * lines a second (callgrind, issue 32's bench row 5b). Non-negative values
 * only (CLOCK_MONOTONIC times, lengths). Use as
 * rp_canary_emit (self, "L " RP_SECONDS_FORMAT, RP_SECONDS (t)). */
#define RP_SECONDS_FORMAT "%" G_GINT64_FORMAT ".%06d"
#define RP_SECONDS(t) rp_seconds_whole (t), rp_seconds_micro (t)

static inline gint64
rp_seconds_whole (double seconds)
{
  return (gint64) (MAX (seconds, 0) * 1e6 + 0.5) / 1000000;
}

static inline int
rp_seconds_micro (double seconds)
{
  return (int) ((gint64) (MAX (seconds, 0) * 1e6 + 0.5) % 1000000);
}

/* rp-canary-probes.c */
void     rp_canary_emit          (RpCanary   *self,
                                  const char *format,
                                  ...) G_GNUC_PRINTF (2, 3);
gboolean rp_canary_start_probes  (RpCanary   *self,
                                  GError    **error);
void     rp_canary_stop_probes   (RpCanary   *self);
void     rp_canary_watch_input   (RpCanary   *self);
void     rp_canary_read_file     (RpCanary   *self);

/* rp-canary-frames.c */
GtkWidget *rp_canary_pulse_new   (RpCanary   *self);
void     rp_canary_frames_notes  (RpCanary   *self);
void     rp_canary_place         (RpCanary   *self);

G_END_DECLS
