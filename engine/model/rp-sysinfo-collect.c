/* rp-sysinfo-collect.c: taking the snapshot: kernel, machine, and the target's storage stack. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <libmount.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-sysinfo.h"
#include "rp-sysinfo-defaults.h"
#include "rp-sysinfo-fields.h"
#include "rp-sysinfo-private.h"
#include "rp-units.h"

typedef struct libmnt_table RpMntTable;
typedef struct libmnt_iter  RpMntIter;
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpMntTable, mnt_unref_table)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpMntIter, mnt_free_iter)

/* Where /proc, /sys and /etc are. Tests point them at fixture trees; then
 * nothing may be looked up on the real file system (no stat(), no realpath()
 * of the target), because the fixture describes another machine. */
typedef struct {
  const char *proc_root;
  const char *sys_root;
  const char *etc_root;
  gboolean    live;
} Roots;

/* File systems whose data lives in RAM: fsync() returns at once. */
static const char * const memory_fs_types[] = { "tmpfs", "ramfs", "devtmpfs", NULL };

/* libmount's mnt_fs_is_netfs() knows most; these complete it, including
 * FUSE file systems whose backend is across the network. */
static const char * const network_fs_types[] = {
  "nfs", "nfs4", "cifs", "smb3", "smbfs", "9p", "ceph", "afs", "ncpfs",
  "glusterfs", "lustre", "davfs", "fuse.sshfs", "fuse.glusterfs", "fuse.s3fs",
  "fuse.rclone", "fuse.gcsfuse", "fuse.curlftpfs", "fuse.ceph", "fuse.ceph-fuse",
  NULL
};

/* btrfs allocation profiles, as named in /sys/fs/btrfs/UUID/allocation/data/. */
static const char * const btrfs_profiles[] = {
  "single", "dup", "raid0", "raid1", "raid1c3", "raid1c4", "raid10", "raid5", "raid6",
  NULL
};

static char *
read_text (const char *path)
{
  g_autofree char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  g_strstrip (contents);
  if (*contents == '\0')
    return NULL;
  return g_steal_pointer (&contents);
}

static char *
read_under (const char *root,
            const char *relative)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);

  return read_text (path);
}

/* realpath() that returns a GLib string; NULL when @path does not exist. */
static char *
canonical_existing (const char *path)
{
  char *real = realpath (path, NULL);
  char *copy = g_strdup (real);

  free (real);
  return copy;
}

/* The value of "KEY : value" in /proc/cpuinfo and /proc/meminfo style text. */
static char *
find_colon_value (const char *text,
                  const char *key)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *colon = strchr (lines[i], ':');

      if (colon == NULL)
        continue;
      *colon = '\0';
      if (g_str_equal (g_strstrip (lines[i]), key) && *g_strstrip (colon + 1) != '\0')
        return g_strdup (colon + 1);
    }
  return NULL;
}

static char *
parse_os_release (const char *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *name = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      char *equals = strchr (line, '=');
      g_autofree char *value = NULL;

      if (*line == '#' || equals == NULL)
        continue;
      *equals = '\0';
      /* os-release values are shell-quoted; a broken quote still carries the text. */
      value = g_shell_unquote (equals + 1, NULL);
      if (value == NULL)
        value = g_strdup (equals + 1 + strspn (equals + 1, "\"'"));
      if (*value == '\0')
        continue;
      if (g_str_equal (line, "PRETTY_NAME"))
        return g_steal_pointer (&value);
      if (g_str_equal (line, "NAME"))
        {
          g_free (name);
          name = g_steal_pointer (&value);
        }
    }
  return g_steal_pointer (&name);
}

/* "0-3,6,8-9" from /sys/devices/system/cpu/online; 0 when unparsable. */
static guint
count_cpu_list (const char *list)
{
  g_auto(GStrv) ranges = g_strsplit (list, ",", -1);
  guint count = 0;

  for (guint i = 0; ranges[i] != NULL; i++)
    {
      g_auto(GStrv) ends = g_strsplit (ranges[i], "-", 2);
      guint64 first, last;

      if (!g_ascii_string_to_unsigned (g_strstrip (ends[0]), 10, 0, 1 << 20, &first, NULL))
        return 0;
      last = first;
      if (ends[1] != NULL &&
          !g_ascii_string_to_unsigned (g_strstrip (ends[1]), 10, first, 1 << 20, &last, NULL))
        return 0;
      count += (guint) (last - first + 1);
    }
  return count;
}

