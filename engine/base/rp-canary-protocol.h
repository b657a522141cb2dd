/* rp-canary-protocol.h: the lines the probe window (resprobe-canary) writes to the process that started it. */
/* SPDX-License-Identifier: GPL-3.0-or-later */
#pragma once

/* The probe window is a small application of its own (app/canary) whose main
 * loop, frames and input are what the window part (engine/parts/
 * rp-window-probes.c) measures: it writes one line per sample to its standard
 * output, a pipe to the part's thread, and quits when its standard input, the
 * other way, reaches its end. A line is a tag and fields separated by single
 * spaces; times are CLOCK_MONOTONIC seconds (rp_clock_now()), durations
 * seconds, both printed with "%.6f" in the C locale.
 *
 *   hello PID BACKEND           it runs; BACKEND: x11, wayland or other
 *   ready                       it measures from now on (its own start-up,
 *                               which no desktop caused, is over)
 *   L EXPIRY DISPATCH MISSED    its 10 ms main-loop timer: due at EXPIRY, run
 *                               at DISPATCH; MISSED expirations passed meanwhile
 *   F START END REFRESH SOURCE  a frame interval: the frame of START, the next
 *                               one at END; REFRESH the output's refresh
 *                               interval; SOURCE p (presentation times) or t
 *                               (the frame clock's ticks, stamped by us)
 *   I EVENT HANDLED             an input event the display server stamped
 *                               EVENT (its 32-bit milliseconds placed on our
 *                               clock), handled at HANDLED
 *   Z                           an input event with time 0 (synthetic)
 *   U                           an input event on another clock
 *   W STAMP DISPATCH            a wake-up its thread posted at STAMP ran at
 *                               DISPATCH on the main thread
 *   S START DURATION            a save on the main thread (--save-dir)
 *   R START DURATION BYTES      a file read to its end on the main thread
 *                               ($RESPROBE_CANARY_READ, at each SIGUSR1)
 *   E TEXT                      a failure in words (a save that cannot write)
 *   N KEY VALUE                 a note for the report, at the end
 *   bye                         its last line
 */

#define RP_CANARY_HELLO "hello"
#define RP_CANARY_READY "ready"
#define RP_CANARY_BYE   "bye"

/* Its main-loop timer's period, seconds: the same 10 ms grid as before the
 * probes moved out of the main window, so that reports compare. */
#define RP_CANARY_TIMER_PERIOD 0.01

/* How long it waits after its first frame before it measures, seconds: GTK
 * loads fonts and styles lazily during the first frames, work that is the
 * probe window's own, not the desktop's. */
#define RP_CANARY_SETTLE 0.5

/* The file a SIGUSR1 makes it read on its main thread (the tests' known
 * stall of a read from a slow device). */
#define RP_CANARY_READ_ENV "RESPROBE_CANARY_READ"
