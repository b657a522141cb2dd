/* resprobe-first-frame.c: a GTK window that exits once its first frame is drawn, for the app-start probe. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <gtk/gtk.h>
#include <stdio.h>

/* What Valente's comm_startup_lat times with xterm or LibreOffice is "started
 * until usable"; for a GTK program usable means drawn. This program is the
 * smallest honest case: it loads GTK, its theme and fonts as any GTK
 * application does, shows a window with a label, and exits with status 0
 * right after the frame clock's first paint, so that the time from exec()
 * to exit is the time to the first frame. Without a display it exits with
 * status 2 and says so. No GtkApplication: a second instance must not hand
 * its start over to a first one on the session bus. */

static void
on_after_paint (GdkFrameClock *clock,
                gpointer       data)
{
  gboolean *drawn = data;

  *drawn = TRUE;
}

static void
on_map (GtkWidget *window,
        gpointer   data)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint",
                    G_CALLBACK (on_after_paint), data);
}

int
main (int   argc,
      char *argv[])
{
  gboolean drawn = FALSE;
  GtkWidget *window;

  if (!gtk_init_check ())
    {
      fprintf (stderr, "resprobe-first-frame: cannot open a display (DISPLAY or WAYLAND_DISPLAY)\n");
      return 2;
    }
  window = gtk_window_new ();
  gtk_window_set_title (GTK_WINDOW (window), "resprobe-first-frame");
  gtk_window_set_default_size (GTK_WINDOW (window), 640, 400);
  gtk_window_set_child (GTK_WINDOW (window), gtk_label_new ("Responsiveness Probe"));
  g_signal_connect (window, "map", G_CALLBACK (on_map), &drawn);
  gtk_window_present (GTK_WINDOW (window));

  while (!drawn)
    g_main_context_iteration (NULL, TRUE);
  return 0;
}
