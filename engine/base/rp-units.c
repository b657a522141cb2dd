/* rp-units.c: parse and format sizes and durations, the one place units convert. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <math.h>
#include <string.h>

#include "rp-error.h"
#include "rp-text.h"
#include "rp-units.h"

typedef struct {
  const char *suffix;
  guint64     factor;
} SizeSuffix;

/* The reporters wrote dd's units ("bs=1M count=15000"), so sizes read as dd
 * reads them (coreutils dd(1)): K, M, G, T and KiB… are binary multiples,
 * KB, MB, GB, TB decimal ones. "B" or no suffix is bytes. */
static const SizeSuffix size_suffixes[] = {
  { "", 1 }, { "B", 1 },
  { "K", RP_KiB }, { "KIB", RP_KiB }, { "KB", 1000 },
  { "M", RP_MiB }, { "MIB", RP_MiB }, { "MB", 1000 * 1000 },
  { "G", RP_GiB }, { "GIB", RP_GiB }, { "GB", 1000 * 1000 * 1000 },
  { "T", RP_GiB * 1024 }, { "TIB", RP_GiB * 1024 }, { "TB", G_GUINT64_CONSTANT (1000000000000) },
};

static gboolean
lookup_size_suffix (const char *suffix,
                    guint64    *out_factor)
{
  g_autofree char *upper = g_ascii_strup (suffix, -1);

  g_strstrip (upper);
  for (guint i = 0; i < G_N_ELEMENTS (size_suffixes); i++)
    if (g_str_equal (upper, size_suffixes[i].suffix))
      {
        *out_factor = size_suffixes[i].factor;
        return TRUE;
      }
  return FALSE;
}

/* g_ascii_strtod() also reads C's hexadecimal numbers ("0x10" is 16,
 * "0x1p3" is 8): sizes and durations are written in decimal. */
static double
parse_ascii_decimal (const char  *text,
                     char       **end)
{
  const char *p = text;

  while (g_ascii_isspace (*p))
    p++;
  if (*p == '+' || *p == '-')
    p++;
  if (p[0] == '0' && (p[1] == 'x' || p[1] == 'X'))
    {
      *end = (char *) text;
      return 0;
    }
  return g_ascii_strtod (text, end);
}

/* A decimal number with '.' or the locale's decimal separator (LC_NUMERIC:
 * "2,5" under de_DE, as people there type it): the separator is replaced
 * by '.' in a copy, and *@end points into @text as if it had been read
 * there. */
static double
parse_decimal (const char  *text,
               char       **end)
{
  const char *point = localeconv ()->decimal_point;
  const char *found;
  g_autofree char *ascii = NULL;
  char *ascii_end = NULL;
  size_t point_length, offset;
  double number;

  if (point == NULL || *point == '\0' || g_str_equal (point, ".") ||
      (found = strstr (text, point)) == NULL)
    return parse_ascii_decimal (text, end);

  point_length = strlen (point);
  offset = (size_t) (found - text);
  ascii = g_strdup_printf ("%.*s.%s", (int) offset, text, found + point_length);
  number = parse_ascii_decimal (ascii, &ascii_end);
  /* Past the separator the copy is point_length − 1 bytes shorter. */
  if ((size_t) (ascii_end - ascii) > offset)
    *end = (char *) text + (ascii_end - ascii) + point_length - 1;
  else
    *end = (char *) text + (ascii_end - ascii);
  return number;
}

/**
 * rp_parse_size:
 * @text: e.g. "1M", "15000MiB", "8G", "4096", "1.5GiB", "500MB"; decimals
 *   with '.' or the locale's decimal separator ("1,5G" under de_DE)
 * @field: the name of the option or field, for the error message
 * @out_bytes: (out): the size in bytes
 * @error: %RP_ERROR_INVALID_ARGUMENT naming @field when @text is not a
 *   positive size with an optional unit, read as dd(1) reads them: K, M, G, T,
 *   KiB, MiB, GiB, TiB are powers of 1024; KB, MB, GB, TB powers of 1000
 *
 * Returns: %TRUE on success
 */
