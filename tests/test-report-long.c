/* test-report-long.c: a day's report (3.8 million samples) saves, loads exactly, exports and compares. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "rp-error.h"
#include "rp-report.h"
#include "rp-synthetic-report.h"

static guint64
count_samples (RpReport *report)
{
  GPtrArray *all = rp_report_get_series (report);
  guint64 n = 0;

  for (guint i = 0; i < all->len; i++)
    n += rp_series_get_length (g_ptr_array_index (all, i));
  return n;
}

/* Every point the same double, in the same order. */
static void
assert_same_samples (RpReport *a,
                     RpReport *b)
{
  GPtrArray *sa = rp_report_get_series (a);
  GPtrArray *sb = rp_report_get_series (b);

  g_assert_cmpuint (sa->len, ==, sb->len);
  for (guint i = 0; i < sa->len; i++)
    {
      g_autofree RpPoint *pa = NULL, *pb = NULL;
      guint na = 0, nb = 0;

      g_assert_cmpstr (rp_series_get_name (g_ptr_array_index (sa, i)), ==,
                       rp_series_get_name (g_ptr_array_index (sb, i)));
      pa = rp_series_copy_points (g_ptr_array_index (sa, i), 0, &na);
      pb = rp_series_copy_points (g_ptr_array_index (sb, i), 0, &nb);
      g_assert_cmpuint (na, ==, nb);
      g_assert_cmpmem (pa, na * sizeof *pa, pb, nb * sizeof *pb);
    }
}

static guint64
count_lines (const char *text)
{
  guint64 n = 0;

  for (const char *p = text; (p = strchr (p, '\n')) != NULL; p++)
    n++;
  return n;
}

/* Issue 16, item 3: a day of the default probes was over the 256 MiB a
 * report could have (about 80 bytes a sample as JSON arrays), so it was
 * not saved at all. Now it saves in blocks, loads back bit for bit,
 * exports to CSV and compares; and 30 such days, the longest run
 * --duration allows, stay under both limits of a report (the text of the
 * blocks grows with the samples: a day's size times 30). */
static void
test_day (void)
{
  g_autoptr(RpReport) report = rp_synthetic_report_new (24, 16);
  g_autoptr(RpReport) loaded = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) both = g_ptr_array_new ();
  g_autofree char *dir = g_dir_make_tmp ("test-report-long-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "day.json", NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autofree char *csv = NULL;
  g_autofree char *compare = NULL;
  guint64 n = count_samples (report);
  GStatBuf st;

  g_assert_cmpuint (n, ==, 24 * 3600 * 44);
  g_assert_true (rp_report_save (report, file, "json", &error));
  g_assert_no_error (error);
  g_assert_no_errno (g_stat (path, &st));
  g_test_message ("a day: %" G_GUINT64_FORMAT " samples, %" G_GUINT64_FORMAT " bytes, %.2f bytes a sample",
                  n, (guint64) st.st_size, (double) st.st_size / n);
  g_assert_cmpuint ((guint64) st.st_size * 30, <, RP_REPORT_MAX_FILE_SIZE);
  g_assert_cmpuint (n * 30, <=, RP_REPORT_MAX_SAMPLES);

  loaded = rp_report_load (file, &error);
  g_assert_no_error (error);
  assert_same_samples (report, loaded);

  csv = rp_report_to_csv (loaded);
  g_assert_cmpuint (count_lines (csv), ==, n + 1);
  g_assert_true (g_str_has_prefix (csv, "series,t_seconds,value\ncpu_user,"));
  g_clear_pointer (&csv, g_free);

  g_ptr_array_add (both, report);
  g_ptr_array_add (both, loaded);
  compare = rp_report_compare_text (both);
  g_assert_nonnull (strstr (compare, "Run 2"));

  g_assert_no_errno (g_remove (path));
  g_assert_no_errno (g_rmdir (dir));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/report-long/day", test_day);
  return g_test_run ();
}
