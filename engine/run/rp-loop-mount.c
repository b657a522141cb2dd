/* rp-loop-mount.c: a scratch file system in an image file on a loop device (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libmount.h>
#include <string.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-loop-mount.h"
#include "rp-queue-state.h"
#include "rp-undo-journal.h"
#include "rp-unmount.h"

/* What the reporters did by reinstalling, done in seconds: an image file, mkfs,
 * a loop device, a mount with the journal mode under test, and the loop device's
 * I/O scheduler, writeback throttling and direct I/O. libmount does the mounting
 * and sets up the loop device (the "loop" option, with autoclear, so unmounting
 * detaches it). The loop device's queue settings outlive that detach, so
 * they are saved before anything changes them and put back before the
 * device is released (rp-queue-state.c). */

struct _RpLoopMount
{
  char         *image_path;
  char         *mount_point;
  char         *device;
  RpQueueState *saved_queue;   /* the loop device's settings before we changed them */
  gboolean      owns_image;    /* FALSE: the caller's file (an emulated device) */
  char         *state_file;    /* saved_queue on disk, or NULL (see create()) */
  RpUndoJournal *journal;      /* the caller's, or NULL: where the way back is written first */
};

/* Beside an emulated device's files, in its run directory: what the next
 * matrix reads to put the queue settings back after a SIGKILL
 * (rp-emulated-device.c removes that directory's leftovers). */
#define QUEUE_STATE_FILE_NAME "queue-state"

static RpLoopMount *create (const char *work_directory, const char *backing_file,
                            const char *fs_type, const char *journal_mode, guint64 image_size,
                            const char *loop_device, const RpLoopMountQueue *queue,
                            RpUndoJournal *journal, GError **error);
static RpLoopMount *mount_and_apply (RpLoopMount *self, const char *fs_type, const char *journal_mode,
                                     const char *loop_device, const RpLoopMountQueue *queue,
                                     GError **error);

/**
 * rp_loop_mount_fs_has_journal_modes:
 * @fs_type: "ext3", "ext4", "xfs", …
 *
 * Returns: %TRUE for the file systems that take `data=ordered|writeback|journal`
 */
gboolean
rp_loop_mount_fs_has_journal_modes (const char *fs_type)
{
  return g_strcmp0 (fs_type, "ext3") == 0 || g_strcmp0 (fs_type, "ext4") == 0;
}

/**
 * rp_loop_mount_format:
 * @fs_type: "ext3", "ext4", "xfs" (mkfs.TYPE must exist)
 * @image_path: a regular file, the whole of which becomes the file system
 * @error: %RP_ERROR_FAILED naming mkfs and saying why
 *
 * Runs `mkfs.TYPE -q -F|-f IMAGE`.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_loop_mount_format (const char  *fs_type,
                      const char  *image_path,
                      GError     **error)
{
  g_autofree char *program = g_strdup_printf ("mkfs.%s", fs_type);
  g_autofree char *errors = NULL;
  g_autoptr(GError) local_error = NULL;
  int status = 0;
  /* -F / -f: the target is a regular file, not a block device; that is intended. */
  const char *force = g_str_has_prefix (fs_type, "ext") ? "-F" : "-f";
  const char *argv[] = { program, "-q", force, image_path, NULL };

  if (!g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL,
                     NULL, NULL, NULL, &errors, &status, &local_error))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("Cannot run “%s” (is the package for %s installed?): %s"),
                   program, fs_type, local_error->message);
      return FALSE;
    }
  if (!g_spawn_check_wait_status (status, NULL))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("“%s” failed: %s"),
                   program, errors ? g_strstrip (errors) : "");
      return FALSE;
    }
  return TRUE;
}

static gboolean
mount_image (RpLoopMount  *self,
             const char   *fs_type,
             const char   *journal_mode,
             const char   *loop_device,
             GError      **error)
{
  struct libmnt_context *context = mnt_new_context ();
  g_autofree char *loop = loop_device ? g_strdup_printf ("loop=%s", loop_device) : g_strdup ("loop");
  g_autofree char *options = journal_mode ? g_strdup_printf ("%s,data=%s", loop, journal_mode)
                                          : g_strdup (loop);
  int rc;

  mnt_context_set_source (context, self->image_path);
  mnt_context_set_target (context, self->mount_point);
  mnt_context_set_fstype (context, fs_type);
  mnt_context_set_options (context, options);
  rc = mnt_context_mount (context);
  if (rc != 0 || mnt_context_get_status (context) != 1)
    {
      char message[512] = "";

      mnt_context_get_excode (context, rc, message, sizeof message);
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("Mounting %s (%s) on “%s” failed: %s"),
                   fs_type, options, self->mount_point, *message ? message : g_strerror (-rc));
      mnt_free_context (context);
      return FALSE;
    }
  mnt_free_context (context);
  return TRUE;
}

