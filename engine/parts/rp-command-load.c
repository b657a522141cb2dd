/* rp-command-load.c: an external command as the load: argv without a shell, stopped with every process it started. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-command-scope.h"
#include "rp-error.h"
#include "rp-params.h"
#include "rp-parts.h"

/* The last bytes of the command's stdout and stderr kept for the report. */
#define TAIL_SIZE 4096

/* How often the worker looks at the child and the stop flag. */
#define POLL_MS 100

/* On stop the command first gets SIGINT, as Ctrl-C in a terminal would send:
 * dd prints its totals, Python flushes its output, rsync says where it was.
 * What still runs this long after gets SIGTERM, and SIGKILL TERM_GRACE later. */
#define INT_GRACE 1.0
#define TERM_GRACE 2.0

/* The user's own load (`dd …`, `rsync …`, a build) runs as given: argv, no
 * shell, so nothing in it is interpreted twice. It gets a process group of its
 * own, so that stopping reaches whatever it started too (a shell script's
 * children, make's jobs), and a scope (rp-command-scope.c: a cgroup, or an
 * inherited environment variable) that also finds the processes that left
 * the group (`setsid`, daemons): nothing of it outlives the run. */

typedef struct {
  char   **argv;
  char    *directory;
} CommandLoad;

static void
command_load_free (gpointer data)
{
  CommandLoad *load = data;

  g_strfreev (load->argv);
  g_free (load->directory);
  g_free (load);
}

/* Whether the program can be found and run, so that a typo is a start error
 * rather than a run that ends at once. */
static gboolean
check_program (const char  *program,
               GError     **error)
{
  g_autofree char *path = NULL;

  if (strchr (program, '/') != NULL)
    path = g_strdup (program);
  else
    path = g_find_program_in_path (program);

  if (path != NULL && g_file_test (path, G_FILE_TEST_IS_EXECUTABLE) &&
      !g_file_test (path, G_FILE_TEST_IS_DIR))
    return TRUE;
  /* A bad value of the scenario's command field, as a typo in a size is. */
  g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
               _("command: cannot run “%s”: no such program, or it is not executable"),
               program);
  return FALSE;
}

static gpointer
command_load_prepare (RpPartHost *host,
                      GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  CommandLoad *load;

  if (!check_program (rp_params_get_argv (params, "command_argv")[0], error))
    return NULL;
  load = g_new0 (CommandLoad, 1);
  load->argv = g_strdupv ((char **) rp_params_get_argv (params, "command_argv"));
  load->directory = g_strdup (rp_part_host_get_directory (host));
  return load;
}

typedef struct {
  pid_t           parent;
  RpCommandScope *scope;
} ChildSetup;

/* Runs in the child between fork() and exec(). @data is a ChildSetup.
 * A resprobe-cli killed with SIGKILL cannot stop its command: the kernel
 * then kills the command's first process instead, so that no `dd` or `sleep`
 * outlives the run. The signal follows the thread that forked (this load's
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
read_output (int      fd,
             GString *tail)
{
  char buffer[4096];
  ssize_t n;

  while ((n = read (fd, buffer, sizeof buffer)) > 0 || (n < 0 && errno == EINTR))
    {
      if (n <= 0)
        continue;
      g_string_append_len (tail, buffer, n);
      if (tail->len > TAIL_SIZE)
        g_string_erase (tail, 0, (gssize) (tail->len - TAIL_SIZE));
    }
}

/* Reaps the leader if it exited; returns whether it has been reaped. */
static gboolean
try_reap (pid_t          pid,
          gboolean      *reaped,
          int           *status,
          struct rusage *usage)
{
  if (!*reaped && wait4 (pid, status, WNOHANG, usage) == pid)
    *reaped = TRUE;
  return *reaped;
}

/* Whether the leader has been reaped and nothing of the command runs any more. */
static gboolean
all_gone (pid_t           pgid,
          RpCommandScope *scope,
          gboolean       *reaped,
          int            *status,
          struct rusage  *usage)
{
  return try_reap (pgid, reaped, status, usage) && !group_is_alive (pgid) &&
         !rp_command_scope_is_alive (scope);
}

