/* rp-command-scope.c: every process a command load starts, found and stopped at the end. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rp-command-scope.h"

/* A command's process group is not a fence: a daemon, `setsid`, a double fork
 * leaves it, and such a process would outlive the run and go on writing into
 * the target folder. Where it can, the command runs in a cgroup (v2) of its
 * own, below the one this process is in (root, or a delegated subtree such as
 * a desktop session's user@.service): no process leaves a cgroup without
 * privileges, and `cgroup.kill` ends all of them at once. Where it cannot (no
 * cgroup2 mount, or no write access to our cgroup), every process of the
 * command inherits an environment variable with a token of this run, and the
 * processes that have it are found in /proc: only a program that empties its
 * environment escapes that. */

/* The variable every process of the command inherits (documented in README). */
#define SCOPE_VARIABLE "RESPROBE_COMMAND_SCOPE"

/* How long the end waits for killed processes to leave the cgroup (a process
 * in uninterruptible sleep, e.g. writeback, dies when its call returns). */
#define EMPTY_WAIT_US (10 * G_USEC_PER_SEC)

struct _RpCommandScope {
  char  *token;
  char **envp;
  char  *cgroup_dir;    /* NULL: found by environment only */
  int    procs_fd;      /* cgroup.procs of cgroup_dir, opened before fork() */
};

/* The cgroup2 mount point, from /proc/self/mountinfo ("… MOUNTPOINT … - cgroup2 …"). */
static char *
find_cgroup2_mount (void)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/mountinfo", &contents, NULL, NULL))
    return NULL;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (lines[i], " ", -1);
      guint n = g_strv_length (fields);

      for (guint j = 6; j + 1 < n; j++)
        if (strcmp (fields[j], "-") == 0)
          {
            /* Only a mount of the hierarchy's root shows every cgroup's path. */
            if (strcmp (fields[j + 1], "cgroup2") == 0 && strcmp (fields[3], "/") == 0)
              return g_strcompress (fields[4]);
            break;
          }
    }
  return NULL;
}

/* Our own cgroup2 path, from the "0::PATH" line of /proc/self/cgroup. */
static char *
find_own_cgroup (void)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents ("/proc/self/cgroup", &contents, NULL, NULL))
    return NULL;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "0::/"))
      return g_strdup (lines[i] + 3);
  return NULL;
}

/* Removes the empty cgroups that runs killed with SIGKILL left in @parent
 * (nothing else removes a cgroup v2): "resprobe-command-PID-…" whose PID is
 * gone. A PID in use again keeps its cgroup until a later run; one with
 * processes in it is never removed (rmdir refuses). */
static void
remove_stale_cgroups (const char *parent)
{
  g_autoptr(GDir) dir = g_dir_open (parent, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *path = NULL;
      gint64 pid;

      if (!g_str_has_prefix (name, "resprobe-command-"))
        continue;
      pid = g_ascii_strtoll (name + strlen ("resprobe-command-"), NULL, 10);
      if (pid <= 1 || kill ((pid_t) pid, 0) == 0 || errno != ESRCH)
        continue;
      path = g_build_filename (parent, name, NULL);
      rmdir (path);
    }
}

static void
try_make_cgroup (RpCommandScope *scope)
{
  g_autofree char *mount = find_cgroup2_mount ();
  g_autofree char *own = find_own_cgroup ();
  g_autofree char *parent = NULL;
  g_autofree char *name = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *procs = NULL;

  if (mount == NULL || own == NULL)
    return;
  parent = g_build_filename (mount, own, NULL);
  remove_stale_cgroups (parent);
  name = g_strdup_printf ("resprobe-command-%s", scope->token);
  dir = g_build_filename (parent, name, NULL);
  if (mkdir (dir, 0755) != 0)
    return;
  procs = g_build_filename (dir, "cgroup.procs", NULL);
  scope->procs_fd = open (procs, O_WRONLY | O_CLOEXEC);
  if (scope->procs_fd < 0)
    {
      rmdir (dir);
      return;
    }
  scope->cgroup_dir = g_steal_pointer (&dir);
}

