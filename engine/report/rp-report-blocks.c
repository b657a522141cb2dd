/* rp-report-blocks.c: a series' samples as compact blocks of a JSON report (version 2). */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-varint.h"

/* ------------------------------------------------------------------------ */
/* The block encoding (docs/REPORT-FORMAT.md, "Sample blocks")               */
/*                                                                           */
/* JSON spends 50 to 90 bytes of file and ~300 bytes of json-glib tree on a  */
/* sample, so a run of a day (3.8 million samples at 44 a second) neither    */
/* saved nor opened. A block holds up to RP_REPORT_BLOCK_SAMPLES samples as  */
/* base64 of zlib data (GIO's GZlibCompressor, whose Adler-32 checksum       */
/* tells a damaged block) of:                                                */
/*   count          unsigned LEB128 varint, 1..RP_REPORT_BLOCK_SAMPLES       */
/*   base           the first time, the 8 bytes of an IEEE double, little    */
/*                  endian                                                   */
/*   count - 1      zigzag varints: the bit pattern of each further time's   */
/*                  offset from base as an IEEE single (float), minus the    */
/*                  previous one's (the first's offset is 0.0f); the time is */
/*                  base + (double) offset                                   */
/*   count values   a varint h each: d = h & 15; d < 15: the value is        */
/*                  n / 10^d with n = unzigzag (h >> 4), exactly the double  */
/*                  the writer had (it checks); d = 15: the 8 bytes of the   */
/*                  IEEE double follow, little endian                        */
/* Times are kept the way RpSeries keeps them (a chunk of 4096 points: its   */
/* first time and float offsets), so a report saved, loaded and saved again  */
/* is the same file, and its samples the same doubles. Times and values in   */
/* columns, so that zlib finds the repeats of each. The writer picks the     */
/* smallest d that gives the double back bit for bit, so counts, sizes and   */
/* decimals read from /proc take 1 to 5 bytes, zeros 1, and only values such */
/* as a ratio of two counters take 9.                                        */
/* ------------------------------------------------------------------------ */

#define RAW_DOUBLE      15
#define MAX_DECIMALS    14
/* A varint of a 64-bit number is at most 10 bytes. */
#define MAX_RAW_BLOCK   (RP_VARINT_MAX_BYTES + 8 + RP_REPORT_BLOCK_SAMPLES * (RP_VARINT_MAX_BYTES + RP_VARINT_MAX_BYTES + 8))

/* 10^d, exact as doubles up to 10^22. */
static const double powers_of_ten[MAX_DECIMALS + 1] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14,
};

static guint64
zigzag (gint64 n)
{
  return ((guint64) n << 1) ^ (guint64) (n >> 63);
}

static gint64
unzigzag (guint64 z)
{
  return (gint64) (z >> 1) ^ -(gint64) (z & 1);
}

static void
put_double (GByteArray *out,
            double      v)
{
  guint64 bits;

  memcpy (&bits, &v, sizeof bits);
  bits = GUINT64_TO_LE (bits);
  g_byte_array_append (out, (const guint8 *) &bits, sizeof bits);
}

static guint32
float_bits (float f)
{
  guint32 bits;

  memcpy (&bits, &f, sizeof bits);
  return bits;
}

/* The decimal form of @v if one gives it back exactly, else the raw double. */
static void
put_value (GByteArray *out,
           double      v)
{
  if (v == 0 && !signbit (v))
    {
      rp_varint_put (out, 0);
      return;
    }
  for (guint d = 0; d <= MAX_DECIMALS && v != 0; d++)
    {
      double scaled = v * powers_of_ten[d];
      gint64 n;

      if (!(fabs (scaled) < 9007199254740992.0))   /* 2^53: n exact as a double */
        break;
      n = (gint64) llround (scaled);
      if ((double) n / powers_of_ten[d] == v)
        {
          rp_varint_put (out, (zigzag (n) << 4) | d);
          return;
        }
    }
  rp_varint_put (out, RAW_DOUBLE);
  put_double (out, v);
}

/* zlib's fastest level: on a day of the system sampler's samples it writes
 * 5 % more than level 6 (17.0 MB instead of 16.2) in two thirds of the
 * time, and reading is as fast either way. */
