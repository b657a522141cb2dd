/* rp-plot-draw.c: RpPlot's data layer: lines (bars when dense, strokes when sparse), stacked areas. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "rp-plot-private.h"

/* Below this spacing (pixels) between filled columns a series is drawn as
 * pixel-aligned bars, one per column, from its minimum to its maximum: cairo
 * fills boxes an order of magnitude faster than it strokes a noisy polyline
 * (1 ms instead of 20 for four 540-column series), and at this density the
 * bars read as a line. Sparser series are stroked. */
#define BAR_SPACING 4.0

static guint
count_filled (RpPlot         *self,
              const RpColumn *columns)
{
  guint filled = 0;

  for (guint c = 0; c < self->n_columns; c++)
    if (columns[c].n > 0)
      filled++;
  return filled;
}

static double
column_left (RpPlot *self,
             guint   column)
{
  return self->area_x + floor (column * self->area_w / self->n_columns);
}

/* Whether the measurement stood still between columns @c and @next
 * (rp_plot_set_gaps()): nothing joins them then. */
static gboolean
gap_between_columns (RpPlot *self,
                     guint   c,
                     guint   next)
{
  return next < self->n_columns &&
         rp_plot_gap_between (self, rp_plot_column_x (self, c), rp_plot_column_x (self, next));
}

/* The pixel rows of @entry's columns (see Entry.rows), brought up to date. */
static const double *
entry_rows (RpPlot         *self,
            Entry          *entry,
            const RpColumn *columns)
{
  const Scale *scale = &self->drawn_y;

  if (entry->rows == NULL || entry->rows_n_columns != self->n_columns ||
      entry->rows_area_y != self->area_y || entry->rows_area_h != self->area_h ||
      entry->rows_scale.lo != scale->lo || entry->rows_scale.hi != scale->hi ||
      entry->rows_scale.log != scale->log)
    {
      g_free (entry->rows);
      entry->rows = g_new (double, 2 * self->n_columns);
      entry->rows_n_columns = self->n_columns;
      entry->rows_area_y = self->area_y;
      entry->rows_area_h = self->area_h;
      entry->rows_scale = *scale;
      entry->changed_from = 0;
    }
  for (guint c = entry->changed_from; c < self->n_columns; c++)
    if (columns[c].n > 0)
      {
        entry->rows[2 * c] = rp_plot_y_to_pixel (self, scale, columns[c].max);
        entry->rows[2 * c + 1] = rp_plot_y_to_pixel (self, scale, columns[c].min);
      }
  entry->changed_from = self->n_columns;
  return entry->rows;
}

/* Dense: one pixel-aligned box per filled column, from its maximum to its
 * minimum, stretched to meet the previous column's range (a jump becomes a
 * vertical bar, not a gap) and reaching right to the next filled column (a
 * missing column becomes a step, not a hole). All boxes go in one path. */
static void
line_bars (Draw           *d,
           Entry          *entry,
           const RpColumn *columns)
{
  RpPlot *self = d->plot;
  const double *rows = entry_rows (self, entry, columns);
  double previous_top = 0, previous_bottom = 0;
  gboolean have_previous = FALSE;
  guint c = 0;

  while (c < self->n_columns && columns[c].n == 0)
    c++;
  while (c < self->n_columns)
    {
      double top = rows[2 * c], bottom = rows[2 * c + 1];
      double x0 = column_left (self, c), x1, y0, y1;
      guint next = c + 1;

      while (next < self->n_columns && columns[next].n == 0)
        next++;
      /* Not across a gap: the column ends, and the next starts afresh. */
      x1 = next >= self->n_columns ? x0 + 1
         : gap_between_columns (self, c, next) ? column_left (self, c + 1) : column_left (self, next);

      /* Stretched to the previous column's own range, not its stretched one. */
      y0 = have_previous ? MIN (top, previous_bottom) : top;
      y1 = have_previous ? MAX (bottom, previous_top) : bottom;
      previous_top = top;
      previous_bottom = bottom;
      have_previous = !gap_between_columns (self, c, next);

      /* Two pixels tall at least, as thick as a stroked line. */
      y0 = floor (y0 - 0.5);
      y1 = MAX (y0 + 2, ceil (y1 + 0.5));
      /* Two pixels wide at least, so that a one-sample stall shows. */
      rp_plot_bars_add (d, x0, y0, MAX (x1 - x0, 2), y1 - y0);
      c = next;
    }
}

