/* rp-plot.c: the one chart renderer (cairo + pango), for the screen and for exported files. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <pango/pangocairo.h>

#include "rp-error.h"
#include "rp-plot.h"
#include "rp-plot-private.h"
#include "rp-units.h"

/* Spacing in pixels (device units). Multiples of 6 as in the GNOME HIG. */
#define PAD          6.0
#define TICK_GAP     6.0
#define LEGEND_GAP  12.0
#define SWATCH      10.0
#define DOT_RADIUS   2.5
/* Points further apart than this (pixels, on average) get a dot each, so that a
 * 1 Hz probe reads as samples, not as a continuous signal. */
#define SPARSE_SPACING 6.0
/* How far (pixels) a hover looks sideways for the nearest sample. */
#define HOVER_REACH 24
#define MAX_TICKS   24
/* Laid-out texts kept between frames (tick labels of a few ranges, the
 * legend, the title); more than this and the cache starts over. */
#define MAX_LAYOUTS 128

typedef struct {
  double   lo;
  double   hi;
  gboolean log;
} Scale;

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
   * the scale and area in rows_*: y_to_pixel() takes a logarithm, and
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

G_DEFINE_FINAL_TYPE (RpPlot, rp_plot, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_TITLE,
  PROP_UNIT,
  PROP_LOG_Y,
  N_PROPS
};

enum {
  CHANGED,
  N_SIGNALS
};

static GParamSpec *properties[N_PROPS];
static guint signals[N_SIGNALS];

static void
entry_free (gpointer data)
{
  Entry *entry = data;

  g_clear_object (&entry->series);
  g_free (entry->columns);
  g_free (entry->rows);
  g_free (entry->sorted);
  g_free (entry->name);
  g_free (entry->label);
  g_free (entry);
}

static void
threshold_clear (gpointer data)
{
  Threshold *threshold = data;

  g_free (threshold->label);
}

/* g_set_str() arrives in GLib 2.76; we pin 2.74. */
static gboolean
set_str (char       **pointer,
         const char  *value)
{
  if (g_strcmp0 (*pointer, value) == 0)
    return FALSE;
  g_free (*pointer);
  *pointer = g_strdup (value);
  return TRUE;
}

/* Something that changes how the frame (texts, axes) looks. */
static void
rp_plot_changed (RpPlot *self)
{
  self->frame_dirty = TRUE;
  self->metrics_valid = FALSE;
  g_signal_emit (self, signals[CHANGED], 0);
}

static void
rp_plot_finalize (GObject *object)
{
  RpPlot *self = RP_PLOT (object);

  g_clear_pointer (&self->entries, g_ptr_array_unref);
  g_clear_pointer (&self->thresholds, g_array_unref);
  g_clear_pointer (&self->title, g_free);
  g_clear_pointer (&self->unit, g_free);
  g_clear_pointer (&self->placeholder, g_free);
  g_clear_pointer (&self->metrics_font, g_free);
  g_clear_pointer (&self->columns, g_free);
  g_clear_pointer (&self->stack, g_free);
  g_clear_object (&self->pango);
  g_clear_pointer (&self->layouts[0], g_hash_table_unref);
  g_clear_pointer (&self->layouts[1], g_hash_table_unref);
  g_clear_pointer (&self->layouts_font, g_free);
  g_clear_pointer (&self->pango_options, cairo_font_options_destroy);
  g_clear_pointer (&self->layer, cairo_surface_destroy);

  G_OBJECT_CLASS (rp_plot_parent_class)->finalize (object);
}

