/* rp-kernel-events.c: journal commits, writer pauses and device latency from kernel events, as a probe. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>
#include "rp-proc.h"

#include "rp-clock.h"
#include "rp-error.h"
#include "rp-params.h"
#include "rp-parts.h"
#if HAVE_KERNEL_EVENTS
#include "rp-trace-reader.h"
#endif

/* What the experts of the bug reports ran by hand beside fsync-tester
 * (trace-cmd on jbd2, biolatency): why a stall happened, from the kernel's
 * own events, where tracefs is ours to use (root) or resprobed may trace for
 * us (rp-trace-source.c). "auto" records them when allowed and says in one
 * line when not, "on" refuses to run without them,
 * "off" leaves tracefs alone. The work is in rp-trace-*.c, built when
 * libtracefs and libtraceevent are found. */

/* s: how often the reader empties the per-CPU buffers. Each time costs a
 * few system calls per CPU whether there are events or not; the filters
 * keep the events few (rp_trace_event_filter()), so that the instance's
 * buffers (1.4 MB per CPU by default) hold many seconds of them. */
#define READ_PERIOD 0.5

enum { MODE_AUTO, MODE_ON, MODE_OFF };

static const char *const modes[] = { "auto", "on", "off", NULL };

typedef struct {
#if HAVE_KERNEL_EVENTS
  RpTraceReader *reader;
#endif
  RpPartHost    *host;
} KernelEvents;

static int
mode_of (const RpParams *params)
{
  const char *mode = rp_params_get_choice (params, "kernel_events");

  return g_str_equal (mode, "on") ? MODE_ON : g_str_equal (mode, "off") ? MODE_OFF : MODE_AUTO;
}

/* "auto" runs on without them; the note is the one line the verdict says. */
static gpointer
unavailable (RpPartHost    *host,
             KernelEvents  *state,
             int            mode,
             GError        *local_error,
             GError       **error)
{
  if (mode == MODE_ON)
    {
      g_propagate_error (error, local_error);
      g_free (state);
      return NULL;
    }
  rp_part_host_set_note (host, "kernel_events", "unavailable");
  rp_part_host_set_note (host, RP_NOTE_KERNEL_EVENTS_SOURCE, "none");
  rp_part_host_set_note (host, RP_NOTE_KERNEL_EVENTS_UNAVAILABLE, local_error->message);
  g_error_free (local_error);
  return state;
}

static gpointer
kernel_events_prepare (RpPartHost  *host,
                       GError     **error)
{
  KernelEvents *state = g_new0 (KernelEvents, 1);
  int mode = mode_of (rp_part_host_get_params (host));
  GError *local_error = NULL;

  state->host = host;
  if (mode == MODE_OFF)
    {
      rp_part_host_set_note (host, "kernel_events", "off");
      rp_part_host_set_note (host, RP_NOTE_KERNEL_EVENTS_SOURCE, "none");
      return state;
    }
#if HAVE_KERNEL_EVENTS
  state->reader = rp_trace_reader_new (host, rp_part_host_get_directory (host), &local_error);
  if (state->reader == NULL)
    return unavailable (host, state, mode, local_error, error);
  rp_part_host_set_note (host, "kernel_events", "recorded");
  return state;
#else
  local_error = g_error_new (RP_ERROR, RP_ERROR_FAILED,
                             _("Kernel events: this build has none (built without libtracefs)"));
  return unavailable (host, state, mode, local_error, error);
#endif
}

static void
kernel_events_run (RpPartHost *host,
                   gpointer    data)
{
#if HAVE_KERNEL_EVENTS
  KernelEvents *state = data;
  double cpu_start = rp_clock_thread_cpu_seconds ();
  double start = rp_part_host_now (host);

  if (state->reader == NULL)
    return;
  while (rp_part_host_sleep (host, READ_PERIOD))
    {
      rp_trace_reader_drain (state->reader);
      rp_part_host_changed (host);
    }
  /* The reading thread's own cost (Acceptance: ≤ 1 % of a core). */
  rp_part_host_set_number_note (host, "kernel_events_cpu_seconds", "%.6f", rp_clock_thread_cpu_seconds () - cpu_start);
  rp_part_host_set_number_note (host, "kernel_events_seconds", "%.3f", rp_part_host_now (host) - start);
#endif
}

