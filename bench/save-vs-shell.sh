#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# save-vs-shell.sh (root; issue 19, acceptance 2, several runs): runs
# tests/test-save-r1.sh RUNS times (R1 on a loop-mounted ext3 data=ordered, the
# save probe and a shell loop of `dd conv=fsync` + `mv` + `sync -f` saving side by
# side in the same file system for 25 s) and prints each run's worst and median
# saves and their ratio, then the median ratio. A timed figure: never part of CI.
# Usage: bench/save-vs-shell.sh [BUILD_DIR] [RUNS]
set -u
cd "$(dirname "$0")/.."
build=${1:-_build}
runs=${2:-5}
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop device, mount)" >&2; exit 1; }
export RESPROBE_CLI="$PWD/$build/app/cli/resprobe-cli" PYTHONPATH="$PWD/tests" LC_ALL=C.UTF-8 \
       GSETTINGS_BACKEND=memory
[ -x "$RESPROBE_CLI" ] || { echo "build first: $RESPROBE_CLI is missing" >&2; exit 1; }
ratios=()
for i in $(seq "$runs"); do
  line=$(bash tests/test-save-r1.sh | grep -o 'worst save: .*' | sed 's/)$//')
  echo "run $i, $(date -u +%TZ), load $(cut -d' ' -f1 /proc/loadavg): ${line:-no figures (see tests/test-save-r1.sh)}"
  r=$(sed -n 's/.*ratio \([0-9.]*\).*/\1/p' <<<"$line")
  [ -n "$r" ] && ratios+=("$r")
done
[ ${#ratios[@]} -gt 0 ] && printf '%s\n' "${ratios[@]}" | sort -n |
  awk '{ v[NR] = $1 } END { printf "ratio of worst saves over %d runs: median %.2f, min %.2f, max %.2f (goal 0.80-1.20)\n", NR, (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR] }'
