/* rp-cause.c: the one table of why a call waited: wait sites and evidence to causes in plain words. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-cause.h"
#include "rp-stall.h"

/* The causes: a stable id (reports' "cause", the monitor's metric label)
 * and the words every front end shows. The kernel's own site is shown
 * beside them for engineers (rp-report-stalls.c). */
static const struct {
  const char *id;
  const char *words;
} causes[RP_N_CAUSES] = {
  [RP_CAUSE_UNKNOWN] = { "unknown", N_("the evidence cannot tell") },
  [RP_CAUSE_JOURNAL] = { "journal-commit", N_("waiting for the journal to commit") },
  [RP_CAUSE_DIRTY_LIMIT] = { "dirty-limit", N_("throttled: too much unwritten data (dirty limit)") },
  [RP_CAUSE_OWN_WRITEBACK] = { "own-writeback", N_("waiting for its own data to be written to the disk") },
  [RP_CAUSE_FS_WRITEBACK] = { "fs-writeback", N_("waiting for all unwritten data of the file system to be written") },
  [RP_CAUSE_DISK_READ] = { "disk-read", N_("waiting for a read from the disk") },
  [RP_CAUSE_BEHIND_WRITES] = { "behind-writes", N_("waiting in the disk’s queue behind writes") },
  [RP_CAUSE_DISK_QUEUE] = { "disk-queue", N_("waiting for room in the disk’s queue") },
  [RP_CAUSE_DISK_WRITE] = { "disk-write", N_("waiting for a write to the disk") },
  [RP_CAUSE_DISK_FLUSH] = { "disk-flush", N_("waiting for the disk to empty its write cache") },
  [RP_CAUSE_WBT] = { "wbt", N_("writeback throttling (wbt)") },
  [RP_CAUSE_RECLAIM] = { "reclaim", N_("freeing memory (reclaim)") },
  [RP_CAUSE_CPU_WAIT] = { "cpu-wait", N_("waiting for a CPU") },
  [RP_CAUSE_CPU_WORK] = { "cpu-work", N_("its own work on a CPU") },
  [RP_CAUSE_STOPPED] = { "stopped", N_("the process was stopped") },
  [RP_CAUSE_LOCK] = { "lock", N_("waiting for a lock another thread holds") },
  [RP_CAUSE_SLEEP] = { "sleep", N_("sleeping") },
  [RP_CAUSE_PIPE] = { "pipe", N_("waiting for a pipe") },
  [RP_CAUSE_CHILD] = { "child", N_("waiting for a child process") },
  [RP_CAUSE_DISPLAY] = { "display-server", N_("the display server was late") },
};

/* What a wait site says by itself. Some say the cause outright (the
 * journal's, balance_dirty_pages); others only that a page or buffer was
 * under I/O, and which I/O the evidence decides (rp_cause_of_site()). */
typedef enum {
  SITE_JOURNAL,
  SITE_DIRTY,
  SITE_WRITEBACK,  /* waits for writeback of a page of the file it works on */
  SITE_FS_SYNC,    /* waits for the flusher to write a whole file system */
  SITE_PAGE_IO,    /* a locked page: a read into it, or writeback: ambiguous */
  SITE_BUFFER_IO,  /* a buffer under I/O: a read or a write: ambiguous */
  SITE_BIO,        /* a bio it submitted: a read or a write: ambiguous */
  SITE_READ,       /* a frame of the read path: a read from the disk */
  SITE_FLUSH,
  SITE_TAG,        /* no free request of the queue */
  SITE_QOS,        /* rq-qos: wbt when the queue throttles writeback */
  SITE_WBT,
  SITE_RECLAIM,
  SITE_LOCK,
  SITE_SLEEP,
  SITE_PIPE,
  SITE_CHILD,
  SITE_RUNNING,
  SITE_RUNQUEUE,
  SITE_STOPPED,
  SITE_DISPLAY,
  SITE_UNKNOWN,
} SiteClass;

