/* rp-compare-rows.h: the comparison's figures, intervals and significance as rows of a GtkGrid. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "rp-comparison.h"

G_BEGIN_DECLS

int        rp_compare_rows_attach     (GtkGrid            *grid,
                                       const RpComparison *comparison,
                                       int                 row);
GtkWidget *rp_compare_rows_new_cell   (const RpCompareRow *row,
                                       guint               group);
const char *rp_compare_change_css_class (RpChange          change);

G_END_DECLS
