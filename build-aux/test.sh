#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build Responsiveness Probe and run every test. Root-only tests (loop-mounted
# file systems) run when this is run as root and skip with a reason otherwise.
set -euo pipefail
cd "$(dirname "$0")/.."

bash build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build
meson test -C _build --print-errorlogs "$@"
