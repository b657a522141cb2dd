/* rp-trace-reader.c: enables the kernel events of the target's devices in our instance and reads them. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <glib/gi18n-lib.h>
#include <math.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-trace-private.h"
#include "rp-trace-reader.h"

/* The kernel here has no hist triggers, so aggregation happens in user space:
 * the reader thread empties the per-CPU buffers of the instance with
 * tracefs_iterate_raw_events() a few times a second (rp-kernel-events.c) and
 * hands each record to its family's handler. Filters in the kernel keep the
 * events to the target's devices, so that a busy other disk costs nothing. */

typedef struct {
  int             id;
  RpTraceHandler  handler;
} Dispatch;

struct _RpTraceReader {
  struct tracefs_instance *instance;
  struct tep_handle       *tep;
  GArray                  *dispatch;   /* of Dispatch */
  RpTraceSink              sink;
  GString                 *missing;    /* events this kernel does not have */
  guint64                  records;    /* read from the buffers */
  gboolean                 finished;
};

/**
 * rp_trace_field_u64:
 * @name: a numeric field of @event, e.g. "dev"
 *
 * Returns: its value in @record, 0 when the event has no such field
 */
guint64
rp_trace_field_u64 (struct tep_event  *event,
                    struct tep_record *record,
                    const char        *name)
{
  unsigned long long value = 0;

  tep_get_any_field_val (NULL, event, name, record, &value, 0);
  return value;
}

/**
 * rp_trace_field_s64:
 * @name: a signed numeric field of @event, e.g. "pause"
 *
 * Returns: its value in @record, sign-extended from the field's size
 */
gint64
rp_trace_field_s64 (struct tep_event  *event,
                    struct tep_record *record,
                    const char        *name)
{
  struct tep_format_field *field = tep_find_any_field (event, name);
  unsigned long long value = 0;

  if (field == NULL || tep_read_number_field (field, record->data, &value) != 0)
    return 0;
  switch (field->size)
    {
    case 1:
      return (gint8) value;
    case 2:
      return (gint16) value;
    case 4:
      return (gint32) value;
    default:
      return (gint64) value;
    }
}

/**
 * rp_trace_field_text:
 * @name: a char array field, e.g. "rwbs"
 * @out: (out caller-allocates): NUL-terminated copy
 * @size: bytes of @out
 *
 * Returns: whether @event has the field
 */
gboolean
rp_trace_field_text (struct tep_event  *event,
                     struct tep_record *record,
                     const char        *name,
                     char              *out,
                     gsize              size)
{
  int len = 0;
  const char *raw = tep_get_field_raw (NULL, event, name, record, &len, 0);

  if (raw == NULL || len <= 0)
    return FALSE;
  len = MIN ((gsize) len, size - 1);
  memcpy (out, raw, len);
  out[len] = '\0';
  return TRUE;
}

/**
 * rp_trace_time:
 * @ts_ns: an event's time stamp, ns of the "mono" trace clock
 *
 * Returns: the same moment on the run's clock, seconds
 */
double
rp_trace_time (RpTraceSink *sink,
               guint64      ts_ns)
{
  return rp_part_host_time_from_monotonic (sink->host, (double) ts_ns * 1e-9);
}

static guint32
kernel_dev (dev_t dev)
{
  /* include/linux/kdev_t.h: MKDEV(ma, mi) = ma << 20 | mi */
  return (guint32) (major (dev) << 20 | minor (dev));
}

/* A partition's sysfs directory → its disk's; another device's stays. */
static char *
whole_disk_dir (char *dir)
{
  g_autofree char *partition = g_build_filename (dir, "partition", NULL);
  char *parent;

  if (!g_file_test (partition, G_FILE_TEST_EXISTS))
    return dir;
  parent = g_path_get_dirname (dir);
  g_free (dir);
  return parent;
}