static void
rp_plot_get_property (GObject    *object,
                      guint       prop_id,
                      GValue     *value,
                      GParamSpec *pspec)
{
  RpPlot *self = RP_PLOT (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      g_value_set_string (value, self->title);
      break;
    case PROP_UNIT:
      g_value_set_string (value, self->unit);
      break;
    case PROP_LOG_Y:
      g_value_set_boolean (value, self->log_y);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_plot_set_property (GObject      *object,
                      guint         prop_id,
                      const GValue *value,
                      GParamSpec   *pspec)
{
  RpPlot *self = RP_PLOT (object);

  switch (prop_id)
    {
    case PROP_TITLE:
      rp_plot_set_title (self, g_value_get_string (value));
      break;
    case PROP_UNIT:
      rp_plot_set_unit (self, g_value_get_string (value));
      break;
    case PROP_LOG_Y:
      rp_plot_set_log_y (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
rp_plot_class_init (RpPlotClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = rp_plot_finalize;
  object_class->get_property = rp_plot_get_property;
  object_class->set_property = rp_plot_set_property;

  properties[PROP_TITLE] =
    g_param_spec_string ("title", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_UNIT] =
    g_param_spec_string ("unit", NULL, NULL, NULL,
                         G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  properties[PROP_LOG_Y] =
    g_param_spec_boolean ("log-y", NULL, NULL, FALSE,
                          G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * RpPlot::changed:
   *
   * Anything that changes the drawing changed (a property, the range, a
   * binding, the hover position); a widget queues a redraw. New points in a
   * bound series do not emit it: the owner of the series knows when they come.
   */
  signals[CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass),
                                   G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                   G_TYPE_NONE, 0);
}

static void
rp_plot_init (RpPlot *self)
{
  self->entries = g_ptr_array_new_with_free_func (entry_free);
  self->thresholds = g_array_new (FALSE, FALSE, sizeof (Threshold));
  g_array_set_clear_func (self->thresholds, threshold_clear);
  self->y_min = NAN;
  self->y_max = NAN;
  self->hover_x = -1;
  for (guint i = 0; i < G_N_ELEMENTS (self->layouts); i++)
    self->layouts[i] = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

static void
rgba_from_hex (RpRgba  *rgba,
               guint32  rgb,
               double   alpha)
{
  rgba->red = ((rgb >> 16) & 0xff) / 255.0;
  rgba->green = ((rgb >> 8) & 0xff) / 255.0;
  rgba->blue = (rgb & 0xff) / 255.0;
  rgba->alpha = alpha;
}

/**
 * rp_plot_style_init_default:
 * @style: (out caller-allocates): the style to fill
 * @dark: whether the background is dark
 *
 * The GNOME palette (blue, orange, purple, green, red, yellow, brown, teal) on
 * an opaque light or dark background, for exports and tests. On screen the
 * widget takes the same roles from the theme.
 */
void
rp_plot_style_init_default (RpPlotStyle *style,
                            gboolean     dark)
{
  static const guint32 light[RP_PLOT_PALETTE_SIZE] = {
    0x1c71d8, 0xe66100, 0x813d9c, 0x26a269, 0xc01c28, 0xe5a50a, 0x865e3c, 0x2190a4,
  };
  static const guint32 night[RP_PLOT_PALETTE_SIZE] = {
    0x62a0ea, 0xffa348, 0xc061cb, 0x57e389, 0xf66151, 0xf8e45c, 0xcdab8f, 0x5bc8af,
  };

  g_return_if_fail (style != NULL);

  rgba_from_hex (&style->foreground, dark ? 0xffffff : 0x000000, dark ? 1.0 : 0.8);
  rgba_from_hex (&style->grid, dark ? 0xffffff : 0x000000, dark ? 0.10 : 0.08);
  rgba_from_hex (&style->background, dark ? 0x242424 : 0xffffff, 1.0);
  rgba_from_hex (&style->threshold, dark ? 0xf66151 : 0xc01c28, 0.8);
  for (guint i = 0; i < RP_PLOT_PALETTE_SIZE; i++)
    rgba_from_hex (&style->palette[i], dark ? night[i] : light[i], 1.0);
  style->font = "Sans 9";
}

/**
 * rp_plot_new:
 * @title: (nullable): the chart's title, translated
 * @unit: the unit of the values: "s", "B", "B/s", "ratio" (0..1, shown as %)
 *   or anything else (printed after the numbers)
 *
 * Returns: (transfer full): a plot without series
 */
RpPlot *
rp_plot_new (const char *title,
             const char *unit)
{
  g_return_val_if_fail (unit != NULL, NULL);

  return g_object_new (RP_TYPE_PLOT, "title", title, "unit", unit, NULL);
}

/**
 * rp_plot_get_title:
 *
 * Returns: (transfer none) (nullable): the chart's title
 */
const char *
rp_plot_get_title (RpPlot *self)
{
  g_return_val_if_fail (RP_IS_PLOT (self), NULL);
  return self->title;
}

/**
 * rp_plot_set_title:
 * @title: (nullable): the new title, translated
 */
void
rp_plot_set_title (RpPlot     *self,
                   const char *title)
{
  g_return_if_fail (RP_IS_PLOT (self));

  if (set_str (&self->title, title))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_TITLE]);
      rp_plot_changed (self);
    }
}

/**
 * rp_plot_get_unit:
 *
 * Returns: (transfer none): the unit of the values, see rp_plot_new()
 */
const char *
rp_plot_get_unit (RpPlot *self)
{
  g_return_val_if_fail (RP_IS_PLOT (self), NULL);
  return self->unit;
}

/**
 * rp_plot_set_unit:
 * @unit: see rp_plot_new()
 */
void
rp_plot_set_unit (RpPlot     *self,
                  const char *unit)
{
  g_return_if_fail (RP_IS_PLOT (self));

  if (set_str (&self->unit, unit ? unit : ""))
    {
      g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_UNIT]);
      rp_plot_changed (self);
    }
}

/**
 * rp_plot_get_log_y:
 *
 * Returns: whether the y axis is logarithmic
 */
gboolean
rp_plot_get_log_y (RpPlot *self)
{
  g_return_val_if_fail (RP_IS_PLOT (self), FALSE);
  return self->log_y;
}

/**
 * rp_plot_set_log_y:
 * @log_y: whether the y axis is logarithmic (decades)
 *
 * Latencies span microseconds to seconds; a log axis shows a 10 s fsync and a
 * 50 µs main-loop tick on one chart. Stacked areas ignore it.
 */
void
rp_plot_set_log_y (RpPlot   *self,
                   gboolean  log_y)
{
  g_return_if_fail (RP_IS_PLOT (self));

  log_y = !!log_y;
  if (self->log_y == log_y)
    return;
  self->log_y = log_y;
  g_object_notify_by_pspec (G_OBJECT (self), properties[PROP_LOG_Y]);
  rp_plot_changed (self);
}

/**
 * rp_plot_get_mode:
 *
 * Returns: what the plot shows of its series
 */
RpPlotMode
rp_plot_get_mode (RpPlot *self)
{
  g_return_val_if_fail (RP_IS_PLOT (self), RP_PLOT_TIMELINE);
  return self->mode;
}

/**
 * rp_plot_set_mode:
 * @mode: a timeline (the default) or the distribution of the values
 *
 * A distribution (%RP_PLOT_CDF) answers "which run made saving a file slow
 * more often": one curve per series, from the share of samples at or below
 * each value, on a log axis of the values.
 */
void
rp_plot_set_mode (RpPlot     *self,
                  RpPlotMode  mode)
{
  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (mode == RP_PLOT_TIMELINE || mode == RP_PLOT_CDF);

  if (self->mode == mode)
    return;
  self->mode = mode;
  /* The columns of one mode mean nothing in the other. */
  for (guint i = 0; i < self->entries->len; i++)
    ((Entry *) g_ptr_array_index (self->entries, i))->n_columns = 0;
  rp_plot_changed (self);
}

/**
 * rp_plot_set_time_range:
 * @t_start: session time at the left edge, seconds
 * @t_end: session time at the right edge; not greater than @t_start: fit the data
 *
 * A live view keeps the range fixed (the planned duration, or a range that
 * grows in steps) so that the decimation cache stays valid between frames.
 */
void
rp_plot_set_time_range (RpPlot *self,
                        double  t_start,
                        double  t_end)
{
  g_return_if_fail (RP_IS_PLOT (self));

  if (self->t_start == t_start && self->t_end == t_end)
    return;
  self->t_start = t_start;
  self->t_end = t_end;
  g_signal_emit (self, signals[CHANGED], 0);
}

/**
 * rp_plot_set_y_range:
 * @y_min: lower end, or NAN to fit the data
 * @y_max: upper end, or NAN to fit the data
 *
 * E.g. 0..1 for ratios, so that a CPU split always shows the whole CPU.
 */
void
rp_plot_set_y_range (RpPlot *self,
                     double  y_min,
                     double  y_max)
{
  g_return_if_fail (RP_IS_PLOT (self));

  self->y_min = y_min;
  self->y_max = y_max;
  rp_plot_changed (self);
}

static Entry *
lookup_entry (RpPlot     *self,
              const char *name)
{
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (g_str_equal (entry->name, name))
        return entry;
    }
  return NULL;
}

/**
 * rp_plot_add_series:
 * @name: the series' name (see rp_series_get_name()), the key for binding
 * @label: (nullable): legend label, translated; defaults to @name
 * @mark: how to draw it
 *
 * Declares a series before it exists, so that a chart can be laid out before
 * a session starts. Colours follow the order of the calls. Stacked areas stack
 * in the order of the calls, the first at the bottom.
 */
void
rp_plot_add_series (RpPlot     *self,
                    const char *name,
                    const char *label,
                    RpPlotMark  mark)
{
  Entry *entry;

  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (lookup_entry (self, name) == NULL);

  entry = g_new0 (Entry, 1);
  entry->name = g_strdup (name);
  entry->label = g_strdup (label ? label : name);
  entry->mark = mark;
  entry->color = self->entries->len % RP_PLOT_PALETTE_SIZE;
  g_ptr_array_add (self->entries, entry);
  rp_plot_changed (self);
}

/**
 * rp_plot_bind_series:
 * @name: a name given to rp_plot_add_series()
 * @series: (nullable): the data to draw, or %NULL to draw nothing for it
 *
 * The plot keeps a reference and reads the series at every draw. Once any
 * series is bound, the legend names only the bound ones.
 */
void
rp_plot_bind_series (RpPlot     *self,
                     const char *name,
                     RpSeries   *series)
{
  Entry *entry;

  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (series == NULL || RP_IS_SERIES (series));

  entry = lookup_entry (self, name);
  g_return_if_fail (entry != NULL);

  if (entry->series == series)
    return;
  g_set_object (&entry->series, series);
  entry->n_columns = 0;
  g_clear_pointer (&entry->columns, g_free);
  g_clear_pointer (&entry->sorted, g_free);
  entry->n_sorted = 0;
  entry->sorted_length = 0;
  /* The legend lists the bound series. */
  rp_plot_changed (self);
}

/**
 * rp_plot_get_n_series:
 *
 * Returns: how many series were declared with rp_plot_add_series()
 */
guint
rp_plot_get_n_series (RpPlot *self)
{
  g_return_val_if_fail (RP_IS_PLOT (self), 0);
  return self->entries->len;
}

/**
 * rp_plot_get_series_name:
 * @index: 0 .. rp_plot_get_n_series() − 1
 *
 * Returns: (transfer none): the name given to rp_plot_add_series()
 */
const char *
rp_plot_get_series_name (RpPlot *self,
                         guint   index)
{
  g_return_val_if_fail (RP_IS_PLOT (self), NULL);
  g_return_val_if_fail (index < self->entries->len, NULL);

  return ((Entry *) g_ptr_array_index (self->entries, index))->name;
}

/**
 * rp_plot_count_points:
 *
 * Returns: the number of points in the bound series: when it has not changed,
 *   neither has the chart (series only grow), and a redraw can be skipped
 */
guint64
rp_plot_count_points (RpPlot *self)
{
  guint64 n = 0;

  g_return_val_if_fail (RP_IS_PLOT (self), 0);

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (entry->series != NULL)
        n += rp_series_get_length (entry->series);
    }
  return n;
}

/**
 * rp_plot_add_threshold:
 * @value: where to draw a dashed horizontal line, in the plot's unit
 * @label: (nullable): text at its right end, translated
 *
 * Reference lines such as the 0.1 s and 1 s response-time limits. The y range
 * always includes them, so a run far below a limit shows how far below.
 */
