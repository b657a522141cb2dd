/* rp-window-view.c: what the window shows: the charts, the header's status, the verdict, the system. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-chart-view.h"
#include "rp-gui-util.h"
#include "rp-plot.h"
#include "rp-plot-catalog.h"
#include "rp-report-io.h"
#include "rp-report-stalls.h"
#include "rp-sysinfo.h"
#include "rp-window-private.h"

/* ------------------------------------------------------------------------- */
/* Charts */

/* The charts of the catalog (engine/rp-plot-catalog.c), the same as in the
 * exported reports, at the catalog's places in a two-column grid. An optional
 * chart (writer threads, CPU benchmark) shows once one of its series exists;
 * a hidden one takes no room in the grid. */
static void
build_charts (RpWindow *self)
{
  guint n_plots = rp_plot_catalog_get_n_plots ();

  self->plots = g_ptr_array_new_full (n_plots, g_object_unref);
  self->views = g_ptr_array_new_full (n_plots, NULL);

  for (guint i = 0; i < n_plots; i++)
    {
      RpPlotPlacement placement;
      RpPlot *plot = rp_plot_catalog_new_plot (i, &placement);
      GtkWidget *view;

      rp_plot_set_placeholder (plot, _("Waiting for data…"));
      view = rp_chart_view_new (plot);
      gtk_widget_add_css_class (view, "card");
      gtk_widget_set_hexpand (view, TRUE);
      gtk_widget_set_vexpand (view, TRUE);
      gtk_widget_set_visible (view, !placement.optional);
      g_object_set_data (G_OBJECT (view), "rp-optional", GINT_TO_POINTER (placement.optional));
      g_object_set_data_full (G_OBJECT (view), "rp-placement",
                              g_memdup2 (&placement, sizeof placement), g_free);
      gtk_grid_attach (self->chart_grid, view, placement.column, placement.row, placement.width, 1);
      g_ptr_array_add (self->plots, plot);
      g_ptr_array_add (self->views, view);
    }
}

/**
 * rp_window_view_set_columns:
 * @n_columns: 2: the catalog's two-column grid; 1: one chart under the
 *   other, in the catalog's order (a narrow window)
 *
 * Lays the charts out again.
 */
void
rp_window_view_set_columns (RpWindow *self,
                            guint     n_columns)
{
  g_return_if_fail (n_columns == 1 || n_columns == 2);

  /* Narrow, the verdict's sentence wraps over the lines it needs: cut at
   * three it lost its end, the cause and its share ("(82 %)", issue 32).
   * The charts below stand in one scrolled column then, which a card that
   * grows by a line moves no further than scrolling does. */
  gtk_label_set_lines (self->verdict_label, n_columns == 2 ? 3 : -1);
  gtk_label_set_ellipsize (self->verdict_label, n_columns == 2 ? PANGO_ELLIPSIZE_END : PANGO_ELLIPSIZE_NONE);

  for (guint i = 0; i < self->views->len; i++)
    {
      GtkWidget *view = g_ptr_array_index (self->views, i);
      const RpPlotPlacement *placement = g_object_get_data (G_OBJECT (view), "rp-placement");
      GtkLayoutManager *layout = gtk_widget_get_layout_manager (GTK_WIDGET (self->chart_grid));
      GtkGridLayoutChild *child = GTK_GRID_LAYOUT_CHILD (gtk_layout_manager_get_layout_child (layout, view));
      /* One column: the catalog's places read row by row. */
      int row = n_columns == 2 ? placement->row : placement->row * 2 + placement->column;

      gtk_grid_layout_child_set_row (child, row);
      gtk_grid_layout_child_set_column (child, n_columns == 2 ? placement->column : 0);
      gtk_grid_layout_child_set_column_span (child, n_columns == 2 ? placement->width : 1);
    }
}

/* Binds the series there are now (a running session's, or a loaded
 * report's); series appear as workers and probes start. */