/* A dm or md device takes bios, not requests: block_rq_issue and
 * block_rq_complete are its slaves'. Follows a chain of one slave each
 * (LUKS or LVM on one partition, dm-linear on a loop device) down to the
 * disk whose queue holds the requests; a device of several slaves (RAID,
 * LVM over disks) stays itself, and its requests go unseen. */
static char *
request_disk_dir (char *dir)
{
  for (guint depth = 0; depth < 8; depth++)
    {
      g_autofree char *slaves = g_build_filename (dir, "slaves", NULL);
      g_autoptr(GDir) list = g_dir_open (slaves, 0, NULL);
      g_autofree char *only = NULL, *link = NULL;
      const char *name;
      guint n = 0;
      char *slave;

      while (list != NULL && (name = g_dir_read_name (list)) != NULL)
        if (n++ == 0)
          only = g_strdup (name);
      if (n != 1)
        break;
      link = g_build_filename (slaves, only, NULL);
      if ((slave = realpath (link, NULL)) == NULL)
        break;
      g_free (dir);
      dir = whole_disk_dir (slave);
    }
  return dir;
}

static gboolean
read_dev (const char *dir,
          guint      *out_major,
          guint      *out_minor)
{
  g_autofree char *dev_file = g_build_filename (dir, "dev", NULL);
  g_autofree char *text = NULL;

  return g_file_get_contents (dev_file, &text, NULL, NULL) && sscanf (text, "%u:%u", out_major, out_minor) == 2;
}

/* The file system's device; when it is a block device, the bdi its
 * writers are throttled on (its whole disk's: a partition's parent in
 * sysfs, a dm device's own), and the disk whose requests it waits for
 * (request_disk_dir()) with that disk's name. */
static gboolean
find_target (const char     *directory,
             RpTraceTarget  *target)
{
  struct stat st;
  g_autofree char *link = NULL;
  g_autofree char *base = NULL;
  char *disk;
  guint disk_major, disk_minor, bdi_major, bdi_minor;
  gboolean found;

  memset (target, 0, sizeof *target);
  if (stat (directory, &st) != 0)
    return FALSE;
  target->fs_dev = kernel_dev (st.st_dev);
  link = g_strdup_printf ("/sys/dev/block/%u:%u", major (st.st_dev), minor (st.st_dev));
  disk = realpath (link, NULL);
  if (disk == NULL)
    return FALSE;  /* not a block device: tmpfs, NFS, btrfs' anonymous dev */
  disk = whole_disk_dir (disk);
  found = read_dev (disk, &bdi_major, &bdi_minor);
  disk = request_disk_dir (disk);
  found = found && read_dev (disk, &disk_major, &disk_minor);
  if (found)
    {
      target->disk_dev = kernel_dev (makedev (disk_major, disk_minor));
      g_snprintf (target->bdi, sizeof target->bdi, "%u:%u", bdi_major, bdi_minor);
      base = g_path_get_basename (disk);
      g_strlcpy (target->disk_name, base, sizeof target->disk_name);
    }
  g_free (disk);
  return found;
}

/* "jiffies: N" and "now at T nsecs" of /proc/timer_list (root only, as
 * tracing is), twice: the kernel's HZ, which jbd2_run_stats counts in
 * (balance_dirty_pages converts to ms itself: rp_trace_pause_seconds()).
 * Rounded to the nearest of Kconfig's choices. */
static gboolean
read_timer_list (guint64 *jiffies,
                 guint64 *ns)
{
  g_autofree char *text = NULL;
  const char *j, *n;

  if (!g_file_get_contents ("/proc/timer_list", &text, NULL, NULL) ||
      (n = strstr (text, "now at ")) == NULL || (j = strstr (text, "\njiffies: ")) == NULL)
    return FALSE;
  *ns = g_ascii_strtoull (n + strlen ("now at "), NULL, 10);
  *jiffies = g_ascii_strtoull (j + strlen ("\njiffies: "), NULL, 10);
  return TRUE;
}