void
rp_plot_add_threshold (RpPlot     *self,
                       double      value,
                       const char *label)
{
  Threshold threshold = { value, g_strdup (label), 0, FALSE, 0, 0 };

  g_return_if_fail (RP_IS_PLOT (self));

  g_array_append_val (self->thresholds, threshold);
  rp_plot_changed (self);
}

/**
 * rp_plot_clear_thresholds:
 *
 * Removes the reference lines added with rp_plot_add_threshold(), e.g. when
 * the user hides the response-time limits.
 */
void
rp_plot_clear_thresholds (RpPlot *self)
{
  g_return_if_fail (RP_IS_PLOT (self));

  if (self->thresholds->len == 0)
    return;
  g_array_set_size (self->thresholds, 0);
  rp_plot_changed (self);
}

/**
 * rp_plot_set_placeholder:
 * @text: (nullable): shown in the middle while no bound series has points
 */
void
rp_plot_set_placeholder (RpPlot     *self,
                         const char *text)
{
  g_return_if_fail (RP_IS_PLOT (self));

  if (set_str (&self->placeholder, text))
    rp_plot_changed (self);
}

/**
 * rp_plot_set_hover:
 * @x: pointer x in the coordinates of the last draw, or a negative value
 *
 * Draws a cursor line and marks the values under it.
 */
void
rp_plot_set_hover (RpPlot *self,
                   double  x)
{
  g_return_if_fail (RP_IS_PLOT (self));

  if (self->hover_x == x)
    return;
  self->hover_x = x;
  /* Only the data layer shows the hover: the frame stays valid. */
  g_signal_emit (self, signals[CHANGED], 0);
}

/* ------------------------------------------------------------------------- */
/* Units and ticks */

typedef struct {
  double      factor;
  const char *prefix;
  const char *suffix;
} UnitScale;

/* The display unit for values around @magnitude: "ms" for 0.05 s. Axis labels
 * need one unit for all ticks, which is why this is not rp_format_latency(). */
static UnitScale
unit_scale (const char *unit,
            double      magnitude)
{
  static const char *byte_suffixes[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  static const char *rate_suffixes[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" };
  double m = fabs (magnitude);

  if (g_strcmp0 (unit, "s") == 0)
    {
      if (m > 0 && m < 1e-3)
        return (UnitScale) { 1e-6, "", "µs" };
      if (m > 0 && m < 1.0)
        return (UnitScale) { 1e-3, "", "ms" };
      return (UnitScale) { 1.0, "", "s" };
    }
  if (g_strcmp0 (unit, "ratio") == 0)
    return (UnitScale) { 0.01, "", "%" };
  if (g_strcmp0 (unit, "B") == 0 || g_strcmp0 (unit, "B/s") == 0)
    {
      const char **suffixes = g_str_equal (unit, "B") ? byte_suffixes : rate_suffixes;
      double factor = 1.0;
      guint i = 0;

      while (i < 4 && m >= factor * 1024)
        {
          factor *= 1024;
          i++;
        }
      return (UnitScale) { factor, "", suffixes[i] };
    }
  /* Any other unit ("ops/s"): decimal SI prefixes. */
  if (m >= 1e9)
    return (UnitScale) { 1e9, "G", unit ? unit : "" };
  if (m >= 1e6)
    return (UnitScale) { 1e6, "M", unit ? unit : "" };
  if (m >= 1e3)
    return (UnitScale) { 1e3, "k", unit ? unit : "" };
  return (UnitScale) { 1.0, "", unit ? unit : "" };
}

static char *
format_tick (const char *unit,
             double      value,
             double      magnitude,
             double      step)
{
  UnitScale scale = unit_scale (unit, magnitude);
  double scaled = value / scale.factor;
  double scaled_step = step / scale.factor;
  int decimals = 0;

  if (value == 0)
    return g_strdup ("0");
  if (scaled_step > 0 && scaled_step < 1)
    decimals = MIN (3, (int) ceil (-log10 (scaled_step) - 1e-9));
  if (g_str_equal (scale.suffix, "%"))
    return g_strdup_printf ("%.*f%%", decimals, scaled);
  if (scale.suffix[0] == '\0')
    return g_strdup_printf ("%.*f%s", decimals, scaled, scale.prefix);
  return g_strdup_printf ("%.*f %s%s", decimals, scaled, scale.prefix, scale.suffix);
}

/**
 * rp_plot_format_value:
 * @value: a value in the plot's unit
 *
 * Formats a single value for a tooltip, with the unit chosen for it alone.
 *
 * Returns: (transfer full): e.g. "12.3 ms", "42%", "1.5 GiB"
 */
char *
rp_plot_format_value (RpPlot *self,
                      double  value)
{
  UnitScale scale;
  double scaled;

  g_return_val_if_fail (RP_IS_PLOT (self), NULL);

  scale = unit_scale (self->unit, value);
  scaled = value / scale.factor;
  if (g_str_equal (scale.suffix, "%"))
    return g_strdup_printf ("%.0f%%", scaled);
  if (fabs (scaled) >= 100 || scaled == 0)
    return g_strdup_printf ("%.0f %s%s", scaled, scale.prefix, scale.suffix);
  if (fabs (scaled) >= 10)
    return g_strdup_printf ("%.1f %s%s", scaled, scale.prefix, scale.suffix);
  return g_strdup_printf ("%.2f %s%s", scaled, scale.prefix, scale.suffix);
}

/* A step of 1, 2 or 5 × 10^k (binary-friendly 1, 2, 4, 8 … for bytes would
 * surprise more people than it pleases) near @rough. */
static double
nice_step (double rough)
{
  double magnitude, fraction;

  if (!(rough > 0) || !isfinite (rough))
    return 1.0;
  magnitude = pow (10, floor (log10 (rough)));
  fraction = rough / magnitude;
  if (fraction <= 1.0)
    return magnitude;
  if (fraction <= 2.0)
    return 2 * magnitude;
  if (fraction <= 5.0)
    return 5 * magnitude;
  return 10 * magnitude;
}

#define DAY 86400.0

/* Steps for the time axis: seconds, then whole minutes, hours and days (a
 * run lasts 30 days at most, a report a year). */
static double
time_step (double rough)
{
  static const double steps[] = {
    0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600,
    7200, 14400, 28800, DAY, 2 * DAY, 7 * DAY, 14 * DAY, 30 * DAY, 60 * DAY,
    90 * DAY, 180 * DAY,
  };

  for (guint i = 0; i < G_N_ELEMENTS (steps); i++)
    if (steps[i] >= rough)
      return steps[i];
  return nice_step (rough);
}

static char *
format_time (double t,
             double step)
{
  if (step >= DAY && fmod (step, DAY) == 0 && t >= DAY)
    /* TRANSLATORS: a time axis label in days */
    return g_strdup_printf (_("%u d"), (guint) (t / DAY + 0.5));
  if (step >= 60 && fmod (step, 60) == 0 && t >= 60)
    {
      guint minutes = (guint) (t / 60 + 0.5);

      if (minutes >= 120 && minutes % 60 == 0)
        /* TRANSLATORS: a time axis label in hours */
        return g_strdup_printf (_("%u h"), minutes / 60);
      /* TRANSLATORS: a time axis label in minutes */
      return g_strdup_printf (_("%u min"), minutes);
    }
  /* TRANSLATORS: a time axis label in seconds */
  return g_strdup_printf (_("%.*f s"), step < 1 ? 1 : 0, t);
}

/* ------------------------------------------------------------------------- */
/* Data */

static const RpColumn *
entry_decimate (Entry  *entry,
                double  t0,
                double  t1,
                guint   n_columns)
{
  RpPoint last;
  guint length, first = 0;

  if (entry->series == NULL)
    return NULL;

  /* Read the last point before the length: if a worker appends in between, the
   * cached last time is older than what we decimate, which is safe (the next
   * update starts from an earlier column and recomputes it whole). */
  if (!rp_series_get_last (entry->series, &last))
    last.t = t0;
  length = rp_series_get_length (entry->series);

  if (entry->n_columns != n_columns || entry->cache_t0 != t0 ||
      entry->cache_t1 != t1 || length < entry->cache_length)
    {
      g_free (entry->columns);
      entry->columns = g_new0 (RpColumn, n_columns);
      entry->n_columns = n_columns;
      entry->cache_t0 = t0;
      entry->cache_t1 = t1;
      entry->cache_length = 0;
    }
  else if (length == entry->cache_length)
    {
      return entry->columns;
    }
  else
    {
      double position = (entry->cache_last_t - t0) / (t1 - t0) * n_columns;

      first = (guint) CLAMP (floor (position), 0, n_columns - 1);
    }
  entry->changed_from = MIN (entry->changed_from, first);

  rp_series_decimate (entry->series,
                      t0 + (t1 - t0) * first / n_columns, t1,
                      n_columns - first, entry->columns + first);
  entry->cache_length = length;
  entry->cache_last_t = last.t;
  return entry->columns;
}

static gboolean
data_time_range (RpPlot *self,
                 double *out_t0,
                 double *out_t1)
{
  double t0 = INFINITY, t1 = -INFINITY;

  if (self->t_end > self->t_start)
    {
      *out_t0 = self->t_start;
      *out_t1 = self->t_end;
      return TRUE;
    }

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      double a, b;

      if (entry->series != NULL && rp_series_get_bounds (entry->series, &a, &b, NULL, NULL))
        {
          t0 = MIN (t0, a);
          t1 = MAX (t1, b);
        }
    }
  if (!isfinite (t0))
    {
      *out_t0 = 0;
      *out_t1 = 60;
      return FALSE;
    }
  if (t1 - t0 < 1e-6)
    t1 = t0 + 1;
  *out_t0 = t0;
  *out_t1 = t1;
  return TRUE;
}

/* ---- the distribution (RP_PLOT_CDF) ---- */

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double x = *(const double *) a, y = *(const double *) b;

  return x < y ? -1 : x > y ? 1 : 0;
}

