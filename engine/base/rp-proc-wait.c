/* rp-proc-wait.c: parsers for a thread's stat and stack, /proc/diskstats and /proc/vmstat. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <stdio.h>
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
