#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# resprobe-cli matrix (root only): a 2 × 2 matrix on loop-mounted ext3 leaves no
# mount, loop device or image behind, also when interrupted; without root it refuses.
set -u
# root_tap_begin, root_tap_on_exit, root_tap_cleanup, ok, fail
. "$(dirname "$0")/lib-root-tap.sh"
# TAP (meson runs this with protocol 'tap'): without root the whole test is a
# visible skip; as root (CI) nothing is skipped, a missing tool fails.
root_tap_begin matrix "create loop devices and mount file systems" "e2fsprogs and util-linux" mkfs.ext3 setpriv

# Whatever happens, leave the machine as it was.
root_tap_on_exit root_tap_cleanup

leftovers() {
  local what=""
  findmnt -rn -o TARGET | grep -qF "${work:?}/" && what="$what mounts"
  losetup -a | grep -qF "${work:?}/" && what="$what loop-devices"
  ls "$work"/images/*.img >/dev/null 2>&1 && what="$what images"
  ls -d "$work"/images/resprobe-* >/dev/null 2>&1 && what="$what mount-points"
  echo "$what"
}

mkdir -p "$work/images"
start=$(date +%s)
"$cli" matrix --fs ext3 --journal ordered,writeback --scheduler none,mq-deadline \
  --size 1G --image-size 3G --duration 10 --dir "$work/images" --reports "$work/reports" \
  >"$work/out" 2>&1
rc=$?
took=$(( $(date +%s) - start ))
if [ "$rc" -eq 0 ]; then ok "2x2 matrix exit 0 in ${took}s"; else fail "matrix exit $rc: $(tail -20 "$work/out")"; fi
left=$(leftovers)
if [ -z "$left" ]; then ok "nothing left behind"; else fail "left behind:$left"; fi
if python3 - "$work/reports" <<'PY'
import json, os, sys
d = sys.argv[1]
names = json.load(open(os.path.join(d, "comparison.json")))["reports"]
assert len(names) == 4, names
seen = set()
for name in names:
    r = json.load(open(os.path.join(d, name)))
    s = r["system"]
    assert s["fs_type"] == "ext3", s["fs_type"]
    seen.add((s["journal_mode"], s["scheduler"]))
    # At least one fsync: data=ordered under the 1 GiB write can take seconds each.
    assert r["summary"]["fsync_latency"]["n"] >= 1, name
assert seen == {("ordered", "none"), ("ordered", "mq-deadline"),
                ("writeback", "none"), ("writeback", "mq-deadline")}, seen
PY
then ok "four reports with the journal mode and scheduler each asked for"; else fail "reports"; fi
if grep -q "^\* Journal mode" "$work/out" && grep -q "fsync worst" "$work/out"; then
  ok "comparison table highlights the journal mode"
else
  fail "comparison table: $(tail -30 "$work/out")"
fi
# Four cells: two tables of two runs, every line at most 80 bytes (mawk's length()
# in the C locale), plain spaces: the table is pasted into bug trackers. The path of
# the reports may be long.
long=$(sed -n '/^Comparison of/,$p' "$work/out" | grep -v '^Reports and comparison.json saved in ' |
  LC_ALL=C awk 'length($0) > 80')
if grep -qE '^ +Run 3 +Run 4$' "$work/out" && [ -z "$long" ] && ! LC_ALL=C grep -q $'\xc2\xa0' "$work/out"; then
  ok "comparison table: lines of at most 80 bytes"
else
  fail "comparison table too wide: ${long:-$(sed -n '/^Comparison of/,$p' "$work/out" | head -30)}"
fi

# A cell's load command that fails: the cell is measured and saved, the
# message names the command and the matrix exits 4 as `run` does. One cell:
# its own report, not a comparison of one.
"$cli" matrix --fs ext3 --journal ordered --scheduler none --image-size 2G \
  --duration 3 --command 'sh -c "exit 7"' --dir "$work/images" --reports "$work/reports-cmd" \
  >"$work/out-cmd" 2>&1
rc=$?
if [ "$rc" -eq 4 ] && grep -q "exit 7.* status 7" "$work/out-cmd" &&
   ls "$work/reports-cmd"/*.json >/dev/null 2>&1 && ! grep -q "Comparison of 1 " "$work/out-cmd"; then
  ok "a cell's failing command: exit 4, named, its report saved"
else
  fail "failing command: exit $rc: $(tail -20 "$work/out-cmd")"
fi
left=$(leftovers)
if [ -z "$left" ]; then ok "nothing left behind after the failing command"; else fail "left behind:$left"; fi

# Ctrl-C in the middle of a cell: everything is undone. A second cell, so
# that the matrix has more to do: none and another scheduler the kernel
# offers (the matrix refuses one it lacks before the first cell).
. "$(dirname "$0")/loop-queue.sh"
second=$(kernel_schedulers mq-deadline kyber bfq | head -n 1)
"$cli" matrix --fs ext3 --journal ordered --scheduler "none${second:+,$second}" --size 1G --image-size 3G \
  --duration 30 --dir "$work/images" --reports "$work/reports-int" >"$work/out-int" 2>&1 &
pid=$!
# In the middle of a cell: once its run has files open on the cell's mounted
# file system (the mount points are $work/images/resprobe-*).
running_cell() {
  local fd
  for fd in /proc/"$1"/fd/*; do
    case "$(readlink "$fd" 2>/dev/null)" in "$work"/images/resprobe-*/*) return 0 ;; esac
  done
  return 1
}
deadline=$(( $(date +%s) + 120 ))
until running_cell "$pid"; do
  if [ "$(date +%s)" -ge "$deadline" ] || ! kill -0 "$pid" 2>/dev/null; then
    fail "interrupted matrix: no cell running after 120 s: $(tail -5 "$work/out-int")"; break
  fi
  sleep 0.1
