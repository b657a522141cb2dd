/* rp-io.c: whole writes, retried over short writes and signals. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-io.h"
#include "rp-units.h"

/**
 * rp_write_all:
 * @fd: an open file
 * @buffer: (array length=size): the bytes
 * @size: how many
 *
 * write(2) until all of @buffer is written at the file's position; a short
 * write or EINTR (a signal, e.g. the stop) is not an error.
 *
 * Returns: %TRUE, or %FALSE with errno set
 */
gboolean
rp_write_all (int         fd,
              const void *buffer,
              gsize       size)
{
  const char *p = buffer;

  while (size > 0)
    {
      ssize_t n = write (fd, p, size);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      p += n;
      size -= (gsize) n;
    }
  return TRUE;
}

/**
 * rp_pwrite_all:
 * @fd: an open file
 * @buffer: (array length=size): the bytes
 * @size: how many
 * @offset: where in the file, bytes
 *
 * pwrite(2) until all of @buffer is written at @offset, as rp_write_all()
 * does at the file's position.
 *
 * Returns: %TRUE, or %FALSE with errno set
 */
gboolean
rp_pwrite_all (int         fd,
               const void *buffer,
               gsize       size,
               guint64     offset)
{
  const char *p = buffer;
  gsize done = 0;

  while (done < size)
    {
      ssize_t n = pwrite (fd, p + done, size - done, (off_t) (offset + done));

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        return FALSE;
      done += (gsize) n;
    }
  return TRUE;
}

/**
 * rp_buffer_try_new:
 * @size: bytes, at least 1
 * @owner: who asks, for the message: a part's label such as "Copy loop"
 * @error: set to %RP_ERROR_FAILED naming @owner and @size when memory is short
 *
 * A zeroed buffer for a load or probe. Under a memory limit (`ulimit -v`, a
 * cgroup's memory.max) a large buffer is where the allocation fails first:
 * GLib's g_malloc() would abort the process there, this fails the start with
 * a message instead.
 *
 * Returns: (transfer full) (nullable): the buffer, free with g_free(); %NULL
 *   with @error set when it cannot be allocated
 */
gpointer
rp_buffer_try_new (gsize        size,
                   const char  *owner,
                   GError     **error)
{
  gpointer buffer;
  g_autofree char *text = NULL;

  g_return_val_if_fail (size > 0, NULL);

  buffer = g_try_malloc0 (size);
  if (buffer != NULL)
    return buffer;
  text = rp_format_size (size);
  /* TRANSLATORS: the first %s is a load or probe, e.g. "Copy loop"; the second a size such as "1.0 MiB" */
  g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
               _("%s: not enough memory for a buffer of %s (is a memory limit set, such as ulimit -v?)"),
               owner, text);
  return NULL;
}