/* The finite values of the entry's series, sorted; sorted again only when
 * the series has grown. */
static gboolean
entry_sort (Entry *entry)
{
  guint n = 0, kept = 0;

  if (entry->series == NULL)
    return FALSE;
  if (entry->sorted != NULL && rp_series_get_length (entry->series) == entry->sorted_length)
    return entry->n_sorted > 0;

  g_free (entry->sorted);
  entry->sorted = rp_series_copy_values (entry->series, &n);
  for (guint i = 0; i < n; i++)
    if (isfinite (entry->sorted[i]))
      entry->sorted[kept++] = entry->sorted[i];
  if (kept > 0)
    qsort (entry->sorted, kept, sizeof (double), compare_doubles);
  entry->n_sorted = kept;
  entry->sorted_length = n;
  return kept > 0;
}

/* How many of @n sorted values are at most @x. */
static guint
count_at_most (const double *sorted,
               guint         n,
               double        x)
{
  guint lo = 0, hi = n;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (sorted[mid] <= x)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo;
}

/* The x axis of a distribution, in decades (log10 of the values): from the
 * smallest positive value to the largest of all series and thresholds, whole
 * decades, at least two and at most six (below that is the resolution of
 * the clock, and it would squash the part that matters). */
static void
cdf_range (RpPlot *self,
           double *out_lo,
           double *out_hi)
{
  double lo = INFINITY, hi = -INFINITY;

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      guint first;

      if (!entry_sort (entry))
        continue;
      first = count_at_most (entry->sorted, entry->n_sorted, 0);
      if (first < entry->n_sorted)
        {
          lo = MIN (lo, entry->sorted[first]);
          hi = MAX (hi, entry->sorted[entry->n_sorted - 1]);
        }
    }
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      double value = g_array_index (self->thresholds, Threshold, i).value;

      if (value > 0)
        {
          lo = MIN (lo, value);
          hi = MAX (hi, value);
        }
    }
  if (!isfinite (lo))
    {
      lo = g_strcmp0 (self->unit, "s") == 0 ? 1e-3 : 1;
      hi = lo * 1000;
    }
  *out_hi = ceil (log10 (hi) - 1e-9);
  *out_lo = floor (log10 (lo) + 1e-9);
  *out_lo = MAX (*out_lo, *out_hi - 6);
  if (*out_hi - *out_lo < 2)
    *out_lo = *out_hi - 2;
}

/* One column per pixel of the log axis [10^lo, 10^hi]: the share of values
 * at most its left edge (min) and its right edge (max, mean), so that the
 * bars of draw_line() draw the steps of the curve. Columns before the first
 * sample and after the last stay empty: each curve runs from its smallest
 * value (rising from 0) to its largest (reaching 1). */
static const RpColumn *
entry_cdf (Entry  *entry,
           double  lo,
           double  hi,
           guint   n_columns)
{
  guint n, k;
  double share;

  if (!entry_sort (entry))
    return NULL;
  n = entry->n_sorted;
  if (entry->columns != NULL && entry->n_columns == n_columns && entry->cache_t0 == lo &&
      entry->cache_t1 == hi && entry->cache_length == n)
    return entry->columns;

  g_free (entry->columns);
  entry->columns = g_new0 (RpColumn, n_columns);
  entry->n_columns = n_columns;
  entry->cache_t0 = lo;
  entry->cache_t1 = hi;
  entry->cache_length = n;
  entry->changed_from = 0;

  k = count_at_most (entry->sorted, n, pow (10, lo));
  share = (double) k / n;
  for (guint c = 0; c < n_columns; c++)
    {
      double right = pow (10, lo + (hi - lo) * (c + 1) / n_columns);
      guint k_left = k;
      double share_right;

      while (k < n && entry->sorted[k] <= right)
        k++;
      share_right = (double) k / n;
      if (share_right > 0 && share < 1)
        entry->columns[c] = (RpColumn) { MAX (1, k - k_left), share, share_right, share_right };
      share = share_right;
    }
  return entry->columns;
}

/* ------------------------------------------------------------------------- */
/* Drawing */

/* Lines are drawn 1.5 units wide. */
#define LINE_WIDTH 1.5
/* Below this spacing (pixels) between filled columns a series is drawn as
 * pixel-aligned bars, one per column, from its minimum to its maximum: cairo
 * fills boxes an order of magnitude faster than it strokes a noisy polyline
 * (1 ms instead of 20 for four 540-column series), and at this density the
 * bars read as a line. Sparser series are stroked. */
#define BAR_SPACING 4.0

typedef struct _Raster Raster;

typedef struct {
  RpPlot            *plot;
  cairo_t           *cr;
  const RpPlotStyle *style;
  /* Texts: bold or regular (show_text()). */
  gboolean           bold;
  /* The data layer's dense bars, when rasterised by hand (see Raster). */
  Raster            *raster;
} Draw;

static void
set_source (cairo_t      *cr,
            const RpRgba *rgba,
            double        alpha)
{
  cairo_set_source_rgba (cr, rgba->red, rgba->green, rgba->blue, rgba->alpha * alpha);
}

static double
layout_width (PangoLayout *layout,
              const char  *text)
{
  int width;

  pango_layout_set_text (layout, text, -1);
  pango_layout_get_pixel_size (layout, &width, NULL);
  return width;
}

static void
set_font (PangoLayout *layout,
          const char  *font)
{
  PangoFontDescription *description = pango_font_description_from_string (font);

  pango_layout_set_font_description (layout, description);
  pango_font_description_free (description);
}

static PangoLayout *
create_layout (cairo_t           *cr,
               const RpPlotStyle *style)
{
  PangoLayout *layout = pango_cairo_create_layout (cr);

  set_font (layout, style->font ? style->font : "Sans 9");
  return layout;
}

