/* rp-cli-run.c: `resprobe-cli run`: run a scenario, print fsync-tester lines, save a report. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <glib-unix.h>
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include "rp-cli.h"
#include "rp-clock.h"
#include "rp-error.h"
#include "rp-report.h"
#include "rp-session.h"
#include "rp-units.h"

/* Without a terminal, progress goes out as a line this often instead of a
 * constantly rewritten one. */
#define PROGRESS_LINE_PERIOD 5.0

typedef struct {
  RpSession *session;
  GMainLoop *loop;
  guint      fsync_printed;
  gboolean   stderr_is_tty;
  double     last_progress;
  gboolean   progress_shown;
  int        signals_received;
} RunState;

typedef struct {
  char    *scenario;
  char    *directory;
  char    *size;
  char    *block_size;
  char    *duration;
  char    *interval;
  char    *report;
  gboolean direct;
  gboolean fdatasync;
  gboolean until_written;
} RunOptions;

static void
run_options_clear (RunOptions *options)
{
  g_free (options->scenario);
  g_free (options->directory);
  g_free (options->size);
  g_free (options->block_size);
  g_free (options->duration);
  g_free (options->interval);
  g_free (options->report);
}

/* Applies the options to the preset; every bad value is an error naming its
 * option, and nothing runs. */
static RpScenario *
scenario_from_options (const RunOptions  *options,
                       GError           **error)
{
  g_autoptr(RpScenario) scenario = NULL;

  scenario = rp_scenario_new_preset (options->scenario ? options->scenario : "R1", error);
  if (scenario == NULL)
    return NULL;

  if (options->directory != NULL)
    {
      g_free (scenario->directory);
      scenario->directory = g_strdup (options->directory);
    }
  if (options->size != NULL &&
      !rp_parse_size (options->size, "--size", &scenario->writer_total_size, error))
    return NULL;
  if (options->block_size != NULL &&
      !rp_parse_size (options->block_size, "--block-size", &scenario->writer_block_size, error))
    return NULL;
  if (options->duration != NULL &&
      !rp_parse_duration (options->duration, "--duration", &scenario->duration, error))
    return NULL;
  if (options->interval != NULL &&
      !rp_parse_duration (options->interval, "--interval", &scenario->fsync_interval, error))
    return NULL;

  scenario->writer_direct = options->direct;
  scenario->writer_fdatasync = options->fdatasync;
  scenario->stop_when_loads_finish = options->until_written;

  if (!rp_scenario_validate (scenario, error))
    return NULL;
  return g_steal_pointer (&scenario);
}

static void
print_header (RpSession *session)
{
  static const char *header_keys[] = {
    "target_directory", "fs_type", "journal_mode", "mount_options", "source_device",
    "scheduler", "rotational", "kernel_release", "machine",
  };
  const RpSysinfo *sysinfo = rp_session_get_sysinfo (session);
  g_autoptr(GPtrArray) fields = rp_sysinfo_get_fields (sysinfo);
  g_auto(GStrv) warnings = rp_sysinfo_get_warnings (sysinfo);
  g_autofree char *description = rp_scenario_describe (rp_session_get_scenario (session));

  g_print ("# %s %s\n", _("Responsiveness Probe"), PACKAGE_VERSION);
  for (guint k = 0; k < G_N_ELEMENTS (header_keys); k++)
    for (guint i = 0; i < fields->len; i++)
      {
        const RpSysinfoField *field = g_ptr_array_index (fields, i);

        if (g_str_equal (field->key, header_keys[k]))
          g_print ("# %s: %s\n", field->label, field->value);
      }
  g_print ("# %s: %s\n", _("Scenario"), description);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    g_print ("# %s %s\n", _("Warning:"), warnings[i]);
}

/* New fsync samples, exactly as fsync-tester printed them. */
static void
print_new_fsync_lines (RunState *state)
{
  RpSeries *series = rp_session_lookup_series (state->session, "fsync_latency");
  g_autofree RpPoint *points = NULL;
  guint n = 0;

  if (series == NULL)
    return;
  points = rp_series_copy_points (series, state->fsync_printed, &n);
  for (guint i = 0; i < n; i++)
    {
      char number[G_ASCII_DTOSTR_BUF_SIZE];

      if (state->progress_shown && state->stderr_is_tty)
        {
          g_printerr ("\r\033[K");
          state->progress_shown = FALSE;
        }
      g_print ("fsync time: %s\n", g_ascii_formatd (number, sizeof number, "%.4f", points[i].v));
    }
  state->fsync_printed += n;
  fflush (stdout);
}

