/* rp-target.c: the target folder of a run: checks, free space, anonymous files. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-target.h"
#include "rp-units.h"

/* R1's dd wrote 15000 MiB; lowered to fit when the disk is smaller. */
#define DEFAULT_WRITER_SIZE (15000 * RP_MiB)

/* Never leave less than this free: 5 % of the file system or 1 GiB. */
#define RESERVE_FRACTION 0.05
#define RESERVE_MIN      RP_GiB

/**
 * rp_target_resolve:
 * @directory: the target as given; the default one
 *   (rp_scenario_default_directory()) is created, any other must exist
 * @out_dev: (out): its device number, to tell later whether it was removed
 * @out_ino: (out): its inode number
 * @error: %RP_ERROR_TARGET (missing, not a directory, read-only, not
 *   writable) or from errno, naming @directory
 *
 * Returns: (transfer full) (nullable): the absolute path without symbolic
 *   links, or %NULL with @error set
 */
char *
rp_target_resolve (const char  *directory,
                   dev_t       *out_dev,
                   ino_t       *out_ino,
                   GError     **error)
{
  g_autofree char *default_directory = rp_scenario_default_directory ();
  g_autofree char *resolved = NULL;
  struct stat st;

  g_return_val_if_fail (directory != NULL, NULL);

  if (g_str_equal (directory, default_directory) &&
      g_mkdir_with_parents (directory, 0700) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Creating the directory"), directory);
      return NULL;
    }

  if (stat (directory, &st) != 0)
    {
      if (errno == ENOENT)
        g_set_error (error, RP_ERROR, RP_ERROR_TARGET,
                     _("Target directory “%s” does not exist"), directory);
      else
        rp_error_set_from_errno (error, errno, _("Target directory"), directory);
      return NULL;
    }
  if (!S_ISDIR (st.st_mode))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_TARGET,
                   _("Target “%s” is not a directory"), directory);
      return NULL;
    }

  *out_dev = st.st_dev;
  *out_ino = st.st_ino;
  resolved = realpath (directory, NULL);
  if (resolved == NULL)
    resolved = g_strdup (directory);

  if (access (resolved, W_OK) != 0)
    {
      if (errno == EROFS)
        g_set_error (error, RP_ERROR, RP_ERROR_TARGET,
                     _("Target directory “%s” is on a read-only file system"), resolved);
      else
        g_set_error (error, RP_ERROR, RP_ERROR_TARGET,
                     _("Target directory “%s” is not writable: %s"), resolved, g_strerror (errno));
      return NULL;
    }
  return g_steal_pointer (&resolved);
}

static guint64 fixed_write_budget (const RpScenario *scenario);

/**
 * rp_target_get_reserve:
 * @file_system_bytes: the file system's size in bytes (statvfs f_blocks × f_frsize)
 *
 * What every run leaves free on a file system: 5 % of it or 1 GiB,
 * whichever is more (this file's policy, so that a run never fills a disk).
 *
 * Returns: bytes
 */
guint64
rp_target_get_reserve (guint64 file_system_bytes)
{
  return MAX ((guint64) (RESERVE_FRACTION * (double) file_system_bytes), RESERVE_MIN);
}

/**
 * rp_target_get_write_budget:
 * @scenario: a scenario
 *
 * Bytes the parts that run write at most, not counting the writer, whose
 * size the free-space check chooses: the sum of each part's write_budget()
 * (engine/parts). All of them are checked in a load folder of its own too.
 *
 * Returns: bytes
 */
guint64
rp_target_get_write_budget (const RpScenario *scenario)
{
  g_return_val_if_fail (scenario != NULL, 0);

  return fixed_write_budget (scenario);
}

/* Bytes the parts that run write at most, not counting the writer, whose
 * size the free-space check chooses: each part's write_budget(). */
static guint64
fixed_write_budget (const RpScenario *scenario)
{
  guint n;
  const RpPartInfo * const *table = rp_parts_get_table (&n);
  guint64 bytes = 0;

  for (guint i = 0; i < n; i++)
    if (table[i]->write_budget != NULL && rp_scenario_has_part (scenario, table[i]->id))
      bytes += table[i]->write_budget (scenario->params);
  return bytes;
}

static gboolean
refuse_no_space (const RpScenario  *scenario,
                 guint64            needed,
                 guint64            free_bytes,
                 guint64            reserve,
                 GError           **error)
{
  g_autofree char *needed_text = rp_format_size (needed);
  g_autofree char *free_text = rp_format_size (free_bytes);
  g_autofree char *reserve_text = rp_format_size (reserve);

  /* A smaller size cannot help there: say so rather than send the user
   * shrinking it down to 1 MiB. */
  if (free_bytes <= reserve + fixed_write_budget (scenario))
    g_set_error (error, RP_ERROR, RP_ERROR_NO_SPACE,
                 _("Cannot write %s to “%s”: only %s is free there, and a run always leaves %s free; choose a directory on a file system with more free space"),
                 needed_text, scenario->directory, free_text, reserve_text);
  else
    g_set_error (error, RP_ERROR, RP_ERROR_NO_SPACE,
                 _("Writing %s to “%s” would leave less than %s free (%s is free); choose a smaller size"),
                 needed_text, scenario->directory, reserve_text, free_text);
  return FALSE;
}

