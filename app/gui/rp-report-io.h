/* rp-report-io.h: reports from and to files on worker threads, and the file choosers for them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gtk/gtk.h>

#include "rp-report.h"

G_BEGIN_DECLS

/* A comparison shows 2 to 8 runs: one colour of the chart palette each. */
#define RP_COMPARE_MIN_REPORTS 2
#define RP_COMPARE_MAX_REPORTS 8

GPtrArray            *rp_report_io_load              (GFile              *const *files,
                                                      guint                      n_files,
                                                      GCancellable              *cancellable,
                                                      GError                   **error);
void                  rp_report_io_load_async        (GFile              *const *files,
                                                      guint                      n_files,
                                                      GCancellable              *cancellable,
                                                      GAsyncReadyCallback        callback,
                                                      gpointer                   user_data);
GPtrArray            *rp_report_io_load_finish       (GAsyncResult              *result,
                                                      GError                   **error);

void                  rp_report_io_save_async        (RpReport                  *report,
                                                      GFile                     *file,
                                                      const char                *format,
                                                      gboolean                   replace,
                                                      GCancellable              *cancellable,
                                                      GAsyncReadyCallback        callback,
                                                      gpointer                   user_data);
gboolean              rp_report_io_save_finish       (GAsyncResult              *result,
                                                      GError                   **error);

char                 *rp_report_io_suggest_name      (RpReport                  *report,
                                                      const char                *format);
GtkFileChooserNative *rp_report_io_new_save_dialog   (GtkWindow                 *parent,
                                                      RpReport                  *report,
                                                      gboolean                   json_only);
GtkFileChooserNative *rp_report_io_new_open_dialog   (GtkWindow                 *parent);
const char           *rp_report_io_resolve_format    (GFile                     *chosen,
                                                      GtkFileFilter             *filter,
                                                      const char                *fallback,
                                                      GFile                    **out_file);

G_END_DECLS
