# SPDX-License-Identifier: GPL-3.0-or-later
# The lock of the machine-wide kernel settings (vm.dirty_*), for tests that
# change them or whose result depends on them. The root suite runs one test
# at a time, each under this lock (tests/with-kernel-settings-lock.sh, the
# same file); a
# test of another suite that changes them for a moment (the fault matrix's
# SIGKILL of a cell with --dirty-bytes) takes it too. Without it, CI's
# streams side by side met: the fault row's 64 MiB vm.dirty_bytes made the
# root suite's memory-pin find dirty thresholds that no longer depend on the
# memory it emulates.

# kernel_settings_lock: waits for the lock and holds it on fd 7 (a hang guard
# of 30 minutes: returns non-zero then). Processes started meanwhile inherit
# fd 7; kernel_settings_unlock lets it go for them too (flock -u acts on the
# open file they share).
kernel_settings_lock() {
  local dir=/run/lock
  [ -d "$dir" ] && [ -w "$dir" ] || dir=/tmp
  exec 7>>"$dir/resprobe-kernel-settings.lock"
  flock -w 1800 7
}

# kernel_settings_unlock: lets the lock go.
kernel_settings_unlock() {
  flock -u 7 2>/dev/null
  exec 7>&-
}
