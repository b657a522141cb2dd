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
# Everything set up is put back on every exit path (trap): the daemons the
# test started, the files it installed, the rules file, its users, the
# mount, the loop device. One test at a time per machine (a lock): the bus
# name and the installed files are the machine's.
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
polkitd=/usr/lib/polkit-1/polkitd
tracing=/sys/kernel/tracing

name=io.github.resprobe.Helper1
service_file=/usr/share/dbus-1/system-services/$name.service
conf_file=/usr/share/dbus-1/system.d/$name.conf
policy_file=/usr/share/polkit-1/actions/io.github.resprobe.policy
rules_file=/etc/polkit-1/rules.d/10-resprobe-test-$$.rules
allow=rpallow$$
deny=rpdeny$$

installed=()
users=()
pids=()
bus_pid=""
polkit_pid=""
helper_pid=""
mnt=""

# The helper's PID on the bus (empty when it does not run).
helper_pid_now() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetConnectionUnixProcessID "string:$name" 2>/dev/null | awk '/uint32/ { print $2 }'
}
# The helper's instances in tracefs.
helper_instances() { ls "$tracing/instances" 2>/dev/null | grep -E '^resprobed-' ; }

cleanup() {
  local p
  # Only the processes the test started: a bare wait would wait for polkitd.
  for p in "${pids[@]}"; do kill -KILL "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
  # The helper removes its instances when told to end (SIGTERM); it is a
  # process the bus started for this test.
  [ -n "$bus_pid" ] && helper_pid=$(helper_pid_now)
  if [ -n "$helper_pid" ]; then
    kill -TERM "$helper_pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$helper_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$helper_pid" 2>/dev/null
  fi
  if [ -n "$polkit_pid" ]; then
    kill -TERM "$polkit_pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$polkit_pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$polkit_pid" 2>/dev/null; wait "$polkit_pid" 2>/dev/null
  fi
  if [ -n "$bus_pid" ]; then
    kill -TERM "$bus_pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$bus_pid" 2>/dev/null || break; sleep 0.1; done
    rm -f /run/dbus/pid /run/dbus/system_bus_socket
  fi
  rm -f "$rules_file" "${installed[@]}"
  for p in "${users[@]}"; do userdel "$p" 2>/dev/null; done
  root_tap_cleanup
}
root_tap_on_exit cleanup

for f in "$service_file" "$conf_file" "$policy_file"; do
  if [ -e "$f" ]; then
    echo "1..0 # SKIP $f exists (an installed resprobed): this test would replace it"
    exit 0
  fi
done
exec 9>/run/lock/resprobe-helper-test.lock
flock -w 1800 9 || { fail "another helper test held the lock for 30 minutes"; echo "1..$n"; exit 1; }
# In /var/tmp, not the build dir: the test users run here and may not reach a
# build dir inside a private clone (seen: "Permission denied" in a clone
# under mktemp -d). root_tap_cleanup removes $work, wherever it is.
rmdir "$work" && work=$(mktemp -d /var/tmp/resprobe-helper-XXXXXX)
chmod 755 "$work"

# --- Set-up --------------------------------------------------------------
# The helper's files, as meson installs them, the activation file naming
# the built helper.
printf '[D-BUS Service]\nName=%s\nExec=%s\nUser=root\n' "$name" "$resprobed" >"$service_file"
installed+=("$service_file")
cp "$here/../app/resprobed/$name.conf" "$conf_file"; installed+=("$conf_file")
cp "$policy" "$policy_file"; installed+=("$policy_file")

for u in "$allow" "$deny"; do
  useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$u" &&
    users+=("$u")
done
cat >"$rules_file" <<EOF
// resprobe's tests/test-helper.sh: removed when the test ends
polkit.addRule(function(action, subject) {
  if (action.id.indexOf("io.github.resprobe.") == 0) {
    if (subject.user == "$allow") return polkit.Result.YES;
    if (subject.user == "$deny") return polkit.Result.NO;
  }
});
EOF

bus_runs() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetId >/dev/null 2>&1
}
has_owner() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner "string:$1" 2>/dev/null | grep -q 'boolean true'
}
if bus_runs; then
  # Its configuration read again: the helper's policy is new.
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.ReloadConfig >/dev/null
  ok "a system bus runs already; its configuration reloaded"
else
  mkdir -p /run/dbus
  # A dead bus's leftovers keep a new one from starting.
  rm -f /run/dbus/pid /run/dbus/system_bus_socket
  if bus_pid=$(dbus-daemon --system --fork --print-pid) && bus_runs; then
    ok "started a system bus (dbus-daemon --system, pid $bus_pid)"
  else
    fail "dbus-daemon --system did not start"; echo "1..$n"; exit 1
  fi
fi
if has_owner org.freedesktop.PolicyKit1; then
  ok "polkitd runs already"
else
  "$polkitd" --no-debug >"$work/polkitd.log" 2>&1 &
  polkit_pid=$!
  for _ in $(seq 300); do has_owner org.freedesktop.PolicyKit1 && break; sleep 0.1; done
  if has_owner org.freedesktop.PolicyKit1; then
    ok "started polkitd (pid $polkit_pid)"
  else
    fail "polkitd did not take its name: $(tail -3 "$work/polkitd.log")"; echo "1..$n"; exit 1
  fi
fi
# polkitd reads rules and actions as they change: wait until it has ours.
allowed_now() {
  runuser -u "$allow" -- sh -c 'exec pkcheck --action-id io.github.resprobe.trace --process $$' >/dev/null 2>&1
}
for _ in $(seq 100); do allowed_now && break; sleep 0.1; done
if allowed_now; then
  ok "polkit says yes to $allow for io.github.resprobe.trace (pkcheck)"
else
  fail "polkit does not authorize $allow: $(tail -3 "$work/polkitd.log" 2>/dev/null)"
fi

# The programs where the test users may run them.
user_cli=$cli
if ! runuser -u "$allow" -- test -x "$cli"; then
  user_cli="$work/resprobe-cli"; cp "$cli" "$user_cli"; chmod 755 "$user_cli"
fi
user_probe=$probe
if ! runuser -u "$allow" -- test -x "$probe"; then
  user_probe="$work/rp-helper-probe"; cp "$probe" "$user_probe"; chmod 755 "$user_probe"
fi
as() { local u=$1; shift; runuser -u "$u" -- env HOME="$work" LC_ALL=C.UTF-8 "$@"; }

root_tap_own_loop_device
truncate -s 3G "$work/ext3.img"   # 1 GiB written, 1 GiB kept free
mkfs.ext3 -q -F "$work/ext3.img"
losetup "/dev/$loop" "$work/ext3.img"
mnt="$work/mnt"; mkdir "$mnt"
mount -o data=ordered "/dev/$loop" "$mnt"
chmod 777 "$mnt"
dd if=/dev/zero of="$mnt/warm-up" bs=1M count=4 conv=fsync status=none; rm "$mnt/warm-up"; sync

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
