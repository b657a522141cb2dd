/* rp-frame-sync.h: no frame-sync questions to an X server without a window manager. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void rp_frame_sync_quiet (GdkSurface *surface);

G_END_DECLS