/* The loop device libmount chose, from the mount table. */
static char *
find_device (const char *mount_point)
{
  struct libmnt_table *table = mnt_new_table ();
  struct libmnt_fs *fs;
  char *device = NULL;

  if (mnt_table_parse_mtab (table, NULL) == 0 &&
      (fs = mnt_table_find_target (table, mount_point, MNT_ITER_BACKWARD)) != NULL)
    device = g_strdup (mnt_fs_get_source (fs));
  mnt_unref_table (table);
  return device;
}

/**
 * rp_loop_mount_set_scheduler:
 * @disk: kernel name of the disk, e.g. "loop3"
 * @scheduler: "none", "mq-deadline", "kyber", "bfq"
 * @error: %RP_ERROR_INVALID_ARGUMENT when the kernel does not offer it
 *
 * Writes /sys/block/DISK/queue/scheduler (Documentation/block/switching-sched.rst).
 * Puts nothing back: a scratch file system from rp_loop_mount_create() does.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_loop_mount_set_scheduler (const char  *disk,
                             const char  *scheduler,
                             GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  if (!rp_queue_set (disk, "queue/scheduler", scheduler, &local_error))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Cannot select the I/O scheduler “%s” for %s: %s"),
                   scheduler, disk, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* Applies what the cell asks for: the rotational flag first (bfq reads it
 * when it is selected and on every decision to idle), then the scheduler
 * (selecting one resets wbt_lat_usec: bfq turns it off). */
static gboolean
apply_queue (RpLoopMount              *self,
             const RpLoopMountQueue   *queue,
             GError                  **error)
{
  const char *disk = self->device + strlen ("/dev/");

  if (queue == NULL)
    return TRUE;
  if (queue->rotational != NULL && !rp_queue_set (disk, "queue/rotational", queue->rotational, error))
    return FALSE;
  if (queue->scheduler != NULL && !rp_loop_mount_set_scheduler (disk, queue->scheduler, error))
    return FALSE;
  if (queue->wbt_lat_usec != NULL && !rp_queue_set (disk, "queue/wbt_lat_usec", queue->wbt_lat_usec, error))
    return FALSE;
  if (queue->read_ahead_kb != NULL && !rp_queue_set (disk, "queue/read_ahead_kb", queue->read_ahead_kb, error))
    return FALSE;
  if (queue->direct_io >= 0 && !rp_loop_set_direct_io (disk, queue->direct_io, error))
    return FALSE;
  /* A loop device without direct I/O reads its image through the page cache
   * of the file system below: what a probe evicts above stays cached there,
   * and a "cold" read never reaches the disk nor the scheduler under test
   * (drivers/block/loop.c). So direct I/O by default, where the image's file
   * system has O_DIRECT (not tmpfs): else the cell runs without, and says so. */
  if (queue->direct_io < 0)
    rp_loop_set_direct_io (disk, TRUE, NULL);
  return TRUE;
}

/**
 * rp_loop_mount_create:
 * @work_directory: where the image file and the mount point are created
 * @fs_type: "ext3", "ext4", "xfs" (mkfs.TYPE must exist)
 * @journal_mode: (nullable): "ordered", "writeback", "journal"; %NULL for the default
 * @image_size: bytes; the image is sparse, so it only takes what is written
 * @loop_device: (nullable): the free loop device to use, e.g. "/dev/loop7";
 *   %NULL: the first free one (libmount chooses)
 * @queue: (nullable): the loop device's queue settings for the run; %NULL
 *   leaves them as they are
 * @journal: (nullable): the run's undo journal: the mount point and the
 *   image (group %RP_UNDO_GROUP_CELL) are written to it before they are
 *   made, the loop device's queue settings (%RP_UNDO_GROUP_QUEUE) before
 *   they are changed, so that a SIGKILL leaves a way back
 *   (rp-undo-cleanup.c); rp_loop_mount_destroy() forgets both once undone
 * @error: %RP_ERROR_PERMISSION without root, %RP_ERROR_FAILED when a step
 *   fails, %RP_ERROR_INVALID_ARGUMENT when the kernel refuses a setting,
 *   %G_FILE_ERROR when the journal cannot be written
 *
 * Creates `resprobe-TYPE-XXXXXX.img` in @work_directory, makes the file system,
 * mounts it through a loop device on a new directory beside it and applies
 * @queue. The loop device's scheduler, wbt_lat_usec, read_ahead_kb and direct
 * I/O are saved first: before the mount when @loop_device is given, else
 * right after it (attaching is the kernel's, and sets read-ahead from the
 * backing file); rp_loop_mount_destroy() puts them back. On failure, whatever
 * was done is undone.
 *
 * Returns: (transfer full) (nullable): the scratch file system; undo it with
 *   rp_loop_mount_destroy()
 */
