/* rp-error.h: the engine's error domain. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include "rp-base-enums.h"

G_BEGIN_DECLS

#define RP_ERROR (rp_error_quark ())

/**
 * RpError:
 * @RP_ERROR_INVALID_ARGUMENT: a scenario field or a command-line value is out of
 *   range or unparsable; the message names the field.
 * @RP_ERROR_TARGET: the target directory cannot be used (missing, not a directory,
 *   not writable, read-only file system, removed during the run).
 * @RP_ERROR_NO_SPACE: not enough free space, before the run or ENOSPC/EDQUOT during it.
 * @RP_ERROR_IO: an I/O call failed (EIO and the rest).
 * @RP_ERROR_REPORT: a report file is malformed, of another format or version.
 * @RP_ERROR_PERMISSION: the operation needs root (or a permission the user lacks).
 * @RP_ERROR_FAILED: anything else, e.g. a command load that cannot be spawned.
 *
 * Error codes of the %RP_ERROR domain. Messages are translatable and name the thing.
 */
typedef enum {
  RP_ERROR_INVALID_ARGUMENT,
  RP_ERROR_TARGET,
  RP_ERROR_NO_SPACE,
  RP_ERROR_IO,
  RP_ERROR_REPORT,
  RP_ERROR_PERMISSION,
  RP_ERROR_FAILED,
} RpError;

GQuark rp_error_quark (void);

void rp_error_set_from_errno (GError    **error,
                              int         saved_errno,
                              const char *what,
                              const char *path);

G_END_DECLS
