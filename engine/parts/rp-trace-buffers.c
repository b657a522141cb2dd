/* rp-trace-buffers.c: reads a trace instance's per-CPU raw buffers from open file descriptors, oldest record first. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <glib/gi18n-lib.h>
#include <kbuffer.h>
#include <string.h>
#include <unistd.h>

#include "rp-error.h"
#include "rp-trace-buffers.h"

/* The buffers come as file descriptors of per_cpu/cpuN/trace_pipe_raw: the
 * engine opens them itself as root, or resprobed opens them and passes them
 * over D-Bus to an unprivileged caller, who cannot open anything in tracefs
 * (a folder of mode 0700). So the reader works on the descriptors alone,
 * never on a path: a read() takes one sub-buffer (a page: a header with its
 * time stamp and length, then the records, decoded by libtraceevent's
 * kbuffer), EAGAIN says that the CPU has nothing more now. As
 * tracefs_iterate_raw_events() does, the CPUs' records are merged by time
 * stamp, so that a request issued on one CPU is seen before its completion
 * on another. */

typedef struct {
  int               fd;
  struct kbuffer   *kbuf;
  void             *page;
  gboolean          has_record;
  struct tep_record record;
  struct tep_event *event;
} CpuBuffer;

struct _RpTraceBuffers {
  struct tep_handle *tep;
  CpuBuffer         *cpus;
  guint              n_cpus;
  int                page_size;
};

/**
 * rp_trace_tep_new:
 * @formats: (element-type utf8 utf8): "header_page" and "SYSTEM/NAME" to
 *   their tracefs format files' text (rp_trace_instance_read_formats(), or
 *   resprobed's OpenTrace)
 * @n_cpus: how many per-CPU buffers are read
 * @error: %RP_ERROR_FAILED when the header page is missing or unreadable
 *
 * Returns: (transfer full) (nullable): a tep handle that knows the ring
 *   buffer's page layout and the events of @formats; tep_free() it
 */
struct tep_handle *
rp_trace_tep_new (GHashTable  *formats,
                  guint        n_cpus,
                  GError     **error)
{
  struct tep_handle *tep = tep_alloc ();
  const char *header = g_hash_table_lookup (formats, "header_page");
  GHashTableIter iter;
  gpointer key, value;

  if (tep == NULL || header == NULL ||
      tep_parse_header_page (tep, (char *) header, strlen (header), sizeof (long)) != 0)
    {
      g_set_error_literal (error, RP_ERROR, RP_ERROR_FAILED,
                           _("Kernel events: the ring buffer’s page format cannot be read"));
      g_clear_pointer (&tep, tep_free);
      return NULL;
    }
  g_hash_table_iter_init (&iter, formats);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      const char *slash = strchr (key, '/');
      g_autofree char *system = slash != NULL ? g_strndup (key, slash - (const char *) key) : NULL;

      /* An event that does not parse stays out: its records are skipped. */
      if (system != NULL)
        tep_parse_event (tep, value, strlen (value), system);
    }
  tep_set_cpus (tep, (int) n_cpus);
  tep_set_long_size (tep, tep_get_header_page_size (tep));
  return tep;
}

/**
 * rp_trace_buffers_new:
 * @tep: (transfer none): from rp_trace_tep_new(), kept alive by the caller
 *   until rp_trace_buffers_free()
 * @fds: (array length=n_fds) (transfer full): CPU i's trace_pipe_raw at i
 * @n_fds: how many
 *
 * Takes the descriptors (made non-blocking here, whoever opened them): a
 * drain reads what each holds and stops at EAGAIN.
 *
 * Returns: (transfer full): the reader
 */