static void
set_bold (PangoLayout *layout,
          gboolean     bold)
{
  PangoAttrList *attrs = NULL;

  if (bold)
    {
      attrs = pango_attr_list_new ();
      pango_attr_list_insert (attrs, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
    }
  pango_layout_set_attributes (layout, attrs);
  if (attrs != NULL)
    pango_attr_list_unref (attrs);
}

static void
clear_layouts (RpPlot *self)
{
  for (guint i = 0; i < G_N_ELEMENTS (self->layouts); i++)
    g_hash_table_remove_all (self->layouts[i]);
}

/* Points the text cache at @cr's target and @style's font. The layouts of
 * a changed font are dropped; those of a changed target (font options or
 * transformation: a PDF after the screen) lay themselves out again, as
 * Pango tracks the context. Only then: pango_cairo_update_context() marks
 * the context changed at every call, which would lay every text out at
 * every frame. A context belongs to the font map of one thread: a plot
 * drawn by another thread starts over. */
static void
update_text_cache (RpPlot            *self,
                   cairo_t           *cr,
                   const RpPlotStyle *style)
{
  const char *font = style->font ? style->font : "Sans 9";
  PangoFontMap *map = pango_cairo_font_map_get_default ();
  cairo_font_options_t *options = cairo_font_options_create ();
  cairo_font_options_t *cr_options = cairo_font_options_create ();
  cairo_matrix_t matrix;

  cairo_surface_get_font_options (cairo_get_target (cr), options);
  cairo_get_font_options (cr, cr_options);
  cairo_font_options_merge (options, cr_options);
  cairo_font_options_destroy (cr_options);
  cairo_get_matrix (cr, &matrix);

  if (self->pango == NULL || pango_context_get_font_map (self->pango) != map ||
      g_strcmp0 (self->layouts_font, font) != 0)
    {
      clear_layouts (self);
      g_clear_object (&self->pango);
      self->pango = pango_cairo_create_context (cr);
      g_free (self->layouts_font);
      self->layouts_font = g_strdup (font);
    }
  else if (!cairo_font_options_equal (options, self->pango_options) ||
           memcmp (&matrix, &self->pango_matrix, sizeof matrix) != 0)
    {
      pango_cairo_update_context (cr, self->pango);
    }
  g_clear_pointer (&self->pango_options, cairo_font_options_destroy);
  self->pango_options = options;
  self->pango_matrix = matrix;
}

/* @text laid out in the current font, bold or not; owned by the cache. */
static PangoLayout *
cached_layout (RpPlot     *self,
               const char *text,
               gboolean    bold)
{
  GHashTable *layouts = self->layouts[bold ? 1 : 0];
  PangoLayout *layout = g_hash_table_lookup (layouts, text);

  if (layout != NULL)
    return layout;
  /* Ranges come and go (a live run steps through them): bound the cache. */
  if (g_hash_table_size (layouts) >= MAX_LAYOUTS)
    g_hash_table_remove_all (layouts);
  layout = pango_layout_new (self->pango);
  set_font (layout, self->layouts_font);
  set_bold (layout, bold);
  pango_layout_set_text (layout, text, -1);
  g_hash_table_insert (layouts, g_strdup (text), layout);
  return layout;
}

static double
text_width (Draw       *d,
            const char *text)
{
  int width;

  pango_layout_get_pixel_size (cached_layout (d->plot, text, d->bold), &width, NULL);
  return width;
}

/* Draws @text with its left end (xalign 0), centre (0.5) or right end (1) at @x. */
static void
show_text (Draw       *d,
           const char *text,
           double      x,
           double      y,
           double      xalign)
{
  PangoLayout *layout = cached_layout (d->plot, text, d->bold);
  int width;

  pango_layout_get_pixel_size (layout, &width, NULL);
  cairo_move_to (d->cr, round (x - width * xalign), round (y));
  pango_cairo_show_layout (d->cr, layout);
}

/* The width reserved for y labels: the widest label the unit can produce, so
 * that charts of one unit line up and the plot area (hence the decimation
 * cache) keeps its width while the data grows. */
/* The unit of the y axis: the values', or shares of them for a distribution. */
static const char *
y_unit (RpPlot *self)
{
  return self->mode == RP_PLOT_CDF ? "ratio" : self->unit;
}

static double
measure_gutter (RpPlot      *self,
                PangoLayout *layout)
{
  static const char *samples_s[] = { "000 ms", "000 µs", "00.0 s" };
  static const char *samples_b[] = { "0000 MiB" };
  static const char *samples_bs[] = { "0000 MiB/s" };
  static const char *samples_ratio[] = { "100%" };
  const char *unit = y_unit (self);
  const char **samples;
  guint n;
  double width = 0;

  if (g_strcmp0 (unit, "s") == 0)
    samples = samples_s, n = G_N_ELEMENTS (samples_s);
  else if (g_strcmp0 (unit, "B") == 0)
    samples = samples_b, n = G_N_ELEMENTS (samples_b);
  else if (g_strcmp0 (unit, "B/s") == 0)
    samples = samples_bs, n = G_N_ELEMENTS (samples_bs);
  else if (g_strcmp0 (unit, "ratio") == 0)
    samples = samples_ratio, n = G_N_ELEMENTS (samples_ratio);
  else
    {
      g_autofree char *sample = g_strdup_printf ("000 k%s", unit ? unit : "");

      return layout_width (layout, sample);
    }

  for (guint i = 0; i < n; i++)
    width = MAX (width, layout_width (layout, samples[i]));
  return width;
}

/* A chart declares every series it can show; the legend names those the run
 * has (all of them while none is bound, so that an empty chart says what it
 * is waiting for). */
static gboolean
in_legend (RpPlot *self,
           Entry  *entry)
{
  for (guint i = 0; i < self->entries->len; i++)
    if (((Entry *) g_ptr_array_index (self->entries, i))->series != NULL)
      return entry->series != NULL;
  return TRUE;
}

/* Text metrics on a scratch surface: preparing must not need the target. */
static void
measure_texts (RpPlot            *self,
               const RpPlotStyle *style)
{
  const char *font = style->font ? style->font : "Sans 9";
  cairo_surface_t *surface;
  cairo_t *cr;
  PangoLayout *layout;
  int line_height;

  if (self->metrics_valid && g_strcmp0 (self->metrics_font, font) == 0)
    return;

  surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, 1, 1);
  cr = cairo_create (surface);
  layout = create_layout (cr, style);

  pango_layout_set_text (layout, "0", -1);
  pango_layout_get_pixel_size (layout, NULL, &line_height);
  self->line_height = line_height;
  self->gutter_width = measure_gutter (self, layout);
  self->time_label_width = layout_width (layout, "00 min");
  self->legend_width = 0;
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      entry->label_width = layout_width (layout, entry->label);
      if (!in_legend (self, entry))
        continue;
      if (self->legend_width > 0)
        self->legend_width += LEGEND_GAP;
      self->legend_width += SWATCH + PAD + entry->label_width;
    }
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      Threshold *threshold = &g_array_index (self->thresholds, Threshold, i);

      threshold->label_width = threshold->label ? layout_width (layout, threshold->label) : 0;
    }
  set_bold (layout, TRUE);
  self->title_width = self->title ? layout_width (layout, self->title) : 0;

  g_object_unref (layout);
  cairo_destroy (cr);
  cairo_surface_destroy (surface);

  g_free (self->metrics_font);
  self->metrics_font = g_strdup (font);
  self->metrics_valid = TRUE;
  self->frame_dirty = TRUE;
}

static double
y_to_pixel (RpPlot      *self,
            const Scale *scale,
            double       v)
{
  double f;

  if (scale->log)
    f = v > 0 ? (log10 (v) - scale->lo) / (scale->hi - scale->lo) : -0.01;
  else
    f = (v - scale->lo) / (scale->hi - scale->lo);
  f = CLAMP (f, -0.01, 1.01);
  return self->area_y + self->area_h * (1 - f);
}

static double
column_x (RpPlot *self,
          guint   column)
{
  return self->area_x + (column + 0.5) * self->area_w / self->n_columns;
}

/* A step of the display unit ("50 MiB/s", not 52428800 B/s) near @rough. */
static double
display_step (const char *unit,
              double      rough,
              double      magnitude)
{
  UnitScale display = unit_scale (unit, magnitude);

  return nice_step (rough / display.factor) * display.factor;
}

/* The y span of a chart whose values are all equal (typically all zero). */
static double
minimum_span (const char *unit)
{
  if (g_strcmp0 (unit, "s") == 0)
    return 1e-3;
  if (g_strcmp0 (unit, "B") == 0 || g_strcmp0 (unit, "B/s") == 0)
    return RP_MiB;
  return 1;
}

