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

/* Room (pixels) kept free around a threshold label. */
#define LABEL_MARGIN 4

/* What a column of the label band holds (place_threshold_labels()). */
#define BAND_DATA  1
#define BAND_LABEL 2

static int
compare_thresholds_descending (gconstpointer a,
                               gconstpointer b)
{
  double va = (*(Threshold * const *) a)->value, vb = (*(Threshold * const *) b)->value;

  return va < vb ? 1 : va > vb ? -1 : 0;
}

static void
mark_columns (RpPlot *self,
              guint8 *band,
              double  from,
              double  to,
              guint8  what)
{
  gint first = (gint) MAX (floor (from), 0), end = (gint) MIN (ceil (to), self->n_columns);

  for (gint c = first; c < end; c++)
    band[c] |= what;
}

/* Marks in @band the columns where a line series passes between the values
 * @lo and @hi: a bar or a segment reaches from each filled column over the
 * values of the previous one, and a bar is two columns wide. Compared as
 * values, not pixels: no logarithm per column. Stacked areas never share a
 * chart with limit lines. */
static void
mark_data (RpPlot *self,
           guint8 *band,
           double  lo,
           double  hi)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      const RpColumn *columns = self->columns[i];
      gint previous = -1;

      if (columns == NULL || entry->mark != RP_PLOT_LINE)
        continue;
      for (guint c = 0; c < self->n_columns; c++)
        {
          double min = columns[c].min, max = columns[c].max;

          if (columns[c].n == 0)
            continue;
          if (previous >= 0)
            {
              min = MIN (min, columns[previous].min);
              max = MAX (max, columns[previous].max);
            }
          if (max >= lo && min <= hi)
            mark_columns (self, band, previous >= 0 ? (guint) previous : c, c + 2, BAND_DATA);
          previous = c;
        }
    }
}

/* What lies in the rows of a label of @threshold whose top is at @label_y:
 * data, and the labels placed before; marked once (band[n_columns] says
 * so). The line of another threshold, or a label on the same rows, takes
 * the whole band: two labels side by side would read as labels of one line. */
static const guint8 *
mark_band (RpPlot    *self,
           guint8    *band,
           double     label_y,
           Threshold *threshold,
           GPtrArray *placed)
{
  double top = label_y - LABEL_MARGIN, bottom = label_y + self->line_height + LABEL_MARGIN;

  if (band[self->n_columns])
    return band;
  memset (band, 0, self->n_columns);
  band[self->n_columns] = TRUE;
  mark_data (self, band, rp_plot_pixel_to_value (self, bottom), rp_plot_pixel_to_value (self, top));
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      Threshold *other = &g_array_index (self->thresholds, Threshold, i);
      double line = round (rp_plot_y_to_pixel (self, &self->drawn_y, other->value));

      if (other != threshold && line >= label_y - 1 && line <= label_y + self->line_height)
        mark_columns (self, band, 0, self->n_columns, BAND_LABEL);
    }
  for (guint i = 0; i < placed->len; i++)
    {
      Threshold *other = g_ptr_array_index (placed, i);
      double left = other->label_x - self->area_x - LABEL_MARGIN;

      if (other->label_y < label_y + self->line_height && other->label_y + self->line_height > label_y)
        mark_columns (self, band, 0, self->n_columns, BAND_LABEL);
      else if (other->label_y < bottom && other->label_y + self->line_height > top)
        mark_columns (self, band, left, left + other->label_width + 2 * LABEL_MARGIN, BAND_LABEL);
    }
  return band;
}

static gboolean
window_free (const guint8 *band,
             gint          left,
             gint          width,
             gint          end,
             guint8        what)
{
  if (left < 0 || left + width > end)
    return FALSE;
  for (gint c = left; c < left + width; c++)
    if (band[c] & what)
      return FALSE;
  return TRUE;
}

/* The left column of the rightmost run of @width columns before @end free
 * of @what. */