/* The one table of wait sites: a kernel function where a thread sleeps (its
 * wchan, or a frame of its stack) and what it says. Symbols as Linux 6.x
 * spells them, older names (wait_on_page_writeback before folios, 5.16)
 * beside their successors. Seen on Linux 6.18: jbd2_log_wait_commit,
 * balance_dirty_pages, folio_wait_writeback, wait_transaction_locked,
 * do_get_write_access (fsync beside dd on ext3 data=ordered), and
 * folio_wait_bit_common as the wchan of both a cold read and a flushing
 * fsync: ambiguous, so the stack's reader looks past it for a frame that
 * says more (filemap_read, folio_wait_writeback), and without the stack
 * the call's kind decides. @waits_commit marks the sites that wait for a
 * whole commit, whose length the data= mode decides
 * (rp_cause_describe_in_mode()). */
static const struct {
  const char *symbol;
  SiteClass   site_class;
  gboolean    waits_commit;
} sites[] = {
  { "jbd2_log_wait_commit", SITE_JOURNAL, TRUE },
  { "jbd2_complete_transaction", SITE_JOURNAL, TRUE },
  { "jbd2_journal_wait_updates", SITE_JOURNAL },
  { "wait_transaction_locked", SITE_JOURNAL },
  { "wait_transaction_switching", SITE_JOURNAL },
  { "add_transaction_credits", SITE_JOURNAL },
  { "start_this_handle", SITE_JOURNAL },
  { "jbd2_log_wait_for_space", SITE_JOURNAL },
  { "do_get_write_access", SITE_JOURNAL },
  { "balance_dirty_pages", SITE_DIRTY },
  { "folio_wait_writeback", SITE_WRITEBACK },
  { "wait_on_page_writeback", SITE_WRITEBACK },
  { "folio_wait_stable", SITE_WRITEBACK },
  { "__filemap_fdatawait_range", SITE_WRITEBACK },
  { "filemap_fdatawait_range", SITE_WRITEBACK },
  { "filemap_fdatawait_keep_errors", SITE_WRITEBACK },
  { "wb_wait_for_completion", SITE_FS_SYNC },
  { "sync_inodes_sb", SITE_FS_SYNC },
  { "folio_wait_bit_common", SITE_PAGE_IO },
  { "folio_wait_bit", SITE_PAGE_IO },
  { "__folio_lock", SITE_PAGE_IO },
  { "__folio_lock_killable", SITE_PAGE_IO },
  { "__folio_lock_or_retry", SITE_PAGE_IO },
  { "__wait_on_buffer", SITE_BUFFER_IO },
  { "__lock_buffer", SITE_BUFFER_IO },
  /* ext3's fsync writing a metadata buffer itself and waiting for it. */
  { "__sync_dirty_buffer", SITE_BUFFER_IO },
  { "sync_dirty_buffer", SITE_BUFFER_IO },
  { "submit_bio_wait", SITE_BIO },
  { "filemap_read", SITE_READ },
  { "filemap_fault", SITE_READ },
  { "filemap_get_pages", SITE_READ },
  { "filemap_update_page", SITE_READ },
  { "do_read_cache_folio", SITE_READ },
  { "__bh_read", SITE_READ },
  /* ext4 reading a block bitmap to allocate: a read of its metadata. */
  { "ext4_wait_block_bitmap", SITE_READ },
  { "ext4_read_block_bitmap_nowait", SITE_READ },
  { "blkdev_issue_flush", SITE_FLUSH },
  { "blk_mq_get_tag", SITE_TAG },
  { "rq_qos_wait", SITE_QOS },
  { "wbt_wait", SITE_WBT },
  { "throttle_direct_reclaim", SITE_RECLAIM },
  { "__alloc_pages_slowpath", SITE_RECLAIM },
  { "__alloc_pages_direct_reclaim", SITE_RECLAIM },
  { "try_to_free_pages", SITE_RECLAIM },
  { "do_try_to_free_pages", SITE_RECLAIM },
  { "shrink_node", SITE_RECLAIM },
  { "shrink_lruvec", SITE_RECLAIM },
  { "shrink_folio_list", SITE_RECLAIM },
  { "reclaim_throttle", SITE_RECLAIM },
  { "try_to_free_mem_cgroup_pages", SITE_RECLAIM },
  { "mem_cgroup_handle_over_high", SITE_RECLAIM },
  { "inode_lock", SITE_LOCK },
  { "rwsem_down_write_slowpath", SITE_LOCK },
  { "rwsem_down_read_slowpath", SITE_LOCK },
  { "mutex_lock", SITE_LOCK },
  { "__mutex_lock", SITE_LOCK },
  { "hrtimer_nanosleep", SITE_SLEEP },
  { "do_nanosleep", SITE_SLEEP },
  { "pipe_read", SITE_PIPE },
  { "anon_pipe_read", SITE_PIPE },
  { "do_wait", SITE_CHILD },
  { "kernel_wait4", SITE_CHILD },
  { RP_WAIT_SITE_RUNNING, SITE_RUNNING },
  { RP_WAIT_SITE_RUNQUEUE, SITE_RUNQUEUE },
  { RP_WAIT_SITE_STOPPED, SITE_STOPPED },
  { RP_WAIT_SITE_DISPLAY, SITE_DISPLAY },
  { RP_WAIT_SITE_UNKNOWN, SITE_UNKNOWN },
};

