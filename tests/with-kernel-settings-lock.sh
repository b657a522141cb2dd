#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# with-kernel-settings-lock.sh SCRIPT [ARGUMENTS…]: runs a root test script
# holding the lock of the machine-wide kernel settings
# (tests/lib-kernel-settings-lock.sh) from start to end.
. "$(dirname "$0")/lib-kernel-settings-lock.sh"
if ! kernel_settings_lock; then
  echo "Bail out! another test held the lock of the kernel settings for 30 minutes"
  exit 1
fi
exec bash "$@"
