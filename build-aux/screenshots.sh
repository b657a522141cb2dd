#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Take the AppStream screenshots (data/screenshots/*.png) of a build under Xvfb:
#   start.png        the window before a run
#   run.png          the window after a 30 s R1 run (a 3 GiB write) on a real disk
#   preferences.png  the Preferences window
# Usage: build-aux/screenshots.sh [BUILD_DIR] [TARGET_DIR]; TARGET_DIR must not be on
# tmpfs (the window would warn that fsync() does nothing there). LANGUAGE=xx takes
# translated ones, e.g. LANGUAGE=pt_BR build-aux/screenshots.sh _build /var/tmp.
#
# build-aux/screenshots.sh --help-figures [BUILD_DIR] [TARGET_DIR] takes the user
# guide's figures (help/C/figures/*.png) instead, as root: two real R1 runs on an
# ext3 image in TARGET_DIR on a loop device of the script's own, data=ordered then
# data=writeback (so that the runs stall as the bug reports' did, for a reason the
# guide explains), each in the window run as the user nobody (what a user sees:
# no kernel events): build-aux/help-figures.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --help-figures ]; then
  shift
  exec bash build-aux/help-figures.sh "$@"
fi

build=$(realpath "${1:-_build}")
target_parent=${2:-/var/tmp}
out=$PWD/data/screenshots
mkdir -p "$out"
# A stable name: the folder shows in the run's screenshot.
work="$target_parent/resprobe-screenshots"
mkdir "$work"
trap 'rm -rf "$work"' EXIT

export RP_GUI="$build/app/gui/resprobe" RP_OUT="$out" RP_WORK="$work"
export GSETTINGS_BACKEND=memory GSETTINGS_SCHEMA_DIR="$build/data" RESPROBE_LOCALEDIR="$build/po"
export GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1
[ -n "${LANGUAGE:-}" ] || export LC_ALL=C.UTF-8

cat >"$work/session.sh" <<'INNER'
set -u
find_window () {
  for _ in $(seq 100); do
    wid=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | tail -n1)
    [ -n "$wid" ] && { echo "$wid"; return 0; }
    sleep 0.1
  done
  return 1
}

# The window before a run, then its Preferences.
"$RP_GUI" --dir "$HOME/.cache/resprobe" &
app=$!
wid=$(find_window '.')
sleep 2
import -window "$wid" "$RP_OUT/start.png"
gdbus call --session --dest io.github.resprobe.Resprobe --object-path /io/github/resprobe/Resprobe \
  --method org.gtk.Actions.Activate preferences '[]' '{}' >/dev/null
sleep 2
prefs=$(xdotool search --onlyvisible --name '.' | grep -vx "$wid" | tail -n1)
import -window "$prefs" "$RP_OUT/preferences.png"
kill -TERM "$app"; wait "$app"

# A run: R1 writing 3 GiB for 30 s, with some input so that every chart has data.
mkdir -p "$RP_WORK/target"
"$RP_GUI" --dir "$RP_WORK/target" --size 3G --duration 30 --start --screenshot-on-exit "$RP_OUT/run.png" &
app=$!
wid=$(find_window '.')
for i in $(seq 40); do
  xdotool mousemove --window "$wid" $((500 + (i % 10) * 40)) $((300 + (i % 4) * 60)) 2>/dev/null
  sleep 0.6
done
# Off the charts, so that the final picture has no hover cursor.
xdotool mousemove 1275 795
wait "$app"
INNER

dbus-run-session -- xvfb-run -a -s "-screen 0 1280x800x24" bash "$work/session.sh"
for png in start run preferences; do
  identify -format "%f %wx%h\n" "$out/$png.png"
done
