/* rp-io.c: whole writes, retried over short writes and signals. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <unistd.h>

#include "rp-io.h"

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
