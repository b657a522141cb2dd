/* rp-recent-runs.h: the reports folder: every finished run saved there, and the list of recent runs. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-report.h"

G_BEGIN_DECLS

/* How many reports the window's list shows, newest first; a last row
 * opens the reports folder for the rest (rp-window-recent.c). */
#define RP_RECENT_RUNS_MAX 12

char      *rp_recent_runs_get_directory  (void);

GFile     *rp_recent_runs_save           (RpReport            *report,
                                          GError             **error);
void       rp_recent_runs_save_async     (RpReport            *report,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
GFile     *rp_recent_runs_save_finish    (GAsyncResult        *result,
                                          GError             **error);

GPtrArray *rp_recent_runs_list           (guint                max_runs,
                                          guint               *n_found,
                                          GCancellable        *cancellable,
                                          GError             **error);
void       rp_recent_runs_list_async     (guint                max_runs,
                                          GCancellable        *cancellable,
                                          GAsyncReadyCallback  callback,
                                          gpointer             user_data);
GPtrArray *rp_recent_runs_list_finish    (GAsyncResult        *result,
                                          guint               *n_found,
                                          GError             **error);

G_END_DECLS
