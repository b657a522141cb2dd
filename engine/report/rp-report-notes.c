/* rp-report-notes.c: a run's notes for people: translated labels, values in the user's locale. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include <locale.h>
#include <string.h>

#include "rp-report-private.h"
#include "rp-units.h"

/* The notes' keys and values stay as the programs wrote them in the JSON and
 * text reports (scripts read them); the PDF shows them with these labels.
 * Kernel and sysfs names inside a label stay as they are: they are what one
 * looks up. A note without a label here reads as its key ("Copy bytes
 * total"). */
static const struct {
  const char *key;
  const char *label;
} note_labels[] = {
  { "abandoned_threads", N_("Threads the stop gave up on (stuck in the kernel)") },
  { "close_seconds", N_("Closing the files after the run") },
  { "configuration", N_("Configuration") },
  { "device_diskstats_at_end", N_("Device’s reads, writes and flushes at the end (diskstats)") },
  { "device_diskstats_at_start", N_("Device’s reads, writes and flushes at the start (diskstats)") },
  { "device_flush_latency_p50", N_("Device flush latency (p50)") },
  { "device_flush_latency_p99", N_("Device flush latency (p99)") },
  { "device_flush_requests", N_("Device flush requests") },
  { "device_profile", N_("Device profile") },
  { "device_read_latency_p50", N_("Device read latency (p50)") },
  { "device_read_latency_p99", N_("Device read latency (p99)") },
  { "device_read_requests", N_("Device read requests") },
  { "device_write_latency_p50", N_("Device write latency (p50)") },
  { "device_write_latency_p99", N_("Device write latency (p99)") },
  { "device_write_requests", N_("Device write requests") },
  { "dirty_background_threshold_emulated_bytes", N_("Background dirty threshold after pinning") },
  { "dirty_background_threshold_unemulated_bytes", N_("Background dirty threshold before pinning") },
  { "dirty_threshold_emulated_bytes", N_("Dirty threshold after pinning") },
  { "dirty_threshold_unemulated_bytes", N_("Dirty threshold before pinning") },
  { "disk_device", N_("Target’s device") },
  { "disk_discards_total", N_("Device discards") },
  { "disk_flushes_total", N_("Device flushes") },
  { "disk_read_bytes_total", N_("Bytes the device read") },
  { "disk_reads_total", N_("Device reads") },
  { "disk_sampler_cpu_seconds", N_("Disk sampler’s CPU time") },
  { "disk_write_bytes_total", N_("Bytes the device wrote") },
  { "disk_writes_total", N_("Device writes") },
  { "ended_by", N_("Run ended by") },
  { "ending_drained", N_("Emulated device at full speed to drain") },
  { "ending_seconds", N_("From the stop to the end of the run") },
  { "ext4_sync_file_calls", N_("ext4 fsync() calls, all processes") },
  { "ext4_sync_file_max", N_("Longest ext4 fsync()") },
  { "ext4_sync_file_seconds", N_("Time in ext4 fsync()") },
  { "journal_commit_seconds", N_("Time in journal commits") },
  { "journal_commits", N_("Journal commits") },
  { "kernel_events", N_("Kernel events") },
  { "kernel_events_cpu_seconds", N_("Kernel events: the reader’s CPU time") },
  { "kernel_events_device", N_("Kernel events: disk") },
  { "kernel_events_instance", N_("Kernel events: trace instance") },
  { "kernel_events_lost", N_("Kernel events lost") },
  { "kernel_events_records", N_("Kernel events read") },
  { "kernel_events_seconds", N_("Kernel events: time read") },
  /* root, helper (resprobed) or none */
  { "kernel_events_source", N_("Kernel events: traced by") },
  { "kernel_hz", N_("Kernel timer frequency (HZ)") },
  { "load_disk_device", N_("Load’s device") },
  { "load_disk_discards_total", N_("Load device discards") },
  { "load_disk_flushes_total", N_("Load device flushes") },
  { "load_disk_read_bytes_total", N_("Bytes the load device read") },
  { "load_disk_reads_total", N_("Load device reads") },
  { "load_disk_write_bytes_total", N_("Bytes the load device wrote") },
  { "load_disk_writes_total", N_("Load device writes") },
  { "memory_available_after_pin_bytes", N_("Memory available after pinning (MemAvailable)") },
  { "memory_emulated_bytes", N_("Emulated memory") },
  { "memory_pin_held", N_("Memory pinned for the whole run") },
  { "memory_pinned_bytes", N_("Memory pinned") },
  { "memory_total_bytes", N_("Machine’s memory (MemTotal)") },
  { "samples_dropped_before_start", N_("Samples dropped: their time was before the start") },
  { "stall_sampler_cpu_seconds", N_("Stall sampler’s CPU time") },
  { "stall_sampler_wakes", N_("Stall sampler’s wake-ups") },
  { "stall_samples", N_("Stall samples") },
  { "stall_source", N_("Where stalls were sampled") },
  { "stall_stack_reads", N_("Kernel stack reads") },
  { "stop_wait_seconds", N_("Time the stop waited for stuck threads") },
  { "task_delayacct", N_("Task delay accounting") },
  { "writer_bytes_total", N_("Bytes the writer wrote") },
  { "writer_pause_max", N_("Longest dirty-page pause") },
  { "writer_pause_other_seconds", N_("Dirty-page pauses of other processes") },
  { "writer_pause_seconds", N_("Time in dirty-page pauses") },
  { "writer_pause_tasks", N_("Tasks paused for dirty pages") },
  { "writer_pauses", N_("Dirty-page pauses (balance_dirty_pages)") },
  { "writer_seconds", N_("Writer’s time") },
};