/**
 * rp_target_check_free_space:
 * @scenario: a scenario whose directory is resolved; its writer size is set
 *   when it was 0 (the default)
 * @out_spare_bytes: (out): what loads that write until stopped may keep on
 *   disk at once, together (at most half the free space)
 * @error: %RP_ERROR_NO_SPACE, or %RP_ERROR_INVALID_ARGUMENT for a file
 *   system without storage (/proc, /sys)
 *
 * Refuses a run whose writes would leave less than 5 % or 1 GiB free, and
 * picks the default writer size: R1's 15000 MiB, at most half the free space.
 *
 * Returns: %TRUE when the run fits
 */
gboolean
rp_target_check_free_space (RpScenario  *scenario,
                            guint64     *out_spare_bytes,
                            GError     **error)
{
  gboolean writer = rp_scenario_has_part (scenario, "seq-writer");
  guint64 block_size = rp_params_get_size (scenario->params, "writer_block_size");
  struct statvfs vfs;
  guint64 free_bytes, reserve, needed, fixed;

  *out_spare_bytes = 0;
  if (statvfs (scenario->directory, &vfs) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Checking free space in"), scenario->directory);
      return FALSE;
    }

  /* proc, sysfs and the like have no blocks at all: not a full disk. */
  if (vfs.f_blocks == 0)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("“%s” is on a file system without storage (as /proc and /sys are); choose a directory on a disk"),
                   scenario->directory);
      return FALSE;
    }

  free_bytes = (guint64) vfs.f_bavail * vfs.f_frsize;
  reserve = rp_target_get_reserve ((guint64) vfs.f_blocks * vfs.f_frsize);
  fixed = fixed_write_budget (scenario);

  if (writer && rp_params_get_size (scenario->params, "writer_total_size") == 0)
    {
      guint64 size = MIN (DEFAULT_WRITER_SIZE, free_bytes / 2);

      size = free_bytes > reserve + fixed ? MIN (size, free_bytes - reserve - fixed) : 0;
      size -= size % block_size;
      rp_params_set_size (scenario->params, "writer_total_size", MAX (size, block_size));
    }

  needed = fixed;
  if (writer)
    needed += rp_params_get_size (scenario->params, "writer_total_size");

  /* Parallel writers without a size wrap around within what is left, as the
   * default writer size does: at most half the free space. */
  if (needed + reserve < free_bytes)
    *out_spare_bytes = MIN (free_bytes / 2, free_bytes - reserve - needed);

  if (needed + reserve > free_bytes)
    return refuse_no_space (scenario, needed, free_bytes, reserve, error);
  return TRUE;
}

/**
 * rp_target_open_tmpfile:
 * @directory: the resolved target directory
 * @extra_flags: added to O_RDWR | O_CLOEXEC, e.g. O_DIRECT
 * @error: %RP_ERROR_TARGET, %RP_ERROR_NO_SPACE or %RP_ERROR_IO naming the directory
 *
 * Opens an anonymous file (mode 0600) in the target directory: O_TMPFILE where
 * the file system has it, otherwise a uniquely named file created with
 * O_CREAT | O_EXCL | O_NOFOLLOW and unlinked at once. Either way nothing is
 * left behind, not even after kill -9.
 *
 * Returns: a file descriptor, or -1 with @error set
 */
int
rp_target_open_tmpfile (const char  *directory,
                        int          extra_flags,
                        GError     **error)
{
  g_autofree char *path = NULL;
  int fd, saved_errno;

  fd = open (directory, O_TMPFILE | O_RDWR | O_CLOEXEC | extra_flags, 0600);
  if (fd >= 0)
    return fd;

  saved_errno = errno;
  if (saved_errno != EOPNOTSUPP && saved_errno != EISDIR && saved_errno != EINVAL)
    {
      rp_error_set_from_errno (error, saved_errno, _("Creating a file in"), directory);
      return -1;
    }

  path = g_build_filename (directory, ".resprobe-XXXXXX", NULL);
  fd = g_mkstemp_full (path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | extra_flags, 0600);
  if (fd < 0)
    {
      rp_error_set_from_errno (error, errno, _("Creating a file in"), directory);
      return -1;
    }
  if (unlink (path) != 0)
    {
      saved_errno = errno;
      close (fd);
      rp_error_set_from_errno (error, saved_errno, _("Removing"), path);
      return -1;
    }
  return fd;
}
