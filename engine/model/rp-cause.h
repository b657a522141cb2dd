/* rp-cause.h: the one table of why a call waited: wait sites and evidence to causes in plain words. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * RpCallKind:
 * @RP_CALL_KIND_UNKNOWN: a call this version does not know (a stranger's
 *   series)
 * @RP_CALL_KIND_READ: it reads its own file from the disk: read(), pread(),
 *   a file read to its end, a program's start (its page faults)
 * @RP_CALL_KIND_WRITE: it writes into the page cache: write(), pwrite()
 * @RP_CALL_KIND_FLUSH: it makes its own data durable: fsync(), syncfs(), a
 *   whole save
 * @RP_CALL_KIND_WAIT: it waits for a time or an answer, with no I/O of its
 *   own: a timer's sleep, a round trip to the display server
 *
 * What a timed call does, from the parts table (#RpSeriesInfo's
 * @call_kind): the evidence that tells a page waited for by a read from one
 * waited for by writeback.
 */
typedef enum {
  RP_CALL_KIND_UNKNOWN,
  RP_CALL_KIND_READ,
  RP_CALL_KIND_WRITE,
  RP_CALL_KIND_FLUSH,
  RP_CALL_KIND_WAIT,
} RpCallKind;

/**
 * RpCause:
 * @RP_CAUSE_UNKNOWN: the evidence cannot tell
 * @RP_CAUSE_JOURNAL: waiting for the journal to commit (jbd2)
 * @RP_CAUSE_DIRTY_LIMIT: throttled for too much unwritten data
 *   (balance_dirty_pages)
 * @RP_CAUSE_OWN_WRITEBACK: waiting for its own data to be written
 * @RP_CAUSE_FS_WRITEBACK: waiting for all unwritten data of the file system
 *   to be written (syncfs(), sync())
 * @RP_CAUSE_DISK_READ: waiting for a read from the disk
 * @RP_CAUSE_BEHIND_WRITES: a read waiting while the same disk wrote
 * @RP_CAUSE_DISK_QUEUE: waiting for room in the disk's queue
 * @RP_CAUSE_DISK_WRITE: waiting for a write to the disk
 * @RP_CAUSE_DISK_FLUSH: waiting for the disk to empty its write cache
 * @RP_CAUSE_WBT: writeback throttling (wbt) held the request back
 * @RP_CAUSE_RECLAIM: freeing memory (direct reclaim)
 * @RP_CAUSE_CPU_WAIT: runnable, waiting for a CPU
 * @RP_CAUSE_CPU_WORK: running on a CPU: the call's own work
 * @RP_CAUSE_STOPPED: the process was stopped (SIGSTOP, Ctrl-Z, a debugger)
 * @RP_CAUSE_LOCK: waiting for a lock another thread holds
 * @RP_CAUSE_SLEEP: sleeping on purpose
 * @RP_CAUSE_PIPE: waiting for a pipe
 * @RP_CAUSE_CHILD: waiting for a child process
 * @RP_CAUSE_DISPLAY: the display server was late: the application was ready
 *   on time (a felt stall of the probe window)
 * @RP_N_CAUSES: how many
 *
 * Why a call waited, in categories a user reads (rp_cause_describe()) and
 * a stable id for files and metrics (rp_cause_get_id()).
 */
typedef enum {
  RP_CAUSE_UNKNOWN,
  RP_CAUSE_JOURNAL,
  RP_CAUSE_DIRTY_LIMIT,
  RP_CAUSE_OWN_WRITEBACK,
  RP_CAUSE_FS_WRITEBACK,
  RP_CAUSE_DISK_READ,
  RP_CAUSE_BEHIND_WRITES,
  RP_CAUSE_DISK_QUEUE,
  RP_CAUSE_DISK_WRITE,
  RP_CAUSE_DISK_FLUSH,
  RP_CAUSE_WBT,
  RP_CAUSE_RECLAIM,
  RP_CAUSE_CPU_WAIT,
  RP_CAUSE_CPU_WORK,
  RP_CAUSE_STOPPED,
  RP_CAUSE_LOCK,
  RP_CAUSE_SLEEP,
  RP_CAUSE_PIPE,
  RP_CAUSE_CHILD,
  RP_CAUSE_DISPLAY,
  RP_N_CAUSES,
} RpCause;

/**
 * RpEvidence:
 * @RP_EVIDENCE_UNKNOWN: nothing recorded says
 * @RP_EVIDENCE_NO: the record says no
 * @RP_EVIDENCE_YES: the record says yes
 */
typedef enum {
  RP_EVIDENCE_UNKNOWN,
  RP_EVIDENCE_NO,
  RP_EVIDENCE_YES,
} RpEvidence;

/**
 * RpCauseEvidence:
 * @kind: what the call does (its series' row in the parts table)
 * @device_writing: whether the disk under the call's file wrote meanwhile
 *   (its write rate over the stall, rp-report-stalls.c)
 * @wbt: whether that disk throttles writeback (its wbt_lat_usec)
 *
 * What decides among causes that one wait site alone does not tell.
 */
typedef struct {
  RpCallKind kind;
  RpEvidence device_writing;
  RpEvidence wbt;
} RpCauseEvidence;

RpCause     rp_cause_of_site          (const char            *site,
                                       const RpCauseEvidence *evidence);
const char *rp_cause_get_id           (RpCause                cause);
RpCause     rp_cause_from_id          (const char            *id);
const char *rp_cause_describe         (RpCause                cause);
char       *rp_cause_describe_in_mode (RpCause                cause,
                                       const char            *site,
                                       const char            *journal_mode);
gboolean    rp_cause_is_disk          (RpCause                cause);

gboolean    rp_wait_site_is_telling   (const char            *site);
gboolean    rp_wait_site_is_ambiguous (const char            *site);
gboolean    rp_wait_site_is_reclaim   (const char            *site);

G_END_DECLS
