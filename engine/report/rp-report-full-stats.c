/* rp-report-full-stats.c: a thinned series' statistics of every sample, in a report's JSON. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-stream-stats.h"

/* The kernel events' device latency keeps the longest request of each
 * 0.1 s as points to draw (455 of 42 550 requests in a trial), and the
 * statistics of every request beside them (rp_series_set_full_stats()):
 * count, extremes, Welford's mean and sum of squares, the counts over the
 * limits, exactly, and the histogram of rp-histogram.c bucket by bucket, so
 * that a loaded report gives the same figures as the run
 * (docs/REPORT-FORMAT.md, `full_statistics`). A reader checks them against
 * the points, which are some of those samples: a report cannot claim
 * statistics its own points contradict. */

static void
add_count (JsonObject *object,
           const char *key,
           guint64     value)
{
  json_object_set_int_member (object, key, (gint64) MIN (value, (guint64) G_MAXINT64));
}

/**
 * rp_report_full_stats_to_json:
 * @stats: a series' full statistics (rp_series_get_full_stats())
 *
 * Returns: (transfer full) (nullable): the object `full_statistics`,
 *   %NULL when @stats hold no value
 */
JsonObject *
rp_report_full_stats_to_json (RpStreamStats *stats)
{
  g_autoptr(RpHistogram) histogram = rp_stream_stats_copy_histogram (stats);
  RpStreamMoments m;
  JsonObject *object, *scheme;
  JsonArray *buckets;
  guint64 count;

  rp_stream_stats_get_moments (stats, &m);
  if (histogram == NULL || m.n == 0)
    return NULL;
  object = json_object_new ();
  add_count (object, "n", m.n);
  json_object_set_double_member (object, "min", m.min);
  json_object_set_double_member (object, "max", m.max);
  json_object_set_double_member (object, "mean", m.mean);
  json_object_set_double_member (object, "m2", m.m2);
  add_count (object, "over_0_1s", m.over_instant);
  add_count (object, "over_1s", m.over_flow);
  add_count (object, "over_10s", m.over_attention);
  scheme = json_object_new ();
  json_object_set_double_member (scheme, "relative_error", RP_HISTOGRAM_RELATIVE_ERROR);
  json_object_set_double_member (scheme, "lowest", RP_HISTOGRAM_LOWEST);
  json_object_set_double_member (scheme, "highest", RP_HISTOGRAM_HIGHEST);
  buckets = json_array_new ();
  for (gsize b = 0; rp_histogram_next_bucket (histogram, &b, &count); b++)
    {
      JsonArray *pair = json_array_sized_new (2);

      json_array_add_int_element (pair, (gint64) b);
      json_array_add_int_element (pair, (gint64) MIN (count, (guint64) G_MAXINT64));
      json_array_add_array_element (buckets, pair);
    }
  json_object_set_array_member (scheme, "buckets", buckets);
  json_object_set_object_member (object, "histogram", scheme);
  return object;
}

static gboolean
get_number (JsonObject *object,
            const char *key,
            double     *out)
{
  return rp_report_json_get_number (object != NULL ? json_object_get_member (object, key) : NULL, out);
}

static gboolean
get_count (JsonNode *node,
           guint64  *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64 ||
      json_node_get_int (node) < 0)
    return FALSE;
  *out = (guint64) json_node_get_int (node);
  return TRUE;
}

/* The histogram's buckets, of our scheme only: a bucket index means
 * nothing under another relative error or lowest value. */
