/* rp-cli-http.c: the monitor's connections, accepted and timed out here, served by libsoup. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <string.h>
#include <sys/resource.h>

#include "rp-cli-http.h"

/* libsoup 3.2's own listener never let a connection go: a client that
 * closed after a 404 or 405 stayed in CLOSE-WAIT for good (a descriptor
 * each), a client that sent half a request was waited for for ever, and
 * under `prlimit --nofile=400` 150 POSTs left the monitor deaf for good
 * (issue 33). So the monitor accepts its connections itself and hands
 * each to libsoup (soup_server_accept_iostream()); a server without a
 * listener of its own closes every connection after its reply, and this
 * file closes every connection that has not finished within a deadline,
 * and the oldest when there are too many, so that /metrics still answers
 * whatever the clients do. */

/* Seconds a connection has for its request and the reply: a scrape on
 * loopback takes a millisecond, Prometheus gives up after 10 s (its default
 * scrape_timeout); a client that sends a byte now and then is closed all
 * the same. Also the socket's inactivity timeout (g_socket_set_timeout()). */
#define DEADLINE_SECONDS 10
/* How often the connections are looked at while there are any. */
#define SWEEP_SECONDS    1
/* A quarter of the descriptors this process may open go to clients, at most
 * 64 (Prometheus keeps one; a person a few), at least 8: the sessions'
 * files, /proc readers and trace buffers need the rest (about 20 a folder).
 * With LimitNOFILE=256, 64. */
#define MIN_CLIENTS      8
#define MAX_CLIENTS      64
/* accept() failed (EMFILE, ENFILE, ENOBUFS): the listening socket stays
 * readable, so accepting again at once would spin; this long a pause. */
#define PAUSE_MS         100
/* Connections taken in one wake-up, so that a flood of them never holds
 * the main loop (the harvests, the period's end) for long. */
#define ACCEPTS_PER_WAKE 32

typedef struct {
  GSocketConnection *connection;
  GSocketAddress    *remote;    /* the very object libsoup's messages give back */
  gint64             accepted;  /* g_get_monotonic_time(), µs */
  gboolean           shut;      /* shut down: libsoup closes it on its next read or write */
} Client;

struct _RpCliHttp
{
  SoupServer *server;
  GSocket    *listener;
  GSource    *accept_source;
  guint       resume_id;
  guint       sweep_id;
  GQueue      clients;          /* Client, oldest first */
  guint       max_clients;
};

static void
client_free (Client *client)
{
  g_object_unref (client->connection);
  g_object_unref (client->remote);
  g_free (client);
}

/* Ends @client's connection the way libsoup notices: its pending read
 * returns end-of-file (its write EPIPE), and it closes the stream itself.
 * Closing the descriptor under libsoup's poll source would let a new
 * connection reuse its number. */
static void
shut (Client *client)
{
  GSocket *socket = g_socket_connection_get_socket (client->connection);

  if (client->shut)
    return;
  client->shut = TRUE;
  g_socket_shutdown (socket, TRUE, TRUE, NULL);
}

/* Forgets the connections libsoup (or a reply of ours) closed; shuts those
 * past their deadline. Returns how many are still open. */
static guint
sweep (RpCliHttp *self)
{
  gint64 now = g_get_monotonic_time ();
  GList *l = self->clients.head;

  while (l != NULL)
    {
      GList *next = l->next;
      Client *client = l->data;

      if (g_io_stream_is_closed (G_IO_STREAM (client->connection)))
        {
          client_free (client);
          g_queue_delete_link (&self->clients, l);
        }
      else if (now - client->accepted >= DEADLINE_SECONDS * G_USEC_PER_SEC)
        shut (client);
      l = next;
    }
  return self->clients.length;
}

static gboolean
on_sweep (gpointer data)
{
  RpCliHttp *self = data;

  if (sweep (self) > 0)
    return G_SOURCE_CONTINUE;
  /* No wake-ups while nobody is connected: a monitor runs for months. */
  self->sweep_id = 0;
  return G_SOURCE_REMOVE;
}

/* Room for one more: the oldest connection not yet shut goes. Prometheus
 * connects, asks and reads within a millisecond, so the oldest is a
 * client that holds a connection without finishing its request. */
