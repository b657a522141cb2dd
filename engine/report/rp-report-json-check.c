/* rp-report-json-check.c: a report's bytes checked before json-glib parses them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>
#include <json-glib/json-glib.h>

#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-units.h"

/* ------------------------------------------------------------------------ */
/* The pre-check                                                             */
/*                                                                           */
/* Reports come from strangers' bug attachments. json-glib 1.6's parser      */
/* recurses without a depth limit (200 000 '[' overflow the stack) and costs */
/* about 300 bytes per sample, so one pass over the bytes checks the depth   */
/* and the size of the tree to come before json-glib sees them. For its      */
/* bracket count to be json-glib's, it must agree on where strings end: so   */
/* it accepts outside strings only JSON's own bytes (json-glib also takes    */
/* '…' strings and comments, which could hide a '"'), and in strings only    */
/* JSON's escapes (json-glib reads four bytes after \u, and a second escape  */
/* after a surrogate, even if one of them is the closing quote).             */
/* ------------------------------------------------------------------------ */

typedef struct {
  const char *data;
  gsize       length;
  gsize       pos;
} Scan;

static gboolean
is_space (char c)
{
  return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/* What JSON has outside strings, besides brackets: numbers, true, false,
 * null. A switch, not strchr(): this runs for every byte of a file of up to 1 GiB. */
static gboolean
is_json_byte (char c)
{
  switch (c)
    {
    case ' ': case '\n': case '\r': case '\t': case ',': case ':':
    case '-': case '+': case '.': case 'E':
    case 'a': case 'e': case 'f': case 'l': case 'n': case 'r': case 's': case 't': case 'u':
      return TRUE;
    default:
      return g_ascii_isdigit (c);
    }
}

static gboolean
scan_fail (const Scan  *scan,
           const char  *what,
           GError     **error)
{
  guint line = 1, column = 1;

  for (gsize i = 0; i < scan->pos && i < scan->length; i++)
    {
      if (scan->data[i] == '\n')
        {
          line++;
          column = 1;
        }
      else if (((guchar) scan->data[i] & 0xc0) != 0x80)
        column++;
    }
  g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
               /* TRANSLATORS: the last %s says what is wrong, e.g. "nested too deeply" */
               _("The report is not valid JSON: line %u, column %u: %s"), line, column, what);
  return FALSE;
}

static gboolean
scan_fail_truncated (Scan    *scan,
                     GError **error)
{
  scan->pos = scan->length;
  return scan_fail (scan, _("unexpected end of data (is the file truncated?)"), error);
}

static gboolean
scan_fail_byte (const Scan  *scan,
                GError     **error)
{
  guchar c = (guchar) scan->data[scan->pos];
  g_autofree char *what = NULL;

  if (g_ascii_isprint (c))
    what = g_strdup_printf (_("unexpected character “%c”"), c);
  else
    what = g_strdup_printf (_("unexpected byte 0x%02x"), (guint) c);
  return scan_fail (scan, what, error);
}

/* Four hex digits at @at, or -1 if there are not (-2: the data ends first). */
static int
scan_hex4 (const Scan *scan,
           gsize       at)
{
  int value = 0;

  for (guint i = 0; i < 4; i++)
    {
      int digit;

      if (at + i >= scan->length)
        return -2;
      digit = g_ascii_xdigit_value (scan->data[at + i]);
      if (digit < 0)
        return -1;
      value = value * 16 + digit;
    }
  return value;
}

/* At a backslash in a string: moves past the escape. A surrogate must be a
 * high one followed by an escaped low one. */