/**
 * rp_command_scope_new:
 *
 * Prepares a scope for one command: a token, the environment that carries it,
 * and, where allowed, an empty cgroup (v2) beside this process's own.
 *
 * Returns: (transfer full): the scope; free with rp_command_scope_free(),
 *   which kills what is left in it and removes the cgroup
 */
RpCommandScope *
rp_command_scope_new (void)
{
  static gint counter;
  RpCommandScope *scope = g_new0 (RpCommandScope, 1);

  scope->procs_fd = -1;
  scope->token = g_strdup_printf ("%d-%d-%" G_GINT64_FORMAT, (int) getpid (),
                                  g_atomic_int_add (&counter, 1), g_get_monotonic_time ());
  scope->envp = g_environ_setenv (g_get_environ (), SCOPE_VARIABLE, scope->token, TRUE);
  try_make_cgroup (scope);
  return scope;
}

/**
 * rp_command_scope_get_kind:
 * @scope: a scope
 *
 * Returns: %RP_COMMAND_SCOPE_CGROUP or %RP_COMMAND_SCOPE_ENVIRONMENT: what
 *   finds the command's processes
 */
const char *
rp_command_scope_get_kind (RpCommandScope *scope)
{
  g_return_val_if_fail (scope != NULL, NULL);
  return scope->cgroup_dir != NULL ? RP_COMMAND_SCOPE_CGROUP : RP_COMMAND_SCOPE_ENVIRONMENT;
}

/**
 * rp_command_scope_get_envp:
 * @scope: a scope
 *
 * Returns: (transfer none) (array zero-terminated=1): the environment to run
 *   the command with: ours, and `RESPROBE_COMMAND_SCOPE=TOKEN`
 */
char **
rp_command_scope_get_envp (RpCommandScope *scope)
{
  g_return_val_if_fail (scope != NULL, NULL);
  return scope->envp;
}

/**
 * rp_command_scope_enter:
 * @scope: a scope
 *
 * Moves the calling process into the scope's cgroup, if it has one. Called
 * in the child between fork() and exec(): async-signal-safe (one write()
 * to a file opened beforehand). A failure leaves the child where it was; the
 * environment still finds it.
 */
void
rp_command_scope_enter (RpCommandScope *scope)
{
  if (scope->procs_fd >= 0 && write (scope->procs_fd, "0", 1) != 1)
    return;
}

/* Whether /proc/PID/environ holds our SCOPE_VARIABLE=TOKEN. */
static gboolean
has_token (const char     *pid,
           RpCommandScope *scope)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/environ", pid);
  g_autofree char *wanted = g_strdup_printf (SCOPE_VARIABLE "=%s", scope->token);
  g_autofree char *contents = NULL;
  gsize length, wanted_length = strlen (wanted);

  if (!g_file_get_contents (path, &contents, &length, NULL))
    return FALSE;
  for (gsize at = 0; at < length; at += strlen (contents + at) + 1)
    if (strncmp (contents + at, wanted, wanted_length + 1) == 0)
      return TRUE;
  return FALSE;
}

/**
 * rp_command_scope_owns_pid:
 * @pid: a process or thread id, e.g. the pid a kernel event carries
 *
 * Whether @pid belongs to a command that this process started (any of its
 * scopes, so any command of the run): it is in a cgroup
 * "resprobe-command-OURPID-…", or carries RESPROBE_COMMAND_SCOPE=OURPID-…
 * (scope tokens begin with our pid). Reads /proc/PID/cgroup and
 * /proc/PID/environ (the latter needs the same user or root, as kernel
 * events do); a task already gone is not found.
 *
 * Returns: %TRUE for a process of one of this run's commands
 */
