/* rp-helper-service.h: resprobed's object on the system bus: its methods, its callers' trace instances, its idle time. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

#define RP_HELPER_BUS_NAME    "io.github.resprobe.Helper1"
#define RP_HELPER_OBJECT_PATH "/io/github/resprobe/Helper1"
#define RP_HELPER_INTERFACE   "io.github.resprobe.Helper1"

/* Bounds on what callers may hold, so that no caller (authorized or not)
 * can make the helper hold the machine's memory: each instance has its own
 * per-CPU ring buffers (1.4 MiB a CPU by default). */
#define RP_HELPER_MAX_TRACES_PER_CALLER 2
#define RP_HELPER_MAX_TRACES            8
/* Descriptors per GetBuffers reply: 16, the max_message_unix_fds that
 * dbus-daemon's system.conf names for a system bus that sets one, so that
 * a reply is never refused by a bus so configured. */
#define RP_HELPER_MAX_FDS_PER_CALL      16

typedef struct _RpHelperService RpHelperService;

RpHelperService *rp_helper_service_new      (GDBusConnection  *bus,
                                             guint             idle_seconds,
                                             GSourceFunc       on_idle,
                                             gpointer          on_idle_data,
                                             GError          **error);
guint            rp_helper_service_n_traces (RpHelperService  *self);
void             rp_helper_service_free     (RpHelperService  *self);

G_END_DECLS
