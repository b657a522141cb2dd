#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the project in its own build directory and prints the performance table
# (issue 8). Options go to bench.py: --quick (30 s CPU rows, smaller disk runs),
# --smoke (every row once at its smallest size, about a minute; the test run's
# bench-smoke), --repeat N (pairs per row, default 5), --rows 1,6,…, --dir DIR
# (target of the disk rows; default ~/.cache/resprobe-bench), --json FILE.
# A full run takes about 15 minutes and writes tens of GiB to the target's disk.
set -euo pipefail

source_dir="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build_dir="${RESPROBE_BENCH_BUILD:-$source_dir/_build_bench}"

"$source_dir/build-aux/install-deps.sh"
if [ ! -f "$build_dir/build.ninja" ]; then
  meson setup "$build_dir" "$source_dir" --buildtype=debugoptimized
fi
ninja -C "$build_dir"
exec python3 "$source_dir/bench/bench.py" --build-dir "$build_dir" "$@"
