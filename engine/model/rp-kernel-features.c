/* rp-kernel-features.c: what this kernel offers the block layer's settings, discovered, never assumed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/utsname.h>

#include "rp-error.h"
#include "rp-kernel-features.h"

/* Kernels differ between machines of one kind: one has bfq, the next does
 * not; writeback throttling (CONFIG_BLK_WBT) and the bdi's max_bytes and
 * strict_limit (Linux 6.2) come and go with the configuration and the
 * release. A matrix that assumed them ran minutes of cells and then failed
 * the first cell that needed what was missing. Everything here is read from
 * sysfs (and the modules' alias list), so that a check before the first
 * cell can name what is missing and what the kernel offers instead. */

struct _RpKernelFeatures {
  GPtrArray  *schedulers;     /* char*, in the order the kernel lists them, then modular ones */
  GHashTable *settings;       /* "queue/wbt_lat_usec", "bdi/max_bytes", … present */
};

/* Adds the words of a queue/scheduler file, "none [mq-deadline] kyber",
 * without the brackets of the selected one. */
static void
add_schedulers (GPtrArray  *schedulers,
                const char *text)
{
  g_auto(GStrv) words = g_strsplit_set (text, " \t\n[]", -1);

  for (guint i = 0; words[i] != NULL; i++)
    if (*words[i] != '\0' &&
        !g_ptr_array_find_with_equal_func (schedulers, words[i], g_str_equal, NULL))
      g_ptr_array_add (schedulers, g_strdup (words[i]));
}

/* Adds "PREFIX/NAME" for every entry of @directory. */
static void
add_entries (GHashTable *settings,
             const char *directory,
             const char *prefix)
{
  g_autoptr(GDir) dir = g_dir_open (directory, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_hash_table_add (settings, g_strdup_printf ("%s/%s", prefix, name));
}

/* Block devices, loop devices first: a matrix selects a loop device's
 * scheduler, and a device with its own queue type (a zoned disk, a device
 * without a scheduler) may list fewer. */
static int
compare_names (gconstpointer a,
               gconstpointer b)
{
  const char *x = *(const char * const *) a, *y = *(const char * const *) b;
  gboolean loop_x = g_str_has_prefix (x, "loop"), loop_y = g_str_has_prefix (y, "loop");

  if (loop_x != loop_y)
    return loop_x ? -1 : 1;
  return strcmp (x, y);
}

static GPtrArray *
block_devices (const char *sys_root)
{
  g_autofree char *path = g_build_filename (sys_root, "block", NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    g_ptr_array_add (names, g_strdup (name));
  g_ptr_array_sort (names, compare_names);
  return names;
}

/* Schedulers that are modules not loaded yet: the kernel loads
 * "NAME-iosched" when NAME is written to a queue's scheduler file
 * (block/elevator.c), so sysfs does not list them until then. Each
 * elevator module declares the alias (MODULE_ALIAS("bfq-iosched") …),
 * which depmod writes to modules.alias as "alias bfq-iosched bfq". */
static void
add_modular_schedulers (GPtrArray  *schedulers,
                        const char *modules_dir)
{
  g_autoptr(GPtrArray) names = rp_kernel_module_aliases (modules_dir, "", "-iosched");

  for (guint i = 0; i < names->len; i++)
    add_schedulers (schedulers, g_ptr_array_index (names, i));
}

/**
 * rp_kernel_module_aliases:
 * @modules_dir: (nullable): the kernel's modules directory,
 *   "/lib/modules/RELEASE"; %NULL or missing for a kernel without modules
 * @prefix: what the alias begins with, e.g. "fs-" (file systems:
 *   MODULE_ALIAS_FS("btrfs") declares "fs-btrfs"), or ""
 * @suffix: what it ends with, e.g. "-iosched" (elevators:
 *   MODULE_ALIAS("bfq-iosched")), or ""
 *
 * The names of modules.alias's aliases "PREFIX NAME SUFFIX" (depmod writes
 * each as "alias ALIAS MODULE"): what the kernel can load on demand though
 * it does not list it yet.
 *
 * Returns: (transfer full) (element-type utf8): the NAMEs, in file order;
 *   empty when the file cannot be read
 */
GPtrArray *
rp_kernel_module_aliases (const char *modules_dir,
                          const char *prefix,
                          const char *suffix)
{
  GPtrArray *names = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (prefix != NULL && suffix != NULL, names);

  if (modules_dir == NULL)
    return names;
  path = g_build_filename (modules_dir, "modules.alias", NULL);
  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return names;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) words = g_strsplit (lines[i], " ", -1);
      gsize length;

      if (g_strv_length (words) < 3 || !g_str_equal (words[0], "alias") ||
          !g_str_has_prefix (words[1], prefix) || !g_str_has_suffix (words[1], suffix))
        continue;
      length = strlen (words[1]);
      if (length > strlen (prefix) + strlen (suffix))
        g_ptr_array_add (names, g_strndup (words[1] + strlen (prefix), length - strlen (prefix) - strlen (suffix)));
    }
  return names;
}

