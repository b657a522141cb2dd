/* rp-plot-describe.c: a chart's values in words, for screen readers (the accessible description of the chart widget). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <math.h>

#include "rp-plot-private.h"
#include "rp-stats.h"
#include "rp-units.h"

/* One series: "fsync latency: 412 samples, median 3.10 ms, worst 9.85 s at
 * 12.4 s". The worst is found in the points (its time too); the median
 * from rp_series_compute_stats(), which the summaries use. */
static char *
describe_entry (RpPlot *self,
                Entry  *entry)
{
  g_autofree RpPoint *points = NULL;
  g_autofree char *median = NULL;
  g_autofree char *worst = NULL;
  g_autofree char *at = NULL;
  RpStats stats;
  guint n = 0, worst_index = 0;

  points = rp_series_copy_points (entry->series, 0, &n);
  if (n == 0)
    /* TRANSLATORS: a chart's series for a screen reader: "fsync latency: no samples" */
    return g_strdup_printf (_("%s: no samples"), entry->label);
  for (guint i = 1; i < n; i++)
    if (points[i].v > points[worst_index].v)
      worst_index = i;
  rp_series_compute_stats (entry->series, &stats);
  median = rp_plot_format_value (self, stats.p50);
  worst = rp_plot_format_value (self, points[worst_index].v);
  at = rp_format_value ("s", points[worst_index].t);
  /* TRANSLATORS: a chart's series for a screen reader: "fsync latency: 412
   * samples, median 3.10 ms, worst 9.85 s at 12.4 s" (the last: time since
   * the start of the run); the plural follows the count */
  return g_strdup_printf (ngettext ("%s: %u sample, median %s, worst %s at %s",
                                    "%s: %u samples, median %s, worst %s at %s", n),
                          entry->label, n, median, worst, at);
}

/**
 * rp_plot_describe:
 *
 * The chart in words for those who cannot see it: its title, then a
 * sentence per bound series with its sample count, median and worst value
 * and when that happened, e.g. "fsync latency: 412 samples, median
 * 3.10 ms, worst 9.85 s at 12.4 s". Reads every point (the median needs
 * them): call it when the chart gets focus or after a run, not per frame.
 *
 * Returns: (transfer full): translated text, sentences joined by ". "
 */
char *
rp_plot_describe (RpPlot *self)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (RP_IS_PLOT (self), NULL);

  g_ptr_array_add (parts, g_strdup (self->title != NULL ? self->title : ""));
  for (guint i = 0; i < self->entries->len; i++)
    {
      Entry *entry = g_ptr_array_index (self->entries, i);

      if (entry->series != NULL)
        g_ptr_array_add (parts, describe_entry (self, entry));
    }
  if (parts->len == 1 && self->placeholder != NULL)
    g_ptr_array_add (parts, g_strdup (self->placeholder));
  g_ptr_array_add (parts, NULL);
  return g_strjoinv (". ", (char **) parts->pdata);
}
