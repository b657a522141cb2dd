/* rp-window-run.c: a run in the window: start, stop, the session's signals, the end of a run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-gui-util.h"
#include "rp-window-private.h"

/* How often the elapsed time, the progress and the summary are refreshed. */
#define STATUS_PERIOD_S 1
/* After the run, how long to let the last frame paint before the screenshot. */
#define SCREENSHOT_DELAY_MS 400
/* A run at least this long that ends while the window is in the background
 * gets a desktop notification: the user has gone to do something else. */
#define NOTIFY_MIN_RUN_S 60
/* The id of that notification: a new one replaces the previous one. */
#define NOTIFICATION_ID "run-finished"

/* ------------------------------------------------------------------------- */
/* During the run */

static void
on_summary_refreshed (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(RpReport) report = NULL;

  self->summary_busy = FALSE;
  report = rp_summary_view_refresh_finish (RP_SUMMARY_VIEW (object), result, NULL);
  /* The window was destroyed meanwhile: its labels are gone. */
  if (rp_window_is_gone (self))
    return;
  rp_window_show_verdict (self);
}

static void
refresh_summary (RpWindow *self)
{
  /* One at a time: statistics of a long run take a moment to compute. */
  if (self->summary_busy || self->session == NULL)
    return;
  self->summary_busy = TRUE;
  rp_summary_view_refresh_async (self->summary_view, self->session, self->cancellable,
                                 on_summary_refreshed, g_object_ref (self));
}

/* Once a second: the header, the charts and the summary together, so that
 * the window renders one frame a second during a run. The session says
 * "updated" up to 20 times a second, but a chart redraws at most once a
 * second (rp_chart_view_refresh()): binding the series, the stalls and the
 * calls in flight that often was work for nothing (issue 32: bench row 5b). */
static gboolean
on_status_tick (gpointer user_data)
{
  RpWindow *self = user_data;

  rp_window_update_ui (self);
  rp_window_refresh_charts (self);
  /* Each refresh reads only the samples new since the last one
   * (rp_summary_view_refresh_async()): an hour costs what a minute does. */
  refresh_summary (self);
  return G_SOURCE_CONTINUE;
}

static void
on_session_state (RpSession  *session,
                  GParamSpec *pspec,
                  RpWindow   *self)
{
  rp_window_update_ui (self);
  rp_window_notify_busy (self);
}

/* Suspend would stop the run (and the machine would report nothing); a
 * screen saver or screen lock would stop the frame clock. The inhibitor
 * lives exactly as long as the hold on the application. */
static void
inhibit_session (RpWindow *self)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  self->inhibit_cookie =
    gtk_application_inhibit (application, GTK_WINDOW (self),
                             GTK_APPLICATION_INHIBIT_SUSPEND | GTK_APPLICATION_INHIBIT_IDLE,
                             /* TRANSLATORS: shown by the desktop, e.g. when the user tries to suspend */
                             _("Measuring desktop responsiveness under disk load"));
}

/**
 * rp_window_release_application:
 *
 * Ends the hold on the application and the inhibitor of a run, if any.
 */
void
rp_window_release_application (RpWindow *self)
{
  g_autoptr(GApplication) application = g_steal_pointer (&self->holding);

  if (application == NULL)
    return;
  /* 0 when no session manager or portal granted it. */
  if (self->inhibit_cookie != 0)
    gtk_application_uninhibit (GTK_APPLICATION (application), self->inhibit_cookie);
  self->inhibit_cookie = 0;
  g_application_release (application);
  rp_window_notify_busy (self);
}

/* ------------------------------------------------------------------------- */
/* Scripts and tests: --report-on-exit, --screenshot-on-exit */

/* What the worker writes: plain data, no widget. GLib's worker drops its
 * reference to the task after it has queued the callback and may hold the
 * last one: a window kept by the task (as its source object) would then be
 * finalized on the worker (issue 30, the comparison window's crash). */
typedef struct {
  RpReport   *report;
  GFile      *report_file;
  GdkTexture *texture;
  GFile      *screenshot_file;
} ExitOutputs;

static void
exit_outputs_free (gpointer data)
{
  ExitOutputs *outputs = data;

  g_clear_object (&outputs->report);
  g_clear_object (&outputs->report_file);
  g_clear_object (&outputs->texture);
  g_clear_object (&outputs->screenshot_file);
  g_free (outputs);
}

