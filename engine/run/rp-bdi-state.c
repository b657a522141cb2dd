/* rp-bdi-state.c: a block device's per-device dirty limits (bdi), saved and put back (root only). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "rp-bdi-state.h"
#include "rp-error.h"

/* The remedies users are told to try for "copying to a USB stick freezes
 * the desktop" are the limits of the stick's backing device info
 * (Documentation/ABI/testing/sysfs-class-bdi): max_ratio, the share of the
 * global dirty threshold its dirty pages may take (100 % by default);
 * max_bytes (Linux 6.2), the same as bytes, which the kernel turns into a
 * ratio of the threshold at the time it is written; strict_limit (Linux
 * 4.1), which holds the device to its share even while the system is under
 * the global limit. A loop device keeps its bdi, and so these, after its
 * detach (the gendisk stays), so whatever the matrix changes it saves
 * first and puts back. max_ratio_fine (Linux 6.2, millionths of 100 %)
 * is saved rather than max_ratio where it exists: it keeps what max_bytes
 * set exactly, and writing it sets max_ratio and max_bytes with it. */

struct _RpBdiState
{
  char *disk;            /* the disk it is of, e.g. "loop3" */
  char *name;            /* the bdi, e.g. "7:3" */
  char *dir;             /* /sys/class/bdi/NAME */
  char *max_ratio;       /* max_ratio_fine where the kernel has it, else max_ratio */
  char *strict_limit;    /* NULL: the kernel has none */
  gboolean fine;         /* @max_ratio is max_ratio_fine */
};

static char *
read_attribute (const char *dir,
                const char *attribute)
{
  g_autofree char *path = g_build_filename (dir, attribute, NULL);
  char *contents = NULL;

  if (!g_file_get_contents (path, &contents, NULL, NULL))
    return NULL;
  return g_strstrip (contents);
}

/**
 * rp_bdi_state_save:
 * @disk: kernel name of the whole disk, e.g. "loop3", "sdb"
 * @error: %RP_ERROR_INVALID_ARGUMENT when the disk has no bdi in sysfs
 *   (/sys/block/DISK/bdi) or its max_ratio cannot be read
 *
 * Finds @disk's backing device info (the kernel links /sys/block/DISK/bdi
 * to /sys/class/bdi/MAJ:MIN) and reads its max_ratio (max_ratio_fine where
 * the kernel has it) and strict_limit, so that rp_bdi_state_restore() can
 * put them back.
 *
 * Returns: (transfer full) (nullable): the saved limits
 */
RpBdiState *
rp_bdi_state_save (const char  *disk,
                   GError     **error)
{
  g_autoptr(RpBdiState) self = g_new0 (RpBdiState, 1);
  g_autofree char *link = NULL;
  g_autofree char *target = NULL;

  g_return_val_if_fail (disk != NULL, NULL);

  link = g_strdup_printf ("/sys/block/%s/bdi", disk);
  target = g_file_read_link (link, NULL);
  if (target != NULL)
    {
      self->name = g_path_get_basename (target);
      self->dir = g_build_filename ("/sys/class/bdi", self->name, NULL);
      self->max_ratio = read_attribute (self->dir, "max_ratio_fine");
      self->fine = self->max_ratio != NULL;
      if (self->max_ratio == NULL)
        self->max_ratio = read_attribute (self->dir, "max_ratio");
    }
  if (self->max_ratio == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %s is a disk, e.g. loop3; bdi and max_ratio are sysfs names */
                   _("Cannot read the per-device dirty limits (bdi max_ratio) of %s in /sys/block"), disk);
      return NULL;
    }
  self->strict_limit = read_attribute (self->dir, "strict_limit");
  self->disk = g_strdup (disk);
  return g_steal_pointer (&self);
}

