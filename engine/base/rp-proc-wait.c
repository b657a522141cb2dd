/* rp-proc-wait.c: parsers for a thread's stat and stack, /proc/diskstats and /proc/vmstat. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <math.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rp-proc-wait.h"

/**
 * rp_proc_parse_task_stat:
 * @text: a /proc/PID/task/TID/stat line
 * @out_stat: (out caller-allocates): its state and blkio delay
 *
 * The command name (field 2) may hold spaces and parentheses, so fields are
 * counted from the last ')' (proc(5)).
 *
 * Returns: %FALSE when @text is not a stat line; a line of a kernel older
 *   than 2.6.18, without field 42, gives @blkio_ticks 0
 */
gboolean
rp_proc_parse_task_stat (const char *text,
                         RpTaskStat *out_stat)
{
  const char *p = text != NULL ? strrchr (text, ')') : NULL;
  guint field = 3;

  g_return_val_if_fail (out_stat != NULL, FALSE);

  memset (out_stat, 0, sizeof *out_stat);
  if (p == NULL || p[1] != ' ' || !g_ascii_isalpha (p[2]))
    return FALSE;
  p += 2;
  out_stat->state = *p;
  /* Walk to field 42. */
  while (*p != '\0' && field < 42)
    {
      if (*p == ' ')
        field++;
      p++;
    }
  if (field == 42)
    out_stat->blkio_ticks = g_ascii_strtoull (p, NULL, 10);
  return TRUE;
}

/**
 * rp_proc_parse_schedstat:
 * @text: a /proc/PID/task/TID/schedstat line: "ON_CPU RUN_DELAY SLICES",
 *   nanoseconds (Documentation/scheduler/sched-stats.rst; there with
 *   CONFIG_SCHED_INFO, which delay accounting selects, without schedstats)
 * @out_on_cpu: (out): seconds the thread ran on a CPU
 * @out_run_delay: (out): seconds it was runnable and waited on a run queue
 *   for a CPU; the kernel adds a wait when the thread gets the CPU, so a
 *   wait still going on is not in it yet
 *
 * Returns: %FALSE when @text is not such a line
 */
gboolean
rp_proc_parse_schedstat (const char *text,
                         double     *out_on_cpu,
                         double     *out_run_delay)
{
  guint64 on_cpu, run_delay;
  char *end;

  g_return_val_if_fail (out_on_cpu != NULL && out_run_delay != NULL, FALSE);

  if (text == NULL || !g_ascii_isdigit (*text))
    return FALSE;
  on_cpu = g_ascii_strtoull (text, &end, 10);
  if (*end != ' ' || !g_ascii_isdigit (end[1]))
    return FALSE;
  run_delay = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != ' ' && *end != '\n' && *end != '\0')
    return FALSE;
  *out_on_cpu = (double) on_cpu * 1e-9;
  *out_run_delay = (double) run_delay * 1e-9;
  return TRUE;
}

/* Frames of the scheduler and of the system-call entry: where every wait
 * ends, so they name none. The kernel's own get_wchan() skips the same. */
static gboolean
is_generic_frame (const char *symbol)
{
  static const char *const generic[] = {
    "schedule", "__schedule", "io_schedule", "schedule_timeout", "io_schedule_timeout",
    "schedule_preempt_disabled", "schedule_hrtimeout_range", "schedule_hrtimeout_range_clock",
    "bit_wait_io", "bit_wait", "__wait_on_bit", "out_of_line_wait_on_bit",
    "__wait_on_bit_lock", "out_of_line_wait_on_bit_lock", "wait_for_completion",
    "wait_for_completion_io", "wait_for_completion_io_timeout", "wait_for_common",
    "wait_for_common_io", "__wait_for_common", "do_syscall_64",
    "entry_SYSCALL_64_after_hwframe", "rwsem_down_write_slowpath",
    "rwsem_down_read_slowpath", "__mutex_lock", "__mutex_lock_slowpath",
    "mutex_lock", "down_write", "down_read", "percpu_down_write",
  };

  if (g_str_has_prefix (symbol, "__x64_sys_") || g_str_has_prefix (symbol, "__ia32_sys_") ||
      g_str_has_prefix (symbol, "__do_sys_") || g_str_has_prefix (symbol, "__se_sys_"))
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (generic); i++)
    if (g_str_equal (symbol, generic[i]))
      return TRUE;
  return FALSE;
}

/* "[<0>] jbd2_log_wait_commit+0xb5/0x140" → "jbd2_log_wait_commit"; also
 * drops a module suffix " [ext4]". */
static char *
frame_symbol (const char *line)
{
  const char *p = strchr (line, ']');
  const char *end;

  p = p != NULL ? p + 1 : line;
  while (*p == ' ')
    p++;
  end = p;
  while (*end != '\0' && *end != '+' && *end != ' ' && *end != '\n')
    end++;
  return end > p ? g_strndup (p, end - p) : NULL;
}

