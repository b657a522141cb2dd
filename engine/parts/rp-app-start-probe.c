/* rp-app-start-probe.c: time to start a small program and see it exit, every few seconds. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-workers.h"

extern char **environ;

/* Starting a program is what a desktop user waits for most often: exec()
 * pages in the binary and its libraries, the dynamic loader opens and maps a
 * few files, and each step may wait behind the writers when the pages are
 * not cached or memory is short of clean pages. `true` does nothing else, so
 * its whole life is that cost. posix_spawn() (vfork-like in glibc) keeps the
 * cost of a big parent's fork() out of the measurement. */

typedef struct {
  char   *program;
  double  interval;
} AppStartProbe;

static void
app_start_probe_free (gpointer data)
{
  AppStartProbe *probe = data;

  g_free (probe->program);
  g_free (probe);
}

static gpointer
app_start_probe_prepare (RpSession  *session,
                         GError    **error)
{
  AppStartProbe *probe;
  char *program = g_find_program_in_path ("true");

  if (program == NULL && g_file_test ("/bin/true", G_FILE_TEST_IS_EXECUTABLE))
    program = g_strdup ("/bin/true");
  if (program == NULL)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_FAILED,
                           _("App-start probe: the program “true” was not found"));
      return NULL;
    }
  rp_session_set_note (session, "app_start_program", program);

  probe = g_new0 (AppStartProbe, 1);
  probe->program = program;
  probe->interval = rp_session_get_scenario (session)->app_start_interval;
  return probe;
}

/* Returns the seconds from spawn to reaping, or a negative value with @error set. */
static double
start_once (AppStartProbe  *probe,
            GError        **error)
{
  char *argv[] = { (char *) "true", NULL };
  double before = rp_clock_now ();
  pid_t pid;
  int rc, status;

  rc = posix_spawn (&pid, probe->program, NULL, NULL, argv, environ);
  if (rc != 0)
    {
      rp_error_set_from_errno (error, rc, _("App-start probe: starting"), probe->program);
      return -1;
    }
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        rp_error_set_from_errno (error, errno, _("App-start probe: waiting for"), probe->program);
        return -1;
      }
  return rp_clock_now () - before;
}

static void
app_start_probe_run (RpSession *session,
                     gpointer   state)
{
  AppStartProbe *probe = state;
  RpSeries *series;

  series = rp_session_ensure_series (session, "app_start_latency", "s", _("Program start time"));

  do
    {
      double before = rp_clock_now ();
      GError *error = NULL;
      double seconds = start_once (probe, &error);

      if (seconds < 0)
        {
          rp_session_worker_fail (session, error);
          return;
        }
      rp_series_append (series, rp_session_time_from_monotonic (session, before), seconds);
      rp_session_worker_changed (session);
    }
  while (rp_session_worker_sleep (session, probe->interval));
}

const RpWorkerClass rp_app_start_probe_class = {
  .name = "app-start",
  .prepare = app_start_probe_prepare,
  .run = app_start_probe_run,
  .free_state = app_start_probe_free,
};
