/* rp-parts.c: the one table of loads and probes, and look-ups in it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>

#include "rp-parts.h"

extern const RpPartInfo rp_fsync_part;
extern const RpPartInfo rp_system_part;
extern const RpPartInfo rp_cold_read_part;
extern const RpPartInfo rp_app_start_part;
extern const RpPartInfo rp_timer_part;
extern const RpPartInfo rp_kernel_events_part;
extern const RpPartInfo rp_seq_writer_part;
extern const RpPartInfo rp_copy_loop_part;
extern const RpPartInfo rp_parallel_writers_part;
extern const RpPartInfo rp_cpu_bench_part;
extern const RpPartInfo rp_command_part;
extern const RpPartInfo rp_seq_readers_part;
extern const RpPartInfo rp_random_writer_part;
extern const RpPartInfo rp_small_files_part;
extern const RpPartInfo rp_sync_part;
extern const RpPartInfo rp_save_part;
extern const RpPartInfo rp_open_part;
extern const RpPartInfo rp_display_part;
extern const RpPartInfo rp_window_probes_part;
extern const RpPartInfo rp_stall_sampler_part;
extern const RpPartInfo rp_disk_part;

/* In the order descriptions, the scenario's JSON arrays and `--help` name
 * them: loads, then probes, then what the front ends measure. A scenario
 * selects parts by their index here (at most 64). */
static const RpPartInfo *const table[] = {
  &rp_seq_writer_part,
  &rp_copy_loop_part,
  &rp_parallel_writers_part,
  &rp_cpu_bench_part,
  &rp_command_part,
  &rp_seq_readers_part,
  &rp_random_writer_part,
  &rp_small_files_part,
  /* The first probe, so that it is prepared first: its events include
   * the other parts' first requests (opening a file reads a bitmap). */
  &rp_kernel_events_part,
  &rp_fsync_part,
  &rp_system_part,
  &rp_cold_read_part,
  &rp_app_start_part,
  &rp_sync_part,
  &rp_save_part,
  &rp_open_part,
  &rp_display_part,
  &rp_timer_part,
  &rp_stall_sampler_part,
  &rp_disk_part,
  &rp_window_probes_part,
};

G_STATIC_ASSERT (G_N_ELEMENTS (table) <= 64);

/**
 * rp_parts_get_table:
 * @out_n_parts: (out): how many
 *
 * Returns: (transfer none) (array length=out_n_parts): every part
 */
const RpPartInfo * const *
rp_parts_get_table (guint *out_n_parts)
{
  g_return_val_if_fail (out_n_parts != NULL, NULL);

  *out_n_parts = G_N_ELEMENTS (table);
  return table;
}

/**
 * rp_parts_get_index:
 * @id: a part's id, e.g. "fsync"
 *
 * Returns: its index in rp_parts_get_table(), or -1
 */
int
rp_parts_get_index (const char *id)
{
  for (guint i = 0; id != NULL && i < G_N_ELEMENTS (table); i++)
    if (g_str_equal (table[i]->id, id))
      return (int) i;
  return -1;
}

/**
 * rp_parts_lookup:
 * @id: a part's id, e.g. "fsync"
 *
 * Returns: (transfer none) (nullable): the part, %NULL when there is none
 */
const RpPartInfo *
rp_parts_lookup (const char *id)
{
  int index = rp_parts_get_index (id);

  return index >= 0 ? table[index] : NULL;
}

/* Every parameter of every part, flattened once: the slots of RpParams. */
static const RpParamEntry *
flatten_params (guint *out_n)
{
  static GArray *entries;
  static gsize initialized;

  if (g_once_init_enter (&initialized))
    {
      GArray *array = g_array_new (FALSE, FALSE, sizeof (RpParamEntry));

      for (guint i = 0; i < G_N_ELEMENTS (table); i++)
        for (guint k = 0; k < table[i]->n_params; k++)
          {
            RpParamEntry entry = { table[i], &table[i]->params[k], array->len };

            g_array_append_val (array, entry);
          }
      entries = array;
      g_once_init_leave (&initialized, 1);
    }
  *out_n = entries->len;
  return (const RpParamEntry *) entries->data;
}

/**
 * rp_parts_get_params:
 * @out_n_params: (out): how many
 *
 * Returns: (transfer none) (array length=out_n_params): every parameter of
 *   every part, in table order
 */
const RpParamEntry *
rp_parts_get_params (guint *out_n_params)
{
  g_return_val_if_fail (out_n_params != NULL, NULL);
  return flatten_params (out_n_params);
}

/**
 * rp_parts_lookup_param:
 * @key: a parameter's JSON key, e.g. "fsync_interval"
 *
 * Returns: (transfer none) (nullable): the parameter, %NULL when no part has it
 */
const RpParamEntry *
rp_parts_lookup_param (const char *key)
{
  guint n;
  const RpParamEntry *entries = flatten_params (&n);

  for (guint i = 0; key != NULL && i < n; i++)
    if (g_str_equal (entries[i].param->key, key))
      return &entries[i];
  return NULL;
}

/* "write_latency_3" belongs to the per-thread "write_latency_": a prefix
 * followed by decimal digits only. */
static gboolean
matches (const RpSeriesInfo *info,
         const char         *name)
{
  gsize prefix;

  if (!(info->flags & RP_SERIES_FLAG_PER_THREAD))
    return g_str_equal (info->name, name);
  prefix = strlen (info->name);
  if (strncmp (name, info->name, prefix) != 0 || name[prefix] == '\0')
    return FALSE;
  for (const char *p = name + prefix; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      return FALSE;
  return TRUE;
}

/**
 * rp_parts_lookup_series:
 * @name: a series' name, e.g. "fsync_latency" or "write_latency_3"
 * @out_part: (out) (optional): the part that produces it
 *
 * Returns: (transfer none) (nullable): its description, %NULL for a series
 *   no part describes (from a newer version, or a stranger's report)
 */
const RpSeriesInfo *
rp_parts_lookup_series (const char        *name,
                        const RpPartInfo **out_part)
{
  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (table); i++)
    for (guint k = 0; k < table[i]->n_series; k++)
      if (matches (&table[i]->series[k], name))
        {
          if (out_part != NULL)
            *out_part = table[i];
          return &table[i]->series[k];
        }
  if (out_part != NULL)
    *out_part = NULL;
  return NULL;
}

static int
compare_rank (gconstpointer a,
              gconstpointer b)
{
  const RpSeriesInfo *ia = *(const RpSeriesInfo * const *) a;
  const RpSeriesInfo *ib = *(const RpSeriesInfo * const *) b;

  return (int) ia->rank - (int) ib->rank;
}

/**
 * rp_parts_find_series:
 * @filter: which series to take
 * @data: for @filter
 *
 * Returns: (transfer container) (element-type RpSeriesInfo): the series of
 *   every part that @filter takes, by rank (the order of legends and of the
 *   summary's rows)
 */
GPtrArray *
rp_parts_find_series (RpSeriesFilter filter,
                      gconstpointer  data)
{
  GPtrArray *found = g_ptr_array_new ();

  for (guint i = 0; i < G_N_ELEMENTS (table); i++)
    for (guint k = 0; k < table[i]->n_series; k++)
      if (filter (&table[i]->series[k], data))
        g_ptr_array_add (found, (gpointer) &table[i]->series[k]);
  g_ptr_array_sort (found, compare_rank);
  return found;
}
