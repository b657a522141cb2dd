/* rp-stall.c: a stall's breakdown into wait sites, and the one table of wait sites in plain words. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-stall.h"

G_DEFINE_BOXED_TYPE (RpStall, rp_stall, rp_stall_copy, rp_stall_free)

static void
share_clear (gpointer data)
{
  RpWaitShare *share = data;

  g_free (share->site);
}

/**
 * rp_stall_new:
 * @series: the series of the call, e.g. "fsync_latency"
 * @start: run time of its start, seconds
 * @duration: seconds
 *
 * Returns: (transfer full): a stall without samples (@source %NULL,
 *   @blkio_delay unknown)
 */
RpStall *
rp_stall_new (const char *series,
              double      start,
              double      duration)
{
  RpStall *self = g_new0 (RpStall, 1);

  g_return_val_if_fail (series != NULL, NULL);

  self->series = g_strdup (series);
  self->start = start;
  self->duration = duration;
  self->blkio_delay = -1;
  self->breakdown = g_array_new (FALSE, FALSE, sizeof (RpWaitShare));
  g_array_set_clear_func (self->breakdown, share_clear);
  return self;
}

/**
 * rp_stall_copy:
 *
 * Returns: (transfer full): a deep copy
 */
RpStall *
rp_stall_copy (const RpStall *self)
{
  RpStall *copy;

  g_return_val_if_fail (self != NULL, NULL);

  copy = rp_stall_new (self->series, self->start, self->duration);
  copy->source = g_strdup (self->source);
  copy->blkio_delay = self->blkio_delay;
  for (guint i = 0; i < self->breakdown->len; i++)
    {
      const RpWaitShare *share = &g_array_index (self->breakdown, RpWaitShare, i);

      rp_stall_add_wait (copy, share->site, share->seconds);
    }
  return copy;
}

void
rp_stall_free (RpStall *self)
{
  if (self == NULL)
    return;
  g_free (self->series);
  g_free (self->source);
  g_array_unref (self->breakdown);
  g_free (self);
}

/**
 * rp_stall_add_wait:
 * @site: a kernel symbol, %RP_WAIT_SITE_RUNNING or %RP_WAIT_SITE_UNKNOWN
 * @seconds: time to add to it
 *
 * Adds @seconds to @site's share, creating it on first use.
 */
void
rp_stall_add_wait (RpStall    *self,
                   const char *site,
                   double      seconds)
{
  RpWaitShare share;

  g_return_if_fail (self != NULL && site != NULL);

  for (guint i = 0; i < self->breakdown->len; i++)
    {
      RpWaitShare *known = &g_array_index (self->breakdown, RpWaitShare, i);

      if (g_str_equal (known->site, site))
        {
          known->seconds += seconds;
          return;
        }
    }
  share.site = g_strdup (site);
  share.seconds = seconds;
  g_array_append_val (self->breakdown, share);
}

static int
compare_seconds (gconstpointer a,
                 gconstpointer b)
{
  const RpWaitShare *sa = a, *sb = b;

  if (sa->seconds != sb->seconds)
    return sa->seconds > sb->seconds ? -1 : 1;
  return g_strcmp0 (sa->site, sb->site);
}

/**
 * rp_stall_sort:
 *
 * Orders the breakdown by seconds, most first (then by name, so that equal
 * shares come out the same in every report).
 */
void
rp_stall_sort (RpStall *self)
{
  g_return_if_fail (self != NULL);
  g_array_sort (self->breakdown, compare_seconds);
}

/**
 * rp_stall_get_sampled:
 *
 * Returns: seconds the samples account for (the sum of the breakdown)
 */
double
rp_stall_get_sampled (const RpStall *self)
{
  double sum = 0;

  for (guint i = 0; i < self->breakdown->len; i++)
    sum += g_array_index (self->breakdown, RpWaitShare, i).seconds;
  return sum;
}

/**
 * rp_stall_get_named:
 *
 * Returns: seconds attributed to named wait sites: the breakdown without
 *   %RP_WAIT_SITE_RUNNING and %RP_WAIT_SITE_UNKNOWN
 */
double
rp_stall_get_named (const RpStall *self)
{
  double sum = 0;

  for (guint i = 0; i < self->breakdown->len; i++)
    {
      const RpWaitShare *share = &g_array_index (self->breakdown, RpWaitShare, i);

      if (!g_str_equal (share->site, RP_WAIT_SITE_RUNNING) &&
          !g_str_equal (share->site, RP_WAIT_SITE_UNKNOWN))
        sum += share->seconds;
    }
  return sum;
}

/**
 * rp_stall_get_dominant:
 *
 * Returns: (transfer none) (nullable): the share with the most seconds,
 *   %NULL without samples
 */
