/* test-stalls.c: stall attribution: the /proc parsers, the wait-site table, a real blocked call, the report's stalls. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <time.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-proc-wait.h"
#include "rp-process-stops.h"
#include "rp-report-stalls.h"
#include "rp-scenario.h"
#include "rp-stall-report.h"
#include "rp-sysinfo-private.h"
#include "rp-timed-call.h"

static void
test_task_stat (void)
{
  /* A command name with a space and a parenthesis; field 42 = 17. */
  g_autoptr(GString) line = g_string_new ("4242 (rp (x) y) D 1 2 3");
  RpTaskStat stat;

  for (guint field = 7; field <= 41; field++)
    g_string_append (line, " 0");
  g_string_append (line, " 17 0 0\n");
  g_assert_true (rp_proc_parse_task_stat (line->str, &stat));
  g_assert_cmpint (stat.state, ==, 'D');
  g_assert_cmpuint (stat.blkio_ticks, ==, 17);
  g_assert_true (rp_proc_parse_task_stat ("1 (sh) S 0", &stat));
  g_assert_cmpuint (stat.blkio_ticks, ==, 0);
  g_assert_false (rp_proc_parse_task_stat ("garbage", &stat));
  g_assert_false (rp_proc_parse_task_stat (NULL, &stat));
}

static void
test_stack_symbols (void)
{
  /* fsync on ext3 data=ordered under R1, Linux 6.18, as root. */
  const char *stack =
    "[<0>] jbd2_log_wait_commit+0xb5/0x140\n"
    "[<0>] ext4_sync_file+0x1a4/0x380\n"
    "[<0>] __x64_sys_fsync+0x33/0x60\n"
    "[<0>] do_syscall_64+0x71/0x290\n"
    "[<0>] entry_SYSCALL_64_after_hwframe+0x76/0x7e\n";
  const char *sched = "[<0>] __schedule+0x1/0x2\n[<0>] io_schedule+0x1/0x2\n"
                      "[<0>] folio_wait_bit_common+0x1/0x2 [ext4]\n";
  g_auto(GStrv) symbols = rp_proc_stack_symbols (stack);
  g_auto(GStrv) inner = rp_proc_stack_symbols (sched);
  g_auto(GStrv) none = rp_proc_stack_symbols ("");
  g_autofree char *wchan = rp_proc_clean_wchan ("jbd2_log_wait_commit\n");

  g_assert_cmpuint (g_strv_length (symbols), ==, 2);
  g_assert_cmpstr (symbols[0], ==, "jbd2_log_wait_commit");
  g_assert_cmpstr (symbols[1], ==, "ext4_sync_file");
  g_assert_cmpstr (inner[0], ==, "folio_wait_bit_common");
  g_assert_cmpuint (g_strv_length (none), ==, 0);
  g_assert_cmpstr (wchan, ==, "jbd2_log_wait_commit");
  /* "0": running, or hidden (kptr_restrict, another user's thread). */
  g_assert_null (rp_proc_clean_wchan ("0"));
  g_assert_null (rp_proc_clean_wchan (""));
}

static void
test_diskstats (void)
{
  /* Linux 6.18 (20 fields) and 4.4 (14 fields: no discards, no flushes). */
  const char *text =
    "   7       0 loop0 15453 8012 364942 6405 274355 43716 180463660 7299297 0 523272 7657208 3 4 5 6 192190 351505\n"
    "   8       1 sda1 10 0 80 5 20 0 160 7 1 30 12\n";
  g_autofree char *name = NULL;
  RpDiskCounters c;

  g_assert_true (rp_proc_parse_diskstats (text, 7, 0, &name, &c));
  g_assert_cmpstr (name, ==, "loop0");
  g_assert_cmpuint (c.reads, ==, 15453);
  g_assert_cmpuint (c.read_sectors, ==, 364942);
  g_assert_cmpuint (c.writes, ==, 274355);
  g_assert_cmpuint (c.write_sectors, ==, 180463660);
  g_assert_cmpuint (c.write_ms, ==, 7299297);
  g_assert_cmpuint (c.in_flight, ==, 0);
  g_assert_cmpuint (c.io_ticks_ms, ==, 523272);
  g_assert_cmpuint (c.discards, ==, 3);
  g_assert_cmpuint (c.discard_ms, ==, 6);
  g_assert_cmpuint (c.flushes, ==, 192190);
  g_assert_cmpuint (c.flush_ms, ==, 351505);
  g_assert_true (rp_proc_parse_diskstats (text, 8, 1, NULL, &c));
  g_assert_cmpuint (c.writes, ==, 20);
  g_assert_cmpuint (c.in_flight, ==, 1);
  g_assert_cmpuint (c.flushes, ==, 0);
  g_assert_false (rp_proc_parse_diskstats (text, 8, 2, NULL, &c));
}

/* Deltas of /proc/diskstats across the kernel's wraps: the time fields are
 * printed as 32-bit unsigned (block/genhd.c), so a busy disk's write_ms
 * goes from near 2³² back to a small number; a plain subtraction of the
 * two readings gave 1.8 × 10¹⁹ ms and an await of 10¹⁶ s. A 64-bit count
 * that goes back was reset (the device made again): what it counted since. */
static void
test_diskstats_delta (void)
{
  const char *before_text =
    "   7       3 loop3 100 0 800 50 4000 0 64000 4294967000 2 4294967200 0 0 0 0 0 10 4294967290\n";
  const char *after_text =
    "   7       3 loop3 150 0 1200 80 4100 0 65600 704 0 504 0 0 0 0 0 12 6\n";
  RpDiskCounters before, after, delta, total = { 0 };
  RpDiskCounters big = { .reads = G_GUINT64_CONSTANT (1) << 40, .write_sectors = G_MAXUINT32 - 10 };
  RpDiskCounters reset = { .reads = 7, .write_sectors = 20 };

  g_assert_true (rp_proc_parse_diskstats (before_text, 7, 3, NULL, &before));
  g_assert_true (rp_proc_parse_diskstats (after_text, 7, 3, NULL, &after));
  rp_disk_counters_delta (&before, &after, &delta);
  g_assert_cmpuint (delta.reads, ==, 50);
  g_assert_cmpuint (delta.read_sectors, ==, 400);
  g_assert_cmpuint (delta.read_ms, ==, 30);
  g_assert_cmpuint (delta.writes, ==, 100);
  g_assert_cmpuint (delta.write_sectors, ==, 1600);
  /* 4294967000 → 704: 296 ms to the wrap and 704 after it. */
  g_assert_cmpuint (delta.write_ms, ==, 1000);
  g_assert_cmpuint (delta.io_ticks_ms, ==, 600);
  g_assert_cmpuint (delta.flushes, ==, 2);
  g_assert_cmpuint (delta.flush_ms, ==, 12);
  g_assert_cmpuint (delta.in_flight, ==, 0);
  /* Totals summed from deltas stay right over two wraps. */
  rp_disk_counters_add (&total, &delta);
  rp_disk_counters_add (&total, &delta);
  g_assert_cmpuint (total.write_ms, ==, 2000);
  g_assert_cmpuint (total.writes, ==, 200);
  g_assert_cmpuint (total.read_ms, ==, 60);
  /* iostat's await of the period: (30 + 1000 + 12) ms over 50 + 100 + 2
   * requests, 6.86 ms; none completed, none. */
  g_assert_cmpfloat_with_epsilon (rp_disk_counters_await (&delta), 1.042 / 152, 1e-12);
  {
    RpDiskCounters idle = { 0 };

    g_assert_true (isnan (rp_disk_counters_await (&idle)));
  }
  g_assert_cmpuint (total.read_sectors, ==, 800);
  g_assert_cmpuint (total.flush_ms, ==, 24);

  /* A count of a 32-bit kernel wraps at 2³²; a 64-bit one going back
   * was reset. */
  rp_disk_counters_delta (&big, &reset, &delta);
  g_assert_cmpuint (delta.reads, ==, 7);
  g_assert_cmpuint (delta.write_sectors, ==, 31);
}

