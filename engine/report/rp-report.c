/* rp-report.c: a run as an immutable value: construction and accessors. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "rp-report-private.h"
#include "rp-time-histogram.h"
#include "rp-stream-stats.h"
#include "rp-sysinfo-private.h"

G_DEFINE_FINAL_TYPE (RpReport, rp_report, G_TYPE_OBJECT)

static void
rp_report_finalize (GObject *object)
{
  RpReport *self = RP_REPORT (object);

  g_clear_pointer (&self->created, g_date_time_unref);
  g_clear_pointer (&self->generator, g_free);
  g_clear_pointer (&self->sysinfo, rp_sysinfo_free);
  g_clear_pointer (&self->scenario, rp_scenario_free);
  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->notes, g_hash_table_unref);
  g_clear_pointer (&self->stalls, g_ptr_array_unref);
  g_clear_pointer (&self->error_message, g_free);
  g_clear_pointer (&self->configuration.key, g_free);
  g_clear_pointer (&self->configuration.label, g_free);
  g_clear_pointer (&self->stats, g_free);
  g_clear_pointer (&self->stats_valid, g_free);
  g_mutex_clear (&self->stats_lock);

  G_OBJECT_CLASS (rp_report_parent_class)->finalize (object);
}

static void
rp_report_class_init (RpReportClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rp_report_finalize;
}

static void
rp_report_init (RpReport *self)
{
  g_mutex_init (&self->stats_lock);
  self->stalls = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_stall_free);
}

/* Takes ownership of @stalls (RpStall, by start). */
void
rp_report_take_stalls (RpReport  *self,
                       GPtrArray *stalls)
{
  g_ptr_array_unref (self->stalls);
  self->stalls = stalls;
}

/* ------------------------------------------------------------------------ */
/* Construction                                                              */
/* ------------------------------------------------------------------------ */

GHashTable *
rp_report_notes_new (void)
{
  return g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
}

