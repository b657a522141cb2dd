/* rp-plot-spans.c: stalls drawn as spans from their start to their end, and calls in flight as growing bars. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-plot-private.h"

/* A stall of 9.85 s is one sample of fsync_latency: as a point joined to its
 * neighbours by slopes it reads as a ramp, and while the call has not
 * returned it is not there at all. A span over the time it lasted, in its
 * series' colour, says what happened: the call waited from here to there.
 * A call still in flight is drawn to "now" with a solid front edge. */

static void
span_free (gpointer data)
{
  RpPlotSpan *span = data;

  g_free (span->series);
  g_free (span->label);
}

/**
 * rp_plot_set_spans:
 * @spans: (array length=n_spans) (nullable): the stalls to draw; copied
 * @n_spans: how many
 *
 * Replaces the plot's spans. A span whose @series the plot does not show is
 * left out.
 */
void
rp_plot_set_spans (RpPlot           *self,
                   const RpPlotSpan *spans,
                   guint             n_spans)
{
  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (spans != NULL || n_spans == 0);

  if (self->spans == NULL)
    {
      self->spans = g_array_new (FALSE, FALSE, sizeof (RpPlotSpan));
      g_array_set_clear_func (self->spans, span_free);
    }
  g_array_set_size (self->spans, 0);
  for (guint i = 0; i < n_spans; i++)
    {
      RpPlotSpan copy = spans[i];

      copy.series = g_strdup (spans[i].series);
      copy.label = g_strdup (spans[i].label);
      g_array_append_val (self->spans, copy);
    }
}

/**
 * rp_plot_get_n_spans:
 *
 * Returns: how many spans rp_plot_set_spans() gave
 */
guint
rp_plot_get_n_spans (RpPlot *self)
{
  g_return_val_if_fail (RP_IS_PLOT (self), 0);
  return self->spans != NULL ? self->spans->len : 0;
}

static int
find_entry (RpPlot     *self,
            const char *name)
{
  for (guint i = 0; i < self->entries->len; i++)
    if (g_strcmp0 (((Entry *) g_ptr_array_index (self->entries, i))->name, name) == 0)
      return (int) i;
  return -1;
}

static double
time_to_x (RpPlot *self,
           double  t)
{
  double f = (t - self->drawn_t0) / (self->drawn_t1 - self->drawn_t0);

  return self->area_x + CLAMP (f, -0.01, 1.01) * self->area_w;
}

/**
 * rp_plot_set_gaps:
 * @bounds: (array length=n_gaps) (nullable): each gap's start then its
 *   end, seconds of the run; copied
 * @n_gaps: how many gaps (half the length of @bounds)
 *
 * The times when the measurement stood still (the process stopped: a
 * SIGSTOP, a suspended machine): no line joins two points across one, and
 * no bar or area reaches over it, so that a chart does not show values
 * where nothing was measured (issue 33). rp_plot_catalog_set_gaps() finds
 * them.
 */
void
rp_plot_set_gaps (RpPlot       *self,
                  const double *bounds,
                  guint         n_gaps)
{
  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (bounds != NULL || n_gaps == 0);

  if (self->gaps == NULL)
    self->gaps = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_set_size (self->gaps, 0);
  g_array_append_vals (self->gaps, bounds, 2 * n_gaps);
}

/* Whether a gap of the measurement lies between two drawn points (x,
 * pixels): they are not joined then. */
gboolean
rp_plot_gap_between (RpPlot *self,
                     double  x0,
                     double  x1)
{
  if (self->gaps == NULL || self->mode != RP_PLOT_TIMELINE || self->drawn_t1 <= self->drawn_t0)
    return FALSE;
  for (guint i = 0; i + 1 < self->gaps->len; i += 2)
    if (time_to_x (self, g_array_index (self->gaps, double, i)) < x1 &&
        time_to_x (self, g_array_index (self->gaps, double, i + 1)) > x0)
      return TRUE;
  return FALSE;
}

/**
 * rp_plot_set_baseline:
 * @seconds: the end of the run's baseline, seconds from its start (the
 *   system-wide samplers alone, before the loads; rp_report_get_baseline());
 *   0 for none
 *
 * Shades the baseline in time mode, so that what the system did before the
 * load reads as such.
 */
