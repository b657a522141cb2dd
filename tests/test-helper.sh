#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-helper.sh (root only): resprobed, the privileged helper (issue 34), as
# an unprivileged user meets it. Root sets up what a desktop has: a system bus
# (dbus-daemon --system, Debian's own configuration) and polkitd where none
# runs, the helper's bus policy, activation file and polkit actions where the
# bus and polkitd look for them, two users of the test's own and a polkit
# rules file that says yes to one and no to the other. Then, as those users:
#  1. a run on a loop-mounted ext3 data=ordered traced through the helper
#     records journal commits and device latency, and its judgement names
#     the same cause as the same run as root (the share of stalled time of
#     each is printed: runs on a shared machine differ);
#  2. refused by polkit: one clear line, the run goes on without kernel
#     events, no instance of the helper left;
#  3. a client holding an instance and its buffers, SIGKILLed: the helper
#     removes the instance (waited for with a hang guard, no time asserted);
#  4. bad arguments (wrong types, missing or wrong descriptors, another
#     connection's handle, counts past the limits) are refused, then 1 000
#     random calls leave the helper running and no instance behind.
# Everything set up (lib-helper-bus.sh, shared with test-helper-gui.sh) is
# put back on every exit path (trap): the daemons the test started, the
# files it installed, the rules file, its users, the mount, the loop device.
# One test at a time per machine (a lock): the bus name and the installed
# files are the machine's.
set -u
here=$(dirname "$0")
# shellcheck source=tests/lib-root-tap.sh
. "$here/lib-root-tap.sh"
# shellcheck source=tests/loop-queue.sh
. "$here/loop-queue.sh"

root_tap_begin helper "start a system bus, polkitd and resprobed, and to mount a loop device" \
  "dbus-daemon polkitd passwd e2fsprogs util-linux python3" \
  dbus-daemon dbus-send pkcheck useradd userdel runuser mkfs.ext3 losetup python3 flock
resprobed=${RESPROBED:?RESPROBED must point at resprobed}
probe=${RESPROBE_HELPER_PROBE:?RESPROBE_HELPER_PROBE must point at rp-helper-probe}
policy=${RESPROBED_POLICY:?RESPROBED_POLICY must point at the built .policy}
# shellcheck source=tests/lib-helper-bus.sh
. "$here/lib-helper-bus.sh"
root_tap_on_exit helper_bus_cleanup

# --- Set-up --------------------------------------------------------------
helper_bus_setup "$resprobed" "$policy"

# The programs where the test users may run them.
user_cli=$(user_copy "$cli")
user_probe=$(user_copy "$probe")
as() { local u=$1; shift; runuser -u "$u" -- env HOME="$work" LC_ALL=C.UTF-8 "$@"; }

# --- 1. Traced through the helper, as root would ------------------------------
# The same run as the user and as root, each to a judgement: a pair again
# (at most three) when one of the two did not stall, which on a shared
# machine happens (a run's stalls depend on what else writes).
run_args=(run -d "$mnt" -s 1G --fdatasync -i 0.2 -t 20 --kernel-events=on)
for attempt in 1 2 3; do
  as "$allow" "$user_cli" "${run_args[@]}" -o "$mnt/user.json" >"$work/user.out" 2>&1
  user_status=$?
  sync
  "$cli" "${run_args[@]}" -o "$work/root.json" >"$work/root.out" 2>&1
  root_status=$?
  sync
  verdict=$(python3 - "$mnt/user.json" "$work/root.json" <<'EOF'
import json, sys
from resprobe_report import samples
try:
    user, root = (json.load(open(p)) for p in sys.argv[1:3])
except (OSError, ValueError) as e:
    print(f"not ok a report is missing or unreadable: {e}"); print("judged no"); sys.exit()
out = []
def check(ok, text): out.append(f"{'ok' if ok else 'not ok'} {text}")
for who, r in (("user", user), ("root", root)):
    notes, series = r["notes"], r["series"]
    commits = len(samples(series.get("journal_commit", {})))
    writes = len(samples(series.get("device_write_latency", {})))
    check(commits > 0 and writes > 0 and float(notes.get("journal_commits", 0)) == commits,
          f"{who}: journal commits ({commits}) and device write latency ({writes} requests) recorded")
un, rn = user["notes"], root["notes"]
check(un.get("kernel_events_source") == "helper" and rn.get("kernel_events_source") == "root",
      f"the reports say where their events came from: user {un.get('kernel_events_source')}, root {rn.get('kernel_events_source')}")
check(un.get("kernel_events_instance", "").startswith("resprobed-"),
      f"the user's instance was the helper's: {un.get('kernel_events_instance')}")
uj, rj = user.get("judgement") or {}, root.get("judgement") or {}
share = lambda j: (j.get("cause_share") or 0) * 100
check(uj.get("cause") is not None and uj.get("cause") == rj.get("cause"),
      f"the same dominant cause: user {uj.get('cause')} ({share(uj):.0f} % of the stalled time, "
      f"subject {uj.get('subject')}), root {rj.get('cause')} ({share(rj):.0f} %, subject {rj.get('subject')})")
print("\n".join(out))
print("judged " + ("yes" if uj.get("cause") and rj.get("cause") else "no"))
EOF
)
  grep -q '^judged yes' <<<"$verdict" && break
  echo "# pair $attempt: $(grep 'dominant cause' <<<"$verdict")"
