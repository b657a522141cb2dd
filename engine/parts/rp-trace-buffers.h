/* rp-trace-buffers.h: reads a trace instance's per-CPU raw buffers from open file descriptors, oldest record first. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <event-parse.h>
#include <glib.h>

G_BEGIN_DECLS

typedef struct _RpTraceBuffers RpTraceBuffers;

/* Called with each record; its return value is ignored (the signature of
 * tracefs_iterate_raw_events()' callback). */
typedef int (*RpTraceRecordFunc) (struct tep_event  *event,
                                  struct tep_record *record,
                                  int                cpu,
                                  void              *data);

struct tep_handle *rp_trace_tep_new        (GHashTable        *formats,
                                            guint              n_cpus,
                                            GError           **error);
RpTraceBuffers    *rp_trace_buffers_new    (struct tep_handle *tep,
                                            const int         *fds,
                                            guint              n_fds);
guint64            rp_trace_buffers_drain  (RpTraceBuffers    *self,
                                            RpTraceRecordFunc  func,
                                            gpointer           data);
void               rp_trace_buffers_free   (RpTraceBuffers    *self);

G_END_DECLS
