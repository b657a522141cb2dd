#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-gui-wayland.sh (issue 19, acceptance 3): the window under headless sway. sway
# refuses to run as root, so as root the compositor, the window and the clients run as
# `nobody` (setpriv) from copies of the programs in a folder of this test (a build tree
# under /root is not readable by nobody), each with the test's own XDG_RUNTIME_DIR.
# rp-virtual-input types (Shift) and moves the pointer over the window with
# CLOCK_MONOTONIC time stamps, the way a real input device of wlroots is stamped.
# Asserts: the report's frame intervals came from presentation feedback (note
# frame_timing_source) and there are some; input latency has samples and the report
# says which had a known clock and which time 0 (as wtype sends); the display probe
# has round trips to Wayland (sway) and, from the same CLI, to X11 (Xvfb). Nothing
# here depends on how fast anything is: the run ends when the input is sent.
# Keeps the screen (grim) and the window's report in the build dir as artefacts.
set -u
gui=${RESPROBE_GUI:?RESPROBE_GUI must point at the resprobe binary}
cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}
input=${RESPROBE_VIRTUAL_INPUT:?RESPROBE_VIRTUAL_INPUT must point at rp-virtual-input}
schemas=${GSETTINGS_SCHEMA_DIR:?GSETTINGS_SCHEMA_DIR must name the compiled schemas}
out=${G_TEST_BUILDDIR:-$PWD}  # artefacts: gui-wayland.png, gui-wayland-report.json
rm -f "$out/gui-wayland.png" "$out/gui-wayland-report.json"

if ! command -v sway >/dev/null; then
  echo "1..0 # SKIP sway is not installed (build-aux/install-deps.sh installs it)"
  exit 0
fi
for tool in swaymsg Xvfb python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "not ok 1 - $tool missing (build-aux/install-deps.sh installs it)"
    echo "1..1"
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/test-gui-wayland-XXXXXX")
failures=0; n=0
tap() { local line="$*"; echo "${line//$'\n'/ | }"; }
ok()   { n=$((n + 1)); tap "ok $n - $*"; }
fail() { n=$((n + 1)); tap "not ok $n - $*"; failures=$((failures + 1)); }
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

# Who runs the session: ourselves, or nobody when we are root.
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
  chmod 755 "$work"
  # A $TMPDIR under a private folder (/root/…) is not nobody's to enter: /tmp is.
  if ! "${as_user[@]}" test -x "$work/."; then
    rm -rf "$work"
    work=$(mktemp -d /tmp/test-gui-wayland-XXXXXX)
    chmod 755 "$work"
  fi
fi
mkdir -p "$work/bin" "$work/schemas" "$work/home" "$work/target" "$work/out" "$work/runtime"
cp "$gui" "$cli" "$input" "$work/bin/"
cp "$schemas/gschemas.compiled" "$work/schemas/"
chmod -R a+rX "$work/bin" "$work/schemas"
chmod 700 "$work/runtime"
[ "$(id -u)" -eq 0 ] && chown nobody:nogroup "$work/home" "$work/target" "$work/out" "$work/runtime"
printf 'output HEADLESS-1 resolution 1280x800\n' >"$work/sway.conf"
chmod 644 "$work/sway.conf"

# The session's environment, nothing of ours (no DISPLAY, no session bus).
session_env=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$work/home" LC_ALL=C.UTF-8
  XDG_RUNTIME_DIR="$work/runtime" XDG_DATA_HOME="$work/home/data" XDG_CONFIG_HOME="$work/home/config"
  XDG_CACHE_HOME="$work/home/cache")

"${as_user[@]}" "${session_env[@]}" WLR_BACKENDS=headless WLR_RENDERER=pixman WLR_LIBINPUT_NO_DEVICES=1 \
  sway -c "$work/sway.conf" >"$work/sway.log" 2>&1 &
