/* rp-session-stop.c: a session's stop within a bound, whatever the file system does. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <sys/stat.h>

#include "rp-clock.h"
#include "rp-session-private.h"

/* A thread in a call the kernel does not return from (fsync() on a FUSE
 * file system whose daemon is stopped, a dead NFS server) cannot be
 * interrupted, and neither can closing its file (FUSE's FLUSH waits for
 * the daemon too). Issue 33: a stop then waited 85 s and more, and a
 * second SIGTERM was not heard. So the joins and the closing happen on a
 * thread of their own, the closer, and the stop waits for it only until
 * the bound: then the parts still stuck are named in the report and the
 * run ends without them. The closer holds a reference on the session and
 * goes on joining them: nothing they use is freed under them. A closer
 * that finished in time is joined. */

/**
 * rp_session_worker_ended:
 * @worker: a worker whose thread is about to return
 *
 * Called last by each worker thread: the stop waits on this.
 */
void
rp_session_worker_ended (Worker *worker)
{
  RpSession *self = worker->session;

  g_mutex_lock (&self->lock);
  worker->ended = TRUE;
  g_cond_broadcast (&self->join_cond);
  g_mutex_unlock (&self->lock);
}

/* The files are anonymous and stay valid when their directory goes, so a run
 * whose target directory is removed measures on (what a load that needs a
 * new file per iteration, the copy loop, cannot: it stops with
 * RP_ERROR_TARGET). The report says it happened: the note
 * "target_directory_removed". */
static void
note_target_removed (RpSession *self)
{
  struct stat st;

  if (stat (self->scenario->directory, &st) == 0 ?
      st.st_dev != self->target_dev || st.st_ino != self->target_ino :
      errno == ENOENT || errno == ENOTDIR)
    rp_session_set_note (self, "target_directory_removed", "true");
}

static gpointer
closer_thread (gpointer data)
{
  RpSession *self = data;
  char text[G_ASCII_DTOSTR_BUF_SIZE];
  double closing_started;
  gboolean abandoned;

  for (guint i = 0; i < self->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (self->workers, i);

      if (worker->thread != NULL)
        g_thread_join (g_steal_pointer (&worker->thread));
    }
  g_mutex_lock (&self->lock);
  self->workers_joined_at = rp_clock_now ();
  g_mutex_unlock (&self->lock);

  /* Closing the files drops the unlinked data; it may take a moment on a
   * journaling file system. In the reverse order of the start, so that a
   * part started first (the kernel-events probe) still sees what the
   * others' closing does. */
  closing_started = rp_clock_now ();
  for (;;)
    {
      Worker *worker = NULL;

      /* Out of the array under the lock, which stuck_names() reads it
       * under; closed outside it. */
      g_mutex_lock (&self->lock);
      if (self->workers->len > 0)
        {
          worker = g_ptr_array_steal_index (self->workers, self->workers->len - 1);
          self->closing = worker->klass->name;
        }
      g_mutex_unlock (&self->lock);
      if (worker == NULL)
        break;
      rp_session_worker_free (worker);
    }
  g_mutex_lock (&self->lock);
  self->closing = NULL;
  abandoned = self->abandoned;
  g_mutex_unlock (&self->lock);
  /* After a stop that gave up, the report is made already: nothing more. */
  if (!abandoned)
    {
      /* On ext3/ext4 data=ordered a closed file may wait for the writeback
       * of its dirty pages first: minutes on a slow device (issue 20, R6). */
      rp_session_set_note (self, RP_NOTE_CLOSE_SECONDS,
                           g_ascii_formatd (text, sizeof text, "%.3f", rp_clock_now () - closing_started));
      note_target_removed (self);
    }

  g_mutex_lock (&self->lock);
  self->closed = TRUE;
  g_cond_broadcast (&self->join_cond);
  g_mutex_unlock (&self->lock);
  g_object_unref (self);
  return NULL;
}

/* Under the lock: the parts still stuck, "fsync-probe, seq-writer", or the
 * one whose files are being closed. */