/* "16336000 kB" from /proc/meminfo; 0 when unparsable. */
static guint64
parse_meminfo_size (const char *text)
{
  char *end = NULL;
  guint64 number = g_ascii_strtoull (text, &end, 10);

  if (end == text)
    return 0;
  while (g_ascii_isspace (*end))
    end++;
  if (g_ascii_strcasecmp (end, "kB") == 0 && number <= G_MAXUINT64 / 1024)
    return number * 1024;
  if (*end == '\0')
    return number;
  return 0;
}

/* "none [mq-deadline] kyber bfq": the bracketed one is selected. A queue
 * that offers only "none" prints it without brackets. */
static void
parse_scheduler (const char  *text,
                 char       **out_selected,
                 char       **out_available)
{
  g_auto(GStrv) words = g_strsplit_set (text, " \t\n", -1);
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  const char *selected = NULL;

  for (guint i = 0; words[i] != NULL; i++)
    {
      char *word = words[i];
      gsize len = strlen (word);

      if (len == 0)
        continue;
      if (len > 2 && word[0] == '[' && word[len - 1] == ']')
        {
          word[len - 1] = '\0';
          word++;
          selected = word;
        }
      g_ptr_array_add (names, word);
    }
  if (names->len == 0)
    return;
  if (selected == NULL && names->len == 1)
    selected = g_ptr_array_index (names, 0);
  g_ptr_array_add (names, NULL);
  *out_available = g_strjoinv (" ", (char **) names->pdata);
  *out_selected = g_strdup (selected);
}

static gboolean
str_in_list (const char         *str,
             const char * const *list)
{
  return str != NULL && g_strv_contains (list, str);
}

/* The portal's FUSE mount is /run/user/UID/doc on the host; inside a Flatpak
 * sandbox the same documents are also visible under /run/flatpak/doc. */
static gboolean
path_in_document_portal (const char *path)
{
  const char *rest;

  if (g_str_equal (path, "/run/flatpak/doc") || g_str_has_prefix (path, "/run/flatpak/doc/"))
    return TRUE;
  if (!g_str_has_prefix (path, "/run/user/"))
    return FALSE;
  rest = path + strlen ("/run/user/");
  if (!g_ascii_isdigit (*rest))
    return FALSE;
  while (g_ascii_isdigit (*rest))
    rest++;
  return g_str_equal (rest, "/doc") || g_str_has_prefix (rest, "/doc/");
}

static void
collect_machine (RpSysinfo   *self,
                 const Roots *roots)
{
  g_autofree char *cpuinfo = NULL;
  g_autofree char *meminfo = NULL;
  g_autofree char *online = NULL;
  g_autofree char *os_release = NULL;
  struct utsname uts;
  gboolean have_uts = roots->live && uname (&uts) == 0;

  self->userspace_bits = sizeof (void *) * 8;

  self->kernel_release = read_under (roots->proc_root, "sys/kernel/osrelease");
  if (self->kernel_release == NULL && have_uts)
    self->kernel_release = g_strdup (uts.release);
  /* /proc/sys/kernel/arch is new (Linux 6.1); uname() answers everywhere else. */
  if (have_uts)
    self->machine = g_strdup (uts.machine);
  else
    self->machine = read_under (roots->proc_root, "sys/kernel/arch");

  /* In a Flatpak sandbox /etc/os-release describes the runtime; the host's is
   * what a bug report needs. */
  if (roots->live && g_str_equal (roots->etc_root, "/etc") &&
      g_file_test ("/.flatpak-info", G_FILE_TEST_EXISTS))
    os_release = read_text ("/run/host/os-release");
  if (os_release == NULL)
    os_release = read_under (roots->etc_root, "os-release");
  if (os_release == NULL && roots->live)
    os_release = read_text ("/usr/lib/os-release");
  if (os_release != NULL)
    self->distribution = parse_os_release (os_release);

  /* x86 says "model name"; other architectures use other keys. */
  cpuinfo = read_under (roots->proc_root, "cpuinfo");
  if (cpuinfo != NULL)
    {
      static const char * const keys[] = { "model name", "Processor", "cpu model", "cpu", "Hardware" };

      for (guint i = 0; i < G_N_ELEMENTS (keys) && self->cpu_model == NULL; i++)
        self->cpu_model = find_colon_value (cpuinfo, keys[i]);
    }

  online = read_under (roots->sys_root, "devices/system/cpu/online");
  if (online != NULL)
    self->cpu_count = count_cpu_list (online);
  if (self->cpu_count == 0 && roots->live)
    self->cpu_count = (guint) MAX (sysconf (_SC_NPROCESSORS_ONLN), 0);

  meminfo = read_under (roots->proc_root, "meminfo");
  if (meminfo != NULL)
    {
      g_autofree char *total = find_colon_value (meminfo, "MemTotal");

      if (total != NULL)
        self->ram_bytes = parse_meminfo_size (total);
    }
}

