/* rp-memory.h: living within a memory limit (ulimit -v). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean rp_memory_adapt_to_limit  (void);
gboolean rp_memory_check_headroom (guint    n_threads,
                                   GError **error);

G_END_DECLS
