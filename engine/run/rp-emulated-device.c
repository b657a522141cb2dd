/* rp-emulated-device.c: a slow block device emulated by nbdkit, served as a file by nbdfuse (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libmount.h>
#include <linux/loop.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-emulated-device.h"
#include "rp-error.h"
#include "rp-loop-detach.h"
#include "rp-loop-mount.h"
#include "rp-queue-state.h"
#include "rp-unmount.h"

/* This kernel has neither device-mapper (dm-delay) nor modules (null_blk),
 * but it has FUSE and loop devices. So a slow device is: an image file,
 * nbdkit serving it through our filter (app/nbdkit) on a Unix socket, and
 * nbdfuse exposing that NBD disk as one file, on which the caller puts a loop
 * device (rp_loop_mount_create_on_file()). Everything lives in one run
 * directory, WORK/resprobe-device-PID-XXXXXX: the image, the socket, the pid
 * files, the logs, the FUSE mount point `disk/` and the loop mount's mount
 * point. The PID in the name tells whose it is: when that process is gone,
 * rp_emulated_device_remove_leftovers() takes down what it left (after a
 * SIGKILL) by looking only inside such directories. nbdkit and nbdfuse run
 * in a session of their own, so a Ctrl-C at the terminal reaches the matrix,
 * which tears down in order, and not them. */

#define RUN_DIRECTORY_PREFIX "resprobe-device-"
#define FUSE_FILE_NAME "device"
/* Once it exists, the filter stops slowing the device down
 * (rp_emulated_device_drain()). */
#define DRAIN_FILE_NAME "drain"
/* How long a helper may take to say it is ready or to exit: nbdkit and
 * nbdfuse are ready in milliseconds; seconds mean something is wrong. */
#define HELPER_WAIT_SECONDS 20

struct _RpEmulatedDevice
{
  char *directory;
  char *image_path;
  char *fuse_directory;
  char *fuse_path;
  char *socket_directory;  /* a short one for the socket, or NULL: in directory */
  GPid  nbdkit_pid;
  GPid  nbdfuse_pid;
};

/* $RESPROBE_NBDKIT_FILTER when set, else the installed one, else the build
 * tree's beside a program run from the build directory (app/cli, bench). */
static char *
find_filter (void)
{
  const char *from_environment = g_getenv ("RESPROBE_NBDKIT_FILTER");
  g_autofree char *installed = NULL;
  g_autofree char *self = NULL;

  if (from_environment != NULL && *from_environment != '\0')
    return g_strdup (from_environment);
  installed = g_build_filename (LIBEXECDIR, RP_NBDKIT_FILTER_NAME, NULL);
  if (g_file_test (installed, G_FILE_TEST_IS_REGULAR))
    return g_steal_pointer (&installed);
  self = g_file_read_link ("/proc/self/exe", NULL);
  if (self != NULL)
    {
      g_autofree char *directory = g_path_get_dirname (self);
      const char *const relative[] = { "../nbdkit", "../app/nbdkit" };

      for (guint i = 0; i < G_N_ELEMENTS (relative); i++)
        {
          g_autofree char *in_build = g_build_filename (directory, relative[i], RP_NBDKIT_FILTER_NAME, NULL);

          if (g_file_test (in_build, G_FILE_TEST_IS_REGULAR))
            return g_steal_pointer (&in_build);
        }
    }
  return NULL;
}

/**
 * rp_emulated_device_check_tools:
 * @profile: the profile to emulate
 * @error: %RP_ERROR_FAILED naming what is missing (nbdkit, nbdfuse, /dev/fuse,
 *   this build's filter) and the Debian package that has it
 *
 * Checks, before anything is set up, that @profile can be emulated here. The
 * native profile needs nothing.
 *
 * Returns: %TRUE when everything is there
 */
