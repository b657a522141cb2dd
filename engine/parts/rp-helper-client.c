/* rp-helper-client.c: the engine's side of resprobed, the privileged helper on the system bus. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <gio/gunixfdlist.h>
#include <glib/gi18n-lib.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-helper-client.h"

/* Sysprof's model (sysprofd): the application and the CLI run as the user;
 * resprobed, activated on the system bus on demand, performs the few
 * privileged operations once polkit has authorized the caller's bus name,
 * and hands back file descriptors, which stay valid however long the run.
 *
 * Each client is a connection of its own to the system bus, closed when it
 * is freed: resprobed removes what it made for a connection when its
 * unique name vanishes, and an authorization it granted holds for that
 * connection's life. A run is one connection: the next run asks again
 * (polkit's auth_admin_keep spares a second password for 5 minutes), and
 * nothing of a run outlives it, even if the process is killed. */

/* ms: a call that may wait for an administrator's password; polkit's own
 * dialog has no time limit, so this is only a guard. */
#define AUTHORIZED_CALL_TIMEOUT (5 * 60 * 1000)

struct _RpHelperClient {
  GObject          parent_instance;
  GDBusConnection *connection;
};

G_DEFINE_FINAL_TYPE (RpHelperClient, rp_helper_client, G_TYPE_OBJECT)

/* Whether this process may ask resprobed at all: the window asks its user
 * first and remembers the answer; the CLI may (it was asked to run). */
static gint allowed = TRUE;

static void
rp_helper_client_dispose (GObject *object)
{
  RpHelperClient *self = RP_HELPER_CLIENT (object);

  /* Closed, not just dropped: resprobed then removes this connection's
   * trace instances at once. */
  if (self->connection != NULL && !g_dbus_connection_is_closed (self->connection))
    g_dbus_connection_close_sync (self->connection, NULL, NULL);
  g_clear_object (&self->connection);
  G_OBJECT_CLASS (rp_helper_client_parent_class)->dispose (object);
}

static void
rp_helper_client_class_init (RpHelperClientClass *klass)
{
  G_OBJECT_CLASS (klass)->dispose = rp_helper_client_dispose;
}

static void
rp_helper_client_init (RpHelperClient *self)
{
}

/**
 * rp_helper_client_set_allowed:
 * @allowed: whether this process may ask resprobed (and so polkit, which may
 *   ask for a password)
 *
 * The window sets it from its setting (asked once); the CLI leaves the
 * default, %TRUE. Any thread.
 */
void
rp_helper_client_set_allowed (gboolean allowed_now)
{
  g_atomic_int_set (&allowed, !!allowed_now);
}

/**
 * rp_helper_client_get_allowed:
 *
 * Returns: whether this process may ask resprobed
 */
gboolean
rp_helper_client_get_allowed (void)
{
  return g_atomic_int_get (&allowed);
}

/* A connection of our own to the system bus (not the shared one, which
 * lives as long as the process). */
static GDBusConnection *
connect_system_bus (GError **error)
{
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SYSTEM, NULL, error);

  if (address == NULL)
    return NULL;
  return g_dbus_connection_new_for_address_sync (address,
                                                 G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                 G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                 NULL, NULL, error);
}

/* Whether the bus can start resprobed or it runs already. */
static gboolean
name_is_there (GDBusConnection  *connection,
               GError          **error)
{
  static const char *const methods[] = { "NameHasOwner", "ListActivatableNames" };

  for (guint i = 0; i < G_N_ELEMENTS (methods); i++)
    {
      g_autoptr(GVariant) reply = NULL;
      g_autofree const char **names = NULL;
      gboolean has_owner = FALSE;

      reply = g_dbus_connection_call_sync (connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                           "org.freedesktop.DBus", methods[i],
                                           i == 0 ? g_variant_new ("(s)", RP_HELPER_BUS_NAME) : NULL,
                                           i == 0 ? G_VARIANT_TYPE ("(b)") : G_VARIANT_TYPE ("(as)"),
                                           G_DBUS_CALL_FLAGS_NONE, 5000, NULL, error);
      if (reply == NULL)
        return FALSE;
      if (i == 0)
        g_variant_get (reply, "(b)", &has_owner);
      else
        g_variant_get (reply, "(^a&s)", &names);
      if (has_owner || (names != NULL && g_strv_contains (names, RP_HELPER_BUS_NAME)))
        return TRUE;
    }
  g_set_error (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN,
               "%s is not installed", RP_HELPER_BUS_NAME);
  return FALSE;
}

