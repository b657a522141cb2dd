/* rp-small-files.c: N threads creating many small files, as an unpacked archive or a build does. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-headroom.h"
#include "rp-io.h"
#include "rp-params.h"
#include "rp-parts.h"
#include "rp-rate-meter.h"
#include "rp-run-folder.h"
#include "rp-units.h"

/* Samples every 0.5 s, as the other loads'. */
#define RATE_PERIOD 0.5

/* Each thread keeps its newest this many files and deletes older ones, so
 * that the load runs for hours in a bounded space (16 MiB per thread at
 * 16 KiB) and stays a metadata load: creating, allocating, deleting. */
#define KEEP_PER_THREAD 1024

/* What `tar x`, `git checkout` or a compiler do to a file system: many
 * small files created and written, each a new inode, directory entry and
 * allocation for the journal to commit; what syncfs() (the sync probe) then
 * waits for. The files are named (the load is their directory entries), in
 * a folder of the run's own in the target (`resprobe-files-PID-START-XXXXXX`), removed
 * with every file when the load ends; only a kill -9 can leave it. */

typedef struct _SmallFiles SmallFiles;

typedef struct {
  SmallFiles *parent;
  GThread    *thread;
  guint       index;
  guint64     created;
} FileThread;

struct _SmallFiles {
  RpPartHost *host;
  char       *folder;
  int         folder_fd;
  FileThread *threads;
  guint       n_threads;
  guint64     file_size;
  char       *buffer;
  gsize       files;     /* atomic (pointer-sized): every thread's files */
  GError     *error;     /* the first failure, under @lock */
  GMutex      lock;
};

/* Removes every file of the folder and the folder itself. Through the
 * folder's descriptor, not its name: a folder renamed during the run
 * (a user tidying up, `mv`) kept its 2048 files when its old name was
 * listed (issue 33); its new name is the descriptor's in /proc. */
