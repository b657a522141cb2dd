/* rp-stream-stats.h: statistics of a growing series, updated from its new samples only. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-histogram.h"
#include "rp-series.h"
#include "rp-stats.h"

G_BEGIN_DECLS

/**
 * RpStreamMoments:
 * @n: values added (finite ones)
 * @min: the smallest, exactly (0 when @n is 0)
 * @max: the largest, exactly
 * @mean: their running mean (Welford)
 * @m2: Σ (x − mean)², Welford's running sum
 * @over_instant: values over %RP_LIMIT_INSTANT (0.1 s), exactly
 * @over_flow: values over %RP_LIMIT_FLOW (1 s)
 * @over_attention: values over %RP_LIMIT_ATTENTION (10 s)
 *
 * What #RpStreamStats keeps besides its histogram: the state a report saves
 * to give the same statistics back (docs/REPORT-FORMAT.md, `full_statistics`).
 */
typedef struct {
  guint64 n;
  double  min, max, mean, m2;
  guint64 over_instant, over_flow, over_attention;
} RpStreamMoments;

RpStreamStats *rp_stream_stats_new    (void);
void           rp_stream_stats_free   (RpStreamStats  *self);
void           rp_stream_stats_add    (RpStreamStats  *self,
                                       const double   *values,
                                       gsize           n_values);
guint          rp_stream_stats_follow (RpStreamStats  *self,
                                       RpSeries       *series);
void           rp_stream_stats_get    (RpStreamStats  *self,
                                       RpStats        *out_stats);
RpStreamStats *rp_stream_stats_copy   (RpStreamStats  *self);
void           rp_stream_stats_get_moments (RpStreamStats   *self,
                                            RpStreamMoments *out_moments);
RpHistogram   *rp_stream_stats_copy_histogram (RpStreamStats *self);
RpStreamStats *rp_stream_stats_new_restored (const RpStreamMoments *moments,
                                             RpHistogram           *histogram);
double        *rp_stream_stats_copy_sorted_values (RpStreamStats *self,
                                                   gsize         *out_n);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpStreamStats, rp_stream_stats_free)

G_END_DECLS
