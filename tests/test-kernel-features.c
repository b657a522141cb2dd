/* test-kernel-features.c: schedulers and settings read from a sysfs tree, and the checks' messages. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gstdio.h>
#include <string.h>

#include "rp-error.h"
#include "rp-kernel-features.h"
#include "rp-kernel-file-systems.h"

/* A sysfs tree and a modules directory in a temporary folder. */
typedef struct {
  char *root;
  char *sys;
  char *modules;
} Fixture;

static void
write_file (Fixture    *f,
            const char *relative,
            const char *contents)
{
  g_autofree char *path = g_build_filename (f->root, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_assert_true (g_file_set_contents (path, contents, -1, NULL));
}

static void
set_up (Fixture       *f,
        gconstpointer  data)
{
  f->root = g_dir_make_tmp ("kernel-features-XXXXXX", NULL);
  g_assert_nonnull (f->root);
  f->sys = g_build_filename (f->root, "sys", NULL);
  f->modules = g_build_filename (f->root, "modules", NULL);
}

static void
remove_tree (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        remove_tree (child);
      else
        g_unlink (child);
    }
  g_rmdir (path);
}

static void
tear_down (Fixture       *f,
           gconstpointer  data)
{
  remove_tree (f->root);
  g_free (f->root);
  g_free (f->sys);
  g_free (f->modules);
}

static GPtrArray *
names (const char *first,
       ...)
{
  GPtrArray *array = g_ptr_array_new ();
  va_list args;

  va_start (args, first);
  for (const char *name = first; name != NULL; name = va_arg (args, const char *))
    g_ptr_array_add (array, (gpointer) name);
  va_end (args);
  return array;
}

/* This machine's kind: no bfq. A loop device's list comes first; a disk
 * that lists another adds it after; the selected one loses its brackets. */