static gint
rightmost_free (const guint8 *band,
                gint          width,
                gint          end,
                guint8        what)
{
  gint run = 0;

  for (gint c = end; c-- > 0;)
    {
      run = band[c] & what ? 0 : run + 1;
      if (run == width)
        return c;
    }
  return -1;
}

/* Places the label of @threshold (label_shown: where it was) after those
 * in @placed, with @bands as scratch (two bands of n_columns + 1). Best
 * first: where it was, the rightmost place above or below the line free of
 * data, free of labels. */
static gboolean
place_label (RpPlot    *self,
             Threshold *threshold,
             guint8    *bands,
             GPtrArray *placed)
{
  static const guint8 avoid[] = { BAND_DATA | BAND_LABEL };
  double y = round (rp_plot_y_to_pixel (self, &self->drawn_y, threshold->value)) + 0.5;
  double label_y[2] = { y - self->line_height - 1, y + 2 };
  gint width = (gint) ceil (threshold->label_width) + 2 * LABEL_MARGIN;
  /* The label's right end at the right end of the plot, PAD inside. */
  gint end = MAX ((gint) self->n_columns - (gint) PAD + LABEL_MARGIN, 0);
  gint was_at = (gint) (threshold->label_x - self->area_x) - LABEL_MARGIN, left;
  guint8 *row[2] = { NULL, NULL };

  /* What lies in a band is marked when first needed: a label that stays
   * where it was only needs its own. */
  for (guint b = 0; b < 2; b++)
    if (label_y[b] >= self->area_y && label_y[b] + self->line_height <= self->area_y + self->area_h)
      {
        row[b] = bands + b * (self->n_columns + 1);
        row[b][self->n_columns] = FALSE;
      }

  for (guint b = 0; b < 2; b++)
    if (row[b] != NULL && threshold->label_shown && label_y[b] == threshold->label_y &&
        window_free (mark_band (self, row[b], label_y[b], threshold, placed), was_at, width, end,
                     BAND_DATA | BAND_LABEL))
      return TRUE;

  for (guint k = 0; k < G_N_ELEMENTS (avoid); k++)
    for (guint b = 0; b < 2; b++)
      {
        if (row[b] == NULL)
          continue;
        left = rightmost_free (mark_band (self, row[b], label_y[b], threshold, placed), width, end, avoid[k]);
        if (left >= 0)
          {
            threshold->label_x = self->area_x + left + LABEL_MARGIN;
            threshold->label_y = label_y[b];
            return TRUE;
          }
      }
  return FALSE;
}

/* Threshold labels go where the data is not, so that they stay readable
 * (the data layer is drawn over the frame): above the line, else below it;
 * at the right end, else as far right as there is room. Data is never
 * hidden for a label: one that fits nowhere is left out (the y axis names
 * the value anyway). A label keeps its place while that stays free, so that
 * it does not hop as a live run grows. */
static void
place_threshold_labels (RpPlot *self)
{
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();
  g_autoptr(GPtrArray) placed = g_ptr_array_new ();

  for (guint i = 0; i < self->thresholds->len; i++)
    g_ptr_array_add (sorted, &g_array_index (self->thresholds, Threshold, i));
  g_ptr_array_sort (sorted, compare_thresholds_descending);
  self->bands = grow (self->bands, &self->bands_size, 2 * (self->n_columns + 1), sizeof (guint8));

  for (guint i = 0; i < sorted->len; i++)
    {
      Threshold *threshold = g_ptr_array_index (sorted, i);

      threshold->label_shown = threshold->label != NULL && self->mode != RP_PLOT_CDF &&
                               place_label (self, threshold, self->bands, placed);
      if (threshold->label_shown)
        g_ptr_array_add (placed, threshold);
    }
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
  self->area_w = MAX (1, floor (width - self->area_x - PAD - self->time_label_width / 2));
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
