# shellcheck shell=bash
# SPDX-License-Identifier: GPL-3.0-or-later
# lib-root-tap.sh: the start and the clean-up the root-only TAP tests share
# (test-matrix.sh, test-matrix-restore.sh, test-loop-stack.sh,
# test-usbstick.sh, test-save-r1.sh, test-device-matrix.sh,
# test-app-start-matrix.sh). Defines functions and the variables they use:
# sourcing it changes nothing on the machine.

# One TAP line each (meson runs these tests with protocol 'tap'): a message
# that spans lines is joined, so that none of its lines reads as a TAP line.
failures=0; n=0
tap() { local line="$*"; echo "${line//$'\n'/ | }"; }
ok()   { n=$((n + 1)); tap "ok $n - $*"; }
fail() { n=$((n + 1)); tap "not ok $n - $*"; failures=$((failures + 1)); }

# root_tap_begin NAME WHY PACKAGES TOOL…: without root the whole test is a
# visible skip ("needs root to WHY") and the script ends; as root (CI)
# nothing is skipped: a TOOL missing fails the test, naming the PACKAGES
# build-aux/install-deps.sh installs. Then sets cli (RESPROBE_CLI) and work,
# a new folder NAME-XXXXXX in the build's tests folder for everything the
# test makes.
root_tap_begin() {
  local name=$1 why=$2 packages=$3 tool
  shift 3
  # shellcheck disable=SC2034 # for the test that sources this
  cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}
  if [ "$(id -u)" -ne 0 ]; then
    echo "1..0 # SKIP needs root to $why"
    exit 0
  fi
  for tool in "$@"; do
    if ! command -v "$tool" >/dev/null; then
      echo "not ok 1 - $tool missing (build-aux/install-deps.sh installs $packages)"
      echo "1..1"
      exit 1
    fi
  done
  work=$(mktemp -d "${G_TEST_BUILDDIR:-/var/tmp}/$name-XXXXXX")
}

# root_tap_cleanup: kills $pid (a CLI the test started in the background,
# if any; "" once waited for), unmounts
# what is mounted under $work, detaches the loop devices of its images,
# removes the test's own loop device $index (loop_control of loop-queue.sh;
# removing it removes its bdi and queue, with what the test set there) and
# $work. For root_tap_on_exit.
pid=""
index=""
root_tap_cleanup() {
  # Reaped before the unmount: a CLI still dying keeps its mount busy.
  [ -n "$pid" ] && { kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; }
  # Lazily when another process holds it (the file system leaves the tree
  # now; the kernel frees it, and its autoclear loop device, later).
  findmnt -rn -o TARGET | grep -F "${work:?}/" | sort -r | while read -r m; do umount "$m" || umount -l "$m"; done
  losetup -a | grep -F "${work:?}/" | cut -d: -f1 | while read -r d; do losetup -d "$d"; done
  [ -n "$index" ] && { losetup -d "/dev/loop$index" 2>/dev/null; loop_control remove "$index" 2>/dev/null; }
  rm -rf "${work:?}"
  # The system files' lock, if taken (root_tap_lock_system_files): let go
  # also for any process of the test still alive that inherited it.
  { flock -u 8; } 2>/dev/null || true
}

# root_tap_on_exit CLEANUP: CLEANUP runs on every exit path, an interrupt
# and SIGTERM (meson's timeout) included.
root_tap_on_exit() {
  # shellcheck disable=SC2064 # the function's name, now
  trap "$1" EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

# root_tap_lock_system_files: waits for, then holds until the test exits,
# the one lock of the tests that put the project's files into the system's
# folders (the packages' install and purge; the helper test's D-Bus and
# polkit files). Two at once take each other's files for leftovers: in a CI
# run under load the package test's purge check found the D-Bus service the
# root stream's helper test had installed meanwhile. Fails when the lock is
# held for 30 minutes (a hang guard).
root_tap_lock_system_files() {
  exec 8>/run/lock/resprobe-system-files.lock
  flock -w 1800 8
}

# root_tap_own_loop_device [FIRST]: a new loop device of the test's own
# (loop_control add FIRST), removed on every exit path: sets index and loop
# (loopN), or fails the whole test.
root_tap_own_loop_device() {
  index=$(loop_control add "$@") || { echo "not ok 1 - cannot create a loop device"; echo "1..1"; exit 1; }
  # shellcheck disable=SC2034 # for the test that sources this
  loop=loop$index
}
