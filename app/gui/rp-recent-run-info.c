/* rp-recent-run-info.c: what a recent run's row says about it: when, what, on which storage, how it went. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "rp-recent-run-info.h"
#include "rp-report.h"
#include "rp-session.h"
#include "rp-text.h"

/* A row of the list tells runs apart by what the report says, not by the
 * file's name and time (issue 21: a Save under another name, or a copy,
 * looked like another run). Reading a report means loading it: the
 * verdict is computed from its samples, never taken from the file's
 * "summary" (docs/REPORT-FORMAT.md: readers ignore it), so that a row
 * cannot say "Responsive" of a run that opens as "Severe stalls". A
 * report is read once per modification: the infos are kept by path, size
 * and modification time for the life of the process, so that the list,
 * listed again after every change in the folder, reads only what is new. */

typedef struct {
  guint64          modified;   /* µs since the epoch */
  goffset          size;
  RpRecentRunInfo *info;
} CacheEntry;

static void
cache_entry_free (CacheEntry *entry)
{
  rp_recent_run_info_unref (entry->info);
  g_free (entry);
}

static GMutex cache_lock;
static GHashTable *cache;   /* path → CacheEntry */

static void
clear_info (RpRecentRunInfo *info)
{
  g_clear_pointer (&info->created, g_date_time_unref);
  g_free (info->scenario);
  g_free (info->storage);
}

/**
 * rp_recent_run_info_ref:
 *
 * Returns: (transfer full): @info
 */
RpRecentRunInfo *
rp_recent_run_info_ref (RpRecentRunInfo *info)
{
  return g_atomic_rc_box_acquire (info);
}

/**
 * rp_recent_run_info_unref:
 * @info: (transfer full) (nullable): an info
 */
void
rp_recent_run_info_unref (RpRecentRunInfo *info)
{
  if (info != NULL)
    g_atomic_rc_box_release_full (info, (GDestroyNotify) clear_info);
}

/* The note of the @number-th command: "command_exit_status" for the first,
 * "command_2_exit_status" for the second (docs/REPORT-FORMAT.md). */
static const char *
command_note (GHashTable *notes,
              guint       number,
              const char *what)
{
  g_autofree char *key = number == 1 ? g_strdup_printf ("command_%s", what)
                                     : g_strdup_printf ("command_%u_%s", number, what);

  return g_hash_table_lookup (notes, key);
}

/* As resprobe-cli judges its exit status: a command failed by itself when
 * it exited with a status other than 0 or a signal ended it, except a
 * command the run's end stopped. */
static gboolean
some_command_failed (GHashTable *notes)
{
  guint count = rp_report_notes_command_count (notes);

  /* At most a few commands: a hostile count must not loop for long. */
  for (guint number = 1; number <= MIN (count, 64); number++)
    {
      const char *status = command_note (notes, number, "exit_status");

      if (status != NULL && !g_str_equal (status, "exit 0") &&
          g_strcmp0 (command_note (notes, number, "stopped"), "true") != 0)
        return TRUE;
    }
  return FALSE;
}

/* "ext3 data=ordered, scheduler none", cut to sane lengths (an edited
 * report may name a file system in 500 characters); the loads' storage
 * when they wrote to a folder of their own, as the comparison names it. */
static char *
describe_storage (const RpSysinfo *sysinfo)
{
  gboolean load = sysinfo->load_fs_type != NULL;
  const char *fs_type = load ? sysinfo->load_fs_type : sysinfo->fs_type;
  const char *journal_mode = load ? sysinfo->load_journal_mode : sysinfo->journal_mode;
  const char *scheduler = load ? sysinfo->load_scheduler : sysinfo->scheduler;
  g_autoptr(GString) text = g_string_new (NULL);

  if (fs_type != NULL)
    {
      g_autofree char *shortened = rp_text_shorten (fs_type);

      g_string_append (text, shortened);
    }
  /* "ordered (default)": the mode is what tells runs apart. */
  if (journal_mode != NULL)
    {
      g_autofree char *mode = g_strndup (journal_mode, strcspn (journal_mode, " ("));
      g_autofree char *shortened = rp_text_shorten (mode);

      g_string_append_printf (text, "%sdata=%s", text->len > 0 ? " " : "", shortened);
    }
  if (scheduler != NULL)
    {
      g_autofree char *cut = rp_text_shorten (scheduler);
      /* "mq-deadline" whole on its line: a narrow sidebar broke it as
       * "mq-" / "deadline". U+2011 NON-BREAKING HYPHEN looks the same. */
      g_auto(GStrv) pieces = g_strsplit (cut, "-", -1);
      g_autofree char *shortened = g_strjoinv ("\u2011", pieces);

      if (text->len > 0)
        g_string_append (text, ", ");
      /* TRANSLATORS: the disk's I/O scheduler in a recent run's row, e.g.
       * "scheduler mq-deadline"; %s is the kernel's name, untranslated */
      g_string_append_printf (text, _("scheduler %s"), shortened);
    }
  if (text->len == 0)
    return NULL;
  if (load)
    {
      /* TRANSLATORS: the loads wrote to a folder of their own, e.g. "load
       * on vfat, scheduler mq-deadline" */
      g_autofree char *on = g_strdup_printf (_("load on %s"), text->str);

      return g_steal_pointer (&on);
    }
  return g_string_free (g_steal_pointer (&text), FALSE);
}