gboolean
rp_emulated_device_check_tools (const RpDeviceProfile  *profile,
                                GError                **error)
{
  g_autofree char *nbdkit = NULL;
  g_autofree char *nbdfuse = NULL;
  g_autofree char *filter = NULL;

  g_return_val_if_fail (profile != NULL, FALSE);

  if (rp_device_profile_is_native (profile))
    return TRUE;
  if ((nbdkit = g_find_program_in_path ("nbdkit")) == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The device profile “%s” needs nbdkit, which is not installed (Debian package nbdkit)"),
                   profile->name);
      return FALSE;
    }
  if ((nbdfuse = g_find_program_in_path ("nbdfuse")) == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The device profile “%s” needs nbdfuse, which is not installed (Debian package libnbd-bin)"),
                   profile->name);
      return FALSE;
    }
  if (!g_file_test ("/dev/fuse", G_FILE_TEST_EXISTS))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The device profile “%s” needs FUSE, and this system has no /dev/fuse"), profile->name);
      return FALSE;
    }
  if ((filter = find_filter ()) == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The device profile “%s” needs this program’s nbdkit filter (%s), which this build lacks: build it with nbdkit’s headers (Debian package nbdkit-plugin-dev)"),
                   profile->name, RP_NBDKIT_FILTER_NAME);
      return FALSE;
    }
  return TRUE;
}

/* Children of ours in a session of their own: a terminal's Ctrl-C goes to
 * the matrix, which takes the device down in order. */
static void
child_setup (gpointer data)
{
  setsid ();
}

static gboolean
spawn_helper (const char  *const *argv,
              const char  *log_path,
              GPid        *out_pid,
              GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  int log_fd = open (log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  gboolean ok;

  if (log_fd < 0)
    {
      rp_error_set_from_errno (error, errno, _("Creating the log file"), log_path);
      return FALSE;
    }
  ok = g_spawn_async_with_fds (NULL, (char **) argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                               child_setup, NULL, out_pid, -1, log_fd, log_fd, &local_error);
  close (log_fd);
  if (!ok)
    g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("Cannot run “%s”: %s"), argv[0], local_error->message);
  return ok;
}

/* The last line a helper wrote, for an error message. */
static char *
log_tail (const char *log_path)
{
  g_autofree char *text = NULL;
  char *last;

  if (!g_file_get_contents (log_path, &text, NULL, NULL) || *g_strstrip (text) == '\0')
    return g_strdup ("");
  last = strrchr (text, '\n');
  return g_strdup (last ? last + 1 : text);
}

/* Waits until @ready_path exists (the helper wrote its pid file when ready)
 * or the helper exits. */
static gboolean
wait_ready (GPid         pid,
            const char  *program,
            const char  *ready_path,
            const char  *log_path,
            GError     **error)
{
  gint64 deadline = g_get_monotonic_time () + HELPER_WAIT_SECONDS * G_USEC_PER_SEC;

  while (g_get_monotonic_time () < deadline)
    {
      int status;

      if (g_file_test (ready_path, G_FILE_TEST_EXISTS))
        return TRUE;
      if (waitpid (pid, &status, WNOHANG) == pid)
        {
          g_autofree char *tail = log_tail (log_path);

          g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("“%s” failed: %s"), program, tail);
          return FALSE;
        }
      g_usleep (10 * 1000);
    }
  g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
               _("“%s” was not ready after %d s"), program, HELPER_WAIT_SECONDS);
  return FALSE;
}

