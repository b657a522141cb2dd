/* rp-virtual-input.c: a Wayland client of the tests that types and moves the pointer with real time stamps. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

/* Usage: rp-virtual-input [--keys N] [--motions N] [--interval-ms MS] [--zero-time]
 *        rp-virtual-input [--click-at X,Y] [--scroll-at X,Y,NOTCHES]…
 *
 * Connects to $WAYLAND_DISPLAY, creates a virtual keyboard
 * (zwp_virtual_keyboard_v1) and a virtual pointer (zwlr_virtual_pointer_v1),
 * both offered by wlroots compositors such as sway, and sends, every
 * --interval-ms, one absolute pointer motion across the output layout and one
 * press and release of the left Shift key (inert in any window). Every event
 * carries the CLOCK_MONOTONIC time in milliseconds, truncated to 32 bits: the
 * clock wlroots stamps its own input devices with and passes on to clients
 * unchanged. wtype sends 0 instead, which no client can measure against;
 * --zero-time sends 0 too, as wtype does, from a keyboard that lives as long
 * as this client (wtype's lives for its keys alone).
 * --click-at and --scroll-at (for screenshots of what lies below the fold:
 * headless sway has no pointer of its own) instead point at X,Y, in
 * thousandths of the output layout's width and height, and click the left
 * button there, or turn the wheel NOTCHES notches (down; up when negative),
 * in the order given; no keys or motions then unless asked for.
 * Prints one line per kind of event sent; exits 1 with a message when the
 * compositor lacks a protocol.
 *
 * The two protocols are not in Debian's wayland-protocols: their interfaces
 * are described below by hand, with only what this client sends. The request
 * order (the opcodes) and signatures follow the protocols'
 * definitions: virtual-keyboard-unstable-v1 (in wlroots' protocol/ folder)
 * version 1, wlr-virtual-pointer-unstable-v1 (wlr-protocols) version 1. */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create */
#endif
#include <errno.h>
#include <linux/input-event-codes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <wayland-client.h>
#include <xkbcommon/xkbcommon.h>

/* ------------------------------------------------------------------------- */
/* Protocol descriptions (requests only; neither interface has events). */

static const struct wl_interface zwp_virtual_keyboard_v1_interface;
static const struct wl_interface zwlr_virtual_pointer_v1_interface;

static const struct wl_interface *keyboard_manager_types[] = {
  &wl_seat_interface, &zwp_virtual_keyboard_v1_interface,
};
static const struct wl_message keyboard_manager_requests[] = {
  { "create_virtual_keyboard", "on", keyboard_manager_types },
};
static const struct wl_interface zwp_virtual_keyboard_manager_v1_interface = {
  "zwp_virtual_keyboard_manager_v1", 1, 1, keyboard_manager_requests, 0, NULL,
};

static const struct wl_interface *no_types[] = { NULL, NULL, NULL, NULL, NULL };
enum { KEYBOARD_KEYMAP, KEYBOARD_KEY, KEYBOARD_MODIFIERS, KEYBOARD_DESTROY };
static const struct wl_message keyboard_requests[] = {
  { "keymap", "uhu", no_types },
  { "key", "uuu", no_types },
  { "modifiers", "uuuu", no_types },
  { "destroy", "", no_types },
};
static const struct wl_interface zwp_virtual_keyboard_v1_interface = {
  "zwp_virtual_keyboard_v1", 1, 4, keyboard_requests, 0, NULL,
};

static const struct wl_interface *pointer_manager_types[] = {
  &wl_seat_interface, &zwlr_virtual_pointer_v1_interface,
};
enum { POINTER_MANAGER_CREATE, POINTER_MANAGER_DESTROY };
static const struct wl_message pointer_manager_requests[] = {
  { "create_virtual_pointer", "?on", pointer_manager_types },
  { "destroy", "", no_types },
};
static const struct wl_interface zwlr_virtual_pointer_manager_v1_interface = {
  "zwlr_virtual_pointer_manager_v1", 1, 2, pointer_manager_requests, 0, NULL,
};

enum { POINTER_MOTION, POINTER_MOTION_ABSOLUTE, POINTER_BUTTON, POINTER_AXIS, POINTER_FRAME,
       POINTER_AXIS_SOURCE, POINTER_AXIS_STOP, POINTER_AXIS_DISCRETE, POINTER_DESTROY };
static const struct wl_message pointer_requests[] = {
  { "motion", "uff", no_types },
  { "motion_absolute", "uuuuu", no_types },
  { "button", "uuu", no_types },
  { "axis", "uuf", no_types },
  { "frame", "", no_types },
  { "axis_source", "u", no_types },
  { "axis_stop", "uu", no_types },
  { "axis_discrete", "uufi", no_types },
  { "destroy", "", no_types },
};
static const struct wl_interface zwlr_virtual_pointer_v1_interface = {
  "zwlr_virtual_pointer_v1", 1, 9, pointer_requests, 0, NULL,
};