static void
collect_vm (RpSysinfo   *self,
            const Roots *roots)
{
  self->dirty_ratio = read_under (roots->proc_root, "sys/vm/dirty_ratio");
  self->dirty_background_ratio = read_under (roots->proc_root, "sys/vm/dirty_background_ratio");
  self->dirty_bytes = read_under (roots->proc_root, "sys/vm/dirty_bytes");
  self->dirty_background_bytes = read_under (roots->proc_root, "sys/vm/dirty_background_bytes");
  self->dirty_expire_centisecs = read_under (roots->proc_root, "sys/vm/dirty_expire_centisecs");
  self->dirty_writeback_centisecs = read_under (roots->proc_root, "sys/vm/dirty_writeback_centisecs");
}

/* A malformed mountinfo line is skipped, not fatal: the rest still helps. */
static int
skip_bad_line (struct libmnt_table *table,
               const char          *filename,
               int                  line)
{
  return 1;
}

static RpMntTable *
load_mount_table (const Roots *roots)
{
  g_autofree char *path = g_build_filename (roots->proc_root, "self", "mountinfo", NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GString) kept = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  g_autoptr(RpMntTable) table = NULL;
  FILE *stream;
  int rc;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  /* libmount guesses the format from the first line: drop what cannot be a
   * mountinfo line (they begin with the mount ID) so one bad line cannot
   * make it read the whole file as fstab. */
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_ascii_isdigit (lines[i][0]))
      g_string_append_printf (kept, "%s\n", lines[i]);
  if (kept->len == 0 || (table = mnt_new_table ()) == NULL)
    return NULL;
  mnt_table_set_parser_errcb (table, skip_bad_line);
  stream = fmemopen (kept->str, kept->len, "r");
  if (stream == NULL)
    return NULL;
  rc = mnt_table_parse_stream (table, stream, path);
  fclose (stream);
  if (rc != 0)
    return NULL;
  return g_steal_pointer (&table);
}

/* Length of @mount_point when it is @path or one of its parent directories
 * (component-wise: "/home/al" does not cover "/home/alice"), else -1. */
static gssize
covering_length (const char *mount_point,
                 const char *path)
{
  gsize len = strlen (mount_point);

  if (g_str_equal (mount_point, "/"))
    return 1;
  if (strncmp (mount_point, path, len) == 0 && (path[len] == '\0' || path[len] == '/'))
    return (gssize) len;
  return -1;
}

/* The mount that holds @path: the longest covering mount point, the last one
 * listed when mounts are stacked on the same point. On the live system a mount
 * whose device number is that of the path wins, which settles stacked and
 * hidden mounts; btrfs subvolumes below a mount have device numbers of their
 * own, so without such a match the longest prefix decides. */
static struct libmnt_fs *
find_mount (struct libmnt_table *table,
            const char          *path,
            gboolean             live)
{
  g_autoptr(RpMntIter) iter = mnt_new_iter (MNT_ITER_FORWARD);
  struct libmnt_fs *fs = NULL;
  struct libmnt_fs *best = NULL;
  struct libmnt_fs *best_by_devno = NULL;
  gssize best_len = -1;
  gssize best_by_devno_len = -1;
  struct stat st;
  gboolean have_dev = live && stat (path, &st) == 0;

  if (iter == NULL)
    return NULL;
  while (mnt_table_next_fs (table, iter, &fs) == 0)
    {
      const char *target = mnt_fs_get_target (fs);
      gssize len = target != NULL ? covering_length (target, path) : -1;

      if (len < 0)
        continue;
      if (len >= best_len)
        {
          best = fs;
          best_len = len;
        }
      if (have_dev && mnt_fs_get_devno (fs) == st.st_dev && len >= best_by_devno_len)
        {
          best_by_devno = fs;
          best_by_devno_len = len;
        }
    }
  return best_by_devno != NULL ? best_by_devno : best;
}

