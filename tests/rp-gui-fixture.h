/* rp-gui-fixture.h: what every GUI test program sets up, waits for and takes down under Xvfb. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "rp-window.h"

G_BEGIN_DECLS

/**
 * RpGuiFixtureFlags:
 * @RP_GUI_FIXTURE_WIDGETS_ONLY: GTK and libadwaita only, no application
 * @RP_GUI_FIXTURE_APPLICATION: a registered, held application for windows
 * @RP_GUI_FIXTURE_DATA_HOME: a reports folder of the test's own (a fresh
 *   XDG_DATA_HOME, removed with everything in it at the end)
 */
typedef enum {
  RP_GUI_FIXTURE_WIDGETS_ONLY = 0,
  RP_GUI_FIXTURE_APPLICATION  = 1 << 0,
  RP_GUI_FIXTURE_DATA_HOME    = 1 << 1,
} RpGuiFixtureFlags;

/* A hang guard only: every wait is for a condition. Two minutes: in a CI
 * run beside other work (load 15 to 19 on 2 cores) a run's autosave took
 * over 60 s. */
#define RP_GUI_FIXTURE_HANG_GUARD_S 120

typedef gboolean (*RpGuiCondition) (gpointer data);

GtkApplication *rp_gui_fixture_init          (int                *argc,
                                              char             ***argv,
                                              RpGuiFixtureFlags   flags,
                                              guint               hang_guard_s);
int             rp_gui_fixture_run           (void);

void            rp_gui_fixture_wait          (RpGuiCondition      done,
                                              gpointer            data,
                                              const char         *what);
void            rp_gui_fixture_spin          (guint               milliseconds);
gboolean        rp_gui_fixture_quit_loop     (gpointer            data);

void            rp_gui_fixture_collect       (GtkWidget          *widget,
                                              GType               type,
                                              GPtrArray          *out);
GtkPopover     *rp_gui_fixture_find_popover  (GtkWidget          *widget);
void            rp_gui_fixture_name_widest   (GtkWidget          *widget,
                                              int                 limit,
                                              guint               depth);
GSettings      *rp_gui_fixture_settings_with_backend (GSettingsBackend *backend);
RpWindow       *rp_gui_fixture_passive_window (const char        *target,
                                               GSettings         *settings);
RpWindow       *rp_gui_fixture_open_report   (const char         *path);
guint           rp_gui_fixture_count_reports (void);
void            rp_gui_fixture_empty_reports (void);
void            rp_gui_fixture_use_build_catalogue (const char   *language);
void            rp_gui_fixture_remove_tree   (const char         *path);

/* Real X input, for what emitted signals skip (grabs, autohide, the
 * window's key bindings, focus-visible). */
gboolean        rp_gui_fixture_has_real_input (void);
void            rp_gui_fixture_xdotool       (const char         *arguments);
void            rp_gui_fixture_point_at      (GtkWidget          *widget,
                                              double              x,
                                              double              y,
                                              const char         *then);
void            rp_gui_fixture_click_at      (GtkWidget          *widget,
                                              double              x,
                                              double              y);

/* Conditions for rp_gui_fixture_wait(). */
gboolean        rp_gui_fixture_pointer_cleared (gpointer          data);
gboolean        rp_gui_fixture_window_idle     (gpointer          data);
gboolean        rp_gui_fixture_run_measuring   (gpointer          data);

G_END_DECLS
