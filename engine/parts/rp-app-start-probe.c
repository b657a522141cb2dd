/* rp-app-start-probe.c: cold and cached start of a real program, every few seconds. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-helper-client.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-page-cache.h"
#include "rp-program-start.h"
#include "rp-app-start-copy.h"

/* What a desktop user waits for under disk load is a program that takes
 * seconds to start: its binary, libraries, fonts and theme are read from the
 * disk behind the load's requests. Spawning a cached `true` measures none of
 * that (0.95 vs 0.98 ms where a real start took 2 s vs 0.1 s, issue 19). So,
 * as Valente's comm_startup_lat does, the probe starts a real program with a
 * cold page cache: before each start it evicts the program and every file it
 * maps that no running process maps (POSIX_FADV_DONTNEED; as root optionally
 * all of the page cache), and times the start until the program exits by
 * itself. Right after, the same start with everything cached: the difference
 * is what the disk costs. The default program (app/first-frame) is a GTK
 * window that exits on its first frame, so "usable" means drawn.
 *
 * The files mapped are learnt once, in prepare, by starting the program
 * under ptrace and reading its maps as it exits (rp-program-start.c). With
 * --app-start-on-target the program and its libraries are copied into the
 * target folder and started from there through the copied dynamic loader, so
 * that its reads go to the disk under test (a loop-mounted matrix cell). */

/* A note lists at most this many paths, then how many more. */
#define NOTE_MAX_PATHS 20

typedef struct {
  RpProgramStart *start;
  RpAppStartCopy *copy;        /* NULL unless on target */
  GPtrArray      *evict;       /* paths evicted before each cold start */
  double          interval;
  gboolean        drop_caches;
  RpHelperClient *helper;      /* drops the cache when not root */
} AppStartProbe;

static void
app_start_probe_free (gpointer data)
{
  AppStartProbe *probe = data;

  rp_program_start_free (probe->start);
  rp_app_start_copy_free (probe->copy);
  g_clear_pointer (&probe->evict, g_ptr_array_unref);
  g_clear_object (&probe->helper);
  g_free (probe);
}

/* The program this project installs for the probe: $RESPROBE_FIRST_FRAME
 * when set (the build tree's, for tests), else LIBEXECDIR/resprobe-first-frame,
 * else the build tree's beside a resprobe-cli or resprobe run from the build
 * directory (app/cli or app/gui next to app/first-frame), so that the
 * README's examples work before `meson install`. */
static char *
default_program (void)
{
  const char *from_environment = g_getenv ("RESPROBE_FIRST_FRAME");
  g_autofree char *installed = NULL;
  g_autofree char *self = NULL;

  if (from_environment != NULL && *from_environment != '\0')
    return g_strdup (from_environment);
  installed = g_build_filename (LIBEXECDIR, "resprobe-first-frame", NULL);
  if (g_file_test (installed, G_FILE_TEST_IS_EXECUTABLE))
    return g_steal_pointer (&installed);
  self = g_file_read_link ("/proc/self/exe", NULL);
  if (self != NULL)
    {
      g_autofree char *app_directory = g_path_get_dirname (self);
      g_autofree char *in_build = g_build_filename (app_directory, "..", "first-frame",
                                                    "resprobe-first-frame", NULL);

      if (g_file_test (in_build, G_FILE_TEST_IS_EXECUTABLE))
        return g_steal_pointer (&in_build);
    }
  return g_steal_pointer (&installed);
}

/* Files some running process maps keep their mapped pages whatever we ask,
 * and evicting the rest of them would slow that process: left alone, and
 * said so. */
static void
choose_files_to_evict (AppStartProbe *probe,
                       RpPartHost    *host,
                       GPtrArray     *mapped)
{
  g_autoptr(GHashTable) in_use = rp_page_cache_mapped_files (NULL);
  g_autoptr(GString) kept = g_string_new (NULL);
  guint n_kept = 0;

  probe->evict = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < mapped->len; i++)
    {
      const char *path = g_ptr_array_index (mapped, i);

      if (g_hash_table_contains (in_use, path))
        {
          if (++n_kept <= NOTE_MAX_PATHS)
            g_string_append_printf (kept, "%s%s", kept->len ? " " : "", path);
        }
      else
        g_ptr_array_add (probe->evict, g_strdup (path));
    }
  rp_part_host_set_number_note (host, "app_start_files", "%.0f", mapped->len);
  rp_part_host_set_number_note (host, "app_start_files_evicted", "%.0f", probe->evict->len);
  if (n_kept > NOTE_MAX_PATHS)
    g_string_append_printf (kept, " (+%u)", n_kept - NOTE_MAX_PATHS);
  rp_part_host_set_note (host, "app_start_files_in_use", kept->str);
}