static void
make_room (RpCliHttp *self)
{
  guint open = sweep (self);

  for (GList *l = self->clients.head; l != NULL && open >= self->max_clients; l = l->next)
    {
      Client *client = l->data;

      if (!client->shut)
        {
          shut (client);
          open--;
        }
    }
}

/* The client of a message: libsoup keeps the remote address it was given
 * (it has no GSocket for a stream handed to it). */
static Client *
find_client (RpCliHttp      *self,
             GSocketAddress *remote)
{
  for (GList *l = self->clients.head; l != NULL; l = l->next)
    {
      Client *client = l->data;

      if (client->remote == remote)
        return client;
    }
  return NULL;
}

static void
take (RpCliHttp *self,
      GSocket   *socket)
{
  g_autoptr(GSocketAddress) local = g_socket_get_local_address (socket, NULL);
  g_autoptr(GSocketAddress) remote = g_socket_get_remote_address (socket, NULL);
  Client *client;

  /* Reset before it was taken: nothing to serve (libsoup needs both). */
  if (local == NULL || remote == NULL)
    {
      g_socket_close (socket, NULL);
      return;
    }
  make_room (self);
  g_socket_set_timeout (socket, DEADLINE_SECONDS);
  client = g_new0 (Client, 1);
  client->connection = g_socket_connection_factory_create_connection (socket);
  client->remote = g_object_ref (remote);
  client->accepted = g_get_monotonic_time ();
  g_queue_push_tail (&self->clients, client);
  soup_server_accept_iostream (self->server, G_IO_STREAM (client->connection), local, remote, NULL);
  if (self->sweep_id == 0)
    self->sweep_id = g_timeout_add_seconds (SWEEP_SECONDS, on_sweep, self);
}

static gboolean on_incoming (GSocket *listener, GIOCondition condition, gpointer data);

static void
watch_listener (RpCliHttp *self)
{
  self->accept_source = g_socket_create_source (self->listener, G_IO_IN, NULL);
  g_source_set_callback (self->accept_source, G_SOURCE_FUNC (on_incoming), self, NULL);
  g_source_attach (self->accept_source, NULL);
}

static gboolean
on_resume (gpointer data)
{
  RpCliHttp *self = data;

  self->resume_id = 0;
  watch_listener (self);
  return G_SOURCE_REMOVE;
}

static gboolean
on_incoming (GSocket      *listener,
             GIOCondition  condition,
             gpointer      data)
{
  RpCliHttp *self = data;

  for (guint i = 0; i < ACCEPTS_PER_WAKE; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GSocket) socket = g_socket_accept (listener, NULL, &error);

      if (socket != NULL)
        {
          take (self, socket);
          continue;
        }
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
        return G_SOURCE_CONTINUE;
      /* Out of descriptors (or kernel memory): a client gives one back,
       * and accepting waits a moment instead of spinning. */
      g_debug ("monitor: accept: %s", error->message);
      if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_TOO_MANY_OPEN_FILES) && self->clients.head != NULL)
        shut (self->clients.head->data);
      g_clear_pointer (&self->accept_source, g_source_unref);
      self->resume_id = g_timeout_add (PAUSE_MS, on_resume, self);
      return G_SOURCE_REMOVE;
    }
  return G_SOURCE_CONTINUE;
}

/* "Content-Length: -5" reached libsoup 3.2's body stream as a length of
 * -5, which GObject refused with a warning on stderr; any value not a
 * plain decimal length is refused here, before libsoup reads a body. A
 * repeated header is one value with commas: refused too. */
static gboolean
content_length_is_valid (SoupMessageHeaders *headers)
{
  const char *values = soup_message_headers_get_list (headers, "Content-Length");
  gsize length;

  if (values == NULL)
    return TRUE;
  length = strlen (values);
  if (length == 0 || length > 18)
    return FALSE;
  for (gsize i = 0; i < length; i++)
    if (!g_ascii_isdigit (values[i]))
      return FALSE;
  return TRUE;
}

/* A request that libsoup cannot take safely: the connection taken from it
 * (soup_server_message_steal_connection(), which ends libsoup's part in it
 * and its poll source), a 400 reply and the end. */
