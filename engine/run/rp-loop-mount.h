/* rp-loop-mount.h: a scratch file system in an image file on a loop device (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-undo-journal.h"

G_BEGIN_DECLS

typedef struct _RpLoopMount RpLoopMount;

/**
 * RpLoopMountQueue:
 * @scheduler: (nullable): "none", "mq-deadline", "kyber", "bfq"
 * @wbt_lat_usec: (nullable): writeback throttling target in µs, "0" off
 * @read_ahead_kb: (nullable): read-ahead in KiB
 * @direct_io: 1 on, 0 off, -1 on where the image's file system allows it
 *   (the matrix's default: see rp_loop_mount_create())
 * @rotational: (nullable): queue/rotational, "1" a spinning disk, "0" not;
 *   set before the scheduler, whose heuristics read it
 *
 * The loop device's queue settings for a run; %NULL (or -1) leaves one as
 * it is. Values are written to sysfs as given.
 */
typedef struct {
  const char *scheduler;
  const char *wbt_lat_usec;
  const char *read_ahead_kb;
  int         direct_io;
  const char *rotational;
} RpLoopMountQueue;

RpLoopMount *rp_loop_mount_create           (const char              *work_directory,
                                             const char              *fs_type,
                                             const char              *journal_mode,
                                             guint64                  image_size,
                                             const char              *loop_device,
                                             const RpLoopMountQueue  *queue,
                                             RpUndoJournal           *journal,
                                             GError                 **error);
RpLoopMount *rp_loop_mount_create_on_file   (const char              *work_directory,
                                             const char              *backing_file,
                                             const char              *fs_type,
                                             const char              *journal_mode,
                                             const char              *loop_device,
                                             const RpLoopMountQueue  *queue,
                                             GError                 **error);
gboolean     rp_loop_mount_format           (const char              *fs_type,
                                             const char              *image_path,
                                             GError                 **error);
const char  *rp_loop_mount_get_mount_point  (RpLoopMount  *self);
const char  *rp_loop_mount_get_device       (RpLoopMount  *self);
gboolean     rp_loop_mount_get_direct_io    (RpLoopMount  *self);
gboolean     rp_loop_mount_destroy          (RpLoopMount  *self,
                                             GError      **error);

gboolean     rp_loop_mount_fs_has_journal_modes (const char *fs_type);
gboolean     rp_loop_mount_set_scheduler    (const char   *disk,
                                             const char   *scheduler,
                                             GError      **error);

G_END_DECLS
