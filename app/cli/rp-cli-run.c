/* rp-cli-run.c: `resprobe-cli run`: run a scenario, print fsync-tester lines, save a report. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-cli.h"
#include "rp-clock.h"
#include "rp-error.h"
#include "rp-parts.h"
#include "rp-report.h"
#include "rp-session.h"
#include "rp-cli-run-options.h"
#include "rp-text.h"
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
  gboolean   writer_done;     /* dd's writer has written its size */
  int        signals_received;
} RunState;

/* "# Label: value", wrapped to 80 columns like the text report: the lines
 * before the fsync lines are pasted into bug trackers with them. */
static void
append_header_line (GString    *out,
                    const char *label,
                    const char *value)
{
  g_autofree char *line = g_strdup_printf ("%s: %s", label, value);

  rp_text_append_wrapped (out, "# ", "#   ", line);
}

/* What the start removed of killed runs (rp-run-folder.c), or could not. */
static void
append_leftovers (GString   *out,
                  RpSession *session)
{
  g_autoptr(GHashTable) notes = rp_session_get_notes (session);
  const char *removed = g_hash_table_lookup (notes, RP_NOTE_LEFTOVERS_REMOVED);
  const char *failed = g_hash_table_lookup (notes, RP_NOTE_LEFTOVERS_FAILED);

  if (removed != NULL)
    {
      /* TRANSLATORS: %s lists folders, e.g. "resprobe-save-4242-1234-a1B2c3" */
      g_autofree char *line = g_strdup_printf (_("Removed what killed runs left in the target: %s"), removed);

      rp_text_append_wrapped (out, "# ", "#   ", line);
    }
  if (failed != NULL)
    {
      g_autofree char *line = g_strdup_printf ("%s %s", _("Warning:"), failed);

      rp_text_append_wrapped (out, "# ", "#   ", line);
    }
}

