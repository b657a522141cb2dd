/* rp-application.h: the GtkApplication: command line, windows, app-wide actions. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

/* Exit status for a bad command-line value, as for the CLI. */
#define RP_APPLICATION_EXIT_USAGE 2

#define RP_TYPE_APPLICATION (rp_application_get_type ())
G_DECLARE_FINAL_TYPE (RpApplication, rp_application, RP, APPLICATION, AdwApplication)

RpApplication *rp_application_new          (void);

G_END_DECLS
