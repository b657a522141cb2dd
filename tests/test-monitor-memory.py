#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-monitor-memory.py: `resprobe-cli monitor` keeps its memory flat from
period to period (issue 22, acceptance 3: a flat RSS, whatever the uptime).
Speaks TAP.

The monitor runs 30 periods of one second (--report-every 1, a report saved
each period, the fsync probe every 50 ms) and says after each, with
G_MESSAGES_DEBUG=all, on stdout, "memory after period N: heap in use H bytes, resident
R bytes". Between two periods no session holds samples, so after the first
few periods (libraries' caches filled once) both figures must stay where
they were:
- the heap in use (glibc's mallinfo2(), every chunk not free) may not grow
  by more than HEAP_BOUND (64 KiB) from period 3 to period 30: a session, its
  samples or its report kept each period is tens of KiB a period. glibc's
  per-thread caches (tcache) count as in use, and fill slowly over many
  periods, so they are turned off here (GLIBC_TUNABLES): what is left is
  what the program keeps;
- the resident set may not grow by more than RSS_BOUND (256 KiB): memory the program
  freed but the allocator kept (one arena per worker thread stepped it up
  by 0.37 MiB from period 5 to 30, from 17.6 MiB, before rp_cli_monitor()
  asked for one; 13.1 MiB and +4 KiB with it).

Bounds are bytes, never times; the only wait is for the 30th line, with a
guard against a hang.
"""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

CLI = os.environ.get("RESPROBE_CLI")
HANG_GUARD = 240  # seconds: only against a hang, never a measured limit
FIRST, LAST = 3, 30
HEAP_BOUND = 64 * 1024
RSS_BOUND = 256 * 1024
LINE = re.compile(r"memory after period (\d+): heap in use (\d+) bytes, resident (\d+) bytes")

count = failures = 0


def tap(ok, what):
    global count, failures
    count += 1
    print(f"{'ok' if ok else 'not ok'} {count} - {what}", flush=True)
    failures += 0 if ok else 1


def main():
    if CLI is None:
        print("Bail out! RESPROBE_CLI must point at resprobe-cli")
        return 1
    # AddressSanitizer replaces glibc's allocator (mallinfo2() sees none of
    # its heap) and keeps freed memory in quarantine: nothing here to measure.
    ldd = subprocess.run(["ldd", CLI], capture_output=True, text=True)
    if "libasan" in ldd.stdout:
        print(f"1..0 # SKIP {CLI} is built with AddressSanitizer")
        return 0
    work = tempfile.mkdtemp(prefix="resprobe-test-monitor-memory-")
    folder = os.path.join(work, "dir")
    reports = os.path.join(work, "reports")
    os.mkdir(folder)
    env = dict(os.environ, G_MESSAGES_DEBUG="all", GLIBC_TUNABLES="glibc.malloc.tcache_count=0")
    monitor = subprocess.Popen([CLI, "monitor", "--dir", folder, "--interval", "0.05", "--report-every", "1",
                                "--reports", reports], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                               text=True, env=env)
    figures = {}
    reached = threading.Event()

    def read():
        for line in monitor.stdout:  # GLib writes debug messages to stdout
            match = LINE.search(line)
            if match:
                figures[int(match[1])] = (int(match[2]), int(match[3]))
                if int(match[1]) >= LAST:
                    reached.set()
        reached.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    try:
        reached.wait(HANG_GUARD)
    finally:
        if monitor.poll() is None:
            monitor.send_signal(signal.SIGTERM)
        try:
            monitor.wait(HANG_GUARD)
        except subprocess.TimeoutExpired:
            monitor.kill()
            monitor.wait()
        reader.join(HANG_GUARD)
        saved = len(os.listdir(reports)) if os.path.isdir(reports) else 0
        left = os.listdir(folder)
        shutil.rmtree(work, ignore_errors=True)

    tap(FIRST in figures and LAST in figures, f"the monitor said its memory after periods {FIRST} and {LAST}")
    if FIRST in figures and LAST in figures:
        (heap0, rss0), (heap1, rss1) = figures[FIRST], figures[LAST]
        print(f"# period {FIRST}: heap in use {heap0} B, resident {rss0} B; "
              f"period {LAST}: heap in use {heap1} B, resident {rss1} B", flush=True)
        tap(heap0 > 0, "the heap in use is measured (glibc's allocator)")
        tap(heap1 - heap0 <= HEAP_BOUND,
            f"heap in use from period {FIRST} to {LAST}: {heap1 - heap0:+d} B (bound {HEAP_BOUND} B)")
        tap(rss1 - rss0 <= RSS_BOUND,
            f"resident set from period {FIRST} to {LAST}: {rss1 - rss0:+d} B (bound {RSS_BOUND} B)")
    tap(monitor.returncode == 0, f"SIGTERM stops the monitor cleanly (exit {monitor.returncode})")
    tap(saved >= LAST, f"a report per period ({saved})")
    tap(left == [], "nothing left in the monitored folder")
    print(f"1..{count}", flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