static gboolean
start_nbdkit (RpEmulatedDevice       *self,
              const RpDeviceProfile  *profile,
              const char             *socket_path,
              GError                **error)
{
  g_autofree char *filter = find_filter ();
  g_autofree char *filter_option = g_strdup_printf ("--filter=%s", filter);
  g_autofree char *pid_path = g_build_filename (self->directory, "nbdkit.pid", NULL);
  g_autofree char *log_path = g_build_filename (self->directory, "nbdkit.log", NULL);
  g_autofree char *file_argument = g_strdup_printf ("file=%s", self->image_path);
  g_autofree char *drain_path = g_build_filename (self->directory, DRAIN_FILE_NAME, NULL);
  g_autofree char *drain_argument = g_strdup_printf ("rp-drain-file=%s", drain_path);
  g_autoptr(GPtrArray) filter_arguments = rp_device_profile_filter_arguments (profile);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();

  /* -f: a child of ours, not a daemon; the pid file is written when the
   * socket accepts. */
  const char *const fixed[] = { "nbdkit", "-f", "--unix", socket_path, "--pidfile", pid_path,
                                filter_option, "file", file_argument };

  for (guint i = 0; i < G_N_ELEMENTS (fixed); i++)
    g_ptr_array_add (argv, (gpointer) fixed[i]);
  for (guint i = 0; i < filter_arguments->len; i++)
    g_ptr_array_add (argv, g_ptr_array_index (filter_arguments, i));
  g_ptr_array_add (argv, drain_argument);
  g_ptr_array_add (argv, NULL);
  if (filter == NULL)
    return rp_emulated_device_check_tools (profile, error);
  if (!spawn_helper ((const char *const *) argv->pdata, log_path, &self->nbdkit_pid, error))
    return FALSE;
  return wait_ready (self->nbdkit_pid, "nbdkit", pid_path, log_path, error);
}

/* FUSE reads ahead 128 KiB per read by default: a random 4 KiB read of
 * the loop device would cost the device 128 KiB. The FUSE mount's bdi is
 * its own and goes with the unmount, so nothing needs putting back. */
static void
no_read_ahead (const char *mount_point)
{
  struct stat st;
  g_autofree char *path = NULL;

  if (stat (mount_point, &st) != 0)
    return;
  path = g_strdup_printf ("/sys/class/bdi/%u:%u/read_ahead_kb", major (st.st_dev), minor (st.st_dev));
  g_file_set_contents_full (path, "0", -1, G_FILE_SET_CONTENTS_NONE, 0644, NULL);
}

static gboolean
start_nbdfuse (RpEmulatedDevice  *self,
               const char        *socket_path,
               GError           **error)
{
  g_autofree char *pid_path = g_build_filename (self->directory, "nbdfuse.pid", NULL);
  g_autofree char *log_path = g_build_filename (self->directory, "nbdfuse.log", NULL);
  const char *const argv[] = { "nbdfuse", "-P", pid_path, self->fuse_path, "--unix", socket_path, NULL };

  if (g_mkdir (self->fuse_directory, 0700) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Creating the directory"), self->fuse_directory);
      return FALSE;
    }
  if (!spawn_helper (argv, log_path, &self->nbdfuse_pid, error) ||
      !wait_ready (self->nbdfuse_pid, "nbdfuse", pid_path, log_path, error))
    return FALSE;
  no_read_ahead (self->fuse_directory);
  return TRUE;
}

static gboolean
create_image (RpEmulatedDevice  *self,
              guint64            image_size,
              const char        *fs_type,
              GError           **error)
{
  int fd = open (self->image_path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);

  if (fd < 0 || ftruncate (fd, (off_t) image_size) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Creating the image"), self->image_path);
      if (fd >= 0)
        close (fd);
      return FALSE;
    }
  close (fd);
  /* Formatted before it is slowed down: mkfs of a 12 GiB ext3 writes some
   * 200 MiB of inode tables, half a minute on a USB stick, and that is not
   * what the cell measures. */
  return fs_type == NULL || rp_loop_mount_format (fs_type, self->image_path, error);
}

/**
 * rp_emulated_device_create:
 * @work_directory: where the run directory goes (the image takes what is
 *   written into it: it is sparse)
 * @profile: what to emulate; not `native`
 * @image_size: bytes of the emulated device
 * @fs_type: (nullable): make this file system on the image before it is
 *   served (mkfs.TYPE); %NULL leaves it empty (zeros)
 * @error: %RP_ERROR_PERMISSION without root; %RP_ERROR_FAILED naming the
 *   step (nbdkit, nbdfuse, mkfs) and its message
 *
 * Creates WORK/resprobe-device-PID-XXXXXX with a sparse image of
 * @image_size bytes, serves it through nbdkit with the profile's filter on
 * a Unix socket there, and mounts it with nbdfuse as one file,
 * rp_emulated_device_get_path(), for a loop device to sit on (the caller
 * detaches that before rp_emulated_device_destroy()). On failure, whatever
 * was done is undone.
 *
 * Returns: (transfer full) (nullable): the device; take it down with
 *   rp_emulated_device_destroy()
 */