gboolean
rp_command_scope_owns_pid (pid_t pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/cgroup", (int) pid);
  g_autofree char *cgroup_name = g_strdup_printf ("/resprobe-command-%d-", (int) getpid ());
  g_autofree char *contents = NULL;
  g_autofree char *wanted = NULL;
  gsize length, wanted_length;

  /* A cgroup holds even a process that emptied its environment. */
  if (g_file_get_contents (path, &contents, NULL, NULL) && strstr (contents, cgroup_name) != NULL)
    return TRUE;
  g_clear_pointer (&contents, g_free);
  g_free (path);
  path = g_strdup_printf ("/proc/%d/environ", (int) pid);
  if (!g_file_get_contents (path, &contents, &length, NULL))
    return FALSE;
  wanted = g_strdup_printf (SCOPE_VARIABLE "=%d-", (int) getpid ());
  wanted_length = strlen (wanted);
  for (gsize at = 0; at < length; at += strlen (contents + at) + 1)
    if (strncmp (contents + at, wanted, wanted_length) == 0)
      return TRUE;
  return FALSE;
}

/* The process group of a live process, or -1 if it is gone or a zombie. */
static pid_t
live_pgid (const char *pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%s/stat", pid);
  g_autofree char *contents = NULL;
  const char *end;
  char state;
  int ppid, pgrp;

  /* The command name may hold spaces and ')': fields follow its last ')'. */
  if (!g_file_get_contents (path, &contents, NULL, NULL) ||
      (end = strrchr (contents, ')')) == NULL ||
      sscanf (end + 1, " %c %d %d", &state, &ppid, &pgrp) != 3 ||
      state == 'Z' || state == 'X')
    return -1;
  return pgrp;
}

/* The pids of the scope's processes, as strings: the cgroup's members, or
 * the processes that carry the token. */
static GPtrArray *
list_members (RpCommandScope *scope)
{
  GPtrArray *pids = g_ptr_array_new_with_free_func (g_free);

  if (scope->cgroup_dir != NULL)
    {
      g_autofree char *path = g_build_filename (scope->cgroup_dir, "cgroup.procs", NULL);
      g_autofree char *contents = NULL;
      g_auto(GStrv) lines = NULL;

      if (g_file_get_contents (path, &contents, NULL, NULL))
        {
          lines = g_strsplit (contents, "\n", -1);
          for (guint i = 0; lines[i] != NULL; i++)
            if (*lines[i] != '\0')
              g_ptr_array_add (pids, g_strdup (lines[i]));
        }
    }
  else
    {
      g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
      const char *name;

      while (proc != NULL && (name = g_dir_read_name (proc)) != NULL)
        if (g_ascii_isdigit (name[0]) && has_token (name, scope))
          g_ptr_array_add (pids, g_strdup (name));
    }
  return pids;
}

/**
 * rp_command_scope_is_alive:
 * @scope: a scope
 *
 * Returns: whether a process of the command is still running (zombies, which
 *   only wait to be reaped, do not count)
 */
gboolean
rp_command_scope_is_alive (RpCommandScope *scope)
{
  g_autoptr(GPtrArray) pids = NULL;

  g_return_val_if_fail (scope != NULL, FALSE);
  pids = list_members (scope);
  for (guint i = 0; i < pids->len; i++)
    if (live_pgid (pids->pdata[i]) >= 0)
      return TRUE;
  return FALSE;
}

/**
 * rp_command_scope_confirm:
 * @scope: a scope
 * @pid: the command's first process, started with rp_command_scope_enter()
 *
 * Checks that @pid made it into the cgroup; if it did not (the write was
 * refused), the cgroup is given up and the environment finds the command's
 * processes instead.
 */
void
rp_command_scope_confirm (RpCommandScope *scope,
                          pid_t           pid)
{
  g_autoptr(GPtrArray) pids = NULL;
  g_autofree char *wanted = g_strdup_printf ("%d", (int) pid);

  g_return_if_fail (scope != NULL);
  if (scope->cgroup_dir == NULL)
    return;
  pids = list_members (scope);
  for (guint i = 0; i < pids->len; i++)
    if (strcmp (pids->pdata[i], wanted) == 0)
      return;
  close (scope->procs_fd);
  scope->procs_fd = -1;
  rmdir (scope->cgroup_dir);
  g_clear_pointer (&scope->cgroup_dir, g_free);
}

