/* rp-cli-http.h: the monitor's connections, accepted and timed out here, served by libsoup. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct _RpCliHttp RpCliHttp;

RpCliHttp *rp_cli_http_new      (SoupServer     *server,
                                 GSocketAddress *address,
                                 GError        **error);
void       rp_cli_http_free     (RpCliHttp      *self);
guint      rp_cli_http_get_max_clients (RpCliHttp *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpCliHttp, rp_cli_http_free)

G_END_DECLS
