#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-gui-compare.sh: `resprobe FILE…` under Xvfb. Two reports (a real short run of
# resprobe-cli, and the same run relabelled ext3 data=writeback) open the comparison
# window; one report opens in the main window like a finished run and saves back to
# the same summary; a truncated report and nine reports give a message naming the
# problem, not a crash. A bad report among good ones blocks nothing: the good ones
# are compared (or the one left is shown) and the bad one is named. That case runs
# 20 times in a row (RP_PARTIAL_RUNS), each run must end with status 0: under load it
# once died with SIGSEGV, a window finalized on a worker thread (issue 30). The
# windows are kept as PNGs in the build dir (gui-compare-window.png,
# gui-report-window.png, gui-compare-partial-window.png).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)   # this folder: xvfb-run.sh

gui=${RESPROBE_GUI:?RESPROBE_GUI must point at the resprobe binary}
cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}
out=${G_TEST_BUILDDIR:-$PWD}

for tool in Xvfb xdotool python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is not installed: build-aux/install-deps.sh installs it"
    exit 1
  fi
done

# Under the build dir: /tmp may be tmpfs, where fsync does nothing.
work=$(mktemp -d "$out/gui-compare-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/target"

if ! "$cli" run --dir "$work/target" --size 32M --duration 3 --report "$work/ordered.json" \
     >"$work/cli.out" 2>&1; then
  echo "resprobe-cli run failed:"; cat "$work/cli.out"; exit 1
fi
python3 - "$work" <<'MAKE'
import json, os, sys
from resprobe_report import samples
work = sys.argv[1]
report = json.load(open(os.path.join(work, "ordered.json")))
report["system"]["fs_type"] = "ext3"
report["system"]["journal_mode"] = "ordered"
json.dump(report, open(os.path.join(work, "a.json"), "w"))
report["system"]["journal_mode"] = "writeback"
# A writeback run: every fsync ten times faster, written back as JSON
# arrays (a reader takes them in any version).
fsync = report["series"]["fsync_latency"]
points = samples(fsync)
for point in points:
    point[1] /= 10
fsync.pop("blocks", None)
fsync.pop("count", None)
fsync["samples"] = points
report["summary"] = {}
json.dump(report, open(os.path.join(work, "b.json"), "w"))
text = open(os.path.join(work, "a.json")).read()
open(os.path.join(work, "truncated.json"), "w").write(text[: len(text) // 2])
MAKE

# Two reports and a truncated one between them, run after run: 20 runs add about
# 25 s to this test on a quiet machine (23 s before), 50 s beside stress-ng.
export RP_PARTIAL_RUNS=${RP_PARTIAL_RUNS:-20}
export RP_WORK="$work" RP_GUI="$gui" RP_OUT="$out"
rm -f "$out/gui-compare-window.png" "$out/gui-report-window.png" "$out/gui-compare-partial-window.png"

# Inside the X server: each case runs resprobe to its end; the comparison case also
# looks for the window by its title while it is up.
cat >"$work/session.sh" <<'INNER'
set -u
run_case () {
  local name=$1; shift
  GSK_RENDERER=cairo GTK_A11Y=none timeout 60 "$RP_GUI" "$@" \
    >"$RP_WORK/$name.stdout" 2>"$RP_WORK/$name.stderr"
  echo $? >"$RP_WORK/$name.status"
}

GSK_RENDERER=cairo GTK_A11Y=none timeout 60 "$RP_GUI" --screenshot-on-exit "$RP_OUT/gui-compare-window.png" \
  "$RP_WORK/a.json" "$RP_WORK/b.json" >"$RP_WORK/compare.stdout" 2>"$RP_WORK/compare.stderr" &
pid=$!
# Looked for while the process lives (it closes the window itself once its PNG is
# written, 0.5 s after the comparison shows at the soonest): no deadline of its own
# but the process's timeout (was 100 tries, about 5 s, on a loaded machine too).
while kill -0 "$pid" 2>/dev/null; do
  if xdotool search --onlyvisible --name '^Compare Reports$' >/dev/null 2>&1; then
    echo found >"$RP_WORK/compare.window"
    break
  fi
  sleep 0.05
done
wait "$pid"
echo $? >"$RP_WORK/compare.status"

run_case single --screenshot-on-exit "$RP_OUT/gui-report-window.png" \
  --report-on-exit "$RP_WORK/resaved.json" "$RP_WORK/a.json"
run_case truncated --screenshot-on-exit "$RP_WORK/none.png" "$RP_WORK/truncated.json"
run_case mixed --screenshot-on-exit "$RP_WORK/mixed.png" "$RP_WORK/a.json" "$RP_WORK/truncated.json"
# The first run that fails ends the loop; the last run's window is the artefact.
for i in $(seq "$RP_PARTIAL_RUNS"); do
  run_case "partial-$i" --screenshot-on-exit "$RP_WORK/partial-$i.png" \
    "$RP_WORK/a.json" "$RP_WORK/truncated.json" "$RP_WORK/b.json"
  cp "$RP_WORK/partial-$i.png" "$RP_OUT/gui-compare-partial-window.png" 2>/dev/null
  [ "$(cat "$RP_WORK/partial-$i.status")" = 0 ] || break
done
run_case nine --screenshot-on-exit "$RP_WORK/none.png" $(for i in $(seq 9); do echo "$RP_WORK/a.json"; done)
INNER

if command -v dbus-run-session >/dev/null; then
  runner=(dbus-run-session --)
else
  export DBUS_SESSION_BUS_ADDRESS=disabled:
  runner=()
fi
# -noreset: several clients in turn; a server that resets when the last one leaves
# refuses the next one for a moment ("cannot open display").
timeout 300 "${runner[@]}" "$here/xvfb-run.sh" -s "-screen 0 1280x1000x24" \
  bash "$work/session.sh" 2>/dev/null

python3 - "$work" "$out" <<'CHECK'
import json, os, struct, sys

work, out = sys.argv[1:3]
failures = []
n = 0

def check(condition, message):
    global n
    n += 1
    print(("ok %d - " if condition else "not ok %d - ") % n + message)
    if not condition:
        failures.append(message)

def read(name, default=""):
    path = os.path.join(work, name)
    return open(path, errors="replace").read().strip() if os.path.exists(path) else default

def png_size(path):
    with open(path, "rb") as f:
        header = f.read(24)
    if header[:8] != b"\x89PNG\r\n\x1a\n":
        return (0, 0)
    return struct.unpack(">II", header[16:24])

def clean(stderr):
    return "CRITICAL" not in stderr and "WARNING" not in stderr and "Gtk-" not in stderr

# Two reports: the comparison window, by its title, then its picture.
check(read("compare.status") == "0", "compare: exit status 0 (%s)" % read("compare.status", "missing"))
check(read("compare.window") == "found", "compare: a window titled 'Compare Reports' appeared")
check(clean(read("compare.stderr")), "compare: no warnings on stderr: %r" % read("compare.stderr")[:500])
png = os.path.join(out, "gui-compare-window.png")
check(os.path.exists(png) and png_size(png)[0] >= 600, "compare: window PNG written (%s, %s)" %
      (png, png_size(png) if os.path.exists(png) else None))

# One report: the main window, and the report saved back with the same summary.
check(read("single.status") == "0", "single: exit status 0 (%s)" % read("single.status", "missing"))
check(clean(read("single.stderr")), "single: no warnings on stderr: %r" % read("single.stderr")[:500])
png = os.path.join(out, "gui-report-window.png")
check(os.path.exists(png) and png_size(png)[0] >= 800, "single: window PNG written (%s)" % png)
resaved = os.path.join(work, "resaved.json")
if os.path.exists(resaved):
    a = json.load(open(os.path.join(work, "a.json")))
    b = json.load(open(resaved))
    check(a["summary"] == b["summary"], "single: the report saved from the window has the same summary")
    check(a["series"]["fsync_latency"] == b["series"]["fsync_latency"], "single: and the same fsync samples")
else:
    check(False, "single: the report was saved from the window")

# Bad input: a message naming the file and the reason, a normal exit.
truncated = os.path.join(work, "truncated.json")
for case in ("truncated", "mixed"):
    stderr = read(case + ".stderr")
    check(read(case + ".status") == "0", "%s: exit status 0, not a crash (%s)" % (case, read(case + ".status", "missing")))
    check(truncated in stderr and "truncated?" in stderr, "%s: the message names the file and why: %r" % (case, stderr))
    check(clean(stderr), "%s: no warnings on stderr" % case)
# The partial case, run after run: every one ends normally (issue 30).
runs = ["partial-%d" % i for i in range(1, int(os.environ["RP_PARTIAL_RUNS"]) + 1)]
statuses = [read(run + ".status", "missing") for run in runs]
failed = [(i + 1, status) for i, status in enumerate(statuses) if status != "0"]
check(not failed, "partial: %d runs in a row, each exit status 0, not a crash (%s)" %
      (len(runs), "first failed: run %d, status %s" % failed[0] if failed else "all 0"))
stderrs = [read(run + ".stderr") for run in runs if os.path.exists(os.path.join(work, run + ".stderr"))]
named = [stderr for stderr in stderrs if truncated in stderr and "truncated?" in stderr]
check(stderrs and len(named) == len(stderrs), "partial: every run's message names the file and why (%d of %d): %r" %
      (len(named), len(stderrs), stderrs[0] if stderrs else None))
check(all(clean(stderr) for stderr in stderrs), "partial: no warnings on stderr in any run: %r" %
      [stderr for stderr in stderrs if not clean(stderr)][:1])
# ... and what did load still shows: the one report alone, the two compared.
png = os.path.join(work, "mixed.png")
check(os.path.exists(png) and png_size(png)[0] >= 800, "mixed: the good report shows (%s)" % png)
pngs = [os.path.join(work, run + ".png") for run in runs if os.path.exists(os.path.join(work, run + ".status"))]
small = [png for png in pngs if not os.path.exists(png) or png_size(png)[0] < 600]
check(pngs and not small, "partial: the two good reports are compared in every run (%d runs, PNG missing or small: %s)" %
      (len(pngs), small[:3]))
stderr = read("nine.stderr")
check(read("nine.status") == "0" and "2 to 8" in stderr, "nine: explained (%r)" % stderr)
check(not os.path.exists(os.path.join(work, "none.png")), "bad input: no screenshot of nothing")

print("1..%d" % n)
sys.exit(1 if failures else 0)
CHECK
