#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""felt-stall.py KIND PID SECONDS [SERVER_PID]: a stall of known length and
cause, made to the probe window PID (tests/test-gui-felt.sh); prints one line
"KIND T0 LENGTH LATE RESUMED SERVER_WAIT" with T0 the CLOCK_MONOTONIC start
and LENGTH the seconds it lasted, as measured here (the length asked for plus
how late the sleep or the signal came on a busy machine), then this test's
own witness of how punctual the run was, read after the fact from the
kernel and from our own clock, never from the product:
  LATE         seconds by which our own timing was late: the sleep's
               overshoot (stop), the longest gap in the busy loop (hog: it
               was preempted)
  RESUMED      seconds from the end of the stall to the first time the probe
               window's main thread was seen on a CPU again (its CPU time in
               /proc/PID/task/PID/schedstat grew; polled every 0.5 ms, so an
               upper bound: late if we were late to look)
  SERVER_WAIT  seconds the display server's main thread waited for a CPU
               (run_delay of its schedstat) from the start of the stall until
               0.25 s after its end: it showed the frame before the stall and
               those after it; 0 when no SERVER_PID was given
A stall the product measured longer than LENGTH by more than a frame is only
the product's fault when all three are under a frame interval.

  stop  SIGSTOP, sleep SECONDS, SIGCONT: a stopped process.
  hog   the probe window's threads and this process on one CPU (the last one
        online), then a busy loop at SCHED_FIFO priority 50 for SECONDS: a
        runnable probe that gets no CPU. Needs CAP_SYS_NICE (root), two CPUs
        and no other real-time task running (another test's hog on a shared
        machine); exits 77 with the reason otherwise.
  read  SIGUSR1: the probe window reads its document on its main thread
        (RESPROBE_CANARY_READ), then SECONDS for it to end. The probe window
        times the read itself (its "R" line, the note probe_window_reads):
        LENGTH is 0 here, and RESUMED is the run-queue wait of its main
        thread over those SECONDS (blocked in the read it waits for no CPU;
        any wait is a late start or end of the read).
  can-hog  exits 0 when hog can run here, 77 with the reason otherwise.
  watch GUI_PID SERVER_PID: no stall; the witness of a whole run
        (tests/test-gui-wayland.sh's idle run): once GUI_PID's probe window
        (its child resprobe-canary) measures, until it ends, prints
        "SPAN PROBE_WAIT SERVER_WAIT": the seconds watched and the run-queue
        wait of the probe window's and the display server's main threads
        over them (schedstat run_delay, read every 0.1 s).
"""
import os
import signal
import sys
import time

# How long after a stall its witness watches, seconds: the probe window's
# stall records end when it has run again and shown a frame (a few refreshes).
WATCH = 0.25
# How often the probe window's CPU time is read after a stall, seconds.
POLL = 0.0005


def schedstat(pid):
    """(CPU time, run-queue wait) in seconds of PID's main thread, from
    /proc/PID/task/PID/schedstat (sum_exec_runtime, run_delay), or None
    when it is gone."""
    try:
        with open("/proc/%d/task/%d/schedstat" % (pid, pid)) as f:
            cpu, wait = f.read().split()[:2]
    except (OSError, ValueError):
        return None
    return int(cpu) * 1e-9, int(wait) * 1e-9


def resumed_after(pid, end, before):
    """Seconds from END (CLOCK_MONOTONIC) to the first time we saw PID's main
    thread's CPU time grow past BEFORE (its schedstat read while it was still
    stopped or kept from its CPU), at most WATCH * 4."""
    deadline = end + 4 * WATCH
    while before is not None and time.monotonic() < deadline:
        now = schedstat(pid)
        if now is None or now[0] > before[0]:
            return time.monotonic() - end
        time.sleep(POLL)
    return time.monotonic() - end


def server_wait(server, first, end):
    """Run-queue wait of SERVER's main thread from FIRST (its schedstat read
    as the stall began) to END + WATCH. A wait under way at either read
    counts whole (the kernel adds a wait when it ends): errs on the side of
    "late"."""
    if not server:
        return 0.0
    time.sleep(max(0.0, end + WATCH - time.monotonic()))
    last = schedstat(server)
    return last[1] - first[1] if first and last else 0.0


def busy_real_time_tasks():
    """User-space tasks of another real-time policy (SCHED_FIFO, SCHED_RR)
    that are running now: on a shared machine another test's hog. Beside
    one, ours would share the CPU's real-time budget (kernel.sched_rt_runtime_us)
    and wait behind it, and the stall it caused would not be of our length."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            tids = os.listdir("/proc/%s/task" % pid)
        except OSError:
            continue
        for tid in tids:
            try:
                with open("/proc/%s/task/%s/stat" % (pid, tid)) as f:
                    fields = f.read().rsplit(")", 1)[1].split()
                with open("/proc/%s/task/%s/comm" % (pid, tid)) as f:
                    comm = f.read().strip()
            except OSError:
                continue
            state, ppid, policy = fields[0], int(fields[1]), int(fields[38])
            # Kernel threads (kthreadd's children) have their own business.
            if policy in (1, 2) and state == "R" and ppid != 2 and int(pid) != os.getpid():
                found.append("%s (%s)" % (comm, tid))
    return found


