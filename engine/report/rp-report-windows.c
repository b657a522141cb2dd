/* rp-report-windows.c: a thinned series' samples per 0.1 s (window histograms), in a report's JSON. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-stream-stats.h"
#include "rp-time-histogram.h"
#include "rp-varint.h"

/* `window_histograms` (docs/REPORT-FORMAT.md): the device latency of every
 * request per 0.1 s, so that a loaded report gives each stall the same
 * percentiles as the run did (issue 31, defect 5). As text of varints,
 * not JSON numbers: a busy disk fills some 60 buckets a slot, 600 slots a
 * minute; as [index, count] arrays that would be ~10 bytes of file and
 * ~300 of json-glib's tree each. Each string of `blocks` is base64 (RFC
 * 4648, padded) of unsigned LEB128 varints: for each non-empty slot, the
 * slot's number (the first of the block: itself; then its distance from
 * the previous slot, at least 1), its number of buckets, then for each
 * bucket its index (the first: itself; then the distance from the
 * previous, at least 1) and its count (at least 1). */

#define SLOTS_PER_BLOCK 600   /* a minute of 0.1 s slots */

static void
add_block (JsonArray  *blocks,
           GByteArray *raw)
{
  g_autofree char *text = NULL;

  if (raw->len == 0)
    return;
  text = g_base64_encode (raw->data, raw->len);
  json_array_add_string_element (blocks, text);
  g_byte_array_set_size (raw, 0);
}

/**
 * rp_report_stall_windows:
 *
 * The windows a stall's "what ran meanwhile" and the cause sentence ask a
 * series for (rp-report-stalls.c, rp-report-causes.c): [start, end +
 * %RP_REPORT_PERIOD_SLACK] of each stall, which rp_time_histogram_merge()
 * widens to whole 0.1 s slots. The slots a report keeps.
 *
 * Returns: (transfer full) (element-type double): pairs, from and to (s)
 */
GArray *
rp_report_stall_windows (RpReport *self)
{
  GArray *windows = g_array_sized_new (FALSE, FALSE, sizeof (double), 2 * self->stalls->len);

  for (guint i = 0; i < self->stalls->len; i++)
    {
      const RpStall *stall = g_ptr_array_index (self->stalls, i);
      double window[2] = { stall->start, stall->start + stall->duration + RP_REPORT_PERIOD_SLACK };

      g_array_append_vals (windows, window, 2);
    }
  return windows;
}

/**
 * rp_report_windows_to_json:
 * @histograms: a series' window histograms (rp_series_get_window_histograms())
 * @windows: (element-type double): pairs, from and to (s): the report's
 *   stalls' windows (rp_report_stall_windows())
 *
 * Keeps only the slots @windows touch (and @histograms holds), and names
 * them in `covered`: every 0.1 s was 10 MB an hour of report at 20 000
 * requests a second (bench row 7b), for a file people attach to bug
 * reports; the stalls' figures need their windows only, and a window not
 * kept falls back to the points, saying so (rp_series_stats_in_windows()).
 * The run itself keeps every slot (the window's live Why).
 *
 * Returns: (transfer full) (nullable): the object `window_histograms`,
 *   %NULL when @histograms hold no sample or @windows no slot
 */
JsonObject *
rp_report_windows_to_json (RpTimeHistogram *histograms,
                           GArray          *windows)
{
  g_autoptr(GByteArray) raw = g_byte_array_new ();
  g_autoptr(GArray) ranges = NULL;
  JsonObject *object;
  JsonArray *blocks, *covered;
  guint64 total = 0;
  guint in_block = 0, previous = 0;

  if (rp_time_histogram_get_count (histograms) == 0)
    return NULL;
  ranges = rp_time_histogram_get_ranges (histograms, (const double *) windows->data, windows->len / 2);
  if (ranges->len == 0)
    return NULL;
  object = json_object_new ();
  blocks = json_array_new ();
  covered = json_array_new ();
  for (guint r = 0; r < ranges->len; r++)
    {
      guint first = g_array_index (ranges, guint, 2 * r), last = g_array_index (ranges, guint, 2 * r + 1);
      JsonArray *pair = json_array_new ();

      json_array_add_int_element (pair, first);
      json_array_add_int_element (pair, last);
      json_array_add_array_element (covered, pair);
      for (guint k = first; k <= last; k++)
        {
          guint n;
          g_autofree RpTimeBucket *buckets = rp_time_histogram_copy_slot (histograms, k, &n);

          if (n == 0)
            continue;
          rp_varint_put (raw, in_block == 0 ? k : k - previous);
          rp_varint_put (raw, n);
          for (guint i = 0; i < n; i++)
            {
              rp_varint_put (raw, i == 0 ? buckets[i].index : buckets[i].index - buckets[i - 1].index);
              rp_varint_put (raw, buckets[i].count);
              total += buckets[i].count;
            }
          previous = k;
          if (++in_block == SLOTS_PER_BLOCK)
            {
              add_block (blocks, raw);
              in_block = 0;
            }
        }
    }
  add_block (blocks, raw);
  json_object_set_double_member (object, "width", RP_TIME_HISTOGRAM_WIDTH);
  json_object_set_double_member (object, "relative_error", RP_TIME_HISTOGRAM_RELATIVE_ERROR);
  json_object_set_double_member (object, "lowest", RP_HISTOGRAM_LOWEST);
  json_object_set_double_member (object, "highest", RP_HISTOGRAM_HIGHEST);
  /* Counted from what was written: the copy may have grown meanwhile. */
  json_object_set_int_member (object, "n", (gint64) MIN (total, (guint64) G_MAXINT64));
  json_object_set_array_member (object, "covered", covered);
  json_object_set_array_member (object, "blocks", blocks);
  return object;
}

