/* rp-trace-instance.c: a trace instance of our own in tracefs, as root: made, its events enabled, its buffers opened, removed. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <string.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-proc.h"
#include "rp-trace-instance.h"

/* Never the top-level buffer: trace-cmd, perf or another tool may be using it,
 * and its settings are the system's. An instance (a directory under
 * instances/) has its own buffers, events, filters and clock, and goes away
 * with rmdir. Its name says whose it is: "PREFIX-PID-START-N", START being
 * the process's start time in clock ticks since boot (rp_proc_start_time()),
 * so that a reused PID does not make a dead run's instance look
 * alive; N counts the instances of one process (a window runs one session
 * after another; resprobed serves several callers). SIGKILL leaves the
 * instance behind: the next start removes every one of the same prefix
 * whose process is gone.
 *
 * Built into the engine (a run as root) and into resprobed (which does the
 * same for an unprivileged caller and hands it the buffers): one way to make
 * and fill an instance, so that both see the same events. */

/**
 * rp_trace_instance_is_ours_and_stale:
 * @prefix: %RP_TRACE_INSTANCE_PREFIX_ENGINE or %RP_TRACE_INSTANCE_PREFIX_HELPER
 * @name: an instance's name, e.g. "resprobe-4242-123456-0"
 *
 * Returns: whether @name is an instance of @prefix whose process no longer
 *   runs (gone, or its PID now another process's)
 */
gboolean
rp_trace_instance_is_ours_and_stale (const char *prefix,
                                     const char *name)
{
  guint64 pid, start;
  char *end;

  if (name == NULL || !g_str_has_prefix (name, prefix))
    return FALSE;
  pid = g_ascii_strtoull (name + strlen (prefix), &end, 10);
  if (*end != '-' || pid == 0 || pid > G_MAXINT)
    return FALSE;
  start = g_ascii_strtoull (end + 1, &end, 10);
  if (*end != '-')
    return FALSE;
  return rp_proc_start_time ((int) pid) != start;
}

typedef struct {
  const char *prefix;
  GPtrArray  *names;
} Stale;

static int
collect_stale (const char *name,
               void       *data)
{
  Stale *stale = data;

  if (rp_trace_instance_is_ours_and_stale (stale->prefix, name))
    g_ptr_array_add (stale->names, g_strdup (name));
  return 0;
}

/**
 * rp_trace_instance_remove_stale:
 * @prefix: whose: %RP_TRACE_INSTANCE_PREFIX_ENGINE or %RP_TRACE_INSTANCE_PREFIX_HELPER
 *
 * Removes the instances of runs (or of a resprobed) that were killed before
 * they could remove them (SIGKILL, a crash, a power cut of the process).
 *
 * Returns: how many were removed
 */
