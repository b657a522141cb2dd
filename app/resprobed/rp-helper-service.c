/* rp-helper-service.c: resprobed's object on the system bus: its methods, its callers' trace instances, its idle time. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rp-helper-auth.h"
#include "rp-helper-service.h"
#include "rp-trace-instance.h"

/* Each method is one privileged operation with typed arguments; GDBus
 * refuses a call whose signature is not the introspected one before it
 * reaches us. The caller names nothing by path: a folder or a file is a
 * descriptor it holds, the events are the product's fixed set
 * (rp-trace-events.c), a trace is a handle that only the bus name that
 * opened it may use. Arguments are checked before polkit is asked, so a
 * malformed call never prompts for a password.
 *
 * What the helper makes belongs to the caller's unique bus name, which the
 * bus never gives to another connection: when it vanishes (the client
 * closed its connection, exited, was killed) its instances are removed.
 * The kernel keeps an instance while a buffer of it is open (EBUSY), and a
 * killed client's descriptors may close a moment after its connection: the
 * removal is tried again until they have. */

#define REMOVE_RETRY_MS       100
/* 5 min: a client that passed its buffers on to a process that lives on
 * keeps the instance; the helper stops trying then (and its next start
 * removes the instance as a dead helper's). */
#define REMOVE_RETRY_MAX      3000

typedef struct {
  RpHelperService         *service;
  guint32                  handle;
  char                    *owner;       /* unique bus name */
  struct tracefs_instance *instance;
  guint                    n_cpus;
  gboolean                *handed;      /* per CPU: its buffer was passed */
  guint                    retry_id;
  guint                    retries;
} Trace;

struct _RpHelperService {
  GDBusConnection *bus;
  guint            registration;
  GHashTable      *traces;      /* handle → Trace, of living callers */
  GPtrArray       *removing;    /* Trace, whose instance is still busy */
  GHashTable      *watches;     /* owner → name watch id */
  GHashTable      *cache_grants; /* owners polkit let drop caches */
  guint32          next_handle;
  guint            in_flight;   /* calls waiting for polkit */
  guint            idle_seconds;
  guint            idle_id;
  GSourceFunc      on_idle;
  gpointer         on_idle_data;
  GHashTable      *formats;     /* read once: the kernel's own */
  double           hz;
};

static void
trace_free (Trace *trace)
{
  g_clear_handle_id (&trace->retry_id, g_source_remove);
  if (trace->instance != NULL)
    tracefs_instance_free (trace->instance);
  g_free (trace->handed);
  g_free (trace->owner);
  g_free (trace);
}

/* Whether the helper has nothing to do: no instance, no call waiting, no
 * caller it let drop caches (whose grant would go with the process). */
static void
update_idle (RpHelperService *self)
{
  gboolean idle = g_hash_table_size (self->traces) == 0 && self->removing->len == 0 && self->in_flight == 0 &&
                  g_hash_table_size (self->cache_grants) == 0;

  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (idle && self->on_idle != NULL)
    self->idle_id = g_timeout_add_seconds (self->idle_seconds, self->on_idle, self->on_idle_data);
}

static gboolean
retry_remove (gpointer data)
{
  Trace *trace = data;
  RpHelperService *self = trace->service;

  if (rp_trace_instance_remove (trace->instance))
    g_debug ("Removed %s of %s", tracefs_instance_get_name (trace->instance), trace->owner);
  else if (errno == EBUSY && ++trace->retries < REMOVE_RETRY_MAX)
    return G_SOURCE_CONTINUE;
  else
    g_warning ("Cannot remove the trace instance %s of %s: %s", tracefs_instance_get_name (trace->instance),
               trace->owner, g_strerror (errno));
  trace->retry_id = 0;
  g_ptr_array_remove (self->removing, trace);
  update_idle (self);
  return G_SOURCE_REMOVE;
}

/* Takes @trace out of the table and removes its instance, now or as soon as
 * its buffers are closed. */
static void
remove_trace (RpHelperService *self,
              Trace           *trace)
{
  g_hash_table_steal (self->traces, GUINT_TO_POINTER (trace->handle));
  g_ptr_array_add (self->removing, trace);
  if (retry_remove (trace) == G_SOURCE_CONTINUE)
    trace->retry_id = g_timeout_add (REMOVE_RETRY_MS, retry_remove, trace);
}

