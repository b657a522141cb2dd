#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# felt-idle.sh [RUNS] [SECONDS] [SERVERS]: issue 32's acceptance 1, measured. On an
# idle machine, the window's passive run of SECONDS (default 30), RUNS times (default
# 10) under each of SERVERS (default x11,wayland): X11 is Xvfb (tests/xvfb-run.sh,
# in dbus-run-session), Wayland a headless sway run as a normal user (as root:
# `nobody`, from copies of the programs, as tests/test-gui-wayland.sh). For each run
# prints the verdict's headline, the frame intervals a second, their median against
# the refresh interval, the worst felt sample, and this script's own witness of how
# idle the machine was: the load average at the start and the run-queue waits of the
# probe window's and the display server's main threads over the run
# (tests/felt-stall.py watch). Acceptance: "Responsive" every time, >= 50 intervals
# a second, median within 10 % of the refresh interval. Exits 1 when a run missed.
# Builds nothing: run it on a build tree (RESPROBE_BUILD, default _build).
set -u
runs=${1:-10}
seconds=${2:-30}
servers=${3:-x11,wayland}
source_dir=$(cd "$(dirname "$0")/.." && pwd)
build=${RESPROBE_BUILD:-$source_dir/_build}
for program in app/gui/resprobe app/canary/resprobe-canary; do
  [ -x "$build/$program" ] || { echo "felt-idle.sh: build first: $build/$program is missing" >&2; exit 2; }
done

work=$(mktemp -d /tmp/felt-idle-XXXXXX)
chmod 755 "$work"
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

as_user=()
[ "$(id -u)" -eq 0 ] && as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
mkdir -p "$work/bin" "$work/schemas" "$work/out"
cp "$build/app/gui/resprobe" "$build/app/canary/resprobe-canary" "$work/bin/"
cp "$build/data/gschemas.compiled" "$work/schemas/"
chmod -R a+rX "$work/bin" "$work/schemas"
chmod 777 "$work/out"
witness="$source_dir/tests/felt-stall.py"
window=(GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 GSETTINGS_BACKEND=memory
  GSETTINGS_SCHEMA_DIR="$work/schemas" RESPROBE_CANARY="$work/bin/resprobe-canary")

# One run under X11: the window's pid and Xvfb's (xvfb-run.sh's child) to the witness.
run_x11() {
  local i=$1 dir="$work/x11-$i" runner gui server
  mkdir -p "$dir/target" "$dir/home"
  env HOME="$dir/home" "${window[@]}" GDK_BACKEND=x11 \
    "$source_dir/tests/xvfb-run.sh" dbus-run-session -- sh -c 'echo $$ >"$0"; exec "$@"' "$dir/gui.pid" \
    "$work/bin/resprobe" --scenario passive --dir "$dir/target" --duration "$seconds" --start \
    --report-on-exit "$work/out/x11-$i.json" >"$dir/gui.out" 2>&1 &
  runner=$!
  pids+=("$runner")
  for _ in $(seq 600); do [ -s "$dir/gui.pid" ] && break; sleep 0.05; done
  gui=$(cat "$dir/gui.pid" 2>/dev/null)
  server=$(pgrep -P "$runner" -x Xvfb | head -n1)
  if [ -n "$gui" ] && [ -n "$server" ]; then
    python3 "$witness" watch "$gui" "$server" >"$work/out/x11-$i.witness"
  fi
  wait "$runner"
}

