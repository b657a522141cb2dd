#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Soak of `resprobe-cli monitor` (issue 22, acceptance 3): the monitor at its
# defaults (fsync every 10 s, stalls, disk and system samplers) with /metrics
# and a textfile, scraped every 15 s as Prometheus would, for MINUTES. Prints
# every minute the CPU it used (user + system, % of one core, over the run so
# far) and its RSS; at the end the whole run's CPU % and the RSS of minutes 1
# and 2, of the last minute and the largest seen. Not part of CI (it lasts
# half an hour).
# Usage: bench/monitor-soak.sh [BUILD_DIR] [MINUTES]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-_build}
minutes=${2:-30}
cli="$PWD/$build/app/cli/resprobe-cli"
[ -x "$cli" ] || { echo "build first: $cli is missing" >&2; exit 1; }
mkdir -p "$HOME/.cache"
work=$(mktemp -d "$HOME/.cache/resprobe-monitor-soak-XXXXXX")
mkdir "$work/dir" "$work/textfile" "$work/reports"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
mon=
cleanup() {
  [ -n "$mon" ] && kill "$mon" 2>/dev/null && wait "$mon" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT INT TERM
"$cli" monitor --dir "$work/dir" --listen "127.0.0.1:$port" --textfile "$work/textfile" \
  --reports "$work/reports" > "$work/out.txt" 2>&1 &
mon=$!
hz=$(getconf CLK_TCK)
cpu_ticks() { awk '{print $14 + $15}' "/proc/$mon/stat"; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$mon/status"; }
t0=$(date +%s.%N); c0=$(cpu_ticks)
rss1= rss2= rssmax=0
for m in $(seq 1 "$minutes"); do
  for s in 1 2 3 4; do sleep 15; curl -s "http://127.0.0.1:$port/metrics" > /dev/null || true; done
  now=$(date +%s.%N); c=$(cpu_ticks); rss=$(rss_kib)
  [ "$m" = 1 ] && rss1=$rss
  [ "$m" = 2 ] && rss2=$rss
  [ "$rss" -gt "$rssmax" ] && rssmax=$rss
  awk -v m="$m" -v c="$c" -v c0="$c0" -v hz="$hz" -v t="$now" -v t0="$t0" -v rss="$rss" \
    'BEGIN { printf "minute %d: cpu %.3f %% of a core, rss %d KiB\n", m, 100 * (c - c0) / hz / (t - t0), rss }'
done
awk -v c="$c" -v c0="$c0" -v hz="$hz" -v t="$now" -v t0="$t0" -v rss="$rss" -v rss1="${rss1:-0}" -v rss2="${rss2:-0}" \
  -v rssmax="$rssmax" 'BEGIN { printf "total: cpu %.3f %% of a core over %.0f s; rss minute 1 %d KiB, minute 2 %d KiB, last %d KiB, max %d KiB\n", 100 * (c - c0) / hz / (t - t0), t - t0, rss1, rss2, rss, rssmax }'