static GHashTable *
notes_copy (GHashTable *notes)
{
  GHashTable *copy = rp_report_notes_new ();
  GHashTableIter iter;
  gpointer key, value;

  if (notes == NULL)
    return copy;
  g_hash_table_iter_init (&iter, notes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (key != NULL && value != NULL)
      g_hash_table_insert (copy, g_strdup (key), g_strdup (value));
  return copy;
}

/* A private copy, so that a running session's workers can keep appending to
 * theirs while the report stays what it was when taken. */
static RpSeries *
series_snapshot (RpSeries *series)
{
  g_autofree RpPoint *points = NULL;
  RpSeries *copy;
  guint n = 0;

  copy = rp_series_new (rp_series_get_name (series),
                        rp_series_get_unit (series),
                        rp_series_get_title (series));
  points = rp_series_copy_points (series, 0, &n);
  for (guint i = 0; i < n; i++)
    rp_series_append (copy, points[i].t, points[i].v);
  /* After the points: the statistics grow before the points that stand
   * for their samples, so the copy's cover every point copied. The window
   * histograms before the statistics: they grow after them, so that the
   * copy's hold no sample the statistics do not count. */
  if (rp_series_get_window_histograms (series) != NULL)
    rp_series_set_window_histograms (copy, rp_time_histogram_copy (rp_series_get_window_histograms (series)));
  if (rp_series_get_full_stats (series) != NULL)
    rp_series_set_full_stats (copy, rp_stream_stats_copy (rp_series_get_full_stats (series)));
  return copy;
}

static GPtrArray *
series_array_snapshot (GPtrArray *series)
{
  GPtrArray *copy = g_ptr_array_new_with_free_func (g_object_unref);

  for (guint i = 0; series != NULL && i < series->len; i++)
    g_ptr_array_add (copy, series_snapshot (g_ptr_array_index (series, i)));
  return copy;
}

/* Takes ownership of everything. The duration is at least the last sample's
 * time, so that a plot's time axis always covers every point. */
RpReport *
rp_report_new_take (GDateTime  *created,
                    char       *generator,
                    RpSysinfo  *sysinfo,
                    RpScenario *scenario,
                    GPtrArray  *series,
                    GHashTable *notes,
                    char       *error_message,
                    double      duration)
{
  RpReport *self = g_object_new (RP_TYPE_REPORT, NULL);

  self->created = created;
  self->generator = generator;
  self->sysinfo = sysinfo;
  self->scenario = scenario;
  self->series = series;
  self->notes = notes;
  self->error_message = error_message;
  self->duration = isfinite (duration) && duration > 0 ? duration : 0;
  for (guint i = 0; i < series->len; i++)
    {
      double t_max = 0;

      if (rp_series_get_bounds (g_ptr_array_index (series, i), NULL, &t_max, NULL, NULL))
        self->duration = MAX (self->duration, t_max);
    }
  self->stats = g_new0 (RpStats, MAX (series->len, 1));
  self->stats_valid = g_new0 (gboolean, MAX (series->len, 1));
  return self;
}

/**
 * rp_report_new:
 * @sysinfo: (nullable): the system snapshot; %NULL: everything unknown
 * @scenario: what ran
 * @series: (element-type RpSeries) (nullable): the measurements
 * @notes: (element-type utf8 utf8) (nullable): free-form key → value notes
 *
 * Builds a report from parts, for tests and for tools that measure without a
 * session. Everything is copied (the series' points too), so later appends
 * to @series do not change the report. The creation time is now; the
 * duration is the last sample's time.
 *
 * Returns: (transfer full): the report
 */
RpReport *
rp_report_new (const RpSysinfo  *sysinfo,
               const RpScenario *scenario,
               GPtrArray        *series,
               GHashTable       *notes)
{
  g_return_val_if_fail (scenario != NULL, NULL);

  return rp_report_new_take (g_date_time_new_now_utc (),
                             g_strdup ("resprobe " PACKAGE_VERSION),
                             sysinfo != NULL ? rp_sysinfo_copy (sysinfo) : rp_sysinfo_new (),
                             rp_scenario_copy (scenario),
                             series_array_snapshot (series),
                             notes_copy (notes),
                             NULL, 0);
}

/**
 * rp_report_new_from_session:
 * @session: a session, normally finished; a running one gives a snapshot of
 *   what has been measured so far
 *
 * The creation time is the session's start (now if it never started), the
 * duration its elapsed time (or the last sample's, if later), the error
 * message that of its fatal error.
 *
 * Returns: (transfer full): the report
 */
RpReport *
rp_report_new_from_session (RpSession *session)
{
  g_autoptr(GPtrArray) series = NULL;
  GDateTime *start;
  const RpSysinfo *sysinfo;
  const GError *error;
  RpReport *self;

  g_return_val_if_fail (RP_IS_SESSION (session), NULL);

  start = rp_session_get_start_time (session);
  sysinfo = rp_session_get_sysinfo (session);
  error = rp_session_get_error (session);
  series = rp_session_get_series (session);

  self = rp_report_new_take (start != NULL ? g_date_time_to_utc (start) : g_date_time_new_now_utc (),
                             g_strdup ("resprobe " PACKAGE_VERSION),
                             sysinfo != NULL ? rp_sysinfo_copy (sysinfo) : rp_sysinfo_new (),
                             rp_scenario_copy (rp_session_get_scenario (session)),
                             series_array_snapshot (series),
                             rp_session_get_notes (session),
                             error != NULL ? g_strdup (error->message) : NULL,
                             rp_session_get_elapsed (session));
  rp_report_take_stalls (self, rp_session_get_stalls (session));
  self->baseline = MIN (rp_session_get_baseline (session), self->duration);
  return self;
}

/* ------------------------------------------------------------------------ */
/* Accessors                                                                 */
/* ------------------------------------------------------------------------ */

/**
 * rp_report_get_baseline:
 *
 * Returns: seconds from the run's start during which only the system-wide
 *   samplers ran, before the loads and the other probes started (JSON
 *   "baseline"); 0 when the run had none, as every report before it
 */
double
rp_report_get_baseline (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), 0);
  return self->baseline;
}

/**
 * rp_report_get_created:
 *
 * Returns: (transfer none): when the run started, in UTC
 */