void
rp_plot_set_baseline (RpPlot *self,
                      double  seconds)
{
  g_return_if_fail (RP_IS_PLOT (self));

  self->baseline = isfinite (seconds) && seconds > 0 ? seconds : 0;
}

/* Called by rp_plot_draw_data() in time mode, inside its clip, under the
 * data: a grey band in the foreground colour, and a dashed edge where the
 * loads started. */
void
rp_plot_draw_baseline (RpPlot            *self,
                       cairo_t           *cr,
                       const RpPlotStyle *style)
{
  static const double dash[] = { 4, 3 };
  double x0, x1;

  if (self->baseline <= 0 || self->mode != RP_PLOT_TIMELINE || self->drawn_t1 <= self->drawn_t0 ||
      self->baseline <= self->drawn_t0)
    return;
  x0 = self->area_x;
  x1 = round (time_to_x (self, self->baseline));
  set_source (cr, &style->foreground, 0.07);
  cairo_rectangle (cr, x0, self->area_y, x1 - x0, self->area_h);
  cairo_fill (cr);
  cairo_save (cr);
  set_source (cr, &style->foreground, 0.45);
  cairo_set_line_width (cr, 1);
  cairo_set_dash (cr, dash, G_N_ELEMENTS (dash), 0);
  cairo_move_to (cr, x1 + 0.5, self->area_y);
  cairo_line_to (cr, x1 + 0.5, self->area_y + self->area_h);
  cairo_stroke (cr);
  cairo_restore (cr);
}

/* Called by rp_plot_draw_data() in time mode, inside its clip. */
void
rp_plot_draw_spans (RpPlot            *self,
                    cairo_t           *cr,
                    const RpPlotStyle *style)
{
  if (self->spans == NULL || self->mode != RP_PLOT_TIMELINE || self->drawn_t1 <= self->drawn_t0)
    return;
  for (guint i = 0; i < self->spans->len; i++)
    {
      const RpPlotSpan *span = &g_array_index (self->spans, RpPlotSpan, i);
      int index = find_entry (self, span->series);
      const RpRgba *color;
      double x0, x1;

      if (index < 0)
        continue;
      color = &style->palette[((Entry *) g_ptr_array_index (self->entries, index))->color];
      x0 = floor (time_to_x (self, span->start));
      x1 = MAX (ceil (time_to_x (self, span->end)), x0 + 2);
      set_source (cr, color, span->in_flight ? 0.28 : 0.16);
      cairo_rectangle (cr, x0, self->area_y, x1 - x0, self->area_h);
      cairo_fill (cr);
      /* A bar along the top: the span reads as one interval even where the
       * band is faint over a busy chart. */
      set_source (cr, color, 0.85);
      cairo_rectangle (cr, x0, self->area_y, x1 - x0, 3);
      cairo_fill (cr);
      if (span->in_flight)
        {
          cairo_rectangle (cr, x1 - 2, self->area_y, 2, self->area_h);
          cairo_fill (cr);
        }
    }
}

/**
 * rp_plot_span_between:
 * @entry: a series the plot draws as a line
 * @x0: the x of one drawn point, pixels
 * @x1: the x of the next one, pixels, > @x0
 *
 * Whether a stall of @entry's series lies between two of its points: the
 * line does not join them then, so that a 9.85 s fsync reads as the span
 * it lasted, not as a ramp down to the next sample.
 *
 * Returns: %TRUE when a span of the series overlaps (@x0, @x1)
 */
gboolean
rp_plot_span_between (RpPlot      *self,
                      const Entry *entry,
                      double       x0,
                      double       x1)
{
  if (self->spans == NULL || self->mode != RP_PLOT_TIMELINE || self->drawn_t1 <= self->drawn_t0)
    return FALSE;
  for (guint i = 0; i < self->spans->len; i++)
    {
      const RpPlotSpan *span = &g_array_index (self->spans, RpPlotSpan, i);

      /* Half a pixel: the point at a stall's start is the stall itself, and
       * the segment that leads up to it stays. */
      if (g_strcmp0 (span->series, entry->name) == 0 &&
          time_to_x (self, span->start) < x1 - 0.5 && time_to_x (self, span->end) > x0 + 0.5)
        return TRUE;
    }
  return FALSE;
}