static gint
lookup (const char *site)
{
  for (guint i = 0; site != NULL && i < G_N_ELEMENTS (sites); i++)
    if (g_str_equal (sites[i].symbol, site))
      return (gint) i;
  return -1;
}

/* A read from the disk: behind the same disk's writes when it wrote
 * meanwhile (the device the call's file is on: "which device"). */
static RpCause
read_cause (const RpCauseEvidence *evidence)
{
  return evidence->device_writing == RP_EVIDENCE_YES ? RP_CAUSE_BEHIND_WRITES : RP_CAUSE_DISK_READ;
}

static gboolean
reads (const RpCauseEvidence *evidence)
{
  return evidence->kind == RP_CALL_KIND_READ;
}

/* A page, buffer or bio under I/O says no more than that: the call's kind
 * tells which I/O. A read waits for its own read (its own file's pages,
 * which nobody else writes); an fsync for its own data's writeback; a
 * write() may wait for a read of a partial page or for writeback of the
 * page it overwrites, and nothing recorded tells which. A thread with no
 * file I/O of its own (the probe window's main loop, its frames) that waits
 * on a locked page waits for a read into it: a page fault of its code or
 * data, or a read it was made to do (the page lock is held for the whole
 * read; writeback holds it only to start). Its buffers and bios say
 * nothing more (an inode's buffer may be under a journal write). */
static RpCause
io_cause (SiteClass              site_class,
          const RpCauseEvidence *evidence)
{
  switch (evidence->kind)
    {
    case RP_CALL_KIND_READ:
      return read_cause (evidence);
    case RP_CALL_KIND_FLUSH:
      return site_class == SITE_PAGE_IO ? RP_CAUSE_OWN_WRITEBACK : RP_CAUSE_DISK_WRITE;
    case RP_CALL_KIND_WAIT:
      return site_class == SITE_PAGE_IO ? read_cause (evidence) : RP_CAUSE_UNKNOWN;
    case RP_CALL_KIND_WRITE:
    case RP_CALL_KIND_UNKNOWN:
    default:
      return RP_CAUSE_UNKNOWN;
    }
}

/**
 * rp_cause_of_site:
 * @site: (nullable): a wait site of a stall's breakdown: a kernel symbol or
 *   one of the RP_WAIT_SITE_* states
 * @evidence: (nullable): what else the run recorded about the call
 *
 * The cause a wait site stands for, decided by evidence where the site
 * alone does not say (a locked page waits for a read or for writeback,
 * which the call's kind tells; a read queued behind writes, which the
 * device's write rate tells). A site this version does not know, or one
 * the evidence cannot decide, is %RP_CAUSE_UNKNOWN: never a guess.
 *
 * Returns: the cause
 */
