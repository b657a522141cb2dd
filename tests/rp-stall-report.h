/* rp-stall-report.h: a report with fsync stalls put in, as another run's file has them, for the stall and Why tests. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * RpStallReportFlags:
 * @RP_STALL_REPORT_PLAIN: fsync has its two stalls' calls only
 * @RP_STALL_REPORT_CALM_CALLS: fsync's calm calls too, 4 ms every 0.5 s,
 *   as a chart draws them
 * @RP_STALL_REPORT_BUSY: a busier run besides: 3.9 GB of dirty memory
 *   throughout and a third fsync of 0.3 s at 16 s
 */
typedef enum {
  RP_STALL_REPORT_PLAIN      = 0,
  RP_STALL_REPORT_CALM_CALLS = 1 << 0,
  RP_STALL_REPORT_BUSY       = 1 << 1,
} RpStallReportFlags;

/* Two stalls of fsync, as the stall sampler records them: 9.85 s at 2 s
 * waiting for the ext3 journal commit, 0.5 s at 14 s for writeback. */
extern const char rp_stall_report_two_stalls[];

char *rp_stall_report_json  (const char         *stalls,
                             int                 version,
                             RpStallReportFlags  flags);
char *rp_stall_report_json_with (const char      *stalls,
                                 int              version,
                                 GPtrArray       *series);
char *rp_stall_report_write (const char         *stalls,
                             RpStallReportFlags  flags,
                             const char         *name_template);

G_END_DECLS
