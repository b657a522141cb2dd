/* resprobe-canary.c: the probe window, a small application whose main loop, frames and input the window part measures. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gi18n.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-canary-protocol.h"
#include "rp-canary.h"
#include "rp-i18n.h"

/* Usage: resprobe-canary [--save-dir DIR]
 *
 * Started by the window part (engine/parts/rp-window-probes.c) with its
 * standard output and input as pipes. It shows a small window that
 * animates at every refresh of the output, measures its own main loop,
 * frames, input and wake-ups from the moment its start-up is over
 * (RP_CANARY_SETTLE after its first frame), and writes each sample as a
 * line (engine/base/rp-canary-protocol.h). It never does the measuring
 * application's work, so a sample of it is what the desktop did to an
 * application: the scheduler, the display server, the disk when it saves
 * (--save-dir: 256 KiB written and fsync()ed every second on its main
 * thread, the "simulate a naive save" of the window). It ends when its
 * standard input ends (the part stops, or its process is gone), on SIGTERM
 * and SIGINT, writing its notes first. Without a display it exits with
 * status 2 and says so. No GtkApplication: it must not hand itself over to
 * another instance on the session bus. */

static gboolean
on_input_line (gint         fd,
               GIOCondition condition,
               gpointer     user_data)
{
  RpCanary *self = user_data;
  char buffer[256];
  gssize n = read (fd, buffer, sizeof buffer);

  /* Only its end matters: the part closes its side to stop us. */
  if (n == 0 || (n < 0 && errno != EINTR && errno != EAGAIN))
    {
      self->quit = TRUE;
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

static gboolean
on_quit_signal (gpointer user_data)
{
  RpCanary *self = user_data;

  self->quit = TRUE;
  return G_SOURCE_CONTINUE;
}

static gboolean
on_read_signal (gpointer user_data)
{
  rp_canary_read_file (user_data);
  return G_SOURCE_CONTINUE;
}

static gboolean
on_settled (gpointer user_data)
{
  RpCanary *self = user_data;
  g_autoptr(GError) error = NULL;

  if (!rp_canary_start_probes (self, &error))
    {
      rp_canary_emit (self, "E %s", error->message);
      self->quit = TRUE;
    }
  return G_SOURCE_REMOVE;
}

/* Its first frame is on the screen: the start-up's lazy work (fonts,
 * styles, the renderer) is done or nearly; measure a moment later. */
static void
on_after_paint (GdkFrameClock *clock,
                RpCanary      *self)
{
  if (self->drawn)
    return;
  self->drawn = TRUE;
  rp_canary_place (self);
  g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) (RP_CANARY_SETTLE * 1000), on_settled, self, NULL);
}

static void
on_map (GtkWidget *window,
        RpCanary  *self)
{
  g_signal_connect (gtk_widget_get_frame_clock (window), "after-paint", G_CALLBACK (on_after_paint), self);
}

/* Closing the probe window by hand ends what it measures, not the run:
 * it says so in the report (note canary_closed). */
static gboolean
on_close_request (GtkWindow *window,
                  RpCanary  *self)
{
  rp_canary_emit (self, "N canary_closed yes");
  self->quit = TRUE;
  return TRUE;
}

static const char *
backend_name (void)
{
  const char *type = G_OBJECT_TYPE_NAME (gdk_display_get_default ());

  if (g_str_has_prefix (type, "GdkX11"))
    return "x11";
  if (g_str_has_prefix (type, "GdkWayland"))
    return "wayland";
  return "other";
}

