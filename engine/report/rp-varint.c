/* rp-varint.c: unsigned LEB128 varints, the reports' compact numbers (series blocks, window histograms). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-varint.h"

/**
 * rp_varint_put:
 * @out: where the bytes go
 * @n: the number
 *
 * Appends @n as an unsigned LEB128 varint (seven bits a byte, lowest
 * first, the high bit set on every byte but the last; the DWARF and
 * Protocol Buffers encoding): 1 to %RP_VARINT_MAX_BYTES bytes.
 */
void
rp_varint_put (GByteArray *out,
               guint64     n)
{
  guint8 bytes[RP_VARINT_MAX_BYTES];
  guint len = 0;

  while (n >= 0x80)
    {
      bytes[len++] = (guint8) (n | 0x80);
      n >>= 7;
    }
  bytes[len++] = (guint8) n;
  g_byte_array_append (out, bytes, len);
}

/**
 * rp_varint_get:
 * @data: the bytes
 * @length: how many
 * @pos: (inout): where the varint starts; after it on success
 * @out: (out): the number
 *
 * Reads one varint of rp_varint_put().
 *
 * Returns: %FALSE when @data ends inside it or it runs past 64 bits
 *   (a damaged report)
 */
gboolean
rp_varint_get (const guint8 *data,
               gsize         length,
               gsize        *pos,
               guint64      *out)
{
  guint64 n = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (*pos >= length)
        return FALSE;
      byte = data[(*pos)++];
      n |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *out = n;
          return TRUE;
        }
    }
  return FALSE;
}