static RpRecentRunInfo *
info_from_report (RpReport *report)
{
  RpRecentRunInfo *info = g_atomic_rc_box_new0 (RpRecentRunInfo);
  GHashTable *notes = rp_report_get_notes (report);
  const char *ended_by = g_hash_table_lookup (notes, "ended_by");
  g_autoptr(RpRunSummary) summary = rp_report_get_summary (report);

  info->created = g_date_time_ref (rp_report_get_created (report));
  info->scenario = rp_text_shorten (rp_report_get_scenario (report)->name);
  info->storage = describe_storage (rp_report_get_sysinfo (report));
  info->severity = rp_run_summary_get_severity (summary);
  /* A static translated string (rp_run_summary_get_headline()). */
  info->headline = rp_run_summary_get_headline (summary, TRUE);
  info->stopped = g_strcmp0 (ended_by, RP_ENDED_BY_REQUEST) == 0;
  info->failed = rp_report_get_error_message (report) != NULL || g_strcmp0 (ended_by, RP_ENDED_BY_ERROR) == 0;
  info->command_failed = some_command_failed (notes);
  return info;
}

/* When and how big: a report changed since it was read is read again. */
static void
stamp_of (GFileInfo *file_info,
          guint64   *modified,
          goffset   *size)
{
  *modified = g_file_info_get_attribute_uint64 (file_info, G_FILE_ATTRIBUTE_TIME_MODIFIED) * G_USEC_PER_SEC +
              g_file_info_get_attribute_uint32 (file_info, G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC);
  *size = g_file_info_get_size (file_info);
}

static RpRecentRunInfo *
lookup (const char *path,
        guint64     modified,
        goffset     size)
{
  RpRecentRunInfo *info = NULL;
  CacheEntry *entry;

  g_mutex_lock (&cache_lock);
  entry = cache != NULL && path != NULL ? g_hash_table_lookup (cache, path) : NULL;
  if (entry != NULL && entry->modified == modified && entry->size == size)
    info = rp_recent_run_info_ref (entry->info);
  g_mutex_unlock (&cache_lock);
  return info;
}

/**
 * rp_recent_run_info_peek:
 * @file: a report
 * @file_info: its size and modification time (%G_FILE_ATTRIBUTE_STANDARD_SIZE,
 *   %G_FILE_ATTRIBUTE_TIME_MODIFIED, %G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC),
 *   as a listing of its folder gave them
 *
 * What rp_recent_run_info_read() gave for @file as it is, without I/O: for
 * the main thread, so that a list built again shows at once what it showed.
 *
 * Returns: (transfer full) (nullable): the info, or %NULL if @file was not
 *   read as it is
 */
RpRecentRunInfo *
rp_recent_run_info_peek (GFile     *file,
                         GFileInfo *file_info)
{
  guint64 modified;
  goffset size;

  g_return_val_if_fail (G_IS_FILE (file) && G_IS_FILE_INFO (file_info), NULL);

  stamp_of (file_info, &modified, &size);
  return lookup (g_file_peek_path (file), modified, size);
}

/**
 * rp_recent_run_info_read:
 * @file: a JSON report
 * @error: why it could not be read (%RP_ERROR_IO, %RP_ERROR_REPORT,
 *   naming the file)
 *
 * What the list of recent runs shows of @file. Loads the report the first
 * time, and again only when its size or modification time changed; the
 * result is kept for the next call (and rp_recent_run_info_peek()).
 * Blocking (a report of a day is tens of megabytes): call it on a worker
 * thread. Thread-safe.
 *
 * Returns: (transfer full) (nullable): the run's info
 */
