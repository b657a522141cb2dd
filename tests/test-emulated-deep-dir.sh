#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# An emulated device (the matrix's --device) under a deep --dir (root only):
# nbdkit's Unix socket cannot live there (a socket's path holds at most 107
# bytes, unix(7); seen: "nbdkit: -U: path too long: length 109 > max 107
# bytes" in a clone under /var/tmp), so it goes to a short private folder of
# its own, which the device's end removes. The device is made and mounted by
# rp-emulated-mount (the matrix's code) on a loop device this test creates.
set -u
# root_tap_begin, root_tap_on_exit, root_tap_cleanup, root_tap_own_loop_device, ok, fail
. "$(dirname "$0")/lib-root-tap.sh"
root_tap_begin emulated-deep-dir "create loop devices, start nbdkit and mount file systems" \
  "e2fsprogs, util-linux, nbdkit, nbdfuse" mkfs.ext4 losetup findmnt nbdkit nbdfuse
[ -n "${RESPROBE_EMULATED_MOUNT:-}" ] || { echo "1..0 # SKIP this build has no slow-device filter"; exit 0; }
. "$(dirname "$0")/loop-queue.sh"

holder=""
hold_in=""
# Closing its input ends rp-emulated-mount: it unmounts and removes the device.
release() { [ -n "$hold_in" ] && eval "exec $hold_in>&-"; hold_in=""; }
cleanup() {
  release
  [ -n "$holder" ] && wait "$holder" 2>/dev/null
  root_tap_cleanup
}
root_tap_on_exit cleanup
root_tap_own_loop_device 410

# A folder whose socket path would be 120 bytes and more.
deep=$work/$(printf 'd%.0s' $(seq 60))/$(printf 'e%.0s' $(seq 30))
mkdir -p "$deep"
tmp_before=$(ls -d "${TMPDIR:-/tmp}"/resprobe-nbd-* 2>/dev/null | sort)
coproc HOLD { "$RESPROBE_EMULATED_MOUNT" usb2-stick 64 "$deep" "/dev/$loop" 2>&1; }
holder=$HOLD_PID
hold_in=${HOLD[1]}
read -r -t 120 mountpoint <&"${HOLD[0]}"
if [ -n "${mountpoint:-}" ] && findmnt -rn "$mountpoint" >/dev/null 2>&1; then
  ok "emulated device mounted under a ${#deep}-byte folder: $mountpoint"
else
  fail "no emulated device under a ${#deep}-byte folder: ${mountpoint:-nothing printed}"
fi
if echo "write" >"$mountpoint/probe" 2>/dev/null && sync -f "$mountpoint/probe"; then ok "a file written and synced on it"
else fail "cannot write on $mountpoint"; fi
rm -f "$mountpoint/probe"
release
wait "$holder"; status=$?; holder=""
[ "$status" -eq 0 ] && ok "the device ended cleanly" || fail "rp-emulated-mount exited $status"
tmp_after=$(ls -d "${TMPDIR:-/tmp}"/resprobe-nbd-* 2>/dev/null | sort)
if [ "$tmp_after" = "$tmp_before" ]; then ok "no socket folder left in ${TMPDIR:-/tmp}"
else fail "left: $(comm -13 <(echo "$tmp_before") <(echo "$tmp_after"))"; fi
if ! pgrep -f -- "$deep" >/dev/null; then ok "no nbdkit or nbdfuse left"
else fail "left running: $(pgrep -af "$deep")"; fi
echo "1..$n"
[ "$failures" -eq 0 ]