static Scale
compute_y_scale (RpPlot *self)
{
  double v_min = INFINITY, v_max = -INFINITY, positive_min = INFINITY;
  Scale scale = { 0, 1, self->log_y };
  gboolean stacked = FALSE;

  for (guint c = 0; c < self->n_columns; c++)
    self->stack[c] = 0;

  if (self->mode == RP_PLOT_CDF)
    {
      /* Shares, always the whole 0..1. */
      for (guint i = 0; i < self->entries->len; i++)
        self->has_data |= self->columns[i] != NULL;
      return (Scale) { 0, 1, FALSE };
    }

  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);
      const RpColumn *columns = self->columns[i];

      if (columns == NULL)
        continue;
      for (guint c = 0; c < self->n_columns; c++)
        {
          if (columns[c].n == 0)
            continue;
          self->has_data = TRUE;
          if (entry->mark == RP_PLOT_STACKED_AREA)
            {
              stacked = TRUE;
              self->stack[c] += columns[c].mean;
              v_max = MAX (v_max, self->stack[c]);
              v_min = MIN (v_min, 0);
              continue;
            }
          v_min = MIN (v_min, columns[c].min);
          v_max = MAX (v_max, columns[c].max);
          if (columns[c].max > 0)
            positive_min = MIN (positive_min, columns[c].min > 0 ? columns[c].min : columns[c].max);
        }
    }

  for (guint i = 0; i < self->thresholds->len; i++)
    {
      double value = g_array_index (self->thresholds, Threshold, i).value;

      v_max = MAX (v_max, value);
      positive_min = MIN (positive_min, value);
      v_min = MIN (v_min, value);
    }

  if (scale.log && !stacked)
    {
      if (!isfinite (positive_min))
        positive_min = g_strcmp0 (self->unit, "s") == 0 ? 1e-3 : 1;
      if (!isfinite (v_max) || v_max <= 0)
        v_max = positive_min * 10;
      scale.hi = ceil (log10 (v_max) - 1e-9);
      scale.lo = floor (log10 (positive_min) + 1e-9);
      /* More than six decades squash the part that matters; the floor is
       * where the measurement resolution ends anyway. */
      scale.lo = MAX (scale.lo, scale.hi - 6);
      if (scale.hi - scale.lo < 2)
        scale.lo = scale.hi - 2;
      if (isfinite (self->y_min) && self->y_min > 0)
        scale.lo = log10 (self->y_min);
      if (isfinite (self->y_max) && self->y_max > 0)
        scale.hi = log10 (self->y_max);
      return scale;
    }

  scale.log = FALSE;
  if (!isfinite (v_max))
    v_min = 0, v_max = minimum_span (self->unit);
  scale.lo = isfinite (self->y_min) ? self->y_min : MIN (0, v_min);
  scale.hi = isfinite (self->y_max) ? self->y_max : v_max;
  if (scale.hi <= scale.lo)
    scale.hi = scale.lo + minimum_span (self->unit);
  if (!isfinite (self->y_max))
    {
      /* Room above the highest point, then a round number so that the top
       * grid line is labelled. */
      double step = display_step (self->unit, (scale.hi - scale.lo) * 1.05 / 4, scale.hi);

      scale.hi = ceil (scale.hi * 1.05 / step - 1e-9) * step;
    }
  return scale;
}

/* ---- where the labels of the thresholds go ---- */

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

/* The value drawn at pixel row @y: the inverse of y_to_pixel(). */
static double
pixel_to_value (RpPlot *self,
                double  y)
{
  const Scale *scale = &self->drawn_y;
  double v = scale->lo + (self->area_y + self->area_h - y) / self->area_h * (scale->hi - scale->lo);

  return scale->log ? pow (10, v) : v;
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
  mark_data (self, band, pixel_to_value (self, bottom), pixel_to_value (self, top));
  for (guint i = 0; i < self->thresholds->len; i++)
    {
      Threshold *other = &g_array_index (self->thresholds, Threshold, i);
      double line = round (y_to_pixel (self, &self->drawn_y, other->value));

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
  double y = round (y_to_pixel (self, &self->drawn_y, threshold->value)) + 0.5;
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
  g_autofree guint8 *bands = g_new (guint8, 2 * (self->n_columns + 1));

  for (guint i = 0; i < self->thresholds->len; i++)
    g_ptr_array_add (sorted, &g_array_index (self->thresholds, Threshold, i));
  g_ptr_array_sort (sorted, compare_thresholds_descending);

  for (guint i = 0; i < sorted->len; i++)
    {
      Threshold *threshold = g_ptr_array_index (sorted, i);

      threshold->label_shown = threshold->label != NULL && self->mode != RP_PLOT_CDF &&
                               place_label (self, threshold, bands, placed);
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
static gboolean
legend_wraps (RpPlot *self,
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

      if (!in_legend (self, entry))
        continue;
      if (legend_wraps (self, x, entry))
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

  if (style == NULL)
    {
      rp_plot_style_init_default (&default_style, FALSE);
      style = &default_style;
    }

  self->prepared = FALSE;
  if (width < 60 || height < 60)
    return self->frame_serial;

  measure_texts (self, style);
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
    cdf_range (self, &self->drawn_t0, &self->drawn_t1);
  else
    data_time_range (self, &self->drawn_t0, &self->drawn_t1);
  self->n_columns = (guint) self->area_w;
  g_free (self->columns);
  g_free (self->stack);
  self->columns = g_new0 (const RpColumn *, MAX (1, self->entries->len));
  self->stack = g_new0 (double, self->n_columns);
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (self->mode == RP_PLOT_CDF)
        self->columns[i] = entry_cdf (entry, self->drawn_t0, self->drawn_t1, self->n_columns);
      else
        self->columns[i] = entry_decimate (entry, self->drawn_t0, self->drawn_t1, self->n_columns);
    }

  self->has_data = FALSE;
  self->drawn_y = compute_y_scale (self);
  place_threshold_labels (self);
  self->prepared = TRUE;
  update_frame_serial (self, style);
  return self->frame_serial;
}

/* ---- the frame layer ---- */

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

      if (!in_legend (self, entry))
        continue;
      if (legend_wraps (self, x, entry))
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
      show_text (d, entry->label, x + SWATCH + PAD, y, 0);
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
      show_text (d, self->title, PAD, PAD, 0);
      d->bold = FALSE;
    }
  if (self->entries->len == 0)
    return;
  if (self->legend_below)
    draw_legend (d, PAD, PAD + self->line_height + 2);
  else
    draw_legend (d, self->width - PAD - self->legend_width, PAD);
}

static guint
linear_ticks (RpPlot      *self,
              const Scale *scale,
              double      *ticks,
              double      *out_step)
{
  guint max_ticks = CLAMP ((guint) (self->area_h / 36), 2, 8);
  double magnitude = MAX (fabs (scale->lo), fabs (scale->hi));
  double step = display_step (y_unit (self), (scale->hi - scale->lo) / max_ticks, magnitude);
  guint n = 0;

  for (double v = ceil (scale->lo / step) * step; v <= scale->hi + step * 1e-6 && n < MAX_TICKS; v += step)
    ticks[n++] = fabs (v) < step * 1e-9 ? 0 : v;
  *out_step = step;
  return n;
}

static void
draw_y_axis (Draw *d)
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
      double y = round (y_to_pixel (self, scale, ticks[i])) + 0.5;
      g_autofree char *label = NULL;

      set_source (d->cr, &d->style->grid, 1);
      cairo_move_to (d->cr, self->area_x, y);
      cairo_line_to (d->cr, self->area_x + self->area_w, y);
      cairo_stroke (d->cr);

      /* Without data the range is made up: a grid, but no numbers. */
      if (!self->has_data)
        continue;
      if (scale->log)
        label = format_tick (y_unit (self), ticks[i], ticks[i], ticks[i]);
      else
        label = format_tick (y_unit (self), ticks[i], MAX (fabs (scale->lo), fabs (scale->hi)), step);
      set_source (d->cr, &d->style->foreground, 0.7);
      show_text (d, label, self->area_x - TICK_GAP, y - self->line_height / 2, 1);
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

