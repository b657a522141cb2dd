/* test-units.c: size and duration parsing and formatting. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <locale.h>
#include <string.h>

#include "rp-error.h"
#include "rp-units.h"

static void
test_sizes_valid (void)
{
  static const struct { const char *text; guint64 bytes; } cases[] = {
    { "4096", 4096 },
    { "1K", 1024 },
    { "1k", 1024 },
    { "1M", 1024 * 1024 },
    { "15000M", 15000ull * 1024 * 1024 },
    { "8G", 8ull << 30 },
    { "1GiB", 1ull << 30 },
    { "64MiB", 64ull << 20 },
    { "1.5G", 3ull << 29 },
    { "512B", 512 },
    /* dd(1): the B-suffixed units are decimal */
    { "1KB", 1000 },
    { "500MB", 500000000 },
    { "1GB", 1000000000 },
    { "2T", 2ull << 40 },
    /* the nearest byte: 107374182.4 */
    { "0.1G", 107374182 },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 bytes = 0;

      g_assert_true (rp_parse_size (cases[i].text, "--size", &bytes, &error));
      g_assert_no_error (error);
      g_assert_cmpuint (bytes, ==, cases[i].bytes);
    }
}

static void
test_sizes_invalid (void)
{
  static const char *cases[] = { "", "0", "-1", "abc", "1X", "1e20G", "1e20", "nan", "inf", "1MM", "M", "0x10", "0x1p3G",
    /* a fraction of a byte: 1.5 was 1 byte */
    "1.5", "2.5B" };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(GError) error = NULL;
      guint64 bytes = 7;

      g_assert_false (rp_parse_size (cases[i], "--size", &bytes, &error));
      g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
      /* The message names the option, so the user knows which value is bad. */
      g_assert_nonnull (strstr (error->message, "--size"));
      g_assert_cmpuint (bytes, ==, 7);
    }
}

/* German users type "2,5" (LANG=de_DE.UTF-8 resprobe-cli run --duration
 * 2,5 was refused): the locale's decimal separator is read as well as '.',
 * and under the C locale a comma stays an error that names the option. */
static void
test_decimal_comma (void)
{
  g_autofree char *saved = g_strdup (setlocale (LC_NUMERIC, NULL));
  double seconds = 0;
  guint64 bytes = 0;

  /* install-deps.sh generates de_DE.UTF-8 (the translations' locales). */
  g_assert_nonnull (setlocale (LC_NUMERIC, "de_DE.UTF-8"));
  g_assert_true (rp_parse_duration ("2,5", "--duration", &seconds, NULL));
  g_assert_cmpfloat_with_epsilon (seconds, 2.5, 1e-12);
  g_assert_true (rp_parse_duration ("2.5", "--duration", &seconds, NULL));
  g_assert_cmpfloat_with_epsilon (seconds, 2.5, 1e-12);
  g_assert_true (rp_parse_duration ("0,25s", "--duration", &seconds, NULL));
  g_assert_cmpfloat_with_epsilon (seconds, 0.25, 1e-12);
  g_assert_true (rp_parse_duration ("1,5m", "--duration", &seconds, NULL));
  g_assert_cmpfloat_with_epsilon (seconds, 90, 1e-9);
  g_assert_true (rp_parse_size ("1,5G", "--size", &bytes, NULL));
  g_assert_cmpuint (bytes, ==, 3ull << 29);
  g_assert_false (rp_parse_duration ("1,000,5", "--duration", &seconds, NULL));
  g_assert_false (rp_parse_duration ("1.000,5", "--duration", &seconds, NULL));
  g_assert_false (rp_parse_size ("1,5", "--size", &bytes, NULL));

  g_assert_nonnull (setlocale (LC_NUMERIC, "C"));
  {
    g_autoptr(GError) error = NULL;

    g_assert_false (rp_parse_duration ("2,5", "--duration", &seconds, &error));
    g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "--duration"));
    g_assert_nonnull (strstr (error->message, "2,5"));
  }
  setlocale (LC_NUMERIC, saved);
}

static void
test_durations (void)
{
  static const struct { const char *text; double seconds; } good[] = {
    { "20", 20 }, { "0.5", 0.5 }, { "90s", 90 }, { "2m", 120 }, { "1h", 3600 }, { "250ms", 0.25 },
    { "30d", 30 * 24 * 3600.0 },
  };
  static const char *bad[] = { "", "0", "-3", "x", "5 days", "31d", "1e20", "nan", "10q", "0x10", "0x1p3", "-0x2" };

  for (guint i = 0; i < G_N_ELEMENTS (good); i++)
    {
      double seconds = 0;

      g_assert_true (rp_parse_duration (good[i].text, "--duration", &seconds, NULL));
      g_assert_cmpfloat_with_epsilon (seconds, good[i].seconds, 1e-9);
    }
  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      double seconds = 0;

      g_assert_false (rp_parse_duration (bad[i], "--duration", &seconds, &error));
      g_assert_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "--duration"));
    }
}

