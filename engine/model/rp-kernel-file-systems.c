/* rp-kernel-file-systems.c: the disk file systems this kernel has or can load, discovered, never assumed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-error.h"
#include "rp-kernel-features.h"
#include "rp-kernel-file-systems.h"

static void
add_name (GPtrArray  *names,
          const char *name)
{
  if (*name != '\0' && !g_ptr_array_find_with_equal_func (names, name, g_str_equal, NULL))
    g_ptr_array_add (names, g_strdup (name));
}

/**
 * rp_kernel_file_systems_new_at:
 * @proc_filesystems: a file in the format of /proc/filesystems (proc(5)):
 *   one registered file system a line, "nodev" before those that need no
 *   block device
 * @modules_dir: (nullable): the kernel's modules directory; its
 *   modules.alias names the file systems that load on demand at their first
 *   mount ("fs-NAME", MODULE_ALIAS_FS()), which /proc/filesystems does not
 *   list yet
 *
 * Returns: (transfer full) (element-type utf8): the file systems on a block
 *   device this kernel offers, e.g. { "ext3", "ext2", "ext4", "xfs", "btrfs" },
 *   registered ones first; empty when nothing can be read
 */
GPtrArray *
rp_kernel_file_systems_new_at (const char *proc_filesystems,
                               const char *modules_dir)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) modular = rp_kernel_module_aliases (modules_dir, "fs-", "");
  g_autofree char *contents = NULL;

  g_return_val_if_fail (proc_filesystems != NULL, names);

  if (g_file_get_contents (proc_filesystems, &contents, NULL, NULL))
    {
      g_auto(GStrv) lines = g_strsplit (contents, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        {
          /* "nodev\tsysfs" or "\text4": the first field empty for a disk's. */
          g_auto(GStrv) fields = g_strsplit (lines[i], "\t", 2);

          if (fields[0] != NULL && fields[1] != NULL && *g_strstrip (fields[0]) == '\0')
            add_name (names, g_strstrip (fields[1]));
        }
    }
  /* Modules do not say whether they need a block device; a matrix asks only
   * for disk file systems, so that does not matter here. */
  for (guint i = 0; i < modular->len; i++)
    add_name (names, g_ptr_array_index (modular, i));
  return names;
}

/**
 * rp_kernel_file_systems_new:
 *
 * Returns: (transfer full) (element-type utf8): rp_kernel_file_systems_new_at()
 *   of this machine: /proc/filesystems and /lib/modules/`uname -r`
 */
GPtrArray *
rp_kernel_file_systems_new (void)
{
  g_autofree char *modules_dir = rp_kernel_modules_dir ();

  return rp_kernel_file_systems_new_at ("/proc/filesystems", modules_dir);
}

/**
 * rp_kernel_file_systems_check:
 * @offered: (element-type utf8): of rp_kernel_file_systems_new()
 * @option: the option that named them, e.g. "--fs"
 * @names: (element-type utf8): the file systems asked for
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the first one this kernel lacks
 *   and those it offers
 *
 * Returns: %TRUE when the kernel offers every one of @names
 */
gboolean
rp_kernel_file_systems_check (GPtrArray   *offered,
                              const char  *option,
                              GPtrArray   *names,
                              GError     **error)
{
  g_return_val_if_fail (offered != NULL && option != NULL && names != NULL, FALSE);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autoptr(GString) list = NULL;

      if (g_ptr_array_find_with_equal_func (offered, name, g_str_equal, NULL))
        continue;
      list = g_string_new (NULL);
      for (guint j = 0; j < offered->len; j++)
        g_string_append_printf (list, "%s%s", j > 0 ? ", " : "", (const char *) g_ptr_array_index (offered, j));
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: the option, a file system's name, the kernel's own, e.g. "ext4, xfs" */
                   _("%s: this kernel has no file system “%s” (it has %s)"), option, name, list->str);
      return FALSE;
    }
  return TRUE;
}