static void
test_vmstat (void)
{
  const char *text = "nr_dirty 1935\nnr_dirty_threshold 1191947\nnr_dirty_background_threshold 595246\n";
  guint64 v = 0;

  g_assert_true (rp_proc_parse_vmstat (text, "nr_dirty_threshold", &v));
  g_assert_cmpuint (v, ==, 1191947);
  g_assert_true (rp_proc_parse_vmstat (text, "nr_dirty", &v));
  g_assert_cmpuint (v, ==, 1935);
  g_assert_false (rp_proc_parse_vmstat (text, "nr_dirt", &v));
}

/* A site's cause in words, with nothing but the site to go by. */
static const char *
site_words (const char *site)
{
  return rp_cause_describe (rp_cause_of_site (site, NULL));
}

static void
test_wait_sites (void)
{
  g_autoptr(RpStall) stall = rp_stall_new ("fsync_latency", 1, 10);
  g_autoptr(RpStall) copy = NULL;

  g_assert_cmpstr (site_words ("jbd2_log_wait_commit"), ==, "waiting for the journal to commit");
  g_assert_cmpstr (site_words ("start_this_handle"), ==, "waiting for the journal to commit");
  g_assert_cmpstr (site_words ("balance_dirty_pages"), ==, "throttled: too much unwritten data (dirty limit)");
  g_assert_cmpstr (site_words ("folio_wait_writeback"), ==, "waiting for its own data to be written to the disk");
  g_assert_cmpstr (site_words ("wait_on_page_writeback"), ==, "waiting for its own data to be written to the disk");
  g_assert_cmpstr (site_words ("wbt_wait"), ==, "writeback throttling (wbt)");
  g_assert_cmpstr (site_words ("shrink_folio_list"), ==, "freeing memory (reclaim)");
  g_assert_cmpstr (site_words (RP_WAIT_SITE_RUNQUEUE), ==, "waiting for a CPU");
  g_assert_cmpstr (site_words (RP_WAIT_SITE_STOPPED), ==, "the process was stopped");
  g_assert_cmpstr (site_words (RP_WAIT_SITE_RUNNING), ==, "its own work on a CPU");
  g_assert_cmpstr (site_words (RP_WAIT_SITE_DISPLAY), ==, "the display server was late");
  /* Where the evidence cannot decide, it says so: never a guess. */
  g_assert_cmpstr (site_words ("some_new_function"), ==, "the evidence cannot tell");
  g_assert_cmpstr (site_words (RP_WAIT_SITE_UNKNOWN), ==, "the evidence cannot tell");
  /* The data= mode names what a whole commit waited for: the file data
   * first (ordered, also the kernel's default), the data in the journal
   * (journal), the metadata alone (writeback); no mode known, the commit. */
  {
    const struct { const char *site, *mode, *words; } modes[] = {
      { "jbd2_log_wait_commit", "writeback", "waiting for the journal to commit (data=writeback: metadata only)" },
      { "jbd2_log_wait_commit", NULL, "waiting for the journal to commit" },
      { "jbd2_log_wait_commit", "ordered (default)", "waiting for the journal to commit (data=ordered: the file data written first)" },
      { "jbd2_complete_transaction", "journal", "waiting for the journal to commit (data=journal: the file data written to the journal too)" },
      /* Waiting to join a transaction is not waiting for the data. */
      { "start_this_handle", "ordered", "waiting for the journal to commit" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
      {
        g_autofree char *words = rp_cause_describe_in_mode (rp_cause_of_site (modes[i].site, NULL), modes[i].site,
                                                            modes[i].mode);

        g_assert_cmpstr (words, ==, modes[i].words);
      }
  }
  for (guint c = 0; c < RP_N_CAUSES; c++)
    g_assert_cmpint (rp_cause_from_id (rp_cause_get_id ((RpCause) c)), ==, c);

  rp_stall_add_wait (stall, RP_WAIT_SITE_RUNNING, 0.5);
  rp_stall_add_wait (stall, "jbd2_log_wait_commit", 6);
  rp_stall_add_wait (stall, "some_new_function", 1);
  rp_stall_add_wait (stall, "jbd2_log_wait_commit", 2);
  rp_stall_sort (stall);
  g_assert_cmpstr (g_array_index (stall->breakdown, RpWaitShare, 0).site, ==, "jbd2_log_wait_commit");
  g_assert_cmpfloat (g_array_index (stall->breakdown, RpWaitShare, 0).seconds, ==, 8);
  g_assert_cmpfloat (rp_stall_get_sampled (stall), ==, 9.5);
  /* Unknown symbols count as named (they are kept verbatim); running does not. */
  g_assert_cmpfloat (rp_stall_get_named (stall), ==, 9);
  copy = rp_stall_copy (stall);
  g_assert_cmpstr (rp_stall_get_dominant (copy)->site, ==, "jbd2_log_wait_commit");
  g_assert_cmpuint (copy->breakdown->len, ==, 3);
}

/* Issue 31, defect 2: a locked page (folio_wait_bit_common, __folio_lock:
 * the wchan of a cold read and of a flushing fsync alike) is decided by
 * the call's kind and the disk's writes meanwhile, never called writeback
 * for a read; where nothing decides, "the evidence cannot tell". */
static void
test_causes_by_evidence (void)
{
  const RpCauseEvidence read = { RP_CALL_KIND_READ, RP_EVIDENCE_NO, RP_EVIDENCE_UNKNOWN };
  const RpCauseEvidence read_beside_writes = { RP_CALL_KIND_READ, RP_EVIDENCE_YES, RP_EVIDENCE_UNKNOWN };
  const RpCauseEvidence read_unknown_disk = { RP_CALL_KIND_READ, RP_EVIDENCE_UNKNOWN, RP_EVIDENCE_UNKNOWN };
  const RpCauseEvidence flush = { RP_CALL_KIND_FLUSH, RP_EVIDENCE_YES, RP_EVIDENCE_UNKNOWN };
  const RpCauseEvidence write = { RP_CALL_KIND_WRITE, RP_EVIDENCE_YES, RP_EVIDENCE_UNKNOWN };
  const RpCauseEvidence no_wbt = { RP_CALL_KIND_WRITE, RP_EVIDENCE_YES, RP_EVIDENCE_NO };
  const RpCauseEvidence wait = { RP_CALL_KIND_WAIT, RP_EVIDENCE_UNKNOWN, RP_EVIDENCE_UNKNOWN };
  const char *page_sites[] = { "folio_wait_bit_common", "__folio_lock", "__folio_lock_killable" };

  for (guint i = 0; i < G_N_ELEMENTS (page_sites); i++)
    {
      g_assert_cmpint (rp_cause_of_site (page_sites[i], &read), ==, RP_CAUSE_DISK_READ);
      g_assert_cmpint (rp_cause_of_site (page_sites[i], &read_unknown_disk), ==, RP_CAUSE_DISK_READ);
      g_assert_cmpint (rp_cause_of_site (page_sites[i], &read_beside_writes), ==, RP_CAUSE_BEHIND_WRITES);
      g_assert_cmpint (rp_cause_of_site (page_sites[i], &flush), ==, RP_CAUSE_OWN_WRITEBACK);
      /* A write() may wait for a read of a partial page or for writeback
       * of the page it overwrites: nothing recorded tells which. */
      g_assert_cmpint (rp_cause_of_site (page_sites[i], &write), ==, RP_CAUSE_UNKNOWN);
      g_assert_cmpint (rp_cause_of_site (page_sites[i], NULL), ==, RP_CAUSE_UNKNOWN);
      /* A thread with no file I/O of its own waiting on a locked page
       * waits for a read into it (a page fault, or the oracle's read of
       * the probe window, seen through its wchan alone). */
      g_assert_cmpint (rp_cause_of_site (page_sites[i], &wait), ==, RP_CAUSE_DISK_READ);
      g_assert_true (rp_wait_site_is_ambiguous (page_sites[i]));
    }
  g_assert_cmpstr (rp_cause_describe (rp_cause_of_site ("folio_wait_bit_common", &read)), ==,
                   "waiting for a read from the disk");
  g_assert_cmpstr (rp_cause_describe (rp_cause_of_site ("folio_wait_bit_common", &read_beside_writes)), ==,
                   "waiting in the disk’s queue behind writes");
  /* A read-path frame is a read whatever the series says. */
  g_assert_cmpint (rp_cause_of_site ("filemap_read", NULL), ==, RP_CAUSE_DISK_READ);
  /* rq_qos_wait is wbt's only where the queue throttles writeback. */
  g_assert_cmpint (rp_cause_of_site ("rq_qos_wait", &write), ==, RP_CAUSE_WBT);
  g_assert_cmpint (rp_cause_of_site ("rq_qos_wait", &no_wbt), ==, RP_CAUSE_DISK_QUEUE);
  g_assert_cmpint (rp_cause_of_site ("blk_mq_get_tag", &read_beside_writes), ==, RP_CAUSE_BEHIND_WRITES);
  g_assert_cmpint (rp_cause_of_site ("blkdev_issue_flush", &flush), ==, RP_CAUSE_DISK_FLUSH);
  /* A buffer or a bio under I/O that an fsync waits for is its own write;
   * a read does not wait for its own pages' writeback: nothing decides. */
  g_assert_cmpint (rp_cause_of_site ("__sync_dirty_buffer", &flush), ==, RP_CAUSE_DISK_WRITE);
  g_assert_cmpint (rp_cause_of_site ("submit_bio_wait", &flush), ==, RP_CAUSE_DISK_WRITE);
  g_assert_true (rp_wait_site_is_ambiguous ("submit_bio_wait"));
  g_assert_cmpint (rp_cause_of_site ("__wait_on_buffer", &wait), ==, RP_CAUSE_UNKNOWN);
  g_assert_true (rp_wait_site_is_ambiguous ("__wait_on_buffer"));
  g_assert_false (rp_wait_site_is_ambiguous ("filemap_read"));
  g_assert_cmpint (rp_cause_of_site ("folio_wait_writeback", &read), ==, RP_CAUSE_UNKNOWN);
  g_assert_cmpint (rp_cause_of_site ("folio_wait_writeback", &flush), ==, RP_CAUSE_OWN_WRITEBACK);
  g_assert_cmpint (rp_cause_of_site ("blk_mq_get_tag", &read), ==, RP_CAUSE_DISK_QUEUE);
  g_assert_cmpint (rp_cause_of_site ("rq_qos_wait", NULL), ==, RP_CAUSE_WBT);
  g_assert_cmpint (rp_cause_of_site ("mem_cgroup_handle_over_high", &read), ==, RP_CAUSE_RECLAIM);
  g_assert_true (rp_wait_site_is_reclaim ("reclaim_throttle"));
  g_assert_false (rp_wait_site_is_reclaim ("folio_wait_writeback"));
  /* What a fast disk meanwhile rules out: the disk's own causes. */
  g_assert_true (rp_cause_is_disk (RP_CAUSE_BEHIND_WRITES));
  g_assert_true (rp_cause_is_disk (RP_CAUSE_DISK_READ));
  g_assert_true (rp_cause_is_disk (RP_CAUSE_DISK_QUEUE));
  g_assert_false (rp_cause_is_disk (RP_CAUSE_JOURNAL));
  g_assert_false (rp_cause_is_disk (RP_CAUSE_DIRTY_LIMIT));
  /* The stable ids of reports and the monitor's labels. */
  g_assert_cmpstr (rp_cause_get_id (RP_CAUSE_JOURNAL), ==, "journal-commit");
  g_assert_cmpint (rp_cause_from_id ("behind-writes"), ==, RP_CAUSE_BEHIND_WRITES);
  g_assert_cmpint (rp_cause_from_id ("no-such-cause"), ==, RP_CAUSE_UNKNOWN);
  /* The data= mode says what a whole commit waits for; a wait for room
   * in the journal is no whole commit. */
  {
    g_autofree char *ordered = rp_cause_describe_in_mode (RP_CAUSE_JOURNAL, "jbd2_log_wait_commit", "ordered (default)");
    g_autofree char *writeback = rp_cause_describe_in_mode (RP_CAUSE_JOURNAL, "jbd2_log_wait_commit", "writeback");
    g_autofree char *journal = rp_cause_describe_in_mode (RP_CAUSE_JOURNAL, "jbd2_log_wait_commit", "journal");
    g_autofree char *handle = rp_cause_describe_in_mode (RP_CAUSE_JOURNAL, "start_this_handle", "ordered");

    g_assert_cmpstr (ordered, ==, "waiting for the journal to commit (data=ordered: the file data written first)");
    g_assert_cmpstr (writeback, ==, "waiting for the journal to commit (data=writeback: metadata only)");
    g_assert_cmpstr (journal, ==, "waiting for the journal to commit (data=journal: the file data written to the journal too)");
    g_assert_cmpstr (handle, ==, "waiting for the journal to commit");
  }

  /* The stack's reader looks past a locked page for the frame that says
   * which I/O; reclaim anywhere names the wait. */
  {
    const struct { const char *stack, *site; } stacks[] = {
      { "[<0>] folio_wait_bit_common+0x13c/0x350\n[<0>] filemap_get_pages+0x5b2/0x6e0\n"
        "[<0>] filemap_read+0xd9/0x350\n[<0>] vfs_read+0x1f0/0x330\n", "filemap_get_pages" },
      { "[<0>] folio_wait_bit_common+0x13c/0x350\n[<0>] folio_wait_writeback+0x2b/0x80\n"
        "[<0>] __filemap_fdatawait_range+0x8d/0xf0\n[<0>] ext4_sync_file+0xe8/0x380\n", "folio_wait_writeback" },
      { "[<0>] folio_wait_bit_common+0x13c/0x350\n[<0>] folio_wait_writeback+0x2b/0x80\n"
        "[<0>] shrink_folio_list+0x8f0/0xd60\n[<0>] filemap_read+0xd9/0x350\n", "shrink_folio_list" },
      { "[<0>] folio_wait_bit_common+0x13c/0x350\n[<0>] some_helper+0x10/0x20\n", "folio_wait_bit_common" },
      { "[<0>] jbd2_log_wait_commit+0xb5/0x140\n[<0>] ext4_sync_file+0xe8/0x380\n", "jbd2_log_wait_commit" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (stacks); i++)
      {
        g_autofree char *site = rp_stall_sampler_site_from_stack (stacks[i].stack);

        g_assert_cmpstr (site, ==, stacks[i].site);
      }
  }
}

/* ------------------------------------------------------------------------ */
/* A real call blocked on a pipe, sampled as the stall sampler samples.     */

typedef struct {
  RpCallRegistry *registry;
  int             pipe[2];
  GMutex          lock;
  GCond           cond;
  gboolean        opened;
} Blocked;

static gpointer
blocked_thread (gpointer data)
{
  Blocked *blocked = data;
  RpTimedCall *call = rp_call_registry_open (blocked->registry);
  char byte;

  g_mutex_lock (&blocked->lock);
  blocked->opened = TRUE;
  g_cond_signal (&blocked->cond);
  g_mutex_unlock (&blocked->lock);

  rp_timed_call_begin (call, "fsync_latency");
  g_assert_cmpint (read (blocked->pipe[0], &byte, 1), ==, 1);
  rp_timed_call_end (call);
  return NULL;
}

static void
read_as_sampler (pid_t         tid,
                 gboolean      child,
                 RpWaitSample *out,
                 gpointer      data)
{
  rp_stall_sampler_read (tid, child, FALSE, FALSE, out);
}

static gboolean
in_flight_at (RpCallRegistry *registry,
              const char     *site)
{
  g_autoptr(GPtrArray) flying = rp_call_registry_get_in_flight (registry, rp_clock_now (), 0);

  if (flying->len != 1)
    return FALSE;
  for (guint i = 0; i < ((RpStall *) flying->pdata[0])->breakdown->len; i++)
    if (g_strcmp0 (site_words (g_array_index (((RpStall *) flying->pdata[0])->breakdown, RpWaitShare, i).site), site) == 0 &&
        ((RpStall *) flying->pdata[0])->duration > 2 * RP_STALL_MIN_SECONDS)
      return TRUE;
  return FALSE;
}

static void
test_blocked_call (void)
{
  Blocked blocked = { rp_call_registry_new () };
  g_autoptr(GPtrArray) stalls = NULL;
  GThread *thread;
  const RpStall *stall;

  g_assert_cmpint (pipe (blocked.pipe), ==, 0);
  g_mutex_init (&blocked.lock);
  g_cond_init (&blocked.cond);
  rp_call_registry_set_origin (blocked.registry, rp_clock_now ());
  thread = g_thread_new ("blocked", blocked_thread, &blocked);
  g_mutex_lock (&blocked.lock);
  while (!blocked.opened)
    g_cond_wait (&blocked.cond, &blocked.lock);
  g_mutex_unlock (&blocked.lock);

  /* Sample until the call has been seen in the pipe's wait for a while:
   * a condition, not a clock, so a busy machine only makes it take longer. */
  /* pipe_read, anon_pipe_read since Linux 6.14: the table knows both. */
  while (!in_flight_at (blocked.registry, "waiting for a pipe"))
    {
      rp_call_registry_sample (blocked.registry, rp_clock_now (), read_as_sampler, NULL);
      g_usleep (10000);
    }
  g_assert_cmpint (write (blocked.pipe[1], "x", 1), ==, 1);
  g_thread_join (thread);

  stalls = rp_call_registry_get_stalls (blocked.registry);
  g_assert_cmpuint (stalls->len, ==, 1);
  stall = g_ptr_array_index (stalls, 0);
  g_assert_cmpstr (stall->series, ==, "fsync_latency");
  g_assert_cmpstr (stall->source, ==, "wchan");
  g_assert_cmpfloat (stall->duration, >, 2 * RP_STALL_MIN_SECONDS);
  g_assert_cmpstr (site_words (rp_stall_get_dominant (stall)->site), ==, "waiting for a pipe");
  g_assert_cmpfloat (rp_stall_get_sampled (stall), <=, stall->duration);
  g_assert_cmpfloat (stall->start, >=, 0);
  /* Nothing is in flight any more. */
  g_assert_false (rp_call_registry_any_in_flight (blocked.registry, rp_clock_now (), 0));

  close (blocked.pipe[0]);
  close (blocked.pipe[1]);
  g_mutex_clear (&blocked.lock);
  g_cond_clear (&blocked.cond);
  rp_call_registry_free (blocked.registry);
}

/* Issue 31: the measuring process stopped whole (SIGSTOP, as Ctrl-Z does)
 * while a call is in flight: every thread stops, the sampler's too, so no
 * look sees it; the SIGCONT that ends it does, and the call's stall has a
 * share "stopped" from the sampler's last look before the stop to the
 * continuation. A child process stops us for 0.3 s, continues us, then
 * lets the call return. */
static void
test_stopped_call (void)
{
  Blocked blocked = { rp_call_registry_new () };
  g_autoptr(GPtrArray) stalls = NULL;
  const RpStall *stall;
  double stopped = 0;
  GThread *thread;
  pid_t child;
  int status;

  rp_process_stops_watch ();
  g_assert_cmpint (pipe (blocked.pipe), ==, 0);
  g_mutex_init (&blocked.lock);
  g_cond_init (&blocked.cond);
  rp_call_registry_set_origin (blocked.registry, rp_clock_now ());
  thread = g_thread_new ("blocked", blocked_thread, &blocked);
  while (!rp_call_registry_any_in_flight (blocked.registry, rp_clock_now (), 2 * RP_CALL_SAMPLE_AFTER))
    g_usleep (1000);
  rp_call_registry_sample (blocked.registry, rp_clock_now (), read_as_sampler, NULL);

  child = fork ();
  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    {
      /* Async-signal-safe calls only: the parent has threads. */
      struct timespec pause = { 0, 300 * 1000 * 1000 };

      kill (getppid (), SIGSTOP);
      nanosleep (&pause, NULL);
      kill (getppid (), SIGCONT);
      _exit (write (blocked.pipe[1], "x", 1) == 1 ? 0 : 1);
    }
  /* Look as the sampler does until the call returned: a condition, not a
   * clock. */
  while (rp_call_registry_any_in_flight (blocked.registry, rp_clock_now (), 0))
    {
      rp_call_registry_sample (blocked.registry, rp_clock_now (), read_as_sampler, NULL);
      g_usleep (10000);
    }
  g_thread_join (thread);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);

  stalls = rp_call_registry_get_stalls (blocked.registry);
  g_assert_cmpuint (stalls->len, ==, 1);
  stall = g_ptr_array_index (stalls, 0);
  for (guint i = 0; i < stall->breakdown->len; i++)
    if (g_str_equal (g_array_index (stall->breakdown, RpWaitShare, i).site, RP_WAIT_SITE_STOPPED))
      stopped = g_array_index (stall->breakdown, RpWaitShare, i).seconds;
  g_test_message ("stall of %.3f s, %.3f s of it stopped", stall->duration, stopped);
  g_assert_cmpfloat (stopped, >, 0);
  g_assert_cmpfloat (stopped, <=, stall->duration);
  g_assert_cmpfloat (rp_stall_get_sampled (stall), <=, stall->duration + 1e-9);
  g_assert_cmpstr (site_words (RP_WAIT_SITE_STOPPED), ==, "the process was stopped");

  close (blocked.pipe[0]);
  close (blocked.pipe[1]);
  g_mutex_clear (&blocked.lock);
  g_cond_clear (&blocked.cond);
  rp_call_registry_free (blocked.registry);
}

/* Issue 30: the thread that took SIGCONT, its handler's frame set up and
 * its mask set by the kernel, waits for a CPU before the handler's first
 * line; a look then must still see a continuation under way. A thread
 * holds the masks the kernel gives: SIGCONT and the handler's SIGTTIN (a
 * handler under way), then every signal (GLib's worker: not a handler). */
typedef struct {
  sigset_t mask;
  GMutex   lock;
  GCond    cond;
  int      stage;   /* 1: masked; 2: told to end */
} MaskedThread;

static gpointer
masked_thread (gpointer data)
{
  MaskedThread *masked = data;

  pthread_sigmask (SIG_SETMASK, &masked->mask, NULL);
  g_mutex_lock (&masked->lock);
  masked->stage = 1;
  g_cond_broadcast (&masked->cond);
  while (masked->stage < 2)
    g_cond_wait (&masked->cond, &masked->lock);
  g_mutex_unlock (&masked->lock);
  return NULL;
}

static gboolean
continuing_beside (const sigset_t *mask)
{
  MaskedThread masked = { *mask };
  GThread *thread;
  gboolean continuing;

  g_mutex_init (&masked.lock);
  g_cond_init (&masked.cond);
  thread = g_thread_new ("masked", masked_thread, &masked);
  g_mutex_lock (&masked.lock);
  while (masked.stage < 1)
    g_cond_wait (&masked.cond, &masked.lock);
  g_mutex_unlock (&masked.lock);
  continuing = rp_process_stops_continuing ();
  g_mutex_lock (&masked.lock);
  masked.stage = 2;
  g_cond_broadcast (&masked.cond);
  g_mutex_unlock (&masked.lock);
  g_thread_join (thread);
  g_mutex_clear (&masked.lock);
  g_cond_clear (&masked.cond);
  return continuing;
}

static void
test_continuation_under_way (void)
{
  sigset_t mask;

  rp_process_stops_watch ();
  g_assert_false (rp_process_stops_continuing ());
  sigemptyset (&mask);
  sigaddset (&mask, SIGCONT);
  sigaddset (&mask, SIGTTIN);
  g_assert_true (continuing_beside (&mask));
  sigfillset (&mask);
  g_assert_false (continuing_beside (&mask));
  sigemptyset (&mask);
  sigaddset (&mask, SIGCONT);
  g_assert_false (continuing_beside (&mask));
  g_assert_false (rp_process_stops_continuing ());
}

/* The sampler's sleep between calls (issue 18, acceptance 3): with nothing
 * in flight it waits for a begin, which wakes it. The wait is an hour: a
 * lost wake-up hangs the test until meson's timeout fails it. Then, as
 * root, a look with the stack readable names the same wait site as the
 * wchan alone (the stack is read only when the wchan is not a known site). */
static void
test_wake_on_begin (void)
{
  Blocked blocked = { rp_call_registry_new () };
  RpWaitSample wchan = { NULL }, stack = { NULL };
  GThread *thread;
  double wait = -1;

  g_assert_cmpint (pipe (blocked.pipe), ==, 0);
  g_mutex_init (&blocked.lock);
  g_cond_init (&blocked.cond);
  rp_call_registry_set_origin (blocked.registry, rp_clock_now ());
  g_assert_false (rp_call_registry_next_due (blocked.registry, rp_clock_now (), &wait));

  thread = g_thread_new ("blocked", blocked_thread, &blocked);
  g_assert_true (rp_call_registry_wait_for_call (blocked.registry, 3600));
  g_assert_true (rp_call_registry_next_due (blocked.registry, rp_clock_now (), &wait));
  g_assert_cmpfloat (wait, >=, 0);
  g_assert_cmpfloat (wait, <=, RP_CALL_SAMPLE_AFTER);
  /* In flight: the wait returns at once. */
  g_assert_true (rp_call_registry_wait_for_call (blocked.registry, 3600));

  /* Wait until the thread sleeps in the pipe: a condition, not a clock. */
  while (!in_flight_at (blocked.registry, "waiting for a pipe"))
    {
      rp_call_registry_sample (blocked.registry, rp_clock_now (), read_as_sampler, NULL);
      g_usleep (10000);
    }
  if (geteuid () == 0)
    {
      pid_t tid = 0;
      /* The blocked thread's id: the one task of ours in pipe_read. */
      g_autoptr(GDir) dir = g_dir_open ("/proc/self/task", 0, NULL);
      const char *name;

      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          RpWaitSample look = { NULL };

          rp_stall_sampler_read ((pid_t) atoi (name), FALSE, FALSE, FALSE, &look);
          if (look.site != NULL && g_strcmp0 (site_words (look.site), "waiting for a pipe") == 0)
            tid = (pid_t) atoi (name);
          g_free (look.site);
        }
      g_assert_cmpint (tid, >, 0);
      rp_stall_sampler_read (tid, FALSE, FALSE, FALSE, &wchan);
      rp_stall_sampler_read (tid, FALSE, TRUE, FALSE, &stack);
      g_assert_cmpstr (stack.site, ==, wchan.site);
      g_assert_cmpstr (stack.source, ==, "stack");
      g_free (wchan.site);
      g_free (stack.site);
    }
  g_assert_cmpint (write (blocked.pipe[1], "x", 1), ==, 1);
  g_thread_join (thread);
  g_assert_false (rp_call_registry_next_due (blocked.registry, rp_clock_now (), &wait));

  close (blocked.pipe[0]);
  close (blocked.pipe[1]);
  g_mutex_clear (&blocked.lock);
  g_cond_clear (&blocked.cond);
  rp_call_registry_free (blocked.registry);
}

/* The app-start probe's case: the call waits for a child process (here
 * cat reading an empty pipe), so the sampler must look at the child, not
 * at the calling thread, which is running this test (its state R would
 * say "running"). */
static void
test_child_call (void)
{
  RpCallRegistry *registry = rp_call_registry_new ();
  RpTimedCall *call = rp_call_registry_open (registry);
  posix_spawn_file_actions_t actions;
  char *argv[] = { (char *) "cat", NULL };
  g_autoptr(GPtrArray) stalls = NULL;
  int pipe_fds[2], status;
  pid_t child;

  g_assert_cmpint (pipe (pipe_fds), ==, 0);
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_adddup2 (&actions, pipe_fds[0], STDIN_FILENO);
  posix_spawn_file_actions_addclose (&actions, pipe_fds[1]);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  rp_call_registry_set_origin (registry, rp_clock_now ());
  rp_timed_call_begin (call, "app_start_latency");
  g_assert_cmpint (posix_spawnp (&child, "cat", &actions, NULL, argv, environ), ==, 0);
  posix_spawn_file_actions_destroy (&actions);
  rp_timed_call_set_child (call, child);
  close (pipe_fds[0]);

  /* Until the child has been seen waiting in the pipe: a condition, not a
   * clock. */
  while (!in_flight_at (registry, "waiting for a pipe"))
    {
      rp_call_registry_sample (registry, rp_clock_now (), read_as_sampler, NULL);
      g_usleep (10000);
    }
  close (pipe_fds[1]);
  g_assert_cmpint (waitpid (child, &status, 0), ==, child);
  g_assert_true (WIFEXITED (status) && WEXITSTATUS (status) == 0);
  /* An exited child (a zombie, or reaped) adds nothing. */
  g_assert_cmpuint (rp_call_registry_sample (registry, rp_clock_now (), read_as_sampler, NULL), ==, 0);
  rp_timed_call_end (call);

  stalls = rp_call_registry_get_stalls (registry);
  g_assert_cmpuint (stalls->len, ==, 1);
  g_assert_cmpstr (((RpStall *) stalls->pdata[0])->series, ==, "app_start_latency");
  g_assert_cmpstr (site_words (rp_stall_get_dominant (stalls->pdata[0])->site), ==, "waiting for a pipe");
  rp_call_registry_free (registry);
}

/* The sampler reads /proc without the call's lock: a worker ending its
 * call while a look at it is under way does not wait for that look (it
 * did: the look held the lock), and the look is dropped, not added to the
 * call begun next. The reader below only returns once the call has ended,
 * so with the lock held this test would never end. */
typedef struct {
  RpCallRegistry *registry;
  RpTimedCall    *call;
  GMutex          lock;
  GCond           cond;
  gboolean        opened, reading, ended;
} Race;

static gpointer
race_worker (gpointer data)
{
  Race *race = data;

  race->call = rp_call_registry_open (race->registry);
  rp_timed_call_begin (race->call, "write_latency");
  g_mutex_lock (&race->lock);
  race->opened = TRUE;
  g_cond_broadcast (&race->cond);
  while (!race->reading)
    g_cond_wait (&race->cond, &race->lock);
  g_mutex_unlock (&race->lock);

  rp_timed_call_end (race->call);
  rp_timed_call_begin (race->call, "write_latency");

  g_mutex_lock (&race->lock);
  race->ended = TRUE;
  g_cond_broadcast (&race->cond);
  g_mutex_unlock (&race->lock);
  return NULL;
}

static void
read_during_end (pid_t         tid,
                 gboolean      child,
                 RpWaitSample *out,
                 gpointer      data)
{
  Race *race = data;

  g_mutex_lock (&race->lock);
  race->reading = TRUE;
  g_cond_broadcast (&race->cond);
  while (!race->ended)
    g_cond_wait (&race->cond, &race->lock);
  g_mutex_unlock (&race->lock);
  out->site = g_strdup ("pipe_read");
  out->source = "wchan";
}

static void
test_sample_without_lock (void)
{
  Race race = { rp_call_registry_new () };
  g_autoptr(GPtrArray) flying = NULL;
  GThread *thread;

  g_mutex_init (&race.lock);
  g_cond_init (&race.cond);
  thread = g_thread_new ("race", race_worker, &race);
  g_mutex_lock (&race.lock);
  while (!race.opened)
    g_cond_wait (&race.cond, &race.lock);
  g_mutex_unlock (&race.lock);

  /* "now" a second ahead: the call counts as in flight past 20 ms. */
  g_assert_cmpuint (rp_call_registry_sample (race.registry, rp_clock_now () + 1, read_during_end, &race), ==, 0);
  g_thread_join (thread);
  flying = rp_call_registry_get_in_flight (race.registry, rp_clock_now (), 0);
  g_assert_cmpuint (flying->len, ==, 1);
  g_assert_cmpuint (((RpStall *) flying->pdata[0])->breakdown->len, ==, 0);

  rp_timed_call_end (race.call);
  g_mutex_clear (&race.lock);
  g_cond_clear (&race.cond);
  rp_call_registry_free (race.registry);
}

/* ------------------------------------------------------------------------ */
/* The report                                                                */

/* A report with @stalls (JSON text, or NULL for none) put in, fsync's
 * stalls its only calls. */
static char *
report_json (const char *stalls,
             int         version)
{
  return rp_stall_report_json (stalls, version, RP_STALL_REPORT_PLAIN);
}

static void
test_report_stalls (void)
{
  g_autofree char *json = report_json (rp_stall_report_two_stalls, RP_REPORT_VERSION);
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReport) report = rp_report_load_from_data (json, -1, &error);
  g_autoptr(RpReport) again = NULL;
  g_autofree char *saved = NULL;
  g_autofree char *verdict = NULL;
  g_autofree char *text = NULL;
  g_autofree char *csv = NULL;
  g_autoptr(GPtrArray) meanwhile = NULL;
  const RpStall *first;

  g_assert_no_error (error);
  g_assert_cmpuint (rp_report_get_stalls (report)->len, ==, 2);
  first = g_ptr_array_index (rp_report_get_stalls (report), 0);
  g_assert_cmpfloat (first->duration, ==, 9.85);
  g_assert_cmpfloat (first->blkio_delay, <, 0);
  g_assert_cmpstr (first->source, ==, "stack");

  /* Written and read back: the same stalls. */
  saved = rp_report_to_json (report, NULL);
  again = rp_report_load_from_data (saved, -1, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (rp_report_get_stalls (again)->len, ==, 2);
  g_assert_cmpfloat (((RpStall *) rp_report_get_stalls (again)->pdata[1])->blkio_delay, ==, 0.25);

  /* The verdict names the journal commit and says the disk was fast. */
  verdict = rp_report_get_verdict (report);
  /* Summed over both stalls: 9.70 s of 10.35 s at the journal commit. */
  g_assert_nonnull (strstr (verdict, "fsync: of 10.35 s in 2 stalls (calls over 0.1 s), 9.70 s had the cause “waiting for the journal to commit"));
  /* No data= mode recorded: the commit, no more. */
  g_assert_nonnull (strstr (verdict, "waiting for the journal to commit”; the disk answered in 3.00 ms per request (median), so not a slow disk."));

  /* What ran meanwhile: the commit that overlaps, the device's latency. */
  meanwhile = rp_report_stall_meanwhile (report, first);
  g_assert_cmpuint (meanwhile->len, ==, 4);
  g_assert_cmpstr (meanwhile->pdata[0], ==, "journal commits");
  g_assert_nonnull (strstr (meanwhile->pdata[1], "9.00 s in all"));
  g_assert_cmpstr (meanwhile->pdata[2], ==, "device time per request");

  /* A comparison puts the causes side by side. */
  {
    g_autofree char *cell = rp_report_get_cause_cell (report);
    g_autoptr(GPtrArray) pair = g_ptr_array_new ();
    g_autofree char *compare = NULL;

    g_assert_cmpstr (cell, ==, "waiting for the journal to commit (94 %)");
    g_ptr_array_add (pair, report);
    g_ptr_array_add (pair, again);
    compare = rp_report_compare_text (pair);
    g_assert_nonnull (strstr (compare, "Dominant cause"));
    g_assert_nonnull (strstr (compare, "waiting for the journal to commit (94 %)"));
  }

  text = rp_report_to_text (report);
  g_assert_nonnull (strstr (text, "Stalls: where the time went"));
  /* The stall records give the kernel's site beside the cause, for engineers. */
  g_assert_nonnull (strstr (text, "waiting for the journal to commit [jbd2_log_wait_commit] 9.70 s"));
  for (char **line = g_strsplit (text, "\n", -1), **l = line; *l != NULL || (g_strfreev (line), FALSE); l++)
    g_assert_cmpuint (g_utf8_strlen (*l, -1), <=, 80);
  csv = rp_report_to_csv (report);
  g_assert_nonnull (strstr (csv, "\nstall.fsync_latency,2,9.8499999999999996\n"));
  g_assert_nonnull (strstr (csv, "\nstall.fsync_latency.jbd2_log_wait_commit,2,9.6999999999999993\n"));
}

/* The report's own data= mode names the cause (trial: "journal ordering"
 * on data=writeback, where nothing orders the data before the commit). */
static void
test_report_journal_mode (void)
{
  const char *modes[][2] = {
    { "writeback", "waiting for the journal to commit (data=writeback: metadata only)”; the disk answered" },
    { "ordered (default)", "waiting for the journal to commit (data=ordered: the file data written first)”; the disk" },
    { "journal", "waiting for the journal to commit (data=journal: the file data written to the journal too)”; the" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (modes); i++)
    {
      g_autofree char *json = report_json (rp_stall_report_two_stalls, RP_REPORT_VERSION);
      g_autoptr(JsonParser) parser = json_parser_new ();
      g_autoptr(JsonGenerator) generator = json_generator_new ();
      g_autofree char *edited = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(RpReport) report = NULL;
      g_autofree char *verdict = NULL;
      JsonObject *system;

      g_assert_true (json_parser_load_from_data (parser, json, -1, NULL));
      system = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)), "system");
      json_object_set_string_member (system, "fs_type", "ext4");
      json_object_set_string_member (system, "journal_mode", modes[i][0]);
      json_generator_set_root (generator, json_parser_get_root (parser));
      edited = json_generator_to_data (generator, NULL);
      report = rp_report_load_from_data (edited, -1, &error);
      g_assert_no_error (error);
      g_assert_cmpstr (rp_report_get_sysinfo (report)->journal_mode, ==, modes[i][0]);
      verdict = rp_report_get_verdict (report);
      g_test_message ("%s: %s", modes[i][0], verdict);
      g_assert_nonnull (strstr (verdict, modes[i][1]));
      g_assert_null (strstr (verdict, "ordering"));
    }
}

