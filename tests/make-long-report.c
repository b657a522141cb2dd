/* make-long-report.c: writes a long run's report (synthetic, like the system sampler's) for the fault matrix. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>

#include "rp-synthetic-report.h"

/* make-long-report HOURS FILE: 44 samples a second for HOURS, saved as a
 * JSON report by rp_report_save(); exit 1 with its message if that fails. */
int
main (int   argc,
      char *argv[])
{
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GFile) file = NULL;
  g_autoptr(GError) error = NULL;

  if (argc != 3)
    {
      fprintf (stderr, "usage: make-long-report HOURS FILE.json\n");
      return 2;
    }
  report = rp_synthetic_report_new (g_ascii_strtod (argv[1], NULL), 16);
  file = g_file_new_for_commandline_arg (argv[2]);
  if (!rp_report_save (report, file, "json", &error))
    {
      fprintf (stderr, "make-long-report: %s\n", error->message);
      return 1;
    }
  return 0;
}
