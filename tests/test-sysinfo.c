/* test-sysinfo.c: the system snapshot, on fixture trees of /proc, /sys and /etc and on this machine. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <linux/magic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-sysinfo.h"
#include "rp-sysinfo-private.h"

#define N_FIELDS 54

/* Collects with the roots of tests/fixtures/sysinfo/CASE/{proc,sys,etc}. */
static RpSysinfo *
collect_fixture (const char *fixture,
                 const char *target)
{
  g_autofree char *root = g_test_build_filename (G_TEST_DIST, "fixtures", "sysinfo", fixture, NULL);
  g_autofree char *proc = g_build_filename (root, "proc", NULL);
  g_autofree char *sys = g_build_filename (root, "sys", NULL);
  g_autofree char *etc = g_build_filename (root, "etc", NULL);

  return rp_sysinfo_collect_full (target, proc, sys, etc);
}

static void
assert_sysinfo_equal (const RpSysinfo *a,
                      const RpSysinfo *b)
{
  g_assert_cmpstr (a->kernel_release, ==, b->kernel_release);
  g_assert_cmpstr (a->machine, ==, b->machine);
  g_assert_cmpuint (a->userspace_bits, ==, b->userspace_bits);
  g_assert_cmpstr (a->distribution, ==, b->distribution);
  g_assert_cmpstr (a->cpu_model, ==, b->cpu_model);
  g_assert_cmpuint (a->cpu_count, ==, b->cpu_count);
  g_assert_cmpuint (a->ram_bytes, ==, b->ram_bytes);
  g_assert_cmpstr (a->target_directory, ==, b->target_directory);
  g_assert_cmpstr (a->mount_point, ==, b->mount_point);
  g_assert_cmpstr (a->fs_type, ==, b->fs_type);
  g_assert_cmpstr (a->mount_options, ==, b->mount_options);
  g_assert_cmpstr (a->journal_mode, ==, b->journal_mode);
  g_assert_cmpstr (a->source_device, ==, b->source_device);
  g_assert_cmpstr (a->whole_disk, ==, b->whole_disk);
  g_assert_cmpstr (a->scheduler, ==, b->scheduler);
  g_assert_cmpstr (a->available_schedulers, ==, b->available_schedulers);
  g_assert_cmpint (a->rotational, ==, b->rotational);
  g_assert_cmpstr (a->raid_level, ==, b->raid_level);
  g_assert_cmpstr (a->dm_name, ==, b->dm_name);
  g_assert_cmpstr (a->wbt_lat_usec, ==, b->wbt_lat_usec);
  g_assert_cmpstr (a->dirty_ratio, ==, b->dirty_ratio);
  g_assert_cmpstr (a->dirty_background_ratio, ==, b->dirty_background_ratio);
  g_assert_cmpstr (a->dirty_bytes, ==, b->dirty_bytes);
  g_assert_cmpstr (a->dirty_background_bytes, ==, b->dirty_background_bytes);
  g_assert_cmpstr (a->dirty_expire_centisecs, ==, b->dirty_expire_centisecs);
  g_assert_cmpstr (a->dirty_writeback_centisecs, ==, b->dirty_writeback_centisecs);
  g_assert_cmpint (a->fsync_is_noop, ==, b->fsync_is_noop);
  g_assert_cmpint (a->is_network_fs, ==, b->is_network_fs);
  g_assert_cmpint (a->is_fuse, ==, b->is_fuse);
  g_assert_cmpint (a->in_document_portal, ==, b->in_document_portal);
}