gboolean
rp_parse_size (const char  *text,
               const char  *field,
               guint64     *out_bytes,
               GError     **error)
{
  char *end = NULL;
  double number;
  guint64 factor;

  g_return_val_if_fail (field != NULL, FALSE);
  g_return_val_if_fail (out_bytes != NULL, FALSE);

  if (text == NULL || *text == '\0')
    goto invalid;

  number = parse_decimal (text, &end);
  if (end == text || !isfinite (number) || number <= 0 ||
      !lookup_size_suffix (end, &factor))
    goto invalid;

  /* 2^62 bytes is far beyond any disk; anything larger is a typo, not a plan. */
  if (number * (double) factor >= 4.6e18)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("%s: “%s” is too large"), field, text);
      return FALSE;
    }

  /* Bytes are whole: "1.5" is a typo for "1.5M" more likely than a plan
   * (it used to write 1 byte). With a unit, the nearest byte: "0.1G" is
   * 107374182.4 bytes. */
  if (factor == 1 && number != floor (number))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %s is the option, e.g. "--size", then the value typed, e.g. "1.5" */
                   _("%s: “%s” is not a whole number of bytes; did you mean a unit, as in 1.5M?"),
                   field, text);
      return FALSE;
    }
  *out_bytes = (guint64) llround (number * (double) factor);
  if (*out_bytes == 0)
    goto invalid;
  return TRUE;

invalid:
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("%s: “%s” is not a size; use a positive number with an optional unit, e.g. 512K, 64M, 8G, 1GiB"),
               field, text ? text : "");
  return FALSE;
}

/**
 * rp_parse_duration:
 * @text: seconds, e.g. "20", "0.5", "20s", "2m", "1h"; decimals with '.'
 *   or the locale's decimal separator ("2,5" under de_DE)
 * @field: the option or field name, for the error message
 * @out_seconds: (out): the duration in seconds (> 0)
 * @error: %RP_ERROR_INVALID_ARGUMENT naming @field when @text is not a positive
 *   duration of at most 30 days
 *
 * Returns: %TRUE on success
 */
gboolean
rp_parse_duration (const char  *text,
                   const char  *field,
                   double      *out_seconds,
                   GError     **error)
{
  char *end = NULL;
  double number, factor = 1;

  g_return_val_if_fail (field != NULL, FALSE);
  g_return_val_if_fail (out_seconds != NULL, FALSE);

  if (text == NULL || *text == '\0')
    goto invalid;

  number = parse_decimal (text, &end);
  if (end == text || !isfinite (number) || number <= 0)
    goto invalid;

  if (g_str_equal (end, "") || g_str_equal (end, "s"))
    factor = 1;
  else if (g_str_equal (end, "ms"))
    factor = 1e-3;
  else if (g_str_equal (end, "m") || g_str_equal (end, "min"))
    factor = 60;
  else if (g_str_equal (end, "h"))
    factor = 3600;
  else if (g_str_equal (end, "d"))
    factor = 24 * 3600;
  else
    goto invalid;

  if (number * factor > 30 * 24 * 3600.0)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("%s: “%s” is longer than 30 days"), field, text);
      return FALSE;
    }

  *out_seconds = number * factor;
  return TRUE;

invalid:
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("%s: “%s” is not a duration; use positive seconds, e.g. 20, 90s, 2m, 1h, 1d"),
               field, text ? text : "");
  return FALSE;
}

