/* rp-parts.h: the one table of loads and probes, and look-ups in it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include "rp-part.h"

G_BEGIN_DECLS

/* Series other code names directly (the fsync-tester lines of the text
 * report, the window's own probes); every series is described in its
 * part's #RpSeriesInfo. */
#define RP_SERIES_FSYNC_LATENCY     "fsync_latency"
#define RP_SERIES_WRITE_LATENCY     "write_latency"
#define RP_SERIES_MAINLOOP_LATENESS "mainloop_lateness"
#define RP_SERIES_FRAME_INTERVAL    "frame_interval"
#define RP_SERIES_LATE_FRAMES       "late_frames"
#define RP_SERIES_INPUT_LATENCY     "input_latency"
#define RP_SERIES_WAKEUP_LATENCY    "wakeup_latency"
#define RP_SERIES_MAIN_THREAD_SAVE  "main_thread_save"
#define RP_SERIES_WRITER_THROUGHPUT "writer_throughput"

/* Notes of the system sampler when the measuring process itself stood
 * still for over a second: how often, the longest and the total, seconds. */
#define RP_NOTE_GAPS        "measurement_gaps"
#define RP_NOTE_GAP_LONGEST "measurement_gap_longest"
#define RP_NOTE_GAP_TOTAL   "measurement_gap_total"
/* Seconds by which a sampler's wake-up must be later than its period for
 * the process to have stood still (rp-system-sampler.c; the charts break
 * their lines there, rp_plot_catalog_set_gaps()). */
#define RP_GAP_MIN          1.0
/* The series whose samples tell those gaps: the system sampler's, every
 * sample_period. */
#define RP_SERIES_GAP_CLOCK "cpu_user"
/* Why the kernel-events probe recorded nothing (a translated sentence). */
#define RP_NOTE_KERNEL_EVENTS_UNAVAILABLE "kernel_events_unavailable"
/* Where the kernel events came from: "root" (this process made the trace
 * instance), "helper" (resprobed made it after polkit's yes) or "none". */
#define RP_NOTE_KERNEL_EVENTS_SOURCE "kernel_events_source"
/* Whether the window's input events had times on our clock
 * (app/gui/rp-ui-probes.c): "known", "mixed", "no events", or one of the
 * two values below, when no input latency could be measured: every event
 * carried time 0 (synthetic input: wtype, X11 SendEvent), or none was
 * within a second of CLOCK_MONOTONIC (another clock). */
#define RP_NOTE_INPUT_CLOCK_STATUS     "input_clock_status"
#define RP_INPUT_CLOCK_UNUSABLE_ZERO   "unusable: time 0"
#define RP_INPUT_CLOCK_UNUSABLE_OTHER  "unusable: other clock"

/**
 * RpParamEntry:
 * @part: the part the parameter belongs to
 * @param: the parameter
 * @index: its place among every parameter of every part, from 0
 */
typedef struct {
  const RpPartInfo  *part;
  const RpParamInfo *param;
  guint              index;
} RpParamEntry;

const RpPartInfo * const *rp_parts_get_table       (guint        *out_n_parts);
const RpPartInfo         *rp_parts_lookup          (const char   *id);
int                       rp_parts_get_index       (const char   *id);
const RpParamEntry       *rp_parts_get_params      (guint        *out_n_params);
const RpParamEntry       *rp_parts_lookup_param    (const char   *key);
const RpSeriesInfo       *rp_parts_lookup_series   (const char   *name,
                                                    const RpPartInfo **out_part);

typedef gboolean (*RpSeriesFilter) (const RpSeriesInfo *info,
                                    gconstpointer       data);

GPtrArray                *rp_parts_find_series     (RpSeriesFilter      filter,
                                                    gconstpointer       data);

G_END_DECLS