/**
 * rp_proc_stack_symbols:
 * @stack: text of /proc/PID/task/TID/stack (readable with CAP_SYS_ADMIN),
 *   innermost frame first
 *
 * The frames that may say why the thread waits: the scheduler's, the generic
 * wait helpers' and the system-call entry's are left out, as the kernel's
 * wchan skips the scheduler. Which of the rest names the wait best is for
 * the wait-site table (model/rp-stall.c) to say.
 *
 * Returns: (transfer full): the symbols, innermost first (maybe none)
 */
GStrv
rp_proc_stack_symbols (const char *stack)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) lines = g_strsplit (stack != NULL ? stack : "", "\n", -1);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autofree char *symbol = frame_symbol (lines[i]);

      if (symbol != NULL && !is_generic_frame (symbol))
        g_strv_builder_add (builder, symbol);
    }
  return g_strv_builder_end (builder);
}

/**
 * rp_proc_clean_wchan:
 * @wchan: text of /proc/PID/task/TID/wchan
 *
 * Returns: (transfer full) (nullable): the symbol, %NULL when the thread
 *   runs ("0": no wait site) or the kernel hides it (kptr_restrict, or
 *   another user's thread: "0" as well)
 */
char *
rp_proc_clean_wchan (const char *wchan)
{
  g_autofree char *copy = g_strstrip (g_strdup (wchan != NULL ? wchan : ""));

  if (copy[0] == '\0' || g_str_equal (copy, "0"))
    return NULL;
  return g_steal_pointer (&copy);
}

/**
 * rp_proc_parse_diskstats:
 * @text: text of /proc/diskstats
 * @major: the device's major number
 * @minor: its minor number
 * @out_name: (out) (optional) (transfer full): its kernel name, e.g. "loop0"
 * @out_counters: (out caller-allocates): its counters
 *
 * Returns: %FALSE when no line has that device
 */
gboolean
rp_proc_parse_diskstats (const char      *text,
                         guint            major,
                         guint            minor,
                         char           **out_name,
                         RpDiskCounters  *out_counters)
{
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (out_counters != NULL, FALSE);

  lines = g_strsplit (text != NULL ? text : "", "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      guint64 f[20] = { 0 };
      char name[64];
      unsigned int ma, mi;
      int n = sscanf (lines[i],
                      "%u %u %63s %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                      " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                      " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                      " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                      " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT
                      " %" G_GUINT64_FORMAT " %" G_GUINT64_FORMAT,
                      &ma, &mi, name, &f[4], &f[5], &f[6], &f[7], &f[8], &f[9], &f[10], &f[11],
                      &f[12], &f[13], &f[14], &f[15], &f[16], &f[17], &f[18], &f[19], &f[0]);

      /* f[k] is field k (1-based, as iostats.rst counts); f[20] would
       * overflow the array, so field 20 lands in f[0]. */
      if (n < 14 || ma != major || mi != minor)
        continue;
      out_counters->reads = f[4];
      out_counters->read_sectors = f[6];
      out_counters->read_ms = f[7];
      out_counters->writes = f[8];
      out_counters->write_sectors = f[10];
      out_counters->write_ms = f[11];
      out_counters->in_flight = f[12];
      out_counters->io_ticks_ms = f[13];
      out_counters->discards = n >= 18 ? f[15] : 0;
      out_counters->discard_ms = n >= 18 ? f[18] : 0;
      out_counters->flushes = n >= 20 ? f[19] : 0;
      out_counters->flush_ms = n >= 20 ? f[0] : 0;
      if (out_name != NULL)
        *out_name = g_strdup (name);
      return TRUE;
    }
  return FALSE;
}

/* The kernel prints the time fields of /proc/diskstats as 32-bit
 * unsigned (block/genhd.c diskstats_show(): `(unsigned int)div_u64(nsecs,
 * NSEC_PER_MSEC)`, and io_ticks likewise): they wrap after 2³² ms, 49.7
 * days of summed request time, which a busy disk with many requests in
 * flight reaches in days. The counts are `unsigned long`: 64 bits, or 32 on
 * a 32-bit kernel, where a busy disk wraps the sector counts (2 TiB) too.
 * A count that went back from a value that fits 32 bits wrapped there; one
 * that went back from beyond was reset (the device was removed and made
 * again under the same number): the new value is what it counted since. */
static guint64
counter_delta (guint64  before,
               guint64  after,
               gboolean bits32)
{
  if (after >= before)
    return after - before;
  if (bits32 || before <= G_MAXUINT32)
    return (after - before) & G_MAXUINT32;
  return after;
}

/**
 * rp_disk_counters_delta:
 * @before: an earlier reading of a device's counters
 * @after: a later one
 * @out_delta: (out caller-allocates): what each counter grew by between
 *   them, across a wrap of the kernel's 32-bit fields (never the
 *   2⁶⁴ − something that a plain subtraction gives); @in_flight is
 *   @after's, a level, not a count
 *
 * The one place deltas of /proc/diskstats are taken (rates, await,
 * utilisation, totals).
 */