/* Through text, as a report file would go, and back; then the boxed copy. */
static void
assert_round_trip (const RpSysinfo *info)
{
  g_autoptr(JsonNode) node = rp_sysinfo_to_json (info);
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(RpSysinfo) back = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  RpSysinfo *copy;

  json_generator_set_root (generator, node);
  text = json_generator_to_data (generator, NULL);
  g_assert_true (json_parser_load_from_data (parser, text, -1, &error));
  g_assert_no_error (error);

  back = rp_sysinfo_new_from_json (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  g_assert_nonnull (back);
  assert_sysinfo_equal (info, back);

  copy = g_boxed_copy (RP_TYPE_SYSINFO, info);
  assert_sysinfo_equal (info, copy);
  g_boxed_free (RP_TYPE_SYSINFO, copy);
}

static char *
field_value (const RpSysinfo *info,
             const char      *key)
{
  g_autoptr(GPtrArray) fields = rp_sysinfo_get_fields (info);

  for (guint i = 0; i < fields->len; i++)
    {
      RpSysinfoField *field = g_ptr_array_index (fields, i);

      if (g_str_equal (field->key, key))
        return g_strdup (field->value);
    }
  g_assert_not_reached ();
}

static void
assert_field (const RpSysinfo *info,
              const char      *key,
              const char      *expected)
{
  g_autofree char *value = field_value (info, key);

  g_assert_cmpstr (value, ==, expected);
}

static guint
count_warnings_with (const RpSysinfo *info,
                     const char      *needle)
{
  g_auto(GStrv) warnings = rp_sysinfo_get_warnings (info);
  guint count = 0;

  for (guint i = 0; warnings[i] != NULL; i++)
    if (strstr (warnings[i], needle) != NULL)
      count++;
  return count;
}

static guint
count_warnings (const RpSysinfo *info)
{
  g_auto(GStrv) warnings = rp_sysinfo_get_warnings (info);

  return g_strv_length (warnings);
}

static void
test_ext3_ordered (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("ext3-ordered", "/mnt/old disk/work");

  /* the machine, all from the fixture */
  g_assert_cmpstr (info->kernel_release, ==, "2.6.28-11-generic");
  g_assert_cmpstr (info->machine, ==, "i686");
  g_assert_cmpuint (info->userspace_bits, ==, sizeof (void *) * 8);
  g_assert_cmpstr (info->distribution, ==, "Ubuntu 9.04");
  g_assert_cmpstr (info->cpu_model, ==, "Intel(R) Core(TM)2 Duo CPU     T7500  @ 2.20GHz");
  g_assert_cmpuint (info->cpu_count, ==, 2);
  g_assert_cmpuint (info->ram_bytes, ==, G_GUINT64_CONSTANT (2052828) * 1024);

  /* "\040" in mountinfo is a space in the mount point */
  g_assert_cmpstr (info->target_directory, ==, "/mnt/old disk/work");
  g_assert_cmpstr (info->mount_point, ==, "/mnt/old disk");
  g_assert_cmpstr (info->fs_type, ==, "ext3");
  g_assert_cmpstr (info->mount_options, ==, "rw,relatime,data=ordered");
  g_assert_cmpstr (info->journal_mode, ==, "ordered");
  g_assert_cmpstr (info->source_device, ==, "/dev/sda2");
  g_assert_cmpstr (info->whole_disk, ==, "sda");
  g_assert_cmpstr (info->scheduler, ==, "bfq");
  g_assert_cmpstr (info->available_schedulers, ==, "mq-deadline kyber bfq none");
  g_assert_cmpint (info->rotational, ==, 1);
  g_assert_null (info->raid_level);
  g_assert_null (info->dm_name);
  g_assert_cmpstr (info->wbt_lat_usec, ==, "75000");

  g_assert_cmpstr (info->dirty_ratio, ==, "10");
  g_assert_cmpstr (info->dirty_background_ratio, ==, "5");
  g_assert_cmpstr (info->dirty_bytes, ==, "0");
  g_assert_cmpstr (info->dirty_background_bytes, ==, "0");
  g_assert_cmpstr (info->dirty_expire_centisecs, ==, "3000");
  g_assert_cmpstr (info->dirty_writeback_centisecs, ==, "500");

  g_assert_false (info->fsync_is_noop);
  g_assert_false (info->is_network_fs);
  g_assert_false (info->is_fuse);
  g_assert_false (info->in_document_portal);
  g_assert_cmpuint (count_warnings (info), ==, 0);

  assert_field (info, "journal_mode", "ordered");
  assert_field (info, "rotational", "yes");
  assert_field (info, "userspace_bits", sizeof (void *) == 8 ? "64-bit" : "32-bit");
  /* a plain disk has no RAID layer: "none", not "unknown" */
  assert_field (info, "raid_level", "none");
  assert_round_trip (info);
}

static void
test_ext4_default (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("ext4-default", "/home/alice/src");
  g_autoptr(RpSysinfo) data = collect_fixture ("ext4-default", "/data/x");

  g_assert_cmpstr (info->distribution, ==, "Debian GNU/Linux 12 (bookworm)");
  g_assert_cmpstr (info->cpu_model, ==, "AMD Ryzen 7 5800U with Radeon Graphics");
  /* online "0-7,9,12-15" */
  g_assert_cmpuint (info->cpu_count, ==, 13);

  /* the tmpfs on /home/al does not cover /home/alice */
  g_assert_cmpstr (info->mount_point, ==, "/");
  g_assert_cmpstr (info->fs_type, ==, "ext4");
  g_assert_cmpstr (info->journal_mode, ==, "ordered (default)");
  g_assert_cmpstr (info->source_device, ==, "/dev/nvme0n1p2");
  g_assert_cmpstr (info->whole_disk, ==, "nvme0n1");
  g_assert_cmpstr (info->scheduler, ==, "none");
  g_assert_cmpstr (info->available_schedulers, ==, "none mq-deadline kyber bfq");
  g_assert_cmpint (info->rotational, ==, 0);
  g_assert_cmpstr (info->wbt_lat_usec, ==, "2000");
  g_assert_false (info->fsync_is_noop);
  assert_field (info, "rotational", "no");
  assert_round_trip (info);

  /* no data= in mountinfo, but /proc/fs/ext4/DEV/options tells the
   * superblock's default */
  g_assert_cmpstr (data->mount_point, ==, "/data");
  g_assert_cmpstr (data->journal_mode, ==, "journal (default)");
  g_assert_cmpstr (data->whole_disk, ==, "nvme0n1");
}

static void
test_xfs_md_raid5 (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("xfs-md-raid5", "/srv/data/bench");

  g_assert_cmpstr (info->mount_point, ==, "/srv/data");
  g_assert_cmpstr (info->fs_type, ==, "xfs");
  g_assert_null (info->journal_mode);
  g_assert_cmpstr (info->source_device, ==, "/dev/md0");
  g_assert_cmpstr (info->whole_disk, ==, "md0");
  g_assert_cmpstr (info->raid_level, ==, "raid5");
  g_assert_null (info->dm_name);
  /* md offers only "none", printed without brackets */
  g_assert_cmpstr (info->scheduler, ==, "none");
  g_assert_cmpstr (info->available_schedulers, ==, "none");
  g_assert_cmpint (info->rotational, ==, 1);
  g_assert_null (info->wbt_lat_usec);
  /* nothing of the machine in this fixture */
  g_assert_null (info->kernel_release);
  g_assert_cmpuint (info->ram_bytes, ==, 0);

  assert_field (info, "journal_mode", "not applicable");
  assert_field (info, "raid_level", "raid5");
  assert_field (info, "wbt_lat_usec", "unknown");
  assert_field (info, "kernel_release", "unknown");
  assert_round_trip (info);
}

static void
test_lvm_on_md (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("lvm-on-md", "/var/lib");

  g_assert_cmpstr (info->mount_point, ==, "/");
  g_assert_cmpstr (info->journal_mode, ==, "writeback");
  g_assert_cmpstr (info->source_device, ==, "/dev/mapper/vg0-root");
  g_assert_cmpstr (info->whole_disk, ==, "dm-0");
  g_assert_cmpstr (info->dm_name, ==, "vg0-root");
  /* found through dm-0/slaves/md1 */
  g_assert_cmpstr (info->raid_level, ==, "raid1");
  g_assert_cmpstr (info->wbt_lat_usec, ==, "0");
  assert_round_trip (info);
}

static void
test_btrfs (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("btrfs", "/home/bob/projects");

  g_assert_cmpstr (info->mount_point, ==, "/home");
  g_assert_cmpstr (info->fs_type, ==, "btrfs");
  g_assert_nonnull (strstr (info->mount_options, "subvol=/@home"));
  g_assert_null (info->journal_mode);
  /* mountinfo says 0:31, an anonymous device: the source names the disk */
  g_assert_cmpstr (info->source_device, ==, "/dev/vda2");
  g_assert_cmpstr (info->whole_disk, ==, "vda");
  g_assert_cmpstr (info->scheduler, ==, "mq-deadline");
  g_assert_cmpint (info->rotational, ==, 1);
  /* two devices (vda2, vdb): the data profile is the RAID level */
  g_assert_cmpstr (info->raid_level, ==, "raid1");
  g_assert_false (info->fsync_is_noop);
  assert_round_trip (info);
}

static void
test_tmpfs (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("tmpfs", "/tmp/x");

  g_assert_cmpstr (info->mount_point, ==, "/tmp");
  g_assert_cmpstr (info->fs_type, ==, "tmpfs");
  g_assert_cmpstr (info->source_device, ==, "tmpfs");
  g_assert_null (info->journal_mode);
  g_assert_null (info->whole_disk);
  g_assert_null (info->scheduler);
  g_assert_cmpint (info->rotational, ==, -1);
  g_assert_true (info->fsync_is_noop);
  g_assert_false (info->is_network_fs);
  g_assert_false (info->is_fuse);

  g_assert_cmpuint (count_warnings (info), ==, 1);
  g_assert_cmpuint (count_warnings_with (info, "“/tmp/x” is on tmpfs: fsync() does nothing there"), ==, 1);
  assert_field (info, "fsync_is_noop", "yes");
  /* no disk under a tmpfs: not applicable rather than unknown */
  assert_field (info, "whole_disk", "not applicable");
  assert_field (info, "rotational", "not applicable");
  assert_field (info, "journal_mode", "not applicable");
  assert_round_trip (info);
}

static void
test_nfs (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("nfs", "/mnt/nfs/alice");

  g_assert_cmpstr (info->mount_point, ==, "/mnt/nfs");
  g_assert_cmpstr (info->fs_type, ==, "nfs4");
  g_assert_cmpstr (info->source_device, ==, "fileserver:/export/home");
  g_assert_true (info->is_network_fs);
  g_assert_false (info->is_fuse);
  g_assert_false (info->fsync_is_noop);
  g_assert_null (info->whole_disk);
  g_assert_null (info->journal_mode);
  g_assert_cmpuint (count_warnings (info), ==, 1);
  g_assert_cmpuint (count_warnings_with (info, "network file system (nfs4)"), ==, 1);
  assert_field (info, "scheduler", "not applicable");
  assert_round_trip (info);
}

static void
test_bind_mount (void)
{
  /* /srv/projects/x of sdb1 is bound onto /home/alice/x, over a tmpfs there */
  g_autoptr(RpSysinfo) info = collect_fixture ("bind-mount", "/home/alice/x/build");
  g_autoptr(RpSysinfo) beside = collect_fixture ("bind-mount", "/home/alice/xy");
  g_autoptr(RpSysinfo) dotted = collect_fixture ("bind-mount", "/home/alice/y/../x/./build/");

  g_assert_cmpstr (info->mount_point, ==, "/home/alice/x");
  g_assert_cmpstr (info->fs_type, ==, "xfs");
  g_assert_cmpstr (info->source_device, ==, "/dev/sdb1");
  g_assert_cmpstr (info->whole_disk, ==, "sdb");
  g_assert_cmpstr (info->scheduler, ==, "bfq");
  g_assert_cmpint (info->rotational, ==, 1);
  g_assert_false (info->fsync_is_noop);
  g_assert_cmpuint (count_warnings (info), ==, 0);
  assert_round_trip (info);

  g_assert_cmpstr (beside->mount_point, ==, "/");
  g_assert_cmpstr (beside->whole_disk, ==, "sda");
  g_assert_cmpint (beside->rotational, ==, 0);

  g_assert_cmpstr (dotted->target_directory, ==, "/home/alice/x/build");
  g_assert_cmpstr (dotted->mount_point, ==, "/home/alice/x");
}

static void
test_fuse (void)
{
  g_autoptr(RpSysinfo) sshfs = collect_fixture ("fuse", "/home/alice/remote/src");
  g_autoptr(RpSysinfo) portal = collect_fixture ("fuse", "/run/user/1000/doc/1a2b3c4d/Documents");
  g_autoptr(RpSysinfo) ntfs = collect_fixture ("fuse", "/media/usb/x");

  g_assert_cmpstr (sshfs->fs_type, ==, "fuse.sshfs");
  g_assert_true (sshfs->is_fuse);
  g_assert_true (sshfs->is_network_fs);
  g_assert_false (sshfs->in_document_portal);
  g_assert_cmpuint (count_warnings (sshfs), ==, 2);
  g_assert_cmpuint (count_warnings_with (sshfs, "FUSE file system (fuse.sshfs)"), ==, 1);
  g_assert_cmpuint (count_warnings_with (sshfs, "network file system"), ==, 1);
  assert_round_trip (sshfs);

  g_assert_cmpstr (portal->mount_point, ==, "/run/user/1000/doc");
  g_assert_cmpstr (portal->fs_type, ==, "fuse.portal");
  g_assert_true (portal->is_fuse);
  g_assert_true (portal->in_document_portal);
  g_assert_false (portal->is_network_fs);
  /* one warning about the portal, not a second generic FUSE one */
  g_assert_cmpuint (count_warnings (portal), ==, 1);
  g_assert_cmpuint (count_warnings_with (portal, "document portal"), ==, 1);
  assert_round_trip (portal);

  g_assert_cmpstr (ntfs->fs_type, ==, "fuseblk");
  g_assert_true (ntfs->is_fuse);
  g_assert_false (ntfs->is_network_fs);
  g_assert_cmpuint (count_warnings_with (ntfs, "FUSE"), ==, 1);
}

static void
test_missing (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("missing", "/home/alice");
  g_autoptr(RpSysinfo) nowhere = rp_sysinfo_collect_full ("/x", "/nonexistent/proc",
                                                          "/nonexistent/sys", "/nonexistent/etc");
  g_autoptr(GPtrArray) fields = rp_sysinfo_get_fields (info);

  g_assert_cmpstr (info->target_directory, ==, "/home/alice");
  g_assert_null (info->kernel_release);
  g_assert_null (info->machine);
  g_assert_null (info->distribution);
  g_assert_null (info->cpu_model);
  g_assert_cmpuint (info->cpu_count, ==, 0);
  g_assert_cmpuint (info->ram_bytes, ==, 0);
  g_assert_null (info->mount_point);
  g_assert_null (info->fs_type);
  g_assert_null (info->mount_options);
  g_assert_null (info->journal_mode);
  g_assert_null (info->source_device);
  g_assert_null (info->whole_disk);
  g_assert_null (info->scheduler);
  g_assert_null (info->available_schedulers);
  g_assert_cmpint (info->rotational, ==, -1);
  g_assert_null (info->raid_level);
  g_assert_null (info->dm_name);
  g_assert_null (info->wbt_lat_usec);
  g_assert_null (info->dirty_ratio);
  g_assert_null (info->dirty_background_ratio);
  g_assert_null (info->dirty_bytes);
  g_assert_null (info->dirty_background_bytes);
  g_assert_null (info->dirty_expire_centisecs);
  g_assert_null (info->dirty_writeback_centisecs);
  g_assert_false (info->fsync_is_noop);
  g_assert_false (info->is_network_fs);
  g_assert_false (info->is_fuse);
  g_assert_false (info->in_document_portal);

  /* only the word size of this very program is always known */
  for (guint i = 0; i < fields->len; i++)
    {
      RpSysinfoField *field = g_ptr_array_index (fields, i);

      if (g_str_equal (field->key, "userspace_bits") || g_str_equal (field->key, "target_directory"))
        continue;
      if (g_str_equal (field->key, "fsync_is_noop") || g_str_equal (field->key, "is_network_fs") ||
          g_str_equal (field->key, "is_fuse") || g_str_equal (field->key, "in_document_portal"))
        g_assert_cmpstr (field->value, ==, "no");
      /* no load folder of its own is known, not unknown: the loads wrote to the target */
      else if (g_str_equal (field->key, "load_directory"))
        g_assert_cmpstr (field->value, ==, "the target directory");
      else if (g_str_has_prefix (field->key, "load_"))
        g_assert_cmpstr (field->value, ==, "not applicable");
      else
        g_assert_cmpstr (field->value, ==, "unknown");
    }
  g_assert_cmpuint (count_warnings (info), ==, 1);
  g_assert_cmpuint (count_warnings_with (info, "could not be identified"), ==, 1);
  assert_round_trip (info);

  g_assert_null (nowhere->fs_type);
  assert_round_trip (nowhere);
}

static void
test_garbage (void)
{
  g_autoptr(RpSysinfo) data = collect_fixture ("garbage", "/data/x");
  g_autoptr(RpSysinfo) root = collect_fixture ("garbage", "/srv");
  g_autoptr(RpSysinfo) odd = collect_fixture ("garbage", "/m\377nt/x");
  g_autoptr(RpSysinfo) escape = collect_fixture ("garbage", "/nowhere/x");

  /* bad lines are skipped, good ones still read, even after a bad first line */
  g_assert_cmpstr (data->mount_point, ==, "/data");
  g_assert_cmpstr (data->fs_type, ==, "ext4");
  g_assert_cmpstr (data->journal_mode, ==, "ordered (default)");
  /* sys/dev/block/8:99 dangles */
  g_assert_null (data->whole_disk);
  assert_field (data, "whole_disk", "unknown");
  assert_field (data, "raid_level", "unknown");
  g_assert_null (data->kernel_release);
  g_assert_null (data->cpu_model);
  g_assert_cmpuint (data->cpu_count, ==, 0);
  g_assert_cmpuint (data->ram_bytes, ==, 0);
  g_assert_null (data->dirty_ratio);
  /* NAME="Broken with no closing quote */
  g_assert_cmpstr (data->distribution, ==, "Broken");
  assert_round_trip (data);

  /* sda's queue files are nonsense: no selected scheduler, rotational unknown */
  g_assert_cmpstr (root->whole_disk, ==, "sda");
  g_assert_cmpint (root->rotational, ==, -1);
  g_assert_cmpstr (root->wbt_lat_usec, ==, "not-a-number");
  assert_round_trip (root);

  /* a mount point that is not UTF-8 still makes valid JSON */
  g_assert_cmpstr (odd->fs_type, ==, "tmpfs");
  g_assert_true (g_utf8_validate (odd->mount_point, -1, NULL));
  g_assert_true (g_utf8_validate (odd->target_directory, -1, NULL));
  assert_round_trip (odd);

  /* a source of "/dev/../../etc/passwd" leads nowhere in sysfs */
  g_assert_cmpstr (escape->fs_type, ==, "ext4");
  g_assert_null (escape->whole_disk);
}

/* A loop device's whole stack: its backing file, the file system and disk
 * under it, and what differs from the kernel's default for each device. */
static void
test_loop (void)
{
  g_autoptr(RpSysinfo) left = collect_fixture ("loop-ext3", "/var/tmp/matrix/resprobe-ext3-Ab12Cd/w");
  g_autoptr(RpSysinfo) fresh = collect_fixture ("loop-ext3", "/var/tmp/matrix/resprobe-ext3-Ef34Gh");
  g_autoptr(RpSysinfo) plain = collect_fixture ("loop-ext3", "/home");
  g_auto(GStrv) warnings = NULL;

  g_assert_cmpstr (left->fs_type, ==, "ext3");
  g_assert_cmpstr (left->journal_mode, ==, "writeback");
  g_assert_cmpstr (left->whole_disk, ==, "loop3");
  g_assert_cmpstr (left->scheduler, ==, "bfq");
  g_assert_cmpstr (left->wbt_lat_usec, ==, "0");
  g_assert_cmpstr (left->read_ahead_kb, ==, "2560");
  g_assert_cmpint (left->loop_direct_io, ==, 1);
  g_assert_cmpstr (left->loop_backing_file, ==, "/var/tmp/matrix/resprobe-ext3-Ab12Cd.img");
  g_assert_cmpstr (left->backing_fs_type, ==, "ext4");
  g_assert_cmpstr (left->backing_mount_point, ==, "/");
  g_assert_cmpstr (left->backing_disk, ==, "sda");
  g_assert_cmpstr (left->backing_scheduler, ==, "mq-deadline");
  g_assert_cmpint (left->backing_rotational, ==, 1);
  g_assert_cmpstr (left->backing_wbt_lat_usec, ==, "75000");
  g_assert_cmpstr (left->backing_read_ahead_kb, ==, "4096");
  /* its bdi's per-device dirty limits (/sys/block/loop3/bdi → bdi/7:3), as
   * a matrix cell with --bdi-max-ratio 1 --bdi-strict-limit 1 leaves them */
  g_assert_cmpstr (left->bdi, ==, "7:3");
  g_assert_cmpstr (left->bdi_max_ratio, ==, "1");
  g_assert_cmpstr (left->bdi_min_ratio, ==, "0");
  g_assert_cmpstr (left->bdi_max_bytes, ==, "47378063");
  g_assert_cmpstr (left->bdi_strict_limit, ==, "1");
  /* no load folder of its own: said so, its other fields do not apply */
  assert_field (left, "load_directory", "the target directory");
  assert_field (left, "load_fs_type", "not applicable");
  /* bfq turns wbt off: 0 is then the kernel's own value, not a change */
  g_assert_cmpstr (left->settings_not_default, ==,
                   "loop3 scheduler bfq (default none); loop3 dio 1 (default 0); "
                   "loop3 bdi max_ratio 1 (default 100); loop3 bdi strict_limit 1 (default 0)");
  warnings = rp_sysinfo_get_warnings (left);
  g_assert_cmpuint (g_strv_length (warnings), ==, 1);
  g_assert_nonnull (strstr (warnings[0], "loop3 scheduler bfq (default none)"));
  assert_field (left, "loop_direct_io", "yes");
  {
    g_autofree char *line = rp_sysinfo_describe (left);

    g_assert_nonnull (strstr (line, " · direct I/O · image on ext4 on sda (mq-deadline, wbt_lat_usec 75000)"));
  }
  assert_field (left, "backing_rotational", "yes");
  assert_round_trip (left);

  /* a deleted backing file is named without " (deleted)"; the loop device
   * is as fresh, the SSD under it had its wbt turned off */
  g_assert_cmpstr (fresh->loop_backing_file, ==, "/srv/images/ext3.img");
  g_assert_cmpint (fresh->loop_direct_io, ==, 0);
  g_assert_cmpstr (fresh->backing_fs_type, ==, "xfs");
  g_assert_cmpstr (fresh->backing_disk, ==, "sdb");
  g_assert_cmpint (fresh->backing_rotational, ==, 0);
  g_assert_cmpstr (fresh->settings_not_default, ==, "sdb wbt_lat_usec 0 (default 2000)");
  assert_field (fresh, "loop_direct_io", "no");
  assert_round_trip (fresh);

  /* no loop device: its fields do not apply, and the disk is as the kernel set it */
  g_assert_cmpstr (plain->whole_disk, ==, "sda");
  g_assert_null (plain->loop_backing_file);
  g_assert_cmpint (plain->loop_direct_io, ==, -1);
  g_assert_null (plain->backing_disk);
  g_assert_null (plain->settings_not_default);
  assert_field (plain, "backing_disk", "not applicable");
  assert_field (plain, "loop_direct_io", "not applicable");
  assert_field (plain, "settings_not_default", "none");
  assert_round_trip (plain);
}

static void
test_fields (void)
{
  g_autoptr(RpSysinfo) info = collect_fixture ("ext3-ordered", "/mnt/old disk");
  g_autoptr(GPtrArray) fields = rp_sysinfo_get_fields (info);
  g_autoptr(JsonNode) node = rp_sysinfo_to_json (info);
  JsonObject *object = json_node_get_object (node);
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  const char *order[] = { "kernel_release", "machine", "userspace_bits", "distribution" };
  /* rp_format_size(): a plain space before the unit, not GLib's no-break one */
  const char *ram = "2.0 GiB";

  g_assert_cmpuint (fields->len, ==, N_FIELDS);
  g_assert_cmpuint (json_object_get_size (object), ==, N_FIELDS);
  for (guint i = 0; i < fields->len; i++)
    {
      RpSysinfoField *field = g_ptr_array_index (fields, i);

      g_assert_nonnull (field->label);
      g_assert_cmpstr (field->label, !=, "");
      g_assert_nonnull (field->value);
      g_assert_true (g_hash_table_add (seen, (gpointer) field->key));
      /* every displayed key is a key of the JSON report */
      g_assert_true (json_object_has_member (object, field->key));
      if (i < G_N_ELEMENTS (order))
        g_assert_cmpstr (field->key, ==, order[i]);
    }

  assert_field (info, "ram_bytes", ram);
  assert_field (info, "cpu_count", "2");
  g_assert_cmpint (json_object_get_int_member (object, "ram_bytes"), ==, G_GINT64_CONSTANT (2052828) * 1024);
  g_assert_cmpint (json_object_get_int_member (object, "rotational"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (object, "fs_type"), ==, "ext3");
  g_assert_false (json_object_get_boolean_member (object, "is_fuse"));
  g_assert_true (JSON_NODE_HOLDS_NULL (json_object_get_member (object, "raid_level")));
}

static void
assert_json_error (const char *json,
                   const char *key)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(RpSysinfo) info = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
  info = rp_sysinfo_new_from_json (json_parser_get_root (parser), &error);
  g_assert_null (info);
  g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
  if (key != NULL)
    g_assert_nonnull (strstr (error->message, key));
}

static void
test_json_errors (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(RpSysinfo) none = rp_sysinfo_new_from_json (NULL, &error);

  g_assert_null (none);
  g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);

  assert_json_error ("[1, 2]", NULL);
  assert_json_error ("\"sysinfo\"", NULL);
  assert_json_error ("{\"cpu_count\": \"two\"}", "cpu_count");
  assert_json_error ("{\"cpu_count\": 4294967296}", "cpu_count");
  assert_json_error ("{\"userspace_bits\": 64.5}", "userspace_bits");
  assert_json_error ("{\"ram_bytes\": -5}", "ram_bytes");
  assert_json_error ("{\"ram_bytes\": 1e300}", "ram_bytes");
  assert_json_error ("{\"rotational\": 2}", "rotational");
  assert_json_error ("{\"rotational\": true}", "rotational");
  assert_json_error ("{\"fs_type\": 42}", "fs_type");
  assert_json_error ("{\"fs_type\": {\"nested\": 1}}", "fs_type");
  assert_json_error ("{\"dirty_ratio\": [20]}", "dirty_ratio");
  assert_json_error ("{\"is_fuse\": \"yes\"}", "is_fuse");
  assert_json_error ("{\"in_document_portal\": 1}", "in_document_portal");
}

