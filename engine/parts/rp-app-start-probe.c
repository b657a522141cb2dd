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
#include "rp-params.h"
#include "rp-parts.h"


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
app_start_probe_prepare (RpPartHost *host,
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
  rp_part_host_set_note (host, "app_start_program", program);

  probe = g_new0 (AppStartProbe, 1);
  probe->program = program;
  probe->interval = rp_params_get_seconds (rp_part_host_get_params (host), "app_start_interval");
  return probe;
}

/* Returns the seconds from spawn to reaping, or a negative value with @error set. */
static double
start_once (AppStartProbe  *probe,
            RpTimedCall    *call,
            GError        **error)
{
  char *argv[] = { (char *) "true", NULL };
  double before = rp_timed_call_begin (call, "app_start_latency");
  pid_t pid;
  int rc, status;

  rc = posix_spawn (&pid, probe->program, NULL, NULL, argv, environ);
  if (rc != 0)
    {
      rp_timed_call_end (call);
      rp_error_set_from_errno (error, rc, _("App-start probe: starting"), probe->program);
      return -1;
    }
  while (waitpid (pid, &status, 0) < 0)
    if (errno != EINTR)
      {
        rp_timed_call_end (call);
        rp_error_set_from_errno (error, errno, _("App-start probe: waiting for"), probe->program);
        return -1;
      }
  return rp_timed_call_end (call) - before;
}

static void
app_start_probe_run (RpPartHost *host,
                     gpointer   state)
{
  AppStartProbe *probe = state;
  RpSeries *series;

  RpTimedCall *call = rp_part_host_open_call (host);

  series = rp_part_host_ensure_series (host, "app_start_latency", "s", _("Program start time"));

  do
    {
      double before = rp_clock_now ();
      GError *error = NULL;
      double seconds = start_once (probe, call, &error);

      if (seconds < 0)
        {
          rp_part_host_fail (host, error);
          return;
        }
      rp_series_append (series, rp_part_host_time_from_monotonic (host, before), seconds);
      rp_part_host_changed (host);
    }
  while (rp_part_host_sleep (host, probe->interval));
}

static const RpWorkerClass worker = {
  .name = "app-start",
  .prepare = app_start_probe_prepare,
  .run = app_start_probe_run,
  .free_state = app_start_probe_free,
};

static const RpParamInfo params[] = {
  { "app_start_interval", "app-start-interval", "app-start-interval", RP_PARAM_SECONDS, 0.01, 3600, 2.0, NULL,
    N_("App-start probe: seconds between starts (default 2)"), N_("SECONDS") },
};

static const RpSeriesInfo series[] = {
  { "app_start_latency", "s", N_("Program start time"), "disk-latency", N_("program start"), N_("Program start"),
    N_("Time to start and finish a small program"),
    15, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY },
};

static char *
app_start_describe (const RpParams *p)
{
  /* TRANSLATORS: "“true” every 2 s": the program started, and how often */
  return g_strdup_printf (_("“true” every %g s"), rp_params_get_seconds (p, "app_start_interval"));
}

/* Spawning and reaping a small program, as a launcher does. */
const RpPartInfo rp_app_start_part = {
  .id = "app-start",
  .role = RP_PART_PROBE,
  .label = N_("App-start probe"),
  /* TRANSLATORS: %s is e.g. "“true” every 2 s" */
  .sentence = N_("app start %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .describe = app_start_describe,
};
