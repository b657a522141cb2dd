/* bench-report.c: benchmarks 9 and 10, a day's report saved and loaded, and PDFs of many notes. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <sys/resource.h>
#include <string.h>

#include <glib/gstdio.h>

#include "rp-report-export.h"
#include "rp-synthetic-report.h"

/* A field of /proc/self/status in bytes: VmRSS now, VmHWM the peak. */
static guint64
read_status_kb (const char *field)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, field);
  return line ? g_ascii_strtoull (line + strlen (field), NULL, 10) * 1024 : 0;
}

static double
seconds_since (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1e6;
}

static guint64
count_samples (RpReport *report)
{
  GPtrArray *all = rp_report_get_series (report);
  guint64 n = 0;

  for (guint i = 0; i < all->len; i++)
    n += rp_series_get_length (g_ptr_array_index (all, i));
  return n;
}

/* save HOURS DIR: DIR/v2.json (blocks, rp_report_save()) and DIR/v1.json
 * (every sample a JSON array, the encoding before), each timed from the
 * report in memory to the file on disk. */
static int
save (double      hours,
      const char *dir)
{
  g_autoptr(RpReport) report = rp_synthetic_report_new (hours, 16);
  g_autofree char *v2_path = g_build_filename (dir, "v2.json", NULL);
  g_autofree char *v1_path = g_build_filename (dir, "v1.json", NULL);
  g_autoptr(GFile) v2 = g_file_new_for_path (v2_path);
  g_autoptr(GFile) v1 = g_file_new_for_path (v1_path);
  g_autoptr(GError) error = NULL;
  g_autofree char *v1_json = NULL;
  gsize v1_length = 0;
  double v2_seconds, v1_seconds;
  gint64 start;
  GStatBuf st;

  start = g_get_monotonic_time ();
  if (!rp_report_save (report, v2, "json", &error))
    g_error ("%s", error->message);
  v2_seconds = seconds_since (start);

  start = g_get_monotonic_time ();
  v1_json = rp_report_to_json_encoded (report, RP_REPORT_ENCODING_ARRAYS, &v1_length);
  if (!rp_report_save_contents (v1, v1_json, v1_length, &error))
    g_error ("%s", error->message);
  v1_seconds = seconds_since (start);

  g_stat (v2_path, &st);
  printf ("{\"samples\": %" G_GUINT64_FORMAT ", \"v2_save_s\": %.3f, \"v2_bytes\": %" G_GUINT64_FORMAT ", "
          "\"v1_save_s\": %.3f, \"v1_bytes\": %" G_GSIZE_FORMAT "}\n",
          count_samples (report), v2_seconds, (guint64) st.st_size, v1_seconds, v1_length);
  return 0;
}

/* CPU seconds of this process so far, user and system: on a shared machine
 * the wall-clock time is mostly waiting for a core. */
static double
cpu_seconds (void)
{
  struct rusage usage;

  getrusage (RUSAGE_SELF, &usage);
  return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 +
         usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

/* load FILE: the time (wall clock and CPU) to load it and the memory it
 * took at its peak, over what the process had before. */
static int
load (const char *path)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReport) report = NULL;
  guint64 before = read_status_kb ("VmRSS:");
  double cpu_before = cpu_seconds ();
  gint64 start = g_get_monotonic_time ();
  double seconds, cpu;

  report = rp_report_load (file, &error);
  seconds = seconds_since (start);
  cpu = cpu_seconds () - cpu_before;
  if (report == NULL)
    g_error ("%s", error->message);
  printf ("{\"samples\": %" G_GUINT64_FORMAT ", \"load_s\": %.3f, \"load_cpu_s\": %.3f, "
          "\"peak_bytes\": %" G_GUINT64_FORMAT ", \"after_bytes\": %" G_GUINT64_FORMAT "}\n",
          count_samples (report), seconds, cpu, read_status_kb ("VmHWM:") - before,
          read_status_kb ("VmRSS:") - before);
  return 0;
}

/* pdf N: the PDF of a report of the 22 system series over a minute and N
 * notes of about 50 bytes, drawn in memory. */
static int
pdf (guint n_notes)
{
  g_autoptr(RpReport) base = rp_synthetic_report_new (1.0 / 60, 16);
  g_autoptr(GHashTable) notes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;

  for (guint i = 0; i < n_notes; i++)
    g_hash_table_insert (notes, g_strdup_printf ("note_%05u", i),
                         g_strdup_printf ("value of note %u, about fifty bytes of text", i));
  report = rp_report_new (NULL, rp_report_get_scenario (base), rp_report_get_series (base), notes);
  start = g_get_monotonic_time ();
  bytes = rp_report_render (report, "pdf", &error);
  if (bytes == NULL)
    g_error ("%s", error->message);
  printf ("{\"notes\": %u, \"pdf_s\": %.3f, \"bytes\": %" G_GSIZE_FORMAT "}\n",
          n_notes, seconds_since (start), g_bytes_get_size (bytes));
  return 0;
}

int
main (int   argc,
      char *argv[])
{
  if (argc == 4 && g_str_equal (argv[1], "save"))
    return save (g_ascii_strtod (argv[2], NULL), argv[3]);
  if (argc == 3 && g_str_equal (argv[1], "load"))
    return load (argv[2]);
  if (argc == 3 && g_str_equal (argv[1], "pdf"))
    return pdf ((guint) g_ascii_strtoull (argv[2], NULL, 10));
  fprintf (stderr, "usage: bench-report save HOURS DIR | load FILE | pdf NOTES\n");
  return 2;
}
