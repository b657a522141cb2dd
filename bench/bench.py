#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""bench.py: the performance table of issue 8, each figure against a reference run beside it.

The machine this runs on is shared and noisy, so every row alternates our
program (A) and its reference (B) in pairs, A first in even pairs and B first
in odd ones, and reports medians over at least five pairs; a ratio is the
median of the per-pair ratios, so that a slow minute hurts both sides of the
pairs it falls into. Disk rows flush and wait for writeback before each run,
so that no run pays for its predecessor's dirty pages.

Usage: bench.py --build-dir DIR [--dir TARGET] [--repeat N] [--quick | --smoke]
                [--tap] [--rows 1,2,…] [--json FILE]

--smoke --tap is the smoke test of the test run (meson test --suite
bench-smoke): every row once at its smallest size, a TAP line per row with
its figures, which it does not judge.
"""

import argparse
import contextlib
import glob
import json
import math
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import traceback
import urllib.request

# The reports' samples, version 1 or 2 (blocks): the tests' reference decoder.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))
from resprobe_report import samples  # noqa: E402

MiB = 1024 * 1024


def log(*args):
    print(*args, file=sys.stderr, flush=True)


def median(values):
    return statistics.median(values) if values else float("nan")


def spread(values, fmt="{:.3f}"):
    """min–max of a list, to show how noisy a row was."""
    if not values:
        return "-"
    return (fmt + "–" + fmt).format(min(values), max(values))


def median_interval(values, confidence=0.95):
    """Distribution-free interval of a median: the order statistics k and
    n + 1 − k with P(Binomial(n, ½) < k) ≤ (1 − confidence) / 2 (e.g. the
    2nd and 9th of 10: 97.9 %). None with fewer than 6 values."""
    n = len(values)
    ordered = sorted(values)
    k, below = 0, 0.0
    for i in range(n):
        p = math.comb(n, i) / 2 ** n
        if below + p > (1 - confidence) / 2:
            break
        below += p
        k = i + 1
    if k == 0:
        return None
    return ordered[k - 1], ordered[n - k]


def run(argv, timeout=600, env=None, check=True, **kwargs):
    result = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                            env=env, **kwargs)
    if check and result.returncode != 0:
        raise RuntimeError("{} failed ({}): {}".format(
            " ".join(argv), result.returncode, result.stderr.strip()[-800:]))
    return result


def meminfo_kib(field):
    with open("/proc/meminfo") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


# Seconds settle() waits at most; 0 with --smoke, whose figures are not
# judged: on a shared machine each wait can last the whole limit.
SETTLE_LIMIT_S = 30


def settle():
    """Flush, then wait until writeback is (nearly) done, so that the next run
    starts from the same state as every other."""
    if SETTLE_LIMIT_S == 0:
        return
    os.sync()
    deadline = time.monotonic() + SETTLE_LIMIT_S
    while time.monotonic() < deadline:
        if meminfo_kib("Dirty") + meminfo_kib("Writeback") < 32 * 1024:
            break
        time.sleep(0.2)
    time.sleep(0.5)


def cpu_seconds(pid):
    """utime + stime of a process, from /proc/PID/stat."""
    with open("/proc/{}/stat".format(pid)) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def descendants(pid):
    """The processes pid started, and theirs (from /proc/*/stat's ppid)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open("/proc/{}/stat".format(entry)) as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append(int(entry))
    found, todo = [], [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def cpu_tree(pid):
    """cpu_seconds() of pid and of every process it started that still runs
    (the GUI's probe window, resprobe-canary): what the application costs."""
    total = cpu_seconds(pid)
    for child in descendants(pid):
        try:
            total += cpu_seconds(child)
        except OSError:
            pass
    return total


def cpu_all(processes):
    """cpu_tree() of each of {name: Popen}, as {name: seconds}."""
    return {k: cpu_tree(p.pid) for k, p in processes.items()}


@contextlib.contextmanager
def side_by_side(processes, row):
    """Runs the body while {name: Popen} run side by side: when the body ends
    normally, a program that has already ended (bad option, refused report)
    fails the row (it costs nothing and would pass it); on every exit the
    programs are sent SIGTERM, and SIGKILL after 15 s."""
    try:
        yield
        for k, p in processes.items():
            if p.poll() is not None:
                raise RuntimeError("row {}: the {} ended early (exit status {})".format(row, k, p.returncode))
    finally:
        for p in processes.values():
            p.terminate()
        for p in processes.values():
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                p.kill()
                p.wait()


def pairs(repeat, a, b, warm_up=False):
    """Runs a() and b() alternately, repeat pairs; returns [(a, b), …].
    warm_up: one untimed run of each first (the first disk run after other
    work was seen to be 5× slower, whichever tool it was)."""
    results = []
    if warm_up:
        a()
        b()
        log("  warm-up pair done")
    for i in range(repeat):
        if i % 2 == 0:
            ra = a()
            rb = b()
        else:
            rb = b()
            ra = a()
        results.append((ra, rb))
        log("  pair {}/{}: A {} B {}".format(i + 1, repeat, short(ra), short(rb)))
    return results


def write_random_file(path, mib):
    """A file of mib MiB of random bytes, on the disk (fsync) before a row reads or copies it."""
    with open(path, "wb") as f:
        for _ in range(mib):
            f.write(os.urandom(MiB))
        f.flush()
        os.fsync(f.fileno())


def dd_rate(result):
    """MB/s from dd's closing line ("N bytes … copied, S s")."""
    m = re.search(r"(\d+) bytes .* copied, ([0-9.]+) s", result.stderr)
    return int(m.group(1)) / float(m.group(2)) / 1e6


def short(value):
    if isinstance(value, float):
        return "{:.4g}".format(value)
    if isinstance(value, list):
        return "[" + " ".join(short(v) for v in value) + "]"
    return str(value)


class Bench:
    def __init__(self, args):
        self.args = args
        self.build = os.path.abspath(args.build_dir)
        self.cli = os.path.join(self.build, "app/cli/resprobe-cli")
        self.gui = os.path.join(self.build, "app/gui/resprobe")
        self.bench = os.path.join(self.build, "bench")
        self.scratch = tempfile.mkdtemp(prefix="resprobe-bench-")
        self.dir = os.path.abspath(args.dir) if args.dir else os.path.join(
            os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "resprobe-bench")
        os.makedirs(self.dir, exist_ok=True)
        self.env = dict(os.environ)
        self.env.update({
            "LC_ALL": "C.UTF-8",
            # Keep reports and settings out of the user's home.
            "XDG_DATA_HOME": os.path.join(self.scratch, "data"),
            "XDG_CONFIG_HOME": os.path.join(self.scratch, "config"),
            "GSETTINGS_BACKEND": "memory",
            "GSETTINGS_SCHEMA_DIR": os.path.join(self.build, "data"),
            "NO_AT_BRIDGE": "1",
            "GSK_RENDERER": "cairo",
        })
        self.xvfb = None
        self.dbus = None
        self.rows = []

    # ---------------------------------------------------------------- helpers

    def report_path(self):
        return os.path.join(self.scratch, "report.json")

    def cli_run(self, options, timeout=600):
        report = self.report_path()
        if os.path.exists(report):
            os.unlink(report)
        result = run([self.cli, "run", "--dir", self.dir, "--report", report] + options,
                     timeout=timeout, env=self.env)
        with open(report) as f:
            return json.load(f), result.stdout

    def start_display(self):
        """A private Xvfb (and session bus) for the GUI rows."""
        if self.xvfb is not None:
            return True
        if not shutil.which("Xvfb"):
            return False
        for number in range(140, 200):
            if not os.path.exists("/tmp/.X11-unix/X{}".format(number)) and \
               not os.path.exists("/tmp/.X{}-lock".format(number)):
                break
        self.xvfb = subprocess.Popen(
            # -noreset: a server that resets when its last client leaves
            # refuses connections for a moment, between two launches.
            ["Xvfb", ":{}".format(number), "-screen", "0", "1920x1080x24", "-nolisten", "tcp",
             "-noreset"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        socket = "/tmp/.X11-unix/X{}".format(number)
        for _ in range(100):
            if os.path.exists(socket):
                break
            time.sleep(0.05)
        self.env["DISPLAY"] = ":{}".format(number)
        if shutil.which("dbus-daemon"):
            self.dbus = subprocess.Popen(
                ["dbus-daemon", "--session", "--nofork", "--print-address"],
                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            self.env["DBUS_SESSION_BUS_ADDRESS"] = self.dbus.stdout.readline().strip()
        time.sleep(0.5)
        return True

    def close(self):
        for process in (self.dbus, self.xvfb):
            if process is not None and process.poll() is None:
                process.terminate()
                process.wait(10)
        for path in glob.glob(os.path.join(self.dir, "bench-*.tmp")):
            os.unlink(path)
        shutil.rmtree(self.scratch, ignore_errors=True)

    def add(self, row, what, figure, reference, ratio, goal, met, detail):
        entry = dict(row=row, what=what, figure=figure, reference=reference,
                     ratio=ratio, goal=goal, met=met, detail=detail)
        self.rows.append(entry)
        log("row {}: {} | {} | {} | {} | {}".format(
            row, figure, reference, "-" if ratio is None else "{:.2f}".format(ratio),
            goal, "yes" if met else "NO"))

    def skip(self, row, what, reason, missing_tool=False):
        """A row that cannot run here, with the reason in the table. With --tap
        a TAP skip when not root or not built (-Dgui=false), but a failure
        when a tool is missing: build-aux/install-deps.sh installs them all
        (docs/TESTING.md), so a missing one is a broken set-up."""
        self.add(row, what, "-", "-", None, "-", None, "skipped: " + reason)
        self.rows[-1].update(skipped=reason, missing_tool=missing_tool)

    def throughput_row(self, row, what, ours, reference, reference_name, goal, note="", cleanup=None):
        """Pairs of ours() and reference() (each MB/s, a warm-up pair first
        unless --smoke), added as a row whose ratio is the median of the pair
        ratios, met when it is at least goal; cleanup() runs after the pairs,
        also when one failed."""
        log("row {}: {} vs {}, {} pairs".format(row, what, reference_name, self.args.repeat))
        try:
            results = pairs(self.args.repeat, ours, reference, warm_up=self.args.warm_up)
        finally:
            if cleanup is not None:
                cleanup()
        ratios = [a / b for a, b in results]
        ratio = median(ratios)
        self.add(row, what,
                 "{:.0f} MB/s".format(median([a for a, _ in results])),
                 "{}: {:.0f} MB/s".format(reference_name, median([b for _, b in results])),
                 ratio, "≥ {}".format(goal), ratio >= goal,
                 note + "pair ratios " + spread(ratios))

    # ------------------------------------------------------------------- rows

    def row1_writer(self):
        """Sequential writer vs dd conv=fdatasync, same directory and size."""
        count = self.args.write_mib
        target = os.path.join(self.dir, "bench-dd.tmp")

        def ours():
            settle()
            report, _ = self.cli_run(["--load", "seq-writer", "--probe", "none",
                                      "--size", "{}M".format(count), "--fdatasync"])
            notes = report["notes"]
            return int(notes["writer_bytes_total"]) / float(notes["writer_seconds"]) / 1e6

        def dd():
            settle()
            result = run(["dd", "if=/dev/zero", "of=" + target, "bs=1M",
                          "count={}".format(count), "conv=fdatasync"], env=self.env)
            os.unlink(target)
            return dd_rate(result)

        self.throughput_row(1, "sequential writer throughput ({} MiB, conv=fdatasync)".format(count),
                            ours, dd, "dd", 0.98)

    def row2_copy(self):
        """Copy loop vs cp of the same file into the same directory."""
        size = self.args.copy_mib
        source = os.path.join(self.dir, "bench-cp-source.tmp")
        copy = os.path.join(self.dir, "bench-cp-copy.tmp")
        write_random_file(source, size)

        def ours():
            settle()
            report, _ = self.cli_run(["--load", "copy-loop", "--probe", "none",
                                      "--copy-size", "{}M".format(size),
                                      "--duration", str(self.args.copy_seconds)])
            durations = [v for _, v in samples(report["series"]["copy_duration"])]
            return size * MiB / median(durations) / 1e6

        def cp():
            settle()
            durations = []
            for _ in range(self.args.copies):
                start = time.monotonic()
                run(["cp", source, copy], env=self.env)
                # The copy loop closes (and so discards) each copy: the same.
                os.unlink(copy)
                durations.append(time.monotonic() - start)
            return size * MiB / median(durations) / 1e6

        self.throughput_row(2, "copy loop throughput ({} MiB file, same directory)".format(size),
                            ours, cp, "cp", 0.95, note="median time per copy; ",
                            cleanup=lambda: os.unlink(source))

    def row3_fsync(self):
        """fsync probe vs the reference fsync-tester, side by side under one dd load.

        fsync times under dd depend on where writeback happens to be, so two
        runs one after the other see medians 20- to 80-fold apart: A/B in
        sequence cannot pin a ratio to 10 %. Here both tools run at the same
        time in the same directory under the same dd, half a period apart so
        that neither rides on the other's journal commit, and which one starts
        first alternates between rounds. dd rewrites one file of fixed size
        (conv=notrunc) in a loop, so the load lasts as long as the round and
        the disk use stays bounded."""
        count = self.args.load_mib
        # Not "samples": that name is the reports' decoder, called below.
        fsyncs = self.args.fsync_samples
        load_file = os.path.join(self.dir, "bench-load.tmp")
        tester = os.path.join(self.bench, "fsync-tester")
        tester_file = os.path.join(self.dir, "bench-fsync-tester.tmp")
        report = self.report_path()

        def start_ours():
            if os.path.exists(report):
                os.unlink(report)
            return subprocess.Popen(
                [self.cli, "run", "--dir", self.dir, "--report", report, "--load", "none",
                 "--probe", "fsync", "--duration", str(fsyncs - 0.5)],
                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=self.env)

        def start_reference():
            return subprocess.Popen([tester, tester_file, str(fsyncs)],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, env=self.env)

        def round_(ours_first):
            settle()

            def load():
                return subprocess.Popen(["dd", "if=/dev/zero", "of=" + load_file, "bs=1M",
                                         "count={}".format(count), "conv=notrunc"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            dd = load()
            try:
                time.sleep(1.0)
                starters = [start_ours, start_reference]
                if not ours_first:
                    starters.reverse()
                first = starters[0]()
                time.sleep(0.5)
                second = starters[1]()
                procs = {start_ours: first if ours_first else second,
                         start_reference: second if ours_first else first}
                deadline = time.monotonic() + fsyncs * 4 + 60
                while any(p.poll() is None for p in procs.values()):
                    if dd.poll() is not None:
                        dd = load()
                    if time.monotonic() > deadline:
                        raise RuntimeError("row 3: a tool did not finish in time")
                    time.sleep(0.05)
                out, err = procs[start_reference].communicate()
                if procs[start_reference].returncode != 0:
                    raise RuntimeError("fsync-tester failed: " + err.strip()[-400:])
                _, err = procs[start_ours].communicate()
                if procs[start_ours].returncode != 0:
                    raise RuntimeError("resprobe-cli failed: " + err.strip()[-400:])
                with open(report) as f:
                    a = [v for _, v in samples(json.load(f)["series"]["fsync_latency"])]
                b = [float(x) for x in re.findall(r"fsync time: ([0-9.]+)", out)]
                # Each tool's first n fsyncs, n the smaller count: the same
                # stretch of the round. Under load an fsync takes seconds,
                # so the probe (stopped by time) makes fewer than the tester
                # (stopped by count); pooling all would weigh the quiet
                # rounds more on one side than on the other.
                n = min(len(a), len(b))
                return a[:n], b[:n]
            finally:
                if dd.poll() is None:
                    dd.terminate()
                dd.wait()
                for path in (load_file, tester_file):
                    if os.path.exists(path):
                        os.unlink(path)

        log("row 3: fsync probe and fsync-tester side by side under a dd loop of {} MiB, "
            "{} rounds".format(count, self.args.repeat))
        results = []
        for i in range(self.args.repeat):
            a, b = round_(i % 2 == 0)
            results.append((a, b))
            log("  round {}/{}: probe median {:.4g} s ({}), fsync-tester {:.4g} s ({})".format(
                i + 1, self.args.repeat, median(a), len(a), median(b), len(b)))
        a_all = [v * 1e3 for a, _ in results for v in a]
        b_all = [v * 1e3 for _, b in results for v in b]
        ratio = median(a_all) / median(b_all)
        ratios = [median(a) / median(b) for a, b in results]
        self.add(3, "fsync probe, median of {} fsyncs, side by side under dd ({} MiB loop)".format(
                     len(a_all), count),
                 "{:.1f} ms".format(median(a_all)),
                 "fsync-tester: {:.1f} ms ({})".format(median(b_all), len(b_all)),
                 ratio, "0.90–1.10", 0.9 <= ratio <= 1.1,
                 "per-round medians: probe {} ms, fsync-tester {} ms; round ratios {}".format(
                     spread([median(a) * 1e3 for a, _ in results], "{:.1f}"),
                     spread([median(b) * 1e3 for _, b in results], "{:.1f}"),
                     spread(ratios, "{:.2f}")))

    def row4_lateness(self):
        """Main-loop lateness p99 at idle vs cyclictest, non-RT, 10 ms."""
        seconds = self.args.lateness_seconds
        if not shutil.which("cyclictest"):
            self.skip(4, "main-loop lateness p99, idle, 10 ms",
                      "cyclictest missing: install rt-tests (build-aux/install-deps.sh)",
                      missing_tool=True)
            return
        # cyclictest checks at its start that it may switch to SCHED_FIFO
        # (check_privs() in rt-tests 2.4), even with --policy=other, and
        # refuses to run otherwise.
        if os.geteuid() != 0 and resource.getrlimit(resource.RLIMIT_RTPRIO)[0] < 1:
            self.skip(4, "main-loop lateness p99, idle, 10 ms",
                      "cyclictest needs root or RLIMIT_RTPRIO ≥ 1 (its start-up check)")
            return

        # Side by side, not one after the other: on a shared machine a p99 of
        # 1 000 wake-ups is the scheduler's noise of those 10 s, so both
        # measure the same 10 s. Two cores and two 10 ms timers: they rarely
        # wake at once, and when they do, either may be the one that waits.
        def parse_cyclictest(stdout):
            histogram = [(int(a), int(b)) for a, b in
                         re.findall(r"^(\d+) (\d+)\s*$", stdout, re.M)]
            overflows = int(re.search(r"Histogram Overflows: (\d+)", stdout).group(1))
            total = sum(n for _, n in histogram) + overflows
            seen = 0
            for latency, n in histogram:
                seen += n
                if seen >= 0.99 * total:
                    return float(latency)
            return float("inf")

        def round_(ours_first):
            # Non-RT (SCHED_OTHER), one thread, 10 ms, clock_nanosleep on an
            # absolute grid; --laptop: no /dev/cpu_dma_latency, which the GUI
            # does not get either. Histogram in µs for the percentile. No
            # "-p": any -p, even "-p 0", switches cyclictest (rt-tests 2.5)
            # to SCHED_FIFO, and priority 0 then "defaults" to 2 (seen with
            # strace): the reference would be a real-time thread.
            commands = {
                "ours": [os.path.join(self.bench, "bench-lateness"), str(seconds), "0.01"],
                "cyclictest": ["cyclictest", "--laptop", "--policy=other", "-t", "1",
                               "-i", "10000", "-l", str(int(seconds * 100)), "-q", "-h", "100000"],
            }
            order = ["ours", "cyclictest"] if ours_first else ["cyclictest", "ours"]
            procs = {}
            for name in order:
                procs[name] = subprocess.Popen(commands[name], stdout=subprocess.PIPE,
                                               stderr=subprocess.PIPE, text=True)
            outputs = {}
            for name, proc in procs.items():
                out, err = proc.communicate(timeout=seconds * 3 + 30)
                if proc.returncode != 0:
                    raise RuntimeError("{} failed: {}".format(name, err.strip()[-400:]))
                if "realtime priority" in err or "SCHED_FIFO" in err:
                    raise RuntimeError("{} ran real-time: {}".format(name, err.strip()[-200:]))
                outputs[name] = out
            figures = json.loads(outputs["ours"])
            return figures["p99_us"], parse_cyclictest(outputs["cyclictest"]), figures["p50_us"]

        log("row 4: main-loop lateness and cyclictest side by side, {} s, {} rounds".format(
            seconds, self.args.repeat))
        results = []
        for i in range(self.args.repeat):
            results.append(round_(i % 2 == 0))
            log("  round {}/{}: timer p99 {:.0f} µs, cyclictest p99 {:.0f} µs".format(
                i + 1, self.args.repeat, results[-1][0], results[-1][1]))
        ratios = [a / b for a, b, _ in results]
        ratio = median(ratios)
        self.add(4, "main-loop lateness p99, idle, 10 ms timer ({} s, side by side)".format(seconds),
                 "{:.0f} µs".format(median([a for a, _, _ in results])),
                 "cyclictest: {:.0f} µs".format(median([b for _, b, _ in results])),
                 ratio, "≤ 2×", ratio <= 2, "timer p50 {:.0f} µs; round ratios {}".format(
                     median([m for _, _, m in results]), spread(ratios, "{:.2f}")))

    def row5_cpu(self):
        """CPU cost of passive monitoring: CLI and GUI (Xvfb, window visible)."""
        seconds = self.args.cpu_seconds
        warm = self.args.cpu_warm_seconds
        gui = os.path.exists(self.gui) and self.start_display()
        if os.path.exists(self.gui) and not gui:
            self.skip("5b", "CPU, passive monitoring, GUI", "needs Xvfb", missing_tool=True)
        cli_share, gui_share, cli_total, gui_total, window_share = [], [], [], [], []

        for i in range(self.args.repeat):
            duration = str(int(warm + seconds + 10))
            processes = {}
            os.makedirs(os.path.join(self.dir, "gui"), exist_ok=True)
            # run refuses to replace a report (that is what --force is for)
            report = os.path.join(self.scratch, "passive.json")
            if os.path.exists(report):
                os.unlink(report)
            processes["cli"] = subprocess.Popen(
                [self.cli, "run", "--scenario", "passive", "--duration", duration,
                 "--dir", self.dir, "--report", report],
                env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            if gui:
                processes["gui"] = subprocess.Popen(
                    [self.gui, "--scenario", "passive", "--duration", duration, "--start",
                     "--dir", os.path.join(self.dir, "gui")],
                    env=self.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            with side_by_side(processes, "5"):
                time.sleep(warm)
                before = cpu_all(processes)
                window_before = cpu_seconds(processes["gui"].pid) if gui else 0
                time.sleep(seconds)
                after = cpu_all(processes)
                window_after = cpu_seconds(processes["gui"].pid) if gui else 0
            cli_share.append((after["cli"] - before["cli"]) / seconds * 100)
            cli_total.append(after["cli"] / (warm + seconds) * 100)
            if gui:
                # The GUI is the window and its probe window (resprobe-canary,
                # a child process since issue 32): both are its cost.
                gui_share.append((after["gui"] - before["gui"]) / seconds * 100)
                gui_total.append(after["gui"] / (warm + seconds) * 100)
                window_share.append((window_after - window_before) / seconds * 100)
            log("  run {}/{}: CLI {:.3f} %, GUI {} % (window {} %)".format(
                i + 1, self.args.repeat, cli_share[-1],
                "{:.3f}".format(gui_share[-1]) if gui else "-",
                "{:.3f}".format(window_share[-1]) if gui else "-"))

        cli = median(cli_share)
        self.add("5a", "CPU, passive monitoring, CLI ({} s)".format(seconds),
                 "{:.2f} % of a core".format(cli), "budget 0.5 %", cli / 0.5, "≤ 0.5 %",
                 cli <= 0.5, "steady state after {:.0f} s; with start-up {:.2f} %; runs {}".format(
                     warm, median(cli_total), spread(cli_share, "{:.2f}")))
        if gui:
            share = median(gui_share)
            self.add("5b", "CPU, passive monitoring, GUI under Xvfb, window visible ({} s)".format(seconds),
                     "{:.2f} % of a core".format(share), "budget 2 %", share / 2, "≤ 2 %",
                     share <= 2, "window and probe window; the window alone {:.2f} %; steady state after "
                     "{:.0f} s; with start-up {:.2f} %; runs {}".format(
                         median(window_share), warm, median(gui_total), spread(gui_share, "{:.2f}")))

    def row6_plot(self):
        """Chart draw time: 4 × 360 000 points vs 4 × 6 000, 1280 px wide."""
        program = os.path.join(self.bench, "bench-plot")

        def draw(points):
            return json.loads(run([program, str(points), "60"]).stdout)

        log("row 6: plot 360 000 vs 6 000 points, {} pairs".format(self.args.repeat))
        results = pairs(self.args.repeat, lambda: draw(360000), lambda: draw(6000))
        for kind, label in (("cold", "cold: decimation cache invalid (resize, new range)"),
                            ("live", "live: one new point per series since the last frame")):
            long_ms = [a[kind + "_ms"] for a, _ in results]
            short_ms = [b[kind + "_ms"] for _, b in results]
            ratios = [a / b for a, b in zip(long_ms, short_ms)]
            ratio = median(ratios)
            figure = median(long_ms)
            self.add("6" + ("a" if kind == "cold" else "b"),
                     "chart draw, 4 × 360 000 points, 1280 × 300, " + label,
                     "{:.2f} ms/frame".format(figure),
                     "6 000 points: {:.2f} ms".format(median(short_ms)),
                     ratio, "≤ 2 ms, ratio ≤ 1.5", figure <= 2 and ratio <= 1.5,
                     "pair ratios " + spread(ratios, "{:.2f}"))

    def row7_rss(self):
        """RSS after 8 h of every default probe's samples."""
        program = os.path.join(self.bench, "bench-rss")
        results = [json.loads(run([program, "8"]).stdout) for _ in range(self.args.repeat)]
        rss = median([r["rss_mb"] for r in results])
        self.add(7, "RSS growth, 8 h of the default probes' samples ({:.1f} M points)".format(
                     results[0]["points"] / 1e6),
                 "{:.1f} MB".format(rss), "budget 100 MB", rss / 100, "≤ 100 MB", rss <= 100,
                 "{:.2f} bytes per point".format(median([r["bytes_per_point"] for r in results])))
        # 7b: the device latency's window histograms (issue 31, defect 5),
        # an hour at 20 000 requests a second, beside the thinned series
        # drawn (the store before them) and every request as points.
        hours = 1 if not self.args.smoke else 0.01
        w = json.loads(run([os.path.join(self.bench, "bench-window-latency"), str(hours), "20000"]).stdout)
        per_hour = w["windows_heap_bytes"] / hours / 1e6
        self.add("7b", "Window histograms, device latency at 20 000 requests/s",
                 "{:.1f} MB/h".format(per_hour),
                 "thinned series {:.2f} MB/h; every request as points {:.0f} MB/h".format(
                     w["thinned_series_heap_bytes"] / hours / 1e6, w["points_every_request_bytes"] / hours / 1e6),
                 per_hour / 100, "≤ 100 MB/h", per_hour <= 100,
                 "report text {:.2f} MB/h with {:g} stalls an hour (only their slots are saved; "
                 "every slot: {:.1f} MB/h)".format(w["windows_json_bytes"] / hours / 1e6, w["stalls_per_hour"],
                                                    w["windows_json_every_slot_bytes"] / hours / 1e6))

    def row9_compare(self):
        """The comparison of two 1-hour window runs vs the summaries of the same reports."""
        program = os.path.join(self.bench, "bench-compare")
        log("row 9: comparison of two 1 h runs, {} rounds".format(self.args.repeat))
        result = json.loads(run([program, "3600", str(self.args.repeat)]).stdout)
        ratio = result["compare_ms"] / result["summary_ms"]
        self.add(9, "comparison of two 1 h window runs (360 000 main-loop, 216 000 frame samples each): "
                    "intervals over samples and Mann-Whitney tests",
                 "{:.0f} ms".format(result["compare_ms"]),
                 "their summaries: {:.0f} ms".format(result["summary_ms"]),
                 ratio, "≤ 3×", ratio <= 3, "medians of {} rounds".format(result["rounds"]))

    def add_load_row(self, row, what, reference_name, results, goal):
        """A load's row: throughput ratio over interleaved pairs, and beside it
        the bytes each side moved per CPU second of its own reading or writing
        thread(s), which does not depend on the share of the two busy cores a
        run happened to get (the machine is shared)."""
        ratios = [a[0] / b[0] for a, b in results]
        efficiency = [a[1] / b[1] for a, b in results if a[1] > 0 and b[1] > 0]
        ratio = median(ratios)
        self.add(row, what,
                 "{:.0f} MB/s ({:.0f} MB per CPU s)".format(median([a[0] for a, _ in results]),
                                                           median([a[1] for a, _ in results])),
                 "{}: {:.0f} MB/s ({:.0f} MB per CPU s)".format(reference_name,
                                                               median([b[0] for _, b in results]),
                                                               median([b[1] for _, b in results])),
                 ratio, goal, ratio >= float(goal.split()[-1]),
                 "pair ratios {}; MB per CPU s, median ratio {:.2f} ({})".format(
                     spread(ratios), median(efficiency) if efficiency else float("nan"), spread(efficiency)))

    def row10_readers(self):
        """Sequential readers (one thread) vs dd of=/dev/null of a cold file."""
        size = self.args.read_mib
        source = os.path.join(self.dir, "bench-read-source.tmp")
        write_random_file(source, size)

        def ours():
            settle()
            report, _ = self.cli_run(["--load", "seq-readers", "--probe", "none", "--readers", "1",
                                      "--reader-file-size", "{}M".format(size),
                                      "--duration", str(self.args.read_seconds)])
            notes = report["notes"]
            mb = int(notes["readers_bytes_total"]) / 1e6
            return [mb / float(notes["readers_seconds"]), mb / float(notes["readers_cpu_seconds"])]

        def dd():
            settle()
            # Cold, as the readers' every pass: evicted first.
            fd = os.open(source, os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
            os.close(fd)
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            result = run(["dd", "if=" + source, "of=/dev/null", "bs=1M"], env=self.env)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
            m = re.search(r"(\d+) bytes .* copied, ([0-9.]+) s", result.stderr)
            mb = int(m.group(1)) / 1e6
            return [mb / float(m.group(2)), mb / cpu if cpu > 0 else 0.0]

        log("row 10: readers vs dd of=/dev/null, {} MiB, {} pairs".format(size, self.args.repeat))
        try:
            results = pairs(self.args.repeat, ours, dd, warm_up=self.args.warm_up)
        finally:
            os.unlink(source)
        self.add_load_row(10, "sequential readers throughput (1 thread, {} MiB file, cold)".format(size),
                          "dd of=/dev/null", results, "≥ 0.95")

    def row11_random_writer(self):
        """Random writer vs fio --rw=randwrite --bs=4k, buffered, same file size and time."""
        if not shutil.which("fio"):
            self.skip(11, "random writer throughput", "needs fio", missing_tool=True)
            return
        size = self.args.random_mib
        seconds = self.args.random_seconds
        target = os.path.join(self.dir, "bench-fio.tmp")

        def ours():
            settle()
            report, _ = self.cli_run(["--load", "random-writer", "--probe", "none",
                                      "--random-file-size", "{}M".format(size),
                                      "--duration", str(seconds)])
            notes = report["notes"]
            mb = int(notes["random_writer_bytes_total"]) / 1e6
            return [mb / float(notes["random_writer_seconds"]), mb / float(notes["random_writer_cpu_seconds"])]

        def fio():
            # --norandommap: offsets drawn uniformly with replacement, as the
            # writer draws them (fio's default map writes each block once a pass,
            # so that every write dirties a new page).
            job = ["fio", "--name=bench", "--filename=" + target, "--rw=randwrite", "--bs=4k",
                   "--size={}M".format(size), "--ioengine=psync", "--norandommap"]
            # fio lays its file out by writing it: flushed before the timed
            # run, as the writer's file is allocated before its run.
            run(job + ["--create_only=1"], env=self.env)
            settle()
            result = run(job + ["--runtime={}".format(seconds), "--time_based", "--output-format=json"],
                         env=self.env)
            os.unlink(target)
            job = json.loads(result.stdout[result.stdout.index("{"):])["jobs"][0]
            # usr_cpu and sys_cpu: percent of the job's run time (its worker thread).
            cpu = (job["usr_cpu"] + job["sys_cpu"]) / 100 * job["job_runtime"] / 1000
            mb = job["write"]["io_bytes"] / 1e6
            return [job["write"]["bw_bytes"] / 1e6, mb / cpu if cpu > 0 else 0.0]

        log("row 11: random writer vs fio randwrite 4k, {} MiB, {} s, {} pairs".format(
            size, seconds, self.args.repeat))
        results = pairs(self.args.repeat, ours, fio, warm_up=self.args.warm_up)
        self.add_load_row(11, "random writer throughput (4 KiB, buffered, {} MiB file, {} s)".format(size, seconds),
                          "fio randwrite", results, "≥ 0.9")

    def row8_first_frame(self):
        """Time to the first frame: resprobe's main window vs a minimal GTK 4 window."""
        stopwatch = os.path.join(self.bench, "first-frame")
        minimal = os.path.join(self.bench, "minimal-window")
        if not os.path.exists(self.gui):
            self.skip(8, "time to first frame", "the GUI is not built (-Dgui=false)")
            return
        if not (os.path.exists(stopwatch) and self.start_display()):
            self.skip(8, "time to first frame", "needs Xvfb and libxdamage (first-frame)",
                      missing_tool=True)
            return
        gui_dir = os.path.join(self.dir, "gui")
        os.makedirs(gui_dir, exist_ok=True)

        def launch(argv):
            result = run([stopwatch, "-t", "30"] + argv, env=self.env, timeout=60)
            return float(re.search(r"paint ([0-9.]+)", result.stdout).group(1)) * 1e3

        def ours():
            return launch([self.gui, "--dir", gui_dir])

        def reference():
            return launch([minimal])

        # Once each, untimed: the first start of the day reads libraries and
        # fonts from disk; the table compares warm starts.
        if self.args.warm_up:
            ours()
            reference()
        log("row 8: first frame, resprobe vs minimal GTK 4 window, {} pairs".format(self.args.repeat))
        results = pairs(self.args.repeat, ours, reference)
        ratios = [a / b for a, b in results]
        ratio = median(ratios)
        self.add(8, "time to first frame, exec to first paint (Xvfb, cairo renderer)",
                 "{:.0f} ms".format(median([a for a, _ in results])),
                 "minimal window: {:.0f} ms".format(median([b for _, b in results])),
                 ratio, "≤ 1.5×", ratio <= 1.5, "pair ratios " + spread(ratios, "{:.2f}"))

    def row12_long_report(self):
        """A day's report (issue 16, item 3): save, load and memory, version 2
        (blocks) against version 1 (a JSON array per sample), side by side."""
        program = os.path.join(self.bench, "bench-report")
        where = tempfile.mkdtemp(dir=self.scratch)
        hours = self.args.report_hours
        log("row 12: a {} h report saved, version 2 and version 1, {} times".format(hours, self.args.repeat))
        saves = []
        for i in range(self.args.repeat):
            saves.append(json.loads(run([program, "save", str(hours), where], timeout=1800).stdout))
            log("  save {}/{}: {}".format(i + 1, self.args.repeat, saves[-1]))
        v2, v1 = os.path.join(where, "v2.json"), os.path.join(where, "v1.json")
        log("row 12: loading them, {} pairs".format(self.args.repeat))
        loads = pairs(self.args.repeat,
                      lambda: json.loads(run([program, "load", v2], timeout=1800).stdout),
                      lambda: json.loads(run([program, "load", v1], timeout=1800).stdout))
        n = saves[0]["samples"]
        own = n * 14
        what = "a {} h report, {:.1f} M samples (44/s)".format(hours, n / 1e6)

        save_ratios = [s["v2_save_s"] / s["v1_save_s"] for s in saves]
        self.add("12a", "save, " + what,
                 "{:.2f} s".format(median([s["v2_save_s"] for s in saves])),
                 "version 1: {:.2f} s".format(median([s["v1_save_s"] for s in saves])),
                 median(save_ratios), "seconds, ≤ version 1", median(save_ratios) <= 1,
                 "pair ratios " + spread(save_ratios, "{:.2f}"))
        load_ratios = [a["load_s"] / b["load_s"] for a, b in loads]
        load_s = median([a["load_s"] for a, _ in loads])
        self.add("12b", "load (open), " + what,
                 "{:.2f} s".format(load_s),
                 "version 1: {:.2f} s".format(median([b["load_s"] for _, b in loads])),
                 median(load_ratios), "a few seconds (≤ 5 s)", load_s <= 5,
                 "pair ratios " + spread(load_ratios, "{:.3f}") +
                 "; CPU time {:.2f} s (version 1: {:.2f} s)".format(
                     median([a["load_cpu_s"] for a, _ in loads]),
                     median([b["load_cpu_s"] for _, b in loads])))
        peak = median([a["peak_bytes"] for a, _ in loads])
        peak_v1 = median([b["peak_bytes"] for _, b in loads])
        self.add("12c", "peak memory of a load, " + what,
                 "{:.0f} MB".format(peak / 1e6),
                 "samples' own 14 B each: {:.0f} MB".format(own / 1e6),
                 peak / own, "≤ 3× the samples' own", peak <= 3 * own,
                 "version 1: {:.0f} MB ({:.1f}× the samples' own, {:.1f}× version 2)".format(
                     peak_v1 / 1e6, peak_v1 / own, peak_v1 / peak))
        size = saves[0]["v2_bytes"]
        self.add("12d", "file size, " + what,
                 "{:.1f} MB ({:.2f} B/sample)".format(size / 1e6, size / n),
                 "version 1: {:.0f} MB".format(saves[0]["v1_bytes"] / 1e6),
                 size / saves[0]["v1_bytes"], "30 days ≤ 1 GiB",
                 size * 30 <= 1 << 30,
                 "30 days computed: {:.0f} MB".format(size * 30 / 1e6))
        shutil.rmtree(where, ignore_errors=True)

    def row13_pdf_notes(self):
        """PDF export of a report with 20 000 notes vs 200 (issue 16, item 10)."""
        program = os.path.join(self.bench, "bench-report")

        def export(notes):
            return json.loads(run([program, "pdf", str(notes)], timeout=600).stdout)["pdf_s"]

        log("row 13: PDF of 20 000 vs 200 notes, {} pairs".format(self.args.repeat))
        results = pairs(self.args.repeat, lambda: export(20000), lambda: export(200))
        ratios = [a / b for a, b in results]
        self.add(13, "PDF export, a report with 20 000 notes",
                 "{:.2f} s".format(median([a for a, _ in results])),
                 "200 notes: {:.2f} s".format(median([b for _, b in results])),
                 median(ratios), "≤ 3×", median(ratios) <= 3, "pair ratios " + spread(ratios, "{:.2f}"))

    # ------------------------------------------------------------------ table

    def row15_attribution(self):
        """R1 with stall attribution, the disk sampler and kernel events
        (issue 18) vs the same run without them: writer throughput, fsync
        median, the sampling and tracing threads' CPU."""
        size = self.args.attribution_mib
        threads = ("stall_sampler_cpu_seconds", "disk_sampler_cpu_seconds",
                   "kernel_events_cpu_seconds")

        def one(probes):
            settle()
            report, _ = self.cli_run(["--load", "seq-writer", "--probe", probes,
                                      "--size", "{}M".format(size)])
            notes = report["notes"]
            rate = int(notes["writer_bytes_total"]) / float(notes["writer_seconds"]) / 1e6
            fsyncs = [v for _, v in samples(report["series"]["fsync_latency"])]
            cpu = sum(float(notes.get(key, "0")) for key in threads) / report["duration"]
            return [rate, median(fsyncs), cpu]

        log("row 15: attribution on vs off, {} MiB, {} pairs".format(size, self.args.repeat))
        results = pairs(self.args.repeat, lambda: one("fsync,system,stalls,disk,kernel-events"),
                        lambda: one("fsync,system"), warm_up=self.args.warm_up)
        ratios = [a[0] / b[0] for a, b in results]
        ratio = median(ratios)
        interval = median_interval(ratios)
        fsync_ratios = [a[1] / b[1] for a, b in results if b[1] > 0]
        fsync_interval = median_interval(fsync_ratios)
        fsync_on = median([a[1] for a, _ in results])
        fsync_off = median([b[1] for _, b in results])
        cpu = max(a[2] for a, _ in results)

        def shown(bounds):
            return "n/a (too few pairs)" if bounds is None else "{:.3f}–{:.3f}".format(*bounds)

        # Met only when the median reaches the goal; the interval says
        # whether a miss can be told from this machine's noise.
        self.add(15, "writer throughput with stall attribution, disk sampler and kernel events "
                 "({} MiB, R1)".format(size),
                 "{:.0f} MB/s".format(median([a[0] for a, _ in results])),
                 "without: {:.0f} MB/s".format(median([b[0] for _, b in results])),
                 ratio, "≥ 0.97", ratio >= 0.97,
                 "pair ratios {}; 95 % interval of the median ratio {}".format(
                     spread(ratios), shown(interval)))
        self.add("15a", "fsync median with attribution, same runs",
                 "{:.3f} s".format(fsync_on), "without: {:.3f} s".format(fsync_off),
                 median(fsync_ratios) if fsync_ratios else None, "within noise",
                 fsync_interval is not None and fsync_interval[0] <= 1 <= fsync_interval[1],
                 "pair ratios {}; 95 % interval of the median ratio {}".format(
                     spread(fsync_ratios), shown(fsync_interval)))
        self.add("15.1", "CPU of the stall sampler, disk sampler and kernel-events threads "
                 "(per second of run)",
                 "{:.3f} %".format(100 * cpu), "-", None, "≤ 1 % of a core", cpu <= 0.01,
                 "the threads' CPU time from getrusage(RUSAGE_THREAD), notes " + ", ".join(threads))

    def print_table(self):
        print()
        print("Performance (issue 8): {} pairs per row, medians; {}".format(
            self.args.repeat, time.strftime("%Y-%m-%d %H:%M")))
        print("Target directory: {}; load average at the end: {}".format(
            self.dir, " ".join("{:.2f}".format(x) for x in os.getloadavg())))
        print()
        print("| # | what | figure | reference | ratio | goal | met? |")
        print("|---|---|---|---|---|---|---|")
        for r in self.rows:
            print("| {} | {} | {} | {} | {} | {} | {} |".format(
                r["row"], r["what"], r["figure"], r["reference"],
                "-" if r["ratio"] is None else "{:.2f}".format(r["ratio"]),
                r["goal"], {True: "yes", False: "**no**", None: "n/a"}[r["met"]]))
        print()
        for r in self.rows:
            print("{}: {}".format(r["row"], r["detail"]))
        sys.stdout.flush()


def row17_monitor(bench):
    """`resprobe-cli monitor` at its defaults (issue 22, acceptance 3), scraped
    every 5 s, side by side with `run --scenario passive` (row 5a's program)
    in the same seconds: CPU % of a core and RSS at the start and the end.
    The 30-minute soak is bench/monitor-soak.sh (docs/PERFORMANCE.md)."""
    seconds = bench.args.cpu_seconds
    warm = bench.args.cpu_warm_seconds
    port = None
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    mon_dir = os.path.join(bench.dir, "monitor")
    os.makedirs(mon_dir, exist_ok=True)
    report = os.path.join(bench.scratch, "monitor-passive.json")
    if os.path.exists(report):
        os.unlink(report)

    def rss(pid):
        with open("/proc/{}/status".format(pid)) as f:
            return next(int(l.split()[1]) for l in f if l.startswith("VmRSS"))

    processes = {
        "monitor": subprocess.Popen([bench.cli, "monitor", "--dir", mon_dir, "--listen", str(port)],
                                    env=bench.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
        "passive": subprocess.Popen([bench.cli, "run", "--scenario", "passive", "--duration",
                                     str(int(warm + seconds + 10)), "--dir", bench.dir, "--report", report],
                                    env=bench.env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL),
    }
    with side_by_side(processes, "17"):
        time.sleep(warm)
        before = cpu_all(processes)
        rss_start = rss(processes["monitor"].pid)
        # Every 5 s, or once in a run shorter than that (--smoke).
        every = min(5, seconds)
        for _ in range(int(seconds // every)):
            time.sleep(every)
            with urllib.request.urlopen("http://127.0.0.1:{}/metrics".format(port), timeout=10) as r:
                r.read()
        after = cpu_all(processes)
        rss_end = rss(processes["monitor"].pid)
    monitor = (after["monitor"] - before["monitor"]) / seconds * 100
    passive = (after["passive"] - before["passive"]) / seconds * 100
    bench.add("17", "CPU, resprobe-cli monitor at its defaults, scraped every {} s ({} s, side by side)".format(
                  min(5, seconds), seconds),
              "{:.2f} % of a core".format(monitor), "run --scenario passive: {:.2f} %".format(passive),
              monitor / 0.5, "≤ 0.5 %", monitor <= 0.5,
              "RSS {} KiB after {:.0f} s, {} KiB at the end".format(rss_start, warm, rss_end))


def row14_kernel_events(bench):
    """The kernel-events probe's cost (issue 18, acceptance 3): R1 (writer with
    conv=fdatasync beside the fsync probe) with --kernel-events=on against the
    same with =off, alternating in pairs; needs root."""
    args = bench.args
    if os.geteuid() != 0:
        bench.skip("14", "kernel events overhead", "tracing needs root")
        return
    seconds = args.kernel_events_seconds

    def one(mode):
        settle()
        report, _ = bench.cli_run(["--size", "{}M".format(args.write_mib), "--fdatasync",
                                   "--duration", str(seconds), "--kernel-events", mode])
        notes = report["notes"]
        fsyncs = [v for _, v in samples(report["series"].get("fsync_latency", {}))]
        cpu = None
        if mode == "on":
            cpu = float(notes["kernel_events_cpu_seconds"]) / float(notes["kernel_events_seconds"])
        return (int(notes["writer_bytes_total"]) / float(notes["writer_seconds"]) / 1e6,
                median(fsyncs) if fsyncs else float("nan"), cpu)

    log("row 14: kernel events on vs off, R1 {} MiB, {} s, {} pairs".format(
        args.write_mib, seconds, args.repeat))
    results = pairs(args.repeat, lambda: one("on"), lambda: one("off"), warm_up=args.warm_up)
    throughput = [a[0] / b[0] for a, b in results]
    ratio = median(throughput)
    bench.add("14a", "writer throughput with kernel events, R1 ({} MiB, conv=fdatasync)".format(
                  args.write_mib),
              "{:.0f} MB/s".format(median([a[0] for a, _ in results])),
              "off: {:.0f} MB/s".format(median([b[0] for _, b in results])),
              ratio, "≥ 0.97", ratio >= 0.97, "pair ratios " + spread(throughput))
    # "Within noise": the on/off ratio of the fsync medians is no further
    # from 1 than the runs without tracing are from each other.
    on_fsync = [a[1] for a, _ in results]
    off_fsync = [b[1] for _, b in results]
    fsync_ratio = median(on_fsync) / median(off_fsync)
    noise = (max(off_fsync) - min(off_fsync)) / median(off_fsync)
    bench.add("14b", "fsync median with kernel events, R1, {} s runs".format(seconds),
              "{:.1f} ms".format(median(on_fsync) * 1e3),
              "off: {:.1f} ms".format(median(off_fsync) * 1e3),
              fsync_ratio, "within ±{:.2f} (spread of the off runs)".format(noise),
              abs(fsync_ratio - 1) <= noise,
              "on medians " + spread(on_fsync, "{:.4f}") + "; off medians " + spread(off_fsync, "{:.4f}"))
    cpu = [a[2] for a, _ in results]
    share = median(cpu)
    bench.add("14c", "CPU of the tracing thread (kernel_events_cpu_seconds / its run time)",
              "{:.3f} % of a core".format(share * 100), "budget 1 %", share / 0.01,
              "≤ 1 %", share <= 0.01, "per run " + spread([c * 100 for c in cpu], "{:.3f}"))


def fio_figure(device, rw, block_size, depth, seconds):
    """fio on the raw loop device with direct I/O: (bandwidth B/s, mean
    completion latency s) of the job."""
    result = run(["fio", "--name=device", "--filename=" + device, "--rw=" + rw,
                  "--bs=" + block_size, "--iodepth=" + str(depth), "--ioengine=libaio",
                  "--direct=1", "--time_based", "--runtime=" + str(seconds),
                  "--randrepeat=0", "--output-format=json"], timeout=seconds * 10 + 60)
    job = json.loads(result.stdout[result.stdout.index("{"):])["jobs"][0]
    side = job["write"] if "write" in rw else job["read"]
    return side["bw_bytes"], side["clat_ns"]["mean"] / 1e9


def device_row_missing(bench):
    """What row 16 needs and does not find here, or None."""
    # The filter is built only with nbdkit-plugin-dev (meson.build).
    if not os.path.exists(os.path.join(bench.build, "app/nbdkit/resprobe-nbdkit-disk-filter.so")):
        return "the slow-device filter is not built (nbdkit-plugin-dev)"
    tools = [t for t in ("fio", "nbdkit", "nbdfuse", "losetup") if not shutil.which(t)]
    return "needs " + ", ".join(tools) if tools else None


def row16_devices(bench):
    """Fidelity of the matrix's emulated devices (issue 20, acceptance 1): fio
    against each profile's device raw through the loop device (direct I/O, as
    the matrix sets it up): sequential write and read bandwidth (1 MiB, 4 in
    flight) and random 4 KiB latency (1 in flight) against the profile's
    figures; a figure holds within 15 %."""
    args = bench.args
    if os.geteuid() != 0:
        bench.skip("16", "emulated devices", "loop devices need root")
        return
    missing = device_row_missing(bench)
    if missing:
        bench.skip("16", "emulated devices", missing, missing_tool=True)
        return
    helper = os.path.join(bench.build, "bench", "bench-device")
    seconds = args.fio_seconds
    profiles = ["usb2-stick", "hdd-laptop", "raid5-4x7200", "sd-card"]
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    work = tempfile.mkdtemp(prefix="bench-device-", dir=bench.dir)
    try:
        for profile in profiles:
            log("row 16: {} through nbdkit, nbdfuse and a loop device, fio {} s a figure".format(
                profile, seconds))
            holder = subprocess.Popen([helper, profile, "1G", work], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, text=True, env=bench.env)
            try:
                promised = json.loads(holder.stdout.readline())
                device = promised["device"]
                checks = [("sequential write", "write", "1M", 4, promised["write"], 0, "MB/s"),
                          ("sequential read", "read", "1M", 4, promised["read"], 0, "MB/s"),
                          ("random 4 KiB read", "randread", "4k", 1, promised["random_read"], 1, "ms")]
                if promised["random_write"] is not None:
                    checks.append(("random 4 KiB write", "randwrite", "4k", 1,
                                   promised["random_write"], 1, "ms"))
                for what, rw, block, depth, goal, index, unit in checks:
                    measured = fio_figure(device, rw, block, depth, seconds)[index]
                    scale = 1e6 if unit == "MB/s" else 1e-3
                    ratio = measured / goal
                    bench.add("16" + next(letters), "{} {}".format(profile, what),
                              "{:.2f} {}".format(measured / scale, unit),
                              "profile {:.2f} {}".format(goal / scale, unit), ratio,
                              "0.85–1.15", abs(ratio - 1) <= 0.15, "fio {} s".format(seconds))
            finally:
                holder.stdin.close()
                holder.wait(timeout=120)
    finally:
        shutil.rmtree(work, ignore_errors=True)


# Each run's size: (default, --quick, --smoke). --smoke is the smallest run
# that still gives each row its figures: the test run's smoke test (issue 30),
# which proves that every row works and judges none of its figures.
SIZES = {
    "cpu_seconds": (60, 30, 2),
    "cpu_warm_seconds": (5, 5, 1),
    "write_mib": (2048, 1024, 32),
    "copy_mib": (512, 256, 16),
    "copy_seconds": (4, 4, 1),
    "copies": (5, 5, 2),
    "load_mib": (4096, 2048, 64),
    "fsync_samples": (20, 10, 3),
    "lateness_seconds": (10, 5, 1),
    "read_mib": (1024, 512, 16),
    "read_seconds": (10, 10, 1),
    "random_mib": (1024, 512, 16),
    "random_seconds": (10, 10, 1),
    "report_hours": (24, 24, 1),
    "kernel_events_seconds": (20, 10, 2),
    "attribution_mib": (3072, 1024, 32),
    "fio_seconds": (10, 5, 1),
}


def set_sizes(args):
    """args.<name> for every entry of SIZES, by mode; --smoke also runs no
    warm-up and does not settle (see SETTLE_LIMIT_S)."""
    global SETTLE_LIMIT_S
    mode = 2 if args.smoke else 1 if args.quick else 0
    for name, sizes in SIZES.items():
        setattr(args, name, sizes[mode])
    args.warm_up = not args.smoke
    if args.smoke:
        SETTLE_LIMIT_S = 0


def run_row(bench, rows, key):
    """Runs row key; returns None, or why it failed (also put in the table)."""
    try:
        rows[key]()
        return None
    except Exception as e:  # noqa: BLE001
        # One broken row must not cost the others, whatever broke it (a
        # TypeError once emptied the whole table): say so in the table, with
        # the traceback on stderr to find the bug.
        log("row {} failed:\n{}".format(key, traceback.format_exc()))
        error = "{}: {}".format(type(e).__name__, str(e)[:300])
        bench.add(key, "(failed)", "-", "-", None, "-", None, error)
        return error


def has_number(figure):
    """Whether a table figure holds a number ("12.3 ms"; not "-", "nan ms")."""
    return re.search(r"\d", figure) is not None and \
        re.search(r"\bnan\b", figure, re.IGNORECASE) is None


def tap_figures(key, entry):
    """One table entry as "5b: figure | reference", as in the table; the
    sub-row's name only where it differs from the row's."""
    text = entry["figure"]
    if entry["reference"] != "-":
        text += " | " + entry["reference"]
    return text if str(entry["row"]) == key else "{}: {}".format(entry["row"], text)


def tap_line(number, key, entries, error):
    """The TAP line of one row (--tap): its figures, its skip reason, or why
    it failed; a row that added nothing, or no figure with a number in it,
    gave nothing and fails."""
    head = "{} - row {}".format(number, key)
    if error is not None:
        return "not ok {}: {}".format(head, error)
    if not entries:
        return "not ok {}: no figures".format(head)
    missing = [e["skipped"] for e in entries if e.get("missing_tool")]
    if missing:
        return "not ok {}: cannot run: {}".format(head, "; ".join(missing))
    if all(e.get("skipped") for e in entries):
        return "ok {} # SKIP {}".format(head, entries[0]["skipped"])
    shown = [e for e in entries if not e.get("skipped")]
    figures = "; ".join(tap_figures(key, e) for e in shown)
    # One sub-row without a number (too few samples in a tiny run) is a
    # figure not worth judging; none at all is a row that gave nothing.
    if not any(has_number(e["figure"]) for e in shown):
        return "not ok {}: no figures: {}".format(head, figures)
    return "ok {}: {}".format(head, figures)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build-dir", required=True)
    parser.add_argument("--dir", help="target directory for the disk rows "
                        "(default: ~/.cache/resprobe-bench, the file system of your home)")
    parser.add_argument("--repeat", type=int, help="pairs per row (default 5, 1 with --smoke)")
    parser.add_argument("--quick", action="store_true",
                        help="30 s instead of 60 s for row 5 and smaller disk runs")
    parser.add_argument("--smoke", action="store_true",
                        help="every row at its smallest size, no warm-up, no settling: "
                        "whether each row works, not its figures (a minute or two)")
    parser.add_argument("--tap", action="store_true",
                        help="a TAP line per row on standard output, the table on "
                        "standard error (meson test)")
    parser.add_argument("--rows", default="1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17")
    parser.add_argument("--json", help="also write the rows to this file")
    args = parser.parse_args()
    if args.repeat is None:
        args.repeat = 1 if args.smoke else 5
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    set_sizes(args)

    bench = Bench(args)
    rows = {
        "1": bench.row1_writer, "2": bench.row2_copy, "3": bench.row3_fsync,
        "4": bench.row4_lateness, "5": bench.row5_cpu, "6": bench.row6_plot,
        "7": bench.row7_rss, "8": bench.row8_first_frame, "9": bench.row9_compare,
        "10": bench.row10_readers, "11": bench.row11_random_writer,
        "12": bench.row12_long_report, "13": bench.row13_pdf_notes,
        "14": lambda: row14_kernel_events(bench),
        "15": bench.row15_attribution,
        "16": lambda: row16_devices(bench),
        "17": lambda: row17_monitor(bench),
    }
    previous = signal.signal(signal.SIGTERM, lambda *a: sys.exit(143))
    keys = [key.strip() for key in args.rows.split(",")]
    failed = []
    if args.tap:
        print("1..{}".format(len(keys)), flush=True)
    try:
        for number, key in enumerate(keys, 1):
            first = len(bench.rows)
            start = time.monotonic()
            error = run_row(bench, rows, key)
            # What each row costs, to keep --smoke within its minute or two.
            log("row {} took {:.1f} s".format(key, time.monotonic() - start))
            if error is not None:
                failed.append(key)
            if args.tap:
                print(tap_line(number, key, bench.rows[first:], error), flush=True)
    finally:
        signal.signal(signal.SIGTERM, previous)
        bench.close()
        # With --tap, standard output is the TAP stream's.
        with contextlib.redirect_stdout(sys.stderr if args.tap else sys.stdout):
            bench.print_table()
        if args.json:
            with open(args.json, "w") as f:
                json.dump(bench.rows, f, indent=2)
    # A failed row fails the run (meson test --benchmark), so it is not missed.
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