GDateTime *
rp_report_get_created (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->created;
}

/**
 * rp_report_get_sysinfo:
 *
 * Returns: (transfer none): the system snapshot, never %NULL (fields may be unknown)
 */
const RpSysinfo *
rp_report_get_sysinfo (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->sysinfo;
}

/**
 * rp_report_get_scenario:
 *
 * Returns: (transfer none): the scenario that ran (not validated if loaded)
 */
const RpScenario *
rp_report_get_scenario (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->scenario;
}

/**
 * rp_report_get_series:
 *
 * Returns: (transfer none) (element-type RpSeries): the series, in the order
 *   they were created (or appear in the file); do not append to them
 */
GPtrArray *
rp_report_get_series (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->series;
}

static int
report_find_series (RpReport   *self,
                    const char *name)
{
  for (guint i = 0; i < self->series->len; i++)
    if (g_strcmp0 (rp_series_get_name (g_ptr_array_index (self->series, i)), name) == 0)
      return (int) i;
  return -1;
}

/**
 * rp_report_lookup_series:
 * @name: e.g. %RP_SERIES_FSYNC_LATENCY
 *
 * Returns: (transfer none) (nullable): the series, or %NULL
 */
RpSeries *
rp_report_lookup_series (RpReport   *self,
                         const char *name)
{
  int i;

  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  i = report_find_series (self, name);
  return i >= 0 ? g_ptr_array_index (self->series, i) : NULL;
}

/**
 * rp_report_get_notes:
 *
 * Returns: (transfer none) (element-type utf8 utf8): free-form notes, key → value
 */
GHashTable *
rp_report_get_notes (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->notes;
}

/**
 * rp_report_get_error_message:
 *
 * Returns: (nullable): the message of the error that ended the run, or %NULL
 */
const char *
rp_report_get_error_message (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), NULL);
  return self->error_message;
}

/**
 * rp_report_get_duration:
 *
 * Returns: the run's length in seconds, at least the last sample's time
 */
double
rp_report_get_duration (RpReport *self)
{
  g_return_val_if_fail (RP_IS_REPORT (self), 0);
  return self->duration;
}

void
rp_report_stats_at (RpReport *self,
                    guint     i,
                    RpStats  *out_stats)
{
  g_assert (i < self->series->len);

  g_mutex_lock (&self->stats_lock);
  if (!self->stats_valid[i])
    {
      rp_series_compute_stats (g_ptr_array_index (self->series, i), &self->stats[i]);
      self->stats_valid[i] = TRUE;
    }
  *out_stats = self->stats[i];
  g_mutex_unlock (&self->stats_lock);
}

/**
 * rp_report_get_stats:
 * @name: a series name
 * @out_stats: (out caller-allocates): its statistics (see #RpStats); all zero
 *   when the series is missing
 *
 * The statistics always come from the samples, also for a loaded report (the
 * file's "summary" is not trusted). Computed once per series.
 *
 * Returns: %TRUE if the report has a series @name
 */
gboolean
rp_report_get_stats (RpReport   *self,
                     const char *name,
                     RpStats    *out_stats)
{
  int i;

  g_return_val_if_fail (RP_IS_REPORT (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);
  g_return_val_if_fail (out_stats != NULL, FALSE);

  i = report_find_series (self, name);
  if (i < 0)
    {
      memset (out_stats, 0, sizeof *out_stats);
      return FALSE;
    }
  rp_report_stats_at (self, (guint) i, out_stats);
  return TRUE;
}

/* ------------------------------------------------------------------------ */
/* Shared with the JSON, text and comparison files                           */
/* ------------------------------------------------------------------------ */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char * const *) a, *(const char * const *) b);
}

/* Sorted keys, so that two saves of one report are byte-identical. */
GPtrArray *
rp_report_notes_sorted_keys (GHashTable *notes)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, notes);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort (keys, compare_strings);
  return keys;
}

guint64
rp_report_count_samples (RpReport *self)
{
  guint64 n = 0;

  for (guint i = 0; i < self->series->len; i++)
    n += rp_series_get_length (g_ptr_array_index (self->series, i));
  return n;
}
