#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""fsync-unlinked.py: what an unlinked file alone costs fsync under dd (row 3's gap).

The engine's fsync probe writes to an unlinked file (O_TMPFILE), because
The safety rules (docs/ARCHITECTURE.md) want nothing left behind by a crash or kill -9; the original
fsync-tester writes to a named one. This runs the same reference tester both
ways, side by side under one dd loop (as row 3 of bench.py does), six rounds
of 15 fsyncs, and prints per-round medians and the pooled ratio unlinked/named.

Usage: fsync-unlinked.py BUILD_DIR/bench/fsync-tester [DIR]
"""

import os
import re
import statistics
import subprocess
import sys
import time

ROUNDS = 6
FSYNCS = "15"


def dd(load_file):
    return subprocess.Popen(["dd", "if=/dev/zero", "of=" + load_file, "bs=1M", "count=4096",
                             "conv=notrunc"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def times(output):
    return [float(x) for x in re.findall(r"fsync time: ([0-9.]+)", output)]


def main():
    tester = sys.argv[1]
    directory = sys.argv[2] if len(sys.argv) > 2 else os.path.expanduser("~/.cache/resprobe-bench")
    os.makedirs(directory, exist_ok=True)
    load_file = os.path.join(directory, "fsync-unlinked-load.tmp")
    named_file = os.path.join(directory, "fsync-unlinked-named.tmp")
    named_all, unlinked_all, ratios = [], [], []
    try:
        for r in range(ROUNDS):
            os.sync()
            time.sleep(2)
            load = dd(load_file)
            time.sleep(1)
            commands = {"named": [tester, named_file, FSYNCS],
                        "unlinked": [tester, "--tmpfile", directory, FSYNCS]}
            order = ["named", "unlinked"] if r % 2 == 0 else ["unlinked", "named"]
            procs = {}
            for name in order:
                procs[name] = subprocess.Popen(commands[name], stdout=subprocess.PIPE, text=True)
                time.sleep(0.5)
            while any(p.poll() is None for p in procs.values()):
                if load.poll() is not None:
                    load = dd(load_file)
                time.sleep(0.05)
            load.terminate()
            load.wait()
            named, unlinked = times(procs["named"].stdout.read()), times(procs["unlinked"].stdout.read())
            named_all += named
            unlinked_all += unlinked
            ratios.append(statistics.median(unlinked) / statistics.median(named))
            print("round {}: named {:.4f} s, unlinked {:.4f} s".format(
                r + 1, statistics.median(named), statistics.median(unlinked)), flush=True)
    finally:
        for path in (load_file, named_file):
            if os.path.exists(path):
                os.unlink(path)
    print("pooled medians: named {:.4f} s, unlinked {:.4f} s, ratio {:.2f}; round ratios {}".format(
        statistics.median(named_all), statistics.median(unlinked_all),
        statistics.median(unlinked_all) / statistics.median(named_all),
        " ".join("{:.2f}".format(x) for x in sorted(ratios))))


if __name__ == "__main__":
    main()
