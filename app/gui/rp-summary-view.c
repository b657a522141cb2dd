/* rp-summary-view.c: per-probe p50/p99/max and the plain-language verdict of a run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-gui-util.h"
#include "rp-report-stalls.h"
#include "rp-stream-stats.h"
#include "rp-summary-view.h"
#include "rp-units.h"
#include "rp-why-view.h"

/* The rows are those of the run summary (rp-run-summary.h): every series
 * of the parts table marked for the summary, in rank order. */
#define N_ROWS (rp_run_summary_get_n_rows ())
#define N_VALUE_COLUMNS 4

/* A row's label and its median, p99, worst and how many samples they rest on. */
typedef GtkLabel *RowCells[1 + N_VALUE_COLUMNS];

/* A running session's probes, followed from refresh to refresh: each
 * refresh reads only the samples appended since the previous one, so that
 * its cost and memory do not grow with the run (a report snapshot copied
 * and sorted every sample, every time). Shared with the refresh tasks. */
typedef struct {
  RpSession      *session;
  RpStreamStats **stats;         /* one per row */
  /* What ran meanwhile for stalls that are over (rp_why_items_collect_live()):
   * "series@start" → label/value pairs. Refreshes overlap at the run's end
   * (the final one does not wait): under @lock. */
  GMutex          lock;
  GHashTable     *settled;
} Live;

/* What one refresh works from: a report, a finished session (its report,
 * with exact statistics), or a running one's live statistics. */
typedef struct {
  GObject   *source;
  Live      *live;
  RpSysinfo *sysinfo;    /* of the live session, copied on the main thread */
} Request;

/* What a refresh computes off the main thread. */
typedef struct {
  RpReport     *report;      /* NULL for a live summary */
  RpRunSummary *rows;
  char         *verdict;
  char         *short_verdict; /* the card's one sentence */
  RpSeverity    severity;
  char         *cause;       /* the stalls' dominant cause; NULL live */
  GPtrArray    *why;         /* (element-type RpWhyItem) the longest stalls */
} Summary;

struct _RpSummaryView
{
  GtkWidget  parent_instance;

  GtkGrid   *grid;
  GtkWidget *placeholder;
  RowCells  *cells;      /* N_ROWS rows */

  RpReport  *report;
  Live      *live;       /* while a session runs */
  char      *headline;
  char      *verdict;
  char      *short_verdict;
  RpSeverity severity;
  char      *cause;
  GPtrArray *why;        /* (element-type RpWhyItem) */
  guint      generation;
};

G_DEFINE_FINAL_TYPE (RpSummaryView, rp_summary_view, GTK_TYPE_WIDGET)

enum {
  PROP_0,
  PROP_REPORT,
  PROP_HEADLINE,
  PROP_VERDICT,
  N_PROPS
};

static GParamSpec *properties[N_PROPS];

static void
live_clear (gpointer data)
{
  Live *live = data;

  g_clear_object (&live->session);
  g_clear_pointer (&live->settled, g_hash_table_unref);
  g_mutex_clear (&live->lock);
  for (guint i = 0; i < N_ROWS; i++)
    g_clear_pointer (&live->stats[i], rp_stream_stats_free);
  g_free (live->stats);
}

static Live *
live_new (RpSession *session)
{
  Live *live = g_atomic_rc_box_new0 (Live);

  live->session = g_object_ref (session);
  g_mutex_init (&live->lock);
  live->settled = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_ptr_array_unref);
  live->stats = g_new0 (RpStreamStats *, N_ROWS);
  for (guint i = 0; i < N_ROWS; i++)
    live->stats[i] = rp_stream_stats_new ();
  return live;
}

static void
live_unref (Live *live)
{
  g_atomic_rc_box_release_full (live, live_clear);
}

static void
request_free (gpointer data)
{
  Request *request = data;

  g_clear_object (&request->source);
  g_clear_pointer (&request->live, live_unref);
  g_clear_pointer (&request->sysinfo, rp_sysinfo_free);
  g_free (request);
}

