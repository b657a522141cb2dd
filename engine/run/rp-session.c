/* rp-session.c: one run: loads and probes on worker threads, their series, the snapshot. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-run-folder.h"
#include "rp-params.h"
#include "rp-process-stops.h"
#include "rp-session-private.h"
#include "rp-load-host.h"
#include "rp-target.h"
#include "rp-units.h"


/* The parts' host interface is implemented in rp-session-host.c. */
G_DEFINE_FINAL_TYPE_WITH_CODE (RpSession, rp_session, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (RP_TYPE_PART_HOST, rp_session_part_host_init))

enum {
  PROP_0,
  PROP_STATE,
  N_PROPS
};

enum {
  UPDATED,
  FINISHED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

/**
 * rp_session_worker_free:
 * @worker: a worker whose thread was joined (or never started)
 *
 * Frees its part's state (closing its files) and the worker.
 */
void
rp_session_worker_free (Worker *worker)
{
  if (worker->state != NULL && worker->klass->free_state != NULL)
    worker->klass->free_state (worker->state);
  g_free (worker);
}

static void
rp_session_dispose (GObject *object)
{
  RpSession *self = RP_SESSION (object);

  /* Dispose only runs once nobody holds a reference, and running workers and
   * pending sources hold one: so by now no thread can touch us. */
  g_assert (self->state != RP_SESSION_RUNNING && self->state != RP_SESSION_STOPPING);

  if (self->duration_source != NULL)
    {
      g_source_destroy (self->duration_source);
      g_clear_pointer (&self->duration_source, g_source_unref);
    }

  G_OBJECT_CLASS (rp_session_parent_class)->dispose (object);
}

static void
rp_session_finalize (GObject *object)
{
  RpSession *self = RP_SESSION (object);

  /* Only a start answered without its thread (on_start_bound()) whose
   * callback never ran leaves one: it goes on, detached. */
  g_clear_pointer (&self->start_thread, g_thread_unref);
  g_clear_pointer (&self->stop_thread, g_thread_unref);
  g_clear_pointer (&self->workers, g_ptr_array_unref);
  g_clear_object (&self->load_host);
  g_clear_pointer (&self->calls, rp_call_registry_free);
  if (self->live != self->scenario)
    g_clear_pointer (&self->live, rp_scenario_free);
  g_clear_pointer (&self->scenario, rp_scenario_free);
  g_clear_pointer (&self->sysinfo, rp_sysinfo_free);
  g_clear_pointer (&self->start_time, g_date_time_unref);
  g_clear_pointer (&self->owner_context, g_main_context_unref);
  g_clear_pointer (&self->series, g_ptr_array_unref);
  g_clear_pointer (&self->series_by_name, g_hash_table_unref);
  g_clear_pointer (&self->notes, g_hash_table_unref);
  g_clear_pointer (&self->stop_waiters, g_ptr_array_unref);
  g_clear_error (&self->error);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->stop_cond);
  g_cond_clear (&self->join_cond);

  G_OBJECT_CLASS (rp_session_parent_class)->finalize (object);
}

