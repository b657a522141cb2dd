/* rp-cli-monitor.c: `resprobe-cli monitor`: probes without a load, for ever, exported to Prometheus. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif
#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <glib-unix.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#if HAVE_LIBSOUP
#include <libsoup/soup.h>
#include "rp-cli-http.h"
#endif

#include "rp-cli.h"
#include "rp-cli-run-options.h"
#include "rp-error.h"
#include "rp-metrics.h"
#include "rp-report.h"
#include "rp-session.h"
#include "rp-units.h"

/* Without --report-every the sessions still end this often: a session's
 * series only grow, so a new one every period is what bounds the memory
 * (issue 22: bounded whatever the uptime). */
#define DEFAULT_PERIOD      600.0
/* The fsync probe's interval when none is given: 1 MiB written and synced
 * every 10 s costs little and still sees a stall of a few seconds. */
#define DEFAULT_INTERVAL    10.0
/* The samplers' periods when none is given: a monitor runs for months,
 * and the run defaults (0.5 s, and 100 looks a second at a stalled call)
 * cost over 1 % of a core in wake-ups (bench/monitor-soak.sh, docs/PERFORMANCE.md). */
static const struct {
  const char *key;
  double      seconds;
} quiet_periods[] = {
  { "sample_period", 5.0 },
  { "disk_period", 5.0 },
  { "stall_sample_period", 0.05 },
};

/* How often the metrics are gathered from the sessions and the textfile
 * is rewritten; a scrape gathers them itself. */
#define HARVEST_SECONDS     10

/* One monitored folder and its session of the current period. */
typedef struct {
  char      *folder;      /* absolute, canonical: the `folder` label */
  RpSession *session;     /* NULL while none runs */
  gboolean   begun;       /* its session started: rp_metrics_begin_session() */
  dev_t      device;      /* the folder's identity when its session started, */
  ino_t      inode;       /*   to notice it removed (and made again) */
  gboolean   gone;        /* noticed removed: its session is stopping */
  gpointer   monitor;
} Watch;

typedef struct {
  GMainLoop    *loop;
  RpMetrics    *metrics;
  GPtrArray    *watches;         /* Watch */
  RpRunOptions *options;
  double        period;          /* seconds */
  gboolean      save_reports;    /* --report-every given */
  char         *reports_dir;
  char         *textfile_dir;
  gboolean      textfile_failed; /* said once, until it works again */
  guint         period_id;
  guint         harvest_id;
  guint         running;         /* sessions not yet finished */
  gboolean      ending;          /* the period is ending: sessions stop */
  gboolean      quitting;        /* SIGTERM, SIGINT: the last period ends */
  int           exit_code;
#if HAVE_LIBSOUP
  SoupServer   *server;
  RpCliHttp    *http;            /* its connections (rp-cli-http.c) */
#endif
} Monitor;

static void start_period (Monitor *monitor);

static void
watch_free (Watch *watch)
{
  g_free (watch->folder);
  g_clear_object (&watch->session);
  g_free (watch);
}

/* Whether the folder a session measures is still there. The probes write
 * files they unlinked at once, whose writes and fsyncs go on after the
 * folder is removed: they never fail with ENOENT, so the folder itself is
 * looked at. */
static gboolean
check_folder (const Watch  *watch,
              GError      **error)
{
  struct stat st;

  if (!rp_cli_check_directory (watch->folder, error))
    return FALSE;
  if (stat (watch->folder, &st) == 0 && (st.st_dev != watch->device || st.st_ino != watch->inode))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_TARGET,
                   /* TRANSLATORS: %s is a monitored folder, removed and created again while measured */
                   _("Directory “%s” was removed and made again"), watch->folder);
      return FALSE;
    }
  return TRUE;
}

/* A folder gone while its session ran: said once, `up` 0, its session
 * stops now (its report saved with what it measured until then); the next
 * period tries it again. */
