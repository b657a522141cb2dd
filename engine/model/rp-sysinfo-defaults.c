/* rp-sysinfo-defaults.c: the queue settings the kernel gives a block device, to tell changed ones. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "rp-sysinfo-defaults.h"

/* A run on a device whose queue was changed by somebody (a previous matrix, a
 * udev rule, a tuning script) measures that configuration, not the kernel's.
 * The kernel's choice for a blk-mq device, from Linux 5.0 on:
 *
 * - I/O scheduler (block/elevator.c, elevator_get_default()): "none" when the
 *   driver asks for it (BLK_MQ_F_NO_SCHED_BY_DEFAULT: the loop driver does,
 *   since Linux 5.15) or the device has more than one hardware queue (NVMe),
 *   else "mq-deadline".
 * - Writeback throttling (block/blk-wbt.c, wbt_default_latency_nsec()): 75 ms
 *   on a rotational disk, 2 ms otherwise, set when the queue is registered;
 *   bfq turns it off (0) while it is selected (ELEVATOR_FLAG_DISABLE_WBT) and
 *   leaving bfq sets the default again. A loop device is registered as
 *   non-rotational, so it keeps 2000 µs even after attaching to a rotational
 *   backing file makes it rotational.
 * - A loop device's direct I/O: off unless asked for (LO_FLAGS_DIRECT_IO,
 *   `losetup --direct-io=on`); neither losetup nor `mount -o loop` asks.
 *
 * What a fresh loop device gets was read on Linux 6.18 from one created with
 * LOOP_CTL_ADD (tests/test-loop-sysinfo.sh does it again as root and checks
 * that such a device counts as unchanged). Read-ahead is not judged: the
 * kernel itself sets it when a loop device is attached (from its backing
 * file) and drivers choose their own. Devices without mq/ in sysfs (bio-based
 * device-mapper and md, or a fixture of an older kernel) are not judged. */

#define LOOP_DEFAULT_SCHEDULER "none"
#define WBT_ROTATIONAL_USEC    "75000"
#define WBT_SOLID_STATE_USEC   "2000"

/**
 * rp_queue_settings_clear:
 * @settings: settings read from sysfs
 *
 * Frees the strings of @settings and makes everything unknown.
 */
void
rp_queue_settings_clear (RpQueueSettings *settings)
{
  g_clear_pointer (&settings->scheduler, g_free);
  g_clear_pointer (&settings->available, g_free);
  g_clear_pointer (&settings->wbt_lat_usec, g_free);
  g_clear_pointer (&settings->read_ahead_kb, g_free);
  settings->rotational = -1;
  settings->n_hw_queues = 0;
  settings->loop_direct_io = -1;
}

static gboolean
is_loop_disk (const char *disk)
{
  return g_str_has_prefix (disk, "loop") && g_ascii_isdigit (disk[strlen ("loop")]);
}

/* NULL when the kernel's choice cannot be told. */
static const char *
default_scheduler (const char            *disk,
                   const RpQueueSettings *settings)
{
  if (settings->n_hw_queues == 0 || settings->available == NULL)
    return NULL;
  if (is_loop_disk (disk) || settings->n_hw_queues > 1)
    return LOOP_DEFAULT_SCHEDULER;
  return strstr (settings->available, "mq-deadline") != NULL ? "mq-deadline" : "none";
}

static const char *
default_wbt (const char            *disk,
             const RpQueueSettings *settings)
{
  if (settings->n_hw_queues == 0 || settings->wbt_lat_usec == NULL)
    return NULL;
  if (g_strcmp0 (settings->scheduler, "bfq") == 0)
    return "0";
  if (is_loop_disk (disk))
    return WBT_SOLID_STATE_USEC;
  if (settings->rotational < 0)
    return NULL;
  return settings->rotational ? WBT_ROTATIONAL_USEC : WBT_SOLID_STATE_USEC;
}

static void
append_item (GString    *out,
             const char *item)
{
  if (out->len > 0)
    g_string_append (out, "; ");
  g_string_append (out, item);
}

/**
 * rp_queue_settings_append_changed:
 * @disk: kernel name of the disk, e.g. "loop3", "sda"
 * @settings: its queue settings as read from sysfs
 * @out: where to append, items separated by "; "
 *
 * Appends, untranslated and named as in sysfs (it goes into reports, e.g.
 * "loop3 scheduler bfq (default none)"), each setting of @settings that differs
 * from what the kernel gives such a device (the rules at the top of this
 * file): the I/O scheduler, wbt_lat_usec, and a loop device's direct I/O.
 * Appends nothing for what cannot be told.
 */
void
rp_queue_settings_append_changed (const char            *disk,
                                  const RpQueueSettings *settings,
                                  GString               *out)
{
  const char *scheduler = default_scheduler (disk, settings);
  const char *wbt = default_wbt (disk, settings);

  g_return_if_fail (disk != NULL && settings != NULL && out != NULL);

  if (scheduler != NULL && settings->scheduler != NULL && !g_str_equal (scheduler, settings->scheduler))
    {
      g_autofree char *item = g_strdup_printf ("%s scheduler %s (default %s)",
                                               disk, settings->scheduler, scheduler);
      append_item (out, item);
    }
  if (wbt != NULL && !g_str_equal (wbt, settings->wbt_lat_usec))
    {
      g_autofree char *item = g_strdup_printf ("%s wbt_lat_usec %s (default %s)",
                                               disk, settings->wbt_lat_usec, wbt);
      append_item (out, item);
    }
  if (is_loop_disk (disk) && settings->loop_direct_io == 1)
    {
      g_autofree char *item = g_strdup_printf ("%s dio 1 (default 0)", disk);
      append_item (out, item);
    }
}