/* RP_PLOT_CDF: where a value sits on the log axis of the last prepare. */
static double
value_to_x (RpPlot *self,
            double  value)
{
  double f = value > 0 ? (log10 (value) - self->drawn_t0) / (self->drawn_t1 - self->drawn_t0) : -0.01;

  return self->area_x + CLAMP (f, -0.01, 1.01) * self->area_w;
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
      double x = value_to_x (self, value);
      g_autofree char *label = NULL;

      draw_vertical_grid_line (d, x, 1);
      for (int m = 2; m <= 9 && k < last && decade >= 60; m++)
        draw_vertical_grid_line (d, value_to_x (self, m * value), 0.4);
      if ((last - k) % every != 0)
        continue;
      label = format_tick (self->unit, value, value, value);
      set_source (d->cr, &d->style->foreground, 0.7);
      show_text (d, label, round (x) + 0.5, base + TICK_GAP / 2, 0.5);
    }
  draw_base_line (d);
}

static void
draw_x_axis (Draw *d)
{
  RpPlot *self = d->plot;
  double t0 = self->drawn_t0, t1 = self->drawn_t1;
  double label_width = self->time_label_width + 2 * LEGEND_GAP;
  double step = time_step ((t1 - t0) * label_width / MAX (self->area_w, 1));
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
      g_autofree char *label = format_time (fabs (t) < step * 1e-6 ? 0 : t, step);

      set_source (d->cr, &d->style->grid, 1);
      cairo_move_to (d->cr, x, self->area_y);
      cairo_line_to (d->cr, x, base);
      cairo_stroke (d->cr);

      set_source (d->cr, &d->style->foreground, 0.7);
      show_text (d, label, x, base + TICK_GAP / 2, 0.5);
    }
  draw_base_line (d);
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
      double x = round (value_to_x (self, threshold->value)) + 0.5;
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
      width = text_width (d, threshold->label);
      set_source (d->cr, &d->style->threshold, 1);
      if (x + 3 + width <= self->area_x + self->area_w)
        show_text (d, threshold->label, x + 3, label_y, 0);
      else
        show_text (d, threshold->label, x - 3, label_y, 1);
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
      double y = round (y_to_pixel (self, &self->drawn_y, threshold->value)) + 0.5;

      set_source (d->cr, &d->style->threshold, 0.7);
      cairo_move_to (d->cr, self->area_x, y);
      cairo_line_to (d->cr, self->area_x + self->area_w, y);
      cairo_stroke (d->cr);

      if (!threshold->label_shown)
        continue;
      set_source (d->cr, &d->style->threshold, 1);
      show_text (d, threshold->label, threshold->label_x, threshold->label_y, 0);
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
  show_text (d, self->placeholder, self->area_x + self->area_w / 2,
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

  if (!self->prepared)
    return;
  if (style == NULL)
    {
      rp_plot_style_init_default (&default_style, FALSE);
      style = &default_style;
    }

  cairo_save (cr);
  if (style->background.alpha > 0)
    {
      set_source (cr, &style->background, 1);
      cairo_paint (cr);
    }
  update_text_cache (self, cr, style);
  d = (Draw) { self, cr, style, FALSE, NULL };
  draw_header (&d);
  draw_y_axis (&d);
  draw_x_axis (&d);
  draw_thresholds (&d);
  draw_placeholder (&d);
  cairo_restore (cr);
}

/* ---- the data layer ---- */

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

/* Sets @r up over the columns and rows of @cr's clip, which
 * rp_plot_draw_data() aligned to whole pixels. The surface comes with the
 * first batch. */
static gboolean
raster_begin (RpPlot  *self,
              cairo_t *cr,
              Raster  *r)
{
  double x1, y1, x2, y2;

  if (!raster_applies (self, cr))
    return FALSE;
  cairo_clip_extents (cr, &x1, &y1, &x2, &y2);
  *r = (Raster) { NULL };
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
  return TRUE;
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

static void
raster_end (RpPlot  *self,
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
}

/* Boxes of one series in one colour: written into the raster layer, or a
 * path filled at bars_end(). */
static void
bars_begin (Draw         *d,
            const RpRgba *color,
            double        alpha)
{
  if (d->raster != NULL)
    raster_set_color (d->raster, color, alpha);
  else
    set_source (d->cr, color, alpha);
}

static void
bars_add (Draw   *d,
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

static void
bars_end (Draw *d)
{
  if (d->raster != NULL)
    raster_write_pending (d->raster);
  else
    cairo_fill (d->cr);
}

/* Before anything drawn with cairo: what the layer holds goes first, so
 * that series stay in their order. */
static void
vector_begin (Draw *d)
{
  if (d->raster != NULL)
    raster_flush (d->plot, d->raster, d->cr);
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
        entry->rows[2 * c] = y_to_pixel (self, scale, columns[c].max);
        entry->rows[2 * c + 1] = y_to_pixel (self, scale, columns[c].min);
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
      x1 = next < self->n_columns ? column_left (self, next) : x0 + 1;

      /* Stretched to the previous column's own range, not its stretched one. */
      y0 = have_previous ? MIN (top, previous_bottom) : top;
      y1 = have_previous ? MAX (bottom, previous_top) : bottom;
      previous_top = top;
      previous_bottom = bottom;
      have_previous = TRUE;

      /* Two pixels tall at least, as thick as a stroked line. */
      y0 = floor (y0 - 0.5);
      y1 = MAX (y0 + 2, ceil (y1 + 0.5));
      /* Two pixels wide at least, so that a one-sample stall shows. */
      bars_add (d, x0, y0, MAX (x1 - x0, 2), y1 - y0);
      c = next;
    }
}

/* Sparse: a polyline through each column's minimum and maximum (the nearer
 * one first, so that the connecting segments do not cross the envelope). */
static void
path_line_stroke (Draw           *d,
                  const RpColumn *columns)
{
  RpPlot *self = d->plot;
  gboolean started = FALSE;
  double previous_y = 0;

  for (guint c = 0; c < self->n_columns; c++)
    {
      double x = column_x (self, c);
      double y_min, y_max;

      if (columns[c].n == 0)
        continue;
      y_min = y_to_pixel (self, &self->drawn_y, columns[c].min);
      y_max = y_to_pixel (self, &self->drawn_y, columns[c].max);
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
      bars_begin (d, &d->style->palette[entry->color], 1);
      line_bars (d, entry, columns);
      bars_end (d);
      return;
    }

  vector_begin (d);
  set_source (d->cr, &d->style->palette[entry->color], 1);
  path_line_stroke (d, columns);
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
      cairo_arc (d->cr, column_x (self, c), y_to_pixel (self, &self->drawn_y, columns[c].max),
                 DOT_RADIUS, 0, 2 * G_PI);
    }
  cairo_fill (d->cr);
}