static double
kernel_hz (void)
{
  static const double choices[] = { 100, 250, 300, 1000 };
  guint64 j0, n0, j1, n1;
  double measured, best = 250;

  if (!read_timer_list (&j0, &n0))
    return best;
  g_usleep (G_USEC_PER_SEC / 20);
  if (!read_timer_list (&j1, &n1) || n1 <= n0)
    return best;
  measured = (double) (j1 - j0) / ((double) (n1 - n0) * 1e-9);
  for (guint i = 0; i < G_N_ELEMENTS (choices); i++)
    if (fabs (choices[i] - measured) < fabs (best - measured))
      best = choices[i];
  return best;
}

/* The formats of our events only. tracefs_local_events_system() would parse
 * every event of the five systems, /proc/kallsyms and the saved command
 * lines: a second per run here, and far more under AddressSanitizer. */
static struct tep_handle *
load_formats (void)
{
  struct tep_handle *tep = tep_alloc ();
  int size = 0;
  g_autofree char *header = tracefs_instance_file_read (NULL, "events/header_page", &size);
  const RpTraceEventInfo *families[3];
  guint counts[3];

  if (tep == NULL || header == NULL ||
      tep_parse_header_page (tep, header, size, sizeof (long)) != 0)
    {
      g_clear_pointer (&tep, tep_free);
      return NULL;
    }
  families[0] = rp_trace_journal_events (&counts[0]);
  families[1] = rp_trace_block_events (&counts[1]);
  families[2] = rp_trace_task_events (&counts[2]);
  for (guint f = 0; f < G_N_ELEMENTS (families); f++)
    for (guint i = 0; i < counts[f]; i++)
      {
        g_autofree char *format = tracefs_event_file_read (NULL, families[f][i].system,
                                                           families[f][i].name, "format", &size);

        /* An event this kernel lacks stays out: enable_event() notes it. */
        if (format != NULL)
          tep_parse_event (tep, format, size, families[f][i].system);
      }
  tep_set_cpus (tep, (int) sysconf (_SC_NPROCESSORS_CONF));
  tep_set_long_size (tep, tep_get_header_page_size (tep));
  return tep;
}

/**
 * rp_trace_event_filter:
 * @info: an event of a family's table
 * @target: the target's devices
 *
 * The event's filter, for its "filter" file in our instance
 * (Documentation/trace/events.rst, "Event filtering"): its field that
 * names the device (see RpTraceEventInfo) compared with @target's, and
 * @info's further condition if any. The kernel drops what does not match
 * before it is written to the buffer: another disk's requests, another
 * device's writer throttling, a writer let through without a pause cost
 * the reader nothing.
 *
 * Returns: (transfer full): e.g. "dev == 265289731" or
 *   "bdi == \"254:0\" && pause > 0"; "" for an event of every task
 *   (%RP_TRACE_FILTER_NONE without a further condition)
 */
char *
rp_trace_event_filter (const RpTraceEventInfo *info,
                       const RpTraceTarget    *target)
{
  g_autofree char *device = NULL;

  switch (info->filter_on)
    {
    case RP_TRACE_FILTER_FS:
      device = g_strdup_printf ("dev == %u", target->fs_dev);
      break;
    case RP_TRACE_FILTER_DISK:
      device = g_strdup_printf ("dev == %u", target->disk_dev);
      break;
    case RP_TRACE_FILTER_BDI:
      device = g_strdup_printf ("bdi == \"%s\"", target->bdi);
      break;
    case RP_TRACE_FILTER_NONE:
      return g_strdup (info->also != NULL ? info->also : "");
    case RP_TRACE_FILTER_NAME:
    default:
      device = g_strdup_printf ("name == \"%s\"", target->disk_name);
      break;
    }
  if (info->also == NULL)
    return g_steal_pointer (&device);
  return g_strdup_printf ("%s && %s", device, info->also);
}

