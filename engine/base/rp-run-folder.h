/* rp-run-folder.h: folders a run makes in its target, named so that the next run can remove those of a killed one. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char      *rp_run_folder_template     (const char  *directory,
                                       const char  *kind);
gboolean   rp_run_folder_is_stale     (const char  *name);
GPtrArray *rp_run_folder_remove_stale (const char  *directory,
                                       GError     **error);

G_END_DECLS
