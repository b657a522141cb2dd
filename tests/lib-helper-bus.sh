# shellcheck shell=bash
# SPDX-License-Identifier: GPL-3.0-or-later
# lib-helper-bus.sh: what the tests of resprobed (issue 34: test-helper.sh,
# test-helper-gui.sh) set up as root and put back. A desktop's system bus
# (dbus-daemon --system, Debian's own configuration) and polkitd where none
# runs, the helper's bus policy, activation file and polkit actions where the
# bus and polkitd look for them, two users of the test's own ($allow, $deny)
# and a polkit rules file that says yes to one and no to the other, and an
# ext3 data=ordered file system on a loop device of the test's own ($mnt,
# writable by both users). Needs lib-root-tap.sh and loop-queue.sh sourced
# and root_tap_begin called. Sourcing it changes nothing on the machine.

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
started_bus=""
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

# helper_bus_cleanup: for root_tap_on_exit. Kills the processes in $pids
# (and only those: a bare wait would wait for polkitd), ends the helper, the
# polkitd and the bus the test started, removes the files it installed, the
# rules file and its users, then root_tap_cleanup (the mount, the loop
# device, $work).
helper_bus_cleanup() {
  local p
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
  [ -z "$bus_pid" ] && [ "$started_bus" = yes ] && bus_pid=$(cat /run/dbus/pid 2>/dev/null)
  if [ -n "$bus_pid" ]; then
    kill -TERM "$bus_pid" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$bus_pid" 2>/dev/null || break; sleep 0.1; done
    rm -f /run/dbus/pid /run/dbus/system_bus_socket
  fi
  rm -f "$rules_file" "${installed[@]}"
  # A user's processes first (a session bus, a compositor of a GUI test):
  # userdel refuses a user who still runs something.
  for p in "${users[@]}"; do pkill -KILL -u "$p" 2>/dev/null; done
  for p in "${users[@]}"; do
    for _ in $(seq 50); do pgrep -u "$p" >/dev/null || break; sleep 0.1; done
    userdel "$p" 2>/dev/null
  done
  root_tap_cleanup
}

bus_runs() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.GetId >/dev/null 2>&1
}
has_owner() {
  dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
    org.freedesktop.DBus.NameHasOwner "string:$1" 2>/dev/null | grep -q 'boolean true'
}
# polkitd reads rules and actions as they change: whether it has ours.
allowed_now() {
  runuser -u "$allow" -- sh -c 'exec pkcheck --action-id io.github.resprobe.trace --process $$' >/dev/null 2>&1
}

# helper_bus_setup RESPROBED POLICY: everything above, with the activation
# file naming the built helper RESPROBED and the built polkit actions
# POLICY. Each step one TAP line; a step the rest depends on ends the test.
# A skip (exit 0) where an installed resprobed's files would be replaced.
helper_bus_setup() {
  local resprobed=$1 policy=$2 f u
  # One test of the helper at a time per machine, and not during the
  # package test's install and purge: the bus name and the installed files
  # are the machine's. The lock first: the files of another test of the
  # helper (or of the packages) still running are not an installed resprobed.
  root_tap_lock_system_files || { fail "another test held the system files' lock for 30 minutes"; echo "1..$n"; exit 1; }
  for f in "$service_file" "$conf_file" "$policy_file"; do
    if [ -e "$f" ]; then
      echo "1..0 # SKIP $f exists (an installed resprobed): this test would replace it"
      exit 0
    fi
  done
  # In /var/tmp, not the build dir: the test users run here and may not reach a
  # build dir inside a private clone (seen: "Permission denied" in a clone
  # under mktemp -d). root_tap_cleanup removes $work, wherever it is.
  rmdir "$work" && work=$(mktemp -d /var/tmp/resprobe-helper-XXXXXX)
  chmod 755 "$work"

  # The helper's files, as meson installs them.
  printf '[D-BUS Service]\nName=%s\nExec=%s\nUser=root\n' "$name" "$resprobed" >"$service_file"
  installed+=("$service_file")
  cp "$here/../app/resprobed/$name.conf" "$conf_file"; installed+=("$conf_file")
  cp "$policy" "$policy_file"; installed+=("$policy_file")

  for u in "$allow" "$deny"; do
    useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin "$u" &&
      users+=("$u")
  done
  cat >"$rules_file" <<RULES
// resprobe's tests/lib-helper-bus.sh: removed when the test ends
polkit.addRule(function(action, subject) {
  if (action.id.indexOf("io.github.resprobe.") == 0) {
    if (subject.user == "$allow") return polkit.Result.YES;
    if (subject.user == "$deny") return polkit.Result.NO;
  }
});
RULES

  if bus_runs; then
    # Its configuration read again: the helper's policy is new.
    dbus-send --system --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.ReloadConfig >/dev/null
    ok "a system bus runs already; its configuration reloaded"
  else
    mkdir -p /run/dbus
    # A dead bus's leftovers keep a new one from starting.
    rm -f /run/dbus/pid /run/dbus/system_bus_socket
    # Known before it forks, so that a test ended meanwhile (SIGTERM before
    # the PID came back) still ends it: its /run/dbus/pid then names it.
    # Without the locks' descriptors (lib-root-tap.sh, lib-kernel-settings-
    # lock.sh): a daemon that outlived its test held the system files' lock
    # and every later test waited for it.
    started_bus=yes
    if bus_pid=$(dbus-daemon --system --fork --print-pid 7>&- 8>&- 9>&-) && bus_runs; then
      ok "started a system bus (dbus-daemon --system, pid $bus_pid)"
    else
      fail "dbus-daemon --system did not start"; echo "1..$n"; exit 1
    fi
  fi
  if has_owner org.freedesktop.PolicyKit1; then
    ok "polkitd runs already"
  else
    "$polkitd" --no-debug >"$work/polkitd.log" 2>&1 7>&- 8>&- 9>&- &
    polkit_pid=$!
    for _ in $(seq 300); do has_owner org.freedesktop.PolicyKit1 && break; sleep 0.1; done
    if has_owner org.freedesktop.PolicyKit1; then
      ok "started polkitd (pid $polkit_pid)"
    else
      fail "polkitd did not take its name: $(tail -3 "$work/polkitd.log")"; echo "1..$n"; exit 1
    fi
  fi
  for _ in $(seq 100); do allowed_now && break; sleep 0.1; done
  if allowed_now; then
    ok "polkit says yes to $allow for io.github.resprobe.trace (pkcheck)"
  else
    fail "polkit does not authorize $allow: $(tail -3 "$work/polkitd.log" 2>/dev/null)"
  fi

  root_tap_own_loop_device
  truncate -s 3G "$work/ext3.img"   # 1 GiB written, 1 GiB kept free
  mkfs.ext3 -q -F "$work/ext3.img"
  losetup "/dev/$loop" "$work/ext3.img"
  mnt="$work/mnt"; mkdir "$mnt"
  mount -o data=ordered "/dev/$loop" "$mnt"
  chmod 777 "$mnt"
  dd if=/dev/zero of="$mnt/warm-up" bs=1M count=4 conv=fsync status=none; rm "$mnt/warm-up"; sync
}

# user_copy PROGRAM: PROGRAM's path where the test users may run it (a copy
# in $work when they cannot reach the build tree).
user_copy() {
  if runuser -u "$allow" -- test -x "$1"; then
    echo "$1"
  else
    cp "$1" "$work/" && chmod 755 "$work/$(basename "$1")" && echo "$work/$(basename "$1")"
  fi
}
