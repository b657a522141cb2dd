/* rp-plot-layout.c: rp_plot_prepare(): where the legend, the plot area and the threshold labels go. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-plot-private.h"

/* @buffer, or a new one in its place when it has room for fewer than @n
 * elements of @element_size bytes (@size: its room, updated). Contents are
 * not kept. The buffers of prepare outlive the frame, so that a frame of
 * the same size allocates nothing. */
static gpointer
grow (gpointer  buffer,
      guint    *size,
      guint     n,
      gsize     element_size)
{
  if (*size >= n)
    return buffer;
  g_free (buffer);
  *size = n;
  return g_malloc_n (n, element_size);
}

/* Gap (pixels) between the end of a threshold's line and its label. */
#define LABEL_GAP 4

static int
compare_thresholds_descending (gconstpointer a,
                               gconstpointer b)
{
  double va = (*(Threshold * const *) a)->value, vb = (*(Threshold * const *) b)->value;

  return va < vb ? 1 : va > vb ? -1 : 0;
}

/* Width of the margin right of the plot area that holds the threshold
 * labels: the widest label and its gap; 0 without labels (and for a
 * distribution, whose limits are vertical lines labelled at their foot). */
static double
threshold_margin (RpPlot *self)
{
  double widest = 0;

  if (self->mode == RP_PLOT_CDF)
    return 0;
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      Threshold *threshold = &g_array_index (self->thresholds, Threshold, i);

      if (threshold->label != NULL)
        widest = MAX (widest, ceil (threshold->label_width));
    }
  return widest > 0 ? widest + LABEL_GAP : 0;
}

/* Threshold labels go in a margin of their own right of the plot area, at
 * the end of their line, as an axis's labels: data is never under them, no
 * label has to give way to data that arrived (a live run's points fill the
 * area), and a resize cannot strand one mid-chart. Labels of lines closer
 * than a line of text are pushed down (highest value first); one pushed
 * past the area's bottom, or whose line is outside the y range, is left
 * out (the y axis names the value anyway). */
static void
place_threshold_labels (RpPlot *self)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  double next_free = -G_MAXDOUBLE;

  for (guint i = 0; i < self->thresholds->len; i++)
    g_ptr_array_add (sorted, &g_array_index (self->thresholds, Threshold, i));
  g_ptr_array_sort (sorted, compare_thresholds_descending);

  for (guint i = 0; i < sorted->len; i++)
    {
      Threshold *threshold = g_ptr_array_index (sorted, i);
      double line = round (rp_plot_y_to_pixel (self, &self->drawn_y, threshold->value)) + 0.5;
      /* Centred on its line, but not into the time axis's labels. */
      double lowest = self->area_y + self->area_h + 2 - self->line_height;
      double top = MAX (MIN (line - self->line_height / 2, lowest), next_free);

      threshold->label_x = self->area_x + self->area_w + LABEL_GAP;
      threshold->label_y = MAX (top, self->area_y - self->line_height / 2);
      threshold->label_shown = threshold->label != NULL && self->mode != RP_PLOT_CDF &&
                               line >= self->area_y - 0.5 && line <= self->area_y + self->area_h + 0.5 &&
                               threshold->label_y <= lowest + 0.5;
      if (threshold->label_shown)
        next_free = threshold->label_y + self->line_height;
    }
}

/**
 * rp_plot_get_threshold_label:
 * @index: 0 .. number of thresholds added − 1, in the order of
 *   rp_plot_add_threshold()
 * @out_x: (out) (optional): left edge of the label's box, device units from
 *   the chart's left edge
 * @out_y: (out) (optional): top edge
 * @out_width: (out) (optional): width
 * @out_height: (out) (optional): height (a line of text)
 *
 * Where the last rp_plot_prepare() put a threshold's label, for tests and
 * for whoever draws over a chart: the box of its text.
 *
 * Returns: %FALSE when the label is not shown (none, no room, nothing
 *   prepared, or @index out of range)
 */
gboolean
rp_plot_get_threshold_label (RpPlot *self,
                             guint   index,
                             double *out_x,
                             double *out_y,
                             double *out_width,
                             double *out_height)
{
  const Threshold *threshold;

  g_return_val_if_fail (RP_IS_PLOT (self), FALSE);

  if (!self->prepared || index >= self->thresholds->len)
    return FALSE;
  threshold = &g_array_index (self->thresholds, Threshold, index);
  if (!threshold->label_shown)
    return FALSE;
  if (out_x)
    *out_x = threshold->label_x;
  if (out_y)
    *out_y = threshold->label_y;
  if (out_width)
    *out_width = threshold->label_width;
  if (out_height)
    *out_height = self->line_height;
  return TRUE;
}

/* For the frame key: where the labels are. */
static guint
hash_labels (RpPlot *self)
{
  guint hash = 0;

  for (guint i = 0; i < self->thresholds->len; i++)
    {
      Threshold *threshold = &g_array_index (self->thresholds, Threshold, i);

      hash = hash * 31 + (threshold->label_shown ?
                          ((guint) threshold->label_x << 16 ^ (guint) threshold->label_y) + 1 : 0);
    }
  return hash;
}