RpCause
rp_cause_of_site (const char            *site,
                  const RpCauseEvidence *evidence)
{
  static const RpCauseEvidence none = { RP_CALL_KIND_UNKNOWN, RP_EVIDENCE_UNKNOWN, RP_EVIDENCE_UNKNOWN };
  gint index = lookup (site);

  if (evidence == NULL)
    evidence = &none;
  if (index < 0)
    return RP_CAUSE_UNKNOWN;
  switch (sites[index].site_class)
    {
    case SITE_JOURNAL:
      return RP_CAUSE_JOURNAL;
    case SITE_DIRTY:
      return RP_CAUSE_DIRTY_LIMIT;
    case SITE_WRITEBACK:
      /* A read does not wait for writeback of its own pages. */
      return reads (evidence) ? RP_CAUSE_UNKNOWN : RP_CAUSE_OWN_WRITEBACK;
    case SITE_FS_SYNC:
      return RP_CAUSE_FS_WRITEBACK;
    case SITE_PAGE_IO:
    case SITE_BUFFER_IO:
    case SITE_BIO:
      return io_cause (sites[index].site_class, evidence);
    case SITE_READ:
      return read_cause (evidence);
    case SITE_FLUSH:
      return RP_CAUSE_DISK_FLUSH;
    case SITE_TAG:
      return reads (evidence) && evidence->device_writing == RP_EVIDENCE_YES ? RP_CAUSE_BEHIND_WRITES
                                                                             : RP_CAUSE_DISK_QUEUE;
    case SITE_QOS:
      /* rq_qos_wait is wbt's wait, and also iocost's and iolatency's
       * (cgroup controllers): wbt only where the queue throttles writeback. */
      return evidence->wbt == RP_EVIDENCE_NO ? RP_CAUSE_DISK_QUEUE : RP_CAUSE_WBT;
    case SITE_WBT:
      return RP_CAUSE_WBT;
    case SITE_RECLAIM:
      return RP_CAUSE_RECLAIM;
    case SITE_LOCK:
      return RP_CAUSE_LOCK;
    case SITE_SLEEP:
      return RP_CAUSE_SLEEP;
    case SITE_PIPE:
      return RP_CAUSE_PIPE;
    case SITE_CHILD:
      return RP_CAUSE_CHILD;
    case SITE_RUNNING:
      return RP_CAUSE_CPU_WORK;
    case SITE_RUNQUEUE:
      return RP_CAUSE_CPU_WAIT;
    case SITE_STOPPED:
      return RP_CAUSE_STOPPED;
    case SITE_DISPLAY:
      return RP_CAUSE_DISPLAY;
    case SITE_UNKNOWN:
    default:
      return RP_CAUSE_UNKNOWN;
    }
}

/**
 * rp_cause_get_id:
 *
 * Returns: (transfer none): a stable, untranslated id, e.g.
 *   "journal-commit": reports' "cause" and the monitor's metric label
 */
const char *
rp_cause_get_id (RpCause cause)
{
  g_return_val_if_fail (cause < RP_N_CAUSES, causes[RP_CAUSE_UNKNOWN].id);
  return causes[cause].id;
}

/**
 * rp_cause_from_id:
 * @id: (nullable): an id of rp_cause_get_id()
 *
 * Returns: the cause; %RP_CAUSE_UNKNOWN for an id this version does not know
 */
RpCause
rp_cause_from_id (const char *id)
{
  for (guint i = 0; id != NULL && i < RP_N_CAUSES; i++)
    if (g_str_equal (causes[i].id, id))
      return (RpCause) i;
  return RP_CAUSE_UNKNOWN;
}

/**
 * rp_cause_describe:
 *
 * Returns: (transfer none): the cause in plain words, translated, e.g.
 *   "waiting for the journal to commit"
 */
const char *
rp_cause_describe (RpCause cause)
{
  g_return_val_if_fail (cause < RP_N_CAUSES, _(causes[RP_CAUSE_UNKNOWN].words));
  return _(causes[cause].words);
}