/* Sparse: a polyline through each column's minimum and maximum (the nearer
 * one first, so that the connecting segments do not cross the envelope),
 * broken where a stall's span lies between two points. */
static void
path_line_stroke (Draw           *d,
                  const Entry    *entry,
                  const RpColumn *columns)
{
  RpPlot *self = d->plot;
  gboolean started = FALSE;
  double previous_y = 0, previous_x = 0;

  for (guint c = 0; c < self->n_columns; c++)
    {
      double x = rp_plot_column_x (self, c);
      double y_min, y_max;

      if (columns[c].n == 0)
        continue;
      if (started && (rp_plot_gap_between (self, previous_x, x) ||
                      rp_plot_span_between (self, entry, previous_x, x)))
        {
          cairo_new_sub_path (d->cr);
          started = FALSE;
        }
      previous_x = x;
      y_min = rp_plot_y_to_pixel (self, &self->drawn_y, columns[c].min);
      y_max = rp_plot_y_to_pixel (self, &self->drawn_y, columns[c].max);
      if (!started || fabs (previous_y - y_min) <= fabs (previous_y - y_max))
        {
          cairo_line_to (d->cr, x, y_min);
          cairo_line_to (d->cr, x, y_max);
          previous_y = y_max;
        }
      else
        {
          cairo_line_to (d->cr, x, y_max);
          cairo_line_to (d->cr, x, y_min);
          previous_y = y_min;
        }
      started = TRUE;
    }
}

/* One path per series, filled or stroked once. Sparse series also get one
 * filled path of dots, so that a 1 Hz probe reads as samples. */
static void
draw_line (Draw           *d,
           Entry          *entry,
           const RpColumn *columns)
{
  RpPlot *self = d->plot;
  guint filled = count_filled (self, columns);
  double spacing = filled > 0 ? self->area_w / filled : 0;

  if (filled == 0)
    return;

  /* A distribution is a staircase: bars at every column, never dots. */
  if (spacing < BAR_SPACING || self->mode == RP_PLOT_CDF)
    {
      rp_plot_bars_begin (d, &d->style->palette[entry->color], 1);
      line_bars (d, entry, columns);
      rp_plot_bars_end (d);
      return;
    }

  rp_plot_vector_begin (d);
  set_source (d->cr, &d->style->palette[entry->color], 1);
  path_line_stroke (d, entry, columns);
  cairo_set_line_width (d->cr, LINE_WIDTH);
  cairo_set_line_join (d->cr, CAIRO_LINE_JOIN_BEVEL);
  cairo_stroke (d->cr);
  if (spacing < SPARSE_SPACING)
    return;
  for (guint c = 0; c < self->n_columns; c++)
    {
      if (columns[c].n == 0)
        continue;
      cairo_new_sub_path (d->cr);
      cairo_arc (d->cr, rp_plot_column_x (self, c),
                 rp_plot_y_to_pixel (self, &self->drawn_y, columns[c].max),
                 DOT_RADIUS, 0, 2 * G_PI);
    }
  cairo_fill (d->cr);
}

/* An area from the running stack (self->stack) up by this series' column
 * means. Dense: pixel-aligned boxes whose edges the next series shares
 * exactly (no seams); sparse: a polygon and its top edge. */
static void
stacked_bars (Draw           *d,
              const RpRgba   *color,
              const RpColumn *columns)
{
  RpPlot *self = d->plot;

  rp_plot_bars_begin (d, color, 0.8);
  for (guint c = 0; c < self->n_columns; c++)
    {
      guint next = c + 1;
      double x0, x1, top, bottom;

      if (columns[c].n == 0)
        continue;
      while (next < self->n_columns && columns[next].n == 0)
        next++;
      x0 = column_left (self, c);
      /* Not across a gap of the measurement (rp_plot_set_gaps()). */
      x1 = next >= self->n_columns ? x0 + 1
         : gap_between_columns (self, c, next) ? column_left (self, c + 1) : column_left (self, next);
      bottom = round (rp_plot_y_to_pixel (self, &self->drawn_y, self->stack[c]));
      self->stack[c] += columns[c].mean;
      top = round (rp_plot_y_to_pixel (self, &self->drawn_y, self->stack[c]));
      if (bottom > top)
        rp_plot_bars_add (d, x0, top, MAX (x1 - x0, 1), bottom - top);
    }
  rp_plot_bars_end (d);
}

