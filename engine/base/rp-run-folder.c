/* rp-run-folder.c: folders a run makes in its target, named so that the next run can remove those of a killed one. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-proc.h"
#include "rp-run-folder.h"

/* Files can be unlinked at once (O_TMPFILE), folders cannot: the save
 * probe's, the small-files load's and the app-start copy's survive a
 * SIGKILL. Their name says whose they are, "resprobe-KIND-PID-START-XXXXXX",
 * START being the process's start time (rp_proc_start_time()), as the trace
 * instances of rp-trace-instance.c: a reused PID does not make a dead run's
 * folder look alive. */
#define PREFIX "resprobe-"

static const char *kinds[] = { "save", "files", "app" };

/**
 * rp_run_folder_template:
 * @directory: the run's target directory
 * @kind: "save", "files" or "app": which part makes it
 *
 * Returns: (transfer full): a template for g_mkdtemp_full(), e.g.
 *   "DIR/resprobe-save-4242-123456-XXXXXX", with this process's PID and
 *   start time
 */
char *
rp_run_folder_template (const char *directory,
                        const char *kind)
{
  g_autofree char *name = NULL;

  g_return_val_if_fail (directory != NULL && kind != NULL, NULL);

  name = g_strdup_printf (PREFIX "%s-%d-%" G_GUINT64_FORMAT "-XXXXXX", kind, (int) getpid (),
                          rp_proc_start_time ((int) getpid ()));
  return g_build_filename (directory, name, NULL);
}

/**
 * rp_run_folder_is_stale:
 * @name: a file name (no directory), e.g. "resprobe-files-4242-123456-a1B2c3"
 *
 * Returns: whether @name is a run folder of this program whose process no
 *   longer runs (gone, or its PID now another process's)
 */
gboolean
rp_run_folder_is_stale (const char *name)
{
  const char *p;
  guint64 pid, start;
  char *end;
  gboolean known = FALSE;

  if (name == NULL || !g_str_has_prefix (name, PREFIX))
    return FALSE;
  p = name + strlen (PREFIX);
  for (guint i = 0; i < G_N_ELEMENTS (kinds) && !known; i++)
    if (g_str_has_prefix (p, kinds[i]) && p[strlen (kinds[i])] == '-')
      {
        p += strlen (kinds[i]) + 1;
        known = TRUE;
      }
  if (!known || !g_ascii_isdigit (*p))
    return FALSE;
  pid = g_ascii_strtoull (p, &end, 10);
  if (*end != '-' || pid == 0 || pid > G_MAXINT || !g_ascii_isdigit (end[1]))
    return FALSE;
  start = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '-' || strlen (end + 1) != 6)
    return FALSE;
  return rp_proc_start_time ((int) pid) != start;
}

/* Removes the tree below @fd (a folder opened by the caller) without
 * following a symbolic link; closes @fd. Folders of a run hold files and,
 * for the app-start copy, one level of folders. */
static gboolean
remove_contents (int     fd,
                 guint   depth,
                 int    *out_errno)
{
  DIR *dir = fdopendir (fd);
  struct dirent *entry;
  gboolean ok = TRUE;

  if (dir == NULL)
    {
      *out_errno = errno;
      close (fd);
      return FALSE;
    }
  while ((entry = readdir (dir)) != NULL)
    {
      if (g_str_equal (entry->d_name, ".") || g_str_equal (entry->d_name, ".."))
        continue;
      if (unlinkat (dirfd (dir), entry->d_name, 0) == 0)
        continue;
      if (errno == EISDIR && depth < 8)
        {
          int child = openat (dirfd (dir), entry->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

          if (child >= 0 && remove_contents (child, depth + 1, out_errno) &&
              unlinkat (dirfd (dir), entry->d_name, AT_REMOVEDIR) == 0)
            continue;
          if (child < 0)
            *out_errno = errno;
        }
      else
        *out_errno = errno;
      ok = FALSE;
    }
  closedir (dir);
  return ok;
}

/**
 * rp_run_folder_remove_stale:
 * @directory: a run's target directory
 * @error: an #RpError from rp_error_set_from_errno() naming the first folder
 *   that could not be removed (the others are removed all the same)
 *
 * Removes what runs killed before they could clean up (SIGKILL, a crash)
 * left in @directory: the folders rp_run_folder_is_stale() knows, owned by
 * this user, and everything in them. A folder of a run still going, of
 * another user, or with another name is left alone.
 *
 * Returns: (transfer full) (element-type utf8): the names removed (empty
 *   when none), or %NULL with @error set
 */
GPtrArray *
rp_run_folder_remove_stale (const char  *directory,
                            GError     **error)
{
  g_autoptr(GPtrArray) removed = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;
  char *failed = NULL;
  int failed_errno = 0;

  g_return_val_if_fail (directory != NULL, NULL);

  dir = g_dir_open (directory, 0, NULL);
  if (dir == NULL)
    return g_steal_pointer (&removed);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      struct stat st;
      int fd, saved = 0;

      if (!rp_run_folder_is_stale (name))
        continue;
      path = g_build_filename (directory, name, NULL);
      if (lstat (path, &st) != 0 || !S_ISDIR (st.st_mode) || st.st_uid != geteuid ())
        continue;
      fd = open (path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (fd >= 0 && remove_contents (fd, 0, &saved) && rmdir (path) == 0)
        {
          g_ptr_array_add (removed, g_strdup (name));
          continue;
        }
      if (failed == NULL)
        {
          failed = g_steal_pointer (&path);
          failed_errno = saved != 0 ? saved : errno;
        }
    }
  if (failed != NULL)
    {
      rp_error_set_from_errno (error, failed_errno,
                               /* TRANSLATORS: followed by a folder's path and why, e.g. "Permission denied" */
                               _("Removing the folder left by a killed run"), failed);
      g_free (failed);
      return NULL;
    }
  return g_steal_pointer (&removed);
}
