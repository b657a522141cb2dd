/* rp-command-process.c: one command of the command load: started, watched, stopped, its notes. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-command-process.h"
#include "rp-command-scope.h"
#include "rp-error.h"

/* The last bytes of the command's stdout and stderr kept for the report. */
#define TAIL_SIZE 4096

/* On stop the command first gets SIGINT, as Ctrl-C in a terminal would send:
 * dd prints its totals, Python flushes its output, rsync says where it was.
 * What still runs this long after gets SIGTERM, and SIGKILL TERM_GRACE later. */
#define INT_GRACE 1.0
#define TERM_GRACE 2.0

/* A command runs as given: argv, no shell, so nothing in it is interpreted
 * twice. It gets a process group of its own, so that stopping reaches
 * whatever it started too (a shell script's children, make's jobs), and a
 * scope (rp-command-scope.c: a cgroup, or an inherited environment
 * variable) that also finds the processes that left the group (`setsid`,
 * daemons): nothing of it outlives the run. Several commands of one run
 * each have their own group, scope, output and times. */

struct _RpCommandProcess
{
  RpCommandScope *scope;
  GPid            pid;
  int             fd;            /* read end of its stdout and stderr; -1 once closed */
  GString        *tail;
  gboolean        reaped;        /* the leader's wait4() is done */
  gboolean        finished;      /* reaped, nothing of it left, output read */
  gboolean        stopped;       /* stopped with the run rather than ended by itself */
  int             status;
  struct rusage   usage;
  double          started;       /* rp_clock_now() at the spawn */
  double          wall_seconds;  /* from the spawn to the end of its last process */
  guint           escaped;
};

typedef struct {
  pid_t           parent;
  RpCommandScope *scope;
} ChildSetup;

/* Runs in the child between fork() and exec(). @data is a ChildSetup.
 * A resprobe-cli killed with SIGKILL cannot stop its command: the kernel
 * then kills the command's first process instead, so that no `dd` or `sleep`
 * outlives the run. The signal follows the thread that forked (the load's
 * worker), which lives until the command has been reaped. The command's own
 * children are not covered: only the stop path reaches the whole group. */
static void
child_setup (gpointer data)
{
  ChildSetup *setup = data;

  setpgid (0, 0);
  rp_command_scope_enter (setup->scope);
  prctl (PR_SET_PDEATHSIG, SIGKILL);
  /* The parent may have died before prctl(): then nobody will reap us. */
  if (getppid () != setup->parent)
    _exit (127);
}

/**
 * rp_command_process_spawn:
 * @argv: the program and its arguments (no shell; the program is looked up
 *   in PATH)
 * @directory: (nullable): its working directory
 * @error: %RP_ERROR_FAILED naming the program when it cannot be started,
 *   %RP_ERROR_IO when no pipe can be made
 *
 * Starts the command in a process group and scope of its own, with stdin
 * from /dev/null and stdout and stderr into one pipe (so their lines stay in
 * order) whose last 4 KiB are kept. Call it on the thread that will reap it.
 *
 * Returns: (transfer full) (nullable): the running command
 */
RpCommandProcess *
rp_command_process_spawn (const char * const  *argv,
                          const char          *directory,
                          GError             **error)
{
  g_autoptr(RpCommandProcess) self = g_new0 (RpCommandProcess, 1);
  GError *spawn_error = NULL;
  ChildSetup setup = { getpid (), NULL };
  int fds[2];

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  /* Nothing to stop until the spawn succeeds. */
  self->reaped = self->finished = TRUE;
  self->fd = -1;
  self->tail = g_string_new (NULL);
  self->scope = rp_command_scope_new ();
  setup.scope = self->scope;
  if (pipe2 (fds, O_CLOEXEC) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Command: creating a pipe"), NULL);
      return NULL;
    }
  self->started = rp_clock_now ();
  if (!g_spawn_async_with_pipes_and_fds (directory, argv,
                                         (const char * const *) rp_command_scope_get_envp (self->scope),
                                         G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
                                         G_SPAWN_STDIN_FROM_DEV_NULL,
                                         child_setup, &setup, -1, fds[1], fds[1], NULL, NULL, 0,
                                         &self->pid, NULL, NULL, NULL, &spawn_error))
    {
      close (fds[0]);
      close (fds[1]);
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("Cannot run the command “%s”: %s"),
                   argv[0], spawn_error->message);
      g_error_free (spawn_error);
      return NULL;
    }
  self->reaped = self->finished = FALSE;
  rp_command_scope_confirm (self->scope, self->pid);
  close (fds[1]);
  self->fd = fds[0];
  fcntl (self->fd, F_SETFL, fcntl (self->fd, F_GETFL) | O_NONBLOCK);
  return g_steal_pointer (&self);
}

/**
 * rp_command_process_get_fd:
 *
 * Returns: the pipe of its output, to poll() for input; -1 once it has finished
 */
int
rp_command_process_get_fd (RpCommandProcess *self)
{
  g_return_val_if_fail (self != NULL, -1);

  return self->fd;
}

/**
 * rp_command_process_is_finished:
 *
 * Returns: whether the command and every process it started have ended and
 *   its output has been read
 */
