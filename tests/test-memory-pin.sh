#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# `run --memory` (root only): a machine of less memory, emulated by pinning
# the rest in a child process for the run (engine/run/rp-memory-pin.c). The
# test emulates MemTotal minus PIN (2 GiB, less when less is available: the
# machine is shared, so it pins no more than that), and checks that the
# child holds the memory locked during the run, that the report has the
# kernel's dirty thresholds with and without the emulation and that the
# emulated ones (right after pinning, and every sample during the run) are
# below the machine's own, and that the memory is released — the child gone
# and Mlocked back within a quarter of the pin —
# after a normal end, after SIGTERM
# and after SIGKILL of the run (the kernel ends the child then:
# PR_SET_PDEATHSIG). Bad requests are refused with a message naming
# --memory. No timing is asserted: waits are hang guards.
set -u
cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}
if [ "$(id -u)" -ne 0 ]; then
  echo "1..0 # SKIP needs root to lock gigabytes of memory (mlock beyond ulimit -l)"
  exit 0
fi

work=$(mktemp -d "${G_TEST_BUILDDIR:-/var/tmp}/memory-pin-XXXXXX")
failures=0; n=0
tap() { local line="$*"; echo "${line//$'\n'/ | }"; }
ok()   { n=$((n + 1)); tap "ok $n - $*"; }
fail() { n=$((n + 1)); tap "not ok $n - $*"; failures=$((failures + 1)); }

