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
#include "rp-parts.h"
#include "rp-trace-buffers.h"
#include "rp-trace-private.h"
#include "rp-trace-reader.h"
#include "rp-trace-source.h"

/* The kernel here has no hist triggers, so aggregation happens in user space:
 * the reader thread empties the per-CPU buffers of the instance
 * (rp-trace-buffers.c, from their descriptors, whether this process opened
 * them as root or resprobed passed them) a few times a second
 * (rp-kernel-events.c) and hands each record to its family's handler.
 * Filters in the kernel keep the events to the target's devices, so that a
 * busy other disk costs nothing. */

typedef struct {
  int             id;
  RpTraceHandler  handler;
} Dispatch;

struct _RpTraceReader {
  RpTraceSource           *source;
  RpTraceBuffers          *buffers;
  struct tep_handle       *tep;
  GArray                  *dispatch;   /* of Dispatch */
  RpTraceSink              sink;
  GString                 *missing;    /* events this kernel does not have */
  guint64                  records;    /* read from the buffers */
  double                   traced_from; /* CLOCK_MONOTONIC, s: the instance's start */
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

/* Dispatches the events of the set that the tep handle knows (those this
 * kernel has) to their handlers; the rest were noted missing. */
static void
add_handlers (RpTraceReader *self)
{
  const RpTraceEventInfo *families[3];
  guint counts[3];

  families[0] = rp_trace_journal_events (&counts[0]);
  families[1] = rp_trace_block_events (&counts[1]);
  families[2] = rp_trace_task_events (&counts[2]);
  for (guint f = 0; f < G_N_ELEMENTS (families); f++)
    for (guint i = 0; i < counts[f]; i++)
      {
        struct tep_event *event = tep_find_event_by_name (self->tep, families[f][i].system, families[f][i].name);
        Dispatch dispatch;

        if (event == NULL)
          continue;
        dispatch.id = event->id;
        dispatch.handler = families[f][i].handler;
        g_array_append_val (self->dispatch, dispatch);
      }
}

/**
 * rp_trace_sink_init:
 * @sink: zeroed, but for its target and hz
 * @host: the run: its series and notes
 *
 * Creates the tables and the series the handlers fill; the device latency
 * series get their full statistics (rp_series_set_full_stats()) and window
 * histograms (rp_series_set_window_histograms()), which the handlers feed
 * with every request. The run's own tasks are taken later,
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
      sink->ops[op].windows = rp_series_get_window_histograms (sink->ops[op].series);
      if (sink->ops[op].windows == NULL)
        {
          sink->ops[op].windows = rp_time_histogram_new ();
          rp_series_set_window_histograms (sink->ops[op].series, sink->ops[op].windows);
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
 * @error: %RP_ERROR_PERMISSION without root and without resprobed (or when
 *   polkit said no), %RP_ERROR_FAILED without tracefs or the events
 *
 * Gets a trace instance with the journal's, ext4's, the block layer's,
 * wbt's and writeback's events filtered on the target's devices
 * (rp_trace_source_open(): made as root, or by resprobed), and creates the
 * series. Events the kernel lacks are left out and noted
 * (kernel_events_missing); where the instance came from is noted
 * (kernel_events_source: root or helper).
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
  gboolean block_device;
  RpTraceSource *source = rp_trace_source_open (directory, &target, &block_device, error);
  g_autoptr(GArray) buffers = NULL;

  if (source == NULL)
    return NULL;

  self = g_new0 (RpTraceReader, 1);
  self->source = source;
  self->dispatch = g_array_new (FALSE, FALSE, sizeof (Dispatch));
  self->missing = g_string_new (rp_trace_source_get_missing (source));
  self->sink.target = target;
  self->sink.hz = rp_trace_source_get_hz (source);
  buffers = rp_trace_source_steal_buffers (source);
  self->tep = rp_trace_tep_new (rp_trace_source_get_formats (source), buffers->len, error);
  if (self->tep == NULL)
    {
      for (guint i = 0; i < buffers->len; i++)
        close (g_array_index (buffers, int, i));
      rp_trace_reader_free (self);
      return NULL;
    }
  self->buffers = rp_trace_buffers_new (self->tep, (const int *) buffers->data, buffers->len);
  add_handlers (self);
  rp_trace_sink_init (&self->sink, host);
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
  self->traced_from = rp_clock_now ();
  rp_part_host_set_number_note (host, "kernel_events_monotonic_start", "%.9f", self->traced_from);
  rp_part_host_set_note (host, "kernel_events_instance", rp_trace_source_get_instance (source));
  rp_part_host_set_note (host, RP_NOTE_KERNEL_EVENTS_SOURCE, rp_trace_source_get_kind (source));
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

  rp_trace_buffers_drain (self->buffers, on_record, self);
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
  guint64 lost;

  g_return_if_fail (self != NULL);

  if (self->finished)
    return;
  note_diskstats (self, "device_diskstats_at_end");
  lost = rp_trace_source_stop (self->source);
  rp_part_host_set_number_note (self->sink.host, "kernel_events_monotonic_end", "%.9f", rp_clock_now ());
  /* The figures count what was issued from the run's start on (the
   * preparation's requests and pauses before it are dropped:
   * rp-trace-block.c), so the window they cover, which a cross-check by
   * another tracer compares with, begins there when that is later. */
  rp_part_host_set_number_note (self->sink.host, "kernel_events_monotonic_start", "%.9f",
                                MAX (self->traced_from, -rp_part_host_time_from_monotonic (self->sink.host, 0)));
  /* CLOCK_MONOTONIC of run time 0 (as the probe window notes it): another
   * tracer's requests placed on the run's axis, in the 0.1 s slots of a
   * stall's window (tests/test-kernel-figures.sh window). */
  rp_part_host_set_number_note (self->sink.host, "monotonic_at_run_start", "%.6f",
                                -rp_part_host_time_from_monotonic (self->sink.host, 0));
  rp_trace_reader_drain (self);
  self->finished = TRUE;
  rp_trace_block_flush (&self->sink);
  rp_trace_journal_notes (&self->sink);
  rp_trace_block_notes (&self->sink);
  rp_part_host_set_number_note (self->sink.host, "kernel_events_records", "%.0f", (double) self->records);
  rp_part_host_set_number_note (self->sink.host, "kernel_events_lost", "%.0f", (double) lost);
  rp_part_host_changed (self->sink.host);
  /* The buffers closed first: the kernel keeps an instance one holds. */
  g_clear_pointer (&self->buffers, rp_trace_buffers_free);
  g_clear_pointer (&self->source, rp_trace_source_free);
}

/**
 * rp_trace_reader_free:
 * @self: (transfer full) (nullable):
 *
 * Closes the buffers and removes the instance if rp_trace_reader_finish()
 * did not.
 */
void
rp_trace_reader_free (RpTraceReader *self)
{
  if (self == NULL)
    return;
  g_clear_pointer (&self->buffers, rp_trace_buffers_free);
  g_clear_pointer (&self->source, rp_trace_source_free);
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
