/* rp-plot.h: the one chart renderer (cairo + pango), for the screen and for exported files. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <cairo.h>
#include <glib-object.h>

#include "rp-series.h"
#include "rp-render-enums.h"

G_BEGIN_DECLS

/**
 * RpRgba:
 * @red: red component, 0..1
 * @green: green component, 0..1
 * @blue: blue component, 0..1
 * @alpha: opacity, 0..1
 *
 * A colour. The GTK widget fills it from the theme; exports use
 * rp_plot_style_init_default().
 */
typedef struct {
  double red;
  double green;
  double blue;
  double alpha;
} RpRgba;

#define RP_PLOT_PALETTE_SIZE 8

/**
 * RpPlotStyle:
 * @foreground: text, axes and tick labels
 * @grid: grid lines
 * @background: filled behind everything; alpha 0 leaves the target untouched
 * @threshold: the dashed reference lines (rp_plot_add_threshold())
 * @palette: series colours, used in the order the series were added
 * @font: a Pango font description string, e.g. "Cantarell 10"
 *
 * How a plot looks. Plain data so that a widget can fill it from its theme at
 * every draw, and so that one plot can be drawn in several styles.
 */
typedef struct {
  RpRgba      foreground;
  RpRgba      grid;
  RpRgba      background;
  RpRgba      threshold;
  RpRgba      palette[RP_PLOT_PALETTE_SIZE];
  const char *font;
} RpPlotStyle;

/**
 * RpPlotMark:
 * @RP_PLOT_LINE: a line through the per-column minimum and maximum (an
 *   envelope at pixel resolution), with dots where points are sparse
 * @RP_PLOT_STACKED_AREA: an area stacked on the previous stacked series,
 *   through per-column means (the CPU split)
 *
 * How one series is drawn.
 */
typedef enum {
  RP_PLOT_LINE,
  RP_PLOT_STACKED_AREA,
} RpPlotMark;

/**
 * RpPlotMode:
 * @RP_PLOT_TIMELINE: x is the session time, y the values (the default)
 * @RP_PLOT_CDF: the distribution of each series' values: x is the value on a
 *   log axis (decades of the plot's unit), y the share of samples at or below
 *   it, 0 to 1; thresholds are vertical lines. The time range and the log-y
 *   setting do not apply. For comparing runs: one series per run.
 *
 * What a plot shows of its series.
 */
typedef enum {
  RP_PLOT_TIMELINE,
  RP_PLOT_CDF,
} RpPlotMode;

/**
 * RpPlotReadout:
 * @label: the series' legend label
 * @color: its colour index in the style's palette
 * @n: points under the cursor's pixel column (0: none near)
 * @min: smallest value there
 * @max: largest value there
 * @mean: their mean
 *
 * What lies under the pointer for one series; see rp_plot_read_at().
 */
typedef struct {
  const char *label;
  guint       color;
  guint       n;
  double      min;
  double      max;
  double      mean;
} RpPlotReadout;

#define RP_TYPE_PLOT (rp_plot_get_type ())
G_DECLARE_FINAL_TYPE (RpPlot, rp_plot, RP, PLOT, GObject)

/**
 * RpPlotSpan:
 * @series: the series the call goes into, e.g. "fsync_latency": the span
 *   takes its colour, and shows only in a chart that has it
 * @start: seconds, the time axis's
 * @end: seconds; for a call in flight, now
 * @in_flight: the call has not returned: drawn with a solid front edge
 * @label: (nullable): what a tooltip says of it (rp_plot_span_at()), e.g.
 *   "fsync stalled 9.85 s: waiting for the journal commit 9.70 s (98 %)"
 *
 * A stall drawn as the interval it lasted (rp_plot_set_spans()).
 */
typedef struct {
  char     *series;
  double    start;
  double    end;
  gboolean  in_flight;
  char     *label;
} RpPlotSpan;

void        rp_plot_style_init_default (RpPlotStyle *style,
                                        gboolean     dark);

RpPlot     *rp_plot_new                (const char  *title,
                                        const char  *unit);
const char *rp_plot_get_title          (RpPlot      *self);
void        rp_plot_set_title          (RpPlot      *self,
                                        const char  *title);
const char *rp_plot_get_unit           (RpPlot      *self);
void        rp_plot_set_unit           (RpPlot      *self,
                                        const char  *unit);
