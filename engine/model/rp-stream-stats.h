/* rp-stream-stats.h: statistics of a growing series, updated from its new samples only. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-series.h"
#include "rp-stats.h"

G_BEGIN_DECLS

typedef struct _RpStreamStats RpStreamStats;

RpStreamStats *rp_stream_stats_new    (void);
void           rp_stream_stats_free   (RpStreamStats  *self);
void           rp_stream_stats_add    (RpStreamStats  *self,
                                       const double   *values,
                                       gsize           n_values);
guint          rp_stream_stats_follow (RpStreamStats  *self,
                                       RpSeries       *series);
void           rp_stream_stats_get    (RpStreamStats  *self,
                                       RpStats        *out_stats);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpStreamStats, rp_stream_stats_free)

G_END_DECLS