RpEmulatedDevice *
rp_emulated_device_create (const char             *work_directory,
                           const RpDeviceProfile  *profile,
                           guint64                 image_size,
                           const char             *fs_type,
                           GError                **error)
{
  RpEmulatedDevice *self;
  g_autofree char *template = NULL;
  g_autofree char *socket_path = NULL;

  g_return_val_if_fail (work_directory != NULL, NULL);
  g_return_val_if_fail (profile != NULL && !rp_device_profile_is_native (profile), NULL);

  if (geteuid () != 0)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_PERMISSION,
                           _("Emulating a slow device needs root: run this command with sudo"));
      return NULL;
    }
  if (!rp_emulated_device_check_tools (profile, error))
    return NULL;

  self = g_new0 (RpEmulatedDevice, 1);
  template = g_strdup_printf (RUN_DIRECTORY_PREFIX "%d-XXXXXX", (int) getpid ());
  self->directory = g_build_filename (work_directory, template, NULL);
  if (g_mkdtemp_full (self->directory, 0700) == NULL)
    {
      rp_error_set_from_errno (error, errno, _("Creating the directory"), work_directory);
      g_clear_pointer (&self->directory, g_free);
      rp_emulated_device_destroy (self, NULL);
      return NULL;
    }
  self->image_path = g_build_filename (self->directory, "image", NULL);
  self->fuse_directory = g_build_filename (self->directory, "disk", NULL);
  self->fuse_path = g_build_filename (self->fuse_directory, FUSE_FILE_NAME, NULL);
  socket_path = g_build_filename (self->directory, "nbdkit.sock", NULL);
  /* A Unix socket's path holds at most 107 bytes (sun_path, unix(7)); a
   * deep --dir passed that ("nbdkit: -U: path too long: length 109 > max
   * 107 bytes" in a clone under /var/tmp): then a short private folder of
   * its own in $TMPDIR, removed with the device. */
  if (strlen (socket_path) >= sizeof (((struct sockaddr_un *) NULL)->sun_path))
    {
      self->socket_directory = g_dir_make_tmp ("resprobe-nbd-XXXXXX", NULL);
      if (self->socket_directory == NULL)
        {
          rp_error_set_from_errno (error, errno, _("Creating the directory"), g_get_tmp_dir ());
          rp_emulated_device_destroy (self, NULL);
          return NULL;
        }
      g_free (socket_path);
      socket_path = g_build_filename (self->socket_directory, "nbdkit.sock", NULL);
    }
  if (!create_image (self, image_size, fs_type, error) ||
      !start_nbdkit (self, profile, socket_path, error) ||
      !start_nbdfuse (self, socket_path, error))
    {
      rp_emulated_device_destroy (self, NULL);
      return NULL;
    }
  return self;
}

/**
 * rp_emulated_device_get_path:
 *
 * Returns: (transfer none): the file that is the emulated device (on FUSE)
 */
const char *
rp_emulated_device_get_path (RpEmulatedDevice *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->fuse_path;
}

/**
 * rp_emulated_device_get_directory:
 *
 * Returns: (transfer none): the run directory; a mount point made inside it
 *   is found by rp_emulated_device_remove_leftovers() after a SIGKILL
 */
const char *
rp_emulated_device_get_directory (RpEmulatedDevice *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->directory;
}

/**
 * rp_emulated_device_drain:
 * @self: a device
 * @error: %G_FILE_ERROR when the drain file cannot be made
 *
 * From now on the device runs at the speed of the disk under its image:
 * the filter (app/nbdkit/rp-nbdkit-disk-filter.c, rp-drain-file) forgets
 * its backlog and adds no service time. For the end of a cell whose
 * measurement is over, when closing a file waits for the writeback of its
 * dirty pages (ext3/ext4 data=ordered) at the emulated speed. Cannot be
 * undone; the device is meant to be destroyed next.
 *
 * Returns: %TRUE when the filter will see it (within 50 ms)
 */