static void
summary_free (gpointer data)
{
  Summary *summary = data;

  g_clear_object (&summary->report);
  g_clear_pointer (&summary->rows, rp_run_summary_free);
  g_free (summary->verdict);
  g_free (summary->short_verdict);
  g_free (summary->cause);
  g_clear_pointer (&summary->why, g_ptr_array_unref);
  g_free (summary);
}

static RpSeries *
lookup_in_session (gpointer    owner,
                   const char *name)
{
  return rp_session_lookup_series (owner, name);
}

/* What the judgement needs of a running session beside the rows: its
 * notes, its late frames so far, its longest call in flight, each row's
 * own cause so far. The sentences are the judgement's (rp-run-summary.c);
 * this view only shows them. */
static void
judge_live (Summary         *summary,
            Live            *live,
            const RpSysinfo *sysinfo)
{
  g_autoptr(GHashTable) notes = rp_session_get_notes (live->session);
  g_autoptr(GPtrArray) flying = rp_session_get_in_flight (live->session, RP_STALL_MIN_SECONDS);
  g_autoptr(GPtrArray) stalls = rp_session_get_stalls (live->session);
  RpSeries *late = rp_session_lookup_series (live->session, RP_SERIES_LATE_FRAMES);
  const RpStall *longest = NULL;

  rp_run_summary_set_notes (summary->rows, notes);
  rp_run_summary_set_live (summary->rows, TRUE);
  if (late != NULL && g_hash_table_lookup (notes, "late_frames") == NULL)
    rp_run_summary_set_late_frames (summary->rows, 0, rp_series_get_length (late));
  for (guint i = 0; i < flying->len; i++)
    if (longest == NULL || ((RpStall *) flying->pdata[i])->duration > longest->duration)
      longest = flying->pdata[i];
  if (longest != NULL)
    rp_run_summary_set_in_flight (summary->rows, rp_stall_call_name (longest->series), longest->duration);
  for (guint row = 0; row < summary->rows->n_rows; row++)
    {
      g_autofree char *cause = rp_stalls_get_call_cause_short (stalls, rp_run_summary_get_row_info (row)->name,
                                                               lookup_in_session, live->session, sysinfo);

      rp_run_summary_set_row_cause (summary->rows, row, cause);
    }
}

/* Reads what the probes' series gained since the last refresh. A series
 * may appear during the run (the GUI adds its own probes' series). */
static void
summarize_live (Summary *summary,
                Live    *live)
{
  for (guint i = 0; i < N_ROWS; i++)
    {
      RpSeries *series = rp_session_lookup_series (live->session, rp_run_summary_get_row_info (i)->name);
      RpStats stats;

      if (series == NULL)
        continue;
      rp_stream_stats_follow (live->stats[i], series);
      rp_stream_stats_get (live->stats[i], &stats);
      rp_run_summary_set_row (summary->rows, i, &stats);
    }
}

/* Runs in a GTask thread. A running session: its live statistics, at the
 * cost of the samples that are new since the last refresh. A report, or a
 * finished session's: the exact statistics of rp-stats.c, which copy and
 * sort each series once (milliseconds on a long run). */
/* The Why section's description: the dominant cause and, when the run
 * could not trace the kernel (polkit refused resprobed, asking it is off),
 * why its journal commits and device latency are missing: the section is
 * where a user looks for what explains the stalls, and the verdict card's
 * one sentence leaves it to the tooltip. The verdict's own sentence, so
 * that the CLI and the window say it alike. */
static char *
why_description (const RpRunSummary *rows)
{
  g_autofree char *missing = NULL;

  if (rows->cause == NULL || rows->kernel_events_unavailable == NULL)
    return g_strdup (rows->cause);
  /* TRANSLATORS: %s is why, e.g. "Kernel events need root (or write access to /sys/kernel/tracing/instances)" */
  missing = g_strdup_printf (_("%s: journal commits and device latency were not recorded."),
                             rows->kernel_events_unavailable);
  return g_strdup_printf ("%s %s", rows->cause, missing);
}

