/* rp-window.h: the main window: scenario settings, Start/Stop, live charts, summary. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "rp-report.h"

G_BEGIN_DECLS

#define RP_TYPE_WINDOW (rp_window_get_type ())
G_DECLARE_FINAL_TYPE (RpWindow, rp_window, RP, WINDOW, AdwApplicationWindow)

RpWindow *rp_window_new               (GtkApplication *application);
gboolean  rp_window_get_busy          (RpWindow       *self);
void      rp_window_set_directory     (RpWindow       *self,
                                       const char     *directory);
void      rp_window_set_load_directory (RpWindow      *self,
                                        const char    *directory);
gboolean  rp_window_set_scenario      (RpWindow       *self,
                                       const char     *id);
void      rp_window_set_size_text     (RpWindow       *self,
                                       const char     *text);
void      rp_window_set_duration_text (RpWindow       *self,
                                       const char     *text);
void      rp_window_set_exit_outputs  (RpWindow       *self,
                                       GFile          *report,
                                       GFile          *screenshot);
void      rp_window_start             (RpWindow       *self);
void      rp_window_stop              (RpWindow       *self);
void      rp_window_open_files        (RpWindow       *self,
                                       GFile   *const *files,
                                       guint           n_files);
void      rp_window_show_report       (RpWindow       *self,
                                       RpReport       *report,
                                       GFile          *file);
gboolean  rp_window_get_folded        (RpWindow       *self);
GFile    *rp_window_get_saved_file    (RpWindow       *self);
GPtrArray *rp_window_list_recent_files (RpWindow      *self);

G_END_DECLS
