/* rp-queue-state.c: a block device's queue settings, saved and put back (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <linux/loop.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-queue-state.h"

/* A loop device's queue settings outlive its detach (`losetup -d` and the
 * autoclear of `mount -o loop` free the device, not its request queue), so
 * whatever the matrix changes on one stays for whoever attaches it next
 * unless it is put back. This saves what can be changed (Documentation/ABI/
 * stable/sysfs-block: queue/scheduler, queue/wbt_lat_usec,
 * queue/read_ahead_kb, queue/rotational; a bound
 * loop device's direct I/O, loop/dio, which the LOOP_SET_DIRECT_IO ioctl
 * changes) and writes back what differs. */

struct _RpQueueState
{
  char *disk;           /* kernel name, e.g. "loop3" */
  char *scheduler;      /* the selected one; NULL: the queue has none to choose */
  char *wbt_lat_usec;   /* NULL: no writeback throttling on this queue */
  char *read_ahead_kb;
  char *rotational;     /* "1", "0" */
  int   direct_io;      /* loop/dio: 1, 0; -1 not a bound loop device */
};

static char *
queue_path (const char *disk,
            const char *attribute)
{
  return g_strdup_printf ("/sys/block/%s/%s", disk, attribute);
}

static char *
read_attribute (const char *disk,
                const char *attribute)
{
  g_autofree char *path = queue_path (disk, attribute);
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  return g_strstrip (contents);
}

/* "none [mq-deadline] kyber bfq" → "mq-deadline"; a queue that offers only
 * "none" has nothing to restore. */
static char *
selected_scheduler (const char *text)
{
  const char *open = strchr (text, '[');
  const char *close = open != NULL ? strchr (open, ']') : NULL;

  if (open == NULL || close == NULL)
    return NULL;
  return g_strndup (open + 1, (gsize) (close - open - 1));
}