RpLoopMount *
rp_loop_mount_create (const char              *work_directory,
                      const char              *fs_type,
                      const char              *journal_mode,
                      guint64                  image_size,
                      const char              *loop_device,
                      const RpLoopMountQueue  *queue,
                      RpUndoJournal           *journal,
                      GError                 **error)
{
  return create (work_directory, NULL, fs_type, journal_mode, image_size, loop_device, queue, journal, error);
}

/**
 * rp_loop_mount_create_on_file:
 * @work_directory: where the mount point is created
 * @backing_file: a file that already holds a @fs_type file system (e.g. an
 *   emulated device's, rp_emulated_device_get_path()); it is neither
 *   formatted nor deleted here
 * @fs_type: its file system
 * @journal_mode: (nullable): as for rp_loop_mount_create()
 * @loop_device: (nullable): as for rp_loop_mount_create()
 * @queue: (nullable): as for rp_loop_mount_create()
 * @error: as for rp_loop_mount_create()
 *
 * rp_loop_mount_create() on a file of the caller's: the loop device, the
 * mount with the journal mode, the queue settings saved and applied. The
 * saved settings are also written to @work_directory/queue-state
 * (rp_queue_state_write()) before anything changes, and removed by
 * rp_loop_mount_destroy(): a run killed with SIGKILL leaves them for
 * rp_emulated_device_remove_leftovers().
 *
 * Returns: (transfer full) (nullable): the mounted file system; undo it with
 *   rp_loop_mount_destroy(), which leaves @backing_file alone
 */
RpLoopMount *
rp_loop_mount_create_on_file (const char              *work_directory,
                              const char              *backing_file,
                              const char              *fs_type,
                              const char              *journal_mode,
                              const char              *loop_device,
                              const RpLoopMountQueue  *queue,
                              GError                 **error)
{
  g_return_val_if_fail (backing_file != NULL, NULL);

  return create (work_directory, backing_file, fs_type, journal_mode, 0, loop_device, queue, NULL, error);
}

/* The mount point's name chosen and written to the journal, with the
 * image's beside it, before either exists: a SIGKILL between making one
 * and writing it down would leave it for good. */
static gboolean
make_journaled_mount_point (RpLoopMount  *self,
                            const char   *work_directory,
                            const char   *fs_type,
                            GError      **error)
{
  GKeyFile *file = rp_undo_journal_get_key_file (self->journal);
  static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

  for (int attempt = 0; attempt < 100; attempt++)
    {
      char suffix[7];
      g_autofree char *name = NULL;

      for (guint i = 0; i < 6; i++)
        suffix[i] = letters[g_random_int_range (0, sizeof letters - 1)];
      suffix[6] = '\0';
      name = g_strdup_printf ("resprobe-%s-%s", fs_type, suffix);
      g_free (self->mount_point);
      g_free (self->image_path);
      self->mount_point = g_build_filename (work_directory, name, NULL);
      self->image_path = g_strdup_printf ("%s.img", self->mount_point);
      if (g_file_test (self->mount_point, G_FILE_TEST_EXISTS) || g_file_test (self->image_path, G_FILE_TEST_EXISTS))
        continue;
      g_key_file_set_string (file, RP_UNDO_GROUP_CELL, "mount_point", self->mount_point);
      g_key_file_set_string (file, RP_UNDO_GROUP_CELL, "image", self->image_path);
      if (!rp_undo_journal_commit (self->journal, error))
        break;
      if (g_mkdir (self->mount_point, 0700) == 0)
        return TRUE;
      if (errno != EEXIST)
        {
          rp_error_set_from_errno (error, errno, _("Creating a mount point in"), work_directory);
          break;
        }
    }
  if (error != NULL && *error == NULL)
    rp_error_set_from_errno (error, EEXIST, _("Creating a mount point in"), work_directory);
  /* Nothing of ours there: not to be removed by anyone. */
  g_clear_pointer (&self->mount_point, g_free);
  g_clear_pointer (&self->image_path, g_free);
  rp_undo_journal_forget (self->journal, RP_UNDO_GROUP_CELL, NULL);
  return FALSE;
}

