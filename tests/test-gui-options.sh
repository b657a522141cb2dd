#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-gui-options.sh: resprobe's command line: bad values are refused with a message
# naming the option and exit status 2, before any window (no display needed).
set -uo pipefail

gui=${RESPROBE_GUI:?RESPROBE_GUI must point at the resprobe binary}
failures=0
export DBUS_SESSION_BUS_ADDRESS=disabled:
unset DISPLAY WAYLAND_DISPLAY

expect_usage_error () {
  local pattern=$1
  shift
  local stderr status
  stderr=$("$gui" "$@" 2>&1 >/dev/null)
  status=$?
  if [ "$status" -eq 2 ] && grep -q -- "$pattern" <<<"$stderr"; then
    echo "ok: resprobe $* -> 2: $stderr"
  else
    echo "FAIL: resprobe $* -> $status: $stderr (wanted 2 and “$pattern”)"
    failures=$((failures + 1))
  fi
}

expect_usage_error "--size" --size 12X
expect_usage_error "--size" --size -5M
expect_usage_error "--duration" --duration soon
expect_usage_error "--duration" --duration 0
expect_usage_error "nope" --scenario nope
expect_usage_error "--dir" --dir /nonexistent/resprobe-test
# An option GApplication itself rejects: the same status 2 and a pointer to --help.
expect_usage_error "--help" --bogus

# A value is a stranger's string: its ESC sequences, U+202E and line feeds
# reach the terminal as spaces.
stderr=$("$gui" --size $'\e]0;pwned\a\e[31mX\u202eY\nresprobe: fake' 2>&1 >/dev/null)
if [ "$(wc -l <<<"$stderr")" -eq 1 ] && ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f]\|\xe2\x80\xae' <<<"$stderr"; then
  echo "ok: a hostile --size value is printed clean: $stderr"
else
  echo "FAIL: a hostile --size value reaches the terminal: $(cat -v <<<"$stderr")"
  failures=$((failures + 1))
fi

version=$("$gui" --version 2>&1)
if [[ "$version" == resprobe\ * ]]; then
  echo "ok: --version: $version"
else
  echo "FAIL: --version: $version"
  failures=$((failures + 1))
fi

help=$("$gui" --help 2>&1)
for option in --dir --scenario --size --duration --start; do
  if grep -q -- "$option" <<<"$help"; then
    echo "ok: --help lists $option"
  else
    echo "FAIL: --help does not list $option"
    failures=$((failures + 1))
  fi
done
if grep -q -- "--report-on-exit" <<<"$help"; then
  echo "FAIL: --help shows the hidden test option --report-on-exit"
  failures=$((failures + 1))
fi

[ "$failures" -eq 0 ]
