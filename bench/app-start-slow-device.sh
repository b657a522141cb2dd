#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# app-start-slow-device.sh (root; issue 19, acceptance 1, by hand): does the I/O
# scheduler change a cold program start under six sequential readers once the
# device is slow? The same pipeline the matrix's emulated devices use, built here
# by hand: nbdkit's file plugin with the rate and delay filters behind a Unix
# socket, nbdfuse presenting it as a file, a loop device with direct I/O on that
# file (so the loop device's scheduler is the one that orders the requests and
# nothing is cached below it), ext4 on the loop device.
#
# Per scheduler (bfq, mq-deadline, on the loop device): six `dd if=F of=/dev/null
# bs=1M` loops, and meanwhile N cold starts, each after `echo 3 >drop_caches`,
# timed with bash's `time` (as Valente's comm_startup_lat does: drop caches,
# start the program, time until it exits), of each PROGRAM copied with its
# libraries onto the file system and started through the copied dynamic
# loader; then the CLI's app-start probe on the same cell under its own
# seq-readers load. Idle (no readers) first, for scale. Prints one line per
# series: median, min, max, n. Timed figures: never part of CI.
#
# Usage: bench/app-start-slow-device.sh [BUILD_DIR] [STARTS] [READ_MBPS] [DELAY] [PROGRAM…]
#   defaults: _build, 5 starts, 70 (MB/s: nbdkit's rate= counts bits), 12ms,
#   the build's resprobe-first-frame and `xterm -e true` when xterm is installed.
# Environment: SCHEDULERS (default "bfq mq-deadline"), PROBE_SECONDS (the CLI run's
# duration, default 30; 0 skips it), SHELL_STARTS=0 skips the `time` series,
# PROBE_DD=SECONDS adds the probe alone (--load none) under the six dd loops.
set -u
cd "$(dirname "$0")/.."
build=${1:-_build}
starts=${2:-5}
mbps=${3:-70}
delay=${4:-12ms}
shift $(( $# < 4 ? $# : 4 ))
cli="$PWD/$build/app/cli/resprobe-cli"
first_frame="$PWD/$build/app/first-frame/resprobe-first-frame"
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop device, mount, drop_caches)" >&2; exit 1; }
for tool in nbdkit nbdfuse losetup mkfs.ext4 Xvfb python3; do
  command -v "$tool" >/dev/null || { echo "$tool missing (build-aux/install-deps.sh)" >&2; exit 1; }
done
[ -x "$first_frame" ] || { echo "build first: $first_frame is missing" >&2; exit 1; }
programs=("$@")
if [ ${#programs[@]} -eq 0 ]; then
  programs=("$first_frame")
  command -v xterm >/dev/null && programs+=("$(command -v xterm) -e /bin/true")
fi

work=$(mktemp -d /var/tmp/resprobe-slow-device-XXXXXX)
mkdir "$work/fuse" "$work/mnt"
nbdkit_pid= nbdfuse_pid= xvfb_pid= loop= loop_scheduler= readers=()
stop_readers() {
  for p in "${readers[@]}"; do kill "$p" 2>/dev/null; done
  for p in "${readers[@]}"; do wait "$p" 2>/dev/null; done
  readers=()
}
cleanup() {
  stop_readers
  [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null
  mountpoint -q "$work/mnt" && umount "$work/mnt"
  if [ -n "$loop" ]; then
    # A loop device's queue settings outlive its detach: put the scheduler back.
    [ -n "$loop_scheduler" ] && echo "$loop_scheduler" >"/sys/block/${loop#/dev/}/queue/scheduler"
    losetup -d "$loop"
  fi
  mountpoint -q "$work/fuse" && umount "$work/fuse"  # root: no fusermount3 needed
  [ -n "$nbdfuse_pid" ] && wait "$nbdfuse_pid" 2>/dev/null
  [ -n "$nbdkit_pid" ] && kill "$nbdkit_pid" 2>/dev/null && wait "$nbdkit_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

truncate -s 3G "$work/image.raw"
# rate= is in bits per second (nbdkit-rate-filter(1)); the delay is per read request.
nbdkit -f -U "$work/sock" --filter=rate --filter=delay file "$work/image.raw" \
  rate=$((mbps * 8))M delay-read="$delay" &
nbdkit_pid=$!
for _ in $(seq 100); do [ -S "$work/sock" ] && break; sleep 0.1; done
nbdfuse "$work/fuse/disk" --unix "$work/sock" &
nbdfuse_pid=$!
for _ in $(seq 100); do [ -e "$work/fuse/disk" ] && break; sleep 0.1; done
loop=$(losetup -f --show --direct-io=on "$work/fuse/disk") || exit 1
dev=${loop#/dev/}
loop_scheduler=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$dev/queue/scheduler")
echo "device: nbdkit file, rate $mbps MB/s, delay-read $delay, nbdfuse, $loop (dio $(cat "/sys/block/$dev/loop/dio")," \
     "nr_requests $(cat "/sys/block/$dev/queue/nr_requests"), read_ahead_kb $(cat "/sys/block/$dev/queue/read_ahead_kb"))"
mkfs.ext4 -q -E lazy_itable_init=0,lazy_journal_init=0 "$loop" && mount "$loop" "$work/mnt" || exit 1

# The programs and their libraries on the slow file system (as --app-start-on-target copies them).
copy_program() {  # DIR PROGRAM
  mkdir -p "$1/lib"
  cp "$2" "$1/"
  for lib in $(ldd "$2" | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\/.*ld-/ { print $1 }'); do
    cp "$lib" "$1/lib/"
  done
}
i=0
for p in "${programs[@]}"; do
  read -r -a argv <<<"$p"
  copy_program "$work/mnt/app$i" "${argv[0]}"
  i=$((i + 1))
done
for r in 1 2 3 4 5 6; do
  head -c 96M /dev/urandom >"$work/mnt/reader$r"
done
sync -f "$work/mnt"

exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp >/dev/null 2>&1 &
xvfb_pid=$!
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
export DISPLAY=":$(head -n1 "$work/display")" GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1
export GSETTINGS_BACKEND=memory LC_ALL=C.UTF-8

start_readers() {
  for r in 1 2 3 4 5 6; do
    ( while :; do dd if="$work/mnt/reader$r" of=/dev/null bs=1M 2>/dev/null; done ) &
    readers+=($!)
  done
  sleep 3
}

cold_starts() {  # LABEL: N cold starts of every program, one summary line each
  local i=0 p argv dir loader name t
  for p in "${programs[@]}"; do
    read -r -a argv <<<"$p"
    dir="$work/mnt/app$i"
    loader=$(ls "$dir"/lib/ld-linux* "$dir"/lib/ld64.so* 2>/dev/null | head -n1)
    name=$(basename "${argv[0]}")
    : >"$work/times"
    for _ in $(seq "$starts"); do
      sync
      echo 3 >/proc/sys/vm/drop_caches
      t0=$(date +%s.%N)
      "$loader" --library-path "$dir/lib" "$dir/$name" "${argv[@]:1}" >/dev/null 2>&1
      t1=$(date +%s.%N)
      echo "$t1 - $t0" | bc >>"$work/times"
      sleep 1
    done
    python3 - "$1" "$name" "$work/times" <<'PY'
import statistics, sys
v = [float(x) for x in open(sys.argv[3])]
print(f"{sys.argv[1]:>12} {sys.argv[2]:<22} time after drop_caches: median {statistics.median(v):.3f} s, "
      f"min {min(v):.3f}, max {max(v):.3f}, n {len(v)}")
PY
    i=$((i + 1))
  done
}

probe() {  # LABEL: the CLI's app-start probe under its own six readers, same cell
  rm -f "$work/report.json"
  "$cli" run --dir "$work/mnt" --report "$work/report.json" --load seq-readers --readers 6 \
    --reader-file-size 64M --probe app-start --app-start-on-target --app-start-interval 2 \
    --duration "${PROBE_SECONDS:-30}" >"$work/cli.out" 2>&1 || { echo "$1 CLI failed: $(tail -n 3 "$work/cli.out")"; return; }
  python3 - "$1" "$work/report.json" <<'PY'
import json, statistics, sys
sys.path.insert(0, "tests")
from resprobe_report import samples
r = json.load(open(sys.argv[2]))
for key in ("app_start_latency", "app_start_cached_latency"):
    v = [x for _, x in samples(r["series"][key])]
    if v:
        print(f"{sys.argv[1]:>12} probe {key:<26} median {statistics.median(v):.3f} s, min {min(v):.3f}, "
              f"max {max(v):.3f}, n {len(v)}: " + " ".join(f"{x:.2f}" for x in v))
n = r["notes"]
print(f"{sys.argv[1]:>12} probe readers {int(n['readers_bytes_total']) / float(n['readers_seconds']) / 1e6:.1f} MB/s; "
      f"stayed cached: {n.get('app_start_stayed_cached') or 'nothing'}")
PY
}

probe_dd() {  # LABEL: the CLI's app-start probe with no load of its own, under the six dd loops
  rm -f "$work/report.json"
  start_readers
  "$cli" run --dir "$work/mnt" --report "$work/report.json" --load none \
    --probe app-start --app-start-on-target --app-start-interval 2 \
    --duration "$PROBE_DD" >"$work/cli.out" 2>&1 || echo "$1 CLI failed: $(tail -n 3 "$work/cli.out")"
  stop_readers
  python3 - "$1" "$work/report.json" <<'PY'
import json, statistics, sys
sys.path.insert(0, "tests")
from resprobe_report import samples
r = json.load(open(sys.argv[2]))
v = [x for _, x in samples(r["series"]["app_start_latency"])]
if v:
    print(f"{sys.argv[1]:>12} probe under dd readers: cold median {statistics.median(v):.3f} s, n {len(v)}: "
          + " ".join(f"{x:.2f}" for x in v))
PY
}

echo "$(date -u +%FT%TZ) $(uptime)"
echo "$(basename "$loop_scheduler") was the loop device's scheduler; vda: $(cat /sys/block/vda/queue/scheduler 2>/dev/null)"
echo "$loop_scheduler" >"/sys/block/$dev/queue/scheduler"
[ "${SHELL_STARTS:-1}" != 0 ] && cold_starts idle
for scheduler in ${SCHEDULERS:-bfq mq-deadline}; do
  echo "$scheduler" >"/sys/block/$dev/queue/scheduler" || { echo "no $scheduler"; continue; }
  if [ "${SHELL_STARTS:-1}" != 0 ]; then
    start_readers
    cold_starts "$scheduler"
    stop_readers
  fi
  [ "${PROBE_SECONDS:-30}" != 0 ] && probe "$scheduler"
  [ "${PROBE_DD:-0}" != 0 ] && probe_dd "$scheduler"
done
echo "$(date -u +%FT%TZ) $(uptime)"
