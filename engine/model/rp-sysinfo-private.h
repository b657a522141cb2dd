/* rp-sysinfo-private.h: test seams of the system snapshot (other roots for /proc, /sys, /etc). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-sysinfo.h"

G_BEGIN_DECLS

RpSysinfo *rp_sysinfo_new          (void);
RpSysinfo *rp_sysinfo_collect_full (const char *target_directory,
                                    const char *proc_root,
                                    const char *sys_root,
                                    const char *etc_root);

G_END_DECLS