static void
stop_if_folder_gone (Monitor *monitor,
                     Watch   *watch)
{
  g_autoptr(GError) error = NULL;

  if (watch->session == NULL || !watch->begun || watch->gone || check_folder (watch, &error))
    return;
  watch->gone = TRUE;
  rp_cli_printerr (_("Monitoring “%s” stopped until the next period: %s\n"), watch->folder, error->message);
  rp_metrics_set_up (monitor->metrics, watch->folder, FALSE);
  rp_session_stop (watch->session);
}

/* Called every HARVEST_SECONDS and on each scrape: a removed folder is
 * noticed at the latest by the next harvest, not a period later. */
static void
harvest (Monitor *monitor)
{
  for (guint i = 0; i < monitor->watches->len; i++)
    {
      Watch *watch = g_ptr_array_index (monitor->watches, i);

      if (watch->session != NULL && watch->begun)
        {
          rp_metrics_harvest (monitor->metrics, watch->folder, watch->session);
          stop_if_folder_gone (monitor, watch);
        }
    }
}

/* The textfile for node_exporter's textfile collector: written to a
 * temporary name (which it ignores: not *.prom) and renamed, as its
 * documentation asks, so that it never reads half a file. */
static gboolean
write_textfile (Monitor  *monitor,
                GError  **error)
{
  g_autofree char *text = rp_metrics_to_text (monitor->metrics);
  g_autofree char *path = g_build_filename (monitor->textfile_dir, "resprobe.prom", NULL);

  if (g_file_set_contents_full (path, text, -1, G_FILE_SET_CONTENTS_CONSISTENT, 0644, error))
    return TRUE;
  g_prefix_error (error, "--textfile: ");
  return FALSE;
}

static void
update_textfile (Monitor *monitor)
{
  g_autoptr(GError) error = NULL;

  if (monitor->textfile_dir == NULL)
    return;
  if (write_textfile (monitor, &error))
    monitor->textfile_failed = FALSE;
  else if (!monitor->textfile_failed)
    {
      /* Said once: the measurement goes on, and /metrics still serves. */
      rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
      monitor->textfile_failed = TRUE;
    }
}

static gboolean
on_harvest (gpointer data)
{
  Monitor *monitor = data;

  harvest (monitor);
  update_textfile (monitor);
  return G_SOURCE_CONTINUE;
}

/* "resprobe-monitor-home-20261202-041500": a period's report name, after
 * the folder's last component and when the period began. */
static char *
report_stem (const Watch *watch,
             RpSession   *session)
{
  g_autofree char *base = g_path_get_basename (watch->folder);
  g_autoptr(GDateTime) local = g_date_time_to_local (rp_session_get_start_time (session));
  g_autofree char *stamp = g_date_time_format (local, "%Y%m%d-%H%M%S");

  g_strdelimit (base, "/ ", '-');
  return g_strdup_printf ("resprobe-monitor-%s-%s", base, stamp);
}

/* The period's report, under a name no other file has; when --reports
 * fails (made read-only, removed, full since the start, which checked
 * it), elsewhere as `run` does: the default reports folder, else the
 * temporary one, saying where (issue 33: each period's report was lost). */
static void
save_report (Monitor   *monitor,
             Watch     *watch,
             RpSession *session)
{
  g_autoptr(RpReport) report = rp_report_new_from_session (session);
  g_autofree char *stem = report_stem (watch, session);
  g_autoptr(GError) error = NULL;
  g_autoptr(GFile) failed = NULL;
  g_autofree char *path = NULL;

  for (guint k = 1; path == NULL || g_file_test (path, G_FILE_TEST_EXISTS | G_FILE_TEST_IS_SYMLINK); k++)
    {
      g_autofree char *name = k == 1 ? g_strdup_printf ("%s.json", stem) : g_strdup_printf ("%s-%u.json", stem, k);

      g_free (path);
      path = g_build_filename (monitor->reports_dir, name, NULL);
    }
  if (g_mkdir_with_parents (monitor->reports_dir, 0700) != 0)
    rp_error_set_from_errno (&error, errno, _("The report cannot be saved in"), monitor->reports_dir);
  else
    {
      g_autoptr(GFile) file = g_file_new_for_path (path);

      if (rp_report_save (report, file, "json", &error))
        {
          rp_cli_print (_("Report saved to %s\n"), path);
          fflush (stdout);
          return;
        }
    }
  rp_cli_fail (RP_CLI_EXIT_FAILURE, error);
  monitor->exit_code = RP_CLI_EXIT_FAILURE;
  failed = g_file_new_for_path (monitor->reports_dir);
  rp_cli_save_report_elsewhere (report, failed, stem);
}