static char *
sysfs_dir_for_devno (const Roots *roots,
                     dev_t        devno)
{
  g_autofree char *name = g_strdup_printf ("%u:%u", major (devno), minor (devno));
  g_autofree char *path = g_build_filename (roots->sys_root, "dev", "block", name, NULL);

  return canonical_existing (path);
}

/* /dev/mapper/NAME has no sysfs entry of that name: find the dm-N whose
 * dm/name says NAME. */
static char *
sysfs_dir_for_dm_name (const Roots *roots,
                       const char  *dm_name)
{
  g_autofree char *block = g_build_filename (roots->sys_root, "block", NULL);
  g_autoptr(GDir) dir = g_dir_open (block, 0, NULL);
  const char *entry;

  if (dir == NULL)
    return NULL;
  while ((entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *name_file = g_build_filename (block, entry, "dm", "name", NULL);
      g_autofree char *name = read_text (name_file);

      if (name != NULL && g_str_equal (name, dm_name))
        {
          g_autofree char *path = g_build_filename (block, entry, NULL);

          return canonical_existing (path);
        }
    }
  return NULL;
}

static char *
sysfs_dir_for_name (const Roots *roots,
                    const char  *name)
{
  g_autofree char *class_path = NULL;
  g_autofree char *block_path = NULL;
  char *dir;

  if (g_str_has_prefix (name, "mapper/"))
    return sysfs_dir_for_dm_name (roots, name + strlen ("mapper/"));
  /* Names such as "vg/lv" or "disk/by-uuid/…" are symlinks in /dev that only
   * the live system can resolve (by stat() before we get here). */
  if (strchr (name, '/') != NULL || g_str_equal (name, "..") || g_str_equal (name, "."))
    return NULL;
  class_path = g_build_filename (roots->sys_root, "class", "block", name, NULL);
  dir = canonical_existing (class_path);
  if (dir != NULL)
    return dir;
  block_path = g_build_filename (roots->sys_root, "block", name, NULL);
  return canonical_existing (block_path);
}

/* The sysfs directory of the block device (partition or disk) behind @fs. */
static char *
find_device_dir (const Roots       *roots,
                 struct libmnt_fs  *fs)
{
  dev_t devno = mnt_fs_get_devno (fs);
  const char *source = mnt_fs_get_srcpath (fs);
  struct stat st;

  if (major (devno) != 0)
    {
      char *dir = sysfs_dir_for_devno (roots, devno);

      if (dir != NULL)
        return dir;
    }
  /* btrfs reports an anonymous device number (0:N) per subvolume; only the
   * source names the block device, and of a multi-device btrfs only one. */
  if (mnt_fs_is_netfs (fs) || mnt_fs_is_pseudofs (fs) ||
      source == NULL || !g_str_has_prefix (source, "/dev/"))
    return NULL;
  if (roots->live && stat (source, &st) == 0 && S_ISBLK (st.st_mode))
    return sysfs_dir_for_devno (roots, st.st_rdev);
  return sysfs_dir_for_name (roots, source + strlen ("/dev/"));
}

/* md level of @disk_dir, or of an md device under it (LVM on md RAID). */
static char *
find_md_level (const char *disk_dir,
               guint       depth)
{
  g_autofree char *level_file = g_build_filename (disk_dir, "md", "level", NULL);
  g_autofree char *slaves = g_build_filename (disk_dir, "slaves", NULL);
  g_autoptr(GDir) dir = NULL;
  char *level = read_text (level_file);
  const char *entry;

  if (level != NULL || depth == 0)
    return level;
  dir = g_dir_open (slaves, 0, NULL);
  while (dir != NULL && (entry = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *link = g_build_filename (slaves, entry, NULL);
      g_autofree char *slave = canonical_existing (link);

      if (slave != NULL && (level = find_md_level (slave, depth - 1)) != NULL)
        return level;
    }
  return NULL;
}

static guint
count_dir_entries (const char *path)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  guint count = 0;

  while (dir != NULL && g_dir_read_name (dir) != NULL)
    count++;
  return count;
}

/* A multi-device btrfs is its own RAID: report its data profile, read from
 * /sys/fs/btrfs/UUID/allocation/data/ of the file system that has
 * @device_name among its devices/. */
static char *
find_btrfs_profile (const Roots *roots,
                    const char  *device_name)
{
  g_autofree char *btrfs = g_build_filename (roots->sys_root, "fs", "btrfs", NULL);
  g_autoptr(GDir) dir = g_dir_open (btrfs, 0, NULL);
  const char *uuid;

  while (dir != NULL && (uuid = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *devices = g_build_filename (btrfs, uuid, "devices", NULL);
      g_autofree char *member = g_build_filename (devices, device_name, NULL);
      g_autofree char *data = NULL;
      g_autoptr(GPtrArray) found = NULL;

      if (!g_file_test (member, G_FILE_TEST_EXISTS))
        continue;
      if (count_dir_entries (devices) < 2)
        return NULL;
      found = g_ptr_array_new ();
      for (guint i = 0; btrfs_profiles[i] != NULL; i++)
        {
          g_autofree char *profile = g_build_filename (btrfs, uuid, "allocation", "data",
                                                       btrfs_profiles[i], NULL);

          if (g_file_test (profile, G_FILE_TEST_IS_DIR))
            g_ptr_array_add (found, (gpointer) btrfs_profiles[i]);
        }
      if (found->len == 0)
        return NULL;
      g_ptr_array_add (found, NULL);
      /* More than one profile only while a balance converts between them. */
      return g_strjoinv ("+", (char **) found->pdata);
    }
  return NULL;
}

/* The directory of the whole disk of a device's sysfs directory: a partition's parent. */
static char *
disk_dir_of (const char *device_dir)
{
  g_autofree char *partition = g_build_filename (device_dir, "partition", NULL);

  if (g_file_test (partition, G_FILE_TEST_EXISTS))
    return g_path_get_dirname (device_dir);
  return g_strdup (device_dir);
}

/* On a real system /sys/block/DISK is the same directory as @disk_dir;
 * prefer it so a fixture may keep queue/ there. */
static char *
queue_parent_dir (const Roots *roots,
                  const char  *disk,
                  const char  *disk_dir)
{
  g_autofree char *by_name = g_build_filename (roots->sys_root, "block", disk, NULL);

  return g_strdup (g_file_test (by_name, G_FILE_TEST_IS_DIR) ? by_name : disk_dir);
}

/* queue/ of a disk, its number of hardware queues (mq/) and, for a bound
 * loop device, loop/dio. */
static void
read_queue (const char      *dir,
            RpQueueSettings *queue)
{
  g_autofree char *scheduler = read_under (dir, "queue/scheduler");
  g_autofree char *rotational = read_under (dir, "queue/rotational");
  g_autofree char *dio = read_under (dir, "loop/dio");
  g_autofree char *mq = g_build_filename (dir, "mq", NULL);

  queue->rotational = -1;
  queue->loop_direct_io = -1;
  if (scheduler != NULL)
    parse_scheduler (scheduler, &queue->scheduler, &queue->available);
  if (rotational != NULL && (g_str_equal (rotational, "0") || g_str_equal (rotational, "1")))
    queue->rotational = rotational[0] - '0';
  if (dio != NULL && (g_str_equal (dio, "0") || g_str_equal (dio, "1")))
    queue->loop_direct_io = dio[0] - '0';
  queue->wbt_lat_usec = read_under (dir, "queue/wbt_lat_usec");
  queue->read_ahead_kb = read_under (dir, "queue/read_ahead_kb");
  queue->n_hw_queues = count_dir_entries (mq);
}

/* The file a loop device reads and writes, without the " (deleted)" the
 * kernel appends when it was unlinked (the matrix's images are not). */
static char *
read_backing_file (const char *dir)
{
  char *path = read_under (dir, "loop/backing_file");

  if (path != NULL && g_str_has_suffix (path, " (deleted)"))
    path[strlen (path) - strlen (" (deleted)")] = '\0';
  return path;
}

/* The storage under a loop device: the backing file's mount, file system
 * and disk, with the disk's queue settings. One level: a loop device on a
 * loop device names the second one as its backing disk. */
static void
collect_backing (RpSysinfo           *self,
                 const Roots         *roots,
                 struct libmnt_table *table,
                 GString             *changed)
{
  struct libmnt_fs *fs = find_mount (table, self->loop_backing_file, roots->live);
  g_autofree char *device_dir = NULL;
  g_autofree char *disk_dir = NULL;
  g_autofree char *dir = NULL;
  RpQueueSettings queue = { 0 };

  if (fs == NULL)
    return;
  self->backing_fs_type = g_strdup (mnt_fs_get_fstype (fs));
  self->backing_mount_point = g_strdup (mnt_fs_get_target (fs));
  if (mnt_fs_is_netfs (fs) || (device_dir = find_device_dir (roots, fs)) == NULL)
    return;
  disk_dir = disk_dir_of (device_dir);
  self->backing_disk = g_path_get_basename (disk_dir);
  dir = queue_parent_dir (roots, self->backing_disk, disk_dir);
  read_queue (dir, &queue);
  self->backing_scheduler = g_steal_pointer (&queue.scheduler);
  self->backing_rotational = queue.rotational;
  self->backing_wbt_lat_usec = g_strdup (queue.wbt_lat_usec);
  self->backing_read_ahead_kb = g_strdup (queue.read_ahead_kb);
  queue.scheduler = g_strdup (self->backing_scheduler);
  rp_queue_settings_append_changed (self->backing_disk, &queue, changed);
  rp_queue_settings_clear (&queue);
}

/* The per-device dirty limits of @disk's backing device info: the kernel
 * links /sys/block/DISK/bdi to /sys/class/bdi/MAJ:MIN. A limit that is not
 * the kernel's default (min_ratio 0, max_ratio 100, strict_limit 0) is
 * added to @changed, so that the report warns of it as of a changed queue. */
static void
collect_bdi (RpSysinfo   *self,
             const char  *read_dir,
             const char  *disk,
             GString     *changed)
{
  g_autofree char *link = g_build_filename (read_dir, "bdi", NULL);
  g_autofree char *target = g_file_read_link (link, NULL);
  g_autofree char *bdi_dir = NULL;
  const struct { char **member; const char *name; const char *kernel_default; } limits[] = {
    { &self->bdi_min_ratio, "min_ratio", "0" },
    { &self->bdi_max_ratio, "max_ratio", "100" },
    { &self->bdi_max_bytes, "max_bytes", NULL },
    { &self->bdi_strict_limit, "strict_limit", "0" },
  };

  g_clear_pointer (&self->bdi, g_free);
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    g_clear_pointer (limits[i].member, g_free);
  if (target == NULL)
    return;
  self->bdi = g_path_get_basename (target);
  bdi_dir = g_build_filename (read_dir, "bdi", NULL);
  for (guint i = 0; i < G_N_ELEMENTS (limits); i++)
    {
      *limits[i].member = read_under (bdi_dir, limits[i].name);
      if (changed != NULL && *limits[i].member != NULL && limits[i].kernel_default != NULL &&
          !g_str_equal (*limits[i].member, limits[i].kernel_default))
        g_string_append_printf (changed, "%s%s bdi %s %s (default %s)", changed->len ? "; " : "",
                                disk, limits[i].name, *limits[i].member, limits[i].kernel_default);
    }
}

/* Fills the disk fields from sysfs, and for a loop device those of its
 * backing file; returns the kernel name of the device itself (the
 * partition, e.g. "sda2"), or NULL when it cannot be found. */
static char *
collect_disk (RpSysinfo           *self,
              const Roots         *roots,
              struct libmnt_table *table,
              struct libmnt_fs    *fs)
{
  g_autofree char *device_dir = find_device_dir (roots, fs);
  g_autofree char *disk_dir = NULL;
  g_autofree char *read_dir = NULL;
  g_autofree char *device_name = NULL;
  g_autoptr(GString) changed = g_string_new (NULL);
  RpQueueSettings queue = { 0 };

  if (device_dir == NULL)
    return NULL;
  device_name = g_path_get_basename (device_dir);
  disk_dir = disk_dir_of (device_dir);
  self->whole_disk = g_path_get_basename (disk_dir);
  read_dir = queue_parent_dir (roots, self->whole_disk, disk_dir);

  read_queue (read_dir, &queue);
  self->scheduler = g_strdup (queue.scheduler);
  self->available_schedulers = g_strdup (queue.available);
  self->rotational = queue.rotational;
  self->wbt_lat_usec = g_strdup (queue.wbt_lat_usec);
  self->read_ahead_kb = g_strdup (queue.read_ahead_kb);
  self->loop_direct_io = queue.loop_direct_io;
  rp_queue_settings_append_changed (self->whole_disk, &queue, changed);
  rp_queue_settings_clear (&queue);

  self->dm_name = read_under (read_dir, "dm/name");
  self->raid_level = find_md_level (read_dir, 4);
  if (self->raid_level == NULL && g_strcmp0 (self->fs_type, "btrfs") == 0)
    self->raid_level = find_btrfs_profile (roots, device_name);

  collect_bdi (self, read_dir, self->whole_disk, changed);
  self->loop_backing_file = read_backing_file (read_dir);
  if (self->loop_backing_file != NULL)
    collect_backing (self, roots, table, changed);
  if (changed->len > 0)
    self->settings_not_default = g_strdup (changed->str);
  return g_steal_pointer (&device_name);
}

/* data= as mounted. The kernel lists it in mountinfo only when it was given;
 * otherwise /proc/fs/ext4/DEV/options tells the effective mode (the superblock
 * may set a default other than ordered). */
static char *
find_journal_mode (struct libmnt_fs *fs,
                   const Roots      *roots,
                   const char       *device_name)
{
  static const char * const ext_types[] = { "ext3", "ext4", "ext4dev", NULL };
  g_autofree char *options = NULL;
  char *value = NULL;
  size_t size = 0;

  if (mnt_fs_get_option (fs, "data", &value, &size) == 0 && value != NULL && size > 0)
    return g_strndup (value, size);
  if (!str_in_list (mnt_fs_get_fstype (fs), ext_types))
    return NULL;
  if (device_name != NULL)
    {
      g_autofree char *relative = g_build_filename ("fs", "ext4", device_name, "options", NULL);

      options = read_under (roots->proc_root, relative);
    }
  if (options != NULL)
    {
      g_auto(GStrv) lines = g_strsplit (options, "\n", -1);

      for (guint i = 0; lines[i] != NULL; i++)
        if (g_str_has_prefix (lines[i], "data=") && lines[i][5] != '\0')
          return g_strdup_printf ("%s (default)", lines[i] + 5);
    }
  return g_strdup ("ordered (default)");
}

static void
collect_target (RpSysinfo   *self,
                const Roots *roots,
                const char  *target_directory)
{
  g_autoptr(RpMntTable) table = load_mount_table (roots);
  g_autofree char *device_name = NULL;
  struct libmnt_fs *fs;
  const char *fs_type;

  /* On the live system symlinks resolve to where the data really goes; a
   * fixture path exists only on the machine the fixture describes. */
  if (roots->live)
    self->target_directory = canonical_existing (target_directory);
  if (self->target_directory == NULL)
    self->target_directory = g_canonicalize_filename (target_directory, roots->live ? NULL : "/");
  self->in_document_portal = path_in_document_portal (self->target_directory);

  if (table == NULL || (fs = find_mount (table, self->target_directory, roots->live)) == NULL)
    return;

  fs_type = mnt_fs_get_fstype (fs);
  self->mount_point = g_strdup (mnt_fs_get_target (fs));
  self->fs_type = g_strdup (fs_type);
  self->mount_options = mnt_fs_strdup_options (fs);
  self->source_device = g_strdup (mnt_fs_get_source (fs));

  self->fsync_is_noop = str_in_list (fs_type, memory_fs_types);
  self->is_network_fs = mnt_fs_is_netfs (fs) || str_in_list (fs_type, network_fs_types);
  self->is_fuse = fs_type != NULL && g_str_has_prefix (fs_type, "fuse");
  self->in_document_portal |= g_strcmp0 (fs_type, "fuse.portal") == 0;

  if (!self->is_network_fs)
    device_name = collect_disk (self, roots, table, fs);
  self->journal_mode = find_journal_mode (fs, roots, device_name);
}



/**
 * rp_sysinfo_collect_full:
 * @target_directory: (nullable): the directory whose storage stack to describe
 * @proc_root: (nullable): where procfs is, "/proc" if %NULL
 * @sys_root: (nullable): where sysfs is, "/sys" if %NULL
 * @etc_root: (nullable): where os-release is, "/etc" if %NULL
 *
 * rp_sysinfo_collect() with other roots, for tests. With the real roots the
 * target is resolved with realpath() and matched to its mount by device
 * number; with other roots nothing on the real file system is consulted: the
 * target is canonicalised lexically and matched by the longest mount point.
 *
 * Returns: (transfer full): the snapshot, never %NULL
 */
RpSysinfo *
rp_sysinfo_collect_full (const char *target_directory,
                         const char *proc_root,
                         const char *sys_root,
                         const char *etc_root)
{
  Roots roots = {
    .proc_root = proc_root != NULL ? proc_root : "/proc",
    .sys_root = sys_root != NULL ? sys_root : "/sys",
    .etc_root = etc_root != NULL ? etc_root : "/etc",
  };
  RpSysinfo *self = rp_sysinfo_new ();

  roots.live = g_str_equal (roots.proc_root, "/proc") && g_str_equal (roots.sys_root, "/sys");
  collect_machine (self, &roots);
  if (target_directory != NULL && *target_directory != '\0')
    collect_target (self, &roots, target_directory);
  collect_vm (self, &roots);
  rp_sysinfo_make_strings_valid (self);
  return self;
}

/**
 * rp_sysinfo_collect_load:
 * @self: a snapshot of the target directory (rp_sysinfo_collect())
 * @load_directory: the folder the loads write to, when not the target
 *
 * Adds the storage stack of the loads' folder: its mount, file system,
 * device and disk (the `load_*` fields) and, in place of the target's, the
 * per-device dirty limits of that disk (`bdi*`: the device whose writeback
 * the loads fill), from the same sources as rp_sysinfo_collect(). A changed
 * limit there joins @self's settings_not_default. Never fails; blocks as
 * rp_sysinfo_collect() may.
 */
void
rp_sysinfo_collect_load (RpSysinfo  *self,
                         const char *load_directory)
{
  g_autoptr(RpSysinfo) load = NULL;
  const char *target_changed;

  g_return_if_fail (self != NULL && load_directory != NULL);

  load = rp_sysinfo_collect (load_directory);
  target_changed = self->settings_not_default;
#define TAKE(field) G_STMT_START { g_free (self->load_##field); self->load_##field = g_steal_pointer (&load->field); } G_STMT_END
  TAKE (mount_point);
  TAKE (fs_type);
  TAKE (mount_options);
  TAKE (journal_mode);
  TAKE (source_device);
  TAKE (whole_disk);
  TAKE (scheduler);
#undef TAKE
  g_free (self->load_directory);
  self->load_directory = g_steal_pointer (&load->target_directory);
  g_free (self->bdi);
  self->bdi = g_steal_pointer (&load->bdi);
  g_free (self->bdi_min_ratio);
  self->bdi_min_ratio = g_steal_pointer (&load->bdi_min_ratio);
  g_free (self->bdi_max_ratio);
  self->bdi_max_ratio = g_steal_pointer (&load->bdi_max_ratio);
  g_free (self->bdi_max_bytes);
  self->bdi_max_bytes = g_steal_pointer (&load->bdi_max_bytes);
  g_free (self->bdi_strict_limit);
  self->bdi_strict_limit = g_steal_pointer (&load->bdi_strict_limit);
  if (load->settings_not_default != NULL && g_strcmp0 (load->settings_not_default, target_changed) != 0)
    {
      char *both = target_changed != NULL
                   ? g_strconcat (target_changed, "; ", load->settings_not_default, NULL)
                   : g_strdup (load->settings_not_default);

      g_free (self->settings_not_default);
      self->settings_not_default = both;
    }
}

/**
 * rp_sysinfo_collect:
 * @target_directory: (nullable): the directory the run writes to; %NULL for
 *   the machine fields only
 *
 * Takes the snapshot. Sources: uname(2) and /proc/sys/kernel/osrelease
 * (kernel, machine), /etc/os-release PRETTY_NAME (the host's inside Flatpak),
 * /proc/cpuinfo "model name", /sys/devices/system/cpu/online, /proc/meminfo
 * MemTotal (bytes); /proc/self/mountinfo through libmount (mount point, type,
 * options, source, journal mode from data= or /proc/fs/ext4/DEV/options);
 * sysfs /sys/dev/block/MAJ:MIN and /sys/block/DISK/queue/{scheduler,
 * rotational,wbt_lat_usec,read_ahead_kb}, mq/ (hardware queues), md/level,
 * dm/name, loop/{backing_file,dio}, bdi/{min_ratio,max_ratio,max_bytes,
 * strict_limit} and, for a loop device, the same of the
 * disk under its backing file; queue settings that differ from the kernel's
 * default for the device (rp-sysinfo-defaults.c); /sys/fs/btrfs (RAID level of a
 * multi-device btrfs); /proc/sys/vm/dirty_* verbatim.
 *
 * Never fails: what cannot be read stays unknown (%NULL, 0 or -1). It does
 * stat() the target, which can block on a hung network mount, so call it from
 * a worker thread when that matters. Thread-safe.
 *
 * Returns: (transfer full): the snapshot, never %NULL; free with rp_sysinfo_free()
 */
RpSysinfo *
rp_sysinfo_collect (const char *target_directory)
{
  return rp_sysinfo_collect_full (target_directory, NULL, NULL, NULL);
}

