/* rp-cli-matrix-check.h: `resprobe-cli matrix`'s checks before the first cell. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-device-profile.h"
#include "rp-scenario.h"

G_BEGIN_DECLS

/* A kernel setting a matrix option varies: checked only when @asked. */
typedef struct {
  const char *option;     /* "--wbt" */
  const char *setting;    /* "queue/wbt_lat_usec", as rp_kernel_features_has_setting() takes it */
  gboolean    asked;
} RpCliMatrixSetting;

GPtrArray *rp_cli_matrix_parse_devices    (const char        *text,
                                           GError           **error);
gboolean   rp_cli_matrix_check_cell_space (const RpScenario  *scenario,
                                           GPtrArray         *fs_types,
                                           guint64            image_size,
                                           const char        *probe_directory,
                                           GError           **error);
gboolean   rp_cli_matrix_check_kernel     (GPtrArray                *schedulers,
                                           gboolean                  schedulers_by_default,
                                           const RpCliMatrixSetting *settings,
                                           guint                     n_settings,
                                           GError                  **error);
gboolean   rp_cli_matrix_check_file_systems (GPtrArray       *fs_types,
                                             gboolean         programs,
                                             GError         **error);

G_END_DECLS
