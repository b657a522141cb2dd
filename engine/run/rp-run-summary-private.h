/* rp-run-summary-private.h: what the judgement's files (rp-run-summary.c, rp-run-verdict.c) share. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-run-summary.h"

G_BEGIN_DECLS

/* What a stalled series is, in the words of the headline. */
typedef enum {
  RP_STALL_OTHER,
  RP_STALL_SAVING,
  RP_STALL_READING,
  RP_STALL_PROGRAMS,
  RP_STALL_WINDOW,
  RP_STALL_DESKTOP,
} RpStallKind;

gboolean     rp_run_summary_judged_with_samples (const RpRunSummary *self,
                                                 guint               i);
gboolean     rp_run_summary_cause_with_samples  (const RpRunSummary *self,
                                                 guint               i);
const char  *rp_run_summary_subject_of          (const RpSeriesInfo *info);
RpStallKind  rp_run_summary_stall_kind          (const RpSeriesInfo *info);

G_END_DECLS
