/* rp-compare-window.h: a window comparing 2 to 8 reports. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "rp-compare-view.h"

G_BEGIN_DECLS

#define RP_TYPE_COMPARE_WINDOW (rp_compare_window_get_type ())
G_DECLARE_FINAL_TYPE (RpCompareWindow, rp_compare_window, RP, COMPARE_WINDOW, AdwApplicationWindow)

RpCompareWindow *rp_compare_window_new                 (GtkApplication   *application);
void             rp_compare_window_open_files          (RpCompareWindow  *self,
                                                        GFile     *const *files,
                                                        guint             n_files);
void             rp_compare_window_set_reports         (RpCompareWindow  *self,
                                                        GPtrArray        *reports,
                                                        GFile     *const *files);
void             rp_compare_window_set_exit_screenshot (RpCompareWindow  *self,
                                                        GFile            *screenshot);
void             rp_compare_window_set_baseline        (RpCompareWindow  *self,
                                                        guint             index);
RpCompareView   *rp_compare_window_get_view            (RpCompareWindow  *self);
const char      *rp_compare_window_get_error           (RpCompareWindow  *self);

G_END_DECLS