/**
 * rp_bdi_state_set:
 * @self: the device's saved limits
 * @attribute: a file of /sys/class/bdi/BDI: "max_ratio" (percent of the
 *   global dirty threshold), "max_bytes" (bytes), "strict_limit" (0 or 1)
 * @value: what to write, e.g. "1"
 * @error: %RP_ERROR_INVALID_ARGUMENT naming the file when the kernel has
 *   no such limit or refuses the value (max_ratio below min_ratio, not root)
 *
 * Returns: %TRUE on success
 */
gboolean
rp_bdi_state_set (RpBdiState  *self,
                  const char  *attribute,
                  const char  *value,
                  GError     **error)
{
  g_autofree char *path = NULL;
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (self != NULL && attribute != NULL && value != NULL, FALSE);

  path = g_build_filename (self->dir, attribute, NULL);
  if (!g_file_test (path, G_FILE_TEST_EXISTS))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %s is a sysfs path such as /sys/class/bdi/7:3/max_bytes */
                   _("This kernel has no %s (a per-device dirty limit)"), path);
      return FALSE;
    }
  if (!g_file_set_contents_full (path, value, -1, G_FILE_SET_CONTENTS_NONE, 0644, &local_error))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Cannot write “%s” to %s: %s"), value, path, local_error->message);
      return FALSE;
    }
  return TRUE;
}

/* Writes @saved to @attribute unless it already reads so; says so in
 * @said (nullable). */
static void
put_back (RpBdiState  *self,
          const char  *attribute,
          const char  *saved,
          GPtrArray   *said,
          GError     **first)
{
  g_autofree char *now = read_attribute (self->dir, attribute);
  GError *error = NULL;

  if (saved == NULL || g_strcmp0 (now, saved) == 0)
    return;
  if (!rp_bdi_state_set (self, attribute, saved, &error))
    {
      if (*first == NULL)
        *first = error;
      else
        g_error_free (error);
    }
  else if (said != NULL)
    g_ptr_array_add (said, g_strdup_printf ("%s/%s %s (was %s)", self->dir, attribute, saved,
                                            now != NULL ? now : "?"));
}

/**
 * rp_bdi_state_restore:
 * @self: limits saved by rp_bdi_state_save()
 * @error: the first limit that could not be put back
 *
 * rp_bdi_state_put_back() without its account of what it did.
 *
 * Returns: %TRUE when both are as saved
 */
gboolean
rp_bdi_state_restore (RpBdiState  *self,
                      GError     **error)
{
  return rp_bdi_state_put_back (self, NULL, error);
}

/**
 * rp_bdi_state_put_back:
 * @self: limits saved by rp_bdi_state_save() or read back from a journal
 *   (rp_bdi_state_from_journal())
 * @said: (nullable) (element-type utf8): where a line is added for each
 *   limit put back, e.g. "/sys/class/bdi/7:3/max_ratio 100 (was 5)"
 * @error: the first limit that could not be put back; the other one is
 *   still tried
 *
 * Puts back strict_limit, then max_ratio (max_ratio_fine where saved so,
 * which restores max_bytes with it), where they differ. Call it on every
 * exit path; the limits outlive a loop device's detach.
 *
 * Returns: %TRUE when both are as saved
 */
gboolean
rp_bdi_state_put_back (RpBdiState  *self,
                       GPtrArray   *said,
                       GError     **error)
{
  GError *first = NULL;

  g_return_val_if_fail (self != NULL, FALSE);

  put_back (self, "strict_limit", self->strict_limit, said, &first);
  put_back (self, self->fine ? "max_ratio_fine" : "max_ratio", self->max_ratio, said, &first);
  if (first != NULL)
    {
      g_propagate_error (error, first);
      return FALSE;
    }
  return TRUE;
}

/**
 * rp_bdi_state_journal:
 * @self: limits saved by rp_bdi_state_save()
 * @journal: the run's undo journal
 * @error: as for rp_undo_journal_commit()
 *
 * Writes @self to @journal (group %RP_UNDO_GROUP_BDI) durably: call it
 * before changing a limit.
 *
 * Returns: %TRUE when on disk
 */