/**
 * rp_queue_set:
 * @disk: kernel name of the disk, e.g. "loop3"
 * @attribute: relative to /sys/block/DISK, e.g. "queue/scheduler",
 *   "queue/wbt_lat_usec" (µs), "queue/read_ahead_kb" (KiB)
 * @value: what to write, e.g. "bfq", "2000"
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the setting when the kernel
 *   refuses it (an unknown scheduler, a number out of range, no root)
 *
 * Writes one sysfs attribute of a block device.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_queue_set (const char  *disk,
              const char  *attribute,
              const char  *value,
              GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (disk != NULL && attribute != NULL && value != NULL, FALSE);

  path = queue_path (disk, attribute);
  if (!g_file_set_contents_full (path, value, -1, G_FILE_SET_CONTENTS_NONE, 0644, &local_error))
    {
      /* TRANSLATORS: a value, a sysfs path such as /sys/block/loop3/queue/scheduler, why */
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Cannot write “%s” to %s: %s"), value, path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_loop_set_direct_io:
 * @disk: kernel name of a bound loop device, e.g. "loop3"
 * @enabled: direct I/O on the backing file (O_DIRECT), or buffered
 * @error: %RP_ERROR_INVALID_ARGUMENT when the device cannot be opened or
 *   the kernel refuses (the backing file system does not support O_DIRECT,
 *   or its block size is larger than the loop device's)
 *
 * Switches a loop device's direct I/O with the LOOP_SET_DIRECT_IO ioctl
 * (linux/loop.h, Linux 4.4), what `losetup --direct-io` does.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_loop_set_direct_io (const char  *disk,
                       gboolean     enabled,
                       GError     **error)
{
  g_autofree char *device = NULL;
  int fd, saved_errno = 0;

  g_return_val_if_fail (disk != NULL, FALSE);

  device = g_strdup_printf ("/dev/%s", disk);
  fd = open (device, O_RDWR | O_CLOEXEC);
  if (fd < 0 || ioctl (fd, LOOP_SET_DIRECT_IO, (unsigned long) (enabled ? 1 : 0)) != 0)
    saved_errno = errno;
  if (fd >= 0)
    close (fd);
  if (saved_errno != 0)
    {
      /* TRANSLATORS: "on" or "off" is not translated: losetup's --direct-io values */
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Cannot switch direct I/O %s on %s: %s"),
                   enabled ? "on" : "off", device, g_strerror (saved_errno));
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_queue_state_save:
 * @disk: kernel name of the disk, e.g. "loop3", "sda"
 * @error: %RP_ERROR_INVALID_ARGUMENT when /sys/block/DISK/queue cannot be read
 *
 * Reads the I/O scheduler, wbt_lat_usec, read_ahead_kb, rotational and, for a bound
 * loop device, its direct I/O, so that rp_queue_state_restore() can put them
 * back.
 *
 * Returns: (transfer full) (nullable): the saved settings
 */
RpQueueState *
rp_queue_state_save (const char  *disk,
                     GError     **error)
{
  g_autoptr(RpQueueState) self = g_new0 (RpQueueState, 1);
  g_autofree char *scheduler = NULL;
  g_autofree char *dio = NULL;

  g_return_val_if_fail (disk != NULL, NULL);

  self->disk = g_strdup (disk);
  self->read_ahead_kb = read_attribute (disk, "queue/read_ahead_kb");
  if (self->read_ahead_kb == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Cannot read the queue settings of %s in /sys/block"), disk);
      return NULL;
    }
  scheduler = read_attribute (disk, "queue/scheduler");
  if (scheduler != NULL)
    self->scheduler = selected_scheduler (scheduler);
  self->wbt_lat_usec = read_attribute (disk, "queue/wbt_lat_usec");
  self->rotational = read_attribute (disk, "queue/rotational");
  dio = read_attribute (disk, "loop/dio");
  self->direct_io = dio != NULL ? g_str_equal (dio, "1") : -1;
  return g_steal_pointer (&self);
}

static void
keep_first (GError **first,
            GError  *error)
{
  if (*first == NULL)
    *first = error;
  else
    g_error_free (error);
}

/* Writes @saved to @attribute unless it already reads so; says so in
 * @said (nullable). */
static void
put_back (const char  *disk,
          const char  *attribute,
          const char  *saved,
          GPtrArray   *said,
          GError     **first)
{
  g_autofree char *now = NULL;
  GError *error = NULL;

  if (saved == NULL)
    return;
  now = read_attribute (disk, attribute);
  if (g_strcmp0 (attribute, "queue/scheduler") == 0 && now != NULL)
    {
      char *selected = selected_scheduler (now);

      g_free (now);
      now = selected;
    }
  if (g_strcmp0 (now, saved) == 0)
    return;
  if (!rp_queue_set (disk, attribute, saved, &error))
    keep_first (first, error);
  else if (said != NULL)
    g_ptr_array_add (said, g_strdup_printf ("/sys/block/%s/%s %s (was %s)", disk, attribute, saved,
                                            now != NULL ? now : "?"));
}

/**
 * rp_queue_state_restore:
 * @self: settings saved by rp_queue_state_save()
 * @error: the first setting that could not be put back; every other one is
 *   still tried
 *
 * rp_queue_state_put_back() without its account of what it did.
 *
 * Returns: %TRUE when everything is as saved
 */
gboolean
rp_queue_state_restore (RpQueueState  *self,
                        GError       **error)
{
  return rp_queue_state_put_back (self, NULL, error);
}

/**
 * rp_queue_state_put_back:
 * @self: settings saved by rp_queue_state_save() or read back from a
 *   journal (rp_queue_state_from_journal())
 * @said: (nullable) (element-type utf8): where a line is added for each
 *   setting put back, e.g. "/sys/block/loop7/queue/scheduler none (was
 *   mq-deadline)"
 * @error: the first setting that could not be put back; every other one is
 *   still tried
 *
 * Puts back what differs from @self: the rotational flag and the scheduler
 * first (leaving bfq sets wbt_lat_usec to the kernel's default, so wbt must
 * come after it), then wbt_lat_usec, read_ahead_kb and a loop device's
 * direct I/O (while it is still bound: detaching forgets it). Call it
 * before the device is released.
 *
 * Returns: %TRUE when everything is as saved
 */
gboolean
rp_queue_state_put_back (RpQueueState  *self,
                         GPtrArray     *said,
                         GError       **error)
{
  GError *first = NULL;
  g_autofree char *dio = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  put_back (self->disk, "queue/rotational", self->rotational, said, &first);
  put_back (self->disk, "queue/scheduler", self->scheduler, said, &first);
  put_back (self->disk, "queue/wbt_lat_usec", self->wbt_lat_usec, said, &first);
  put_back (self->disk, "queue/read_ahead_kb", self->read_ahead_kb, said, &first);
  dio = read_attribute (self->disk, "loop/dio");
  if (self->direct_io >= 0 && dio != NULL && g_str_equal (dio, "1") != self->direct_io)
    {
      GError *dio_error = NULL;

      if (!rp_loop_set_direct_io (self->disk, self->direct_io, &dio_error))
        keep_first (&first, dio_error);
      else if (said != NULL)
        g_ptr_array_add (said, g_strdup_printf ("/sys/block/%s/loop/dio %d (was %s)", self->disk,
                                                self->direct_io, dio));
    }
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}

static void
to_key_file (RpQueueState *self,
             GKeyFile     *file,
             const char   *group)
{
  g_key_file_set_string (file, group, "disk", self->disk);
  if (self->scheduler != NULL)
    g_key_file_set_string (file, group, "scheduler", self->scheduler);
  if (self->wbt_lat_usec != NULL)
    g_key_file_set_string (file, group, "wbt_lat_usec", self->wbt_lat_usec);
  g_key_file_set_string (file, group, "read_ahead_kb", self->read_ahead_kb);
  if (self->rotational != NULL)
    g_key_file_set_string (file, group, "rotational", self->rotational);
  g_key_file_set_integer (file, group, "direct_io", self->direct_io);
}

/* What a file may put under /sys/block: names such as "loop7", values
 * such as "mq-deadline", "2000" (never a slash or "..": it may have been
 * edited). */
static gboolean
is_plain (const char *text)
{
  if (text == NULL || *text == '\0')
    return text == NULL;
  for (const char *c = text; *c != '\0'; c++)
    if (!g_ascii_isalnum (*c) && *c != '-' && *c != '_')
      return FALSE;
  return TRUE;
}

static RpQueueState *
from_key_file (GKeyFile    *file,
               const char  *group,
               const char  *where,
               GError     **error)
{
  g_autoptr(RpQueueState) self = g_new0 (RpQueueState, 1);
  g_autoptr(GError) ignored = NULL;

  if ((self->disk = g_key_file_get_string (file, group, "disk", error)) == NULL ||
      (self->read_ahead_kb = g_key_file_get_string (file, group, "read_ahead_kb", error)) == NULL)
    return NULL;
  self->scheduler = g_key_file_get_string (file, group, "scheduler", NULL);
  self->wbt_lat_usec = g_key_file_get_string (file, group, "wbt_lat_usec", NULL);
  self->rotational = g_key_file_get_string (file, group, "rotational", NULL);
  if (!is_plain (self->disk) || !is_plain (self->scheduler) || !is_plain (self->wbt_lat_usec) ||
      !is_plain (self->read_ahead_kb) || !is_plain (self->rotational))
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "%s: not a disk's queue settings (%s)", where, self->disk);
      return NULL;
    }
  self->direct_io = g_key_file_get_integer (file, group, "direct_io", &ignored);
  if (ignored != NULL || self->direct_io > 1)
    self->direct_io = -1;
  return g_steal_pointer (&self);
}