/**
 * rp_helper_client_is_installed:
 *
 * Asks the system bus whether it can start resprobed (its .service file is
 * installed) or it runs. Blocks for a round trip or two; %FALSE without a
 * system bus.
 *
 * Returns: whether resprobed can be asked
 */
gboolean
rp_helper_client_is_installed (void)
{
  g_autoptr(GDBusConnection) connection = connect_system_bus (NULL);
  gboolean there = connection != NULL && name_is_there (connection, NULL);

  if (connection != NULL)
    g_dbus_connection_close_sync (connection, NULL, NULL);
  return there;
}

static void
check_thread (GTask        *task,
              gpointer      source,
              gpointer      data,
              GCancellable *cancellable)
{
  g_task_return_boolean (task, rp_helper_client_is_installed ());
}

/**
 * rp_helper_client_check_async:
 *
 * rp_helper_client_is_installed() on a thread: for the window, whose main
 * thread must not wait for a system bus.
 */
void
rp_helper_client_check_async (GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = g_task_new (NULL, cancellable, callback, user_data);

  g_task_set_source_tag (task, rp_helper_client_check_async);
  g_task_run_in_thread (task, check_thread);
}

/**
 * rp_helper_client_check_finish:
 *
 * Returns: whether resprobed can be asked
 */
gboolean
rp_helper_client_check_finish (GAsyncResult  *result,
                               GError       **error)
{
  return g_task_propagate_boolean (G_TASK (result), error);
}

/**
 * rp_helper_client_new:
 * @error: %RP_ERROR_FAILED without a system bus or without resprobed
 *   (%G_DBUS_ERROR_SERVICE_UNKNOWN then, in the message)
 *
 * Connects to the system bus, a connection of the client's own.
 *
 * Returns: (transfer full) (nullable): the client; unref it to close the
 *   connection, which removes whatever resprobed made for it
 */
RpHelperClient *
rp_helper_client_new (GError **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(GDBusConnection) connection = connect_system_bus (&local_error);
  RpHelperClient *self;

  if (connection == NULL || !name_is_there (connection, &local_error))
    {
      if (connection != NULL)
        g_dbus_connection_close_sync (connection, NULL, NULL);
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED, "%s", local_error->message);
      return NULL;
    }
  self = g_object_new (RP_TYPE_HELPER_CLIENT, NULL);
  self->connection = g_steal_pointer (&connection);
  return self;
}

/**
 * rp_helper_client_get_name:
 *
 * Returns: (transfer none): the client's unique name on the system bus,
 *   e.g. ":1.42": the subject polkit authorizes
 */
const char *
rp_helper_client_get_name (RpHelperClient *self)
{
  g_return_val_if_fail (RP_IS_HELPER_CLIENT (self), NULL);

  return g_dbus_connection_get_unique_name (self->connection);
}

/* resprobed's answer as our error: refused by polkit (AccessDenied) is a
 * permission, the rest a failure; its message without the D-Bus name. */
static void
set_error_from_remote (GError  **error,
                       GError   *remote)
{
  gboolean denied = g_error_matches (remote, G_DBUS_ERROR, G_DBUS_ERROR_ACCESS_DENIED) ||
                    g_error_matches (remote, G_DBUS_ERROR, G_DBUS_ERROR_AUTH_FAILED);

  g_dbus_error_strip_remote_error (remote);
  g_set_error (error, RP_ERROR, denied ? RP_ERROR_PERMISSION : RP_ERROR_FAILED, "%s", remote->message);
}