static void
bind_series (RpWindow *self)
{
  g_autoptr(GPtrArray) series = self->session ? rp_session_get_series (self->session) : NULL;
  gboolean complete = rp_window_session_state (self) >= RP_SESSION_RUNNING;

  if (self->session == NULL && self->loaded_report != NULL)
    {
      series = g_ptr_array_ref (rp_report_get_series (self->loaded_report));
      complete = TRUE;
    }

  for (guint i = 0; i < self->plots->len; i++)
    {
      RpPlot *plot = g_ptr_array_index (self->plots, i);
      GtkWidget *view = g_ptr_array_index (self->views, i);
      gboolean any = rp_plot_catalog_bind (i, plot, series);

      if (g_object_get_data (G_OBJECT (view), "rp-optional") != NULL)
        gtk_widget_set_visible (view, any);
      /* Once the workers run, a series that is missing will not come; after
       * a start that failed, none will. */
      if (self->start_failed && self->session != NULL)
        rp_plot_set_placeholder (plot, _("Nothing measured: the run could not start"));
      else
        rp_plot_set_placeholder (plot, !any && complete
                                       ? _("Not measured in this scenario")
                                       : _("Waiting for data…"));
    }
}

/* How long the run shown lasts in all, seconds, 0 when it runs until it is
 * stopped or its load is done: the duration asked for plus the baseline,
 * which the session adds before it (rp_session_get_baseline()), so that
 * the elapsed time, the total and the progress count the same span. */
static double
planned_seconds (RpWindow *self)
{
  if (self->session == NULL || self->run_duration <= 0)
    return 0;
  return self->run_duration + rp_session_get_baseline (self->session);
}

/* A live chart keeps its time range fixed for as long as possible (the
 * decimation cache stays valid): the planned duration, or steps that grow
 * ahead of the elapsed time. A finished run fits its data. */
static double
chart_time_end (RpWindow *self)
{
  static const double steps[] = { 30, 60, 120, 300, 600, 1200, 1800, 3600, 7200, 14400, 43200, 86400 };
  double elapsed = self->session ? rp_session_get_elapsed (self->session) : 0;
  double duration = planned_seconds (self);

  if (self->session == NULL && self->loaded_report != NULL)
    return MAX (rp_report_get_duration (self->loaded_report), 1);
  if (rp_window_session_state (self) == RP_SESSION_FINISHED)
    return MAX (elapsed, 1);
  if (duration > 0)
    return duration;
  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] >= elapsed * 1.1)
      return steps[i];
  return elapsed * 1.5;
}

/**
 * rp_window_refresh_charts:
 *
 * Binds the series there are now and redraws the charts that got points.
 */
void
rp_window_refresh_charts (RpWindow *self)
{
  double t_end = chart_time_end (self);

  bind_series (self);
  for (guint i = 0; i < self->plots->len; i++)
    rp_plot_set_time_range (g_ptr_array_index (self->plots, i), 0, t_end);
  /* Stalls as spans, and calls still in flight as bars growing to now. */
  if (self->session != NULL)
    {
      g_autoptr(GPtrArray) stalls = rp_session_get_stalls (self->session);
      g_autoptr(GPtrArray) flying = rp_session_get_in_flight (self->session, RP_STALL_MIN_SECONDS);

      rp_plot_catalog_set_stalls (self->plots, stalls, flying);
      rp_plot_catalog_set_baseline (self->plots, rp_session_get_baseline (self->session));
    }
  else if (self->loaded_report != NULL)
    {
      rp_plot_catalog_set_stalls (self->plots, rp_report_get_stalls (self->loaded_report), NULL);
      rp_plot_catalog_set_baseline (self->plots, rp_report_get_baseline (self->loaded_report));
    }

  /* New points do not change the plots' properties: redraw explicitly, but
   * only the charts that got points (painting is main-thread time, which the
   * main-loop probe would otherwise measure as our own lateness). */
  for (GtkWidget *child = gtk_widget_get_first_child (GTK_WIDGET (self->chart_grid));
       child != NULL; child = gtk_widget_get_next_sibling (child))
    rp_chart_view_refresh (RP_CHART_VIEW (child));
}

