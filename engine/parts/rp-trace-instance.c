/* rp-trace-instance.c: a trace instance of our own, and the removal of stale ones. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-proc.h"
#include "rp-trace-private.h"

/* Never the top-level buffer: trace-cmd, perf or another tool may be using it,
 * and its settings are the system's. An instance (a directory under
 * instances/) has its own buffers, events, filters and clock, and goes away
 * with rmdir. Its name says whose it is: "resprobe-PID-START-N", START being
 * the process's start time in clock ticks since boot (rp_proc_start_time()),
 * so that a reused PID does not make a dead run's instance look
 * alive; N counts the instances of one process (a window runs one session
 * after another). SIGKILL leaves the instance behind: the next start removes
 * every one whose process is gone. */

#define PREFIX "resprobe-"

/**
 * rp_trace_instance_is_ours_and_stale:
 * @name: an instance's name, e.g. "resprobe-4242-123456-0"
 *
 * Returns: whether @name is an instance this program makes whose process
 *   no longer runs (gone, or its PID now another process's)
 */
gboolean
rp_trace_instance_is_ours_and_stale (const char *name)
{
  guint64 pid, start;
  char *end;

  if (name == NULL || !g_str_has_prefix (name, PREFIX))
    return FALSE;
  pid = g_ascii_strtoull (name + strlen (PREFIX), &end, 10);
  if (*end != '-' || pid == 0 || pid > G_MAXINT)
    return FALSE;
  start = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '-')
    return FALSE;
  return rp_proc_start_time ((int) pid) != start;
}

static int
collect_stale (const char *name,
               void       *data)
{
  if (rp_trace_instance_is_ours_and_stale (name))
    g_ptr_array_add (data, g_strdup (name));
  return 0;
}

/**
 * rp_trace_instance_remove_stale:
 *
 * Removes the instances of runs that were killed before they could remove
 * them (SIGKILL, a crash, a power cut of the process).
 *
 * Returns: how many were removed
 */
guint
rp_trace_instance_remove_stale (void)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  guint removed = 0;

  tracefs_instances_walk (collect_stale, names);
  for (guint i = 0; i < names->len; i++)
    {
      struct tracefs_instance *instance = tracefs_instance_alloc (NULL, g_ptr_array_index (names, i));

      if (instance == NULL)
        continue;
      if (tracefs_instance_destroy (instance) == 0)
        removed++;
      else
        g_warning ("Cannot remove the stale trace instance %s: %s",
                   (const char *) g_ptr_array_index (names, i), g_strerror (errno));
      tracefs_instance_free (instance);
    }
  return removed;
}

/**
 * rp_trace_instance_create:
 * @error: %RP_ERROR_PERMISSION when tracefs is not ours to write (not root),
 *   %RP_ERROR_FAILED when there is no tracefs or the instance cannot be made
 *
 * Removes stale instances, then makes one of our own with the
 * CLOCK_MONOTONIC trace clock ("mono"), the clock of rp-clock.h, so that an
 * event's time is a time of the run. Tracing is on, no event enabled yet.
 *
 * Returns: (transfer full) (nullable): the instance; give it to
 *   rp_trace_instance_destroy()
 */
struct tracefs_instance *
rp_trace_instance_create (GError **error)
{
  static guint counter;
  const char *dir = tracefs_tracing_dir ();
  g_autofree char *instances = NULL;
  g_autofree char *name = NULL;
  struct tracefs_instance *instance;

  if (dir == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("Kernel events: no tracefs (it is neither mounted nor mountable here)"));
      return NULL;
    }
  instances = g_build_filename (dir, "instances", NULL);
  if (access (instances, W_OK) != 0)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_PERMISSION,
                   _("Kernel events need root (or write access to %s)"), instances);
      return NULL;
    }

  rp_trace_instance_remove_stale ();

  name = g_strdup_printf (PREFIX "%d-%" G_GUINT64_FORMAT "-%u", (int) getpid (),
                          rp_proc_start_time ((int) getpid ()), g_atomic_int_add (&counter, 1));
  instance = tracefs_instance_create (name);
  if (instance == NULL)
    {
      int saved = errno;

      g_set_error (error, RP_ERROR, saved == EACCES || saved == EPERM ? RP_ERROR_PERMISSION : RP_ERROR_FAILED,
                   _("Kernel events: cannot create the trace instance %s: %s"), name, g_strerror (saved));
      return NULL;
    }
  if (tracefs_instance_file_write (instance, "trace_clock", "mono") < 0)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("Kernel events: the kernel has no monotonic trace clock (%s)"), name);
      rp_trace_instance_destroy (instance);
      return NULL;
    }
  return instance;
}

/**
 * rp_trace_instance_destroy:
 * @instance: (transfer full) (nullable): from rp_trace_instance_create()
 *
 * Stops tracing in @instance and removes it from tracefs; its buffers must
 * no longer be open (the kernel refuses to remove a busy instance).
 */
void
rp_trace_instance_destroy (struct tracefs_instance *instance)
{
  if (instance == NULL)
    return;
  tracefs_trace_off (instance);
  if (tracefs_instance_destroy (instance) != 0)
    g_warning ("Cannot remove the trace instance %s: %s",
               tracefs_instance_get_name (instance), g_strerror (errno));
  tracefs_instance_free (instance);
}
