/* rp-bdi-state.h: a block device's per-device dirty limits (bdi), saved and put back (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-undo-journal.h"

G_BEGIN_DECLS

typedef struct _RpBdiState RpBdiState;

RpBdiState *rp_bdi_state_save     (const char   *disk,
                                   GError      **error);
gboolean    rp_bdi_state_set      (RpBdiState   *self,
                                   const char   *attribute,
                                   const char   *value,
                                   GError      **error);
gboolean    rp_bdi_state_restore  (RpBdiState   *self,
                                   GError      **error);
gboolean    rp_bdi_state_put_back (RpBdiState   *self,
                                   GPtrArray    *said,
                                   GError      **error);
gboolean    rp_bdi_state_journal  (RpBdiState     *self,
                                   RpUndoJournal  *journal,
                                   GError        **error);
RpBdiState *rp_bdi_state_from_journal (GKeyFile *file,
                                       GError  **error);
const char *rp_bdi_state_get_name (RpBdiState   *self);
const char *rp_bdi_state_get_disk (RpBdiState   *self);
void        rp_bdi_state_free     (RpBdiState   *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpBdiState, rp_bdi_state_free)

G_END_DECLS
