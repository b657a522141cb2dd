/* rp-undo-cleanup.h: put back what runs killed with SIGKILL left changed (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

guint rp_undo_cleanup (const char  *directory,
                       GPtrArray   *said,
                       GError     **error);

G_END_DECLS