void
rp_disk_counters_delta (const RpDiskCounters *before,
                        const RpDiskCounters *after,
                        RpDiskCounters       *out_delta)
{
  g_return_if_fail (before != NULL && after != NULL && out_delta != NULL);

  out_delta->reads = counter_delta (before->reads, after->reads, FALSE);
  out_delta->read_sectors = counter_delta (before->read_sectors, after->read_sectors, FALSE);
  out_delta->read_ms = counter_delta (before->read_ms, after->read_ms, TRUE);
  out_delta->writes = counter_delta (before->writes, after->writes, FALSE);
  out_delta->write_sectors = counter_delta (before->write_sectors, after->write_sectors, FALSE);
  out_delta->write_ms = counter_delta (before->write_ms, after->write_ms, TRUE);
  out_delta->in_flight = after->in_flight;
  out_delta->io_ticks_ms = counter_delta (before->io_ticks_ms, after->io_ticks_ms, TRUE);
  out_delta->discards = counter_delta (before->discards, after->discards, FALSE);
  out_delta->discard_ms = counter_delta (before->discard_ms, after->discard_ms, TRUE);
  out_delta->flushes = counter_delta (before->flushes, after->flushes, FALSE);
  out_delta->flush_ms = counter_delta (before->flush_ms, after->flush_ms, TRUE);
}

/**
 * rp_disk_counters_add:
 * @total: (inout): running totals
 * @delta: a delta of rp_disk_counters_delta(); its @in_flight is ignored
 *
 * Adds @delta to @total: totals over a run summed from the deltas of its
 * samples stay right across any number of wraps.
 */
void
rp_disk_counters_add (RpDiskCounters       *total,
                      const RpDiskCounters *delta)
{
  g_return_if_fail (total != NULL && delta != NULL);

  total->reads += delta->reads;
  total->read_sectors += delta->read_sectors;
  total->read_ms += delta->read_ms;
  total->writes += delta->writes;
  total->write_sectors += delta->write_sectors;
  total->write_ms += delta->write_ms;
  total->io_ticks_ms += delta->io_ticks_ms;
  total->discards += delta->discards;
  total->discard_ms += delta->discard_ms;
  total->flushes += delta->flushes;
  total->flush_ms += delta->flush_ms;
}

/**
 * rp_block_whole_disk:
 * @major: a block device's major number, e.g. of a file system's st_dev
 * @minor: its minor
 * @out_major: (out): the whole disk's: the partition's parent in sysfs
 *   (/sys/dev/block/M:m/partition exists), else the device itself (a
 *   disk, a loop device, a dm or md device)
 * @out_minor: (out): its minor
 *
 * The device whose queue a partition's requests wait in: its time per
 * request and utilisation are the disk's, whatever partition is busy.
 *
 * Returns: %FALSE when sysfs does not know the device (not a block device)
 */
gboolean
rp_block_whole_disk (guint  major,
                     guint  minor,
                     guint *out_major,
                     guint *out_minor)
{
  g_autofree char *link = g_strdup_printf ("/sys/dev/block/%u:%u", major, minor);
  g_autofree char *path = realpath (link, NULL);
  g_autofree char *partition = NULL, *parent_dev = NULL, *text = NULL;
  g_autofree char *parent = NULL;

  *out_major = major;
  *out_minor = minor;
  if (path == NULL)
    return FALSE;
  partition = g_build_filename (path, "partition", NULL);
  if (!g_file_test (partition, G_FILE_TEST_EXISTS))
    return TRUE;
  parent = g_path_get_dirname (path);
  parent_dev = g_build_filename (parent, "dev", NULL);
  if (g_file_get_contents (parent_dev, &text, NULL, NULL))
    sscanf (text, "%u:%u", out_major, out_minor);
  return TRUE;
}

/**
 * rp_proc_parse_vmstat:
 * @text: text of /proc/vmstat ("key value" lines)
 * @key: e.g. "nr_dirty_threshold" (pages)
 * @out_value: (out): its value
 *
 * Returns: %FALSE when the kernel has no such counter
 */
gboolean
rp_proc_parse_vmstat (const char *text,
                      const char *key,
                      guint64    *out_value)
{
  gsize len = strlen (key);

  for (const char *p = text; p != NULL && *p != '\0'; )
    {
      if (strncmp (p, key, len) == 0 && p[len] == ' ')
        {
          *out_value = g_ascii_strtoull (p + len + 1, NULL, 10);
          return TRUE;
        }
      p = strchr (p, '\n');
      if (p != NULL)
        p++;
    }
  return FALSE;
}

/**
 * rp_disk_counters_await:
 * @delta: the counters' growth over a period (rp_disk_counters_delta())
 *
 * iostat's await: the time per request completed in the period, queueing
 * included, from the milliseconds the kernel counts per request (read,
 * write, discard and flush times over their numbers).
 *
 * Returns: seconds per request, or NAN when none completed
 */
double
rp_disk_counters_await (const RpDiskCounters *delta)
{
  guint64 requests, ms;

  g_return_val_if_fail (delta != NULL, NAN);

  requests = delta->reads + delta->writes + delta->discards + delta->flushes;
  ms = delta->read_ms + delta->write_ms + delta->discard_ms + delta->flush_ms;
  return requests > 0 ? (double) ms / 1000.0 / (double) requests : NAN;
}