gboolean
rp_emulated_device_drain (RpEmulatedDevice  *self,
                          GError           **error)
{
  g_autofree char *path = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  path = g_build_filename (self->directory, DRAIN_FILE_NAME, NULL);
  return g_file_set_contents (path, "", 0, error);
}

/* Mount points at or below @directory, deepest first. */
static GPtrArray *
mounts_below (const char *directory)
{
  GPtrArray *targets = g_ptr_array_new_with_free_func (g_free);
  struct libmnt_table *table = mnt_new_table ();
  struct libmnt_iter *iter = mnt_new_iter (MNT_ITER_BACKWARD);
  g_autofree char *prefix = g_strconcat (directory, "/", NULL);
  struct libmnt_fs *fs;

  if (mnt_table_parse_mtab (table, NULL) == 0)
    while (mnt_table_next_fs (table, iter, &fs) == 0)
      {
        const char *target = mnt_fs_get_target (fs);

        if (target != NULL && (g_str_has_prefix (target, prefix) || g_str_equal (target, directory)))
          g_ptr_array_add (targets, g_strdup (target));
      }
  mnt_free_iter (iter);
  mnt_unref_table (table);
  return targets;
}

/* Waits for a child of ours; SIGTERM after the grace, then SIGKILL. */
static void
reap (GPid pid,
      int  first_signal)
{
  for (int round = 0; round < 3; round++)
    {
      gint64 deadline = g_get_monotonic_time () + HELPER_WAIT_SECONDS / 4 * G_USEC_PER_SEC;

      if (round > 0 || first_signal != 0)
        kill (pid, round == 2 ? SIGKILL : round == 1 ? SIGTERM : first_signal);
      while (g_get_monotonic_time () < deadline)
        {
          if (waitpid (pid, NULL, WNOHANG) != 0)
            return;
          g_usleep (10 * 1000);
        }
    }
  waitpid (pid, NULL, 0);
}

/* Everything of a run directory but the directories, then those. */
static void
remove_run_directory (const char  *directory,
                      GError     **error)
{
  const char *const files[] = { "image", "nbdkit.sock", "nbdkit.pid", "nbdkit.log",
                                "nbdfuse.pid", "nbdfuse.log", "queue-state",
                                DRAIN_FILE_NAME };
  g_autoptr(GDir) dir = NULL;
  const char *name;

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *path = g_build_filename (directory, files[i], NULL);

      if (g_unlink (path) != 0 && errno != ENOENT && error != NULL && *error == NULL)
        rp_error_set_from_errno (error, errno, _("Removing"), path);
    }
  /* What is left are empty mount points (disk/, resprobe-FS-XXXXXX/). */
  dir = g_dir_open (directory, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (directory, name, NULL);

      if (g_rmdir (path) != 0 && error != NULL && *error == NULL)
        rp_error_set_from_errno (error, errno, _("Removing"), path);
    }
  if (g_rmdir (directory) != 0 && errno != ENOENT && error != NULL && *error == NULL)
    rp_error_set_from_errno (error, errno, _("Removing"), directory);
}

/**
 * rp_emulated_device_destroy:
 * @self: (transfer full) (nullable): the device; its file must no longer be
 *   in use (the loop device on it detached)
 * @error: the first step that failed; every other step is still tried
 *
 * Unmounts the FUSE file (nbdfuse then exits), stops nbdkit (SIGTERM), and
 * removes the image and the run directory.
 *
 * Returns: %TRUE when everything was undone
 */
