/* rp-loop-mount.h: a scratch file system in an image file on a loop device (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

typedef struct _RpLoopMount RpLoopMount;

RpLoopMount *rp_loop_mount_create           (const char   *work_directory,
                                             const char   *fs_type,
                                             const char   *journal_mode,
                                             guint64       image_size,
                                             const char   *scheduler,
                                             GError      **error);
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
