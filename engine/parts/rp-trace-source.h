/* rp-trace-source.h: where a run's trace instance comes from: made as root, or by resprobed for an unprivileged user. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-trace-events.h"

G_BEGIN_DECLS

typedef struct _RpTraceSource RpTraceSource;

RpTraceSource *rp_trace_source_open          (const char     *directory,
                                              RpTraceTarget  *out_target,
                                              gboolean       *out_on_disk,
                                              GError        **error);
const char    *rp_trace_source_get_kind      (RpTraceSource  *self);
const char    *rp_trace_source_get_instance  (RpTraceSource  *self);
const char    *rp_trace_source_get_missing   (RpTraceSource  *self);
double         rp_trace_source_get_hz        (RpTraceSource  *self);
GHashTable    *rp_trace_source_get_formats   (RpTraceSource  *self);
GArray        *rp_trace_source_steal_buffers (RpTraceSource  *self);
guint64        rp_trace_source_stop          (RpTraceSource  *self);
void           rp_trace_source_free          (RpTraceSource  *self);

G_END_DECLS
