/* bench-device.c: one emulated device raw on a loop device, held while fio measures it (bench row 16). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-device-profile.h"
#include "rp-emulated-device.h"
#include "rp-queue-state.h"
#include "rp-units.h"

/* Usage: bench-device PROFILE IMAGE-SIZE DIR (root). Sets the profile's
 * device up through rp-emulated-device.c (the matrix's code), puts a loop
 * device with direct I/O on its file, as the matrix does, and prints one
 * JSON line: the loop device and the figures the profile promises
 * (sequential rates in bytes per second, random 4 KiB latencies in
 * seconds; random_write is null when a write cache hides it). It holds
 * everything until its standard input closes, then detaches the loop
 * device, puts its queue settings back and takes the device down. */

static gboolean
losetup (const char *const *argv, char **out, GError **error)
{
  int status;

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, out, NULL, &status, error))
    return FALSE;
  return g_spawn_check_wait_status (status, error);
}

int
main (int argc, char **argv)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(RpDeviceChoice) choice = NULL;
  g_autoptr(RpQueueState) saved = NULL;
  g_autofree char *loop = NULL;
  RpEmulatedDevice *device;
  const RpDeviceProfile *profile;
  guint64 size;
  char buffer[64];
  int rc = 0;

  if (argc != 4)
    {
      g_printerr ("usage: bench-device PROFILE IMAGE-SIZE DIR\n");
      return 2;
    }
  if ((choice = rp_device_choice_parse (argv[1], &error)) == NULL ||
      !rp_parse_size (argv[2], "IMAGE-SIZE", &size, &error))
    {
      g_printerr ("bench-device: %s\n", error->message);
      return 2;
    }
  profile = rp_device_choice_get_profile (choice);
  rp_emulated_device_remove_leftovers (argv[3], NULL);
  device = rp_emulated_device_create (argv[3], profile, size, NULL, &error);
  if (device == NULL)
    {
      g_printerr ("bench-device: %s\n", error->message);
      return 1;
    }
  {
    const char *find[] = { "losetup", "-f", NULL };

    if (!losetup (find, &loop, &error))
      goto out;
    g_strstrip (loop);
  }
  if ((saved = rp_queue_state_save (loop + strlen ("/dev/"), &error)) == NULL)
    goto out;
  {
    const char *attach[] = { "losetup", "--direct-io=on", loop, rp_emulated_device_get_path (device), NULL };

    if (!losetup (attach, NULL, &error))
      goto out;
  }
  {
    g_autofree char *random_write = profile->cache > 0
      ? g_strdup ("null")
      : g_strdup_printf ("%.6f", rp_device_profile_random_write_latency (profile));

    printf ("{\"device\": \"%s\", \"read\": %.0f, \"write\": %.0f, \"random_read\": %.6f, \"random_write\": %s}\n",
            loop, profile->read_rate, profile->write_rate,
            rp_device_profile_random_read_latency (profile), random_write);
  }
  fflush (stdout);
  while (fgets (buffer, sizeof buffer, stdin) != NULL)
    ;
  {
    const char *detach[] = { "losetup", "-d", loop, NULL };

    losetup (detach, NULL, NULL);
  }
out:
  if (saved != NULL)
    {
      /* Detaching sets read-ahead again from the backing file, a moment later. */
      rp_queue_state_restore (saved, NULL);
      g_usleep (200 * 1000);
      rp_queue_state_restore (saved, NULL);
    }
  if (error != NULL)
    {
      g_printerr ("bench-device: %s\n", error->message);
      rc = 1;
    }
  if (!rp_emulated_device_destroy (device, &error))
    {
      g_printerr ("bench-device: %s\n", error->message);
      rc = 1;
    }
  return rc;
}
