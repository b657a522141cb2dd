/* rp-preferences-window.h: the Preferences window: defaults of new runs, chart options. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define RP_TYPE_PREFERENCES_WINDOW (rp_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (RpPreferencesWindow, rp_preferences_window, RP, PREFERENCES_WINDOW, AdwPreferencesWindow)

RpPreferencesWindow *rp_preferences_window_new (GSettings *settings);

G_END_DECLS