guint
rp_trace_instance_remove_stale (const char *prefix)
{
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  Stale stale = { prefix, names };
  guint removed = 0;

  tracefs_instances_walk (collect_stale, &stale);
  for (guint i = 0; i < names->len; i++)
    {
      struct tracefs_instance *instance = tracefs_instance_alloc (NULL, g_ptr_array_index (names, i));

      if (instance == NULL)
        continue;
      if (rp_trace_instance_remove (instance))
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
 * @prefix: %RP_TRACE_INSTANCE_PREFIX_ENGINE or %RP_TRACE_INSTANCE_PREFIX_HELPER
 * @error: %RP_ERROR_PERMISSION when tracefs is not ours to write (not root),
 *   %RP_ERROR_FAILED when there is no tracefs or the instance cannot be made
 *
 * Removes stale instances of @prefix, then makes one of our own with the
 * CLOCK_MONOTONIC trace clock ("mono"), the clock of rp-clock.h, so that an
 * event's time is a time of the run. Tracing is on, no event enabled yet.
 *
 * Returns: (transfer full) (nullable): the instance; give it to
 *   rp_trace_instance_destroy()
 */
struct tracefs_instance *
rp_trace_instance_create (const char  *prefix,
                          GError     **error)
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

  rp_trace_instance_remove_stale (prefix);

  name = g_strdup_printf ("%s%d-%" G_GUINT64_FORMAT "-%u", prefix, (int) getpid (),
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

/* The event's own files: tracefs_event_enable() would match regular
 * expressions against every event of every system. */
static gboolean
enable_event (struct tracefs_instance *instance,
              const RpTraceEventSpec  *spec,
              const RpTraceTarget     *target)
{
  g_autofree char *filter = rp_trace_event_filter (spec, target);

  if (filter[0] != '\0' &&
      tracefs_event_file_write (instance, spec->system, spec->name, "filter", filter) < 0)
    return FALSE;
  return tracefs_event_file_write (instance, spec->system, spec->name, "enable", "1") >= 0;
}

/**
 * rp_trace_instance_enable_events:
 * @instance: from rp_trace_instance_create()
 * @target: the target's devices (rp_trace_target_find())
 * @on_disk: whether the target is on a block device: the events that need
 *   a disk to filter on are enabled only then (they would be every disk's)
 * @missing: (out caller-allocates): gets the events this kernel lacks or
 *   refused, "system:name" separated by ", "
 *
 * Enables the product's events (rp_trace_event_specs()) with their filters
 * on @target's devices.
 */
void
rp_trace_instance_enable_events (struct tracefs_instance *instance,
                                 const RpTraceTarget     *target,
                                 gboolean                 on_disk,
                                 GString                 *missing)
{
  guint n;
  const RpTraceEventSpec *specs = rp_trace_event_specs (&n);

  for (guint i = 0; i < n; i++)
    if ((on_disk || !specs[i].needs_disk) && !enable_event (instance, &specs[i], target))
      g_string_append_printf (missing, "%s%s:%s", missing->len ? ", " : "", specs[i].system, specs[i].name);
}

/**
 * rp_trace_instance_n_cpus:
 *
 * Returns: how many per-CPU buffers an instance has: one per possible CPU
 *   (sysconf's _SC_NPROCESSORS_CONF, as tracefs_iterate_raw_events() counts)
 */
guint
rp_trace_instance_n_cpus (void)
{
  long n = sysconf (_SC_NPROCESSORS_CONF);

  return n > 0 ? (guint) n : 1;
}

/**
 * rp_trace_instance_open_buffer:
 * @cpu: below rp_trace_instance_n_cpus()
 * @error: %RP_ERROR_FAILED with the reason
 *
 * Opens the CPU's raw buffer, per_cpu/cpuN/trace_pipe_raw, read-only and
 * non-blocking: a read takes one sub-buffer (a page) of records in the
 * kernel's binary format, or fails with EAGAIN when there is none. While it
 * is open the kernel refuses to remove the instance (EBUSY).
 *
 * Returns: the file descriptor (close-on-exec), or -1
 */
int
rp_trace_instance_open_buffer (struct tracefs_instance *instance,
                               guint                    cpu,
                               GError                 **error)
{
  g_autofree char *path = g_strdup_printf ("per_cpu/cpu%u/trace_pipe_raw", cpu);
  int fd = tracefs_instance_file_open (instance, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

  if (fd < 0)
    g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("Kernel events: cannot open %s of %s: %s"),
                 path, tracefs_instance_get_name (instance), g_strerror (errno));
  return fd;
}

/**
 * rp_trace_instance_read_formats:
 * @error: %RP_ERROR_FAILED when the header page cannot be read (no tracefs,
 *   or not root)
 *
 * The binary layouts a reader of the raw buffers needs, read from tracefs
 * (root only: the folder is 0700): the ring buffer's page header
 * (events/header_page) and each event's of the product's set
 * (events/SYSTEM/NAME/format). The same on every instance. Only those:
 * tracefs_local_events_system() would parse every event of the five
 * systems, /proc/kallsyms and the saved command lines, a second per run.
 *
 * Returns: (transfer full) (element-type utf8 utf8): "header_page" and
 *   "SYSTEM/NAME" to the file's text; events this kernel lacks are left out
 */
GHashTable *
rp_trace_instance_read_formats (GError **error)
{
  g_autoptr(GHashTable) formats = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  int size = 0;
  char *header = tracefs_instance_file_read (NULL, "events/header_page", &size);
  const RpTraceEventSpec *specs;
  guint n;

  if (header == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("Kernel events: cannot read the event formats of tracefs: %s"), g_strerror (errno));
      return NULL;
    }
  g_hash_table_insert (formats, g_strdup ("header_page"), header);
  specs = rp_trace_event_specs (&n);
  for (guint i = 0; i < n; i++)
    {
      char *format = tracefs_event_file_read (NULL, specs[i].system, specs[i].name, "format", &size);

      if (format != NULL)
        g_hash_table_insert (formats, g_strdup_printf ("%s/%s", specs[i].system, specs[i].name), format);
    }
  return g_steal_pointer (&formats);
}

/**
 * rp_trace_instance_lost_events:
 *
 * Returns: the events the kernel dropped because a buffer was full: the
 *   "overrun" of each CPU's stats file, summed
 */
guint64
rp_trace_instance_lost_events (struct tracefs_instance *instance)
{
  guint n_cpus = rp_trace_instance_n_cpus ();
  guint64 lost = 0;

  for (guint cpu = 0; cpu < n_cpus; cpu++)
    {
      g_autofree char *path = g_strdup_printf ("per_cpu/cpu%u/stats", cpu);
      g_autofree char *text = tracefs_instance_file_read (instance, path, NULL);
      const char *overrun = text != NULL ? strstr (text, "overrun: ") : NULL;

      if (overrun != NULL)
        lost += g_ascii_strtoull (overrun + strlen ("overrun: "), NULL, 10);
    }
  return lost;
}

/**
 * rp_trace_instance_remove:
 *
 * Stops tracing in @instance and removes it from tracefs (rmdir); @instance
 * stays allocated.
 *
 * Returns: %FALSE with errno set when the kernel refuses: EBUSY while a
 *   buffer of it is still open somewhere
 */
gboolean
rp_trace_instance_remove (struct tracefs_instance *instance)
{
  tracefs_trace_off (instance);
  return tracefs_instance_destroy (instance) == 0;
}

/**
 * rp_trace_instance_destroy:
 * @instance: (transfer full) (nullable): from rp_trace_instance_create()
 *
 * Stops tracing in @instance, removes it from tracefs and frees it; its
 * buffers must no longer be open (the kernel refuses to remove a busy
 * instance: a warning then).
 */
void
rp_trace_instance_destroy (struct tracefs_instance *instance)
{
  if (instance == NULL)
    return;
  if (!rp_trace_instance_remove (instance))
    g_warning ("Cannot remove the trace instance %s: %s",
               tracefs_instance_get_name (instance), g_strerror (errno));
  tracefs_instance_free (instance);
}
