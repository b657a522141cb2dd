#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Soak (issue 7): passive monitoring with the GUI under Xvfb for 30 minutes,
# printing RSS and CPU every minute; RSS must stay flat. Not part of CI.
# Usage: bench/soak.sh [BUILD_DIR] [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-_build}
minutes=${2:-30}
gui="$PWD/$build/app/gui/resprobe"
[ -x "$gui" ] || { echo "build first: $gui is missing" >&2; exit 1; }

work=$(mktemp -d "$HOME/.cache/resprobe-soak-XXXXXX")
# xvfb-run does not pass a signal on: stop the application itself (it stays
# open when its run ends) and then the display.
app=
trap 'kill ${app:+"$app"} 2>/dev/null || true; sleep 1; kill "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
mkdir "$work/target"
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$PWD/$build/data" GSK_RENDERER=cairo NO_AT_BRIDGE=1

xvfb-run -a -s "-screen 0 1280x800x24" \
  "$gui" --dir "$work/target" --scenario passive --duration "$((minutes * 60))" --start \
  >/dev/null 2>"$work/stderr" &
pid=$!
# xvfb-run is a shell: find the application beneath it.
for _ in $(seq 50); do
  app=$(pgrep -n -f "^$gui --dir $work/target" || true)
  [ -n "$app" ] && break
  sleep 0.2
done
[ -n "$app" ] || { echo "the application did not start: $(cat "$work/stderr")" >&2; exit 1; }

ticks=$(getconf CLK_TCK)
printf '%6s %10s %10s\n' minute "RSS (MiB)" "CPU (%)"
last_cpu=0
for m in $(seq 0 "$minutes"); do
  [ -d "/proc/$app" ] || break
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$app/status")
  cpu=$(awk '{print $14 + $15}' "/proc/$app/stat")
  pct=$(echo "scale=2; ($cpu - $last_cpu) * 100 / $ticks / 60" | bc)
  [ "$m" -eq 0 ] && pct="-"
  printf '%6d %10.1f %10s\n' "$m" "$(echo "scale=1; $rss / 1024" | bc)" "$pct"
  last_cpu=$cpu
  [ "$m" -lt "$minutes" ] && sleep 60
done
