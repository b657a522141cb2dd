/* rp-io.h: whole writes, retried over short writes and signals; I/O buffers that may fail. */
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

gpointer rp_buffer_try_new (gsize        size,
                            const char  *owner,
                            GError     **error);

G_END_DECLS