/* The process's resident set, bytes (/proc/self/statm); 0 if unreadable. */
static guint64
resident_bytes (void)
{
  g_autofree char *statm = NULL;
  const char *resident;

  /* "size resident shared text lib data dt", in pages */
  if (!g_file_get_contents ("/proc/self/statm", &statm, NULL, NULL) || (resident = strchr (statm, ' ')) == NULL)
    return 0;
  return g_ascii_strtoull (resident, NULL, 10) * (guint64) sysconf (_SC_PAGESIZE);
}

/* The memory between two periods, when no session holds samples: with
 * G_MESSAGES_DEBUG=all a line per period, "memory after period N: heap in
 * use H bytes, resident R bytes (…)". The heap in use is glibc's
 * mallinfo2(), the chunks in use in every arena plus the mmapped ones: a
 * figure that climbs period after period is memory kept (a leak), while
 * the arenas' free bytes are what the allocator keeps (fragmentation).
 * tests/test-monitor-memory.py reads the line. */
static void
debug_memory (Monitor *monitor)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 33))
  struct mallinfo2 info;

  if (g_log_writer_default_would_drop (G_LOG_LEVEL_DEBUG, G_LOG_DOMAIN))
    return;
  info = mallinfo2 ();
  g_debug ("memory after period %" G_GUINT64_FORMAT ": heap in use %zu bytes, resident %" G_GUINT64_FORMAT
           " bytes (%zu mmapped; arenas %zu bytes, %zu of them free)",
           rp_metrics_get_periods (monitor->metrics), info.uordblks + info.hblkhd, resident_bytes (),
           info.hblkhd, info.arena, info.fordblks);
#endif
}

/* Every session of the period has finished: the next begins, or the
 * monitor ends. */
static void
period_ended (Monitor *monitor)
{
#ifdef __GLIBC__
  /* The period's sessions are freed: give the pages of their series back
   * (one arena, see rp_cli_monitor(), so this reaches all of them). */
  malloc_trim (0);
#endif
  rp_metrics_add_period (monitor->metrics);
  debug_memory (monitor);
  update_textfile (monitor);
  monitor->ending = FALSE;
  if (monitor->quitting)
    g_main_loop_quit (monitor->loop);
  else
    start_period (monitor);
}

static void
on_finished (RpSession *session,
             Watch     *watch)
{
  Monitor *monitor = watch->monitor;
  const GError *error = rp_session_get_error (session);

  if (watch->begun)
    rp_metrics_harvest (monitor->metrics, watch->folder, session);
  if (error != NULL)
    {
      /* TRANSLATORS: %s is a monitored folder, then why its measurement stopped */
      rp_cli_printerr (_("Monitoring “%s” stopped until the next period: %s\n"), watch->folder, error->message);
      rp_metrics_set_up (monitor->metrics, watch->folder, FALSE);
    }
  if (monitor->save_reports)
    save_report (monitor, watch, session);
  g_signal_handlers_disconnect_by_data (session, watch);
  g_clear_object (&watch->session);
  watch->begun = FALSE;
  if (--monitor->running == 0 && monitor->ending)
    period_ended (monitor);
}

/* Ends the period: every session stops, and when the last has finished
 * (on_finished) its report is saved and the next period begins. */
static void
end_period (Monitor *monitor)
{
  g_clear_handle_id (&monitor->period_id, g_source_remove);
  monitor->ending = TRUE;
  if (monitor->running == 0)
    {
      period_ended (monitor);
      return;
    }
  for (guint i = 0; i < monitor->watches->len; i++)
    {
      Watch *watch = g_ptr_array_index (monitor->watches, i);

      if (watch->session != NULL)
        rp_session_stop (watch->session);
    }
}