static void
on_got_headers (SoupServerMessage *message,
                gpointer           data)
{
  static const char reply[] = "HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n";
  RpCliHttp *self = data;
  Client *client;
  g_autoptr(GIOStream) stolen = NULL;

  if (content_length_is_valid (soup_server_message_get_request_headers (message)))
    return;
  client = find_client (self, soup_server_message_get_remote_address (message));
  stolen = soup_server_message_steal_connection (message);
  if (client == NULL)
    return;
  /* A few bytes into an empty send buffer; a client that does not read
   * them loses them. */
  g_socket_send_with_blocking (g_socket_connection_get_socket (client->connection), reply,
                               sizeof reply - 1, FALSE, NULL, NULL);
  g_io_stream_close (G_IO_STREAM (client->connection), NULL, NULL);
}

/* Every reply says the connection ends with it (libsoup ends it: the
 * server has no listener of its own). */
static void
on_request_started (SoupServer        *server,
                    SoupServerMessage *message,
                    gpointer           data)
{
  soup_message_headers_replace (soup_server_message_get_response_headers (message), "Connection", "close");
  g_signal_connect (message, "got-headers", G_CALLBACK (on_got_headers), data);
}

static guint
max_clients_for_limit (void)
{
  struct rlimit limit;

  if (getrlimit (RLIMIT_NOFILE, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY)
    return MAX_CLIENTS;
  return (guint) CLAMP (limit.rlim_cur / 4, MIN_CLIENTS, MAX_CLIENTS);
}

/**
 * rp_cli_http_new:
 * @server: a #SoupServer with its handlers and no listener of its own
 * @address: where to listen (the monitor's --listen)
 * @error: a #GIOError of binding or listening (G_IO_ERROR_ADDRESS_IN_USE)
 *
 * Listens on @address and hands every connection to @server, which
 * closes it after its reply. A connection is closed that has not finished
 * within %DEADLINE_SECONDS (10 s) of its start, or is silent that long,
 * and the oldest when more than a quarter of the process's descriptor
 * limit (8 to 64) are open; a request whose Content-Length is not a
 * decimal number gets a 400 here. Works on the thread-default main context.
 *
 * Returns: (transfer full) (nullable): the listener, or %NULL with @error set
 */
RpCliHttp *
rp_cli_http_new (SoupServer     *server,
                 GSocketAddress *address,
                 GError        **error)
{
  g_autoptr(RpCliHttp) self = g_new0 (RpCliHttp, 1);

  g_return_val_if_fail (SOUP_IS_SERVER (server), NULL);
  g_return_val_if_fail (G_IS_SOCKET_ADDRESS (address), NULL);

  self->server = g_object_ref (server);
  self->max_clients = max_clients_for_limit ();
  g_queue_init (&self->clients);
  self->listener = g_socket_new (g_socket_address_get_family (address), G_SOCKET_TYPE_STREAM,
                                 G_SOCKET_PROTOCOL_DEFAULT, error);
  if (self->listener == NULL ||
      !g_socket_bind (self->listener, address, TRUE, error) ||
      !g_socket_listen (self->listener, error))
    return NULL;
  g_socket_set_blocking (self->listener, FALSE);
  g_signal_connect (server, "request-started", G_CALLBACK (on_request_started), self);
  watch_listener (self);
  return g_steal_pointer (&self);
}

/**
 * rp_cli_http_get_max_clients:
 *
 * Returns: how many connections may be open at once before the oldest is closed
 */
guint
rp_cli_http_get_max_clients (RpCliHttp *self)
{
  g_return_val_if_fail (self != NULL, 0);
  return self->max_clients;
}

/**
 * rp_cli_http_free:
 *
 * Stops listening and closes every connection.
 */
void
rp_cli_http_free (RpCliHttp *self)
{
  if (self == NULL)
    return;
  if (self->server != NULL)
    {
      g_signal_handlers_disconnect_by_data (self->server, self);
      soup_server_disconnect (self->server);
    }
  if (self->accept_source != NULL)
    g_source_destroy (self->accept_source);
  g_clear_pointer (&self->accept_source, g_source_unref);
  g_clear_handle_id (&self->resume_id, g_source_remove);
  g_clear_handle_id (&self->sweep_id, g_source_remove);
  /* soup_server_disconnect() closed what libsoup held; what is left is ours. */
  g_queue_clear_full (&self->clients, (GDestroyNotify) client_free);
  if (self->listener != NULL)
    g_socket_close (self->listener, NULL);
  g_clear_object (&self->listener);
  g_clear_object (&self->server);
  g_free (self);
}