/* ------------------------------------------------------------------------- */

typedef struct {
  struct wl_seat    *seat;
  struct wl_proxy   *keyboard_manager;
  struct wl_proxy   *pointer_manager;
} Globals;

static void
on_global (void               *data,
           struct wl_registry *registry,
           uint32_t            name,
           const char         *interface,
           uint32_t            version)
{
  Globals *globals = data;

  (void) version;
  if (strcmp (interface, wl_seat_interface.name) == 0 && globals->seat == NULL)
    globals->seat = wl_registry_bind (registry, name, &wl_seat_interface, 1);
  else if (strcmp (interface, zwp_virtual_keyboard_manager_v1_interface.name) == 0)
    globals->keyboard_manager = wl_registry_bind (registry, name,
                                                  &zwp_virtual_keyboard_manager_v1_interface, 1);
  else if (strcmp (interface, zwlr_virtual_pointer_manager_v1_interface.name) == 0)
    globals->pointer_manager = wl_registry_bind (registry, name,
                                                 &zwlr_virtual_pointer_manager_v1_interface, 1);
}

static void
on_global_remove (void               *data,
                  struct wl_registry *registry,
                  uint32_t            name)
{
  (void) data, (void) registry, (void) name;
}

static const struct wl_registry_listener registry_listener = { on_global, on_global_remove };

/* CLOCK_MONOTONIC in milliseconds, modulo 2^32: the unit and clock of
 * Wayland input event times in wlroots. */
static int zero_time_stamps;

static uint32_t
now_ms (void)
{
  struct timespec ts;

  if (zero_time_stamps)
    return 0;

  clock_gettime (CLOCK_MONOTONIC, &ts);
  return (uint32_t) ((uint64_t) ts.tv_sec * 1000 + (uint64_t) ts.tv_nsec / 1000000);
}

/* The compositor needs a keymap before any key: the default one of
 * xkbcommon (evdev rules, "us"), handed over in a sealed memfd. */
static int
send_keymap (struct wl_proxy *keyboard)
{
  struct xkb_context *context = xkb_context_new (XKB_CONTEXT_NO_FLAGS);
  struct xkb_keymap *keymap = NULL;
  char *text = NULL;
  size_t size;
  int fd = -1, status = -1;

  if (context != NULL)
    keymap = xkb_keymap_new_from_names (context, NULL, XKB_KEYMAP_COMPILE_NO_FLAGS);
  if (keymap != NULL)
    text = xkb_keymap_get_as_string (keymap, XKB_KEYMAP_FORMAT_TEXT_V1);
  if (text == NULL)
    {
      fprintf (stderr, "rp-virtual-input: xkbcommon could not compile its default keymap\n");
      goto out;
    }
  size = strlen (text) + 1;
  fd = memfd_create ("rp-virtual-input-keymap", MFD_CLOEXEC);
  if (fd < 0 || write (fd, text, size) != (ssize_t) size)
    {
      fprintf (stderr, "rp-virtual-input: keymap file: %s\n", strerror (errno));
      goto out;
    }
  wl_proxy_marshal_flags (keyboard, KEYBOARD_KEYMAP, NULL, 1, 0,
                          (uint32_t) XKB_KEYMAP_FORMAT_TEXT_V1, fd, (uint32_t) size);
  status = 0;

out:
  if (fd >= 0)
    close (fd);
  free (text);
  xkb_keymap_unref (keymap);
  xkb_context_unref (context);
  return status;
}

/* Points at @x, @y (thousandths of the layout), then a left click, or
 * @notches wheel notches (15 units each, as libinput reports a notch). */