static GVariant *
call (RpHelperClient  *self,
      const char      *method,
      GVariant        *parameters,
      const char      *reply_type,
      gboolean         authorized,
      GUnixFDList     *fds_in,
      GUnixFDList    **fds_out,
      GError         **error)
{
  g_autoptr(GError) remote = NULL;
  GVariant *reply;

  g_return_val_if_fail (RP_IS_HELPER_CLIENT (self), NULL);

  reply = g_dbus_connection_call_with_unix_fd_list_sync (self->connection, RP_HELPER_BUS_NAME,
                                                         RP_HELPER_OBJECT_PATH, RP_HELPER_INTERFACE,
                                                         method, parameters, G_VARIANT_TYPE (reply_type),
                                                         authorized ? G_DBUS_CALL_FLAGS_ALLOW_INTERACTIVE_AUTHORIZATION
                                                                    : G_DBUS_CALL_FLAGS_NONE,
                                                         authorized ? AUTHORIZED_CALL_TIMEOUT : -1,
                                                         fds_in, fds_out, NULL, &remote);
  if (reply == NULL)
    set_error_from_remote (error, remote);
  return reply;
}

static GHashTable *
string_dict (GVariant *dict)
{
  GHashTable *table = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GVariantIter iter;
  char *key, *value;

  g_variant_iter_init (&iter, dict);
  while (g_variant_iter_next (&iter, "{ss}", &key, &value))
    g_hash_table_insert (table, key, value);
  return table;
}

/**
 * rp_helper_client_open_trace:
 * @folder_fd: a folder the run writes in, open for reading: resprobed traces
 *   its file system and disk (it is lent, not taken)
 * @out_handle: (out): the trace's handle, for the calls below
 * @out_n_cpus: (out): how many per-CPU buffers it has
 * @out_formats: (out) (transfer full): "header_page" and "SYSTEM/NAME" to
 *   their format files' text (rp_trace_tep_new())
 * @out_info: (out) (transfer full): "instance" (its name), "missing" (events
 *   the kernel lacks), "hz" (CONFIG_HZ)
 * @error: %RP_ERROR_PERMISSION when polkit said no, %RP_ERROR_FAILED else
 *
 * OpenTrace: a trace instance with the product's events, filtered on the
 * folder's devices. May wait for an administrator's password.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_helper_client_open_trace (RpHelperClient  *self,
                             int              folder_fd,
                             guint32         *out_handle,
                             guint           *out_n_cpus,
                             GHashTable     **out_formats,
                             GHashTable     **out_info,
                             GError         **error)
{
  g_autoptr(GUnixFDList) fds = g_unix_fd_list_new ();
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) formats = NULL, info = NULL;
  int index = g_unix_fd_list_append (fds, folder_fd, error);

  if (index < 0)
    return FALSE;
  reply = call (self, "OpenTrace", g_variant_new ("(h)", index), "(uua{ss}a{ss})", TRUE, fds, NULL, error);
  if (reply == NULL)
    return FALSE;
  g_variant_get (reply, "(uu@a{ss}@a{ss})", out_handle, out_n_cpus, &formats, &info);
  *out_formats = string_dict (formats);
  *out_info = string_dict (info);
  return TRUE;
}

/**
 * rp_helper_client_get_buffers:
 * @handle: from rp_helper_client_open_trace()
 * @n_cpus: its buffers' count
 *
 * GetBuffers, as many calls as the bus's limit of descriptors per message
 * asks: each CPU's raw buffer, open for reading.
 *
 * Returns: (transfer full) (element-type int) (nullable): CPU i's
 *   descriptor at i (close-on-exec), the caller's to close
 */