static void
refresh_in_thread (GTask        *task,
                   gpointer      source_object,
                   gpointer      task_data,
                   GCancellable *cancellable)
{
  Request *request = task_data;
  Summary *summary = g_new0 (Summary, 1);

  if (request->live != NULL)
    {
      summary->rows = rp_run_summary_new ();
      summarize_live (summary, request->live);
      g_mutex_lock (&request->live->lock);
      summary->why = rp_why_items_collect_live (request->live->session, request->live->settled,
                                                RP_WHY_MAX_STALLS);
      g_mutex_unlock (&request->live->lock);
    }
  else
    {
      summary->report = RP_IS_REPORT (request->source)
                          ? g_object_ref (RP_REPORT (request->source))
                          : rp_report_new_from_session (RP_SESSION (request->source));
      summary->rows = rp_report_get_summary (summary->report);
      summary->cause = why_description (summary->rows);
      summary->why = rp_why_items_collect (summary->report, rp_report_get_stalls (summary->report),
                                           RP_WHY_MAX_STALLS);
    }
  if (request->live != NULL)
    judge_live (summary, request->live, request->sysinfo);
  summary->severity = rp_run_summary_get_severity (summary->rows);
  summary->verdict = rp_run_summary_get_verdict (summary->rows, request->live != NULL ? request->sysinfo
                                                                                    : rp_report_get_sysinfo (summary->report));
  summary->short_verdict = rp_run_summary_get_short_verdict (summary->rows);
  g_task_return_pointer (task, summary, summary_free);
}

/* GtkLabel compares the text: an unchanged cell queues no resize, so only
 * the cells whose figure changed make the grid measure again. */
static void
set_cell (RpSummaryView *self,
          guint          row,
          guint          column,
          const char    *text)
{
  g_autofree char *whole = rp_gui_keep_units (text);

  gtk_label_set_text (self->cells[row][column], whole);
}

static void
show_summary (RpSummaryView *self,
              const Summary *summary)
{
  gboolean any = summary->rows != NULL && rp_run_summary_has_samples (summary->rows);
  /* The headers only make sense above numbers. */
  for (guint c = 0; c <= N_VALUE_COLUMNS; c++)
    gtk_widget_set_visible (gtk_grid_get_child_at (self->grid, c, 0), any);
  gtk_widget_set_visible (self->placeholder, !any);

  for (guint i = 0; i < N_ROWS; i++)
    {
      const RpStats *stats = summary->rows ? &summary->rows->stats[i] : NULL;
      gboolean visible = stats != NULL && summary->rows->present[i] && stats->n > 0;

      for (guint c = 0; c <= N_VALUE_COLUMNS; c++)
        gtk_widget_set_visible (GTK_WIDGET (self->cells[i][c]), visible);
      if (!visible)
        continue;
      {
        g_autofree char *p50 = rp_format_latency (stats->p50);
        g_autofree char *p99 = rp_format_latency (stats->p99);
        g_autofree char *max = rp_format_latency (stats->max);
        g_autofree char *n = g_strdup_printf ("%" G_GUINT64_FORMAT, stats->n);

        set_cell (self, i, 1, p50);
        set_cell (self, i, 2, p99);
        set_cell (self, i, 3, max);
        set_cell (self, i, 4, n);
      }
    }
}

/* The texts are the window's to show: numbers keep their units on their
 * line (rp_gui_keep_units()). */
static void
set_text_property (RpSummaryView *self,
                   char         **field,
                   const char    *value,
                   guint          prop_id)
{
  g_autofree char *whole = rp_gui_keep_units (value);

  if (g_strcmp0 (*field, whole) == 0)
    return;
  g_free (*field);
  *field = g_steal_pointer (&whole);
  g_object_notify_by_pspec (G_OBJECT (self), properties[prop_id]);
}