static void
rp_session_get_property (GObject    *object,
                         guint       prop_id,
                         GValue     *value,
                         GParamSpec *pspec)
{
  RpSession *self = RP_SESSION (object);

  switch (prop_id)
    {
    case PROP_STATE:
      g_value_set_int (value, self->state);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_session_class_init (RpSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = rp_session_dispose;
  object_class->finalize = rp_session_finalize;
  object_class->get_property = rp_session_get_property;

  /**
   * RpSession:state:
   *
   * The #RpSessionState, as an int; notified on the owner's main context.
   */
  properties[PROP_STATE] =
    g_param_spec_enum ("state", NULL, NULL, RP_TYPE_SESSION_STATE, RP_SESSION_IDLE,
                       G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * RpSession::updated:
   *
   * New samples arrived. Emitted on the owner's main context (the thread-default
   * context of the caller of rp_session_start_async()), at most every 50 ms.
   */
  signals[UPDATED] = g_signal_new ("updated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                   0, NULL, NULL, NULL, G_TYPE_NONE, 0);

  /**
   * RpSession::finished:
   *
   * Every worker has been joined and every file removed; rp_session_get_error()
   * tells whether the run ended on a fatal error. Emitted on the owner's context.
   */
  signals[FINISHED] = g_signal_new ("finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST,
                                    0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
rp_session_init (RpSession *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->stop_cond);
  g_cond_init (&self->join_cond);
  self->stop_bound = RP_SESSION_STOP_BOUND_DEFAULT;
  self->series = g_ptr_array_new_with_free_func (g_object_unref);
  self->series_by_name = g_hash_table_new (g_str_hash, g_str_equal);
  self->notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->workers = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_session_worker_free);
  self->stop_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  self->calls = rp_call_registry_new ();
}

/**
 * rp_session_new:
 * @scenario: what to run (copied)
 *
 * Returns: (transfer full): an idle session; start it with rp_session_start_async()
 */
RpSession *
rp_session_new (const RpScenario *scenario)
{
  RpSession *self;

  g_return_val_if_fail (scenario != NULL, NULL);

  self = g_object_new (RP_TYPE_SESSION, NULL);
  self->scenario = rp_scenario_copy (scenario);
  return self;
}

/**
 * rp_session_get_scenario:
 *
 * Returns: (transfer none): the scenario as it runs: after the start, with the
 *   directory resolved and the writer size lowered to fit where it was
 */
const RpScenario *
rp_session_get_scenario (RpSession *self)
{
  g_return_val_if_fail (RP_IS_SESSION (self), NULL);
  return self->scenario;
}

RpSessionState
rp_session_get_state (RpSession *self)
{
  g_return_val_if_fail (RP_IS_SESSION (self), RP_SESSION_IDLE);
  return self->state;
}

/**
 * rp_session_get_sysinfo:
 *
 * Returns: (transfer none) (nullable): the snapshot taken at the start, or
 *   %NULL before the session started
 */
const RpSysinfo *
rp_session_get_sysinfo (RpSession *self)
{
  g_return_val_if_fail (RP_IS_SESSION (self), NULL);
  return self->sysinfo;
}

/**
 * rp_session_get_error:
 *
 * Returns: (transfer none) (nullable): the fatal error that ended the run
 *   (e.g. %RP_ERROR_NO_SPACE), or %NULL; stable once "finished" was emitted
 */
const GError *
rp_session_get_error (RpSession *self)
{
  g_return_val_if_fail (RP_IS_SESSION (self), NULL);
  return self->error;
}

/**
 * rp_session_get_start_time:
 *
 * Returns: (transfer none) (nullable): wall-clock time of the start (UTC)
 */
GDateTime *
rp_session_get_start_time (RpSession *self)
{
  g_return_val_if_fail (RP_IS_SESSION (self), NULL);
  return self->start_time;
}

/**
 * rp_session_get_baseline:
 *
 * Returns: seconds from the start during which only the system-wide
 *   samplers ran (the "baseline" parameter, 0 when the run has none); known
 *   once the start finished, 0 before
 */
double
rp_session_get_baseline (RpSession *self)
{
  g_return_val_if_fail (RP_IS_SESSION (self), 0);

  return self->state == RP_SESSION_STARTING ? 0 : self->baseline;
}

/**
 * rp_session_get_elapsed:
 *
 * Returns: seconds since the workers started; frozen once finished; 0 before
 */
double
rp_session_get_elapsed (RpSession *self)
{
  g_return_val_if_fail (RP_IS_SESSION (self), 0);

  if (self->t0 == 0)
    return 0;
  if (self->state == RP_SESSION_FINISHED)
    return self->t_end - self->t0;
  return rp_clock_now () - self->t0;
}

/**
 * rp_session_time_from_monotonic:
 * @monotonic_seconds: a CLOCK_MONOTONIC time in seconds (rp_clock_now())
 *
 * Returns: the same instant as session time (seconds since the start), the
 *   time axis of every series
 */
double
rp_session_time_from_monotonic (RpSession *self,
                                double     monotonic_seconds)
{
  g_return_val_if_fail (RP_IS_SESSION (self), 0);
  return monotonic_seconds - self->t0;
}

/**
 * rp_session_get_series:
 *
 * Returns: (transfer container) (element-type RpSeries): a snapshot of the
 *   session's series in creation order; later series are not in it
 */
GPtrArray *
rp_session_get_series (RpSession *self)
{
  GPtrArray *copy;

  g_return_val_if_fail (RP_IS_SESSION (self), NULL);

  g_mutex_lock (&self->lock);
  copy = g_ptr_array_new_full (self->series->len, g_object_unref);
  for (guint i = 0; i < self->series->len; i++)
    g_ptr_array_add (copy, g_object_ref (g_ptr_array_index (self->series, i)));
  g_mutex_unlock (&self->lock);
  return copy;
}

/**
 * rp_session_lookup_series:
 * @name: e.g. "fsync_latency"
 *
 * Returns: (transfer none) (nullable): the series, valid as long as the session
 */
RpSeries *
rp_session_lookup_series (RpSession  *self,
                          const char *name)
{
  RpSeries *series;

  g_return_val_if_fail (RP_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  g_mutex_lock (&self->lock);
  series = g_hash_table_lookup (self->series_by_name, name);
  g_mutex_unlock (&self->lock);
  return series;
}

/**
 * rp_session_ensure_series:
 * @name: stable identifier, e.g. "mainloop_lateness"
 * @unit: the unit, e.g. "s"
 * @title: (nullable): translated title
 *
 * Looks the series up, creating it on first use. Safe from any thread, so the
 * GUI can add its own probes' series to the session and its report.
 *
 * Returns: (transfer none): the series, valid as long as the session
 */
RpSeries *
rp_session_ensure_series (RpSession  *self,
                          const char *name,
                          const char *unit,
                          const char *title)
{
  RpSeries *series;

  g_return_val_if_fail (RP_IS_SESSION (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (unit != NULL, NULL);

  g_mutex_lock (&self->lock);
  series = g_hash_table_lookup (self->series_by_name, name);
  if (series == NULL)
    {
      series = rp_series_new (name, unit, title);
      g_ptr_array_add (self->series, series);
      g_hash_table_insert (self->series_by_name, (char *) rp_series_get_name (series), series);
    }
  g_mutex_unlock (&self->lock);
  return series;
}

/**
 * rp_session_get_in_flight:
 * @min_age: only calls in flight for at least this long, seconds
 *
 * The timed calls that have not returned yet (an fsync() blocked for 8 s):
 * what the window shows as bars growing from their start and as "fsync in
 * flight for 8.2 s". Any thread.
 *
 * Returns: (transfer full) (element-type RpStall): each call so far: its
 *   series, start (session time), duration until now and breakdown so far
 */
GPtrArray *
rp_session_get_in_flight (RpSession *self,
                          double     min_age)
{
  g_return_val_if_fail (RP_IS_SESSION (self), NULL);

  if (self->t0 == 0 || self->state == RP_SESSION_FINISHED)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) rp_stall_free);
  return rp_call_registry_get_in_flight (self->calls, rp_clock_now (), min_age);
}

/**
 * rp_session_get_stalls:
 *
 * Returns: (transfer full) (element-type RpStall): the calls so far that
 *   took over %RP_STALL_MIN_SECONDS, with their breakdowns, by start
 */
GPtrArray *
rp_session_get_stalls (RpSession *self)
{
  g_return_val_if_fail (RP_IS_SESSION (self), NULL);
  return rp_call_registry_get_stalls (self->calls);
}

/**
 * rp_session_set_note:
 * @key: e.g. "frame_timing_source"
 * @value: (nullable): text; %NULL removes the note
 *
 * Notes are facts about the run that are not time series (the CPU benchmark's
 * rate alone, a command's output tail); they go into the report. Any thread.
 */
void
rp_session_set_note (RpSession  *self,
                     const char *key,
                     const char *value)
{
  g_return_if_fail (RP_IS_SESSION (self));
  g_return_if_fail (key != NULL);

  g_mutex_lock (&self->lock);
  if (value != NULL)
    g_hash_table_replace (self->notes, g_strdup (key), g_strdup (value));
  else
    g_hash_table_remove (self->notes, key);
  g_mutex_unlock (&self->lock);
}

/**
 * rp_session_get_notes:
 *
 * Returns: (transfer container): a copy of the notes, string to string
 */
GHashTable *
rp_session_get_notes (RpSession *self)
{
  GHashTable *copy;
  GHashTableIter iter;
  gpointer key, value;

  g_return_val_if_fail (RP_IS_SESSION (self), NULL);

  copy = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->notes);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_hash_table_insert (copy, g_strdup (key), g_strdup (value));
  g_mutex_unlock (&self->lock);
  return copy;
}

static void
set_state (RpSession      *self,
           RpSessionState  state)
{
  if (self->state == state)
    return;
  self->state = state;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_STATE]);
}

/* ------------------------------------------------------------------------ */
/* Notifying the owner                                                       */

/* A series that had to drop points for want of memory (ulimit -v, a cgroup's
 * memory.max) ends the run with a message naming it, and the report keeps
 * what was measured until then, instead of an abort inside an allocation. */
static void
fail_if_out_of_memory (RpSession *self)
{
  g_autoptr(GPtrArray) series = rp_session_get_series (self);

  for (guint i = 0; i < series->len; i++)
    if (rp_series_get_dropped (series->pdata[i]) > 0)
      {
        rp_part_host_fail (RP_PART_HOST (self),
                           g_error_new (RP_ERROR, RP_ERROR_FAILED,
                                        _("Out of memory: the series “%s” cannot grow (is a memory limit set, such as ulimit -v?)"),
                                        rp_series_get_name (series->pdata[i])));
        return;
      }
}

static gboolean
emit_updated (gpointer data)
{
  RpSession *self = data;

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->update_source, g_source_unref);
  g_mutex_unlock (&self->lock);

  fail_if_out_of_memory (self);

  g_signal_emit (self, signals[UPDATED], 0);
  return G_SOURCE_REMOVE;
}

