/* rp-comparison-names.c: the settings a comparison lists, and runs named by those that differ. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <string.h>

#include "rp-comparison.h"
#include "rp-device-profile.h"
#include "rp-report-private.h"
#include "rp-units.h"

/* The note `run --memory` and `matrix --memory` write (rp-memory-pin.c). */
#define NOTE_MEMORY_EMULATED "memory_emulated_bytes"

/* The emulated device a matrix cell ran on (`matrix --device`), or NULL. */
static const char *
device_profile (RpReport *report)
{
  GHashTable *notes = rp_report_get_notes (report);

  return notes != NULL ? g_hash_table_lookup (notes, RP_NOTE_DEVICE_PROFILE) : NULL;
}

/**
 * rp_compare_device_profiles_differ:
 * @reports: (element-type RpReport): the runs
 *
 * Returns: whether the runs ran on different emulated devices (`matrix
 *   --device`): then the profile names them
 */
gboolean
rp_compare_device_profiles_differ (GPtrArray *reports)
{
  g_return_val_if_fail (reports != NULL, FALSE);

  for (guint i = 1; i < reports->len; i++)
    if (g_strcmp0 (device_profile (g_ptr_array_index (reports, i)),
                   device_profile (g_ptr_array_index (reports, 0))) != 0)
      return TRUE;
  return FALSE;
}

/**
 * rp_compare_setting_value:
 * @report: a run
 * @setting: one of rp_compare_get_settings()
 *
 * Returns: (transfer full): the setting as the system section shows it
 *   ("none", "not applicable", "unknown" included); the emulated memory
 *   (a note) as a size, "-" for a run on the machine's own
 */
char *
rp_compare_setting_value (RpReport               *report,
                          const RpCompareSetting *setting)
{
  g_autoptr(GPtrArray) fields = NULL;

  g_return_val_if_fail (RP_IS_REPORT (report) && setting != NULL, NULL);

  if (g_str_equal (setting->key, NOTE_MEMORY_EMULATED))
    {
      GHashTable *notes = rp_report_get_notes (report);
      const char *bytes = notes != NULL ? g_hash_table_lookup (notes, NOTE_MEMORY_EMULATED) : NULL;
      guint64 value;

      if (bytes == NULL || !g_ascii_string_to_unsigned (bytes, 10, 1, G_MAXUINT64, &value, NULL))
        return g_strdup ("-");
      return rp_format_size (value);
    }
  fields = rp_sysinfo_get_fields (rp_report_get_sysinfo (report));
  for (guint i = 0; i < fields->len; i++)
    {
      const RpSysinfoField *field = g_ptr_array_index (fields, i);

      if (g_strcmp0 (field->key, setting->key) == 0)
        return g_strdup (field->value);
    }
  return g_strdup (_("unknown"));
}

/* One setting of a run as a name reads it: "data=writeback", "scheduler
 * bfq", "dirty_bytes 268435456", "load on ext3". The scheduler "none"
 * alone would read like "no writeback". */
static char *
describe_setting (const RpCompareSetting *setting,
                  const char             *value)
{
  g_autofree char *shortened = rp_text_shorten (value);
  const char *key = setting->key;

  if (g_str_equal (key, "journal_mode") || g_str_equal (key, "load_journal_mode"))
    {
      g_autofree char *mode = g_strndup (shortened, strcspn (shortened, " ("));

      /* TRANSLATORS: a run's name in a comparison: the journal mode of the
       * folder the loads wrote to (matrix --probe-dir), e.g. "load data=writeback" */
      return g_str_equal (key, "journal_mode") ? g_strdup_printf ("data=%s", mode)
                                               : g_strdup_printf (_("load data=%s"), mode);
    }
  if (g_str_equal (key, "scheduler"))
    /* TRANSLATORS: a run's name in a comparison: the I/O scheduler, e.g.
     * "scheduler none", "scheduler mq-deadline" */
    return g_strdup_printf (_("scheduler %s"), shortened);
  if (g_str_equal (key, "load_scheduler"))
    /* TRANSLATORS: a run's name in a comparison: the I/O scheduler of the
     * loads' disk (matrix --probe-dir), e.g. "load scheduler bfq" */
    return g_strdup_printf (_("load scheduler %s"), shortened);
  if (g_str_equal (key, "load_fs_type"))
    /* TRANSLATORS: a run's name in a comparison: the file system the loads
     * wrote to (matrix --probe-dir), e.g. "load on ext3" */
    return g_strdup_printf (_("load on %s"), shortened);
  if (g_str_equal (key, NOTE_MEMORY_EMULATED) && g_str_equal (value, "-"))
    /* TRANSLATORS: a run's name in a comparison: it emulated no smaller
     * machine (no --memory), against runs that did */
    return g_strdup (_("machine’s own memory"));
  if (g_str_equal (key, NOTE_MEMORY_EMULATED))
    /* TRANSLATORS: a run's name in a comparison: the machine memory it
     * emulated (--memory), e.g. "memory 4.0 GiB" */
    return g_strdup_printf (_("memory %s"), shortened);
  if (g_str_equal (key, "fs_type") || g_str_equal (key, "kernel_release") || g_str_equal (key, "machine"))
    return g_steal_pointer (&shortened);
  return g_strdup_printf ("%s %s", setting->translate ? _(setting->label) : setting->label, shortened);
}

