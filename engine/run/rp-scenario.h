/* rp-scenario.h: what a session runs: loads, probes, their parameters, presets. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib-object.h>
#include <json-glib/json-glib.h>

#include "rp-field.h"

G_BEGIN_DECLS

/**
 * RpLoads:
 * @RP_LOAD_SEQ_WRITER: the `dd if=/dev/zero of=F bs=BS count=N` of R1
 * @RP_LOAD_COPY_LOOP: copy one file into the same directory, again and again (R2)
 * @RP_LOAD_PARALLEL_WRITERS: N threads of 64 KiB write() calls (R3)
 * @RP_LOAD_CPU_BENCH: fixed CPU work units, rate alone vs under load (R2)
 * @RP_LOAD_COMMAND: an external command (argv, no shell)
 *
 * The loads of a scenario; none at all is the passive scenario.
 */
typedef enum {
  RP_LOAD_SEQ_WRITER       = 1 << 0,
  RP_LOAD_COPY_LOOP        = 1 << 1,
  RP_LOAD_PARALLEL_WRITERS = 1 << 2,
  RP_LOAD_CPU_BENCH        = 1 << 3,
  RP_LOAD_COMMAND          = 1 << 4,
} RpLoads;

/**
 * RpProbes:
 * @RP_PROBE_FSYNC: the fsync-tester of kernel bug 12309
 * @RP_PROBE_SYSTEM: /proc/stat CPU split, PSI, Dirty/Writeback sampler
 * @RP_PROBE_COLD_READ: random 4 KiB reads of an evicted file (ioping style)
 * @RP_PROBE_APP_START: time to spawn and reap a small program
 */
typedef enum {
  RP_PROBE_FSYNC     = 1 << 0,
  RP_PROBE_SYSTEM    = 1 << 1,
  RP_PROBE_COLD_READ = 1 << 2,
  RP_PROBE_APP_START = 1 << 3,
} RpProbes;

/**
 * RpScenario:
 *
 * A plain record of a run's parameters. Sizes are bytes, durations seconds.
 * A field that does not apply to the selected loads and probes is ignored.
 * Create with rp_scenario_new_preset(), check with rp_scenario_validate().
 */
typedef struct {
  char    *name;                 /* preset id ("R1", …) or "custom" */
  char    *directory;            /* target directory; NULL: rp_scenario_default_directory() */
  double   duration;             /* seconds; 0: until stopped (or the loads finish) */
  gboolean stop_when_loads_finish;
  double   sample_period;        /* system sampler period, seconds (default 0.5) */
  RpLoads  loads;
  RpProbes probes;

  /* sequential writer (dd) */
  guint64  writer_block_size;    /* bs=, default 1 MiB */
  guint64  writer_total_size;    /* bs×count; 0: default (15000 MiB, lowered to fit) */
  gboolean writer_fdatasync;     /* conv=fdatasync */
  gboolean writer_direct;        /* oflag=direct */

  /* fsync probe (fsync-tester) */
  guint64  fsync_size;           /* bytes written at offset 0 each time, default 1 MiB */
  double   fsync_interval;       /* sleep between iterations, default 1 s */
  gboolean fsync_use_fdatasync;

  /* copy loop */
  guint64  copy_source_size;     /* default 1 GiB */
  guint64  copy_buffer_size;     /* default 128 KiB */

  /* parallel writers */
  guint    writers_count;        /* default 4 */
  guint64  writers_write_size;   /* default 64 KiB */
  guint64  writers_file_size;    /* per thread; 0: until stopped */
  gboolean writers_fsync_each;

  /* CPU benchmark */
  gboolean cpu_single_thread;
  double   cpu_calibration;      /* seconds measured alone before the loads start */

  /* external command */
  char   **command_argv;

  /* cold-read and app-start probes */
  guint64  cold_read_file_size;  /* default 64 MiB */
  double   cold_read_interval;   /* default 0.5 s */
  double   app_start_interval;   /* default 2 s */
} RpScenario;

/**
 * RpPresetInfo:
 * @id: the preset's id, e.g. "R1"
 * @title: a translatable one-line description
 */
typedef struct {
  const char *id;
  const char *title;
} RpPresetInfo;

/**
 * RpScenarioField:
 *
 * An #RpField of a scenario: @key names a part ("fsync", "seq-writer"),
 * @value is "none" where the part does not run.
 */
typedef RpField RpScenarioField;

/* More writer threads than this only measure the scheduler's run queue. */
#define RP_MAX_WRITERS 64

#define RP_TYPE_SCENARIO (rp_scenario_get_type ())
GType              rp_scenario_get_type            (void) G_GNUC_CONST;

const RpPresetInfo *rp_scenario_list_presets       (guint            *out_n_presets);
RpScenario        *rp_scenario_new_preset          (const char       *id,
                                                    GError          **error);
RpScenario        *rp_scenario_copy                (const RpScenario *self);
void               rp_scenario_free                (RpScenario       *self);
gboolean           rp_scenario_validate            (const RpScenario *self,
                                                    GError          **error);
char              *rp_scenario_default_directory   (void);
const char        *rp_scenario_get_directory       (const RpScenario *self);
JsonNode          *rp_scenario_to_json             (const RpScenario *self);
RpScenario        *rp_scenario_new_from_json       (JsonNode         *node,
                                                    GError          **error);
char              *rp_scenario_describe            (const RpScenario *self);
GPtrArray         *rp_scenario_get_fields          (const RpScenario *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (RpScenario, rp_scenario_free)

G_END_DECLS
