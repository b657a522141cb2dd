/* test-trace-instance.c: which trace instances count as a dead run's, and the events' filters (no root needed). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-trace-instance.h"
#include "rp-trace-private.h"

/* The start time of this process, as the name of its instance carries it:
 * field 22 of /proc/self/stat, after the command name's last ')'. */
static guint64
own_start_time (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) fields = NULL;

  g_assert_true (g_file_get_contents ("/proc/self/stat", &text, NULL, NULL));
  fields = g_strsplit (strrchr (text, ')') + 2, " ", -1);
  /* fields[0] is field 3 (state): field 22 is fields[19]. */
  return g_ascii_strtoull (fields[19], NULL, 10);
}

static void
test_names (void)
{
  g_autofree char *alive = g_strdup_printf ("resprobe-%d-%" G_GUINT64_FORMAT "-3", (int) getpid (), own_start_time ());
  /* Same PID, another start time: the PID was reused; the run that made
   * the instance is gone. */
  g_autofree char *reused = g_strdup_printf ("resprobe-%d-%" G_GUINT64_FORMAT "-0", (int) getpid (), own_start_time () + 1);
  g_autofree char *dead = NULL;
  pid_t child = fork ();

  g_assert_cmpint (child, >=, 0);
  if (child == 0)
    _exit (0);
  g_assert_cmpint (waitpid (child, NULL, 0), ==, child);
  /* A reaped child's PID names no process (until it is reused, which the
   * start time catches as well). */
  dead = g_strdup_printf ("resprobe-%d-1-0", (int) child);

  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, alive));
  g_assert_true (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, reused));
  g_assert_true (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, dead));

  /* Not ours: other tools' instances are never touched. */
  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, "rpcheck-1234"));
  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, "resprobe"));
  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, "resprobe-"));
  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, "resprobe-12x-1-0"));
  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, "resprobe-0-1-0"));
  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, "resprobe-99999999999-1-0"));
  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, NULL));
}

static const RpTraceEventSpec *
find_event (const char *name)
{
  guint n;
  const RpTraceEventSpec *specs = rp_trace_event_specs (&n);

  for (guint i = 0; i < n; i++)
    if (g_str_equal (specs[i].name, name))
      return &specs[i];
  g_assert_not_reached ();
}

/* The engine's handlers and the set resprobed enables are two tables: an
 * event with a handler that is not enabled would read nothing, one enabled
 * without a handler would fill the buffer for nothing. */
static void
test_handlers_match_set (void)
{
  const RpTraceEventInfo *families[3];
  guint counts[3], n, handled = 0;
  const RpTraceEventSpec *specs = rp_trace_event_specs (&n);

  families[0] = rp_trace_journal_events (&counts[0]);
  families[1] = rp_trace_block_events (&counts[1]);
  families[2] = rp_trace_task_events (&counts[2]);
  for (guint f = 0; f < G_N_ELEMENTS (families); f++)
    for (guint i = 0; i < counts[f]; i++, handled++)
      g_assert_nonnull (rp_trace_event_spec_find (families[f][i].system, families[f][i].name));
  g_assert_cmpuint (handled, ==, n);
  g_assert_null (rp_trace_event_spec_find ("sched", "sched_switch"));
  g_assert_null (rp_trace_event_spec_find (NULL, NULL));
  /* A disk-less target (tmpfs) gets the file system's events only. */
  for (guint i = 0; i < n; i++)
    g_assert_true (specs[i].needs_disk == !(g_str_equal (specs[i].system, "jbd2") ||
                                            g_str_equal (specs[i].system, "ext4")));
}

/* A helper's instance is not the engine's, nor the other way round: each
 * removes only its own prefix's dead instances. */
static void
test_prefixes (void)
{
  g_autofree char *dead = g_strdup_printf ("resprobed-%d-1-0", G_MAXINT - 1);

  g_assert_true (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_HELPER, dead));
  g_assert_false (rp_trace_instance_is_ours_and_stale (RP_TRACE_INSTANCE_PREFIX_ENGINE, dead));
}

/* The kernel's filter of each event: only the target's devices, and
 * balance_dirty_pages only when it paused the writer (issue 18,
 * acceptance 3: what user space would drop never reaches the buffer).
 * dev_t in the kernel's encoding, MAJOR << 20 | MINOR: /dev/loop3 (7:3)
 * is 7340035, its file system the same; sda1 (8:1) 8388609 on sda (8:0)
 * 8388608. */
static void
test_filters (void)
{
  RpTraceTarget loop = { 7u << 20 | 3, 7u << 20 | 3, "7:3", "loop3" };
  RpTraceTarget partition = { 8u << 20 | 1, 8u << 20, "8:0", "sda" };
  static const char *const all[] = {
    "jbd2_start_commit", "jbd2_end_commit", "jbd2_run_stats", "ext4_sync_file_enter",
    "ext4_sync_file_exit", "block_rq_issue", "block_rq_complete", "balance_dirty_pages",
    "wbt_lat", "wbt_stat", "wbt_step", "wbt_timer",
  };
  struct { const char *event; RpTraceTarget *target; const char *filter; } cases[] = {
    { "jbd2_start_commit", &loop, "dev == 7340035" },
    { "ext4_sync_file_exit", &partition, "dev == 8388609" },
    { "block_rq_issue", &loop, "dev == 7340035" },
    { "block_rq_complete", &partition, "dev == 8388608" },
    { "balance_dirty_pages", &loop, "bdi == \"7:3\" && pause > 0" },
    { "balance_dirty_pages", &partition, "bdi == \"8:0\" && pause > 0" },
    { "wbt_lat", &partition, "name == \"sda\"" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *filter = rp_trace_event_filter (find_event (cases[i].event), cases[i].target);

      g_assert_cmpstr (filter, ==, cases[i].filter);
    }
  /* Which tasks are the run's (issue 31): every task's creation, the one
   * event whose filter names no device, as one may be made anywhere. */
  {
    g_autofree char *filter = rp_trace_event_filter (find_event ("task_newtask"), &loop);

    g_assert_cmpstr (filter, ==, "");
  }
  /* No other event of ours is read unfiltered: every filter names a device. */
  for (guint i = 0; i < G_N_ELEMENTS (all); i++)
    {
      g_autofree char *filter = rp_trace_event_filter (find_event (all[i]), &loop);

      g_assert_true (g_str_has_prefix (filter, "dev == ") || g_str_has_prefix (filter, "bdi == ") ||
                     g_str_has_prefix (filter, "name == "));
    }
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-instance/names", test_names);
  g_test_add_func ("/trace-instance/filters", test_filters);
  g_test_add_func ("/trace-instance/handlers-match-set", test_handlers_match_set);
  g_test_add_func ("/trace-instance/prefixes", test_prefixes);
  return g_test_run ();
}