static void
test_schedulers_union (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(RpKernelFeatures) kernel = NULL;
  g_autoptr(GPtrArray) asked = names ("none", "bfq", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *offered = NULL;

  write_file (f, "sys/block/vda/queue/scheduler", "none [mq-deadline] kyber adios\n");
  write_file (f, "sys/block/loop0/queue/scheduler", "[none] mq-deadline kyber\n");
  write_file (f, "sys/block/zram0/queue/scheduler", "none\n");
  kernel = rp_kernel_features_new_at (f->sys, NULL);
  offered = g_strjoinv (" ", (char **) rp_kernel_features_get_schedulers (kernel));
  g_assert_cmpstr (offered, ==, "none mq-deadline kyber adios");
  g_assert_true (rp_kernel_features_has_scheduler (kernel, "kyber"));
  g_assert_false (rp_kernel_features_has_scheduler (kernel, "bfq"));
  g_assert_false (rp_kernel_features_has_scheduler (kernel, "[none]"));

  g_assert_false (rp_kernel_features_check_schedulers (kernel, "--scheduler", asked, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "--scheduler: this kernel offers no I/O scheduler “bfq” (it offers none, mq-deadline, kyber, adios)");
  g_ptr_array_remove_index (asked, 1);
  g_assert_true (rp_kernel_features_check_schedulers (kernel, "--scheduler", asked, NULL));
}

/* A kernel with elevator modules: bfq is not listed until it is loaded,
 * but the kernel loads "bfq-iosched" when it is selected. */
static void
test_schedulers_modules (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(RpKernelFeatures) kernel = NULL;
  g_autofree char *offered = NULL;

  write_file (f, "sys/block/loop0/queue/scheduler", "[none] mq-deadline\n");
  write_file (f, "modules/modules.alias",
              "# Aliases extracted from modules themselves.\n"
              "alias bfq-iosched bfq\n"
              "alias kyber-iosched kyber_iosched\n"
              "alias mq-deadline-iosched mq_deadline\n"
              "alias pci:v00008086d* e1000e\n");
  kernel = rp_kernel_features_new_at (f->sys, f->modules);
  offered = g_strjoinv (" ", (char **) rp_kernel_features_get_schedulers (kernel));
  g_assert_cmpstr (offered, ==, "none mq-deadline bfq kyber");
}

/* No block device in sysfs (a container): nothing is offered, and the
 * check says it cannot tell rather than that the kernel lacks it. */
static void
test_schedulers_unknown (Fixture       *f,
                         gconstpointer  data)
{
  g_autoptr(RpKernelFeatures) kernel = rp_kernel_features_new_at (f->sys, f->modules);
  g_autoptr(GPtrArray) asked = names ("none", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_null (rp_kernel_features_get_schedulers (kernel)[0]);
  g_assert_false (rp_kernel_features_check_schedulers (kernel, "--scheduler", asked, &error));
  g_assert_nonnull (strstr (error->message, "cannot tell"));
  g_assert_false (rp_kernel_features_has_setting (kernel, "queue/wbt_lat_usec"));
}

/* Queue and bdi attributes: present where some device has them; the
 * message names the option, the file and what provides it. */
static void
test_settings (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(RpKernelFeatures) kernel = NULL;
  g_autoptr(GError) error = NULL;

  write_file (f, "sys/block/loop0/queue/scheduler", "[none]\n");
  write_file (f, "sys/block/loop0/queue/read_ahead_kb", "128\n");
  write_file (f, "sys/block/vda/queue/wbt_lat_usec", "75000\n");
  write_file (f, "sys/class/bdi/7:0/max_ratio", "100\n");
  kernel = rp_kernel_features_new_at (f->sys, NULL);
  g_assert_true (rp_kernel_features_has_setting (kernel, "queue/wbt_lat_usec"));
  g_assert_true (rp_kernel_features_has_setting (kernel, "queue/read_ahead_kb"));
  g_assert_true (rp_kernel_features_has_setting (kernel, "bdi/max_ratio"));
  g_assert_false (rp_kernel_features_has_setting (kernel, "bdi/max_ratio/x"));
  g_assert_true (rp_kernel_features_check_setting (kernel, "--wbt", "queue/wbt_lat_usec", NULL));

  g_assert_false (rp_kernel_features_check_setting (kernel, "--bdi-max-bytes", "bdi/max_bytes", &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==,
                   "--bdi-max-bytes: this kernel has no /sys/class/bdi/BDI/max_bytes (Linux 6.2 and later): leave the option out");
}

/* The running kernel: whatever it offers, what it lists as selected for
 * its first loop or disk is among what it offers. */
static void
test_this_kernel (void)
{
  g_autoptr(RpKernelFeatures) kernel = rp_kernel_features_new ();
  const char * const *schedulers = rp_kernel_features_get_schedulers (kernel);
  g_autofree char *offered = g_strjoinv (" ", (char **) schedulers);

  g_test_message ("this kernel offers: %s", offered);
  if (!g_file_test ("/sys/block", G_FILE_TEST_IS_DIR))
    {
      g_test_skip ("no /sys/block here");
      return;
    }
  for (guint i = 0; schedulers[i] != NULL; i++)
    g_assert_null (strpbrk (schedulers[i], "[] \n"));
}

/* File systems: the disk ones of /proc/filesystems ("nodev" ones are not),
 * then those a module loads at the first mount ("fs-NAME" aliases). */
static void
test_file_systems (Fixture       *f,
                   gconstpointer  data)
{
  g_autofree char *proc = g_build_filename (f->root, "filesystems", NULL);
  g_autoptr(GPtrArray) offered = NULL;
  g_autoptr(GPtrArray) asked = names ("ext4", "btrfs", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) list = g_string_new (NULL);

  write_file (f, "filesystems", "nodev\tsysfs\nnodev\ttmpfs\n\text3\n\text2\n\text4\nnodev\tfuse\n\txfs\n");
  write_file (f, "modules/modules.alias", "alias fs-btrfs btrfs\nalias fs-ext4 ext4\nalias bfq-iosched bfq\n");
  offered = rp_kernel_file_systems_new_at (proc, NULL);
  for (guint i = 0; i < offered->len; i++)
    g_string_append_printf (list, "%s ", (const char *) g_ptr_array_index (offered, i));
  g_assert_cmpstr (list->str, ==, "ext3 ext2 ext4 xfs ");
  g_assert_false (rp_kernel_file_systems_check (offered, "--fs", asked, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
  g_assert_cmpstr (error->message, ==, "--fs: this kernel has no file system “btrfs” (it has ext3, ext2, ext4, xfs)");
  g_clear_pointer (&offered, g_ptr_array_unref);

  offered = rp_kernel_file_systems_new_at (proc, f->modules);
  g_assert_true (rp_kernel_file_systems_check (offered, "--fs", asked, NULL));
  g_assert_cmpuint (offered->len, ==, 5);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add ("/kernel-features/schedulers-union", Fixture, NULL, set_up, test_schedulers_union, tear_down);
  g_test_add ("/kernel-features/schedulers-modules", Fixture, NULL, set_up, test_schedulers_modules, tear_down);
  g_test_add ("/kernel-features/schedulers-unknown", Fixture, NULL, set_up, test_schedulers_unknown, tear_down);
  g_test_add ("/kernel-features/settings", Fixture, NULL, set_up, test_settings, tear_down);
  g_test_add ("/kernel-features/file-systems", Fixture, NULL, set_up, test_file_systems, tear_down);
  g_test_add_func ("/kernel-features/this-kernel", test_this_kernel);
  return g_test_run ();
}