done
kill -INT "$pid"
wait "$pid"; rc=$?
pid=""
left=$(leftovers)
if [ "$rc" -eq 3 ] && [ -z "$left" ]; then ok "interrupted matrix cleaned up (exit 3, stopped, as run)"
else fail "interrupted: exit $rc, left:$left $(tail -5 "$work/out-int")"; fi

# Another program holds the cell's file system open when the cell ends
# (stress-ng's io stressor opens every mount point it sees, for as long as
# it runs): the matrix still ends well, the file system leaves the tree at
# once (a lazy unmount), and its loop device goes when the holder lets go.
"$cli" matrix --fs ext3 --journal ordered --scheduler none --size 64M --image-size 2G \
  --duration 3 --dir "$work/images" --reports "$work/reports-held" >"$work/out-held" 2>&1 &
pid=$!
holder=""
deadline=$(( $(date +%s) + 60 ))
while [ -z "$holder" ] && kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do
  mnt=$(findmnt -rn -o TARGET | grep -F "$work/images/resprobe-" | head -n 1)
  if [ -n "$mnt" ]; then
    python3 -c 'import os, sys, time; fd = os.open(sys.argv[1], os.O_RDONLY | os.O_DIRECTORY); time.sleep(600)' "$mnt" &
    holder=$!
  fi
  sleep 0.1
done
wait "$pid"; rc=$?
pid=""
held_mounts=$(findmnt -rn -o TARGET | grep -cF "$work/images/")
held_loop=$(losetup -a | grep -F "$work/images/" | cut -d: -f1)
[ -n "$holder" ] && { kill "$holder"; wait "$holder" 2>/dev/null; }
# The kernel frees the loop device once the holder's descriptor is closed
# (the detach completes asynchronously): a hang guard, not a timing.
for _ in $(seq 100); do losetup -a | grep -qF "$work/images/" || break; sleep 0.1; done
left=$(leftovers)
if [ -n "$holder" ] && [ "$rc" -eq 0 ] && [ "$held_mounts" -eq 0 ] && [ -z "$left" ]; then
  ok "a cell held open by another process: exit 0, unmounted at once, ${held_loop:-its loop device} gone once released"
else
  fail "held cell: holder ${holder:-never started}, exit $rc, mounts while held $held_mounts, left:$left $(tail -5 "$work/out-held")"
fi

# Without root: a clear refusal, nothing created.
# Refused before anything else, even for a directory that user cannot reach.
# The build tree may not be reachable for that user (a clone in a 0700
# directory): run a copy of the program from a world-readable place.
public=$(mktemp -d /tmp/resprobe-matrix-XXXXXX)
chmod 755 "$public"
cp "$cli" "$public/resprobe-cli"
msg=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$public/resprobe-cli" matrix --dir "$work/images" 2>&1)
rc=$?
rm -rf "$public"
if [ "$rc" -eq 1 ] && grep -q "root" <<<"$msg"; then ok "non-root refused: $msg"
else fail "non-root: exit $rc: $msg"; fi

echo "1..$n"
[ "$failures" -eq 0 ]