static const char *
read_histogram (JsonObject      *object,
                RpStreamMoments *m,
                RpHistogram    **out)
{
  JsonNode *node = json_object_get_member (object, "histogram");
  g_autoptr(RpHistogram) histogram = rp_histogram_new ();
  JsonObject *scheme;
  JsonArray *buckets;
  double alpha, lowest, highest;
  gint64 previous = -1;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return "no histogram";
  scheme = json_node_get_object (node);
  if (!get_number (scheme, "relative_error", &alpha) || !get_number (scheme, "lowest", &lowest) ||
      !get_number (scheme, "highest", &highest) || alpha != RP_HISTOGRAM_RELATIVE_ERROR ||
      lowest != RP_HISTOGRAM_LOWEST || highest != RP_HISTOGRAM_HIGHEST)
    return "a histogram of another scheme";
  node = json_object_get_member (scheme, "buckets");
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return "no buckets";
  buckets = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (buckets); i++)
    {
      JsonNode *pair_node = json_array_get_element (buckets, i);
      JsonArray *pair;
      guint64 index, count;

      if (!JSON_NODE_HOLDS_ARRAY (pair_node) || json_array_get_length (pair = json_node_get_array (pair_node)) != 2 ||
          !get_count (json_array_get_element (pair, 0), &index) || !get_count (json_array_get_element (pair, 1), &count) ||
          (gint64) index <= previous ||
          !rp_histogram_add_bucket (histogram, (gsize) index, count, m->min, m->max))
        return "a bucket that is not [index, count] in ascending order";
      previous = (gint64) index;
    }
  if (rp_histogram_get_count (histogram) != m->n)
    return "buckets that do not add up to n";
  *out = g_steal_pointer (&histogram);
  return NULL;
}

/* Whether @m can be the statistics of samples of which @series' points
 * are some: at least as many, extremes outside the points', every point
 * over 0.1 s counted. */
static const char *
check_against_points (const RpStreamMoments *m,
                      RpSeries              *series,
                      gboolean               never_negative)
{
  g_autofree double *values = NULL;
  guint n = 0;
  guint64 over = 0;

  if (m->n == 0 || m->min > m->max || m->mean < m->min - 1e-9 * fabs (m->min) ||
      m->mean > m->max + 1e-9 * fabs (m->max) || m->m2 < 0 || (never_negative && m->min < 0) ||
      m->over_instant > m->n || m->over_flow > m->over_instant || m->over_attention > m->over_flow)
    return "figures that contradict one another";
  values = rp_series_copy_values (series, &n);
  if (n > m->n)
    return "fewer samples than the series has points";
  for (guint i = 0; i < n; i++)
    {
      if (values[i] < m->min || values[i] > m->max)
        return "a point outside its minimum and maximum";
      over += values[i] > RP_LIMIT_INSTANT;
    }
  if (over > m->over_instant)
    return "fewer samples over 0.1 s than the series has points";
  return NULL;
}

/**
 * rp_report_read_full_stats:
 * @shown: the series' name as errors show it
 * @node: (nullable): its member `full_statistics`; %NULL: none (reports
 *   before it, and every series whose points are all its samples)
 * @series: the series, its points read
 * @never_negative: whether its unit has no negative values
 * @error: %RP_ERROR_REPORT naming the series and what is wrong
 *
 * Reads the statistics of every sample and gives them to @series
 * (rp_series_set_full_stats()).
 *
 * Returns: %FALSE with @error set when they are malformed or contradict
 *   the points
 */
gboolean
rp_report_read_full_stats (const char  *shown,
                           JsonNode    *node,
                           RpSeries    *series,
                           gboolean     never_negative,
                           GError     **error)
{
  JsonObject *object;
  RpStreamMoments m = { 0 };
  RpHistogram *histogram = NULL;
  const char *wrong = NULL;

  if (node == NULL)
    return TRUE;
  object = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
  if (object == NULL || !get_count (json_object_get_member (object, "n"), &m.n) ||
      !get_number (object, "min", &m.min) || !get_number (object, "max", &m.max) ||
      !get_number (object, "mean", &m.mean) || !get_number (object, "m2", &m.m2) ||
      !get_count (json_object_get_member (object, "over_0_1s"), &m.over_instant) ||
      !get_count (json_object_get_member (object, "over_1s"), &m.over_flow) ||
      !get_count (json_object_get_member (object, "over_10s"), &m.over_attention))
    wrong = "a missing or malformed figure";
  if (wrong == NULL)
    wrong = check_against_points (&m, series, never_negative);
  if (wrong == NULL)
    wrong = read_histogram (object, &m, &histogram);
  if (wrong != NULL)
    {
      /* TRANSLATORS: %s: a series name; the last %s says what is wrong, in English, e.g. "buckets that do not add up to n" */
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT, _("Series “%s”: key “full_statistics” has %s"), shown, wrong);
      return FALSE;
    }
  rp_series_set_full_stats (series, rp_stream_stats_new_restored (&m, histogram));
  return TRUE;
}
