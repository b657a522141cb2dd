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
  # Without a session bus (xvfb-run, ssh -X, a bare X server) GSettings
  # cannot save and GTK warns about every D-Bus service it looks for: give
  # the application a session bus of its own for as long as it runs.
  if [ -z "${DBUS_SESSION_BUS_ADDRESS:-}" ] && command -v dbus-run-session >/dev/null; then
    exec dbus-run-session -- _build/app/gui/resprobe "$@"
  fi
  exec _build/app/gui/resprobe "$@"
fi

# Without a display: a short, small R1 unless the arguments say otherwise,
# not dd's 15000 MiB for a minute on whatever disk holds ~/.cache.
args=()
duration=(--duration 30)
size=(--size 4G)
for arg in "$@"; do
  case "$arg" in
    --start|--simulate-save) ;;
    --duration|--duration=*) duration=(); args+=("$arg") ;;
    --size|--size=*) size=(); args+=("$arg") ;;
    *) args+=("$arg") ;;
  esac
done
cli=(_build/app/cli/resprobe-cli run "${duration[@]}" "${size[@]}" "${args[@]}")
echo "No display: running ${cli[*]} (the R1 scenario unless --scenario says otherwise) instead of the window." >&2
exec "${cli[@]}"