/* One block into @histograms; @last_slot: the previous block's last slot
 * (-1 before the first), which this block must come after; @covered: the
 * slots the report kept (%NULL: every one), @in_covered where the previous
 * slot was found in it. */
static const char *
read_block (const char      *text,
            RpTimeHistogram *histograms,
            const GArray    *covered,
            guint           *in_covered,
            gint64          *last_slot)
{
  g_autofree guint8 *data = NULL;
  gsize length = 0, pos = 0;
  gboolean first_slot = TRUE;
  guint64 slot = 0;

  if (text == NULL || *text == '\0')
    return "an empty block";
  data = g_base64_decode (text, &length);
  while (pos < length)
    {
      guint64 step, n, index = 0;

      if (!rp_varint_get (data, length, &pos, &step) || !rp_varint_get (data, length, &pos, &n) || n == 0 ||
          n > rp_histogram_get_n_buckets ())
        return "a malformed block";
      if (!first_slot && step == 0)
        return "slots out of order";
      slot = first_slot ? step : slot + step;
      if (slot >= G_MAXUINT / 2 || (gint64) slot <= *last_slot)
        return "slots out of order";
      first_slot = FALSE;
      while (covered != NULL && *in_covered < covered->len &&
             g_array_index (covered, guint, *in_covered + 1) < slot)
        *in_covered += 2;
      if (covered != NULL && (*in_covered >= covered->len || g_array_index (covered, guint, *in_covered) > slot))
        return "a slot outside those covered";
      for (guint64 i = 0; i < n; i++)
        {
          guint64 delta, count;

          if (!rp_varint_get (data, length, &pos, &delta) || !rp_varint_get (data, length, &pos, &count) ||
              (i > 0 && delta == 0))
            return "a malformed block";
          index = i == 0 ? delta : index + delta;
          if (index >= rp_histogram_get_n_buckets () ||
              !rp_time_histogram_add_bucket (histograms, (guint) slot, (gsize) index, count))
            return "a bucket out of range";
        }
      *last_slot = (gint64) slot;
    }
  return NULL;
}

/* `covered` into @histograms (rp_time_histogram_add_covered()) and
 * *@out; absent: *@out stays %NULL, no slot is known to be kept. */
static const char *
read_covered (JsonNode        *node,
              RpTimeHistogram *histograms,
              GArray         **out)
{
  g_autoptr(GArray) covered = g_array_new (FALSE, FALSE, sizeof (guint));
  JsonArray *pairs;

  if (node == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (node))
    return "a “covered” that is not an array";
  pairs = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (pairs); i++)
    {
      JsonNode *pair = json_array_get_element (pairs, i);
      double slot[2];
      guint first, last;

      if (!JSON_NODE_HOLDS_ARRAY (pair) || json_array_get_length (json_node_get_array (pair)) != 2)
        return "a malformed “covered”";
      for (guint j = 0; j < 2; j++)
        if (!rp_report_json_get_number (json_array_get_element (json_node_get_array (pair), j), &slot[j]) ||
            slot[j] < 0 || slot[j] >= G_MAXUINT / 2 || slot[j] != floor (slot[j]))
          return "a malformed “covered”";
      first = (guint) slot[0];
      last = (guint) slot[1];
      if (!rp_time_histogram_add_covered (histograms, first, last))
        return "slots out of order";
      g_array_append_val (covered, first);
      g_array_append_val (covered, last);
    }
  /* Covering nothing: the writer would have left the key out. */
  if (covered->len == 0)
    return "a malformed “covered”";
  *out = g_steal_pointer (&covered);
  return NULL;
}