static void
on_owner_vanished (GDBusConnection *bus,
                   const char      *name,
                   gpointer         data)
{
  RpHelperService *self = data;
  GHashTableIter iter;
  gpointer value;
  g_autoptr(GPtrArray) gone = g_ptr_array_new ();

  g_hash_table_iter_init (&iter, self->traces);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    if (g_str_equal (((Trace *) value)->owner, name))
      g_ptr_array_add (gone, value);
  for (guint i = 0; i < gone->len; i++)
    remove_trace (self, g_ptr_array_index (gone, i));
  g_hash_table_remove (self->cache_grants, name);
  g_debug ("%s vanished: %u trace instances removed or being removed", name, gone->len);
  g_hash_table_remove (self->watches, name);
  update_idle (self);
}

/* Watches @owner once: its vanishing removes its instances. A name gone
 * already is reported at once by the watch's first GetNameOwner, so a
 * caller that died while polkit was being asked leaves nothing. */
static void
watch_owner (RpHelperService *self,
             const char      *owner)
{
  if (g_hash_table_contains (self->watches, owner))
    return;
  g_hash_table_insert (self->watches, g_strdup (owner),
                       GUINT_TO_POINTER (g_bus_watch_name_on_connection (self->bus, owner, G_BUS_NAME_WATCHER_FLAGS_NONE,
                                                                         NULL, on_owner_vanished, self, NULL)));
}

static guint
traces_of (RpHelperService *self,
           const char      *owner)
{
  GHashTableIter iter;
  gpointer value;
  guint n = 0;

  g_hash_table_iter_init (&iter, self->traces);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    n += g_str_equal (((Trace *) value)->owner, owner);
  return n;
}

static gboolean
check_limits (RpHelperService       *self,
              GDBusMethodInvocation *invocation)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);

  if (traces_of (self, sender) >= RP_HELPER_MAX_TRACES_PER_CALLER ||
      g_hash_table_size (self->traces) + self->removing->len >= RP_HELPER_MAX_TRACES)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_LIMITS_EXCEEDED,
                                             "Too many trace instances (%u of this caller's, %u in all)",
                                             RP_HELPER_MAX_TRACES_PER_CALLER, RP_HELPER_MAX_TRACES);
      return FALSE;
    }
  return TRUE;
}

/* The caller's descriptor at @index of its message, checked to be of
 * @type (S_IFDIR, S_IFREG): -1 after a reply with the reason. */
static int
take_fd (GDBusMethodInvocation *invocation,
         gint32                 index,
         mode_t                 type,
         struct stat           *st)
{
  GUnixFDList *list = g_dbus_message_get_unix_fd_list (g_dbus_method_invocation_get_message (invocation));
  g_autoptr(GError) error = NULL;
  int fd;

  if (list == NULL || index < 0 || index >= g_unix_fd_list_get_length (list))
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             "No file descriptor at index %d of the message", index);
      return -1;
    }
  fd = g_unix_fd_list_get (list, index, &error);
  if (fd < 0 || fstat (fd, st) != 0 || (st->st_mode & S_IFMT) != type)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             type == S_IFDIR ? "The descriptor is not a folder's"
                                                             : "The descriptor is not a regular file's");
      if (fd >= 0)
        close (fd);
      return -1;
    }
  return fd;
}

/* A call that waits for polkit: what it needs after the answer. */
typedef struct {
  RpHelperService       *service;
  GDBusMethodInvocation *invocation;
  int                    fd;
  struct stat            st;
  void                 (*perform) (RpHelperService *, GDBusMethodInvocation *, int, const struct stat *);
} Pending;

static void
on_authorized (GObject      *source,
               GAsyncResult *result,
               gpointer      data)
{
  Pending *pending = data;
  RpHelperService *self = pending->service;
  g_autoptr(GError) error = NULL;

  if (rp_helper_auth_check_finish (result, &error))
    pending->perform (self, pending->invocation, pending->fd, &pending->st);
  else
    g_dbus_method_invocation_return_gerror (pending->invocation, error);
  if (pending->fd >= 0)
    close (pending->fd);
  g_free (pending);
  self->in_flight--;
  update_idle (self);
}

/* Takes @invocation and @fd (-1 for none). */
static void
authorize_then (RpHelperService       *self,
                GDBusMethodInvocation *invocation,
                const char            *action_id,
                int                    fd,
                const struct stat     *st,
                void                 (*perform) (RpHelperService *, GDBusMethodInvocation *, int, const struct stat *))
{
  Pending *pending = g_new0 (Pending, 1);

  pending->service = self;
  pending->invocation = invocation;
  pending->fd = fd;
  if (st != NULL)
    pending->st = *st;
  pending->perform = perform;
  self->in_flight++;
  update_idle (self);
  rp_helper_auth_check_async (invocation, action_id, on_authorized, pending);
}