static void
test_json_lenient (void)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(RpSysinfo) info = NULL;
  g_autoptr(GError) error = NULL;

  /* missing keys and nulls are unknown, unknown keys are a newer version's */
  g_assert_true (json_parser_load_from_data (parser,
    "{\"userspace_bits\": 64.0, \"fs_type\": null, \"rotational\": null,"
    " \"kernel_release\": \"6.18.0\", \"from_the_future\": [1, {\"a\": null}]}", -1, NULL));
  info = rp_sysinfo_new_from_json (json_parser_get_root (parser), &error);
  g_assert_no_error (error);
  g_assert_nonnull (info);
  g_assert_cmpuint (info->userspace_bits, ==, 64);
  g_assert_cmpstr (info->kernel_release, ==, "6.18.0");
  g_assert_null (info->fs_type);
  g_assert_null (info->machine);
  g_assert_cmpint (info->rotational, ==, -1);
  g_assert_false (info->is_fuse);
  assert_round_trip (info);
}

static void
test_live_root (void)
{
  g_autoptr(RpSysinfo) info = rp_sysinfo_collect ("/");
  g_auto(GStrv) warnings = NULL;

  g_assert_nonnull (info->kernel_release);
  g_assert_nonnull (info->machine);
  g_assert_cmpuint (info->userspace_bits, ==, sizeof (void *) * 8);
  g_assert_cmpuint (info->cpu_count, >, 0);
  g_assert_cmpuint (info->ram_bytes, >, 0);
  g_assert_cmpstr (info->target_directory, ==, "/");
  g_assert_cmpstr (info->mount_point, ==, "/");
  g_assert_nonnull (info->fs_type);
  g_test_message ("/ is %s on %s (%s), scheduler %s", info->fs_type,
                  info->source_device ? info->source_device : "?",
                  info->whole_disk ? info->whole_disk : "?",
                  info->scheduler ? info->scheduler : "?");
  /* One warning per caveat the snapshot found, and only those: each names
   * the target and says what the caveat is. (Which ones there are depends on
   * what / is here; a container's overlay has none.) */
  warnings = rp_sysinfo_get_warnings (info);
  g_assert_nonnull (warnings);
  for (guint i = 0; warnings[i] != NULL; i++)
    {
      g_test_message ("warning: %s", warnings[i]);
      g_assert_nonnull (strstr (warnings[i], "“/”"));
    }
  g_assert_cmpuint (g_strv_length (warnings), ==,
                    (guint) info->fsync_is_noop + (guint) (info->is_fuse || info->in_document_portal) +
                    (guint) info->is_network_fs);
  g_assert_cmpuint (count_warnings_with (info, "fsync() does nothing"), ==, info->fsync_is_noop ? 1 : 0);
  g_assert_cmpuint (count_warnings_with (info, "FUSE"), ==, info->is_fuse || info->in_document_portal ? 1 : 0);
  g_assert_cmpuint (count_warnings_with (info, "network file system"), ==, info->is_network_fs ? 1 : 0);
  g_assert_cmpuint (count_warnings_with (info, "could not be identified"), ==, 0);
  assert_round_trip (info);
}