gboolean
rp_emulated_device_destroy (RpEmulatedDevice  *self,
                            GError           **error)
{
  GError *first = NULL;

  if (self == NULL)
    return TRUE;
  if (self->directory != NULL)
    {
      g_autoptr(GPtrArray) mounts = mounts_below (self->directory);

      for (guint i = 0; i < mounts->len; i++)
        rp_unmount (g_ptr_array_index (mounts, i), first == NULL ? &first : NULL);
    }
  if (self->nbdfuse_pid > 0)
    reap (self->nbdfuse_pid, 0);
  if (self->nbdkit_pid > 0)
    reap (self->nbdkit_pid, SIGTERM);
  if (self->directory != NULL)
    remove_run_directory (self->directory, first == NULL ? &first : NULL);
  if (self->socket_directory != NULL)
    remove_run_directory (self->socket_directory, first == NULL ? &first : NULL);

  g_free (self->directory);
  g_free (self->socket_directory);
  g_free (self->image_path);
  g_free (self->fuse_directory);
  g_free (self->fuse_path);
  g_free (self);
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}

/* Whether PID is a live process of this program (a matrix or the
 * benchmark), so its run directory is in use. A PID taken over by another
 * program means its owner is gone. */
static gboolean
owner_alive (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", pid);
  g_autofree char *comm = NULL;

  if (pid == getpid ())
    return TRUE;
  if (!g_file_get_contents (path, &comm, NULL, NULL))
    return FALSE;
  g_strstrip (comm);
  return g_str_has_prefix (comm, "resprobe") || g_str_has_prefix (comm, "bench-device");
}

/* Stops the helper named in a pid file of @directory, if its command line
 * names @directory (the PID may have been reused). */
static void
stop_helper (const char *directory,
             const char *pid_file)
{
  g_autofree char *pid_path = g_build_filename (directory, pid_file, NULL);
  g_autofree char *pid_text = NULL;
  g_autofree char *cmdline_path = NULL;
  g_autofree char *cmdline = NULL;
  gsize length = 0;
  guint64 pid;

  if (!g_file_get_contents (pid_path, &pid_text, NULL, NULL) ||
      !g_ascii_string_to_unsigned (g_strstrip (pid_text), 10, 2, G_MAXINT32, &pid, NULL))
    return;
  cmdline_path = g_strdup_printf ("/proc/%d/cmdline", (int) pid);
  if (!g_file_get_contents (cmdline_path, &cmdline, &length, NULL))
    return;
  for (gsize i = 0; i + 1 < length; i++)
    if (cmdline[i] == '\0')
      cmdline[i] = ' ';
  if (strstr (cmdline, directory) == NULL)
    return;
  kill ((pid_t) pid, SIGTERM);
  /* Not our child: wait for /proc to forget it. */
  for (int i = 0; i < HELPER_WAIT_SECONDS * 100 && kill ((pid_t) pid, 0) == 0; i++)
    {
      g_autofree char *stat_path = g_strdup_printf ("/proc/%d/stat", (int) pid);
      g_autofree char *stat = NULL;

      /* A zombie whose parent (init) has not reaped it yet is gone enough. */
      if (g_file_get_contents (stat_path, &stat, NULL, NULL) && strstr (stat, ") Z ") != NULL)
        break;
      if (i == HELPER_WAIT_SECONDS * 50)
        kill ((pid_t) pid, SIGKILL);
      g_usleep (10 * 1000);
    }
}

/* Whether loop device @disk is bound to a file inside @directory (TRUE),
 * free (*@out_free), or another's. */
static gboolean
loop_backed_below (const char *disk,
                   const char *directory,
                   gboolean   *out_free)
{
  g_autofree char *path = g_strdup_printf ("/sys/block/%s/loop/backing_file", disk);
  g_autofree char *prefix = g_strconcat (directory, "/", NULL);
  g_autofree char *backing = NULL;
  g_autofree char *device_directory = g_strdup_printf ("/sys/block/%s", disk);

  *out_free = FALSE;
  if (!g_file_get_contents (path, &backing, NULL, NULL))
    {
      /* No backing_file: unbound (the file exists only while bound). */
      *out_free = g_file_test (device_directory, G_FILE_TEST_IS_DIR);
      return FALSE;
    }
  return g_str_has_prefix (g_strstrip (backing), prefix);
}

