/* rp-window-probes.c: the felt probes: a probe window of its own (resprobe-canary), its samples and its stalls' evidence. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib-unix.h>
#include <glib/gi18n-lib.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "rp-canary-protocol.h"
#include "rp-clock.h"
#include "rp-error.h"
#include "rp-felt-evidence.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-proc.h"
#include "rp-timed-call.h"

/* What a desktop user feels (a late redraw, a frame shown late, a key
 * handled late) is measured in a process of its own: the probe window
 * (app/canary/resprobe-canary.c), a small GTK window that animates at every
 * refresh of the output and does nothing else. The measuring window's own
 * work (charts, statistics, reports, its start-up) never delays it, so what
 * it feels is what the desktop did to an application (docs/ARCHITECTURE.md,
 * "Felt probes"). This part starts it, reads its samples from a pipe
 * (engine/base/rp-canary-protocol.h) into the run's series, and, while its
 * main loop is silent, looks at its main thread (rp-felt-evidence.c), so
 * that every felt stall is a stall record with its own evidence, beside
 * the disk calls' (rp-timed-call.c). Runs in the baseline too: the desktop
 * before the load is the reference. */

/* How often the part reads the probe window's pipe, seconds: a line is
 * written at each sample (100 a second and more), and a read for each
 * would wake this thread as often; every 20 ms is as often as a silence is
 * looked for (RP_CALL_SAMPLE_AFTER), and the series lose nothing (the
 * samples carry their own times). */
#define READ_PERIOD 0.02
/* How often the part tells the session that samples came, seconds: the
 * window redraws once a second, and each "updated" wakes its main loop. */
#define CHANGED_PERIOD 0.5
/* After the stop, how long the probe window has to write its notes and
 * go before it is killed, seconds (a hang guard: it needs milliseconds). */
#define QUIT_WAIT 5.0
/* A frame is late when its interval is over this many refresh intervals:
 * at least one refresh of the output showed the previous frame again. */
#define LATE_FRAME_FACTOR 1.5
/* A line longer than this is no line of ours: the rest is dropped. */
#define MAX_LINE 1024

typedef struct {
  char           *program;
  char           *save_dir;        /* the simulated save's folder, or NULL */
  gboolean        use_stack;
  gboolean        delayacct;
  double          look_period;

  GPid            pid;
  int             in_fd;           /* its standard input: closed to stop it */
  int             out_fd;          /* its samples */
  GString        *pending;         /* a partial line */
  RpFeltEvidence *evidence;
  gboolean        ready;
  gboolean        ended;           /* its output reached its end */

  RpSeries       *lateness, *frames, *late_frames, *input, *wakeup, *save;
  guint64         n_frames, n_late_frames, n_input, n_unknown, n_zero, n_saves, n_stalls;
  GString        *reads;
} WindowProbes;

static void
window_probes_free (gpointer data)
{
  WindowProbes *probes = data;

  g_free (probes->program);
  g_free (probes->save_dir);
  if (probes->pending != NULL)
    g_string_free (probes->pending, TRUE);
  if (probes->reads != NULL)
    g_string_free (probes->reads, TRUE);
  g_clear_pointer (&probes->evidence, rp_felt_evidence_free);
  g_free (probes);
}

/* $RESPROBE_CANARY when set (the build tree's, for tests), else
 * LIBEXECDIR/resprobe-canary, else the build tree's beside a resprobe or
 * resprobe-cli run from the build directory (app/gui or app/cli next to
 * app/canary), so that the README's commands work before `meson install`. */
