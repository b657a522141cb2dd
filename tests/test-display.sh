#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-display.sh (issue 19): the display probe measures the display server's round trip
# on X11 (Xvfb) and on Wayland (weston's headless backend), each from resprobe-cli with
# nothing but the environment naming the display; without a display it refuses clearly.
set -u
cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}
for tool in Xvfb weston python3; do
  if ! command -v "$tool" >/dev/null; then
    echo "not ok 1 - $tool missing (build-aux/install-deps.sh installs it)"
    echo "1..1"
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/test-display-XXXXXX")
mkdir -m 700 "$work/runtime" "$work/target"
failures=0; n=0
tap() { local line="$*"; echo "${line//$'\n'/ | }"; }
ok()   { n=$((n + 1)); tap "ok $n - $*"; }
fail() { n=$((n + 1)); tap "not ok $n - $*"; failures=$((failures + 1)); }
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

# Samples of display_round_trip, and which server the report names.
check() {
  python3 - "$1" "$2" <<'PYTHON'
import json, sys
from resprobe_report import samples as points
report = json.load(open(sys.argv[1]))
samples = [v for _, v in points(report["series"].get("display_round_trip", {}))]
server = report["notes"].get("display_server")
print(f"{len(samples)} round trips to {server}, median {sorted(samples)[len(samples) // 2] * 1e3:.3f} ms" if samples else "no samples")
sys.exit(0 if len(samples) >= 5 and server == sys.argv[2] and all(0 < v < 60 for v in samples) else 1)
PYTHON
}

run_probe() {
  "$cli" run --dir "$work/target" --load none --probe display --duration 2 --report "$work/$1.json" \
    >"$work/$1.out" 2>&1
}

# X11
exec 3>"$work/display"
Xvfb -displayfd 3 -screen 0 640x480x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
exec 3>&-
for _ in $(seq 100); do [ -s "$work/display" ] && break; sleep 0.1; done
if [ -s "$work/display" ] && (unset WAYLAND_DISPLAY; DISPLAY=":$(head -n1 "$work/display")" run_probe x11) &&
   result=$(check "$work/x11.json" x11); then
  ok "X11: $result"
else
  fail "X11: ${result:-} $(tail -n 3 "$work/x11.out" "$work/xvfb.log" 2>/dev/null)"
fi

# Wayland: weston's headless backend on a socket of its own.
XDG_RUNTIME_DIR="$work/runtime" weston --backend=headless-backend.so --socket=resprobe-test \
  --idle-time=0 --no-config >"$work/weston.log" 2>&1 &
pids+=($!)
for _ in $(seq 100); do [ -S "$work/runtime/resprobe-test" ] && break; sleep 0.1; done
result=
if [ -S "$work/runtime/resprobe-test" ] &&
   (unset DISPLAY; XDG_RUNTIME_DIR="$work/runtime" WAYLAND_DISPLAY=resprobe-test run_probe wayland) &&
   result=$(check "$work/wayland.json" wayland); then
  ok "Wayland: $result"
else
  fail "Wayland: ${result:-} $(tail -n 3 "$work/wayland.out" "$work/weston.log" 2>/dev/null)"
fi

# No display: a clear error, exit 1, no report.
(unset DISPLAY WAYLAND_DISPLAY; run_probe none)
status=$?
if [ "$status" -eq 1 ] && grep -q "no display server" "$work/none.out" && [ ! -e "$work/none.json" ]; then
  ok "without a display: refused, exit 1"
else
  fail "without a display: exit $status: $(tail -n 3 "$work/none.out")"
fi
if [ -z "$(ls -A "$work/target")" ]; then ok "nothing left in the target"; else fail "left: $(ls -A "$work/target")"; fi

echo "1..$n"
[ "$failures" -eq 0 ]