/* One stretch of filled columns, @first to @last, with no gap between:
 * its polygon, then its top edge. */
static void
stacked_polygon (Draw           *d,
                 const RpRgba   *color,
                 const RpColumn *columns,
                 guint           first,
                 guint           last)
{
  RpPlot *self = d->plot;

  /* Top edge left to right, then the previous stack back right to left. */
  for (guint c = first; c <= last; c++)
    if (columns[c].n > 0)
      cairo_line_to (d->cr, rp_plot_column_x (self, c),
                     rp_plot_y_to_pixel (self, &self->drawn_y, self->stack[c] + columns[c].mean));
  for (guint c = last + 1; c-- > first;)
    if (columns[c].n > 0)
      cairo_line_to (d->cr, rp_plot_column_x (self, c),
                     rp_plot_y_to_pixel (self, &self->drawn_y, self->stack[c]));
  cairo_close_path (d->cr);
  set_source (d->cr, color, 0.75);
  cairo_fill (d->cr);

  for (guint c = first; c <= last; c++)
    if (columns[c].n > 0)
      {
        self->stack[c] += columns[c].mean;
        cairo_line_to (d->cr, rp_plot_column_x (self, c),
                       rp_plot_y_to_pixel (self, &self->drawn_y, self->stack[c]));
      }
  set_source (d->cr, color, 1);
  cairo_set_line_width (d->cr, 1);
  cairo_stroke (d->cr);
}

/* An area from the running stack (self->stack) up by this series' column
 * means. Dense: pixel-aligned boxes whose edges the next series shares
 * exactly (no seams); sparse: a polygon and its top edge per stretch
 * between gaps of the measurement. */
static void
draw_stacked (Draw           *d,
              Entry          *entry,
              const RpColumn *columns)
{
  RpPlot *self = d->plot;
  const RpRgba *color = &d->style->palette[entry->color];
  guint filled = count_filled (self, columns), first = 0, last = 0;
  gboolean started = FALSE;

  if (filled == 0)
    return;
  if (self->area_w / filled < BAR_SPACING)
    {
      stacked_bars (d, color, columns);
      return;
    }

  rp_plot_vector_begin (d);
  for (guint c = 0; c < self->n_columns; c++)
    {
      if (columns[c].n == 0)
        continue;
      if (started && gap_between_columns (self, last, c))
        {
          stacked_polygon (d, color, columns, first, last);
          started = FALSE;
        }
      if (!started)
        first = c;
      last = c;
      started = TRUE;
    }
  stacked_polygon (d, color, columns, first, last);
}

/**
 * rp_plot_draw_data:
 * @cr: where to draw, with (0, 0) at the chart's top-left corner
 * @style: (nullable): the style given to rp_plot_prepare()
 *
 * Draws the series of the last rp_plot_prepare() over the frame: areas first,
 * then lines, each series as one path, clipped to the plot area (and to any
 * clip already set on @cr, e.g. one strip of the chart).
 */
void
rp_plot_draw_data (RpPlot            *self,
                   cairo_t           *cr,
                   const RpPlotStyle *style)
{
  RpPlotStyle default_style;
  Draw d;

  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (cr != NULL);

  if (!rp_plot_draw_init (&d, self, cr, style, &default_style, TRUE))
    return;

  /* The plot area and a little more (bars are two pixels tall at least),
   * to whole pixels: an aligned clip costs cairo nothing. Without the
   * threshold labels, drawn in the frame below: where the data leaves them
   * no room, they still show, on the background. */
  cairo_save (cr);
  cairo_rectangle (cr, self->area_x, floor (self->area_y - 4), self->area_w,
                   ceil (self->area_y + self->area_h + 4) - floor (self->area_y - 4));
  cairo_clip (cr);
  cairo_new_path (cr);
  d.raster = rp_plot_raster_begin (self, cr);

  rp_plot_draw_baseline (self, cr, d.style);
  for (guint c = 0; c < self->n_columns; c++)
    self->stack[c] = 0;
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (self->columns[i] != NULL && entry->mark == RP_PLOT_STACKED_AREA)
        draw_stacked (&d, entry, self->columns[i]);
    }
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (self->columns[i] != NULL && entry->mark == RP_PLOT_LINE)
        draw_line (&d, entry, self->columns[i]);
    }
  if (d.raster != NULL)
    rp_plot_raster_end (self, d.raster, cr);
  rp_plot_draw_spans (self, cr, d.style);
  cairo_restore (cr);
}