static void
test_report_old_and_bad (void)
{
  g_autofree char *old = report_json (NULL, 1);
  g_autofree char *negative = report_json ("[{\"series\": \"fsync_latency\", \"start\": 1, \"duration\": -2,"
                                           " \"breakdown\": []}]", RP_REPORT_VERSION);
  g_autofree char *not_list = report_json ("{\"a\": 1}", RP_REPORT_VERSION);
  g_autoptr(GError) error = NULL;
  g_autoptr(RpReport) report = rp_report_load_from_data (old, -1, &error);
  g_autofree char *verdict = NULL;

  /* A version 1 report has no stalls and still loads; its verdict has no cause. */
  g_assert_no_error (error);
  g_assert_cmpuint (rp_report_get_stalls (report)->len, ==, 0);
  verdict = rp_report_get_verdict (report);
  g_assert_null (strstr (verdict, "stalls (calls over"));

  g_assert_null (rp_report_load_from_data (negative, -1, &error));
  g_assert_error (error, RP_ERROR, RP_ERROR_REPORT);
  g_assert_nonnull (strstr (error->message, "“stalls”, stall 1"));
  g_clear_error (&error);
  g_assert_null (rp_report_load_from_data (not_list, -1, &error));
  g_assert_nonnull (strstr (error->message, "“stalls”"));
}

