/* rp-unmount.c: unmount what a run mounted, also when another process holds it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <libmount.h>

#include "rp-error.h"
#include "rp-unmount.h"

/* How long a busy file system is retried before it is detached lazily. */
#define BUSY_RETRIES 20
#define BUSY_RETRY_INTERVAL (100 * G_TIME_SPAN_MILLISECOND)

/* umount(2) of @target through libmount; @lazy detaches it from the tree at
 * once and lets the kernel finish once nobody uses it (MNT_DETACH). Returns
 * libmount's code; on failure sets @error from its message and @out_busy
 * when the kernel said EBUSY. */
static int
unmount_once (const char  *target,
              gboolean     lazy,
              gboolean    *out_busy,
              GError     **error)
{
  struct libmnt_context *context = mnt_new_context ();
  int rc;

  mnt_context_set_target (context, target);
  if (lazy)
    mnt_context_enable_lazy (context, TRUE);
  rc = mnt_context_umount (context);
  *out_busy = rc != 0 && mnt_context_syscall_called (context) &&
              mnt_context_get_syscall_errno (context) == EBUSY;
  if (rc != 0)
    {
      char message[512] = "";

      mnt_context_get_excode (context, rc, message, sizeof message);
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("Unmounting “%s” failed: %s"), target, message);
    }
  mnt_free_context (context);
  return rc;
}

/**
 * rp_unmount:
 * @target: a mount point the run made: a cell's file system, the FUSE
 *   file of an emulated device
 * @error: %RP_ERROR_FAILED with libmount's reason, naming @target
 *
 * Unmounts @target. A file system of the run's is the run's alone, but
 * another program may hold it busy for a while: a process of the run's
 * command load still ending, or one that opened every mount point it saw
 * (stress-ng's io stressor keeps a descriptor of each for its syncfs()
 * calls, for as long as it runs: seen beside the test suite). Waiting 2 s
 * covers the first; then a lazy unmount (MNT_DETACH) takes the file system
 * out of the tree at once, and the kernel frees it, with an autoclear loop
 * device under it, when the last user lets go: nothing of the run stays in
 * the tree, and a mount point can be removed.
 *
 * Returns: %TRUE once @target is out of the mount tree
 */
gboolean
rp_unmount (const char  *target,
            GError     **error)
{
  gboolean busy = FALSE;

  g_return_val_if_fail (target != NULL, FALSE);

  for (guint attempt = 0; attempt < BUSY_RETRIES; attempt++)
    {
      g_autoptr(GError) local_error = NULL;

      if (unmount_once (target, FALSE, &busy, &local_error) == 0)
        return TRUE;
      if (!busy)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      g_usleep (BUSY_RETRY_INTERVAL);
    }
  g_message ("%s stayed busy (another process uses it): detached lazily", target);
  return unmount_once (target, TRUE, &busy, error) == 0;
}
