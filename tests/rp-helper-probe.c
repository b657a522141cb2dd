/* rp-helper-probe.c: calls resprobed as a test would, with good and bad arguments (tests/test-helper.sh). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <fcntl.h>
#include <gio/gunixfdlist.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

/* Usage: rp-helper-probe bad-args FOLDER FILE | fuzz N FOLDER FILE | hold FOLDER
 *
 * bad-args prints one TAP line per case ("ok - …" / "not ok - …", no
 * numbers: the script numbers them): each call must be refused with the
 * error named, and the helper must still answer afterwards.
 * fuzz makes N calls of random methods with random arguments (the valid
 * ones too) on several connections, some closed mid-call, and prints how
 * many were answered, refused and succeeded.
 * hold opens a trace, takes its buffers, prints "held INSTANCE N PID" and sleeps
 * until killed (the test kills it with SIGKILL). */

#define NAME  "io.github.resprobe.Helper1"
#define PATH  "/io/github/resprobe/Helper1"
#define IFACE "io.github.resprobe.Helper1"

static GDBusConnection *
connect_bus (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SYSTEM, NULL, &error);
  GDBusConnection *bus = address != NULL ?
    g_dbus_connection_new_for_address_sync (address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                            G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION, NULL, NULL, &error) : NULL;

  if (bus == NULL)
    {
      g_printerr ("rp-helper-probe: no system bus: %s\n", error->message);
      exit (2);
    }
  return bus;
}

/* Calls METHOD with PARAMETERS (floating, may be NULL) and FDS (may be
 * NULL); returns the reply or NULL with @error. */
static GVariant *
call (GDBusConnection  *bus,
      const char       *method,
      GVariant         *parameters,
      GUnixFDList      *fds,
      GUnixFDList     **out_fds,
      GError          **error)
{
  return g_dbus_connection_call_with_unix_fd_list_sync (bus, NAME, PATH, IFACE, method, parameters, NULL,
                                                        G_DBUS_CALL_FLAGS_NO_AUTO_START, 30000, fds, out_fds,
                                                        NULL, error);
}

static GUnixFDList *
fd_list_of (int fd)
{
  GUnixFDList *list = g_unix_fd_list_new ();

  g_unix_fd_list_append (list, fd, NULL);
  return list;
}

static guint failures;

static void
expect_refused (GDBusConnection *bus,
                const char      *what,
                const char      *method,
                GVariant        *parameters,
                GUnixFDList     *fds,
                GQuark           domain,
                int              code)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = call (bus, method, parameters, fds, NULL, &error);
  gboolean refused = reply == NULL && g_error_matches (error, domain, code);

  if (!refused)
    failures++;
  g_print ("%s - %s: %s\n", refused ? "ok" : "not ok", what,
           reply != NULL ? "accepted" : error->message);
}

