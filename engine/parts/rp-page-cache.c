/* rp-page-cache.c: evicting files from the page cache, and saying what stayed there. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-page-cache.h"

/* Never measure a warm cache and call it cold (docs/DESIGN.md). An ordinary
 * user can drop a file's clean, unmapped pages with POSIX_FADV_DONTNEED
 * (mm/fadvise.c: invalidate_mapping_pages()); pages some process has mapped
 * stay, and so do dirty ones. So the probe evicts, then asks mincore(2)
 * which pages are still resident, and says so. */

/**
 * rp_page_cache_mapped_files:
 * @out_unreadable: (out) (optional): how many processes' maps could not be
 *   read (other users' processes, for an ordinary user)
 *
 * Reads /proc/PID/maps of every process (this one included: what it maps
 * stays cached for the programs it starts too).
 *
 * Returns: (transfer full): the set of file paths some running process maps
 */
GHashTable *
rp_page_cache_mapped_files (guint *out_unreadable)
{
  GHashTable *paths = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;
  guint unreadable = 0;

  while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *maps_path = NULL;
      g_autofree char *contents = NULL;
      g_auto(GStrv) lines = NULL;

      if (!g_ascii_isdigit (name[0]))
        continue;
      maps_path = g_build_filename ("/proc", name, "maps", NULL);
      if (!g_file_get_contents (maps_path, &contents, NULL, NULL))
        {
          unreadable++;
          continue;
        }
      lines = g_strsplit (contents, "\n", -1);
      for (guint i = 0; lines[i] != NULL; i++)
        {
          /* "start-end perms offset dev inode   /path": the path is the
           * first field that begins with a slash. */
          const char *path = strchr (lines[i], '/');

          if (path != NULL && !g_str_has_suffix (path, " (deleted)"))
            g_hash_table_add (paths, g_strdup (path));
        }
    }
  if (out_unreadable != NULL)
    *out_unreadable = unreadable;
  return paths;
}

/**
 * rp_page_cache_evict:
 * @path: a regular file
 *
 * Drops @path's clean, unmapped pages from the page cache
 * (posix_fadvise(POSIX_FADV_DONTNEED) over the whole file).
 *
 * Returns: %FALSE when the file cannot be opened
 */
gboolean
rp_page_cache_evict (const char *path)
{
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);

  if (fd < 0)
    return FALSE;
  posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);
  close (fd);
  return TRUE;
}

/**
 * rp_page_cache_drop_all:
 * @error: %RP_ERROR_PERMISSION without root
 *
 * Writes 1 to /proc/sys/vm/drop_caches (Documentation/admin-guide/sysctl/vm.rst):
 * every clean page of the page cache, of every file, is dropped. Not a
 * setting: nothing to restore. Dirty pages stay (no sync first: under a
 * writer that could take minutes).
 *
 * Returns: %TRUE on success
 */
gboolean
rp_page_cache_drop_all (GError **error)
{
  int fd = open ("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
  gboolean ok = fd >= 0 && write (fd, "1", 1) == 1;
  int saved_errno = errno;

  if (fd >= 0)
    close (fd);
  if (!ok)
    {
      if (saved_errno == EACCES || saved_errno == EPERM)
        g_set_error_literal (error, RP_ERROR, RP_ERROR_PERMISSION,
                             _("Dropping the page cache (/proc/sys/vm/drop_caches) needs root"));
      else
        rp_error_set_from_errno (error, saved_errno, _("Writing"), "/proc/sys/vm/drop_caches");
    }
  return ok;
}

/**
 * rp_page_cache_resident_share:
 * @path: a regular file
 *
 * Returns: the share (0..1) of @path's pages in the page cache (mincore(2)
 *   of a read-only mapping, which does not read the file), 0 for an empty
 *   file, or a negative value when it cannot be told
 */
double
rp_page_cache_resident_share (const char *path)
{
  long page = sysconf (_SC_PAGESIZE);
  int fd = open (path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
  struct stat st;
  g_autofree unsigned char *vector = NULL;
  void *map;
  gsize pages, resident = 0;
  double share = -1;

  if (fd < 0)
    return -1;
  if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
    {
      close (fd);
      return -1;
    }
  if (st.st_size == 0)
    {
      close (fd);
      return 0;
    }
  pages = ((gsize) st.st_size + (gsize) page - 1) / (gsize) page;
  map = mmap (NULL, (size_t) st.st_size, PROT_READ, MAP_SHARED, fd, 0);
  close (fd);
  if (map == MAP_FAILED)
    return -1;
  /* A byte a page: 256 KiB for a 1 GiB file; under a memory limit the
   * share is unknown rather than GLib's abort. */
  vector = g_try_malloc (pages);
  if (vector != NULL && mincore (map, (size_t) st.st_size, vector) == 0)
    {
      for (gsize i = 0; i < pages; i++)
        resident += vector[i] & 1;
      share = (double) resident / (double) pages;
    }
  munmap (map, (size_t) st.st_size);
  return share;
}

static char *
read_trimmed (const char *path)
{
  char *text = NULL;

  if (!g_file_get_contents (path, &text, NULL, NULL))
    return NULL;
  return g_strstrip (text);
}

/**
 * rp_page_cache_loop_without_direct_io:
 * @path: a file
 *
 * A loop device without direct I/O reads its image through the page cache
 * of the file system below: a block evicted above stays cached there, and a
 * "cold" read of it never reaches the disk (drivers/block/loop.c, `dio`).
 *
 * Returns: (transfer full) (nullable): the loop device's name, e.g. "loop3",
 *   when @path lies on one without direct I/O; %NULL otherwise
 */
char *
rp_page_cache_loop_without_direct_io (const char *path)
{
  struct stat st;
  const char *where[] = { "loop/dio", "../loop/dio" };   /* a disk, a partition */

  if (stat (path, &st) != 0)
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (where); i++)
    {
      g_autofree char *numbers = g_strdup_printf ("%u:%u", major (st.st_dev), minor (st.st_dev));
      g_autofree char *dio_path = g_build_filename ("/sys/dev/block", numbers, where[i], NULL);
      g_autofree char *dio = read_trimmed (dio_path);

      if (dio != NULL)
        {
          g_autofree char *device = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_dev), minor (st.st_dev));
          g_autofree char *resolved = g_file_read_link (device, NULL);

          if (!g_str_equal (dio, "0"))
            return NULL;
          return resolved ? g_path_get_basename (resolved) : g_strdup ("loop");
        }
    }
  return NULL;
}
