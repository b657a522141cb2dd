/* bench-window-latency.c: benchmark 7b, memory and report bytes of the device latency's window histograms per hour. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <malloc.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "rp-report-private.h"
#include "rp-series.h"
#include "rp-time-histogram.h"

/* Usage: bench-window-latency HOURS RATE [STALLS]. RATE requests a second for HOURS,
 * each of a log-normal latency (median 1 ms, σ 0.7: NVMe-like spread over
 * two decades), added as the kernel-event reader does: into the window
 * histograms (rp-time-histogram.c), and the longest of each 0.1 s into the
 * thinned series that is drawn (the current store, beside it). Prints one
 * JSON line: the heap each took (mallinfo2, the allocator's overhead
 * included), the histograms' own count of bytes, their `window_histograms`
 * text in a report, and per hour: as a report writes them, only the slots
 * of STALLS stalls an hour (default 60), each 0.5 s, spread evenly
 * (rp_report_windows_to_json()), and every slot, as if the whole run were
 * one stall (what a report kept before). */
int
main (int argc, char **argv)
{
  double hours = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 1;
  double rate = argc > 2 ? g_ascii_strtod (argv[2], NULL) : 20000;
  double stalls_per_hour = argc > 3 ? g_ascii_strtod (argv[3], NULL) : 60;
  g_autoptr(GArray) stall_windows = g_array_new (FALSE, FALSE, sizeof (double));
  double whole[2] = { 0, hours * 3600 };
  gsize every_slot_bytes;
  g_autoptr(GRand) rand = g_rand_new_with_seed (31);
  g_autoptr(RpTimeHistogram) windows = NULL;
  g_autoptr(RpSeries) thinned = NULL;
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *text = NULL;
  gsize before, after_windows, after_series, json_bytes = 0;
  guint64 n = 0;
  double window_end = 0.1, longest = -1, longest_t = 0;

  if (hours <= 0 || rate <= 0 || stalls_per_hour < 0)
    {
      fprintf (stderr, "usage: bench-window-latency HOURS RATE [STALLS]\n");
      return 2;
    }
  before = mallinfo2 ().uordblks;
  windows = rp_time_histogram_new ();
  for (double t = 0; t < hours * 3600; t += 1 / rate, n++)
    {
      /* Box–Muller: a normal deviate. */
      double z = sqrt (-2 * log (1 - g_rand_double (rand))) * cos (2 * G_PI * g_rand_double (rand));

      rp_time_histogram_add (windows, t, 1e-3 * exp (0.7 * z));
    }
  after_windows = mallinfo2 ().uordblks;
  /* The current store: a point per 0.1 s (the values do not matter). */
  thinned = rp_series_new ("device_write_latency", "s", NULL);
  for (double t = 0; t < hours * 3600; t += 0.1)
    {
      if (t >= window_end)
        {
          rp_series_append (thinned, longest_t, longest);
          window_end += 0.1;
        }
      longest = 1e-3;
      longest_t = t;
    }
  after_series = mallinfo2 ().uordblks;
  for (guint i = 0; i < (guint) (stalls_per_hour * hours); i++)
    {
      /* As rp_report_stall_windows() widens a stall of 0.5 s. */
      double start = (i + 0.5) * 3600 / stalls_per_hour;
      double window[2] = { start, start + 0.5 + RP_REPORT_PERIOD_SLACK };

      g_array_append_vals (stall_windows, window, 2);
    }
  /* Before: every slot, as one window over the whole run. */
  g_array_append_vals (stall_windows, whole, 2);
  object = rp_report_windows_to_json (windows, stall_windows);
  root = json_node_init_object (json_node_alloc (), object);
  json_generator_set_root (generator, root);
  g_free (json_generator_to_data (generator, &every_slot_bytes));
  g_clear_pointer (&root, json_node_unref);
  g_array_set_size (stall_windows, stall_windows->len - 2);
  object = rp_report_windows_to_json (windows, stall_windows);
  if (object == NULL)
    object = json_object_new ();
  root = json_node_init_object (json_node_alloc (), object);
  json_generator_set_root (generator, root);
  text = json_generator_to_data (generator, &json_bytes);
  printf ("{\"hours\": %g, \"rate\": %g, \"requests\": %" G_GUINT64_FORMAT ", "
          "\"windows_heap_bytes\": %zu, \"windows_bytes\": %zu, \"windows_json_bytes\": %zu, "
          "\"thinned_series_heap_bytes\": %zu, \"points_every_request_bytes\": %.0f, "
          "\"windows_mb_per_hour\": %.2f, \"windows_json_mb_per_hour\": %.2f, \"thinned_mb_per_hour\": %.2f, "
          "\"stalls_per_hour\": %g, \"windows_json_every_slot_bytes\": %zu, \"windows_json_every_slot_mb_per_hour\": %.2f}\n",
          hours, rate, n, after_windows - before, rp_time_histogram_get_memory (windows), json_bytes,
          after_series - after_windows, 14.0 * (double) n,
          (double) (after_windows - before) / hours / 1e6, (double) json_bytes / hours / 1e6,
          (double) (after_series - after_windows) / hours / 1e6,
          stalls_per_hour, every_slot_bytes, (double) every_slot_bytes / hours / 1e6);
  return 0;
}
