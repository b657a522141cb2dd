#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The USB-stick scenario of issue 20 (root only): `matrix --probe-dir` puts the
# load (R6's big copy) on the cell's loop-mounted file system, the "stick", and
# the probes (fsync, the document save) on another, fast one; the per-device
# dirty limits of the cell's bdi (--bdi-max-ratio, --bdi-strict-limit,
# --bdi-max-bytes) hold during the cell, are in the report, and are put back
# after a normal end and after SIGTERM mid-cell. The loop device is one this
# test creates (LOOP_CTL_ADD) and gives a max_ratio no kernel default has, so
# that a matrix that put back nothing, or the default, fails; the device (and
# with it its bdi) is removed on every exit path.
set -u
# root_tap_begin, root_tap_on_exit, root_tap_cleanup, root_tap_own_loop_device, ok, fail
. "$(dirname "$0")/lib-root-tap.sh"
root_tap_begin usbstick "create loop devices, mount file systems and change bdi limits" \
  "e2fsprogs, util-linux, python3" mkfs.ext4 losetup python3 findmnt

# loop_control, bdi_dir, bdi_limits
. "$(dirname "$0")/loop-queue.sh"

# Removing the device removes its bdi, and with it what this test set there.
root_tap_on_exit root_tap_cleanup
root_tap_own_loop_device 400
bdi=$(bdi_dir "$loop")
if [ ! -w "$bdi/max_ratio" ] || [ ! -w "$bdi/strict_limit" ] || [ ! -w "$bdi/max_bytes" ]; then
  echo "not ok 1 - $bdi has no writable max_ratio, strict_limit and max_bytes (Linux 6.2 or later needed)"
  echo "1..1"; exit 1
fi
# A max_ratio no kernel default has (100), and strict_limit off.
echo 77 >"$bdi/max_ratio"
echo 0 >"$bdi/strict_limit"
before=$(bdi_limits "$bdi")
echo "# $loop ($bdi) before: $before"

# The fast file system of the probes: the one $work is on, not the cell's.
mkdir -p "$work/images" "$work/probes"

