/* rp-sysinfo.h: the system snapshot: kernel, machine, and the target's storage stack. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "rp-field.h"

G_BEGIN_DECLS

/**
 * RpSysinfo:
 *
 * What the reporters of docs/SCENARIOS.md compared by hand. Every string field may be
 * NULL, meaning "unknown"; numbers use 0 (or -1 where 0 is meaningful) for unknown.
 * Collected with uname(2), /etc/os-release, /proc/cpuinfo, /proc/meminfo,
 * libmount (mountinfo) and sysfs.
 */
typedef struct {
  /* machine */
  char    *kernel_release;        /* uname -r */
  char    *machine;               /* uname -m, e.g. "x86_64" */
  guint    userspace_bits;        /* sizeof (void *) * 8 of this build: 32 or 64 */
  char    *distribution;          /* PRETTY_NAME of os-release */
  char    *cpu_model;
  guint    cpu_count;             /* online CPUs */
  guint64  ram_bytes;             /* MemTotal */

  /* target directory and its storage stack */
  char    *target_directory;
  char    *mount_point;
  char    *fs_type;               /* "ext3", "ext4", "xfs", "btrfs", "tmpfs", "nfs4", "fuse.sshfs" */
  char    *mount_options;         /* VFS and file-system options, comma-separated */
  char    *journal_mode;          /* "ordered", "writeback", "journal", "ordered (default)"; NULL if the fs has none */
  char    *source_device;         /* e.g. "/dev/loop3", "/dev/mapper/vg-root", "server:/export" */
  char    *whole_disk;            /* e.g. "loop3", "sda", "md0" (kernel name of the disk) */
  char    *scheduler;             /* the selected one, e.g. "mq-deadline", "none" */
  char    *available_schedulers;  /* e.g. "none mq-deadline kyber bfq" */
  int      rotational;            /* 1, 0, or -1 unknown */
  char    *raid_level;            /* md level, e.g. "raid5" */
  char    *dm_name;               /* device-mapper name */
  char    *wbt_lat_usec;          /* queue/wbt_lat_usec */
  char    *read_ahead_kb;         /* queue/read_ahead_kb, KiB */

  /* a loop device's backing file and the storage under it; NULL/-1 when the
   * disk is not a loop device */
  char    *loop_backing_file;     /* loop/backing_file */
  int      loop_direct_io;        /* loop/dio: 1, 0, or -1 unknown */
  char    *backing_fs_type;       /* the backing file's file system */
  char    *backing_mount_point;
  char    *backing_disk;          /* kernel name of the disk under the backing file */
  char    *backing_scheduler;
  int      backing_rotational;    /* 1, 0, or -1 unknown */
  char    *backing_wbt_lat_usec;
  char    *backing_read_ahead_kb;

  /* queue settings of the disk and the backing disk that differ from what the
   * kernel gives such a device (rp-sysinfo-defaults.c), named as in sysfs,
   * e.g. "loop3 scheduler bfq (default none)"; "; "-separated, NULL when none do */
  char    *settings_not_default;

  /* where the loads wrote, when not in the target directory (a run's load
   * folder, RpScenario.load_directory: the USB stick of "copying to a USB
   * stick freezes the desktop"); all NULL when the loads wrote to the target */
  char    *load_directory;
  char    *load_mount_point;
  char    *load_fs_type;
  char    *load_mount_options;
  char    *load_journal_mode;
  char    *load_source_device;
  char    *load_whole_disk;
  char    *load_scheduler;

  /* the per-device dirty limits of the disk the loads write to (its backing
   * device info, /sys/class/bdi/BDI, Documentation/ABI/testing/sysfs-class-bdi),
   * verbatim; NULL where the kernel has no such file */
  char    *bdi;                   /* e.g. "7:3" (major:minor) */
  char    *bdi_min_ratio;         /* % of the global dirty threshold reserved for it */
  char    *bdi_max_ratio;         /* % of the global dirty threshold it may use, 100 by default */
  char    *bdi_max_bytes;         /* the same as bytes (Linux 6.2) */
  char    *bdi_strict_limit;      /* 1: held to its own share even below the global limit (Linux 4.1) */

  /* vm sysctls, verbatim */
  char    *dirty_ratio;
  char    *dirty_background_ratio;
  char    *dirty_bytes;
  char    *dirty_background_bytes;
  char    *dirty_expire_centisecs;
  char    *dirty_writeback_centisecs;

  /* caveats */
  gboolean fsync_is_noop;         /* tmpfs/ramfs: fsync does nothing */
  gboolean is_network_fs;         /* nfs, cifs, … */
  gboolean is_fuse;               /* fuse.*, including the Flatpak document portal */
  gboolean in_document_portal;    /* path under /run/user/N/doc/ */
} RpSysinfo;

/**
 * RpSysinfoField:
 *
 * An #RpField of a snapshot: @key as in the JSON report ("fs_type"), @value
 * "unknown" where unknown.
 */
typedef RpField RpSysinfoField;

#define RP_TYPE_SYSINFO (rp_sysinfo_get_type ())
GType      rp_sysinfo_get_type        (void) G_GNUC_CONST;

RpSysinfo *rp_sysinfo_collect         (const char       *target_directory);
void       rp_sysinfo_collect_load    (RpSysinfo        *self,
                                       const char       *load_directory);
RpSysinfo *rp_sysinfo_copy            (const RpSysinfo  *self);
void       rp_sysinfo_free            (RpSysinfo        *self);
GPtrArray *rp_sysinfo_get_fields      (const RpSysinfo  *self);
char     **rp_sysinfo_get_warnings    (const RpSysinfo  *self);
char      *rp_sysinfo_describe        (const RpSysinfo  *self);
JsonNode  *rp_sysinfo_to_json         (const RpSysinfo  *self);
RpSysinfo *rp_sysinfo_new_from_json   (JsonNode         *node,
                                       GError          **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpSysinfo, rp_sysinfo_free)

G_END_DECLS
