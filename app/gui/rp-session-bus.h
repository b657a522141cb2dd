/* rp-session-bus.h: the session bus, or none when it does not answer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GDBusConnection *rp_session_bus_check (guint timeout_ms);

G_END_DECLS