done
if [ "$user_status" -eq 0 ] && grep -q "traced by the helper resprobed" "$work/user.out"; then
  ok "as $allow: a run with --kernel-events=on, and the CLI says the helper traced it"
else
  fail "as $allow (exit $user_status): $(tail -5 "$work/user.out")"
fi
[ "$root_status" -eq 0 ] && grep -q "traced by this process (root)" "$work/root.out" &&
  ok "the same run as root, and the CLI says it traced as root" ||
  fail "the root run (exit $root_status): $(tail -3 "$work/root.out")"
! grep -q CRITICAL "$work/user.out" "$work/root.out" && ok "no GLib critical in either run" ||
  fail "criticals: $(grep -h CRITICAL "$work/user.out" "$work/root.out" | head -2)"
while IFS= read -r line; do
  case "$line" in "ok "*) ok "${line#ok }" ;; "not ok "*) fail "${line#not ok }" ;; esac
done <<<"$verdict"
left=$(helper_instances)
[ -z "$left" ] && ok "no instance of the helper left after the run" || fail "instances left: $left"
# Idle, the helper ends (30 s after its last call; the bus starts it again
# at the next). Hang guard only.
for _ in $(seq 1200); do [ -z "$(helper_pid_now)" ] && break; sleep 0.1; done
[ -z "$(helper_pid_now)" ] && ok "resprobed exited when idle" || fail "resprobed still runs 120 s after the runs"

# --- 2. Refused -------------------------------------------------------------
as "$deny" "$user_cli" run -d "$mnt" -l none -p fsync,kernel-events -t 3 -o "$mnt/denied.json" \
  >"$work/denied.out" 2>&1
status=$?
if [ "$status" -eq 0 ] && grep -q "polkit" "$work/denied.out" &&
   python3 -c 'import json,sys; from resprobe_report import samples; r=json.load(open(sys.argv[1]))
assert r["notes"]["kernel_events_source"] == "none"
assert "refused" in r["notes"]["kernel_events_unavailable"]
assert len(samples(r["series"]["fsync_latency"])) >= 1' "$mnt/denied.json"; then
  ok "as $deny: refused, one line says so (“$(tr '\n' ' ' <"$work/denied.out" | grep -o 'Kernel events need root[^)]*)' | head -1)”); fsync measured as always"
else
  fail "as $deny (exit $status): $(tail -4 "$work/denied.out")"
fi
left=$(helper_instances)
[ -z "$left" ] && ok "no instance left after the refusal" || fail "instances left after the refusal: $left"
as "$deny" "$user_cli" run -d "$mnt" -l none -p fsync,kernel-events --kernel-events=on -t 3 \
  -o "$mnt/denied-on.json" >"$work/denied-on.out" 2>&1
status=$?
[ "$status" -ne 0 ] && grep -q "refused" "$work/denied-on.out" &&
  ok "as $deny with --kernel-events=on: the run does not start (exit $status) and says why" ||
  fail "as $deny with --kernel-events=on (exit $status): $(tail -3 "$work/denied-on.out")"

