/* rp-memory-pin.h: a machine of less memory, emulated by pinning the rest (root). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-session.h"

G_BEGIN_DECLS

/* The least machine memory --memory emulates: below it the kernel, the
 * desktop and the run itself do not fit. */
#define RP_MEMORY_PIN_MIN_MACHINE (G_GUINT64_CONSTANT (1) << 30)
/* What MemAvailable must keep beside the pinned memory, so that the rest
 * of the machine (other programs, the run's own buffers) does not meet the
 * OOM killer. */
#define RP_MEMORY_PIN_MARGIN (G_GUINT64_CONSTANT (512) << 20)

typedef struct _RpMemoryPin RpMemoryPin;

gboolean     rp_memory_pin_judge       (guint64       machine_memory,
                                        guint64       total,
                                        guint64       available,
                                        guint64       lock_limit,
                                        guint64      *out_pinned,
                                        GError      **error);
gboolean     rp_memory_pin_check       (guint64       machine_memory,
                                        guint64      *out_pinned,
                                        GError      **error);
RpMemoryPin *rp_memory_pin_new         (guint64       machine_memory,
                                        GError      **error);
guint64      rp_memory_pin_get_pinned  (RpMemoryPin  *self);
guint64      rp_memory_pin_get_dirty_threshold (RpMemoryPin *self,
                                                gboolean     emulated);
gboolean     rp_memory_pin_is_held     (RpMemoryPin  *self);
void         rp_memory_pin_set_notes   (RpMemoryPin  *self,
                                        RpSession    *session);
void         rp_memory_pin_free        (RpMemoryPin  *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpMemoryPin, rp_memory_pin_free)

G_END_DECLS
