/* first-frame.c: benchmark 8's stopwatch: from exec to the first paint of a program's first window. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Measured from outside, so that no application needs a hook: watch the X
 * server's root window for new top-level windows, put a DAMAGE object on each
 * as it is created (before the client can draw), start the program, and stop
 * the clock at the first damage after which a mapped top-level window shows
 * more than one colour: the X server's own fill of a window background on
 * map is damage too, but uniform, and is not a frame. Prints "map SECONDS" and "paint SECONDS" since
 * just before fork(), then ends the program with SIGTERM.
 * Usage: first-frame [-t TIMEOUT] PROGRAM [ARG…] (with DISPLAY set) */
/* _GNU_SOURCE comes from the project arguments (meson.build). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <X11/Xlib.h>
#include <X11/Xutil.h>
#include <X11/extensions/Xdamage.h>

static double
now (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* A window may be gone (or be InputOnly, which DAMAGE refuses) by the time we
 * ask about it: that is not an error here. */
static int
ignore_errors (Display     *display,
               XErrorEvent *event)
{
  return 0;
}

/* Whether @window shows anything but one colour. */
static int
has_content (Display *display,
             Window   window)
{
  XWindowAttributes attributes;
  XImage *image;
  int found = 0;

  if (!XGetWindowAttributes (display, window, &attributes))
    return 0;
  image = XGetImage (display, window, 0, 0, attributes.width, attributes.height,
                     AllPlanes, ZPixmap);
  if (image == NULL)
    return 0;
  for (int y = 0; y < image->height && !found; y++)
    for (int x = 0; x < image->width && !found; x++)
      found = XGetPixel (image, x, y) != XGetPixel (image, 0, 0);
  XDestroyImage (image);
  return found;
}

static void
stop_child (pid_t pid)
{
  kill (pid, SIGTERM);
  for (int i = 0; i < 50; i++)
    {
      if (waitpid (pid, NULL, WNOHANG) == pid)
        return;
      usleep (100000);
    }
  kill (pid, SIGKILL);
  waitpid (pid, NULL, 0);
}

int
main (int   argc,
      char *argv[])
{
  double timeout = 30, start, mapped = -1, painted = -1;
  int first = 1, damage_event, damage_error;
  Display *display;
  Window root;
  pid_t pid;

  if (argc > 2 && strcmp (argv[1], "-t") == 0)
    {
      timeout = atof (argv[2]);
      first = 3;
    }
  if (first >= argc)
    {
      fprintf (stderr, "usage: %s [-t TIMEOUT] PROGRAM [ARG…]\n", argv[0]);
      return 2;
    }

  display = XOpenDisplay (NULL);
  if (display == NULL)
    {
      fprintf (stderr, "first-frame: cannot open the display\n");
      return 1;
    }
  if (!XDamageQueryExtension (display, &damage_event, &damage_error))
    {
      fprintf (stderr, "first-frame: the X server has no DAMAGE extension\n");
      return 1;
    }
  XSetErrorHandler (ignore_errors);
  root = DefaultRootWindow (display);
  XSelectInput (display, root, SubstructureNotifyMask);
  XSync (display, False);

  start = now ();
  pid = fork ();
  if (pid < 0)
    {
      perror ("fork");
      return 1;
    }
  if (pid == 0)
    {
      close (ConnectionNumber (display));
      execvp (argv[first], argv + first);
      perror (argv[first]);
      _exit (127);
    }

  while (painted < 0 && now () - start < timeout)
    {
      struct pollfd pfd = { ConnectionNumber (display), POLLIN, 0 };
      XEvent event;

      if (XPending (display) == 0)
        {
          if (poll (&pfd, 1, 100) < 0 && errno != EINTR)
            break;
          if (waitpid (pid, NULL, WNOHANG) == pid)
            {
              fprintf (stderr, "first-frame: %s exited before painting\n", argv[first]);
              return 1;
            }
          continue;
        }

      XNextEvent (display, &event);
      if (event.type == CreateNotify && !event.xcreatewindow.override_redirect)
        XDamageCreate (display, event.xcreatewindow.window, XDamageReportNonEmpty);
      else if (event.type == MapNotify && !event.xmap.override_redirect && mapped < 0)
        mapped = now () - start;
      else if (event.type == damage_event + XDamageNotify && mapped >= 0)
        {
          XDamageNotifyEvent *damage = (XDamageNotifyEvent *) &event;
          double when = now () - start;

          /* Re-arm, so that the next drawing reports again. */
          XDamageSubtract (display, damage->damage, None, None);
          if (has_content (display, damage->drawable))
            painted = when;
        }
    }

  stop_child (pid);
  if (painted < 0)
    {
      fprintf (stderr, "first-frame: no paint within %.0f s\n", timeout);
      return 1;
    }
  printf ("map %.4f\npaint %.4f\n", mapped, painted);
  return 0;
}