static gboolean
prepare_program (AppStartProbe  *probe,
                 RpPartHost     *host,
                 GError        **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  const char * const *argv = rp_params_get_argv (params, "app_start_program");
  g_autofree char *program = default_program ();
  const char *default_argv[] = { program, NULL };
  g_autoptr(GPtrArray) mapped = NULL;

  if (argv == NULL || argv[0] == NULL || *argv[0] == '\0')
    argv = default_argv;
  probe->start = rp_program_start_new (argv, error);
  if (probe->start == NULL)
    return FALSE;
  rp_part_host_set_note (host, "app_start_program", rp_program_start_get_path (probe->start));

  mapped = rp_program_start_list_mapped_files (probe->start, error);
  if (mapped == NULL)
    return FALSE;
  if (rp_params_get_flag (params, "app_start_on_target"))
    {
      probe->copy = rp_app_start_copy_new (rp_part_host_get_directory (host), mapped, argv, error);
      if (probe->copy == NULL)
        return FALSE;
      rp_program_start_set_argv (probe->start, rp_app_start_copy_get_argv (probe->copy));
      g_ptr_array_unref (mapped);
      mapped = rp_app_start_copy_get_files (probe->copy);
      rp_part_host_set_note (host, "app_start_copied_to", rp_app_start_copy_get_directory (probe->copy));
    }
  choose_files_to_evict (probe, host, mapped);
  return TRUE;
}

/* Not root: resprobed drops the cache, once now so that polkit asks (for a
 * password, at most) before the run and not in the middle of it; the
 * helper then keeps the answer for this connection, the probe's. */
static gboolean
ask_helper (AppStartProbe  *probe,
            RpPartHost     *host,
            GError        **error)
{
  g_autoptr(GError) local_error = NULL;

  if (rp_helper_client_get_allowed ())
    probe->helper = rp_helper_client_new (&local_error);
  if (probe->helper == NULL || !rp_helper_client_drop_page_cache (probe->helper, &local_error))
    {
      g_set_error (error, RP_ERROR, RP_ERROR_PERMISSION,
                   /* TRANSLATORS: %s is why, e.g. "Not authorized: polkit said no to io.github.resprobe.drop-caches" */
                   _("App-start probe: --app-start-drop-caches needs root (/proc/sys/vm/drop_caches) or the helper resprobed (%s)"),
                   local_error != NULL ? local_error->message : _("asking it is turned off"));
      return FALSE;
    }
  rp_part_host_set_note (host, "app_start_caches_dropped_by", "helper");
  return TRUE;
}

static gpointer
app_start_probe_prepare (RpPartHost *host,
                         GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  AppStartProbe *probe = g_new0 (AppStartProbe, 1);

  probe->interval = rp_params_get_seconds (params, "app_start_interval");
  probe->drop_caches = rp_params_get_flag (params, "app_start_drop_caches");
  if (probe->drop_caches && geteuid () != 0 && !ask_helper (probe, host, error))
    {
      app_start_probe_free (probe);
      return NULL;
    }
  if (!prepare_program (probe, host, error))
    {
      app_start_probe_free (probe);
      return NULL;
    }
  return probe;
}

static gboolean
evict (AppStartProbe  *probe,
       GError        **error)
{
  for (guint i = 0; i < probe->evict->len; i++)
    rp_page_cache_evict (g_ptr_array_index (probe->evict, i));
  if (probe->helper != NULL)
    return rp_helper_client_drop_page_cache (probe->helper, error);
  return !probe->drop_caches || rp_page_cache_drop_all (error);
}

/* Once, right after the first eviction: which files kept pages in the cache
 * (a mapped library, a loop device without direct I/O below them), so that
 * the report never calls a warm start cold without saying so. */
static void
note_what_stayed_cached (AppStartProbe *probe,
                         RpPartHost    *host)
{
  g_autoptr(GString) stayed = g_string_new (NULL);
  g_autoptr(GString) loops = g_string_new (NULL);

  for (guint i = 0; i < probe->evict->len; i++)
    {
      const char *path = g_ptr_array_index (probe->evict, i);
      double share = rp_page_cache_resident_share (path);
      g_autofree char *loop = rp_page_cache_loop_without_direct_io (path);

      if (share > 0.05)
        g_string_append_printf (stayed, "%s%s (%.0f %%)", stayed->len ? ", " : "", path, share * 100);
      if (loop != NULL && strstr (loops->str, loop) == NULL)
        g_string_append_printf (loops, "%s%s", loops->len ? " " : "", loop);
    }
  rp_part_host_set_note (host, "app_start_stayed_cached", stayed->str);
  if (loops->len > 0)
    rp_part_host_set_note (host, "app_start_loop_without_direct_io", loops->str);
}