static void
point_and_act (struct wl_proxy *pointer,
               long             x,
               long             y,
               int              click,
               long             notches)
{
  wl_proxy_marshal_flags (pointer, POINTER_MOTION_ABSOLUTE, NULL, 1, 0, now_ms (),
                          (uint32_t) x, (uint32_t) y, (uint32_t) 1000, (uint32_t) 1000);
  wl_proxy_marshal_flags (pointer, POINTER_FRAME, NULL, 1, 0);
  if (click)
    {
      wl_proxy_marshal_flags (pointer, POINTER_BUTTON, NULL, 1, 0, now_ms (), (uint32_t) BTN_LEFT,
                              (uint32_t) WL_POINTER_BUTTON_STATE_PRESSED);
      wl_proxy_marshal_flags (pointer, POINTER_FRAME, NULL, 1, 0);
      wl_proxy_marshal_flags (pointer, POINTER_BUTTON, NULL, 1, 0, now_ms (), (uint32_t) BTN_LEFT,
                              (uint32_t) WL_POINTER_BUTTON_STATE_RELEASED);
      wl_proxy_marshal_flags (pointer, POINTER_FRAME, NULL, 1, 0);
    }
  for (long k = 0; k < labs (notches); k++)
    {
      int step = notches > 0 ? 1 : -1;

      wl_proxy_marshal_flags (pointer, POINTER_AXIS_SOURCE, NULL, 1, 0, (uint32_t) WL_POINTER_AXIS_SOURCE_WHEEL);
      wl_proxy_marshal_flags (pointer, POINTER_AXIS_DISCRETE, NULL, 1, 0, now_ms (),
                              (uint32_t) WL_POINTER_AXIS_VERTICAL_SCROLL, wl_fixed_from_int (15 * step), step);
      wl_proxy_marshal_flags (pointer, POINTER_FRAME, NULL, 1, 0);
    }
}

/* "X,Y" or "X,Y,N" into @out (three numbers; N 0 when missing). */
static int
parse_point (const char *text,
             long        out[3])
{
  int used = 0;

  out[2] = 0;
  if (sscanf (text, "%ld,%ld%n", &out[0], &out[1], &used) != 2)
    return 0;
  if (text[used] == ',' && sscanf (text + used + 1, "%ld%n", &out[2], &used) == 1)
    return out[0] >= 0 && out[0] <= 1000 && out[1] >= 0 && out[1] <= 1000 && labs (out[2]) <= 1000;
  return text[used] == '\0' && out[0] >= 0 && out[0] <= 1000 && out[1] >= 0 && out[1] <= 1000;
}

static long
parse_count (const char *text,
             const char *option)
{
  char *end;
  long value;

  errno = 0;
  value = strtol (text, &end, 10);
  if (errno != 0 || *end != '\0' || value < 0 || value > 100000)
    {
      fprintf (stderr, "rp-virtual-input: %s wants a number from 0 to 100000, not \"%s\"\n", option, text);
      exit (2);
    }
  return value;
}