# One run under Wayland: a sway of its own, as the normal user.
run_wayland() {
  local i=$1 dir="$work/wayland-$i" sway socket="" gui
  mkdir -p "$dir/target" "$dir/home" "$dir/runtime"
  chmod 700 "$dir/runtime"; chmod 755 "$dir"
  [ ${#as_user[@]} -gt 0 ] && chown nobody:nogroup "$dir/target" "$dir/home" "$dir/runtime"
  printf 'output HEADLESS-1 resolution 1280x800\n' >"$dir/sway.conf"
  chmod 644 "$dir/sway.conf"
  local session=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$dir/home" LC_ALL=C.UTF-8
    XDG_RUNTIME_DIR="$dir/runtime" DBUS_SESSION_BUS_ADDRESS=disabled:)
  "${as_user[@]}" "${session[@]}" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
    sway -c "$dir/sway.conf" >"$dir/sway.log" 2>&1 &
  sway=$!
  pids+=("$sway")
  for _ in $(seq 300); do
    socket=$(cd "$dir/runtime" && ls wayland-* 2>/dev/null | grep -v lock | head -n1)
    [ -n "$socket" ] && break
    sleep 0.05
  done
  if [ -z "$socket" ]; then
    echo "felt-idle.sh: sway did not start: $(tail -n 3 "$dir/sway.log")" >&2
    return
  fi
  "${as_user[@]}" "${session[@]}" WAYLAND_DISPLAY="$socket" GDK_BACKEND=wayland "${window[@]}" \
    "$work/bin/resprobe" --scenario passive --dir "$dir/target" --duration "$seconds" --start \
    --report-on-exit "$work/out/wayland-$i.json" >"$dir/gui.out" 2>&1 &
  gui=$!
  pids+=("$gui")
  python3 "$witness" watch "$gui" "$sway" >"$work/out/wayland-$i.witness"
  wait "$gui"
  kill "$sway" 2>/dev/null
  wait "$sway" 2>/dev/null
}

for server in ${servers//,/ }; do
  for i in $(seq "$runs"); do
    cut -d' ' -f1 /proc/loadavg >"$work/out/$server-$i.load"
    "run_$server" "$i"
    echo "felt-idle.sh: $server run $i of $runs done" >&2
  done
done

PYTHONPATH="$source_dir/tests" python3 - "$work/out" "$servers" "$runs" <<'PYTHON'
import json, os, statistics, sys
from resprobe_report import samples

out, servers, runs = sys.argv[1], sys.argv[2].split(","), int(sys.argv[3])
FELT = ("mainloop_lateness", "frame_interval", "input_latency", "wakeup_latency")
print("| server | run | load avg | verdict | intervals/s | median ms | refresh ms | median vs refresh "
      "| worst felt ms | probe / server run-queue wait ms | met |")
print("|---|---|---|---|---|---|---|---|---|---|---|")
missed = 0
why = []
for server in servers:
    for i in range(1, runs + 1):
        path = os.path.join(out, "%s-%d.json" % (server, i))
        load = open(os.path.join(out, "%s-%d.load" % (server, i))).read().strip()
        if not os.path.exists(path):
            print("| %s | %d | %s | no report | | | | | | | no |" % (server, i, load))
            missed += 1
            continue
        report = json.load(open(path))
        # The window's judgement, as it said it (English: the run's LC_ALL).
        verdict = report.get("judgement", {}).get("headline", "?")
        frames = samples(report["series"].get("frame_interval", {}))
        intervals = [v for _, v in frames]
        span = frames[-1][0] - frames[0][0] if len(frames) > 1 else 0
        rate = len(intervals) / span if span else 0
        median = statistics.median(intervals) if intervals else 0
        refresh = float(report["notes"].get("refresh_interval", "0.016667"))
        worst = max((v for name in FELT for _, v in samples(report["series"].get(name, {}))), default=0)
        try:
            watched, probe, srv = map(float, open(os.path.join(out, "%s-%d.witness" % (server, i))).read().split())
        except (OSError, ValueError):
            watched = probe = srv = 0
        deviation = (median - refresh) / refresh if refresh else 1
        met = verdict == "Responsive" and rate >= 50 and abs(deviation) <= 0.10
        missed += not met
        if verdict != "Responsive":
            why.append("%s %d: %s" % (server, i, report.get("judgement", {}).get("short_verdict", "")))
        print("| %s | %d | %s | %s | %.1f | %.2f | %.2f | %+.1f %% | %.1f | %.0f / %.0f over %.0f s | %s |" %
              (server, i, load, verdict, rate, median * 1e3, refresh * 1e3, 100 * deviation, worst * 1e3,
               probe * 1e3, srv * 1e3, watched, "yes" if met else "no"))
for line in why:
    print("- " + line)
print("\n%d of %d runs met the acceptance" % (len(servers) * runs - missed, len(servers) * runs))
sys.exit(1 if missed else 0)
PYTHON
