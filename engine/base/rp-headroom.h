/* rp-headroom.h: address space kept free while a part starts its threads under a memory limit. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _RpHeadroom RpHeadroom;

/**
 * RP_HEADROOM_THREADS:
 *
 * Bytes of address space a part holds while it starts its threads, for the
 * run's other threads to stop in: a short run's stop and report take a few
 * MiB.
 */
#define RP_HEADROOM_THREADS (32 * 1024 * 1024)

RpHeadroom *rp_headroom_try_take (gsize        size,
                                  const char  *owner,
                                  GError     **error);
void        rp_headroom_release  (RpHeadroom  *headroom);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpHeadroom, rp_headroom_release)

G_END_DECLS
