/* bench-rss.c: benchmark 7, resident memory after 8 h of every default probe's samples. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "rp-series.h"

/* The series a GUI session with the default probes fills, at their rates:
 * the system sampler (CPU split 8, PSI 12, dirty and writeback 2) every
 * 0.5 s, the fsync probe (fsync and its pwrite) every second, the writer
 * (throughput, bytes) every 0.5 s, and the GUI's own probes. Points are
 * appended interleaved in time, as the worker threads do, so that the
 * allocator sees the same pattern of chunk allocations as in a real run. */
typedef struct {
  const char *what;
  guint       n_series;
  double      rate;
} Source;

static const Source sources[] = {
  { "system sampler", 22, 2 },
  { "fsync probe", 2, 1 },
  { "sequential writer", 2, 2 },
  { "mainloop_lateness", 1, 100 },
  { "frame_interval", 1, 60 },
  { "wakeup_latency", 1, 20 },
  { "input_latency", 1, 5 },
};

/* VmRSS of this process, in bytes. */
static guint64
read_rss (void)
{
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents ("/proc/self/status", &status, NULL, NULL))
    return 0;
  line = strstr (status, "VmRSS:");
  return line ? g_ascii_strtoull (line + 6, NULL, 10) * 1024 : 0;
}

int
main (int   argc,
      char *argv[])
{
  double hours = argc > 1 ? g_ascii_strtod (argv[1], NULL) : 8;
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);
  guint64 baseline, rss, points = 0;
  guint seconds = (guint) (hours * 3600);

  for (guint k = 0; k < G_N_ELEMENTS (sources); k++)
    for (guint s = 0; s < sources[k].n_series; s++)
      {
        g_autofree char *name = g_strdup_printf ("%s_%u", sources[k].what, s);

        g_ptr_array_add (all, rp_series_new (name, "s", NULL));
      }
  baseline = read_rss ();

  for (guint second = 0; second < seconds; second++)
    {
      guint index = 0;

      for (guint k = 0; k < G_N_ELEMENTS (sources); k++)
        {
          guint per_second = (guint) sources[k].rate;

          for (guint s = 0; s < sources[k].n_series; s++, index++)
            for (guint i = 0; i < per_second; i++)
              rp_series_append (g_ptr_array_index (all, index),
                                second + (double) i / per_second, g_rand_double (rand));
          points += (guint64) sources[k].n_series * per_second;
        }
    }

  rss = read_rss ();
  printf ("{\"hours\": %g, \"series\": %u, \"points\": %" G_GUINT64_FORMAT ", "
          "\"baseline_mb\": %.1f, \"rss_mb\": %.1f, \"bytes_per_point\": %.2f}\n",
          hours, all->len, points, baseline / 1e6, (rss - baseline) / 1e6,
          points ? (double) (rss - baseline) / points : 0.0);
  return 0;
}