const RpWaitShare *
rp_stall_get_dominant (const RpStall *self)
{
  const RpWaitShare *best = NULL;

  for (guint i = 0; i < self->breakdown->len; i++)
    {
      const RpWaitShare *share = &g_array_index (self->breakdown, RpWaitShare, i);

      if (best == NULL || compare_seconds (share, best) < 0)
        best = share;
    }
  return best;
}

/* The one table of wait sites: a kernel function where a thread sleeps (its
 * wchan, or a frame of its stack), what it means in plain words, and the
 * cause a verdict names. Symbols as Linux 6.x spells them; older names
 * (wait_on_page_writeback before folios, 5.16) beside their successors.
 * The ones seen on Linux 6.18 under R1 (fsync beside a big dd on ext3
 * data=ordered, and ext4): jbd2_log_wait_commit, balance_dirty_pages,
 * folio_wait_writeback, wait_transaction_locked, do_get_write_access.
 *
 * The journal's sites name what jbd2 did: the commit (a new handle waits
 * for the running transaction to be closed, a buffer for the commit to
 * write it), or the checkpoint (room in the journal). How long a commit
 * takes depends on the data= mode: @waits_commit marks the sites that wait
 * for a whole commit, which data=ordered makes write the file data first
 * and data=journal puts the data in (rp_wait_site_get_cause_in_mode()). */
typedef struct {
  const char *symbol;
  const char *words;
  const char *cause;
  gboolean    waits_commit;
} WaitSite;

static const WaitSite wait_sites[] = {
  { "jbd2_log_wait_commit", N_("waiting for the journal commit"), N_("journal commit"), TRUE },
  { "jbd2_journal_wait_updates", N_("waiting for the journal commit"), N_("journal commit") },
  { "jbd2_complete_transaction", N_("waiting for the journal commit"), N_("journal commit"), TRUE },
  { "wait_transaction_locked", N_("waiting to join a journal transaction"), N_("journal commit") },
  { "wait_transaction_switching", N_("waiting to join a journal transaction"), N_("journal commit") },
  { "add_transaction_credits", N_("waiting for room in the journal"), N_("journal commit") },
  { "start_this_handle", N_("waiting to join a journal transaction"), N_("journal commit") },
  { "jbd2_log_wait_for_space", N_("waiting for room in the journal"), N_("journal checkpoint") },
  { "do_get_write_access", N_("waiting for a journalled buffer"), N_("journal commit") },
  { "balance_dirty_pages", N_("throttled: too much dirty memory"), N_("dirty-memory throttling") },
  { "folio_wait_writeback", N_("waiting for its pages to reach the disk"), N_("writeback") },
  { "wait_on_page_writeback", N_("waiting for its pages to reach the disk"), N_("writeback") },
  { "folio_wait_stable", N_("waiting for its pages to reach the disk"), N_("writeback") },
  { "__filemap_fdatawait_range", N_("waiting for its pages to reach the disk"), N_("writeback") },
  { "filemap_fdatawait_range", N_("waiting for its pages to reach the disk"), N_("writeback") },
  { "filemap_fdatawait_keep_errors", N_("waiting for its pages to reach the disk"), N_("writeback") },
  { "blk_mq_get_tag", N_("block queue full / writeback throttling"), N_("block-layer queueing") },
  { "rq_qos_wait", N_("block queue full / writeback throttling"), N_("block-layer queueing") },
  { "wbt_wait", N_("block queue full / writeback throttling"), N_("block-layer queueing") },
  { "submit_bio_wait", N_("waiting for the disk to answer"), N_("a slow disk") },
  { "blkdev_issue_flush", N_("waiting for the disk's cache flush"), N_("a slow disk") },
  { "__wait_on_buffer", N_("waiting for a buffer under I/O"), N_("a slow disk") },
  { "__bh_read", N_("waiting for data to be read"), N_("a slow disk") },
  { "__lock_buffer", N_("waiting for a buffer under I/O"), N_("a slow disk") },
  { "folio_wait_bit_common", N_("waiting for a page under I/O"), N_("writeback") },
  { "__folio_lock", N_("waiting for a page under I/O"), N_("writeback") },
  { "__folio_lock_killable", N_("waiting for a page under I/O"), N_("writeback") },
  { "filemap_read", N_("waiting for data to be read"), N_("a slow disk") },
  { "filemap_fault", N_("waiting for data to be read"), N_("a slow disk") },
  { "throttle_direct_reclaim", N_("reclaiming memory"), N_("memory pressure") },
  { "__alloc_pages_slowpath", N_("reclaiming memory"), N_("memory pressure") },
  { "shrink_folio_list", N_("reclaiming memory"), N_("memory pressure") },
  { "reclaim_throttle", N_("reclaiming memory"), N_("memory pressure") },
  { "inode_lock", N_("waiting for another writer of the file"), N_("a lock") },
  { "rwsem_down_write_slowpath", N_("waiting for another writer of the file"), N_("a lock") },
  { "mutex_lock", N_("waiting for a lock"), N_("a lock") },
  { "__mutex_lock", N_("waiting for a lock"), N_("a lock") },
  { "hrtimer_nanosleep", N_("sleeping"), N_("a sleep") },
  { "do_nanosleep", N_("sleeping"), N_("a sleep") },
  { "pipe_read", N_("waiting for a pipe"), N_("a pipe") },
  { "anon_pipe_read", N_("waiting for a pipe"), N_("a pipe") },
  { "do_wait", N_("waiting for a child process"), N_("a child process") },
  { "kernel_wait4", N_("waiting for a child process"), N_("a child process") },
  { RP_WAIT_SITE_RUNNING, N_("running on a CPU"), N_("CPU work") },
  { RP_WAIT_SITE_UNKNOWN, N_("waiting where the kernel does not say"), NULL },
};