static void
print_header (RpSession *session)
{
  static const char *header_keys[] = {
    "target_directory", "fs_type", "journal_mode", "mount_options", "source_device",
    "scheduler", "rotational", "loop_backing_file", "backing_fs_type", "backing_disk",
    "backing_scheduler", "backing_wbt_lat_usec", "load_directory", "load_fs_type",
    "load_source_device", "bdi", "bdi_max_ratio", "bdi_strict_limit", "kernel_release", "machine",
  };
  const RpSysinfo *sysinfo = rp_session_get_sysinfo (session);
  g_autoptr(GPtrArray) fields = rp_sysinfo_get_fields (sysinfo);
  g_auto(GStrv) warnings = rp_sysinfo_get_warnings (sysinfo);
  g_autofree char *description = rp_scenario_describe (rp_session_get_scenario (session));
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *title = g_strdup_printf ("%s %s", _("Responsiveness Probe"), PACKAGE_VERSION);

  rp_text_append_wrapped (out, "# ", "# ", title);
  for (guint k = 0; k < G_N_ELEMENTS (header_keys); k++)
    for (guint i = 0; i < fields->len; i++)
      {
        const RpSysinfoField *field = g_ptr_array_index (fields, i);

        /* The load folder's lines only when the loads ran elsewhere. */
        if (g_str_has_prefix (field->key, "load_") && sysinfo->load_directory == NULL)
          continue;
        if (g_str_equal (field->key, header_keys[k]))
          append_header_line (out, field->label, field->value);
      }
  append_header_line (out, _("Scenario"), description);
  for (guint i = 0; warnings != NULL && warnings[i] != NULL; i++)
    {
      g_autofree char *line = g_strdup_printf ("%s %s", _("Warning:"), warnings[i]);

      rp_text_append_wrapped (out, "# ", "#   ", line);
    }
  append_leftovers (out, session);
  g_print ("%s", out->str);
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

/* The last value of series @name, when it has one. */
static gboolean
last_value (RunState   *state,
            const char *name,
            double     *out_value)
{
  RpSeries *series = rp_session_lookup_series (state->session, name);
  RpPoint point;

  if (series == NULL || !rp_series_get_last (series, &point))
    return FALSE;
  *out_value = point.v;
  return TRUE;
}

static void
print_progress (RunState *state)
{
  g_autoptr(GString) parts = g_string_new (NULL);
  double now = rp_clock_now ();
  double bytes, rate;

  /* The writer has finished (it notes its time): its last rate would read
   * as if it still wrote. What goes on now is the kernel's writeback. */
  if (!state->writer_done && last_value (state, "writer_bytes", &bytes))
    {
      g_autoptr(GHashTable) notes = rp_session_get_notes (state->session);

      state->writer_done = g_hash_table_contains (notes, "writer_seconds");
    }
  if (state->writer_done && last_value (state, "writer_bytes", &bytes))
    {
      g_autofree char *bytes_text = rp_format_size ((guint64) bytes);
      double dirty, writeback;

      /* TRANSLATORS: part of the progress line once dd's writer is done, e.g. "writer done (4.0 GiB)" */
      g_string_append_printf (parts, _("writer done (%s)"), bytes_text);
      if (last_value (state, "dirty_bytes", &dirty) && last_value (state, "writeback_bytes", &writeback))
        {
          g_autofree char *dirty_text = rp_format_size ((guint64) MAX (dirty, 0));
          g_autofree char *writeback_text = rp_format_size ((guint64) MAX (writeback, 0));

          /* TRANSLATORS: part of the progress line: memory still to be written to the disk,
           * e.g. "dirty 1.2 GiB, writeback 80.0 MiB" */
          g_string_append_printf (parts, _(", dirty %s, writeback %s"), dirty_text, writeback_text);
        }
    }
  else if (last_value (state, "writer_bytes", &bytes) && last_value (state, "writer_throughput", &rate))
    {
      g_autofree char *bytes_text = rp_format_size ((guint64) bytes);
      g_autofree char *rate_text = rp_format_rate (rate);

      /* TRANSLATORS: part of the progress line, e.g. "written 1.2 GiB, 456.0 MiB/s" */
      g_string_append_printf (parts, _("written %s, %s"), bytes_text, rate_text);
    }
  if (last_value (state, "copy_throughput", &rate))
    {
      g_autofree char *rate_text = rp_format_rate (rate);

      g_string_append (parts, parts->len ? ", " : "");
      /* TRANSLATORS: part of the progress line, e.g. "copying 98.0 MiB/s" */
      g_string_append_printf (parts, _("copying %s"), rate_text);
    }
  if (last_value (state, "cpu_bench_rate", &rate))
    {
      g_string_append (parts, parts->len ? ", " : "");
      /* TRANSLATORS: part of the progress line, e.g. "CPU benchmark 2400 ops/s" */
      g_string_append_printf (parts, _("CPU benchmark %.0f ops/s"), rate);
    }
  if (parts->len == 0)
    return;
  if (!state->stderr_is_tty && now - state->last_progress < PROGRESS_LINE_PERIOD)
    return;
  state->last_progress = now;

  /* TRANSLATORS: progress line, e.g. "[12 s] written 1.2 GiB, 456.0 MiB/s" */
  g_printerr (_("%s[%.0f s] %s%s"),
              state->stderr_is_tty ? "\r\033[K" : "",
              rp_session_get_elapsed (state->session), parts->str,
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
  /* A second while the stop still waits for threads (a file system that
   * does not answer): whoever sends it will not wait (issue 33: it was not
   * heard for 85 s); the threads are given up on now, and the summary and
   * the report still come. Once the run has ended, one that comes while
   * the report is saved has nothing left to stop. */
  else if (rp_session_get_state (state->session) != RP_SESSION_FINISHED)
    {
      if (state->signals_received == 2)
        g_printerr (_("resprobe-cli: stopped again: no more waiting for threads stuck in the kernel\n"));
      rp_session_stop_now (state->session);
      return G_SOURCE_CONTINUE;
    }
  rp_session_stop (state->session);
  return G_SOURCE_CONTINUE;
}

/* A row of the summary table: label, n, p50, p90, p99, max, > 0.1 s, > 1 s. */
static void
add_latency_row (GPtrArray  *rows,
                 RpReport   *report,
                 const char *name,
                 const char *label)
{
  RpSeries *series = rp_report_lookup_series (report, name);
  RpStats stats;
  char **cells;

  if (series == NULL || rp_series_get_length (series) == 0)
    return;
  rp_series_compute_stats (series, &stats);
  cells = g_new0 (char *, 9);
  cells[0] = g_strdup (label);
  cells[1] = g_strdup_printf ("%" G_GUINT64_FORMAT, stats.n);
  cells[2] = rp_format_latency (stats.p50);
  cells[3] = rp_format_latency (stats.p90);
  cells[4] = rp_format_latency (stats.p99);
  cells[5] = rp_format_latency (stats.max);
  cells[6] = g_strdup_printf ("%" G_GUINT64_FORMAT, stats.over_instant);
  cells[7] = g_strdup_printf ("%" G_GUINT64_FORMAT, stats.over_flow);
  g_ptr_array_add (rows, cells);
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

/* R3: the combined write() latency, then one row per thread, whose max is
 * what the reporters compared. The series hold the longest call of every
 * 0.1 s (see rp-parallel-writers.c), so n counts windows, not calls. */
static void
add_writer_rows (GPtrArray *rows,
                 RpReport  *report)
{
  add_latency_row (rows, report, "write_latency", _("write() max/0.1s"));
  for (guint i = 0; ; i++)
    {
      g_autofree char *name = g_strdup_printf ("write_latency_%u", i);
      g_autofree char *label = NULL;

      if (rp_report_lookup_series (report, name) == NULL)
        break;
      /* TRANSLATORS: a row of the summary table: write() latency of writer thread N */
      label = g_strdup_printf (_("write() #%u"), i);
      add_latency_row (rows, report, name, label);
    }
  add_latency_row (rows, report, "writers_fsync_latency", _("fsync after write"));
}

/* Every other row of the run summary (rp-run-summary.h) that the run has: a
 * part added to the parts table shows here without a line of its own. */
static void
add_other_rows (GPtrArray *rows,
                RpReport  *report)
{
  static const char *const above[] = {
    "fsync_latency", "write_latency", "writers_fsync_latency", "cold_read_latency", NULL,
  };

  for (guint i = 0; i < rp_run_summary_get_n_rows (); i++)
    {
      const RpSeriesInfo *info = rp_run_summary_get_row_info (i);

      if (!g_strv_contains ((const char * const *) above, info->name))
        add_latency_row (rows, report, info->name, _(info->label));
    }
}

static double
note_double (GHashTable *notes,
             const char *key)
{
  const char *value = g_hash_table_lookup (notes, key);
  double number;

  return rp_parse_note_number (value, -RP_NOTE_MAX_NUMBER, RP_NOTE_MAX_NUMBER, &number) ? number : NAN;
}

/* A line of the summary, wrapped to 80 columns. Takes @line. */
static void
append_line (GString *out,
             char    *line)
{
  g_strchomp (line);
  rp_text_append_wrapped (out, "", "  ", line);
  g_free (line);
}

static void
append_copy_line (GString    *out,
                  GHashTable *notes)
{
  const char *count = g_hash_table_lookup (notes, "copy_count");
  double bytes = note_double (notes, "copy_bytes_total");
  double seconds = note_double (notes, "copy_seconds");
  g_autofree char *size = NULL, *rate = NULL, *source = NULL;
  double source_bytes = note_double (notes, "copy_source_bytes");

  /* NAN (absent, or no number) and negatives fail these: no cast of either. */
  if (count == NULL || !(seconds > 0) || !(bytes >= 0) || !(source_bytes >= 0))
    return;
  size = rp_format_size ((guint64) bytes);
  source = rp_format_size ((guint64) source_bytes);
  rate = rp_format_rate (bytes / seconds);
  /* TRANSLATORS: e.g. "Copy loop: 3 copies of 1.0 GiB done, 3.4 GiB in 20.0 s, 174.1 MiB/s" */
  append_line (out, g_strdup_printf (_("Copy loop: %s copies of %s done, %s in %.1f s, %s\n"),
                                     count, source, size, seconds, rate));
}

static void
append_cpu_bench_line (GString    *out,
                       GHashTable *notes)
{
  double alone = note_double (notes, "cpu_bench_baseline_rate");
  double loaded = note_double (notes, "cpu_bench_rate_under_load");
  double loss = note_double (notes, "cpu_bench_loss_percent");

  if (isnan (alone) || isnan (loaded))
    return;
  /* TRANSLATORS: e.g. "CPU benchmark: 2400 ops/s alone, 1800 ops/s under load: 25.0 % lost" */
  append_line (out, g_strdup_printf (_("CPU benchmark: %.0f ops/s alone, %.0f ops/s under load: %.1f %% lost\n"),
                                     alone, loaded, isnan (loss) ? 0 : loss));
}

/* The command's last lines of output, at most @max_lines, one line of the
 * summary each: a command stopped with the run keeps what it said (dd's
 * totals after SIGINT), and a stranger's bytes are cleaned of control
 * characters. */
static void
append_command_output (GString    *out,
                       const char *label,
                       const char *tail,
                       guint       max_lines)
{
  g_auto(GStrv) lines = NULL;
  guint n, first;

  if (tail == NULL || *tail == '\0')
    return;
  lines = g_strsplit (tail, "\n", -1);
  n = g_strv_length (lines);
  while (n > 0 && *g_strstrip (lines[n - 1]) == '\0')
    n--;
  first = n > max_lines ? n - max_lines : 0;
  /* TRANSLATORS: %s is "Command" or "Command 2" */
  append_line (out, g_strdup_printf (_("%s output (last lines):\n"), label));
  for (guint i = first; i < n; i++)
    {
      g_autofree char *clean = rp_text_clean (lines[i], FALSE);

      rp_text_append_wrapped (out, "  ", "  ", clean);
    }
}

/* How a command ended, its times and its last output lines. */
static void
append_one_command (GString    *out,
                    GHashTable *notes,
                    guint       number,
                    guint       count)
{
  const char *status = rp_report_notes_command_note (notes, number, "exit_status");
  const char *stopped = rp_report_notes_command_note (notes, number, "stopped");
  const char *escaped_text = rp_report_notes_command_note (notes, number, "escaped_processes");
  const char *wall = rp_report_notes_command_note (notes, number, "wall_seconds");
  const char *user = rp_report_notes_command_note (notes, number, "user_seconds");
  const char *system = rp_report_notes_command_note (notes, number, "system_seconds");
  double escaped, wall_s, user_s, system_s;
  /* TRANSLATORS: a run's Nth command, e.g. "Command 2" */
  g_autofree char *label = count > 1 ? g_strdup_printf (_("Command %u"), number) : g_strdup (_("Command"));

  if (status == NULL)
    return;
  if (g_strcmp0 (stopped, "true") == 0)
    /* TRANSLATORS: "Command 2: exit 0 (stopped with the run)"; the status is not translated */
    append_line (out, g_strdup_printf (_("%s: %s (stopped with the run)\n"), label, status));
  else
    /* TRANSLATORS: "Command 2: exit 0"; the status is not translated */
    append_line (out, g_strdup_printf (_("%s: %s\n"), label, status));
  if (rp_parse_note_number (wall, 0, RP_NOTE_MAX_NUMBER, &wall_s) &&
      rp_parse_note_number (user, 0, RP_NOTE_MAX_NUMBER, &user_s) &&
      rp_parse_note_number (system, 0, RP_NOTE_MAX_NUMBER, &system_s))
    {
      g_autofree char *wall_text = rp_format_latency (wall_s);
      g_autofree char *user_text = rp_format_latency (user_s);
      g_autofree char *system_text = rp_format_latency (system_s);

      /* TRANSLATORS: "Command 2: ran 12.3 s, CPU 1.20 s user, 0.40 s system" (rusage) */
      append_line (out, g_strdup_printf (_("%s: ran %s, CPU %s user, %s system\n"),
                                         label, wall_text, user_text, system_text));
    }
  if (rp_parse_note_number (escaped_text, 1, RP_NOTE_MAX_COUNT, &escaped))
    append_line (out, g_strdup_printf (ngettext ("Command: %.0f process had left its process group (setsid, a daemon); it was stopped too\n",
                                                 "Command: %.0f processes had left its process group (setsid, a daemon); they were stopped too\n",
                                                 (unsigned long) escaped),
                                       escaped));
  append_command_output (out, label, rp_report_notes_command_note (notes, number, "output_tail"), 3);
}

/* Each command of the command load, in the order they were given. */
static void
append_command_line (GString    *out,
                     GHashTable *notes)
{
  guint count = rp_report_notes_command_count (notes);

  for (guint number = 1; number <= count; number++)
    append_one_command (out, notes, number, count);
}

/* Says on stderr which commands of the load failed by themselves (an exit
 * status other than 0, or a signal they were not stopped with); returns
 * whether one did. A command stopped with the run ended as asked. */
/**
 * rp_cli_report_failed_commands:
 * @notes: (element-type utf8 utf8): a report's notes
 *
 * Prints one line on standard error for each of the run's own commands
 * (`--command`, notes command_K_*) that failed: a non-zero exit status or a
 * signal, a command ended by the run's own stop excepted.
 *
 * Returns: %TRUE when one failed (the caller exits with
 *   %RP_CLI_EXIT_COMMAND: the run was measured, but not under the load asked for)
 */
gboolean
rp_cli_report_failed_commands (GHashTable *notes)
{
  guint count = rp_report_notes_command_count (notes);
  gboolean failed = FALSE;

  for (guint number = 1; number <= count; number++)
    {
      const char *status = rp_report_notes_command_note (notes, number, "exit_status");
      const char *line = rp_report_notes_command_note (notes, number, "line");
      g_autofree char *clean = rp_text_clean (line != NULL ? line : "?", FALSE);
      guint64 value = 0;

      if (!rp_report_notes_command_failed (notes, number))
        continue;
      failed = TRUE;
      if (g_str_has_prefix (status, "exit ") &&
          g_ascii_string_to_unsigned (status + 5, 10, 1, 255, &value, NULL))
        /* TRANSLATORS: %s is the command line, %d its exit status (1 to 255) */
        rp_cli_printerr (_("resprobe-cli: the command “%s” failed: it exited with status %d\n"),
                         clean, (int) value);
      else if (g_str_has_prefix (status, "signal ") &&
               g_ascii_string_to_unsigned (status + 7, 10, 1, 64, &value, NULL))
        /* TRANSLATORS: %s is the command line, %d the signal's number, the
         * last %s its name from the C library, e.g. "Killed" */
        rp_cli_printerr (_("resprobe-cli: the command “%s” failed: signal %d (%s) ended it\n"),
                         clean, (int) value, g_strsignal ((int) value));
      else
        /* TRANSLATORS: %s is the command line, the second %s how it ended, untranslated */
        rp_cli_printerr (_("resprobe-cli: the command “%s” failed: %s\n"), clean, status);
    }
  return failed;
}

static void
append_load_lines (GString  *out,
                   RpReport *report)
{
  GHashTable *notes = rp_report_get_notes (report);
  const char *writers_bytes = g_hash_table_lookup (notes, "writers_bytes_total");
  guint64 writers_total;

  append_copy_line (out, notes);
  append_cpu_bench_line (out, notes);
  if (rp_parse_note_count (writers_bytes, G_MAXINT64, &writers_total))
    {
      g_autofree char *size = rp_format_size (writers_total);
      const char *wraps = g_hash_table_lookup (notes, "writers_wraps");

      append_line (out, g_strdup_printf (_("Parallel writers: %s written, %s wrap-arounds\n"),
                                         size, wraps ? wraps : "0"));
    }
  append_command_line (out, notes);
}

/* Where the kernel events came from (note kernel_events_source), so that a
 * user who was asked for a password sees what it was for, and one run as
 * root sees it did not need the helper. */
static void
append_kernel_events_line (GString    *out,
                           GHashTable *notes)
{
  const char *source = g_hash_table_lookup (notes, RP_NOTE_KERNEL_EVENTS_SOURCE);

  if (g_strcmp0 (source, "helper") == 0)
    append_line (out, g_strdup (_("Kernel events: traced by the helper resprobed (authorized by polkit)\n")));
  else if (g_strcmp0 (source, "root") == 0)
    append_line (out, g_strdup (_("Kernel events: traced by this process (root)\n")));
}

/* The end of a run: a table of the latencies, the loads' totals, CPU and
 * pressure, the verdict; every line at most 80 columns (and bytes, in
 * Latin-script languages), as it is pasted into bug reports with the fsync
 * lines above it. */
static void
print_summary (RpReport *report)
{
  const char *header[] = { _("Summary"), "n", "p50", "p90", "p99", "max", ">0.1 s", ">1 s" };
  g_autoptr(GPtrArray) rows = g_ptr_array_new_with_free_func ((GDestroyNotify) g_strfreev);
  g_autoptr(GString) out = g_string_new ("\n");
  g_autofree char *verdict = rp_report_get_verdict (report);
  g_autofree char *in_short = rp_report_get_short_verdict (report);
  GHashTable *notes = rp_report_get_notes (report);
  const char *bytes_total = g_hash_table_lookup (notes, "writer_bytes_total");
  const char *seconds = g_hash_table_lookup (notes, "writer_seconds");
  guint64 bytes;
  double elapsed;
  double iowait = series_mean (report, "cpu_iowait");
  double system = series_mean (report, "cpu_system");
  double psi_some = series_mean (report, "psi_io_some");
  double psi_full = series_mean (report, "psi_io_full");

  add_latency_row (rows, report, "fsync_latency", _("fsync latency"));
  add_latency_row (rows, report, "fsync_pwrite_latency", _("probe write"));
  add_writer_rows (rows, report);
  add_latency_row (rows, report, "cold_read_latency", _("cold read"));
  add_other_rows (rows, report);
  if (rows->len > 0)
    rp_text_append_table (out, G_N_ELEMENTS (header), header, rows);
  else
    rp_text_append_wrapped (out, "", "", _("Summary"));

  if (rp_parse_note_count (bytes_total, G_MAXINT64, &bytes) &&
      rp_parse_note_number (seconds, 0, RP_NOTE_MAX_NUMBER, &elapsed) && elapsed > 0)
    {
      g_autofree char *size = rp_format_size (bytes);
      g_autofree char *rate = rp_format_rate ((double) bytes / elapsed);
      /* The note is C-locale text; shown here like the other numbers. */
      g_autofree char *shown = g_strdup_printf ("%.3f", elapsed);

      append_line (out, g_strdup_printf (_("Writer: %s in %s s, %s\n"), size, shown, rate));
    }
  append_load_lines (out, report);
  append_kernel_events_line (out, notes);
  if (iowait >= 0)
    append_line (out, g_strdup_printf (_("CPU (mean): system %.1f %%, iowait %.1f %%\n"),
                                       system * 100, iowait * 100));
  if (psi_some >= 0)
    append_line (out, g_strdup_printf (_("I/O pressure (mean): some %.1f %%, full %.1f %%\n"),
                                       psi_some * 100, MAX (psi_full, 0) * 100));
  /* The per-probe sentences, then the verdict in one sentence last, where
   * a reader looks first: it says a stopped or failed run was one. */
  if (g_strcmp0 (verdict, in_short) != 0)
    rp_text_append_wrapped (out, "", "", verdict);
  rp_text_append_wrapped (out, "", "", in_short);
  if (g_hash_table_contains (notes, "target_directory_removed"))
    append_line (out, g_strdup_printf (_("The target directory “%s” was removed during the run; the measurement went on in the files already open.\n"),
                                       rp_report_get_scenario (report)->directory));
  g_print ("%s", out->str);
  if (rp_report_get_error_message (report) != NULL)
    rp_cli_printerr (_("The run ended early: %s\n"), rp_report_get_error_message (report));
}

/* "resprobe-20261130-115242": the name of a report without --report, from
 * the time the run began. */
static char *
default_report_stem (void)
{
  g_autoptr(GDateTime) now = g_date_time_new_now_local ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%d-%H%M%S");

  return g_strdup_printf ("resprobe-%s", stamp);
}

static char *
default_report_directory (void)
{
  return g_build_filename (g_get_user_data_dir (), "resprobe", "reports", NULL);
}

static gboolean
make_report_directory (const char  *directory,
                       GError     **error)
{
  if (g_mkdir_with_parents (directory, 0700) == 0)
    return TRUE;
  rp_error_set_from_errno (error, errno, _("The report cannot be saved in"), directory);
  return FALSE;
}

/* Creates @path, empty, with O_EXCL: only while no file (not even a
 * dangling link) has that name, and no other run can take it before the
 * report is saved over it. The file stays empty until rp_report_save()
 * renames the complete report over it: only a kill -9 in that instant
 * leaves an empty file behind. Returns: 0, or the errno of open() */
static int
create_exclusive (const char *path)
{
  int fd = g_open (path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);

  if (fd < 0)
    return errno;
  g_close (fd, NULL);
  return 0;
}

/* Creates @directory/@stem.json, else @stem-2.json, @stem-3.json …, with
 * create_exclusive(): a name that no other file has, and that no other run
 * (one started in the same second, say) can take. */
static char *
reserve_report_file (const char  *directory,
                     const char  *stem,
                     GError     **error)
{
  int saved_errno = EEXIST;

  for (guint i = 1; i <= 1000 && saved_errno == EEXIST; i++)
    {
      g_autofree char *name = i == 1 ? g_strdup_printf ("%s.json", stem)
                                     : g_strdup_printf ("%s-%u.json", stem, i);
      g_autofree char *path = g_build_filename (directory, name, NULL);

      saved_errno = create_exclusive (path);
      if (saved_errno == 0)
        return g_steal_pointer (&path);
    }
  /* After a thousand names in use, EEXIST is the truth too. */
  rp_error_set_from_errno (error, saved_errno, _("The report cannot be saved in"), directory);
  return NULL;
}

/* Saves @report over @path, which create_exclusive() made. */
static gboolean
save_reserved_report (RpReport    *report,
                      const char  *path,
                      GError     **error)
{
  g_autoptr(GFile) file = g_file_new_for_path (path);

  if (rp_report_save (report, file, "json", error))
    return TRUE;
  /* rp_report_save() renames only a complete file: this is still our empty
   * one. */
  g_unlink (path);
  return FALSE;
}

/* Saves @report under a new name in @directory, never over another file.
 * Returns: (nullable): the path it was saved to */
static char *
save_new_report (RpReport    *report,
                 const char  *directory,
                 const char  *stem,
                 GError     **error)
{
  g_autofree char *path = reserve_report_file (directory, stem, error);

  if (path == NULL || !save_reserved_report (report, path, error))
    return NULL;
  return g_steal_pointer (&path);
}

/* --report without --force: an existing file was refused before the run,
 * and one that appeared since (a user's file, another run with the same
 * --report) is not replaced either. The file is created with
 * create_exclusive() and only then saved over; when it exists, @error is
 * G_IO_ERROR_EXISTS. A URI cannot be created so: it is saved as before. */
static gboolean
save_report_exclusively (RpReport    *report,
                         GFile       *file,
                         GError     **error)
{
  g_autofree char *path = g_file_get_path (file);
  int saved_errno;

  if (path == NULL)
    return rp_report_save (report, file, "json", error);
  saved_errno = create_exclusive (path);
  if (saved_errno == EEXIST)
    {
      /* TRANSLATORS: %s is the file given with --report, which did not
       * exist when the run started */
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_EXISTS,
                   _("--report: “%s” appeared during the run; not replaced"), path);
      return FALSE;
    }
  /* Its directory went away or became read-only: rp_report_save() says
   * which, naming the file. */
  if (saved_errno != 0)
    return rp_report_save (report, file, "json", error);
  return save_reserved_report (report, path, error);
}

/**
 * rp_cli_save_report_elsewhere:
 * @report: the report that could not be saved where it should
 * @failed_directory: (nullable): the folder that has just failed, not tried again
 * @stem: the file name to take, without ".json" ("-2" … is added when taken)
 *
 * The measurements of a run exist only in memory: when the report cannot
 * be saved where it should (the directory went away or became read-only,
 * the disk filled up, during a run of hours), it goes under a new name to
 * the default reports directory, else to the temporary directory, and the
 * user is told where (`run`, and each period of `monitor`).
 *
 * Returns: whether the report was saved
 */
gboolean
rp_cli_save_report_elsewhere (RpReport   *report,
                              GFile      *failed_directory,
                              const char *stem)
{
  g_autofree char *reports = default_report_directory ();
  const char *candidates[] = { reports, g_get_tmp_dir () };

  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      g_autoptr(GFile) directory = g_file_new_for_path (candidates[i]);
      g_autoptr(GError) error = NULL;
      g_autofree char *path = NULL;

      if (failed_directory != NULL && g_file_equal (directory, failed_directory))
        continue;
      /* The reports directory may not be there (any more). */
      if (make_report_directory (candidates[i], &error))
        path = save_new_report (report, candidates[i], stem, &error);
      if (path != NULL)
        {
          /* TRANSLATORS: %s is where the report went when the place asked
           * for failed, e.g. /tmp/resprobe-20261130-115242.json */
          rp_cli_printerr (_("The report was saved to %s instead.\n"), path);
          return TRUE;
        }
      rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
    }
  g_printerr ("%s\n", _("The report could not be saved anywhere: only the summary above is left."));
  return FALSE;
}

/* Saves the report to --report (replaced only with --force), or under a
 * new name in the default directory; on failure says why, and saves it
 * elsewhere. Returns whether it went where asked. */
static gboolean
save_run_report (RpReport   *report,
                 const char *report_path,
                 gboolean    force,
                 const char *report_directory,
                 const char *stem)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) failed_directory = NULL;
  g_autofree char *saved = NULL;

  if (report_path != NULL)
    {
      g_autoptr(GFile) file = g_file_new_for_commandline_arg (report_path);

      if (force ? rp_report_save (report, file, "json", &error)
                : save_report_exclusively (report, file, &error))
        saved = g_strdup (report_path);
      /* A file that appeared says nothing against its directory, which may
       * be the reports directory itself. */
      else if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_EXISTS))
        failed_directory = g_file_get_parent (file);
    }
  else
    {
      saved = save_new_report (report, report_directory, stem, &error);
      if (saved == NULL)
        failed_directory = g_file_new_for_path (report_directory);
    }
  if (saved != NULL)
    {
      rp_cli_print (_("Report saved to %s\n"), saved);
      /* Standard output gone (`| head`): say it where it can be read. */
      if (fflush (stdout) != 0 || ferror (stdout))
        rp_cli_printerr (_("Report saved to %s\n"), saved);
      return TRUE;
    }
  rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
  /* A report too large for JSON is as large anywhere else. */
  if (!g_error_matches (error, RP_ERROR, RP_ERROR_FAILED))
    rp_cli_save_report_elsewhere (report, failed_directory, stem);
  return FALSE;
}