/* ------------------------------------------------------------------------- */
/* Chart options (Preferences) */

/* The charts of latencies (the catalog gives them the limit lines and a log
 * axis), as opposed to rates, sizes and shares. */
static gboolean
is_latency_plot (RpPlot *plot)
{
  return g_str_equal (rp_plot_get_unit (plot), "s");
}

/* The limit lines can be hidden (Preferences); the log axis is bound to each
 * latency plot's "log-y" property in bind_settings(). */
static void
apply_limit_lines (RpWindow *self)
{
  gboolean show = self->settings == NULL ||
                  g_settings_get_boolean (self->settings, "show-limit-lines");

  for (guint i = 0; i < self->plots->len; i++)
    {
      RpPlot *plot = g_ptr_array_index (self->plots, i);

      if (!is_latency_plot (plot))
        continue;
      rp_plot_clear_thresholds (plot);
      if (!show)
        continue;
      rp_plot_add_limit (plot, RP_LIMIT_INSTANT);
      rp_plot_add_limit (plot, RP_LIMIT_FLOW);
    }
}

/* The charts follow the settings as they change (G_SETTINGS_BIND_GET), so
 * that a change in Preferences shows at once in every idle window. */
static void
bind_chart_settings (RpWindow *self)
{
  if (self->settings == NULL)
    return;
  for (guint i = 0; i < self->plots->len; i++)
    if (is_latency_plot (g_ptr_array_index (self->plots, i)))
      g_settings_bind (self->settings, "log-scale-latency",
                       g_ptr_array_index (self->plots, i), "log-y", G_SETTINGS_BIND_GET);
  g_signal_connect_object (self->settings, "changed::show-limit-lines",
                           G_CALLBACK (apply_limit_lines), self, G_CONNECT_SWAPPED);
}

/**
 * rp_window_view_init:
 *
 * Builds the charts of the catalog, bound to the chart options.
 */
void
rp_window_view_init (RpWindow *self)
{
  build_charts (self);
  bind_chart_settings (self);
  apply_limit_lines (self);
}

/* ------------------------------------------------------------------------- */
/* Status */

/**
 * rp_window_show_sysinfo:
 *
 * The system line and its warnings, of the run or of the opened report.
 */
void
rp_window_show_sysinfo (RpWindow *self)
{
  const RpSysinfo *sysinfo = self->session ? rp_session_get_sysinfo (self->session) : NULL;
  g_auto(GStrv) warnings = NULL;
  g_autofree char *described = NULL;
  g_autofree char *details = NULL;
  g_autofree char *joined = NULL;

  if (sysinfo == NULL && self->session == NULL && self->loaded_report != NULL)
    sysinfo = rp_report_get_sysinfo (self->loaded_report);
  if (sysinfo == NULL)
    {
      gtk_label_set_text (self->details_label, "");
      gtk_widget_set_visible (GTK_WIDGET (self->warning_label), FALSE);
      return;
    }
  described = rp_sysinfo_describe (sysinfo);
  details = rp_gui_keep_units (described);
  gtk_label_set_text (self->details_label, details);

  warnings = rp_sysinfo_get_warnings (sysinfo);
  joined = warnings ? g_strjoinv ("\n", warnings) : NULL;
  gtk_label_set_text (self->warning_label, joined ? joined : "");
  gtk_widget_set_visible (GTK_WIDGET (self->warning_label), joined != NULL && *joined != '\0');
}

static char *
format_seconds (double seconds)
{
  guint64 whole = (guint64) MAX (seconds, 0);

  if (seconds < 120)
    /* TRANSLATORS: elapsed time in seconds */
    return g_strdup_printf (_("%.0f s"), seconds);
  if (whole < 3600)
    /* TRANSLATORS: elapsed time in minutes and seconds */
    return g_strdup_printf (_("%u:%02u min"), (guint) (whole / 60), (guint) (whole % 60));
  /* TRANSLATORS: elapsed time in hours, minutes and seconds (a run lasts up
   * to 30 days: "720:00:00 h") */
  return g_strdup_printf (_("%u:%02u:%02u h"), (guint) MIN (whole / 3600, G_MAXUINT),
                          (guint) (whole % 3600 / 60), (guint) (whole % 60));
}

