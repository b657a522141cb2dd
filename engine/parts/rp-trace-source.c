/* rp-trace-source.c: where a run's trace instance comes from: made as root, or by resprobed for an unprivileged user. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-helper-client.h"
#include "rp-trace-instance.h"
#include "rp-trace-source.h"

/* Two ways to the same instance: as root the engine makes it itself
 * (rp-trace-instance.c); as an ordinary user it asks resprobed, which makes
 * it with the same events and filters (the same file, built into the
 * helper) after polkit said yes, and hands back the per-CPU buffers as file
 * descriptors. Either way the reader gets descriptors and formats, and the
 * report says which way it went (note kernel_events_source). */

struct _RpTraceSource {
  const char              *kind;       /* "root" or "helper" */
  struct tracefs_instance *instance;   /* root */
  RpHelperClient          *client;     /* helper */
  guint32                  handle;     /* helper: the trace's */
  char                    *instance_name;
  GString                 *missing;
  double                   hz;
  GHashTable              *formats;
  GArray                  *buffers;    /* of int, CPU i's at i; until stolen */
  gboolean                 stopped;
};

static void
close_buffers (GArray *buffers)
{
  for (guint i = 0; buffers != NULL && i < buffers->len; i++)
    close (g_array_index (buffers, int, i));
}

static RpTraceSource *
open_local (const RpTraceTarget  *target,
            gboolean              on_disk,
            GError              **error)
{
  g_autoptr(GArray) buffers = g_array_new (FALSE, FALSE, sizeof (int));
  struct tracefs_instance *instance = rp_trace_instance_create (RP_TRACE_INSTANCE_PREFIX_ENGINE, error);
  g_autoptr(GHashTable) formats = NULL;
  RpTraceSource *self;
  guint n_cpus = rp_trace_instance_n_cpus ();

  if (instance == NULL)
    return NULL;
  formats = rp_trace_instance_read_formats (error);
  for (guint cpu = 0; formats != NULL && cpu < n_cpus; cpu++)
    {
      int fd = rp_trace_instance_open_buffer (instance, cpu, error);

      if (fd < 0)
        {
          g_clear_pointer (&formats, g_hash_table_unref);
          break;
        }
      g_array_append_val (buffers, fd);
    }
  if (formats == NULL)
    {
      close_buffers (buffers);
      rp_trace_instance_destroy (instance);
      return NULL;
    }
  self = g_new0 (RpTraceSource, 1);
  self->kind = "root";
  self->instance = instance;
  self->instance_name = g_strdup (tracefs_instance_get_name (instance));
  self->missing = g_string_new (NULL);
  rp_trace_instance_enable_events (instance, target, on_disk, self->missing);
  self->hz = rp_trace_kernel_hz ();
  self->formats = g_steal_pointer (&formats);
  self->buffers = g_steal_pointer (&buffers);
  return self;
}

static RpTraceSource *
open_helper (const char  *directory,
             GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(RpHelperClient) client = rp_helper_client_new (&local_error);
  g_autoptr(GHashTable) formats = NULL, info = NULL;
  g_autoptr(GArray) buffers = NULL;
  RpTraceSource *self;
  guint32 handle;
  guint n_cpus;
  int folder;
  gboolean opened;

  if (client == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_PERMISSION,
                   /* TRANSLATORS: %s is why, e.g. "io.github.resprobe.Helper1 is not installed" */
                   _("Kernel events need root, or the helper resprobed, which cannot be asked here (%s)"),
                   local_error->message);
      return NULL;
    }
  /* The folder is lent to resprobed as an open descriptor, never as a
   * path: it traces the devices of what we could open. */
  folder = open (directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (folder < 0)
    {
      rp_error_set_from_errno (error, errno, _("Kernel events: opening the folder"), directory);
      return NULL;
    }
  opened = rp_helper_client_open_trace (client, folder, &handle, &n_cpus, &formats, &info, &local_error);
  close (folder);
  if (opened)
    buffers = rp_helper_client_get_buffers (client, handle, n_cpus, &local_error);
  if (buffers == NULL)
    {
      if (g_error_matches (local_error, RP_ERROR, RP_ERROR_PERMISSION))
        g_set_error (error, RP_ERROR, RP_ERROR_PERMISSION,
                     /* TRANSLATORS: %s is resprobed's reason, e.g. "Not authorized: polkit said no to io.github.resprobe.trace" */
                     _("Kernel events need root, or the helper resprobed with polkit’s authorization, which was refused (%s)"),
                     local_error->message);
      else
        g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                     _("Kernel events: resprobed could not trace (%s)"), local_error->message);
      return NULL;   /* the client's connection closes: resprobed removes the instance */
    }
  self = g_new0 (RpTraceSource, 1);
  self->kind = "helper";
  self->client = g_steal_pointer (&client);
  self->handle = handle;
  self->instance_name = g_strdup (g_hash_table_lookup (info, "instance"));
  self->missing = g_string_new (g_hash_table_lookup (info, "missing"));
  self->hz = g_ascii_strtod (g_hash_table_lookup (info, "hz") ? g_hash_table_lookup (info, "hz") : "250", NULL);
  if (self->hz <= 0)
    self->hz = 250;
  self->formats = g_steal_pointer (&formats);
  self->buffers = g_steal_pointer (&buffers);
  return self;
}