/**
 * rp_session_schedule_update:
 *
 * Tells the owner that new samples are there. Coalesced: at most one update is
 * pending at a time and it fires 50 ms after the first change, so the owner
 * sees at most 20 "updated" signals a second however fast workers append.
 */
void
rp_session_schedule_update (RpSession *self)
{
  g_mutex_lock (&self->lock);
  if (self->update_source == NULL && self->owner_context != NULL && !self->joined)
    {
      self->update_source = g_timeout_source_new (UPDATE_INTERVAL_MS);
      g_source_set_name (self->update_source, "[resprobe] session update");
      g_source_set_callback (self->update_source, emit_updated, g_object_ref (self), g_object_unref);
      g_source_attach (self->update_source, self->owner_context);
    }
  g_mutex_unlock (&self->lock);
}

/* ------------------------------------------------------------------------ */
/* Starting                                                                  */

static gpointer
worker_thread (gpointer data)
{
  Worker *worker = data;

  /* The baseline: the system-wide samplers alone for a few seconds. A stop
   * meanwhile means a load never starts (it counts itself out all the same). */
  if (!worker->in_baseline && worker->session->baseline > 0 &&
      !rp_part_host_sleep (RP_PART_HOST (worker->session), worker->session->baseline))
    {
      if (worker->is_load)
        rp_part_host_load_done (RP_PART_HOST (worker->session));
      rp_session_schedule_update (worker->session);
      rp_session_worker_ended (worker);
      return NULL;
    }

  worker->klass->run (worker->host, worker->state);
  if (worker->is_load)
    rp_part_host_load_done (RP_PART_HOST (worker->session));
  rp_session_schedule_update (worker->session);
  rp_session_worker_ended (worker);
  return NULL;
}

