/* rp-proc.h: parsers for the /proc files the samplers read; pure, so tests feed them text. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* user nice system idle iowait irq softirq steal, in /proc/stat order */
#define RP_CPU_N_FIELDS 8

/**
 * RpPsi:
 * @some_avg10: percent of the last 10 s in which some task stalled
 * @full_avg10: percent in which all non-idle tasks stalled
 * @some_total: cumulative "some" stall time, µs
 * @full_total: cumulative "full" stall time, µs
 * @has_full: the file has a "full" line (cpu lacks it before Linux 5.13)
 * @timestamp: filled by the caller: session time of the read, seconds
 *
 * One read of /proc/pressure/{io,cpu,memory} (Documentation/accounting/psi.rst).
 */
typedef struct {
  double   some_avg10;
  double   full_avg10;
  guint64  some_total;
  guint64  full_total;
  gboolean has_full;
  double   timestamp;
} RpPsi;

gboolean rp_proc_read_fd         (int            fd,
                                  char          *buffer,
                                  gsize          size);
gboolean rp_proc_parse_cpu_line  (const char    *proc_stat,
                                  guint64        out_ticks[RP_CPU_N_FIELDS]);
gboolean rp_proc_cpu_fractions   (const guint64  before[RP_CPU_N_FIELDS],
                                  const guint64  after[RP_CPU_N_FIELDS],
                                  double         out_fractions[RP_CPU_N_FIELDS]);
gboolean rp_proc_parse_psi       (const char    *text,
                                  RpPsi         *out_psi);
gboolean rp_proc_parse_meminfo   (const char    *text,
                                  guint64       *out_dirty_bytes,
                                  guint64       *out_writeback_bytes);

gboolean rp_proc_read_flag  (const char    *path);
guint64  rp_proc_start_time (int pid);

G_END_DECLS
