/* rp-cli-matrix-check.c: `resprobe-cli matrix`'s checks before the first cell: the device list, room in each cell, the kernel's offer. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n.h>
#include <string.h>
#include <sys/statvfs.h>

#include "rp-cli-matrix-check.h"
#include "rp-cli.h"
#include "rp-error.h"
#include "rp-kernel-features.h"
#include "rp-kernel-file-systems.h"
#include "rp-target.h"
#include "rp-units.h"

/* A matrix runs for minutes to hours: a value that would fail every cell,
 * or make two cells of the same name (one report overwriting the other),
 * is refused before anything is made, naming the value. */

/* --device LIST: profiles separated by commas, where a custom profile's
 * own KEY=VALUE pairs (custom:write=8M,read=30M) stay with it. */
static gboolean
split_devices (const char  *text,
               GPtrArray   *out,
               GError     **error)
{
  g_auto(GStrv) items = g_strsplit (text, ",", -1);
  GString *custom = NULL;

  for (guint i = 0; items[i] != NULL; i++)
    {
      g_strstrip (items[i]);
      if (custom != NULL && strchr (items[i], '=') != NULL && !g_str_has_prefix (items[i], "custom:"))
        {
          g_string_append_printf (custom, ",%s", items[i]);
          continue;
        }
      if (custom != NULL)
        g_ptr_array_add (out, g_string_free (g_steal_pointer (&custom), FALSE));
      if (g_str_has_prefix (items[i], "custom:"))
        custom = g_string_new (items[i]);
      else if (*items[i] == '\0')
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("%s: an empty item in “%s”"), "--device", text);
          return FALSE;
        }
      else
        g_ptr_array_add (out, g_strdup (items[i]));
    }
  if (custom != NULL)
    g_ptr_array_add (out, g_string_free (custom, FALSE));
  return TRUE;
}

static char *
profile_names (void)
{
  guint n;
  const RpDeviceProfile *table = rp_device_profile_get_table (&n);
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (names, "%s, ", table[i].name);
  g_string_append (names, "custom:KEY=VALUE,…");
  return g_string_free (names, FALSE);
}

/**
 * rp_cli_matrix_parse_devices:
 * @text: the value of --device: profile names and custom:KEY=VALUE,… items,
 *   separated by commas
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the value: empty ("" or an
 *   empty item), an unknown profile, a bad custom parameter, or a profile
 *   listed twice (two cells of one name: the second's report would replace
 *   the first's)
 *
 * Returns: (transfer full) (element-type RpDeviceChoice) (nullable): the
 *   profiles in order, at least one
 */
GPtrArray *
rp_cli_matrix_parse_devices (const char  *text,
                             GError     **error)
{
  g_autoptr(GPtrArray) texts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) devices = g_ptr_array_new_with_free_func ((GDestroyNotify) rp_device_choice_free);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autofree char *stripped = NULL;

  g_return_val_if_fail (text != NULL, NULL);

  stripped = g_strstrip (g_strdup (text));

  /* g_strsplit() makes no item at all of "": --device "" would have run the
   * plain image as if the option were not there. */
  if (*stripped == '\0')
    {
      g_autofree char *names = profile_names ();

      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--device: “%s” names no profile (choose from %s)"), text, names);
      return NULL;
    }
  if (!split_devices (text, texts, error))
    return NULL;
  for (guint i = 0; i < texts->len; i++)
    {
      RpDeviceChoice *choice = rp_device_choice_parse (g_ptr_array_index (texts, i), error);
      const char *name;

      if (choice == NULL)
        return NULL;
      g_ptr_array_add (devices, choice);
      name = rp_device_choice_get_profile (choice)->name;
      if (!g_hash_table_add (seen, (gpointer) name))
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       /* TRANSLATORS: the item as given, then the whole --device value */
                       _("--device: “%s” is listed twice in “%s”: each profile’s cells run once (--repeat runs them again)"),
                       (const char *) g_ptr_array_index (texts, i), text);
          return NULL;
        }
    }
  return g_steal_pointer (&devices);
}

/* Bytes a file system of @fs_type made by `mkfs.TYPE -q` on an image of
 * @image_size bytes keeps for itself, as statvfs() f_bavail shows it:
 * metadata (inode tables, bitmaps, allocation groups), the journal or log,
 * and ext's 5 % of blocks reserved for root (f_bavail leaves them out).
 * Measured here (Debian 12, e2fsprogs 1.47, xfsprogs 6.1) on images of
 * 600 MiB, 1400 MiB, 4 GiB and 12 GiB: ext3 7.3–9.3 %, ext4 7.5–11.4 %,
 * xfs 1.5–16.3 % (a log of about 100 MiB whatever the size); these bounds
 * lie above every one of them. btrfs was not measured here (no mkfs.btrfs):
 * its metadata and system chunks are bounded generously. */
static guint64
file_system_overhead (const char *fs_type,
                      guint64     image_size)
{
  if (g_str_equal (fs_type, "xfs"))
    return image_size / 100 + 100 * RP_MiB;
  if (g_str_equal (fs_type, "btrfs"))
    return image_size / 10 + 256 * RP_MiB;
  return (guint64) (0.075 * (double) image_size) + 64 * RP_MiB;
}

