/* rp-helper-client.h: the engine's side of resprobed, the privileged helper on the system bus. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* resprobed's names on the system bus (app/helper, docs/SECURITY.md). */
#define RP_HELPER_BUS_NAME    "io.github.resprobe.Helper1"
#define RP_HELPER_OBJECT_PATH "/io/github/resprobe/Helper1"
#define RP_HELPER_INTERFACE   "io.github.resprobe.Helper1"
/* Buffers per GetBuffers call: the system bus passes at most 16 file
 * descriptors in one message (dbus-daemon's max_message_unix_fds). */
#define RP_HELPER_MAX_FDS_PER_CALL 16

#define RP_TYPE_HELPER_CLIENT (rp_helper_client_get_type ())
G_DECLARE_FINAL_TYPE (RpHelperClient, rp_helper_client, RP, HELPER_CLIENT, GObject)

void            rp_helper_client_set_allowed     (gboolean             allowed);
gboolean        rp_helper_client_get_allowed     (void);
gboolean        rp_helper_client_is_installed    (void);
void            rp_helper_client_check_async     (GCancellable        *cancellable,
                                                  GAsyncReadyCallback  callback,
                                                  gpointer             user_data);
gboolean        rp_helper_client_check_finish    (GAsyncResult        *result,
                                                  GError             **error);

RpHelperClient *rp_helper_client_new             (GError             **error);
const char     *rp_helper_client_get_name        (RpHelperClient      *self);
gboolean        rp_helper_client_open_trace      (RpHelperClient      *self,
                                                  int                  folder_fd,
                                                  guint32             *out_handle,
                                                  guint               *out_n_cpus,
                                                  GHashTable         **out_formats,
                                                  GHashTable         **out_info,
                                                  GError             **error);
GArray         *rp_helper_client_get_buffers     (RpHelperClient      *self,
                                                  guint32              handle,
                                                  guint                n_cpus,
                                                  GError             **error);
gboolean        rp_helper_client_stop_trace      (RpHelperClient      *self,
                                                  guint32              handle,
                                                  guint64             *out_lost,
                                                  GError             **error);
gboolean        rp_helper_client_close_trace     (RpHelperClient      *self,
                                                  guint32              handle,
                                                  GError             **error);
gboolean        rp_helper_client_drop_page_cache (RpHelperClient      *self,
                                                  GError             **error);
gboolean        rp_helper_client_evict_file      (RpHelperClient      *self,
                                                  int                  fd,
                                                  GError             **error);

G_END_DECLS
