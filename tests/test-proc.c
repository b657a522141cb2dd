/* test-proc.c: the /proc parsers, fed with text captured from real kernels. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <glib/gstdio.h>

#include "rp-proc.h"

static void
test_cpu_line (void)
{
  const char *stat1 = "cpu  100 10 50 800 40 0 0 0 0 0\ncpu0 50 5 25 400 20 0 0 0 0 0\n";
  const char *stat2 = "cpu  130 10 80 840 80 5 5 0 0 0\n";
  guint64 a[RP_CPU_N_FIELDS], b[RP_CPU_N_FIELDS];
  double f[RP_CPU_N_FIELDS];

  g_assert_true (rp_proc_parse_cpu_line (stat1, a));
  g_assert_true (rp_proc_parse_cpu_line (stat2, b));
  g_assert_cmpuint (a[4], ==, 40);
  /* deltas: user 30, nice 0, system 30, idle 40, iowait 40, irq 5, softirq 5 = 150 */
  g_assert_true (rp_proc_cpu_fractions (a, b, f));
  g_assert_cmpfloat_with_epsilon (f[0], 30.0 / 150, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[2], 30.0 / 150, 1e-12);
  g_assert_cmpfloat_with_epsilon (f[4], 40.0 / 150, 1e-12);
  g_assert_false (rp_proc_cpu_fractions (a, a, f));
  g_assert_false (rp_proc_parse_cpu_line ("intr 1 2 3", a));
  /* A 2.6.0 kernel had only 7 fields: the rest read as 0. */
  g_assert_true (rp_proc_parse_cpu_line ("cpu  1 2 3 4 5 6 7\n", a));
  g_assert_cmpuint (a[7], ==, 0);
}

static void
test_cpu_iowait_backwards (void)
{
  guint64 a[RP_CPU_N_FIELDS] = { 10, 0, 10, 10, 50, 0, 0, 0 };
  guint64 b[RP_CPU_N_FIELDS] = { 20, 0, 20, 20, 45, 0, 0, 0 };
  double f[RP_CPU_N_FIELDS];

  /* proc(5): iowait can decrease on tickless kernels; never a negative share. */
  g_assert_true (rp_proc_cpu_fractions (a, b, f));
  g_assert_cmpfloat (f[4], ==, 0);
}

static void
test_psi (void)
{
  const char *io = "some avg10=43.21 avg60=10.00 avg300=2.00 total=123456789\n"
                   "full avg10=12.50 avg60=5.00 avg300=1.00 total=2345678\n";
  const char *cpu_old = "some avg10=1.00 avg60=0.50 avg300=0.10 total=1000\n";
  RpPsi psi;

  g_assert_true (rp_proc_parse_psi (io, &psi));
  g_assert_cmpfloat_with_epsilon (psi.some_avg10, 43.21, 1e-9);
  g_assert_cmpfloat_with_epsilon (psi.full_avg10, 12.50, 1e-9);
  g_assert_cmpuint (psi.some_total, ==, 123456789);
  g_assert_cmpuint (psi.full_total, ==, 2345678);
  g_assert_true (psi.has_full);
  g_assert_true (rp_proc_parse_psi (cpu_old, &psi));
  g_assert_false (psi.has_full);
  g_assert_false (rp_proc_parse_psi ("garbage", &psi));
}

static void
test_meminfo (void)
{
  const char *text = "MemTotal:       24000000 kB\nDirty:            123456 kB\n"
                     "Writeback:          512 kB\nWritebackTmp:         7 kB\n";
  guint64 dirty = 0, writeback = 0;

  g_assert_true (rp_proc_parse_meminfo (text, &dirty, &writeback));
  g_assert_cmpuint (dirty, ==, 123456ull * 1024);
  g_assert_cmpuint (writeback, ==, 512ull * 1024);
  g_assert_false (rp_proc_parse_meminfo ("MemTotal: 1 kB\n", &dirty, &writeback));
}

/* A flag file such as /proc/sys/kernel/task_delayacct: on only for a
 * number other than 0; absent or not a number is off. */
static void
test_read_flag (void)
{
  g_autofree char *dir = g_dir_make_tmp ("rp-flag-XXXXXX", NULL);
  const struct { const char *text; gboolean on; } cases[] = {
    { "1\n", TRUE }, { "0\n", FALSE }, { "2", TRUE }, { "off", FALSE }, { "", FALSE },
  };

  g_assert_nonnull (dir);
  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *path = g_build_filename (dir, "flag", NULL);

      g_assert_true (g_file_set_contents (path, cases[i].text, -1, NULL));
      g_assert_cmpint (rp_proc_read_flag (path), ==, cases[i].on);
      g_unlink (path);
    }
  g_assert_false (rp_proc_read_flag (dir));
  g_assert_false (rp_proc_read_flag ("/nonexistent/flag"));
  g_rmdir (dir);
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/proc/cpu-line", test_cpu_line);
  g_test_add_func ("/proc/cpu-iowait-backwards", test_cpu_iowait_backwards);
  g_test_add_func ("/proc/psi", test_psi);
  g_test_add_func ("/proc/meminfo", test_meminfo);
  g_test_add_func ("/proc/read-flag", test_read_flag);
  return g_test_run ();
}