int
main (int   argc,
      char *argv[])
{
  long keys = 10, motions = 10, interval_ms = 100;
  int zero_time = 0;
  Globals globals = { 0 };
  struct wl_display *display;
  struct wl_registry *registry;
  struct wl_proxy *keyboard, *pointer;
  uint32_t first_ms = 0, last_ms = 0;
  long i, n, actions[32][4];
  int n_actions = 0, counts_given = 0;

  for (i = 1; i < argc; i++)
    {
      if (i + 1 < argc && strcmp (argv[i], "--keys") == 0)
        keys = parse_count (argv[++i], "--keys"), counts_given = 1;
      else if (i + 1 < argc && strcmp (argv[i], "--motions") == 0)
        motions = parse_count (argv[++i], "--motions"), counts_given = 1;
      else if (i + 1 < argc && n_actions < 32 &&
               (strcmp (argv[i], "--click-at") == 0 || strcmp (argv[i], "--scroll-at") == 0))
        {
          actions[n_actions][3] = strcmp (argv[i], "--click-at") == 0;
          if (!parse_point (argv[++i], actions[n_actions]) || (actions[n_actions][3] && actions[n_actions][2] != 0))
            {
              fprintf (stderr, "rp-virtual-input: %s wants X,Y%s in thousandths of the layout, not \"%s\"\n",
                       argv[i - 1], actions[n_actions][3] ? "" : ",NOTCHES", argv[i]);
              return 2;
            }
          n_actions++;
        }
      else if (i + 1 < argc && strcmp (argv[i], "--interval-ms") == 0)
        interval_ms = parse_count (argv[++i], "--interval-ms");
      else if (strcmp (argv[i], "--zero-time") == 0)
        zero_time = 1;
      else
        {
          fprintf (stderr, "usage: rp-virtual-input [--keys N] [--motions N] [--interval-ms MS] [--zero-time] "
                   "[--click-at X,Y] [--scroll-at X,Y,NOTCHES]…\n");
          return 2;
        }
    }

  zero_time_stamps = zero_time;
  display = wl_display_connect (NULL);
  if (display == NULL)
    {
      fprintf (stderr, "rp-virtual-input: cannot connect to the Wayland display \"%s\"\n",
               getenv ("WAYLAND_DISPLAY") ? getenv ("WAYLAND_DISPLAY") : "wayland-0");
      return 1;
    }
  registry = wl_display_get_registry (display);
  wl_registry_add_listener (registry, &registry_listener, &globals);
  wl_display_roundtrip (display);
  if (globals.seat == NULL || globals.keyboard_manager == NULL || globals.pointer_manager == NULL)
    {
      fprintf (stderr, "rp-virtual-input: the compositor lacks%s%s%s\n",
               globals.seat ? "" : " wl_seat",
               globals.keyboard_manager ? "" : " zwp_virtual_keyboard_manager_v1",
               globals.pointer_manager ? "" : " zwlr_virtual_pointer_manager_v1");
      wl_display_disconnect (display);
      return 1;
    }

  keyboard = wl_proxy_marshal_flags (globals.keyboard_manager, 0, &zwp_virtual_keyboard_v1_interface,
                                     1, 0, globals.seat, NULL);
  pointer = wl_proxy_marshal_flags (globals.pointer_manager, POINTER_MANAGER_CREATE,
                                    &zwlr_virtual_pointer_v1_interface, 1, 0, globals.seat, NULL);
  if (send_keymap (keyboard) < 0)
    {
      wl_display_disconnect (display);
      return 1;
    }
  /* Let the compositor load the keymap before the first key. */
  if (wl_display_roundtrip (display) < 0)
    {
      fprintf (stderr, "rp-virtual-input: the compositor closed the connection (keymap refused?)\n");
      return 1;
    }

  /* Without a pointer of its own (WLR_LIBINPUT_NO_DEVICES), the seat gains
   * one with this client, and a window binds it on the capability event:
   * events before that are lost (seen: no scroll, no click). One motion,
   * then a pause, then the actions. */
  if (n_actions > 0)
    {
      point_and_act (pointer, actions[0][0], actions[0][1], 0, 0);
      wl_display_roundtrip (display);
      usleep (500 * 1000);
    }
  for (i = 0; i < n_actions; i++)
    {
      point_and_act (pointer, actions[i][0], actions[i][1], (int) actions[i][3], actions[i][2]);
      if (wl_display_roundtrip (display) < 0)
        {
          fprintf (stderr, "rp-virtual-input: the compositor closed the connection\n");
          return 1;
        }
      usleep ((useconds_t) interval_ms * 1000);
    }
  if (n_actions > 0)
    {
      printf ("pointed %d times (clicks and wheel turns)\n", n_actions);
      if (!counts_given)
        keys = motions = 0;
    }

  n = keys > motions ? keys : motions;
  for (i = 0; i < n; i++)
    {
      if (i < motions)
        {
          /* Across the middle of the layout, where the window is. */
          uint32_t t = now_ms ();

          wl_proxy_marshal_flags (pointer, POINTER_MOTION_ABSOLUTE, NULL, 1, 0, t,
                                  (uint32_t) (300 + (i * 37) % 400), (uint32_t) (300 + (i * 53) % 400),
                                  (uint32_t) 1000, (uint32_t) 1000);
          wl_proxy_marshal_flags (pointer, POINTER_FRAME, NULL, 1, 0);
          if (first_ms == 0)
            first_ms = t;
          last_ms = t;
        }
      if (i < keys)
        {
          wl_proxy_marshal_flags (keyboard, KEYBOARD_KEY, NULL, 1, 0, now_ms (),
                                  (uint32_t) KEY_LEFTSHIFT, (uint32_t) WL_KEYBOARD_KEY_STATE_PRESSED);
          wl_proxy_marshal_flags (keyboard, KEYBOARD_KEY, NULL, 1, 0, now_ms (),
                                  (uint32_t) KEY_LEFTSHIFT, (uint32_t) WL_KEYBOARD_KEY_STATE_RELEASED);
          last_ms = now_ms ();
          if (first_ms == 0)
            first_ms = last_ms;
        }
      if (wl_display_roundtrip (display) < 0)
        {
          fprintf (stderr, "rp-virtual-input: the compositor closed the connection\n");
          return 1;
        }
      usleep ((useconds_t) interval_ms * 1000);
    }

  if (n == 0)
    ;
  else if (zero_time)
    printf ("sent %ld pointer motions and %ld Shift presses, time stamps 0\n", motions, keys);
  else
    printf ("sent %ld pointer motions and %ld Shift presses, time stamps %u..%u ms (CLOCK_MONOTONIC)\n",
            motions, keys, first_ms, last_ms);
  wl_proxy_marshal_flags (keyboard, KEYBOARD_DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
  wl_proxy_marshal_flags (pointer, POINTER_DESTROY, NULL, 1, WL_MARSHAL_FLAG_DESTROY);
  wl_display_roundtrip (display);
  wl_display_disconnect (display);
  return 0;
}
