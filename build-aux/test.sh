#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Build Responsiveness Probe and run every test. Root-only tests (loop-mounted
# file systems) run when this is run as root and skip with a reason otherwise.
# Then the engine and CLI suites again in a second build with AddressSanitizer
# and UBSan (_build_asan), where any report fails the test; RESPROBE_NO_ASAN=1
# skips that part. Arguments go to the first `meson test`.
set -euo pipefail
cd "$(dirname "$0")/.."

bash build-aux/install-deps.sh
[ -f _build/build.ninja ] || meson setup _build
meson compile -C _build
status=0
meson test -C _build --print-errorlogs "$@" || status=1

if [ "${RESPROBE_NO_ASAN:-0}" != 1 ]; then
  # Without the GUI: GTK and Mesa keep process-long caches that LeakSanitizer
  # would report, each needing a suppression of its own, and a second GTK
  # build plus the Xvfb suite would add minutes to CI. What the GUI runs of
  # the engine (sessions, series, plots, reports) is tested here.
  [ -f _build_asan/build.ninja ] ||
    meson setup _build_asan -Dgui=false -Db_sanitize=address,undefined -Db_lundef=false
  meson compile -C _build_asan
  # Not the suite 'slow' (tests/meson.build): millions of allocations, each
  # with its whole stack, take minutes there.
  # halt_on_error: a UBSan finding aborts the test instead of scrolling by.
  # fast_unwind_on_malloc=0: whole allocation stacks through the libraries,
  # which build-aux/lsan.supp's entries match on (about 10 % slower).
  ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 \
  UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
  LSAN_OPTIONS=suppressions=$PWD/build-aux/lsan.supp:print_suppressions=0 \
    meson test -C _build_asan --suite engine --suite cli --no-suite slow --print-errorlogs || status=1
fi
exit "$status"