/**
 * rp_trace_source_open:
 * @directory: the target folder: its file system and disk are traced
 * @out_target: (out caller-allocates): its devices
 * @out_on_disk: (out): whether it is on a block device
 * @error: %RP_ERROR_PERMISSION when neither root nor resprobed may trace
 *   (the message says why: not root and no resprobed, asking it turned off,
 *   polkit said no), %RP_ERROR_FAILED else
 *
 * As root (tracefs' instances writable), makes the instance itself; else,
 * when this process may ask (rp_helper_client_set_allowed()), asks
 * resprobed. The product's events are on, filtered on @directory's devices.
 *
 * Returns: (transfer full) (nullable): the source
 */
RpTraceSource *
rp_trace_source_open (const char     *directory,
                      RpTraceTarget  *out_target,
                      gboolean       *out_on_disk,
                      GError        **error)
{
  const char *tracing = tracefs_tracing_dir ();
  g_autofree char *instances = tracing != NULL ? g_build_filename (tracing, "instances", NULL) : NULL;
  struct stat st;

  memset (out_target, 0, sizeof *out_target);
  *out_on_disk = stat (directory, &st) == 0 && rp_trace_target_find (st.st_dev, out_target);
  if (instances != NULL && access (instances, W_OK) == 0)
    return open_local (out_target, *out_on_disk, error);
  if (!rp_helper_client_get_allowed ())
    {
      g_set_error (error, RP_ERROR, RP_ERROR_PERMISSION,
                   _("Kernel events need root (or write access to %s); asking the helper resprobed is turned off"),
                   instances != NULL ? instances : "/sys/kernel/tracing/instances");
      return NULL;
    }
  return open_helper (directory, error);
}

/**
 * rp_trace_source_get_kind:
 *
 * Returns: "root" (made by this process) or "helper" (by resprobed)
 */
const char *
rp_trace_source_get_kind (RpTraceSource *self)
{
  return self->kind;
}

/**
 * rp_trace_source_get_instance:
 *
 * Returns: (nullable): the instance's name in tracefs
 */
const char *
rp_trace_source_get_instance (RpTraceSource *self)
{
  return self->instance_name;
}

/**
 * rp_trace_source_get_missing:
 *
 * Returns: the events the kernel lacks or refused, "system:name, …"; "" for none
 */
const char *
rp_trace_source_get_missing (RpTraceSource *self)
{
  return self->missing->str;
}

/**
 * rp_trace_source_get_hz:
 *
 * Returns: the kernel's CONFIG_HZ (jbd2_run_stats counts in jiffies)
 */
double
rp_trace_source_get_hz (RpTraceSource *self)
{
  return self->hz;
}

/**
 * rp_trace_source_get_formats:
 *
 * Returns: (transfer none): "header_page" and "SYSTEM/NAME" to their format
 *   files' text
 */
GHashTable *
rp_trace_source_get_formats (RpTraceSource *self)
{
  return self->formats;
}

/**
 * rp_trace_source_steal_buffers:
 *
 * Returns: (transfer full) (element-type int): CPU i's trace_pipe_raw
 *   descriptor at i; close them all before rp_trace_source_free()
 */
GArray *
rp_trace_source_steal_buffers (RpTraceSource *self)
{
  return g_steal_pointer (&self->buffers);
}

/**
 * rp_trace_source_stop:
 *
 * Tracing off; the buffers keep what they hold, to be read now.
 *
 * Returns: events the kernel dropped for a full buffer (0 when resprobed
 *   cannot say)
 */
guint64
rp_trace_source_stop (RpTraceSource *self)
{
  guint64 lost = 0;

  self->stopped = TRUE;
  if (self->instance != NULL)
    {
      tracefs_trace_off (self->instance);
      return rp_trace_instance_lost_events (self->instance);
    }
  if (!rp_helper_client_stop_trace (self->client, self->handle, &lost, NULL))
    return 0;
  return lost;
}

/**
 * rp_trace_source_free:
 * @self: (transfer full) (nullable):
 *
 * Removes the instance (the buffers must be closed: the kernel keeps a busy
 * one) and frees @self.
 */
void
rp_trace_source_free (RpTraceSource *self)
{
  if (self == NULL)
    return;
  close_buffers (self->buffers);
  g_clear_pointer (&self->buffers, g_array_unref);
  if (self->instance != NULL)
    rp_trace_instance_destroy (g_steal_pointer (&self->instance));
  if (self->client != NULL)
    {
      g_autoptr(GError) error = NULL;

      if (!rp_helper_client_close_trace (self->client, self->handle, &error))
        g_warning ("resprobed did not remove the trace instance %s: %s", self->instance_name, error->message);
      /* The connection closes: whatever resprobed still held for it goes. */
      g_clear_object (&self->client);
    }
  g_clear_pointer (&self->formats, g_hash_table_unref);
  g_string_free (self->missing, TRUE);
  g_free (self->instance_name);
  g_free (self);
}