/* Sends @signal_number to the group and to the scope's processes outside it,
 * then waits up to @grace seconds for all of them to end, reading output. */
static gboolean
signal_and_wait (pid_t           pgid,
                 RpCommandScope *scope,
                 int             signal_number,
                 double          grace,
                 int             out_fd,
                 GString        *tail,
                 gboolean       *reaped,
                 int            *status,
                 struct rusage  *usage)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) (grace * G_USEC_PER_SEC);

  kill (-pgid, signal_number);
  rp_command_scope_kill (scope, signal_number, pgid);
  while (g_get_monotonic_time () < deadline)
    {
      read_output (out_fd, tail);
      if (all_gone (pgid, scope, reaped, status, usage))
        return TRUE;
      g_usleep (20 * 1000);
    }
  return FALSE;
}

/* SIGINT, SIGTERM after INT_GRACE, SIGKILL after TERM_GRACE more, to the
 * group and to the scope. The leader is always reaped before this returns (a
 * SIGKILLed process blocked in the kernel, e.g. in writeback, dies when its
 * call returns: the wait is what the session's join waits for anyway). */
static void
terminate_command (pid_t           pgid,
                   RpCommandScope *scope,
                   int             out_fd,
                   GString        *tail,
                   gboolean       *reaped,
                   int            *status,
                   struct rusage  *usage)
{
  if (signal_and_wait (pgid, scope, SIGINT, INT_GRACE, out_fd, tail, reaped, status, usage) ||
      signal_and_wait (pgid, scope, SIGTERM, TERM_GRACE, out_fd, tail, reaped, status, usage))
    return;
  kill (-pgid, SIGKILL);
  rp_command_scope_kill (scope, SIGKILL, 0);
  while (!*reaped)
    if (wait4 (pgid, status, 0, usage) == pgid || errno == ECHILD)
      *reaped = TRUE;
}

static void
set_exit_notes (RpPartHost     *host,
                pid_t           pid,
                int             status,
                gboolean        stopped,
                RpCommandScope *scope,
                guint           escaped,
                GString        *tail)
{
  g_autofree char *pid_text = g_strdup_printf ("%d", (int) pid);
  g_autofree char *status_text = NULL;
  g_autofree char *valid_tail = g_utf8_make_valid (tail->str, (gssize) tail->len);

  if (WIFEXITED (status))
    status_text = g_strdup_printf ("exit %d", WEXITSTATUS (status));
  else if (WIFSIGNALED (status))
    status_text = g_strdup_printf ("signal %d", WTERMSIG (status));
  else
    status_text = g_strdup ("unknown");

  rp_part_host_set_note (host, "command_pid", pid_text);
  rp_part_host_set_note (host, "command_exit_status", status_text);
  rp_part_host_set_note (host, "command_stopped", stopped ? "true" : "false");
  rp_part_host_set_note (host, "command_output_tail", valid_tail);
  rp_part_host_set_note (host, "command_containment", rp_command_scope_get_kind (scope));
  rp_part_host_set_number_note (host, "command_escaped_processes", "%.0f", escaped);
}

/* The command's own CPU time (its leader and the children it waited for,
 * wait4(2)) and wall time, beside what the probes measured meanwhile: a
 * command that got little CPU was starved, one that got much was a CPU
 * load too. The wall time ends when the exit is seen, within POLL_MS. */
static void
set_usage_notes (RpPartHost          *host,
                 const struct rusage *usage,
                 double               wall_seconds)
{
  rp_part_host_set_number_note (host, "command_user_seconds", "%.3f",
                                (double) usage->ru_utime.tv_sec + usage->ru_utime.tv_usec / 1e6);
  rp_part_host_set_number_note (host, "command_system_seconds", "%.3f",
                                (double) usage->ru_stime.tv_sec + usage->ru_stime.tv_usec / 1e6);
  rp_part_host_set_number_note (host, "command_wall_seconds", "%.3f", wall_seconds);
}

