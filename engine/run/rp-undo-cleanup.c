/* rp-undo-cleanup.c: put back what runs killed with SIGKILL left changed (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <libmount.h>
#include <linux/loop.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "rp-bdi-state.h"
#include "rp-dirty-state.h"
#include "rp-emulated-device.h"
#include "rp-error.h"
#include "rp-loop-detach.h"
#include "rp-queue-state.h"
#include "rp-undo-cleanup.h"
#include "rp-undo-journal.h"
#include "rp-unmount.h"

/* The other half of rp-undo-journal.c: a dead run's journal replayed in
 * the order that works (a loop device's direct I/O can only be put back
 * while it is bound; detaching sets read_ahead_kb again, so the queue is
 * put back before and after; the mount holds the loop device), then the
 * journal removed. A loop device's settings are put back only while it is
 * free or bound to a file of this directory: one somebody else attached
 * since is theirs. */

static void
keep_first (GError **first,
            GError  *error)
{
  if (error == NULL)
    return;
  if (*first == NULL)
    *first = error;
  else
    g_error_free (error);
}

/* Whether loop device @disk is free or bound to a file inside @directory. */
static gboolean
loop_ours_or_free (const char *disk,
                   const char *directory)
{
  g_autofree char *path = g_strdup_printf ("/sys/block/%s/loop/backing_file", disk);
  g_autofree char *prefix = g_strconcat (directory, "/", NULL);
  g_autofree char *backing = NULL;

  if (!g_file_get_contents (path, &backing, NULL, NULL))
    return TRUE;
  return g_str_has_prefix (g_strstrip (backing), prefix);
}

static gboolean
is_mounted (const char *target)
{
  struct libmnt_table *table = mnt_new_table ();
  gboolean found = FALSE;

  if (mnt_table_parse_mtab (table, NULL) == 0)
    found = mnt_table_find_target (table, target, MNT_ITER_BACKWARD) != NULL;
  mnt_unref_table (table);
  return found;
}

/* The cell's mount, loop device, mount point and image. */
static void
undo_cell (GKeyFile     *file,
           const char   *directory,
           RpQueueState *queue,
           GPtrArray    *said,
           GError      **first)
{
  g_autofree char *mount_point = g_key_file_get_string (file, RP_UNDO_GROUP_CELL, "mount_point", NULL);
  g_autofree char *image = g_key_file_get_string (file, RP_UNDO_GROUP_CELL, "image", NULL);
  g_autofree char *prefix = g_strconcat (directory, "/", NULL);
  GError *error = NULL;

  /* Only what is inside the directory the journal is in. */
  if ((mount_point != NULL && (!g_str_has_prefix (mount_point, prefix) || strstr (mount_point, "/..") != NULL)) ||
      (image != NULL && (!g_str_has_prefix (image, prefix) || strstr (image, "/..") != NULL)))
    {
      g_set_error (&error, RP_ERROR, RP_ERROR_FAILED,
                   _("The undo journal names files outside “%s”: %s, %s"), directory,
                   mount_point ? mount_point : "-", image ? image : "-");
      keep_first (first, error);
      return;
    }
  if (mount_point != NULL && is_mounted (mount_point))
    {
      if (rp_unmount (mount_point, &error))
        g_ptr_array_add (said, g_strdup_printf (_("unmounted %s"), mount_point));
      keep_first (first, error);
      error = NULL;
    }
  if (image != NULL)
    rp_loop_detach_backed_by (image, FALSE, said);
  if (queue != NULL && loop_ours_or_free (rp_queue_state_get_disk (queue), directory))
    rp_queue_state_put_back (queue, said, NULL);
  if (mount_point != NULL && g_rmdir (mount_point) == 0)
    g_ptr_array_add (said, g_strdup_printf (_("removed %s"), mount_point));
  else if (mount_point != NULL && errno != ENOENT && *first == NULL)
    rp_error_set_from_errno (first, errno, _("Removing"), mount_point);
  if (image != NULL && g_unlink (image) == 0)
    g_ptr_array_add (said, g_strdup_printf (_("removed %s"), image));
  else if (image != NULL && errno != ENOENT && *first == NULL)
    rp_error_set_from_errno (first, errno, _("Removing"), image);
}

