/* rp-kernel-file-systems.h: the disk file systems this kernel has or can load, discovered, never assumed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

GPtrArray *rp_kernel_file_systems_new_at (const char  *proc_filesystems,
                                          const char  *modules_dir);
GPtrArray *rp_kernel_file_systems_new    (void);
gboolean   rp_kernel_file_systems_check  (GPtrArray   *offered,
                                          const char  *option,
                                          GPtrArray   *names,
                                          GError     **error);

G_END_DECLS