gboolean
rp_command_process_is_finished (RpCommandProcess *self)
{
  g_return_val_if_fail (self != NULL, TRUE);

  return self->finished;
}

/* Whether a process of group @pgid is still alive. A killed member whose
 * parent died stays a zombie until init reaps it, and some inits never do:
 * kill(-pgid, 0) would count those, so /proc is read instead where it can be. */
static gboolean
group_is_alive (pid_t pgid)
{
  g_autoptr(GDir) proc = g_dir_open ("/proc", 0, NULL);
  const char *name;

  if (proc == NULL)
    return kill (-pgid, 0) == 0;

  while ((name = g_dir_read_name (proc)) != NULL)
    {
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      const char *end;
      char state;
      int ppid, pgrp;

      if (!g_ascii_isdigit (name[0]))
        continue;
      path = g_strdup_printf ("/proc/%s/stat", name);
      /* The command name may hold spaces and ')': fields follow its last ')'. */
      if (!g_file_get_contents (path, &contents, NULL, NULL) ||
          (end = strrchr (contents, ')')) == NULL ||
          sscanf (end + 1, " %c %d %d", &state, &ppid, &pgrp) != 3)
        continue;
      if (pgrp == pgid && state != 'Z' && state != 'X')
        return TRUE;
    }
  return FALSE;
}