static char *
find_program (void)
{
  const char *from_environment = g_getenv ("RESPROBE_CANARY");
  g_autofree char *installed = g_build_filename (LIBEXECDIR, "resprobe-canary", NULL);
  g_autofree char *self = NULL;

  if (from_environment != NULL && *from_environment != '\0')
    return g_strdup (from_environment);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  self = g_file_read_link ("/proc/self/exe", NULL);
  if (self != NULL)
    {
      g_autofree char *app_directory = g_path_get_dirname (self);
      g_autofree char *in_build = g_build_filename (app_directory, "..", "canary", "resprobe-canary", NULL);

      if (g_file_test (in_build, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&in_build);
    }
  return g_steal_pointer (&installed);
}

static gpointer
window_probes_prepare (RpPartHost  *host,
                       GError     **error)
{
  WindowProbes *probes = g_new0 (WindowProbes, 1);
  const RpParams *params = rp_part_host_get_params (host);
  char buffer[4096];
  g_autofree char *stack = g_strdup_printf ("/proc/self/task/%d/stack", (int) getpid ());
  int stack_fd;

  probes->program = find_program ();
  if (!g_file_test (probes->program, G_FILE_TEST_IS_EXECUTABLE))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("The probe window “%s” is not installed"), probes->program);
      window_probes_free (probes);
      return NULL;
    }
  if (g_getenv ("WAYLAND_DISPLAY") == NULL && g_getenv ("DISPLAY") == NULL)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_FAILED,
                           _("The probe window needs a display: neither WAYLAND_DISPLAY nor DISPLAY is set"));
      window_probes_free (probes);
      return NULL;
    }
  if (rp_params_get_flag (params, "simulate_save"))
    probes->save_dir = g_strdup (rp_part_host_get_directory (host));
  /* As the stall sampler: the kernel stack where readable (CAP_SYS_ADMIN). */
  stack_fd = open (stack, O_RDONLY | O_CLOEXEC);
  probes->use_stack = stack_fd >= 0 && rp_proc_read_fd (stack_fd, buffer, sizeof buffer);
  if (stack_fd >= 0)
    close (stack_fd);
  probes->delayacct = rp_proc_read_flag ("/proc/sys/kernel/task_delayacct");
  probes->look_period = rp_params_get_seconds (params, "stall_sample_period");
  probes->in_fd = probes->out_fd = -1;
  probes->pending = g_string_new (NULL);
  probes->reads = g_string_new (NULL);
  return probes;
}

/* ------------------------------------------------------------------------- */
/* Samples */

/* @n numbers separated by spaces, read in the C locale (the probe window
 * writes them so); %FALSE when fewer. */
static gboolean
parse_numbers (const char *text,
               double     *out,
               guint       n)
{
  for (guint i = 0; i < n; i++)
    {
      char *end;

      while (*text == ' ')
        text++;
      out[i] = g_ascii_strtod (text, &end);
      if (end == text)
        return FALSE;
      text = end;
    }
  return TRUE;
}

/* A felt sample over RP_STALL_MIN_SECONDS is a stall record of its own,
 * explained by what the probe's main thread did meanwhile. */
static void
record_stall (WindowProbes *probes,
              RpPartHost   *host,
              const char   *series,
              double        start,
              double        end,
              const char   *uncovered_site)
{
  RpStall *stall;

  if (end - start < RP_STALL_MIN_SECONDS)
    return;
  stall = rp_felt_evidence_explain (probes->evidence, series, start, end, uncovered_site);
  stall->start = rp_part_host_time_from_monotonic (host, start);
  rp_call_registry_add_stall (rp_part_host_get_calls (host), stall);
  probes->n_stalls++;
}

static void
on_frame (WindowProbes *probes,
          RpPartHost   *host,
          const char   *fields)
{
  double v[3];
  double interval, t;

  if (!parse_numbers (fields, v, 3))
    return;
  interval = v[1] - v[0];
  t = rp_part_host_time_from_monotonic (host, v[1]);
  probes->n_frames++;
  rp_series_append (probes->frames, t, interval);
  if (interval > LATE_FRAME_FACTOR * v[2])
    {
      probes->n_late_frames++;
      rp_series_append (probes->late_frames, t, interval);
    }
  /* Time the probe's main loop ran on time within a frame's stall was the
   * display server's: it had a frame and did not show it. */
  record_stall (probes, host, RP_SERIES_FRAME_INTERVAL, v[0], v[1], RP_WAIT_SITE_DISPLAY);
}

