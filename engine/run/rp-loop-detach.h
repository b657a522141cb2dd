/* rp-loop-detach.h: detach the loop devices a killed run left bound to its files. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

void rp_loop_detach_backed_by (const char *path,
                               gboolean    inside,
                               GPtrArray  *said);

G_END_DECLS