/* Whether a cell of @fs_type on @image_size bytes holds @writes and the
 * reserve every run leaves free (rp_target_get_reserve(): of the file
 * system's size, at most the image's). */
static gboolean
cell_fits (const char *fs_type,
           guint64     image_size,
           guint64     writes,
           guint64    *out_free)
{
  guint64 overhead = file_system_overhead (fs_type, image_size);
  guint64 free_bytes = image_size > overhead ? image_size - overhead : 0;

  *out_free = free_bytes;
  return free_bytes >= writes + rp_target_get_reserve (image_size);
}

/* The least image size, in whole 64 MiB, that cell_fits(). */
static guint64
least_image_size (const char *fs_type,
                  guint64     writes)
{
  guint64 size = writes + RP_GiB, unused;

  size += (64 * RP_MiB - size % (64 * RP_MiB)) % (64 * RP_MiB);
  while (!cell_fits (fs_type, size, writes, &unused))
    size += 64 * RP_MiB;
  return size;
}

static gboolean
check_probe_directory (const char  *probe_directory,
                       guint64      probe_writes,
                       GError     **error)
{
  struct statvfs vfs;
  guint64 free_bytes, reserve;

  if (statvfs (probe_directory, &vfs) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Checking free space in"), probe_directory);
      return FALSE;
    }
  free_bytes = (guint64) vfs.f_bavail * vfs.f_frsize;
  reserve = rp_target_get_reserve ((guint64) vfs.f_blocks * vfs.f_frsize);
  if (free_bytes < probe_writes + reserve)
    {
      g_autofree char *free_text = rp_format_size (free_bytes);
      g_autofree char *writes_text = rp_format_size (probe_writes);
      g_autofree char *reserve_text = rp_format_size (reserve);

      g_set_error (error, RP_ERROR, RP_ERROR_NO_SPACE,
                   /* TRANSLATORS: folder, free bytes, the probes' bytes, what a run leaves free */
                   _("--probe-dir: “%s” has %s free; the probes write %s there and a run always leaves %s free"),
                   probe_directory, free_text, writes_text, reserve_text);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_cli_matrix_check_cell_space:
 * @scenario: each cell's scenario, its writer size set
 * @fs_types: (element-type utf8): the file systems of the cells
 * @image_size: bytes of each cell's image (--image-size)
 * @probe_directory: (nullable): --probe-dir, the probes' fast file system
 *   (R6), or %NULL when everything runs on the cell's
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the image size, the file
 *   system, what it leaves free, what a cell needs and the least size that
 *   holds it; %RP_ERROR_NO_SPACE naming the probe folder
 *
 * Checks before the first cell what each cell's run checks when it starts
 * (engine/run/rp-target.c): its file system must hold the writer, every
 * other part's files (all of them, as a load folder of its own is checked
 * for all) and the 5 % or 1 GiB that a run leaves free, after the file
 * system's own overhead (file_system_overhead()); with @probe_directory the
 * probes' files and that folder's reserve must fit there too. Without this
 * every cell failed for space, one after the other.
 *
 * Returns: %TRUE when every cell fits
 */
gboolean
rp_cli_matrix_check_cell_space (const RpScenario  *scenario,
                                GPtrArray         *fs_types,
                                guint64            image_size,
                                const char        *probe_directory,
                                GError           **error)
{
  guint64 budget, writer = 0, writes;

  g_return_val_if_fail (scenario != NULL && fs_types != NULL, FALSE);

  budget = rp_target_get_write_budget (scenario);
  if (rp_scenario_has_part (scenario, "seq-writer"))
    writer = rp_params_get_size (scenario->params, "writer_total_size");
  writes = writer + budget;
  for (guint i = 0; i < fs_types->len; i++)
    {
      const char *fs_type = g_ptr_array_index (fs_types, i);
      guint64 free_bytes;

      if (!cell_fits (fs_type, image_size, writes, &free_bytes))
        {
          /* In whole MiB, as --image-size takes them: 1.4 GiB given and
           * "at least 1.4 GiB" would read as the same size. */
          g_autofree char *image_text = g_strdup_printf ("%" G_GUINT64_FORMAT "M", image_size / RP_MiB);
          g_autofree char *free_text = rp_format_size (free_bytes);
          g_autofree char *writer_text = rp_format_size (writer);
          g_autofree char *budget_text = rp_format_size (budget);
          g_autofree char *reserve_text = rp_format_size (rp_target_get_reserve (image_size));
          g_autofree char *least_text = g_strdup_printf ("%" G_GUINT64_FORMAT "M", least_image_size (fs_type, writes) / RP_MiB);

          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       /* TRANSLATORS: image size, file system, its free bytes, the writer's
                        * bytes, the other parts' bytes, what a run leaves free, the least size */
                       _("--image-size: a %s %s image has about %s free once made (metadata, journal, reserved blocks); "
                         "each cell needs the writer’s %s, %s for the other loads’ and probes’ files, "
                         "and the %s that a run always leaves free: give at least %s"),
                       image_text, fs_type, free_text, writer_text, budget_text, reserve_text, least_text);
          return FALSE;
        }
    }
  return probe_directory == NULL || check_probe_directory (probe_directory, budget, error);
}

