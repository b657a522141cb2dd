/* rp-part-host.c: dispatch of the interface parts use to talk to their run. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-part-host.h"

G_DEFINE_INTERFACE (RpPartHost, rp_part_host, G_TYPE_OBJECT)

static void
rp_part_host_default_init (RpPartHostInterface *iface)
{
}

#define IFACE(self) (RP_PART_HOST_GET_IFACE (self))

/* The host whose method at @offset of the interface serves @self: @self,
 * or, where a host that stands in for another (get_run: RpLoadHost) leaves
 * the method NULL, that other one. Forwarding lives here once instead of
 * in a wrapper per method in each such host. */
static RpPartHost *
serving (RpPartHost *self,
         gsize       offset)
{
  while (G_STRUCT_MEMBER (gpointer, IFACE (self), offset) == NULL && IFACE (self)->get_run != NULL)
    self = IFACE (self)->get_run (self);
  return self;
}

#define SERVING(self, method) (serving ((self), G_STRUCT_OFFSET (RpPartHostInterface, method)))

/**
 * rp_part_host_get_params:
 *
 * Returns: (transfer none): the parameters of every part of the run, as it
 *   runs (after the start, with defaults resolved, e.g. the writer's size)
 */
const RpParams *
rp_part_host_get_params (RpPartHost *self)
{
  RpPartHost *host;

  g_return_val_if_fail (RP_IS_PART_HOST (self), NULL);
  host = SERVING (self, get_params);
  return IFACE (host)->get_params (host);
}

/**
 * rp_part_host_get_directory:
 *
 * Returns: (transfer none): the resolved target directory
 */
const char *
rp_part_host_get_directory (RpPartHost *self)
{
  RpPartHost *host;

  g_return_val_if_fail (RP_IS_PART_HOST (self), NULL);
  host = SERVING (self, get_directory);
  return IFACE (host)->get_directory (host);
}

/**
 * rp_part_host_get_load_directory:
 *
 * Where the run's loads write: a folder of their own (RpScenario's
 * load_directory: R6's USB stick) or, without one or for a host that has
 * no such method, rp_part_host_get_directory(). A probe that watches the
 * devices (the disk sampler) watches that folder's device too.
 *
 * Returns: (transfer none): the resolved directory
 */
const char *
rp_part_host_get_load_directory (RpPartHost *self)
{
  g_return_val_if_fail (RP_IS_PART_HOST (self), NULL);
  /* Not forwarded: a stand-in host's load folder is its own directory. */
  if (IFACE (self)->get_load_directory == NULL)
    return rp_part_host_get_directory (self);
  return IFACE (self)->get_load_directory (self);
}

/**
 * rp_part_host_now:
 *
 * Returns: run time, seconds since the start (the time axis of every series)
 */
double
rp_part_host_now (RpPartHost *self)
{
  RpPartHost *host = SERVING (self, now);

  return IFACE (host)->now (host);
}

/**
 * rp_part_host_time_from_monotonic:
 * @monotonic_seconds: a CLOCK_MONOTONIC time in seconds (rp_clock_now())
 *
 * Returns: the same instant as run time, seconds since the start
 */
double
rp_part_host_time_from_monotonic (RpPartHost *self,
                                  double      monotonic_seconds)
{
  RpPartHost *host = SERVING (self, time_from_monotonic);

  return IFACE (host)->time_from_monotonic (host, monotonic_seconds);
}

/**
 * rp_part_host_should_stop:
 *
 * Returns: %TRUE once a stop was requested; workers check it between calls
 */
gboolean
rp_part_host_should_stop (RpPartHost *self)
{
  RpPartHost *host = SERVING (self, should_stop);

  return IFACE (host)->should_stop (host);
}

/**
 * rp_part_host_sleep:
 * @seconds: how long
 *
 * Sleeps, waking at once when the run stops.
 *
 * Returns: %FALSE when the run is stopping (the worker should return)
 */
gboolean
rp_part_host_sleep (RpPartHost *self,
                    double      seconds)
{
  RpPartHost *host = SERVING (self, sleep);

  return IFACE (host)->sleep (host, seconds);
}

/**
 * rp_part_host_fail:
 * @error: (transfer full): what went wrong, naming the thing
 *
 * Records the first fatal error and stops the run; the samples so far stay.
 */