pids+=($!)
socket=
for _ in $(seq 150); do
  socket=$(cd "$work/runtime" && ls wayland-* 2>/dev/null | grep -v lock | head -n1)
  swaysock=$(ls "$work/runtime"/sway-ipc.*.sock 2>/dev/null | head -n1)
  [ -n "$socket" ] && [ -n "$swaysock" ] && break
  sleep 0.1
done
if [ -z "$socket" ] || [ -z "$swaysock" ]; then
  fail "sway started headless: $(tail -n 5 "$work/sway.log")"
  echo "1..$n"
  exit 1
fi
ok "sway runs headless on $socket$([ ${#as_user[@]} -gt 0 ] && echo ' as nobody')"
wayland=("${as_user[@]}" "${session_env[@]}" WAYLAND_DISPLAY="$socket")

# The window: R1 on the test's folder, its report saved on exit.
"${wayland[@]}" GDK_BACKEND=wayland GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1 \
  GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$work/schemas" DBUS_SESSION_BUS_ADDRESS=disabled: \
  "$work/bin/resprobe" --dir "$work/target" --size 64M --duration 300 --start \
  --report-on-exit "$work/out/window.json" >"$work/gui.out" 2>&1 &
gui_pid=$!
pids+=($gui_pid)

mapped=
for _ in $(seq 300); do
  if "${as_user[@]}" swaymsg -s "$swaysock" -t get_tree 2>/dev/null | grep -q '"app_id": "[^"]*[Rr]esprobe'; then
    mapped=yes
    break
  fi
  kill -0 "$gui_pid" 2>/dev/null || break
  sleep 0.1
done
if [ -n "$mapped" ]; then
  ok "the window is mapped in sway"
else
  fail "the window did not appear: $(tail -n 5 "$work/gui.out")"
fi

