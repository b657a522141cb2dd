/* rp-undo-journal.c: what a run changed on the machine, on disk before it changes it (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-undo-journal.h"

/* A matrix cell changes machine-wide settings (vm.dirty_*, a loop device's
 * queue and bdi limits) and makes a mount, a loop device and an image. It
 * puts them back on every exit path but SIGKILL (issue 33: a killed cell
 * left vm.dirty_bytes at 64M, a bdi max_ratio at 5 and a mounted 1.4 GB
 * image, and the next matrix failed). So each is written here, with the
 * value to put back, before it is changed: a key file in the run's
 * directory, WORK/resprobe-undo-PID, replaced whole (write, fsync, rename)
 * at each step, one group per kind of change. The PID says whose it is: a
 * later matrix or `resprobe-cli cleanup` replays the journals of processes
 * that are gone (rp-undo-cleanup.c). A journal with no group left is
 * removed. */

#define FILE_PREFIX "resprobe-undo-"

struct _RpUndoJournal
{
  char     *path;
  GKeyFile *file;
};

/**
 * rp_undo_journal_new:
 * @directory: the run's directory (the matrix's --dir)
 *
 * An empty journal of this process, DIRECTORY/resprobe-undo-PID; nothing is
 * written before the first rp_undo_journal_commit().
 *
 * Returns: (transfer full): the journal
 */
RpUndoJournal *
rp_undo_journal_new (const char *directory)
{
  RpUndoJournal *self;
  g_autofree char *name = NULL;

  g_return_val_if_fail (directory != NULL, NULL);

  self = g_new0 (RpUndoJournal, 1);
  name = g_strdup_printf (FILE_PREFIX "%d", (int) getpid ());
  self->path = g_build_filename (directory, name, NULL);
  self->file = g_key_file_new ();
  return self;
}

/**
 * rp_undo_journal_get_key_file:
 *
 * What the journal holds, for a module to add its group to (each module
 * writes and reads its own keys: rp-queue-state.c, rp-bdi-state.c,
 * rp-dirty-state.c, rp-loop-mount.c); then rp_undo_journal_commit().
 *
 * Returns: (transfer none): the journal's key file
 */
GKeyFile *
rp_undo_journal_get_key_file (RpUndoJournal *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->file;
}

/**
 * rp_undo_journal_commit:
 * @error: %G_FILE_ERROR when the journal cannot be written; the caller
 *   must then not change what it was about to
 *
 * Writes the journal durably (a new file, fsync, rename): once this returns
 * %TRUE, a SIGKILL or a power cut leaves what it says. With no group left,
 * removes the file instead.
 *
 * Returns: %TRUE when the journal on disk is what the key file holds
 */
gboolean
rp_undo_journal_commit (RpUndoJournal  *self,
                        GError        **error)
{
  g_autofree char *data = NULL;
  g_auto(GStrv) groups = NULL;
  gsize length;

  g_return_val_if_fail (self != NULL, FALSE);

  groups = g_key_file_get_groups (self->file, NULL);
  if (groups[0] == NULL)
    {
      if (g_unlink (self->path) != 0 && errno != ENOENT)
        {
          int saved_errno = errno;

          g_set_error (error, G_FILE_ERROR, g_file_error_from_errno (saved_errno),
                       "%s: %s", self->path, g_strerror (saved_errno));
          return FALSE;
        }
      return TRUE;
    }
  data = g_key_file_to_data (self->file, &length, NULL);
  return g_file_set_contents_full (self->path, data, (gssize) length,
                                   G_FILE_SET_CONTENTS_CONSISTENT | G_FILE_SET_CONTENTS_DURABLE,
                                   0600, error);
}

/**
 * rp_undo_journal_forget:
 * @group: what has been put back, e.g. %RP_UNDO_GROUP_DIRTY
 * @error: as for rp_undo_journal_commit()
 *
 * Removes @group and commits.
 *
 * Returns: %TRUE when written
 */
