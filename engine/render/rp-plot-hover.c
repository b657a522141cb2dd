/* rp-plot-hover.c: RpPlot under the pointer: the hover cursor and the readout for a tooltip. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "rp-plot-private.h"

/* How far (pixels) a hover looks sideways for the nearest sample. */
#define HOVER_REACH 24

/* Nearest non-empty column of @columns to @column, within HOVER_REACH or
 * half the mean spacing of the points, whichever is larger: a 1 Hz probe
 * answers anywhere between its dots, a dense one only near the pointer. */
static gint
nearest_column (const RpColumn *columns,
                guint           n_columns,
                guint           column)
{
  guint filled = 0, reach;

  for (guint c = 0; c < n_columns; c++)
    if (columns[c].n > 0)
      filled++;
  if (filled == 0)
    return -1;
  reach = MAX (HOVER_REACH, n_columns / filled / 2 + 1);

  for (guint distance = 0; distance <= reach; distance++)
    {
      if (column >= distance && columns[column - distance].n > 0)
        return column - distance;
      if (column + distance < n_columns && columns[column + distance].n > 0)
        return column + distance;
    }
  return -1;
}

static guint
hover_column (RpPlot *self,
              double  x,
              guint   n_columns)
{
  double f = (x - self->area_x) / self->area_w;

  return (guint) CLAMP (floor (f * n_columns), 0, n_columns - 1);
}

static void
draw_hover (Draw *d)
{
  RpPlot *self = d->plot;
  double x = self->hover_x;
  guint column;

  if (!self->has_data || x < self->area_x || x > self->area_x + self->area_w)
    return;

  column = hover_column (self, x, self->n_columns);
  set_source (d->cr, &d->style->foreground, 0.5);
  cairo_set_line_width (d->cr, 1);
  cairo_move_to (d->cr, round (x) + 0.5, self->area_y);
  cairo_line_to (d->cr, round (x) + 0.5, self->area_y + self->area_h);
  cairo_stroke (d->cr);

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      const RpColumn *columns = self->columns[i];
      gint c;

      if (columns == NULL || entry->mark != RP_PLOT_LINE)
        continue;
      c = nearest_column (columns, self->n_columns, column);
      if (c < 0)
        continue;
      cairo_arc (d->cr, rp_plot_column_x (self, c),
                 rp_plot_y_to_pixel (self, &self->drawn_y, columns[c].max),
                 DOT_RADIUS + 1.5, 0, 2 * G_PI);
      set_source (d->cr, &d->style->palette[entry->color], 1);
      cairo_fill_preserve (d->cr);
      set_source (d->cr, &d->style->foreground, 1);
      cairo_stroke (d->cr);
    }
}

/**
 * rp_plot_draw_hover:
 * @cr: where to draw, with (0, 0) at the chart's top-left corner
 * @style: (nullable): the style given to rp_plot_prepare()
 *
 * Draws the cursor line of rp_plot_set_hover() and marks the values under it,
 * over the data.
 */
void
rp_plot_draw_hover (RpPlot            *self,
                    cairo_t           *cr,
                    const RpPlotStyle *style)
{
  RpPlotStyle default_style;
  Draw d;

  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (cr != NULL);

  if (!rp_plot_draw_init (&d, self, cr, style, &default_style, TRUE))
    return;

  cairo_save (cr);
  draw_hover (&d);
  cairo_restore (cr);
}

/**
 * rp_plot_read_at:
 * @x: pointer x in the coordinates of the last rp_plot_draw()
 * @y: pointer y, likewise
 * @out_t: (out) (optional): the session time under @x; for %RP_PLOT_CDF the
 *   value under @x (the readouts are then shares at or below it)
 * @out_readouts: (element-type RpPlotReadout): cleared, then filled with one
 *   readout per series that has points near @x (stacked series: at @x)
 *
 * For a tooltip: what the user sees under the pointer, from the columns of the
 * last rp_plot_prepare() (no pass over the series).
 *
 * Returns: %FALSE when (@x, @y) is outside the plot area or nothing was prepared
 */
gboolean
rp_plot_read_at (RpPlot *self,
                 double  x,
                 double  y,
                 double *out_t,
                 GArray *out_readouts)
{
  guint column;

  g_return_val_if_fail (RP_IS_PLOT (self), FALSE);
  g_return_val_if_fail (out_readouts != NULL, FALSE);

  g_array_set_size (out_readouts, 0);
  if (!self->prepared || x < self->area_x || x > self->area_x + self->area_w ||
      y < self->area_y || y > self->area_y + self->area_h)
    return FALSE;

  if (out_t != NULL)
    *out_t = self->drawn_t0 + (x - self->area_x) / self->area_w * (self->drawn_t1 - self->drawn_t0);
  if (out_t != NULL && self->mode == RP_PLOT_CDF)
    *out_t = pow (10, *out_t);

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      RpPlotReadout readout;
      gint c;

      if (entry->columns == NULL || entry->n_columns == 0)
        continue;
      column = hover_column (self, x, entry->n_columns);
      c = nearest_column (entry->columns, entry->n_columns, column);
      if (c < 0)
        continue;
      readout = (RpPlotReadout) {
        entry->label, entry->color, entry->columns[c].n,
        entry->columns[c].min, entry->columns[c].max, entry->columns[c].mean,
      };
      g_array_append_val (out_readouts, readout);
    }
  return TRUE;
}