static char *
deflate_to_base64 (GByteArray *raw)
{
  g_autoptr(GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB, 1);
  /* Room for incompressible data: zlib adds 5 bytes per 16 KiB and 6 of its own. */
  g_autoptr(GByteArray) packed = g_byte_array_sized_new (raw->len + raw->len / 1000 + 64);
  gsize in = 0, out = 0;

  g_byte_array_set_size (packed, raw->len + raw->len / 1000 + 64);
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      gsize read = 0, written = 0;
      GConverterResult result;

      result = g_converter_convert (G_CONVERTER (compressor), raw->data + in, raw->len - in,
                                    packed->data + out, packed->len - out,
                                    G_CONVERTER_INPUT_AT_END, &read, &written, &error);
      in += read;
      out += written;
      if (result == G_CONVERTER_FINISHED)
        break;
      /* Memory to memory, so the only error is too little room (never
       * seen with zlib's bound above): give it more. */
      g_assert (result != G_CONVERTER_ERROR || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NO_SPACE));
      g_byte_array_set_size (packed, packed->len * 2);
    }
  return g_base64_encode (packed->data, out);
}

/**
 * rp_report_blocks_encode:
 * @points: (array length=n_points): the samples of one series, in time order
 * @n_points: how many; non-finite ones are skipped
 *
 * The samples as blocks of the block encoding (see above): values exact,
 * times as RpSeries keeps them (exact for points of a series: its chunks
 * are blocks too).
 *
 * Returns: (transfer full) (element-type utf8): base64 strings, one per
 *   block of at most %RP_REPORT_BLOCK_SAMPLES samples
 */
GPtrArray *
rp_report_blocks_encode (const RpPoint *points,
                         guint          n_points)
{
  GPtrArray *blocks = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GByteArray) raw = g_byte_array_sized_new (RP_REPORT_BLOCK_SAMPLES * 12);
  g_autoptr(GByteArray) values = g_byte_array_sized_new (RP_REPORT_BLOCK_SAMPLES * 9);
  guint i = 0;

  while (i < n_points)
    {
      gint64 previous = 0;
      guint count = 0, first = i;
      double base;

      g_byte_array_set_size (raw, 0);
      g_byte_array_set_size (values, 0);
      /* The count first: counted on the way, so skip ahead to find it. */
      for (guint j = first; j < n_points && count < RP_REPORT_BLOCK_SAMPLES; j++, i++)
        if (isfinite (points[j].t) && isfinite (points[j].v))
          count++;
      if (count == 0)
        break;
      rp_varint_put (raw, count);
      base = NAN;
      for (guint j = first; j < i; j++)
        {
          guint32 bits;

          if (!isfinite (points[j].t) || !isfinite (points[j].v))
            continue;
          if (isnan (base))
            {
              base = points[j].t;
              put_double (raw, base);
            }
          else
            {
              bits = float_bits ((float) (points[j].t - base));
              rp_varint_put (raw, zigzag ((gint64) bits - previous));
              previous = bits;
            }
          put_value (values, points[j].v);
        }
      g_byte_array_append (raw, values->data, values->len);
      g_ptr_array_add (blocks, deflate_to_base64 (raw));
    }
  return blocks;
}

/* ------------------------------------------------------------------------ */
/* Reading                                                                   */
/* ------------------------------------------------------------------------ */

typedef struct {
  const guint8 *data;
  gsize         length;
  gsize         pos;
} Reader;

static gboolean
get_varint (Reader  *reader,
            guint64 *out)
{
  return rp_varint_get (reader->data, reader->length, &reader->pos, out);
}

static gboolean
get_double (Reader *reader,
            double *out)
{
  guint64 bits;

  if (reader->length - reader->pos < 8)
    return FALSE;
  memcpy (&bits, reader->data + reader->pos, sizeof bits);
  bits = GUINT64_FROM_LE (bits);
  memcpy (out, &bits, sizeof *out);
  reader->pos += 8;
  return TRUE;
}

static gboolean
get_value (Reader *reader,
           double *out)
{
  guint64 h;
  guint d;

  if (!get_varint (reader, &h))
    return FALSE;
  d = (guint) (h & 15);
  if (d == RAW_DOUBLE)
    return h == RAW_DOUBLE && get_double (reader, out);
  if (d > MAX_DECIMALS)
    return FALSE;
  *out = (double) unzigzag (h >> 4) / powers_of_ten[d];
  return TRUE;
}

/* Base64 by the alphabet of RFC 4648, padded; g_base64_decode() skips what
 * is not, so a damaged block would decode to something else. */
