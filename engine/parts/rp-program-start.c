/* rp-program-start.c: starting a program that exits by itself, timed, and the files it maps. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-program-start.h"

/* Valente's comm_startup_lat (the S benchmark suite) times a program from
 * its start until it is usable, with programs made to exit once they are
 * (`xterm /bin/true`, `lowriter --terminate_after_init`). Here too: the
 * program must exit by itself, and the time is from posix_spawn() to the
 * kernel's word that it exited (a pidfd becoming readable), so nothing of
 * ours polls in between. Its standard output goes to /dev/null, its
 * standard error to a memory file whose end an error quotes. */

/* What an error quotes of the program's standard error. */
#define STDERR_TAIL 300

/* A discovery run (under ptrace, before the measurement) of a program that
 * never exits is given up after this long. */
#define DISCOVERY_LIMIT_SECONDS 120

struct _RpProgramStart
{
  char **argv;     /* argv[0] is the absolute path */
  int    stderr_fd;
};

static void
clear_argv (RpProgramStart *self)
{
  g_clear_pointer (&self->argv, g_strfreev);
}

/**
 * rp_program_start_new:
 * @argv: the program (a name looked up in PATH, or a path) and its arguments
 * @error: %RP_ERROR_INVALID_ARGUMENT when the program is not found
 *
 * Returns: (transfer full) (nullable): a starter for @argv
 */
RpProgramStart *
rp_program_start_new (const char * const  *argv,
                      GError             **error)
{
  g_autoptr(RpProgramStart) self = g_new0 (RpProgramStart, 1);
  g_autofree char *path = NULL;

  g_return_val_if_fail (argv != NULL && argv[0] != NULL, NULL);

  self->stderr_fd = -1;
  path = g_find_program_in_path (argv[0]);
  if (path == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("App-start probe: the program “%s” was not found or is not executable"), argv[0]);
      return NULL;
    }
  self->stderr_fd = memfd_create ("resprobe-app-start-stderr", MFD_CLOEXEC);
  if (self->stderr_fd < 0)
    {
      rp_error_set_from_errno (error, errno, _("App-start probe: a memory file for the standard error of"), path);
      return NULL;
    }
  rp_program_start_set_argv (self, argv);
  g_free (self->argv[0]);
  self->argv[0] = g_steal_pointer (&path);
  return g_steal_pointer (&self);
}

/**
 * rp_program_start_free:
 */
void
rp_program_start_free (RpProgramStart *self)
{
  if (self == NULL)
    return;
  clear_argv (self);
  if (self->stderr_fd >= 0)
    close (self->stderr_fd);
  g_free (self);
}

/**
 * rp_program_start_get_path:
 *
 * Returns: (transfer none): the absolute path of the program started
 */
const char *
rp_program_start_get_path (RpProgramStart *self)
{
  return self->argv[0];
}

/**
 * rp_program_start_set_argv:
 * @argv: what to start from now on, argv[0] an absolute path (e.g. the
 *   dynamic loader of a copy of the program: `ld.so --library-path DIR PROG`)
 */
void
rp_program_start_set_argv (RpProgramStart     *self,
                           const char * const *argv)
{
  clear_argv (self);
  self->argv = g_strdupv ((char **) argv);
}

/* The last bytes the program wrote to its standard error, on one line. */
static char *
stderr_tail (RpProgramStart *self)
{
  char buffer[STDERR_TAIL + 1];
  off_t end = lseek (self->stderr_fd, 0, SEEK_END);
  off_t from = MAX (end - STDERR_TAIL, 0);
  ssize_t n = pread (self->stderr_fd, buffer, STDERR_TAIL, from);

  buffer[MAX (n, 0)] = '\0';
  g_strdelimit (buffer, "\n\r\t", ' ');
  return g_strstrip (g_utf8_make_valid (buffer, -1));
}

static void
reset_stderr (RpProgramStart *self)
{
  if (ftruncate (self->stderr_fd, 0) == 0)
    lseek (self->stderr_fd, 0, SEEK_SET);
}

/* An exit status other than 0 is an error that quotes standard error: a
 * program that failed did not start. */
