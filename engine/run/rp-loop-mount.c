/* rp-loop-mount.c: a scratch file system in an image file on a loop device (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libmount.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <string.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-loop-mount.h"

/* What the reporters did by reinstalling, done in seconds: an image file, mkfs,
 * a loop device, a mount with the journal mode under test, and the loop device's
 * I/O scheduler. libmount does the mounting and sets up the loop device (the
 * "loop" option, with autoclear, so unmounting detaches it). */

struct _RpLoopMount
{
  char     *image_path;
  char     *mount_point;
  char     *device;
  char     *old_scheduler;   /* to put back: queue settings outlive the loop device's detach */
  gboolean  direct_io;
};

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

static gboolean
run_mkfs (const char  *fs_type,
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
             GError      **error)
{
  struct libmnt_context *context = mnt_new_context ();
  g_autofree char *options = journal_mode ? g_strdup_printf ("loop,data=%s", journal_mode)
                                          : g_strdup ("loop");
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
 *
 * Returns: %TRUE on success
 */
gboolean
rp_loop_mount_set_scheduler (const char  *disk,
                             const char  *scheduler,
                             GError     **error)
{
  g_autofree char *path = g_strdup_printf ("/sys/block/%s/queue/scheduler", disk);
  g_autoptr(GError) local_error = NULL;

  if (!g_file_set_contents_full (path, scheduler, -1, G_FILE_SET_CONTENTS_NONE, 0644, &local_error))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Cannot select the I/O scheduler “%s” for %s: %s"),
                   scheduler, disk, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* The scheduler in force, the bracketed one of "none [mq-deadline] bfq". */
static char *
read_scheduler (const char *disk)
{
  g_autofree char *path = g_strdup_printf ("/sys/block/%s/queue/scheduler", disk);
  g_autofree char *text = NULL;
  const char *open_bracket, *close_bracket;

  if (!g_file_get_contents (path, &text, NULL, NULL) ||
      (open_bracket = strchr (text, '[')) == NULL ||
      (close_bracket = strchr (open_bracket, ']')) == NULL)
    return NULL;
  return g_strndup (open_bracket + 1, (gsize) (close_bracket - open_bracket - 1));
}

/* A loop device without direct I/O reads its image through the page cache
 * of the file system below: what a probe evicts above stays cached there,
 * and a "cold" read never reaches the disk, nor the scheduler under test
 * (drivers/block/loop.c). LOOP_SET_DIRECT_IO (Linux 4.4) switches an
 * attached device; the flag goes with the detach. It fails where the image's
 * file system has no O_DIRECT (tmpfs): then the cell runs without. */
static gboolean
set_direct_io (const char *device)
{
  int fd = open (device, O_RDWR | O_CLOEXEC);
  gboolean ok = fd >= 0 && ioctl (fd, LOOP_SET_DIRECT_IO, 1UL) == 0;

  if (fd >= 0)
    close (fd);
  return ok;
}

/**
 * rp_loop_mount_get_direct_io:
 *
 * Returns: %TRUE when the loop device reads and writes its image with direct
 *   I/O (not through the page cache of the file system below)
 */
gboolean
rp_loop_mount_get_direct_io (RpLoopMount *self)
{
  return self->direct_io;
}

/**
 * rp_loop_mount_create:
 * @work_directory: where the image file and the mount point are created
 * @fs_type: "ext3", "ext4", "xfs" (mkfs.TYPE must exist)
 * @journal_mode: (nullable): "ordered", "writeback", "journal"; %NULL for the default
 * @image_size: bytes; the image is sparse, so it only takes what is written
 * @scheduler: (nullable): the loop device's I/O scheduler; %NULL leaves the default
 * @error: %RP_ERROR_PERMISSION without root, %RP_ERROR_FAILED when a step fails
 *
 * Creates `resprobe-TYPE-XXXXXX.img` in @work_directory, makes the file system,
 * mounts it through a new loop device on a new directory beside it, switches
 * the loop device to direct I/O where the image's file system allows it, and
 * selects the scheduler (the old one is put back by rp_loop_mount_destroy()). On failure, whatever was done is undone.
 *
 * Returns: (transfer full) (nullable): the scratch file system; undo it with
 *   rp_loop_mount_destroy()
 */
RpLoopMount *
rp_loop_mount_create (const char  *work_directory,
                      const char  *fs_type,
                      const char  *journal_mode,
                      guint64      image_size,
                      const char  *scheduler,
                      GError     **error)
{
  RpLoopMount *self;
  g_autofree char *template = NULL;
  int fd;

  g_return_val_if_fail (work_directory != NULL, NULL);
  g_return_val_if_fail (fs_type != NULL, NULL);

  if (geteuid () != 0)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_PERMISSION,
                           _("Mounting scratch file systems needs root: run this command with sudo"));
      return NULL;
    }

  self = g_new0 (RpLoopMount, 1);
  template = g_strdup_printf ("resprobe-%s-XXXXXX", fs_type);
  self->mount_point = g_build_filename (work_directory, template, NULL);
  if (g_mkdtemp_full (self->mount_point, 0700) == NULL)
    {
      rp_error_set_from_errno (error, errno, _("Creating a mount point in"), work_directory);
      g_clear_pointer (&self->mount_point, g_free);
      rp_loop_mount_destroy (self, NULL);
      return NULL;
    }

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

  if (!run_mkfs (fs_type, self->image_path, error) ||
      !mount_image (self, fs_type, journal_mode, error))
    {
      rp_loop_mount_destroy (self, NULL);
      return NULL;
    }

  self->device = find_device (self->mount_point);
  if (self->device != NULL)
    self->direct_io = set_direct_io (self->device);
  if (scheduler != NULL && self->device != NULL)
    self->old_scheduler = read_scheduler (self->device + strlen ("/dev/"));
  if (scheduler != NULL && self->device != NULL &&
      !rp_loop_mount_set_scheduler (self->device + strlen ("/dev/"), scheduler, error))
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

static gboolean
unmount (const char  *mount_point,
         GError     **error)
{
  struct libmnt_context *context = mnt_new_context ();
  int rc;

  mnt_context_set_target (context, mount_point);
  rc = mnt_context_umount (context);
  if (rc != 0)
    {
      char message[512] = "";

      mnt_context_get_excode (context, rc, message, sizeof message);
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("Unmounting “%s” failed: %s"),
                   mount_point, message);
    }
  mnt_free_context (context);
  return rc == 0;
}

