/* rp-plot-raster.c: RpPlot's own rasteriser: dense bars as pixel spans in a layer on image targets. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>
#include <string.h>

#include "rp-plot-private.h"

/* Dense series are pixel-aligned boxes: one per filled column. Cairo 1.16
 * sends a path of several boxes through its Bentley-Ottmann tessellator
 * (some 1 500 instructions a box, 5 000 boxes a frame for the window's
 * chart of four latencies) although such boxes need no geometry at all. So
 * on raster targets the boxes become spans of pixel columns, written by hand
 * into a layer (an ARGB32 image of the plot area) that one cairo fill
 * composites. Vector targets (PDF, SVG) keep the boxes: exports stay vectors.
 *
 * The pixels are premultiplied and blended as pixman blends, so that the
 * layer gives the pixels that filling the boxes gave. Boxes of one series
 * may share a pixel column (a bar is two pixels wide at least): the column
 * is held back (pending_*) until it is complete, so that it is blended once,
 * as the union that a fill paints. The spans of a batch of series are then
 * written last series first, each under what is there: rows that a later
 * opaque span covered (covered[], per column) are skipped, so that four
 * overlapping latency series cost little more than one. */
typedef struct {
  int     x;
  int     y0;
  int     y1;
  guint32 color;
} Span;

struct _Raster {
  cairo_surface_t *surface;
  guint32         *pixels;
  int              stride;      /* in pixels */
  int              x;           /* the layer's top-left corner, user units */
  int              y;
  int              width;
  int              height;
  gboolean         keep;        /* becomes RpPlot.layer afterwards */
  guint32          color;       /* of the series being added, premultiplied */
  int              pending_x;   /* -1: none; layer columns from here on */
  int              pending_y0;
  int              pending_y1;
  Span            *spans;       /* the batch, in drawing order */
  guint            n_spans;
  guint            spans_size;
  int             *covered;     /* per column: rows [y0, y1) already opaque */
  int              dirty_x0;    /* what the batch wrote */
  int              dirty_x1;
  int              dirty_y0;
  int              dirty_y1;
};

/* Whether what is drawn on @target ends up as pixels. GTK records the
 * cairo nodes of widgets on recording surfaces the size of the node, and
 * always rasterises them. An unbounded recording surface is the kind that
 * is measured first and replayed anywhere, an SVG included
 * (rp-report-export.c): vectors. */
static gboolean
target_is_raster (cairo_surface_t *target)
{
  cairo_rectangle_t extents;

  switch ((int) cairo_surface_get_type (target))
    {
    case CAIRO_SURFACE_TYPE_IMAGE:
      return TRUE;
    case CAIRO_SURFACE_TYPE_RECORDING:
      return cairo_recording_surface_get_extents (target, &extents);
    default:
      return FALSE;
    }
}

/* Whether @cr maps user units to whole device pixels (integer scale, no
 * rotation, whole-pixel offset) onto a raster target with OVER: then
 * writing the boxes by hand gives what filling them gives, at the screen's
 * scale too. */
static gboolean
raster_applies (RpPlot  *self,
                cairo_t *cr)
{
  cairo_matrix_t m;

  if (self->force_vector || cairo_get_operator (cr) != CAIRO_OPERATOR_OVER ||
      !target_is_raster (cairo_get_target (cr)))
    return FALSE;
  cairo_get_matrix (cr, &m);
  return m.xy == 0 && m.yx == 0 && m.xx == m.yy && m.xx >= 1 && m.xx == floor (m.xx) &&
         m.x0 == floor (m.x0) && m.y0 == floor (m.y0) && self->area_x == floor (self->area_x);
}

/* A raster over the columns and rows of @cr's clip, which
 * rp_plot_draw_data() aligned to whole pixels, or %NULL when @cr needs the
 * vector path; rp_plot_raster_end() frees it. The surface comes with the
 * first batch. */
Raster *
rp_plot_raster_begin (RpPlot  *self,
                      cairo_t *cr)
{
  double x1, y1, x2, y2;
  Raster *r;

  if (!raster_applies (self, cr))
    return NULL;
  cairo_clip_extents (cr, &x1, &y1, &x2, &y2);
  r = g_new0 (Raster, 1);
  r->x = (int) floor (x1);
  r->y = (int) floor (y1);
  r->width = MAX ((int) ceil (x2) - r->x, 0);
  r->height = MAX ((int) ceil (y2) - r->y, 0);
  /* An image target reads the layer at once: it can be cleared and kept.
   * A recording surface keeps what it was given. */
  r->keep = cairo_surface_get_type (cairo_get_target (cr)) == CAIRO_SURFACE_TYPE_IMAGE;
  r->pending_x = -1;
  /* A span per column and series is typical: four series, no growing. */
  r->spans_size = 4 * MAX (r->width, 1);
  r->spans = g_new (Span, r->spans_size);
  r->covered = g_new (int, 2 * MAX (r->width, 1));
  return r;
}

