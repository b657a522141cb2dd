#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# resprobe-cli matrix --device (root only; issue 20, acceptance 4): a 2-cell
# device matrix (native and an emulated device: nbdkit with this project's
# filter, nbdfuse, a loop device on its file) ends with no nbdkit or nbdfuse
# process, FUSE mount, other mount, loop device or file left; so does a
# matrix stopped by SIGTERM in the middle of an emulated cell; what a matrix
# killed with SIGKILL left, the next matrix in the same --dir removes.
set -u
# root_tap_begin, ok, fail
. "$(dirname "$0")/lib-root-tap.sh"
root_tap_begin device-matrix "create loop devices, FUSE mounts and file systems" \
  "e2fsprogs, util-linux, nbdkit, libnbd-bin, python3" mkfs.ext3 losetup findmnt nbdkit nbdfuse python3
. "$(dirname "$0")/loop-queue.sh"

# Processes whose command line names $work: nbdkit, nbdfuse (and a matrix).
our_processes() {
  local p
  for p in /proc/[0-9]*; do
    [ "${p#/proc/}" = "$$" ] && continue
    tr '\0' ' ' <"$p/cmdline" 2>/dev/null | grep -qF "$work/images" && echo "${p#/proc/}"
  done
}

pid=""
own_loop=""
queue_before=""
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  findmnt -rn -o TARGET | grep -F "${work:?}/" | grep -v '/disk$' | sort -r | while read -r m; do umount "$m"; done
  losetup -a | grep -F "${work:?}/" | cut -d: -f1 | while read -r d; do losetup -d "$d"; done
  findmnt -rn -o TARGET | grep -F "${work:?}/" | sort -r | while read -r m; do umount "$m"; done
  for p in $(our_processes); do kill -KILL "$p" 2>/dev/null; done
  # Our own loop device: detached above; its settings as found, then gone.
  if [ -n "$own_loop" ]; then
    losetup -d "/dev/loop$own_loop" 2>/dev/null
    loop_control remove "$own_loop"
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

leftovers() {
  local what=""
  findmnt -rn -o TARGET | grep -qF "$work/images" && what="$what mounts($(findmnt -rn -o TARGET,FSTYPE | grep -F "$work/images" | tr '\n' ' '))"
  losetup -a | grep -qF "$work/images" && what="$what loop-devices"
  [ -n "$(our_processes)" ] && what="$what processes($(for p in $(our_processes); do tr '\0' ' ' <"/proc/$p/cmdline"; done))"
  [ -n "$(ls -A "$work/images")" ] && what="$what files($(ls -A "$work/images"))"
  echo "$what"
}

