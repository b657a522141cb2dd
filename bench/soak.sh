#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Soak (issues 7 and 16): passive monitoring for MINUTES with the CLI, the GUI
# (under Xvfb) or both side by side, sampling RSS and CPU every minute. RSS must
# stay flat after the first minutes: its slope from minute 2 on is compared with
# the samples' own growth (points in the run's report × 14 bytes, what a point
# costs in RpSeries, bench row 7). Not part of CI.
# Usage: bench/soak.sh [BUILD_DIR] [MINUTES] [cli|gui|both]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-_build}
minutes=${2:-30}
which=${3:-both}
cli="$PWD/$build/app/cli/resprobe-cli"
gui="$PWD/$build/app/gui/resprobe"
case $which in
  cli) programs=(cli) ;;
  gui) programs=(gui) ;;
  both) programs=(cli gui) ;;
  *) echo "usage: $0 [BUILD_DIR] [MINUTES] [cli|gui|both]" >&2; exit 2 ;;
esac
for p in "${programs[@]}"; do
  bin=$cli; [ "$p" = gui ] && bin=$gui
  [ -x "$bin" ] || { echo "build first: $bin is missing" >&2; exit 1; }
done

mkdir -p "$HOME/.cache"
work=$(mktemp -d "$HOME/.cache/resprobe-soak-XXXXXX")
declare -A pid=()
# xvfb-run does not pass a signal on: stop the programs themselves, then the
# display (the GUI closes itself when its run ends and its report is saved).
# A program that ended long ago may have left its pid to another process:
# only ours, by what /proc says it runs, are stopped.
kill_if_ours() {
  grep -qF -- "$2" "/proc/$1/cmdline" 2>/dev/null && kill "$1" 2>/dev/null
  return 0
}
cleanup() {
  for p in "${!pid[@]}"; do kill_if_ours "${pid[$p]}" "$work"; done
  sleep 1
  [ -n "${xvfb:-}" ] && kill_if_ours "$xvfb" xvfb-run
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# The runs last a minute longer than the sampling, so that the last sample
# falls in the run, not in the building of its report at the end.
seconds=$((minutes * 60 + 60))
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$PWD/$build/data" GSK_RENDERER=cairo NO_AT_BRIDGE=1

for p in "${programs[@]}"; do
  mkdir "$work/$p"
  if [ "$p" = cli ]; then
    "$cli" run --scenario passive --dir "$work/cli" --duration "$seconds" \
      --report "$work/cli.json" >/dev/null 2>"$work/cli.stderr" &
    pid[cli]=$!
  else
    xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- \
      "$gui" --dir "$work/gui" --scenario passive --duration "$seconds" --start \
      --report-on-exit "$work/gui.json" >/dev/null 2>"$work/gui.stderr" &
    xvfb=$!
    # xvfb-run is a shell: find the application beneath it.
    for _ in $(seq 100); do
      pid[gui]=$(pgrep -n -f "^$gui --dir $work/gui" || true)
      [ -n "${pid[gui]}" ] && break
      sleep 0.2
    done
    [ -n "${pid[gui]}" ] || { echo "the application did not start: $(cat "$work/gui.stderr")" >&2; exit 1; }
  fi
done

ticks=$(getconf CLK_TCK)
declare -A last_cpu=()
printf '%6s' minute
for p in "${programs[@]}"; do printf ' %14s %10s' "$p RSS (MiB)" "$p CPU (%)"; done
printf '\n'
for m in $(seq 0 "$minutes"); do
  printf '%6d' "$m"
  for p in "${programs[@]}"; do
    if [ -d "/proc/${pid[$p]}" ]; then
      rss=$(awk '/VmRSS/ {print $2}' "/proc/${pid[$p]}/status")
      cpu=$(awk '{print $14 + $15}' "/proc/${pid[$p]}/stat")
      pct=-
      [ "$m" -gt 0 ] && pct=$(echo "scale=2; ($cpu - ${last_cpu[$p]}) * 100 / $ticks / 60" | bc)
      last_cpu[$p]=$cpu
      printf ' %14.1f %10s' "$(echo "scale=3; $rss / 1024" | bc)" "$pct"
      echo "$m $rss" >>"$work/$p.rss"
    else
      printf ' %14s %10s' ended -
    fi
  done
  printf '\n'
  [ "$m" -lt "$minutes" ] && sleep 60
done

# Let both runs end by themselves and save their reports.
for p in "${programs[@]}"; do
  for _ in $(seq 120); do [ -d "/proc/${pid[$p]}" ] || break; sleep 0.5; done
done

echo
for p in "${programs[@]}"; do
  python3 - "$p" "$work/$p.rss" "$work/$p.json" "$minutes" <<'EOF'
import json, sys
name, rss_file, report_file, minutes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
rows = [tuple(map(int, line.split())) for line in open(rss_file)]
rss = {m: kib / 1024 for m, kib in rows}
at = ", ".join(f"{m} min {rss[m]:.1f} MiB" for m in (2, 10, 20, 30) if m in rss)
tail = [(m, v) for m, v in rss.items() if m >= 2]
slope = 0.0
if len(tail) >= 2:
    mx = sum(m for m, _ in tail) / len(tail)
    my = sum(v for _, v in tail) / len(tail)
    slope = sum((m - mx) * (v - my) for m, v in tail) / sum((m - mx) ** 2 for m, _ in tail)
try:
    report = json.load(open(report_file))
    points = sum(len(s["samples"]) for s in report["series"].values())
    growth = f"{points * 14 / 1048576 / (minutes + 1):.3f} MiB/min ({points} points)"
except (OSError, ValueError, KeyError) as e:
    growth = f"unknown (no report: {e})"
print(f"{name}: RSS {at}; slope from minute 2 {slope:+.3f} MiB/min; samples' own growth {growth}")
EOF
done
