/* rp-timerfd-source.c: a periodic GSource on a timerfd, for measuring main-loop lateness. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <math.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-timerfd-source.h"

/* Why a timerfd and not g_timeout_add(): GLib timeouts are rounded to the
 * millisecond of the poll() timeout and re-armed relative to their dispatch, so
 * their "expiry" is not a fixed schedule. A CLOCK_MONOTONIC timerfd expires on
 * an absolute grid (start + k × period) with hrtimer (nanosecond) precision and
 * wakes poll() through its fd, so dispatch − expiry is exactly how long the
 * main loop kept the timer waiting. */
typedef struct {
  GSource   source;
  gpointer  tag;
  int       fd;
  double    start;
  double    period;
  guint64   expirations;
} RpTimerfdSource;

static gboolean
rp_timerfd_source_check (GSource *source)
{
  RpTimerfdSource *self = (RpTimerfdSource *) source;

  return (g_source_query_unix_fd (source, self->tag) & G_IO_IN) != 0;
}

static gboolean
rp_timerfd_source_dispatch (GSource     *source,
                            GSourceFunc  callback,
                            gpointer     user_data)
{
  RpTimerfdSource *self = (RpTimerfdSource *) source;
  RpTimerfdFunc func = (RpTimerfdFunc) (void (*) (void)) callback;
  guint64 count = 0;
  double now, expiry;

  /* A non-blocking read of 8 bytes from a timer, not I/O on a disk. */
  if (read (self->fd, &count, sizeof count) != sizeof count || count == 0)
    return G_SOURCE_CONTINUE;
  now = rp_clock_now ();

  /* The oldest pending expiration is the one the main loop kept waiting the
   * longest; later ones that passed meanwhile are reported as missed. */
  expiry = self->start + (double) (self->expirations + 1) * self->period;
  self->expirations += count;

  if (func == NULL)
    return G_SOURCE_CONTINUE;
  return func (expiry, now, count - 1, user_data);
}

static void
rp_timerfd_source_finalize (GSource *source)
{
  RpTimerfdSource *self = (RpTimerfdSource *) source;

  if (self->fd >= 0)
    close (self->fd);
}

static GSourceFuncs rp_timerfd_source_funcs = {
  .prepare = NULL,
  .check = rp_timerfd_source_check,
  .dispatch = rp_timerfd_source_dispatch,
  .finalize = rp_timerfd_source_finalize,
};

static struct timespec
timespec_from_seconds (double seconds)
{
  struct timespec ts;

  ts.tv_sec = (time_t) floor (seconds);
  ts.tv_nsec = (long) ((seconds - floor (seconds)) * 1e9);
  if (ts.tv_nsec >= 1000000000)
    {
      ts.tv_sec++;
      ts.tv_nsec -= 1000000000;
    }
  return ts;
}

/**
 * rp_timerfd_source_new:
 * @period: seconds between expirations, e.g. 0.01
 * @error: %RP_ERROR_FAILED when the kernel refuses a timerfd
 *
 * A source that fires every @period on an absolute CLOCK_MONOTONIC schedule
 * starting one period from now. Set an #RpTimerfdFunc with
 * g_source_set_callback() (cast to #GSourceFunc) and attach it. The source
 * can recurse: its callback must not iterate the main context.
 *
 * Returns: (transfer full) (nullable): the source
 */
GSource *
rp_timerfd_source_new (double   period,
                       GError **error)
{
  RpTimerfdSource *self;
  struct itimerspec spec;
  GSource *source;
  int fd;

  g_return_val_if_fail (period > 0, NULL);

  fd = timerfd_create (CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
  if (fd < 0)
    {
      int saved_errno = errno;

      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("Could not create a timer: %s"), g_strerror (saved_errno));
      return NULL;
    }

  source = g_source_new (&rp_timerfd_source_funcs, sizeof (RpTimerfdSource));
  g_source_set_name (source, "[resprobe] main-loop lateness timer");
  self = (RpTimerfdSource *) source;
  self->fd = fd;
  self->period = period;
  self->start = rp_clock_now ();
  self->tag = g_source_add_unix_fd (source, fd, G_IO_IN);
  /* GLib blocks a source that cannot recurse while it dispatches it: it
   * takes the source's fd out of the poll set and puts it back, and each
   * change writes to the context's wake-up eventfd. At 100 Hz that is 200
   * writes a second and 100 extra main-loop iterations (poll, the eventfd
   * read, GDK's XPending, every source's prepare and check). A callback
   * that does not iterate the main context, as it must not (see below),
   * cannot recurse anyway. */
  g_source_set_can_recurse (source, TRUE);

  spec.it_interval = timespec_from_seconds (period);
  spec.it_value = timespec_from_seconds (self->start + period);
  /* The start and the period are what the kernel was given, rounded to
   * whole nanoseconds, so that our expiry arithmetic and the kernel's grid
   * agree to the nanosecond however many periods go by: with 1/60 s as
   * given, the grid would drift 6.7 ms from ours in 10^7 periods, and the
   * lateness would come out too small, even negative. */
  self->period = spec.it_interval.tv_sec + spec.it_interval.tv_nsec * 1e-9;
  self->start = spec.it_value.tv_sec + spec.it_value.tv_nsec * 1e-9 - self->period;
  if (timerfd_settime (fd, TFD_TIMER_ABSTIME, &spec, NULL) < 0)
    {
      int saved_errno = errno;

      g_source_unref (source);
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("Could not start a timer: %s"), g_strerror (saved_errno));
      return NULL;
    }
  return source;
}