static gboolean
is_base64 (const char *text,
           gsize       length)
{
  gsize padding = 0;

  if (length == 0 || length % 4 != 0)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    {
      char c = text[i];

      if (c == '=' && i >= length - 2)
        padding++;
      else if (padding > 0 || !(g_ascii_isalnum (c) || c == '+' || c == '/'))
        return FALSE;
    }
  return TRUE;
}

/* At most MAX_RAW_BLOCK bytes: more is not a block (nor a zip bomb). */
static GByteArray *
inflate (const guint8  *packed,
         gsize          length,
         GError       **error)
{
  g_autoptr(GZlibDecompressor) decompressor = g_zlib_decompressor_new (G_ZLIB_COMPRESSOR_FORMAT_ZLIB);
  g_autoptr(GByteArray) raw = g_byte_array_sized_new (MAX_RAW_BLOCK + 1);
  gsize in = 0;

  g_byte_array_set_size (raw, MAX_RAW_BLOCK + 1);
  for (gsize out = 0;;)
    {
      gsize read = 0, written = 0;
      GConverterResult result;

      result = g_converter_convert (G_CONVERTER (decompressor), packed + in, length - in,
                                    raw->data + out, raw->len - out, G_CONVERTER_INPUT_AT_END,
                                    &read, &written, error);
      in += read;
      out += written;
      if (result == G_CONVERTER_ERROR)
        return NULL;
      if (result == G_CONVERTER_FINISHED)
        {
          if (in != length)
            break;
          g_byte_array_set_size (raw, (guint) out);
          return g_steal_pointer (&raw);
        }
      if (out > MAX_RAW_BLOCK || (read == 0 && written == 0))
        break;
    }
  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, _("the data does not end where it should"));
  return NULL;
}

/**
 * rp_report_blocks_decode:
 * @text: (array length=length): one block, base64 as written by
 *   rp_report_blocks_encode()
 * @length: its length in bytes
 * @shown: the series' name as messages show it
 * @index: the block's index in the series, for messages
 * @points: (element-type RpPoint): where the samples are appended
 * @error: %RP_ERROR_REPORT naming the series and the block
 *
 * Decodes one block straight into @points: no JSON value per sample. The
 * values are checked by the caller, as those of a version 1 report.
 *
 * Returns: whether the block was whole and well-formed
 */
gboolean
rp_report_blocks_decode (const char  *text,
                         gsize        length,
                         const char  *shown,
                         guint        index,
                         GArray      *points,
                         GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GByteArray) raw = NULL;
  g_autofree guint8 *packed = NULL;
  gsize packed_length = 0;
  guint64 count, delta;
  guint64 bits = 0;
  double base;
  Reader reader;
  guint first;

  if (!is_base64 (text, length))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("Series “%s”, block %u: not base64 text (is the report damaged?)"), shown, index);
      return FALSE;
    }
  {
    g_autofree char *copy = g_strndup (text, length);

    packed = g_base64_decode (copy, &packed_length);
  }
  raw = inflate (packed, packed_length, &local_error);
  if (raw == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   /* TRANSLATORS: the last %s is zlib's reason, e.g. "incorrect data check" */
                   _("Series “%s”, block %u: the samples are damaged or truncated: %s"),
                   shown, index, local_error->message);
      return FALSE;
    }

  reader = (Reader) { raw->data, raw->len, 0 };
  first = points->len;
  if (!get_varint (&reader, &count) || count == 0 || count > RP_REPORT_BLOCK_SAMPLES)
    goto malformed;
  if (!get_double (&reader, &base))
    goto malformed;
  g_array_set_size (points, first + (guint) count);
  g_array_index (points, RpPoint, first).t = base;
  for (guint i = 1; i < count; i++)
    {
      guint32 offset;
      float f;

      if (!get_varint (&reader, &delta))
        goto malformed;
      /* Wrapping arithmetic: a stranger's deltas may overflow. */
      bits += (guint64) unzigzag (delta);
      if (bits > G_MAXUINT32)
        goto malformed;
      offset = (guint32) bits;
      memcpy (&f, &offset, sizeof f);
      g_array_index (points, RpPoint, first + i).t = base + (double) f;
    }
  for (guint i = 0; i < count; i++)
    if (!get_value (&reader, &g_array_index (points, RpPoint, first + i).v))
      goto malformed;
  if (reader.pos != reader.length)
    goto malformed;
  return TRUE;

malformed:
  g_array_set_size (points, first);
  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               _("Series “%s”, block %u: the samples are damaged or truncated"), shown, index);
  return FALSE;
}
