/* resprobed.c: the privileged helper of Responsiveness Probe, a D-Bus system service activated on demand. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <stdlib.h>
#include <unistd.h>

#include "rp-helper-service.h"

/* Sysprof's model (sysprofd): the application and the CLI run as the user;
 * this small program, started by the system bus when a client first calls
 * it (io.github.resprobe.Helper1.service), performs the few privileged
 * operations after polkit has authorized the caller's bus name, hands back
 * file descriptors, and exits when it has had nothing to do for a while.
 * The threat model and what each method allows: docs/SECURITY.md. */

/* s: long enough that a client's next call (the window's next run) finds
 * it running, short enough that it is not a resident root process. */
#define IDLE_SECONDS 30

static GMainLoop *loop;
static int exit_status = EXIT_SUCCESS;

static gboolean
on_idle (gpointer data)
{
  g_debug ("Idle for a while: exiting");
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static gboolean
on_signal (gpointer data)
{
  g_main_loop_quit (loop);
  return G_SOURCE_REMOVE;
}

static void
on_name_lost (GDBusConnection *bus,
              const char      *name,
              gpointer         data)
{
  /* NULL bus: the connection closed; else another owns the name (a second
   * helper started by hand). Either way there is nobody to serve. */
  gboolean closed = bus == NULL || g_dbus_connection_is_closed (bus);

  g_message ("%s lost (%s): exiting", name, closed ? "the bus went" : "another owns it");
  if (!closed)
    exit_status = EXIT_FAILURE;
  g_main_loop_quit (loop);
}

static void
on_name_acquired (GDBusConnection *bus,
                  const char      *name,
                  gpointer         data)
{
  g_debug ("%s acquired", name);
}

int
main (int    argc,
      char **argv)
{
  guint idle_seconds = IDLE_SECONDS;
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GOptionContext) context = NULL;
  RpHelperService *service;
  guint owner;
  int idle_arg = -1;
  const GOptionEntry entries[] = {
    { "idle-seconds", 0, 0, G_OPTION_ARG_INT, &idle_arg, "Exit after this many idle seconds (30)", "S" },
    { NULL }
  };

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  context = g_option_context_new ("- the privileged helper of Responsiveness Probe");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("resprobed: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if (idle_arg > 0)
    idle_seconds = (guint) idle_arg;
  if (geteuid () != 0)
    {
      g_printerr ("resprobed: must run as root (the system bus starts it so)\n");
      return EXIT_FAILURE;
    }

  bus = g_bus_get_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  if (bus == NULL)
    {
      g_printerr ("resprobed: no bus: %s\n", error->message);
      return EXIT_FAILURE;
    }
  /* The main loop ends when the bus goes (on_name_lost), so that the
   * instances are removed, instead of the process just exiting. */
  g_dbus_connection_set_exit_on_close (bus, FALSE);
  loop = g_main_loop_new (NULL, FALSE);
  service = rp_helper_service_new (bus, idle_seconds, on_idle, NULL, &error);
  if (service == NULL)
    {
      g_printerr ("resprobed: %s\n", error->message);
      return EXIT_FAILURE;
    }
  owner = g_bus_own_name_on_connection (bus, RP_HELPER_BUS_NAME, G_BUS_NAME_OWNER_FLAGS_DO_NOT_QUEUE,
                                        on_name_acquired, on_name_lost, NULL, NULL);
  g_unix_signal_add (SIGTERM, on_signal, NULL);
  g_unix_signal_add (SIGINT, on_signal, NULL);
  g_unix_signal_add (SIGHUP, on_signal, NULL);

  g_main_loop_run (loop);

  /* The name first: a client that calls now starts a new helper. */
  g_bus_unown_name (owner);
  rp_helper_service_free (service);
  g_main_loop_unref (loop);
  return exit_status;
}
