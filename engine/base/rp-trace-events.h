/* rp-trace-events.h: the product's kernel event set and the target's devices, shared by the engine and resprobed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>
#include <sys/types.h>

G_BEGIN_DECLS

/* The target's devices, in the kernel's dev_t encoding (MAJOR << 20 |
 * MINOR, include/linux/kdev_t.h), which the events' "dev" fields use. */
typedef struct {
  guint32 fs_dev;          /* the file system's (stat's st_dev): jbd2, ext4 */
  guint32 disk_dev;        /* its whole disk: block requests */
  char    bdi[32];         /* "MAJ:MIN" of the disk: balance_dirty_pages */
  char    disk_name[32];   /* "loop3", "sda": wbt */
} RpTraceTarget;

/* Which of the target's devices an event's filter compares with: "dev"
 * with the file system's or the disk's dev_t, "bdi" with the disk's
 * "MAJ:MIN", "name" with the disk's name; or none (every task's). */
typedef enum {
  RP_TRACE_FILTER_FS,
  RP_TRACE_FILTER_DISK,
  RP_TRACE_FILTER_BDI,
  RP_TRACE_FILTER_NAME,
  RP_TRACE_FILTER_NONE,
} RpTraceFilterOn;

/**
 * RpTraceEventSpec:
 * @system: its tracefs system, e.g. "jbd2"
 * @name: its name, e.g. "jbd2_start_commit"
 * @filter_on: the device its filter compares with
 * @also: (nullable): a further condition of the filter, in the kernel's
 *   filter syntax, for records the engine would drop anyway, e.g.
 *   "pause > 0": they then never reach the buffer (issue 18, acceptance 3)
 * @needs_disk: enabled only when the target is on a block device: without
 *   one there is no disk to filter on, and the event would be every disk's
 *
 * One event of the set the kernel-event probe reads. The one list, read by
 * the engine (which enables the events itself as root) and by resprobed
 * (which enables them for an unprivileged caller, who cannot name others).
 */
typedef struct {
  const char      *system;
  const char      *name;
  RpTraceFilterOn  filter_on;
  const char      *also;
  gboolean         needs_disk;
} RpTraceEventSpec;

const RpTraceEventSpec *rp_trace_event_specs      (guint                  *out_n);
const RpTraceEventSpec *rp_trace_event_spec_find  (const char             *system,
                                                   const char             *name);
char                   *rp_trace_event_filter     (const RpTraceEventSpec *spec,
                                                   const RpTraceTarget    *target);
gboolean                rp_trace_target_find      (dev_t                   fs_dev,
                                                   RpTraceTarget          *target);
double                  rp_trace_kernel_hz        (void);

G_END_DECLS