static void
on_line (WindowProbes *probes,
         RpPartHost   *host,
         const char   *line)
{
  const char *fields = strchr (line, ' ');
  double v[3];

  fields = fields != NULL ? fields + 1 : "";
  switch (line[0] != '\0' && (line[1] == ' ' || line[1] == '\0') ? line[0] : '\0')
    {
    case 'L':
      if (!parse_numbers (fields, v, 2))
        return;
      rp_series_append (probes->lateness, rp_part_host_time_from_monotonic (host, v[0]), MAX (v[1] - v[0], 0));
      /* Its main loop ran: a silence ends, then the stall it was. */
      rp_felt_evidence_heartbeat (probes->evidence, v[1]);
      record_stall (probes, host, RP_SERIES_MAINLOOP_LATENESS, v[0], v[1], RP_WAIT_SITE_UNKNOWN);
      return;
    case 'F':
      on_frame (probes, host, fields);
      return;
    case 'I':
      if (!parse_numbers (fields, v, 2))
        return;
      probes->n_input++;
      rp_series_append (probes->input, rp_part_host_time_from_monotonic (host, v[1]), MAX (v[1] - v[0], 0));
      record_stall (probes, host, RP_SERIES_INPUT_LATENCY, v[0], v[1], RP_WAIT_SITE_DISPLAY);
      return;
    case 'Z':
      probes->n_zero++;
      /* fall through */
    case 'U':
      probes->n_input++;
      probes->n_unknown++;
      return;
    case 'W':
      if (!parse_numbers (fields, v, 2))
        return;
      rp_series_append (probes->wakeup, rp_part_host_time_from_monotonic (host, v[0]), MAX (v[1] - v[0], 0));
      record_stall (probes, host, RP_SERIES_WAKEUP_LATENCY, v[0], v[1], RP_WAIT_SITE_UNKNOWN);
      return;
    case 'S':
      if (!parse_numbers (fields, v, 2))
        return;
      probes->n_saves++;
      rp_series_append (probes->save, rp_part_host_time_from_monotonic (host, v[0]), v[1]);
      record_stall (probes, host, RP_SERIES_MAIN_THREAD_SAVE, v[0], v[0] + v[1], RP_WAIT_SITE_UNKNOWN);
      return;
    case 'R':
      /* The tests' read on the main thread: its run time and length, which
       * the felt stall it causes must match. */
      if (!parse_numbers (fields, v, 3))
        return;
      g_string_append_printf (probes->reads, "%s%.6f+%.6f", probes->reads->len ? " " : "",
                              rp_part_host_time_from_monotonic (host, v[0]), v[1]);
      return;
    case 'E':
      rp_part_host_set_note (host, "probe_window_error", fields);
      return;
    case 'N':
      {
        g_auto(GStrv) pair = g_strsplit (fields, " ", 2);

        if (pair[0] != NULL && pair[1] != NULL)
          rp_part_host_set_note (host, pair[0], pair[1]);
      }
      return;
    default:
      break;
    }
  if (g_str_equal (line, RP_CANARY_READY))
    probes->ready = TRUE;
  else if (g_str_has_prefix (line, RP_CANARY_HELLO " "))
    rp_part_host_set_note (host, "probe_window_backend", strrchr (line, ' ') + 1);
}

/* Reads what the pipe holds and hands each whole line on. */
static void
read_lines (WindowProbes *probes,
            RpPartHost   *host)
{
  char buffer[8192];
  gssize n;

  while ((n = read (probes->out_fd, buffer, sizeof buffer)) > 0)
    {
      gsize start = 0;

      for (gsize i = 0; i < (gsize) n; i++)
        {
          if (buffer[i] != '\n')
            continue;
          g_string_append_len (probes->pending, buffer + start, i - start);
          on_line (probes, host, probes->pending->str);
          g_string_truncate (probes->pending, 0);
          start = i + 1;
        }
      if (probes->pending->len + (n - start) < MAX_LINE)
        g_string_append_len (probes->pending, buffer + start, n - start);
    }
  if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
    probes->ended = TRUE;
}