static GVariant *
dict_of (GHashTable *table)
{
  GVariantBuilder builder;
  GHashTableIter iter;
  gpointer key, value;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a{ss}"));
  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_variant_builder_add (&builder, "{ss}", key, value);
  return g_variant_builder_end (&builder);
}

static void
open_trace (RpHelperService       *self,
            GDBusMethodInvocation *invocation,
            int                    folder,
            const struct stat     *st)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *hz = NULL;
  GVariantBuilder info;
  g_autoptr(GString) missing = g_string_new (NULL);
  RpTraceTarget target;
  gboolean on_disk = rp_trace_target_find (st->st_dev, &target);
  struct tracefs_instance *instance;
  Trace *trace;

  /* Again: other calls of the same caller may have been authorized meanwhile. */
  if (!check_limits (self, invocation))
    return;
  if (self->formats == NULL && (self->formats = rp_trace_instance_read_formats (&error)) == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED, "%s", error->message);
      return;
    }
  instance = rp_trace_instance_create (RP_TRACE_INSTANCE_PREFIX_HELPER, &error);
  if (instance == NULL)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED, "%s", error->message);
      return;
    }
  rp_trace_instance_enable_events (instance, &target, on_disk, missing);
  if (self->hz == 0)
    self->hz = rp_trace_kernel_hz ();

  trace = g_new0 (Trace, 1);
  trace->service = self;
  trace->handle = self->next_handle++;
  trace->owner = g_strdup (g_dbus_method_invocation_get_sender (invocation));
  trace->instance = instance;
  trace->n_cpus = rp_trace_instance_n_cpus ();
  trace->handed = g_new0 (gboolean, trace->n_cpus);
  g_hash_table_insert (self->traces, GUINT_TO_POINTER (trace->handle), trace);
  watch_owner (self, trace->owner);
  g_debug ("%s opened %s", trace->owner, tracefs_instance_get_name (instance));

  hz = g_strdup_printf ("%.0f", self->hz);
  g_variant_builder_init (&info, G_VARIANT_TYPE ("a{ss}"));
  g_variant_builder_add (&info, "{ss}", "instance", tracefs_instance_get_name (instance));
  g_variant_builder_add (&info, "{ss}", "missing", missing->str);
  g_variant_builder_add (&info, "{ss}", "hz", hz);
  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(uu@a{ss}a{ss})", trace->handle, trace->n_cpus,
                                                        dict_of (self->formats), &info));
}

/* The caller's own trace of @handle, or NULL after a reply saying so: a
 * handle of another caller is refused as an unknown one (a caller learns
 * nothing of the others'). */
static Trace *
own_trace (RpHelperService       *self,
           GDBusMethodInvocation *invocation,
           guint32                handle)
{
  Trace *trace = g_hash_table_lookup (self->traces, GUINT_TO_POINTER (handle));

  if (trace == NULL || !g_str_equal (trace->owner, g_dbus_method_invocation_get_sender (invocation)))
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             "No trace %u of this caller", handle);
      return NULL;
    }
  return trace;
}

static void
get_buffers (RpHelperService       *self,
             GDBusMethodInvocation *invocation,
             GVariant              *parameters)
{
  g_autoptr(GUnixFDList) list = g_unix_fd_list_new ();
  g_autoptr(GError) error = NULL;
  GVariantBuilder handles;
  guint32 handle, first, count;
  Trace *trace;

  g_variant_get (parameters, "(uuu)", &handle, &first, &count);
  if ((trace = own_trace (self, invocation, handle)) == NULL)
    return;
  if (count == 0 || count > RP_HELPER_MAX_FDS_PER_CALL || first >= trace->n_cpus || count > trace->n_cpus - first)
    {
      g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                             "%u buffers from CPU %u asked: the trace has %u CPUs, at most %u a call",
                                             count, first, trace->n_cpus, RP_HELPER_MAX_FDS_PER_CALL);
      return;
    }
  for (guint cpu = first; cpu < first + count; cpu++)
    if (trace->handed[cpu])
      {
        g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS,
                                               "The buffer of CPU %u was passed already", cpu);
        return;
      }
  g_variant_builder_init (&handles, G_VARIANT_TYPE ("ah"));
  for (guint cpu = first; cpu < first + count; cpu++)
    {
      int fd = rp_trace_instance_open_buffer (trace->instance, cpu, &error);
      int index = fd >= 0 ? g_unix_fd_list_append (list, fd, &error) : -1;

      /* The list holds a copy: ours closes now, so that the instance is the
       * caller's alone to keep busy. */
      if (fd >= 0)
        close (fd);
      if (index < 0)
        {
          g_variant_builder_clear (&handles);
          g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED, "%s", error->message);
          return;
        }
      g_variant_builder_add (&handles, "h", index);
    }
  for (guint cpu = first; cpu < first + count; cpu++)
    trace->handed[cpu] = TRUE;
  g_dbus_method_invocation_return_value_with_unix_fd_list (invocation, g_variant_new ("(ah)", &handles), list);
}