/**
 * rp_cli_check_report_directory:
 * @directory: where reports are to be saved
 * @error: %RP_ERROR_PERMISSION (or the errno's code) naming @directory
 *
 * A run may last hours: a report that cannot be saved must be refused
 * before it starts, not found out after (`run`, `matrix`, `monitor`).
 *
 * Returns: whether @directory is a folder this process may write in
 */
gboolean
rp_cli_check_report_directory (const char  *directory,
                               GError     **error)
{
  /* access() of a file says EACCES, even to root: name the real cause. */
  if (g_file_test (directory, G_FILE_TEST_EXISTS) && !g_file_test (directory, G_FILE_TEST_IS_DIR))
    {
      rp_error_set_from_errno (error, ENOTDIR, _("The report cannot be saved in"), directory);
      return FALSE;
    }
  if (access (directory, W_OK | X_OK) != 0)
    {
      rp_error_set_from_errno (error, errno, _("The report cannot be saved in"), directory);
      return FALSE;
    }
  return TRUE;
}

/* --report, checked as check_report_directory() does. Only local files can
 * be checked; a URI is tried at the end as before. */
static gboolean
check_report_path (const char  *report_path,
                   gboolean     force,
                   GError     **error)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *path = NULL;
  g_autofree char *parent = NULL;
  g_autofree char *base = NULL;
  GStatBuf st;

  if (*report_path == '\0')
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("--report: the file name is empty"));
      return FALSE;
    }
  /* A trailing '/' names a directory: "newdir/" made a file "newdir". */
  if (g_str_has_suffix (report_path, "/"))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--report: “%s” names a directory; give a file name, e.g. %srun.json"),
                   report_path, report_path);
      return FALSE;
    }
  /* As for export -o: "-" is not standard output here, and a file named so
   * is more likely a mistake than a plan. */
  if (g_str_equal (report_path, "-"))
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                           _("--report: the report is a file; the run prints its summary and the "
                             "fsync times on standard output (for a file named “-”, give ./-)"));
      return FALSE;
    }
  file = g_file_new_for_commandline_arg (report_path);
  path = g_file_get_path (file);
  if (path == NULL)
    return TRUE;
  if (g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--report: “%s” is a directory; give a file name, e.g. %s/run.json"),
                   path, path);
      return FALSE;
    }
  /* A report is evidence: an earlier one is not replaced unless asked to,
   * as export does. A dangling link counts: the report could not be
   * created there without --force (see save_report_exclusively()). */
  if (!force && (g_file_test (path, G_FILE_TEST_EXISTS) || g_file_test (path, G_FILE_TEST_IS_SYMLINK)))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--report: “%s” already exists; use --force to replace it"), path);
      return FALSE;
    }
  /* rp_report_save() replaces only a regular file (a link, /dev/null or a
   * pipe would become one): refused now, not after a run of hours. */
  if (g_lstat (path, &st) == 0 && !S_ISREG (st.st_mode))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %s is the file given with --report and --force, e.g. a symbolic link or /dev/null */
                   _("--report: “%s” is not a regular file, and only a regular file is replaced"), path);
      return FALSE;
    }
  /* Found now rather than after the run, when only a fallback is left. */
  base = g_path_get_basename (path);
  if (strlen (base) > NAME_MAX)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %u is the length of the name given, %d the most a file system takes (255) */
                   g_dngettext (GETTEXT_PACKAGE, "--report: the file name is %u byte long; a file system takes at most %d",
                                "--report: the file name is %u bytes long; a file system takes at most %d",
                                strlen (base)),
                   (guint) strlen (base), NAME_MAX);
      return FALSE;
    }
  parent = g_path_get_dirname (path);
  if (rp_cli_check_report_directory (parent, error))
    return TRUE;
  /* Like the other --report messages: name the option. */
  g_prefix_error (error, "--report: ");
  return FALSE;
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