/* Settings a name leaves to others: the mount options repeat the journal
 * mode, the disk its scheduler; on emulated devices (@by_device) the
 * profile says whether the disk rotates. */
static gboolean
names_skip (const RpCompareSetting *setting,
            gboolean                by_device)
{
  return g_str_equal (setting->key, "mount_options") || g_str_equal (setting->key, "whole_disk") ||
         g_str_equal (setting->key, "load_mount_options") ||
         (by_device && g_str_equal (setting->key, "rotational"));
}

/* At most this many settings in a run's name; the table shows them all. */
#define MAX_NAME_SETTINGS 3

/**
 * rp_compare_name_runs:
 * @reports: (element-type RpReport): the runs, the first the baseline
 *
 * Each run named by what differs from the baseline among the settings a
 * comparison lists (rp_compare_get_settings(): "data=writeback",
 * "scheduler bfq", "dirty_bytes 268435456"; the loads' side of a matrix
 * under `--probe-dir`: "load on ext3", "load scheduler bfq", "memory
 * 4.0 GiB"), at most three; the baseline by its own values of them. Runs
 * on different emulated devices (`matrix --device`) first by the device
 * profile ("usb2-stick, data=writeback"). The same names head the text
 * comparison's columns, the window's and the exported charts' legends.
 *
 * Returns: (transfer full): a %NULL-terminated array of @reports->len
 *   entries, each a name or an empty string for a run that differs from
 *   the baseline in none of the settings (the caller names it otherwise)
 */
char **
rp_compare_name_runs (GPtrArray *reports)
{
  guint n, n_settings;
  const RpCompareSetting *settings = rp_compare_get_settings (&n_settings);
  gboolean by_device;
  g_autoptr(GPtrArray) parts = NULL;
  char **names;

  g_return_val_if_fail (reports != NULL, NULL);

  n = reports->len;
  by_device = rp_compare_device_profiles_differ (reports);
  parts = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  for (guint r = 0; r < n; r++)
    {
      GPtrArray *run = g_ptr_array_new_with_free_func (g_free);
      const char *profile = by_device ? device_profile (g_ptr_array_index (reports, r)) : NULL;

      /* Profile names are what one types after --device: not translated. */
      if (profile != NULL)
        g_ptr_array_add (run, rp_text_sanitize (profile));
      g_ptr_array_add (parts, run);
    }

  for (guint s = 0; s < n_settings && n > 1; s++)
    {
      g_auto(GStrv) values = g_new0 (char *, n + 1);
      gboolean differs = FALSE;

      if (names_skip (&settings[s], by_device))
        continue;
      for (guint r = 0; r < n; r++)
        {
          values[r] = rp_compare_setting_value (g_ptr_array_index (reports, r), &settings[s]);
          differs |= g_strcmp0 (values[r], values[0]) != 0;
        }
      if (!differs)
        continue;
      for (guint r = 0; r < n; r++)
        {
          GPtrArray *run = g_ptr_array_index (parts, r);
          guint room = MAX_NAME_SETTINGS + (by_device ? 1 : 0);

          if ((r == 0 || g_strcmp0 (values[r], values[0]) != 0) && run->len < room)
            g_ptr_array_add (run, describe_setting (&settings[s], values[r]));
        }
    }

  names = g_new0 (char *, n + 1);
  for (guint r = 0; r < n; r++)
    {
      GPtrArray *run = g_ptr_array_index (parts, r);

      g_ptr_array_add (run, NULL);
      names[r] = g_strjoinv (", ", (char **) run->pdata);
    }
  return names;
}
