/* rp-rate-meter.c: turn a running byte count into periodic throughput samples. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-rate-meter.h"

/**
 * rp_rate_meter_init:
 * @meter: (out caller-allocates): the meter
 * @series: (transfer none): where bytes/s samples go (unit "B/s"); must outlive
 *   the meter
 * @period: seconds between samples, e.g. 0.5
 * @now: session time of the start, seconds
 */
void
rp_rate_meter_init (RpRateMeter *meter,
                    RpSeries    *series,
                    double       period,
                    double       now)
{
  g_return_if_fail (meter != NULL);
  g_return_if_fail (RP_IS_SERIES (series));
  g_return_if_fail (period > 0);

  meter->series = series;
  meter->period = period;
  meter->last_t = now;
  meter->last_bytes = 0;
  meter->bytes = 0;
}

/**
 * rp_rate_meter_flush:
 * @now: session time, seconds
 *
 * Appends the throughput since the last sample, at time @now, if any time passed.
 */
void
rp_rate_meter_flush (RpRateMeter *meter,
                     double       now)
{
  double dt = now - meter->last_t;

  if (dt <= 0)
    return;
  rp_series_append (meter->series, now, (double) (meter->bytes - meter->last_bytes) / dt);
  meter->last_t = now;
  meter->last_bytes = meter->bytes;
}

/**
 * rp_rate_meter_add:
 * @bytes: bytes just transferred
 * @now: session time, seconds
 *
 * Counts @bytes and appends a sample when a period has passed. A call that
 * stalled for several periods yields one sample with the mean over the stall,
 * which is what a user would have seen on a progress bar.
 *
 * Returns: %TRUE when a sample was appended
 */
gboolean
rp_rate_meter_add (RpRateMeter *meter,
                   guint64      bytes,
                   double       now)
{
  meter->bytes += bytes;
  if (now - meter->last_t < meter->period)
    return FALSE;
  rp_rate_meter_flush (meter, now);
  return TRUE;
}