static gboolean
enable_event (RpTraceReader          *self,
              const RpTraceEventInfo *info)
{
  struct tep_event *event = tep_find_event_by_name (self->tep, info->system, info->name);
  const RpTraceTarget *target = &self->sink.target;
  g_autofree char *filter = NULL;
  Dispatch dispatch;

  if (event == NULL)
    {
      g_string_append_printf (self->missing, "%s%s:%s", self->missing->len ? ", " : "",
                              info->system, info->name);
      return FALSE;
    }
  filter = rp_trace_event_filter (info, target);
  /* The event's own files: tracefs_event_enable() would match regular
   * expressions against every event of every system. */
  if ((filter[0] != '\0' &&
       tracefs_event_file_write (self->instance, info->system, info->name, "filter", filter) < 0) ||
      tracefs_event_file_write (self->instance, info->system, info->name, "enable", "1") < 0)
    {
      g_string_append_printf (self->missing, "%s%s:%s", self->missing->len ? ", " : "",
                              info->system, info->name);
      return FALSE;
    }
  dispatch.id = event->id;
  dispatch.handler = info->handler;
  g_array_append_val (self->dispatch, dispatch);
  return TRUE;
}

/**
 * rp_trace_sink_init:
 * @sink: zeroed, but for its target and hz
 * @host: the run: its series and notes
 *
 * Creates the tables and the series the handlers fill; the device latency
 * series get their full statistics (rp_series_set_full_stats()), which the
 * handlers feed with every request. The run's own tasks are taken later,
 * once the events are on (rp_trace_tasks_init()).
 */
void
rp_trace_sink_init (RpTraceSink *sink,
                    RpPartHost  *host)
{
  static const struct { const char *name; const char *title; } ops[] = {
    { "device_read_latency", N_("Device read latency") },
    { "device_write_latency", N_("Device write latency") },
    { "device_flush_latency", N_("Device flush latency") },
  };

  sink->host = host;
  sink->commit_starts = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  sink->sync_starts = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  sink->issued = g_hash_table_new_full (g_direct_hash, g_direct_equal, NULL, g_free);
  sink->data_completed = g_hash_table_new (g_direct_hash, g_direct_equal);
  sink->journal_commit = rp_part_host_ensure_series (host, "journal_commit", "s", _("Journal commit"));
  sink->writer_pause = rp_part_host_ensure_series (host, "writer_pause", "s", _("Writer pause"));
  sink->writer_pause_other = rp_part_host_ensure_series (host, "writer_pause_other", "s",
                                                         _("Other programs’ writer pause"));
  sink->paused_tasks = rp_trace_paused_tasks_new ();
  for (guint op = 0; op < RP_TRACE_N_OPS; op++)
    {
      sink->ops[op].series = rp_part_host_ensure_series (host, ops[op].name, "s", _(ops[op].title));
      sink->ops[op].all = rp_series_get_full_stats (sink->ops[op].series);
      if (sink->ops[op].all == NULL)
        {
          sink->ops[op].all = rp_stream_stats_new ();
          rp_series_set_full_stats (sink->ops[op].series, sink->ops[op].all);
        }
      sink->ops[op].window_latency = -1;
    }
}

/* "reads writes flushes" completed of the disk by /proc/diskstats (fields
 * 1, 5 and 16 after the name, Documentation/admin-guide/iostats.rst), as a
 * note: the kernel's own counters at the very edges of the traced window,
 * for a cross-check of the request counts (tests/test-kernel-events.sh). */
static void
note_diskstats (RpTraceReader *self,
                const char    *key)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;

  if (self->sink.target.disk_name[0] == '\0' ||
      !g_file_get_contents ("/proc/diskstats", &text, NULL, NULL))
    return;
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) f = g_strsplit_set (g_strstrip (lines[i]), " ", -1);
      GPtrArray *fields = g_ptr_array_new ();
      g_autofree char *value = NULL;

      for (guint k = 0; f[k] != NULL; k++)
        if (f[k][0] != '\0')
          g_ptr_array_add (fields, f[k]);
      /* major, minor, name, then the counters: flushes are the 16th. */
      if (fields->len >= 19 && g_str_equal (g_ptr_array_index (fields, 2), self->sink.target.disk_name))
        value = g_strdup_printf ("%s %s %s", (char *) g_ptr_array_index (fields, 3),
                                 (char *) g_ptr_array_index (fields, 7),
                                 (char *) g_ptr_array_index (fields, 18));
      g_ptr_array_unref (fields);
      if (value != NULL)
        {
          rp_part_host_set_note (self->sink.host, key, value);
          return;
        }
    }
}