static void
remove_folder (SmallFiles *load)
{
  g_autofree char *link = NULL;
  g_autofree char *now = NULL;
  DIR *dir;
  struct dirent *entry;
  int listing;

  if (load->folder == NULL)
    return;
  listing = load->folder_fd >= 0 ? openat (load->folder_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
  dir = listing >= 0 ? fdopendir (listing) : NULL;
  if (dir == NULL && listing >= 0)
    close (listing);
  while (dir != NULL && (entry = readdir (dir)) != NULL)
    if (!g_str_equal (entry->d_name, ".") && !g_str_equal (entry->d_name, ".."))
      unlinkat (load->folder_fd, entry->d_name, 0);
  if (dir != NULL)
    closedir (dir);
  if (g_rmdir (load->folder) == 0 || load->folder_fd < 0)
    return;
  link = g_strdup_printf ("/proc/self/fd/%d", load->folder_fd);
  now = g_file_read_link (link, NULL);
  /* " (deleted)" when it is gone already: nothing to remove. */
  if (now != NULL && g_path_is_absolute (now) && !g_str_has_suffix (now, " (deleted)"))
    g_rmdir (now);
}

static void
small_files_free (gpointer data)
{
  SmallFiles *load = data;

  remove_folder (load);
  if (load->folder_fd >= 0)
    close (load->folder_fd);
  g_free (load->folder);
  g_free (load->threads);
  g_free (load->buffer);
  g_clear_error (&load->error);
  g_mutex_clear (&load->lock);
  g_free (load);
}

static gpointer
small_files_prepare (RpPartHost *host,
                     GError    **error)
{
  const RpParams *params = rp_part_host_get_params (host);
  const char *directory = rp_part_host_get_directory (host);
  SmallFiles *load = g_new0 (SmallFiles, 1);

  g_mutex_init (&load->lock);
  load->host = host;
  load->folder_fd = -1;
  load->n_threads = (guint) rp_params_get_size (params, "small_files_writers");
  load->file_size = rp_params_get_size (params, "small_file_size");
  load->threads = g_new0 (FileThread, load->n_threads);
  /* Under a memory limit a message, not GLib's abort (issue 33). */
  load->buffer = rp_buffer_try_new (load->file_size, _("Small files"), error);
  if (load->buffer == NULL)
    {
      small_files_free (load);
      return NULL;
    }
  for (guint64 i = 0; i < load->file_size; i++)
    load->buffer[i] = (char) (i * 29 + 5);

  load->folder = rp_run_folder_template (directory, "files");
  if (g_mkdtemp_full (load->folder, 0700) == NULL)
    {
      rp_error_set_from_errno (error, errno, _("Small files: creating a folder in"), directory);
      g_clear_pointer (&load->folder, g_free);
      small_files_free (load);
      return NULL;
    }
  load->folder_fd = open (load->folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (load->folder_fd < 0)
    {
      rp_error_set_from_errno (error, errno, _("Small files: opening"), load->folder);
      small_files_free (load);
      return NULL;
    }
  return load;
}

static gboolean
create_file (FileThread *thread,
             guint64     number)
{
  SmallFiles *load = thread->parent;
  char name[48];
  int fd;
  gboolean ok;

  g_snprintf (name, sizeof name, "t%u-%" G_GUINT64_FORMAT, thread->index, number);
  fd = openat (load->folder_fd, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0)
    return FALSE;
  ok = rp_write_all (fd, load->buffer, load->file_size);
  return close (fd) == 0 && ok;
}

static gpointer
file_thread (gpointer data)
{
  FileThread *thread = data;
  SmallFiles *load = thread->parent;

  while (!rp_part_host_should_stop (load->host))
    {
      if (!create_file (thread, thread->created))
        {
          int saved_errno = errno;

          g_mutex_lock (&load->lock);
          if (load->error == NULL)
            rp_error_set_from_errno (&load->error, saved_errno, _("Small files: writing in"), load->folder);
          g_mutex_unlock (&load->lock);
          break;
        }
      if (thread->created >= KEEP_PER_THREAD)
        {
          char old[48];

          g_snprintf (old, sizeof old, "t%u-%" G_GUINT64_FORMAT, thread->index, thread->created - KEEP_PER_THREAD);
          unlinkat (load->folder_fd, old, 0);
        }
      thread->created++;
      g_atomic_pointer_add (&load->files, 1);
    }
  return NULL;
}

static void
small_files_run (RpPartHost *host,
                 gpointer   state)
{
  SmallFiles *load = state;
  RpSeries *rate = rp_part_host_ensure_series (host, "small_files_rate", "ops/s", _("Small files created per second"));
  double start = rp_part_host_now (host);
  RpRateMeter meter;
  RpHeadroom *headroom;
  guint started = 0;
  GError *error = NULL;

  rp_rate_meter_init (&meter, rate, RATE_PERIOD, start);
  /* The run's other threads keep room to stop in (rp-headroom.c). */
  headroom = rp_headroom_try_take (RP_HEADROOM_THREADS, _("Small files"), &error);
  if (headroom == NULL)
    rp_part_host_fail (host, g_steal_pointer (&error));
  for (; headroom != NULL && started < load->n_threads; started++)
    {
      load->threads[started].parent = load;
      load->threads[started].index = started;
      load->threads[started].thread = g_thread_try_new ("rp-small-files", file_thread,
                                                        &load->threads[started], &error);
      if (load->threads[started].thread == NULL)
        {
          g_clear_pointer (&headroom, rp_headroom_release);
          /* TRANSLATORS: %u counts from 0; %s is why, e.g. "Error creating thread: Resource temporarily unavailable" */
          rp_part_host_fail (host, g_error_new (RP_ERROR, RP_ERROR_FAILED, _("Small files: cannot start thread %u: %s"),
                                                started, error->message));
          g_clear_error (&error);
          break;
        }
    }
  g_clear_pointer (&headroom, rp_headroom_release);
  while (started == load->n_threads && load->error == NULL && rp_part_host_sleep (host, RATE_PERIOD))
    {
      rp_rate_meter_add (&meter, (guint64) g_atomic_pointer_get (&load->files) - meter.bytes, rp_part_host_now (host));
      rp_part_host_changed (host);
    }
  for (guint i = 0; i < started; i++)
    g_thread_join (load->threads[i].thread);
  if (load->error != NULL)
    rp_part_host_fail (host, g_steal_pointer (&load->error));
  rp_rate_meter_flush (&meter, rp_part_host_now (host));
  rp_part_host_set_number_note (host, "small_files_created", "%.0f", (double) load->files);
  rp_part_host_set_number_note (host, "small_files_seconds", "%.3f", rp_part_host_now (host) - start);
}

static const RpWorkerClass worker = {
  .name = "small-files",
  .prepare = small_files_prepare,
  .run = small_files_run,
  .free_state = small_files_free,
};

static const RpParamInfo params[] = {
  { "small_files_writers", "file-writers", "file-writers", RP_PARAM_COUNT, 1, 64, 4, NULL,
    N_("Small files: number of threads creating files, 1 to 64 (default 4)"), N_("N") },
  { "small_file_size", "small-file-size", "small-file-size", RP_PARAM_SIZE, 1, 64 * RP_MiB, 16 * RP_KiB, NULL,
    N_("Small files: size of each file (default 16K)"), N_("SIZE") },
};

static const RpSeriesInfo series[] = {
  { "small_files_rate", "ops/s", N_("Small files created per second"), "throughput", N_("small files"), NULL, NULL,
    34, RP_SUMMARY_THROUGHPUT, RP_SERIES_FLAG_NONE },
};

/* Each thread keeps up to KEEP_PER_THREAD files. */
static guint64
small_files_write_budget (const RpParams *p)
{
  return rp_params_get_size (p, "small_files_writers") * KEEP_PER_THREAD *
         MAX (rp_params_get_size (p, "small_file_size"), 4096);
}

static char *
small_files_describe (const RpParams *p)
{
  guint count = (guint) rp_params_get_size (p, "small_files_writers");
  g_autofree char *size = rp_format_size (rp_params_get_size (p, "small_file_size"));

  /* TRANSLATORS: "4 threads creating 16.0 KiB files" */
  return g_strdup_printf (ngettext ("%u thread creating %s files", "%u threads creating %s files", count),
                          count, size);
}

/* Many small files, the metadata load of an unpacked archive. */
const RpPartInfo rp_small_files_part = {
  .id = "small-files",
  .role = RP_PART_LOAD,
  .label = N_("Small files"),
  /* TRANSLATORS: %s is e.g. "4 threads creating 16.0 KiB files" */
  .sentence = N_("small files, %s"),
  .start_rank = 2,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .write_budget = small_files_write_budget,
  .describe = small_files_describe,
};
