/* rp-comparison-file.h: reading a matrix's comparison.json: which report files it lists. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GPtrArray *rp_comparison_file_read (GFile   *file,
                                    guint    max_reports,
                                    GError **error);

G_END_DECLS