GArray *
rp_helper_client_get_buffers (RpHelperClient  *self,
                              guint32          handle,
                              guint            n_cpus,
                              GError         **error)
{
  g_autoptr(GArray) fds = g_array_new (FALSE, FALSE, sizeof (int));

  for (guint first = 0; first < n_cpus; first += RP_HELPER_MAX_FDS_PER_CALL)
    {
      guint count = MIN (RP_HELPER_MAX_FDS_PER_CALL, n_cpus - first);
      g_autoptr(GUnixFDList) list = NULL;
      g_autoptr(GVariant) reply = call (self, "GetBuffers", g_variant_new ("(uuu)", handle, first, count),
                                        "(ah)", FALSE, NULL, &list, error);
      int n = 0;
      int *stolen;

      if (reply == NULL || list == NULL || g_unix_fd_list_get_length (list) != (int) count)
        {
          if (reply != NULL)
            g_set_error (error, RP_ERROR, RP_ERROR_FAILED, "resprobed sent %d buffers of %u",
                         list != NULL ? g_unix_fd_list_get_length (list) : 0, count);
          for (guint i = 0; i < fds->len; i++)
            close (g_array_index (fds, int, i));
          return NULL;
        }
      /* The reply's handles index the list in order (resprobed's). */
      stolen = g_unix_fd_list_steal_fds (list, &n);
      g_array_append_vals (fds, stolen, n);
      g_free (stolen);
    }
  return g_steal_pointer (&fds);
}

/**
 * rp_helper_client_stop_trace:
 * @out_lost: (out): events the kernel dropped for a full buffer
 *
 * StopTrace: tracing off in the instance; its buffers still hold what was
 * recorded, to be read before rp_helper_client_close_trace().
 *
 * Returns: %TRUE on success
 */
gboolean
rp_helper_client_stop_trace (RpHelperClient  *self,
                             guint32          handle,
                             guint64         *out_lost,
                             GError         **error)
{
  g_autoptr(GVariant) reply = call (self, "StopTrace", g_variant_new ("(u)", handle), "(t)", FALSE,
                                    NULL, NULL, error);

  if (reply == NULL)
    return FALSE;
  g_variant_get (reply, "(t)", out_lost);
  return TRUE;
}

/**
 * rp_helper_client_close_trace:
 *
 * CloseTrace: removes the instance. Close its buffers first: the kernel
 * keeps an instance whose buffer is open (resprobed then tries again for a
 * while, and at the latest when this client's connection closes).
 *
 * Returns: %TRUE on success
 */
gboolean
rp_helper_client_close_trace (RpHelperClient  *self,
                              guint32          handle,
                              GError         **error)
{
  g_autoptr(GVariant) reply = call (self, "CloseTrace", g_variant_new ("(u)", handle), "()", FALSE,
                                    NULL, NULL, error);

  return reply != NULL;
}

/**
 * rp_helper_client_drop_page_cache:
 * @error: %RP_ERROR_PERMISSION when polkit said no
 *
 * DropPageCache: every clean page of the page cache, of every file
 * (drop_caches 1). May wait for an administrator's password the first time.
 *
 * Returns: %TRUE on success
 */
gboolean
rp_helper_client_drop_page_cache (RpHelperClient  *self,
                                  GError         **error)
{
  g_autoptr(GVariant) reply = call (self, "DropPageCache", NULL, "()", TRUE, NULL, NULL, error);

  return reply != NULL;
}

/**
 * rp_helper_client_evict_file:
 * @fd: a regular file open for reading or writing (lent, not taken)
 *
 * EvictFile: the file's clean pages out of the page cache
 * (POSIX_FADV_DONTNEED on @fd).
 *
 * Returns: %TRUE on success
 */
gboolean
rp_helper_client_evict_file (RpHelperClient  *self,
                             int              fd,
                             GError         **error)
{
  g_autoptr(GUnixFDList) fds = g_unix_fd_list_new ();
  g_autoptr(GVariant) reply = NULL;
  int index = g_unix_fd_list_append (fds, fd, error);

  if (index < 0)
    return FALSE;
  reply = call (self, "EvictFile", g_variant_new ("(h)", index), "()", TRUE, fds, NULL, error);
  return reply != NULL;
}
