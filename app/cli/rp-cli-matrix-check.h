/* rp-cli-matrix-check.h: `resprobe-cli matrix`'s checks before the first cell. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-device-profile.h"
#include "rp-scenario.h"

G_BEGIN_DECLS

GPtrArray *rp_cli_matrix_parse_devices    (const char        *text,
                                           GError           **error);
gboolean   rp_cli_matrix_check_cell_space (const RpScenario  *scenario,
                                           GPtrArray         *fs_types,
                                           guint64            image_size,
                                           const char        *probe_directory,
                                           GError           **error);

G_END_DECLS
