#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The storage stack of a loop-mounted file system (root only; issue 17): a run's
# report names the loop device's backing file, its file system and the disk
# under it with that disk's scheduler and wbt_lat_usec, in the JSON and in the
# text report; a loop device as the kernel creates it counts as unchanged, and
# a changed scheduler or direct I/O is said. The loop device is one this test
# creates (LOOP_CTL_ADD), removed on every exit path with its image and mount.
set -u
# root_tap_begin, root_tap_on_exit, root_tap_own_loop_device, ok, fail
. "$(dirname "$0")/lib-root-tap.sh"
root_tap_begin loop-stack "create loop devices and mount file systems" \
  "e2fsprogs, util-linux, python3" mkfs.ext3 losetup python3 findmnt mountpoint

# loop_control, queue_scheduler, pick_scheduler, offered_schedulers, backing_disk
. "$(dirname "$0")/loop-queue.sh"

# One mount point of its own: a busy one is unmounted lazily, and $work
# stays while it is still mounted.
cleanup() {
  mountpoint -q "$work/mnt" 2>/dev/null && { umount "$work/mnt" || umount -l "$work/mnt"; }
  [ -n "$index" ] && { losetup -d "/dev/loop$index" 2>/dev/null; loop_control remove "$index" 2>/dev/null; }
  mountpoint -q "$work/mnt" 2>/dev/null || rm -rf "${work:?}"
}
root_tap_on_exit cleanup
root_tap_own_loop_device
# A run leaves 1 GiB free: the sparse image has room for that and 16 MiB.
truncate -s 1200M "$work/ext3.img"
mkfs.ext3 -q -F "$work/ext3.img"
losetup "/dev/$loop" "$work/ext3.img"
mkdir "$work/mnt"
mount -t ext3 -o data=writeback "/dev/$loop" "$work/mnt"

# The disk under the image, and its settings as sysfs has them now.
disk=$(backing_disk "$work/ext3.img")
scheduler=$(queue_scheduler "$disk")
wbt=$(cat "/sys/block/$disk/queue/wbt_lat_usec" 2>/dev/null)  # empty: no writeback throttling in this kernel
echo "# $loop on $work/ext3.img on $disk (scheduler $scheduler, wbt_lat_usec $wbt)"

"$cli" run --duration 1 --size 16M --dir "$work/mnt" --report "$work/r.json" >"$work/out" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && python3 - "$work/r.json" "$loop" "$work/ext3.img" "$disk" "$scheduler" "$wbt" <<'PY'
import json, sys
report, loop, image, disk, scheduler, wbt = sys.argv[1:7]
s = json.load(open(report))["system"]
expected = {
    "whole_disk": loop, "journal_mode": "writeback", "loop_backing_file": image,
    "loop_direct_io": 0, "backing_fs_type": None, "backing_disk": disk,
    "backing_scheduler": scheduler, "backing_wbt_lat_usec": wbt or None,
}
bad = {k: s.get(k) for k, v in expected.items() if v is not None and s.get(k) != v}
assert not bad, bad
assert s["backing_fs_type"] and s["backing_mount_point"], s
# as the kernel created it: nothing differs from the default (the disk under
# it may have been tuned by this machine's owner: only the loop device counts)
assert loop not in (s["settings_not_default"] or ""), s["settings_not_default"]
PY
then ok "the report names $loop's backing file and $disk under it: scheduler $scheduler, wbt_lat_usec $wbt"
else fail "report (exit $rc): $(tail -5 "$work/out") $(python3 -c 'import json,sys; print({k:v for k,v in json.load(open(sys.argv[1]))["system"].items() if "back" in k or "loop" in k or "default" in k})' "$work/r.json" 2>&1)"; fi

"$cli" show "$work/r.json" >"$work/text" 2>&1
if grep -q "^Backing disk: *$disk\$" "$work/text" &&
   grep -q "^Backing disk’s I/O scheduler: *$scheduler\$" "$work/text" &&
   { [ -z "$wbt" ] || grep -q "^Backing disk’s wbt_lat_usec (µs): *$wbt\$" "$work/text"; }; then
  ok "the text report names the backing disk, its scheduler and wbt_lat_usec"
else fail "text report: $(grep -i back "$work/text")"; fi

# Changed from what the kernel gives a loop device (none): said, by name,
# with a scheduler this kernel offers (bfq where it has it).
if changed=$(pick_scheduler "$loop" bfq mq-deadline kyber); then
  echo "$changed" >"/sys/block/$loop/queue/scheduler"
  "$cli" sysinfo "$work/mnt" --json >"$work/changed.json" 2>&1
  if python3 - "$work/changed.json" "$loop" "$changed" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
loop, changed = sys.argv[2:4]
assert s["scheduler"] == changed, s["scheduler"]
assert f"{loop} scheduler {changed} (default none)" in s["settings_not_default"], s["settings_not_default"]
PY
  then ok "$loop with $changed: settings_not_default says so"
  else fail "changed scheduler: $(grep -i default "$work/changed.json")"; fi
  echo none >"/sys/block/$loop/queue/scheduler"
else
  n=$((n + 1)); echo "ok $n # SKIP this kernel offers $loop no scheduler but none ($(offered_schedulers "$loop"))"
fi

echo "1..$n"
[ "$failures" -eq 0 ]