/* A symlink is followed to the mount that really takes the writes. */
static void
test_live_symlink (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-sysinfo-XXXXXX", &error);
  g_autofree char *real = NULL;
  g_autofree char *link = NULL;
  g_autoptr(RpSysinfo) info = NULL;
  g_autoptr(RpSysinfo) missing = NULL;

  g_assert_no_error (error);
  real = realpath (dir, NULL);
  link = g_build_filename (real, "link", NULL);
  g_assert_cmpint (symlink ("/", link), ==, 0);

  info = rp_sysinfo_collect (link);
  g_assert_cmpstr (info->target_directory, ==, "/");
  g_assert_cmpstr (info->mount_point, ==, "/");

  /* a directory that does not exist is described as far as it can be */
  missing = rp_sysinfo_collect ("/nonexistent-rp-test/sub/../dir");
  g_assert_cmpstr (missing->target_directory, ==, "/nonexistent-rp-test/dir");
  g_assert_cmpstr (missing->mount_point, ==, "/");
  assert_round_trip (missing);

  g_assert_cmpint (unlink (link), ==, 0);
  g_assert_cmpint (rmdir (real), ==, 0);
}

/* The load folder's stack beside the target's (run --load-dir): here both
 * on the file system of /, so its fields are those of the target's. */
static void
test_live_load (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("test-sysinfo-XXXXXX", &error);
  g_autofree char *real = NULL;
  g_autofree char *loads = NULL;
  g_autoptr(RpSysinfo) info = NULL;

  g_assert_no_error (error);
  real = realpath (dir, NULL);
  loads = g_build_filename (real, "loads", NULL);
  g_assert_cmpint (g_mkdir_with_parents (loads, 0700), ==, 0);

  info = rp_sysinfo_collect (real);
  g_assert_null (info->load_directory);
  rp_sysinfo_collect_load (info, loads);
  g_assert_cmpstr (info->target_directory, ==, real);
  g_assert_cmpstr (info->load_directory, ==, loads);
  g_assert_cmpstr (info->load_fs_type, ==, info->fs_type);
  g_assert_cmpstr (info->load_mount_point, ==, info->mount_point);
  g_assert_cmpstr (info->load_source_device, ==, info->source_device);
  g_assert_cmpstr (info->load_whole_disk, ==, info->whole_disk);
  assert_field (info, "load_directory", loads);
  assert_round_trip (info);

  g_assert_cmpint (rmdir (loads), ==, 0);
  g_assert_cmpint (rmdir (real), ==, 0);
}

