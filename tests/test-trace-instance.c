/* test-trace-instance.c: which trace instances count as a dead run's (no root needed). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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

  g_assert_false (rp_trace_instance_is_ours_and_stale (alive));
  g_assert_true (rp_trace_instance_is_ours_and_stale (reused));
  g_assert_true (rp_trace_instance_is_ours_and_stale (dead));

  /* Not ours: other tools' instances are never touched. */
  g_assert_false (rp_trace_instance_is_ours_and_stale ("rpcheck-1234"));
  g_assert_false (rp_trace_instance_is_ours_and_stale ("resprobe"));
  g_assert_false (rp_trace_instance_is_ours_and_stale ("resprobe-"));
  g_assert_false (rp_trace_instance_is_ours_and_stale ("resprobe-12x-1-0"));
  g_assert_false (rp_trace_instance_is_ours_and_stale ("resprobe-0-1-0"));
  g_assert_false (rp_trace_instance_is_ours_and_stale ("resprobe-99999999999-1-0"));
  g_assert_false (rp_trace_instance_is_ours_and_stale (NULL));
}

int
main (int argc, char **argv)
{
  g_test_init (&argc, &argv, NULL);
  g_test_add_func ("/trace-instance/names", test_names);
  return g_test_run ();
}
