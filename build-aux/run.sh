#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build Responsiveness Probe and launch it on sensible defaults.
# Extra arguments go to the application, e.g. build-aux/run.sh --dir /mnt/test --start
set -euo pipefail
cd "$(dirname "$0")/.."

bash build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build

if [ -x _build/app/gui/resprobe ] && { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; }; then
  # Settings schemas from the build tree, so that it runs without installing.
  export GSETTINGS_SCHEMA_DIR="$PWD/_build/data"
  exec _build/app/gui/resprobe "$@"
fi

echo "No display: running the R1 scenario headless (resprobe-cli run)." >&2
# The window's options that mean nothing without a window are dropped; the
# rest (--dir, --scenario, --size, --duration) mean the same to the CLI.
args=()
duration=(--duration 60)
for arg in "$@"; do
  case "$arg" in
    --start|--simulate-save) ;;
    --duration|--duration=*) duration=(); args+=("$arg") ;;
    *) args+=("$arg") ;;
  esac
done
exec _build/app/cli/resprobe-cli run "${duration[@]}" "${args[@]}"