static gboolean
on_period (gpointer data)
{
  Monitor *monitor = data;

  monitor->period_id = 0;
  end_period (monitor);
  return G_SOURCE_REMOVE;
}

static void
on_started (GObject      *object,
            GAsyncResult *result,
            gpointer      data)
{
  Watch *watch = data;
  Monitor *monitor = watch->monitor;
  RpSession *session = RP_SESSION (object);
  g_autoptr(GError) error = NULL;

  if (rp_session_start_finish (session, result, &error))
    {
      struct stat st;

      if (stat (watch->folder, &st) == 0)
        {
          watch->device = st.st_dev;
          watch->inode = st.st_ino;
        }
      rp_metrics_begin_session (monitor->metrics, watch->folder, rp_session_get_sysinfo (session));
      watch->begun = TRUE;
      return;
    }
  /* A folder removed, unmounted or made read-only: the others go on, and
   * this one is tried again each period. */
  rp_cli_printerr (_("Monitoring “%s” stopped until the next period: %s\n"), watch->folder, error->message);
  rp_metrics_set_up (monitor->metrics, watch->folder, FALSE);
  /* A session that did not start never finishes: it ends here. */
  if (watch->session == session)
    {
      g_signal_handlers_disconnect_by_data (session, watch);
      g_clear_object (&watch->session);
      if (--monitor->running == 0 && monitor->ending)
        period_ended (monitor);
    }
}

/* The scenario of @folder: no load, the probes asked for (default: fsync
 * every 10 s, stall attribution, the disk sampler, and in the first folder
 * the system sampler, which is the same for every folder). */
static RpScenario *
folder_scenario (Monitor     *monitor,
                 const char  *folder,
                 gboolean     first,
                 GError     **error)
{
  RpRunOptions *options = monitor->options;
  const char *default_probes[] = { "fsync", "stalls", "disk", first ? "system" : NULL, NULL };
  const char *no_load[] = { "none", NULL };
  char **given_probes = options->probes;
  RpScenario *scenario;

  options->loads = (char **) no_load;
  if (given_probes == NULL)
    options->probes = (char **) default_probes;
  g_free (options->directory);
  options->directory = g_strdup (folder);
  scenario = rp_run_options_to_scenario (options, error);
  options->loads = NULL;
  options->probes = given_probes;
  if (scenario == NULL)
    return NULL;
  scenario->duration = 0;
  scenario->stop_when_loads_finish = FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (quiet_periods); i++)
    if (options->param_texts[rp_parts_lookup_param (quiet_periods[i].key)->index] == NULL)
      rp_params_set_seconds (scenario->params, quiet_periods[i].key, quiet_periods[i].seconds);
  /* Set here, not as if typed: a typed --interval is refused where no
   * probe takes it, and `--probe save` had none (issue 33). */
  if (options->param_texts[rp_parts_lookup_param ("fsync_interval")->index] == NULL)
    rp_params_set_seconds (scenario->params, "fsync_interval", DEFAULT_INTERVAL);
  return scenario;
}

static void
start_period (Monitor *monitor)
{
  monitor->period_id = g_timeout_add_full (G_PRIORITY_DEFAULT, (guint) (monitor->period * 1000),
                                           on_period, monitor, NULL);
  for (guint i = 0; i < monitor->watches->len; i++)
    {
      Watch *watch = g_ptr_array_index (monitor->watches, i);
      g_autoptr(RpScenario) scenario = NULL;
      g_autoptr(GError) error = NULL;

      scenario = folder_scenario (monitor, watch->folder, i == 0, &error);
      if (scenario == NULL)
        {
          rp_cli_printerr (_("Monitoring “%s” stopped until the next period: %s\n"), watch->folder, error->message);
          rp_metrics_set_up (monitor->metrics, watch->folder, FALSE);
          continue;
        }
      watch->session = rp_session_new (scenario);
      watch->gone = FALSE;
      monitor->running++;
      g_signal_connect (watch->session, "finished", G_CALLBACK (on_finished), watch);
      rp_session_start_async (watch->session, NULL, on_started, watch);
    }
}