static char *
running_subtitle (RpWindow *self)
{
  double elapsed = rp_session_get_elapsed (self->session);
  double duration = planned_seconds (self);
  g_autofree char *elapsed_text = format_seconds (MIN (elapsed, duration > 0 ? duration : elapsed));

  if (duration > 0)
    {
      g_autofree char *duration_text = format_seconds (duration);

      /* TRANSLATORS: window subtitle during a run, e.g. "Running · 12 s of 60 s" */
      return g_strdup_printf (_("Running · %s of %s"), elapsed_text, duration_text);
    }
  /* TRANSLATORS: window subtitle during a run without a fixed duration */
  return g_strdup_printf (_("Running · %s"), elapsed_text);
}

/* The longest call that has not returned for over a second, e.g. "fsync
 * in flight for 8.2 s": the worst moment of a run, while it lasts. */
static char *
in_flight_text (RpWindow *self)
{
  g_autoptr(GPtrArray) flying = rp_session_get_in_flight (self->session, RP_LIMIT_FLOW);
  const RpStall *longest = NULL;

  for (guint i = 0; i < flying->len; i++)
    if (longest == NULL || ((RpStall *) flying->pdata[i])->duration > longest->duration)
      longest = flying->pdata[i];
  if (longest == NULL)
    return NULL;
  /* TRANSLATORS: window subtitle: "fsync in flight for 8.2 s" */
  return g_strdup_printf (_("%s in flight for %.1f s"), rp_stall_call_name (longest->series),
                          longest->duration);
}

static void
update_progress (RpWindow *self)
{
  RpSessionState state = rp_window_session_state (self);
  double duration = planned_seconds (self);

  if (state == RP_SESSION_RUNNING && duration > 0)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
      gtk_progress_bar_set_fraction (self->progress_bar,
                                     CLAMP (rp_session_get_elapsed (self->session) / duration, 0, 1));
    }
  else if (state == RP_SESSION_STARTING || state == RP_SESSION_STOPPING ||
           (state == RP_SESSION_RUNNING && duration <= 0))
    {
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), TRUE);
      gtk_progress_bar_pulse (self->progress_bar);
    }
  else
    {
      gtk_widget_set_visible (GTK_WIDGET (self->progress_bar), FALSE);
    }
}

static void
set_run_button (RpWindow   *self,
                const char *label,
                const char *action,
                const char *style,
                gboolean    spinning)
{
  /* Called every second: restyling an unchanged button would still cost a
   * CSS recomputation and a repaint of the header bar. */
  if (g_strcmp0 (gtk_label_get_label (self->run_label), label) == 0 &&
      gtk_widget_get_visible (GTK_WIDGET (self->run_spinner)) == spinning)
    return;

  gtk_label_set_text_with_mnemonic (self->run_label, label);
  gtk_actionable_set_action_name (GTK_ACTIONABLE (self->run_button), action);
  gtk_widget_remove_css_class (GTK_WIDGET (self->run_button), "suggested-action");
  gtk_widget_remove_css_class (GTK_WIDGET (self->run_button), "destructive-action");
  if (style != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->run_button), style);
  gtk_widget_set_visible (GTK_WIDGET (self->run_spinner), spinning);
  gtk_spinner_set_spinning (self->run_spinner, spinning);
}

/* The header button's tooltip says what it does now, and when Start is
 * disabled, why (a tooltip shows on a disabled button too). */
