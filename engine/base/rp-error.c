/* rp-error.c: the engine's error domain and errno translation. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>

#include "rp-error.h"

G_DEFINE_QUARK (rp-error-quark, rp_error)

static RpError
code_from_errno (int saved_errno)
{
  switch (saved_errno)
    {
    case ENOSPC:
    case EDQUOT:
      return RP_ERROR_NO_SPACE;
    case ENOENT:
    case ENOTDIR:
    case EROFS:
    case EACCES:
    case EPERM:
      return RP_ERROR_TARGET;
    default:
      return RP_ERROR_IO;
    }
}

/**
 * rp_error_set_from_errno:
 * @error: (nullable): return location
 * @saved_errno: the errno of the failed call
 * @what: what was being done, translated, e.g. _("Writing")
 * @path: (nullable): the file or directory it was done to
 *
 * Sets @error to a message naming the action, the path and the system's
 * explanation, e.g. "Writing “/mnt/x”: No space left on device". ENOSPC and
 * EDQUOT map to %RP_ERROR_NO_SPACE, missing/read-only/forbidden targets to
 * %RP_ERROR_TARGET, the rest to %RP_ERROR_IO.
 */
void
rp_error_set_from_errno (GError     **error,
                         int          saved_errno,
                         const char  *what,
                         const char  *path)
{
  if (path != NULL)
    /* TRANSLATORS: e.g. "Writing “/mnt/x”: No space left on device" */
    g_set_error (error, RP_ERROR, code_from_errno (saved_errno), _("%s “%s”: %s"),
                 what, path, g_strerror (saved_errno));
  else
    g_set_error (error, RP_ERROR, code_from_errno (saved_errno), "%s: %s",
                 what, g_strerror (saved_errno));
}
