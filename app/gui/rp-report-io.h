/* rp-report-io.h: reports from and to files on worker threads, and the file choosers for them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <adwaita.h>

#include "rp-report.h"

G_BEGIN_DECLS

/* A comparison shows 2 to 8 runs: one colour of the chart palette each. */
#define RP_COMPARE_MIN_REPORTS 2
#define RP_COMPARE_MAX_REPORTS 8

/* What rp_report_io_load() gives: the reports that loaded, and why the
 * others did not. One bad file among several must not hide the good ones. */
typedef struct {
  GPtrArray *reports;   /* (element-type RpReport): in the order of the files */
  GPtrArray *files;     /* (element-type GFile): the file of each report */
  GPtrArray *failed;    /* (element-type GFile): the files that did not load */
  GPtrArray *errors;    /* (element-type GError): why each of them did not, naming it */
} RpReportIoLoaded;

void                  rp_report_io_loaded_free       (RpReportIoLoaded          *loaded);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpReportIoLoaded, rp_report_io_loaded_free)

RpReportIoLoaded     *rp_report_io_load              (GFile              *const *files,
                                                      guint                      n_files,
                                                      GCancellable              *cancellable,
                                                      GError                   **error);
void                  rp_report_io_load_async        (GFile              *const *files,
                                                      guint                      n_files,
                                                      GCancellable              *cancellable,
                                                      GAsyncReadyCallback        callback,
                                                      gpointer                   user_data);
RpReportIoLoaded     *rp_report_io_load_finish       (GAsyncResult              *result,
                                                      GError                   **error);
char                 *rp_report_io_display_name      (GFile                     *file);
char                 *rp_report_io_describe_errors   (const RpReportIoLoaded    *loaded);
void                  rp_report_io_show_errors       (GtkWindow                 *window,
                                                      const RpReportIoLoaded    *loaded,
                                                      gboolean                   scripted);

void                  rp_report_io_set_start_folder  (GtkFileChooser            *chooser,
                                                      GFile                     *last);
gboolean              rp_report_io_check_new_file    (GFile                     *file,
                                                      gboolean                   replace,
                                                      GCancellable              *cancellable,
                                                      GError                   **error);
void                  rp_report_io_save_async        (RpReport                  *report,
                                                      GFile                     *file,
                                                      const char                *format,
                                                      gboolean                   replace,
                                                      GFile                     *renaming,
                                                      GCancellable              *cancellable,
                                                      GAsyncReadyCallback        callback,
                                                      gpointer                   user_data);
gboolean              rp_report_io_save_finish       (GAsyncResult              *result,
                                                      GError                   **error);

char                 *rp_report_io_suggest_name      (RpReport                  *report,
                                                      const char                *format);
GtkFileChooserNative *rp_report_io_new_save_dialog   (GtkWindow                 *parent,
                                                      RpReport                  *report,
                                                      gboolean                   json_only,
                                                      GFile                     *last,
                                                      gboolean                   same_run);
GtkFileChooserNative *rp_report_io_new_open_dialog   (GtkWindow                 *parent);
const char           *rp_report_io_resolve_format    (GFile                     *chosen,
                                                      GtkFileFilter             *filter,
                                                      const char                *fallback,
                                                      GFile                    **out_file);

G_END_DECLS
