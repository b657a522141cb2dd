/* rp-plot-private.h: what RpPlot's files share (fields, spacing, helpers) and what tests may change. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <pango/pangocairo.h>

#include "rp-plot.h"

G_BEGIN_DECLS

/* Spacing in pixels (device units). Multiples of 6 as in the GNOME HIG. */
#define PAD          6.0
#define TICK_GAP     6.0
#define LEGEND_GAP  12.0
#define SWATCH      10.0
#define DOT_RADIUS   2.5
/* Points further apart than this (pixels, on average) get a dot each, so that a
 * 1 Hz probe reads as samples, not as a continuous signal. */
#define SPARSE_SPACING 6.0
/* Lines are drawn 1.5 units wide. */
#define LINE_WIDTH   1.5

/* The y range of a prepare: [lo, hi] in values, or in decades (log10 of
 * the values) when log. */
typedef struct {
  double   lo;
  double   hi;
  gboolean log;
} Scale;

/* A series declared with rp_plot_add_series(), and its caches. */
typedef struct {
  char       *name;
  char       *label;
  RpPlotMark  mark;
  guint       color;
  RpSeries   *series;

  /* Decimation cache: columns for [cache_t0, cache_t1] in n_columns, filled
   * from the first cache_length points. Series only grow, so new points only
   * touch the columns from the one of cache_last_t onwards. */
  RpColumn   *columns;
  guint       n_columns;
  double      cache_t0;
  double      cache_t1;
  guint       cache_length;
  double      cache_last_t;
  /* Columns from this one on changed since entry_rows() last ran. */
  guint       changed_from;

  /* The pixel rows (top, bottom) of each column's maximum and minimum, for
   * the scale and area in rows_*: rp_plot_y_to_pixel() takes a logarithm, and
   * between two frames of a live run only the last columns change. */
  double     *rows;
  Scale       rows_scale;
  double      rows_area_y;
  double      rows_area_h;
  guint       rows_n_columns;

  /* RP_PLOT_CDF: the finite values of the first sorted_length points,
   * sorted. And the width of the label in the legend. */
  double     *sorted;
  guint       n_sorted;
  guint       sorted_length;
  double      label_width;
} Entry;

/* A reference line of rp_plot_add_threshold(). */
typedef struct {
  double    value;
  char     *label;
  double    label_width;
  /* Where rp_plot_prepare() put the label (left end, top), if anywhere. */
  gboolean  label_shown;
  double    label_x;
  double    label_y;
} Threshold;

/* What the frame layer (everything but the data) looked like when it was last
 * prepared: when this changes, a cached frame is stale. Zeroed before being
 * filled so that it compares with memcmp(). */
typedef struct {
  double   width;
  double   height;
  double   t0;
  double   t1;
  Scale    y;
  gboolean has_data;
  guint    labels;
  RpRgba   colors[4 + RP_PLOT_PALETTE_SIZE];
} FrameKey;

struct _RpPlot
{
  GObject          parent_instance;

  char            *title;
  char            *unit;
  char            *placeholder;
  gboolean         log_y;
  RpPlotMode       mode;
  double           t_start;
  double           t_end;
  double           y_min;
  double           y_max;
  GPtrArray       *entries;
  GArray          *thresholds;
  GArray          *spans;      /* RpPlotSpan, or NULL before any */
  GArray          *gaps;       /* double: start, end of each gap of the measurement; NULL before any */
  double           baseline;   /* end of the run's baseline, seconds; 0: none */
  double           hover_x;

  /* Text metrics, measured again only when a text or the font changes. */
  gboolean         metrics_valid;
  char            *metrics_font;
  double           line_height;
  double           title_width;
  double           legend_width;
  double           gutter_width;
  double           time_label_width;

  /* The last rp_plot_prepare(): layout, decimated data and y scale, which
   * both layers and rp_plot_read_at() use, so that a pointer maps to the
   * time and columns the user sees. */
  gboolean         prepared;
  double           width;
  double           height;
  gboolean         legend_below;
  guint            legend_lines;
  double           area_x;
  double           area_y;
  double           area_w;
  double           area_h;
  double           drawn_t0;
  double           drawn_t1;
  Scale            drawn_y;
  gboolean         has_data;
  guint            n_columns;
  const RpColumn **columns;
  double          *stack;
  /* Allocated sizes (elements) of columns and stack: kept from frame to
   * frame and only grown, since the window prepares every chart at every
   * frame. */
  guint            columns_size;
  guint            stack_size;

  gboolean         frame_dirty;
  FrameKey         frame_key;
  guint            frame_serial;

  /* Laid-out texts of the frame layer, regular and bold, by text, in the
   * font layouts_font, on a context last updated for a target with these
   * font options and matrix: tick labels repeat from frame to frame, and
   * laying text out costs more than drawing it. */
  PangoContext    *pango;
  GHashTable      *layouts[2];
  char            *layouts_font;
  cairo_font_options_t *pango_options;
  cairo_matrix_t   pango_matrix;

  /* The dense data rasterised by hand on image targets (see Raster), kept
   * for the next frame; and the tests' switch to the vector path. */
  cairo_surface_t *layer;
  gboolean         force_vector;
};

/* The dense bars of the data layer, written by hand into an image
 * (rp-plot-raster.c). */