/* ------------------------------------------------------------------------- */
/* The probe window's life */

static gboolean
start_window (WindowProbes  *probes,
              GError       **error)
{
  const char *argv[] = { probes->program, NULL, NULL, NULL };

  if (probes->save_dir != NULL)
    {
      argv[1] = "--save-dir";
      argv[2] = probes->save_dir;
    }
  /* No PR_SET_PDEATHSIG: it fires when the thread that forked ends, which
   * is this worker at every stop. The window ends when its standard input
   * does, which also happens when this process dies. */
  if (!g_spawn_async_with_pipes_and_fds (NULL, argv, NULL,
                                         G_SPAWN_DO_NOT_REAP_CHILD | G_SPAWN_CLOEXEC_PIPES,
                                         NULL, NULL, -1, -1, -1, NULL, NULL, 0,
                                         &probes->pid, &probes->in_fd, &probes->out_fd, NULL, error))
    return FALSE;
  g_unix_set_fd_nonblocking (probes->out_fd, TRUE, NULL);
  probes->evidence = rp_felt_evidence_new (probes->pid, probes->use_stack, probes->delayacct);
  return TRUE;
}

/* How long to sleep: READ_PERIOD, or the look period while the probe
 * window's heartbeat is silent (its first look then comes 20 to 40 ms
 * after the last heartbeat, the slice covering all of it). */
static double
sleep_time (WindowProbes *probes,
            double        now)
{
  double due = probes->ready ? rp_felt_evidence_next_look (probes->evidence, probes->look_period) : 0;

  if (due > 0 && due <= now)
    return probes->look_period;
  return READ_PERIOD;
}

/* The window quits when its input ends (it writes its notes first); a
 * stopped one (SIGSTOP) is continued; one that does not go in QUIT_WAIT is
 * killed. Returns its wait status. */
static int
end_window (WindowProbes *probes,
            RpPartHost   *host)
{
  double deadline = rp_clock_now () + QUIT_WAIT;
  int status = 0;

  if (probes->in_fd >= 0)
    close (probes->in_fd);
  probes->in_fd = -1;
  kill (probes->pid, SIGCONT);
  while (!probes->ended && rp_clock_now () < deadline)
    {
      struct pollfd fd = { probes->out_fd, POLLIN, 0 };

      if (poll (&fd, 1, 100) > 0)
        read_lines (probes, host);
    }
  if (!probes->ended)
    kill (probes->pid, SIGKILL);
  while (waitpid (probes->pid, &status, 0) < 0 && errno == EINTR)
    ;
  close (probes->out_fd);
  probes->out_fd = -1;
  return status;
}

static const char *
input_clock_verdict (WindowProbes *probes)
{
  if (probes->n_input == 0)
    return "no events";
  if (probes->n_unknown == 0)
    return "known";
  if (probes->n_zero == probes->n_input)
    return RP_INPUT_CLOCK_UNUSABLE_ZERO;
  if (probes->n_unknown == probes->n_input)
    return RP_INPUT_CLOCK_UNUSABLE_OTHER;
  return "mixed";
}