/**
 * rp_kernel_features_new_at:
 * @sys_root: where sysfs is mounted, "/sys" (a copy of its tree in tests)
 * @modules_dir: (nullable): the running kernel's modules directory,
 *   "/lib/modules/RELEASE"; %NULL or missing for a kernel without modules
 *
 * Reads what the kernel offers: the I/O schedulers of its block devices'
 * queues (`queue/scheduler`, loop devices first, the union over all, then
 * the elevator modules not loaded yet), the attributes of a request queue
 * (`queue/…`: wbt_lat_usec exists with CONFIG_BLK_WBT) and of a backing
 * device (`/sys/class/bdi/BDI/…`: max_bytes and strict_limit since Linux
 * 6.2). Nothing here fails: what cannot be read is not offered.
 *
 * Returns: (transfer full): the features; free with rp_kernel_features_free()
 */
RpKernelFeatures *
rp_kernel_features_new_at (const char *sys_root,
                           const char *modules_dir)
{
  RpKernelFeatures *self = g_new0 (RpKernelFeatures, 1);
  g_autoptr(GPtrArray) devices = NULL;
  g_autofree char *bdi_class = NULL;
  g_autoptr(GDir) bdi_dir = NULL;
  const char *bdi;

  g_return_val_if_fail (sys_root != NULL, NULL);

  self->schedulers = g_ptr_array_new_with_free_func (g_free);
  self->settings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  devices = block_devices (sys_root);
  for (guint i = 0; i < devices->len; i++)
    {
      g_autofree char *queue = g_build_filename (sys_root, "block", g_ptr_array_index (devices, i), "queue", NULL);
      g_autofree char *file = g_build_filename (queue, "scheduler", NULL);
      g_autofree char *text = NULL;

      if (g_file_get_contents (file, &text, NULL, NULL))
        add_schedulers (self->schedulers, text);
      add_entries (self->settings, queue, "queue");
    }
  if (modules_dir != NULL)
    add_modular_schedulers (self->schedulers, modules_dir);
  bdi_class = g_build_filename (sys_root, "class", "bdi", NULL);
  bdi_dir = g_dir_open (bdi_class, 0, NULL);
  while (bdi_dir != NULL && (bdi = g_dir_read_name (bdi_dir)) != NULL)
    {
      g_autofree char *path = g_build_filename (bdi_class, bdi, NULL);

      add_entries (self->settings, path, "bdi");
    }
  g_ptr_array_add (self->schedulers, NULL);
  return self;
}

/**
 * rp_kernel_features_new:
 *
 * rp_kernel_features_new_at() of this machine: /sys and
 * /lib/modules/`uname -r`.
 *
 * Returns: (transfer full): the features of the running kernel
 */
RpKernelFeatures *
rp_kernel_features_new (void)
{
  g_autofree char *modules_dir = rp_kernel_modules_dir ();

  return rp_kernel_features_new_at ("/sys", modules_dir);
}

/**
 * rp_kernel_modules_dir:
 *
 * Returns: (transfer full) (nullable): the running kernel's modules
 *   directory, "/lib/modules/`uname -r`" (it may not exist: a kernel
 *   without modules); %NULL when uname() fails
 */
char *
rp_kernel_modules_dir (void)
{
  struct utsname name;

  return uname (&name) == 0 ? g_build_filename ("/lib/modules", name.release, NULL) : NULL;
}

void
rp_kernel_features_free (RpKernelFeatures *self)
{
  if (self == NULL)
    return;
  g_ptr_array_unref (self->schedulers);
  g_hash_table_unref (self->settings);
  g_free (self);
}

/**
 * rp_kernel_features_get_schedulers:
 *
 * Returns: (transfer none) (array zero-terminated=1): the I/O schedulers
 *   this kernel offers, e.g. { "none", "mq-deadline", "kyber", NULL }; empty
 *   when sysfs shows no block device
 */
