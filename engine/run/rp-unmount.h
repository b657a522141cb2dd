/* rp-unmount.h: unmount what a run mounted, also when another process holds it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean rp_unmount (const char  *target,
                     GError     **error);

G_END_DECLS