/**
 * rp_trace_reader_new:
 * @host: the run, for series, notes and its clock
 * @directory: the target directory: its file system and disk are traced
 * @error: %RP_ERROR_PERMISSION without root, %RP_ERROR_FAILED without
 *   tracefs or the events
 *
 * Makes our trace instance (rp_trace_instance_create()), enables the
 * journal's, ext4's, the block layer's, wbt's and writeback's events with
 * filters on the target's devices, and creates the series. Events the
 * kernel lacks are left out and noted (kernel_events_missing).
 *
 * Returns: (transfer full) (nullable): the reader; call
 *   rp_trace_reader_finish() after the run, then rp_trace_reader_free()
 */
RpTraceReader *
rp_trace_reader_new (RpPartHost  *host,
                     const char  *directory,
                     GError     **error)
{
  RpTraceReader *self;
  RpTraceTarget target;
  gboolean block_device = find_target (directory, &target);
  struct tracefs_instance *instance;
  guint n;
  const RpTraceEventInfo *events;

  instance = rp_trace_instance_create (error);
  if (instance == NULL)
    return NULL;

  self = g_new0 (RpTraceReader, 1);
  self->instance = instance;
  self->dispatch = g_array_new (FALSE, FALSE, sizeof (Dispatch));
  self->missing = g_string_new (NULL);
  self->sink.target = target;
  self->sink.hz = kernel_hz ();
  self->tep = load_formats ();
  if (self->tep == NULL)
    {
      g_set_error (error, RP_ERROR, RP_ERROR_FAILED,
                   _("Kernel events: cannot read the event formats of tracefs: %s"), g_strerror (errno));
      rp_trace_reader_free (self);
      return NULL;
    }
  rp_trace_sink_init (&self->sink, host);

  events = rp_trace_journal_events (&n);
  for (guint i = 0; i < n; i++)
    enable_event (self, &events[i]);
  /* Without a block device there is no disk to filter on: its events
   * would be every disk's. */
  events = rp_trace_block_events (&n);
  for (guint i = 0; block_device && i < n; i++)
    enable_event (self, &events[i]);
  events = rp_trace_task_events (&n);
  for (guint i = 0; block_device && i < n; i++)
    enable_event (self, &events[i]);
  /* After the events are on: a thread made meanwhile is in both. */
  rp_trace_tasks_init (&self->sink);

  if (block_device)
    {
      g_autofree char *device = g_strdup_printf ("%s (%s)", target.bdi, target.disk_name);

      rp_part_host_set_note (host, "kernel_events_device", device);
    }
  if (self->missing->len > 0)
    rp_part_host_set_note (host, "kernel_events_missing", self->missing->str);
  if (block_device)
    note_diskstats (self, "device_diskstats_at_start");
  /* The traced window on CLOCK_MONOTONIC (the trace clock "mono"), for a
   * cross-check by another tracer of the same requests (bpftrace's nsecs:
   * tests/test-kernel-figures.sh). */
  rp_part_host_set_number_note (host, "kernel_events_monotonic_start", "%.9f", rp_clock_now ());
  rp_part_host_set_note (host, "kernel_events_instance", tracefs_instance_get_name (instance));
  rp_part_host_set_number_note (host, "kernel_hz", "%.0f", self->sink.hz);
  return self;
}

static int
on_record (struct tep_event  *event,
           struct tep_record *record,
           int                cpu,
           void              *data)
{
  RpTraceReader *self = data;

  self->records++;
  for (guint i = 0; i < self->dispatch->len; i++)
    {
      const Dispatch *d = &g_array_index (self->dispatch, Dispatch, i);

      if (d->id == event->id)
        {
          d->handler (&self->sink, event, record);
          break;
        }
    }
  return 0;
}