static int
compare_start_rank (gconstpointer a,
                    gconstpointer b)
{
  const RpPartInfo *pa = *(const RpPartInfo * const *) a;
  const RpPartInfo *pb = *(const RpPartInfo * const *) b;

  return (int) pa->start_rank - (int) pb->start_rank;
}

/* The parts that run, by start rank then table order (g_ptr_array_sort is
 * stable): probes first, so that the first samples show the system at rest,
 * as the reporters started fsync-tester before dd. */
static GPtrArray *
parts_in_start_order (const RpScenario *scenario)
{
  GPtrArray *parts = g_ptr_array_new ();
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);

  for (guint i = 0; i < n; i++)
    if (table[i]->worker != NULL && rp_scenario_has_part (scenario, table[i]->id))
      g_ptr_array_add (parts, (gpointer) table[i]);
  g_ptr_array_sort (parts, compare_start_rank);
  return parts;
}

/* The baseline runs only where one of its parts does and something else
 * waits for it. */
static double
baseline_seconds (RpSession *self)
{
  gboolean some_in = FALSE, some_after = FALSE;

  for (guint i = 0; i < self->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (self->workers, i);

      some_in |= worker->in_baseline;
      some_after |= !worker->in_baseline;
    }
  if (!some_in || !some_after)
    return 0;
  return rp_params_get_seconds (self->live->params, "baseline");
}

static gboolean
prepare_workers (RpSession     *self,
                 GCancellable  *cancellable,
                 GError       **error)
{
  g_autoptr(GPtrArray) parts = parts_in_start_order (self->live);

  for (guint i = 0; i < parts->len; i++)
    {
      const RpPartInfo *part = g_ptr_array_index (parts, i);
      Worker *worker;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      worker = g_new0 (Worker, 1);
      worker->klass = part->worker;
      worker->is_load = part->role == RP_PART_LOAD;
      worker->in_baseline = part->in_baseline;
      worker->session = self;
      worker->host = worker->is_load && self->load_host != NULL ? self->load_host : RP_PART_HOST (self);
      g_ptr_array_add (self->workers, worker);

      if (worker->klass->prepare != NULL)
        {
          /* Named, should a stop give up waiting for it. */
          g_mutex_lock (&self->lock);
          self->preparing = part->id;
          g_mutex_unlock (&self->lock);
          worker->state = worker->klass->prepare (worker->host, error);
          if (worker->state == NULL)
            return FALSE;
        }
    }
  return TRUE;
}

/* The load folder as the target is resolved: it must exist and be writable. */
static gboolean
resolve_load_directory (RpSession  *self,
                        GError    **error)
{
  RpScenario *live = self->live;
  dev_t dev;
  ino_t ino;
  char *resolved = rp_target_resolve (live->load_directory, &dev, &ino, error);

  if (resolved == NULL)
    {
      /* TRANSLATORS: before a message about the folder, e.g. "Target directory “/x” does not exist" */
      g_prefix_error (error, _("Load directory (--load-dir): "));
      return FALSE;
    }
  g_free (live->load_directory);
  live->load_directory = resolved;
  return TRUE;
}

/* Free space where each part writes: with a load folder of their own, the
 * loads' writes (and the default writer size) are checked there, and the
 * loads get a host of their own that hands out that folder. The probes'
 * few MiB are then checked in the load folder too (rp_target_check_free_space()
 * sums every part's budget): a target too full for them still fails at once
 * with ENOSPC and a message naming it. */
static gboolean
check_free_space (RpSession  *self,
                  GError    **error)
{
  RpScenario *live = self->live;
  g_autofree char *target = NULL;
  guint64 load_spare = 0;
  gboolean fits;

  if (live->load_directory == NULL)
    return rp_target_check_free_space (live, &self->spare_bytes, error);

  target = g_steal_pointer (&live->directory);
  live->directory = g_strdup (live->load_directory);
  fits = rp_target_check_free_space (live, &load_spare, error);
  g_free (live->directory);
  live->directory = g_steal_pointer (&target);
  if (!fits)
    return FALSE;
  self->load_host = RP_PART_HOST (rp_load_host_new (RP_PART_HOST (self), live->load_directory, load_spare));
  return TRUE;
}

/* Folders that killed runs left in the target (SIGKILL gives a part no
 * chance to remove its own): removed before this run measures, and noted so
 * that the front ends say so. */
static void
remove_leftovers (RpSession  *self,
                  const char *directory)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) removed = rp_run_folder_remove_stale (directory, &error);

  if (removed == NULL)
    rp_session_set_note (self, RP_NOTE_LEFTOVERS_FAILED, error->message);
  else if (removed->len > 0)
    {
      g_autofree char *names = NULL;

      g_ptr_array_add (removed, NULL);
      names = g_strjoinv (", ", (char **) removed->pdata);
      rp_session_set_note (self, RP_NOTE_LEFTOVERS_REMOVED, names);
    }
}

