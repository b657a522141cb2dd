/* rp-save-probe.c: saving a small document as editors do: temporary file, fsync, rename, fsync of the folder. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <stdio.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-io.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-run-folder.h"
#include "rp-units.h"

/* What a user waits for when pressing Ctrl+S: GLib's g_file_replace() (gedit,
 * GNOME Text Editor), LibreOffice and browsers' profile writes all save by
 * writing the new content under a temporary name, fsync()ing it, rename()ing
 * it over the old file, and fsync()ing the folder so that the rename itself
 * is on disk. Under a writer each step can wait for the journal, so the probe
 * times the whole save and each step. The document and its temporary copy
 * live in a folder of the run's own in the target (`resprobe-save-PID-START-XXXXXX`),
 * removed at the end; only a kill -9 can leave it behind. */

#define DOCUMENT "document"
#define TEMPORARY "document.tmp"

typedef struct {
  char   *folder;
  int     folder_fd;
  char   *content;
  gsize   size;
  double  interval;
} SaveProbe;

static void
save_probe_free (gpointer data)
{
  SaveProbe *probe = data;

  if (probe->folder_fd >= 0)
    {
      unlinkat (probe->folder_fd, TEMPORARY, 0);
      unlinkat (probe->folder_fd, DOCUMENT, 0);
      close (probe->folder_fd);
    }
  if (probe->folder != NULL)
    g_rmdir (probe->folder);
  g_free (probe->folder);
  g_free (probe->content);
  g_free (probe);
}

