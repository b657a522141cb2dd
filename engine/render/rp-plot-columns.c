/* rp-plot-columns.c: what RpPlot draws of a series: pixel columns of a timeline or a distribution. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "rp-plot-private.h"

/* The columns of @entry's series over [@t0, @t1], from its cache: only the
 * columns from the one of the last cached point on are decimated again. */
const RpColumn *
rp_plot_entry_decimate (Entry  *entry,
                        double  t0,
                        double  t1,
                        guint   n_columns)
{
  RpPoint last;
  guint length, first = 0;

  if (entry->series == NULL)
    return NULL;

  /* Read the last point before the length: if a worker appends in between, the
   * cached last time is older than what we decimate, which is safe (the next
   * update starts from an earlier column and recomputes it whole). */
  if (!rp_series_get_last (entry->series, &last))
    last.t = t0;
  length = rp_series_get_length (entry->series);

  if (entry->n_columns != n_columns || entry->cache_t0 != t0 ||
      entry->cache_t1 != t1 || length < entry->cache_length)
    {
      g_free (entry->columns);
      entry->columns = g_new0 (RpColumn, n_columns);
      entry->n_columns = n_columns;
      entry->cache_t0 = t0;
      entry->cache_t1 = t1;
      entry->cache_length = 0;
    }
  else if (length == entry->cache_length)
    {
      return entry->columns;
    }
  else
    {
      double position = (entry->cache_last_t - t0) / (t1 - t0) * n_columns;

      first = (guint) CLAMP (floor (position), 0, n_columns - 1);
    }
  entry->changed_from = MIN (entry->changed_from, first);

  rp_series_decimate (entry->series,
                      t0 + (t1 - t0) * first / n_columns, t1,
                      n_columns - first, entry->columns + first);
  entry->cache_length = length;
  entry->cache_last_t = last.t;
  return entry->columns;
}

/* The time range of a timeline: the one set, else the data's (0 to 60 s
 * when there is none: %FALSE). */
gboolean
rp_plot_data_time_range (RpPlot *self,
                         double *out_t0,
                         double *out_t1)
{
  double t0 = INFINITY, t1 = -INFINITY;

  if (self->t_end > self->t_start)
    {
      *out_t0 = self->t_start;
      *out_t1 = self->t_end;
      return TRUE;
    }

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      double a, b;

      if (entry->series != NULL && rp_series_get_bounds (entry->series, &a, &b, NULL, NULL))
        {
          t0 = MIN (t0, a);
          t1 = MAX (t1, b);
        }
    }
  if (!isfinite (t0))
    {
      *out_t0 = 0;
      *out_t1 = 60;
      return FALSE;
    }
  if (t1 - t0 < 1e-6)
    t1 = t0 + 1;
  *out_t0 = t0;
  *out_t1 = t1;
  return TRUE;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

/* The finite values of the entry's series, sorted; sorted again only when
 * the series has grown. */
static gboolean
entry_sort (Entry *entry)
{
  guint n = 0, kept = 0;

  if (entry->series == NULL)
    return FALSE;
  if (entry->sorted != NULL && rp_series_get_length (entry->series) == entry->sorted_length)
    return entry->n_sorted > 0;

  g_free (entry->sorted);
  entry->sorted = rp_series_copy_values (entry->series, &n);
  for (guint i = 0; i < n; i++)
    if (isfinite (entry->sorted[i]))
      entry->sorted[kept++] = entry->sorted[i];
  if (kept > 0)
    qsort (entry->sorted, kept, sizeof (double), compare_doubles);
  entry->n_sorted = kept;
  entry->sorted_length = n;
  return kept > 0;
}

/* How many of @n sorted values are at most @x. */
static guint
count_at_most (const double *sorted,
               guint         n,
               double        x)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (sorted[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The x axis of a distribution, in decades (log10 of the values): from the
 * smallest positive value to the largest of all series and thresholds, whole
 * decades, at least two and at most six (below that is the resolution of
 * the clock, and it would squash the part that matters). */
void
rp_plot_cdf_range (RpPlot *self,
                   double *out_lo,
                   double *out_hi)
{
  double lo = INFINITY, hi = -INFINITY;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      guint first;

      if (!entry_sort (entry))
        continue;
      first = count_at_most (entry->sorted, entry->n_sorted, 0);
      if (first < entry->n_sorted)
        {
          lo = MIN (lo, entry->sorted[first]);
          hi = MAX (hi, entry->sorted[entry->n_sorted - 1]);
        }
    }
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      double value = g_array_index (self->thresholds, Threshold, i).value;

      if (value > 0)
        {
          lo = MIN (lo, value);
          hi = MAX (hi, value);
        }
    }
  if (!isfinite (lo))
    {
      lo = g_strcmp0 (self->unit, "s") == 0 ? 1e-3 : 1;
      hi = lo * 1000;
    }
  *out_hi = ceil (log10 (hi) - 1e-9);
  *out_lo = floor (log10 (lo) + 1e-9);
  *out_lo = MAX (*out_lo, *out_hi - 6);
  if (*out_hi - *out_lo < 2)
    *out_lo = *out_hi - 2;
}

/* One column per pixel of the log axis [10^lo, 10^hi]: the share of values
 * at most its left edge (min) and its right edge (max, mean), so that the
 * bars of draw_line() draw the steps of the curve. Columns before the first
 * sample and after the last stay empty: each curve runs from its smallest
 * value (rising from 0) to its largest (reaching 1). */
const RpColumn *
rp_plot_entry_cdf (Entry  *entry,
                   double  lo,
                   double  hi,
                   guint   n_columns)
{
  guint n, k;
  double share;

  if (!entry_sort (entry))
    return NULL;
  n = entry->n_sorted;
  if (entry->columns != NULL && entry->n_columns == n_columns && entry->cache_t0 == lo &&
      entry->cache_t1 == hi && entry->cache_length == n)
    return entry->columns;

  g_free (entry->columns);
  entry->columns = g_new0 (RpColumn, n_columns);
  entry->n_columns = n_columns;
  entry->cache_t0 = lo;
  entry->cache_t1 = hi;
  entry->cache_length = n;
  entry->changed_from = 0;

  k = count_at_most (entry->sorted, n, pow (10, lo));
  share = (double) k / n;
  for (guint c = 0; c < n_columns; c++)
    {
      double right = pow (10, lo + (hi - lo) * (c + 1) / n_columns);
      guint k_left = k;
      double share_right;

      while (k < n && entry->sorted[k] <= right)
        k++;
      share_right = (double) k / n;
      if (share_right > 0 && share < 1)
        entry->columns[c] = (RpColumn) { MAX (1, k - k_left), share, share_right, share_right };
      share = share_right;
    }
  return entry->columns;
}