static void
stop_trace (RpHelperService       *self,
            GDBusMethodInvocation *invocation,
            GVariant              *parameters)
{
  guint32 handle;
  Trace *trace;

  g_variant_get (parameters, "(u)", &handle);
  if ((trace = own_trace (self, invocation, handle)) == NULL)
    return;
  tracefs_trace_off (trace->instance);
  g_dbus_method_invocation_return_value (invocation,
                                         g_variant_new ("(t)", rp_trace_instance_lost_events (trace->instance)));
}

static void
close_trace (RpHelperService       *self,
             GDBusMethodInvocation *invocation,
             GVariant              *parameters)
{
  guint32 handle;
  Trace *trace;

  g_variant_get (parameters, "(u)", &handle);
  if ((trace = own_trace (self, invocation, handle)) == NULL)
    return;
  remove_trace (self, trace);
  update_idle (self);
  g_dbus_method_invocation_return_value (invocation, NULL);
}

/* polkit's yes to dropping caches holds for the caller's connection: an
 * app-start probe drops the cache every few seconds for as long as its run
 * lasts, and auth_admin_keep's five minutes must not end in a second
 * password prompt mid-run (KDiskMark's issues 65, 81). */
static void
grant_caches (RpHelperService       *self,
              GDBusMethodInvocation *invocation)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);

  if (g_hash_table_add (self->cache_grants, g_strdup (sender)))
    watch_owner (self, sender);
}

static void
drop_page_cache (RpHelperService       *self,
                 GDBusMethodInvocation *invocation,
                 int                    unused_fd,
                 const struct stat     *unused_st)
{
  /* The same write as a run as root (engine/parts/rp-page-cache.c): clean
   * pages only, no sync first. */
  int fd = open ("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
  gboolean ok = fd >= 0 && write (fd, "1", 1) == 1;
  int saved_errno = errno;

  if (fd >= 0)
    close (fd);
  grant_caches (self, invocation);
  if (ok)
    g_dbus_method_invocation_return_value (invocation, NULL);
  else
    g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED,
                                           "Writing /proc/sys/vm/drop_caches: %s", g_strerror (saved_errno));
}

static void
evict_file (RpHelperService       *self,
            GDBusMethodInvocation *invocation,
            int                    fd,
            const struct stat     *st)
{
  int result = posix_fadvise (fd, 0, 0, POSIX_FADV_DONTNEED);

  grant_caches (self, invocation);
  if (result == 0)
    g_dbus_method_invocation_return_value (invocation, NULL);
  else
    g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_FAILED,
                                           "posix_fadvise: %s", g_strerror (result));
}

static void
method_call (GDBusConnection       *bus,
             const char            *sender,
             const char            *path,
             const char            *interface,
             const char            *method,
             GVariant              *parameters,
             GDBusMethodInvocation *invocation,
             gpointer               data)
{
  RpHelperService *self = data;
  struct stat st;
  gint32 index;
  int fd;

  g_debug ("%s calls %s", sender, method);
  if (g_str_equal (method, "OpenTrace"))
    {
      g_variant_get (parameters, "(h)", &index);
      if (check_limits (self, invocation) && (fd = take_fd (invocation, index, S_IFDIR, &st)) >= 0)
        authorize_then (self, invocation, RP_HELPER_ACTION_TRACE, fd, &st, open_trace);
    }
  else if (g_str_equal (method, "EvictFile"))
    {
      g_variant_get (parameters, "(h)", &index);
      if ((fd = take_fd (invocation, index, S_IFREG, &st)) >= 0)
        {
          if (g_hash_table_contains (self->cache_grants, sender))
            {
              evict_file (self, invocation, fd, &st);
              close (fd);
            }
          else
            authorize_then (self, invocation, RP_HELPER_ACTION_DROP_CACHES, fd, &st, evict_file);
        }
    }
  else if (g_str_equal (method, "DropPageCache"))
    {
      if (g_hash_table_contains (self->cache_grants, sender))
        drop_page_cache (self, invocation, -1, NULL);
      else
        authorize_then (self, invocation, RP_HELPER_ACTION_DROP_CACHES, -1, NULL, drop_page_cache);
    }
  else if (g_str_equal (method, "GetBuffers"))
    get_buffers (self, invocation, parameters);
  else if (g_str_equal (method, "StopTrace"))
    stop_trace (self, invocation, parameters);
  else if (g_str_equal (method, "CloseTrace"))
    close_trace (self, invocation, parameters);
  else
    g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD,
                                           "No method %s", method);
  update_idle (self);
}

