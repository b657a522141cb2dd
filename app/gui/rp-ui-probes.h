/* rp-ui-probes.h: the probes that need the GUI main thread: main loop, frames, input, wake-ups. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "rp-session.h"

G_BEGIN_DECLS

/* Series the GUI adds to the session (and so to its report). */

#define RP_TYPE_UI_PROBES (rp_ui_probes_get_type ())
G_DECLARE_FINAL_TYPE (RpUiProbes, rp_ui_probes, RP, UI_PROBES, GObject)

RpUiProbes *rp_ui_probes_new               (RpSession   *session,
                                            GtkWidget   *widget);
gboolean    rp_ui_probes_start             (RpUiProbes  *self,
                                            GError     **error);
void        rp_ui_probes_stop              (RpUiProbes  *self);
gboolean    rp_ui_probes_get_running       (RpUiProbes  *self);
gboolean    rp_ui_probes_get_simulate_save (RpUiProbes  *self);
void        rp_ui_probes_set_simulate_save (RpUiProbes  *self,
                                            gboolean     simulate_save);
double      rp_ui_probes_get_timer_period  (RpUiProbes  *self);
void        rp_ui_probes_set_timer_period  (RpUiProbes  *self,
                                            double       period);

G_END_DECLS