/**
 * rp_plot_span_at:
 * @x: a pointer's x, pixels from the chart's left edge (as rp_plot_read_at())
 *
 * The stall under the pointer, for the chart's tooltip: hovering a span
 * shows its breakdown.
 *
 * Returns: (transfer none) (nullable): the label of the longest span of a
 *   series this chart shows under @x, %NULL for none
 */
const char *
rp_plot_span_at (RpPlot *self,
                 double  x)
{
  const RpPlotSpan *best = NULL;

  g_return_val_if_fail (RP_IS_PLOT (self), NULL);

  if (self->spans == NULL || !self->prepared || self->mode != RP_PLOT_TIMELINE ||
      self->drawn_t1 <= self->drawn_t0)
    return NULL;
  for (guint i = 0; i < self->spans->len; i++)
    {
      const RpPlotSpan *span = &g_array_index (self->spans, RpPlotSpan, i);
      double x0 = floor (time_to_x (self, span->start));
      double x1 = MAX (ceil (time_to_x (self, span->end)), x0 + 2);

      if (span->label != NULL && x >= x0 - 1 && x <= x1 + 1 && find_entry (self, span->series) >= 0 &&
          (best == NULL || span->end - span->start > best->end - best->start))
        best = span;
    }
  return best != NULL ? best->label : NULL;
}

/**
 * rp_plot_get_span_x:
 * @index: a span, below rp_plot_get_n_spans()
 * @x0: (out) (optional): its left edge, pixels from the chart's left edge
 *   (as rp_plot_span_at() takes them), where the last draw put it
 * @x1: (out) (optional): its right edge, likewise
 *
 * Where a stall is drawn, for stepping through a chart's stalls with the
 * keyboard (RpChartView: Left and Right on a focused chart).
 *
 * Returns: (transfer none) (nullable): its label (as rp_plot_span_at()
 *   gives it), %NULL when this chart does not show it: a series of another
 *   chart, no label, nothing drawn yet, or a distribution
 */
const char *
rp_plot_get_span_x (RpPlot *self,
                    guint   index,
                    double *x0,
                    double *x1)
{
  const RpPlotSpan *span;

  g_return_val_if_fail (RP_IS_PLOT (self), NULL);

  if (self->spans == NULL || index >= self->spans->len || !self->prepared ||
      self->mode != RP_PLOT_TIMELINE || self->drawn_t1 <= self->drawn_t0)
    return NULL;
  span = &g_array_index (self->spans, RpPlotSpan, index);
  if (span->label == NULL || find_entry (self, span->series) < 0)
    return NULL;
  /* As drawn (rp_plot_draw_spans()) and as rp_plot_span_at() finds it. */
  if (x0 != NULL)
    *x0 = floor (time_to_x (self, span->start));
  if (x1 != NULL)
    *x1 = MAX (ceil (time_to_x (self, span->end)), floor (time_to_x (self, span->start)) + 2);
  return span->label;
}

/* For rp_plot_get_data_hash(): a change of the spans redraws the strip. */
guint
rp_plot_hash_spans (RpPlot *self,
                    guint   hash)
{
  guint64 baseline_bits;

  memcpy (&baseline_bits, &self->baseline, sizeof baseline_bits);
  hash = (hash ^ (guint) baseline_bits ^ (guint) (baseline_bits >> 32)) * 16777619u;
  for (guint i = 0; self->spans != NULL && i < self->spans->len; i++)
    {
      const RpPlotSpan *span = &g_array_index (self->spans, RpPlotSpan, i);
      double parts[3] = { span->start, span->end, span->in_flight };

      for (guint k = 0; k < G_N_ELEMENTS (parts); k++)
        {
          guint64 bits;

          memcpy (&bits, &parts[k], sizeof bits);
          hash = (hash ^ (guint) bits ^ (guint) (bits >> 32)) * 16777619u;
        }
    }
  for (guint i = 0; self->gaps != NULL && i < self->gaps->len; i++)
    {
      guint64 bits;

      memcpy (&bits, &g_array_index (self->gaps, double, i), sizeof bits);
      hash = (hash ^ (guint) bits ^ (guint) (bits >> 32)) * 16777619u;
    }
  return hash;
}