static gboolean
scan_escape (Scan    *scan,
             GError **error)
{
  gsize at = scan->pos + 1;
  int code, low = 0xdc00;

  if (at >= scan->length)
    return scan_fail_truncated (scan, error);
  if (scan->data[at] != 'u')
    {
      scan->pos = at + 1;
      if (scan->data[at] != '\0' && strchr ("\"\\/bfnrt", scan->data[at]) != NULL)
        return TRUE;
      return scan_fail (scan, _("invalid escape in a string"), error);
    }
  code = scan_hex4 (scan, at + 1);
  scan->pos = at + 5;
  if (code >= 0xd800 && code <= 0xdbff)
    {
      if (at + 6 < scan->length && (scan->data[at + 5] != '\\' || scan->data[at + 6] != 'u'))
        low = -1;
      else
        low = scan_hex4 (scan, at + 7);
      scan->pos = at + 11;
    }
  if (code == -2 || low == -2)
    return scan_fail_truncated (scan, error);
  if (code < 0 || (code >= 0xdc00 && code <= 0xdfff) || low < 0xdc00 || low > 0xdfff)
    return scan_fail (scan, _("invalid \\u escape in a string"), error);
  return TRUE;
}

/* At the opening quote: moves to the closing one. */
static gboolean
scan_string (Scan    *scan,
             GError **error)
{
  gsize start = scan->pos;

  scan->pos++;
  while (scan->pos < scan->length && scan->data[scan->pos] != '"')
    {
      if (scan->data[scan->pos] != '\\')
        scan->pos++;
      else if (!scan_escape (scan, error))
        return FALSE;
    }
  if (scan->pos >= scan->length)
    return scan_fail_truncated (scan, error);
  if (scan->pos - start > RP_REPORT_JSON_MAX_STRING)
    {
      scan->pos = start;
      return scan_fail (scan, _("a string longer than 1 MiB"), error);
    }
  return TRUE;
}

/* After the top-level object: only white space. */
static gboolean
scan_end (Scan    *scan,
          GError **error)
{
  for (scan->pos++; scan->pos < scan->length; scan->pos++)
    if (!is_space (scan->data[scan->pos]))
      return scan_fail (scan, _("unexpected data after the end of the report"), error);
  return TRUE;
}

/* At the top-level '{'. */
static gboolean
scan_document (Scan    *scan,
               GError **error)
{
  guint depth = 0;
  guint64 units = 0;

  for (; scan->pos < scan->length; scan->pos++)
    {
      char c = scan->data[scan->pos];

      if (c == '"')
        {
          if (!scan_string (scan, error))
            return FALSE;
        }
      else if (c == '{' || c == '[')
        {
          if (++depth > RP_REPORT_JSON_MAX_DEPTH)
            return scan_fail (scan, _("nested too deeply"), error);
        }
      else if (c == '}' || c == ']')
        {
          if (--depth == 0)
            return scan_end (scan, error);
        }
      else if (!is_json_byte (c))
        return scan_fail_byte (scan, error);

      units += (c == '{' || c == ':') ? 3 : (c == '[' || c == ',') ? 1 : 0;
      if (units > RP_REPORT_JSON_MAX_TREE_UNITS)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                       _("The report has too many values, more than this program reads"));
          return FALSE;
        }
    }
  return scan_fail_truncated (scan, error);
}

/**
 * rp_report_json_precheck:
 * @data: (array length=length): the file's bytes
 * @length: how many
 * @error: %RP_ERROR_REPORT saying what is wrong and where
 *
 * One pass over the bytes before json-glib sees them: JSON's own bytes
 * only, nesting at most %RP_REPORT_JSON_MAX_DEPTH deep, and a tree of at
 * most %RP_REPORT_JSON_MAX_TREE_UNITS.
 *
 * Returns: whether json-glib may parse @data
 */
gboolean
rp_report_json_precheck (const char  *data,
                         gsize        length,
                         GError     **error)
{
  Scan scan = { data, length, 0 };

  /* A UTF-8 byte order mark, as some Windows editors write: json-glib skips it. */
  if (length >= 3 && memcmp (data, "\xef\xbb\xbf", 3) == 0)
    scan.pos = 3;
  while (scan.pos < length && is_space (data[scan.pos]))
    scan.pos++;
  if (scan.pos == length)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT, _("The report is empty"));
      return FALSE;
    }
  if (data[scan.pos] != '{')
    {
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT,
                   _("This is not a Responsiveness Probe report: it is not a JSON object"));
      return FALSE;
    }
  return scan_document (&scan, error);
}
