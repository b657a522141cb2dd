/* rp-run-form.h: widgets that edit an RpRunSettings, shared by the window's form and Preferences. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "rp-run-settings.h"

G_BEGIN_DECLS

/**
 * RpRunFormField:
 * @RP_RUN_FORM_SIZE: #RpRunSettings:size, as "4G"
 * @RP_RUN_FORM_DURATION: #RpRunSettings:duration, as "60" or "2m"
 * @RP_RUN_FORM_BASELINE: #RpRunSettings:baseline, as "3" or "10s"
 *
 * A setting that an entry edits as text.
 */
typedef enum {
  RP_RUN_FORM_SIZE,
  RP_RUN_FORM_DURATION,
  RP_RUN_FORM_BASELINE,
} RpRunFormField;

/* How a window shows a short message. */
typedef void (*RpRunFormToastFunc) (GtkWindow  *window,
                                    const char *text);

void        rp_run_form_bind_scenario_row (AdwComboRow    *row,
                                           RpRunSettings  *settings);
void        rp_run_form_bind_entry        (GtkEditable    *editable,
                                           RpRunSettings  *settings,
                                           RpRunFormField  field,
                                           const char     *apply_signal);
const char *rp_run_form_get_entry_error   (GtkEditable    *editable);
void        rp_run_form_choose_folder     (GtkWindow          *parent,
                                           RpRunSettings      *settings,
                                           RpRunFormToastFunc  toast);
void        rp_run_form_choose_load_folder (GtkWindow          *parent,
                                            RpRunSettings      *settings,
                                            RpRunFormToastFunc  toast);
char       *rp_run_form_display_path      (const char     *path);

G_END_DECLS
