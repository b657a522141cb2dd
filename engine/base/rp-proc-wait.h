/* rp-proc-wait.h: parsers for where a thread waits and what a disk did: task stat, stack, diskstats, vmstat. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * RpTaskStat:
 * @state: field 3 of /proc/PID/task/TID/stat: 'R' running, 'S' sleeping,
 *   'D' uninterruptible (disk) sleep, … (proc(5))
 * @blkio_ticks: field 42, delayacct_blkio_ticks: clock ticks (USER_HZ) the
 *   thread waited for block I/O; 0 when kernel.task_delayacct is off
 *
 * The two fields of a thread's stat line that say how it waits.
 */
typedef struct {
  char    state;
  guint64 blkio_ticks;
} RpTaskStat;

/**
 * RpDiskCounters:
 * @reads: reads completed (field 4 of /proc/diskstats)
 * @read_sectors: sectors read, 512 bytes each whatever the device's sector
 * @read_ms: milliseconds spent reading (sum over requests)
 * @writes: writes completed (field 8)
 * @write_sectors: sectors written
 * @write_ms: milliseconds spent writing
 * @in_flight: requests in flight now (field 12)
 * @io_ticks_ms: milliseconds the device had requests in flight (field 13)
 * @discards: discards completed (field 15, Linux 4.18), 0 before
 * @discard_ms: milliseconds spent discarding (field 18)
 * @flushes: flush requests completed (field 19, Linux 5.5), 0 before
 * @flush_ms: milliseconds spent flushing (field 20)
 *
 * One device's line of /proc/diskstats
 * (Documentation/admin-guide/iostats.rst), as cumulative counters.
 */
typedef struct {
  guint64 reads, read_sectors, read_ms;
  guint64 writes, write_sectors, write_ms;
  guint64 in_flight, io_ticks_ms;
  guint64 discards, discard_ms;
  guint64 flushes, flush_ms;
} RpDiskCounters;

gboolean    rp_proc_parse_task_stat  (const char     *text,
                                      RpTaskStat     *out_stat);
gboolean    rp_proc_parse_schedstat  (const char     *text,
                                      double         *out_on_cpu,
                                      double         *out_run_delay);
GStrv       rp_proc_stack_symbols    (const char     *stack);
char       *rp_proc_clean_wchan      (const char     *wchan);
gboolean    rp_proc_parse_diskstats  (const char     *text,
                                      guint           major,
                                      guint           minor,
                                      char          **out_name,
                                      RpDiskCounters *out_counters);
void        rp_disk_counters_delta   (const RpDiskCounters *before,
                                      const RpDiskCounters *after,
                                      RpDiskCounters       *out_delta);
void        rp_disk_counters_add     (RpDiskCounters       *total,
                                      const RpDiskCounters *delta);
double      rp_disk_counters_await   (const RpDiskCounters *delta);
gboolean    rp_block_whole_disk      (guint           major,
                                      guint           minor,
                                      guint          *out_major,
                                      guint          *out_minor);
gboolean    rp_proc_parse_vmstat     (const char     *text,
                                      const char     *key,
                                      guint64        *out_value);

G_END_DECLS
