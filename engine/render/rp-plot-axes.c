/* rp-plot-axes.c: RpPlot's axes and grid: y (linear or decades), time, and a distribution's values. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "rp-plot-private.h"

#define MAX_TICKS   24

static guint
linear_ticks (RpPlot      *self,
              const Scale *scale,
              double      *ticks,
              double      *out_step)
{
  guint max_ticks = CLAMP ((guint) (self->area_h / 36), 2, 8);
  double magnitude = MAX (fabs (scale->lo), fabs (scale->hi));
  double step = rp_plot_display_step (rp_plot_y_unit (self), (scale->hi - scale->lo) / max_ticks,
                                      magnitude);
  guint n = 0;

  for (double v = ceil (scale->lo / step) * step; v <= scale->hi + step * 1e-6 && n < MAX_TICKS; v += step)
    ticks[n++] = fabs (v) < step * 1e-9 ? 0 : v;
  *out_step = step;
  return n;
}

/* The y grid and its labels: a line per decade on a log axis (every other
 * one when the chart is short), else round steps of the display unit. */
void
rp_plot_draw_y_axis (Draw *d)
{
  RpPlot *self = d->plot;
  const Scale *scale = &self->drawn_y;
  double ticks[MAX_TICKS], step = 0;
  guint n = 0;

  if (scale->log)
    {
      /* One tick per decade, or every other decade when the chart is short. */
      int every = (scale->hi - scale->lo) * 20 > self->area_h ? 2 : 1;
      int top = (int) floor (scale->hi + 1e-9);

      for (int k = (int) ceil (scale->lo - 1e-9); k <= top && n < MAX_TICKS; k++)
        if ((top - k) % every == 0)
          ticks[n++] = pow (10, k);
    }
  else
    {
      n = linear_ticks (self, scale, ticks, &step);
    }

  cairo_set_line_width (d->cr, 1);
  for (guint i = 0; i < n; i++)
    {
      double y = round (rp_plot_y_to_pixel (self, scale, ticks[i])) + 0.5;
      g_autofree char *label = NULL;

      set_source (d->cr, &d->style->grid, 1);
      cairo_move_to (d->cr, self->area_x, y);
      cairo_line_to (d->cr, self->area_x + self->area_w, y);
      cairo_stroke (d->cr);

      /* Without data the range is made up: a grid, but no numbers. */
      if (!self->has_data)
        continue;
      if (scale->log)
        label = rp_plot_format_tick (rp_plot_y_unit (self), ticks[i], ticks[i], ticks[i]);
      else
        label = rp_plot_format_tick (rp_plot_y_unit (self), ticks[i],
                                     MAX (fabs (scale->lo), fabs (scale->hi)), step);
      set_source (d->cr, &d->style->foreground, 0.7);
      rp_plot_show_text (d, label, self->area_x - TICK_GAP, y - self->line_height / 2, 1);
    }
}

/* The base line is stronger than the grid: it is where zero (or the floor
 * of a log axis) sits. */
static void
draw_base_line (Draw *d)
{
  RpPlot *self = d->plot;
  double base = self->area_y + self->area_h;

  set_source (d->cr, &d->style->foreground, 0.3);
  cairo_move_to (d->cr, self->area_x, round (base) + 0.5);
  cairo_line_to (d->cr, self->area_x + self->area_w, round (base) + 0.5);
  cairo_stroke (d->cr);
}

/* A label of the x axis centred under its tick, but never left of the
 * plot area: there, in the corner, the y axis's lowest label ends ("100 µs"
 * ran into "0 s"). */
static void
show_x_label (Draw       *d,
              const char *label,
              double      x,
              double      y)
{
  RpPlot *self = d->plot;
  double half = rp_plot_text_width (d, label) / 2;

  if (x - half < self->area_x)
    rp_plot_show_text (d, label, self->area_x, y, 0);
  else
    rp_plot_show_text (d, label, x, y, 0.5);
}

static void
draw_vertical_grid_line (Draw   *d,
                         double  x,
                         double  alpha)
{
  RpPlot *self = d->plot;

  set_source (d->cr, &d->style->grid, alpha);
  cairo_move_to (d->cr, round (x) + 0.5, self->area_y);
  cairo_line_to (d->cr, round (x) + 0.5, self->area_y + self->area_h);
  cairo_stroke (d->cr);
}

/* The value axis of a distribution: a labelled line per decade (every other
 * one when they crowd), fainter lines at 2 … 9 × 10^k where there is room. */
static void
draw_value_axis (Draw *d)
{
  RpPlot *self = d->plot;
  double base = self->area_y + self->area_h;
  double decade = self->area_w / MAX (self->drawn_t1 - self->drawn_t0, 1);
  int every = decade < self->time_label_width + LEGEND_GAP ? 2 : 1;
  int first = (int) ceil (self->drawn_t0 - 1e-9), last = (int) floor (self->drawn_t1 + 1e-9);

  cairo_set_line_width (d->cr, 1);
  for (int k = first; k <= last; k++)
    {
      double value = pow (10, k);
      double x = rp_plot_value_to_x (self, value);
      g_autofree char *label = NULL;

      draw_vertical_grid_line (d, x, 1);
      for (int m = 2; m <= 9 && k < last && decade >= 60; m++)
        draw_vertical_grid_line (d, rp_plot_value_to_x (self, m * value), 0.4);
      if ((last - k) % every != 0)
        continue;
      label = rp_plot_format_tick (self->unit, value, value, value);
      set_source (d->cr, &d->style->foreground, 0.7);
      show_x_label (d, label, round (x) + 0.5, base + TICK_GAP / 2);
    }
  draw_base_line (d);
}

/* The x grid and its labels: session time, or the values of a distribution. */
void
rp_plot_draw_x_axis (Draw *d)
{
  RpPlot *self = d->plot;
  double t0 = self->drawn_t0, t1 = self->drawn_t1;
  double label_width = self->time_label_width + 2 * LEGEND_GAP;
  double step = rp_plot_time_step ((t1 - t0) * label_width / MAX (self->area_w, 1));
  double base = self->area_y + self->area_h;
  double max_ticks;

  if (self->mode == RP_PLOT_CDF)
    {
      draw_value_axis (d);
      return;
    }

  cairo_set_line_width (d->cr, 1);
  /* t from the index, and never more ticks than labels fit: with a range
   * of 10^307 s (an edited report), t += step stopped moving t on. */
  max_ticks = MIN (1000, self->area_w / MAX (label_width, 1) + 2);
  for (double first = ceil (t0 / step - 1e-9) * step, t = first, i = 0;
       t <= t1 + step * 1e-6 && i < max_ticks; i++, t = first + i * step)
    {
      double x = round (self->area_x + (t - t0) / (t1 - t0) * self->area_w) + 0.5;
      /* Avoid "-0 s" where rounding lands just below zero. */
      g_autofree char *label = rp_plot_format_time (fabs (t) < step * 1e-6 ? 0 : t, step);

      set_source (d->cr, &d->style->grid, 1);
      cairo_move_to (d->cr, x, self->area_y);
      cairo_line_to (d->cr, x, base);
      cairo_stroke (d->cr);

      set_source (d->cr, &d->style->foreground, 0.7);
      show_x_label (d, label, x, base + TICK_GAP / 2);
    }
  draw_base_line (d);
}