/* The queue settings the dead run's loop device had before it changed them
 * (the scheduler, wbt_lat_usec, read_ahead_kb, direct I/O: they outlive
 * the detach), from the run directory's queue-state file
 * (rp-loop-mount.c), put back while the device is still ours or free;
 * never on a loop device somebody else has attached since. */
static void
restore_queue (const char     *directory,
               RpQueueState  **state,
               GError        **first)
{
  g_autofree char *path = g_build_filename (directory, "queue-state", NULL);
  GError *error = NULL;
  gboolean is_free;

  if (*state == NULL)
    {
      if (!g_file_test (path, G_FILE_TEST_EXISTS))
        return;
      *state = rp_queue_state_read (path, &error);
      if (*state == NULL)
        {
          g_prefix_error (&error, _("The saved queue settings of a dead run are unreadable: "));
          g_propagate_error (first, error);
          return;
        }
    }
  if ((loop_backed_below (rp_queue_state_get_disk (*state), directory, &is_free) || is_free) &&
      !rp_queue_state_restore (*state, &error))
    g_propagate_error (first, error);
}

static gboolean
remove_leftover (const char  *directory,
                 GError     **error)
{
  g_autoptr(GPtrArray) mounts = mounts_below (directory);
  g_autoptr(RpQueueState) queue = NULL;
  GError *first = NULL;

  /* While the loop device is still bound (detaching forgets direct I/O),
   * and once more after the detach, which sets read_ahead_kb again. */
  restore_queue (directory, &queue, &first);

  /* The cell's file system first (it holds the loop device, which holds
   * the FUSE file), then the FUSE mount; deepest first does that. */
  for (guint i = 0; i < mounts->len; i++)
    {
      const char *target = g_ptr_array_index (mounts, i);

      if (!g_str_has_suffix (target, "/disk"))
        rp_unmount (target, first == NULL ? &first : NULL);
    }
  rp_loop_detach_backed_by (directory, TRUE, NULL);
  restore_queue (directory, &queue, first == NULL ? &first : NULL);
  for (guint i = 0; i < mounts->len; i++)
    {
      const char *target = g_ptr_array_index (mounts, i);

      if (g_str_has_suffix (target, "/disk"))
        rp_unmount (target, first == NULL ? &first : NULL);
    }
  stop_helper (directory, "nbdfuse.pid");
  stop_helper (directory, "nbdkit.pid");
  remove_run_directory (directory, first == NULL ? &first : NULL);
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_emulated_device_remove_leftovers:
 * @work_directory: where devices were created
 * @error: the first leftover that could not be removed
 *
 * Finds the run directories (resprobe-device-PID-…) in @work_directory of
 * processes that are gone (killed with SIGKILL) and removes what each holds:
 * the file systems mounted inside it, loop devices on its FUSE file, the FUSE
 * mount, nbdfuse and nbdkit (by their pid files, when their command lines
 * name the directory), the image and the directory; the loop device's queue
 * settings, saved in the directory's queue-state file before the dead run
 * changed them, are put back (unless another has attached the device
 * since). Run directories of live runs are left alone.
 *
 * Returns: how many run directories were removed
 */
guint
rp_emulated_device_remove_leftovers (const char  *work_directory,
                                     GError     **error)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint removed = 0;

  g_return_val_if_fail (work_directory != NULL, 0);

  dir = g_dir_open (work_directory, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      guint64 pid;
      const char *dash;
      g_autofree char *pid_text = NULL;

      if (!g_str_has_prefix (name, RUN_DIRECTORY_PREFIX))
        continue;
      dash = strchr (name + strlen (RUN_DIRECTORY_PREFIX), '-');
      if (dash == NULL)
        continue;
      pid_text = g_strndup (name + strlen (RUN_DIRECTORY_PREFIX), dash - name - strlen (RUN_DIRECTORY_PREFIX));
      if (!g_ascii_string_to_unsigned (pid_text, 10, 1, G_MAXINT32, &pid, NULL) || owner_alive ((int) pid))
        continue;
      path = g_build_filename (work_directory, name, NULL);
      if (remove_leftover (path, error && *error == NULL ? error : NULL))
        removed++;
    }
  return removed;
}