static const char *
read_windows (JsonObject      *object,
              RpSeries        *series,
              RpTimeHistogram *histograms,
              gboolean        *out_covered)
{
  JsonNode *node = json_object_get_member (object, "blocks");
  RpStreamStats *full = rp_series_get_full_stats (series);
  RpStreamMoments m = { 0 };
  double width, alpha, lowest, highest, n;
  gint64 last_slot = -1;
  g_autoptr(GArray) covered = NULL;
  guint in_covered = 0;
  JsonArray *blocks;
  const char *wrong;

  if (!rp_report_json_get_number (json_object_get_member (object, "width"), &width) ||
      !rp_report_json_get_number (json_object_get_member (object, "relative_error"), &alpha) ||
      !rp_report_json_get_number (json_object_get_member (object, "lowest"), &lowest) ||
      !rp_report_json_get_number (json_object_get_member (object, "highest"), &highest) ||
      !rp_report_json_get_number (json_object_get_member (object, "n"), &n))
    return "a missing or malformed figure";
  /* A bucket index or a slot means nothing in another scheme. */
  if (width != RP_TIME_HISTOGRAM_WIDTH || alpha != RP_TIME_HISTOGRAM_RELATIVE_ERROR ||
      lowest != RP_HISTOGRAM_LOWEST || highest != RP_HISTOGRAM_HIGHEST)
    return "histograms of another scheme";
  if ((wrong = read_covered (json_object_get_member (object, "covered"), histograms, &covered)) != NULL)
    return wrong;
  *out_covered = covered != NULL;
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return "no blocks";
  blocks = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonNode *block = json_array_get_element (blocks, i);

      if (!JSON_NODE_HOLDS_VALUE (block) || json_node_get_value_type (block) != G_TYPE_STRING)
        return "a block that is not a string";
      wrong = read_block (json_node_get_string (block), histograms, covered, &in_covered, &last_slot);
      if (wrong != NULL)
        return wrong;
    }
  if ((double) rp_time_histogram_get_count (histograms) != n)
    return "buckets that do not add up to n";
  /* The histograms hold some of the requests the statistics count. */
  if (full != NULL)
    rp_stream_stats_get_moments (full, &m);
  if (full == NULL || rp_time_histogram_get_count (histograms) > m.n)
    return "more samples than its full statistics";
  return NULL;
}

/**
 * rp_report_read_windows:
 * @shown: the series' name as errors show it
 * @node: (nullable): its member `window_histograms`; %NULL: none (reports
 *   before it: a stall's figures are then of the points)
 * @series: the series, its points and full statistics read
 * @error: %RP_ERROR_REPORT naming the series and what is wrong
 *
 * Reads the samples per 0.1 s of the slots the report kept (`covered`:
 * its stalls' windows) and gives them to @series
 * (rp_series_set_window_histograms()); a window outside them is of the
 * points (rp_series_stats_in_windows()). Without `covered`, checks them
 * and gives none.
 *
 * Returns: %FALSE with @error set when they are malformed or count more
 *   samples than the series' full statistics
 */
gboolean
rp_report_read_windows (const char  *shown,
                        JsonNode    *node,
                        RpSeries    *series,
                        GError     **error)
{
  g_autoptr(RpTimeHistogram) histograms = NULL;
  gboolean covered = FALSE;
  const char *wrong;

  if (node == NULL)
    return TRUE;
  histograms = rp_time_histogram_new ();
  wrong = JSON_NODE_HOLDS_OBJECT (node) ? read_windows (json_node_get_object (node), series, histograms, &covered)
                                        : "a value that is not an object";
  if (wrong != NULL)
    {
      /* TRANSLATORS: %s: a series name; the last %s says what is wrong, in English, e.g. "buckets that do not add up to n" */
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT, _("Series “%s”: key “window_histograms” has %s"), shown, wrong);
      return FALSE;
    }
  /* Without `covered` a missing slot cannot be told from an empty one (a
   * writer before it kept every slot, but nothing says this one did): the
   * stalls' figures are then of the points, and say so. */
  if (covered)
    rp_series_set_window_histograms (series, g_steal_pointer (&histograms));
  return TRUE;
}