static void
set_notes (WindowProbes *probes,
           RpPartHost   *host)
{
  rp_part_host_set_note (host, "mainloop_timer",
                         "timerfd CLOCK_MONOTONIC, period 10 ms, G_PRIORITY_DEFAULT, in the probe window");
  rp_part_host_set_note (host, "input_clock",
                         "event time (ms, 32 bit) compared with CLOCK_MONOTONIC; |delta| >= 1 s counted as unknown");
  rp_part_host_set_note (host, "wakeup_period", "0.05 s");
  rp_part_host_set_note (host, "late_frame_rule", "interval over 1.5 refresh intervals");
  rp_part_host_set_number_note (host, "frames", "%.0f", (double) probes->n_frames);
  rp_part_host_set_number_note (host, "late_frames", "%.0f", (double) probes->n_late_frames);
  rp_part_host_set_number_note (host, "input_events", "%.0f", (double) probes->n_input);
  rp_part_host_set_number_note (host, "input_events_unknown_clock", "%.0f", (double) probes->n_unknown);
  rp_part_host_set_number_note (host, "input_events_time_zero", "%.0f", (double) probes->n_zero);
  rp_part_host_set_note (host, RP_NOTE_INPUT_CLOCK_STATUS, input_clock_verdict (probes));
  rp_part_host_set_note (host, "simulate_save", probes->save_dir != NULL ? "on" : "off");
  rp_part_host_set_number_note (host, "main_thread_saves", "%.0f", (double) probes->n_saves);
  rp_part_host_set_number_note (host, "felt_stalls", "%.0f", (double) probes->n_stalls);
  if (probes->evidence != NULL)
    {
      rp_part_host_set_number_note (host, "felt_evidence_looks", "%.0f",
                                    (double) rp_felt_evidence_get_looks (probes->evidence));
      rp_part_host_set_note (host, "felt_evidence_source", rp_felt_evidence_get_source (probes->evidence));
    }
  if (probes->reads->len > 0)
    rp_part_host_set_note (host, "probe_window_reads", probes->reads->str);
}

static void
window_probes_run (RpPartHost *host,
                   gpointer    state)
{
  WindowProbes *probes = state;
  g_autoptr(GError) error = NULL;
  double last_changed = 0;
  int status;

  probes->lateness = rp_part_host_ensure_series (host, RP_SERIES_MAINLOOP_LATENESS, "s", _("Main-loop lateness"));
  probes->frames = rp_part_host_ensure_series (host, RP_SERIES_FRAME_INTERVAL, "s", _("Frame interval"));
  probes->late_frames = rp_part_host_ensure_series (host, RP_SERIES_LATE_FRAMES, "s", _("Late frames"));
  probes->input = rp_part_host_ensure_series (host, RP_SERIES_INPUT_LATENCY, "s", _("Input latency"));
  probes->wakeup = rp_part_host_ensure_series (host, RP_SERIES_WAKEUP_LATENCY, "s", _("Wake-up latency"));
  if (probes->save_dir != NULL)
    probes->save = rp_part_host_ensure_series (host, RP_SERIES_MAIN_THREAD_SAVE, "s",
                                               _("Save on the main thread"));

  if (!start_window (probes, &error))
    {
      g_prefix_error (&error, _("The probe window could not start: "));
      rp_part_host_fail (host, error);
      return;
    }
  rp_part_host_set_number_note (host, "probe_window_pid", "%.0f", (double) probes->pid);
  /* CLOCK_MONOTONIC of run time 0: what a test or another tool stamped on
   * that clock (a signal it sent, a load it ran) placed on the run's axis. */
  rp_part_host_set_number_note (host, "monotonic_at_run_start", "%.6f",
                                -rp_part_host_time_from_monotonic (host, 0));

  while (!probes->ended && rp_part_host_sleep (host, sleep_time (probes, rp_clock_now ())))
    {
      double now, due;

      read_lines (probes, host);
      rp_felt_evidence_settle (probes->evidence);
      now = rp_clock_now ();
      due = probes->ready ? rp_felt_evidence_next_look (probes->evidence, probes->look_period) : 0;
      if (due > 0 && now >= due)
        rp_felt_evidence_look (probes->evidence, now);
      if (now - last_changed >= CHANGED_PERIOD)
        {
          rp_part_host_changed (host);
          last_changed = now;
        }
    }

  status = end_window (probes, host);
  /* How it ended, when not as asked (it crashed, or was killed): the felt
   * series end there. */
  if (WIFSIGNALED (status) || (WIFEXITED (status) && WEXITSTATUS (status) != 0))
    {
      g_autofree char *how = WIFSIGNALED (status) ? g_strdup_printf ("signal %d", WTERMSIG (status))
                                                  : g_strdup_printf ("exit %d", WEXITSTATUS (status));

      rp_part_host_set_note (host, "probe_window_exit", how);
    }
  /* It could not show itself (no display it can open): the run has no
   * felt probes, which it must say rather than judge an empty series. */
  if (!probes->ready && !rp_part_host_should_stop (host))
    {
      g_set_error (&error, RP_ERROR, RP_ERROR_FAILED,
                   _("The probe window ended before it could measure (exit status %d)"),
                   WIFEXITED (status) ? WEXITSTATUS (status) : 128 + WTERMSIG (status));
      rp_part_host_fail (host, error);
    }
  set_notes (probes, host);
}

