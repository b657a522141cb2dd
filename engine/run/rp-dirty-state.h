/* rp-dirty-state.h: the vm.dirty_* sysctls, saved, journaled and put back (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-undo-journal.h"

G_BEGIN_DECLS

typedef struct _RpDirtyState RpDirtyState;

RpDirtyState *rp_dirty_state_save          (void);
gboolean      rp_dirty_state_journal       (RpDirtyState   *self,
                                            RpUndoJournal  *journal,
                                            GError        **error);
RpDirtyState *rp_dirty_state_from_journal  (GKeyFile       *file,
                                            GError        **error);
gboolean      rp_dirty_apply_bytes         (guint64         bytes,
                                            GError        **error);
gboolean      rp_dirty_state_restore       (RpDirtyState   *self,
                                            GPtrArray      *said,
                                            GError        **error);
void          rp_dirty_state_free          (RpDirtyState   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpDirtyState, rp_dirty_state_free)

G_END_DECLS