/* Runs in a GTask thread: everything that may block (stat, statvfs, sysfs,
 * creating files) stays off the owner's main thread. It works on its own
 * copy of the scenario, @live, which the owner does not read until
 * on_started(). */
static void
start_in_thread (GTask        *task,
                 gpointer      source_object,
                 gpointer      task_data,
                 GCancellable *cancellable)
{
  RpSession *self = source_object;
  RpScenario *live = self->live;
  GError *error = NULL;
  char *resolved;

  if (!rp_scenario_validate (live, &error))
    goto failed;
  resolved = rp_target_resolve (rp_scenario_get_directory (live), &self->target_dev,
                                &self->target_ino, &error);
  if (resolved == NULL)
    goto failed;
  g_free (live->directory);
  live->directory = resolved;

  remove_leftovers (self, live->directory);

  /* Each step may take seconds on a busy disk (a copy loop's source is
   * written in prepare): a cancelled start stops between them. */
  if (g_cancellable_set_error_if_cancelled (cancellable, &error))
    goto failed;
  if (live->load_directory != NULL && !resolve_load_directory (self, &error))
    goto failed;
  self->sysinfo = rp_sysinfo_collect (live->directory);
  if (live->load_directory != NULL)
    rp_sysinfo_collect_load (self->sysinfo, live->load_directory);

  if (!check_free_space (self, &error) ||
      g_cancellable_set_error_if_cancelled (cancellable, &error))
    goto failed;

  if (!prepare_workers (self, cancellable, &error))
    goto failed;
  self->baseline = baseline_seconds (self);

  g_task_return_boolean (task, TRUE);
  return;

failed:
  /* Free what prepare opened, so a failed start leaves no file behind. */
  g_ptr_array_set_size (self->workers, 0);
  g_task_return_error (task, error);
}

static gboolean
on_duration_elapsed (gpointer data)
{
  RpSession *self = data;

  g_clear_pointer (&self->duration_source, g_source_unref);
  rp_session_schedule_stop (self, RP_ENDED_BY_DURATION);
  return G_SOURCE_REMOVE;
}

typedef struct {
  GTask           *task;
  GTaskThreadFunc  func;
} TaskThread;

static void
session_thread_failed (RpSession *self,
                       Worker    *worker,
                       GError    *error)
{
  GError *failure = g_error_new (RP_ERROR, RP_ERROR_FAILED,
                                 /* TRANSLATORS: "Cannot start the thread of fsync-probe: Resource temporarily unavailable" */
                                 _("Cannot start the thread of %s: %s"), worker->klass->name, error->message);

  g_error_free (error);
  rp_part_host_fail (RP_PART_HOST (self), failure);
}

static gpointer
task_thread (gpointer data)
{
  TaskThread *run = data;
  GTask *task = run->task;

  run->func (task, g_task_get_source_object (task), g_task_get_task_data (task),
             g_task_get_cancellable (task));
  g_object_unref (task);
  g_free (run);
  return NULL;
}

/* g_task_run_in_thread(), on a thread of its own rather than GLib's pool:
 * the pool gives no word when it cannot create a thread (a pids cgroup at
 * its limit, RLIMIT_NPROC), and the task would never run: the start or the
 * stop would hang. Here that is an error the caller handles.
 *
 * Returns the thread, which the task's callback joins (join_task_thread()):
 * detached, it dropped its reference on the task after the callback had
 * run, and the task's on the session with it, so that the session was
 * finalised on that thread after its owner had let go. After a failed start
 * check that was half of the starts, and resprobe-cli exits at once then:
 * the finalisation raced the process's exit. */
static GThread *
run_in_own_thread (GTask            *task,
                   const char       *name,
                   GTaskThreadFunc   func,
                   GError          **error)
{
  TaskThread *run = g_new0 (TaskThread, 1);
  GThread *thread;

  run->task = g_object_ref (task);
  run->func = func;
  thread = g_thread_try_new (name, task_thread, run, error);
  if (thread == NULL)
    {
      g_object_unref (run->task);
      g_free (run);
    }
  return thread;
}

/* In the callback of a task of run_in_own_thread(): the thread has returned
 * the task's result, and after that only drops its reference on the task
 * (not the last: the callback's context holds one until the callback
 * returns), so the join does not wait for anything the owner does. */
static void
join_task_thread (GThread **thread)
{
  g_clear_pointer (thread, g_thread_join);
}

