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
        runnable probe that gets no CPU. Needs CAP_SYS_NICE (root) and two
        CPUs; exits 77 with the reason otherwise.
  can-hog  exits 0 when hog can run here, 77 with the reason otherwise.
"""
import os
import signal
import sys
import time


def hog_refusal():
    if len(os.sched_getaffinity(0)) < 2:
        return "the hog needs two CPUs (the window part's sampler runs on the other)"
    try:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(1))
        os.sched_setscheduler(0, os.SCHED_OTHER, os.sched_param(0))
    except PermissionError:
        return "SCHED_FIFO needs CAP_SYS_NICE or an RLIMIT_RTPRIO over 0 (root)"
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