# --- 3. A client killed while it holds an instance ------------------------
as "$allow" "$user_probe" hold "$mnt" >"$work/hold.out" 2>&1 &
pid=$!
for _ in $(seq 300); do grep -q '^held' "$work/hold.out" && break; kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
held=$(awk '/^held/ { print $2 }' "$work/hold.out")
holder=$(awk '/^held/ { print $4 }' "$work/hold.out")
[ -n "$holder" ] && pids+=("$holder")
if [ -n "$held" ] && [ -d "$tracing/instances/$held" ]; then
  ok "a client holds $held and $(awk '/^held/ { print $3 }' "$work/hold.out") of its buffers"
  # The probe itself (runuser's child), by the PID it printed.
  kill -KILL "$holder"
  wait "$pid" 2>/dev/null
  pid=""
  started=$(date +%s.%N)
  # Hang guard only: the helper retries every 0.1 s while the killed
  # client's descriptors are still closing.
  for _ in $(seq 600); do [ -d "$tracing/instances/$held" ] || break; sleep 0.1; done
  if [ -d "$tracing/instances/$held" ]; then
    fail "SIGKILL: $held still there after 60 s"
  else
    ok "SIGKILL: the helper removed $held ($(printf '%.2f' "$(echo "$(date +%s.%N) - $started" | bc)") s after the kill, noisy)"
  fi
else
  fail "the holding client got no instance: $(tail -3 "$work/hold.out")"
fi

# --- 4. Bad arguments, then random calls ---------------------------------
echo data >"$mnt/file"; chmod 644 "$mnt/file"
probe_out=$(as "$allow" "$user_probe" bad-args "$mnt" "$mnt/file" 2>&1)
while IFS= read -r line; do
  case "$line" in
    "ok - "*) ok "${line#ok - }" ;;
    "not ok - "*) fail "${line#not ok - }" ;;
    "# instance "*) instance=${line#\# instance } ;;
    *) [ -n "$line" ] && fail "rp-helper-probe: $line" ;;
  esac
done <<<"$probe_out"
for _ in $(seq 100); do [ -z "$(helper_instances)" ] && break; sleep 0.1; done
left=$(helper_instances)
[ -z "$left" ] && ok "no instance left after the bad arguments" || fail "instances left: $left"
as "$deny" "$user_probe" bad-args "$mnt" "$mnt/file" >"$work/deny-probe.out" 2>&1
grep -q "^not ok - OpenTrace of .*failed" "$work/deny-probe.out" && grep -q "Not authorized" "$work/deny-probe.out" &&
  ok "as $deny: OpenTrace refused by polkit" || fail "as $deny: $(grep -m2 -i 'opentrace' "$work/deny-probe.out")"
if as "$allow" dbus-send --system --print-reply --dest="$name" /io/github/resprobe/Helper1 \
     "$name.DropPageCache" >"$work/drop.out" 2>&1; then
  ok "DropPageCache as $allow"
else
  fail "DropPageCache as $allow: $(cat "$work/drop.out")"
fi
as "$deny" dbus-send --system --print-reply --dest="$name" /io/github/resprobe/Helper1 \
  "$name.DropPageCache" >"$work/drop-denied.out" 2>&1 &&
  fail "DropPageCache as $deny was accepted" ||
  ok "DropPageCache as $deny refused: $(head -c 120 "$work/drop-denied.out")"
before_pid=$(helper_pid_now)
fuzz=$(as "$allow" "$user_probe" fuzz 1000 "$mnt" "$mnt/file" 2>&1)
status=$?
after_pid=$(helper_pid_now)
for _ in $(seq 100); do [ -z "$(helper_instances)" ] && break; sleep 0.1; done
left=$(helper_instances)
if [ "$status" -eq 0 ] && [ -n "$after_pid" ] && [ "$after_pid" = "$before_pid" ] && [ -z "$left" ]; then
  ok "1000 random calls: $fuzz; the same helper runs (pid $after_pid), no instance left"
else
  fail "fuzz (exit $status): $fuzz; helper before $before_pid after '$after_pid'; left: $left"
fi

echo "1..$n"
[ "$failures" -eq 0 ]
