/* rp-window.h: the main window: scenario settings, Start/Stop, live charts, summary. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define RP_TYPE_WINDOW (rp_window_get_type ())
G_DECLARE_FINAL_TYPE (RpWindow, rp_window, RP, WINDOW, AdwApplicationWindow)

RpWindow *rp_window_new               (GtkApplication *application);
gboolean  rp_window_get_busy          (RpWindow       *self);
void      rp_window_set_directory     (RpWindow       *self,
                                       const char     *directory);
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

GListModel *rp_window_create_scenario_model (void);
void      rp_window_bind_scenario_setting (GSettings          *settings,
                                           AdwComboRow        *row,
                                           GSettingsBindFlags  flags);

G_END_DECLS