static void
update_run_tooltip (RpWindow       *self,
                    RpSessionState  state)
{
  const char *form_error = rp_window_form_get_error (self);
  g_autofree char *text = NULL;

  if (state == RP_SESSION_STARTING || state == RP_SESSION_RUNNING || state == RP_SESSION_STOPPING)
    text = g_strdup (self->stop_requested || state == RP_SESSION_STOPPING
                     ? _("Finishing the run: waiting for the last disk calls")
                     : _("Stop the run (Ctrl+.)"));
  else if (rp_window_get_busy (self))
    text = g_strdup (_("Saving the run…"));
  else if (form_error != NULL)
    /* TRANSLATORS: tooltip of the disabled Start button; %s: why, e.g.
     * "Data to write: “4X” is not a size" */
    text = g_strdup_printf (_("Cannot start: %s"), form_error);
  else
    text = g_strdup (_("Start the run (Ctrl+Enter)"));
  if (g_strcmp0 (gtk_widget_get_tooltip_text (GTK_WIDGET (self->run_button)), text) != 0)
    gtk_widget_set_tooltip_text (GTK_WIDGET (self->run_button), text);
}

/* An opened report: its file, and how long the run was. */
static char *
loaded_subtitle (RpWindow *self)
{
  g_autofree char *name = self->loaded_file ? rp_report_io_display_name (self->loaded_file) : NULL;
  /* As the text report and the comparisons give it: "3.5 s (stopped)". */
  g_autofree char *duration = rp_report_format_duration (self->loaded_report);

  if (name == NULL)
    /* TRANSLATORS: window subtitle of an opened report, e.g. "Report · 20 s" */
    return g_strdup_printf (_("Report · %s"), duration);
  /* TRANSLATORS: window subtitle of an opened report, e.g. "run.json · 20 s" */
  return g_strdup_printf (_("%s · %s"), name, duration);
}

/**
 * rp_window_update_ui:
 *
 * The header (Start/Stop, subtitle, progress) and which actions are enabled,
 * from the state of the run; every second during a run.
 */
void
rp_window_update_ui (RpWindow *self)
{
  RpSessionState state = rp_window_session_state (self);
  gboolean busy = rp_window_get_busy (self);
  g_autofree char *subtitle = NULL;

  /* Disposed: its template children are gone, and an actionable's helper
   * must not be pointed at another action of a muxer being torn down. */
  if (rp_window_is_gone (self))
    return;

  switch (state)
    {
    case RP_SESSION_STARTING:
      /* Preparing can take a while (the copy loop creates its source file):
       * let the user give up. */
      set_run_button (self, _("_Stop"), "win.stop", "destructive-action", TRUE);
      subtitle = g_strdup (_("Preparing the test files…"));
      break;
    case RP_SESSION_RUNNING:
      if (self->stop_requested)
        {
          set_run_button (self, _("Finishing…"), "win.stop", NULL, TRUE);
          subtitle = g_strdup (_("Finishing…"));
          break;
        }
      set_run_button (self, _("_Stop"), "win.stop", "destructive-action", FALSE);
      subtitle = running_subtitle (self);
      {
        g_autofree char *flying = in_flight_text (self);

        if (flying != NULL)
          {
            char *both = g_strconcat (subtitle, " · ", flying, NULL);

            g_free (subtitle);
            subtitle = both;
          }
      }
      break;
    case RP_SESSION_STOPPING:
      set_run_button (self, _("Finishing…"), "win.stop", NULL, TRUE);
      /* A worker in fsync() cannot be interrupted; say why it takes a while. */
      subtitle = g_strdup (_("Finishing… waiting for the disk"));
      break;
    case RP_SESSION_FINISHED:
    case RP_SESSION_IDLE:
    default:
      set_run_button (self, _("_Start"), "win.start", "suggested-action", busy);
      if (state == RP_SESSION_FINISHED)
        {
          g_autofree char *elapsed = format_seconds (rp_session_get_elapsed (self->session));

          /* A run stopped by hand says so, as the CLI and the exports do. */
          if (self->stop_requested)
            /* TRANSLATORS: window subtitle after a run stopped by hand, e.g. "Stopped after 20 s" */
            subtitle = g_strdup_printf (_("Stopped after %s"), elapsed);
          else
            /* TRANSLATORS: window subtitle after a run, e.g. "Finished after 20 s" */
            subtitle = g_strdup_printf (_("Finished after %s"), elapsed);
        }
      else if (self->loaded_report != NULL)
        subtitle = loaded_subtitle (self);
      break;
    }

  adw_window_title_set_subtitle (self->window_title, subtitle ? subtitle : "");
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.start", !busy && rp_window_form_get_error (self) == NULL);
  update_run_tooltip (self, state);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.stop",
                                 (state == RP_SESSION_STARTING || state == RP_SESSION_RUNNING) &&
                                 !self->stop_requested);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-folder", !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.choose-load-folder", !busy);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "win.clear-load-folder",
                                 !busy && rp_run_settings_get_load_directory (self->run_settings) != NULL);
  rp_window_reports_update (self, busy);
  /* A field that has the focus when the form turns insensitive (Ctrl+Enter
   * in it) loses it without being told, and its cursor blink then warns
   * "GtkText - did not receive a focus-out event": hand the focus to the
   * Stop button first, which is what the user acts on next. */
  if (busy && gtk_widget_get_sensitive (GTK_WIDGET (self->run_group)))
    {
      GtkWidget *focus = gtk_root_get_focus (GTK_ROOT (self));

      if (focus != NULL && gtk_widget_is_ancestor (focus, GTK_WIDGET (self->run_group)))
        gtk_widget_grab_focus (GTK_WIDGET (self->run_button));
    }
  gtk_widget_set_sensitive (GTK_WIDGET (self->run_group), !busy);
  update_progress (self);
}