static gboolean
check_status (RpProgramStart  *self,
              int              status,
              GError         **error)
{
  g_autofree char *tail = NULL;

  if (WIFEXITED (status) && WEXITSTATUS (status) == 0)
    return TRUE;
  tail = stderr_tail (self);
  if (WIFEXITED (status))
    g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                 /* TRANSLATORS: program, exit status, the end of its standard error */
                 _("App-start probe: “%s” exited with status %d: %s"),
                 self->argv[0], WEXITSTATUS (status), tail);
  else
    g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                 /* TRANSLATORS: program, signal number, the end of its standard error */
                 _("App-start probe: “%s” was killed by signal %d: %s"),
                 self->argv[0], WTERMSIG (status), tail);
  return FALSE;
}

/* The maps of a process stopped at its exit: every file it had mapped,
 * including libraries and modules it loaded with dlopen(). */
static void
add_mapped_files (pid_t      pid,
                  GPtrArray *files)
{
  g_autofree char *maps_path = g_strdup_printf ("/proc/%d/maps", (int) pid);
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (maps_path, &contents, NULL, NULL))
    return;
  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *path = strchr (lines[i], '/');

      if (path != NULL && !g_str_has_suffix (path, " (deleted)") &&
          !g_ptr_array_find_with_equal_func (files, path, g_str_equal, NULL))
        g_ptr_array_add (files, g_strdup (path));
    }
}

/* Waits for @pid without blocking past the discovery limit. */
static pid_t
wait_bounded (pid_t  pid,
              int   *status,
              double deadline)
{
  for (;;)
    {
      pid_t got = waitpid (pid, status, WNOHANG);

      if (got != 0 || rp_clock_now () > deadline)
        return got;
      g_usleep (2000);
    }
}

/**
 * rp_program_start_list_mapped_files:
 * @error: the program could not be started, failed, or did not exit within
 *   two minutes
 *
 * Starts the program once under ptrace(2) (PTRACE_TRACEME, stopped at its
 * exit with PTRACE_O_TRACEEXIT, when its memory is still there) and reads
 * /proc/PID/maps at that moment. Run before the measurement: it warms the
 * cache, and the tracing slows the program.
 *
 * Returns: (transfer full) (element-type utf8): the absolute paths of the
 *   files the program had mapped when it exited, the program first
 */
GPtrArray *
rp_program_start_list_mapped_files (RpProgramStart  *self,
                                    GError         **error)
{
  g_autoptr(GPtrArray) files = g_ptr_array_new_with_free_func (g_free);
  double deadline = rp_clock_now () + DISCOVERY_LIMIT_SECONDS;
  int devnull = open ("/dev/null", O_WRONLY | O_CLOEXEC);
  int status = 0;
  pid_t pid;

  reset_stderr (self);
  g_ptr_array_add (files, g_strdup (self->argv[0]));
  pid = fork ();
  if (pid == 0)
    {
      /* Only async-signal-safe calls between fork() and exec(). */
      if (devnull >= 0)
        dup2 (devnull, STDOUT_FILENO);
      dup2 (self->stderr_fd, STDERR_FILENO);
      ptrace (PTRACE_TRACEME, 0, NULL, NULL);
      execv (self->argv[0], self->argv);
      _exit (127);
    }
  if (devnull >= 0)
    close (devnull);
  if (pid < 0)
    {
      rp_error_set_from_errno (error, errno, _("App-start probe: starting"), self->argv[0]);
      return NULL;
    }

  for (;;)
    {
      pid_t got = wait_bounded (pid, &status, deadline);

      if (got == 0)
        {
          kill (pid, SIGKILL);
          waitpid (pid, &status, 0);
          g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                       _("App-start probe: “%s” did not exit within %d s; the probe needs a program that exits once it is ready"),
                       self->argv[0], DISCOVERY_LIMIT_SECONDS);
          return NULL;
        }
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0 || WIFEXITED (status) || WIFSIGNALED (status))
        break;
      if (WSTOPSIG (status) == SIGTRAP && (status >> 16) == 0 && files->len == 1)
        {
          /* The stop after execve(): from here on, stop at the exit too, and
           * kill the program if this process dies meanwhile. */
          ptrace (PTRACE_SETOPTIONS, pid, NULL, (void *) (PTRACE_O_TRACEEXIT | PTRACE_O_EXITKILL));
          ptrace (PTRACE_CONT, pid, NULL, NULL);
        }
      else if ((status >> 8) == (SIGTRAP | (PTRACE_EVENT_EXIT << 8)))
        {
          add_mapped_files (pid, files);
          ptrace (PTRACE_CONT, pid, NULL, NULL);
        }
      else
        ptrace (PTRACE_CONT, pid, NULL, (void *) (gintptr) WSTOPSIG (status));
    }
  if (!check_status (self, status, error))
    return NULL;
  return g_steal_pointer (&files);
}