# In the middle of an emulated cell: the matrix has files open on the file
# system mounted inside the device's run directory.
running_device_cell() {
  local fd
  for fd in /proc/"$1"/fd/*; do
    case "$(readlink "$fd" 2>/dev/null)" in "$work"/images/resprobe-device-*/resprobe-ext3-*/*) return 0 ;; esac
  done
  return 1
}
wait_for_device_cell() {
  local deadline=$(( $(date +%s) + 100 ))
  until running_device_cell "$pid"; do
    if [ "$(date +%s)" -ge "$deadline" ] || ! kill -0 "$pid" 2>/dev/null; then
      return 1
    fi
    sleep 0.1
  done
}

mkdir -p "$work/images"
# Small image and writer, short cells: what is checked is the set-up and
# the tear-down, not the figures (bench/ measures those).
small=(--fs ext3 --journal ordered --scheduler none --size 64M --image-size 1300M)
# Fast enough that the teardown's writeback of the cell's dirty pages is
# quick, slow enough to be a device of its own.
device='custom:write=64M,read=64M,latency=1ms,flush=20ms'
"$cli" matrix --device "native,$device" "${small[@]}" --duration 3 \
  --dir "$work/images" --reports "$work/reports" >"$work/out" 2>&1
rc=$?
if [ "$rc" -eq 0 ]; then ok "2-cell device matrix exit 0"; else fail "matrix exit $rc: $(tail -20 "$work/out")"; fi
left=$(leftovers)
if [ -z "$left" ]; then ok "nothing left behind"; else fail "left behind:$left"; fi
if python3 - "$work/reports" <<'PY'
import json, os, sys
d = sys.argv[1]
comparison = json.load(open(os.path.join(d, "comparison.json")))
keys = [g["key"] for g in comparison["groups"]]
assert keys == ["native-ext3-ordered-none",
                "custom-write64M-read64M-latency1ms-flush20ms-ext3-ordered-none"], keys
native, emulated = (json.load(open(os.path.join(d, g["reports"][0]))) for g in comparison["groups"])
assert native["system"]["backing_fs_type"] != "fuse", native["system"]["backing_fs_type"]
# The emulated cell's loop device sits on nbdfuse's file, with direct I/O.
assert emulated["system"]["backing_fs_type"] == "fuse", emulated["system"]["backing_fs_type"]
assert "/disk/device" in emulated["system"]["loop_backing_file"], emulated["system"]["loop_backing_file"]
assert emulated["configuration"]["label"].startswith("custom-"), emulated["configuration"]
for r in (native, emulated):
    assert r["summary"]["fsync_latency"]["n"] >= 1
PY
then ok "reports name the device cell and its loop device sits on the FUSE file"; else fail "reports"; fi

# Issue 20: R6 on an emulated stick, probes on the build's file system. The
# stick (1 MB/s) has tens of seconds of the copy's dirty pages to write when
# the 8 s cell stops (data=ordered: the journal commit at 5 s starts their
# writeback, and closing the file waits for it); --drain-limit 2 ends that
# with the device at full speed, and the cell says how long it took to end
# and why. The disk sampler watched both devices: the stick's figures are
# in the report, named.
mkdir -p "$work/fast"
"$cli" matrix --device custom:write=1M,read=20M,latency=1ms --fs ext3 --journal ordered --scheduler none \
  --scenario R6 --probe-dir "$work/fast" --size 64M --image-size 1300M --duration 8 --drain-limit 2 \
  --dir "$work/images" --reports "$work/reports-r6" >"$work/out-r6" 2>&1
rc=$?
left=$(leftovers)
if [ "$rc" -eq 0 ] && [ -z "$left" ]; then ok "R6 on an emulated stick: exit 0, nothing left"
else fail "R6 on an emulated stick: exit $rc, left:$left $(tail -5 "$work/out-r6")"; fi
# Whether the cell drained is the machine's: a program beside it that
# syncs (stress-ng's io stressor calls sync() in a loop) writes the stick's
# pages during the cell, and the ending is then shorter than --drain-limit.
# What the cell says must match what its report notes, either way.
drained=$(python3 -c 'import glob, json, sys; (p,) = glob.glob(sys.argv[1] + "/custom-*.json"); print(json.load(open(p))["notes"]["ending_drained"])' "$work/reports-r6" 2>/dev/null)
if [ "$drained" = true ]; then
  if grep -q "emulated device now runs at full speed" "$work/out-r6" && grep -q "ending took" "$work/out-r6"
  then ok "R6: the cell says it drained at --drain-limit and how long ending took: $(grep "ending took" "$work/out-r6")"
  else fail "R6: drained, but no ending lines: $(head -20 "$work/out-r6")"; fi
elif [ "$drained" = false ]; then
  if ! grep -q "emulated device now runs at full speed" "$work/out-r6"
  then ok "R6 drain # SKIP the cell ended before --drain-limit (nothing was left to drain: the machine wrote the stick's pages meanwhile), and says no drain"
  else fail "R6: not drained by its notes, but the cell says it drained: $(grep "full speed" "$work/out-r6")"; fi
else
  fail "R6: no report with the note ending_drained: $(tail -5 "$work/out-r6")"
fi
if python3 - "$work/reports-r6" <<'PY'
import glob, json, os, sys
(path,) = glob.glob(os.path.join(sys.argv[1], "custom-*.json"))
r = json.load(open(path))
notes = r["notes"]
assert notes["ending_drained"] in ("true", "false"), notes.get("ending_drained")
assert float(notes["ending_seconds"]) >= float(notes["close_seconds"]) > 0, notes
# The loads' device is the cell's loop device, not the probes'.
assert notes["load_disk_device"].startswith("loop"), notes.get("load_disk_device")
assert notes["load_disk_device"] != notes.get("disk_device"), notes
assert int(notes["load_disk_write_bytes_total"]) > 0, notes
series = r["series"]
names = set(series) if isinstance(series, dict) else {s["name"] for s in series}
for name in ("load_disk_utilization", "load_disk_await", "load_disk_write_throughput"):
    assert name in names, (name, sorted(names))
PY
then ok "R6: notes ending_seconds/close_seconds/ending_drained; the stick's device figures (load_disk_*) beside the probes'"
else fail "R6: report notes or load device series missing"; fi

# SIGTERM in the middle of an emulated cell: everything is undone.
"$cli" matrix --device "$device" "${small[@]}" --duration 60 \
  --dir "$work/images" --reports "$work/reports-term" >"$work/out-term" 2>&1 &
pid=$!
if wait_for_device_cell; then
  kill -TERM "$pid"
  wait "$pid"; rc=$?
  pid=""
  left=$(leftovers)
  if [ "$rc" -eq 3 ] && [ -z "$left" ]; then ok "SIGTERM mid-cell: cleaned up (exit 3, stopped)"
  else fail "SIGTERM: exit $rc, left:$left $(tail -5 "$work/out-term")"; fi
else
  fail "SIGTERM: no emulated cell running after 100 s: $(tail -5 "$work/out-term")"
fi

# SIGKILL in the middle of an emulated cell leaves the device; the next
# matrix in that directory finds it by name and removes it, and puts back
# the queue settings the killed one changed on its loop device (a loop
# device of our own, with settings no default has: they outlive the detach).
own_loop=$(loop_control add) || own_loop=""
if [ -n "$own_loop" ]; then
  queue_set_odd "loop$own_loop"
  queue_before=$(queue_settings "loop$own_loop")
  kill_options=(--loop-device "/dev/loop$own_loop" --scheduler "$(cell_scheduler "loop$own_loop")")
  has_wbt "loop$own_loop" && kill_options+=(--wbt 0)
else
  fail "no loop device of our own (loop-control): the queue settings after SIGKILL are not checked"
  kill_options=()
fi
"$cli" matrix --device "$device" "${small[@]}" "${kill_options[@]}" --duration 60 \
  --dir "$work/images" --reports "$work/reports-kill" >"$work/out-kill" 2>&1 &
pid=$!
if wait_for_device_cell; then
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  pid=""
  left=$(leftovers)
  if [[ "$left" == *mounts* ]]; then ok "SIGKILL mid-cell leaves the device:$left"
  else fail "SIGKILL left only:$left"; fi
  "$cli" matrix "${small[@]}" --duration 1 --dir "$work/images" --reports "$work/reports-next" >"$work/out-next" 2>&1
  rc=$?
  left=$(leftovers)
  if [ "$rc" -eq 0 ] && [ -z "$left" ] && grep -q "killed run" "$work/out-next"; then
    ok "the next matrix removed what the killed one left: $(grep -A3 "killed run" "$work/out-next" | tr "\n" " ")"
  else fail "after SIGKILL: next matrix exit $rc, left:$left $(tail -5 "$work/out-next")"; fi
  if [ -n "$own_loop" ]; then
    queue_after=$(queue_settings "loop$own_loop")
    if [ "$queue_after" = "$queue_before" ]; then ok "after SIGKILL: loop$own_loop's queue settings put back ($queue_after)"
    else fail "after SIGKILL: loop$own_loop's queue settings $queue_after, were $queue_before"; fi
  fi
else
  fail "SIGKILL: no emulated cell running after 100 s: $(tail -5 "$work/out-kill")"
fi

echo "1..$n"
[ "$failures" -eq 0 ]
