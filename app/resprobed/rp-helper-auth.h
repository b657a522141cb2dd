/* rp-helper-auth.h: asks polkit whether the caller of a method may do it, by its bus name. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The actions of io.github.resprobe.Helper1.policy */
#define RP_HELPER_ACTION_TRACE       "io.github.resprobe.trace"
#define RP_HELPER_ACTION_DROP_CACHES "io.github.resprobe.drop-caches"

void     rp_helper_auth_check_async  (GDBusMethodInvocation *invocation,
                                      const char            *action_id,
                                      GAsyncReadyCallback    callback,
                                      gpointer               user_data);
gboolean rp_helper_auth_check_finish (GAsyncResult          *result,
                                      GError               **error);

G_END_DECLS
