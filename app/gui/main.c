/* main.c: entry point of resprobe, the GTK front end. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>

#include "rp-application.h"
#include "rp-i18n.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(RpApplication) application = NULL;

  rp_i18n_init ();
  /* The name notifications and the session manager show. */
  /* TRANSLATORS: the application's name, as in its desktop entry */
  g_set_application_name (_("Responsiveness Probe"));

  application = rp_application_new ();
  return g_application_run (G_APPLICATION (application), argc, argv);
}