/**
 * rp_parse_count:
 * @text: a whole number from 1 to @max
 * @field: the option or field name, for the error message
 * @max: the largest number accepted
 * @out_count: (out): the number
 * @error: %RP_ERROR_INVALID_ARGUMENT naming @field and the range
 *
 * For thread counts and the like.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_parse_count (const char  *text,
                const char  *field,
                guint        max,
                guint       *out_count,
                GError     **error)
{
  guint64 value = 0;

  g_return_val_if_fail (field != NULL, FALSE);
  g_return_val_if_fail (out_count != NULL, FALSE);

  if (text == NULL ||
      !g_ascii_string_to_unsigned (text, 10, 1, max, &value, NULL))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("%s: “%s” is not a whole number from 1 to %u"),
                   field, text ? text : "", max);
      return FALSE;
    }
  *out_count = (guint) value;
  return TRUE;
}

/**
 * rp_parse_note_count:
 * @text: (nullable): a number as a report's notes hold it, e.g. "3"
 * @max: the largest count that makes sense where it is read
 * @out_count: (out): the count, set only on success
 *
 * A count read from a report, a stranger's file: decimal digits only (no
 * sign, no space, no exponent) and at most @max. g_ascii_strtoull() reads
 * "-1" as 2^64 - 1, and a loop to such a count ran for hours (issue 33).
 *
 * Returns: whether @text is such a count
 */
gboolean
rp_parse_note_count (const char *text,
                     guint64     max,
                     guint64    *out_count)
{
  guint64 value;

  g_return_val_if_fail (out_count != NULL, FALSE);

  if (text == NULL || !g_ascii_isdigit (text[0]) ||
      !g_ascii_string_to_unsigned (text, 10, 0, max, &value, NULL))
    return FALSE;
  *out_count = value;
  return TRUE;
}

/**
 * rp_parse_note_number:
 * @text: (nullable): a decimal number as a report's notes hold it, e.g. "0.25"
 * @min: smallest value that makes sense where it is read
 * @max: largest value
 * @out_value: (out): the number, set only on success
 *
 * A number read from a report: the whole text a C-locale decimal number,
 * finite ("1e999" is infinity to strtod), within @min..@max.
 *
 * Returns: whether @text is such a number
 */
gboolean
rp_parse_note_number (const char *text,
                      double      min,
                      double      max,
                      double     *out_value)
{
  char *end = NULL;
  double value;

  g_return_val_if_fail (out_value != NULL, FALSE);

  if (text == NULL || *text == '\0' || g_ascii_isspace (*text))
    return FALSE;
  value = g_ascii_strtod (text, &end);
  if (end == text || *end != '\0' || !isfinite (value) || value < min || value > max)
    return FALSE;
  *out_value = value;
  return TRUE;
}

/* GLib puts a no-break space between number and unit (U+00A0, or what its
 * translation chose, e.g. U+202F), and a translator may do the same. Units
 * go to terminals, mail and bug trackers, where that space is two bytes
 * that `grep '1.0 MiB'` does not match and byte-counting tools see as two
 * columns: a plain space instead. Takes @text. */
static char *
plain_spaces (char *text)
{
  GString *plain = g_string_sized_new (strlen (text));

  for (const char *p = text; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (g_unichar_type (c) == G_UNICODE_SPACE_SEPARATOR)
        g_string_append_c (plain, ' ');
      else
        g_string_append_unichar (plain, c);
    }
  g_free (text);
  return g_string_free (plain, FALSE);
}

static char *
format_bytes (guint64 bytes)
{
  return plain_spaces (g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS));
}

/**
 * rp_format_size:
 * @bytes: a size in bytes
 *
 * Formats with binary (IEC) units, as the parser reads them, and a plain
 * space: "1.5 GiB".
 *
 * Returns: (transfer full): the text
 */
char *
rp_format_size (guint64 bytes)
{
  return format_bytes (bytes);
}

/**
 * rp_format_rate:
 * @bytes_per_second: a throughput
 *
 * Returns: (transfer full): e.g. "24.0 MiB/s", with a plain space
 */
char *
rp_format_rate (double bytes_per_second)
{
  g_autofree char *size = NULL;

  if (!isfinite (bytes_per_second) || bytes_per_second < 0)
    bytes_per_second = 0;
  size = format_bytes ((guint64) bytes_per_second);
  /* TRANSLATORS: a throughput, e.g. "24.0 MiB/s" */
  return plain_spaces (g_strdup_printf (_("%s/s"), size));
}