/* One timed start, appended to @series; FALSE when the run stopped
 * meanwhile or the start failed (@error set). */
static gboolean
start_once (AppStartProbe  *probe,
            RpPartHost     *host,
            RpTimedCall    *call,
            RpSeries       *series,
            GError        **error)
{
  double started, seconds;

  if (!rp_program_start_time (probe->start, host, call, rp_series_get_name (series),
                              &started, &seconds, error))
    return FALSE;
  rp_series_append (series, rp_part_host_time_from_monotonic (host, started), seconds);
  rp_part_host_changed (host);
  return TRUE;
}

static void
app_start_probe_run (RpPartHost *host,
                     gpointer   state)
{
  AppStartProbe *probe = state;
  RpTimedCall *call = rp_part_host_open_call (host);
  RpSeries *cold, *cached;
  GError *error = NULL;
  gboolean first = TRUE;

  cold = rp_part_host_ensure_series (host, "app_start_latency", "s", _("Cold program start"));
  cached = rp_part_host_ensure_series (host, "app_start_cached_latency", "s", _("Cached program start"));

  /* The first start one interval after the loads started, not with them:
   * Valente's comm_startup_lat waits for the readers' and writers' start-up
   * transitory before its first start, and BFQ treats queues created in one
   * burst (the loads' threads and a program started with them) as a burst
   * of new processes whose weight it does not raise as it does a program
   * started alone (block/bfq-iosched.c, bfq_handle_burst()). */
  if (!rp_part_host_sleep (host, probe->interval))
    return;
  do
    {
      if (!evict (probe, &error))
        break;
      if (first)
        note_what_stayed_cached (probe, host);
      first = FALSE;
      if (!start_once (probe, host, call, cold, &error) || !start_once (probe, host, call, cached, &error))
        break;
    }
  while (rp_part_host_sleep (host, probe->interval));
  if (error != NULL)
    rp_part_host_fail (host, error);
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
  { "app_start_program", "app-start-program", "app-start-program", RP_PARAM_ARGV, 0, 0, 0, NULL,
    N_("App-start probe: program and arguments to start, which must exit by itself once ready (default: a GTK window that exits on its first frame)"),
    N_("COMMAND") },
  { "app_start_on_target", "app-start-on-target", "app-start-on-target", RP_PARAM_FLAG, 0, 1, 0, NULL,
    N_("App-start probe: start a copy of the program and its libraries in the target folder, so that it reads from the disk under test"), NULL },
  { "app_start_drop_caches", "app-start-drop-caches", "app-start-drop-caches", RP_PARAM_FLAG, 0, 1, 0, NULL,
    N_("App-start probe: also drop the whole page cache before each cold start (root)"), NULL },
};

static const RpSeriesInfo series[] = {
  { "app_start_latency", "s", N_("Cold program start"), "disk-latency", N_("cold start"), N_("Cold program start"),
    N_("Time from starting a program whose files were evicted from the page cache until it exits, ready"),
    15, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Cold program starts"), NULL, RP_CALL_KIND_READ, N_("A program start") },
  { "app_start_cached_latency", "s", N_("Cached program start"), "disk-latency", N_("cached start"), N_("Cached program start"),
    N_("The same program started again right after, with its files in the page cache"),
    16, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Cached program starts"), NULL, RP_CALL_KIND_READ,
    /* TRANSLATORS: opens a sentence: "A cached program start took 2.1 s at 3.0 s" */
    N_("A cached program start") },
};

static char *
app_start_describe (const RpParams *p)
{
  const char * const *argv = rp_params_get_argv (p, "app_start_program");
  g_autofree char *program = argv != NULL && argv[0] != NULL ? g_path_get_basename (argv[0])
                                                             : g_strdup ("resprobe-first-frame");

  /* TRANSLATORS: "“resprobe-first-frame” every 2 s": the program started, and how often */
  return g_strdup_printf (_("“%s” every %g s"), program, rp_params_get_seconds (p, "app_start_interval"));
}

/* A real program started with its files evicted from the page cache, and
 * again with them cached. */
const RpPartInfo rp_app_start_part = {
  .id = "app-start",
  .role = RP_PART_PROBE,
  .label = N_("App-start probe"),
  /* TRANSLATORS: %s is e.g. "“resprobe-first-frame” every 2 s" */
  .sentence = N_("app start %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .describe = app_start_describe,
};