static void
save_outputs_in_thread (GTask        *task,
                        gpointer      source_object,
                        gpointer      task_data,
                        GCancellable *cancellable)
{
  ExitOutputs *outputs = task_data;
  GError *error = NULL;

  if (outputs->report_file != NULL && outputs->report != NULL &&
      !rp_report_save (outputs->report, outputs->report_file, "json", &error))
    {
      g_task_return_error (task, error);
      return;
    }
  if (outputs->screenshot_file != NULL)
    {
      g_autofree char *path = g_file_get_path (outputs->screenshot_file);

      /* No texture: the window was never drawn (see rp_gui_screenshot_ready()). */
      if (outputs->texture == NULL || path == NULL || !gdk_texture_save_to_png (outputs->texture, path))
        {
          g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_FAILED,
                                   _("Could not write the screenshot “%s”"), path ? path : "");
          return;
        }
    }
  g_task_return_boolean (task, TRUE);
}

static void
on_outputs_saved (GObject      *source,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  /* The task's only reference to the window: dropped here, on the main
   * thread. */
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      /* Destroyed meanwhile (the application quit): nothing to close. */
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        return;
      rp_gui_printerr (error->message);
    }
  self->exit_outputs_pending = FALSE;
  /* A disposed window is not destroyed twice: that would tear down its
   * widgets (and their action muxers) again. */
  if (!rp_window_is_gone (self))
    gtk_window_destroy (GTK_WINDOW (self));
}

static gboolean
on_screenshot_due (gpointer user_data)
{
  RpWindow *self = user_data;
  RpReport *report;
  GdkTexture *texture = NULL;
  ExitOutputs *outputs;
  GTask *task;

  /* Disposed (it cancels this source; a dispatch already under way ends
   * here): its widgets are gone. */
  if (rp_window_is_gone (self))
    {
      self->exit_outputs_id = 0;
      return G_SOURCE_REMOVE;
    }
  if (self->exit_screenshot != NULL &&
      !rp_gui_screenshot_ready (GTK_WIDGET (self), &self->screenshot_tries, &texture))
    return G_SOURCE_CONTINUE;
  self->exit_outputs_id = 0;
  report = rp_summary_view_get_report (self->summary_view);
  outputs = g_new0 (ExitOutputs, 1);
  outputs->report = report != NULL ? g_object_ref (report) : NULL;
  outputs->report_file = self->exit_report != NULL ? g_object_ref (self->exit_report) : NULL;
  outputs->texture = texture;
  outputs->screenshot_file = self->exit_screenshot != NULL ? g_object_ref (self->exit_screenshot) : NULL;
  task = g_task_new (NULL, self->cancellable, on_outputs_saved, g_object_ref (self));
  g_task_set_task_data (task, outputs, exit_outputs_free);
  /* Writing files is I/O: off the main thread, then close. */
  g_task_run_in_thread (task, save_outputs_in_thread);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/**
 * rp_window_save_exit_outputs:
 *
 * Once the last frame has painted, writes the report and the screenshot a
 * script asked for (rp_window_set_exit_outputs()), then closes the window.
 * Once: a second call while they are being written does nothing. Closing
 * the window meanwhile hides it (rp_window_close_request()), so that the
 * report is written whole and the window is destroyed once.
 */
void
rp_window_save_exit_outputs (RpWindow *self)
{
  if (self->exit_outputs_pending || rp_window_is_gone (self))
    return;
  self->exit_outputs_pending = TRUE;
  self->exit_outputs_id = g_timeout_add_full (G_PRIORITY_DEFAULT, SCREENSHOT_DELAY_MS, on_screenshot_due,
                                              g_object_ref (self), g_object_unref);
}

/* ------------------------------------------------------------------------- */
/* The end of a run */

/* A long run that ends while the user is elsewhere: tell them, with the
 * verdict, so that they need not keep looking. Not when they closed the
 * window (they no longer care) or when the window has the focus. */
static void
notify_if_unattended (RpWindow *self)
{
  g_autoptr(GNotification) notification = NULL;
  const GError *error = rp_session_get_error (self->session);
  const char *headline = rp_summary_view_get_headline (self->summary_view);
  GApplication *application = G_APPLICATION (gtk_window_get_application (GTK_WINDOW (self)));

  if (application == NULL || self->close_when_finished ||
      rp_session_get_elapsed (self->session) < NOTIFY_MIN_RUN_S ||
      gtk_window_is_active (GTK_WINDOW (self)))
    return;

  notification = g_notification_new (error ? _("Run Failed") : _("Run Finished"));
  if (error != NULL)
    g_notification_set_body (notification, error->message);
  else if (headline != NULL)
    g_notification_set_body (notification, headline);
  /* Clicking it activates the application, which presents this window. */
  g_application_send_notification (application, NOTIFICATION_ID, notification);
}

/* Once the user is back, the notification has served its purpose. */
static void
on_is_active_changed (RpWindow   *self,
                      GParamSpec *pspec,
                      gpointer    user_data)
{
  GtkApplication *application = gtk_window_get_application (GTK_WINDOW (self));

  if (application != NULL && gtk_window_is_active (GTK_WINDOW (self)))
    g_application_withdraw_notification (G_APPLICATION (application), NOTIFICATION_ID);
}

static void
on_final_summary (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GError) error = NULL;

  self->summary_busy = FALSE;
  report = rp_summary_view_refresh_finish (RP_SUMMARY_VIEW (object), result, &error);
  /* Destroyed meanwhile: dispose released the application already. */
  if (rp_window_is_gone (self))
    return;
  rp_window_show_verdict (self);
  notify_if_unattended (self);
  /* Saved before the hold of the run ends: the autosave holds the
   * application itself, so that quitting now loses nothing. A script that
   * named the report's file (--report-on-exit) has it there. */
  if (report != NULL && self->exit_report == NULL)
    rp_window_autosave (self, report);
  rp_window_release_application (self);
  rp_window_update_ui (self);

  /* Closed during the run: the window goes once the run is saved
   * (rp-window-recent.c). */
  if (self->close_when_finished && self->n_autosaves == 0 &&
      self->exit_report == NULL && self->exit_screenshot == NULL)
    {
      gtk_window_destroy (GTK_WINDOW (self));
      return;
    }
  if (self->exit_report != NULL || self->exit_screenshot != NULL)
    rp_window_save_exit_outputs (self);
}