static void
test_counts (void)
{
  guint count = 0;

  g_assert_true (rp_parse_count ("4", "--writers", 64, &count, NULL));
  g_assert_cmpuint (count, ==, 4);
  g_assert_false (rp_parse_count ("0", "--writers", 64, &count, NULL));
  g_assert_false (rp_parse_count ("65", "--writers", 64, &count, NULL));
  g_assert_false (rp_parse_count ("four", "--writers", 64, &count, NULL));
}

static void
test_format (void)
{
  g_autofree char *a = rp_format_latency (0.000842);
  g_autofree char *b = rp_format_latency (0.0123);
  g_autofree char *c = rp_format_latency (10.86);
  g_autofree char *d = rp_format_latency (0.54);
  g_autofree char *e = rp_format_size (1536ull << 20);

  g_assert_cmpstr (a, ==, "842 µs");
  g_assert_cmpstr (b, ==, "12.3 ms");
  g_assert_cmpstr (c, ==, "10.86 s");
  g_assert_cmpstr (d, ==, "540 ms");

  /* Three significant digits across each change of precision. */
  {
    static const struct { double seconds; const char *text; } cases[] = {
      { 0.000999, "999 µs" }, { 0.001, "1.00 ms" }, { 0.00542, "5.42 ms" },
      { 0.00999, "9.99 ms" }, { 0.01, "10.0 ms" }, { 0.0999, "99.9 ms" },
      { 0.1, "100 ms" }, { 0.999, "999 ms" }, { 1.0, "1.00 s" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
      {
        g_autofree char *text = rp_format_latency (cases[i].seconds);

        g_assert_cmpstr (text, ==, cases[i].text);
      }
  }
}

/* GLib separates number and unit with a no-break space (U+00A0): two bytes
 * that `grep '1.5 GiB'` does not match and mawk's length() counts twice.
 * Every formatter gives a plain one. */
static void
test_format_plain_spaces (void)
{
  g_autofree char *size = rp_format_size (1536ull << 20);
  g_autofree char *small = rp_format_size (512);
  g_autofree char *rate = rp_format_rate (24.0 * (1 << 20));
  g_autofree char *latency = rp_format_latency (0.000842);

  g_assert_cmpstr (size, ==, "1.5 GiB");
  g_assert_cmpstr (small, ==, "512 bytes");
  g_assert_cmpstr (rate, ==, "24.0 MiB/s");
  g_assert_cmpstr (latency, ==, "842 µs");
  for (const char *p = size; *p != '\0'; p++)
    g_assert_true (g_ascii_isprint (*p));
  for (const char *p = rate; *p != '\0'; p++)
    g_assert_true (g_ascii_isprint (*p));
}

/* Issue 33: numbers read from a report's notes, a stranger's file. */
static void
test_note_numbers (void)
{
  guint64 count = 7;
  double number = 7;

  g_assert_true (rp_parse_note_count ("3", 1000, &count));
  g_assert_cmpuint (count, ==, 3);
  /* g_ascii_strtoull() reads "-1" as 2^64 - 1: refused, and left alone. */
  count = 7;
  for (guint i = 0; i < 7; i++)
    {
      const char *bad[] = { "-1", "99999999999", "", " 3", "3x", "+3", "1e3" };

      g_assert_false (rp_parse_note_count (bad[i], 1000, &count));
      g_assert_cmpuint (count, ==, 7);
    }
  g_assert_false (rp_parse_note_count (NULL, 1000, &count));
  g_assert_true (rp_parse_note_number ("0.25", 0, 1, &number));
  g_assert_cmpfloat (number, ==, 0.25);
  g_assert_true (rp_parse_note_number ("-2", -10, 10, &number));
  for (guint i = 0; i < 6; i++)
    {
      const char *bad[] = { "1e999", "nan", "inf", "2", "0.5s", " 1" };

      g_assert_false (rp_parse_note_number (bad[i], 0, 1, &number));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/units/sizes/valid", test_sizes_valid);
  g_test_add_func ("/units/sizes/invalid", test_sizes_invalid);
  g_test_add_func ("/units/durations", test_durations);
  g_test_add_func ("/units/decimal-comma", test_decimal_comma);
  g_test_add_func ("/units/counts", test_counts);
  g_test_add_func ("/units/note-numbers", test_note_numbers);
  g_test_add_func ("/units/format", test_format);
  g_test_add_func ("/units/format/plain-spaces", test_format_plain_spaces);
  return g_test_run ();
}