static void
read_output (RpCommandProcess *self)
{
  char buffer[4096];
  ssize_t n;

  if (self->fd < 0)
    return;
  while ((n = read (self->fd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
    {
      if (n <= 0)
        continue;
      g_string_append_len (self->tail, buffer, n);
      if (self->tail->len > TAIL_SIZE)
        g_string_erase (self->tail, 0, (gssize) (self->tail->len - TAIL_SIZE));
    }
}

/* Reaps the leader if it exited; returns whether it has been reaped. */
static gboolean
try_reap (RpCommandProcess *self)
{
  if (!self->reaped && wait4 (self->pid, &self->status, WNOHANG, &self->usage) == self->pid)
    self->reaped = TRUE;
  return self->reaped;
}

/* Whether the leader has been reaped and nothing of the command runs any more. */
static gboolean
all_gone (RpCommandProcess *self)
{
  return try_reap (self) && !group_is_alive (self->pid) && !rp_command_scope_is_alive (self->scope);
}

/* The end of a command: the rest of its output read, its wall time taken. */
static void
finish (RpCommandProcess *self)
{
  read_output (self);
  if (self->fd >= 0)
    close (self->fd);
  self->fd = -1;
  self->wall_seconds = rp_clock_now () - self->started;
  self->finished = TRUE;
}

/* Sends @signal_number to the group and scope of every command of
 * @processes that has not finished, then waits up to @grace seconds for
 * them to end, reading their output. Returns whether all have finished. */
static gboolean
signal_and_wait (GPtrArray *processes,
                 int        signal_number,
                 double     grace)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (grace * G_USEC_PER_SEC);
  gboolean done = TRUE;

  for (guint i = 0; i < processes->len; i++)
    {
      RpCommandProcess *self = g_ptr_array_index (processes, i);

      if (self->finished)
        continue;
      kill (-self->pid, signal_number);
      rp_command_scope_kill (self->scope, signal_number, self->pid);
    }
  do
    {
      done = TRUE;
      for (guint i = 0; i < processes->len; i++)
        {
          RpCommandProcess *self = g_ptr_array_index (processes, i);

          if (self->finished)
            continue;
          read_output (self);
          if (all_gone (self))
            finish (self);
          else
            done = FALSE;
        }
      if (!done)
        g_usleep (20 * 1000);
    }
  while (!done && g_get_monotonic_time () < deadline);
  return done;
}

/* SIGINT to every command left, SIGTERM after INT_GRACE, SIGKILL after
 * TERM_GRACE more, to each group and scope at once (the graces run side by
 * side, not one command after the other). Every leader is reaped before
 * this returns (a SIGKILLed process blocked in the kernel, e.g. in
 * writeback, dies when its call returns: the wait is what the session's
 * join waits for anyway). */
static void
terminate (GPtrArray *processes)
{
  if (signal_and_wait (processes, SIGINT, INT_GRACE) ||
      signal_and_wait (processes, SIGTERM, TERM_GRACE))
    return;
  for (guint i = 0; i < processes->len; i++)
    {
      RpCommandProcess *self = g_ptr_array_index (processes, i);

      if (self->finished)
        continue;
      kill (-self->pid, SIGKILL);
      rp_command_scope_kill (self->scope, SIGKILL, 0);
      while (!self->reaped)
        if (wait4 (self->pid, &self->status, 0, &self->usage) == self->pid || errno == ECHILD)
          self->reaped = TRUE;
      finish (self);
    }
}

/**
 * rp_command_process_check:
 *
 * Reads what the command wrote and looks whether its first process has
 * exited. If it has, what it left running (children it did not wait for) is
 * stopped as at the end of a run (SIGINT, SIGTERM, SIGKILL: up to 3 s) and
 * the command is finished. Call it on the thread that spawned it, after
 * poll() on rp_command_process_get_fd() or every ~0.1 s.
 *
 * Returns: whether the command has finished
 */
gboolean
rp_command_process_check (RpCommandProcess *self)
{
  g_autoptr(GPtrArray) one = NULL;

  g_return_val_if_fail (self != NULL, TRUE);

  if (self->finished)
    return TRUE;
  read_output (self);
  if (!try_reap (self))
    return FALSE;
  /* Counted before the stop: what signals to the group alone would miss. */
  self->escaped = rp_command_scope_count_escaped (self->scope, self->pid);
  one = g_ptr_array_new ();
  g_ptr_array_add (one, self);
  if (all_gone (self))
    finish (self);
  else
    terminate (one);
  return TRUE;
}

/**
 * rp_command_process_stop_all:
 * @processes: (element-type RpCommandProcess): the run's commands
 *
 * Stops every command of @processes that has not finished, marking it
 * stopped with the run: SIGINT to all of them at once, SIGTERM to what runs
 * 1 s later, SIGKILL 2 s after that, each to its process group and to its
 * scope's processes that left it. Their output is read to the end, so a
 * stopped command keeps what it said last (dd's totals after SIGINT).
 */
void
rp_command_process_stop_all (GPtrArray *processes)
{
  g_return_if_fail (processes != NULL);

  for (guint i = 0; i < processes->len; i++)
    {
      RpCommandProcess *self = g_ptr_array_index (processes, i);

      if (self->finished)
        continue;
      self->stopped = TRUE;
      self->escaped = rp_command_scope_count_escaped (self->scope, self->pid);
    }
  terminate (processes);
}

static void
set_note (RpPartHost *host,
          const char *prefix,
          const char *name,
          const char *value)
{
  g_autofree char *key = g_strconcat (prefix, name, NULL);

  rp_part_host_set_note (host, key, value);
}

static void
set_number_note (RpPartHost *host,
                 const char *prefix,
                 const char *name,
                 const char *format,
                 double      value)
{
  g_autofree char *key = g_strconcat (prefix, name, NULL);

  rp_part_host_set_number_note (host, key, format, value);
}

static double
seconds_of (const struct timeval *tv)
{
  return (double) tv->tv_sec + tv->tv_usec / 1e6;
}

/**
 * rp_command_process_set_notes:
 * @self: a finished command
 * @prefix: the notes' prefix: "command_" for the first, "command_2_" …
 *
 * Notes PREFIXpid, PREFIXexit_status ("exit N", "signal N"), PREFIXstopped
 * ("true", "false"), PREFIXoutput_tail (its last 4 KiB of output, made valid
 * UTF-8), PREFIXcontainment ("cgroup", "environment"),
 * PREFIXescaped_processes, and its times in seconds: PREFIXuser_seconds and
 * PREFIXsystem_seconds (its leader's rusage from wait4(2), with the children
 * it waited for: a command that got little CPU was starved, one that got
 * much was a CPU load too) and PREFIXwall_seconds (from its start until its
 * last process ended, seen within ~0.1 s).
 */
void
rp_command_process_set_notes (RpCommandProcess *self,
                              RpPartHost       *host,
                              const char       *prefix)
{
  g_autofree char *status_text = NULL;
  g_autofree char *valid_tail = NULL;

  g_return_if_fail (self != NULL && self->finished && prefix != NULL);

  if (WIFEXITED (self->status))
    status_text = g_strdup_printf ("exit %d", WEXITSTATUS (self->status));
  else if (WIFSIGNALED (self->status))
    status_text = g_strdup_printf ("signal %d", WTERMSIG (self->status));
  else
    status_text = g_strdup ("unknown");
  valid_tail = g_utf8_make_valid (self->tail->str, (gssize) self->tail->len);

  set_number_note (host, prefix, "pid", "%.0f", self->pid);
  set_note (host, prefix, "exit_status", status_text);
  set_note (host, prefix, "stopped", self->stopped ? "true" : "false");
  set_note (host, prefix, "output_tail", valid_tail);
  set_note (host, prefix, "containment", rp_command_scope_get_kind (self->scope));
  set_number_note (host, prefix, "escaped_processes", "%.0f", self->escaped);
  set_number_note (host, prefix, "user_seconds", "%.3f", seconds_of (&self->usage.ru_utime));
  set_number_note (host, prefix, "system_seconds", "%.3f", seconds_of (&self->usage.ru_stime));
  set_number_note (host, prefix, "wall_seconds", "%.3f", self->wall_seconds);
}

/**
 * rp_command_process_free:
 *
 * Frees a command that has finished (or never started); one still running
 * is stopped first, so that nothing of it outlives its record.
 */
void
rp_command_process_free (RpCommandProcess *self)
{
  if (self == NULL)
    return;
  if (!self->finished)
    {
      g_autoptr(GPtrArray) one = g_ptr_array_new ();

      g_ptr_array_add (one, self);
      rp_command_process_stop_all (one);
    }
  g_clear_pointer (&self->scope, rp_command_scope_free);
  g_string_free (self->tail, TRUE);
  g_free (self);
}