static void
print_progress (RunState *state)
{
  RpSeries *written = rp_session_lookup_series (state->session, "writer_bytes");
  RpSeries *throughput = rp_session_lookup_series (state->session, "writer_throughput");
  RpPoint bytes, rate;
  double now = rp_clock_now ();
  g_autofree char *bytes_text = NULL;
  g_autofree char *rate_text = NULL;

  if (written == NULL || throughput == NULL ||
      !rp_series_get_last (written, &bytes) || !rp_series_get_last (throughput, &rate))
    return;
  if (!state->stderr_is_tty && now - state->last_progress < PROGRESS_LINE_PERIOD)
    return;
  state->last_progress = now;

  bytes_text = rp_format_size ((guint64) bytes.v);
  rate_text = rp_format_rate (rate.v);
  /* TRANSLATORS: progress line, e.g. "[12 s] written 1.2 GiB, 456.0 MiB/s" */
  g_printerr (_("%s[%.0f s] written %s, %s%s"),
              state->stderr_is_tty ? "\r\033[K" : "",
              rp_session_get_elapsed (state->session), bytes_text, rate_text,
              state->stderr_is_tty ? "" : "\n");
  state->progress_shown = TRUE;
}

static void
on_updated (RpSession *session,
            RunState  *state)
{
  print_new_fsync_lines (state);
  print_progress (state);
}

static void
on_finished (RpSession *session,
             RunState  *state)
{
  if (state->progress_shown && state->stderr_is_tty)
    g_printerr ("\n");
  g_main_loop_quit (state->loop);
}

static gboolean
on_signal (gpointer data)
{
  RunState *state = data;

  /* The first signal stops the run; the summary and the report still come. */
  if (state->signals_received++ == 0)
    g_printerr (_("\nStopping…\n"));
  rp_session_stop (state->session);
  return G_SOURCE_CONTINUE;
}

static void
print_latency_row (RpReport   *report,
                   const char *name,
                   const char *label)
{
  RpSeries *series = rp_report_lookup_series (report, name);
  RpStats stats;
  g_autofree char *p50 = NULL, *p90 = NULL, *p99 = NULL, *max = NULL;

  if (series == NULL || rp_series_get_length (series) == 0)
    return;
  rp_series_compute_stats (series, &stats);
  p50 = rp_format_latency (stats.p50);
  p90 = rp_format_latency (stats.p90);
  p99 = rp_format_latency (stats.p99);
  max = rp_format_latency (stats.max);
  g_print ("%-18s %6" G_GUINT64_FORMAT " %10s %10s %10s %10s %7" G_GUINT64_FORMAT " %6" G_GUINT64_FORMAT "\n",
           label, stats.n, p50, p90, p99, max, stats.over_instant, stats.over_flow);
}

static double
series_mean (RpReport   *report,
             const char *name)
{
  RpSeries *series = rp_report_lookup_series (report, name);
  RpStats stats;

  if (series == NULL)
    return -1;
  rp_series_compute_stats (series, &stats);
  return stats.n > 0 ? stats.mean : -1;
}

static void
print_summary (RpReport *report)
{
  g_autofree char *verdict = rp_report_get_verdict (report);
  GHashTable *notes = rp_report_get_notes (report);
  const char *bytes_total = g_hash_table_lookup (notes, "writer_bytes_total");
  const char *seconds = g_hash_table_lookup (notes, "writer_seconds");
  double iowait = series_mean (report, "cpu_iowait");
  double system = series_mean (report, "cpu_system");
  double psi_some = series_mean (report, "psi_io_some");
  double psi_full = series_mean (report, "psi_io_full");

  g_print ("\n%-18s %6s %10s %10s %10s %10s %7s %6s\n", _("Summary"), "n", "p50", "p90", "p99",
           "max", ">0.1 s", ">1 s");
  print_latency_row (report, "fsync_latency", _("fsync latency"));
  print_latency_row (report, "fsync_pwrite_latency", _("probe write"));

  if (bytes_total != NULL && seconds != NULL && g_ascii_strtod (seconds, NULL) > 0)
    {
      guint64 bytes = g_ascii_strtoull (bytes_total, NULL, 10);
      g_autofree char *size = rp_format_size (bytes);
      g_autofree char *rate = rp_format_rate ((double) bytes / g_ascii_strtod (seconds, NULL));

      g_print (_("Writer: %s in %s s, %s\n"), size, seconds, rate);
    }
  if (iowait >= 0)
    g_print (_("CPU (mean): system %.1f %%, iowait %.1f %%\n"), system * 100, iowait * 100);
  if (psi_some >= 0)
    g_print (_("I/O pressure (mean): some %.1f %%, full %.1f %%\n"),
             psi_some * 100, MAX (psi_full, 0) * 100);
  g_print ("%s\n", verdict);
  if (rp_report_get_error_message (report) != NULL)
    g_print (_("The run ended early: %s\n"), rp_report_get_error_message (report));
}

static char *
default_report_path (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");
  g_autofree char *name = g_strdup_printf ("resprobe-%s.json", stamp);
  g_autofree char *directory = g_build_filename (g_get_user_data_dir (), "resprobe", "reports", NULL);

  g_mkdir_with_parents (directory, 0700);
  return g_build_filename (directory, name, NULL);
}

typedef struct {
  GMainLoop *loop;
  GError    *error;
} StartResult;

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  StartResult *start = user_data;

  if (rp_session_start_finish (RP_SESSION (object), result, &start->error))
    print_header (RP_SESSION (object));
  else
    g_main_loop_quit (start->loop);
}