/* Words the programs write as values, shown in the user's language (in
 * a context of their own: "off" of a note is a state, not a switch). */
static const struct {
  const char *value;
  const char *text;
} note_words[] = {
  { "true", NC_("note value", "yes") },
  { "false", NC_("note value", "no") },
  { "yes", NC_("note value", "yes") },
  { "no", NC_("note value", "no") },
  /* TRANSLATORS: a setting's state in the PDF's notes, e.g. task delay accounting "on" */
  { "on", NC_("note value", "on") },
  { "off", NC_("note value", "off") },
  /* TRANSLATORS: the notes' "Kernel events": they were recorded */
  { "recorded", NC_("note value", "recorded") },
  { "unavailable", NC_("note value", "unavailable") },
  /* TRANSLATORS: the notes' "Run ended by": its duration, the loads' end, a stop, an error */
  { "duration", NC_("note value", "its duration") },
  { "loads", NC_("note value", "the loads’ end") },
  { "stopped", NC_("note value", "a stop") },
  { "error", NC_("note value", "an error") },
};

/**
 * rp_report_note_label:
 * @key: a note's key, e.g. "writer_pauses"
 *
 * Returns: (transfer full): the note's label in the user's language,
 *   "Dirty-page pauses (balance_dirty_pages)"; a note this table does not
 *   know reads as its key with spaces, "Copy bytes total"
 */
char *
rp_report_note_label (const char *key)
{
  char *label;

  g_return_val_if_fail (key != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (note_labels); i++)
    if (g_str_equal (note_labels[i].key, key))
      return g_strdup (_(note_labels[i].label));
  /* wbt_lat_events … wbt_timer_events: the kernel's event names. */
  if (g_str_has_prefix (key, "wbt_") && g_str_has_suffix (key, "_events"))
    {
      g_autofree char *event = g_strndup (key, strlen (key) - strlen ("_events"));

      /* TRANSLATORS: %s is a kernel trace event, e.g. "wbt_lat" */
      return g_strdup_printf (_("Writeback throttling events (%s)"), event);
    }
  label = g_strdelimit (g_strdup (key), "_", ' ');
  if (label[0] != '\0')
    label[0] = g_ascii_toupper (label[0]);
  return label;
}

/* A plain decimal number as the programs write notes: "0.055", "272". */
static gboolean
is_decimal (const char *value)
{
  const char *p = value;

  if (*p == '-')
    p++;
  if (!g_ascii_isdigit (*p))
    return FALSE;
  while (g_ascii_isdigit (*p))
    p++;
  if (*p == '.')
    {
      p++;
      if (!g_ascii_isdigit (*p))
        return FALSE;
      while (g_ascii_isdigit (*p))
        p++;
    }
  return *p == '\0';
}

/**
 * rp_report_note_value:
 * @key: the note's key
 * @value: its value as the report has it (UTF-8)
 *
 * A note's value for people: durations (keys ending in "_seconds",
 * "_max", "_p50", "_p99") in µs/ms/s, bytes (keys ending in "_bytes",
 * "_bytes_total") in IEC units, the words the programs write ("true",
 * "off", "duration") translated, other numbers with the locale's decimal
 * separator. Everything else (device names, kernel names, a command's
 * output) as it is.
 *
 * Returns: (transfer full): the text
 */
char *
rp_report_note_value (const char *key,
                      const char *value)
{
  double number;
  guint64 bytes;

  g_return_val_if_fail (key != NULL && value != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (note_words); i++)
    if (g_str_equal (note_words[i].value, value))
      return g_strdup (g_dpgettext2 (GETTEXT_PACKAGE, "note value", note_words[i].text));
  /* Beyond what a report may hold, the digits are shown as written. */
  if (!is_decimal (value) || !rp_parse_note_number (value, -RP_NOTE_MAX_NUMBER, RP_NOTE_MAX_NUMBER, &number))
    return g_strdup (value);
  if (g_str_has_suffix (key, "_seconds") || g_str_has_suffix (key, "_max") ||
      g_str_has_suffix (key, "_p50") || g_str_has_suffix (key, "_p99"))
    return rp_format_latency (number);
  if ((g_str_has_suffix (key, "_bytes") || g_str_has_suffix (key, "_bytes_total")) &&
      rp_parse_note_count (value, G_MAXINT64, &bytes))
    return rp_format_size (bytes);
  if (strchr (value, '.') != NULL)
    {
      /* The digits as written, with the locale's separator: "0,0035". */
      const char *point = localeconv ()->decimal_point;
      g_autofree char *whole = g_strndup (value, strchr (value, '.') - value);

      return g_strconcat (whole, point, strchr (value, '.') + 1, NULL);
    }
  return g_strdup (value);
}
