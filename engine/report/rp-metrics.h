/* rp-metrics.h: what `resprobe-cli monitor` exports: cumulative histograms and counters in Prometheus text. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

#include "rp-session.h"
#include "rp-sysinfo.h"

G_BEGIN_DECLS

/* The histograms' fixed upper bounds, seconds: 10^(k/4) from 10 µs to
 * 100 s, four a decade (1, 1.78, 3.16, 5.62 × 10^n). The same on every
 * machine, so that bucket counts add up across a fleet, and 0.1, 1 and 10 s,
 * the perception limits a stall is judged by, are bounds themselves. */
#define RP_METRICS_BUCKETS_PER_DECADE 4
#define RP_METRICS_FIRST_DECADE      (-5)
#define RP_METRICS_LAST_DECADE       2
#define RP_METRICS_N_BOUNDS          ((RP_METRICS_LAST_DECADE - RP_METRICS_FIRST_DECADE) * \
                                      RP_METRICS_BUCKETS_PER_DECADE + 1)

typedef struct _RpMetrics RpMetrics;

RpMetrics  *rp_metrics_new            (void);
void        rp_metrics_free           (RpMetrics       *self);
double      rp_metrics_get_bound      (guint            index);
guint       rp_metrics_bucket_of      (double           seconds);
void        rp_metrics_begin_session  (RpMetrics       *self,
                                       const char      *folder,
                                       const RpSysinfo *sysinfo);
void        rp_metrics_set_up         (RpMetrics       *self,
                                       const char      *folder,
                                       gboolean         up);
void        rp_metrics_harvest        (RpMetrics       *self,
                                       const char      *folder,
                                       RpSession       *session);
void        rp_metrics_add_period     (RpMetrics       *self);
guint64     rp_metrics_get_periods    (RpMetrics       *self);
char       *rp_metrics_to_text        (RpMetrics       *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpMetrics, rp_metrics_free)

G_END_DECLS