RpRecentRunInfo *
rp_recent_run_info_read (GFile   *file,
                         GError **error)
{
  g_autoptr(GFileInfo) file_info = NULL;
  g_autoptr(RpReport) report = NULL;
  g_autofree char *path = g_file_get_path (file);
  RpRecentRunInfo *cached;
  guint64 modified;
  goffset size;
  CacheEntry *entry;

  g_return_val_if_fail (G_IS_FILE (file), NULL);

  file_info = g_file_query_info (file, G_FILE_ATTRIBUTE_STANDARD_SIZE "," G_FILE_ATTRIBUTE_TIME_MODIFIED ","
                                 G_FILE_ATTRIBUTE_TIME_MODIFIED_USEC,
                                 G_FILE_QUERY_INFO_NONE, NULL, error);
  if (file_info == NULL)
    return NULL;
  stamp_of (file_info, &modified, &size);
  cached = lookup (path, modified, size);
  if (cached != NULL)
    return cached;

  report = rp_report_load (file, error);
  if (report == NULL)
    return NULL;
  entry = g_new0 (CacheEntry, 1);
  entry->modified = modified;
  entry->size = size;
  entry->info = info_from_report (report);
  if (path == NULL)
    {
      RpRecentRunInfo *info = g_steal_pointer (&entry->info);

      g_free (entry);
      return info;
    }
  {
    /* Taken before the entry is shared: another thread may replace it. */
    RpRecentRunInfo *info = rp_recent_run_info_ref (entry->info);

    g_mutex_lock (&cache_lock);
    if (cache == NULL)
      cache = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) cache_entry_free);
    g_hash_table_replace (cache, g_strdup (path), entry);
    g_mutex_unlock (&cache_lock);
    return info;
  }
}

/**
 * rp_recent_run_info_format_time:
 * @now: the time to count days from (g_date_time_new_now_local() but in
 *   tests)
 *
 * When the run started, in local time, as a file manager says it: "Today
 * 11:15", "Yesterday 18:02", "Mon 30 Nov, 09:41" this year, "2 Dec 2025,
 * 11:15" before; each a translatable g_date_time_format() format.
 *
 * Returns: (transfer full): the text
 */
char *
rp_recent_run_info_format_time (const RpRecentRunInfo *info,
                                GDateTime             *now)
{
  g_autoptr(GDateTime) local = NULL;
  g_autoptr(GDateTime) local_now = NULL;
  g_autoptr(GDateTime) yesterday = NULL;
  const char *format;

  g_return_val_if_fail (info != NULL && now != NULL, NULL);

  local = g_date_time_to_local (info->created);
  local_now = g_date_time_to_local (now);
  yesterday = g_date_time_add_days (local_now, -1);
  if (g_date_time_get_year (local) == g_date_time_get_year (local_now) &&
      g_date_time_get_day_of_year (local) == g_date_time_get_day_of_year (local_now))
    /* TRANSLATORS: when a recent run started today, a g_date_time_format()
     * format, e.g. "Today 11:15" (%I:%M %p for a 12-hour clock) */
    /* xgettext:no-c-format */
    format = _("Today %H:%M");
  else if (g_date_time_get_year (local) == g_date_time_get_year (yesterday) &&
           g_date_time_get_day_of_year (local) == g_date_time_get_day_of_year (yesterday))
    /* TRANSLATORS: when a recent run started yesterday, e.g. "Yesterday 18:02" */
    /* xgettext:no-c-format */
    format = _("Yesterday %H:%M");
  else if (g_date_time_get_year (local) == g_date_time_get_year (local_now))
    /* TRANSLATORS: when a recent run started this year, e.g. "Mon 30 Nov, 09:41";
     * reorder as your language writes dates */
    /* xgettext:no-c-format */
    format = _("%a %-d %b, %H:%M");
  else
    /* TRANSLATORS: when a recent run started in another year, e.g. "2 Dec 2025, 11:15" */
    /* xgettext:no-c-format */
    format = _("%-d %b %Y, %H:%M");
  return g_date_time_format (local, format);
}

/**
 * rp_recent_run_info_describe:
 *
 * What the run was and how it went, for the row's subtitle: the verdict's
 * headline, then "Stopped", "Failed", "Command failed" when they apply;
 * the storage on a line of its own, e.g. "Noticeable delays · Stopped\n
 * ext3 data=ordered, scheduler none" (a line that wraps inside "data=…"
 * reads badly in a sidebar).
 *
 * Returns: (transfer full): the text
 */
char *
rp_recent_run_info_describe (const RpRecentRunInfo *info)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  g_autofree char *how = NULL;

  g_return_val_if_fail (info != NULL, NULL);

  g_ptr_array_add (parts, (gpointer) info->headline);
  if (info->stopped)
    /* TRANSLATORS: a mark in a recent run's row: stopped by hand before its end */
    g_ptr_array_add (parts, (gpointer) C_("run", "Stopped"));
  if (info->failed)
    /* TRANSLATORS: a mark in a recent run's row: an error ended it */
    g_ptr_array_add (parts, (gpointer) C_("run", "Failed"));
  if (info->command_failed)
    /* TRANSLATORS: a mark in a recent run's row: its load command exited with an error */
    g_ptr_array_add (parts, (gpointer) _("Command failed"));
  g_ptr_array_add (parts, NULL);
  how = g_strjoinv (" · ", (char **) parts->pdata);
  if (info->storage == NULL)
    return g_steal_pointer (&how);
  return g_strdup_printf ("%s\n%s", how, info->storage);
}
