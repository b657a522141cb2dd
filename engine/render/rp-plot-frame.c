/* rp-plot-frame.c: RpPlot's frame layer: background, title, legend, axes, thresholds, placeholder. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "rp-plot-private.h"

static void
draw_legend (Draw   *d,
             double  x,
             double  y)
{
  RpPlot *self = d->plot;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      const RpRgba *color = &d->style->palette[entry->color];
      double cy;

      if (!rp_plot_in_legend (self, entry))
        continue;
      if (rp_plot_legend_wraps (self, x, entry))
        {
          x = PAD;
          y += self->line_height + 2;
        }
      cy = y + self->line_height / 2;
      if (entry->mark == RP_PLOT_STACKED_AREA)
        {
          cairo_rectangle (d->cr, x, round (cy - SWATCH / 2), SWATCH, SWATCH);
          set_source (d->cr, color, 0.85);
          cairo_fill (d->cr);
        }
      else
        {
          cairo_rectangle (d->cr, x, round (cy) - 1, SWATCH, 2);
          set_source (d->cr, color, 1);
          cairo_fill (d->cr);
        }
      set_source (d->cr, &d->style->foreground, 1);
      rp_plot_show_text (d, entry->label, x + SWATCH + PAD, y, 0);
      x += SWATCH + PAD + entry->label_width + LEGEND_GAP;
    }
}

static void
draw_header (Draw *d)
{
  RpPlot *self = d->plot;

  if (self->title != NULL)
    {
      d->bold = TRUE;
      set_source (d->cr, &d->style->foreground, 1);
      rp_plot_show_text (d, self->title, PAD, PAD, 0);
      d->bold = FALSE;
    }
  if (self->entries->len == 0)
    return;
  if (self->legend_below)
    draw_legend (d, PAD, PAD + self->line_height + 2);
  else
    draw_legend (d, self->width - PAD - self->legend_width, PAD);
}

/* RP_PLOT_CDF: the thresholds are values, hence vertical lines, labelled
 * at the bottom right of the line, where the curves of slow runs rarely are
 * (they rise late and end high). */
static void
draw_value_thresholds (Draw *d)
{
  static const double dash[] = { 4, 3 };
  RpPlot *self = d->plot;
  double label_y = self->area_y + self->area_h - self->line_height - 2;

  cairo_save (d->cr);
  cairo_set_line_width (d->cr, 1);
  cairo_set_dash (d->cr, dash, G_N_ELEMENTS (dash), 0);
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      Threshold *threshold = &g_array_index (self->thresholds, Threshold, i);
      double x = round (rp_plot_value_to_x (self, threshold->value)) + 0.5;
      double width;

      /* A limit at the right end of the axis (1 s, often) is drawn too. */
      if (threshold->value <= 0 || x < self->area_x || x > self->area_x + self->area_w + 1)
        continue;
      set_source (d->cr, &d->style->threshold, 0.7);
      cairo_move_to (d->cr, x, self->area_y);
      cairo_line_to (d->cr, x, self->area_y + self->area_h);
      cairo_stroke (d->cr);
      if (threshold->label == NULL)
        continue;
      width = rp_plot_text_width (d, threshold->label);
      set_source (d->cr, &d->style->threshold, 1);
      if (x + 3 + width <= self->area_x + self->area_w)
        rp_plot_show_text (d, threshold->label, x + 3, label_y, 0);
      else
        rp_plot_show_text (d, threshold->label, x - 3, label_y, 1);
    }
  cairo_restore (d->cr);
}

/* Dashed lines at the thresholds, labelled where place_threshold_labels()
 * found room. */
static void
draw_thresholds (Draw *d)
{
  static const double dash[] = { 4, 3 };
  RpPlot *self = d->plot;

  /* Limits of nothing: an empty chart shows its placeholder alone (the
   * 0.1 s line crossed it out). */
  if (self->placeholder != NULL && !self->has_data)
    return;
  if (self->mode == RP_PLOT_CDF)
    {
      draw_value_thresholds (d);
      return;
    }

  cairo_save (d->cr);
  cairo_set_line_width (d->cr, 1);
  cairo_set_dash (d->cr, dash, G_N_ELEMENTS (dash), 0);
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      Threshold *threshold = &g_array_index (self->thresholds, Threshold, i);
      double y = round (rp_plot_y_to_pixel (self, &self->drawn_y, threshold->value)) + 0.5;

      set_source (d->cr, &d->style->threshold, 0.7);
      cairo_move_to (d->cr, self->area_x, y);
      cairo_line_to (d->cr, self->area_x + self->area_w, y);
      cairo_stroke (d->cr);

      if (!threshold->label_shown)
        continue;
      set_source (d->cr, &d->style->threshold, 1);
      rp_plot_show_text (d, threshold->label, threshold->label_x, threshold->label_y, 0);
    }
  cairo_restore (d->cr);
}

static void
draw_placeholder (Draw *d)
{
  RpPlot *self = d->plot;

  if (self->placeholder == NULL || self->has_data)
    return;
  set_source (d->cr, &d->style->foreground, 0.5);
  rp_plot_show_text (d, self->placeholder, self->area_x + self->area_w / 2,
                     self->area_y + (self->area_h - self->line_height) / 2, 0.5);
}

/**
 * rp_plot_draw_frame:
 * @cr: where to draw, with (0, 0) at the chart's top-left corner
 * @style: (nullable): the style given to rp_plot_prepare()
 *
 * Draws what does not move with the data: background, title, legend, axes,
 * grid, threshold lines, and the placeholder of an empty chart. Valid while
 * rp_plot_prepare() returns the same serial.
 */
void
rp_plot_draw_frame (RpPlot            *self,
                    cairo_t           *cr,
                    const RpPlotStyle *style)
{
  RpPlotStyle default_style;
  Draw d;

  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (cr != NULL);

  if (!rp_plot_draw_init (&d, self, cr, style, &default_style, FALSE))
    return;

  cairo_save (cr);
  if (d.style->background.alpha > 0)
    {
      set_source (cr, &d.style->background, 1);
      cairo_paint (cr);
    }
  rp_plot_update_text_cache (self, cr, d.style);
  draw_header (&d);
  rp_plot_draw_y_axis (&d);
  rp_plot_draw_x_axis (&d);
  draw_thresholds (&d);
  draw_placeholder (&d);
  cairo_restore (cr);
}