/**
 * rp_trace_reader_drain:
 *
 * Reads what the per-CPU buffers hold now, appending samples to the series.
 * Call it from one thread at a time.
 */
void
rp_trace_reader_drain (RpTraceReader *self)
{
  g_return_if_fail (self != NULL && !self->finished);

  tracefs_iterate_raw_events (self->tep, self->instance, NULL, 0, on_record, self);
}

/* Events the kernel dropped because the buffer was full: "overrun" of each
 * CPU's stats file. */
static guint64
lost_events (struct tracefs_instance *instance)
{
  long n_cpus = sysconf (_SC_NPROCESSORS_CONF);
  guint64 lost = 0;

  for (long cpu = 0; cpu < n_cpus; cpu++)
    {
      g_autofree char *path = g_strdup_printf ("per_cpu/cpu%ld/stats", cpu);
      g_autofree char *text = tracefs_instance_file_read (instance, path, NULL);
      const char *overrun = text != NULL ? strstr (text, "overrun: ") : NULL;

      if (overrun != NULL)
        lost += g_ascii_strtoull (overrun + strlen ("overrun: "), NULL, 10);
    }
  return lost;
}

/**
 * rp_trace_reader_finish:
 *
 * Stops tracing, reads the rest, sets the notes and removes the instance.
 * Call it once every other part has stopped (the session frees parts after
 * joining them all), so that the last requests of the loads are counted.
 */
void
rp_trace_reader_finish (RpTraceReader *self)
{
  g_return_if_fail (self != NULL);

  if (self->finished)
    return;
  note_diskstats (self, "device_diskstats_at_end");
  tracefs_trace_off (self->instance);
  rp_part_host_set_number_note (self->sink.host, "kernel_events_monotonic_end", "%.9f", rp_clock_now ());
  rp_trace_reader_drain (self);
  self->finished = TRUE;
  rp_trace_block_flush (&self->sink);
  rp_trace_journal_notes (&self->sink);
  rp_trace_block_notes (&self->sink);
  rp_part_host_set_number_note (self->sink.host, "kernel_events_records", "%.0f", (double) self->records);
  rp_part_host_set_number_note (self->sink.host, "kernel_events_lost", "%.0f",
                                (double) lost_events (self->instance));
  rp_part_host_changed (self->sink.host);
  rp_trace_instance_destroy (g_steal_pointer (&self->instance));
}

/**
 * rp_trace_reader_free:
 * @self: (transfer full) (nullable):
 *
 * Removes the instance if rp_trace_reader_finish() did not.
 */
void
rp_trace_reader_free (RpTraceReader *self)
{
  if (self == NULL)
    return;
  rp_trace_instance_destroy (g_steal_pointer (&self->instance));
  g_clear_pointer (&self->tep, tep_free);
  g_array_unref (self->dispatch);
  g_string_free (self->missing, TRUE);
  rp_trace_sink_clear (&self->sink);
  g_free (self);
}

/**
 * rp_trace_sink_clear:
 *
 * Frees what rp_trace_sink_init() and rp_trace_tasks_init() made; the
 * series and their statistics stay the run's.
 */
void
rp_trace_sink_clear (RpTraceSink *sink)
{
  g_clear_pointer (&sink->commit_starts, g_hash_table_unref);
  g_clear_pointer (&sink->sync_starts, g_hash_table_unref);
  g_clear_pointer (&sink->issued, g_hash_table_unref);
  g_clear_pointer (&sink->paused_tasks, g_hash_table_unref);
  g_clear_pointer (&sink->data_completed, g_hash_table_unref);
  g_clear_pointer (&sink->own_tasks, g_hash_table_unref);
  for (guint op = 0; op < RP_TRACE_N_OPS; op++)
    sink->ops[op].all = NULL;
}
