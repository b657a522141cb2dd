/* rp-histogram.h: a fixed-size log-bucketed histogram for approximate percentiles. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The relative error bound α of a bucket's representative value (0.5 %):
 * below the rounding of the three significant digits the summary shows. */
#define RP_HISTOGRAM_RELATIVE_ERROR 0.005
/* Values at or under this (1 ns) are counted as zero: absolute error ≤ 1 ns. */
#define RP_HISTOGRAM_LOWEST 1e-9
/* Values over this (10⁶, 11.6 days in seconds) share one overflow bucket. */
#define RP_HISTOGRAM_HIGHEST 1e6

typedef struct _RpHistogram RpHistogram;

RpHistogram *rp_histogram_new            (void);
void         rp_histogram_free           (RpHistogram *self);
void         rp_histogram_add            (RpHistogram *self,
                                          double       value);
guint64      rp_histogram_get_count      (const RpHistogram *self);
double       rp_histogram_get_min        (const RpHistogram *self);
double       rp_histogram_get_max        (const RpHistogram *self);
double       rp_histogram_percentile     (const RpHistogram *self,
                                          double             fraction);
gsize        rp_histogram_get_n_buckets  (void);
gboolean     rp_histogram_next_bucket    (const RpHistogram *self,
                                          gsize             *index,
                                          guint64           *out_count);
gboolean     rp_histogram_add_bucket     (RpHistogram       *self,
                                          gsize              index,
                                          guint64            count,
                                          double             min,
                                          double             max);
double       rp_histogram_bucket_value   (const RpHistogram *self,
                                          gsize              index);
RpHistogram *rp_histogram_copy           (const RpHistogram *self);
gsize        rp_histogram_index_of       (double             value);
double       rp_histogram_index_value    (gsize              index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpHistogram, rp_histogram_free)

G_END_DECLS
