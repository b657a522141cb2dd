/* rp-time-histogram.h: a sparse histogram of every sample per 0.1 s of a run, merged over any window. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-histogram.h"

G_BEGIN_DECLS

/* Seconds of run time one histogram covers: the device latency series keep
 * the longest request of each 0.1 s (rp-trace-block.c), and a stall is a
 * call over 0.1 s, so a window is widened by at most this at each end. */
#define RP_TIME_HISTOGRAM_WIDTH 0.1
/* The relative error bound of a window's percentiles: four buckets of
 * rp-histogram's scheme stored as one (rp-time-histogram.c), (1 + α)·γ² − 1
 * with α = 0.5 %, rounded up: half of issue 31's 5 %. */
#define RP_TIME_HISTOGRAM_RELATIVE_ERROR 0.025

/**
 * RpTimeBucket:
 * @index: a stored bucket: rp_histogram_index_of() / 4 (four buckets of
 *   rp-histogram.c's scheme to one)
 * @count: samples in it
 */
typedef struct {
  gsize   index;
  guint64 count;
} RpTimeBucket;

typedef struct _RpTimeHistogram RpTimeHistogram;

RpTimeHistogram *rp_time_histogram_new        (void);
void             rp_time_histogram_free       (RpTimeHistogram *self);
RpTimeHistogram *rp_time_histogram_copy       (RpTimeHistogram *self);
void             rp_time_histogram_add        (RpTimeHistogram *self,
                                               double           t,
                                               double           value);
gboolean         rp_time_histogram_add_bucket (RpTimeHistogram *self,
                                               guint            slot,
                                               gsize            index,
                                               guint64          count);
guint64          rp_time_histogram_get_count  (RpTimeHistogram *self);
guint            rp_time_histogram_get_n_slots (RpTimeHistogram *self);
RpTimeBucket    *rp_time_histogram_copy_slot  (RpTimeHistogram *self,
                                               guint            slot,
                                               guint           *out_n);
RpHistogram     *rp_time_histogram_merge      (RpTimeHistogram *self,
                                               const double    *windows,
                                               guint            n_windows);
gsize            rp_time_histogram_get_memory (RpTimeHistogram *self);
gboolean         rp_time_histogram_add_covered (RpTimeHistogram *self,
                                                guint            first,
                                                guint            last);
GArray          *rp_time_histogram_get_ranges (RpTimeHistogram *self,
                                               const double    *windows,
                                               guint            n_windows);
gboolean         rp_time_histogram_covers     (RpTimeHistogram *self,
                                               const double    *windows,
                                               guint            n_windows);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpTimeHistogram, rp_time_histogram_free)

G_END_DECLS