# The window's probes start with the run, a moment after the window maps (later on
# a busy machine): input before that is not counted. They have started once the
# window's process has their wake-up thread (rp_ui_probes_start() starts the input
# probe, then that thread, named rp-wakeup-probe).
started=
for _ in $(seq 1200); do
  if cat /proc/"$gui_pid"/task/*/comm 2>/dev/null | grep -qx 'rp-wakeup-probe'; then
    started=yes
    break
  fi
  kill -0 "$gui_pid" 2>/dev/null || break
  sleep 0.05
done
if [ -n "$started" ]; then ok "the window's probes run (its rp-wakeup-probe thread is there)"
else fail "the window's probes did not start: $(tail -n 5 "$work/gui.out")"; fi

# Input with real time stamps while the run goes on: pointer motion every 8 ms over
# the charts (each motion redraws a chart's hover, so the window draws frame after
# frame and presentation feedback pairs consecutive frames), Shift presses between.
if "${wayland[@]}" "$work/bin/rp-virtual-input" --keys 40 --motions 400 --interval-ms 8 \
     >"$work/input.out" 2>&1; then
  ok "virtual input sent: $(cat "$work/input.out")"
else
  fail "virtual input: $(tail -n 3 "$work/input.out")"
fi

# Then time stamps 0, as wtype sends them: counted apart, not measured. From our
# client, whose keyboard lives through them: wtype's own keys (its keyboard lives for
# them alone) were counted by the window in six of nine tries here, most likely gone
# before the window had taken the seat's new wl_keyboard (WLR_LIBINPUT_NO_DEVICES: no
# other keyboard). More real-time events follow, which the window reads after these.
if "${wayland[@]}" "$work/bin/rp-virtual-input" --zero-time --keys 20 --motions 20 --interval-ms 8 \
     >"$work/zero.out" 2>&1; then
  ok "virtual input with time 0 sent: $(cat "$work/zero.out")"
else
  fail "virtual input with time 0: $(tail -n 3 "$work/zero.out")"
fi
"${wayland[@]}" "$work/bin/rp-virtual-input" --keys 5 --motions 20 --interval-ms 8 >>"$work/input.out" 2>&1

# The screen as sway shows it (an artefact beside the build's other GUI shots).
if command -v grim >/dev/null; then
  "${wayland[@]}" grim "$work/out/screen.png" 2>/dev/null && cp "$work/out/screen.png" "$out/gui-wayland.png"
fi

# The display probe from the CLI in the same session.
"${wayland[@]}" "$work/bin/resprobe-cli" run --dir "$work/target" --load none --probe display \
  --duration 2 --report "$work/out/wayland.json" >"$work/wayland.out" 2>&1
wayland_status=$?

# The run ends when we say so, not after some time: SIGTERM closes the window, which
# stops the run and saves its report (--report-on-exit), as closing it by hand does.
kill -TERM "$gui_pid"
wait "$gui_pid"
gui_status=$?
[ -s "$work/out/window.json" ] && cp "$work/out/window.json" "$out/gui-wayland-report.json"
if [ "$gui_status" -eq 0 ] && [ -s "$work/out/window.json" ]; then
  ok "the window ran and saved its report"
else
  fail "the window exited with $gui_status: $(tail -n 5 "$work/gui.out")"
fi

# X11: the same probe against Xvfb.
exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
x11_status=1
if [ -s "$work/display" ]; then
  env -u WAYLAND_DISPLAY DISPLAY=":$(head -n1 "$work/display")" "$cli" run --dir "$work/target" \
    --load none --probe display --duration 2 --report "$work/out/x11.json" >"$work/x11.out" 2>&1
  x11_status=$?
fi

python3 - "$work/out" "$wayland_status" "$x11_status" "$n" "$failures" <<'PYTHON'
import json, os, sys
from resprobe_report import samples

out, wayland_status, x11_status = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
n, failures = int(sys.argv[4]), int(sys.argv[5])  # the shell's checks so far

def check(condition, message):
    global n, failures
    n += 1
    print(("ok %d - " if condition else "not ok %d - ") % n + message)
    failures += not condition

def load(name):
    path = os.path.join(out, name)
    return json.load(open(path)) if os.path.exists(path) else None

window = load("window.json")
if window is not None:
    notes = window.get("notes", {})
    frames = [v for _, v in samples(window["series"].get("frame_interval", {}))]
    check(notes.get("frame_timing_source") == "presentation",
          "frame intervals from presentation feedback (frame_timing_source %s)" % notes.get("frame_timing_source"))
    check(len(frames) > 0 and all(v > 0 for v in frames),
          "%d frame intervals between consecutive presented frames, median %s ms (%s presented apart, not measured)" %
          (len(frames), "%.1f" % (sorted(frames)[len(frames) // 2] * 1e3) if frames else "-",
           notes.get("frames_presented_apart")))
    inputs = [v for _, v in samples(window["series"].get("input_latency", {}))]
    check(len(inputs) > 0 and all(v >= 0 for v in inputs),
          "%d input latency samples, median %s ms, of %s events" %
          (len(inputs), "%.2f" % (sorted(inputs)[len(inputs) // 2] * 1e3) if inputs else "-",
           notes.get("input_events")))
    zero = int(notes.get("input_events_time_zero", "0"))
    check(notes.get("input_clock_status") == "mixed" and zero > 0 and
          int(notes.get("input_events_unknown_clock", "0")) == zero,
          "the time-0 events were counted apart, the rest had a known clock (input_clock_status %s, %s with time 0, %s unknown)" %
          (notes.get("input_clock_status"), notes.get("input_events_time_zero"),
           notes.get("input_events_unknown_clock")))
else:
    check(False, "no report of the window")

for name, status, server in (("wayland.json", wayland_status, "wayland"), ("x11.json", x11_status, "x11")):
    report = load(name)
    trips = [v for _, v in samples(report["series"].get("display_round_trip", {}))] if report else []
    got = report.get("notes", {}).get("display_server") if report else None
    check(status == 0 and got == server and len(trips) > 0 and all(v > 0 for v in trips),
          "display round trips to %s: %d, exit %d (server %s)" % (server, len(trips), status, got))
print("1..%d" % n)
sys.exit(1 if failures else 0)
PYTHON
