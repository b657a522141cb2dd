/* rp-io.h: whole writes, retried over short writes and signals. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean rp_write_all  (int         fd,
                        const void *buffer,
                        gsize       size);
gboolean rp_pwrite_all (int         fd,
                        const void *buffer,
                        gsize       size,
                        guint64     offset);

G_END_DECLS
