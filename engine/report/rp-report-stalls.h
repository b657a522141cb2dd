/* rp-report-stalls.h: a report's stalls: what ran meanwhile, the dominant cause, text. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-report.h"
#include "rp-run-summary.h"
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
GPtrArray *rp_report_stall_meanwhile     (RpReport      *self,
                                          const RpStall *stall);
const char *rp_stall_call_name           (const char    *series);

/* rp-report-causes.c */
void       rp_stall_evidence_from        (RpSeriesLookupFunc  lookup,
                                          gpointer            owner,
                                          const RpSysinfo    *sysinfo,
                                          const RpStall      *stall,
                                          RpCauseEvidence    *out);
void       rp_report_stall_evidence      (RpReport           *self,
                                          const RpStall      *stall,
                                          RpCauseEvidence    *out);
GStrv      rp_stall_breakdown_lines      (const RpStall         *stall,
                                          const RpCauseEvidence *evidence,
                                          guint                  max_causes,
                                          gboolean               with_sites);
char      *rp_stall_breakdown_text       (const RpStall         *stall,
                                          const RpCauseEvidence *evidence,
                                          guint                  max_causes,
                                          gboolean               with_sites);
char      *rp_report_stall_breakdown_text (RpReport     *self,
                                          const RpStall *stall,
                                          guint          max_causes,
                                          gboolean       with_sites);
gboolean   rp_stalls_get_call_cause      (GPtrArray          *stalls,
                                          const char         *series,
                                          RpSeriesLookupFunc  lookup,
                                          gpointer            owner,
                                          const RpSysinfo    *sysinfo,
                                          RpCauseShare       *out,
                                          double             *out_sampled,
                                          guint              *out_count);
char      *rp_stalls_get_call_cause_short (GPtrArray         *stalls,
                                          const char         *series,
                                          RpSeriesLookupFunc  lookup,
                                          gpointer            owner,
                                          const RpSysinfo    *sysinfo);
char      *rp_report_get_cause_sentence  (RpReport           *self,
                                          const RpRunSummary *summary);
char      *rp_report_get_cause_cell      (RpReport           *self);
void       rp_report_set_row_causes      (RpReport           *self,
                                          RpRunSummary       *summary);
char      *rp_report_stalls_to_text      (RpReport      *self);
char      *rp_report_stalls_to_csv       (RpReport      *self);

G_END_DECLS