static gboolean
on_stop_signal (gpointer data)
{
  Monitor *monitor = data;

  /* Without --report-every no report is saved: the message says so much. */
  if (!monitor->quitting)
    g_printerr ("%s\n", monitor->save_reports ? _("Stopping: saving the last reports…") : _("Stopping…"));
  monitor->quitting = TRUE;
  if (!monitor->ending)
    end_period (monitor);
  return G_SOURCE_CONTINUE;
}

/* SIGHUP, as daemons read it: reopen. The period ends here (its reports
 * saved), the folders' snapshots are taken again (a scheduler changed
 * meanwhile shows in the labels) and the textfile is written anew. */
static gboolean
on_reopen_signal (gpointer data)
{
  Monitor *monitor = data;

  if (monitor->quitting || monitor->ending)
    return G_SOURCE_CONTINUE;
  g_printerr ("%s\n", _("Reopening: the period ends and a new one begins."));
  monitor->textfile_failed = FALSE;
  end_period (monitor);
  return G_SOURCE_CONTINUE;
}

#if HAVE_LIBSOUP
static void
on_metrics_request (SoupServer        *server,
                    SoupServerMessage *message,
                    const char        *path,
                    GHashTable        *query,
                    gpointer           data)
{
  Monitor *monitor = data;
  const char *method = soup_server_message_get_method (message);
  char *text;

  if (g_strcmp0 (path, "/metrics") != 0)
    {
      soup_server_message_set_status (message, SOUP_STATUS_NOT_FOUND, NULL);
      return;
    }
  if (method != SOUP_METHOD_GET && method != SOUP_METHOD_HEAD)
    {
      soup_server_message_set_status (message, SOUP_STATUS_METHOD_NOT_ALLOWED, NULL);
      return;
    }
  harvest (monitor);
  text = rp_metrics_to_text (monitor->metrics);
  /* One request a connection, every reply (rp-cli-http.c): libsoup 3.2
   * kept a kept-alive connection open after its client had closed it
   * (CLOSE-WAIT), an fd and ~2 KB of heap each. Prometheus reconnects each
   * scrape, on loopback a fraction of a ms. */
  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  soup_server_message_set_response (message, "text/plain; version=0.0.4; charset=utf-8",
                                    SOUP_MEMORY_TAKE, text, strlen (text));
}
#endif

/* "127.0.0.1:9101", "[::1]:9101", "9101" (loopback): the address to serve. */
static GSocketAddress *
parse_listen (const char  *text,
              GError     **error)
{
  g_autoptr(GSocketConnectable) address = NULL;
  g_autofree char *with_host = NULL;
  const char *colon = strrchr (text, ':');

  if (colon == NULL)
    text = with_host = g_strdup_printf ("127.0.0.1:%s", text);
  address = g_network_address_parse (text, 0, NULL);
  if (address == NULL || g_network_address_get_port (G_NETWORK_ADDRESS (address)) == 0)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   /* TRANSLATORS: %s is what was given; keep ADDRESS:PORT */
                   _("--listen: “%s” is not ADDRESS:PORT (e.g. 127.0.0.1:9101) nor a port"), text);
      return NULL;
    }
  /* Names are not looked up: a monitor should not wait for DNS. */
  if (!g_hostname_is_ip_address (g_network_address_get_hostname (G_NETWORK_ADDRESS (address))))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                   _("--listen: “%s” is not an IP address"), g_network_address_get_hostname (G_NETWORK_ADDRESS (address)));
      return NULL;
    }
  return g_inet_socket_address_new_from_string (g_network_address_get_hostname (G_NETWORK_ADDRESS (address)),
                                                g_network_address_get_port (G_NETWORK_ADDRESS (address)));
}

