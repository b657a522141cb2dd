#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# xvfb-run.sh [-s "SERVER ARGS"] COMMAND [ARG…]: runs COMMAND with DISPLAY set to an
# X server (Xvfb) of its own, then stops the server; exits with COMMAND's status.
#
# Why not xvfb-run: it picks a display number by looking for lock files
# (`-a`), so two tests starting at once may pick the same one, and the
# second then fails with "cannot open display" (seen in the fault matrix
# while the GUI tests ran beside it). Xvfb -displayfd lets the server take a
# free number itself, atomically, and write it when it is ready to accept
# clients. Local clients need no cookie (-nolisten tcp leaves only the local
# socket). SERVER ARGS default to "-screen 0 1280x800x24"; -noreset is always
# given, so that clients may come and go (xvfb-run's -noreset habit).
set -u
server_args="-screen 0 1280x800x24"
if [ "${1:-}" = -s ]; then server_args=$2; shift 2; fi
[ $# -gt 0 ] || { echo "usage: xvfb-run.sh [-s \"SERVER ARGS\"] COMMAND [ARG…]" >&2; exit 2; }
command -v Xvfb >/dev/null || { echo "xvfb-run.sh: Xvfb is not installed (package xvfb)" >&2; exit 1; }

display_file=$(mktemp "${TMPDIR:-/tmp}/xvfb-display-XXXXXX")
log_file=$(mktemp "${TMPDIR:-/tmp}/xvfb-log-XXXXXX")
# shellcheck disable=SC2086 # the server's arguments are words
Xvfb -displayfd 3 -nolisten tcp -noreset $server_args 3>"$display_file" >"$log_file" 2>&1 &
server=$!
stop_server() {
  kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  rm -f "$display_file" "$log_file"
}
trap stop_server EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# A hang guard for a machine under load, not a timing: the server writes its
# number once it listens. Two minutes: at a load of 15 to 19 on 2 cores a
# server was not listening after 30 s.
for _ in $(seq 2400); do
  [ -s "$display_file" ] && break
  kill -0 "$server" 2>/dev/null || break
  sleep 0.05
done
if [ ! -s "$display_file" ]; then
  echo "xvfb-run.sh: Xvfb did not start: $(tail -n 3 "$log_file")" >&2
  exit 1
fi
export DISPLAY=":$(head -n 1 "$display_file")"
"$@"
