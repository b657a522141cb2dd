# shellcheck shell=bash
# SPDX-License-Identifier: GPL-3.0-or-later
# helper-gui-session.sh KIND OUT DIR SIZE DURATION (test-helper-gui.sh runs it
# as a test user, in the user's own session bus, on an X server (KIND x11,
# DISPLAY set) or in sway (KIND wayland, WAYLAND_DISPLAY and SWAYSOCK set)):
# the window runs R1 on DIR as a user starts it, with its settings (the
# answer to the helper's offer) where GSettings' keyfile backend keeps them.
# When the run's report is in the reports folder (the autosave of every
# finished run), the result page is photographed, its sidebar scrolled to
# the Why, at 1280 × 800 and at 800 × 600 (OUT/KIND-1280x800.png, OUT/KIND-800x600.png), then the window
# is closed as a user closes it (SIGTERM). OUT/KIND.status: its exit status.
set -u
kind=$1 out=$2 dir=$3 size=$4 duration=$5
reports="$XDG_DATA_HOME/resprobe/reports"

"$RP_GUI" --dir "$dir" --size "$size" --duration "$duration" --start >"$out/$kind.log" 2>&1 &
pid=$!
# Hang guard only: the run's own length and its saving.
for _ in $(seq 3000); do
  compgen -G "$reports/*.json" >/dev/null && break
  kill -0 "$pid" 2>/dev/null || break
  sleep 0.1
done
# The page after the run paints; a picture, not a measurement.
sleep 2

# The sidebar, where the Why is (below Results), scrolled to its end; at
# 800 × 600 the window folds it away: its button (top left) shows it first.
# Pointer positions in pixels (xdotool) or thousandths of the output (sway's
# virtual pointer: headless sway has no pointer of its own).
sidebar() {
  local width=$1 height=$2
  if [ "$kind" = x11 ]; then
    [ "$width" -lt 1000 ] && xdotool mousemove 27 27 click 1 && sleep 1
    xdotool mousemove 200 $((height / 2)) click --repeat 20 --delay 50 5
  else
    # Below sway's title bar (21 pixels).
    [ "$width" -lt 1000 ] && "$RP_INPUT" --click-at $((27000 / width)),$((48000 / height)) && sleep 1
    "$RP_INPUT" --interval-ms 50 --scroll-at $((200000 / width)),500,20
  fi
}
shoot() {
  local width=$1 height=$2 wid
  if [ "$kind" = x11 ]; then
    wid=$(xdotool search --onlyvisible --name 'Responsiveness Probe' 2>/dev/null | head -n1)
    [ -n "$wid" ] || return 1
    xdotool windowmove "$wid" 0 0 windowsize "$wid" "$width" "$height"
  else
    swaymsg -s "$SWAYSOCK" output HEADLESS-1 resolution "${width}x${height}" >/dev/null
  fi
  sleep 1
  sidebar "$width" "$height" >/dev/null
  sleep 1
  if [ "$kind" = x11 ]; then
    import -window root -crop "${width}x${height}+0+0" "$out/$kind-${width}x${height}.png"
  else
    grim "$out/$kind-${width}x${height}.png"
  fi
}
shoot 1280 800
shoot 800 600

kill -TERM "$pid" 2>/dev/null
wait "$pid"
echo $? >"$out/$kind.status"