/**
 * rp_command_scope_count_escaped:
 * @scope: a scope
 * @pgid: the command's process group (its first process's pid)
 *
 * Returns: how many running processes of the command are outside @pgid
 *   (`setsid`, daemons): those that signals to the group would miss
 */
guint
rp_command_scope_count_escaped (RpCommandScope *scope,
                                pid_t           pgid)
{
  g_autoptr(GPtrArray) pids = NULL;
  guint count = 0;

  g_return_val_if_fail (scope != NULL, 0);
  pids = list_members (scope);
  for (guint i = 0; i < pids->len; i++)
    {
      pid_t group = live_pgid (pids->pdata[i]);

      if (group >= 0 && group != pgid)
        count++;
    }
  return count;
}

/* cgroup.kill (Linux 5.14): SIGKILL to every member, forks in flight included. */
static gboolean
kill_cgroup (RpCommandScope *scope)
{
  g_autofree char *path = g_build_filename (scope->cgroup_dir, "cgroup.kill", NULL);
  int fd = open (path, O_WRONLY | O_CLOEXEC);
  gboolean done;

  if (fd < 0)
    return FALSE;
  done = write (fd, "1", 1) == 1;
  close (fd);
  return done;
}

/**
 * rp_command_scope_kill:
 * @scope: a scope
 * @signal_number: a signal, e.g. SIGTERM
 * @except_group: a process group whose members are left out (the caller
 *   signals the group itself), or 0
 *
 * Sends @signal_number to every process of the command outside
 * @except_group: those that left its process group. Each process gets the
 * signal once: dd, for one, dies of a second SIGINT before it prints its
 * totals (its handler resets itself).
 */
void
rp_command_scope_kill (RpCommandScope *scope,
                       int             signal_number,
                       pid_t           except_group)
{
  g_autoptr(GPtrArray) pids = NULL;

  g_return_if_fail (scope != NULL);
  if (signal_number == SIGKILL && scope->cgroup_dir != NULL && kill_cgroup (scope))
    return;
  pids = list_members (scope);
  for (guint i = 0; i < pids->len; i++)
    {
      gint64 pid = g_ascii_strtoll (pids->pdata[i], NULL, 10);

      /* Never ourselves nor a whole group, whatever a file said. */
      if (pid <= 1 || pid == getpid ())
        continue;
      if (except_group > 0 && live_pgid (pids->pdata[i]) == except_group)
        continue;
      kill ((pid_t) pid, signal_number);
    }
}

/**
 * rp_command_scope_free:
 * @scope: (nullable): a scope
 *
 * Kills what is left of the command (SIGKILL), waits until its processes are
 * gone (at most 10 s: one in uninterruptible sleep dies when its call
 * returns) and removes the cgroup.
 */
void
rp_command_scope_free (RpCommandScope *scope)
{
  gint64 deadline = g_get_monotonic_time () + EMPTY_WAIT_US;

  if (scope == NULL)
    return;
  while (rp_command_scope_is_alive (scope) && g_get_monotonic_time () < deadline)
    {
      rp_command_scope_kill (scope, SIGKILL, 0);
      g_usleep (20 * 1000);
    }
  if (scope->procs_fd >= 0)
    close (scope->procs_fd);
  /* A cgroup is removable once its last member has exited (zombies do not count). */
  while (scope->cgroup_dir != NULL && rmdir (scope->cgroup_dir) != 0 && errno == EBUSY &&
         g_get_monotonic_time () < deadline)
    g_usleep (20 * 1000);
  g_free (scope->cgroup_dir);
  g_strfreev (scope->envp);
  g_free (scope->token);
  g_free (scope);
}
