/* rp-plot.c: RpPlot, the one chart renderer: the object, its settings and series (drawing: rp-plot-*.c). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include "rp-plot-private.h"
#include "rp-units.h"

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
  g_clear_pointer (&self->spans, g_array_unref);
  g_clear_pointer (&self->gaps, g_array_unref);
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
 * rp_plot_add_series_colored:
 * @name: the series' name, the key for binding
 * @label: (nullable): legend label, translated; defaults to @name
 * @mark: how to draw it
 * @color: index into the style's palette (taken modulo
 *   %RP_PLOT_PALETTE_SIZE), e.g. rp_comparison_run_color()
 *
 * rp_plot_add_series() with a colour of its own instead of the next in
 * order: a comparison gives each run the same colour whatever its place
 * (the baseline keeps its colour when the user picks another), in every
 * chart and legend that shows it.
 */
void
rp_plot_add_series_colored (RpPlot     *self,
                            const char *name,
                            const char *label,
                            RpPlotMark  mark,
                            guint       color)
{
  Entry *entry;

  g_return_if_fail (RP_IS_PLOT (self));
  g_return_if_fail (name != NULL);

  rp_plot_add_series (self, name, label, mark);
  entry = lookup_entry (self, name);
  g_return_if_fail (entry != NULL);
  entry->color = color % RP_PLOT_PALETTE_SIZE;
}

/**
 * rp_plot_get_series_color:
 * @name: a name given to rp_plot_add_series()
 *
 * Returns: the series' index into the palette, or -1 for an unknown @name
 */
int
rp_plot_get_series_color (RpPlot     *self,
                          const char *name)
{
  Entry *entry;

  g_return_val_if_fail (RP_IS_PLOT (self), -1);

  entry = lookup_entry (self, name);
  return entry != NULL ? (int) entry->color : -1;
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

/* A chart declares every series it can show; the legend names those the run
 * has (all of them while none is bound, so that an empty chart says what it
 * is waiting for). */
gboolean
rp_plot_in_legend (RpPlot *self,
                   Entry  *entry)
{
  for (guint i = 0; i < self->entries->len; i++)
    if (((Entry *) g_ptr_array_index (self->entries, i))->series != NULL)
      return entry->series != NULL;
  return TRUE;
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
 * rp_plot_add_limit:
 * @value: where to draw a dashed horizontal line, in the plot's unit
 *
 * A reference line labelled with its own value, written as the verdict
 * writes a limit for a latency chart (rp_format_limit(): "0.1 s", in German
 * "0,1 s") and as the y axis writes its ticks otherwise
 * (rp_plot_format_tick()): in the decimal separator of the locale at the
 * time of the call (LC_NUMERIC), as the axes, so that the line's label and
 * the axis beside it never disagree. A translated literal such as
 * _("0.1 s") does not: it is the source text wherever the translations are
 * not installed (a build tree), while the axes follow the locale.
 */
void
rp_plot_add_limit (RpPlot *self,
                   double  value)
{
  g_autofree char *label = NULL;

  g_return_if_fail (RP_IS_PLOT (self));

  if (g_strcmp0 (self->unit, "s") == 0)
    label = rp_format_limit (value);
  else
    label = rp_plot_format_tick (self->unit, value, value, value);
  rp_plot_add_threshold (self, value, label);
}

/**
 * rp_plot_get_threshold_text:
 * @index: 0 .. number of thresholds added − 1, in the order added
 *
 * Returns: (transfer none) (nullable): the label of a reference line as it
 *   is drawn, %NULL for none or an @index out of range
 */
const char *
rp_plot_get_threshold_text (RpPlot *self,
                            guint   index)
{
  g_return_val_if_fail (RP_IS_PLOT (self), NULL);

  if (index >= self->thresholds->len)
    return NULL;
  return g_array_index (self->thresholds, Threshold, index).label;
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
