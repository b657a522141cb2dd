#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build Responsiveness Probe and run every test. Root-only tests (loop-mounted
# file systems) run when this is run as root and skip with a reason otherwise.
# The engine and CLI suites run again in a second build with AddressSanitizer
# and UBSan (_build_asan), where any report fails the test; RESPROBE_NO_ASAN=1
# leaves that build out.
#
# Four streams side by side, each with a log of its own in meson-logs/:
#   root     the suite 'root', one test at a time (they attach loop devices and
#            change queue and kernel settings, and check that they were put
#            back: two at once could take one loop device number),
#            testlog-root.json;
#   system   the suite 'system' (root): the tests that put the project's
#            files into the system's folders, one at a time by a lock of
#            their own: the Debian packages built, installed and purged
#            (tests/test-deb-package.sh; most of its ten minutes is a
#            compile) and the privileged helper's tests (a system bus and
#            polkitd of their own, their own loop device); no kernel setting,
#            so beside the root suite rather than in its line,
#            testlog-system.json;
#   main     every other test of _build, in parallel, testlog.json;
#   asan     the sanitizer build, compiled and tested, testlog.json of _build_asan.
# Most tests wait (for runs of a fixed length, for writeback, for a window),
# so the streams share a 2-core machine well; each stream's output is printed
# when it ends. Arguments are a test selection for `meson test` instead
# (e.g. `build-aux/test.sh gui-window`): those run alone in _build.
set -euo pipefail
cd "$(dirname "$0")/.."

bash build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build

if [ $# -gt 0 ]; then
  exec meson test -C _build --print-errorlogs "$@"
fi

# Hang guards, not speed limits: a test's timeout stretched for a machine
# busy with other work beside this run (three times: at a load of 15 to 19
# gui-verdict's three windows outlasted twice its 120 s).
meson_test=(meson test --no-rebuild --print-errorlogs --timeout-multiplier 3)

asan_stream() {
  # Without the GUI: GTK and Mesa keep process-long caches that LeakSanitizer
  # would report, each needing a suppression of its own, and a second GTK
  # build plus the Xvfb suite would add minutes. What the GUI runs of the
  # engine (sessions, series, plots, reports) is tested here.
  [ -f _build_asan/build.ninja ] ||
    meson setup _build_asan -Dgui=false -Db_sanitize=address,undefined -Db_lundef=false
  meson compile -C _build_asan
  # Not the suite 'slow' (tests/meson.build): millions of allocations, each
  # with its whole stack, take minutes there. Not 'root': the root tests
  # exercise the same engine as the CLI suites, and run once, in _build.
  # halt_on_error: a UBSan finding aborts the test instead of scrolling by.
  # fast_unwind_on_malloc=0: whole allocation stacks through the libraries,
  # which build-aux/lsan.supp's entries match on (about 10 % slower).
  # The suppressions from a copy anyone can read: tests run children as
  # nobody, who may not reach a clone in a private folder (mktemp -d: "failed
  # to read suppressions file", and the child failed).
  local suppressions status=0
  suppressions=$(mktemp /tmp/resprobe-lsan-XXXXXX.supp)
  cp build-aux/lsan.supp "$suppressions" && chmod 644 "$suppressions"
  # "|| status": under set -e a failing test run would leave the copy behind.
  ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  LSAN_OPTIONS=suppressions=$suppressions:print_suppressions=0 \
    "${meson_test[@]}" -C _build_asan --suite engine --suite cli --no-suite slow || status=$?
  rm -f "$suppressions"
  return $status
}

# The system stream first: its compile then overlaps the waiting of the others.
streams=(system root main)
[ "${RESPROBE_NO_ASAN:-0}" = 1 ] || streams+=(asan)
mkdir -p _build/meson-logs
declare -A pids
for stream in "${streams[@]}"; do
  out=_build/meson-logs/stream-$stream.txt
  case "$stream" in
    system) "${meson_test[@]}" -C _build --suite system --logbase testlog-system >"$out" 2>&1 & ;;
    root) "${meson_test[@]}" -C _build --suite root --logbase testlog-root >"$out" 2>&1 & ;;
    main) "${meson_test[@]}" -C _build --no-suite root --no-suite system >"$out" 2>&1 & ;;
    asan) asan_stream >"$out" 2>&1 & ;;
  esac
  pids[$stream]=$!
done
echo "Testing in ${#streams[@]} streams side by side (${streams[*]}); each one's output follows when it ends."

status=0
remaining=("${streams[@]}")
while [ ${#remaining[@]} -gt 0 ]; do
  # The first stream to end is printed first.
  waiting=()
  for stream in "${remaining[@]}"; do waiting+=("${pids[$stream]}"); done
  wait -n "${waiting[@]}" 2>/dev/null || true
  still=()
  for stream in "${remaining[@]}"; do
    if kill -0 "${pids[$stream]}" 2>/dev/null; then still+=("$stream"); continue; fi
    stream_status=0
    wait "${pids[$stream]}" || stream_status=$?
    echo "===== stream $stream: exit $stream_status ====="
    cat "_build/meson-logs/stream-$stream.txt"
    [ "$stream_status" -eq 0 ] || status=1
  done
  remaining=("${still[@]}")
done
exit "$status"
