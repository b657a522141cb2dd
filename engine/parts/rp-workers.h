/* rp-workers.h: the table of loads and probes the session can start. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-session-private.h"

G_BEGIN_DECLS

extern const RpWorkerClass rp_seq_writer_class;
extern const RpWorkerClass rp_fsync_probe_class;
extern const RpWorkerClass rp_system_sampler_class;
extern const RpWorkerClass rp_copy_loop_class;
extern const RpWorkerClass rp_cpu_bench_class;
extern const RpWorkerClass rp_parallel_writers_class;
extern const RpWorkerClass rp_command_load_class;
extern const RpWorkerClass rp_cold_read_probe_class;
extern const RpWorkerClass rp_app_start_probe_class;

/**
 * RpWorkerEntry:
 * @load: the load flag that selects the worker, or 0
 * @probe: the probe flag that selects it, or 0
 * @klass: the worker
 */
typedef struct {
  RpLoads              load;
  RpProbes             probe;
  const RpWorkerClass *klass;
} RpWorkerEntry;

const RpWorkerEntry *rp_workers_get_table (guint *out_n_entries);

G_END_DECLS
