/* rp-significance.h: whether a difference between two sets of runs is more than noise. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The family-wise error rate a comparison accepts: a difference is called
 * significant when its Holm-adjusted p-value is below this. */
#define RP_SIGNIFICANCE_ALPHA 0.05

/* The confidence level of the intervals a comparison gives. */
#define RP_CONFIDENCE_LEVEL 0.95

/**
 * RpStatisticFunc:
 * @values: (array length=n_values): a sample, in no particular order
 * @n_values: how many, at least 1
 * @user_data: what the caller passed along
 *
 * A figure of a sample (its mean, its 99th percentile …) for the
 * bootstrap. It may reorder @values.
 *
 * Returns: the figure
 */
typedef double (*RpStatisticFunc) (double   *values,
                                   gsize     n_values,
                                   gpointer  user_data);

double   rp_mann_whitney_u   (const double    *a,
                              gsize            n_a,
                              const double    *b,
                              gsize            n_b,
                              double          *out_u,
                              double          *out_z);
double   rp_mann_whitney_u_sorted (const double *a,
                                   gsize         n_a,
                                   const double *b,
                                   gsize         n_b,
                                   double       *out_u,
                                   double       *out_z);
double   rp_mann_whitney_u_binary (guint64       k_a,
                                   guint64       n_a,
                                   guint64       k_b,
                                   guint64       n_b,
                                   double       *out_z);
void     rp_holm_adjust      (const double    *p_values,
                              gsize            n,
                              double          *out_adjusted);
gboolean rp_bootstrap_interval (const double  *values,
                                gsize          n_values,
                                RpStatisticFunc statistic,
                                gpointer       user_data,
                                guint          n_resamples,
                                double         level,
                                guint32        seed,
                                double        *out_low,
                                double        *out_high);
guint    rp_bootstrap_resamples (gsize         n_values);
void     rp_quantile_interval  (const double  *sorted,
                                gsize          n_values,
                                double         fraction,
                                double         level,
                                double        *out_low,
                                double        *out_high);
void     rp_max_interval       (const double  *sorted,
                                gsize          n_values,
                                double         level,
                                double        *out_low,
                                double        *out_high);
void     rp_count_interval     (guint64        count,
                                guint64        n,
                                double         level,
                                double        *out_low,
                                double        *out_high);
double   rp_normal_quantile    (double         probability);

G_END_DECLS
