/* rp-window-probes.c: the series the window's own probes append (they need GDK). */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#include "config.h"

#include <glib/gi18n-lib.h>

#include "rp-parts.h"

/* app/gui/rp-ui-probes.c measures these on the window's main thread and
 * appends them to the run; they are described here, with every other
 * series, so that charts, summaries and comparisons know them without
 * knowing the GUI. The main loop decides the verdict's severity with the
 * disk calls: a stalled window is what a desktop user feels first. */
static const RpSeriesInfo series[] = {
  { RP_SERIES_MAINLOOP_LATENESS, "s", N_("Main-loop lateness"), "ui-latency", N_("main loop"), N_("Main loop"),
    N_("How late this window’s 10 ms timer ran: the delay any click or redraw would have had"),
    20, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_FELT | RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("This window’s main loop") },
  { RP_SERIES_FRAME_INTERVAL, "s", N_("Frame interval"), "ui-latency", N_("frames"), N_("Frames"),
    N_("Time between two frames of this window"),
    21, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Frames of this window") },
  { RP_SERIES_INPUT_LATENCY, "s", N_("Input latency"), "ui-latency", N_("input"), N_("Input"),
    N_("From a key press or pointer motion to this window handling it"),
    22, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Input handling") },
  { RP_SERIES_WAKEUP_LATENCY, "s", N_("Wake-up latency"), "ui-latency", N_("wake-up"), N_("Wake-up"),
    N_("From a worker thread’s message to the main thread running it"),
    23, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Wake-ups of the main thread") },
  { RP_SERIES_MAIN_THREAD_SAVE, "s", N_("Save on the main thread"), NULL, N_("Naive save"), N_("Naive save"),
    N_("Writing and fsyncing 256 KiB on the main thread, as the simulation does"),
    24, RP_SUMMARY_LATENCY, RP_SERIES_FLAG_IN_SUMMARY | RP_SERIES_FLAG_JUDGED,
    /* TRANSLATORS: subject of "%s stalled 6 of 60 times over 1 s" */
    N_("Saves on the main thread") },
  { RP_SERIES_LATE_FRAMES, "s", N_("Late frames"), NULL, NULL, NULL, NULL,
    25, RP_SUMMARY_NONE, RP_SERIES_FLAG_NONE },
};

const RpPartInfo rp_window_probes_part = {
  .id = "window",
  .role = RP_PART_FRONT_END,
  .label = N_("This window: main loop, frames, input"),
  RP_PART_SERIES (series),
};