/* Errors found before anything ran come from the user's values: usage errors. */
static int
exit_code_for_start_error (const GError *error)
{
  if (g_error_matches (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT) ||
      g_error_matches (error, RP_ERROR, RP_ERROR_TARGET) ||
      g_error_matches (error, RP_ERROR, RP_ERROR_NO_SPACE))
    return RP_CLI_EXIT_USAGE;
  return RP_CLI_EXIT_FAILURE;
}

/**
 * rp_cli_run:
 * @argc: argument count, argv[0] being "run"
 * @argv: arguments
 *
 * `resprobe-cli run [--scenario NAME] [--dir DIR] [--size SIZE]
 * [--block-size SIZE] [--duration SECONDS] [--interval SECONDS]
 * [--report FILE.json]`. SIGINT and SIGTERM stop the run; the summary is
 * printed and the report saved all the same.
 *
 * Returns: 0, 1 when the run failed, 2 for bad options
 */
int
rp_cli_run (int    argc,
            char **argv)
{
  RunOptions options = { 0 };
  GOptionEntry entries[] = {
    { "scenario", 0, 0, G_OPTION_ARG_STRING, &options.scenario, N_("Preset to run (default R1)"), N_("NAME") },
    { "dir", 'd', 0, G_OPTION_ARG_FILENAME, &options.directory, N_("Target directory (default ~/.cache/resprobe)"), N_("DIR") },
    { "size", 's', 0, G_OPTION_ARG_STRING, &options.size, N_("Total size the writer writes (default 15000M, at most half the free space)"), N_("SIZE") },
    { "block-size", 'b', 0, G_OPTION_ARG_STRING, &options.block_size, N_("Writer block size, dd’s bs= (default 1M)"), N_("SIZE") },
    { "duration", 't', 0, G_OPTION_ARG_STRING, &options.duration, N_("Stop after this many seconds (default: until the writer is done or Ctrl-C)"), N_("SECONDS") },
    { "interval", 'i', 0, G_OPTION_ARG_STRING, &options.interval, N_("Sleep between fsync probes (default 1 s)"), N_("SECONDS") },
    { "report", 'o', 0, G_OPTION_ARG_FILENAME, &options.report, N_("Save the JSON report here (default ~/.local/share/resprobe/reports/)"), N_("FILE") },
    { "direct", 0, 0, G_OPTION_ARG_NONE, &options.direct, N_("Writer uses O_DIRECT (dd oflag=direct)"), NULL },
    { "fdatasync", 0, 0, G_OPTION_ARG_NONE, &options.fdatasync, N_("Writer calls fdatasync() at the end (dd conv=fdatasync)"), NULL },
    { NULL }
  };
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(RpScenario) scenario = NULL;
  g_autoptr(RpSession) session = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) report_file = NULL;
  g_autofree char *report_path = NULL;
  RunState state = { 0 };
  StartResult start = { 0 };
  guint sigint_id, sigterm_id;
  int exit_code = RP_CLI_EXIT_OK;

  g_option_context_set_summary (context, _("Measure fsync latency while a load runs (R1: a dd-style writer)."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!rp_cli_parse_options (context, &argc, &argv))
    {
      run_options_clear (&options);
      return RP_CLI_EXIT_USAGE;
    }
  if (argc > 1)
    {
      g_printerr (_("resprobe-cli: unexpected argument “%s”\n"), argv[1]);
      run_options_clear (&options);
      return RP_CLI_EXIT_USAGE;
    }

  /* The writer stops by itself when no duration is given: dd's behaviour. */
  options.until_written = options.duration == NULL;
  scenario = scenario_from_options (&options, &error);
  report_path = options.report ? g_strdup (options.report) : NULL;
  run_options_clear (&options);
  if (scenario == NULL)
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);

  loop = g_main_loop_new (NULL, FALSE);
  session = rp_session_new (scenario);
  state.session = session;
  state.loop = loop;
  state.stderr_is_tty = isatty (STDERR_FILENO);
  state.last_progress = -G_MAXDOUBLE;

  g_signal_connect (session, "updated", G_CALLBACK (on_updated), &state);
  g_signal_connect (session, "finished", G_CALLBACK (on_finished), &state);
  sigint_id = g_unix_signal_add (SIGINT, on_signal, &state);
  sigterm_id = g_unix_signal_add (SIGTERM, on_signal, &state);

  start.loop = loop;
  rp_session_start_async (session, NULL, on_started, &start);
  g_main_loop_run (loop);
  g_source_remove (sigint_id);
  g_source_remove (sigterm_id);

  if (start.error != NULL)
    {
      error = g_steal_pointer (&start.error);
      return rp_cli_fail (exit_code_for_start_error (error), error);
    }

  print_new_fsync_lines (&state);
  report = rp_report_new_from_session (session);
  print_summary (report);

  if (report_path == NULL)
    report_path = default_report_path ();
  report_file = g_file_new_for_commandline_arg (report_path);
  if (!rp_report_save (report, report_file, "json", &error))
    return rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
  g_print (_("Report saved to %s\n"), report_path);

  if (rp_session_get_error (session) != NULL)
    exit_code = RP_CLI_EXIT_FAILURE;
  return exit_code;
}