static int
open_pidfd (pid_t pid)
{
  return (int) syscall (SYS_pidfd_open, pid, 0);
}

/* Until the program exits (TRUE, status set) or the run stops (FALSE: the
 * program is killed and reaped). */
static gboolean
wait_for_exit (pid_t       pid,
               int         pidfd,
               RpPartHost *host,
               int        *status)
{
  struct pollfd pfd = { pidfd, POLLIN, 0 };

  while (pidfd >= 0 && !rp_part_host_should_stop (host))
    if (poll (&pfd, 1, 100) > 0)
      break;
  if (pidfd >= 0 && rp_part_host_should_stop (host))
    kill (pid, SIGKILL);
  while (waitpid (pid, status, 0) < 0 && errno == EINTR)
    ;
  return pidfd < 0 || !rp_part_host_should_stop (host) || (WIFEXITED (*status) && WEXITSTATUS (*status) == 0);
}

/**
 * rp_program_start_time:
 * @host: whose stop request ends a start that has not finished
 * @call: the calling thread's timed call (rp_part_host_open_call()): the
 *   start is in flight on it, and the stall sampler looks at the child's
 *   wait site while it starts
 * @series: the series the start's time goes into (static), e.g.
 *   "app_start_latency"
 * @out_started: (out): when the start began, rp_clock_now() seconds
 * @out_seconds: (out): seconds from posix_spawn() to the program's exit
 * @error: the program could not be started or did not exit with status 0
 *
 * Starts the program once and waits for it to exit. The one timed span is
 * from the clock read before posix_spawn() to the one after the program is
 * known to have exited.
 *
 * Returns: %TRUE with a time; %FALSE with @error set, or without it when the
 *   run stopped meanwhile (the program was killed; no time)
 */
gboolean
rp_program_start_time (RpProgramStart  *self,
                       RpPartHost      *host,
                       RpTimedCall     *call,
                       const char      *series,
                       double          *out_started,
                       double          *out_seconds,
                       GError         **error)
{
  posix_spawn_file_actions_t actions;
  double before, after;
  int status = 0, pidfd, rc;
  pid_t pid;

  reset_stderr (self);
  posix_spawn_file_actions_init (&actions);
  posix_spawn_file_actions_addopen (&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_adddup2 (&actions, self->stderr_fd, STDERR_FILENO);

  before = rp_timed_call_begin (call, series);
  rc = posix_spawn (&pid, self->argv[0], &actions, NULL, self->argv, environ);
  /* The child is what waits for the disk while it starts; this thread
   * only waits in poll() for it to exit. */
  if (rc == 0)
    rp_timed_call_set_child (call, pid);
  pidfd = rc == 0 ? open_pidfd (pid) : -1;
  if (rc == 0 && !wait_for_exit (pid, pidfd, host, &status))
    {
      rp_timed_call_abandon (call);
      posix_spawn_file_actions_destroy (&actions);
      close (pidfd);
      return FALSE;
    }
  if (rc != 0)
    rp_timed_call_abandon (call);
  after = rc == 0 ? rp_timed_call_end (call) : rp_clock_now ();

  posix_spawn_file_actions_destroy (&actions);
  if (pidfd >= 0)
    close (pidfd);
  if (rc != 0)
    {
      rp_error_set_from_errno (error, rc, _("App-start probe: starting"), self->argv[0]);
      return FALSE;
    }
  if (!check_status (self, status, error))
    return FALSE;
  *out_started = before;
  *out_seconds = after - before;
  return TRUE;
}