static void
on_session_finished (RpSession *session,
                     RpWindow  *self)
{
  const GError *error = rp_session_get_error (session);

  g_clear_handle_id (&self->status_id, g_source_remove);
  rp_window_refresh_charts (self);
  rp_window_update_ui (self);

  if (error != NULL)
    {
      rp_window_show_toast (self, error->message);
      if (self->exit_report != NULL)
        rp_gui_printerr (error->message);
    }

  /* The last summary is the run's report: wait for it even if a periodic
   * refresh is running (the newer result wins). */
  self->summary_busy = TRUE;
  rp_summary_view_refresh_async (self->summary_view, session, self->cancellable,
                                 on_final_summary, g_object_ref (self));
}

static void
on_session_started (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(RpWindow) self = user_data;
  g_autoptr(GError) error = NULL;
  RpSession *session = RP_SESSION (object);

  if (session != self->session)
    return;

  if (!rp_session_start_finish (session, result, &error))
    {
      rp_window_show_toast (self, error->message);
      gtk_label_set_text (self->headline_label, _("Could Not Start"));
      gtk_label_set_text (self->verdict_label, error->message);
      self->start_failed = TRUE;
      rp_window_refresh_charts (self);
      if (self->exit_report != NULL || self->exit_screenshot != NULL)
        rp_gui_printerr (error->message);
      rp_window_release_application (self);
      rp_window_update_ui (self);
      if (self->close_when_finished || self->exit_report != NULL || self->exit_screenshot != NULL)
        gtk_window_destroy (GTK_WINDOW (self));
      return;
    }

  rp_window_show_sysinfo (self);
  rp_window_refresh_charts (self);
  self->status_id = g_timeout_add_seconds (STATUS_PERIOD_S, on_status_tick, self);
  g_source_set_name_by_id (self->status_id, "[resprobe] window status");
  rp_window_update_ui (self);
}

/* ------------------------------------------------------------------------- */
/* Start and stop */

/**
 * rp_window_reset_session:
 *
 * Forgets the run (stopped or finished): its signals are
 * no longer this window's.
 */