#define STATE_GROUP "queue"

/**
 * rp_queue_state_write:
 * @self: settings saved by rp_queue_state_save()
 * @path: a file to create or replace (a key file, group "queue")
 * @error: %G_FILE_ERROR when it cannot be written
 *
 * Keeps @self on disk beside what a run leaves after SIGKILL, so that the
 * next run, which removes those leftovers, can put the settings back too
 * (rp_queue_state_read()): they outlive the loop device's detach.
 *
 * Returns: %TRUE when written
 */
gboolean
rp_queue_state_write (RpQueueState  *self,
                      const char    *path,
                      GError       **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();

  g_return_val_if_fail (self != NULL && path != NULL, FALSE);

  to_key_file (self, file, STATE_GROUP);
  return g_key_file_save_to_file (file, path, error);
}

/**
 * rp_queue_state_read:
 * @path: a file written by rp_queue_state_write()
 * @error: %G_FILE_ERROR or %G_KEY_FILE_ERROR when it cannot be read or
 *   lacks the disk or its read_ahead_kb
 *
 * Returns: (transfer full) (nullable): the settings, for
 *   rp_queue_state_restore()
 */
RpQueueState *
rp_queue_state_read (const char  *path,
                     GError     **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();

  g_return_val_if_fail (path != NULL, NULL);

  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, error))
    return NULL;
  return from_key_file (file, STATE_GROUP, path, error);
}

/**
 * rp_queue_state_journal:
 * @self: settings saved by rp_queue_state_save()
 * @journal: the run's undo journal
 * @error: as for rp_undo_journal_commit()
 *
 * Writes @self to @journal (group %RP_UNDO_GROUP_QUEUE) durably: call it
 * before changing any setting of the disk.
 *
 * Returns: %TRUE when on disk
 */
gboolean
rp_queue_state_journal (RpQueueState   *self,
                        RpUndoJournal  *journal,
                        GError        **error)
{
  g_return_val_if_fail (self != NULL && journal != NULL, FALSE);

  to_key_file (self, rp_undo_journal_get_key_file (journal), RP_UNDO_GROUP_QUEUE);
  return rp_undo_journal_commit (journal, error);
}

/**
 * rp_queue_state_from_journal:
 * @file: a journal's key file with the group %RP_UNDO_GROUP_QUEUE
 * @error: %G_KEY_FILE_ERROR when it lacks the disk or its read_ahead_kb, or
 *   a value is not a plain word
 *
 * Returns: (transfer full) (nullable): the settings a dead run journaled,
 *   for rp_queue_state_put_back()
 */
RpQueueState *
rp_queue_state_from_journal (GKeyFile  *file,
                             GError   **error)
{
  g_return_val_if_fail (file != NULL, NULL);

  return from_key_file (file, RP_UNDO_GROUP_QUEUE, "journal", error);
}

/**
 * rp_queue_state_get_disk:
 *
 * Returns: (transfer none): the kernel name of the disk the settings are of
 */
const char *
rp_queue_state_get_disk (RpQueueState *self)
{
  return self->disk;
}

/**
 * rp_queue_state_free:
 * @self: (nullable): saved settings
 *
 * Forgets them; puts nothing back.
 */
void
rp_queue_state_free (RpQueueState *self)
{
  if (self == NULL)
    return;
  g_free (self->disk);
  g_free (self->scheduler);
  g_free (self->wbt_lat_usec);
  g_free (self->read_ahead_kb);
  g_free (self->rotational);
  g_free (self);
}