static void
update_frame_serial (RpPlot            *self,
                     const RpPlotStyle *style)
{
  FrameKey key;

  memset (&key, 0, sizeof key);
  key.width = self->width;
  key.height = self->height;
  key.t0 = self->drawn_t0;
  key.t1 = self->drawn_t1;
  key.y = self->drawn_y;
  key.has_data = self->has_data;
  key.labels = hash_labels (self);
  key.colors[0] = style->foreground;
  key.colors[1] = style->grid;
  key.colors[2] = style->background;
  key.colors[3] = style->threshold;
  memcpy (&key.colors[4], style->palette, sizeof style->palette);

  if (self->frame_dirty || memcmp (&key, &self->frame_key, sizeof key) != 0)
    {
      self->frame_key = key;
      self->frame_serial++;
      self->frame_dirty = FALSE;
    }
}

/* Where the next legend item goes: on this line, or at the start of the
 * next when it would cross the right edge (only below the title). */
gboolean
rp_plot_legend_wraps (RpPlot *self,
                      double  x,
                      Entry  *entry)
{
  return self->legend_below && x > PAD &&
         x + SWATCH + PAD + entry->label_width > self->width - PAD;
}

/* Lines of the legend below the title, as draw_legend() wraps it. */
static guint
legend_line_count (RpPlot *self)
{
  double x = PAD;
  guint lines = 1;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (!rp_plot_in_legend (self, entry))
        continue;
      if (rp_plot_legend_wraps (self, x, entry))
        {
          lines++;
          x = PAD;
        }
      x += SWATCH + PAD + entry->label_width + LEGEND_GAP;
    }
  return lines;
}

/**
 * rp_plot_prepare:
 * @width: width of the chart in device units
 * @height: height
 * @style: (nullable): colours and font; %NULL: rp_plot_style_init_default() light
 *
 * Lays the chart out, decimates each bound series to one column per device
 * unit with rp_series_decimate() (cached: only points added since the last
 * call are read) and chooses the y scale. Call it before
 * rp_plot_draw_frame() and rp_plot_draw_data(); rp_plot_draw() does all three.
 *
 * Returns: the frame serial: it changes whenever the frame layer (title,
 *   legend, axes, grid, thresholds) would look different, so that a caller may
 *   keep a rendering of the frame and draw only the data over it
 */
guint
rp_plot_prepare (RpPlot            *self,
                 double             width,
                 double             height,
                 const RpPlotStyle *style)
{
  RpPlotStyle default_style;
  double header;

  g_return_val_if_fail (RP_IS_PLOT (self), 0);

  style = rp_plot_style_or_default (style, &default_style);

  self->prepared = FALSE;
  if (width < 60 || height < 60)
    return self->frame_serial;

  rp_plot_measure_texts (self, style);
  self->width = width;
  self->height = height;

  /* Title and legend on one line when both fit, else the legend below,
   * wrapped (a comparison of eight runs has long labels). */
  self->legend_below = self->entries->len > 0 &&
    PAD + self->title_width + 3 * LEGEND_GAP + self->legend_width > width - PAD;
  self->legend_lines = self->legend_below ? legend_line_count (self) : 0;
  header = PAD + self->line_height * (1 + self->legend_lines) + 2 * self->legend_lines;

  self->area_x = PAD + self->gutter_width + TICK_GAP;
  self->area_y = header + PAD + self->line_height / 2;
  /* Right of the area: half the last time label, or the threshold labels. */
  self->area_w = MAX (1, floor (width - self->area_x - PAD -
                                MAX (self->time_label_width / 2, threshold_margin (self))));
  self->area_h = MAX (1, height - self->area_y - PAD - self->line_height - TICK_GAP / 2);

  /* A distribution keeps its x range, in decades, where a timeline keeps
   * its time range. */
  if (self->mode == RP_PLOT_CDF)
    rp_plot_cdf_range (self, &self->drawn_t0, &self->drawn_t1);
  else
    rp_plot_data_time_range (self, &self->drawn_t0, &self->drawn_t1);
  self->n_columns = (guint) self->area_w;
  /* Every slot is filled below, and rp_plot_compute_y_scale() clears the
   * stack: neither needs zeroing. */
  self->columns = grow (self->columns, &self->columns_size, MAX (1, self->entries->len),
                        sizeof (const RpColumn *));
  self->stack = grow (self->stack, &self->stack_size, self->n_columns, sizeof (double));
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (self->mode == RP_PLOT_CDF)
        self->columns[i] = rp_plot_entry_cdf (entry, self->drawn_t0, self->drawn_t1, self->n_columns);
      else
        self->columns[i] = rp_plot_entry_decimate (entry, self->drawn_t0, self->drawn_t1, self->n_columns);
    }

  self->has_data = FALSE;
  self->drawn_y = rp_plot_compute_y_scale (self);
  place_threshold_labels (self);
  self->prepared = TRUE;
  update_frame_serial (self, style);
  return self->frame_serial;
}

/**
 * rp_plot_get_area:
 * @out_x: (out) (optional): left edge of the plot area (inside the axes)
 * @out_y: (out) (optional): top edge
 * @out_width: (out) (optional): width
 * @out_height: (out) (optional): height
 *
 * The plot area of the last rp_plot_prepare().
 *
 * Returns: %FALSE when nothing was prepared (the chart is too small)
 */
gboolean
rp_plot_get_area (RpPlot *self,
                  double *out_x,
                  double *out_y,
                  double *out_width,
                  double *out_height)
{
  g_return_val_if_fail (RP_IS_PLOT (self), FALSE);

  if (out_x)
    *out_x = self->area_x;
  if (out_y)
    *out_y = self->area_y;
  if (out_width)
    *out_width = self->area_w;
  if (out_height)
    *out_height = self->area_h;
  return self->prepared;
}
