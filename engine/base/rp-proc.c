/* rp-proc.c: parsers for /proc/stat, the PSI files and /proc/meminfo. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-proc.h"

/**
 * rp_proc_read_fd:
 * @fd: an open /proc file
 * @buffer: (out caller-allocates): receives the text, NUL-terminated
 * @size: size of @buffer
 *
 * Re-reads a /proc file from offset 0 with one pread(), which procfs serves
 * as a fresh snapshot. Text beyond @size − 1 bytes is cut.
 *
 * Returns: %FALSE when the read failed or returned nothing
 */
gboolean
rp_proc_read_fd (int    fd,
                 char  *buffer,
                 gsize  size)
{
  ssize_t n;

  do
    n = pread (fd, buffer, size - 1, 0);
  while (n < 0 && errno == EINTR);

  if (n <= 0)
    return FALSE;
  buffer[n] = '\0';
  return TRUE;
}

/**
 * rp_proc_parse_cpu_line:
 * @proc_stat: text of /proc/stat (its first line is the "cpu" total)
 * @out_ticks: (out caller-allocates): user, nice, system, idle, iowait, irq,
 *   softirq, steal in USER_HZ ticks (proc(5)); fields a kernel lacks are 0
 *
 * Returns: %FALSE when the text does not start with a "cpu " line
 */
gboolean
rp_proc_parse_cpu_line (const char *proc_stat,
                        guint64     out_ticks[RP_CPU_N_FIELDS])
{
  const char *p = proc_stat;

  if (strncmp (p, "cpu ", 4) != 0)
    return FALSE;
  p += 4;

  for (guint i = 0; i < RP_CPU_N_FIELDS; i++)
    {
      char *end;

      out_ticks[i] = g_ascii_strtoull (p, &end, 10);
      if (end == p)
        {
          /* Old kernels stop after fewer fields: those are 0. Need at least 4. */
          if (i < 4)
            return FALSE;
          for (; i < RP_CPU_N_FIELDS; i++)
            out_ticks[i] = 0;
          break;
        }
      p = end;
    }
  return TRUE;
}

/**
 * rp_proc_cpu_fractions:
 * @before: ticks of an earlier read
 * @after: ticks of a later read
 * @out_fractions: (out caller-allocates): each field's share of the elapsed
 *   ticks, 0..1, summing to 1
 *
 * This is top's computation: the delta of each field over the delta of all.
 *
 * Returns: %FALSE when no tick elapsed (too short an interval)
 */
gboolean
rp_proc_cpu_fractions (const guint64 before[RP_CPU_N_FIELDS],
                       const guint64 after[RP_CPU_N_FIELDS],
                       double        out_fractions[RP_CPU_N_FIELDS])
{
  guint64 deltas[RP_CPU_N_FIELDS];
  guint64 total = 0;

  for (guint i = 0; i < RP_CPU_N_FIELDS; i++)
    {
      /* iowait may go backwards on a tickless kernel (proc(5)): clamp at 0. */
      deltas[i] = after[i] > before[i] ? after[i] - before[i] : 0;
      total += deltas[i];
    }
  if (total == 0)
    return FALSE;
  for (guint i = 0; i < RP_CPU_N_FIELDS; i++)
    out_fractions[i] = (double) deltas[i] / (double) total;
  return TRUE;
}

static gboolean
parse_psi_line (const char *line,
                double     *out_avg10,
                guint64    *out_total)
{
  const char *avg10 = strstr (line, "avg10=");
  const char *total = strstr (line, "total=");

  if (avg10 == NULL || total == NULL)
    return FALSE;
  *out_avg10 = g_ascii_strtod (avg10 + 6, NULL);
  *out_total = g_ascii_strtoull (total + 6, NULL, 10);
  return TRUE;
}

/**
 * rp_proc_parse_psi:
 * @text: text of a /proc/pressure file:
 *   "some avg10=0.00 avg60=0.00 avg300=0.00 total=0\nfull avg10=…"
 * @out_psi: (out caller-allocates): the values; @timestamp is left 0
 *
 * Returns: %FALSE when there is no parsable "some" line
 */
gboolean
rp_proc_parse_psi (const char *text,
                   RpPsi      *out_psi)
{
  const char *full;

  memset (out_psi, 0, sizeof *out_psi);
  if (strncmp (text, "some ", 5) != 0 ||
      !parse_psi_line (text, &out_psi->some_avg10, &out_psi->some_total))
    return FALSE;

  full = strstr (text, "\nfull ");
  if (full != NULL)
    out_psi->has_full = parse_psi_line (full + 1, &out_psi->full_avg10, &out_psi->full_total);
  return TRUE;
}

static gboolean
find_kib_field (const char *text,
                const char *key,
                guint64    *out_bytes)
{
  const char *p = text;
  gsize key_length = strlen (key);

  while (p != NULL && *p != '\0')
    {
      if (strncmp (p, key, key_length) == 0 && p[key_length] == ':')
        {
          *out_bytes = g_ascii_strtoull (p + key_length + 1, NULL, 10) * 1024;
          return TRUE;
        }
      p = strchr (p, '\n');
      if (p != NULL)
        p++;
    }
  return FALSE;
}

/**
 * rp_proc_parse_meminfo:
 * @text: text of /proc/meminfo
 * @out_dirty_bytes: (out): "Dirty:", page-cache data waiting for writeback, bytes
 * @out_writeback_bytes: (out): "Writeback:", data under writeback now, bytes
 *
 * Returns: %FALSE when either field is missing
 */
gboolean
rp_proc_parse_meminfo (const char *text,
                       guint64    *out_dirty_bytes,
                       guint64    *out_writeback_bytes)
{
  return find_kib_field (text, "Dirty", out_dirty_bytes) &&
         find_kib_field (text, "Writeback", out_writeback_bytes);
}

/**
 * rp_proc_read_flag:
 * @path: a file of one number, e.g. "/proc/sys/kernel/task_delayacct"
 *
 * Returns: %TRUE when the file reads as a number other than 0; %FALSE when
 *   it reads 0, cannot be read (absent on this kernel, no permission) or
 *   holds no number
 */
gboolean
rp_proc_read_flag (const char *path)
{
  g_autofree char *text = NULL;

  return g_file_get_contents (path, &text, NULL, NULL) && g_ascii_strtoull (text, NULL, 10) != 0;
}

/**
 * rp_proc_start_time:
 * @pid: a process id
 *
 * The start time of process @pid, field 22 of /proc/PID/stat (proc(5)):
 * clock ticks since boot. With the PID it names a process for good: a PID
 * that the kernel gave to another process since has another start time.
 *
 * Returns: the start time, or 0 when there is no such process
 */
guint64
rp_proc_start_time (int pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/stat", pid);
  g_autofree char *text = NULL;
  const char *p;

  /* The command name (field 2) may hold spaces and parentheses: count
   * from the last ')'. */
  if (!g_file_get_contents (path, &text, NULL, NULL) || (p = strrchr (text, ')')) == NULL)
    return 0;
  p++;
  /* After ')': field 3 (state) is the first; field 22 is the 20th. */
  for (guint field = 3; field < 22 && p != NULL; field++)
    p = strchr (p + 1, ' ');
  return p != NULL ? g_ascii_strtoull (p + 1, NULL, 10) : 0;
}