/* One dead run's journal, in order; removed when everything is back. */
static gboolean
replay (const char  *path,
        const char  *directory,
        GPtrArray   *said,
        GError     **error)
{
  g_autoptr(GKeyFile) file = g_key_file_new ();
  g_autoptr(RpQueueState) queue = NULL;
  g_autoptr(RpBdiState) bdi = NULL;
  g_autoptr(RpDirtyState) dirty = NULL;
  GError *first = NULL, *local = NULL;

  if (!g_key_file_load_from_file (file, path, G_KEY_FILE_NONE, &local) ||
      (g_key_file_has_group (file, RP_UNDO_GROUP_QUEUE) &&
       (queue = rp_queue_state_from_journal (file, &local)) == NULL) ||
      (g_key_file_has_group (file, RP_UNDO_GROUP_BDI) &&
       (bdi = rp_bdi_state_from_journal (file, &local)) == NULL) ||
      (g_key_file_has_group (file, RP_UNDO_GROUP_DIRTY) &&
       (dirty = rp_dirty_state_from_journal (file, &local)) == NULL))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   /* TRANSLATORS: the journal's path, then why */
                   _("The undo journal “%s” of a dead run is unreadable: %s"), path, local->message);
      g_error_free (local);
      return FALSE;
    }
  if (bdi != NULL && loop_ours_or_free (rp_bdi_state_get_disk (bdi), directory) &&
      !rp_bdi_state_put_back (bdi, said, &local))
    keep_first (&first, g_steal_pointer (&local));
  if (queue != NULL && loop_ours_or_free (rp_queue_state_get_disk (queue), directory) &&
      !rp_queue_state_put_back (queue, said, &local))
    keep_first (&first, g_steal_pointer (&local));
  if (g_key_file_has_group (file, RP_UNDO_GROUP_CELL))
    undo_cell (file, directory, queue, said, &first);
  if (dirty != NULL && !rp_dirty_state_restore (dirty, said, &local))
    keep_first (&first, g_steal_pointer (&local));
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  if (g_unlink (path) != 0 && errno != ENOENT)
    {
      rp_error_set_from_errno (error, errno, _("Removing"), path);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_undo_cleanup:
 * @directory: a run directory (a matrix's --dir)
 * @said: (element-type utf8): where a line is added for each thing put
 *   back or removed, e.g. "vm.dirty_ratio 20 (was …)", "unmounted /d/x"
 * @error: the first thing that could not be put back; every other one is
 *   still tried (a journal that is not undone whole stays, for the next try)
 *
 * Puts back what runs killed with SIGKILL left in @directory: first the
 * emulated devices (rp_emulated_device_remove_leftovers()), then each
 * dead run's undo journal (rp-undo-journal.c) — the bdi limits and queue
 * settings of its loop device, its mount, loop device, mount point and
 * image, vm.dirty_* — and the half-written copies of journals whose commit
 * a SIGKILL cut short. Runs still alive are left alone.
 *
 * Returns: how many dead runs' leftovers were removed
 */
guint
rp_undo_cleanup (const char  *directory,
                 GPtrArray   *said,
                 GError     **error)
{
  g_autoptr(GPtrArray) journals = NULL;
  GError *first = NULL;
  guint devices, done = 0;

  g_return_val_if_fail (directory != NULL && said != NULL, 0);

  devices = rp_emulated_device_remove_leftovers (directory, &first);
  if (devices > 0)
    g_ptr_array_add (said, g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "removed %u emulated device (nbdkit, nbdfuse, its image)",
                                                         "removed %u emulated devices (nbdkit, nbdfuse, their images)", devices),
                                            devices));
  /* What a commit cut short left beside the journals (nothing to replay). */
  rp_undo_journal_remove_dead_partials (directory, said);
  journals = rp_undo_journal_find_dead (directory);
  for (guint i = 0; i < journals->len; i++)
    {
      GError *local = NULL;

      if (replay (g_ptr_array_index (journals, i), directory, said, &local))
        done++;
      keep_first (&first, local);
    }
  if (first != NULL)
    g_propagate_error (error, first);
  return devices + done;
}
