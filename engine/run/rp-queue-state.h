/* rp-queue-state.h: a block device's queue settings, saved and put back (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-undo-journal.h"

G_BEGIN_DECLS

typedef struct _RpQueueState RpQueueState;

RpQueueState *rp_queue_state_save          (const char    *disk,
                                            GError       **error);
gboolean      rp_queue_state_restore       (RpQueueState  *self,
                                            GError       **error);
gboolean      rp_queue_state_put_back      (RpQueueState  *self,
                                            GPtrArray     *said,
                                            GError       **error);
void          rp_queue_state_free          (RpQueueState  *self);
gboolean      rp_queue_state_journal       (RpQueueState  *self,
                                            RpUndoJournal *journal,
                                            GError       **error);
RpQueueState *rp_queue_state_from_journal  (GKeyFile      *file,
                                            GError       **error);
gboolean      rp_queue_state_write         (RpQueueState  *self,
                                            const char    *path,
                                            GError       **error);
RpQueueState *rp_queue_state_read          (const char    *path,
                                            GError       **error);
const char   *rp_queue_state_get_disk      (RpQueueState  *self);

gboolean      rp_queue_set                 (const char    *disk,
                                            const char    *attribute,
                                            const char    *value,
                                            GError       **error);
gboolean      rp_loop_set_direct_io        (const char    *disk,
                                            gboolean       enabled,
                                            GError       **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpQueueState, rp_queue_state_free)

G_END_DECLS