gboolean    rp_plot_get_log_y          (RpPlot      *self);
void        rp_plot_set_log_y          (RpPlot      *self,
                                        gboolean     log_y);
RpPlotMode  rp_plot_get_mode           (RpPlot      *self);
void        rp_plot_set_mode           (RpPlot      *self,
                                        RpPlotMode   mode);
void        rp_plot_set_time_range     (RpPlot      *self,
                                        double       t_start,
                                        double       t_end);
void        rp_plot_set_y_range        (RpPlot      *self,
                                        double       y_min,
                                        double       y_max);
void        rp_plot_add_series         (RpPlot      *self,
                                        const char  *name,
                                        const char  *label,
                                        RpPlotMark   mark);
void        rp_plot_bind_series        (RpPlot      *self,
                                        const char  *name,
                                        RpSeries    *series);
guint       rp_plot_get_n_series       (RpPlot      *self);
const char *rp_plot_get_series_name    (RpPlot      *self,
                                        guint        index);
guint64     rp_plot_count_points       (RpPlot      *self);
void        rp_plot_set_baseline       (RpPlot           *self,
                                        double            seconds);
void        rp_plot_set_spans          (RpPlot           *self,
                                        const RpPlotSpan *spans,
                                        guint             n_spans);
guint       rp_plot_get_n_spans        (RpPlot      *self);
void        rp_plot_set_gaps           (RpPlot           *self,
                                        const double     *bounds,
                                        guint             n_gaps);
const char *rp_plot_span_at            (RpPlot      *self,
                                        double       x);
void        rp_plot_add_series_colored (RpPlot      *self,
                                        const char  *name,
                                        const char  *label,
                                        RpPlotMark   mark,
                                        guint        color);
int         rp_plot_get_series_color   (RpPlot      *self,
                                        const char  *name);
const char *rp_plot_get_span_x         (RpPlot      *self,
                                        guint        index,
                                        double      *x0,
                                        double      *x1);
void        rp_plot_add_threshold      (RpPlot      *self,
                                        double       value,
                                        const char  *label);
void        rp_plot_add_limit          (RpPlot      *self,
                                        double       value);
const char *rp_plot_get_threshold_text (RpPlot      *self,
                                        guint        index);
void        rp_plot_clear_thresholds   (RpPlot      *self);
void        rp_plot_set_placeholder    (RpPlot      *self,
                                        const char  *text);
void        rp_plot_set_hover          (RpPlot      *self,
                                        double       x);

guint       rp_plot_prepare            (RpPlot            *self,
                                        double             width,
                                        double             height,
                                        const RpPlotStyle *style);
void        rp_plot_draw_frame         (RpPlot            *self,
                                        cairo_t           *cr,
                                        const RpPlotStyle *style);
void        rp_plot_draw_data          (RpPlot            *self,
                                        cairo_t           *cr,
                                        const RpPlotStyle *style);
void        rp_plot_draw_hover         (RpPlot            *self,
                                        cairo_t           *cr,
                                        const RpPlotStyle *style);
guint       rp_plot_get_data_hash      (RpPlot            *self,
                                        double             x0,
                                        double             x1);
gboolean    rp_plot_get_threshold_label (RpPlot           *self,
                                         guint             index,
                                         double           *out_x,
                                         double           *out_y,
                                         double           *out_width,
                                         double           *out_height);
gboolean    rp_plot_get_area           (RpPlot            *self,
                                        double            *out_x,
                                        double            *out_y,
                                        double            *out_width,
                                        double            *out_height);
void        rp_plot_draw               (RpPlot            *self,
                                        cairo_t           *cr,
                                        double             width,
                                        double             height,
                                        const RpPlotStyle *style);
gboolean    rp_plot_read_at            (RpPlot            *self,
                                        double             x,
                                        double             y,
                                        double            *out_t,
                                        GArray            *out_readouts);
char       *rp_plot_describe           (RpPlot            *self);
char       *rp_plot_format_value       (RpPlot            *self,
                                        double             value);
gboolean    rp_plot_save_all           (RpPlot           **plots,
                                        guint              n_plots,
                                        const char        *filename,
                                        const char        *format,
                                        double             width,
                                        double             height,
                                        const RpPlotStyle *style,
                                        GError           **error);
gboolean    rp_plot_save               (RpPlot            *self,
                                        const char        *filename,
                                        const char        *format,
                                        double             width,
                                        double             height,
                                        const RpPlotStyle *style,
                                        GError           **error);

G_END_DECLS
