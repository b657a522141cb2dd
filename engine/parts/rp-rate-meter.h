/* rp-rate-meter.h: a running byte count turned into throughput samples. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-series.h"

G_BEGIN_DECLS

/**
 * RpRateMeter:
 *
 * Turns a running byte count into throughput samples (bytes/s) every @period
 * seconds, appended to @series. Owned by one worker thread; not locked.
 */
typedef struct {
  RpSeries *series;
  double    period;
  double    last_t;
  guint64   last_bytes;
  guint64   bytes;
} RpRateMeter;

void      rp_rate_meter_init  (RpRateMeter *meter,
                               RpSeries    *series,
                               double       period,
                               double       now);
gboolean  rp_rate_meter_add   (RpRateMeter *meter,
                               guint64      bytes,
                               double       now);
void      rp_rate_meter_flush (RpRateMeter *meter,
                               double       now);

G_END_DECLS