/* The default list keeps what the kernel offers of it, and says what it
 * left out: a kernel without mq-deadline still runs a matrix of defaults. */
static void
keep_offered (GPtrArray              *schedulers,
              const RpKernelFeatures *kernel)
{
  for (guint i = schedulers->len; i-- > 0;)
    {
      const char *name = g_ptr_array_index (schedulers, i);

      if (schedulers->len > 1 && !rp_kernel_features_has_scheduler (kernel, name))
        {
          g_autofree char *offered = g_strjoinv (", ", (char **) rp_kernel_features_get_schedulers (kernel));

          /* TRANSLATORS: a scheduler's name, the kernel's own, e.g. "none, mq-deadline, kyber" */
          rp_cli_print (_("Note: this kernel offers no I/O scheduler “%s” (it offers %s); the cells leave it out.\n"),
                        name, offered);
          g_ptr_array_remove_index (schedulers, i);
        }
    }
}

/**
 * rp_cli_matrix_check_kernel:
 * @schedulers: (element-type utf8): the cells' I/O schedulers
 * @schedulers_by_default: %TRUE when @schedulers is the matrix's default
 *   list rather than --scheduler's: those the kernel lacks are left out
 *   (with a note) instead of refused
 * @settings: (array length=n_settings): the kernel settings the options vary
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the option, what this kernel
 *   lacks and what it offers instead (rp-kernel-features.c)
 *
 * Checks before the first cell that the kernel offers every scheduler and
 * setting the cells use: a cell that asks for one it lacks would fail after
 * the cells before it ran for minutes.
 *
 * Returns: %TRUE when the kernel offers everything asked for
 */
gboolean
rp_cli_matrix_check_kernel (GPtrArray                *schedulers,
                            gboolean                  schedulers_by_default,
                            const RpCliMatrixSetting *settings,
                            guint                     n_settings,
                            GError                  **error)
{
  g_autoptr(RpKernelFeatures) kernel = rp_kernel_features_new ();

  g_return_val_if_fail (schedulers != NULL, FALSE);

  if (schedulers_by_default)
    keep_offered (schedulers, kernel);
  if (!rp_kernel_features_check_schedulers (kernel, "--scheduler", schedulers, error))
    return FALSE;
  for (guint i = 0; i < n_settings; i++)
    if (settings[i].asked &&
        !rp_kernel_features_check_setting (kernel, settings[i].option, settings[i].setting, error))
      return FALSE;
  return TRUE;
}

/* The package that has mkfs.TYPE on Debian and Ubuntu, for the message. */
static const struct {
  const char *fs_type;
  const char *package;
} mkfs_packages[] = {
  { "ext2", "e2fsprogs" },
  { "ext3", "e2fsprogs" },
  { "ext4", "e2fsprogs" },
  { "xfs", "xfsprogs" },
  { "btrfs", "btrfs-progs" },
};

/**
 * rp_cli_matrix_check_file_systems:
 * @fs_types: (element-type utf8): the cells' file systems, e.g. "ext3"
 * @programs: %FALSE to check the kernel's drivers (before root is checked:
 *   anyone may ask), %TRUE the mkfs programs (after the device's tools)
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the first file system this
 *   kernel lacks (and those it has: rp-kernel-file-systems.c), or whose
 *   mkfs.TYPE is not installed (and the package that has it)
 *
 * Checks before the first cell what each cell's file system needs: the
 * kernel's driver and the program that makes it. Without this, every cell
 * of a missing one failed on its own after the cells before it ran.
 *
 * Returns: %TRUE when every file system can be made and mounted
 */
gboolean
rp_cli_matrix_check_file_systems (GPtrArray  *fs_types,
                                  gboolean    programs,
                                  GError    **error)
{
  g_return_val_if_fail (fs_types != NULL, FALSE);

  if (!programs)
    {
      g_autoptr(GPtrArray) offered = rp_kernel_file_systems_new ();

      return rp_kernel_file_systems_check (offered, "--fs", fs_types, error);
    }
  for (guint i = 0; i < fs_types->len; i++)
    {
      const char *fs_type = g_ptr_array_index (fs_types, i);
      g_autofree char *program = g_strdup_printf ("mkfs.%s", fs_type);
      g_autofree char *found = g_find_program_in_path (program);
      const char *package = NULL;

      if (found != NULL)
        continue;
      for (guint j = 0; j < G_N_ELEMENTS (mkfs_packages); j++)
        if (g_str_equal (mkfs_packages[j].fs_type, fs_type))
          package = mkfs_packages[j].package;
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: a file system's name, its mkfs program, the package that has it */
                   _("--fs: “%s” needs the program %s, which is not installed (the package %s has it)"),
                   fs_type, program, package != NULL ? package : program);
      return FALSE;
    }
  return TRUE;
}