static GtkWidget *
build_window (RpCanary *self)
{
  GtkWidget *window = self->window = gtk_window_new ();
  GtkWidget *box = gtk_box_new (GTK_ORIENTATION_VERTICAL, 8);
  GtkWidget *title = gtk_label_new (_("Measuring this window"));
  GtkWidget *text = gtk_label_new (_("Keep it in view. Point at it or type here to measure input."));

  /* TRANSLATORS: title of the small window whose frames and input are measured */
  gtk_window_set_title (GTK_WINDOW (window), _("Probe Window"));
  gtk_window_set_icon_name (GTK_WINDOW (window), "io.github.resprobe.Resprobe");
  /* A fixed size: tiling compositors (sway) float such a window, as a dialog,
   * rather than take half of the screen from the main window. */
  gtk_window_set_resizable (GTK_WINDOW (window), FALSE);
  gtk_widget_set_size_request (box, 280, -1);
  gtk_widget_set_margin_start (box, 16);
  gtk_widget_set_margin_end (box, 16);
  gtk_widget_set_margin_top (box, 12);
  gtk_widget_set_margin_bottom (box, 16);
  gtk_widget_add_css_class (title, "heading");
  gtk_label_set_xalign (GTK_LABEL (title), 0);
  gtk_label_set_wrap (GTK_LABEL (text), TRUE);
  gtk_label_set_max_width_chars (GTK_LABEL (text), 36);
  gtk_label_set_xalign (GTK_LABEL (text), 0);
  gtk_widget_add_css_class (text, "dim-label");
  self->pulse = rp_canary_pulse_new (self);
  gtk_box_append (GTK_BOX (box), title);
  gtk_box_append (GTK_BOX (box), text);
  gtk_box_append (GTK_BOX (box), self->pulse);
  gtk_window_set_child (GTK_WINDOW (window), box);
  g_signal_connect (window, "map", G_CALLBACK (on_map), self);
  g_signal_connect (window, "close-request", G_CALLBACK (on_close_request), self);
  rp_canary_watch_input (self);
  return window;
}

static gboolean
parse_options (int        *argc,
               char     ***argv,
               RpCanary   *self)
{
  const GOptionEntry entries[] = {
    { "save-dir", 0, 0, G_OPTION_ARG_FILENAME, &self->save_dir,
      "Every second, write and fsync 256 KiB in DIR on the main thread", "DIR" },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, argc, argv, &error))
    {
      fprintf (stderr, "resprobe-canary: %s\n", error->message);
      return FALSE;
    }
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  RpCanary self = { .out_fd = STDOUT_FILENO };
  const char *read_path = g_getenv (RP_CANARY_READ_ENV);

  rp_i18n_init ();
  if (!parse_options (&argc, &argv, &self))
    return 2;
  /* A 60 Hz animation of a small surface costs least with cairo; the GL
   * renderer would also start a driver (llvmpipe where there is no GPU),
   * whose cost is the probe window's, not the desktop's. */
  if (g_getenv ("GSK_RENDERER") == NULL)
    g_setenv ("GSK_RENDERER", "cairo", FALSE);
  /* The application's name, so that desktops group the probe window with
   * the main window (its desktop file, its icon). */
  g_set_prgname ("io.github.resprobe.Resprobe");
  if (!gtk_init_check ())
    {
      fprintf (stderr, "resprobe-canary: cannot open a display (DISPLAY or WAYLAND_DISPLAY)\n");
      return 2;
    }
  /* Numbers go out in the C locale, whatever the user's: the part reads
   * them with g_ascii_strtod() (gtk_init() set LC_ALL from the environment). */
  setlocale (LC_NUMERIC, "C");
  self.read_path = read_path != NULL && *read_path != '\0' ? g_strdup (read_path) : NULL;

  /* The reader gone: write() fails with EPIPE instead of killing us. */
  signal (SIGPIPE, SIG_IGN);
  g_unix_set_fd_nonblocking (self.out_fd, TRUE, NULL);
  g_unix_set_fd_nonblocking (STDIN_FILENO, TRUE, NULL);
  g_unix_fd_add (STDIN_FILENO, G_IO_IN | G_IO_HUP | G_IO_ERR, on_input_line, &self);
  g_unix_signal_add (SIGTERM, on_quit_signal, &self);
  g_unix_signal_add (SIGINT, on_quit_signal, &self);
  g_unix_signal_add (SIGUSR1, on_read_signal, &self);

  rp_canary_emit (&self, RP_CANARY_HELLO " %d %s", (int) getpid (), backend_name ());
  build_window (&self);
  gtk_window_present (GTK_WINDOW (self.window));

  while (!self.quit)
    g_main_context_iteration (NULL, TRUE);

  rp_canary_stop_probes (&self);
  rp_canary_frames_notes (&self);
  rp_canary_emit (&self, "N canary_lines_dropped %" G_GUINT64_FORMAT, self.lines_dropped);
  rp_canary_emit (&self, RP_CANARY_BYE);
  gtk_window_destroy (GTK_WINDOW (self.window));
  g_free (self.save_dir);
  g_free (self.read_path);
  return 0;
}
