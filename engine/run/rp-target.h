/* rp-target.h: the target folder of a run: checks, free space, anonymous files. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <sys/types.h>

#include "rp-scenario.h"

G_BEGIN_DECLS

char     *rp_target_resolve          (const char  *directory,
                                      dev_t       *out_dev,
                                      ino_t       *out_ino,
                                      GError     **error);
gboolean  rp_target_check_free_space (RpScenario  *scenario,
                                      guint64     *out_spare_bytes,
                                      GError     **error);
guint64   rp_target_get_reserve      (guint64            file_system_bytes);
guint64   rp_target_get_write_budget (const RpScenario  *scenario);
int       rp_target_open_tmpfile     (const char  *directory,
                                      int          extra_flags,
                                      GError     **error);

G_END_DECLS
