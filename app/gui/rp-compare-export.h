/* rp-compare-export.h: where an export of a comparison goes: a file name from the runs' labels. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

char *rp_compare_export_suggest_name (const char *prefix,
                                      const char *const *labels,
                                      guint       n_labels,
                                      const char *extension);

G_END_DECLS