static RpLoopMount *
create (const char              *work_directory,
        const char              *backing_file,
        const char              *fs_type,
        const char              *journal_mode,
        guint64                  image_size,
        const char              *loop_device,
        const RpLoopMountQueue  *queue,
        RpUndoJournal           *journal,
        GError                 **error)
{
  RpLoopMount *self;
  g_autofree char *template = NULL;
  int fd;

  g_return_val_if_fail (work_directory != NULL, NULL);
  g_return_val_if_fail (fs_type != NULL, NULL);
  g_return_val_if_fail (loop_device == NULL || g_str_has_prefix (loop_device, "/dev/loop"), NULL);

  if (geteuid () != 0)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_PERMISSION,
                           _("Mounting scratch file systems needs root: run this command with sudo"));
      return NULL;
    }

  self = g_new0 (RpLoopMount, 1);
  self->journal = journal;
  if (journal != NULL && backing_file == NULL)
    {
      if (!make_journaled_mount_point (self, work_directory, fs_type, error))
        {
          rp_loop_mount_destroy (self, NULL);
          return NULL;
        }
    }
  else
    {
      template = g_strdup_printf ("resprobe-%s-XXXXXX", fs_type);
      self->mount_point = g_build_filename (work_directory, template, NULL);
      if (g_mkdtemp_full (self->mount_point, 0700) == NULL)
        {
          rp_error_set_from_errno (error, errno, _("Creating a mount point in"), work_directory);
          g_clear_pointer (&self->mount_point, g_free);
          rp_loop_mount_destroy (self, NULL);
          return NULL;
        }
    }

  if (backing_file != NULL)
    {
      self->image_path = g_strdup (backing_file);
      self->state_file = g_build_filename (work_directory, QUEUE_STATE_FILE_NAME, NULL);
      return mount_and_apply (self, fs_type, journal_mode, loop_device, queue, error);
    }
  self->owns_image = TRUE;
  if (self->image_path == NULL)
    self->image_path = g_strdup_printf ("%s.img", self->mount_point);
  fd = open (self->image_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0 || ftruncate (fd, (off_t) image_size) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Creating the image"), self->image_path);
      if (fd >= 0)
        close (fd);
      else
        g_clear_pointer (&self->image_path, g_free);
      rp_loop_mount_destroy (self, NULL);
      return NULL;
    }
  close (fd);
  if (!rp_loop_mount_format (fs_type, self->image_path, error))
    {
      rp_loop_mount_destroy (self, NULL);
      return NULL;
    }
  return mount_and_apply (self, fs_type, journal_mode, loop_device, queue, error);
}

/* The loop device's settings saved, the mount, the settings applied; on
 * failure everything undone. */
static RpLoopMount *
mount_and_apply (RpLoopMount              *self,
                 const char               *fs_type,
                 const char               *journal_mode,
                 const char               *loop_device,
                 const RpLoopMountQueue   *queue,
                 GError                  **error)
{
  if (loop_device != NULL &&
      ((self->saved_queue = rp_queue_state_save (loop_device + strlen ("/dev/"), error)) == NULL ||
       (self->journal != NULL && !rp_queue_state_journal (self->saved_queue, self->journal, error))))
    {
      rp_loop_mount_destroy (self, NULL);
      return NULL;
    }
  if (!mount_image (self, fs_type, journal_mode, loop_device, error))
    {
      rp_loop_mount_destroy (self, NULL);
      return NULL;
    }

  self->device = find_device (self->mount_point);
  if (self->device == NULL || !g_str_has_prefix (self->device, "/dev/"))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The loop device of “%s” is not in the mount table"), self->mount_point);
      rp_loop_mount_destroy (self, NULL);
      return NULL;
    }
  /* Nothing is changed before the way back is on disk. */
  if ((self->saved_queue == NULL &&
       ((self->saved_queue = rp_queue_state_save (self->device + strlen ("/dev/"), error)) == NULL ||
        (self->journal != NULL && !rp_queue_state_journal (self->saved_queue, self->journal, error)))) ||
      (self->state_file != NULL && !rp_queue_state_write (self->saved_queue, self->state_file, error)) ||
      !apply_queue (self, queue, error))
    {
      rp_loop_mount_destroy (self, NULL);
      return NULL;
    }
  return self;
}

