#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Acceptance 3 of issue 20 (root, not in CI): "copying to a USB stick freezes
# the desktop", on a machine of the reporters' memory. `matrix --device
# usb2-stick` gives each cell an emulated stick (this project's nbdkit
# filter behind nbdfuse and a loop device, ext4 data=ordered on it), R6 puts
# its big buffered copy there while the fsync probe and a document save run
# on the fast file system of BASE (--probe-dir), and `--memory` pins the
# machine's memory above 4 GiB or 2 GiB for the cell, so that the kernel's
# *default* dirty thresholds are those of such a machine (a 24 GiB one's,
# about 4.7 GiB, are never reached in a minute at 8 MB/s). Then the
# remedies users are told to try, at 4 GiB: vm.dirty_bytes 64M and 256M
# (global), the stick's bdi max_ratio 1 with and without strict_limit
# (per device). One matrix per group of cells (a matrix crosses its lists),
# then one comparison of every report. The matrix puts back everything it
# changes and removes everything it creates, the pinned memory included,
# on every exit path.
# Usage: bench/usbstick.sh [BUILD_DIR] [SECONDS] [SIZE] [BASE]
#   defaults: _build 60 4G /var/tmp
# ONLY="memory dirty bdi" runs only those groups; MEMORIES (default 4G,2G)
# the memories of the first. Pins up to MemTotal - 2 GiB
# (the 2G cell): the machine needs that much available, plus 512 MiB.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-_build}
seconds=${2:-60}
size=${3:-4G}
base=${4:-/var/tmp}
cli="$PWD/$build/app/cli/resprobe-cli"
[ -x "$cli" ] || { echo "build first: $cli is missing" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop devices, mounts, sysctls, mlock)" >&2; exit 1; }

work=$(mktemp -d "$base/resprobe-usbstick-XXXXXX")
mkdir -p "$work/images" "$work/fast" "$work/reports"
trap 'rm -rf "$work/images" "$work/fast"' EXIT
echo "fast file system: $(findmnt -n -o SOURCE,FSTYPE -T "$work/fast"); reports in $work/reports"
grep -E 'MemTotal|MemAvailable' /proc/meminfo

# matrix NAME OPTION…: one group of cells, its reports in reports/NAME.
matrix() {
  local name=$1; shift
  case " ${ONLY:-$name} " in *" $name "*) ;; *) return 0 ;; esac
  echo "== $name: $*"
  "$cli" matrix --device usb2-stick --fs ext4 --journal ordered --scheduler mq-deadline \
    --scenario R6 --probe-dir "$work/fast" --size "$size" --image-size 6G \
    --duration "$seconds" --dir "$work/images" --reports "$work/reports/$name" "$@" \
    >"$work/$name.out" 2>&1
  echo "   exit $? ($(date -u +%H:%M:%S))"
}

matrix memory --memory "${MEMORIES:-4G,2G}"
matrix dirty --memory 4G --dirty-bytes 64M,256M
matrix bdi --memory 4G --bdi-max-ratio 1 --bdi-strict-limit 0,1

python3 - "$work/reports" <<'PY'
import glob, json, os, sys
GiB, MiB = 2**30, 2**20
rows = []
for path in sorted(glob.glob(os.path.join(sys.argv[1], "*", "*.json"))):
    if path.endswith("comparison.json"):
        continue
    r = json.load(open(path))
    notes, summary = r["notes"], r["summary"]
    name = os.path.basename(path)[:-5].replace("usb2-stick-ext4-ordered-mq-deadline", "")
    limit = summary.get("dirty_threshold_bytes") or {}
    print(f"{name or 'default'}: memory {int(notes.get('memory_emulated_bytes', 0)) / GiB:.0f} GiB "
          f"(pinned {int(notes.get('memory_pinned_bytes', 0)) / GiB:.2f} GiB, held {notes.get('memory_pin_held')}), "
          f"dirty threshold {limit.get('min', 0) / MiB:.0f}-{limit.get('max', 0) / MiB:.0f} MiB during the run "
          f"(unemulated {int(notes.get('dirty_threshold_unemulated_bytes', 0)) / MiB:.0f} MiB), "
          f"copied {int(notes.get('writer_bytes_total', 0)) / GiB:.2f} GiB")
    for series in ("fsync_latency", "save_latency"):
        s = summary.get(series) or {}
        print(f"   {series:14} n {s.get('n', 0):3}  p50 {s.get('p50') or 0:7.3f}  p99 {s.get('p99') or 0:7.3f}"
              f"  max {s.get('max') or 0:7.3f} s  >1 s {s.get('over_1s')}")
PY
reports=$(find "$work/reports" -name '*.json' ! -name comparison.json | sort)
[ "$(echo "$reports" | wc -l)" -ge 2 ] && "$cli" compare $reports 2>&1
