/* main.c: entry point of resprobe, the GTK front end. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-application.h"
#include "rp-i18n.h"
#include "rp-memory.h"
#include "rp-session-bus.h"

/* How long the session bus gets to answer before the window goes on
 * without it: a dbus-daemon answers in milliseconds, even on a busy machine. */
#define SESSION_BUS_TIMEOUT_MS 5000

int
main (int   argc,
      char *argv[])
{
  g_autoptr(RpApplication) application = NULL;
  g_autoptr(GDBusConnection) session_bus = NULL;

  /* Before any thread: one malloc() arena under ulimit -v (rp-memory.c). */
  rp_memory_adapt_to_limit ();
  rp_i18n_init ();
  /* Before anything else touches the bus: GApplication would wait forever
   * for one that never answers (rp-session-bus.c). */
  session_bus = rp_session_bus_check (SESSION_BUS_TIMEOUT_MS);
  /* The name notifications and the session manager show. */
  /* TRANSLATORS: the application's name, as in its desktop entry */
  g_set_application_name (_("Responsiveness Probe"));

  application = rp_application_new ();
  return g_application_run (G_APPLICATION (application), argc, argv);
}
