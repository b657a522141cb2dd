/* rp-timerfd-source.h: a periodic GSource on a timerfd, for measuring main-loop lateness. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * RpTimerfdFunc:
 * @expiry: CLOCK_MONOTONIC seconds at which the oldest pending expiration was due
 * @dispatched: CLOCK_MONOTONIC seconds when the main loop dispatched it
 * @missed: expirations that passed while the main loop was busy (0 normally)
 * @user_data: the callback's data
 *
 * Returns: %G_SOURCE_CONTINUE or %G_SOURCE_REMOVE
 */
typedef gboolean (*RpTimerfdFunc) (double   expiry,
                                   double   dispatched,
                                   guint64  missed,
                                   gpointer user_data);

GSource *rp_timerfd_source_new (double   period,
                                GError **error);

G_END_DECLS
