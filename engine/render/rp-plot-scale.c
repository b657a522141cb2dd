/* rp-plot-scale.c: RpPlot's scales: display units, tick steps, the y range, values to pixels. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rp-plot-private.h"
#include "rp-units.h"

typedef struct {
  double      factor;
  const char *prefix;
  const char *suffix;
} UnitScale;

/**
 * rp_plot_time_symbol:
 * @which: microseconds, milliseconds or seconds
 *
 * Returns: (transfer none): the symbol of that unit in the user's language
 *   ("ms", Russian "мс"), as the axes, tooltips and label widths use it
 */
const char *
rp_plot_time_symbol (RpPlotTimeUnit which)
{
  switch (which)
    {
    case RP_PLOT_MICROSECONDS:
      /* TRANSLATORS: the symbol of microseconds on a chart's axis */
      return C_("unit symbol", "µs");
    case RP_PLOT_MILLISECONDS:
      /* TRANSLATORS: the symbol of milliseconds on a chart's axis */
      return C_("unit symbol", "ms");
    case RP_PLOT_SECONDS:
    default:
      /* TRANSLATORS: the symbol of seconds on a chart's axis */
      return C_("unit symbol", "s");
    }
}

/* The display unit for values around @magnitude: "ms" for 0.05 s. Axis labels
 * need one unit for all ticks, which is why this is not rp_format_latency(). */
static UnitScale
unit_scale (const char *unit,
            double      magnitude)
{
  static const char *byte_suffixes[] = { "B", "KiB", "MiB", "GiB", "TiB" };
  static const char *rate_suffixes[] = { "B/s", "KiB/s", "MiB/s", "GiB/s", "TiB/s" };
  double m = fabs (magnitude);

  /* Time symbols are translated (Russian writes мс), as rp_format_latency()
   * does for the summary: an axis in "ms" beside a table in "мс" read as two
   * different things. */
  if (g_strcmp0 (unit, "s") == 0)
    {
      if (m > 0 && m < 1e-3)
        return (UnitScale) { 1e-6, "", rp_plot_time_symbol (RP_PLOT_MICROSECONDS) };
      if (m > 0 && m < 1.0)
        return (UnitScale) { 1e-3, "", rp_plot_time_symbol (RP_PLOT_MILLISECONDS) };
      return (UnitScale) { 1.0, "", rp_plot_time_symbol (RP_PLOT_SECONDS) };
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

/* A tick label: @value in the display unit for @magnitude, with as many
 * decimals as @step needs. */
char *
rp_plot_format_tick (const char *unit,
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
  /* Absurd values (a report may hold up to 1e21) in a few characters, so
   * that the label fits the gutter. */
  if (fabs (scaled) >= 1e5)
    return g_strdup_printf ("%.2g %s%s", scaled, scale.prefix, scale.suffix);
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
  if (fabs (scaled) >= 1e5)
    return g_strdup_printf ("%.3g %s%s", scaled, scale.prefix, scale.suffix);
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
double
rp_plot_time_step (double rough)
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

/* A time axis label at @t: seconds, or whole minutes, hours or days when
 * @step is made of them. */
char *
rp_plot_format_time (double t,
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

/* The unit of the y axis: the values', or shares of them for a distribution. */
const char *
rp_plot_y_unit (RpPlot *self)
{
  return self->mode == RP_PLOT_CDF ? "ratio" : self->unit;
}

/* A step of the display unit ("50 MiB/s", not 52428800 B/s) near @rough. */
double
rp_plot_display_step (const char *unit,
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

/* The y scale of the columns of the last prepare: fitted to the data and
 * the thresholds (stacked areas summed, in self->stack as scratch), unless
 * rp_plot_set_y_range() set it; decades on a log axis. Sets has_data. */
Scale
rp_plot_compute_y_scale (RpPlot *self)
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
      double step = rp_plot_display_step (self->unit, (scale.hi - scale.lo) * 1.05 / 4, scale.hi);

      scale.hi = ceil (scale.hi * 1.05 / step - 1e-9) * step;
    }
  return scale;
}

/* The pixel row of value @v on @scale, clamped to just outside the area. */
double
rp_plot_y_to_pixel (RpPlot      *self,
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

/* The value drawn at pixel row @y: the inverse of rp_plot_y_to_pixel(). */
double
rp_plot_pixel_to_value (RpPlot *self,
                        double  y)
{
  const Scale *scale = &self->drawn_y;
  double v = scale->lo + (self->area_y + self->area_h - y) / self->area_h * (scale->hi - scale->lo);

  return scale->log ? pow (10, v) : v;
}

/* The x of the middle of @column. */
double
rp_plot_column_x (RpPlot *self,
                  guint   column)
{
  return self->area_x + (column + 0.5) * self->area_w / self->n_columns;
}

/* RP_PLOT_CDF: where a value sits on the log axis of the last prepare. */
double
rp_plot_value_to_x (RpPlot *self,
                    double  value)
{
  double f = value > 0 ? (log10 (value) - self->drawn_t0) / (self->drawn_t1 - self->drawn_t0) : -0.01;

  return self->area_x + CLAMP (f, -0.01, 1.01) * self->area_w;
}