/* Opens a trace of FOLDER: the handle, or 0. */
static guint32
open_trace (GDBusConnection *bus,
            const char      *folder,
            guint           *out_n_cpus,
            char           **out_instance)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GUnixFDList) fds = fd_list_of (open (folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  g_autoptr(GVariant) reply = call (bus, "OpenTrace", g_variant_new ("(h)", 0), fds, NULL, &error);
  g_autoptr(GVariant) info = NULL;
  guint32 handle;

  if (reply == NULL)
    {
      g_printerr ("OpenTrace: %s\n", error->message);
      return 0;
    }
  g_variant_get (reply, "(uu*@a{ss})", &handle, out_n_cpus, NULL, &info);
  if (out_instance != NULL && !g_variant_lookup (info, "instance", "s", out_instance))
    *out_instance = NULL;
  return handle;
}

static int
bad_args (const char *folder,
          const char *file)
{
  g_autoptr(GDBusConnection) bus = connect_bus ();
  g_autoptr(GDBusConnection) other = connect_bus ();
  GQuark dbus = G_DBUS_ERROR;
  int pipe_fds[2], dir_fd = open (folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int file_fd = open (file, O_RDONLY | O_CLOEXEC);
  guint n_cpus = 0;
  g_autofree char *instance = NULL;
  guint32 handle;

  g_assert_true (pipe (pipe_fds) == 0);
  /* Wrong types: GDBus checks the signature against the introspection. */
  expect_refused (bus, "OpenTrace with a string", "OpenTrace", g_variant_new ("(s)", "/etc"), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "OpenTrace without arguments", "OpenTrace", NULL, NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "GetBuffers with a string", "GetBuffers", g_variant_new ("(s)", "x"), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "DropPageCache with an argument", "DropPageCache", g_variant_new ("(u)", 1), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "EvictFile with a path", "EvictFile", g_variant_new ("(s)", "/etc/shadow"), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "an unknown method", "RunCommand", g_variant_new ("(s)", "id"), NULL,
                  dbus, G_DBUS_ERROR_UNKNOWN_METHOD);
  /* Descriptors that are missing or of the wrong kind. */
  expect_refused (bus, "OpenTrace with no descriptor sent", "OpenTrace", g_variant_new ("(h)", 0), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "OpenTrace with an index past the list", "OpenTrace", g_variant_new ("(h)", 7),
                  fd_list_of (dir_fd), dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "OpenTrace with a negative index", "OpenTrace", g_variant_new ("(h)", -1),
                  fd_list_of (dir_fd), dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "OpenTrace with a file, not a folder", "OpenTrace", g_variant_new ("(h)", 0),
                  fd_list_of (file_fd), dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "OpenTrace with a pipe", "OpenTrace", g_variant_new ("(h)", 0),
                  fd_list_of (pipe_fds[0]), dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "EvictFile with a folder", "EvictFile", g_variant_new ("(h)", 0),
                  fd_list_of (dir_fd), dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "EvictFile with a pipe", "EvictFile", g_variant_new ("(h)", 0),
                  fd_list_of (pipe_fds[1]), dbus, G_DBUS_ERROR_INVALID_ARGS);
  /* Handles that are not the caller's. */
  expect_refused (bus, "GetBuffers of no trace", "GetBuffers", g_variant_new ("(uuu)", 0, 0, 1), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "StopTrace of a huge handle", "StopTrace", g_variant_new ("(u)", G_MAXUINT32), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "CloseTrace of no trace", "CloseTrace", g_variant_new ("(u)", 12345), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);

  handle = open_trace (bus, folder, &n_cpus, &instance);
  if (handle == 0)
    {
      g_print ("not ok - OpenTrace of %s, authorized, failed\n", folder);
      return 1;
    }
  g_print ("ok - OpenTrace of %s: handle %u, %u CPUs, instance %s\n", folder, handle, n_cpus, instance);
  expect_refused (other, "GetBuffers of another connection's trace", "GetBuffers",
                  g_variant_new ("(uuu)", handle, 0, 1), NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (other, "StopTrace of another connection's trace", "StopTrace",
                  g_variant_new ("(u)", handle), NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (other, "CloseTrace of another connection's trace", "CloseTrace",
                  g_variant_new ("(u)", handle), NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "GetBuffers past the last CPU", "GetBuffers", g_variant_new ("(uuu)", handle, n_cpus, 1),
                  NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "GetBuffers of a huge count", "GetBuffers",
                  g_variant_new ("(uuu)", handle, 1, G_MAXUINT32), NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "GetBuffers of 17 CPUs in one call", "GetBuffers", g_variant_new ("(uuu)", handle, 0, 17),
                  NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  expect_refused (bus, "GetBuffers of no CPU", "GetBuffers", g_variant_new ("(uuu)", handle, 0, 0),
                  NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GUnixFDList) buffers = NULL;
    g_autoptr(GVariant) reply = call (bus, "GetBuffers", g_variant_new ("(uuu)", handle, 0, 1), NULL, &buffers,
                                      &error);
    gboolean got = reply != NULL && buffers != NULL && g_unix_fd_list_get_length (buffers) == 1;

    failures += !got;
    g_print ("%s - GetBuffers of CPU 0 of its own trace: %s\n", got ? "ok" : "not ok",
             got ? "one descriptor" : error != NULL ? error->message : "no descriptor");
  }
  expect_refused (bus, "GetBuffers of CPU 0 a second time", "GetBuffers", g_variant_new ("(uuu)", handle, 0, 1),
                  NULL, dbus, G_DBUS_ERROR_INVALID_ARGS);
  {
    guint32 second = open_trace (bus, folder, &n_cpus, NULL);

    expect_refused (bus, "a third trace of one caller", "OpenTrace", g_variant_new ("(h)", 0),
                    fd_list_of (dir_fd), dbus, G_DBUS_ERROR_LIMITS_EXCEEDED);
    if (second != 0)
      g_variant_unref (call (bus, "CloseTrace", g_variant_new ("(u)", second), NULL, NULL, NULL));
  }
  /* Its own trace, closed: accepted, and the handle then unknown. */
  {
    g_autoptr(GError) error = NULL;
    g_autoptr(GVariant) reply = call (bus, "CloseTrace", g_variant_new ("(u)", handle), NULL, NULL, &error);

    failures += reply == NULL;
    g_print ("%s - CloseTrace of its own trace%s%s\n", reply != NULL ? "ok" : "not ok",
             error != NULL ? ": " : "", error != NULL ? error->message : "");
  }
  expect_refused (bus, "StopTrace of a closed trace", "StopTrace", g_variant_new ("(u)", handle), NULL,
                  dbus, G_DBUS_ERROR_INVALID_ARGS);
  g_print ("# instance %s\n", instance);
  return failures > 0;
}

static GVariant *
random_parameters (GRand       *rand,
                   const char  *method,
                   GUnixFDList *fds,
                   int          dir_fd,
                   int          file_fd,
                   guint32      handle)
{
  /* Mostly well-typed with random values; now and then a wrong type. */
  guint32 values[3];

  for (guint i = 0; i < 3; i++)
    {
      static const guint32 interesting[] = { 0, 1, 15, 16, 17, 255, 0x7fffffff, 0x80000000, 0xffffffff };
      values[i] = g_rand_boolean (rand) ? interesting[g_rand_int_range (rand, 0, G_N_ELEMENTS (interesting))]
                                        : g_rand_int (rand);
    }
  if (handle != 0 && g_rand_boolean (rand))
    values[0] = handle;
  if (g_rand_int_range (rand, 0, 8) == 0)
    return g_variant_new ("(s)", "../../../etc/shadow");
  if (g_str_equal (method, "OpenTrace") || g_str_equal (method, "EvictFile"))
    {
      int which = g_rand_int_range (rand, 0, 3);

      if (which < 2)
        g_unix_fd_list_append (fds, which == 0 ? dir_fd : file_fd, NULL);
      return g_variant_new ("(h)", g_rand_boolean (rand) ? 0 : (gint32) values[1]);
    }
  if (g_str_equal (method, "GetBuffers"))
    return g_variant_new ("(uuu)", values[0], values[1] % 64, values[2] % 20);
  if (g_str_equal (method, "StopTrace") || g_str_equal (method, "CloseTrace"))
    return g_variant_new ("(u)", values[0]);
  return NULL;
}

static int
fuzz (guint       n,
      const char *folder,
      const char *file)
{
  static const char *const methods[] = { "OpenTrace", "GetBuffers", "StopTrace", "CloseTrace", "EvictFile",
                                         "DropPageCache", "Nothing" };
  g_autoptr(GRand) rand = g_rand_new_with_seed (34);
  GDBusConnection *bus = connect_bus ();
  int dir_fd = open (folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  int file_fd = open (file, O_RDONLY | O_CLOEXEC);
  guint answered = 0, refused = 0, succeeded = 0, connections = 1;
  guint32 handle = 0;

  for (guint i = 0; i < n; i++)
    {
      const char *method = methods[g_rand_int_range (rand, 0, G_N_ELEMENTS (methods))];
      g_autoptr(GUnixFDList) fds = g_unix_fd_list_new ();
      g_autoptr(GUnixFDList) out_fds = NULL;
      g_autoptr(GError) error = NULL;
      g_autoptr(GVariant) reply = NULL;

      /* DropPageCache would empty a shared machine's cache: the script
       * calls it once, the fuzzer with wrong arguments only. */
      if (g_str_equal (method, "DropPageCache"))
        {
          reply = call (bus, method, g_variant_new ("(u)", g_rand_int (rand)), NULL, NULL, &error);
          answered += reply != NULL || !g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY);
          refused += reply == NULL;
          g_clear_pointer (&reply, g_variant_unref);
          g_clear_error (&error);
          continue;
        }
      reply = call (bus, method, random_parameters (rand, method, fds, dir_fd, file_fd, handle), fds, &out_fds,
                    &error);
      answered += reply != NULL || !g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY);
      if (reply != NULL)
        {
          succeeded++;
          if (g_str_equal (method, "OpenTrace"))
            g_variant_get (reply, "(u*@a{ss}@a{ss})", &handle, NULL, NULL, NULL);
        }
      else
        refused++;
      /* Descriptors got are dropped at once (the list closes them). */
      if (g_rand_int_range (rand, 0, 25) == 0)
        {
          /* A caller that goes away with whatever it holds. */
          g_dbus_connection_close_sync (bus, NULL, NULL);
          g_object_unref (bus);
          bus = connect_bus ();
          connections++;
          handle = 0;
        }
    }
  g_print ("calls %u answered %u refused %u succeeded %u connections %u\n", n, answered, refused, succeeded,
           connections);
  g_dbus_connection_close_sync (bus, NULL, NULL);
  g_object_unref (bus);
  return answered == n ? 0 : 1;
}

static int
hold (const char *folder)
{
  g_autoptr(GDBusConnection) bus = connect_bus ();
  g_autoptr(GUnixFDList) buffers = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autofree char *instance = NULL;
  guint n_cpus = 0;
  guint32 handle = open_trace (bus, folder, &n_cpus, &instance);

  if (handle == 0)
    return 1;
  reply = call (bus, "GetBuffers", g_variant_new ("(uuu)", handle, 0, MIN (n_cpus, 16)), NULL, &buffers, NULL);
  g_print ("held %s %d %d\n", instance, buffers != NULL ? g_unix_fd_list_get_length (buffers) : 0, (int) getpid ());
  for (;;)
    pause ();
}

int
main (int    argc,
      char **argv)
{
  if (argc == 4 && g_str_equal (argv[1], "bad-args"))
    return bad_args (argv[2], argv[3]);
  if (argc == 5 && g_str_equal (argv[1], "fuzz"))
    return fuzz ((guint) g_ascii_strtoull (argv[2], NULL, 10), argv[3], argv[4]);
  if (argc == 3 && g_str_equal (argv[1], "hold"))
    return hold (argv[2]);
  g_printerr ("Usage: rp-helper-probe bad-args FOLDER FILE | fuzz N FOLDER FILE | hold FOLDER\n");
  return 2;
}
