#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# with-kernel-settings-lock.sh SCRIPT [ARGUMENTS…]: runs a root test script
# holding the lock of the machine-wide kernel settings
# (tests/lib-kernel-settings-lock.sh) from start to end. flock(1) holds it
# and the script does not (-o): a process the script leaves behind (a FUSE
# daemon of a matrix cell killed mid-way) must not keep every later test
# waiting.
dir=/run/lock
[ -d "$dir" ] && [ -w "$dir" ] || dir=/tmp
flock -o -E 75 -w 1800 "$dir/resprobe-kernel-settings.lock" bash "$@"
status=$?
[ "$status" -eq 75 ] && echo "Bail out! another test held the lock of the kernel settings for 30 minutes"
exit "$status"