static gboolean
start_server (Monitor     *monitor,
              const char  *listen,
              GError     **error)
{
#if HAVE_LIBSOUP
  g_autoptr(GSocketAddress) address = parse_listen (listen, error);

  if (address == NULL)
    return FALSE;
  monitor->server = soup_server_new ("server-header", "resprobe/" PACKAGE_VERSION, NULL);
  soup_server_add_handler (monitor->server, NULL, on_metrics_request, monitor, NULL);
  /* Accepted by rp-cli-http.c, which closes what does not finish in time. */
  monitor->http = rp_cli_http_new (monitor->server, address, error);
  if (monitor->http != NULL)
    return TRUE;
  g_prefix_error (error, "--listen %s: ", listen);
  return FALSE;
#else
  g_set_error_literal (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       _("--listen is unavailable: resprobe-cli was built without libsoup 3; use --textfile"));
  return FALSE;
#endif
}

/* The textfile folder must take files now, not only after the first period.
 * It is the folder node_exporter's textfile collector reads
 * (--collector.textfile.directory), where resprobe.prom goes; never made,
 * since a typo would be a folder nobody reads. */
static gboolean
check_textfile_dir (Monitor     *monitor,
                    GError     **error)
{
  return rp_cli_check_folder_option ("--textfile", monitor->textfile_dir, TRUE, error) &&
         write_textfile (monitor, error);
}

/* The options of `run` that a monitor has no use for. */
static gboolean
is_run_only_option (const char *name)
{
  static const char *const run_only[] = {
    "scenario", "dir", "size", "duration", "report", "force", "repeat", "load", NULL,
  };

  return g_strv_contains (run_only, name);
}

typedef struct {
  char **folders;
  char  *listen;
  char  *textfile;
  char  *report_every;
  char  *reports;
} MonitorOptions;

static void monitor_options_clear (MonitorOptions *mine);
G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (MonitorOptions, monitor_options_clear)

static GOptionContext *
make_context (MonitorOptions *mine,
              RpRunOptions   *options,
              GArray         *entries)
{
  GOptionEntry own[] = {
    { "dir", 'd', 0, G_OPTION_ARG_FILENAME_ARRAY, &mine->folders, N_("Folder to measure, repeatable (default ~/.cache/resprobe)"), N_("DIR") },
    { "listen", 0, 0, G_OPTION_ARG_STRING, &mine->listen, N_("Serve /metrics for Prometheus here (e.g. 127.0.0.1:9101; a port alone: loopback)"), N_("ADDRESS:PORT") },
    { "textfile", 0, 0, G_OPTION_ARG_FILENAME, &mine->textfile, N_("Write resprobe.prom here for node_exporter’s textfile collector"), N_("DIR") },
    { "report-every", 0, 0, G_OPTION_ARG_STRING, &mine->report_every, N_("Save a JSON report per folder this often (e.g. 1h)"), N_("DURATION") },
    { "reports", 0, 0, G_OPTION_ARG_FILENAME, &mine->reports, N_("Folder of the reports (default ~/.local/share/resprobe/reports)"), N_("DIR") },
  };
  GOptionContext *context = g_option_context_new (NULL);
  const GOptionEntry *run = rp_run_options_get_entries (options);

  g_array_append_vals (entries, own, G_N_ELEMENTS (own));
  for (guint i = 0; run[i].long_name != NULL; i++)
    if (!is_run_only_option (run[i].long_name))
      g_array_append_val (entries, run[i]);
  g_option_context_set_summary (context, _("Measure without a load, for as long as it runs (default: fsync every 10 s), and export the latencies, stalls and their causes to Prometheus (--listen, --textfile)."));
  g_option_context_add_main_entries (context, (GOptionEntry *) entries->data, GETTEXT_PACKAGE);
  return context;
}

static void
monitor_options_clear (MonitorOptions *mine)
{
  g_strfreev (mine->folders);
  g_free (mine->listen);
  g_free (mine->textfile);
  g_free (mine->report_every);
  g_free (mine->reports);
}

/* A folder to monitor, unless it is one already given ("X" and "X/",
 * "X/../X", a symbolic link to X): a folder measured twice would have two
 * series under the same labels. */
