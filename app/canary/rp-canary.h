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
