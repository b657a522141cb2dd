/* rp-loop-detach.c: detach the loop devices a killed run left bound to its files. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <linux/loop.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "rp-loop-detach.h"

/**
 * rp_loop_detach_backed_by:
 * @path: an image file, or with @inside a folder
 * @inside: %TRUE for every loop device bound to a file inside the folder
 *   @path (a run directory), %FALSE for those bound to the file @path
 * @said: (nullable) (element-type utf8): gets a line for each device
 *   detached, "detached /dev/loop7 from IMAGE"
 *
 * Detaches (LOOP_CLR_FD) the loop devices whose backing file
 * (/sys/block/loopN/loop/backing_file) is @path, or inside it: a mount's
 * autoclear frees its own loop device, but one set up without a mount, or
 * held by a lazy unmount's last user, outlives a run killed with SIGKILL.
 * A device that cannot be opened or cleared is left as it is.
 */
void
rp_loop_detach_backed_by (const char *path,
                          gboolean    inside,
                          GPtrArray  *said)
{
  g_autoptr(GDir) dir = g_dir_open ("/sys/block", 0, NULL);
  g_autofree char *prefix = g_strconcat (path, "/", NULL);
  const char *name;

  g_return_if_fail (path != NULL);

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *file = NULL;
      g_autofree char *backing = NULL;
      g_autofree char *device = NULL;
      int fd;

      if (!g_str_has_prefix (name, "loop"))
        continue;
      file = g_strdup_printf ("/sys/block/%s/loop/backing_file", name);
      if (!g_file_get_contents (file, &backing, NULL, NULL))
        continue;
      g_strstrip (backing);
      if (inside ? !g_str_has_prefix (backing, prefix) : !g_str_equal (backing, path))
        continue;
      device = g_strdup_printf ("/dev/%s", name);
      fd = open (device, O_RDONLY | O_CLOEXEC);
      if (fd < 0)
        continue;
      if (ioctl (fd, LOOP_CLR_FD, 0) == 0 && said != NULL)
        /* TRANSLATORS: a loop device, then its image file */
        g_ptr_array_add (said, g_strdup_printf (_("detached %s from %s"), device, backing));
      close (fd);
    }
}
