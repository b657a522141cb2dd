#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Take the user guide's figures (help/C/figures/*.png) from the real window of a
# build, under Xvfb (build-aux/screenshots.sh --help-figures runs this):
#   start.png    the window before a run                       (start-test.page)
#   run.png      after an R1 run on ext3 data=ordered          (verdict.page)
#   why.png      that report in a taller window: the sidebar's
#                Results and Why, the stalls on the charts      (why-stalled.page)
#   compare.png  the data=ordered and data=writeback runs side
#                by side                                        (compare.page)
# Usage (root): build-aux/help-figures.sh [BUILD_DIR] [TARGET_DIR]
#
# The runs are real: R1 (3 GiB for 20 s) on an ext3 image in TARGET_DIR
# (default /var/tmp, not tmpfs) on a loop device of this script's own
# (LOOP_CTL_ADD, tests/loop-queue.sh), mounted data=ordered, then again
# data=writeback; a journal commit under data=ordered makes the stalls the
# guide explains. The window runs as the user nobody, with a session bus and
# reports folder of its own, so that it shows what a user sees (no kernel
# events, which need root). Everything is removed on exit, also on Ctrl-C.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$(id -u)" -ne 0 ]; then
  echo "help-figures.sh: needs root (it mounts an ext3 image on a loop device of its own)" >&2
  exit 1
fi
build=$(realpath "${1:-_build}")
target_parent=${2:-/var/tmp}
out=$PWD/help/C/figures
here=$PWD
mkdir -p "$out"
# shellcheck source=../tests/loop-queue.sh
. tests/loop-queue.sh

# A stable name: the folder shows in the figures.
work="$target_parent/resprobe-guide"
mnt="$work/ext3"
home="$work/home"
loop_index=""
mkdir "$work"
cleanup () {
  mountpoint -q "$mnt" && umount "$mnt"
  if [ -n "$loop_index" ]; then
    losetup -d "/dev/loop$loop_index" 2>/dev/null || true
    loop_control remove "$loop_index" || true
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

truncate -s 6G "$work/ext3.img"
mkfs.ext3 -q -F "$work/ext3.img"
loop_index=$(loop_control add)
losetup "/dev/loop$loop_index" "$work/ext3.img"
mkdir "$mnt" "$home"
mount -t ext3 -o data=ordered "/dev/loop$loop_index" "$mnt"
chown nobody:nogroup "$mnt" "$home"
chmod 755 "$work"

# The window's environment, as nobody; the taller window of why.png comes from
# a keyfile backend whose window height is set beforehand.
export RP_GUI="$build/app/gui/resprobe" RP_OUT="$out" RP_HOME="$home" RP_MNT="$mnt"
export RP_DEV="/dev/loop$loop_index"
export GSETTINGS_SCHEMA_DIR="$build/data" RESPROBE_LOCALEDIR="$build/po"
export GSK_RENDERER=cairo GTK_A11Y=none NO_AT_BRIDGE=1
[ -n "${LANGUAGE:-}" ] || export LC_ALL=C.UTF-8

cat >"$work/session.sh" <<'INNER'
set -euo pipefail
as_user () {
  setpriv --reuid=nobody --regid=nogroup --clear-groups \
    env HOME="$RP_HOME" XDG_DATA_HOME="$RP_HOME/.local/share" XDG_CONFIG_HOME="$RP_HOME/.config" \
        XDG_CACHE_HOME="$RP_HOME/.cache" GSETTINGS_BACKEND="${BACKEND:-memory}" \
    dbus-run-session -- "$RP_GUI" "$@"
}
find_window () {
  for _ in $(seq 100); do
    wid=$(xdotool search --onlyvisible --name "$1" 2>/dev/null | tail -n1)
    [ -n "$wid" ] && { echo "$wid"; return 0; }
    sleep 0.1
  done
  return 1
}
# A run in the window, with input meanwhile so that every chart has data: over
# the sidebar, not the charts, whose hover line would show in the picture.
run () {
  local report=$1 screenshot=$2 app wid
  as_user --dir "$RP_MNT" --scenario R1 --size 3G --duration 20 --start \
    --report-on-exit "$RP_HOME/$report" --screenshot-on-exit "$screenshot" &
  app=$!
  wid=$(find_window '.')
  for i in $(seq 30); do
    xdotool mousemove --window "$wid" $((60 + (i % 10) * 20)) $((120 + (i % 4) * 100)) 2>/dev/null || true
    sleep 0.6
  done
  # Off the window before the run ends.
  xdotool mousemove 1275 1295
  wait "$app"
}

# The window before a run.
as_user --dir "$RP_MNT" --scenario R1 --size 3G --duration 20 &
app=$!
wid=$(find_window '.')
sleep 2
import -window "$wid" "$RP_OUT/start.png"
kill -TERM "$app"; wait "$app" || true

run ordered.json "$RP_HOME/run.png"
umount "$RP_MNT"
mount -t ext3 -o data=writeback "$RP_DEV" "$RP_MNT"
run writeback.json "$RP_HOME/writeback.png"

# The data=ordered report again, in a window tall enough for the sidebar's Why.
mkdir -p "$RP_HOME/.config/glib-2.0/settings"
printf '[io/github/resprobe/Resprobe]\nwindow-width=1200\nwindow-height=1260\n' \
  >"$RP_HOME/.config/glib-2.0/settings/keyfile"
chown -R nobody:nogroup "$RP_HOME/.config"
BACKEND=keyfile as_user "$RP_HOME/ordered.json" --screenshot-on-exit "$RP_HOME/why.png"

as_user "$RP_HOME/ordered.json" "$RP_HOME/writeback.json" --screenshot-on-exit "$RP_HOME/compare.png"
# Written as nobody, copied as root.
cp "$RP_HOME/run.png" "$RP_HOME/why.png" "$RP_HOME/compare.png" "$RP_OUT/"
INNER

bash "$here/tests/xvfb-run.sh" -s "-screen 0 1280x1300x24" bash "$work/session.sh"
for png in start run why compare; do
  identify -format "%f %wx%h\n" "$out/$png.png"
done
