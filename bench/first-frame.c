/* first-frame.c: benchmark 8's stopwatch: from exec to the first paint of a program's first window. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Measured from outside, so that no application needs a hook: watch the X
 * server's root window for new top-level windows, put a DAMAGE object on each
 * as it is created (before the client can draw), start the program, and stop
 * the clock at the first damage after which a mapped top-level window shows
 * more than one colour: the X server's own fill of a window background on
 * map is damage too, but uniform, and is not a frame. The paint is timed by
 * the X server's stamp on the damage events, not by when this program got to
 * look at them (see paint_time()). Prints "map SECONDS" (when this program
 * saw the MapNotify, which X does not stamp) and "paint SECONDS" since just
 * before fork(), then ends the program with SIGTERM.
 * Usage: first-frame [-t TIMEOUT] PROGRAM [ARG…] (with DISPLAY set) */
/* _GNU_SOURCE comes from the project arguments (meson.build). */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <X11/Xlib.h>
#include <X11/Xatom.h>
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

/* Whether a 32 bits per pixel image has a pixel unlike its first one; only
 * the bits of the depth count (the padding byte of depth 24 is undefined). */
static int
differs_32 (XImage *image)
{
  uint32_t mask = image->depth >= 32 ? 0xffffffffu : (1u << image->depth) - 1;
  uint32_t first = *(const uint32_t *) image->data & mask;

  for (int y = 0; y < image->height; y++)
    {
      const uint32_t *row = (const uint32_t *) (image->data + (size_t) y * image->bytes_per_line);

      for (int x = 0; x < image->width; x++)
        if ((row[x] & mask) != first)
          return 1;
    }
  return 0;
}

/* Whether @window shows anything but one colour. The X server's fill of a
 * new window is one colour over the whole window, and all of it is read;
 * the scan runs beside the program being measured, on a machine of few
 * cores, so it compares words rather than call XGetPixel() 936,000 times. */
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
  if (image->bits_per_pixel == 32)
    found = differs_32 (image);
  else
    for (int y = 0; y < image->height && !found; y++)
      for (int x = 0; x < image->width && !found; x++)
        found = XGetPixel (image, x, y) != XGetPixel (image, 0, 0);
  XDestroyImage (image);
  return found;
}

/* The X server's clock (milliseconds, the stamp of its events) against
 * ours: the stamp of a property change on a window of our own, taken
 * halfway through the round trip. */
typedef struct
{
  Time   server;
  double local;
} Clock;

static Clock
calibrate_clock (Display *display)
{
  Window window = XCreateSimpleWindow (display, DefaultRootWindow (display), 0, 0, 1, 1, 0, 0, 0);
  Atom atom = XInternAtom (display, "FIRST_FRAME_CLOCK", False);
  XEvent event;
  Clock clock;
  double before;

  XSelectInput (display, window, PropertyChangeMask);
  before = now ();
  XChangeProperty (display, window, atom, XA_STRING, 8, PropModeReplace, (const unsigned char *) "", 0);
  XWindowEvent (display, window, PropertyChangeMask, &event);
  clock.local = (before + now ()) / 2;
  clock.server = event.xproperty.time;
  XDestroyWindow (display, window);
  return clock;
}

static double
server_to_local (Clock clock,
                 Time  stamp)
{
  /* Signed 32-bit difference: the server's clock wraps every 49 days. */
  return clock.local + (int32_t) (uint32_t) (stamp - clock.server) / 1000.0;
}

/* When the content that has_content() just saw was drawn. Every drawing the
 * server did before it answered XGetImage() has its damage event in our queue
 * by now (events come before the reply), and the image shows them all: the
 * latest of their stamps is when the window got its content, at the latest.
 * The time this program took to read and scan the image, or to be scheduled
 * at all, does not count: the clock used to stop when the event was read,
 * and a minimal window, which paints ~20 ms after it maps, was stamped late
 * by as long as the scan of the uniform fill before it took (10–45 ms). */
static double
paint_time (Display            *display,
            int                 damage_event,
            XDamageNotifyEvent *damage,
            Clock               clock)
{
  Time latest = damage->timestamp;
  XEvent event;

  while (XCheckTypedWindowEvent (display, damage->drawable, damage_event + XDamageNotify, &event))
    {
      Time stamp = ((XDamageNotifyEvent *) &event)->timestamp;

      if ((int32_t) (uint32_t) (stamp - latest) > 0)
        latest = stamp;
    }
  return server_to_local (clock, latest);
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
  Clock clock;
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
  clock = calibrate_clock (display);
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
      /* An event for every drawing, each with its stamp (paint_time()). */
      if (event.type == CreateNotify && !event.xcreatewindow.override_redirect)
        XDamageCreate (display, event.xcreatewindow.window, XDamageReportRawRectangles);
      else if (event.type == MapNotify && !event.xmap.override_redirect && mapped < 0)
        mapped = now () - start;
      else if (event.type == damage_event + XDamageNotify && mapped >= 0)
        {
          XDamageNotifyEvent *damage = (XDamageNotifyEvent *) &event;

          /* Raw rectangles report every drawing anyway; keep the region empty. */
          XDamageSubtract (display, damage->damage, None, None);
          if (has_content (display, damage->drawable))
            painted = paint_time (display, damage_event, damage, clock) - start;
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
