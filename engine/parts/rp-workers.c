/* rp-workers.c: which worker runs for which load or probe flag. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include "rp-workers.h"

/* Probes first: they are started before the loads so that the first samples
 * show the system at rest, as the reporters did by starting fsync-tester
 * before dd. */
static const RpWorkerEntry table[] = {
  { 0, RP_PROBE_SYSTEM, &rp_system_sampler_class },
  { 0, RP_PROBE_FSYNC, &rp_fsync_probe_class },
  { 0, RP_PROBE_COLD_READ, &rp_cold_read_probe_class },
  { 0, RP_PROBE_APP_START, &rp_app_start_probe_class },
  /* The CPU benchmark calibrates in its prepare(): before the copy loop's
   * prepare() writes its source file, so that the rate alone is measured on
   * a quiet disk. */
  { RP_LOAD_CPU_BENCH, 0, &rp_cpu_bench_class },
  { RP_LOAD_SEQ_WRITER, 0, &rp_seq_writer_class },
  { RP_LOAD_COPY_LOOP, 0, &rp_copy_loop_class },
  { RP_LOAD_PARALLEL_WRITERS, 0, &rp_parallel_writers_class },
  { RP_LOAD_COMMAND, 0, &rp_command_load_class },
};

/**
 * rp_workers_get_table:
 * @out_n_entries: (out): number of entries
 *
 * Returns: (transfer none) (array length=out_n_entries): the workers in start order
 */
const RpWorkerEntry *
rp_workers_get_table (guint *out_n_entries)
{
  *out_n_entries = G_N_ELEMENTS (table);
  return table;
}
