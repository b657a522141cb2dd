/* rp-help.h: opening the user guide (help:resprobe) in the help viewer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

char *rp_help_get_uri (const char *page);
void  rp_help_show    (GtkWindow  *parent,
                       const char *page);

G_END_DECLS