gboolean
rp_undo_journal_forget (RpUndoJournal  *self,
                        const char     *group,
                        GError        **error)
{
  g_return_val_if_fail (self != NULL && group != NULL, FALSE);

  if (!g_key_file_has_group (self->file, group))
    return TRUE;
  g_key_file_remove_group (self->file, group, NULL);
  return rp_undo_journal_commit (self, error);
}

/**
 * rp_undo_journal_get_path:
 *
 * Returns: (transfer none): DIRECTORY/resprobe-undo-PID
 */
const char *
rp_undo_journal_get_path (RpUndoJournal *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->path;
}

/**
 * rp_undo_journal_free:
 * @self: (nullable): the journal
 *
 * Forgets it; the file stays as last committed (a journal with groups left
 * is what a later cleanup puts back).
 */
void
rp_undo_journal_free (RpUndoJournal *self)
{
  if (self == NULL)
    return;
  g_key_file_unref (self->file);
  g_free (self->path);
  g_free (self);
}

/* Whether PID is a live process of this program: a PID taken over by
 * another program means the journal's owner is gone. */
static gboolean
owner_alive (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/comm", pid);
  g_autofree char *comm = NULL;

  if (pid == getpid ())
    return TRUE;
  if (!g_file_get_contents (path, &comm, NULL, NULL))
    return FALSE;
  return g_str_has_prefix (g_strstrip (comm), "resprobe");
}

static int
compare_paths (gconstpointer a,
               gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/**
 * rp_undo_journal_remove_dead_partials:
 * @directory: a run directory
 * @said: (nullable) (element-type utf8): a line added for each file removed
 *
 * Removes what a journal's commit left half done when its process was
 * killed: g_file_set_contents_full() writes DIRECTORY/resprobe-undo-PID.XXXXXX
 * and renames it over the journal only once it is written and synced, so a
 * SIGKILL in between leaves that file, which no cleanup read (a matrix
 * killed 1.8 s into its first cell left resprobe-undo-21236.0YS4Z3 in
 * tests/test-matrix-sigkill.sh). Its contents need no replay: a journal is
 * committed before the change it describes is made, so what was never
 * renamed into place was never changed; the last committed journal says
 * what was. Files of live processes are left alone.
 *
 * Returns: how many were removed
 */
guint
rp_undo_journal_remove_dead_partials (const char *directory,
                                      GPtrArray  *said)
{
  g_autoptr(GDir) dir = NULL;
  const char *name;
  guint removed = 0;

  g_return_val_if_fail (directory != NULL, 0);

  dir = g_dir_open (directory, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      const char *dot = strchr (name, '.');
      g_autofree char *pid_text = NULL;
      g_autofree char *path = NULL;
      guint64 pid;

      if (!g_str_has_prefix (name, FILE_PREFIX) || dot == NULL || dot[1] == '\0')
        continue;
      pid_text = g_strndup (name + strlen (FILE_PREFIX), dot - name - strlen (FILE_PREFIX));
      if (!g_ascii_string_to_unsigned (pid_text, 10, 1, G_MAXINT32, &pid, NULL) || owner_alive ((int) pid))
        continue;
      path = g_build_filename (directory, name, NULL);
      if (g_unlink (path) == 0)
        {
          removed++;
          if (said != NULL)
            g_ptr_array_add (said, g_strdup_printf (_("removed %s"), path));
        }
    }
  return removed;
}

/**
 * rp_undo_journal_find_dead:
 * @directory: a run directory
 *
 * Returns: (transfer full) (element-type filename): the paths of the
 *   journals in @directory whose process is gone, oldest name first
 */
GPtrArray *
rp_undo_journal_find_dead (const char *directory)
{
  GPtrArray *paths = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDir) dir = NULL;
  const char *name;

  g_return_val_if_fail (directory != NULL, paths);

  dir = g_dir_open (directory, 0, NULL);
  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      guint64 pid;

      if (g_str_has_prefix (name, FILE_PREFIX) &&
          g_ascii_string_to_unsigned (name + strlen (FILE_PREFIX), 10, 1, G_MAXINT32, &pid, NULL) &&
          !owner_alive ((int) pid))
        g_ptr_array_add (paths, g_build_filename (directory, name, NULL));
    }
  g_ptr_array_sort (paths, compare_paths);
  return paths;
}
