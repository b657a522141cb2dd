/* rp-dirty-state.c: the vm.dirty_* sysctls, saved, journaled and put back (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-dirty-state.h"
#include "rp-error.h"

/* The global dirty thresholds (Documentation/admin-guide/sysctl/vm.rst):
 * each is a pair, a ratio or a byte count, and writing one zeroes the
 * other in the kernel; so all four are kept, and whichever of a pair was in
 * force (non-zero) is written back. A matrix cell with --dirty-bytes
 * changes them for the whole machine: saved, journaled (rp-undo-journal.c)
 * before the change, put back after the cell or by a later cleanup. */

struct _RpDirtyState
{
  char *values[4];   /* as read, indexed like names[] */
};

static const char *const names[4] = {
  "dirty_ratio", "dirty_bytes", "dirty_background_ratio", "dirty_background_bytes",
};

static char *
read_sysctl (const char *name)
{
  g_autofree char *path = g_build_filename ("/proc/sys/vm", name, NULL);
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  return g_strstrip (contents);
}

static gboolean
write_sysctl (const char  *name,
              const char  *value,
              GError     **error)
{
  g_autofree char *path = g_build_filename ("/proc/sys/vm", name, NULL);
  g_autoptr(GError) local_error = NULL;

  if (!g_file_set_contents_full (path, value, -1, G_FILE_SET_CONTENTS_NONE, 0644, &local_error))
    {
      /* TRANSLATORS: a value, a sysctl such as vm.dirty_bytes, why */
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Cannot write “%s” to vm.%s: %s"), value, name, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_dirty_state_save:
 *
 * Reads vm.dirty_ratio, dirty_bytes, dirty_background_ratio and
 * dirty_background_bytes (/proc/sys/vm); one that cannot be read is left
 * alone by rp_dirty_state_restore().
 *
 * Returns: (transfer full): the settings as they are
 */
RpDirtyState *
rp_dirty_state_save (void)
{
  RpDirtyState *self = g_new0 (RpDirtyState, 1);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    self->values[i] = read_sysctl (names[i]);
  return self;
}

/**
 * rp_dirty_state_journal:
 * @journal: the run's undo journal
 * @error: as for rp_undo_journal_commit()
 *
 * Writes @self to @journal (group %RP_UNDO_GROUP_DIRTY) durably: call it
 * before changing any of the four.
 *
 * Returns: %TRUE when on disk
 */
gboolean
rp_dirty_state_journal (RpDirtyState   *self,
                        RpUndoJournal  *journal,
                        GError        **error)
{
  GKeyFile *file;

  g_return_val_if_fail (self != NULL && journal != NULL, FALSE);

  file = rp_undo_journal_get_key_file (journal);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (self->values[i] != NULL)
      g_key_file_set_string (file, RP_UNDO_GROUP_DIRTY, names[i], self->values[i]);
  return rp_undo_journal_commit (journal, error);
}

/**
 * rp_dirty_state_from_journal:
 * @file: a journal's key file
 * @error: %G_KEY_FILE_ERROR when a value is not a number
 *
 * Returns: (transfer full) (nullable): the settings a dead run journaled
 *   (group %RP_UNDO_GROUP_DIRTY), for rp_dirty_state_restore()
 */
RpDirtyState *
rp_dirty_state_from_journal (GKeyFile  *file,
                             GError   **error)
{
  g_autoptr(RpDirtyState) self = g_new0 (RpDirtyState, 1);

  g_return_val_if_fail (file != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      self->values[i] = g_key_file_get_string (file, RP_UNDO_GROUP_DIRTY, names[i], NULL);
      /* Only digits go to /proc/sys: the file may have been edited. */
      if (self->values[i] != NULL &&
          !g_ascii_string_to_unsigned (self->values[i], 10, 0, G_MAXUINT64, NULL, NULL))
        {
          g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                       "vm.%s: not a number: %s", names[i], self->values[i]);
          return NULL;
        }
    }
  return g_steal_pointer (&self);
}

/**
 * rp_dirty_apply_bytes:
 * @bytes: vm.dirty_bytes to set; the background threshold becomes half of
 *   it, the kernel's default proportion (dirty_background_ratio 10 against
 *   dirty_ratio 20)
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the sysctl
 *
 * Returns: %TRUE when both were written
 */
gboolean
rp_dirty_apply_bytes (guint64   bytes,
                      GError  **error)
{
  g_autofree char *value = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes);
  g_autofree char *background = g_strdup_printf ("%" G_GUINT64_FORMAT, bytes / 2);

  return write_sysctl ("dirty_bytes", value, error) &&
         write_sysctl ("dirty_background_bytes", background, error);
}

/* One pair (@ratio the index of its ratio, the bytes after it): the one of
 * the saved pair that was in force, written where the pair differs now. */
static void
restore_pair (RpDirtyState  *self,
              guint          ratio,
              GPtrArray     *said,
              GError       **first)
{
  g_autofree char *now_ratio = read_sysctl (names[ratio]);
  g_autofree char *now_bytes = read_sysctl (names[ratio + 1]);
  const char *saved_ratio = self->values[ratio], *saved_bytes = self->values[ratio + 1];
  guint which = saved_bytes != NULL && g_strcmp0 (saved_bytes, "0") != 0 ? ratio + 1 : ratio;
  GError *error = NULL;

  if (self->values[which] == NULL ||
      (g_strcmp0 (now_ratio, saved_ratio) == 0 && g_strcmp0 (now_bytes, saved_bytes) == 0))
    return;
  if (!write_sysctl (names[which], self->values[which], &error))
    {
      if (*first == NULL)
        *first = error;
      else
        g_error_free (error);
      return;
    }
  if (said != NULL)
    g_ptr_array_add (said, g_strdup_printf ("vm.%s %s (was vm.%s %s, vm.%s %s)", names[which],
                                            self->values[which], names[ratio], now_ratio ? now_ratio : "?",
                                            names[ratio + 1], now_bytes ? now_bytes : "?"));
}

/**
 * rp_dirty_state_restore:
 * @self: settings from rp_dirty_state_save() or rp_dirty_state_from_journal()
 * @said: (nullable) (element-type utf8): where a line is added for each
 *   setting put back, e.g. "vm.dirty_ratio 20 (was vm.dirty_ratio 0,
 *   vm.dirty_bytes 67108864)"
 * @error: the first sysctl that could not be written; the other pair is
 *   still tried
 *
 * Puts back each pair that differs from @self.
 *
 * Returns: %TRUE when both pairs are as saved
 */
gboolean
rp_dirty_state_restore (RpDirtyState  *self,
                        GPtrArray     *said,
                        GError       **error)
{
  GError *first = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  restore_pair (self, 0, said, &first);
  restore_pair (self, 2, said, &first);
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_dirty_state_free:
 * @self: (nullable): saved settings
 *
 * Forgets them; puts nothing back.
 */
void
rp_dirty_state_free (RpDirtyState *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    g_free (self->values[i]);
  g_free (self);
}
