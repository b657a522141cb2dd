/* rp-app-start-copy.h: a program and its libraries copied into the folder under test. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _RpAppStartCopy RpAppStartCopy;

RpAppStartCopy     *rp_app_start_copy_new           (const char         *directory,
                                                     GPtrArray          *mapped,
                                                     const char * const *argv,
                                                     GError            **error);
void                rp_app_start_copy_free          (RpAppStartCopy     *self);
const char * const *rp_app_start_copy_get_argv      (RpAppStartCopy     *self);
const char         *rp_app_start_copy_get_directory (RpAppStartCopy     *self);
GPtrArray          *rp_app_start_copy_get_files     (RpAppStartCopy     *self);

G_END_DECLS