static void
test_live_tmpfs (void)
{
  struct statfs st;
  g_autoptr(RpSysinfo) info = NULL;

  if (statfs ("/dev/shm", &st) != 0 || st.f_type != TMPFS_MAGIC)
    {
      g_test_skip ("/dev/shm is not a tmpfs here");
      return;
    }
  info = rp_sysinfo_collect ("/dev/shm");
  g_assert_cmpstr (info->fs_type, ==, "tmpfs");
  g_assert_true (info->fsync_is_noop);
  g_assert_cmpuint (count_warnings_with (info, "fsync() does nothing"), ==, 1);
}

static void
test_machine_only (void)
{
  g_autoptr(RpSysinfo) info = rp_sysinfo_collect (NULL);

  g_assert_nonnull (info->kernel_release);
  g_assert_null (info->target_directory);
  g_assert_null (info->fs_type);
  g_assert_cmpuint (count_warnings (info), ==, 0);
  assert_round_trip (info);
}

/* The one-line description keeps each part short, so that a report with
 * an 8 000-character file system name cannot widen a window past what the
 * X server can allocate (it did). */
static void
test_describe_shortens (void)
{
  g_autoptr(RpSysinfo) sysinfo = rp_sysinfo_new ();
  g_autofree char *text = NULL;

  sysinfo->fs_type = g_strnfill (8000, 'y');
  sysinfo->source_device = g_strdup ("/dev/sda2");
  sysinfo->kernel_release = g_strdup ("6.1.0-13-amd64");
  text = rp_sysinfo_describe (sysinfo);
  g_assert_cmpuint (g_utf8_strlen (text, -1), <, 200);
  g_assert_nonnull (strstr (text, "yyy…"));
  g_assert_nonnull (strstr (text, "/dev/sda2"));
  g_assert_nonnull (strstr (text, "6.1.0-13-amd64"));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/sysinfo/describe-shortens", test_describe_shortens);
  g_test_add_func ("/sysinfo/fixture/ext3-ordered", test_ext3_ordered);
  g_test_add_func ("/sysinfo/fixture/ext4-default", test_ext4_default);
  g_test_add_func ("/sysinfo/fixture/xfs-md-raid5", test_xfs_md_raid5);
  g_test_add_func ("/sysinfo/fixture/lvm-on-md", test_lvm_on_md);
  g_test_add_func ("/sysinfo/fixture/btrfs", test_btrfs);
  g_test_add_func ("/sysinfo/fixture/tmpfs", test_tmpfs);
  g_test_add_func ("/sysinfo/fixture/nfs", test_nfs);
  g_test_add_func ("/sysinfo/fixture/bind-mount", test_bind_mount);
  g_test_add_func ("/sysinfo/fixture/fuse", test_fuse);
  g_test_add_func ("/sysinfo/fixture/missing", test_missing);
  g_test_add_func ("/sysinfo/fixture/garbage", test_garbage);
  g_test_add_func ("/sysinfo/fixture/loop", test_loop);
  g_test_add_func ("/sysinfo/fields", test_fields);
  g_test_add_func ("/sysinfo/json/errors", test_json_errors);
  g_test_add_func ("/sysinfo/json/lenient", test_json_lenient);
  g_test_add_func ("/sysinfo/live/root", test_live_root);
  g_test_add_func ("/sysinfo/live/symlink", test_live_symlink);
  g_test_add_func ("/sysinfo/live/load", test_live_load);
  g_test_add_func ("/sysinfo/live/tmpfs", test_live_tmpfs);
  g_test_add_func ("/sysinfo/live/machine-only", test_machine_only);

  return g_test_run ();
}