static gboolean
spawn (CommandLoad     *load,
       RpCommandScope  *scope,
       int              out_fd,
       GPid            *out_pid,
       GError         **error)
{
  GError *spawn_error = NULL;
  ChildSetup setup = { getpid (), scope };

  /* The same pipe for stdout and stderr keeps their lines in order. */
  if (g_spawn_async_with_pipes_and_fds (load->directory, (const char * const *) load->argv,
                                        (const char * const *) rp_command_scope_get_envp (scope),
                                        G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD |
                                        G_SPAWN_STDIN_FROM_DEV_NULL,
                                        child_setup, &setup, -1, out_fd, out_fd, NULL, NULL, 0,
                                        out_pid, NULL, NULL, NULL, &spawn_error))
    {
      rp_command_scope_confirm (scope, *out_pid);
      return TRUE;
    }
  g_set_error (error, RP_ERROR, RP_ERROR_FAILED, _("Cannot run the command “%s”: %s"),
               load->argv[0], spawn_error->message);
  g_error_free (spawn_error);
  return FALSE;
}

static void
command_load_run (RpPartHost *host,
                  gpointer   state)
{
  CommandLoad *load = state;
  g_autoptr(GString) tail = g_string_new (NULL);
  g_autoptr(RpCommandScope) scope = rp_command_scope_new ();
  GError *error = NULL;
  gboolean reaped = FALSE, stopped = FALSE;
  int status = 0, fds[2];
  struct rusage usage = { 0 };
  double started;
  guint escaped;
  GPid pid;

  if (pipe2 (fds, O_CLOEXEC) != 0)
    {
      rp_error_set_from_errno (&error, errno, _("Command: creating a pipe"), NULL);
      rp_part_host_fail (host, error);
      return;
    }
  started = rp_clock_now ();
  if (!spawn (load, scope, fds[1], &pid, &error))
    {
      close (fds[0]);
      close (fds[1]);
      rp_part_host_fail (host, error);
      return;
    }
  close (fds[1]);
  fcntl (fds[0], F_SETFL, fcntl (fds[0], F_GETFL) | O_NONBLOCK);

  while (!try_reap (pid, &reaped, &status, &usage))
    {
      struct pollfd pfd = { .fd = fds[0], .events = POLLIN };

      if (rp_part_host_should_stop (host))
        {
          stopped = TRUE;
          break;
        }
      poll (&pfd, 1, POLL_MS);
      read_output (fds[0], tail);
    }

  /* Counted before the stop: what signals to the group alone would miss. */
  escaped = rp_command_scope_count_escaped (scope, pid);
  /* On stop, and also when the leader exited but left processes behind. */
  if (!all_gone (pid, scope, &reaped, &status, &usage))
    terminate_command (pid, scope, fds[0], tail, &reaped, &status, &usage);
  read_output (fds[0], tail);
  close (fds[0]);
  set_exit_notes (host, pid, status, stopped, scope, escaped, tail);
  set_usage_notes (host, &usage, rp_clock_now () - started);
}

static const RpWorkerClass worker = {
  .name = "command",
  .prepare = command_load_prepare,
  .run = command_load_run,
  .free_state = command_load_free,
};

static const RpParamInfo params[] = {
  { "command_argv", "command", "command", RP_PARAM_ARGV, 0, 0, 0, NULL,
    N_("Command load: program and arguments, split like a shell but run without one (or give them after “--”)"),
    N_("COMMAND") },
};

static gboolean
command_load_validate (const RpParams  *p,
                       GError         **error)
{
  const char * const *argv = rp_params_get_argv (p, "command_argv");

  if (argv != NULL && argv[0] != NULL && *argv[0] != '\0')
    return TRUE;
  g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("command: the command load needs a program to run"));
  return FALSE;
}

static char *
command_load_describe (const RpParams *p)
{
  const char * const *argv = rp_params_get_argv (p, "command_argv");

  return argv != NULL ? g_strjoinv (" ", (char **) argv) : g_strdup ("");
}

/* Any program as the load, without a shell. */
const RpPartInfo rp_command_part = {
  .id = "command",
  .role = RP_PART_LOAD,
  .label = N_("Command"),
  /* TRANSLATORS: %s is a command line */
  .sentence = N_("command “%s”"),
  .start_rank = 2,
  RP_PART_PARAMS (params),
  .worker = &worker,
  .validate = command_load_validate,
  .describe = command_load_describe,
};
