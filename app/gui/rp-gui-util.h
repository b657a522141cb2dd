/* rp-gui-util.h: small GTK helpers that several windows share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

GdkTexture *rp_gui_render_widget     (GtkWidget   *widget);
gboolean    rp_gui_screenshot_ready  (GtkWidget   *widget,
                                      guint       *tries,
                                      GdkTexture **out_texture);

void        rp_gui_printerr          (const char  *message);

GSettings  *rp_gui_new_settings      (void);
char       *rp_gui_keep_units        (const char  *text);

void        rp_gui_menu_button_quiet_tooltip (GtkMenuButton *button);

G_END_DECLS