static void
on_refreshed (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) outer = user_data;
  RpSummaryView *self = g_task_get_source_object (outer);
  GError *error = NULL;
  Summary *summary;

  summary = g_task_propagate_pointer (G_TASK (result), &error);
  if (summary == NULL)
    {
      g_task_return_error (outer, error);
      return;
    }

  /* A refresh started earlier may finish later: show only the newest. */
  if (GPOINTER_TO_UINT (g_object_get_data (G_OBJECT (result), "rp-generation")) == self->generation)
    {
      show_summary (self, summary);
      if (g_set_object (&self->report, summary->report))
        g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
      self->severity = summary->severity;
      g_free (self->cause);
      self->cause = g_strdup (summary->cause);
      g_clear_pointer (&self->why, g_ptr_array_unref);
      self->why = summary->why != NULL ? g_ptr_array_ref (summary->why) : NULL;
      set_text_property (self, &self->headline, rp_run_summary_get_headline (summary->rows, summary->report != NULL), PROP_HEADLINE);
      g_free (self->short_verdict);
      self->short_verdict = rp_gui_keep_units (summary->short_verdict);
      set_text_property (self, &self->verdict, summary->verdict, PROP_VERDICT);
    }
  g_task_return_pointer (outer, summary->report ? g_object_ref (summary->report) : NULL,
                         g_object_unref);
  summary_free (summary);
}

/* The live statistics of @session, kept from one refresh to the next; new
 * ones for another session. */
static Live *
live_for (RpSummaryView *self,
          RpSession     *session)
{
  if (self->live != NULL && self->live->session != session)
    g_clear_pointer (&self->live, live_unref);
  if (self->live == NULL)
    self->live = live_new (session);
  return g_atomic_rc_box_acquire (self->live);
}

/* What a refresh of @source works from (see Request). Decided here, on the
 * main thread, where the session's state changes. */
static Request *
request_new (RpSummaryView *self,
             GObject       *source)
{
  Request *request = g_new0 (Request, 1);
  RpSession *session = RP_IS_SESSION (source) ? RP_SESSION (source) : NULL;

  if (session != NULL && rp_session_get_state (session) != RP_SESSION_FINISHED)
    {
      const RpSysinfo *sysinfo = rp_session_get_sysinfo (session);

      request->live = live_for (self, session);
      request->sysinfo = sysinfo != NULL ? rp_sysinfo_copy (sysinfo) : NULL;
      return request;
    }
  /* The run is over (or this is a report): exact figures from now on. */
  g_clear_pointer (&self->live, live_unref);
  request->source = g_object_ref (source);
  return request;
}

static void
start_refresh (RpSummaryView       *self,
               GObject             *source,
               GCancellable        *cancellable,
               GAsyncReadyCallback  callback,
               gpointer             user_data)
{
  GTask *outer, *inner;

  outer = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (outer, rp_summary_view_refresh_async);

  /* The view is the source of @outer only, which ends on the main thread:
   * the worker may drop @inner last, and a view it held would be finalized
   * there (issue 30). */
  inner = g_task_new (NULL, cancellable, on_refreshed, outer);
  g_object_set_data (G_OBJECT (inner), "rp-generation", GUINT_TO_POINTER (++self->generation));
  g_task_set_task_data (inner, request_new (self, source), request_free);
  g_task_run_in_thread (inner, refresh_in_thread);
  g_object_unref (inner);
}

/**
 * rp_summary_view_refresh_async:
 * @session: a started session
 * @cancellable: (nullable): to give up waiting
 * @callback: receives the report the summary was computed from, if any;
 *   finish with rp_summary_view_refresh_finish()
 *
 * Shows the session's statistics and verdict, computed on a worker thread,
 * unless a later refresh was started meanwhile (its result wins).
 *
 * While the session runs, the figures come from running statistics of each
 * probe's series (rp-stream-stats.h), which each refresh updates with the
 * samples appended since the previous one: its cost follows the new
 * samples, not the length of the run, and memory stays flat. Counts,
 * worst values and the verdict are exact; the median and p99 are estimated
 * to within %RP_HISTOGRAM_RELATIVE_ERROR (0.5 %) of the exact value (see
 * rp_histogram_percentile()): at most about one unit of the last of
 * the three digits shown. Such a
 * refresh has no report (the callback gets %NULL, #RpSummaryView:report
 * becomes %NULL).
 *
 * Once the session has finished, the refresh builds its report
 * (rp_report_new_from_session()) and shows the report's exact statistics
 * (rp_stats_compute()), as for a report opened from a file.
 */
void
rp_summary_view_refresh_async (RpSummaryView       *self,
                               RpSession           *session,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (RP_IS_SUMMARY_VIEW (self));
  g_return_if_fail (RP_IS_SESSION (session));

  start_refresh (self, G_OBJECT (session), cancellable, callback, user_data);
}

