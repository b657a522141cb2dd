#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-gui-close.sh: stopping and closing during a run under Xvfb. Ctrl+. stops a 60 s
# run early (the report says so); Ctrl+W closes the window mid-run, and SIGTERM asks
# the application to quit: either way it stops the workers, removes its files (and
# saves the report it was asked for) and exits by itself.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)   # this folder: xvfb-run.sh

gui=${RESPROBE_GUI:?RESPROBE_GUI must point at the resprobe binary}

for tool in Xvfb xdotool python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is not installed: build-aux/install-deps.sh installs it"
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/test-gui-close-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/stop" "$work/close" "$work/term"
export RP_WORK="$work" RP_GUI="$gui" GSK_RENDERER=cairo GTK_A11Y=none

cat >"$work/session.sh" <<'INNER'
set -u
window_of () {
  local wid=
  for _ in $(seq 100); do
    wid=$(xdotool search --onlyvisible --pid "$1" --name 'Responsiveness Probe' 2>/dev/null | head -n1)
    [ -n "$wid" ] && break
    sleep 0.1
  done
  echo "$wid"
}
# The probe window (the window's child resprobe-canary) measures once it has
# its rp-wakeup-probe thread; before that a run has no felt samples. Waited
# for, not slept: on a loaded machine its start took more than the 3 s this
# test gave it (issue 32; 60 s is a hang guard).
probe_measures () {
  local c
  for _ in $(seq 600); do
    c=$(pgrep -P "$1" -x resprobe-canary | head -n1)
    [ -n "$c" ] && grep -qx rp-wakeup-probe /proc/"$c"/task/*/comm 2>/dev/null && return 0
    kill -0 "$1" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# 1. Stop with Ctrl+. three seconds into a 60 s run.
"$RP_GUI" --dir "$RP_WORK/stop" --size 128M --duration 60 --start \
  --report-on-exit "$RP_WORK/stop.json" 2>"$RP_WORK/stop.stderr" &
pid=$!
wid=$(window_of $pid)
probe_measures $pid
sleep 1
xdotool windowfocus "$wid" 2>/dev/null || true
xdotool mousemove --window "$wid" 700 400 key ctrl+period
start=$(date +%s)
wait $pid
echo "stop: status $? after $(( $(date +%s) - start )) s" >"$RP_WORK/stop.status"

# 2. Close with Ctrl+W three seconds into a 60 s run.
"$RP_GUI" --dir "$RP_WORK/close" --size 128M --duration 60 --start 2>"$RP_WORK/close.stderr" &
pid=$!
wid=$(window_of $pid)
sleep 3
xdotool windowfocus "$wid" 2>/dev/null || true
xdotool mousemove --window "$wid" 700 400 key ctrl+w
start=$(date +%s)
wait $pid
echo "close: status $? after $(( $(date +%s) - start )) s" >"$RP_WORK/close.status"

# 3. SIGTERM three seconds into a 60 s run.
"$RP_GUI" --dir "$RP_WORK/term" --size 128M --duration 60 --start \
  --report-on-exit "$RP_WORK/term.json" 2>"$RP_WORK/term.stderr" &
pid=$!
wid=$(window_of $pid)
probe_measures $pid
sleep 1
kill -TERM $pid
start=$(date +%s)
wait $pid
echo "term: status $? after $(( $(date +%s) - start )) s" >"$RP_WORK/term.status"
INNER

if command -v dbus-run-session >/dev/null; then
  runner=(dbus-run-session --)
else
  export DBUS_SESSION_BUS_ADDRESS=disabled:
  runner=()
fi
# -noreset: the cases connect one after the other; a server that resets when the
# last client leaves refuses the next one for a moment ("cannot open display").
timeout 150 "${runner[@]}" "$here/xvfb-run.sh" bash "$work/session.sh"

python3 - "$work" <<'CHECK'
import json, os, re, sys

work = sys.argv[1]
failures = []

def check(condition, message):
    print(("ok: " if condition else "FAIL: ") + message)
    if not condition:
        failures.append(message)

def read(name):
    path = os.path.join(work, name)
    return open(path, errors="replace").read().strip() if os.path.exists(path) else ""

for case in ("stop", "close", "term"):
    status = read(case + ".status")
    match = re.match(r"\w+: status (\d+) after (\d+) s", status)
    check(match is not None and match.group(1) == "0", "%s: resprobe exited with status 0 (%s)" % (case, status))
    check(match is not None and int(match.group(2)) < 30, "%s: it exited long before the 60 s" % case)
    # Not the system icon theme's word on our own icon: the package test
    # (CI's system stream, beside this one) installs and purges it, and
    # between the file's removal and dpkg's trigger that updates the theme's
    # cache GTK finds it listed but missing (seen once in a CI run).
    stderr = "\n".join(line for line in read(case + ".stderr").splitlines()
                       if not re.search(r"Failed to load icon /usr/share/icons/.*io\.github\.resprobe\.Resprobe", line))
    check("CRITICAL" not in stderr and "WARNING" not in stderr, "%s: no warnings (%s)" % (case, stderr[:300]))
    left = os.listdir(os.path.join(work, case))
    check(left == [], "%s: no file left in the target folder (%s)" % (case, left))

for case in ("stop", "term"):
    report = os.path.join(work, case + ".json")
    check(os.path.exists(report), "%s: the report was saved" % case)
    if os.path.exists(report):
        data = json.load(open(report))
        check(data["duration"] < 30, "%s: the run lasted %.1f s, not 60" % (case, data["duration"]))
        frames = float(data.get("notes", {}).get("frames", "0") or 0)
        n = data["summary"].get("mainloop_lateness", {}).get("n", 0)
        check(n > 0, "%s: the UI probes recorded (%d samples, %d frames)" % (case, n, frames))

sys.exit(1 if failures else 0)
CHECK