void
rp_part_host_fail (RpPartHost *self,
                   GError     *error)
{
  RpPartHost *host = SERVING (self, fail);

  IFACE (host)->fail (host, error);
}

/**
 * rp_part_host_load_done:
 *
 * A load finished its work (the writer wrote its size).
 */
void
rp_part_host_load_done (RpPartHost *self)
{
  RpPartHost *host = SERVING (self, load_done);

  IFACE (host)->load_done (host);
}

/**
 * rp_part_host_changed:
 *
 * New samples are there; the owner is told at most 20 times a second.
 */
void
rp_part_host_changed (RpPartHost *self)
{
  RpPartHost *host = SERVING (self, changed);

  IFACE (host)->changed (host);
}

/**
 * rp_part_host_get_spare_bytes:
 *
 * Returns: bytes that loads writing until stopped may keep on disk at once,
 *   together (0 when nothing is left)
 */
guint64
rp_part_host_get_spare_bytes (RpPartHost *self)
{
  RpPartHost *host = SERVING (self, get_spare_bytes);

  return IFACE (host)->get_spare_bytes (host);
}

/**
 * rp_part_host_open_tmpfile:
 * @extra_flags: added to O_RDWR | O_CLOEXEC, e.g. O_DIRECT
 * @error: %RP_ERROR_TARGET, %RP_ERROR_NO_SPACE or %RP_ERROR_IO naming the
 *   directory
 *
 * Returns: an anonymous file (mode 0600) in the target directory that
 *   nothing outlives, not even kill -9; -1 on error
 */
int
rp_part_host_open_tmpfile (RpPartHost  *self,
                           int          extra_flags,
                           GError     **error)
{
  RpPartHost *host = SERVING (self, open_tmpfile);

  return IFACE (host)->open_tmpfile (host, extra_flags, error);
}

/**
 * rp_part_host_ensure_series:
 * @name: stable name, e.g. "fsync_latency"
 * @unit: e.g. "s"
 * @title: (nullable): translated title
 *
 * Returns: (transfer none): the run's series of that name, created on first
 *   use; valid as long as the run
 */
RpSeries *
rp_part_host_ensure_series (RpPartHost *self,
                            const char *name,
                            const char *unit,
                            const char *title)
{
  RpPartHost *host = SERVING (self, ensure_series);

  return IFACE (host)->ensure_series (host, name, unit, title);
}

/**
 * rp_part_host_set_note:
 * @key: e.g. "copy_count"
 * @value: (nullable): text; %NULL removes the note
 *
 * A fact about the run that is not a time series; it goes into the report.
 */
void
rp_part_host_set_note (RpPartHost *self,
                       const char *key,
                       const char *value)
{
  RpPartHost *host = SERVING (self, set_note);

  IFACE (host)->set_note (host, key, value);
}

/**
 * rp_part_host_set_number_note:
 * @key: e.g. "writer_seconds"
 * @format: a printf() format of one double, e.g. "%.3f"
 * @value: the number, in the data model's units (seconds, bytes, ops/s)
 *
 * A number as a note, always with a decimal point: reports are read back
 * with g_ascii_strtod() whatever the locale they were written in ("0,015"
 * under de_DE would read as 0).
 */
void
rp_part_host_set_number_note (RpPartHost *self,
                              const char *key,
                              const char *format,
                              double      value)
{
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  rp_part_host_set_note (self, key, g_ascii_formatd (text, sizeof text, format, value));
}

/**
 * rp_part_host_get_calls:
 *
 * Returns: (transfer none): the run's registry of calls in flight, which
 *   the stall sampler watches and whose stalls go into the report
 */
RpCallRegistry *
rp_part_host_get_calls (RpPartHost *self)
{
  RpPartHost *host;

  g_return_val_if_fail (RP_IS_PART_HOST (self), NULL);
  host = SERVING (self, get_calls);
  return IFACE (host)->get_calls (host);
}

/**
 * rp_part_host_open_call:
 *
 * A worker thread's handle for its timed calls (rp_timed_call_begin() and
 * rp_timed_call_end() around each fsync(), write(), …): every timed call
 * goes through one, so that it is visible while in flight and its stall
 * gets a breakdown. Call it on the thread that makes the calls, once.
 *
 * Returns: (transfer none): valid as long as the run
 */
RpTimedCall *
rp_part_host_open_call (RpPartHost *self)
{
  return rp_call_registry_open (rp_part_host_get_calls (self));
}
