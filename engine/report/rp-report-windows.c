/* rp-report-windows.c: a thinned series' samples per 0.1 s (window histograms), in a report's JSON. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <glib/gi18n-lib.h>

#include "rp-error.h"
#include "rp-report-private.h"
#include "rp-stream-stats.h"
#include "rp-time-histogram.h"

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
#define MAX_VARINT      10

static void
put_varint (GByteArray *out,
            guint64     n)
{
  guint8 bytes[MAX_VARINT];
  guint len = 0;

  while (n >= 0x80)
    {
      bytes[len++] = (guint8) (n | 0x80);
      n >>= 7;
    }
  bytes[len++] = (guint8) n;
  g_byte_array_append (out, bytes, len);
}

static gboolean
get_varint (const guint8 *data,
            gsize         length,
            gsize        *pos,
            guint64      *out)
{
  guint64 n = 0;

  for (guint shift = 0; shift < 64; shift += 7)
    {
      guint8 byte;

      if (*pos >= length)
        return FALSE;
      byte = data[(*pos)++];
      n |= (guint64) (byte & 0x7f) << shift;
      if ((byte & 0x80) == 0)
        {
          *out = n;
          return TRUE;
        }
    }
  return FALSE;
}

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
 * rp_report_windows_to_json:
 * @histograms: a series' window histograms (rp_series_get_window_histograms())
 *
 * Returns: (transfer full) (nullable): the object `window_histograms`,
 *   %NULL when they hold no sample
 */
JsonObject *
rp_report_windows_to_json (RpTimeHistogram *histograms)
{
  g_autoptr(GByteArray) raw = g_byte_array_new ();
  JsonObject *object;
  JsonArray *blocks;
  guint64 total = 0;
  guint n_slots = rp_time_histogram_get_n_slots (histograms), in_block = 0, previous = 0;

  if (rp_time_histogram_get_count (histograms) == 0)
    return NULL;
  object = json_object_new ();
  blocks = json_array_new ();
  for (guint k = 0; k < n_slots; k++)
    {
      guint n;
      g_autofree RpTimeBucket *buckets = rp_time_histogram_copy_slot (histograms, k, &n);

      if (n == 0)
        continue;
      put_varint (raw, in_block == 0 ? k : k - previous);
      put_varint (raw, n);
      for (guint i = 0; i < n; i++)
        {
          put_varint (raw, i == 0 ? buckets[i].index : buckets[i].index - buckets[i - 1].index);
          put_varint (raw, buckets[i].count);
          total += buckets[i].count;
        }
      previous = k;
      if (++in_block == SLOTS_PER_BLOCK)
        {
          add_block (blocks, raw);
          in_block = 0;
        }
    }
  add_block (blocks, raw);
  json_object_set_double_member (object, "width", RP_TIME_HISTOGRAM_WIDTH);
  json_object_set_double_member (object, "relative_error", RP_TIME_HISTOGRAM_RELATIVE_ERROR);
  json_object_set_double_member (object, "lowest", RP_HISTOGRAM_LOWEST);
  json_object_set_double_member (object, "highest", RP_HISTOGRAM_HIGHEST);
  /* Counted from what was written: the copy may have grown meanwhile. */
  json_object_set_int_member (object, "n", (gint64) MIN (total, (guint64) G_MAXINT64));
  json_object_set_array_member (object, "blocks", blocks);
  return object;
}

/* One block into @histograms; @last_slot: the previous block's last slot
 * (-1 before the first), which this block must come after. */
static const char *
read_block (const char      *text,
            RpTimeHistogram *histograms,
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

      if (!get_varint (data, length, &pos, &step) || !get_varint (data, length, &pos, &n) || n == 0 ||
          n > rp_histogram_get_n_buckets ())
        return "a malformed block";
      if (!first_slot && step == 0)
        return "slots out of order";
      slot = first_slot ? step : slot + step;
      if (slot >= G_MAXUINT / 2 || (gint64) slot <= *last_slot)
        return "slots out of order";
      first_slot = FALSE;
      for (guint64 i = 0; i < n; i++)
        {
          guint64 delta, count;

          if (!get_varint (data, length, &pos, &delta) || !get_varint (data, length, &pos, &count) ||
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

static const char *
read_windows (JsonObject      *object,
              RpSeries        *series,
              RpTimeHistogram *histograms)
{
  JsonNode *node = json_object_get_member (object, "blocks");
  RpStreamStats *full = rp_series_get_full_stats (series);
  RpStreamMoments m = { 0 };
  double width, alpha, lowest, highest, n;
  gint64 last_slot = -1;
  JsonArray *blocks;

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
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return "no blocks";
  blocks = json_node_get_array (node);
  for (guint i = 0; i < json_array_get_length (blocks); i++)
    {
      JsonNode *block = json_array_get_element (blocks, i);
      const char *wrong;

      if (!JSON_NODE_HOLDS_VALUE (block) || json_node_get_value_type (block) != G_TYPE_STRING)
        return "a block that is not a string";
      wrong = read_block (json_node_get_string (block), histograms, &last_slot);
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
 * Reads the samples per 0.1 s and gives them to @series
 * (rp_series_set_window_histograms()).
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
  const char *wrong;

  if (node == NULL)
    return TRUE;
  histograms = rp_time_histogram_new ();
  wrong = JSON_NODE_HOLDS_OBJECT (node) ? read_windows (json_node_get_object (node), series, histograms)
                                        : "a value that is not an object";
  if (wrong != NULL)
    {
      /* TRANSLATORS: %s: a series name; the last %s says what is wrong, in English, e.g. "buckets that do not add up to n" */
      g_set_error (error, RP_ERROR, RP_ERROR_REPORT, _("Series “%s”: key “window_histograms” has %s"), shown, wrong);
      return FALSE;
    }
  rp_series_set_window_histograms (series, g_steal_pointer (&histograms));
  return TRUE;
}