static gboolean
raster_ensure_surface (RpPlot *self,
                       Raster *r)
{
  if (r->surface != NULL)
    return TRUE;
  if (r->keep && self->layer != NULL &&
      cairo_image_surface_get_width (self->layer) == r->width &&
      cairo_image_surface_get_height (self->layer) == r->height)
    r->surface = g_steal_pointer (&self->layer);
  else
    r->surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, r->width, r->height);
  if (cairo_surface_status (r->surface) != CAIRO_STATUS_SUCCESS)
    {
      g_clear_pointer (&r->surface, cairo_surface_destroy);
      return FALSE;
    }
  /* Before writing: cairo may hold a snapshot of the pixels. */
  cairo_surface_flush (r->surface);
  r->pixels = (guint32 *) (gpointer) cairo_image_surface_get_data (r->surface);
  r->stride = cairo_image_surface_get_stride (r->surface) / 4;
  return TRUE;
}

/* @color premultiplied as cairo does for a solid source (16 bits, then the
 * top 8): an opaque colour gives the pixels that a fill gives. */
static void
raster_set_color (Raster       *r,
                  const RpRgba *rgba,
                  double        alpha)
{
  double a = CLAMP (rgba->alpha * alpha, 0, 1);
  guint red = (guint) (CLAMP (rgba->red, 0, 1) * a * 65535.0 + 0.5) >> 8;
  guint green = (guint) (CLAMP (rgba->green, 0, 1) * a * 65535.0 + 0.5) >> 8;
  guint blue = (guint) (CLAMP (rgba->blue, 0, 1) * a * 65535.0 + 0.5) >> 8;
  guint opacity = (guint) (a * 65535.0 + 0.5) >> 8;

  r->color = (guint32) opacity << 24 | red << 16 | green << 8 | blue;
}

/* @top OVER @below, premultiplied, rounded as pixman rounds. */
static inline guint32
over (guint32 top,
      guint32 below)
{
  guint inverse_alpha = 255 - (top >> 24);
  guint32 rb = (below & 0xff00ff) * inverse_alpha + 0x800080;
  guint32 ag = ((below >> 8) & 0xff00ff) * inverse_alpha + 0x800080;

  rb = ((rb + ((rb >> 8) & 0xff00ff)) >> 8) & 0xff00ff;
  ag = (ag + ((ag >> 8) & 0xff00ff)) & 0xff00ff00;
  return top + (rb | ag);
}

/* Rows @y0 to @y1 (exclusive) of the layer's column @x, under what is there. */
static void
raster_write_under (Raster  *r,
                    int      x,
                    int      y0,
                    int      y1,
                    guint32  color)
{
  /* Locals: a store through a guint32 pointer could change r->stride. */
  gsize stride = r->stride;
  guint32 *p = r->pixels + y0 * stride + x;

  if (y0 >= y1)
    return;
  for (int y = y0; y < y1; y++, p += stride)
    *p = *p == 0 ? color : over (*p, color);
  r->dirty_x0 = MIN (r->dirty_x0, x);
  r->dirty_x1 = MAX (r->dirty_x1, x + 1);
  r->dirty_y0 = MIN (r->dirty_y0, y0);
  r->dirty_y1 = MAX (r->dirty_y1, y1);
}

/* One span, under the spans of later series: the rows above and below what
 * they made opaque. An opaque span extends that, while it stays one run. */
static void
raster_write_span (Raster     *r,
                   const Span *span)
{
  int *covered = r->covered + 2 * span->x;

  if (covered[0] >= covered[1])
    {
      raster_write_under (r, span->x, span->y0, span->y1, span->color);
    }
  else
    {
      raster_write_under (r, span->x, span->y0, MIN (span->y1, covered[0]), span->color);
      raster_write_under (r, span->x, MAX (span->y0, covered[1]), span->y1, span->color);
    }

  if (span->color >> 24 == 255)
    {
      int c0 = covered[0], c1 = covered[1];
      gboolean empty = c0 >= c1;
      gboolean joins = !empty && span->y0 <= c1 && span->y1 >= c0;

      if (joins)
        covered[0] = MIN (c0, span->y0), covered[1] = MAX (c1, span->y1);
      else if (empty || span->y1 - span->y0 > c1 - c0)
        covered[0] = span->y0, covered[1] = span->y1;
    }
}

static void
raster_write_pending (Raster *r)
{
  Span span = { r->pending_x, MAX (r->pending_y0, 0), MIN (r->pending_y1, r->height), r->color };

  if (r->pending_x >= 0 && r->pending_x < r->width && span.y0 < span.y1)
    {
      if (r->n_spans == r->spans_size)
        r->spans = g_renew (Span, r->spans, r->spans_size *= 2);
      r->spans[r->n_spans++] = span;
    }
  r->pending_x = -1;
}