static gboolean
add_folder (Monitor     *monitor,
            const char  *given,
            GError     **error)
{
  g_autofree char *folder = g_canonicalize_filename (given, NULL);
  g_autofree char *real = realpath (folder, NULL);
  Watch *watch;

  for (guint i = 0; i < monitor->watches->len; i++)
    {
      Watch *other = g_ptr_array_index (monitor->watches, i);
      g_autofree char *other_real = realpath (other->folder, NULL);

      if (g_str_equal (other->folder, folder) || (real != NULL && g_strcmp0 (real, other_real) == 0))
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       /* TRANSLATORS: two --dir values that name the same folder */
                       _("--dir: “%s” and “%s” are the same folder"), other->folder, given);
          return FALSE;
        }
    }
  watch = g_new0 (Watch, 1);
  watch->folder = g_steal_pointer (&folder);
  g_ptr_array_add (monitor->watches, watch);
  return TRUE;
}

/* No --dir: ~/.cache/resprobe, created if missing (0700), so that the user
 * unit runs for a user who never ran the program (a fresh home). A folder
 * given with --dir is never created: a typo must not become a new folder. */
static gboolean
add_default_folder (Monitor  *monitor,
                    GError  **error)
{
  g_autofree char *folder = rp_scenario_default_directory ();

  if (g_mkdir_with_parents (folder, 0700) != 0)
    {
      rp_error_set_from_errno (error, errno, _("Directory"), folder);
      return FALSE;
    }
  return add_folder (monitor, folder, error);
}

/* Everything given, checked before anything runs. */
static gboolean
setup (Monitor         *monitor,
       MonitorOptions  *mine,
       GError         **error)
{
  g_autoptr(RpScenario) probe = NULL;

  monitor->period = DEFAULT_PERIOD;
  if (mine->report_every != NULL)
    {
      if (!rp_parse_duration (mine->report_every, "--report-every", &monitor->period, error))
        return FALSE;
      /* A session per second at most: starting one takes a snapshot. */
      if (monitor->period < 1)
        {
          g_set_error (error, RP_ERROR, RP_ERROR_INVALID_ARGUMENT,
                       /* TRANSLATORS: %s is what was given, e.g. "0.5" */
                       _("--report-every: %s is shorter than a second"), mine->report_every);
          return FALSE;
        }
      monitor->save_reports = TRUE;
    }
  if (!rp_cli_check_folder_option ("--reports", mine->reports, FALSE, error) ||
      !rp_cli_check_folder_option ("--textfile", mine->textfile, FALSE, error))
    return FALSE;
  for (guint i = 0; mine->folders != NULL && mine->folders[i] != NULL; i++)
    if (!rp_cli_check_folder_option ("--dir", mine->folders[i], FALSE, error))
      return FALSE;
  monitor->reports_dir = mine->reports ? g_strdup (mine->reports)
                                       : g_build_filename (g_get_user_data_dir (), "resprobe", "reports", NULL);
  /* Refused now, as an unwritable --textfile is, rather than a report
   * lost (or saved elsewhere) each period. */
  if (monitor->save_reports &&
      (g_mkdir_with_parents (monitor->reports_dir, 0700) != 0 ||
       !rp_cli_check_report_directory (monitor->reports_dir, error)))
    {
      if (error != NULL && *error == NULL)
        rp_error_set_from_errno (error, errno, _("The report cannot be saved in"), monitor->reports_dir);
      g_prefix_error (error, "--reports: ");
      return FALSE;
    }
  if (mine->folders == NULL && !add_default_folder (monitor, error))
    return FALSE;
  for (guint i = 0; mine->folders != NULL && mine->folders[i] != NULL; i++)
    if (!add_folder (monitor, mine->folders[i], error))
      return FALSE;
  for (guint i = 0; i < monitor->watches->len; i++)
    {
      Watch *watch = g_ptr_array_index (monitor->watches, i);

      watch->monitor = monitor;
      /* Bad values and folders are found now, not a period later. */
      probe = folder_scenario (monitor, watch->folder, i == 0, error);
      if (probe == NULL || !rp_cli_check_directory (watch->folder, error))
        return FALSE;
      g_clear_pointer (&probe, rp_scenario_free);
    }
  monitor->textfile_dir = g_strdup (mine->textfile);
  if (monitor->textfile_dir != NULL && !check_textfile_dir (monitor, error))
    return FALSE;
  if (mine->listen != NULL && !start_server (monitor, mine->listen, error))
    return FALSE;
  return TRUE;
}