static void
launch_workers (RpSession *self)
{
  self->start_time = g_date_time_new_now_utc ();
  self->t0 = rp_clock_now ();
  rp_call_registry_set_origin (self->calls, self->t0);
  /* A stop of the whole process (SIGSTOP, Ctrl-Z) stops the stall sampler
   * too: the SIGCONT that ends it is what tells it (rp-process-stops.h). */
  rp_process_stops_watch ();

  /* The running workers use the session: keep it alive until they are joined,
   * even if the owner drops its reference meanwhile. Released in on_joined(). */
  g_object_ref (self);

  for (guint i = 0; i < self->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (self->workers, i);
      g_autofree char *name = g_strdup_printf ("rp-%s", worker->klass->name);

      GError *error = NULL;

      /* Counted before the thread exists: a load may be done (and count
       * itself out) before g_thread_try_new() returns. */
      g_mutex_lock (&self->lock);
      if (worker->is_load)
        self->loads_running++;
      g_mutex_unlock (&self->lock);
      worker->thread = g_thread_try_new (name, worker_thread, worker, &error);
      if (worker->thread == NULL)
        {
          g_mutex_lock (&self->lock);
          if (worker->is_load)
            self->loads_running--;
          g_mutex_unlock (&self->lock);
          /* The run fails with what it measured so far: none of its loads
           * can be trusted to run as asked. No thread more: the failure
           * stops the run at once (begin_stop on this thread), whose join
           * frees the workers meanwhile; one started after it ran on a
           * freed worker (SIGSEGV in the fault matrix's pids.max=4 row,
           * about 1 run in 16). */
          session_thread_failed (self, worker, error);
          break;
        }
    }

  if (self->scenario->duration > 0)
    {
      /* The duration is the load's: the baseline comes before it. */
      self->duration_source = g_timeout_source_new ((guint) ((self->scenario->duration + self->baseline) * 1000));
      g_source_set_name (self->duration_source, "[resprobe] session duration");
      g_source_set_callback (self->duration_source, on_duration_elapsed, self, NULL);
      g_source_attach (self->duration_source, self->owner_context);
    }
}

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  RpSession *self = RP_SESSION (object);
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  join_task_thread (&self->start_thread);
  self->start_task = NULL;
  if (self->start_bound_source != NULL)
    {
      g_source_destroy (self->start_bound_source);
      g_clear_pointer (&self->start_bound_source, g_source_unref);
    }
  /* A stop gave up on this start (rp_session_bound_start()) and answered
   * the owner: what the preparation opened is closed now, nothing runs. */
  if (self->start_given_up)
    {
      g_clear_error (&error);
      g_task_propagate_boolean (G_TASK (result), NULL);
      g_ptr_array_set_size (self->workers, 0);
      return;
    }
  if (!g_task_propagate_boolean (G_TASK (result), &error))
    {
      /* Cancelled after the thread prepared them: close their files now,
       * and drop the series they made, which will never have a sample (on
       * a busy machine the thread had prepared before the cancel came). */
      g_ptr_array_set_size (self->workers, 0);
      g_mutex_lock (&self->lock);
      g_hash_table_remove_all (self->series_by_name);
      g_ptr_array_set_size (self->series, 0);
      g_mutex_unlock (&self->lock);
      self->t_end = self->t0;
      set_state (self, RP_SESSION_FINISHED);
      g_task_return_error (task, error);
      return;
    }

  /* The resolved scenario is the one the run has from now on. */
  rp_scenario_free (self->scenario);
  self->scenario = self->live;
  set_state (self, RP_SESSION_RUNNING);
  launch_workers (self);
  g_task_return_boolean (task, TRUE);

  /* A stop requested while starting takes effect now; the verdict must not
   * judge the sample or two the workers take before they see it. */
  if (g_atomic_int_get (&self->stopping))
    {
      g_mutex_lock (&self->lock);
      if (g_strcmp0 (self->ended_by, RP_ENDED_BY_REQUEST) == 0)
        g_hash_table_replace (self->notes, g_strdup (RP_NOTE_STOPPED_WHILE_PREPARING), g_strdup ("true"));
      g_mutex_unlock (&self->lock);
      rp_session_schedule_stop (self, RP_ENDED_BY_REQUEST);
    }
}

/**
 * rp_session_start_async:
 * @cancellable: (nullable): gives up the start: checked between its steps
 *   (validation, the folder, the snapshot, free space, each part's
 *   prepare); the callback then gets %G_IO_ERROR_CANCELLED and nothing runs
 * @callback: called on the caller's thread-default main context when the
 *   workers run, or when the start failed
 *
 * Validates the scenario, resolves and checks the target directory and its free
 * space, snapshots the system, prepares every load and probe (opening their
 * files) on a worker thread, then starts one thread per load and probe. The
 * caller's thread-default main context becomes the owner context: "updated",
 * "finished" and state notifications are emitted there.
 */
void
rp_session_start_async (RpSession           *self,
                        GCancellable        *cancellable,
                        GAsyncReadyCallback  callback,
                        gpointer             user_data)
{
  GTask *task, *inner;
  GError *error = NULL;

  g_return_if_fail (RP_IS_SESSION (self));
  g_return_if_fail (self->state == RP_SESSION_IDLE);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, rp_session_start_async);

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  self->owner_context = g_main_context_ref_thread_default ();
  self->live = rp_scenario_copy (self->scenario);
  self->start_task = task;
  set_state (self, RP_SESSION_STARTING);

  inner = g_task_new (self, cancellable, on_started, task);
  self->start_thread = run_in_own_thread (inner, "rp-session-start", start_in_thread, &error);
  if (self->start_thread == NULL)
    {
      g_task_return_new_error (inner, RP_ERROR, RP_ERROR_FAILED,
                               /* TRANSLATORS: %s is the system's reason, e.g. "Resource temporarily unavailable" */
                               _("Cannot start the run: no thread can be created: %s"), error->message);
      g_clear_error (&error);
    }
  g_object_unref (inner);
}