/**
 * rp_cause_describe_in_mode:
 * @site: (nullable): the wait site the cause was found at
 * @journal_mode: (nullable): the file system's data= mode as the run
 *   recorded it (#RpSysinfo's journal_mode: "ordered", "writeback",
 *   "journal", "ordered (default)"); %NULL when unknown or none
 *
 * rp_cause_describe(), said more exactly where the data= mode decides what
 * a wait for a whole journal commit waits for: under data=ordered the
 * commit first writes the data of the files it covers (the coupling of
 * kernel bug 12309), under data=journal it writes the data into the
 * journal, under data=writeback the metadata alone.
 *
 * Returns: (transfer full): translated words
 */
char *
rp_cause_describe_in_mode (RpCause     cause,
                           const char *site,
                           const char *journal_mode)
{
  gint index = lookup (site);

  if (cause != RP_CAUSE_JOURNAL || index < 0 || !sites[index].waits_commit || journal_mode == NULL)
    return g_strdup (rp_cause_describe (cause));
  /* "ordered (default)": the mode the kernel chose, the same mode. */
  if (g_str_has_prefix (journal_mode, "ordered"))
    return g_strdup (_("waiting for the journal to commit (data=ordered: the file data written first)"));
  if (g_str_has_prefix (journal_mode, "journal"))
    return g_strdup (_("waiting for the journal to commit (data=journal: the file data written to the journal too)"));
  /* Nothing waits for file data: the commit's own writes (and the disk's
   * cache flush) took the time. */
  if (g_str_has_prefix (journal_mode, "writeback"))
    return g_strdup (_("waiting for the journal to commit (data=writeback: metadata only)"));
  return g_strdup (rp_cause_describe (cause));
}

/**
 * rp_cause_is_disk:
 *
 * Returns: whether @cause is the disk itself being slow to answer (a read,
 *   a write, a flush, its queue): what a fast disk meanwhile rules out
 */
gboolean
rp_cause_is_disk (RpCause cause)
{
  return cause == RP_CAUSE_DISK_READ || cause == RP_CAUSE_DISK_WRITE || cause == RP_CAUSE_DISK_FLUSH ||
         cause == RP_CAUSE_DISK_QUEUE || cause == RP_CAUSE_BEHIND_WRITES;
}

/**
 * rp_wait_site_is_telling:
 * @site: a kernel symbol from a stack frame
 *
 * A stack has many frames; the table's names say more than an unknown
 * helper under them (e.g. "jbd2_log_wait_commit" more than a wait-queue
 * function), so the sampler takes a frame this table knows, and only
 * without one the innermost non-generic frame.
 *
 * Returns: whether @site is in the table
 */
gboolean
rp_wait_site_is_telling (const char *site)
{
  return lookup (site) >= 0;
}

/**
 * rp_wait_site_is_ambiguous:
 * @site: a kernel symbol
 *
 * Returns: whether @site only says that a page, buffer or bio was under
 *   I/O (folio_wait_bit_common, __folio_lock, __wait_on_buffer,
 *   submit_bio_wait): the sampler looks for an outer frame that says which
 *   I/O (filemap_read, folio_wait_writeback) before it keeps this one
 */
gboolean
rp_wait_site_is_ambiguous (const char *site)
{
  gint index = lookup (site);

  return index >= 0 && (sites[index].site_class == SITE_PAGE_IO || sites[index].site_class == SITE_BUFFER_IO ||
                        sites[index].site_class == SITE_BIO);
}

/**
 * rp_wait_site_is_reclaim:
 * @site: a kernel symbol
 *
 * Returns: whether @site is memory reclaim: a frame of it anywhere in a
 *   stack names the wait, whatever it waits for inside (a page under
 *   writeback that reclaim wants to free is reclaim's wait, not the call's)
 */
gboolean
rp_wait_site_is_reclaim (const char *site)
{
  gint index = lookup (site);

  return index >= 0 && sites[index].site_class == SITE_RECLAIM;
}