/* The threads a stop gave up on (the note RP_NOTE_ABANDONED_THREADS), said
 * after the summary: the report ends when the stop was asked, without them. */
static void
print_abandoned (RpReport *report)
{
  GHashTable *notes = rp_report_get_notes (report);
  const char *names = notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_ABANDONED_THREADS) : NULL;
  const char *waited = notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_STOP_WAIT_SECONDS) : NULL;

  if (names == NULL)
    return;
  /* TRANSLATORS: seconds, then parts such as "fsync-probe, seq-writer" */
  rp_cli_printerr (_("resprobe-cli: the stop waited %s s and abandoned threads stuck in the kernel (a file system that does not answer?): %s\n"),
                   waited != NULL ? waited : "?", names);
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

/* Takes what follows the first "--" as the command load's argv, before
 * GOption sees it: its options (`dd`'s, `sh -c`'s) are not ours. */
static char **
split_command_args (int   *argc,
                    char **argv)
{
  for (int i = 1; i < *argc; i++)
    if (g_str_equal (argv[i], "--"))
      {
        char **args = i + 1 < *argc ? g_strdupv (argv + i + 1) : NULL;

        argv[i] = NULL;
        *argc = i;
        return args;
      }
  return NULL;
}

/* One run of the scenario: its lines, summary and report. Returns the exit
 * code; *@out_report is the run's report (NULL when it did not start),
 * *@out_stopped whether a signal stopped it. */