typedef struct _Raster Raster;

/* What the drawing functions of a layer share during one draw. */
typedef struct {
  RpPlot            *plot;
  cairo_t           *cr;
  const RpPlotStyle *style;
  /* Texts: bold or regular (rp_plot_show_text()). */
  gboolean           bold;
  /* The data layer's dense bars, when rasterised by hand (see Raster). */
  Raster            *raster;
} Draw;

static inline void
set_source (cairo_t      *cr,
            const RpRgba *rgba,
            double        alpha)
{
  cairo_set_source_rgba (cr, rgba->red, rgba->green, rgba->blue, rgba->alpha * alpha);
}

/* rp-plot-style.c */
const RpPlotStyle *rp_plot_style_or_default   (const RpPlotStyle *style,
                                               RpPlotStyle       *fallback);
gboolean        rp_plot_draw_init             (Draw              *d,
                                               RpPlot            *self,
                                               cairo_t           *cr,
                                               const RpPlotStyle *style,
                                               RpPlotStyle       *fallback,
                                               gboolean           need_data);

/* rp-plot-scale.c */
typedef enum {
  RP_PLOT_MICROSECONDS,
  RP_PLOT_MILLISECONDS,
  RP_PLOT_SECONDS,
} RpPlotTimeUnit;

const char     *rp_plot_time_symbol           (RpPlotTimeUnit     which);
char           *rp_plot_format_tick           (const char        *unit,
                                               double             value,
                                               double             magnitude,
                                               double             step);
double          rp_plot_time_step             (double             rough);
char           *rp_plot_format_time           (double             t,
                                               double             step);
double          rp_plot_display_step          (const char        *unit,
                                               double             rough,
                                               double             magnitude);
const char     *rp_plot_y_unit                (RpPlot            *self);
Scale           rp_plot_compute_y_scale       (RpPlot            *self);
double          rp_plot_y_to_pixel            (RpPlot            *self,
                                               const Scale       *scale,
                                               double             v);
double          rp_plot_pixel_to_value        (RpPlot            *self,
                                               double             y);
double          rp_plot_column_x              (RpPlot            *self,
                                               guint              column);
double          rp_plot_value_to_x            (RpPlot            *self,
                                               double             value);

/* rp-plot-spans.c */
void            rp_plot_draw_baseline         (RpPlot            *self,
                                               cairo_t           *cr,
                                               const RpPlotStyle *style);
gboolean        rp_plot_span_between          (RpPlot            *self,
                                               const Entry       *entry,
                                               double             x0,
                                               double             x1);
gboolean        rp_plot_gap_between           (RpPlot            *self,
                                               double             x0,
                                               double             x1);
void            rp_plot_draw_spans            (RpPlot            *self,
                                               cairo_t           *cr,
                                               const RpPlotStyle *style);
guint           rp_plot_hash_spans            (RpPlot            *self,
                                               guint              hash);

/* rp-plot-columns.c */
const RpColumn *rp_plot_entry_decimate        (Entry             *entry,
                                               double             t0,
                                               double             t1,
                                               guint              n_columns);
gboolean        rp_plot_data_time_range       (RpPlot            *self,
                                               double            *out_t0,
                                               double            *out_t1);
void            rp_plot_cdf_range             (RpPlot            *self,
                                               double            *out_lo,
                                               double            *out_hi);
const RpColumn *rp_plot_entry_cdf             (Entry             *entry,
                                               double             lo,
                                               double             hi,
                                               guint              n_columns);

/* rp-plot-text.c */
void            rp_plot_measure_texts         (RpPlot            *self,
                                               const RpPlotStyle *style);
void            rp_plot_update_text_cache     (RpPlot            *self,
                                               cairo_t           *cr,
                                               const RpPlotStyle *style);
double          rp_plot_text_width            (Draw              *d,
                                               const char        *text);
void            rp_plot_show_text             (Draw              *d,
                                               const char        *text,
                                               double             x,
                                               double             y,
                                               double             xalign);

/* rp-plot-layout.c */
gboolean        rp_plot_in_legend             (RpPlot            *self,
                                               Entry             *entry);
gboolean        rp_plot_legend_wraps          (RpPlot            *self,
                                               double             x,
                                               Entry             *entry);

/* rp-plot-axes.c */
void            rp_plot_draw_y_axis           (Draw              *d);
void            rp_plot_draw_x_axis           (Draw              *d);

/* rp-plot-raster.c */
Raster         *rp_plot_raster_begin          (RpPlot            *self,
                                               cairo_t           *cr);
void            rp_plot_raster_end            (RpPlot            *self,
                                               Raster            *r,
                                               cairo_t           *cr);
void            rp_plot_bars_begin            (Draw              *d,
                                               const RpRgba      *color,
                                               double             alpha);
void            rp_plot_bars_add              (Draw              *d,
                                               double             x,
                                               double             y,
                                               double             width,
                                               double             height);
void            rp_plot_bars_end              (Draw              *d);
void            rp_plot_vector_begin          (Draw              *d);
/* For tests: the vector path (which PDF and SVG take) on image surfaces. */
void            rp_plot_set_force_vector      (RpPlot            *self,
                                               gboolean           force_vector);

G_END_DECLS