def hog_refusal():
    if len(os.sched_getaffinity(0)) < 2:
        return "the hog needs two CPUs (the window part's sampler runs on the other)"
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    except PermissionError:
        return "SCHED_FIFO needs CAP_SYS_NICE or an RLIMIT_RTPRIO over 0 (root)"
    others = busy_real_time_tasks()
    if others:
        return "another real-time task runs on this machine (%s): the hog's length would not be ours" % \
            ", ".join(others[:3])
    return None


def stop(pid, seconds, server):
    """Returns (t0, length, our lateness, the probe's schedstat at the end,
    the server's at the start)."""
    first = schedstat(server) if server else None
    t0 = time.monotonic()
    os.kill(pid, signal.SIGSTOP)
    time.sleep(seconds)
    mark = schedstat(pid)
    t1 = time.monotonic()
    os.kill(pid, signal.SIGCONT)
    return t0, t1 - t0, max(0.0, t1 - t0 - seconds), mark, first


def hog(pid, seconds, server):
    cpu = max(os.sched_getaffinity(0))
    # New threads inherit their creator's CPUs: pin them all, then us.
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            os.sched_setaffinity(int(tid), {cpu})
        except ProcessLookupError:
            pass
    everywhere = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {cpu})
    time.sleep(0.3)  # let the probe window settle on its CPU
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
    gap = 0.0
    first = schedstat(server) if server else None
    try:
        t0 = last = time.monotonic()
        while last - t0 < seconds:
            now = time.monotonic()
            # A gap in our own loop: something of a higher class held the
            # CPU (another real-time task, real-time throttling), and the
            # probe window may have run meanwhile.
            gap = max(gap, now - last)
            last = now
        t1 = last
        mark = schedstat(pid)
        # Off the probe window's CPU before we leave the real-time class, so
        # that the witness's polling does not compete with it.
        os.sched_setaffinity(0, (everywhere - {cpu}) or everywhere)
    finally:
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    return t0, t1 - t0, gap, mark, first


def read(pid, seconds, server):
    """Returns (t0, 0, 0, the probe's run-queue wait over SECONDS, the
    server's schedstat at the start)."""
    first = schedstat(server) if server else None
    before = schedstat(pid)
    t0 = time.monotonic()
    os.kill(pid, signal.SIGUSR1)
    time.sleep(seconds)
    after = schedstat(pid)
    waited = after[1] - before[1] if before and after else 0.0
    return t0, 0.0, 0.0, waited, first


def probe_window_of(gui):
    """GUI's child resprobe-canary once it measures (has its wake-up thread)."""
    # Children are listed by the thread that forked them (the window part's).
    children = []
    for tid in os.listdir("/proc/%d/task" % gui):
        try:
            children += open("/proc/%d/task/%s/children" % (gui, tid)).read().split()
        except OSError:
            pass
    for child in children:
        try:
            if open("/proc/%s/comm" % child).read().strip() != "resprobe-canary":
                continue
            comms = [open("/proc/%s/task/%s/comm" % (child, t)).read().strip()
                     for t in os.listdir("/proc/%s/task" % child)]
        except OSError:
            continue
        if "rp-wakeup-probe" in comms:
            return int(child)
    return None


def watch(gui, server):
    probe = None
    while probe is None:
        if not os.path.exists("/proc/%d" % gui):
            return 0.0, 0.0, 0.0
        try:
            probe = probe_window_of(gui)
        except OSError:
            return 0.0, 0.0, 0.0
        time.sleep(0.05)
    first, first_server, t0 = schedstat(probe), schedstat(server), time.monotonic()
    last, last_server, t1 = first, first_server, t0
    while True:
        now, now_server = schedstat(probe), schedstat(server)
        if now is None or now_server is None:
            break
        last, last_server, t1 = now, now_server, time.monotonic()
        time.sleep(0.1)
    if first is None or first_server is None:
        return 0.0, 0.0, 0.0
    return t1 - t0, last[1] - first[1], last_server[1] - first_server[1]


def main():
    kind = sys.argv[1]
    if kind == "watch":
        print("%.6f %.6f %.6f" % watch(int(sys.argv[2]), int(sys.argv[3])))
        return 0
    if kind in ("hog", "can-hog"):
        reason = hog_refusal()
        if reason:
            print(reason)
            return 77
        if kind == "can-hog":
            return 0
    pid, seconds = int(sys.argv[2]), float(sys.argv[3])
    server = int(sys.argv[4]) if len(sys.argv) > 4 else 0
    if kind == "read":
        t0, length, late, resumed, first = read(pid, seconds, server)
        waited = server_wait(server, first, time.monotonic() - WATCH)
        print("%s %.6f %.6f %.6f %.6f %.6f" % (kind, t0, length, late, resumed, waited))
        return 0
    t0, length, late, mark, first = (stop if kind == "stop" else hog)(pid, seconds, server)
    resumed = resumed_after(pid, t0 + length, mark)
    waited = server_wait(server, first, t0 + length)
    print("%s %.6f %.6f %.6f %.6f %.6f" % (kind, t0, length, late, resumed, waited))
    return 0


if __name__ == "__main__":
    sys.exit(main())