static void show_verdict (RpWindow *self);

/**
 * rp_window_show_verdict:
 *
 * The verdict card: the summary's headline and verdict, or the failure;
 * nothing once the window is disposed (a refresh that ends late).
 */
void
rp_window_show_verdict (RpWindow *self)
{
  if (!rp_window_is_gone (self))
    show_verdict (self);
}

static void
show_verdict (RpWindow *self)
{
  const char *headline = rp_summary_view_get_headline (self->summary_view);
  /* The card keeps one sentence in a fixed height, so that the charts
   * below keep their place as a run goes on (issue 21); the per-probe
   * sentences are the Results table's rows and the card's tooltip. */
  const char *verdict = rp_summary_view_get_short_verdict (self->summary_view);
  const char *details = rp_summary_view_get_verdict (self->summary_view);
  const GError *error = self->session ? rp_session_get_error (self->session) : NULL;
  const char *failure = error ? error->message : NULL;
  static const char *classes[] = { NULL, "success", "warning", "error", "error" };
  RpSeverity severity = rp_summary_view_get_severity (self->summary_view);

  /* The Why section follows the verdict: same refresh, same run. */
  rp_why_view_show (self->why_view, rp_summary_view_get_stall_cause (self->summary_view),
                    rp_summary_view_get_why (self->summary_view));

  /* An opened report of a failed run says so as the run did. */
  if (self->session == NULL && self->loaded_report != NULL)
    failure = rp_report_get_error_message (self->loaded_report);

  /* The headline takes the colour of its response-time band. */
  for (guint i = 1; i < G_N_ELEMENTS (classes); i++)
    gtk_widget_remove_css_class (GTK_WIDGET (self->headline_label), classes[i]);
  if (failure != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->headline_label), "error");
  else if (severity < G_N_ELEMENTS (classes) && classes[severity] != NULL)
    gtk_widget_add_css_class (GTK_WIDGET (self->headline_label), classes[severity]);

  gtk_label_set_text (self->headline_label, headline ? headline : _("Measuring…"));
  if (failure != NULL)
    {
      g_autofree char *text = g_strdup_printf (_("The run stopped early: %s"), failure);

      gtk_label_set_text (self->headline_label, _("Run Failed"));
      gtk_label_set_text (self->verdict_label, text);
      gtk_widget_set_tooltip_text (GTK_WIDGET (self->verdict_label), text);
      return;
    }
  gtk_label_set_text (self->verdict_label,
                      verdict ? verdict : _("The first results appear within a few seconds."));
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->verdict_label), details);
}