static const GDBusInterfaceVTable vtable = { method_call, NULL, NULL, { 0 } };

/**
 * rp_helper_service_new:
 * @bus: the system bus
 * @idle_seconds: how long the helper waits, with nothing to do, before
 *   @on_idle
 * @on_idle: called (as a timeout source) when the helper has had no
 *   instance and no call for @idle_seconds; it should end the main loop
 * @error: when the object cannot be registered
 *
 * Registers the io.github.resprobe.Helper1 object on @bus (the bus name is
 * the caller's to own) and removes the instances a killed helper left.
 *
 * Returns: (transfer full) (nullable): the service; free it to remove
 *   every instance it still has
 */
RpHelperService *
rp_helper_service_new (GDBusConnection  *bus,
                       guint             idle_seconds,
                       GSourceFunc       on_idle,
                       gpointer          on_idle_data,
                       GError          **error)
{
  g_autoptr(GBytes) xml = g_resources_lookup_data ("/io/github/resprobe/Helper1/io.github.resprobe.Helper1.xml",
                                                   G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  g_autoptr(GDBusNodeInfo) node = xml != NULL ? g_dbus_node_info_new_for_xml (g_bytes_get_data (xml, NULL), error) : NULL;
  RpHelperService *self;

  if (node == NULL)
    return NULL;
  self = g_new0 (RpHelperService, 1);
  self->bus = g_object_ref (bus);
  self->traces = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) trace_free);
  self->removing = g_ptr_array_new_with_free_func ((GDestroyNotify) trace_free);
  self->watches = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) g_bus_unwatch_name);
  self->cache_grants = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->next_handle = 1;
  self->idle_seconds = idle_seconds;
  self->on_idle = on_idle;
  self->on_idle_data = on_idle_data;
  self->registration = g_dbus_connection_register_object (bus, RP_HELPER_OBJECT_PATH,
                                                          g_dbus_node_info_lookup_interface (node, RP_HELPER_INTERFACE),
                                                          &vtable, self, NULL, error);
  if (self->registration == 0)
    {
      rp_helper_service_free (self);
      return NULL;
    }
  if (tracefs_tracing_dir () != NULL)
    rp_trace_instance_remove_stale (RP_TRACE_INSTANCE_PREFIX_HELPER);
  update_idle (self);
  return self;
}

/**
 * rp_helper_service_n_traces:
 *
 * Returns: how many instances the helper has, its callers' and those it
 *   is still removing
 */
guint
rp_helper_service_n_traces (RpHelperService *self)
{
  return g_hash_table_size (self->traces) + self->removing->len;
}

/**
 * rp_helper_service_free:
 * @self: (transfer full) (nullable):
 *
 * Unregisters the object and removes every instance it can (a busy one
 * stays, with a warning, until the next start).
 */
void
rp_helper_service_free (RpHelperService *self)
{
  GHashTableIter iter;
  gpointer value;

  if (self == NULL)
    return;
  g_clear_handle_id (&self->idle_id, g_source_remove);
  if (self->registration != 0)
    g_dbus_connection_unregister_object (self->bus, self->registration);
  g_hash_table_iter_init (&iter, self->traces);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (self->removing, value);
  g_hash_table_steal_all (self->traces);
  for (guint i = 0; i < self->removing->len; i++)
    {
      Trace *trace = g_ptr_array_index (self->removing, i);

      if (!rp_trace_instance_remove (trace->instance))
        g_warning ("Cannot remove the trace instance %s of %s: %s", tracefs_instance_get_name (trace->instance),
                   trace->owner, g_strerror (errno));
    }
  g_ptr_array_unref (self->removing);
  g_hash_table_unref (self->traces);
  g_hash_table_unref (self->watches);
  g_hash_table_unref (self->cache_grants);
  g_clear_pointer (&self->formats, g_hash_table_unref);
  g_object_unref (self->bus);
  g_free (self);
}
