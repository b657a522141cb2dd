/* rp-plot-hash.c: a hash of what RpPlot draws in a strip, so that a widget repaints only changes. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-plot-private.h"

static guint
hash_double (guint  hash,
             double value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  return (hash ^ (guint) bits ^ (guint) (bits >> 32)) * 16777619u;
}

static guint
hash_column (guint           hash,
             guint           index,
             const RpColumn *column)
{
  hash = (hash ^ index ^ (column->n << 16)) * 16777619u;
  hash = hash_double (hash, column->min);
  hash = hash_double (hash, column->max);
  return hash_double (hash, column->mean);
}

/**
 * rp_plot_get_data_hash:
 * @x0: left end of a strip of the chart, in its coordinates
 * @x1: right end
 *
 * A hash of everything rp_plot_draw_data() draws between @x0 and @x1 after
 * the last rp_plot_prepare(): the columns in the strip (and a few pixels
 * beyond, where dots and strokes reach) and, per series, the nearest filled
 * column on either side (lines and bars connect to them). A widget can keep
 * the rendering of a strip while its hash stays the same: new points only
 * change the strips at the right end, so that is all it needs to repaint.
 *
 * Returns: the hash (0 before any prepare)
 */
guint
rp_plot_get_data_hash (RpPlot *self,
                       double  x0,
                       double  x1)
{
  double scale;
  gint first, last;
  guint hash = 2166136261u;

  g_return_val_if_fail (RP_IS_PLOT (self), 0);

  if (!self->prepared || self->n_columns == 0)
    return 0;

  scale = self->n_columns / self->area_w;
  first = (gint) floor ((x0 - self->area_x - 2 * (DOT_RADIUS + LINE_WIDTH)) * scale);
  last = (gint) ceil ((x1 - self->area_x + 2 * (DOT_RADIUS + LINE_WIDTH)) * scale);
  first = CLAMP (first, 0, (gint) self->n_columns - 1);
  last = CLAMP (last, 0, (gint) self->n_columns - 1);

  for (guint i = 0; i < self->entries->len; i++)
    {
      const RpColumn *columns = self->columns[i];
      gboolean inside = FALSE;
      gint c, left, right;

      hash = (hash ^ i) * 16777619u;
      if (columns == NULL)
        continue;
      for (c = first; c <= last; c++)
        if (columns[c].n > 0)
          {
            hash = hash_column (hash, c, &columns[c]);
            inside = TRUE;
          }
      for (left = first - 1; left >= 0 && columns[left].n == 0; left--)
        ;
      for (right = last + 1; right < (gint) self->n_columns && columns[right].n == 0; right++)
        ;
      /* A neighbour matters only if something is drawn towards it: a strip
       * past the end of the data stays the same as the data grows. */
      if (left >= 0 && (inside || right < (gint) self->n_columns))
        hash = hash_column (hash, left, &columns[left]);
      if (right < (gint) self->n_columns && (inside || left >= 0))
        hash = hash_column (hash, right, &columns[right]);
    }
  /* The running stack of stacked areas depends on every stacked series: the
   * loop above covers them all. */
  hash = rp_plot_hash_spans (self, hash);
  return hash == 0 ? 1 : hash;
}
