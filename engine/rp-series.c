/* rp-series.c: an append-only, thread-safe time series of (t, value) points. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "rp-series.h"

struct _RpSeries
{
  GObject  parent_instance;

  char    *name;
  char    *unit;
  char    *title;

  /* Workers append while the main thread reads: every access to points takes
   * the lock, and readers get copies or aggregates, never the array itself. */
  GMutex   lock;
  GArray  *points;
};

G_DEFINE_FINAL_TYPE (RpSeries, rp_series, G_TYPE_OBJECT)

static void
rp_series_finalize (GObject *object)
{
  RpSeries *self = RP_SERIES (object);

  g_clear_pointer (&self->name, g_free);
  g_clear_pointer (&self->unit, g_free);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->points, g_array_unref);
  g_mutex_clear (&self->lock);

  G_OBJECT_CLASS (rp_series_parent_class)->finalize (object);
}

static void
rp_series_class_init (RpSeriesClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = rp_series_finalize;
}

static void
rp_series_init (RpSeries *self)
{
  g_mutex_init (&self->lock);
  self->points = g_array_new (FALSE, FALSE, sizeof (RpPoint));
}

/**
 * rp_series_new:
 * @name: stable identifier, as used in reports, e.g. "fsync_latency"
 * @unit: "s", "B", "B/s", "ratio" (0..1), "ops/s", …
 * @title: (nullable): human-readable, translated title; defaults to @name
 *
 * Returns: (transfer full): an empty series
 */
RpSeries *
rp_series_new (const char *name,
               const char *unit,
               const char *title)
{
  RpSeries *self;

  g_return_val_if_fail (name != NULL, NULL);
  g_return_val_if_fail (unit != NULL, NULL);

  self = g_object_new (RP_TYPE_SERIES, NULL);
  self->name = g_strdup (name);
  self->unit = g_strdup (unit);
  self->title = g_strdup (title ? title : name);
  return self;
}

const char *
rp_series_get_name (RpSeries *self)
{
  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  return self->name;
}

const char *
rp_series_get_unit (RpSeries *self)
{
  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  return self->unit;
}

const char *
rp_series_get_title (RpSeries *self)
{
  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  return self->title;
}

/**
 * rp_series_append:
 * @t: seconds since the session started; callers append in time order
 * @v: the value in the series' unit; non-finite values are dropped
 *
 * Safe from any thread.
 */
void
rp_series_append (RpSeries *self,
                  double    t,
                  double    v)
{
  RpPoint point = { t, v };

  g_return_if_fail (RP_IS_SERIES (self));

  if (!isfinite (t) || !isfinite (v))
    return;

  g_mutex_lock (&self->lock);
  g_array_append_val (self->points, point);
  g_mutex_unlock (&self->lock);
}

guint
rp_series_get_length (RpSeries *self)
{
  guint n;

  g_return_val_if_fail (RP_IS_SERIES (self), 0);

  g_mutex_lock (&self->lock);
  n = self->points->len;
  g_mutex_unlock (&self->lock);
  return n;
}

/**
 * rp_series_get_last:
 * @out_point: (out): the newest point
 *
 * Returns: %FALSE when the series is empty
 */
gboolean
rp_series_get_last (RpSeries *self,
                    RpPoint  *out_point)
{
  gboolean found;

  g_return_val_if_fail (RP_IS_SERIES (self), FALSE);
  g_return_val_if_fail (out_point != NULL, FALSE);

  g_mutex_lock (&self->lock);
  found = self->points->len > 0;
  if (found)
    *out_point = g_array_index (self->points, RpPoint, self->points->len - 1);
  g_mutex_unlock (&self->lock);
  return found;
}

/**
 * rp_series_copy_points:
 * @first: index of the first point to copy (points before it are skipped, so a
 *   caller can fetch only what is new since its last look)
 * @out_n_points: (out): how many were copied
 *
 * Returns: (transfer full) (array length=out_n_points) (nullable): a copy, or
 *   %NULL when there is nothing from @first on; free with g_free()
 */
RpPoint *
rp_series_copy_points (RpSeries *self,
                       guint     first,
                       guint    *out_n_points)
{
  RpPoint *copy = NULL;
  guint n = 0;

  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  g_return_val_if_fail (out_n_points != NULL, NULL);

  g_mutex_lock (&self->lock);
  if (first < self->points->len)
    {
      n = self->points->len - first;
      copy = g_memdup2 (&g_array_index (self->points, RpPoint, first), n * sizeof (RpPoint));
    }
  g_mutex_unlock (&self->lock);

  *out_n_points = n;
  return copy;
}

/**
 * rp_series_copy_values:
 * @out_n_values: (out): how many
 *
 * Returns: (transfer full) (array length=out_n_values) (nullable): the values
 *   without their times, for statistics; free with g_free()
 */
