#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-gui.sh: resprobe under Xvfb runs R1 for 10 s on a temporary folder while xdotool
# moves the pointer, clicks and types in its probe window (resprobe-canary, which the
# run starts); the report it saves on exit must hold samples of every felt probe and
# of fsync, the folder must be empty afterwards, stderr (the window's and the probe
# window's) free of warnings. The window and the screen are kept as PNGs in the build
# dir (artefacts).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)   # this folder: xvfb-run.sh

gui=${RESPROBE_GUI:?RESPROBE_GUI must point at the resprobe binary}
out=${G_TEST_BUILDDIR:-$PWD}

for tool in Xvfb xdotool import python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is not installed: build-aux/install-deps.sh installs it"
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/test-gui-XXXXXX")
trap 'rm -rf "$work"' EXIT
target="$work/target"
mkdir "$target"
export RP_WORK="$work" RP_TARGET="$target" RP_GUI="$gui" \
  RP_WINDOW_PNG="$out/gui-window.png" RP_SCREEN_PNG="$out/gui-screen.png"
rm -f "$RP_WINDOW_PNG" "$RP_SCREEN_PNG"

# Inside the X server: start the app, drive it with input while it runs, wait for it.
cat >"$work/session.sh" <<'INNER'
set -u
GSK_RENDERER=cairo GTK_A11Y=none "$RP_GUI" --dir "$RP_TARGET" --size 256M --duration 10 --start \
  --report-on-exit "$RP_WORK/report.json" --screenshot-on-exit "$RP_WINDOW_PNG" \
  >"$RP_WORK/stdout" 2>"$RP_WORK/stderr" &
pid=$!

wid=
for _ in $(seq 100); do
  wid=$(xdotool search --onlyvisible --name 'Responsiveness Probe' 2>/dev/null | head -n1)
  [ -n "$wid" ] && break
  sleep 0.1
done
if [ -z "$wid" ]; then
  echo "no window appeared" >&2
  kill "$pid" 2>/dev/null
  wait "$pid"
  exit 1
fi

# The probe window (resprobe-canary) the run starts: input latency is what it feels.
cwid=
for _ in $(seq 200); do
  cwid=$(xdotool search --onlyvisible --name 'Probe Window' 2>/dev/null | head -n1)
  [ -n "$cwid" ] && break
  sleep 0.1
done
[ -n "$cwid" ] || echo "no probe window appeared" >&2
sleep 2
xdotool windowfocus "$cwid" 2>/dev/null || true
# Pointer motion, clicks and keys over the probe window, spread over the run so
# that the input latency series gets samples at several times. Secondary clicks:
# input events as any, inert in the probe window. XTEST, not --window (a SendEvent
# carries time 0, which no latency can be measured from).
for i in $(seq 12); do
  xdotool mousemove --window "$cwid" $((40 + i * 15)) $((20 + (i % 3) * 10))
  xdotool click 3
  xdotool key shift x
  sleep 0.4
done
import -window root "$RP_SCREEN_PNG" 2>/dev/null || true
wait "$pid"
echo "exit status $?" >"$RP_WORK/status"
INNER

if command -v dbus-run-session >/dev/null; then
  runner=(dbus-run-session --)
else
  # No bus: GApplication works without one; never autolaunch a stray daemon.
  export DBUS_SESSION_BUS_ADDRESS=disabled:
  runner=()
fi
timeout 150 "${runner[@]}" "$here/xvfb-run.sh" bash "$work/session.sh"
echo "session: $?; $(cat "$work/status" 2>/dev/null)"

echo "--- stderr of resprobe"
cat "$work/stderr" 2>/dev/null
echo "---"

python3 - "$work" "$target" "$RP_WINDOW_PNG" <<'CHECK'
import json, os, struct, sys
from resprobe_report import samples

work, target, window_png = sys.argv[1:4]
failures = []

def check(condition, message):
    print(("ok: " if condition else "FAIL: ") + message)
    if not condition:
        failures.append(message)

status = open(os.path.join(work, "status")).read().strip() if os.path.exists(os.path.join(work, "status")) else "missing"
check(status == "exit status 0", "resprobe exited with status 0 (%s)" % status)

stderr = open(os.path.join(work, "stderr"), errors="replace").read() if os.path.exists(os.path.join(work, "stderr")) else ""
check("CRITICAL" not in stderr and "WARNING" not in stderr, "no CRITICAL or WARNING on stderr")

report_path = os.path.join(work, "report.json")
check(os.path.exists(report_path), "the report was saved on exit")
if os.path.exists(report_path):
    report = json.load(open(report_path))
    check(report.get("error") is None, "the run had no error (%s)" % report.get("error"))
    series = report.get("series", {})
    for name in ["mainloop_lateness", "frame_interval", "input_latency", "wakeup_latency", "fsync_latency"]:
        points = samples(series.get(name, {}))
        n = report.get("summary", {}).get(name, {}).get("n", len(points))
        check(n > 0, "%s has samples (%d)" % (name, n))
    notes = report.get("notes", {})
    check(notes.get("frame_timing_source") in ("presentation", "tick-monotonic"),
          "the frame timing source is recorded (%s)" % notes.get("frame_timing_source"))
    # XTEST's events carry the X server's time (CLOCK_MONOTONIC ms): every one measured.
    check(notes.get("input_clock_status") == "known",
          "the probe window's input events had the server's clock (%s, %s events)" %
          (notes.get("input_clock_status"), notes.get("input_events")))
    lateness = report.get("summary", {}).get("mainloop_lateness", {})
    print("main-loop lateness: n=%s p50=%s p99=%s max=%s" % tuple(lateness.get(k) for k in ("n", "p50", "p99", "max")))

left = os.listdir(target)
check(left == [], "no file left in the target folder (%s)" % left)

check(os.path.exists(window_png), "the window screenshot was written (%s)" % window_png)
if os.path.exists(window_png):
    with open(window_png, "rb") as f:
        header = f.read(24)
    width, height = struct.unpack(">II", header[16:24])
    check(header[:8] == b"\x89PNG\r\n\x1a\n" and width >= 800 and height >= 500,
          "the screenshot is a PNG of the window (%dx%d)" % (width, height))

sys.exit(1 if failures else 0)
CHECK