void
rp_window_reset_session (RpWindow *self)
{
  g_clear_handle_id (&self->status_id, g_source_remove);
  g_signal_group_set_target (self->session_signals, NULL);
  g_clear_object (&self->session);
  self->stop_requested = FALSE;
}

/**
 * rp_window_start:
 *
 * Starts a run with the settings in the form; an invalid setting is shown in
 * a toast and nothing starts.
 */
void
rp_window_start (RpWindow *self)
{
  g_autoptr(RpScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;

  g_return_if_fail (RP_IS_WINDOW (self));

  if (rp_window_get_busy (self))
    return;

  /* An entry whose text is not a value: its reason, not the last valid
   * value's run. */
  if (rp_window_form_get_error (self) != NULL)
    error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_INVALID_ARGUMENT, rp_window_form_get_error (self));
  else
    scenario = rp_run_settings_build_scenario (self->run_settings, &error);
  if (scenario == NULL)
    {
      rp_window_show_toast (self, error->message);
      if (self->exit_report != NULL || self->exit_screenshot != NULL)
        {
          rp_gui_printerr (error->message);
          gtk_window_destroy (GTK_WINDOW (self));
        }
      return;
    }
  rp_window_form_store (self);

  rp_window_reset_session (self);
  g_clear_object (&self->loaded_report);
  g_clear_object (&self->loaded_file);
  self->session = rp_session_new (scenario);
  self->start_failed = FALSE;
  self->run_duration = rp_run_settings_get_duration (self->run_settings);
  g_signal_group_set_target (self->session_signals, self->session);

  rp_summary_view_clear (self->summary_view);
  rp_window_show_sysinfo (self);
  rp_window_show_verdict (self);
  rp_window_refresh_charts (self);
  gtk_stack_set_visible_child_name (self->content_stack, "charts");

  /* Keep the application alive until the workers are joined and the files
   * removed, even if the window closes. */
  self->holding = G_APPLICATION (g_object_ref (gtk_window_get_application (GTK_WINDOW (self))));
  g_application_hold (self->holding);
  inhibit_session (self);
  g_application_withdraw_notification (self->holding, NOTIFICATION_ID);

  rp_session_start_async (self->session, self->cancellable, on_session_started, g_object_ref (self));
  rp_window_update_ui (self);
}

/**
 * rp_window_stop:
 *
 * Asks the run to stop and returns at once; the window shows "Finishing…"
 * until the workers have finished their current call.
 */
void
rp_window_stop (RpWindow *self)
{
  RpSessionState state;

  g_return_if_fail (RP_IS_WINDOW (self));

  state = rp_window_session_state (self);
  if (state != RP_SESSION_STARTING && state != RP_SESSION_RUNNING)
    return;
  self->stop_requested = TRUE;
  rp_session_stop (self->session);
  rp_window_update_ui (self);
}

static void
start_action (GtkWidget  *widget,
              const char *action_name,
              GVariant   *parameter)
{
  rp_window_start (RP_WINDOW (widget));
}

static void
stop_action (GtkWidget  *widget,
             const char *action_name,
             GVariant   *parameter)
{
  rp_window_stop (RP_WINDOW (widget));
}

/**
 * rp_window_run_class_init:
 *
 * Installs win.start (Ctrl+Enter) and win.stop (Ctrl+.).
 */
void
rp_window_run_class_init (GtkWidgetClass *widget_class)
{
  gtk_widget_class_install_action (widget_class, "win.start", NULL, start_action);
  gtk_widget_class_install_action (widget_class, "win.stop", NULL, stop_action);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Return, GDK_CONTROL_MASK, "win.start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_KP_Enter, GDK_CONTROL_MASK, "win.start", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_period, GDK_CONTROL_MASK, "win.stop", NULL);
}

/**
 * rp_window_run_init:
 *
 * Connects the signals of the session of each run through
 * signal groups: a new run retargets them, none is disconnected by hand.
 */
void
rp_window_run_init (RpWindow *self)
{
  self->session_signals = g_signal_group_new (RP_TYPE_SESSION);
  g_signal_group_connect_object (self->session_signals, "finished",
                                 G_CALLBACK (on_session_finished), self, 0);
  g_signal_group_connect_object (self->session_signals, "notify::state",
                                 G_CALLBACK (on_session_state), self, 0);

  g_signal_connect (self, "notify::is-active", G_CALLBACK (on_is_active_changed), NULL);
}
