/* rp-trace-events.c: the product's kernel event set and the target's devices, shared by the engine and resprobed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>

#include "rp-trace-events.h"

/* One list of what is traced, so that the engine run as root and resprobed,
 * which traces for an unprivileged caller, enable the same events with the
 * same filters: the caller of resprobed names a folder (by a file
 * descriptor), never an event or a filter. The handlers that read them are
 * the engine's (engine/parts/rp-trace-journal.c, -block.c, -tasks.c). */
static const RpTraceEventSpec specs[] = {
  /* The journal (jbd2) and ext4's fsync: the file system's device. */
  { "jbd2", "jbd2_start_commit", RP_TRACE_FILTER_FS },
  { "jbd2", "jbd2_end_commit", RP_TRACE_FILTER_FS },
  { "jbd2", "jbd2_run_stats", RP_TRACE_FILTER_FS },
  { "ext4", "ext4_sync_file_enter", RP_TRACE_FILTER_FS },
  { "ext4", "ext4_sync_file_exit", RP_TRACE_FILTER_FS },
  /* The disk's requests. */
  { "block", "block_rq_issue", RP_TRACE_FILTER_DISK, NULL, TRUE },
  { "block", "block_rq_complete", RP_TRACE_FILTER_DISK, NULL, TRUE },
  /* Traced for every writer the kernel lets through too (pause 0), which
   * the handler drops: a busy writer's thousands a second. */
  { "writeback", "balance_dirty_pages", RP_TRACE_FILTER_BDI, "pause > 0", TRUE },
  { "wbt", "wbt_lat", RP_TRACE_FILTER_NAME, NULL, TRUE },
  { "wbt", "wbt_stat", RP_TRACE_FILTER_NAME, NULL, TRUE },
  { "wbt", "wbt_step", RP_TRACE_FILTER_NAME, NULL, TRUE },
  { "wbt", "wbt_timer", RP_TRACE_FILTER_NAME, NULL, TRUE },
  /* The events without a device in their filter: a task that will write
   * to the target may be made anywhere (rp-trace-tasks.c). Forks are few
   * (hundreds a second on a busy machine, 48 bytes each); so are renames
   * (each exec, a thread naming itself), which give a task that ended
   * before its pauses were read the name of the program it ran (a
   * --command dd was "rp-command", its name before the exec). */
  { "task", "task_newtask", RP_TRACE_FILTER_NONE, NULL, TRUE },
  { "task", "task_rename", RP_TRACE_FILTER_NONE, NULL, TRUE },
};

/**
 * rp_trace_event_specs:
 * @out_n: (out): how many
 *
 * Returns: (transfer none): every event the kernel-event probe reads
 */
const RpTraceEventSpec *
rp_trace_event_specs (guint *out_n)
{
  *out_n = G_N_ELEMENTS (specs);
  return specs;
}

/**
 * rp_trace_event_spec_find:
 * @system: e.g. "block"
 * @name: e.g. "block_rq_issue"
 *
 * Returns: (transfer none) (nullable): the event of the set, %NULL when it
 *   is none of ours
 */
const RpTraceEventSpec *
rp_trace_event_spec_find (const char *system,
                          const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (specs); i++)
    if (g_strcmp0 (specs[i].system, system) == 0 && g_strcmp0 (specs[i].name, name) == 0)
      return &specs[i];
  return NULL;
}

/**
 * rp_trace_event_filter:
 * @spec: an event of the set
 * @target: the target's devices
 *
 * The event's filter, for its "filter" file in our instance
 * (Documentation/trace/events.rst, "Event filtering"): its field that
 * names the device (see #RpTraceFilterOn) compared with @target's, and
 * @spec's further condition if any. The kernel drops what does not match
 * before it is written to the buffer: another disk's requests, another
 * device's writer throttling, a writer let through without a pause cost
 * the reader nothing.
 *
 * Returns: (transfer full): e.g. "dev == 265289731" or
 *   "bdi == \"254:0\" && pause > 0"; "" for an event of every task
 *   (%RP_TRACE_FILTER_NONE without a further condition)
 */
char *
rp_trace_event_filter (const RpTraceEventSpec *spec,
                       const RpTraceTarget    *target)
{
  g_autofree char *device = NULL;

  switch (spec->filter_on)
    {
    case RP_TRACE_FILTER_FS:
      device = g_strdup_printf ("dev == %u", target->fs_dev);
      break;
    case RP_TRACE_FILTER_DISK:
      device = g_strdup_printf ("dev == %u", target->disk_dev);
      break;
    case RP_TRACE_FILTER_BDI:
      device = g_strdup_printf ("bdi == \"%s\"", target->bdi);
      break;
    case RP_TRACE_FILTER_NONE:
      return g_strdup (spec->also != NULL ? spec->also : "");
    case RP_TRACE_FILTER_NAME:
    default:
      device = g_strdup_printf ("name == \"%s\"", target->disk_name);
      break;
    }
  if (spec->also == NULL)
    return g_steal_pointer (&device);
  return g_strdup_printf ("%s && %s", device, spec->also);
}

static guint32
kernel_dev (dev_t dev)
{
  /* include/linux/kdev_t.h: MKDEV(ma, mi) = ma << 20 | mi */
  return (guint32) (major (dev) << 20 | minor (dev));
}

