/* rp-window-private.h: the window's struct and what its files (rp-window*.c) share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-report.h"
#include "rp-run-settings.h"
#include "rp-session.h"
#include "rp-summary-view.h"
#include "rp-why-view.h"
#include "rp-window.h"

G_BEGIN_DECLS

/* One window is one struct in several files, each a job: rp-window.c (the
 * object, its public API, an opened report), rp-window-form.c (the run
 * settings), rp-window-run.c (a run), rp-window-view.c (charts and status),
 * rp-window-reports.c (open, save, export), rp-window-recent.c (every
 * finished run saved, the list of recent runs). As GNOME Text Editor's
 * editor-window-private.h, the fields are here so that each file uses them. */
struct _RpWindow
{
  AdwApplicationWindow  parent_instance;

  /* template children */
  AdwToastOverlay      *toast_overlay;
  AdwWindowTitle       *window_title;
  AdwFlap              *flap;
  GtkToggleButton      *sidebar_button;
  GtkButton            *run_button;
  GtkMenuButton        *menu_button;
  GtkSpinner           *run_spinner;
  GtkLabel             *run_label;
  AdwPreferencesGroup  *run_group;
  AdwComboRow          *scenario_row;
  AdwActionRow         *folder_row;
  AdwActionRow         *load_folder_row;
  GtkButton            *load_folder_clear_button;
  AdwActionRow         *size_row;
  AdwActionRow         *duration_row;
  GtkEntry             *size_entry;
  GtkEntry             *duration_entry;
  GtkEntry             *baseline_entry;
  AdwActionRow         *simulate_row;
  RpSummaryView        *summary_view;
  RpWhyView            *why_view;
  GtkStack             *content_stack;
  GtkLabel             *headline_label;
  GtkLabel             *verdict_label;
  GtkLabel             *warning_label;
  GtkLabel             *details_label;
  GtkProgressBar       *progress_bar;
  GtkGrid              *chart_grid;
  AdwPreferencesGroup  *recent_group;
  GtkListBox           *recent_list;
  GtkButton            *compare_button;
  /* The offer to trace through resprobed (rp-window-helper.c). */
  AdwPreferencesGroup  *helper_group;
  GtkButton            *helper_allow_button;
  GtkButton            *helper_decline_button;
  gboolean              helper_installed;

  /* NULL without the schema (run from the build tree): the defaults. */
  GSettings            *settings;
  /* The form, typed (rp-window-form.c); it follows @settings. */
  RpRunSettings        *run_settings;
  GPtrArray            *plots;   /* RpPlot, by catalog index */
  GPtrArray            *views;   /* RpChartView, likewise */

  /* Cancelled in dispose: every async call the window starts gets it, so
   * that no result reaches a window that is gone. */
  GCancellable         *cancellable;

  RpSession            *session;
  /* The session's signals, connected while it is this window's
   * (g_signal_group_set_target()). */
  GSignalGroup         *session_signals;
  double                run_duration;  /* planned seconds of the run; 0: until done */
  gboolean              stop_requested;
  /* The last run failed to start: its charts say so, not "Waiting for data…". */
  gboolean              start_failed;
  GApplication         *holding;
  guint                 inhibit_cookie;
  gboolean              close_when_finished;
  guint                 status_id;
  gboolean              summary_busy;

  GFile                *exit_report;
  GFile                *exit_screenshot;
  guint                 screenshot_tries;
  /* The exit outputs are being written (rp_window_save_exit_outputs()):
   * the timeout that waits for the last frame, then a worker. Closing the
   * window meanwhile hides it; they destroy it when written. */
  guint                 exit_outputs_id;
  gboolean              exit_outputs_pending;

  /* A report opened from a file (rp-window-reports.c), shown as a finished
   * run while there is no session: rp_window_show_report(). */
  RpReport             *loaded_report;
  GFile                *loaded_file;

  /* The window's width decides whether the sidebar folds (rp-window.c);
   * the change is made in an idle, outside the allocation. */
  gboolean              folded;
  guint                 n_columns;     /* of the chart grid: 2, or 1 when narrow */
  gboolean              wide;          /* the sidebar at its wider width */
  guint                 fold_idle_id;

  /* Where the run shown was saved on its own (rp-window-recent.c), and the
   * file Save or Export last wrote (its folder and name are offered next). */
  GFile                *saved_file;
  GFile                *last_export;
  /* The recent runs' list: cancelled when a newer listing starts. */
  GCancellable         *recent_cancellable;
  /* The reports folder watched for reports the CLI (or a file manager)
   * adds, renames or removes; bursts of changes make one listing. */
  GFileMonitor         *recent_monitor;
  guint                 recent_reload_id;
  /* Autosaves under way: closing waits for them. */
  guint                 n_autosaves;
};

/* rp-window.c */
RpSessionState rp_window_session_state       (RpWindow       *self);
gboolean       rp_window_is_gone             (RpWindow       *self);
void           rp_window_show_toast          (RpWindow       *self,
                                              const char     *text);
RpReport      *rp_window_get_report          (RpWindow       *self);
gboolean       rp_window_get_scripted        (RpWindow       *self);
void           rp_window_notify_busy         (RpWindow       *self);

/* rp-window-form.c */
void           rp_window_form_class_init     (GtkWidgetClass *widget_class);
void           rp_window_form_init           (RpWindow       *self);
const char    *rp_window_form_get_error      (RpWindow       *self);
void           rp_window_form_store          (RpWindow       *self);

/* rp-window-run.c */
void           rp_window_run_class_init      (GtkWidgetClass *widget_class);
void           rp_window_run_init            (RpWindow       *self);
void           rp_window_reset_session       (RpWindow       *self);
void           rp_window_release_application (RpWindow       *self);
void           rp_window_save_exit_outputs   (RpWindow       *self);

/* rp-window-recent.c */
void           rp_window_recent_class_init   (GtkWidgetClass *widget_class);
void           rp_window_recent_init         (RpWindow       *self);
/* rp-window-helper.c */
void           rp_window_helper_init         (RpWindow       *self);
void           rp_window_recent_refresh      (RpWindow       *self);
void           rp_window_recent_dispose      (RpWindow       *self);
void           rp_window_autosave            (RpWindow       *self,
                                              RpReport       *report);
void           rp_window_recent_update       (RpWindow       *self);
GFile         *rp_window_recent_file_to_rename (RpWindow     *self,
                                              RpReport       *report,
                                              GFile          *target,
                                              const char     *format);
void           rp_window_recent_renamed      (RpWindow       *self,
                                              GFile          *from,
                                              GFile          *to);

/* rp-window-view.c */
void           rp_window_view_init           (RpWindow       *self);
void           rp_window_view_set_columns    (RpWindow       *self,
                                              guint           n_columns);
void           rp_window_refresh_charts      (RpWindow       *self);
void           rp_window_show_sysinfo        (RpWindow       *self);
void           rp_window_show_verdict        (RpWindow       *self);
void           rp_window_update_ui           (RpWindow       *self);

/* rp-window-reports.c */
void           rp_window_reports_class_init  (GtkWidgetClass *widget_class);
void           rp_window_reports_init        (RpWindow       *self);
void           rp_window_reports_update      (RpWindow       *self,
                                              gboolean        busy);
void           rp_window_save_chosen         (RpWindow       *self,
                                              RpReport       *report,
                                              GFile          *chosen,
                                              GtkFileFilter  *filter,
                                              gboolean        json_only);

G_END_DECLS
