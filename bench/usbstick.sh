#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Acceptance 3 of issue 20 (root, not in CI): "copying to a USB stick freezes
# the desktop". An emulated slow stick, built by hand (nbdkit's file plugin
# behind its rate and delay filters, served as a file by nbdfuse, a loop
# device on that file, ext4 on the loop device), takes R6's big buffered copy
# while the fsync probe and a document save run on the fast file system of
# BASE (the machine's own disk). The same run under four settings, one after
# the other: the kernel's default dirty settings, vm.dirty_bytes (the global
# remedy), the stick's bdi max_ratio, and max_ratio with strict_limit (the
# per-device remedies). Prints each run's fsync and save latencies, their
# stalls of 1 s or more, and the comparison. Everything it changes (sysctls,
# bdi limits) is put back, and everything it creates (mount, loop device,
# FUSE mount, nbdkit, image) removed, on every exit path.
# Usage: bench/usbstick.sh [BUILD_DIR] [SECONDS] [SIZE] [BASE]
#   defaults: _build 60 8G /var/tmp
# The stick: RATE (bits/s, nbdkit's unit; default 64M, 8 MB/s, a cheap USB 2
# stick's sequential write) and DELAY_WRITE (default 2ms per write request);
# ONLY="NAME …" runs only those of default, dirty-bytes-64M, max-ratio-1 and
# max-ratio-1-strict.
# Stopping a run with the default settings takes minutes: closing the writer's
# file waits for the writeback of its inode (inode_wait_for_writeback()), which
# drains gigabytes at the stick's speed, as `cp` to a real stick does.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-_build}
seconds=${2:-60}
size=${3:-8G}
base=${4:-/var/tmp}
rate=${RATE:-64M}
delay_write=${DELAY_WRITE:-2ms}
cli="$PWD/$build/app/cli/resprobe-cli"
[ -x "$cli" ] || { echo "build first: $cli is missing" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || { echo "needs root (loop device, mounts, sysctls)" >&2; exit 1; }
for tool in nbdkit nbdfuse losetup mkfs.ext4; do
  command -v "$tool" >/dev/null || { echo "$tool missing: build-aux/install-deps.sh installs it" >&2; exit 1; }
done

work=$(mktemp -d "$base/resprobe-usbstick-XXXXXX")
mkdir -p "$work/fuse" "$work/stick" "$work/home" "$work/reports"
vm=/proc/sys/vm
saved_dirty="$(cat $vm/dirty_ratio) $(cat $vm/dirty_bytes) $(cat $vm/dirty_background_ratio) $(cat $vm/dirty_background_bytes)"
loop=""; bdi=""; saved_bdi=""; fuse_pid=""

restore_dirty() {
  set -- $saved_dirty
  if [ "$2" != 0 ]; then echo "$2" >$vm/dirty_bytes; else echo "$1" >$vm/dirty_ratio; fi
  if [ "$4" != 0 ]; then echo "$4" >$vm/dirty_background_bytes; else echo "$3" >$vm/dirty_background_ratio; fi
}
restore_bdi() {
  [ -n "$saved_bdi" ] || return 0
  set -- $saved_bdi
  echo "$2" >"$bdi/strict_limit"
  echo "$1" >"$bdi/max_ratio_fine"
}
cleanup() {
  restore_dirty
  restore_bdi
  mountpoint -q "$work/stick" && umount "$work/stick"
  [ -n "$loop" ] && losetup -d "$loop"
  mountpoint -q "$work/fuse" && umount "$work/fuse"
  [ -n "$fuse_pid" ] && wait "$fuse_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The stick: a 16 GiB sparse image with ext4 made on it directly (fast), then
# served slowly.
truncate -s 16G "$work/backing.img"
mkfs.ext4 -q -F "$work/backing.img"
nbdfuse "$work/fuse/stick.img" [ nbdkit --exit-with-parent file "$work/backing.img" \
  --filter=rate --filter=delay rate="$rate" delay-write="$delay_write" ] &
fuse_pid=$!
for _ in $(seq 100); do [ -e "$work/fuse/stick.img" ] && break; sleep 0.1; done
loop=$(losetup -f --show "$work/fuse/stick.img") || exit 1
mount "$loop" "$work/stick" || exit 1
bdi=/sys/class/bdi/$(basename "$(readlink "/sys/block/$(basename "$loop")/bdi")")
saved_bdi="$(cat "$bdi/max_ratio_fine") $(cat "$bdi/strict_limit")"
echo "stick: $loop ($bdi) on nbdkit file + rate=$rate + delay-write=$delay_write through nbdfuse, ext4"
echo "fast file system: $(findmnt -n -o SOURCE,FSTYPE -T "$work/home")"

run() {  # NAME: one R6 run, then the stick emptied of its dirty pages
  case " ${ONLY:-$1} " in *" $1 "*) ;; *) return 0 ;; esac
  echo "== $1: dirty_ratio $(cat $vm/dirty_ratio) dirty_bytes $(cat $vm/dirty_bytes)" \
       "bdi max_ratio $(cat "$bdi/max_ratio") strict_limit $(cat "$bdi/strict_limit")"
  "$cli" run --scenario R6 --dir "$work/home" --load-dir "$work/stick" --size "$size" \
    --duration "$seconds" --report "$work/reports/$1.json" --force >"$work/$1.out" 2>&1
  echo "   exit $?"
  # The writer's file is anonymous: its dirty pages go with it; the journal is synced.
  sync -f "$work/stick"
}

run default
echo $((64 * 1024 * 1024)) >$vm/dirty_bytes
echo $((32 * 1024 * 1024)) >$vm/dirty_background_bytes
run dirty-bytes-64M
restore_dirty
echo 1 >"$bdi/max_ratio"
run max-ratio-1
echo 1 >"$bdi/strict_limit"
run max-ratio-1-strict
restore_bdi

python3 - "$work/reports" <<'PY'
import json, os, sys
d = sys.argv[1]
print(f"{'settings':22} {'series':14} {'n':>4} {'p50 s':>7} {'p99 s':>7} {'max s':>7} {'>=1 s':>6} {'written':>9}")
for name in ["default", "dirty-bytes-64M", "max-ratio-1", "max-ratio-1-strict"]:
    path = os.path.join(d, name + ".json")
    if not os.path.exists(path):
        continue
    r = json.load(open(path))
    written = int(r["notes"].get("writer_bytes_total", 0)) / 2**30
    for series in ["fsync_latency", "save_latency"]:
        s = r["summary"].get(series) or {}
        big = s.get("over_1s", "?")
        print(f"{name:22} {series:14} {s.get('n', 0):>4} {s.get('p50', 0):7.3f} {s.get('p99', 0):7.3f} "
              f"{s.get('max', 0):7.3f} {big!s:>6} {written:8.2f}G")
PY
reports=$(ls "$work"/reports/*.json)
[ "$(echo "$reports" | wc -l)" -ge 2 ] && "$cli" compare $reports 2>&1