static const RpWorkerClass worker = {
  .name = "window-probes",
  .prepare = window_probes_prepare,
  .run = window_probes_run,
  .free_state = window_probes_free,
};

static const RpParamInfo params[] = {
  { "simulate_save", "simulate-save", "simulate-save", RP_PARAM_FLAG, 0, 1, 0, NULL,
    N_("Probe window: write and fsync 256 KiB on its main thread every second, as a naive application saves"),
    NULL },
};

/* The probe window measures these in its own process; they are described
 * here, with every other series, so that charts, summaries and comparisons
 * know them. The main loop decides the verdict's severity with the disk
 * calls: a stalled application is what a desktop user feels first. */
static const RpSeriesInfo series[] = {
  { RP_SERIES_MAINLOOP_LATENESS, "s", N_("Main-loop lateness"), "ui-latency", N_("main loop"), N_("Main loop"),
    N_("How late the probe window’s 10 ms timer ran: the delay any click or redraw of an application would have had"),
    20, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("The probe window’s main loop"), NULL, RP_CALL_KIND_WAIT, N_("The probe window’s main loop") },
  { RP_SERIES_FRAME_INTERVAL, "s", N_("Frame interval"), "ui-latency", N_("frames"), N_("Frames"),
    N_("Time between two frames of the probe window, which draws one at every refresh of the screen"),
    21, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Frames of the probe window"), NULL, RP_CALL_KIND_WAIT, N_("A frame of the probe window") },
  { RP_SERIES_INPUT_LATENCY, "s", N_("Input latency"), "ui-latency", N_("input"), N_("Input"),
    N_("From a key press or pointer motion to the probe window handling it"),
    22, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Input handling"), NULL, RP_CALL_KIND_WAIT, N_("An input event") },
  { RP_SERIES_WAKEUP_LATENCY, "s", N_("Wake-up latency"), "ui-latency", N_("wake-up"), N_("Wake-up"),
    N_("From a worker thread’s message to the probe window’s main thread running it"),
    23, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Wake-ups of the main thread"), NULL, RP_CALL_KIND_WAIT, N_("A wake-up of the probe window") },
  { RP_SERIES_MAIN_THREAD_SAVE, "s", N_("Save on the main thread"), NULL, N_("Naive save"), N_("Naive save"),
    N_("Writing and fsyncing 256 KiB on the main thread, as the simulation does"),
    24, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Saves on the main thread"), NULL, RP_CALL_KIND_FLUSH, N_("A save on the main thread") },
  { RP_SERIES_LATE_FRAMES, "s", N_("Late frames"), NULL, NULL, NULL, NULL,
    25, RP_SUMMARY_NONE, RP_SERIES_FLAG_NONE },
};

static char *
window_probes_describe (const RpParams *p)
{
  return g_strdup (rp_params_get_flag (p, "simulate_save")
                   ? _("saving 256 KiB on its main thread every second")
                   : _("drawn at every refresh"));
}

const RpPartInfo rp_window_probes_part = {
  .id = "window",
  .role = RP_PART_PROBE,
  .label = N_("Probe window: main loop, frames, input"),
  /* TRANSLATORS: %s is e.g. "drawn at every refresh" */
  .sentence = N_("probe window %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .in_baseline = TRUE,
  .describe = window_probes_describe,
};