static const WaitSite *
lookup (const char *site)
{
  for (guint i = 0; site != NULL && i < G_N_ELEMENTS (wait_sites); i++)
    if (g_str_equal (wait_sites[i].symbol, site))
      return &wait_sites[i];
  return NULL;
}

/**
 * rp_wait_site_describe:
 * @site: a kernel symbol, e.g. "jbd2_log_wait_commit"
 *
 * Returns: (transfer none) (nullable): translated plain words, e.g.
 *   "waiting for the journal commit"; %NULL for a symbol the table does not
 *   know (shown verbatim)
 */
const char *
rp_wait_site_describe (const char *site)
{
  const WaitSite *known = lookup (site);

  return known != NULL ? _(known->words) : NULL;
}

/**
 * rp_wait_site_get_cause:
 * @site: a kernel symbol
 *
 * Returns: (transfer none) (nullable): the translated cause a verdict names,
 *   e.g. "journal commit", "a slow disk"; %NULL when unknown
 */
const char *
rp_wait_site_get_cause (const char *site)
{
  const WaitSite *known = lookup (site);

  return known != NULL && known->cause != NULL ? _(known->cause) : NULL;
}

/**
 * rp_wait_site_get_cause_in_mode:
 * @site: a kernel symbol
 * @journal_mode: (nullable): the file system's data= mode as the run
 *   recorded it (#RpSysinfo's journal_mode: "ordered", "writeback",
 *   "journal", "ordered (default)"); %NULL when unknown or none
 *
 * The cause as rp_wait_site_get_cause() names it, said more exactly where
 * the data= mode decides what a journal commit waits for: under
 * data=ordered the commit first writes the data of the files it covers
 * (the coupling of kernel bug 12309), under data=journal it writes the
 * data into the journal, under data=writeback it writes the metadata
 * alone. With no mode known it is "journal commit".
 *
 * Returns: (transfer none) (nullable): the translated cause; %NULL when unknown
 */
const char *
rp_wait_site_get_cause_in_mode (const char *site,
                                const char *journal_mode)
{
  const WaitSite *known = lookup (site);

  if (known == NULL || known->cause == NULL)
    return NULL;
  if (known->waits_commit && journal_mode != NULL)
    {
      /* "ordered (default)": the mode the kernel chose, the same mode. */
      if (g_str_has_prefix (journal_mode, "ordered"))
        return _("journal commit (data=ordered: the file data written first)");
      if (g_str_has_prefix (journal_mode, "journal"))
        return _("journal commit (data=journal: the file data written to the journal too)");
      /* Nothing waits for file data: the commit's own writes (and the
       * disk's cache flush) took the time. */
      if (g_str_has_prefix (journal_mode, "writeback"))
        return _("journal commit (data=writeback: metadata only)");
    }
  return _(known->cause);
}

/**
 * rp_wait_site_get_cause_id:
 * @site: a kernel symbol
 *
 * The same cause as rp_wait_site_get_cause(), untranslated: a label that
 * adds up across machines in any language (the monitor's metrics).
 *
 * Returns: (transfer none) (nullable): e.g. "journal commit"; %NULL when unknown
 */
const char *
rp_wait_site_get_cause_id (const char *site)
{
  const WaitSite *known = lookup (site);

  return known != NULL ? known->cause : NULL;
}

/**
 * rp_wait_site_is_telling:
 * @site: a kernel symbol from a stack frame
 *
 * A stack has many frames; the table's names say more than the innermost
 * unknown helper (e.g. "jbd2_log_wait_commit" more than a wait-queue
 * function under it), so the sampler takes the innermost frame this table
 * knows, and only without one the innermost non-generic frame.
 *
 * Returns: whether @site is in the table
 */
gboolean
rp_wait_site_is_telling (const char *site)
{
  return lookup (site) != NULL;
}
