/* rp-series.h: an append-only, thread-safe time series of (t, value) points. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>

#include "rp-stats.h"

G_BEGIN_DECLS

/**
 * RpPoint:
 * @t: seconds since the start of the session
 * @v: the value, in the series' unit
 */
typedef struct {
  double t;
  double v;
} RpPoint;

/**
 * RpColumn:
 * @n: points that fell into this pixel column (0: the column is empty)
 * @min: smallest value in the column
 * @max: largest value in the column
 * @mean: mean of the column's values
 *
 * One pixel column of a decimated series (see rp_series_decimate()).
 */
typedef struct {
  guint  n;
  double min;
  double max;
  double mean;
} RpColumn;

/* rp-stream-stats.h: statistics of every sample a thinned series stands for. */
typedef struct _RpStreamStats RpStreamStats;
/* rp-time-histogram.h: the same samples per 0.1 s, for any window's figures. */
typedef struct _RpTimeHistogram RpTimeHistogram;

#define RP_TYPE_SERIES (rp_series_get_type ())
G_DECLARE_FINAL_TYPE (RpSeries, rp_series, RP, SERIES, GObject)

RpSeries   *rp_series_new          (const char *name,
                                    const char *unit,
                                    const char *title);
const char *rp_series_get_name     (RpSeries   *self);
const char *rp_series_get_unit     (RpSeries   *self);
const char *rp_series_get_title    (RpSeries   *self);
void        rp_series_append       (RpSeries   *self,
                                    double      t,
                                    double      v);
guint       rp_series_get_length   (RpSeries   *self);
guint       rp_series_get_dropped  (RpSeries   *self);
gboolean    rp_series_get_last     (RpSeries   *self,
                                    RpPoint    *out_point);
RpPoint    *rp_series_copy_points  (RpSeries   *self,
                                    guint       first,
                                    guint      *out_n_points);
double     *rp_series_copy_values  (RpSeries   *self,
                                    guint      *out_n_values);
gboolean    rp_series_get_bounds   (RpSeries   *self,
                                    double     *out_t_min,
                                    double     *out_t_max,
                                    double     *out_v_min,
                                    double     *out_v_max);
void        rp_series_compute_stats (RpSeries  *self,
                                    RpStats    *out_stats);
void        rp_series_set_full_stats (RpSeries      *self,
                                     RpStreamStats *stats);
RpStreamStats *rp_series_get_full_stats (RpSeries *self);
void        rp_series_set_window_histograms (RpSeries        *self,
                                             RpTimeHistogram *histograms);
RpTimeHistogram *rp_series_get_window_histograms (RpSeries *self);
gboolean    rp_series_stats_in_windows (RpSeries     *self,
                                        const double *windows,
                                        guint         n_windows,
                                        RpStats      *out_stats,
                                        gboolean     *out_every_sample);
void        rp_series_decimate     (RpSeries   *self,
                                    double      t_start,
                                    double      t_end,
                                    guint       n_columns,
                                    RpColumn   *out_columns);

G_END_DECLS