static char *
stuck_names (RpSession *self)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < self->workers->len; i++)
    {
      Worker *worker = g_ptr_array_index (self->workers, i);

      if (!worker->ended)
        g_ptr_array_add (names, g_strdup (worker->klass->name));
    }
  if (names->len == 0 && self->closing != NULL)
    /* TRANSLATORS: %s is a part, e.g. "seq-writer" */
    g_ptr_array_add (names, g_strdup_printf (_("closing the files of %s"), self->closing));
  if (names->len == 0)
    g_ptr_array_add (names, g_strdup ("rp-session-close"));
  g_ptr_array_add (names, NULL);
  return g_strjoinv (", ", (char **) names->pdata);
}

/**
 * rp_session_stop_now:
 * @self: a session
 *
 * rp_session_stop(), and no more waiting: the threads still stuck in the
 * kernel a second after the first request are abandoned (as at the bound,
 * rp_session_set_stop_bound()),
 * or a start stuck in its preparation is answered. For a second request by
 * a user who will not wait (a second Ctrl-C or SIGTERM). Owner context.
 */
void
rp_session_stop_now (RpSession *self)
{
  g_return_if_fail (RP_IS_SESSION (self));

  rp_session_schedule_stop (self, RP_ENDED_BY_REQUEST);
  g_mutex_lock (&self->lock);
  /* A second's grace from the first request: a thread that is not stuck
   * sees a stop within it (a sleeping probe at once, a writer after its
   * write()), so two quick signals give up on none of those. */
  self->stop_bound = MIN (self->stop_bound < 0 ? G_MAXDOUBLE : self->stop_bound,
                          MAX (rp_clock_now () - self->stop_asked, 1.0));
  g_cond_broadcast (&self->join_cond);
  g_mutex_unlock (&self->lock);
  if (self->state == RP_SESSION_STARTING)
    rp_session_bound_start (self);
}

/**
 * rp_session_join_bounded:
 *
 * On the stop's thread: joins every worker and closes their files on the
 * closer thread, waiting for it until the session's stop bound from the
 * stop request (rp_session_set_stop_bound()). At the bound, notes which
 * parts are stuck (%RP_NOTE_ABANDONED_THREADS) and how long the stop
 * waited (%RP_NOTE_STOP_WAIT_SECONDS), and returns without them.
 */
void
rp_session_join_bounded (RpSession *self)
{
  g_autofree char *names = NULL;
  GThread *closer;
  gboolean closed;
  gint64 deadline;
  double waited;
  char text[G_ASCII_DTOSTR_BUF_SIZE];

  closer = g_thread_try_new ("rp-session-close", closer_thread, g_object_ref (self), NULL);
  if (closer == NULL)
    {
      /* No thread to spare: close here, without a bound, as before. */
      closer_thread (self);
      return;
    }

  /* The deadline anew after each wake-up: rp_session_stop_now() moves it. */
  g_mutex_lock (&self->lock);
  while (!self->closed)
    {
      if (self->stop_bound < 0)
        {
          g_cond_wait (&self->join_cond, &self->lock);
          continue;
        }
      deadline = g_get_monotonic_time () +
                 (gint64) ((self->stop_asked + self->stop_bound - rp_clock_now ()) * G_USEC_PER_SEC);
      if (g_get_monotonic_time () >= deadline ||
          (!g_cond_wait_until (&self->join_cond, &self->lock, deadline) && !self->closed))
        break;
    }
  closed = self->closed;
  if (!closed)
    {
      self->abandoned = TRUE;
      names = stuck_names (self);
    }
  waited = rp_clock_now () - self->stop_asked;
  g_mutex_unlock (&self->lock);
  /* Closed, the closer only drops its reference on the session (not the
   * last: the stop's task holds one), so join it: detached, it could drop
   * it after the owner had let go, and finalise the session on its own
   * while the process exited. One given up on goes on alone. */
  if (closed)
    {
      g_thread_join (closer);
      return;
    }
  g_thread_unref (closer);
  rp_session_set_note (self, RP_NOTE_ABANDONED_THREADS, names);
  rp_session_set_note (self, RP_NOTE_STOP_WAIT_SECONDS, g_ascii_formatd (text, sizeof text, "%.3f", waited));
}
