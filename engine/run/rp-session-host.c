/* rp-session-host.c: the session as the parts see it: their RpPartHost. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-clock.h"
#include "rp-session-private.h"
#include "rp-target.h"

/* Any thread: the workers call these between their timed calls. */

/*
 * session_now:
 *
 * Returns: session time, seconds since the start
 */
static double
session_now (RpSession *self)
{
  return rp_clock_now () - self->t0;
}

/*
 * session_should_stop:
 *
 * Returns: %TRUE once a stop was requested; workers check it between calls
 */
static gboolean
session_should_stop (RpSession *self)
{
  return g_atomic_int_get (&self->stopping) != 0;
}

/*
 * session_sleep:
 * @seconds: how long
 *
 * Sleeps, waking at once when the session stops.
 *
 * Returns: %FALSE when the session is stopping (the worker should return)
 */
static gboolean
session_sleep (RpSession *self,
               double     seconds)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (seconds * G_USEC_PER_SEC);

  g_mutex_lock (&self->lock);
  while (!session_should_stop (self))
    if (!g_cond_wait_until (&self->stop_cond, &self->lock, deadline))
      break;
  g_mutex_unlock (&self->lock);
  return !session_should_stop (self);
}

/*
 * session_fail:
 * @error: (transfer full): what went wrong
 *
 * Records the first fatal error and stops the run. The series recorded so far
 * are kept, so the report shows what happened up to the failure.
 */
static void
session_fail (RpSession *self,
              GError    *error)
{
  g_mutex_lock (&self->lock);
  if (self->error == NULL)
    self->error = error;
  else
    g_error_free (error);
  g_mutex_unlock (&self->lock);

  rp_session_schedule_stop (self, RP_ENDED_BY_ERROR);
}

/*
 * session_load_done:
 *
 * A load finished its work (the writer wrote its size). When the scenario
 * says so, the run ends when the last load is done.
 */
static void
session_load_done (RpSession *self)
{
  gboolean all_done;

  g_mutex_lock (&self->lock);
  g_assert (self->loads_running > 0);
  all_done = --self->loads_running == 0;
  g_mutex_unlock (&self->lock);

  if (all_done && self->scenario->stop_when_loads_finish)
    rp_session_schedule_stop (self, RP_ENDED_BY_LOADS);
}

/*
 * session_get_spare_bytes:
 *
 * For loads that write until stopped (parallel writers without a size): how
 * many bytes they may keep on disk at once, together, so that the run still
 * leaves 5 % or 1 GiB free besides everything the other loads and probes
 * write. Computed from statvfs() before the workers are prepared.
 *
 * Returns: bytes (0 when nothing is left)
 */
static guint64
session_get_spare_bytes (RpSession *self)
{
  return self->spare_bytes;
}

/* ------------------------------------------------------------------------ */
/* RpPartHost: what the parts may ask of their run                           */

static const RpParams *
host_get_params (RpPartHost *host)
{
  return RP_SESSION (host)->live->params;
}

static const char *
host_get_directory (RpPartHost *host)
{
  return RP_SESSION (host)->live->directory;
}

static const char *
host_get_load_directory (RpPartHost *host)
{
  RpScenario *live = RP_SESSION (host)->live;

  return live->load_directory != NULL ? live->load_directory : live->directory;
}

static double
host_now (RpPartHost *host)
{
  return session_now (RP_SESSION (host));
}

static double
host_time_from_monotonic (RpPartHost *host,
                          double      monotonic_seconds)
{
  return rp_session_time_from_monotonic (RP_SESSION (host), monotonic_seconds);
}

static gboolean
host_should_stop (RpPartHost *host)
{
  return session_should_stop (RP_SESSION (host));
}

static gboolean
host_sleep (RpPartHost *host,
            double      seconds)
{
  return session_sleep (RP_SESSION (host), seconds);
}

static void
host_fail (RpPartHost *host,
           GError     *error)
{
  session_fail (RP_SESSION (host), error);
}

static void
host_load_done (RpPartHost *host)
{
  session_load_done (RP_SESSION (host));
}

static void
host_changed (RpPartHost *host)
{
  rp_session_schedule_update (RP_SESSION (host));
}

static guint64
host_get_spare_bytes (RpPartHost *host)
{
  return session_get_spare_bytes (RP_SESSION (host));
}

static int
host_open_tmpfile (RpPartHost  *host,
                   int          extra_flags,
                   GError     **error)
{
  return rp_target_open_tmpfile (RP_SESSION (host)->live->directory, extra_flags, error);
}

static RpSeries *
host_ensure_series (RpPartHost *host,
                    const char *name,
                    const char *unit,
                    const char *title)
{
  return rp_session_ensure_series (RP_SESSION (host), name, unit, title);
}

static void
host_set_note (RpPartHost *host,
               const char *key,
               const char *value)
{
  rp_session_set_note (RP_SESSION (host), key, value);
}

static RpCallRegistry *
host_get_calls (RpPartHost *host)
{
  return RP_SESSION (host)->calls;
}

void
rp_session_part_host_init (RpPartHostInterface *iface)
{
  iface->get_params = host_get_params;
  iface->get_directory = host_get_directory;
  iface->now = host_now;
  iface->time_from_monotonic = host_time_from_monotonic;
  iface->should_stop = host_should_stop;
  iface->sleep = host_sleep;
  iface->fail = host_fail;
  iface->load_done = host_load_done;
  iface->changed = host_changed;
  iface->get_spare_bytes = host_get_spare_bytes;
  iface->open_tmpfile = host_open_tmpfile;
  iface->ensure_series = host_ensure_series;
  iface->set_note = host_set_note;
  iface->get_calls = host_get_calls;
  iface->get_load_directory = host_get_load_directory;
}
