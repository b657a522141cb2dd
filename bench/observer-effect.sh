#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Observer effect (issue 7): while the heaviest preset runs, with the simulate-save
# toggle off, the GUI's own main-loop lateness must stay within one frame at 60 Hz
# (p99 ≤ 16 ms). Runs the window under Xvfb and prints the figures.
# Usage: bench/observer-effect.sh [BUILD_DIR] [SCENARIO] [SECONDS] [DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-_build}
scenario=${2:-R3}
seconds=${3:-30}
target_parent=${4:-$HOME/.cache}
gui="$PWD/$build/app/gui/resprobe"
[ -x "$gui" ] || { echo "build first: $gui is missing" >&2; exit 1; }

mkdir -p "$target_parent"
work=$(mktemp -d "$target_parent/resprobe-observer-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/target"

GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$PWD/$build/data" GSK_RENDERER=cairo NO_AT_BRIDGE=1 \
  xvfb-run -a -s "-screen 0 1280x800x24" \
  "$gui" --dir "$work/target" --scenario "$scenario" --duration "$seconds" --start \
  --report-on-exit "$work/report.json" >/dev/null 2>"$work/stderr" || true

python3 - "$work/report.json" "$scenario" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["summary"].get("mainloop_lateness")
if not s or not s.get("n"):
    sys.exit("no main-loop lateness samples in the report")
ok = s["p99"] <= 0.016
print(f"scenario {sys.argv[2]}: main-loop lateness n={s['n']} p50={s['p50']*1e3:.2f} ms "
      f"p99={s['p99']*1e3:.2f} ms max={s['max']*1e3:.1f} ms -> goal p99 <= 16 ms: {'met' if ok else 'MISSED'}")
sys.exit(0 if ok else 1)
PY
