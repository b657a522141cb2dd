/* rp-trace-instance.h: a trace instance of our own in tracefs, as root: made, its events enabled, its buffers opened, removed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <tracefs.h>

#include "rp-trace-events.h"

G_BEGIN_DECLS

/* The names' prefixes: the engine's own instances (a run as root) and
 * resprobed's (made for an unprivileged caller). Each program removes only
 * the stale instances of its own prefix. */
#define RP_TRACE_INSTANCE_PREFIX_ENGINE "resprobe-"
#define RP_TRACE_INSTANCE_PREFIX_HELPER "resprobed-"

/* This file is built into both the engine and resprobed (app/helper): it
 * needs GLib, libtracefs and the base layer only. */

gboolean                 rp_trace_instance_is_ours_and_stale (const char              *prefix,
                                                              const char              *name);
guint                    rp_trace_instance_remove_stale      (const char              *prefix);
struct tracefs_instance *rp_trace_instance_create            (const char              *prefix,
                                                              GError                 **error);
void                     rp_trace_instance_enable_events     (struct tracefs_instance *instance,
                                                              const RpTraceTarget     *target,
                                                              gboolean                 on_disk,
                                                              GString                 *missing);
guint                    rp_trace_instance_n_cpus            (void);
int                      rp_trace_instance_open_buffer       (struct tracefs_instance *instance,
                                                              guint                    cpu,
                                                              GError                 **error);
GHashTable              *rp_trace_instance_read_formats      (GError                 **error);
guint64                  rp_trace_instance_lost_events       (struct tracefs_instance *instance);
gboolean                 rp_trace_instance_remove            (struct tracefs_instance *instance);
void                     rp_trace_instance_destroy           (struct tracefs_instance *instance);

G_END_DECLS