static int
run_once (const RpScenario  *scenario,
          const char        *report_path,
          gboolean           force,
          const char        *report_directory,
          const char        *report_stem,
          guint              repeat,
          guint              repeats,
          guint64            machine_memory,
          RpReport         **out_report,
          gboolean          *out_stopped)
{
  g_autoptr(RpMemoryPin) pin = NULL;
  g_autoptr(RpSession) session = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autoptr(GMainLoop) loop = NULL;
  g_autoptr(GError) error = NULL;
  RunState state = { 0 };
  StartResult start = { 0 };
  RpCliStopSignals signals;
  gboolean saved;
  int exit_code = RP_CLI_EXIT_OK;

  *out_report = NULL;
  if (repeats > 1)
    /* TRANSLATORS: the run's number, how many runs were asked for (--repeat) */
    rp_cli_print (_("Run %u of %u\n"), repeat, repeats);
  /* Before the signal handlers: Ctrl-C while it pins ends the run, and the
   * pinning process with it. */
  if (machine_memory != 0)
    {
      pin = rp_cli_pin_memory (machine_memory, &error);
      if (pin == NULL)
        return rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
    }
  loop = g_main_loop_new (NULL, FALSE);
  session = rp_session_new (scenario);
  if (pin != NULL)
    rp_memory_pin_set_notes (pin, session);
  state.session = session;
  state.loop = loop;
  state.stderr_is_tty = isatty (STDERR_FILENO);
  state.last_progress = -G_MAXDOUBLE;

  g_signal_connect (session, "updated", G_CALLBACK (on_updated), &state);
  g_signal_connect (session, "finished", G_CALLBACK (on_finished), &state);
  rp_cli_stop_signals_add (&signals, on_signal, &state);

  /* Creating the copy loop's source and calibrating the CPU benchmark take a
   * while before the first line: say why nothing shows yet. */
  if (rp_scenario_has_part (scenario, "copy-loop") || rp_scenario_has_part (scenario, "cpu-bench") ||
      rp_scenario_has_part (scenario, "cold-read"))
    g_printerr ("%s\n", _("Preparing the loads and probes (creating files, calibrating)…"));

  start.loop = loop;
  rp_session_start_async (session, NULL, on_started, &start);
  g_main_loop_run (loop);

  *out_stopped = state.signals_received > 0;
  if (start.error != NULL)
    {
      rp_cli_stop_signals_remove (&signals);
      error = g_steal_pointer (&start.error);
      /* A stop that gave up on a preparation stuck in the kernel: stopped. */
      return rp_cli_fail (state.signals_received > 0 && g_error_matches (error, RP_ERROR, RP_ERROR_FAILED)
                          ? RP_CLI_EXIT_STOPPED : exit_code_for_start_error (error), error);
    }

  /* The handlers stay until the report is saved: without them a second
   * SIGTERM (a service manager's, an impatient user's) arriving after the
   * run ended killed the process before its summary and report (exit 143,
   * seen under stress-ng). Caught, it has nothing left to stop. */
  print_new_fsync_lines (&state);
  if (pin != NULL)
    {
      rp_memory_pin_set_notes (pin, session);
      g_clear_pointer (&pin, rp_memory_pin_free);
    }
  report = rp_report_new_from_session (session);
  print_summary (report);
  print_abandoned (report);

  if (repeats > 1)
    rp_report_set_configuration (report, scenario->name, scenario->name, repeat, repeats);
  *out_report = g_object_ref (report);
  saved = save_run_report (report, report_path, force, report_directory, report_stem);
  rp_cli_stop_signals_remove (&signals);
  /* A signal while the report was saved stops the repeats still to come. */
  *out_stopped = state.signals_received > 0;
  if (!saved)
    return RP_CLI_EXIT_FAILURE;

  if (rp_session_get_error (session) != NULL)
    exit_code = RP_CLI_EXIT_FAILURE;
  else if (g_strcmp0 (g_hash_table_lookup (rp_report_get_notes (report), "ended_by"), RP_ENDED_BY_REQUEST) == 0)
    exit_code = RP_CLI_EXIT_STOPPED;
  /* The run was measured, but not under the load asked for: a script must
   * not take it for a good run (trial: `--command false` exited 0). */
  if (rp_cli_report_failed_commands (rp_report_get_notes (report)))
    exit_code = rp_cli_exit_worse (exit_code, RP_CLI_EXIT_COMMAND);
  return exit_code;
}
/**
 * rp_cli_run:
 * @argc: argument count, argv[0] being "run"
 * @argv: arguments
 *
 * `resprobe-cli run [--scenario NAME] [--dir DIR] [--memory SIZE] [--size SIZE]
 * [--block-size SIZE] [--duration SECONDS] [--interval SECONDS]
 * [--report FILE.json] [--load NAME…] [--probe NAME…] [parameters of the
 * loads and probes] [-- COMMAND ARG…]`. SIGINT, SIGTERM and SIGHUP stop the
 * run; the summary is printed and the report saved all the same. Without
 * --report the report gets a new name, never that of an existing file;
 * --report replaces a file only with --force, not even one that appeared
 * during the run; a report that cannot be saved where asked is saved
 * elsewhere (exit 1).
 *
 * Returns: 0, 1 when the run failed, 2 for bad options, 3 when a signal
 *   stopped it (report saved, marked stopped), 4 when a command of the
 *   load failed by itself (report saved)
 */