/* An area from the running stack (self->stack) up by this series' column
 * means. Dense: pixel-aligned boxes whose edges the next series shares
 * exactly (no seams); sparse: a polygon and its top edge. */
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
      bars_begin (d, color, 0.8);
      for (guint c = 0; c < self->n_columns; c++)
        {
          guint next = c + 1;
          double x0, x1, top, bottom;

          if (columns[c].n == 0)
            continue;
          while (next < self->n_columns && columns[next].n == 0)
            next++;
          x0 = column_left (self, c);
          x1 = next < self->n_columns ? column_left (self, next) : x0 + 1;
          bottom = round (y_to_pixel (self, &self->drawn_y, self->stack[c]));
          self->stack[c] += columns[c].mean;
          top = round (y_to_pixel (self, &self->drawn_y, self->stack[c]));
          if (bottom > top)
            bars_add (d, x0, top, MAX (x1 - x0, 1), bottom - top);
        }
      bars_end (d);
      return;
    }

  vector_begin (d);
  for (guint c = 0; c < self->n_columns; c++)
    if (columns[c].n > 0)
      {
        if (!started)
          first = c;
        last = c;
        started = TRUE;
      }

  /* Top edge left to right, then the previous stack back right to left. */
  for (guint c = first; c <= last; c++)
    if (columns[c].n > 0)
      cairo_line_to (d->cr, column_x (self, c),
                     y_to_pixel (self, &self->drawn_y, self->stack[c] + columns[c].mean));
  for (guint c = last + 1; c-- > first;)
    if (columns[c].n > 0)
      cairo_line_to (d->cr, column_x (self, c), y_to_pixel (self, &self->drawn_y, self->stack[c]));
  cairo_close_path (d->cr);
  set_source (d->cr, color, 0.75);
  cairo_fill (d->cr);

  for (guint c = first; c <= last; c++)
    if (columns[c].n > 0)
      {
        self->stack[c] += columns[c].mean;
        cairo_line_to (d->cr, column_x (self, c), y_to_pixel (self, &self->drawn_y, self->stack[c]));
      }
  set_source (d->cr, color, 1);
  cairo_set_line_width (d->cr, 1);
  cairo_stroke (d->cr);
}

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
      cairo_arc (d->cr, column_x (self, c), y_to_pixel (self, &self->drawn_y, columns[c].max),
                 DOT_RADIUS + 1.5, 0, 2 * G_PI);
      set_source (d->cr, &d->style->palette[entry->color], 1);
      cairo_fill_preserve (d->cr);
      set_source (d->cr, &d->style->foreground, 1);
      cairo_stroke (d->cr);
    }
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
  Raster raster;
  Draw d;

  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (cr != NULL);

  if (!self->prepared || !self->has_data)
    return;
  if (style == NULL)
    {
      rp_plot_style_init_default (&default_style, FALSE);
      style = &default_style;
    }

  /* The plot area and a little more (bars are two pixels tall at least),
   * to whole pixels: an aligned clip costs cairo nothing. Without the
   * threshold labels, drawn in the frame below: where the data leaves them
   * no room, they still show, on the background. */
  cairo_save (cr);
  cairo_rectangle (cr, self->area_x, floor (self->area_y - 4), self->area_w,
                   ceil (self->area_y + self->area_h + 4) - floor (self->area_y - 4));
  cairo_clip (cr);
  cairo_new_path (cr);
  d = (Draw) { self, cr, style, FALSE, raster_begin (self, cr, &raster) ? &raster : NULL };

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
    raster_end (self, d.raster, cr);
  cairo_restore (cr);
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

  if (!self->prepared || !self->has_data)
    return;
  if (style == NULL)
    {
      rp_plot_style_init_default (&default_style, FALSE);
      style = &default_style;
    }

  d = (Draw) { self, cr, style, FALSE, NULL };
  cairo_save (cr);
  draw_hover (&d);
  cairo_restore (cr);
}

static guint
hash_double (guint  hash,
             double value)
{
  guint64 bits;

  memcpy (&bits, &value, sizeof bits);
  return (hash ^ (guint) bits ^ (guint) (bits >> 32)) * 16777619u;
}

static guint
hash_column (guint           hash,
             guint           index,
             const RpColumn *column)
{
  hash = (hash ^ index ^ (column->n << 16)) * 16777619u;
  hash = hash_double (hash, column->min);
  hash = hash_double (hash, column->max);
  return hash_double (hash, column->mean);
}

/**
 * rp_plot_get_data_hash:
 * @x0: left end of a strip of the chart, in its coordinates
 * @x1: right end
 *
 * A hash of everything rp_plot_draw_data() draws between @x0 and @x1 after
 * the last rp_plot_prepare(): the columns in the strip (and a few pixels
 * beyond, where dots and strokes reach) and, per series, the nearest filled
 * column on either side (lines and bars connect to them). A widget can keep
 * the rendering of a strip while its hash stays the same: new points only
 * change the strips at the right end, so that is all it needs to repaint.
 *
 * Returns: the hash (0 before any prepare)
 */
guint
rp_plot_get_data_hash (RpPlot *self,
                       double  x0,
                       double  x1)
{
  double scale;
  gint first, last;
  guint hash = 2166136261u;

  g_return_val_if_fail (RP_IS_PLOT (self), 0);

  if (!self->prepared || self->n_columns == 0)
    return 0;

  scale = self->n_columns / self->area_w;
  first = (gint) floor ((x0 - self->area_x - 2 * (DOT_RADIUS + LINE_WIDTH)) * scale);
  last = (gint) ceil ((x1 - self->area_x + 2 * (DOT_RADIUS + LINE_WIDTH)) * scale);
  first = CLAMP (first, 0, (gint) self->n_columns - 1);
  last = CLAMP (last, 0, (gint) self->n_columns - 1);

  for (guint i = 0; i < self->entries->len; i++)
    {
      const RpColumn *columns = self->columns[i];
      gboolean inside = FALSE;
      gint c, left, right;

      hash = (hash ^ i) * 16777619u;
      if (columns == NULL)
        continue;
      for (c = first; c <= last; c++)
        if (columns[c].n > 0)
          {
            hash = hash_column (hash, c, &columns[c]);
            inside = TRUE;
          }
      for (left = first - 1; left >= 0 && columns[left].n == 0; left--)
        ;
      for (right = last + 1; right < (gint) self->n_columns && columns[right].n == 0; right++)
        ;
      /* A neighbour matters only if something is drawn towards it: a strip
       * past the end of the data stays the same as the data grows. */
      if (left >= 0 && (inside || right < (gint) self->n_columns))
        hash = hash_column (hash, left, &columns[left]);
      if (right < (gint) self->n_columns && (inside || left >= 0))
        hash = hash_column (hash, right, &columns[right]);
    }
  /* The running stack of stacked areas depends on every stacked series: the
   * loop above covers them all. */
  return hash == 0 ? 1 : hash;
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

/**
 * rp_plot_draw:
 * @cr: where to draw, with (0, 0) at the top-left corner of the chart
 * @width: width in device units
 * @height: height in device units
 * @style: (nullable): colours and font; %NULL: rp_plot_style_init_default() light
 *
 * rp_plot_prepare(), rp_plot_draw_frame(), rp_plot_draw_data() and
 * rp_plot_draw_hover() in one: the whole chart. Each series is decimated to
 * one column per device unit and drawn as one path, so the cost follows
 * @width, not the number of points.
 */
void
rp_plot_draw (RpPlot            *self,
              cairo_t           *cr,
              double             width,
              double             height,
              const RpPlotStyle *style)
{
  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (cr != NULL);

  rp_plot_prepare (self, width, height, style);
  rp_plot_draw_frame (self, cr, style);
  rp_plot_draw_data (self, cr, style);
  rp_plot_draw_hover (self, cr, style);
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

/**
 * rp_plot_save:
 * @filename: the file to write
 * @format: "png", "svg" or "pdf"
 * @width: width in pixels (PNG) or points (SVG, PDF)
 * @height: height, likewise
 * @style: (nullable): see rp_plot_draw()
 * @error: %RP_ERROR_INVALID_ARGUMENT for an unknown format, %RP_ERROR_IO when
 *   cairo cannot write
 *
 * Draws the plot into a file with the same code as on screen.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_plot_save (RpPlot            *self,
              const char        *filename,
              const char        *format,
              double             width,
              double             height,
              const RpPlotStyle *style,
              GError           **error)
{
  cairo_surface_t *surface;
  cairo_status_t status;
  cairo_t *cr;

  g_return_val_if_fail (RP_IS_PLOT (self), FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);
  g_return_val_if_fail (format != NULL, FALSE);

  if (g_str_equal (format, "png"))
    surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) width, (int) height);
  else if (g_str_equal (format, "svg"))
    surface = cairo_svg_surface_create (filename, width, height);
  else if (g_str_equal (format, "pdf"))
    surface = cairo_pdf_surface_create (filename, width, height);
  else
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("Unknown image format “%s”; use png, svg or pdf"), format);
      return FALSE;
    }

  cr = cairo_create (surface);
  rp_plot_draw (self, cr, width, height, style);
  cairo_destroy (cr);
  status = cairo_surface_status (surface);
  if (status == CAIRO_STATUS_SUCCESS && g_str_equal (format, "png"))
    status = cairo_surface_write_to_png (surface, filename);
  /* Finishing writes the trailer of SVG and PDF files. */
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_IO,
                   _("Could not write the chart to “%s”: %s"),
                   filename, cairo_status_to_string (status));
      return FALSE;
    }
  return TRUE;
}