static gpointer
save_probe_prepare (RpPartHost *host,
                    GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  const char *directory = rp_part_host_get_directory (host);
  SaveProbe *probe = g_new0 (SaveProbe, 1);

  probe->folder_fd = -1;
  probe->size = (gsize) rp_params_get_size (params, "save_size");
  probe->interval = rp_params_get_seconds (params, "save_interval");
  probe->content = g_malloc (probe->size);
  /* Text, as a document would be. */
  for (gsize i = 0; i < probe->size; i++)
    probe->content[i] = (char) ('a' + i % 26);
  probe->folder = rp_run_folder_template (directory, "save");
  if (g_mkdtemp_full (probe->folder, 0700) == NULL)
    {
      rp_error_set_from_errno (error, errno, _("Save probe: creating a folder in"), directory);
      g_clear_pointer (&probe->folder, g_free);
      save_probe_free (probe);
      return NULL;
    }
  probe->folder_fd = open (probe->folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (probe->folder_fd < 0)
    {
      rp_error_set_from_errno (error, errno, _("Save probe: opening"), probe->folder);
      save_probe_free (probe);
      return NULL;
    }
  return probe;
}

/* The four steps, each timed; FALSE with errno set when one fails. */
static gboolean
save_once (SaveProbe *probe,
           double     steps[4])
{
  double t0, t1, t2, t3, t4;
  int fd;
  gboolean ok;

  t0 = rp_clock_now ();
  fd = openat (probe->folder_fd, TEMPORARY, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0)
    return FALSE;
  ok = rp_write_all (fd, probe->content, probe->size);
  t1 = rp_clock_now ();
  ok = ok && fsync (fd) == 0;
  t2 = rp_clock_now ();
  if (close (fd) != 0 || !ok)
    return FALSE;
  if (renameat (probe->folder_fd, TEMPORARY, probe->folder_fd, DOCUMENT) != 0)
    return FALSE;
  t3 = rp_clock_now ();
  if (fsync (probe->folder_fd) != 0)
    return FALSE;
  t4 = rp_clock_now ();
  steps[0] = t1 - t0;
  steps[1] = t2 - t1;
  steps[2] = t3 - t2;
  steps[3] = t4 - t3;
  return TRUE;
}

static void
save_probe_run (RpPartHost *host,
                gpointer   state)
{
  SaveProbe *probe = state;
  RpSeries *whole = rp_part_host_ensure_series (host, "save_latency", "s", _("Document save time"));
  RpSeries *steps_series[4] = {
    rp_part_host_ensure_series (host, "save_write_latency", "s", _("Save: writing the temporary file")),
    rp_part_host_ensure_series (host, "save_fsync_latency", "s", _("Save: fsync() of the temporary file")),
    rp_part_host_ensure_series (host, "save_rename_latency", "s", _("Save: rename() over the document")),
    rp_part_host_ensure_series (host, "save_folder_fsync_latency", "s", _("Save: fsync() of the folder")),
  };
  /* The whole save is one timed call, so that a stall of it has a cause. */
  RpTimedCall *call = rp_part_host_open_call (host);

  do
    {
      double steps[4];
      double started = rp_part_host_now (host);
      gboolean saved;

      rp_timed_call_begin (call, "save_latency");
      saved = save_once (probe, steps);
      if (!saved)
        {
          GError *error = NULL;

          rp_error_set_from_errno (&error, errno, _("Save probe: saving in"), probe->folder);
          rp_timed_call_abandon (call);
          rp_part_host_fail (host, error);
          return;
        }
      rp_timed_call_end (call);
      for (guint i = 0; i < G_N_ELEMENTS (steps_series); i++)
        rp_series_append (steps_series[i], started, steps[i]);
      rp_series_append (whole, started, steps[0] + steps[1] + steps[2] + steps[3]);
      rp_part_host_changed (host);
    }
  while (rp_part_host_sleep (host, probe->interval));
}

static const RpWorkerClass worker = {
  .name = "save",
  .prepare = save_probe_prepare,
  .run = save_probe_run,
  .free_state = save_probe_free,
};

static const RpParamInfo params[] = {
  { "save_size", "save-size", "save-size", RP_PARAM_SIZE, 1, 64 * RP_MiB, 64 * RP_KiB, NULL,
    N_("Save probe: size of the document saved (default 64K)"), N_("SIZE") },
  { "save_interval", "save-interval", "save-interval", RP_PARAM_SECONDS, 0.05, 3600, 2.0, NULL,
    N_("Save probe: seconds between saves (default 2)"), N_("SECONDS") },
};

static const RpSeriesInfo series[] = {
  { "save_latency", "s", N_("Document save time"), "disk-latency", N_("save"), N_("Save"),
    N_("Time to save a document as editors do: write a temporary file, fsync(), rename() over the old one, fsync() the folder"),
    18, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Document saves"), NULL, RP_CALL_KIND_FLUSH,
    /* TRANSLATORS: opens a sentence: "A document save took 2.1 s at 3.0 s" */
    N_("A document save") },
  { "save_write_latency", "s", N_("Save: writing the temporary file"), NULL, NULL, NULL, NULL,
    60, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_NONE },
  { "save_fsync_latency", "s", N_("Save: fsync() of the temporary file"), NULL, NULL, NULL, NULL,
    61, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_NONE },
  { "save_rename_latency", "s", N_("Save: rename() over the document"), NULL, NULL, NULL, NULL,
    62, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_NONE },
  { "save_folder_fsync_latency", "s", N_("Save: fsync() of the folder"), NULL, NULL, NULL, NULL,
    63, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_NONE },
};

static char *
save_describe (const RpParams *p)
{
  g_autofree char *size = rp_format_size (rp_params_get_size (p, "save_size"));

  /* TRANSLATORS: "64.0 KiB every 2 s" */
  return g_strdup_printf (_("%s every %g s"), size, rp_params_get_seconds (p, "save_interval"));
}

/* Saving a document: temporary file, fsync, rename, fsync of the folder. */
const RpPartInfo rp_save_part = {
  .id = "save",
  .role = RP_PART_PROBE,
  .label = N_("Save probe"),
  /* TRANSLATORS: %s is e.g. "64.0 KiB every 2 s" */
  .sentence = N_("document save, %s"),
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .describe = save_describe,
};