/**
 * rp_loop_mount_get_mount_point:
 *
 * Returns: (transfer none): the directory the file system is mounted on
 */
const char *
rp_loop_mount_get_mount_point (RpLoopMount *self)
{
  return self->mount_point;
}

/**
 * rp_loop_mount_get_device:
 *
 * Returns: (transfer none) (nullable): e.g. "/dev/loop3"
 */
const char *
rp_loop_mount_get_device (RpLoopMount *self)
{
  return self->device;
}

/**
 * rp_loop_mount_get_direct_io:
 * @self: the scratch file system
 *
 * Returns: %TRUE when its loop device reads and writes the image with direct
 *   I/O (`/sys/block/loopN/loop/dio`), not through the page cache below
 */
gboolean
rp_loop_mount_get_direct_io (RpLoopMount *self)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;

  g_return_val_if_fail (self != NULL && self->device != NULL, FALSE);

  path = g_strdup_printf ("/sys/block/%s/loop/dio", self->device + strlen ("/dev/"));
  return g_file_get_contents (path, &text, NULL, NULL) && text[0] == '1';
}

/**
 * rp_loop_mount_destroy:
 * @self: (transfer full): the scratch file system
 * @error: the first step that failed; every other step is still tried
 *
 * Puts back the loop device's queue settings as they were saved, unmounts
 * (which detaches the autoclear loop device), removes the mount point and
 * deletes the image it created (not a file given to
 * rp_loop_mount_create_on_file()).
 *
 * Returns: %TRUE when everything was undone
 */
gboolean
rp_loop_mount_destroy (RpLoopMount  *self,
                       GError      **error)
{
  GError *first = NULL;

  if (self == NULL)
    return TRUE;

  /* Before the unmount: detaching forgets the direct I/O mode, and once the
   * device is free somebody else may attach it. */
  if (self->saved_queue != NULL)
    rp_queue_state_restore (self->saved_queue, &first);

  /* Ask the mount table rather than trust our state: a failed mount may or
   * may not have left something mounted. */
  if (self->mount_point != NULL)
    {
      g_autofree char *device = find_device (self->mount_point);

      if (device != NULL)
        rp_unmount (self->mount_point, first == NULL ? &first : NULL);
    }
  /* Detaching sets read_ahead_kb again from the backing file (seen on Linux
   * 6.18): what differs now is put back once more, at once. */
  if (self->saved_queue != NULL)
    rp_queue_state_restore (self->saved_queue, first == NULL ? &first : NULL);
  g_clear_pointer (&self->saved_queue, rp_queue_state_free);
  if (self->state_file != NULL && g_unlink (self->state_file) != 0 && errno != ENOENT && first == NULL)
    rp_error_set_from_errno (&first, errno, _("Removing"), self->state_file);
  if (self->mount_point != NULL && g_rmdir (self->mount_point) != 0 && errno != ENOENT && first == NULL)
    rp_error_set_from_errno (&first, errno, _("Removing"), self->mount_point);
  if (self->image_path != NULL && self->owns_image && g_unlink (self->image_path) != 0 && errno != ENOENT && first == NULL)
    rp_error_set_from_errno (&first, errno, _("Removing"), self->image_path);
  /* Undone: the journal forgets it. Not undone: it stays for a cleanup. */
  if (self->journal != NULL && first == NULL)
    {
      g_key_file_remove_group (rp_undo_journal_get_key_file (self->journal), RP_UNDO_GROUP_QUEUE, NULL);
      g_key_file_remove_group (rp_undo_journal_get_key_file (self->journal), RP_UNDO_GROUP_CELL, NULL);
      rp_undo_journal_commit (self->journal, &first);
    }

  g_free (self->image_path);
  g_free (self->mount_point);
  g_free (self->device);
  g_free (self->state_file);
  g_free (self);

  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}