static RpSeries *
lookup_in_table (gpointer    owner,
                 const char *name)
{
  return g_hash_table_lookup (owner, name);
}

/* The evidence beyond a stall's wait sites (rp-report-causes.c): whether
 * the disk under the call's file wrote meanwhile (1 MiB/s or more over the
 * stall and the disk sampler's period after it; a load's call on the
 * loads' disk where they have one of their own), whether that disk
 * throttles writeback (wbt_lat_usec above 0), what the call does. */
static void
test_evidence (void)
{
  g_autoptr(GHashTable) series = g_hash_table_new_full (g_str_hash, g_str_equal, NULL, g_object_unref);
  RpSeries *disk = rp_series_new ("disk_write_throughput", "B/s", NULL);
  RpSeries *load_disk = rp_series_new ("load_disk_write_throughput", "B/s", NULL);
  g_autoptr(RpSysinfo) sysinfo = rp_sysinfo_new ();
  g_autoptr(RpStall) quiet = rp_stall_new ("fsync_latency", 1.0, 0.5);
  g_autoptr(RpStall) busy = rp_stall_new ("fsync_latency", 5.0, 0.5);
  g_autoptr(RpStall) load_call = rp_stall_new ("read_latency", 5.0, 0.5);
  g_autoptr(RpStall) frame = rp_stall_new ("frame_interval", 5.0, 0.5);
  RpCauseEvidence evidence;

  /* 0.6 MiB/s around the first stall, 2 MiB/s around the second; the
   * loads' own disk idle. */
  for (double t = 0.5; t < 8; t += 0.5)
    {
      rp_series_append (disk, t, t < 3 ? 0.6 * 1024 * 1024 : 2.0 * 1024 * 1024);
      rp_series_append (load_disk, t, 0);
    }
  g_hash_table_insert (series, (char *) "disk_write_throughput", disk);
  g_hash_table_insert (series, (char *) "load_disk_write_throughput", load_disk);

  rp_stall_evidence_from (lookup_in_table, series, NULL, quiet, &evidence);
  g_assert_cmpint (evidence.kind, ==, RP_CALL_KIND_FLUSH);
  g_assert_cmpint (evidence.device_writing, ==, RP_EVIDENCE_NO);
  g_assert_cmpint (evidence.wbt, ==, RP_EVIDENCE_UNKNOWN);
  rp_stall_evidence_from (lookup_in_table, series, NULL, busy, &evidence);
  g_assert_cmpint (evidence.device_writing, ==, RP_EVIDENCE_YES);
  /* The readers' read() is a load's call: on the loads' disk, idle. */
  rp_stall_evidence_from (lookup_in_table, series, NULL, load_call, &evidence);
  g_assert_cmpint (evidence.kind, ==, RP_CALL_KIND_READ);
  g_assert_cmpint (evidence.device_writing, ==, RP_EVIDENCE_NO);
  /* A frame of the probe window has no file, so no disk: a page it
   * faulted in may come from any (gui-felt-device's read from a usb2-stick
   * was "behind writes" for the target's). */
  rp_stall_evidence_from (lookup_in_table, series, NULL, frame, &evidence);
  g_assert_cmpint (evidence.kind, ==, RP_CALL_KIND_WAIT);
  g_assert_cmpint (evidence.device_writing, ==, RP_EVIDENCE_UNKNOWN);
  g_assert_cmpint (rp_cause_of_site ("filemap_get_pages", &evidence), ==, RP_CAUSE_DISK_READ);
  /* No disk sampler: unknown, never a guess. */
  rp_stall_evidence_from (NULL, NULL, NULL, busy, &evidence);
  g_assert_cmpint (evidence.device_writing, ==, RP_EVIDENCE_UNKNOWN);

  sysinfo->wbt_lat_usec = g_strdup ("0");
  rp_stall_evidence_from (lookup_in_table, series, sysinfo, busy, &evidence);
  g_assert_cmpint (evidence.wbt, ==, RP_EVIDENCE_NO);
  g_free (sysinfo->wbt_lat_usec);
  sysinfo->wbt_lat_usec = g_strdup ("75000");
  rp_stall_evidence_from (lookup_in_table, series, sysinfo, busy, &evidence);
  g_assert_cmpint (evidence.wbt, ==, RP_EVIDENCE_YES);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/stalls/evidence", test_evidence);
  g_test_add_func ("/stalls/task-stat", test_task_stat);
  g_test_add_func ("/stalls/stack-symbols", test_stack_symbols);
  g_test_add_func ("/stalls/diskstats", test_diskstats);
  g_test_add_func ("/stalls/diskstats-delta", test_diskstats_delta);
  g_test_add_func ("/stalls/vmstat", test_vmstat);
  g_test_add_func ("/stalls/wait-sites", test_wait_sites);
  g_test_add_func ("/stalls/causes-by-evidence", test_causes_by_evidence);
  g_test_add_func ("/stalls/blocked-call", test_blocked_call);
  g_test_add_func ("/stalls/stopped-call", test_stopped_call);
  g_test_add_func ("/stalls/continuation-under-way", test_continuation_under_way);
  g_test_add_func ("/stalls/child-call", test_child_call);
  g_test_add_func ("/stalls/wake-on-begin", test_wake_on_begin);
  g_test_add_func ("/stalls/sample-without-lock", test_sample_without_lock);
  g_test_add_func ("/stalls/report", test_report_stalls);
  g_test_add_func ("/stalls/report-journal-mode", test_report_journal_mode);
  g_test_add_func ("/stalls/report-old-and-bad", test_report_old_and_bad);
  return g_test_run ();
}