pid=""
cleanup() {
  [ -n "$pid" ] && kill -KILL "$pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# meminfo FIELD: a field of /proc/meminfo in bytes (shell arithmetic: awk
# would print gigabytes in floating point).
meminfo() { local kib; kib=$(awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo); echo $((kib * 1024)); }
GiB=$((1024 * 1024 * 1024))
total=$(meminfo MemTotal)
available=$(meminfo MemAvailable)
pin=$((2 * GiB))
# Leave 1 GiB beside the pin (the engine's own margin is 512 MiB).
[ $((available - GiB)) -lt "$pin" ] && pin=$(( (available - GiB) / 1048576 * 1048576 ))
if [ "$pin" -lt $((512 * 1048576)) ] || [ $((total - pin)) -lt "$GiB" ]; then
  echo "not ok 1 - this machine cannot spare 512 MiB to pin (MemTotal $total, MemAvailable $available bytes)"
  echo "1..1"; exit 1
fi
machine=$(( (total - pin) / 1048576 ))M    # what --memory asks: MiB, rounded down
pin=$((total - $(( (total - pin) / 1048576 * 1048576 )) ))
echo "# MemTotal $total, MemAvailable $available: --memory $machine pins $pin bytes"
mkdir -p "$work/target"

# pin_child PID: the child of the run that holds locked memory (VmLck);
# prints its PID and locked bytes once they reach the pin. Hang guard only.
pin_child() {
  local deadline=$(( $(date +%s) + 120 )) child locked
  while kill -0 "$1" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do
    for child in $(cat /proc/"$1"/task/*/children 2>/dev/null); do
      locked=$(awk '$1 == "VmLck:" { print $2 }' /proc/"$child"/status 2>/dev/null)
      if [ -n "$locked" ] && [ $((locked * 1024)) -ge "$pin" ]; then echo "$child $((locked * 1024))"; return 0; fi
    done
    sleep 0.2
  done
  return 1
}
# gone PID: the process no longer exists (reaped), waiting for the kernel to
# end it after its parent's death. Hang guard only.
gone() {
  local deadline=$(( $(date +%s) + 60 ))
  while [ -e /proc/"$1" ] && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.2; done
  [ ! -e /proc/"$1" ]
}
# released BEFORE_AVAILABLE BEFORE_MLOCKED: the machine's locked memory
# (Mlocked: only mlock() changes it, so others' work moves it by kilobytes)
# came back to within a quarter of the pin of what it was before the run.
# MemAvailable is shown, not judged: other programs on the machine (a CI
# run beside a build, a test suite's other tests) moved it by 1.3 GB within
# one run here, more than half a 2 GiB pin.
released() {
  local now locked; now=$(meminfo MemAvailable); locked=$(meminfo Mlocked)
  echo "MemAvailable $now, before $1; Mlocked $locked, before $2"
  [ "$locked" -le $(( $2 + pin / 4 )) ]
}
# A run's started when its probe has its file open in the target.
started() {
  local deadline=$(( $(date +%s) + 120 )) fd
  while kill -0 "$1" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do
    for fd in /proc/"$1"/fd/*; do
      case "$(readlink "$fd" 2>/dev/null)" in "$work/target/"*) return 0 ;; esac
    done
    sleep 0.2
  done
  return 1
}

check_report() {  # FILE: the emulation's notes, and thresholds below the machine's own
  python3 - "$1" "$machine" "$pin" <<'PY'
import json, sys
path, machine, pin = sys.argv[1], sys.argv[2], int(sys.argv[3])
r = json.load(open(path))
notes = r["notes"]
n = lambda k: int(notes[k])
assert n("memory_emulated_bytes") == int(machine[:-1]) * 2**20, notes
assert n("memory_pinned_bytes") == pin, (notes["memory_pinned_bytes"], pin)
assert n("memory_total_bytes") == n("memory_emulated_bytes") + pin, notes
# A limit set in bytes (vm.dirty_bytes, vm.dirty_background_bytes) does not
# depend on memory: less memory leaves it, and the notes must say so.
sysctl = lambda k: int(open("/proc/sys/vm/" + k).read())
for kind, fixed in (("dirty", "dirty_bytes"), ("dirty_background", "dirty_background_bytes")):
    emulated, unemulated = n(kind + "_threshold_emulated_bytes"), n(kind + "_threshold_unemulated_bytes")
    if sysctl(fixed):
        assert 0 < emulated == unemulated, (fixed, sysctl(fixed), notes)
        print(f"vm.{fixed} {sysctl(fixed)} is set: {kind} threshold unchanged, ", end="")
    else:
        assert 0 < emulated < unemulated, notes
assert notes["memory_pin_held"] == "yes", notes["memory_pin_held"]
# every threshold the kernel used during the run (the disk sampler's /proc/vmstat)
series = r["summary"]["dirty_threshold_bytes"]
assert series["n"] >= 1, series
assert series["max"] < n("dirty_threshold_unemulated_bytes") or sysctl("dirty_bytes"), series
print(f"threshold {n('dirty_threshold_unemulated_bytes')} -> {n('dirty_threshold_emulated_bytes')}, "
      f"during the run {series['min']:.0f}..{series['max']:.0f} bytes")
PY
}

# 1. A normal end.
before="$(meminfo MemAvailable) $(meminfo Mlocked)"
"$cli" run --memory "$machine" --dir "$work/target" --size 64M --duration 2 \
  --report "$work/normal.json" >"$work/normal.out" 2>&1 &
pid=$!
held=$(pin_child "$pid")
wait "$pid"; rc=$?
pid=""
if [ -n "$held" ]; then ok "during the run a child ($held bytes) held the memory locked"
else fail "no child of the run held $pin bytes locked: $(tail -5 "$work/normal.out")"; fi
if [ "$rc" -eq 0 ] && out=$(check_report "$work/normal.json" 2>&1); then ok "run --memory $machine: exit 0; $out"
else fail "run --memory $machine: exit $rc; $out; $(tail -5 "$work/normal.out")"; fi
child=${held%% *}
if [ -n "$child" ] && gone "$child" && out=$(released $before); then ok "after the end: pinning process gone, $out"
else fail "after the end: pinning process ${child:-?} still there or memory not back: $(released $before)"; fi

# 2. SIGTERM mid-run: stopped (exit 3), report saved with the notes, memory back.
before="$(meminfo MemAvailable) $(meminfo Mlocked)"
"$cli" run --memory "$machine" --dir "$work/target" --size 64M --duration 120 \
  --report "$work/term.json" >"$work/term.out" 2>&1 &
pid=$!
held=$(pin_child "$pid")
if [ -n "$held" ] && started "$pid"; then
  kill -TERM "$pid"
  wait "$pid"; rc=$?
  pid=""
  child=${held%% *}
  if [ "$rc" -eq 3 ] && check_report "$work/term.json" >/dev/null && gone "$child" && out=$(released $before); then
    ok "SIGTERM mid-run: exit 3, report with the thresholds, pinning process gone, $out"
  else fail "SIGTERM mid-run: exit $rc, child $child $( [ -e /proc/"$child" ] && echo alive), $(released $before); $(tail -5 "$work/term.out")"; fi
else
  fail "SIGTERM: the run never held the memory and started: $(tail -5 "$work/term.out")"
fi

# 3. SIGKILL of the run: nothing can clean up but the kernel, which ends the
# child (PR_SET_PDEATHSIG) and frees its memory.
before="$(meminfo MemAvailable) $(meminfo Mlocked)"
"$cli" run --memory "$machine" --dir "$work/target" --size 64M --duration 120 \
  --report "$work/kill.json" >"$work/kill.out" 2>&1 &
pid=$!
held=$(pin_child "$pid")
if [ -n "$held" ]; then
  kill -KILL "$pid"
  wait "$pid" 2>/dev/null
  pid=""
  child=${held%% *}
  if gone "$child" && out=$(released $before); then ok "SIGKILL of the run: pinning process $child gone, $out"
  else fail "SIGKILL of the run: pinning process $child still there or memory not back: $(released $before)"; fi
else
  fail "SIGKILL: the run never held the memory: $(tail -5 "$work/kill.out")"
fi

# 4. Requests that make no sense: refused before anything is pinned.
refused() {  # EXPECTED_EXIT WORDS ARGS…: exit code and a message with WORDS
  local expected=$1 words=$2; shift 2
  "$@" >"$work/refused.out" 2>&1; local rc=$?
  if [ "$rc" -eq "$expected" ] && grep -q -- "$words" "$work/refused.out"; then ok "$* : exit $rc, $(cat "$work/refused.out")"
  else fail "$* : exit $rc (expected $expected), $(cat "$work/refused.out")"; fi
}
refused 2 "--memory: 512.0 MiB is less than 1 GiB" "$cli" run --memory 512M --dir "$work/target" --duration 1
refused 2 "is not less than this machine" "$cli" run --memory $(( total / GiB + 1 ))G --dir "$work/target" --duration 1
refused 2 "is not less than this machine" "$cli" matrix --memory 4G,$(( total / GiB + 1 ))G --dir "$work" --size 512M --image-size 2G --duration 1
refused 1 "ulimit -l" setpriv --reuid=65534 --regid=65534 --clear-groups "$cli" run --memory "$machine" --dir /tmp --duration 1
# More than is available now is refused too ("must stay so"): that
# decision depends on what other programs hold at the moment, so it is
# judged on given figures in tests/test-memory-pin-judge.c, not here.
echo "1..$n"
[ "$failures" -eq 0 ]
