#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""felt-stall.py KIND PID SECONDS: a stall of known length and cause, made to
the probe window PID (tests/test-gui-felt.sh); prints one line
"KIND T0 LENGTH" with T0 the CLOCK_MONOTONIC start and LENGTH the seconds it
lasted, as measured here (the length asked for plus how late the sleep or the
signal came on a busy machine).

  stop  SIGSTOP, sleep SECONDS, SIGCONT: a stopped process.
  hog   the probe window's threads and this process on one CPU (the last one
        online), then a busy loop at SCHED_FIFO priority 50 for SECONDS: a
        runnable probe that gets no CPU. Needs CAP_SYS_NICE (root), two CPUs
        and no other real-time task running (another test's hog on a shared
        machine); exits 77 with the reason otherwise.
  can-hog  exits 0 when hog can run here, 77 with the reason otherwise.
"""
import os
import signal
import sys
import time


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


def stop(pid, seconds):
    t0 = time.monotonic()
    os.kill(pid, signal.SIGSTOP)
    time.sleep(seconds)
    t1 = time.monotonic()
    os.kill(pid, signal.SIGCONT)
    return t0, t1 - t0


def hog(pid, seconds):
    cpu = max(os.sched_getaffinity(0))
    # New threads inherit their creator's CPUs: pin them all, then us.
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            os.sched_setaffinity(int(tid), {cpu})
        except ProcessLookupError:
            pass
    os.sched_setaffinity(0, {cpu})
    time.sleep(0.3)  # let the probe window settle on its CPU
    os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(50))
    try:
        t0 = time.monotonic()
        while time.monotonic() - t0 < seconds:
            pass
        t1 = time.monotonic()
    finally:
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    return t0, t1 - t0


def main():
    kind = sys.argv[1]
    if kind in ("hog", "can-hog"):
        reason = hog_refusal()
        if reason:
            print(reason)
            return 77
        if kind == "can-hog":
            return 0
    pid, seconds = int(sys.argv[2]), float(sys.argv[3])
    t0, length = (stop if kind == "stop" else hog)(pid, seconds)
    print("%s %.6f %.6f" % (kind, t0, length))
    return 0


if __name__ == "__main__":
    sys.exit(main())
