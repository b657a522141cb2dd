/* rp-trace-reader.h: kernel events of the target's file system and disk, read into series and notes. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-part-host.h"

G_BEGIN_DECLS

typedef struct _RpTraceReader RpTraceReader;

RpTraceReader *rp_trace_reader_new    (RpPartHost     *host,
                                       const char     *directory,
                                       GError        **error);
void           rp_trace_reader_drain  (RpTraceReader  *self);
void           rp_trace_reader_finish (RpTraceReader  *self);
void           rp_trace_reader_free   (RpTraceReader  *self);

G_END_DECLS
