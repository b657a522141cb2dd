#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# valgrind memcheck on short resprobe-cli runs (issue 7): no invalid read or
# write, no use of uninitialised memory, nothing definitely lost. "Possibly
# lost" is left alone: GLib's type system and thread pools keep pointers into
# the middle of blocks for the life of the process.
set -u
cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}
# TAP (meson runs this with protocol 'tap'): a skip is a "1..0 # SKIP" line.
# A sanitizer build cannot run under valgrind (its shadow memory collides);
# build-aux/test.sh runs only the engine and cli suites there.
if ldd "$cli" 2>/dev/null | grep -q libasan; then
  echo "1..0 # SKIP $cli is built with AddressSanitizer"
  exit 0
fi
if ! command -v valgrind >/dev/null; then
  echo "not ok 1 - valgrind is not installed (build-aux/install-deps.sh installs it)"
  echo "1..1"
  exit 1
fi
work=$(mktemp -d "${G_TEST_BUILDDIR:-/var/tmp}/valgrind-XXXXXX")
trap 'rm -rf "$work"' EXIT
mkdir "$work/target"
failures=0; n=0
# One TAP line each (meson runs this with protocol 'tap'): a message that
# spans lines is joined, so that none of its lines reads as a TAP line.
tap() { local line="$*"; echo "${line//$'\n'/ | }"; }
ok()   { n=$((n + 1)); tap "ok $n - $*"; }
fail() { n=$((n + 1)); tap "not ok $n - $*"; failures=$((failures + 1)); }

# GLib's own (libglib2.0-dev): its caches that live as long as the process.
suppressions=()
[ -f /usr/share/glib-2.0/valgrind/glib.supp ] && suppressions+=(--suppressions=/usr/share/glib-2.0/valgrind/glib.supp)

# memcheck NAME EXPECTED-EXIT ARGS…
memcheck() {
  local name=$1 want=$2 log=$work/$1.log rc summary; shift 2
  G_SLICE=always-malloc G_DEBUG=gc-friendly timeout -k 5 120 \
    valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite \
      --errors-for-leak-kinds=definite --num-callers=30 "${suppressions[@]}" \
      --log-file="$log" "$cli" "$@" >"$work/$name.out" 2>&1
  rc=$?
  summary=$(grep -E "definitely lost|ERROR SUMMARY" "$log" | sed 's/^==[0-9]*== *//' | tr '\n' ' ')
  if [ "$rc" -eq "$want" ] && grep -q "ERROR SUMMARY: 0 errors" "$log"; then ok "$name: exit $rc: $summary"
  else fail "$name: exit $rc (expected $want): $summary"; sed -n '1,200p' "$log" | sed 's/^/# /'; tail -5 "$work/$name.out" | sed 's/^/# /'; fi
}

# R1 as the brief runs it: the writer, the fsync probe, the sampler, a report.
memcheck r1 0 run --dir "$work/target" --duration 3 --size 64M --report "$work/r1.json"
# R3: five threads and the per-window series.
memcheck r3 0 run --scenario R3 --dir "$work/target" --duration 2 --file-size 16M --report "$work/r3.json"
# A start that fails: the error paths free what they made.
memcheck start-error 2 run --dir "$work/no-such-dir" --duration 1 --report "$work/x.json"
# Loading a report back (json-glib, every series) and printing it.
memcheck show 0 show "$work/r1.json"

if [ -n "$(ls -A "$work/target")" ]; then fail "left in the target: $(ls -A "$work/target")"
else ok "target directory empty"; fi
echo "1..$n"
[ "$failures" -eq 0 ]
