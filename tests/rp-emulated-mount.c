/* rp-emulated-mount.c: a file system on an emulated slow device, held while a test reads from it (root). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <stdio.h>

#include "rp-device-profile.h"
#include "rp-emulated-device.h"
#include "rp-loop-mount.h"

/* Usage: rp-emulated-mount PROFILE IMAGE-SIZE WORK-DIR LOOP-DEVICE
 *
 * The matrix's code (rp-emulated-device.c, rp-loop-mount.c) sets up PROFILE's
 * device (nbdkit with this project's filter, nbdfuse), LOOP-DEVICE (the
 * test's own, from loop_control add) on its file with direct I/O where the
 * file allows it, an ext4 file system on that, mounted under WORK-DIR, and
 * prints the mount point as one line. It holds everything until its
 * standard input closes, then takes it down in reverse, as a matrix cell
 * ends. tests/test-gui-felt.sh reads a file from it on the probe window's
 * main thread: a felt stall whose cause is known. */

int
main (int    argc,
      char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(RpDeviceChoice) choice = NULL;
  RpLoopMountQueue queue = { NULL, NULL, NULL, -1, NULL };
  RpEmulatedDevice *device;
  RpLoopMount *mount;
  char buffer[64];
  guint64 size;
  int rc = 0;

  if (argc != 5)
    {
      g_printerr ("usage: rp-emulated-mount PROFILE IMAGE-SIZE WORK-DIR LOOP-DEVICE\n");
      return 2;
    }
  choice = rp_device_choice_parse (argv[1], &error);
  size = g_ascii_strtoull (argv[2], NULL, 10) * 1024 * 1024;
  if (choice == NULL || size == 0)
    {
      g_printerr ("rp-emulated-mount: %s\n", error ? error->message : "IMAGE-SIZE is MiB, more than 0");
      return 2;
    }
  device = rp_emulated_device_create (argv[3], rp_device_choice_get_profile (choice), size, "ext4", &error);
  if (device == NULL)
    {
      g_printerr ("rp-emulated-mount: %s\n", error->message);
      return 1;
    }
  mount = rp_loop_mount_create_on_file (rp_emulated_device_get_directory (device),
                                        rp_emulated_device_get_path (device), "ext4", NULL,
                                        argv[4], &queue, &error);
  if (mount != NULL)
    {
      printf ("%s\n", rp_loop_mount_get_mount_point (mount));
      fflush (stdout);
      while (fgets (buffer, sizeof buffer, stdin) != NULL)
        ;
      if (!rp_loop_mount_destroy (mount, &error))
        rc = 1;
    }
  else
    rc = 1;
  if (error != NULL)
    g_printerr ("rp-emulated-mount: %s\n", error->message);
  g_clear_error (&error);
  if (!rp_emulated_device_destroy (device, &error))
    {
      g_printerr ("rp-emulated-mount: %s\n", error->message);
      rc = 1;
    }
  return rc;
}