/**
 * rp_loop_mount_destroy:
 * @self: (transfer full): the scratch file system
 * @error: the first step that failed; every other step is still tried
 *
 * Puts the loop device's I/O scheduler back (a queue setting outlives the
 * detach), unmounts (which detaches the autoclear loop device), removes the
 * mount point and deletes the image.
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

  /* Ask the mount table rather than trust our state: a failed mount may or
   * may not have left something mounted. */
  if (self->mount_point != NULL)
    {
      g_autofree char *device = find_device (self->mount_point);

      if (device != NULL && self->old_scheduler != NULL && g_str_has_prefix (device, "/dev/") &&
          g_strcmp0 (device, self->device) == 0)
        rp_loop_mount_set_scheduler (device + strlen ("/dev/"), self->old_scheduler, &first);
      if (device != NULL)
        unmount (self->mount_point, &first);
    }
  if (self->mount_point != NULL && g_rmdir (self->mount_point) != 0 && errno != ENOENT && first == NULL)
    rp_error_set_from_errno (&first, errno, _("Removing"), self->mount_point);
  if (self->image_path != NULL && g_unlink (self->image_path) != 0 && errno != ENOENT && first == NULL)
    rp_error_set_from_errno (&first, errno, _("Removing"), self->image_path);

  g_free (self->image_path);
  g_free (self->mount_point);
  g_free (self->device);
  g_free (self->old_scheduler);
  g_free (self);

  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}
