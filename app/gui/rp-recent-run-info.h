/* rp-recent-run-info.h: what a recent run's row says about it: when, what, on which storage, how it went. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <gio/gio.h>

#include "rp-run-summary.h"

G_BEGIN_DECLS

/**
 * RpRecentRunInfo:
 * @created: when the run started (the report's `created`), in UTC
 * @scenario: the scenario's id, e.g. "R1"
 * @storage: (nullable): the storage it measured, e.g. "ext3 data=ordered,
 *   scheduler none"; %NULL when the report knows none of it
 * @headline: the verdict's headline, translated ("Responsive", "Saving
 *   files stalled")
 * @severity: the response-time band of its worst delay
 * @stopped: stopped before the end its scenario asked for (Stop, Ctrl+C)
 * @failed: an error ended the run early
 * @command_failed: a command of its command load failed by itself (an exit
 *   status other than 0, or a signal the run's end did not send)
 *
 * A run as the list of recent runs shows it; immutable and shared
 * (rp_recent_run_info_ref()).
 */
typedef struct {
  GDateTime  *created;
  char       *scenario;
  char       *storage;
  const char *headline;
  RpSeverity  severity;
  gboolean    stopped;
  gboolean    failed;
  gboolean    command_failed;
} RpRecentRunInfo;

RpRecentRunInfo *rp_recent_run_info_read        (GFile                 *file,
                                                 GError               **error);
RpRecentRunInfo *rp_recent_run_info_peek        (GFile                 *file,
                                                 GFileInfo             *file_info);
RpRecentRunInfo *rp_recent_run_info_ref         (RpRecentRunInfo       *info);
void             rp_recent_run_info_unref       (RpRecentRunInfo       *info);
char            *rp_recent_run_info_format_time (const RpRecentRunInfo *info,
                                                 GDateTime             *now);
char            *rp_recent_run_info_describe    (const RpRecentRunInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpRecentRunInfo, rp_recent_run_info_unref)

G_END_DECLS