/**
 * rp_cli_monitor:
 * @argc: argument count, argv[0] being "monitor"
 * @argv: arguments
 *
 * `resprobe-cli monitor [--dir DIR]… [--listen ADDRESS:PORT] [--textfile DIR]
 * [--report-every DURATION] [--reports DIR] [--probe NAME]… [probe options]`:
 * the probes without a load, until SIGTERM or SIGINT, a session per
 * folder and period (10 minutes, or --report-every); the metrics of
 * rp-metrics.c on /metrics and in DIR/resprobe.prom. SIGHUP ends the
 * period and begins a new one.
 *
 * Returns: 0; 1 when a report or the textfile could not be written; 2 for
 *   bad options, a port in use, a folder that cannot be written or is
 *   given twice
 */
int
rp_cli_monitor (int    argc,
                char **argv)
{
  g_auto(RpRunOptions) options;
  g_auto(MonitorOptions) mine = { 0 };
  g_autoptr(GArray) entries = g_array_new (TRUE, TRUE, sizeof (GOptionEntry));
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(RpMetrics) metrics = rp_metrics_new ();
  g_autoptr(GPtrArray) watches = g_ptr_array_new_with_free_func ((GDestroyNotify) watch_free);
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  Monitor monitor = { .loop = loop, .metrics = metrics, .watches = watches, .options = &options };
  guint signal_ids[3];

#ifdef __GLIBC__
  /* One malloc arena for every thread, set before any thread allocates.
   * Each period's sessions run on new worker threads, which glibc spread
   * over up to 8 arenas a core; each arena kept what its threads had
   * freed, so the RSS rose a step at the end of a period although the heap
   * in use did not (issue 22: 3.4 to 9.5 MB of arenas, 7.9 MB of it free,
   * and RSS 15.4 to 18.4 MB over 90 periods of 1 s; with one arena 2.8 to
   * 3.2 MB and RSS 12.9 MB throughout; docs/PERFORMANCE.md, Monitor soak). A monitor's
   * few threads allocate a few times a second: no contention to spread. */
  mallopt (M_ARENA_MAX, 1);
#endif

  rp_run_options_init (&options);
  context = make_context (&mine, &options, entries);
  if (!rp_cli_parse_options (context, &argc, &argv))
    return RP_CLI_EXIT_USAGE;
  if (argc > 1)
    {
      rp_cli_printerr (_("resprobe-cli: unexpected argument “%s”\n"), argv[1]);
      return RP_CLI_EXIT_USAGE;
    }
  if (!setup (&monitor, &mine, &error))
    {
#if HAVE_LIBSOUP
      g_clear_pointer (&monitor.http, rp_cli_http_free);
      g_clear_object (&monitor.server);
#endif
      g_free (monitor.reports_dir);
      g_free (monitor.textfile_dir);
      return rp_cli_fail (RP_CLI_EXIT_USAGE, error);
    }

  signal_ids[0] = g_unix_signal_add (SIGINT, on_stop_signal, &monitor);
  signal_ids[1] = g_unix_signal_add (SIGTERM, on_stop_signal, &monitor);
  signal_ids[2] = g_unix_signal_add (SIGHUP, on_reopen_signal, &monitor);
  monitor.harvest_id = g_timeout_add_seconds (HARVEST_SECONDS, on_harvest, &monitor);
  start_period (&monitor);
  g_main_loop_run (loop);

  for (guint i = 0; i < G_N_ELEMENTS (signal_ids); i++)
    g_source_remove (signal_ids[i]);
  g_clear_handle_id (&monitor.harvest_id, g_source_remove);
  g_clear_handle_id (&monitor.period_id, g_source_remove);
#if HAVE_LIBSOUP
  g_clear_pointer (&monitor.http, rp_cli_http_free);
  g_clear_object (&monitor.server);
#endif
  g_free (monitor.reports_dir);
  g_free (monitor.textfile_dir);
  return monitor.exit_code;
}