/* A pixel-aligned box of the current series, in user units (whole
 * numbers: line_bars() and draw_stacked() round them). */
static void
raster_add_box (Raster *r,
                double  x,
                double  y,
                double  width,
                double  height)
{
  int x0 = (int) x - r->x, x1 = (int) (x + width) - r->x;
  int y0 = (int) y - r->y, y1 = (int) (y + height) - r->y;

  for (int column = MAX (x0, 0); column < MIN (x1, r->width); column++)
    {
      /* Overlapping or touching the pending part of this column: one span. */
      if (column == r->pending_x && y0 <= r->pending_y1 && y1 >= r->pending_y0)
        {
          r->pending_y0 = MIN (r->pending_y0, y0);
          r->pending_y1 = MAX (r->pending_y1, y1);
          continue;
        }
      raster_write_pending (r);
      r->pending_x = column;
      r->pending_y0 = y0;
      r->pending_y1 = y1;
    }
}

/* Writes the batch into the layer, composites it, and clears it: the next
 * batch, or the next frame, start from a transparent layer. */
static void
raster_flush (RpPlot  *self,
              Raster  *r,
              cairo_t *cr)
{
  raster_write_pending (r);
  if (r->n_spans == 0 || !raster_ensure_surface (self, r))
    {
      r->n_spans = 0;
      return;
    }

  for (int x = 0; x < r->width; x++)
    r->covered[2 * x] = r->covered[2 * x + 1] = 0;
  r->dirty_x0 = r->dirty_y0 = G_MAXINT;
  r->dirty_x1 = r->dirty_y1 = G_MININT;
  for (guint i = r->n_spans; i-- > 0;)
    raster_write_span (r, &r->spans[i]);
  r->n_spans = 0;

  cairo_surface_mark_dirty (r->surface);
  cairo_save (cr);
  cairo_set_source_surface (cr, r->surface, r->x, r->y);
  /* Whole pixels when GTK replays the recording at a scale of 2. */
  cairo_pattern_set_filter (cairo_get_source (cr), CAIRO_FILTER_NEAREST);
  cairo_rectangle (cr, r->x + r->dirty_x0, r->y + r->dirty_y0,
                   r->dirty_x1 - r->dirty_x0, r->dirty_y1 - r->dirty_y0);
  cairo_fill (cr);
  cairo_restore (cr);

  if (r->keep)
    {
      for (int y = r->dirty_y0; y < r->dirty_y1; y++)
        memset (r->pixels + (gsize) y * r->stride + r->dirty_x0, 0,
                (gsize) (r->dirty_x1 - r->dirty_x0) * 4);
      cairo_surface_mark_dirty (r->surface);
    }
  else
    {
      g_clear_pointer (&r->surface, cairo_surface_destroy);
    }
}

/* Composites what is left, keeps the layer for the next frame (image
 * targets) and frees @r. */
void
rp_plot_raster_end (RpPlot  *self,
                    Raster  *r,
                    cairo_t *cr)
{
  raster_flush (self, r, cr);
  if (r->surface != NULL)
    {
      g_clear_pointer (&self->layer, cairo_surface_destroy);
      self->layer = g_steal_pointer (&r->surface);
    }
  g_free (r->spans);
  g_free (r->covered);
  g_free (r);
}

/* Boxes of one series in one colour: written into the raster layer, or a
 * path filled at rp_plot_bars_end(). */
void
rp_plot_bars_begin (Draw         *d,
                    const RpRgba *color,
                    double        alpha)
{
  if (d->raster != NULL)
    raster_set_color (d->raster, color, alpha);
  else
    set_source (d->cr, color, alpha);
}

/* One pixel-aligned box of the current series. */
void
rp_plot_bars_add (Draw   *d,
                  double  x,
                  double  y,
                  double  width,
                  double  height)
{
  if (d->raster != NULL)
    raster_add_box (d->raster, x, y, width, height);
  else
    cairo_rectangle (d->cr, x, y, width, height);
}

/* The series' boxes are complete: filled, or held for the layer. */
void
rp_plot_bars_end (Draw *d)
{
  if (d->raster != NULL)
    raster_write_pending (d->raster);
  else
    cairo_fill (d->cr);
}

/* Before anything drawn with cairo: what the layer holds goes first, so
 * that series stay in their order. */
void
rp_plot_vector_begin (Draw *d)
{
  if (d->raster != NULL)
    raster_flush (d->plot, d->raster, d->cr);
}

/**
 * rp_plot_set_force_vector:
 * @force_vector: whether dense series are always filled as cairo boxes
 *
 * For tests: the vector path (which PDF and SVG take) on an image surface,
 * to compare it with the layer that raster targets get.
 */
void
rp_plot_set_force_vector (RpPlot   *self,
                          gboolean  force_vector)
{
  g_return_if_fail (RP_IS_PLOT (self));

  self->force_vector = !!force_vector;
}