/* A partition's sysfs directory → its disk's; another device's stays. */
static char *
whole_disk_dir (char *dir)
{
  g_autofree char *partition = g_build_filename (dir, "partition", NULL);
  char *parent;

  if (!g_file_test (partition, G_FILE_TEST_EXISTS))
    return dir;
  parent = g_path_get_dirname (dir);
  g_free (dir);
  return parent;
}

/* A dm or md device takes bios, not requests: block_rq_issue and
 * block_rq_complete are its slaves'. Follows a chain of one slave each
 * (LUKS or LVM on one partition, dm-linear on a loop device) down to the
 * disk whose queue holds the requests; a device of several slaves (RAID,
 * LVM over disks) stays itself, and its requests go unseen. */
static char *
request_disk_dir (char *dir)
{
  for (guint depth = 0; depth < 8; depth++)
    {
      g_autofree char *slaves = g_build_filename (dir, "slaves", NULL);
      g_autoptr(GDir) list = g_dir_open (slaves, 0, NULL);
      g_autofree char *only = NULL, *link = NULL;
      const char *name;
      guint n = 0;
      char *slave;

      while (list != NULL && (name = g_dir_read_name (list)) != NULL)
        if (n++ == 0)
          only = g_strdup (name);
      if (n != 1)
        break;
      link = g_build_filename (slaves, only, NULL);
      if ((slave = realpath (link, NULL)) == NULL)
        break;
      g_free (dir);
      dir = whole_disk_dir (slave);
    }
  return dir;
}

static gboolean
read_dev (const char *dir,
          guint      *out_major,
          guint      *out_minor)
{
  g_autofree char *dev_file = g_build_filename (dir, "dev", NULL);
  g_autofree char *text = NULL;

  return g_file_get_contents (dev_file, &text, NULL, NULL) && sscanf (text, "%u:%u", out_major, out_minor) == 2;
}

/**
 * rp_trace_target_find:
 * @fs_dev: the target folder's file system (stat()'s st_dev)
 * @target: (out caller-allocates): its devices
 *
 * The file system's device; when it is a block device, the bdi its
 * writers are throttled on (its whole disk's: a partition's parent in
 * sysfs, a dm device's own), and the disk whose requests it waits for
 * (a dm chain followed down to its one disk) with that disk's name. Reads
 * sysfs only, which every user may read.
 *
 * Returns: whether the file system is on a block device (the disk's
 *   fields are set then; else only @target's fs_dev)
 */
gboolean
rp_trace_target_find (dev_t          fs_dev,
                      RpTraceTarget *target)
{
  g_autofree char *link = NULL;
  g_autofree char *base = NULL;
  char *disk;
  guint disk_major, disk_minor, bdi_major, bdi_minor;
  gboolean found;

  memset (target, 0, sizeof *target);
  target->fs_dev = kernel_dev (fs_dev);
  link = g_strdup_printf ("/sys/dev/block/%u:%u", major (fs_dev), minor (fs_dev));
  disk = realpath (link, NULL);
  if (disk == NULL)
    return FALSE;  /* not a block device: tmpfs, NFS, btrfs' anonymous dev */
  disk = whole_disk_dir (disk);
  found = read_dev (disk, &bdi_major, &bdi_minor);
  disk = request_disk_dir (disk);
  found = found && read_dev (disk, &disk_major, &disk_minor);
  if (found)
    {
      target->disk_dev = kernel_dev (makedev (disk_major, disk_minor));
      g_snprintf (target->bdi, sizeof target->bdi, "%u:%u", bdi_major, bdi_minor);
      base = g_path_get_basename (disk);
      g_strlcpy (target->disk_name, base, sizeof target->disk_name);
    }
  g_free (disk);
  return found;
}

/* "jiffies: N" and "now at T nsecs" of /proc/timer_list (root only, as
 * tracing is), twice: the kernel's HZ, which jbd2_run_stats counts in
 * (balance_dirty_pages converts to ms itself). Rounded to the nearest of
 * Kconfig's choices. */
static gboolean
read_timer_list (guint64 *jiffies,
                 guint64 *ns)
{
  g_autofree char *text = NULL;
  const char *j, *n;

  if (!g_file_get_contents ("/proc/timer_list", &text, NULL, NULL) ||
      (n = strstr (text, "now at ")) == NULL || (j = strstr (text, "\njiffies: ")) == NULL)
    return FALSE;
  *ns = g_ascii_strtoull (n + strlen ("now at "), NULL, 10);
  *jiffies = g_ascii_strtoull (j + strlen ("\njiffies: "), NULL, 10);
  return TRUE;
}

/**
 * rp_trace_kernel_hz:
 *
 * The kernel's CONFIG_HZ, measured from /proc/timer_list over 50 ms (root
 * only: resprobed measures it for an unprivileged caller).
 *
 * Returns: jiffies per second, one of 100, 250, 300, 1000; 250 when it
 *   cannot be read
 */
double
rp_trace_kernel_hz (void)
{
  static const double choices[] = { 100, 250, 300, 1000 };
  guint64 j0, n0, j1, n1;
  double measured, best = 250;

  if (!read_timer_list (&j0, &n0))
    return best;
  g_usleep (G_USEC_PER_SEC / 20);
  if (!read_timer_list (&j1, &n1) || n1 <= n0)
    return best;
  measured = (double) (j1 - j0) / ((double) (n1 - n0) * 1e-9);
  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    if (fabs (choices[i] - measured) < fabs (best - measured))
      best = choices[i];
  return best;
}
