#!/usr/bin/env bash
# test-loop-sysinfo.sh: `resprobe-cli sysinfo` on a loop-mounted ext3 reports journal mode and I/O scheduler.
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Root only (losetup, mount, sysfs writes); without root it exits 77, which
# meson counts as a skip. As root it skips nothing: a missing tool, loop device
# or scheduler fails it (build-aux/install-deps.sh installs the tools). What it changes it undoes on every exit path:
# unmount, restore the loop device's scheduler, detach it, remove the image.
set -euo pipefail

skip () {
  echo "SKIP: $*"
  exit 77
}

fail () {
  echo "FAIL: $*" >&2
  exit 1
}

[ "$(id -u)" -eq 0 ] || skip "needs root to attach and mount a loop device"
for tool in mkfs.ext3 losetup mount umount mountpoint python3; do
  command -v "$tool" >/dev/null 2>&1 || fail "$tool is not installed (build-aux/install-deps.sh)"
done
[ -n "${RESPROBE_CLI:-}" ] && [ -x "$RESPROBE_CLI" ] ||
  fail "RESPROBE_CLI (“${RESPROBE_CLI:-}”) is not an executable resprobe-cli"

workdir=$(mktemp -d "${TMPDIR:-/tmp}/test-loop-sysinfo.XXXXXX")
image="$workdir/ext3.img"
mnt="$workdir/mnt"
loopdev=""
queue=""
saved_scheduler=""

cleanup () {
  local status=$?

  set +e
  if mountpoint -q "$mnt" 2>/dev/null; then
    umount "$mnt" || umount -l "$mnt"
  fi
  if [ -n "$queue" ] && [ -n "$saved_scheduler" ]; then
    echo "$saved_scheduler" >"$queue/scheduler" 2>/dev/null
  fi
  if [ -n "$loopdev" ]; then
    losetup -d "$loopdev"
  fi
  # Never remove the directory while something is still mounted in it.
  if ! mountpoint -q "$mnt" 2>/dev/null; then
    rm -rf "$workdir"
  fi
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

truncate -s 64M "$image"
mkfs.ext3 -q -F "$image"
loopdev=$(losetup -f --show "$image") || fail "no free loop device (losetup -f failed)"
loopname=$(basename "$loopdev")
queue="/sys/block/$loopname/queue"
mkdir "$mnt"

# The scheduler the kernel chose, restored by cleanup.
saved_scheduler=$(sed -n 's/.*\[\(.*\)\].*/\1/p' "$queue/scheduler")
grep -qw mq-deadline "$queue/scheduler" || fail "mq-deadline is not available for $loopname"

# check_json FILE KEY VALUE…: every KEY of the JSON object in FILE has VALUE.
check_json () {
  python3 - "$@" <<'EOF'
import json
import sys

with open(sys.argv[1]) as f:
    info = json.load(f)
pairs = sys.argv[2:]
failed = False
for key, expected in zip(pairs[0::2], pairs[1::2]):
    actual = info.get(key)
    if str(actual) != expected:
        print(f"FAIL: {key} is {actual!r}, expected {expected!r}", file=sys.stderr)
        failed = True
sys.exit(1 if failed else 0)
EOF
}

# run_case LABEL EXPECTED_JOURNAL [MOUNT OPTIONS]
run_case () {
  local label=$1 expected=$2 options=${3:-}
  local json="$workdir/$label.json" text="$workdir/$label.txt"

  echo "# case $label: mount -t ext3${options:+ -o $options}, expect journal_mode “$expected”"
  mount -t ext3 ${options:+-o "$options"} "$loopdev" "$mnt"
  echo mq-deadline >"$queue/scheduler"
  mkdir -p "$mnt/work"

  "$RESPROBE_CLI" sysinfo "$mnt/work" --json >"$json" || fail "$label: resprobe-cli sysinfo --json failed"
  check_json "$json" \
    fs_type ext3 \
    journal_mode "$expected" \
    scheduler mq-deadline \
    mount_point "$(realpath "$mnt")" \
    source_device "$loopdev" \
    whole_disk "$loopname" \
    rotational "$(cat "$queue/rotational")" \
    fsync_is_noop False ||
    { cat "$json" >&2; fail "$label: wrong values in the JSON snapshot"; }

  # The text form carries the same values under translated labels (LC_ALL=C.UTF-8 here).
  (cd "$mnt" && "$RESPROBE_CLI" sysinfo) >"$text" || fail "$label: resprobe-cli sysinfo failed"
  grep -qx "Journal mode: $expected" "$text" || { cat "$text" >&2; fail "$label: text output lacks the journal mode"; }
  grep -qx "I/O scheduler: mq-deadline" "$text" || { cat "$text" >&2; fail "$label: text output lacks the scheduler"; }

  umount "$mnt"
  echo "ok - $label"
}

run_case writeback writeback data=writeback
run_case ordered ordered data=ordered
run_case default "ordered (default)"

# A directory that does not exist is a usage error naming it.
status=0
"$RESPROBE_CLI" sysinfo "$workdir/missing" 2>"$workdir/err" >/dev/null || status=$?
[ "$status" -eq 2 ] || fail "nonexistent directory: exit status $status, expected 2"
grep -q "$workdir/missing" "$workdir/err" || fail "nonexistent directory: the error does not name it"
echo "ok - nonexistent directory"