int
rp_cli_run (int    argc,
            char **argv)
{
  g_auto(RpRunOptions) options;
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(RpScenario) scenario = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *report_path = NULL;        /* --report */
  g_autofree char *report_directory = NULL;   /* without --report */
  g_autofree char *report_stem = NULL;
  g_autofree char *report_stem_base = NULL;   /* with --repeat: each run's is STEM-rN */
  g_autoptr(RpCliGroup) group = NULL;
  gboolean stopped = FALSE;
  guint64 machine_memory = 0;
  guint repeats;
  int exit_code = RP_CLI_EXIT_OK;

  g_option_context_set_summary (context, _("Measure responsiveness while a load runs (default R1: a dd-style writer and fsync-tester). “resprobe-cli scenarios” lists the presets; --load and --probe combine any loads and probes; a command load’s arguments may follow “--”."));
  rp_run_options_init (&options);
  g_option_context_add_main_entries (context, rp_run_options_get_entries (&options), GETTEXT_PACKAGE);
  options.command_args = split_command_args (&argc, argv);
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;
  if (argc > 1)
    {
      rp_cli_printerr (_("resprobe-cli: unexpected argument “%s”\n"), argv[1]);
      return RP_CLI_EXIT_USAGE;
    }

  scenario = rp_run_options_to_scenario (&options, &error);
  report_path = g_strdup (options.report);
  if (scenario == NULL)
    return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
  if (options.repeat < 1 || options.repeat > 100)
    {
      rp_cli_printerr (_("resprobe-cli: --repeat: %d is not a number of runs from 1 to 100\n"), options.repeat);
      return RP_CLI_EXIT_USAGE;
    }
  repeats = (guint) options.repeat;
  if (options.memory != NULL &&
      (!rp_parse_size (options.memory, "--memory", &machine_memory, &error) ||
       !rp_memory_pin_check (machine_memory, NULL, &error)))
    return rp_cli_fail (g_error_matches (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT) ? RP_CLI_EXIT_USAGE
                                                                                    : RP_CLI_EXIT_FAILURE, error);
  report_stem = default_report_stem ();
  for (guint r = 1; report_path != NULL && r <= repeats; r++)
    {
      g_autofree char *path = rp_cli_repeat_report_path (report_path, r, repeats);

      if (!check_report_path (path, options.force, &error))
        return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
    }
  /* The default report's name is chosen when it is saved: see
   * reserve_report_file(). */
  if (report_path == NULL)
    {
      report_directory = default_report_directory ();
      if (!make_report_directory (report_directory, &error) ||
          !rp_cli_check_report_directory (report_directory, &error))
        return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
    }

  if (repeats > 1 && report_path == NULL)
    report_stem_base = g_steal_pointer (&report_stem);
  group = rp_cli_group_new (scenario->name, scenario->name);
  for (guint r = 1; r <= repeats && !stopped; r++)
    {
      g_autofree char *path = rp_cli_repeat_report_path (report_path, r, repeats);
      g_autofree char *stem = report_stem_base != NULL ? g_strdup_printf ("%s-r%u", report_stem_base, r)
                                                       : g_strdup (report_stem);
      RpReport *report = NULL;
      int code = run_once (scenario, path, options.force, report_directory, stem, r, repeats,
                           machine_memory, &report, &stopped);

      exit_code = rp_cli_exit_worse (exit_code, code);
      if (report != NULL)
        g_ptr_array_add (group->reports, report);
      /* A run that could not start will not start the next time either. */
      if (report == NULL)
        break;
    }
  if (repeats > 1 && group->reports->len > 1)
    {
      g_autoptr(GPtrArray) groups = g_ptr_array_new ();
      g_autofree char *table = NULL;

      g_ptr_array_add (groups, group);
      table = rp_cli_repeats_table (groups);
      g_print ("\n%s", table);
    }
  return exit_code;
}
