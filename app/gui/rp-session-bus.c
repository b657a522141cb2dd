/* rp-session-bus.c: the session bus, or none when it does not answer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-gui-util.h"
#include "rp-session-bus.h"

/* GApplication's registration, GTK's accessibility bridge and libadwaita's
 * settings portal all connect to the session bus with blocking calls that
 * have no timeout (g_bus_get_sync(): the authentication handshake waits for
 * the bus's first line forever). A bus that accepts and never answers (a hung
 * dbus-daemon, a stale socket of a frozen one) would then keep the window from
 * ever appearing. So the shared connection is made once up front, with a time
 * limit; when the bus does not answer, every later user is pointed at an
 * address that fails at once, and the application runs without the bus, as
 * GApplication does when there is none (one instance per start, no
 * notifications, no inhibiting suspend). */

/* What a cancelled connection attempt gets to notice its cancellation. */
#define CANCEL_GRACE_MS 1000

/* An address GDBus refuses without trying to connect. */
#define NO_BUS_ADDRESS "unix:path=/nonexistent/resprobe-session-bus-did-not-answer"

typedef struct {
  GDBusConnection *connection;
  gboolean answered;
  GError          *error;
  gboolean         done;
} BusCheck;

static void
on_bus (GObject      *source,
        GAsyncResult *result,
        gpointer      user_data)
{
  BusCheck *check = user_data;

  check->connection = g_bus_get_finish (result, &check->error);
  check->done = TRUE;
}

static gboolean
on_timeout (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates @context until @check is done or @timeout_ms have passed. */
static void
wait_for_bus (GMainContext *context,
              BusCheck     *check,
              guint         timeout_ms)
{
  gboolean timed_out = FALSE;
  GSource *timeout = g_timeout_source_new (timeout_ms);

  g_source_set_callback (timeout, on_timeout, &timed_out, NULL);
  g_source_attach (timeout, context);
  while (!check->done && !timed_out)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (timeout);
  g_source_unref (timeout);
}

/**
 * rp_session_bus_check:
 * @timeout_ms: how long the bus gets to accept the connection and answer
 *   (authentication and `Hello`), in milliseconds
 *
 * Connects to the session bus (the shared connection of g_bus_get_sync(),
 * which GApplication and GTK use afterwards) on the calling thread, waiting
 * at most @timeout_ms. Call it first in main(), before any other thread or
 * library may have touched the bus: when the bus does not answer in time,
 * it sets `DBUS_SESSION_BUS_ADDRESS` to an address that fails at once (so the
 * process runs without a session bus) and says so on standard error.
 *
 * Returns: (transfer full) (nullable): the session bus, to keep for the life
 *   of the application (the shared connection lives as long as someone holds
 *   it); %NULL when there is none or it did not answer
 */
GDBusConnection *
rp_session_bus_check (guint timeout_ms)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *address = NULL;
  g_autofree char *message = NULL;
  GDBusConnection *connection;
  gboolean answered;
  /* On the heap: an attempt that ignores its cancellation may still answer
   * (its callback is never dispatched, as nobody iterates @context again,
   * but it keeps a pointer). Freed once done. */
  BusCheck *check = g_new0 (BusCheck, 1);

  g_return_val_if_fail (timeout_ms > 0, NULL);

  /* No address at all: GLib fails at once by itself, nothing to wait for. */
  address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (address == NULL)
    {
      g_free (check);
      return NULL;
    }

  g_main_context_push_thread_default (context);
  g_bus_get (G_BUS_TYPE_SESSION, cancellable, on_bus, check);
  wait_for_bus (context, check, timeout_ms);
  answered = check->done;
  if (!answered)
    {
      g_cancellable_cancel (cancellable);
      /* Give the cancelled attempt a moment, so the half-made shared
       * connection is dropped before anyone asks for the bus again. */
      wait_for_bus (context, check, CANCEL_GRACE_MS);
    }
  g_main_context_pop_thread_default (context);
  if (check->connection != NULL)
    {
      connection = check->connection;
      g_free (check);
      return connection;
    }
  /* An error (no daemon at that address) is not ours to report: GLib's
   * users of the bus fail at once and carry on without it. */
  if (answered)
    {
      g_clear_error (&check->error);
      g_free (check);
      return NULL;
    }
  /* Cancelled in time: nothing will use @check any more. */
  if (check->done)
    {
      g_clear_error (&check->error);
      g_clear_pointer (&check, g_free);
    }
  g_setenv ("DBUS_SESSION_BUS_ADDRESS", NO_BUS_ADDRESS, TRUE);
  /* The accessibility bridge lives on the session bus: without one it would
   * only warn. */
  g_setenv ("GTK_A11Y", "none", FALSE);
  /* TRANSLATORS: %s is a D-Bus address such as unix:path=/run/user/1000/bus;
   * %.0f a number of seconds */
  message = g_strdup_printf (_("The session bus (%s) did not answer within %.0f s: running without it (no notifications, no single instance)"),
                             address, timeout_ms / 1000.0);
  rp_gui_printerr (message);
  return NULL;
}