/**
 * rp_session_start_finish:
 * @error: why the session could not start: %RP_ERROR_INVALID_ARGUMENT naming a
 *   scenario field, %RP_ERROR_TARGET, %RP_ERROR_NO_SPACE, %RP_ERROR_IO
 *
 * Returns: %TRUE when the workers run; on failure the session is finished and
 *   no file was left behind
 */
gboolean
rp_session_start_finish (RpSession     *self,
                         GAsyncResult  *result,
                         GError       **error)
{
  g_return_val_if_fail (RP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ------------------------------------------------------------------------ */
/* Stopping                                                                  */

static void
join_in_thread (GTask        *task,
                gpointer      source_object,
                gpointer      task_data,
                GCancellable *cancellable)
{
  RpSession *self = source_object;

  /* A worker blocked in fsync() cannot be interrupted: the join waits until
   * the call returns, or gives up at the bound (rp-session-stop.c). This is
   * why stopping is asynchronous. */
  rp_session_join_bounded (self);
  /* The run ended when its threads did (its last samples), before the
   * closing of its files; when the stop gave up on some, when it was asked
   * to: what the stop waited for is not the run's (issue 33: "Stopped after
   * 1 min 32 s of 1 min" for a stop at 8 s). */
  g_mutex_lock (&self->lock);
  self->t_end = self->abandoned && self->stop_asked > 0 ? self->stop_asked :
                self->workers_joined_at > 0 ? self->workers_joined_at : rp_clock_now ();
  g_mutex_unlock (&self->lock);
  if (rp_call_registry_get_dropped (self->calls) > 0)
    {
      g_autofree char *dropped = g_strdup_printf ("%" G_GUINT64_FORMAT,
                                                  rp_call_registry_get_dropped (self->calls));

      rp_session_set_note (self, "stalls_dropped", dropped);
    }
  g_task_return_boolean (task, TRUE);
}

static void
on_joined (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  RpSession *self = RP_SESSION (object);
  g_autoptr(GPtrArray) waiters = NULL;

  join_task_thread (&self->stop_thread);
  /* The final "updated" below replaces a pending one: nothing may follow
   * "finished", or an owner that let go of the session would hear from it. */
  g_mutex_lock (&self->lock);
  self->joined = TRUE;
  if (self->update_source != NULL)
    {
      g_source_destroy (self->update_source);
      g_clear_pointer (&self->update_source, g_source_unref);
    }
  g_mutex_unlock (&self->lock);

  set_state (self, RP_SESSION_FINISHED);

  /* A last update so that the owner sees the final samples. */
  g_signal_emit (self, signals[UPDATED], 0);
  g_signal_emit (self, signals[FINISHED], 0);

  waiters = g_steal_pointer (&self->stop_waiters);
  self->stop_waiters = g_ptr_array_new_with_free_func (g_object_unref);
  for (guint i = 0; i < waiters->len; i++)
    g_task_return_boolean (g_ptr_array_index (waiters, i), TRUE);

  g_object_unref (self);
}

/* The bound of a stop while preparing is over and the start thread has
 * not come back: a step of some part's preparation is stuck in the kernel
 * (creating its file on a stopped FUSE file system). The owner hears now
 * that the run was stopped while preparing, naming that part; the thread
 * ends when its call does, and on_started() then closes what it opened. */
static gboolean
on_start_bound (gpointer data)
{
  RpSession *self = data;
  const char *preparing;
  GTask *task = self->start_task;

  g_clear_pointer (&self->start_bound_source, g_source_unref);
  if (self->state != RP_SESSION_STARTING || task == NULL)
    return G_SOURCE_REMOVE;
  g_mutex_lock (&self->lock);
  self->start_given_up = TRUE;
  preparing = self->preparing;
  g_mutex_unlock (&self->lock);
  self->start_task = NULL;
  rp_session_set_note (self, RP_NOTE_ABANDONED_THREADS, preparing != NULL ? preparing : "rp-session-start");
  set_state (self, RP_SESSION_FINISHED);
  g_task_return_new_error (task, RP_ERROR, RP_ERROR_FAILED,
                           /* TRANSLATORS: seconds, then a part such as "copy-loop" */
                           _("Stopped while preparing: the preparation did not end within %.0f s of the stop "
                             "and was abandoned, stuck in the kernel in %s (a file system that does not answer?)"),
                           self->stop_bound, preparing != NULL ? preparing : _("the start"));
  return G_SOURCE_REMOVE;
}

/**
 * rp_session_bound_start:
 *
 * On the owner context, a stop while the session starts: arms the bound
 * (rp_session_set_stop_bound()) after which the start is answered without
 * waiting for its thread.
 */
void
rp_session_bound_start (RpSession *self)
{
  double left;

  if (self->stop_bound < 0 || self->start_task == NULL)
    return;
  /* Again after rp_session_stop_now(): the new bound replaces the old. */
  if (self->start_bound_source != NULL)
    {
      g_source_destroy (self->start_bound_source);
      g_clear_pointer (&self->start_bound_source, g_source_unref);
    }
  g_mutex_lock (&self->lock);
  left = self->stop_asked + self->stop_bound - rp_clock_now ();
  g_mutex_unlock (&self->lock);
  self->start_bound_source = g_timeout_source_new ((guint) (MAX (left, 0) * 1000));
  g_source_set_name (self->start_bound_source, "[resprobe] stop bound while preparing");
  g_source_set_callback (self->start_bound_source, on_start_bound, self, NULL);
  g_source_attach (self->start_bound_source, self->owner_context);
}

/* On the owner context: turn a stop request into the STOPPING state and join
 * the workers on a thread. */
static gboolean
begin_stop (gpointer data)
{
  RpSession *self = data;
  GTask *task;

  g_mutex_lock (&self->lock);
  self->stop_scheduled = FALSE;
  g_mutex_unlock (&self->lock);

  /* Preparing: the start thread sees the stop between its steps; one step
   * stuck in the kernel is given up at the bound. */
  if (self->state == RP_SESSION_STARTING)
    rp_session_bound_start (self);
  if (self->state != RP_SESSION_RUNNING)
    return G_SOURCE_REMOVE;

  if (self->duration_source != NULL)
    {
      g_source_destroy (self->duration_source);
      g_clear_pointer (&self->duration_source, g_source_unref);
    }

  set_state (self, RP_SESSION_STOPPING);
  task = g_task_new (self, NULL, on_joined, NULL);
  /* Without a thread to join on, join here: blocking, but a stop must
   * always finish. */
  self->stop_thread = run_in_own_thread (task, "rp-session-stop", join_in_thread, NULL);
  if (self->stop_thread == NULL)
    join_in_thread (task, self, NULL, NULL);
  g_object_unref (task);
  return G_SOURCE_REMOVE;
}

/* Any thread: set the flag workers poll, wake the sleepers, and have the owner
 * context do the state change. @reason (an RP_ENDED_BY_* string) goes into
 * the report's "ended_by" note unless an earlier one did: a run stopped by
 * hand after 3 s of 30 must not read as a complete one. */
void
rp_session_schedule_stop (RpSession  *self,
                   const char *reason)
{
  gboolean schedule;

  g_atomic_int_set (&self->stopping, 1);

  g_mutex_lock (&self->lock);
  if (self->stop_asked == 0)
    self->stop_asked = rp_clock_now ();
  if (self->ended_by == NULL)
    {
      self->ended_by = reason;
      g_hash_table_replace (self->notes, g_strdup ("ended_by"), g_strdup (reason));
    }
  g_cond_broadcast (&self->stop_cond);
  schedule = !self->stop_scheduled && self->owner_context != NULL;
  self->stop_scheduled = TRUE;
  g_mutex_unlock (&self->lock);

  if (schedule)
    g_main_context_invoke_full (self->owner_context, G_PRIORITY_HIGH, begin_stop,
                                g_object_ref (self), g_object_unref);
}

/**
 * rp_session_stop:
 *
 * Asks the workers to stop and returns at once. Workers notice between calls
 * (a sleeping probe at once, a writer after its current write()); "finished"
 * follows when all have been joined. Safe to call more than once, and from any
 * thread.
 */
void
rp_session_stop (RpSession *self)
{
  g_return_if_fail (RP_IS_SESSION (self));

  rp_session_schedule_stop (self, RP_ENDED_BY_REQUEST);
}

/**
 * rp_session_set_stop_bound:
 * @seconds: how long a stop waits, from the request, for the threads to
 *   end and the files to close before it gives up on those stuck in the
 *   kernel; < 0 waits for ever (the matrix: it must unmount the cell's file
 *   system after, and lets an emulated device drain first). Default
 *   %RP_SESSION_STOP_BOUND_DEFAULT.
 *
 * Threads given up on are named in the note %RP_NOTE_ABANDONED_THREADS;
 * they go on to the end of their call and the session keeps what they use
 * until then. Call before the start.
 */
void
rp_session_set_stop_bound (RpSession *self,
                           double     seconds)
{
  g_return_if_fail (RP_IS_SESSION (self));

  self->stop_bound = seconds;
}

/**
 * rp_session_stop_async:
 * @callback: called on the owner context once the session is finished
 *
 * rp_session_stop(), then a callback when every worker is joined and every file
 * removed. Never blocks the caller.
 */
void
rp_session_stop_async (RpSession           *self,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  GTask *task;

  g_return_if_fail (RP_IS_SESSION (self));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, rp_session_stop_async);

  if (self->state == RP_SESSION_FINISHED || self->state == RP_SESSION_IDLE)
    {
      g_task_return_boolean (task, TRUE);
      g_object_unref (task);
      return;
    }

  g_ptr_array_add (self->stop_waiters, task);
  rp_session_schedule_stop (self, RP_ENDED_BY_REQUEST);
}

gboolean
rp_session_stop_finish (RpSession     *self,
                        GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (RP_IS_SESSION (self), FALSE);
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}