gboolean
rp_bdi_state_journal (RpBdiState     *self,
                      RpUndoJournal  *journal,
                      GError        **error)
{
  GKeyFile *file;

  g_return_val_if_fail (self != NULL && journal != NULL, FALSE);

  file = rp_undo_journal_get_key_file (journal);
  g_key_file_set_string (file, RP_UNDO_GROUP_BDI, "disk", self->disk);
  g_key_file_set_string (file, RP_UNDO_GROUP_BDI, "name", self->name);
  g_key_file_set_string (file, RP_UNDO_GROUP_BDI, "max_ratio", self->max_ratio);
  g_key_file_set_boolean (file, RP_UNDO_GROUP_BDI, "fine", self->fine);
  if (self->strict_limit != NULL)
    g_key_file_set_string (file, RP_UNDO_GROUP_BDI, "strict_limit", self->strict_limit);
  return rp_undo_journal_commit (journal, error);
}

/* "7:3", "0", "1", "100": nothing a file may put under /sys but digits
 * and one colon (the journal may have been edited). */
static gboolean
is_number (const char *text,
           gboolean    colon)
{
  if (text == NULL || *text == '\0')
    return FALSE;
  for (const char *c = text; *c != '\0'; c++)
    if (!g_ascii_isdigit (*c) && !(colon && *c == ':'))
      return FALSE;
  return TRUE;
}

/**
 * rp_bdi_state_from_journal:
 * @file: a journal's key file with the group %RP_UNDO_GROUP_BDI
 * @error: %G_KEY_FILE_ERROR when a value is missing or not a number
 *
 * Returns: (transfer full) (nullable): the limits a dead run journaled,
 *   for rp_bdi_state_put_back()
 */
RpBdiState *
rp_bdi_state_from_journal (GKeyFile  *file,
                           GError   **error)
{
  g_autoptr(RpBdiState) self = g_new0 (RpBdiState, 1);

  g_return_val_if_fail (file != NULL, NULL);

  if ((self->disk = g_key_file_get_string (file, RP_UNDO_GROUP_BDI, "disk", error)) == NULL ||
      (self->name = g_key_file_get_string (file, RP_UNDO_GROUP_BDI, "name", error)) == NULL ||
      (self->max_ratio = g_key_file_get_string (file, RP_UNDO_GROUP_BDI, "max_ratio", error)) == NULL)
    return NULL;
  self->fine = g_key_file_get_boolean (file, RP_UNDO_GROUP_BDI, "fine", NULL);
  self->strict_limit = g_key_file_get_string (file, RP_UNDO_GROUP_BDI, "strict_limit", NULL);
  if (!is_number (self->name, TRUE) || !is_number (self->max_ratio, FALSE) ||
      (self->strict_limit != NULL && !is_number (self->strict_limit, FALSE)) ||
      strchr (self->disk, '/') != NULL)
    {
      g_set_error (error, G_KEY_FILE_ERROR, G_KEY_FILE_ERROR_INVALID_VALUE,
                   "bdi %s: not a device's dirty limits", self->name);
      return NULL;
    }
  self->dir = g_build_filename ("/sys/class/bdi", self->name, NULL);
  return g_steal_pointer (&self);
}

/**
 * rp_bdi_state_get_disk:
 *
 * Returns: (transfer none): the disk the limits are of, e.g. "loop3"
 */
const char *
rp_bdi_state_get_disk (RpBdiState *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->disk;
}

/**
 * rp_bdi_state_get_name:
 *
 * Returns: (transfer none): the bdi's name, major:minor, e.g. "7:3"
 */
const char *
rp_bdi_state_get_name (RpBdiState *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->name;
}

/**
 * rp_bdi_state_free:
 * @self: (nullable): saved limits
 *
 * Forgets them; puts nothing back.
 */
void
rp_bdi_state_free (RpBdiState *self)
{
  if (self == NULL)
    return;
  g_free (self->disk);
  g_free (self->name);
  g_free (self->dir);
  g_free (self->max_ratio);
  g_free (self->strict_limit);
  g_free (self);
}