double *
rp_series_copy_values (RpSeries *self,
                       guint    *out_n_values)
{
  double *values = NULL;
  guint n;

  g_return_val_if_fail (RP_IS_SERIES (self), NULL);
  g_return_val_if_fail (out_n_values != NULL, NULL);

  g_mutex_lock (&self->lock);
  n = self->points->len;
  if (n > 0)
    {
      values = g_new (double, n);
      for (guint i = 0; i < n; i++)
        values[i] = g_array_index (self->points, RpPoint, i).v;
    }
  g_mutex_unlock (&self->lock);

  *out_n_values = n;
  return values;
}

/**
 * rp_series_get_bounds:
 * @out_t_min: (out) (optional): first time
 * @out_t_max: (out) (optional): last time
 * @out_v_min: (out) (optional): smallest value
 * @out_v_max: (out) (optional): largest value
 *
 * One pass over the series under its lock.
 *
 * Returns: %FALSE (and leaves the outputs alone) when the series is empty
 */
gboolean
rp_series_get_bounds (RpSeries *self,
                      double   *out_t_min,
                      double   *out_t_max,
                      double   *out_v_min,
                      double   *out_v_max)
{
  double v_min = INFINITY, v_max = -INFINITY;
  const RpPoint *points;
  guint n;

  g_return_val_if_fail (RP_IS_SERIES (self), FALSE);

  g_mutex_lock (&self->lock);
  n = self->points->len;
  points = (const RpPoint *) (gpointer) self->points->data;
  for (guint i = 0; i < n; i++)
    {
      v_min = MIN (v_min, points[i].v);
      v_max = MAX (v_max, points[i].v);
    }
  if (n > 0)
    {
      if (out_t_min)
        *out_t_min = points[0].t;
      if (out_t_max)
        *out_t_max = points[n - 1].t;
      if (out_v_min)
        *out_v_min = v_min;
      if (out_v_max)
        *out_v_max = v_max;
    }
  g_mutex_unlock (&self->lock);

  return n > 0;
}

/**
 * rp_series_compute_stats:
 * @out_stats: (out caller-allocates): statistics of all values (see #RpStats)
 */
void
rp_series_compute_stats (RpSeries *self,
                         RpStats  *out_stats)
{
  g_autofree double *values = NULL;
  guint n = 0;

  g_return_if_fail (RP_IS_SERIES (self));

  values = rp_series_copy_values (self, &n);
  rp_stats_compute (values, n, out_stats);
}

/* First index whose t is >= @t; points are in time order. */
static guint
lower_bound (const RpPoint *points,
             guint          n,
             double         t)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (points[mid].t < t)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/**
 * rp_series_decimate:
 * @t_start: time at the left edge of column 0, seconds
 * @t_end: time at the right edge of the last column (> @t_start)
 * @n_columns: number of pixel columns
 * @out_columns: (out caller-allocates) (array length=n_columns): per column,
 *   the count, min, max and mean of the points whose t falls into it
 *
 * Reduces the series to what a plot @n_columns pixels wide can show, so drawing
 * cost follows the width of the widget, not the length of the run. Costs one
 * binary search plus one pass over the points inside [@t_start, @t_end].
 */
void
rp_series_decimate (RpSeries *self,
                    double    t_start,
                    double    t_end,
                    guint     n_columns,
                    RpColumn *out_columns)
{
  const RpPoint *points;
  double scale;
  guint n, i;

  g_return_if_fail (RP_IS_SERIES (self));
  g_return_if_fail (out_columns != NULL || n_columns == 0);

  for (guint c = 0; c < n_columns; c++)
    out_columns[c] = (RpColumn) { 0, 0, 0, 0 };
  if (n_columns == 0 || !(t_end > t_start))
    return;

  scale = n_columns / (t_end - t_start);

  g_mutex_lock (&self->lock);
  points = (const RpPoint *) (gpointer) self->points->data;
  n = self->points->len;
  for (i = lower_bound (points, n, t_start); i < n && points[i].t <= t_end; i++)
    {
      guint c = MIN ((guint) ((points[i].t - t_start) * scale), n_columns - 1);
      RpColumn *col = &out_columns[c];
      double v = points[i].v;

      if (col->n == 0)
        {
          col->min = col->max = col->mean = v;
        }
      else
        {
          col->min = MIN (col->min, v);
          col->max = MAX (col->max, v);
          col->mean += v;
        }
      col->n++;
    }
  g_mutex_unlock (&self->lock);

  for (guint c = 0; c < n_columns; c++)
    if (out_columns[c].n > 1)
      out_columns[c].mean /= out_columns[c].n;
}
