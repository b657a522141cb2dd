#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-gui-desktop.sh: resprobe's desktop integration, under Xvfb and a private session
# bus on which fake-session-services.py stands in for gnome-session and a notification
# server, with settings in a key file (as on a real desktop, not in memory):
#  A. a 3 s run inhibits suspend and idle (flags 4|8, with a reason) and lifts the
#     inhibitor when it ends; a run that short sends no notification;
#  B. a second launch without options restores the last run's scenario, folder, size and
#     duration, and the window size set in the settings;
#  C. a 62 s run that ends while the window is in the background sends one notification.
set -uo pipefail

gui=${RESPROBE_GUI:?RESPROBE_GUI must point at the resprobe binary}
here=$(cd "$(dirname "$0")" && pwd)

for tool in Xvfb xdotool xwininfo dbus-run-session gsettings; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is not installed: build-aux/install-deps.sh installs it"
    exit 1
  fi
done
# The stand-ins need PyGObject, which the system Python has (python3-gi).
python_gi=
for candidate in /usr/bin/python3 python3; do
  if "$candidate" -c 'import gi' 2>/dev/null; then python_gi=$candidate; break; fi
done
if [ -z "$python_gi" ]; then
  echo "FAIL: no Python with PyGObject (python3-gi): build-aux/install-deps.sh installs it"
  exit 1
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/test-gui-desktop-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/target" "$work/config"
export RP_WORK="$work" RP_TARGET="$work/target" RP_GUI="$gui" RP_HERE="$here" RP_PYTHON="$python_gi"
# Settings that outlive the process, in a private key file.
export GSETTINGS_BACKEND=keyfile XDG_CONFIG_HOME="$work/config"

cat >"$work/session.sh" <<'INNER'
set -u
"$RP_PYTHON" "$RP_HERE/fake-session-services.py" "$RP_WORK/calls.jsonl" >"$RP_WORK/services.out" 2>&1 &
services=$!
for _ in $(seq 50); do grep -q ready "$RP_WORK/services.out" 2>/dev/null && break; sleep 0.1; done

gsettings set io.github.resprobe.Resprobe window-width 1000
gsettings set io.github.resprobe.Resprobe window-height 700

run () {
  local name=$1; shift
  # A hung window must not outlive the test (a timeout kills only this script).
  GSK_RENDERER=cairo GTK_A11Y=none timeout -k 5 120 "$RP_GUI" "$@" >"$RP_WORK/$name.stdout" 2>"$RP_WORK/$name.stderr"
  echo "$name: exit status $?" >>"$RP_WORK/status"
  echo "--- $name" >>"$RP_WORK/calls.jsonl"
}

# A: a short R3 run; its form is stored.
run A --scenario R3 --size 8M --dir "$RP_TARGET" --duration 3 --start --report-on-exit "$RP_WORK/A.json"
# B: no options: the stored form and window size.
run B --start --report-on-exit "$RP_WORK/B.json" --screenshot-on-exit "$RP_WORK/B.png"
# C: over a minute, in the background: without a window manager, the window is
# active while it has the keyboard focus or the pointer; give both to the root.
run C --scenario passive --duration 62 --start --report-on-exit "$RP_WORK/C.json" &
app=$!
# Once its window shows (not after a fixed time: a window mapped after the
# focus went to the root would take it, and be active): a minute at most.
for _ in $(seq 600); do
  xdotool search --onlyvisible --name "Responsiveness Probe" >/dev/null 2>&1 && break
  sleep 0.1
done
sleep 1
xdotool mousemove 1270 790
xdotool windowfocus "$(xwininfo -root | awk '/Window id:/ { print $4 }')"
wait "$app"
kill "$services" 2>/dev/null
INNER

timeout 150 dbus-run-session -- "$here/xvfb-run.sh" \
  bash "$work/session.sh"
echo "session: $?"
for name in A B C; do
  echo "--- stderr of run $name"
  cat "$work/$name.stderr" 2>/dev/null
done
echo "--- calls"
cat "$work/calls.jsonl" 2>/dev/null
echo "---"

python3 - "$work" <<'CHECK'
import json, os, struct, sys

work = sys.argv[1]
failures = []

def check(condition, message):
    print(("ok: " if condition else "FAIL: ") + message)
    if not condition:
        failures.append(message)

def read(name):
    path = os.path.join(work, name)
    return open(path, errors="replace").read() if os.path.exists(path) else ""

status = read("status")
for name in "ABC":
    check("%s: exit status 0" % name in status, "run %s exited with status 0" % name)
    stderr = read(name + ".stderr")
    check("CRITICAL" not in stderr and "WARNING" not in stderr,
          "no CRITICAL or WARNING on the stderr of run %s" % name)

# The calls, split per run at the "--- NAME" markers.
runs, current = {}, []
for line in read("calls.jsonl").splitlines():
    if line.startswith("--- "):
        runs[line[4:]] = current
        current = []
    elif line.strip():
        current.append(json.loads(line))

def calls(run, method):
    return [c["args"] for c in runs.get(run, []) if c["method"] == method]

for run in "ABC":
    inhibits = calls(run, "Inhibit")
    check(len(inhibits) == 1, "run %s inhibits once (%d)" % (run, len(inhibits)))
    if inhibits:
        app_id, xid, reason, flags = inhibits[0]
        check(app_id == "io.github.resprobe.Resprobe", "the inhibitor names the application (%s)" % app_id)
        check(flags & 4 and flags & 8, "it inhibits suspend (4) and idle (8) (flags %d)" % flags)
        check(len(reason) > 10, "with a reason (%r)" % reason)
    check(len(calls(run, "Uninhibit")) == 1, "run %s lifts its inhibitor at the end" % run)

check(calls("A", "Notify") == [] and calls("B", "Notify") == [],
      "runs under a minute send no notification")
notes = calls("C", "Notify")
check(len(notes) == 1, "the 62 s run in the background sends one notification (%d)" % len(notes))
if notes:
    app_name, replaces, icon, summary, body = notes[0][:5]
    check(app_name == "Responsiveness Probe", "it names the application (%r)" % app_name)
    check(summary == "Run Finished", "its title says the run finished (%r)" % summary)
    check(len(body) > 0, "its body gives the verdict (%r)" % body)

def scenario(name):
    path = os.path.join(work, name)
    return json.load(open(path)).get("scenario", {}) if os.path.exists(path) else {}

a, b = scenario("A.json"), scenario("B.json")
check(a.get("name") == "R3" and b.get("name") == "R3",
      "the scenario is restored (%s, then %s)" % (a.get("name"), b.get("name")))
check(b.get("directory") == os.path.join(work, "target"), "the folder is restored (%s)" % b.get("directory"))
check(b.get("writers_file_size") == 8 * 1024 * 1024,
      "the size is restored (%s)" % b.get("writers_file_size"))
check(b.get("duration") == 3, "the duration is restored (%s)" % b.get("duration"))

png = os.path.join(work, "B.png")
check(os.path.exists(png), "run B saved a screenshot")
if os.path.exists(png):
    width, height = struct.unpack(">II", open(png, "rb").read(24)[16:24])
    # The stored size includes the resize borders around the window's content.
    check(abs(width - 1000) <= 24 and abs(height - 700) <= 24,
          "the window size is restored (1000x700 stored, %dx%d drawn)" % (width, height))

check(os.listdir(os.path.join(work, "target")) == [], "no file left in the target folder")
sys.exit(1 if failures else 0)
CHECK