RpTraceBuffers *
rp_trace_buffers_new (struct tep_handle *tep,
                      const int         *fds,
                      guint              n_fds)
{
  RpTraceBuffers *self = g_new0 (RpTraceBuffers, 1);
  enum kbuffer_long_size long_size = tep_get_header_page_size (tep) == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4;
  enum kbuffer_endian endian = tep_is_file_bigendian (tep) ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE;

  self->tep = tep;
  self->n_cpus = n_fds;
  self->cpus = g_new0 (CpuBuffer, MAX (n_fds, 1));
  /* The sub-buffer's size from the header page ("data"'s offset and size):
   * a page unless buffer_subbuf_size_kb was changed. */
  self->page_size = tep_get_sub_buffer_size (tep) > 0 ? tep_get_sub_buffer_size (tep) : getpagesize ();
  for (guint i = 0; i < n_fds; i++)
    {
      int flags = fcntl (fds[i], F_GETFL);

      if (flags >= 0 && !(flags & O_NONBLOCK))
        fcntl (fds[i], F_SETFL, flags | O_NONBLOCK);
      self->cpus[i].fd = fds[i];
      self->cpus[i].kbuf = kbuffer_alloc (long_size, endian);
      self->cpus[i].page = g_malloc (self->page_size);
    }
  return self;
}

/* The CPU's next page into its kbuffer: FALSE when it has none now. */
static gboolean
read_page (RpTraceBuffers *self,
           CpuBuffer      *cpu)
{
  ssize_t n;

  do
    n = read (cpu->fd, cpu->page, self->page_size);
  while (n < 0 && errno == EINTR);
  if (n <= 0)
    return FALSE;
  if (n < self->page_size)
    memset ((char *) cpu->page + n, 0, self->page_size - n);
  return kbuffer_load_subbuffer (cpu->kbuf, cpu->page) == 0;
}

/* The CPU's next record of an event the tep handle knows, reading pages as
 * needed: FALSE when the CPU has none now. */
static gboolean
next_record (RpTraceBuffers *self,
             CpuBuffer      *cpu,
             gboolean        loaded)
{
  for (;;)
    {
      unsigned long long ts;
      void *data = loaded ? kbuffer_read_event (cpu->kbuf, &ts) : NULL;

      if (data == NULL)
        {
          if (!read_page (self, cpu))
            return cpu->has_record = FALSE;
          loaded = TRUE;
          continue;
        }
      memset (&cpu->record, 0, sizeof cpu->record);
      cpu->record.ts = ts;
      cpu->record.size = kbuffer_event_size (cpu->kbuf);
      cpu->record.record_size = kbuffer_curr_size (cpu->kbuf);
      cpu->record.missed_events = kbuffer_missed_events (cpu->kbuf);
      cpu->record.cpu = (int) (cpu - self->cpus);
      cpu->record.data = data;
      cpu->record.ref_count = 1;
      kbuffer_next_event (cpu->kbuf, NULL);
      cpu->event = tep_find_event (self->tep, tep_data_type (self->tep, &cpu->record));
      if (cpu->event != NULL)
        return cpu->has_record = TRUE;
    }
}

/**
 * rp_trace_buffers_drain:
 * @func: called with each record, oldest first across the CPUs
 * @data: for @func
 *
 * Reads what every CPU's buffer holds now. A record stays valid during its
 * call only. Call it from one thread at a time.
 *
 * Returns: how many records were read
 */
guint64
rp_trace_buffers_drain (RpTraceBuffers   *self,
                        RpTraceRecordFunc func,
                        gpointer          data)
{
  guint64 records = 0;

  g_return_val_if_fail (self != NULL, 0);

  for (guint i = 0; i < self->n_cpus; i++)
    next_record (self, &self->cpus[i], FALSE);
  for (;;)
    {
      CpuBuffer *oldest = NULL;

      for (guint i = 0; i < self->n_cpus; i++)
        if (self->cpus[i].has_record && (oldest == NULL || self->cpus[i].record.ts < oldest->record.ts))
          oldest = &self->cpus[i];
      if (oldest == NULL)
        break;
      func (oldest->event, &oldest->record, oldest->record.cpu, data);
      records++;
      next_record (self, oldest, TRUE);
    }
  return records;
}

/**
 * rp_trace_buffers_free:
 * @self: (transfer full) (nullable):
 *
 * Closes the descriptors: the instance can be removed afterwards.
 */
void
rp_trace_buffers_free (RpTraceBuffers *self)
{
  if (self == NULL)
    return;
  for (guint i = 0; i < self->n_cpus; i++)
    {
      if (self->cpus[i].fd >= 0)
        close (self->cpus[i].fd);
      kbuffer_free (self->cpus[i].kbuf);
      g_free (self->cpus[i].page);
    }
  g_free (self->cpus);
  g_free (self);
}
