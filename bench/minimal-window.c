/* minimal-window.c: the reference of benchmark 8, the smallest GTK 4 application with a window. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <gtk/gtk.h>

/* A GtkApplication (so that it registers on the session bus and loads the
 * theme as resprobe does) with one window of resprobe's default size and a
 * label: the floor under any GTK 4 application's time to first frame. */

static void
on_activate (GtkApplication *application)
{
  GtkWidget *window = gtk_application_window_new (application);

  gtk_window_set_title (GTK_WINDOW (window), "minimal-window");
  gtk_window_set_default_size (GTK_WINDOW (window), 1200, 780);
  gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("Hello"));
  gtk_window_present (GTK_WINDOW (window));
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GtkApplication) application =
    gtk_application_new ("io.github.resprobe.BenchMinimalWindow", G_APPLICATION_DEFAULT_FLAGS);

  g_signal_connect (application, "activate", G_CALLBACK (on_activate), NULL);
  return g_application_run (G_APPLICATION (application), argc, argv);
}
