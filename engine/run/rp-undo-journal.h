/* rp-undo-journal.h: what a run changed on the machine, on disk before it changes it (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _RpUndoJournal RpUndoJournal;

/* The journal's groups, in the order a replay undoes them
 * (rp-undo-cleanup.c): the per-device dirty limits, the loop device's queue
 * settings (while it is still bound: detaching forgets direct I/O), the
 * cell's mount, loop device, mount point and image, then vm.dirty_*. */
#define RP_UNDO_GROUP_BDI   "bdi"
#define RP_UNDO_GROUP_QUEUE "queue"
#define RP_UNDO_GROUP_CELL  "cell"
#define RP_UNDO_GROUP_DIRTY "dirty"

RpUndoJournal *rp_undo_journal_new           (const char     *directory);
GKeyFile      *rp_undo_journal_get_key_file  (RpUndoJournal  *self);
gboolean       rp_undo_journal_commit        (RpUndoJournal  *self,
                                              GError        **error);
gboolean       rp_undo_journal_forget        (RpUndoJournal  *self,
                                              const char     *group,
                                              GError        **error);
const char    *rp_undo_journal_get_path      (RpUndoJournal  *self);
void           rp_undo_journal_free          (RpUndoJournal  *self);

GPtrArray     *rp_undo_journal_find_dead     (const char     *directory);
guint          rp_undo_journal_remove_dead_partials (const char *directory,
                                                     GPtrArray  *said);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpUndoJournal, rp_undo_journal_free)

G_END_DECLS
