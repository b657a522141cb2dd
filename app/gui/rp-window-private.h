/* rp-window-private.h: what rp-window.c shares with rp-window-reports.c (open, save, export). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-report.h"
#include "rp-window.h"

G_BEGIN_DECLS

/* rp-window.c */
void      rp_window_show_toast         (RpWindow       *self,
                                        const char     *text);
RpReport *rp_window_get_report         (RpWindow       *self);
gboolean  rp_window_get_scripted       (RpWindow       *self);
void      rp_window_show_report        (RpWindow       *self,
                                        RpReport       *report,
                                        GFile          *file);

/* rp-window-reports.c */
void      rp_window_reports_class_init (GtkWidgetClass *widget_class);
void      rp_window_reports_init       (RpWindow       *self);
void      rp_window_reports_update     (RpWindow       *self,
                                        gboolean        busy);

G_END_DECLS