/* After every part has been joined: the loads' last requests are in. */
static void
kernel_events_free (gpointer data)
{
  KernelEvents *state = data;

#if HAVE_KERNEL_EVENTS
  if (state->reader != NULL)
    {
      rp_trace_reader_finish (state->reader);
      g_clear_pointer (&state->reader, rp_trace_reader_free);
    }
#endif
  g_free (state);
}

static const RpWorkerClass worker = {
  .name = "kernel-events",
  .prepare = kernel_events_prepare,
  .run = kernel_events_run,
  .free_state = kernel_events_free,
};

static const RpParamInfo params[] = {
  { "kernel_events", "kernel-events", "kernel-events", RP_PARAM_CHOICE, 0, 2, MODE_AUTO, NULL,
    N_("Kernel events (journal commits, writer pauses, device latency; need root or the helper resprobed): auto (when allowed), on (required) or off"),
    N_("auto|on|off"), modes },
};

/* Compared like every latency (issue 17), but causes (issue 31): a journal
 * commit or a disk request of seconds explains the stalls a user waited
 * for, and is never itself the subject of the judgement. */
#define LATENCY(name, title, legend, label, description, rank, subject) \
  { name, "s", title, "kernel", legend, label, description, rank, RP_SUMMARY_LATENCY, \
    RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED | RP_SERIES_FLAG_CAUSE, subject }

static const RpSeriesInfo series[] = {
  LATENCY ("journal_commit", N_("Journal commit"), N_("journal commit"), N_("Journal commit"),
           N_("How long each journal commit of the target’s file system took (jbd2), at its start"), 90,
           /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
           N_("Journal commits")),
  LATENCY ("writer_pause", N_("Writer pause"), N_("writer pause"), N_("Writer pause"),
           N_("How long the kernel made a writing program sleep because of too much dirty memory (balance_dirty_pages)"), 91,
           /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
           N_("Writer pauses for dirty memory")),
  LATENCY ("writer_pause_other", N_("Other programs’ writer pause"), N_("other programs’ pause"),
           N_("Other programs’ writer pause"),
           N_("Writer pauses (balance_dirty_pages) of processes other than this run’s: writing elsewhere on the system"), 91,
           /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
           N_("Other programs’ writer pauses")),
  LATENCY ("device_write_latency", N_("Device write latency"), N_("device write"), N_("Device write"),
           N_("How long the disk took to answer a write request: the longest of every 0.1 s"), 92,
           /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
           N_("Disk writes")),
  LATENCY ("device_read_latency", N_("Device read latency"), N_("device read"), N_("Device read"),
           N_("How long the disk took to answer a read request: the longest of every 0.1 s"), 93,
           /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
           N_("Disk reads")),
  LATENCY ("device_flush_latency", N_("Device flush latency"), N_("device flush"), N_("Device flush"),
           N_("How long the disk took to empty its write cache (a flush request)"), 94,
           /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
           N_("Disk cache flushes")),
};

#undef LATENCY

static char *
kernel_events_describe (const RpParams *p)
{
  switch (mode_of (p))
    {
    case MODE_ON:
      return g_strdup (_("required"));
    case MODE_OFF:
      return g_strdup (_("off"));
    default:
      return g_strdup (_("when allowed"));
    }
}

const RpPartInfo rp_kernel_events_part = {
  .id = "kernel-events",
  .role = RP_PART_PROBE,
  .label = N_("Kernel events"),
  /* TRANSLATORS: %s is "when allowed", "required" or "off" */
  .sentence = N_("kernel events %s"),
  /* Before the loads, so that their first requests are seen. */
  .start_rank = 0,
  RP_PART_PARAMS (params),
  RP_PART_SERIES (series),
  .worker = &worker,
  .in_baseline = TRUE,
  .describe = kernel_events_describe,
};