const char * const *
rp_kernel_features_get_schedulers (const RpKernelFeatures *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return (const char * const *) self->schedulers->pdata;
}

gboolean
rp_kernel_features_has_scheduler (const RpKernelFeatures *self,
                                  const char             *name)
{
  g_return_val_if_fail (self != NULL && name != NULL, FALSE);

  return g_strv_contains (rp_kernel_features_get_schedulers (self), name);
}

/**
 * rp_kernel_features_has_setting:
 * @setting: "queue/ATTRIBUTE" (of /sys/block/DISK) or "bdi/ATTRIBUTE" (of
 *   /sys/class/bdi/BDI), e.g. "queue/wbt_lat_usec", "bdi/strict_limit"
 *
 * Returns: whether some block device has that attribute
 */
gboolean
rp_kernel_features_has_setting (const RpKernelFeatures *self,
                                const char             *setting)
{
  g_return_val_if_fail (self != NULL && setting != NULL, FALSE);

  return g_hash_table_contains (self->settings, setting);
}

/**
 * rp_kernel_features_check_schedulers:
 * @option: the option that named them, e.g. "--scheduler"
 * @names: (element-type utf8): the schedulers asked for
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the first one this kernel
 *   does not offer and those it does
 *
 * Returns: %TRUE when the kernel offers every one of @names
 */
gboolean
rp_kernel_features_check_schedulers (const RpKernelFeatures *self,
                                     const char             *option,
                                     GPtrArray              *names,
                                     GError                **error)
{
  g_return_val_if_fail (self != NULL && option != NULL && names != NULL, FALSE);

  for (guint i = 0; i < names->len; i++)
    {
      const char *name = g_ptr_array_index (names, i);
      g_autofree char *offered = NULL;

      if (rp_kernel_features_has_scheduler (self, name))
        continue;
      offered = g_strjoinv (", ", (char **) self->schedulers->pdata);
      if (*offered == '\0')
        g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                     /* TRANSLATORS: the option, a scheduler's name */
                     _("%s: cannot tell whether this kernel offers the I/O scheduler “%s”: /sys/block shows no device’s scheduler"),
                     option, name);
      else
        g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                     /* TRANSLATORS: the option, a scheduler's name, the kernel's own, e.g. "none, mq-deadline, kyber" */
                     _("%s: this kernel offers no I/O scheduler “%s” (it offers %s)"),
                     option, name, offered);
      return FALSE;
    }
  return TRUE;
}

/* What each setting the matrix varies needs of the kernel, for the message
 * that says it is missing. */
static const struct {
  const char *setting;
  const char *path;
  const char *needs;
} setting_needs[] = {
  { "queue/wbt_lat_usec", "/sys/block/DISK/queue/wbt_lat_usec", N_("writeback throttling, CONFIG_BLK_WBT") },
  { "bdi/max_ratio", "/sys/class/bdi/BDI/max_ratio", N_("Linux 2.6.24 and later") },
  { "bdi/max_bytes", "/sys/class/bdi/BDI/max_bytes", N_("Linux 6.2 and later") },
  { "bdi/strict_limit", "/sys/class/bdi/BDI/strict_limit", N_("Linux 6.2 and later") },
};

/**
 * rp_kernel_features_check_setting:
 * @option: the option that varies it, e.g. "--wbt"
 * @setting: as for rp_kernel_features_has_setting(), e.g. "queue/wbt_lat_usec"
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the option, the sysfs file and
 *   what provides it
 *
 * Returns: %TRUE when the kernel has @setting
 */
gboolean
rp_kernel_features_check_setting (const RpKernelFeatures *self,
                                  const char             *option,
                                  const char             *setting,
                                  GError                **error)
{
  const char *path = setting, *needs = NULL;

  g_return_val_if_fail (self != NULL && option != NULL && setting != NULL, FALSE);

  if (rp_kernel_features_has_setting (self, setting))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (setting_needs); i++)
    if (g_str_equal (setting_needs[i].setting, setting))
      {
        path = setting_needs[i].path;
        needs = _(setting_needs[i].needs);
      }
  if (needs != NULL)
    g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                 /* TRANSLATORS: the option, a sysfs path, what provides it, e.g. "Linux 6.2 and later" */
                 _("%s: this kernel has no %s (%s): leave the option out"), option, path, needs);
  else
    g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                 /* TRANSLATORS: the option, a sysfs path */
                 _("%s: this kernel has no %s: leave the option out"), option, path);
  return FALSE;
}