static char *
format_latency (double seconds)
{
  if (!isfinite (seconds))
    return g_strdup ("–");
  if (seconds < 1e-3)
    return g_strdup_printf (_("%.0f µs"), seconds * 1e6);
  if (seconds < 0.01)
    return g_strdup_printf (_("%.2f ms"), seconds * 1e3);
  if (seconds < 0.1)
    return g_strdup_printf (_("%.1f ms"), seconds * 1e3);
  if (seconds < 1)
    return g_strdup_printf (_("%.0f ms"), seconds * 1e3);
  /* Over a day or so the digits say nothing more, and a value near 1e21
   * (what a report may hold) would widen a window past the screen. */
  if (seconds >= 1e5)
    return g_strdup_printf (_("%.3g s"), seconds);
  return g_strdup_printf (_("%.2f s"), seconds);
}

/**
 * rp_format_latency:
 * @seconds: a duration
 *
 * Chooses µs, ms or s so that three significant digits show; a plain space
 * before the unit.
 *
 * Returns: (transfer full): e.g. "842 µs", "12.3 ms", "10.9 s"
 */
char *
rp_format_latency (double seconds)
{
  return plain_spaces (format_latency (seconds));
}

static gboolean
unit_is (const char *unit,
         const char *expected)
{
  return g_strcmp0 (unit, expected) == 0;
}

/**
 * rp_format_value:
 * @unit: a series' unit: "s", "B/s", "B", "ratio", or anything (a
 *   stranger's report)
 * @value: in that unit
 *
 * A value as a reader wants to see it: latencies in µs/ms/s, throughputs
 * and sizes in IEC units, ratios as percent, requests counted in the
 * user's language ("1 request"); "-" for what is not finite.
 *
 * Returns: (transfer full): the text, on one line
 */
char *
rp_format_value (const char *unit,
                 double      value)
{
  g_autofree char *clean_unit = NULL;

  if (!isfinite (value))
    return g_strdup ("-");
  if ((unit_is (unit, "B") || unit_is (unit, "B/s")) && value < 0)
    {
      g_autofree char *magnitude = rp_format_value (unit, -value);

      return g_strdup_printf ("-%s", magnitude);
    }
  if (unit_is (unit, "s"))
    return rp_format_latency (value);
  if (unit_is (unit, "B/s"))
    return rp_format_rate (value);
  if (unit_is (unit, "B"))
    return rp_format_size ((guint64) MIN (round (value), (double) G_MAXINT64));
  if (unit_is (unit, "ratio"))
    return g_strdup_printf ("%.1f %%", value * 100);
  if (unit_is (unit, "requests"))
    {
      g_autofree char *number = g_strdup_printf ("%.4g", value);
      /* A fraction (a mean) takes the form of 2: "2.5 requests", and the
       * few-form in Polish and Russian, as their grammars want. */
      gulong n = value >= 0 && value == round (value) && value < 1e9 ? (gulong) value : 2;

      /* TRANSLATORS: a count of a device's requests in flight, e.g. "3 requests" */
      return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s request", "%s requests", n), number);
    }
  if (unit == NULL || *unit == '\0')
    return g_strdup_printf ("%.4g", value);
  /* A unit from a stranger's report goes into a table cell: one line. */
  clean_unit = rp_text_sanitize (unit);
  g_strdelimit (clean_unit, "\n", ' ');
  return g_strdup_printf ("%.4g %s", value, clean_unit);
}

/**
 * rp_format_limit:
 * @seconds: a response-time limit, e.g. %RP_LIMIT_FLOW
 *
 * Returns: (transfer full): the limit as verdicts name it: "0.1 s", "1 s"
 */
char *
rp_format_limit (double seconds)
{
  /* TRANSLATORS: a time limit in seconds, e.g. "0.1 s" */
  return g_strdup_printf (_("%g s"), seconds);
}
