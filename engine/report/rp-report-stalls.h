/* rp-report-stalls.h: a report's stalls: what ran meanwhile, the dominant cause, text. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-report.h"
#include "rp-stall.h"

G_BEGIN_DECLS

/**
 * RpSeriesLookupFunc:
 * @owner: what holds the series: a report or a session
 * @name: a series name, e.g. "journal_commit"
 *
 * Returns: (transfer none) (nullable): the series, %NULL when @owner has none
 */
typedef RpSeries *(*RpSeriesLookupFunc) (gpointer    owner,
                                         const char *name);

GPtrArray *rp_stall_meanwhile_from       (RpSeriesLookupFunc  lookup,
                                          gpointer            owner,
                                          const RpStall      *stall);
GPtrArray *rp_report_get_stalls          (RpReport      *self);
char      *rp_report_get_stall_cause     (RpReport      *self);
char      *rp_report_get_cause_cell      (RpReport      *self);
GPtrArray *rp_report_stall_meanwhile     (RpReport      *self,
                                          const RpStall *stall);
char      *rp_report_stall_breakdown_text (const RpStall *stall,
                                          guint          max_sites);
const char *rp_stall_call_name           (const char    *series);
char      *rp_report_stalls_to_text      (RpReport      *self);
char      *rp_report_stalls_to_csv       (RpReport      *self);

G_END_DECLS