/**
 * rp_summary_view_show_report_async:
 * @report: a finished run's report, e.g. one opened from a file
 * @cancellable: (nullable): to give up waiting
 * @callback: receives @report; finish with rp_summary_view_refresh_finish()
 *
 * Like rp_summary_view_refresh_async() for a report that exists already:
 * its statistics and verdict are computed on a worker thread, then shown
 * (unless a later refresh was started meanwhile).
 */
void
rp_summary_view_show_report_async (RpSummaryView       *self,
                                   RpReport            *report,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  g_return_if_fail (RP_IS_SUMMARY_VIEW (self));
  g_return_if_fail (RP_IS_REPORT (report));

  start_refresh (self, G_OBJECT (report), cancellable, callback, user_data);
}

/**
 * rp_summary_view_refresh_finish:
 *
 * Returns: (transfer full) (nullable): the report of this refresh; %NULL for
 *   a refresh of a running session (live figures, no report) or on error
 */
RpReport *
rp_summary_view_refresh_finish (RpSummaryView  *self,
                                GAsyncResult   *result,
                                GError        **error)
{
  g_return_val_if_fail (RP_IS_SUMMARY_VIEW (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* The table's spacing, px: roomy beside the charts; compact where the
 * sidebar is the phone's whole width, where German headers and four
 * columns of "48,9 ms" held the window at 383 px with 12 (issue 32's
 * screenshots at 360 px). */
#define SPACING 12
#define COMPACT_SPACING 6

/**
 * rp_summary_view_set_compact:
 * @compact: whether the table is as narrow as a phone's screen allows
 *
 * Narrows the spaces between and around the table's columns from 12 to
 * 6 px, for a window folded to its sidebar.
 */
void
rp_summary_view_set_compact (RpSummaryView *self,
                             gboolean       compact)
{
  int spacing = compact ? COMPACT_SPACING : SPACING;

  g_return_if_fail (RP_IS_SUMMARY_VIEW (self));

  gtk_grid_set_column_spacing (self->grid, spacing);
  gtk_widget_set_margin_start (GTK_WIDGET (self->grid), spacing);
  gtk_widget_set_margin_end (GTK_WIDGET (self->grid), spacing);
}

/**
 * rp_summary_view_clear:
 *
 * Forgets the last run: rows hidden, no report, no verdict.
 */
void
rp_summary_view_clear (RpSummaryView *self)
{
  Summary empty = { 0 };

  g_return_if_fail (RP_IS_SUMMARY_VIEW (self));

  self->generation++;
  g_clear_pointer (&self->live, live_unref);
  show_summary (self, &empty);
  if (self->report != NULL)
    {
      g_clear_object (&self->report);
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_REPORT]);
    }
  self->severity = RP_SEVERITY_UNKNOWN;
  g_clear_pointer (&self->cause, g_free);
  g_clear_pointer (&self->why, g_ptr_array_unref);
  set_text_property (self, &self->headline, NULL, PROP_HEADLINE);
  g_clear_pointer (&self->short_verdict, g_free);
  set_text_property (self, &self->verdict, NULL, PROP_VERDICT);
}

/**
 * rp_summary_view_get_report:
 *
 * Returns: (transfer none) (nullable): the report shown
 */
RpReport *
rp_summary_view_get_report (RpSummaryView *self)
{
  g_return_val_if_fail (RP_IS_SUMMARY_VIEW (self), NULL);
  return self->report;
}

/**
 * rp_summary_view_get_headline:
 *
 * Returns: (transfer none) (nullable): a few words for the severity, e.g. "Noticeable delays"
 */
const char *
rp_summary_view_get_headline (RpSummaryView *self)
{
  g_return_val_if_fail (RP_IS_SUMMARY_VIEW (self), NULL);
  return self->headline;
}

/**
 * rp_summary_view_get_severity:
 *
 * Returns: the response-time band of the worst delay shown
 */
RpSeverity
rp_summary_view_get_severity (RpSummaryView *self)
{
  g_return_val_if_fail (RP_IS_SUMMARY_VIEW (self), RP_SEVERITY_UNKNOWN);
  return self->severity;
}

/**
 * rp_summary_view_get_verdict:
 *
 * Returns: (transfer none) (nullable): the plain-language verdict of the report shown
 */
const char *
rp_summary_view_get_verdict (RpSummaryView *self)
{
  g_return_val_if_fail (RP_IS_SUMMARY_VIEW (self), NULL);
  return self->verdict;
}

/**
 * rp_summary_view_get_short_verdict:
 *
 * The verdict in one sentence (rp_run_summary_get_short_verdict()) for the
 * window's card; set before #RpSummaryView:verdict is notified.
 *
 * Returns: (transfer none) (nullable): the sentence, %NULL before a refresh
 */
const char *
rp_summary_view_get_short_verdict (RpSummaryView *self)
{
  g_return_val_if_fail (RP_IS_SUMMARY_VIEW (self), NULL);
  return self->short_verdict;
}

/**
 * rp_summary_view_get_stall_cause:
 *
 * Returns: (transfer none) (nullable): the dominant cause of the stalls of
 *   the report shown (rp_report_get_stall_cause()), followed by why kernel
 *   events are missing when they are; %NULL while a run goes on or without
 *   a sampled stall
 */
const char *
rp_summary_view_get_stall_cause (RpSummaryView *self)
{
  g_return_val_if_fail (RP_IS_SUMMARY_VIEW (self), NULL);
  return self->cause;
}

/**
 * rp_summary_view_get_why:
 *
 * Returns: (transfer none) (nullable) (element-type RpWhyItem): the longest
 *   stalls of the run shown, for the Why section (rp-why-view.h), made
 *   with the same refresh as the figures; %NULL before the first
 */
GPtrArray *
rp_summary_view_get_why (RpSummaryView *self)
{
  g_return_val_if_fail (RP_IS_SUMMARY_VIEW (self), NULL);
  return self->why;
}

/* What each column header stands for in full: its tooltip and the name a
 * screen reader says. The headers themselves are the field's short terms
 * (p50, p99), so that whole words fit a 340 px sidebar in every language
 * instead of ellipsizing ("Sampl…", "Schli…" at 1280 px, issue 21). */
static const struct {
  const char *name;
  const char *description;
} header_meanings[1 + N_VALUE_COLUMNS] = {
  { N_("Probe"), N_("What was measured") },
  { N_("Median"), N_("The median (50th percentile): half the samples took longer") },
  { N_("99th percentile"), N_("The 99th percentile: one sample in a hundred took longer") },
  { N_("Worst delay"), N_("The longest delay measured") },
  { N_("Samples"), N_("How many samples the figures rest on") },
};

/* Headers are never ellipsized: one that does not fit wraps between its
 * words (no hyphen of Pango's), so its minimum width is its longest word. */
static void
set_up_headers (RpSummaryView *self)
{
  for (guint c = 0; c <= N_VALUE_COLUMNS; c++)
    {
      GtkLabel *header = GTK_LABEL (gtk_grid_get_child_at (self->grid, c, 0));
      PangoAttrList *attrs = pango_attr_list_new ();

      gtk_label_set_wrap (header, TRUE);
      gtk_label_set_wrap_mode (header, PANGO_WRAP_WORD);
      gtk_label_set_natural_wrap_mode (header, GTK_NATURAL_WRAP_WORD);
      pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
      gtk_label_set_attributes (header, attrs);
      pango_attr_list_unref (attrs);
      gtk_widget_set_valign (GTK_WIDGET (header), GTK_ALIGN_END);
      gtk_widget_set_tooltip_text (GTK_WIDGET (header), _(header_meanings[c].description));
      gtk_accessible_update_property (GTK_ACCESSIBLE (header),
                                      GTK_ACCESSIBLE_PROPERTY_LABEL, _(header_meanings[c].name),
                                      GTK_ACCESSIBLE_PROPERTY_DESCRIPTION, _(header_meanings[c].description),
                                      -1);
    }
}

static void
build_rows (RpSummaryView *self)
{
  set_up_headers (self);
  self->cells = g_new0 (RowCells, N_ROWS);
  for (guint i = 0; i < N_ROWS; i++)
    for (guint c = 0; c <= N_VALUE_COLUMNS; c++)
      {
        const RpSeriesInfo *info = rp_run_summary_get_row_info (i);
        GtkWidget *label = gtk_label_new (c == 0 ? _(info->label) : NULL);

        gtk_label_set_xalign (GTK_LABEL (label), c == 0 ? 0.0 : 1.0);
        gtk_widget_set_hexpand (label, c == 0);
        if (c > 0)
          gtk_widget_add_css_class (label, "numeric");
        else
          {
            /* A long name ("Gerät, Schreiben") wraps instead of widening
             * the sidebar when the results appear (issue 21). */
            PangoAttrList *attrs = pango_attr_list_new ();

            /* Between words only, with no hyphen of Pango's ("Schreibe-n"). */
            gtk_label_set_wrap (GTK_LABEL (label), TRUE);
            gtk_label_set_wrap_mode (GTK_LABEL (label), PANGO_WRAP_WORD);
            /* Its natural width: one line for "Device write" and
             * "Gerät: Schreiben" where the sidebar has the room (400 px);
             * narrower, the name wraps, and the headers, whole words
             * that never ellipsize, keep theirs. */
            gtk_label_set_max_width_chars (GTK_LABEL (label), 16);
            pango_attr_list_insert (attrs, pango_attr_insert_hyphens_new (FALSE));
            gtk_label_set_attributes (GTK_LABEL (label), attrs);
            pango_attr_list_unref (attrs);
          }
        if (info->description != NULL)
          gtk_widget_set_tooltip_text (label, _(info->description));
        gtk_widget_set_visible (label, FALSE);
        gtk_grid_attach (self->grid, label, c, i + 1, 1, 1);
        self->cells[i][c] = GTK_LABEL (label);
      }
}

static void
rp_summary_view_dispose (GObject *object)
{
  RpSummaryView *self = RP_SUMMARY_VIEW (object);

  gtk_widget_dispose_template (GTK_WIDGET (self), RP_TYPE_SUMMARY_VIEW);
  g_clear_pointer (&self->cause, g_free);
  g_clear_pointer (&self->why, g_ptr_array_unref);
  g_clear_object (&self->report);
  g_clear_pointer (&self->live, live_unref);
  g_clear_pointer (&self->headline, g_free);
  g_clear_pointer (&self->verdict, g_free);
  g_clear_pointer (&self->short_verdict, g_free);
  g_clear_pointer (&self->cells, g_free);

  G_OBJECT_CLASS (rp_summary_view_parent_class)->dispose (object);
}

static void
rp_summary_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  RpSummaryView *self = RP_SUMMARY_VIEW (object);

  switch (prop_id)
    {
    case PROP_REPORT:
      g_value_set_object (value, self->report);
      break;
    case PROP_HEADLINE:
      g_value_set_string (value, self->headline);
      break;
    case PROP_VERDICT:
      g_value_set_string (value, self->verdict);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_summary_view_class_init (RpSummaryViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = rp_summary_view_dispose;
  object_class->get_property = rp_summary_view_get_property;

  properties[PROP_REPORT] =
    g_param_spec_object ("report", NULL, NULL, RP_TYPE_REPORT,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_HEADLINE] =
    g_param_spec_string ("headline", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_VERDICT] =
    g_param_spec_string ("verdict", NULL, NULL, NULL,
                         G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/resprobe/Resprobe/rp-summary-view.ui");
  gtk_widget_class_bind_template_child (widget_class, RpSummaryView, grid);
  gtk_widget_class_bind_template_child (widget_class, RpSummaryView, placeholder);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_css_name (widget_class, "rpsummaryview");
}

static void
rp_summary_view_init (RpSummaryView *self)
{
  Summary empty = { 0 };

  gtk_widget_init_template (GTK_WIDGET (self));
  build_rows (self);
  show_summary (self, &empty);
}

/**
 * rp_summary_view_new:
 *
 * Returns: (transfer floating): an empty summary
 */
GtkWidget *
rp_summary_view_new (void)
{
  return g_object_new (RP_TYPE_SUMMARY_VIEW, NULL);
}