# fd_in PID PREFIX: the process has a file open whose path starts with PREFIX
# (anonymous files read "DIR/#123 (deleted)").
fd_in() {
  local fd
  for fd in /proc/"$1"/fd/*; do
    case "$(readlink "$fd" 2>/dev/null)" in "$2"*) return 0 ;; esac
  done
  return 1
}
# wait_cell PID: until a cell's run has its load's file open on the cell's file
# system and its probes' in $work/probes; a hang guard only, no timing.
wait_cell() {
  local deadline=$(( $(date +%s) + 150 ))
  until fd_in "$1" "$work/images/resprobe-" && fd_in "$1" "$work/probes/"; do
    if [ "$(date +%s)" -ge "$deadline" ] || ! kill -0 "$1" 2>/dev/null; then return 1; fi
    sleep 0.1
  done
}

"$cli" matrix --fs ext4 --journal ordered --scheduler none --scenario R6 \
  --probe-dir "$work/probes" --bdi-max-ratio 2 --bdi-strict-limit 1 \
  --size 128M --image-size 1600M --duration 4 --loop-device "/dev/$loop" \
  --dir "$work/images" --reports "$work/reports" >"$work/out" 2>&1 &
pid=$!
if wait_cell "$pid"; then
  mid=$(bdi_limits "$bdi")
  case "$mid" in
    "max_ratio=2 "*"strict_limit=1") ok "mid-cell: the load's file on the cell, the probes' in --probe-dir, $bdi $mid" ;;
    *) fail "mid-cell: $bdi $mid, not max_ratio 2 and strict_limit 1" ;;
  esac
else
  fail "no cell with its files on both file systems: $(tail -5 "$work/out")"
fi
wait "$pid"; rc=$?
pid=""
if [ "$rc" -eq 0 ]; then ok "matrix --probe-dir --bdi-max-ratio 2 --bdi-strict-limit 1: exit 0"
else fail "matrix exit $rc: $(tail -20 "$work/out")"; fi

if python3 - "$work/reports" "$work/probes" "$work/images" "$loop" "$(basename "$bdi")" <<'PY'
import json, os, sys
d, probes, images, loop, bdi = sys.argv[1:6]
comparison = json.load(open(os.path.join(d, "comparison.json")))
[group] = comparison["groups"]
assert group["key"] == "ext4-ordered-none-maxratio2-strict1", group
r = json.load(open(os.path.join(d, group["reports"][0])))
sc, s = r["scenario"], r["system"]
# where each part ran
assert sc["name"] == "R6" and sc["directory"] == probes, sc
assert sc["load_directory"].startswith(images + "/resprobe-ext4-"), sc
assert s["target_directory"] == probes and s["whole_disk"] != loop, s
assert s["load_directory"] == sc["load_directory"] and s["load_fs_type"] == "ext4", s
assert (s["load_source_device"], s["load_whole_disk"]) == ("/dev/" + loop, loop), s
# the cell's limits, read while the cell ran
assert (s["bdi"], s["bdi_max_ratio"], s["bdi_strict_limit"]) == (bdi, "2", "1"), s
assert int(s["bdi_max_bytes"]) > 0, s
assert loop + " bdi max_ratio 2 (default 100)" in s["settings_not_default"], s["settings_not_default"]
# both kinds of part measured
notes = r["notes"]
assert r["summary"]["fsync_latency"]["n"] >= 1 and r["summary"]["save_latency"]["n"] >= 1, r["summary"].keys()
assert int(notes["writer_bytes_total"]) > 0, notes.get("writer_bytes_total")
PY
then ok "the report: R6's load on the cell's ext4 ($loop), its probes in --probe-dir, bdi max_ratio 2 and strict_limit 1"
else fail "report"; fi

after=$(bdi_limits "$bdi")
left=$(findmnt -rn -o TARGET | grep -F "${work:?}/"; losetup -a | grep -F "${work:?}/")
if [ "$after" = "$before" ] && [ -z "$left" ]; then ok "after the matrix: $bdi $after, as before; nothing mounted"
else fail "after the matrix: $bdi $after (before: $before); left: $left"; fi

# SIGTERM in the middle of a cell, once its limits are in force.
"$cli" matrix --fs ext4 --journal ordered --scheduler none --scenario R6 \
  --probe-dir "$work/probes" --bdi-max-bytes 16M --bdi-strict-limit 1 --repeat 2 \
  --size 128M --image-size 1600M --duration 30 --loop-device "/dev/$loop" \
  --dir "$work/images" --reports "$work/reports-term" >"$work/out-term" 2>&1 &
pid=$!
if wait_cell "$pid"; then
  mid=$(bdi_limits "$bdi")
  kill -TERM "$pid"
  wait "$pid"; rc=$?
  pid=""
  after=$(bdi_limits "$bdi")
  left=$(findmnt -rn -o TARGET | grep -F "${work:?}/"; losetup -a | grep -F "${work:?}/")
  case "$mid" in *"strict_limit=1") strict=1 ;; *) strict=0 ;; esac
  if [ "$rc" -eq 3 ] && [ "$strict" -eq 1 ] && [ "$mid" != "$before" ] && [ "$after" = "$before" ] && [ -z "$left" ]; then
    ok "SIGTERM mid-cell ($bdi was $mid): exit 3 (stopped), nothing mounted, $bdi as before"
  else
    fail "SIGTERM: exit $rc, left: $left; $bdi $after (before: $before, mid-cell: $mid) $(tail -5 "$work/out-term")"
  fi
else
  fail "interrupted matrix: no cell running: $(tail -5 "$work/out-term")"
fi

echo "1..$n"
[ "$failures" -eq 0 ]
