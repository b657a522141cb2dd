#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# The fault matrix of issue 7, one row per fault: each asserts the exit code,
# that the message names the thing, and that nothing is left behind (no file in
# the target, no mount, no loop device, no process). Rows that need root (loop
# and FUSE mounts, setpriv) skip with a reason without it ("ok N - # SKIP …"
# TAP lines, counted by .ci/run); a missing tool fails its row.
set -u
# test-faults.sh [K/N]: only the rows of shard K of N (every Nth row of the
# table from the Kth), so that meson runs the shards side by side; the
# checks across all rows then hold for the shard's rows. FAULT_ROWS (names of
# row functions, separated by spaces) runs only those.
shard=${1:-1/1}
shard_index=${shard%/*}; shard_count=${shard#*/}
cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}
xvfb_run="$(cd "$(dirname "$0")" && pwd)/xvfb-run.sh"   # an X server of its own for the window rows
# Under the build dir: /tmp may be tmpfs, where the runs mean something else.
work=$(mktemp -d "${G_TEST_BUILDDIR:-/var/tmp}/faults-XXXXXX")
# The unprivileged rows run the CLI as nobody, who must reach the work dir.
chmod 755 "$work"
mkdir -m 1777 "$work/reports"
is_root=0
[ "$(id -u)" -eq 0 ] && is_root=1
# Root runs some rows as nobody (uid 65534), who may not reach a build dir
# inside a private clone: those rows get a directory of their own in /var/tmp
# and, when needed, a copy of the CLI there.
as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
nobody_area=""
nobody_cli=$cli
if [ "$is_root" -eq 1 ]; then
  nobody_area=$(mktemp -d /var/tmp/resprobe-faults-XXXXXX)
  chmod 755 "$nobody_area"
  if ! "${as_nobody[@]}" test -x "$cli"; then
    cp "$cli" "$nobody_area/resprobe-cli"
    nobody_cli=$nobody_area/resprobe-cli
  fi
fi

n=0; failures=0; rows_run=0; rows_skipped=0
# One TAP line each (meson runs this with protocol 'tap'): a message that
# spans lines is joined, so that none of its lines reads as a TAP line.
tap() { local line="$*"; echo "${line//$'\n'/ | }"; }
ok()   { n=$((n + 1)); tap "ok $n - $*"; }
fail() { n=$((n + 1)); tap "not ok $n - $*"; failures=$((failures + 1)); }
skip() { n=$((n + 1)); tap "ok $n - # SKIP $*"; }

# Whatever happens, leave the machine as it was: our runs stopped, our file
# systems unmounted (FUSE and loop), loop devices detached, files removed.
bg_pids=()
own_loops=()
stopped_fuse=()
cleanup() {
  # A FUSE daemon a row stopped (SIGSTOP) goes on, so that its file system
  # can be unmounted and the runs stuck on it end.
  for pid in "${stopped_fuse[@]}"; do kill -CONT "$pid" 2>/dev/null; done
  # vm.dirty_* as a row found them, should it have stopped half-way.
  [ -n "${dirty_saved:-}" ] && dirty_put_back "$dirty_saved"
  # Each is a timeout(1) whose child is the CLI: end both.
  for pid in "${bg_pids[@]}"; do pkill -9 -P "$pid" 2>/dev/null; kill -9 "$pid" 2>/dev/null; done
  if [ "$is_root" -eq 1 ]; then
    findmnt -rn -o TARGET | grep -F "${work:?}/" | sort -r | while read -r m; do umount "$m" || umount -l "$m"; done
    losetup -a | grep -F "${work:?}/" | cut -d: -f1 | while read -r d; do losetup -d "$d"; done
  fi
  # Loop devices the matrix rows created for themselves (loop_control add).
  for index in "${own_loops[@]}"; do losetup -d "/dev/loop$index" 2>/dev/null; loop_control remove "$index" 2>/dev/null; done
  rm -rf "$work" ${nobody_area:+"$nobody_area"}
  # row_thread_limit's pids cgroup, should the row have stopped half-way.
  rmdir /sys/fs/cgroup/pids/resprobe-faults-$$ /sys/fs/cgroup/resprobe-faults-$$ 2>/dev/null
}
trap cleanup EXIT
# meson's timeout sends SIGTERM: exit through the EXIT trap all the same.
trap 'exit 1' INT TERM

# Mounts and loop devices of ours that are still there.
leftover_mounts() {
  local what=""
  findmnt -rn -o TARGET | grep -qF "${work:?}/" && what="$what mounts:$(findmnt -rn -o TARGET | grep -F "${work:?}/" | tr '\n' ' ')"
  losetup -a 2>/dev/null | grep -qF "${work:?}/" && what="$what loop-devices"
  echo "$what"
}

# The names in a directory, to compare before and after a row.
listing() { (cd "$1" 2>/dev/null && find . -mindepth 1 | sort | tr '\n' ' '); }

# Runs the CLI with a time limit (a hang is a failure, not a stuck CI), output
# and errors in $work/last, exit code in $rc.
run_cli() {
  timeout -k 5 60 "$cli" "$@" >"$work/last" 2>&1
  rc=$?
}

# expect ROW RC NEEDLE…: the last run's exit code and message. The CLI wraps
# its text to 80 columns ("# " header lines go on after "#   "), so a needle
# is looked for in the output with its lines joined.
expect() {
  local row=$1 want=$2 missing="" msg pattern flat; shift 2
  flat=$(sed -z 's/\n#\? */ /g' "$work/last")
  for needle in "$@"; do grep -qF -- "$needle" <<<"$flat" || missing="$missing «$needle»"; done
  for pattern in "^resprobe-cli: " "run ended early" "Warning:" "was removed" ""; do
    msg=$(grep -m1 -E -- "${pattern:-.}" "$work/last") && [ -n "$pattern" ] && break
  done
  [ -n "$pattern" ] || msg=$(tail -1 "$work/last")
  if [ "$rc" -eq "$want" ] && [ -z "$missing" ]; then ok "$row: exit $rc: $msg"
  else fail "$row: exit $rc (expected $want), missing:$missing: $(tail -5 "$work/last")"; fi
}

# unchanged ROW DIR BEFORE: nothing appeared in or vanished from DIR.
unchanged() {
  local now; now=$(listing "$2")
  if [ "$now" = "$3" ]; then ok "$1: ${2#"$work"/} unchanged"
  else fail "$1: ${2#"$work"/} was «$3», now «$now»"; fi
}

no_leftover_mounts() {
  local left; left=$(leftover_mounts)
  if [ -z "$left" ]; then ok "$1: no mount or loop device left"; else fail "$1: left:$left"; fi
}

# wait_for FILE TEXT SECONDS: until a background run printed TEXT. On a
# machine busy with other tests a run's preparation (an 8 MiB source file
# and its fsync under someone else's writeback) has taken over 20 s; a
# timeout is said, so that the row failing after it is not a mystery.
# Callers remove FILE before they start the run: an earlier run's TEXT in
# it would end the wait at once, and a signal reach the new run before it
# has its handlers (exit 143).
wait_for() {
  local deadline=$(( $(date +%s) + $3 ))
  until grep -qF -- "$2" "$1" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then
      echo "# no “$2” in $1 after $3 s" >&2
      return 1
    fi
    sleep 0.05
  done
}

# image FILE SIZE MKFS [OPTIONS…]: a sparse file system image.
image() {
  local file=$1 size=$2 mkfs=$3; shift 3
  truncate -s "$size" "$file" && "$mkfs" -q -F "$@" "$file" >/dev/null 2>&1
}

# fd_modes PID DIR: "N BAD" — how many of PID's open files are in DIR, and a
# description of those that are not 0600 and unlinked.
fd_modes() {
  local count=0 bad="" fd link mode links
  for fd in /proc/"$1"/fd/*; do
    link=$(readlink "$fd" 2>/dev/null) || continue
    case "$link" in "$2"/*) ;; *) continue ;; esac
    # The copy loop closes each copy when done: a file gone meanwhile is skipped.
    read -r mode links < <(stat -L -c '%a %h' "$fd" 2>/dev/null) || continue
    count=$((count + 1))
    [ "$mode" = 600 ] && [ "$links" = 0 ] || bad="$bad $link:mode=$mode,links=$links"
  done
  echo "$count${bad:+ $bad}"
}

# ---------------------------------------------------------------------------
# The rows. Each is a function; ROWS says which need root.

row_missing_directory() {
  run_cli run --dir "$work/nope" --duration 1 --report "$work/reports/x.json"
  expect "missing directory" 2 "$work/nope" "does not exist"
  if [ ! -e "$work/nope" ] && [ ! -e "$work/reports/x.json" ]; then ok "missing directory: not created, no report"
  else fail "missing directory: $(ls -d "$work/nope" "$work/reports/x.json" 2>&1)"; fi
}

row_file_instead_of_directory() {
  printf 'keep me' >"$work/plain-file"
  run_cli run --dir "$work/plain-file" --duration 1 --report "$work/reports/x.json"
  expect "file instead of a directory" 2 "$work/plain-file" "not a directory"
  if [ "$(cat "$work/plain-file")" = "keep me" ]; then ok "file instead of a directory: file untouched"
  else fail "file instead of a directory: the file changed"; fi
}

# Root runs the CLI as nobody on a root-owned 0755 directory; anyone else on a
# directory of their own without the write bit.
row_unwritable_directory() {
  local d=$work/locked
  if [ "$is_root" -eq 1 ]; then
    d=$nobody_area/locked
    mkdir -m 755 "$d"
    mkdir -m 1777 "$nobody_area/reports"
    timeout -k 5 60 "${as_nobody[@]}" "$nobody_cli" run --dir "$d" --size 64M --duration 1 \
      --report "$nobody_area/reports/locked.json" >"$work/last" 2>&1
  else
    mkdir -m 555 "$d"
    timeout -k 5 60 "$cli" run --dir "$d" --size 64M --duration 1 \
      --report "$work/reports/locked.json" >"$work/last" 2>&1
  fi
  rc=$?
  expect "unwritable directory" 2 "$d" "not writable" "Permission denied"
  unchanged "unwritable directory" "$d" ""
}

row_read_only_fs() {
  local img=$work/ro.img mnt=$work/ro-mnt before
  mkdir "$mnt"
  image "$img" 64M mkfs.ext3 && mount -o loop,ro "$img" "$mnt" || { fail "read-only: cannot mount $img"; return; }
  before=$(listing "$mnt")
  run_cli run --dir "$mnt" --size 1M --duration 1 --report "$work/reports/ro.json"
  expect "read-only file system" 2 "$mnt" "read-only file system"
  unchanged "read-only file system" "$mnt" "$before"
  umount "$mnt"
  no_leftover_mounts "read-only file system"
}

# 64 MiB cannot hold 1 GiB, nor the 1 GiB (or 5 %) a run always leaves free.
row_full_fs_start_check() {
  local img=$work/small.img mnt=$work/small-mnt before
  mkdir "$mnt"
  image "$img" 64M mkfs.ext3 && mount -o loop "$img" "$mnt" || { fail "full fs: cannot mount $img"; return; }
  before=$(listing "$mnt")
  run_cli run --dir "$mnt" --size 1G --duration 1 --report "$work/reports/small.json"
  expect "full file system (start check)" 2 "$mnt" "GiB" "free"
  unchanged "full file system (start check)" "$mnt" "$before"
  umount "$mnt"
  no_leftover_mounts "full file system (start check)"
}

# ENOSPC during the run: a 3 GiB sparse ext4 passes the start check for
# 1800 MiB; once the first fsync sample is in, the test fills the rest
# (fallocate: instant, which ext3 lacks), so the writer's next write() fails.
row_enospc_during_run() {
  local img=$work/enospc.img mnt=$work/enospc-mnt report=$work/reports/enospc.json pid rest
  mkdir "$mnt"
  image "$img" 3G mkfs.ext4 -m 0 && mount -o loop "$img" "$mnt" || { fail "ENOSPC: cannot mount $img"; return; }
  rm -f "$work/last"
  timeout -k 5 60 "$cli" run --dir "$mnt" --size 1800M --duration 30 --report "$report" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  if wait_for "$work/last" "fsync time:" 60; then
    fallocate -l "$(df -B1 --output=avail "$mnt" | tail -1)" "$mnt/fill" 2>/dev/null
    dd if=/dev/zero of="$mnt/fill2" bs=64K 2>/dev/null
  fi
  wait "$pid" 2>/dev/null; rc=$?
  expect "full file system (ENOSPC during the run)" 1 "No space left on device" "$mnt" "Report saved"
  if python3 - "$report" <<'PY'
import json, sys
from resprobe_report import samples
r = json.load(open(sys.argv[1]))
assert len(samples(r["series"]["fsync_latency"])) >= 1, "no fsync samples"
assert "No space left on device" in r["error"], r.get("error")
PY
  then ok "ENOSPC: the report (saved elsewhere) keeps the fsync series and the error"
  else fail "ENOSPC: report $report"; fi
  rest=$(listing "$mnt")
  if [ "$rest" = "./fill ./fill2 ./lost+found " ]; then ok "ENOSPC: only the test's filler files are on the full file system"
  else fail "ENOSPC: on the file system: $rest"; fi

  # A report that cannot be written: never half a file, nor a temporary one.
  # Closing the run's files gave their blocks back once the journal commits:
  # commit now, and fill those too.
  sync -f "$mnt"
  dd if=/dev/zero of="$mnt/fill3" bs=4K 2>/dev/null
  rest=$(listing "$mnt")
  mkdir "$work/enospc-target"
  run_cli run --dir "$work/enospc-target" --size 1M --duration 1 --report "$mnt/report.json"
  expect "report onto a full file system" 1 "$mnt/report.json" "No space left on device"
  unchanged "report onto a full file system" "$mnt" "$rest"
  umount "$mnt"
  no_leftover_mounts "ENOSPC"
}

row_size_over_free_space() {
  local d=$work/target-size avail
  mkdir "$d"
  avail=$(df -B1 --output=avail "$d" | tail -1)
  run_cli run --dir "$d" --size "$(( avail / 1048576 + 1024 ))M" --duration 1 --report "$work/reports/x.json"
  expect "size larger than the free space" 2 "$d" "free"
  unchanged "size larger than the free space" "$d" ""
}

# Allowed, with a warning; the report says fsync does nothing there.
row_tmpfs() {
  local d report=$work/reports/tmpfs.json
  if [ "$is_root" -eq 1 ]; then
    mkdir "$work/tmpfs" && mount -t tmpfs -o size=2g,mode=0755 resprobe-test "$work/tmpfs" || { fail "tmpfs: cannot mount"; return; }
    d=$work/tmpfs
  else
    d=$(mktemp -d /dev/shm/resprobe-faults-XXXXXX)
  fi
  run_cli run --dir "$d" --size 16M --duration 2 --report "$report"
  expect "tmpfs target" 0 "Warning:" "$d" "tmpfs" "fsync() does nothing"
  if python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["system"]; assert s["fsync_is_noop"] is True and s["fs_type"]=="tmpfs", s' "$report"
  then ok "tmpfs: the report flags fsync_is_noop"; else fail "tmpfs: fsync_is_noop not in $report"; fi
  unchanged "tmpfs target" "$d" ""
  if [ "$is_root" -eq 1 ]; then umount "$d"; no_leftover_mounts "tmpfs"; else rmdir "$d"; fi
}

# A real FUSE file system (fuse2fs): the warning, the report's flag, and the
# fallback for file systems without O_TMPFILE (create, then unlink at once).
row_fuse() {
  local img=$work/fuse.img mnt=$work/fuse-mnt report=$work/reports/fuse.json pid modes before
  mkdir "$mnt"
  image "$img" 2G mkfs.ext4 -m 0 && fuse2fs "$img" "$mnt" -o rw >/dev/null 2>&1 || { fail "FUSE: cannot mount $img with fuse2fs"; return; }
  before=$(listing "$mnt")
  rm -f "$work/last"
  timeout -k 5 60 "$cli" run --dir "$mnt" --size 32M --duration 3 --report "$report" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  modes=$(fd_modes "$(pgrep -P "$pid" -f resprobe-cli | head -1)" "$mnt")
  wait "$pid" 2>/dev/null; rc=$?
  expect "FUSE target" 0 "Warning:" "$mnt" "FUSE file system" "fuse."
  if python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["system"]; assert s["is_fuse"] is True, s' "$report"
  then ok "FUSE: the report flags is_fuse"; else fail "FUSE: is_fuse not in $report"; fi
  if [ "${modes%% *}" -ge 2 ] && [ "$modes" = "${modes%% *}" ]; then ok "FUSE: ${modes%% *} open files, all 0600 and already unlinked"
  else fail "FUSE: open files: $modes"; fi
  unchanged "FUSE target" "$mnt" "$before"
  umount "$mnt"
  no_leftover_mounts "FUSE"
}

# Every bad value: exit 2, a message naming the option, nothing written.
row_absurd_parameters() {
  local d=$work/target-params other option value needle
  mkdir "$d"
  # OTHER|OPTION|VALUE|NEEDLE: OTHER selects the load or probe that the
  # option belongs to; the bad value comes last, overriding the defaults.
  while IFS='|' read -r other option value needle; do
    [ -n "$option" ] || continue
    # shellcheck disable=SC2086 # OTHER is a list of words
    run_cli run --dir "$d" --duration 1 --report "$work/reports/x.json" $other "$option" "$value"
    expect "absurd ${other:+$other }$option '$value'" 2 "$needle"
  done <<EOF
|--size|0|--size
|--size|-5M|--size
|--size|1e20|--size
|--size|NaN|--size
|--size|inf|--size
|--size|10q|--size
|--size|M|--size
|--size|100|size
|--size|1000000T|free
|--size|100000000T|--size
|--duration|0|--duration
|--duration|-5|--duration
|--duration|1e20|--duration
|--duration|NaN|--duration
|--duration|10q|--duration
|--duration|s|--duration
|--interval|0|--interval
|--interval|nan|--interval
|--block-size|1e20|--block-size
|--block-size|100|block-size
--scenario R3|--writers|0|--writers
--scenario R3|--writers|-1|--writers
--scenario R3|--writers|1e20|--writers
--scenario R3|--writers|NaN|--writers
--scenario R3|--writers|4q|--writers
--scenario R3|--writers|65|writers
--scenario R3|--writers|99999999999999999999|--writers
--scenario R3|--write-size|0|--write-size
--scenario R3|--file-size|10q|--file-size
--scenario R2|--copy-size|1e20|--copy-size
--scenario R2|--calibration|NaN|--calibration
--probe cold-read|--cold-read-interval|-1|--cold-read-interval
--probe app-start|--app-start-interval|1e20|--app-start-interval
--scenario R1|--copy-size|1G|--copy-size
|--dir||--dir: an empty folder name
|--report||--report
|--report|$work/reports|is a directory
|--report|$work/no-such-dir/r.json|$work/no-such-dir
EOF
  unchanged "absurd parameters" "$d" ""
  if [ ! -e "$work/reports/x.json" ]; then ok "absurd parameters: no report written"
  else fail "absurd parameters: a report was written"; fi
}

# Decided: the files are anonymous and stay valid, so R1 measures on to the
# end and says the directory went; the copy loop, which creates a file per
# copy, stops with an error naming the directory. Nothing is recreated.
row_directory_removed() {
  local d=$work/doomed pid
  mkdir "$d"
  rm -f "$work/last"
  timeout -k 5 60 "$cli" run --dir "$d" --size 512M --duration 3 --report "$work/reports/doomed.json" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  rmdir "$d"
  wait "$pid" 2>/dev/null; rc=$?
  expect "directory removed during R1" 0 "$d" "was removed during the run"
  if python3 -c 'import json,sys; assert json.load(open(sys.argv[1]))["notes"]["target_directory_removed"] == "true"' "$work/reports/doomed.json"
  then ok "directory removed: the report notes it"; else fail "directory removed: no note in the report"; fi

  mkdir "$d"
  rm -f "$work/last"
  timeout -k 5 60 "$cli" run --scenario R2 --dir "$d" --copy-size 8M --calibration 0.5 --duration 10 \
    --report "$work/reports/doomed2.json" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  rmdir "$d"
  wait "$pid" 2>/dev/null; rc=$?
  # shellcheck disable=SC1111 # the message quotes the path with “ ”
  expect "directory removed during R2 (copy loop)" 1 "Creating a file in “$d”"
  if [ ! -e "$d" ]; then ok "directory removed: not recreated"; else fail "directory removed: $d is back"; fi
}

# SIGINT and SIGTERM stop with a summary and a report; SIGKILL leaves no file
# either (O_TMPFILE); R1 and R3 (five threads writing).
row_signals() {
  local d=$work/target-signals scenario sig pid start took size
  mkdir "$d"
  for scenario in R1 R3; do
    for sig in INT TERM KILL; do
      rm -f "$work/reports/sig.json"
      # --size is the main load's: R1's writer, each of R3's writers.
      size=1G; [ "$scenario" = R3 ] && size=128M
      rm -f "$work/last"
      timeout -k 5 60 "$cli" run --scenario "$scenario" --dir "$d" --size "$size" --duration 60 \
        --report "$work/reports/sig.json" >"$work/last" 2>&1 &
      pid=$!; bg_pids+=("$pid")
      wait_for "$work/last" "fsync time:" 60
      sleep 0.5
      start=$(date +%s%N)
      kill -"$sig" "$(pgrep -P "$pid" -f resprobe-cli | head -1)"
      wait "$pid" 2>/dev/null; rc=$?
      took=$(( ($(date +%s%N) - start) / 1000000 ))
      if [ "$sig" = KILL ]; then
        if [ "$rc" -eq 137 ] && [ ! -e "$work/reports/sig.json" ]; then ok "SIGKILL during $scenario: killed, no report"
        else fail "SIGKILL during $scenario: exit $rc"; fi
      else
        expect "SIG$sig during $scenario (stopped in ${took} ms)" 3 "Stopping" "Summary" "Report saved"
        # Catches a run that ignores the signal; not a speed test (see test-cli.sh).
        if [ "$took" -lt 15000 ]; then ok "SIG$sig during $scenario: exit within 15 s"; else fail "SIG$sig during $scenario took ${took} ms"; fi
      fi
      unchanged "SIG$sig during $scenario" "$d" ""
    done
  done
}

# Ctrl-C while preparing (the CPU benchmark calibrates for 3 s): a quick stop
# and no made-up "100 % lost" from a benchmark that never ran under load.
row_stop_while_preparing() {
  local d=$work/target-prep pid
  mkdir "$d"
  rm -f "$work/last"
  timeout -k 5 60 "$cli" run --scenario R2 --dir "$d" --copy-size 16M --duration 30 \
    --report "$work/reports/prep.json" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "Preparing" 60
  sleep 1
  kill -INT "$(pgrep -P "$pid" -f resprobe-cli | head -1)"
  wait "$pid" 2>/dev/null; rc=$?
  # Exit 3 (stopped), and the verdict does not call a sample or two taken
  # before the loads started "responsive".
  expect "SIGINT while preparing R2" 3 "Report saved" "stopped while it was preparing"
  if ! grep -q "stayed responsive" "$work/last"; then ok "SIGINT while preparing: not called responsive"
  else fail "SIGINT while preparing: $(grep "stayed responsive" "$work/last")"; fi
  if ! grep -q "under load" "$work/last"; then ok "SIGINT while preparing: no CPU benchmark verdict"
  else fail "SIGINT while preparing: $(grep "under load" "$work/last")"; fi
  unchanged "SIGINT while preparing" "$d" ""
}

# kill -9 of resprobe-cli: its command load dies with it.
row_command_load_killed() {
  local d=$work/target-cmd marker="4242.$$" pid left
  mkdir "$d"
  rm -f "$work/last"
  timeout -k 5 60 "$cli" run --dir "$d" --probe none --duration 30 --report "$work/reports/cmd.json" \
    -- sleep "$marker" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  # The CLI under timeout, and its command (a child of the CLI), both
  # running before the kill: otherwise the check below would pass without
  # testing anything (it did: the CLI's header reaches a file only when its
  # buffer is flushed, at the end, so waiting for it waited for the run's
  # end). A hang guard of 60 s.
  local cli_pid="" i
  for i in $(seq 600); do
    cli_pid=$(pgrep -P "$pid" -f resprobe-cli | head -1)
    [ -n "$cli_pid" ] && pgrep -P "$cli_pid" -f "sleep $marker" >/dev/null && break
    sleep 0.1
  done
  if [ -z "$cli_pid" ] || ! pgrep -P "$cli_pid" -f "sleep $marker" >/dev/null; then
    fail "SIGKILL with a command load: the CLI or its command never ran"
    wait "$pid" 2>/dev/null
    return
  fi
  kill -9 "$cli_pid"
  wait "$pid" 2>/dev/null
  sleep 0.5
  left=$(pgrep -f "sleep $marker")
  if [ -z "$left" ]; then ok "SIGKILL with a command load: the command died too"
  else fail "SIGKILL with a command load: left running: $left"; kill -9 $left; fi
  unchanged "SIGKILL with a command load" "$d" ""
}

# Corrupt reports for `show`: a clear message naming the file, no crash, no
# hang (a FIFO would block a plain open()), nothing written.
row_corrupt_report() {
  local dir=$work/corrupt before f
  # A broken show fails here, once, and in each check below: never a skip.
  if "$cli" show --help >/dev/null 2>&1; then ok "corrupt report: resprobe-cli show --help works"
  else fail "corrupt report: resprobe-cli show --help fails"; fi
  mkdir "$dir"
  : >"$dir/empty.json"
  printf '{"format": "resprobe-report", "version": 1, "series": {"fsync_latency"' >"$dir/truncated.json"
  head -c 4096 /dev/urandom >"$dir/garbage.json"
  printf '{"hello": "world"}' >"$dir/not-a-report.json"
  printf '{"format": "resprobe-report", "version": 99}' >"$dir/future.json"
  printf '{"format": "resprobe-report", "version": 1, "series": {"fsync_latency": {"unit": "s", "samples": [[0, "NaN"], [1e308, -1e308]]}}}' >"$dir/odd-numbers.json"
  mkfifo "$dir/fifo.json"
  mkdir "$dir/directory.json"
  before=$(listing "$dir")
  for f in empty truncated garbage not-a-report future odd-numbers fifo directory missing; do
    run_cli show "$dir/$f.json"
    if [ "$rc" -ge 1 ] && [ "$rc" -le 2 ] && grep -qF "$dir/$f.json" "$work/last"; then
      ok "corrupt report $f: exit $rc: $(head -1 "$work/last")"
    else
      fail "corrupt report $f: exit $rc: $(head -3 "$work/last")"
    fi
  done
  unchanged "corrupt reports" "$dir" "$before"
}

# The files the engine creates: 0600 whatever the umask, already unlinked, of
# every load and probe that writes (writer, parallel writers, copy loop, fsync
# and cold-read probes), looked at through /proc/PID/fd every 0.1 s for the
# whole run: the distinct files seen add up (each load opens its files when
# it starts, the copy loop one after another; on a busy machine none is sure
# to be open at one given look), and no name may ever show in the target.
row_file_modes() {
  local d=$work/target-modes pid child link mode links visible="" bad=""
  local -A seen=()
  mkdir "$d"
  (umask 000; exec timeout -k 5 60 "$cli" run --dir "$d" --load seq-writer,parallel-writers,copy-loop \
     --probe fsync,cold-read --size 256M --file-size 16M --copy-size 8M --duration 4 \
     --report "$work/reports/modes.json") >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  for _ in $(seq 600); do
    child=$(pgrep -P "$pid" -f resprobe-cli | head -1)
    [ -n "$child" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.1
  done
  # One process watches the whole run (a process per descriptor took
  # seconds a look on a busy machine, and a 4 s run was seen twice). A
  # descriptor's link is read before and after its stat: one closed and
  # reused meanwhile (seen under load: /dev/null's mode 666 and one link,
  # for a spawned child's stdin) is not the file it named.
  [ -n "$child" ] && while read -r mode links link; do
    if [ "$mode" = visible ]; then visible=$link; continue; fi
    seen[$link]=1
    [ "$mode" = 600 ] && [ "$links" = 0 ] || bad="$bad $link:mode=$mode,links=$links"
  done < <(python3 - "$child" "$d" <<'PY'
import os, stat, sys, time
child, target = sys.argv[1], sys.argv[2] + "/"
fds = f"/proc/{child}/fd"
while os.path.exists(fds):
    try:
        names = os.listdir(fds)
    except OSError:
        break
    for name in names:
        path = f"{fds}/{name}"
        try:
            before = os.readlink(path)
            st = os.stat(path)
            after = os.readlink(path)
        except OSError:
            continue
        if before == after and before.startswith(target):
            print(f"{stat.S_IMODE(st.st_mode):o} {st.st_nlink} inode-{st.st_ino}", flush=True)
    try:
        entries = os.listdir(target)
    except OSError:
        entries = []
    if entries:
        print("visible - " + " ".join(entries), flush=True)
    time.sleep(0.1)
PY
)
  if [ "${#seen[@]}" -ge 8 ] && [ -z "$bad" ]; then ok "file modes: ${#seen[@]} files seen open under umask 000, all 0600 and unlinked"
  else fail "file modes: ${#seen[@]} files seen${bad:+, wrong:$bad}"; fi
  if [ -z "$visible" ]; then ok "file modes: no name in the target during the run"
  else fail "file modes: visible: $visible"; fi
  wait "$pid" 2>/dev/null; rc=$?
  expect "file modes run" 0 "Report saved"
}

# The command load runs argv, never a shell: quoting, $VAR, $(…), `…` and ;
# reach the program as they are.
row_command_without_shell() {
  local d=$work/target-shell
  mkdir "$d"
  run_cli run --dir "$d" --probe none --duration 1 --report "$work/reports/shell.json" \
    -- echo '$HOME' '$(touch pwned1)' '`touch pwned2`' ';' touch pwned3
  expect "command load after --" 0 "Command: exit 0"
  run_cli run --dir "$d" --probe none --duration 1 --report "$work/reports/shell2.json" \
    --command 'echo $HOME; touch pwned4 && touch pwned5'
  expect "command load with --command" 0 "Command: exit 0"
  if python3 - "$work/reports/shell.json" "$work/reports/shell2.json" <<'PY'
import json, sys
tails = [json.load(open(f))["notes"]["command_output_tail"] for f in sys.argv[1:]]
assert tails[0] == "$HOME $(touch pwned1) `touch pwned2` ; touch pwned3\n", tails[0]
assert tails[1] == "$HOME; touch pwned4 && touch pwned5\n", tails[1]
PY
  then ok "command load: the arguments arrived literally"; else fail "command load: output tails"; fi
  unchanged "command load without a shell" "$d" ""
}

# A report from a stranger names a command and a directory: showing,
# comparing and exporting it must never run the command nor touch the directory.
row_report_runs_nothing() {
  local d=$work/target-evil marker=$work/pwned-by-report report=$work/reports/evil.json before
  if "$cli" show --help >/dev/null 2>&1; then ok "hostile report: resprobe-cli show --help works"
  else fail "hostile report: resprobe-cli show --help fails"; fi
  mkdir "$d"
  run_cli run --dir "$d" --probe none --duration 1 --report "$report" -- true
  python3 - "$report" "$marker" "$d" <<'PY'
import json, sys
path, marker, directory = sys.argv[1:]
r = json.load(open(path))
r["scenario"]["loads"] = ["command", "seq-writer", "copy-loop"]
r["scenario"]["command_argv"] = ["/bin/sh", "-c", "touch " + marker]
r["scenario"]["directory"] = directory
json.dump(r, open(path, "w"))
PY
  before=$(listing "$d")
  run_cli show "$report"
  expect "hostile report: show" 0
  run_cli compare "$report" "$report"
  expect "hostile report: compare" 0
  run_cli export "$report" --output "$work/reports/evil.txt"
  expect "hostile report: export" 0
  if [ ! -e "$marker" ]; then ok "hostile report: its command never ran"
  else fail "hostile report: its command ran"; fi
  unchanged "hostile report" "$d" "$before"
}

# matrix changes mounts and schedulers: without root it refuses, creating nothing.
row_matrix_needs_root() {
  local area=$work
  if [ "$is_root" -eq 1 ]; then
    area=$nobody_area
    mkdir -m 1777 "$area/matrix-images"
    timeout -k 5 60 "${as_nobody[@]}" "$nobody_cli" matrix --dir "$area/matrix-images" \
      --reports "$area/matrix-reports" >"$work/last" 2>&1
  else
    mkdir "$area/matrix-images"
    timeout -k 5 60 "$cli" matrix --dir "$area/matrix-images" --reports "$area/matrix-reports" >"$work/last" 2>&1
  fi
  rc=$?
  expect "matrix without root" 1 "root"
  if [ -z "$(ls -A "$area/matrix-images")" ] && [ ! -e "$area/matrix-reports" ]; then ok "matrix without root: nothing created"
  else fail "matrix without root: created $(ls -A "$area"/matrix-* 2>&1)"; fi
}

# Issue 20: --device with an unknown profile, a bad custom parameter or
# value is refused before anything is made (as root or not: options come
# first); as root, a device that needs nbdkit where there is none is refused
# naming it, before a cell starts. Nothing is created in --dir, no reports.
row_device_bad_input() {
  local images=$work/device-images before
  mkdir "$images"
  before=$(listing "$images")
  run_cli matrix --device native,floppy --dir "$images" --reports "$work/device-reports"
  expect "matrix --device floppy" 2 "floppy" "usb2-stick" "custom:"
  run_cli matrix --device custom:write=8M,speed=3 --dir "$images" --reports "$work/device-reports"
  expect "matrix --device custom:…,speed=3" 2 "speed" "latency"
  run_cli matrix --device custom:write=fast --dir "$images" --reports "$work/device-reports"
  expect "matrix --device custom:write=fast" 2 "fast"
  run_cli matrix --device custom:latency --dir "$images" --reports "$work/device-reports"
  expect "matrix --device custom:latency" 2 "KEY=VALUE"
  if [ "$is_root" -eq 1 ]; then
    # Only the CLI is found (by its path): no nbdkit in PATH.
    timeout -k 5 60 env PATH=/nonexistent "$cli" matrix --device usb2-stick --fs ext3 \
      --size 64M --image-size 2G --dir "$images" --reports "$work/device-reports" >"$work/last" 2>&1
    rc=$?
    expect "matrix --device usb2-stick without nbdkit" 1 "nbdkit" "usb2-stick"
  fi
  unchanged "matrix --device, bad input" "$images" "$before"
  if [ ! -e "$work/device-reports" ]; then ok "matrix --device, bad input: no reports directory"
  else fail "matrix --device, bad input: created $work/device-reports"; fi
}

# ---------------------------------------------------------------------------
# Issue 16: what was lost under resource limits, pipes, locales and freezes.

# A pids cgroup at its limit: a thread that cannot be created fails the run
# with a message (exit 1), or the run goes on; never a hang, never an abort.
# The shell writes its own pid into the cgroup, then becomes the CLI, so the
# limit counts the CLI's threads only (as in the report: pids.max=2 hung).
row_thread_limit() {
  local d=$work/target-pids group=/sys/fs/cgroup/pids/resprobe-faults-$$ max pid watchdog
  [ -d /sys/fs/cgroup/pids ] || group=/sys/fs/cgroup/resprobe-faults-$$
  mkdir "$d" "$group"
  for max in 2 3 4 5 6; do
    echo "$max" >"$group/pids.max"
    rm -f "$work/reports/pids.json"
    ( echo "$BASHPID" >"$group/cgroup.procs"
      exec "$cli" run --dir "$d" --size 64M --duration 2 --report "$work/reports/pids.json" ) >"$work/last" 2>&1 &
    pid=$!
    # A hang guard far above a 2 s run, outside the cgroup.
    ( sleep 60; kill -9 "$pid" 2>/dev/null ) & watchdog=$!
    wait "$pid"; rc=$?
    kill "$watchdog" 2>/dev/null; wait "$watchdog" 2>/dev/null
    if [ "$rc" -eq 0 ]; then
      expect "pids.max=$max: the run fit" 0 "Report saved"
    else
      expect "pids.max=$max: a clear error, no hang or abort" 1 "thread"
    fi
    unchanged "pids.max=$max" "$d" ""
  done
  rmdir "$group"
  if [ ! -e "$group" ]; then ok "pids cgroup removed"; else fail "pids cgroup left: $group"; fi
}

# `| head`: the reader goes away; the run still ends, saves its report and
# exits 0: a closed pipe is not a failed measurement (issue 20; a full disk,
# `show >/dev/full` in test-cli.sh, still is).
row_stdout_pipe_closed() {
  local d=$work/target-pipe report=$work/reports/pipe.json
  mkdir "$d"
  rm -f "$report"
  timeout -k 5 60 "$cli" run --dir "$d" --size 64M --duration 3 --report "$report" 2>"$work/last" | head -n 2 >/dev/null
  rc=${PIPESTATUS[0]}
  expect "stdout closed by head" 0 "Report saved"
  if grep -q "Broken pipe\|standard output" "$work/last"; then fail "stdout closed by head: reported as an error: $(cat "$work/last")"
  else ok "stdout closed by head: no error about the closed pipe"; fi
  if "$cli" show "$report" >/dev/null 2>&1; then ok "stdout closed by head: the report is whole"
  else fail "stdout closed by head: no report, or a broken one"; fi
  unchanged "stdout closed by head" "$d" ""
}

# Numbers in reports never follow the locale: a German run's notes read
# back in any locale ("0,015" read as 0 lost the writer's line).
row_locale_numbers() {
  local d=$work/target-locale report=$work/reports/locale.json
  mkdir "$d"
  rm -f "$report"
  # The catalogues of this build (po/LANG/LC_MESSAGES beside tests/).
  LC_ALL=de_DE.UTF-8 RESPROBE_LOCALEDIR=${G_TEST_BUILDDIR:?}/../po \
    timeout -k 5 60 "$cli" run --dir "$d" --size 64M --duration 3,5 --interval 0,5 --report "$report" >"$work/last" 2>&1
  rc=$?
  # The writer's line reads the note back: it was missing in de, ru, pl.
  # German decimal commas on input ("3,5" was refused).
  expect "run in German" 0 "Schreiber:"
  if python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["scenario"]; assert s["duration"] == 3.5 and s["fsync_interval"] == 0.5, s' "$report"
  then ok "German run: --duration 3,5 --interval 0,5 read as 3.5 s and 0.5 s"
  else fail "German run: decimal commas: $(grep -o '"duration"[^,]*' "$report")"; fi
  if grep -qE '"writer_seconds" *: *"[0-9]+\.[0-9]+"' "$report"; then ok "German run: writer_seconds with a decimal point"
  else fail "German run: $(grep -o '"writer_seconds"[^,]*' "$report")"; fi
  unchanged "run in German" "$d" ""
}

# SIGSTOP of the CLI for 3 s: the report says the measuring process stood
# still, instead of a calm verdict over a hole in every series.
row_frozen_process() {
  local d=$work/target-frozen report=$work/reports/frozen.json pid child
  mkdir "$d"
  rm -f "$report" "$work/last"
  timeout -k 5 60 "$cli" run --dir "$d" --size 64M --duration 8 --report "$report" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  child=$(pgrep -P "$pid" -f resprobe-cli | head -1)
  kill -STOP "$child"; sleep 3; kill -CONT "$child"
  wait "$pid"; rc=$?
  expect "SIGSTOP for 3 s" 0 "stood still" "Report saved"
  if grep -qE '"measurement_gaps" *: *"[1-9]' "$report"; then ok "SIGSTOP for 3 s: noted as a measurement gap"
  else fail "SIGSTOP for 3 s: no measurement_gaps note"; fi
  unchanged "SIGSTOP for 3 s" "$d" ""
}

# A report name of 250 bytes (the longest a file system takes is 255): saved
# where asked, with no temporary file left (GLib's name added 7 bytes).
row_long_report_name() {
  local d=$work/target-long name report
  mkdir "$d"
  name=$(printf 'r%.0s' $(seq 245)).json
  report=$work/reports/$name
  run_cli run --dir "$d" --size 16M --duration 2 --report "$report"
  expect "report name of ${#name} bytes" 0 "Report saved"
  if [ -s "$report" ]; then ok "report name of ${#name} bytes: saved where asked"
  else fail "report name of ${#name} bytes: not at its name"; fi
  if [ -z "$(find "$work/reports" -name '.resprobe-*')" ]; then ok "report name of ${#name} bytes: no temporary file left"
  else fail "report name of ${#name} bytes: temporary file left"; fi
  rm -f "$report"
}

# Two --command options: both run side by side (issue 19), neither silently
# dropped, each with its own exit status; a second one that does not split
# (an open quote) is refused before anything runs, naming it.
row_second_command() {
  local d=$work/target-commands
  mkdir "$d"
  run_cli run --dir "$d" --command "true" --command "false" --duration 2
  expect "two --command options" 4 "Command 1: exit 0" "Command 2: exit 1" \
    "the command “false” failed: it exited with status 1"
  unchanged "two --command options" "$d" ""
  run_cli run --dir "$d" --command "true" --command "sh -c 'open" --duration 2
  expect "a second --command with an open quote" 2 "--command 2 “sh -c 'open”: a quotation mark is not closed"
  unchanged "a second --command with an open quote" "$d" ""
  # GLib's own words ("Text was empty (or contained only whitespace)",
  # "Text ended before matching quote was found for '.") name neither the
  # option nor the problem in the user's terms.
  run_cli run --dir "$d" --command "" --duration 2
  expect "an empty --command" 2 "--command “”: the command is empty"
  run_cli run --dir "$d" --command 'sh -c "exit' --duration 2
  expect "an open quote in --command" 2 '--command “sh -c "exit”: a quotation mark is not closed'
  run_cli run --dir "$d" --command "true" --command "  " --duration 2
  expect "an empty second --command" 2 "--command 2 “  ”: the command is empty"
  if grep -qE "Text was empty|matching quote" "$work/last"; then fail "GLib's message printed: $(cat "$work/last")"
  else ok "no raw GLib message for an empty --command"; fi
  unchanged "empty or unbalanced --command" "$d" ""
}

# Issue 16, item 3: a day of the default probes (3.8 million samples, over
# 256 MiB as version 1 JSON) could not be saved. Now it saves, and the CLI
# shows, exports (CSV: every sample; JSON: the same file) and compares it.
row_long_report() {
  local day=$work/reports/day.json lines
  # 3.8 million samples as CSV take a minute and more under AddressSanitizer,
  # and over five beside other work (seen: exit 124 at 300 s while five
  # builds ran): ten minutes for each run of this row, a hang guard only.
  cli_long() { timeout -k 5 600 "$cli" "$@" >"$work/last" 2>&1; rc=$?; }
  if timeout -k 5 300 "${RESPROBE_MAKE_LONG_REPORT:?}" 24 "$day" >"$work/last" 2>&1 && [ -s "$day" ]; then
    ok "a day's report: saved, $(($(stat -c %s "$day") / 1000000)) MB"
  else fail "a day's report: not saved: $(tail -3 "$work/last")"; return; fi
  cli_long show "$day"
  expect "a day's report: show" 0 "cpu_user"
  cli_long export "$day" -o "$work/reports/day.csv"
  expect "a day's report: export as CSV" 0 "Wrote"
  lines=$(wc -l <"$work/reports/day.csv" 2>/dev/null)
  if [ "$lines" = 3801601 ]; then ok "a day's report: CSV has every sample ($lines lines)"
  else fail "a day's report: CSV has $lines lines, not 3801601"; fi
  cli_long export "$day" -o "$work/reports/day-again.json"
  if [ "$rc" -eq 0 ] && cmp -s "$day" "$work/reports/day-again.json"; then ok "a day's report: loaded and saved again, the same file"
  else fail "a day's report: exit $rc, saved again differs: $(tail -3 "$work/last")"; fi
  cli_long compare "$day" "$work/reports/day-again.json"
  expect "a day's report: compare" 0 "Run 2"
  rm -f "$day" "$work/reports/day.csv" "$work/reports/day-again.json"
}

# Issue 16, item 10: a PDF of a report with 20 000 notes took over 120 s.
# Now it is written within run_cli's minute, with the first notes and a line
# counting the rest.
row_pdf_many_notes() {
  local report=$work/reports/notes.json pdf=$work/reports/notes.pdf
  python3 - "$report" <<'PY'
import json, sys
notes = {"note_%05d" % i: "value of note %d, about fifty bytes of text" % i for i in range(20000)}
json.dump({"format": "resprobe-report", "version": 1, "created": "2026-12-02T00:00:00Z",
           "system": {}, "scenario": {"name": "passive", "loads": [], "probes": ["fsync"]},
           "notes": notes,
           "series": {"fsync_latency": {"unit": "s", "samples": [[1.0, 0.5422], [2.0, 6.37]]}}},
          open(sys.argv[1], "w"))
PY
  run_cli export "$report" -o "$pdf"
  expect "PDF of 20 000 notes" 0 "Wrote"
  if pdftotext "$pdf" - 2>/dev/null | grep -q "19900 more notes are in the JSON and text reports"; then
    ok "PDF of 20 000 notes: the first 100 and a line counting the others ($(pdfinfo "$pdf" 2>/dev/null | awk '/^Pages:/ {print $2}') pages)"
  else fail "PDF of 20 000 notes: no line counting the notes left out"; fi
  rm -f "$report" "$pdf"
}

# ---------------------------------------------------------------------------
# Issue 16 item 12 and issue 17: what the matrix changes on a loop device (its
# queue settings outlive the detach) is put back on every exit path.

# loop_control, queue_settings, queue_set_odd, cell_scheduler, has_wbt: loop devices of the rows' own
# (from index 400 up: the root tests take theirs from 300), removed by cleanup().
. "$(dirname "$0")/loop-queue.sh"
. "$(dirname "$0")/lib-kernel-settings-lock.sh"

# A loop device of our own with settings no kernel default has; sets $loop.
own_loop_with_odd_settings() {
  local index
  index=$(loop_control add 400) || return 1
  own_loops+=("$index")
  loop=loop$index
  queue_set_odd "$loop"
}

# A cell that fails after the loop device was changed (its command load
# finds no such program when it starts; an image too small for the writer,
# which this row used before, is now refused before the first cell): the
# cell's scheduler (bfq where the kernel has it), wbt 0 (where it throttles
# writeback) and direct I/O are put back.
row_matrix_restore_on_error() {
  local before after loop scheduler wbt=() wbt_key=""
  own_loop_with_odd_settings || { fail "matrix error path: cannot create a loop device"; return; }
  before=$(queue_settings "$loop")
  scheduler=$(cell_scheduler "$loop")
  has_wbt "$loop" && { wbt=(--wbt 0); wbt_key=-wbt0; }
  mkdir "$work/restore-images"
  timeout -k 5 100 "$cli" matrix --fs ext2 --scheduler "$scheduler" "${wbt[@]}" --direct-io on \
    --load command --command "$work/no-such-program" \
    --image-size 1400M --duration 2 --loop-device "/dev/$loop" --dir "$work/restore-images" \
    --reports "$work/restore-reports" >"$work/last" 2>&1
  rc=$?
  expect "matrix cell that fails" 1 "ext2-$scheduler$wbt_key-dio" "no-such-program"
  after=$(queue_settings "$loop")
  if [ "$after" = "$before" ] && ! losetup "/dev/$loop" >/dev/null 2>&1; then
    ok "matrix cell that fails: $loop put back ($after) and detached"
  else fail "matrix cell that fails: $loop was «$before», now «$after» $(losetup "/dev/$loop" 2>&1)"; fi
  no_leftover_mounts "matrix cell that fails"
}

# SIGINT while a cell runs: the loop device is put back before it is released.
row_matrix_restore_on_interrupt() {
  local before after loop pid deadline scheduler wbt=() wbt_cell=unchanged mid=""
  own_loop_with_odd_settings || { fail "matrix interrupted: cannot create a loop device"; return; }
  before=$(queue_settings "$loop")
  scheduler=$(cell_scheduler "$loop")
  has_wbt "$loop" && { wbt=(--wbt 1000); wbt_cell=1000; }
  mkdir "$work/interrupt-images"
  rm -f "$work/last"
  timeout -k 5 100 "$cli" matrix --fs ext2 --scheduler "$scheduler" "${wbt[@]}" --direct-io on \
    --size 64M --image-size 1300M --duration 30 --loop-device "/dev/$loop" \
    --dir "$work/interrupt-images" --reports "$work/interrupt-reports" >"$work/last" 2>&1 &
  pid=$!
  bg_pids+=("$pid")
  # Mid-cell: the loop device is bound and has the cell's settings.
  deadline=$(( $(date +%s) + 60 ))
  until [ "$(cat "/sys/block/$loop/loop/dio" 2>/dev/null)" = 1 ] &&
        { [ "$wbt_cell" = unchanged ] || [ "$(cat "/sys/block/$loop/queue/wbt_lat_usec")" = 1000 ]; }; do
    [ "$(date +%s)" -lt "$deadline" ] || break
    sleep 0.1
  done
  mid=$(queue_settings "$loop")
  pkill -INT -P "$pid"
  wait "$pid"; rc=$?
  expect "matrix interrupted mid-cell" 3 "interrupted"
  after=$(queue_settings "$loop")
  if [ "$after" = "$before" ] && [ "$mid" != "$before" ] && ! losetup "/dev/$loop" >/dev/null 2>&1; then
    ok "matrix interrupted mid-cell: $loop was «$mid» in the cell, put back ($after) and detached"
  else fail "matrix interrupted mid-cell: $loop was «$before», «$mid» in the cell, now «$after»"; fi
  no_leftover_mounts "matrix interrupted mid-cell"
}

# ---------------------------------------------------------------------------
# Issue 16, items 7, 8, 11, 14 and its cosmetics.

# ulimit -v: every limit either fits the run or fails it with a message
# naming memory or a thread (exit 1); never SIGSEGV (139), GLib-ERROR's
# SIGTRAP (133) or a hang. 30000 KiB is below what GLib's own threads need:
# that aborted in GLib before any message of ours.
row_memory_limit() {
  local d=$work/target-ulimit limit scenario size
  mkdir "$d"
  for scenario in R1 R3; do
    size=64M; [ "$scenario" = R3 ] && size=16M
    for limit in 200000 90000 60000 30000; do
      rm -f "$work/reports/ulimit.json"
      ( ulimit -v "$limit"
        exec timeout -k 5 60 "$cli" run --scenario "$scenario" --dir "$d" --size "$size" --duration 2 \
          --report "$work/reports/ulimit.json" ) >"$work/last" 2>&1
      rc=$?
      if [ "$rc" -eq 0 ]; then
        expect "ulimit -v $limit, $scenario: the run fit" 0 "Report saved"
      else
        expect "ulimit -v $limit, $scenario: a clear error, no crash" 1
        if grep -qE "memory|thread" "$work/last"; then ok "ulimit -v $limit, $scenario: the message names memory or a thread"
        else fail "ulimit -v $limit, $scenario: $(tail -2 "$work/last")"; fi
      fi
    done
  done
  unchanged "ulimit -v" "$d" ""
}

# A command whose child leaves its process group (setsid) and writes into the
# target: after the run no such process runs, and the summary and the report
# say one was stopped. As root the command runs in a cgroup of its own; as
# nobody (no cgroup to write to) its processes are found by the environment
# they inherit.
row_command_setsid() {
  # In nobody's area when root: nobody may not reach a build dir inside a
  # private clone (seen: "Permission denied" in a clone under mktemp -d).
  local d=${nobody_area:-$work}/target-setsid marker="setsid-marker-$$" report who
  local -a runner
  mkdir -m 777 "$d"
  for who in self nobody; do
    [ "$who" = nobody ] && [ "$is_root" -eq 0 ] && continue
    runner=("$cli"); report=$work/reports/setsid-$who.json
    if [ "$who" = nobody ]; then
      runner=("${as_nobody[@]}" "$nobody_cli"); report=$nobody_area/setsid-reports/setsid.json
      mkdir -p -m 1777 "$nobody_area/setsid-reports"
    fi
    rm -f "$report" "$d/leak.txt"
    timeout -k 5 60 "${runner[@]}" run --dir "$d" --load command --probe none --duration 3 --report "$report" \
      -- sh -c "setsid sh -c 'while :; do echo $marker >>leak.txt; sleep 0.1; done' & sleep 100" >"$work/last" 2>&1
    rc=$?
    expect "setsid escapee ($who)" 0 "left its process group" "Report saved"
    if ! pgrep -f "$marker" >/dev/null; then ok "setsid escapee ($who): no process of the command left"
    else fail "setsid escapee ($who): still running: $(pgrep -af "$marker")"; pkill -9 -f "$marker"; fi
    if python3 - "$report" "$who" <<'PY'
import json, os, sys
notes = json.load(open(sys.argv[1]))["notes"]
assert int(notes["command_escaped_processes"]) >= 1, notes
assert notes["command_containment"] in ("cgroup", "environment"), notes
if sys.argv[2] == "nobody":
    assert notes["command_containment"] == "environment", notes
elif os.geteuid() == 0:
    assert notes["command_containment"] == "cgroup", notes
PY
    then ok "setsid escapee ($who): the report counts it ($(grep -o '"command_containment"[^,]*' "$report"))"
    else fail "setsid escapee ($who): report notes"; fi
    rm -f "$d/leak.txt"
  done
  # Cgroups of runs that ended (their creator's pid, in the name, is gone);
  # other tests' runs may have live ones meanwhile.
  local left="" group pid
  for group in $(find /sys/fs/cgroup -maxdepth 3 -name 'resprobe-command-*' 2>/dev/null); do
    pid=${group##*/resprobe-command-}; pid=${pid%%-*}
    kill -0 "$pid" 2>/dev/null || left="$left $group"
  done
  if [ -z "$left" ]; then ok "setsid escapee: no cgroup of an ended run left"
  else fail "setsid escapee: cgroups left:$left"; fi
}

# A command still running at the end keeps its output: dd prints its totals
# on SIGINT (the first signal of a stop), which SIGTERM alone lost.
row_command_output_at_stop() {
  local d=$work/target-cmdout report=$work/reports/cmdout.json
  mkdir "$d"
  rm -f "$report"
  run_cli run --dir "$d" --load command --probe none --duration 2 --report "$report" \
    -- dd if=/dev/zero of=/dev/null bs=64K
  expect "command running at the end" 0 "(stopped with the run)" "records out"
  if python3 -c 'import json,sys; assert "copied" in json.load(open(sys.argv[1]))["notes"]["command_output_tail"]' "$report"
  then ok "command running at the end: its output is in the report"; else fail "command running at the end: no output in the report"; fi
  unchanged "command running at the end" "$d" ""
}

# Russian chart axes in Russian units: the PDF export's tick labels (text in
# the PDF, read back with pdftotext) say "мс", as the tables do; they kept
# "ms", "µs" and "s".
row_russian_axes() {
  local d=$work/target-ru report=$work/reports/ru.json pdf=$work/reports/ru.pdf text
  mkdir "$d"
  rm -f "$report"
  run_cli run --dir "$d" --load none --probe fsync --interval 0.2 --duration 2 --report "$report"
  expect "Russian axes: a short fsync run" 0 "Report saved"
  LANGUAGE=ru LC_ALL=ru_RU.UTF-8 RESPROBE_LOCALEDIR=${G_TEST_BUILDDIR:?}/../po \
    timeout -k 5 60 "$cli" export "$report" -o "$pdf" >"$work/last" 2>&1
  rc=$?
  expect "Russian axes: export to PDF" 0 "$pdf"
  text=$(pdftotext "$pdf" - 2>&1)
  if grep -qE '^[0-9]+ (мс|мкс)$' <<<"$text"; then ok "Russian axes: ticks in мс or мкс"
  else fail "Russian axes: no tick in мс or мкс"; fi
  if ! grep -qE '^[0-9,]+ (ms|µs|s)$' <<<"$text"; then ok "Russian axes: no tick in ms, µs or s"
  else fail "Russian axes: $(grep -m2 -E '^[0-9,]+ (ms|µs|s)$' <<<"$text" | tr '\n' ' ')"; fi
}

# The window rows take X display numbers from 1000 up: the GUI tests, which
# run beside this one, take theirs from 200 to 799 (two servers started on one
# number at once left a test without a display).

# The window appears even when the session bus accepts the connection and
# never answers (it waited forever in g_bus_get_sync()). The wait is for the
# window; its limit (60 s) is a hang guard far above the 5 s the bus gets.
row_deaf_session_bus() {
  local sock=$work/deaf-bus.sock bus_pid gui_pid out=$work/gui-deaf.log
  python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.bind(sys.argv[1]); s.listen(8)
held = []
while True:
    held.append(s.accept()[0])
' "$sock" &
  bus_pid=$!; bg_pids+=("$bus_pid")
  for _ in $(seq 200); do [ -S "$sock" ] && break; sleep 0.05; done
  DBUS_SESSION_BUS_ADDRESS=unix:path=$sock GSK_RENDERER=cairo \
    timeout -k 5 90 "$xvfb_run" sh -c '
      "$1" & app=$!
      for i in $(seq 600); do
        if xwininfo -root -tree | grep -qE "\"Responsiveness Probe\".* [0-9]{3,}x[0-9]{3,}"; then echo WINDOW-SHOWN; break; fi
        sleep 0.1
      done
      kill $app; wait $app' sh "$RESPROBE_GUI" >"$out" 2>&1 &
  gui_pid=$!; bg_pids+=("$gui_pid")
  wait "$gui_pid"
  kill "$bus_pid" 2>/dev/null; wait "$bus_pid" 2>/dev/null
  if grep -q WINDOW-SHOWN "$out"; then ok "deaf session bus: the window appeared"
  else fail "deaf session bus: no window: $(tail -3 "$out")"; fi
  if grep -q "did not answer" "$out"; then ok "deaf session bus: stderr says the bus did not answer"
  else fail "deaf session bus: no message: $(tail -3 "$out")"; fi
}

# Numbers a report may hold (up to 1e21) in lines of at most 80 columns, in
# %g notation; and "us" for "µs" where the terminal's charset has no µ
# (LANG=C printed "?s", in latencies and in the system's wbt_lat_usec line).
row_odd_numbers_in_text() {
  local d=$work/target-numbers base=$work/reports/numbers.json huge=$work/reports/huge.json tiny=$work/reports/tiny.json width
  mkdir "$d"
  rm -f "$base"
  run_cli run --dir "$d" --load none --probe fsync --interval 0.2 --duration 2 --report "$base"
  expect "odd numbers: a short fsync run" 0 "Report saved"
  python3 - "$base" "$huge" "$tiny" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("summary", None)
from resprobe_report import samples
# As version 1 samples (a reader takes them in any version), each value set.
original = {name: samples(s) for name, s in r["series"].items()}
for path, value in ((sys.argv[2], 9.9e20), (sys.argv[3], 4.2e-5)):
    for name, s in r["series"].items():
        s.pop("blocks", None)
        s.pop("count", None)
        s["samples"] = [[t, value] for t, _ in original[name]]
    json.dump(r, open(path, "w"))
PY
  run_cli show "$huge"
  expect "values near 1e21: show" 0 "e+20"
  width=$(awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }' "$work/last")
  if [ "$width" -le 80 ]; then ok "values near 1e21: lines of at most 80 columns ($width)"
  else fail "values near 1e21: a line of $width columns"; fi
  LC_ALL=C LANG=C timeout -k 5 60 "$cli" show "$tiny" >"$work/last" 2>&1; rc=$?
  expect "42 µs under LANG=C" 0 "42 us"
  if ! grep -q '?s' "$work/last"; then ok "42 µs under LANG=C: no \"?s\""
  else fail "42 µs under LANG=C: $(grep -m1 '?s' "$work/last")"; fi
}

# Bad values of the run options that the absurd-parameters row leaves out,
# one check each: exit 2 and the option named, nothing written.
row_bad_option_values() {
  local d=$work/target-options other option value needle
  mkdir "$d"
  while IFS='|' read -r other option value needle; do
    [ -n "$option" ] || continue
    # shellcheck disable=SC2086 # OTHER is a list of words
    run_cli run --dir "$d" --duration 1 --report "$work/reports/opt.json" $other "$option" "$value"
    expect "bad ${other:+$other }$option '$value'" 2 "$needle"
  done <<'TABLE'
|--scenario|nope|nope
|--load|nope|nope
|--probe|nope|nope
|--interval|-1|--interval
|--interval|0.001|interval
|--block-size|0|--block-size
|--duration|31d|--duration
--scenario R3|--writers|1.5|--writers
--scenario R3|--write-size|1e20|--write-size
--scenario R3|--file-size|-1|--file-size
--scenario R2|--calibration|-1|--calibration
--scenario R2|--copy-size|0|--copy-size
--probe timer|--timer-interval|0|--timer-interval
--probe timer|--timer-interval|NaN|--timer-interval
--probe cold-read|--cold-read-interval|0|--cold-read-interval
--probe app-start|--app-start-interval|-1|--app-start-interval
|--command|/no/such/program|/no/such/program
TABLE
  unchanged "bad option values" "$d" ""
  if [ ! -e "$work/reports/opt.json" ]; then ok "bad option values: no report written"
  else fail "bad option values: a report was written"; fi
}

# SIGHUP (terminal closed, ssh dropped) and a second SIGTERM while stopping:
# the run still ends with its summary and report.
row_signal_phases() {
  local d=$work/target-phases pid child report=$work/reports/phases.json
  mkdir "$d"
  rm -f "$report" "$work/last"
  timeout -k 5 60 "$cli" run --dir "$d" --size 256M --duration 60 --report "$report" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  child=$(pgrep -P "$pid" -f resprobe-cli | head -1)
  kill -HUP "$child"
  wait "$pid"; rc=$?
  expect "SIGHUP during R1" 3 "Stopping" "Report saved"
  rm -f "$report" "$work/last"
  timeout -k 5 60 "$cli" run --dir "$d" --size 256M --duration 60 --report "$report" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  child=$(pgrep -P "$pid" -f resprobe-cli | head -1)
  kill -TERM "$child"; wait_for "$work/last" "Stopping" 30; kill -TERM "$child" 2>/dev/null
  wait "$pid"; rc=$?
  expect "two SIGTERMs" 3 "Report saved"
  unchanged "signals by phase" "$d" ""
}

# A report whose values are near 1e21 (the most a report may hold) opens in a
# window that keeps within a 1280-pixel screen (it was 1314 wide: every
# latency printed with 21 digits). Waits for the window, not for a time.
row_gui_huge_values() {
  local d=$work/target-gui-huge base=$work/reports/gui-base.json huge=$work/reports/gui-huge.json out=$work/gui-huge.log width
  mkdir "$d"
  rm -f "$base"
  run_cli run --dir "$d" --load seq-writer --size 16M --probe fsync,system --interval 0.2 --duration 2 --report "$base"
  expect "values near 1e21 in the window: a short run" 0 "Report saved"
  [ -s "$base" ] || { fail "values near 1e21 in the window: no report to edit"; return; }
  python3 - "$base" "$huge" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("summary", None)
for s in r["series"].values():
    for sample in s["samples"]:
        sample[1] = 9.9e20
json.dump(r, open(sys.argv[2], "w"))
PY
  GSK_RENDERER=cairo timeout -k 5 90 dbus-run-session -- \
    "$xvfb_run" sh -c '
      "$1" "$2" & app=$!
      for i in $(seq 600); do
        line=$(xwininfo -root -tree | grep -E "\"Responsiveness Probe\".* [0-9]{3,}x[0-9]{3,}")
        if [ -n "$line" ]; then echo "WINDOW $line"; break; fi
        sleep 0.1
      done
      kill $app; wait $app' sh "$RESPROBE_GUI" "$huge" >"$out" 2>&1
  width=$(sed -n 's/^WINDOW.* \([0-9]\{3,\}\)x[0-9]\{3,\}+.*/\1/p' "$out" | head -1)
  if [ -n "$width" ] && [ "$width" -le 1280 ]; then ok "values near 1e21 in the window: $width pixels wide on a 1280-pixel screen"
  else fail "values near 1e21 in the window: ${width:-no window}: $(tail -3 "$out")"; fi
}

# ---------------------------------------------------------------------------
# Issue 33: reliability. Each row failed on the tree before the fix.

# A free port on loopback, for a monitor of a row.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# start_monitor LOG COMMAND…: COMMAND (a monitor with --listen 127.0.0.1:
# $monitor_port added) in the background, its PID in $monitor_pid; returns
# once /metrics answers with an fsync sample (the sessions run), 1 when it
# ended first or the hang guard (60 s) ran out.
start_monitor() {
  local log=$1; shift
  monitor_port=$(free_port)
  "$@" --listen "127.0.0.1:$monitor_port" >"$log" 2>&1 &
  monitor_pid=$!; bg_pids+=("$monitor_pid")
  for _ in $(seq 600); do
    curl -s -m 5 "127.0.0.1:$monitor_port/metrics" 2>/dev/null | grep -q '^resprobe_fsync_latency_seconds_count{.* [1-9]' && return 0
    kill -0 "$monitor_pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

# stop_monitor: SIGTERM, and its exit code in $rc.
stop_monitor() {
  kill -TERM "$monitor_pid" 2>/dev/null
  wait "$monitor_pid"; rc=$?
}

open_fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }

# Issue 33, item 1: the monitor's connections. Under prlimit --nofile=400
# (and its fsync and system probes only, whose descriptors are all opened
# at the start): 30 404s and 150 405s leave no descriptor behind (each was
# a CLOSE-WAIT socket for good); 20 connections that never finish their
# request are closed by the monitor (they were held for ever); a
# Content-Length of -5 gets a reply and no GLib warning; the systemd units
# set LimitNOFILE.
row_monitor_connections() {
  local d=$work/target-monitor log=$work/monitor-connections.log before after closed unit units
  mkdir "$d"
  if ! start_monitor "$log" prlimit --nofile=400:400 -- "$cli" monitor --dir "$d" --probe fsync,system; then
    fail "monitor connections: /metrics never answered: $(tail -3 "$log")"; return
  fi
  before=$(open_fds "$monitor_pid")
  for _ in $(seq 30); do curl -s -m 10 -o /dev/null "127.0.0.1:$monitor_port/favicon.ico"; done
  for _ in $(seq 150); do curl -s -m 10 -o /dev/null -X POST "127.0.0.1:$monitor_port/metrics"; done
  # A hang guard of 30 s: the monitor closes each connection with its reply.
  for _ in $(seq 300); do after=$(open_fds "$monitor_pid"); [ "$after" -le "$before" ] && break; sleep 0.1; done
  if [ "$after" -le "$before" ]; then ok "monitor connections: 180 replies to unknown paths and methods, descriptors $before before, $after after"
  else fail "monitor connections: $before descriptors before 180 replies, $after after"; fi
  closed=$(python3 - "$monitor_port" <<'PY'
import socket, sys, time
port = int(sys.argv[1])
socks = [socket.create_connection(("127.0.0.1", port)) for _ in range(20)]
for s in socks[::2]:
    s.sendall(b"GET /metrics HTTP/1.1\r\nHo")
closed = set()
deadline = time.monotonic() + 60  # a hang guard: the monitor's deadline is 10 s
while len(closed) < len(socks) and time.monotonic() < deadline:
    for i, s in enumerate(socks):
        s.setblocking(False)
        try:
            if i not in closed and s.recv(65536) == b"":
                closed.add(i)
        except BlockingIOError:
            pass
        except ConnectionResetError:
            closed.add(i)
    time.sleep(0.2)
print(len(closed))
PY
)
  if [ "$closed" = 20 ]; then ok "monitor connections: 20 unfinished requests closed by the monitor"
  else fail "monitor connections: of 20 unfinished requests the monitor closed ${closed:-none} in 60 s"; fi
  if curl -s -m 10 "127.0.0.1:$monitor_port/metrics" | grep -q '^resprobe_'; then ok "monitor connections: /metrics answers after them"
  else fail "monitor connections: /metrics does not answer after them"; fi
  curl -s -m 10 -o /dev/null -H "Content-Length: -5" -X POST "127.0.0.1:$monitor_port/metrics"
  curl -s -m 10 -o /dev/null -H "Content-Length: -5" "127.0.0.1:$monitor_port/metrics"
  stop_monitor
  if grep -q "WARNING\|CRITICAL" "$log"; then fail "monitor connections: Content-Length -5: $(grep -m1 "WARNING\|CRITICAL" "$log")"
  else ok "monitor connections: Content-Length -5 answered without a GLib warning"; fi
  [ "$rc" -eq 0 ] && ok "monitor connections: SIGTERM, exit 0" || fail "monitor connections: exit $rc: $(tail -3 "$log")"
  units=$(dirname "$0")/../data/systemd
  for unit in resprobe-monitor.service.in resprobe-monitor-user.service.in; do
    if grep -qE '^LimitNOFILE=[0-9]+$' "$units/$unit"; then ok "monitor connections: $unit sets $(grep -E '^LimitNOFILE=' "$units/$unit")"
    else fail "monitor connections: $unit sets no LimitNOFILE"; fi
  done
  unchanged "monitor connections" "$d" ""
}

# A report of a short run, made once, for the rows that edit one.
base_report() {
  local base=$work/reports/base33.json
  if [ ! -s "$base" ]; then
    mkdir -p "$work/target-base33"
    timeout -k 5 60 "$cli" run --dir "$work/target-base33" --probe fsync,system --interval 0.2 --duration 2 \
      --report "$base" >/dev/null 2>&1
  fi
  echo "$base"
}

# edit_report BASE OUT PYTHON: OUT is BASE (its summary dropped, version 1
# samples) after PYTHON ran on r, the report as a dict.
edit_report() {
  python3 - "$1" "$2" "$3" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r.pop("summary", None)
exec(sys.argv[3])
json.dump(r, open(sys.argv[2], "w"))
PY
}

# Issue 33, item 3: numbers in a report's notes are range-checked where
# they are read. A command_count of -1 or 99999999999 made show and the PDF
# loop about 4.3 billion times; a gap count of -1 was printed as
# 18446744073709551615.
row_hostile_notes() {
  local base out=$work/reports/hostile-notes.json count
  base=$(base_report)
  [ -s "$base" ] || { fail "hostile notes: no report to edit"; return; }
  for count in -1 99999999999; do
    edit_report "$base" "$out" "r['notes'].update({'command_count': '$count', 'command_exit_status': 'exit 0', 'measurement_gaps': '-1', 'measurement_gap_longest': '1e999', 'write_calls': '-7'})"
    timeout -k 5 30 "$cli" show "$out" >"$work/last" 2>&1; rc=$?
    expect "hostile notes: command_count $count, show" 0 "Summary"
    if grep -q "18446744073709551615\|inf" "$work/last"; then fail "hostile notes: a wrapped number shown: $(grep -m1 "18446744073709551615\|inf" "$work/last")"
    else ok "hostile notes: command_count $count: no wrapped or infinite number shown"; fi
    rm -f "$work/reports/hostile.pdf"
    timeout -k 5 30 "$cli" export "$out" --format pdf -o "$work/reports/hostile.pdf" >"$work/last" 2>&1; rc=$?
    expect "hostile notes: command_count $count, PDF" 0 "Wrote"
  done
  rm -f "$out" "$work/reports/hostile.pdf"
}

# Issue 33, item 5: one-sample series cost a chunk each (80 000 took 1.9 GB):
# more than 1000 series are refused, naming the file, whatever their
# samples; 80 000 under ulimit -v 1 GB are refused with that message, not a
# failed allocation.
row_many_series() {
  local base out=$work/reports/many-series.json count
  base=$(base_report)
  [ -s "$base" ] || { fail "many series: no report to edit"; return; }
  # Under AddressSanitizer no address-space limit: its shadow memory alone
  # reserves terabytes (it aborted at start under ulimit -v); the refusal
  # is checked all the same.
  local limit=1000000
  ldd "$cli" 2>/dev/null | grep -q libasan && limit=unlimited
  for count in 1001 80000; do
    edit_report "$base" "$out" "r['version'] = 1; r['series'] = {'x%d' % i: {'unit': 's', 'samples': [[0.5, 0.001]]} for i in range($count)}"
    ( ulimit -v "$limit"; exec timeout -k 5 60 "$cli" show "$out" ) >"$work/last" 2>&1; rc=$?
    expect "many series: $count one-sample series" 2 "$out" "more than 1000 series"
  done
  edit_report "$base" "$out" "r['version'] = 1; r['series'].update({'x%d' % i: {'unit': 's', 'samples': [[0.5, 0.001]]} for i in range(900)})"
  run_cli show "$out"
  expect "many series: 900 more series load" 0 "Summary"
  rm -f "$out"
}

# Issue 33, item 6: the readers' buffers under ulimit -v 200000: a message
# naming memory or a thread and exit 1, never GLib's abort (exit 133, no
# report): 64 readers of 1 MiB files, 8 readers reading 64 MiB at a time.
row_readers_memory_limit() {
  local d=$work/target-readers-ulimit args
  mkdir "$d"
  for args in "--readers 64 --reader-file-size 1M" "--readers 8 --read-size 64M"; do
    rm -f "$work/reports/readers-ulimit.json"
    # shellcheck disable=SC2086
    ( ulimit -v 200000
      exec timeout -k 5 60 "$cli" run --dir "$d" --load seq-readers $args --duration 3 \
        --report "$work/reports/readers-ulimit.json" ) >"$work/last" 2>&1
    rc=$?
    expect "readers under ulimit -v 200000, $args" 1
    if grep -v '^#' "$work/last" | grep -qE "memory|thread" && ! grep -q "GLib-ERROR" "$work/last"; then
      ok "readers under ulimit -v 200000, $args: $(grep -v '^#' "$work/last" | grep -m1 -E "memory|thread")"
    else fail "readers under ulimit -v 200000, $args: $(tail -2 "$work/last")"; fi
  done
  unchanged "readers under ulimit -v" "$d" ""
}

# Issue 33, item 7: the monitor takes probe sets without fsync (each was
# refused: "--interval does not apply to scenario custom", no --interval
# given), and refuses an unwritable --reports at the start, as it refuses an
# unwritable --textfile; one that becomes read-only later gets each period's
# report saved in the default reports folder instead (root: a read-only
# bind mount), as `run` does.
row_monitor_probes_and_reports() {
  local d=$work/target-monitor-probes r=$work/monitor-reports probe pid child locked rw
  mkdir -p "$d" "$r"
  for probe in save cold-read sync timer system; do
    rm -f "$work/last"
    timeout -k 5 60 "$cli" monitor --dir "$d" --probe "$probe" --report-every 1 --reports "$r" >"$work/last" 2>&1 &
    pid=$!; bg_pids+=("$pid")
    until grep -q "Report saved" "$work/last" 2>/dev/null || ! kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
    child=$(pgrep -P "$pid" -f resprobe-cli | head -1)
    [ -n "$child" ] && kill -TERM "$child"
    wait "$pid"; rc=$?
    expect "monitor --probe $probe" 0 "Report saved"
  done
  if [ "$is_root" -eq 1 ]; then
    locked=$nobody_area/monitor-locked-reports
    mkdir -p -m 755 "$locked"; mkdir -p -m 1777 "$nobody_area/monitor-dir"
    timeout -k 5 30 "${as_nobody[@]}" "$nobody_cli" monitor --dir "$nobody_area/monitor-dir" --report-every 1 \
      --reports "$locked" >"$work/last" 2>&1
  else
    locked=$work/monitor-locked-reports
    mkdir -m 555 "$locked"
    timeout -k 5 30 "$cli" monitor --dir "$d" --report-every 1 --reports "$locked" >"$work/last" 2>&1
  fi
  rc=$?
  expect "monitor, an unwritable --reports" 2 "--reports" "$locked"
  [ "$is_root" -eq 1 ] || return 0
  rw=$work/monitor-rw-reports
  mkdir "$rw"
  mount --bind "$rw" "$rw" || { fail "monitor, --reports made read-only: cannot bind-mount"; return; }
  rm -f "$work/last"
  XDG_DATA_HOME=$work/xdg timeout -k 5 60 "$cli" monitor --dir "$d" --report-every 1 --reports "$rw" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "Report saved" 30
  mount -o remount,bind,ro "$rw"
  until grep -q "instead" "$work/last" 2>/dev/null || ! kill -0 "$pid" 2>/dev/null; do sleep 0.1; done
  child=$(pgrep -P "$pid" -f resprobe-cli | head -1)
  [ -n "$child" ] && kill -TERM "$child"
  wait "$pid"; rc=$?
  umount "$rw"
  expect "monitor, --reports made read-only" 1 "Read-only file system" "$work/xdg/resprobe/reports" "instead"
  if ls "$work/xdg/resprobe/reports/"*.json >/dev/null 2>&1; then ok "monitor, --reports made read-only: the reports are in the default folder"
  else fail "monitor, --reports made read-only: no report in $work/xdg/resprobe/reports"; fi
  unchanged "monitor probe sets" "$d" ""
}

# Issue 33, item 8: where the measuring process stood still (a gap of the
# system sampler's series: here 10 s without a sample in a report), no line
# crosses: the stroked path of each series breaks there (an SVG path with a
# second move-to), as the verdict says "stood still".
row_chart_gap() {
  local base out=$work/reports/gap.json svg=$work/reports/gap.svg most
  base=$(base_report)
  [ -s "$base" ] || { fail "chart gap: no report to edit"; return; }
  edit_report "$base" "$out" "
r['version'] = 1; r['stalls'] = []; r['duration'] = 30.0; r['baseline'] = 0
r['scenario']['sample_period'] = 0.5
times = [i * 0.5 for i in range(61) if not 5 < i * 0.5 < 15]
r['series'] = {'cpu_user': {'unit': 'ratio', 'samples': [[t, 0.3] for t in times]},
               'fsync_latency': {'unit': 's', 'samples': [[t, 0.002 + 0.001 * (k % 3)] for k, t in enumerate(times)]}}"
  rm -f "$svg"
  run_cli export "$out" --format svg -o "$svg"
  expect "chart gap: export" 0 "Wrote"
  most=$(grep -o '<path[^>]*stroke-width:1.5[^>]*' "$svg" | sed 's/.* d="//' | awk '{ print gsub(/M /, "") }' | sort -n | tail -1)
  if [ "${most:-0}" -ge 2 ]; then ok "chart gap: the line breaks across 10 s without samples ($most parts)"
  else fail "chart gap: a line drawn across the gap (${most:-no} parts)"; fi
  rm -f "$out" "$svg"
}

# Issue 33, item 8: a sample time before the run's start is dropped when
# loaded (and noted), never counted: a hand-made fsync of 9 s at t = -5
# was a stall of the run.
row_negative_sample_times() {
  local base out=$work/reports/negative-times.json
  base=$(base_report)
  [ -s "$base" ] || { fail "negative sample times: no report to edit"; return; }
  edit_report "$base" "$out" "
r['version'] = 1; r['stalls'] = []
r['series']['fsync_latency'] = {'unit': 's', 'samples': [[-5, 9.0], [0.5, 0.002], [1.0, 0.003]]}"
  run_cli show "$out"
  expect "negative sample times" 0 "Summary"
  if grep -q "9.00 s" "$work/last"; then fail "negative sample times: the sample at -5 s counted: $(grep -m1 "9.00 s" "$work/last")"
  else ok "negative sample times: the sample at -5 s not counted"; fi
  if grep -q "samples_dropped_before_start: 1" "$work/last"; then ok "negative sample times: noted: $(grep -m1 "dropped" "$work/last")"
  else fail "negative sample times: the dropped sample is not noted"; fi
  rm -f "$out"
}

# Issue 33, item 8: --report --force of a symbolic link or /dev/null is
# refused before the run (it failed only after it, the report saved
# elsewhere).
row_report_not_regular() {
  local d=$work/target-not-regular link=$work/reports/link.json
  mkdir "$d"
  ln -sf "$work/reports/elsewhere.json" "$link"
  run_cli run --dir "$d" --duration 2 --report "$link" --force
  expect "--report LINK --force" 2 "not a regular file"
  run_cli run --dir "$d" --duration 2 --report /dev/null --force
  expect "--report /dev/null --force" 2 "not a regular file"
  if grep -q "fsync time:" "$work/last"; then fail "--report /dev/null --force: the run ran first"
  else ok "--report /dev/null --force: refused before the run"; fi
  rm -f "$link"
  unchanged "--report not a regular file" "$d" ""
}

# Issue 33, item 8: the small-files folder renamed during the run (a user
# tidying up) is emptied and removed all the same (2048 files were left).
row_small_files_renamed() {
  local d=$work/target-small-renamed pid folder
  mkdir "$d"
  rm -f "$work/last"
  timeout -k 5 60 "$cli" run --dir "$d" --load small-files --duration 4 --report "$work/reports/small-renamed.json" \
    >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  folder=$(find "$d" -maxdepth 1 -name 'resprobe-files-*' | head -1)
  if [ -n "$folder" ]; then mv "$folder" "$d/moved"; else fail "small files renamed: no folder to rename"; fi
  wait "$pid"; rc=$?
  expect "small files renamed" 0 "Report saved"
  unchanged "small files renamed" "$d" ""
}

# Issue 33, item 8: matrix --dirty-bytes of 1 byte or 100T is refused before
# the first cell, naming the option (1 byte failed inside the cell, named
# "dirty0M"). Never as root: run as nobody, refused before needing it.
row_matrix_dirty_bytes() {
  local value runner=()
  [ "$is_root" -eq 1 ] && runner=("${as_nobody[@]}")
  for value in 1 100T; do
    timeout -k 5 30 "${runner[@]}" "$nobody_cli" matrix --dir /nonexistent --dirty-bytes "$value" >"$work/last" 2>&1
    rc=$?
    expect "matrix --dirty-bytes $value" 2 "--dirty-bytes" "out of range"
  done
}

# Issue 33, item 8: a --loop-device attached already is refused before the
# first cell as busy (it was the first cell's mount error). The row's own
# loop device, attached to a file of its own.
row_matrix_busy_loop() {
  local index image=$work/busy-loop.img d=$work/target-busy-loop
  mkdir "$d"
  index=$(loop_control add 400) || { fail "busy loop device: cannot create one"; return; }
  own_loops+=("$index")
  truncate -s 16M "$image"
  losetup "/dev/loop$index" "$image" || { fail "busy loop device: cannot attach /dev/loop$index"; return; }
  run_cli matrix --dir "$d" --loop-device "/dev/loop$index" --fs ext2 --duration 1
  losetup -d "/dev/loop$index"
  expect "matrix --loop-device busy" 2 "/dev/loop$index" "busy" "$image"
  no_leftover_mounts "matrix --loop-device busy"
}

# Issue 33, item 8: --baseline 0 ("none") is what a run without the system
# sampler does anyway: taken, not refused.
row_baseline_zero() {
  local d=$work/target-baseline0
  mkdir "$d"
  run_cli run --dir "$d" --probe fsync --baseline 0 --duration 1 --report "$work/reports/baseline0.json"
  expect "--probe fsync --baseline 0" 0 "Report saved"
  run_cli run --dir "$d" --probe fsync --baseline 2 --duration 1
  expect "--probe fsync --baseline 2" 2 "--baseline does not apply"
  unchanged "--baseline 0" "$d" ""
}

# Issue 33, item 8: a comparison.json of 100 000 reports (1.4 MB) opened in
# the window: "larger than 1.0 MiB, more than a comparison this program
# reads", not "not a report".
row_big_comparison() {
  local dir=$work/big-comparison out=$work/gui-big-comparison.log
  mkdir "$dir"
  python3 -c '
import json, sys
json.dump({"format": "resprobe-comparison", "version": 1,
           "reports": ["run-%d.json" % i for i in range(100000)]}, open(sys.argv[1], "w"))' "$dir/comparison.json"
  GSK_RENDERER=cairo timeout -k 5 90 dbus-run-session -- "$xvfb_run" \
    "$RESPROBE_GUI" --screenshot-on-exit "$dir/none.png" "$dir/comparison.json" >"$out" 2>&1
  if grep -q "larger than 1.0 MiB" "$out"; then ok "comparison of 100 000 reports: $(grep -m1 "larger than" "$out")"
  else fail "comparison of 100 000 reports: $(tail -2 "$out")"; fi
}


# ---------------------------------------------------------------------------
# Issue 33, item 2: a matrix killed with SIGKILL mid-cell leaves nothing
# changed for good. Every machine-wide setting a cell changes is journaled
# before it is changed; `resprobe-cli cleanup` (or any later matrix in the
# same --dir) puts everything back and says what.

# dirty_settings: vm.dirty_* in one line, to compare before and after.
dirty_settings() {
  local name line=""
  for name in dirty_ratio dirty_bytes dirty_background_ratio dirty_background_bytes; do
    line="$line$name=$(cat "/proc/sys/vm/$name") "
  done
  echo "${line% }"
}

# dirty_put_back LINE: vm.dirty_* as dirty_settings printed them, the one
# of each pair that was in force written last (writing one zeroes the other).
dirty_put_back() {
  local pair ratio bytes
  for pair in "dirty_ratio dirty_bytes" "dirty_background_ratio dirty_background_bytes"; do
    read -r ratio bytes <<<"$pair"
    local r b
    r=$(sed -n "s/.*\b$ratio=\([0-9]*\).*/\1/p" <<<"$1")
    b=$(sed -n "s/.*\b$bytes=\([0-9]*\).*/\1/p" <<<"$1")
    if [ -n "$b" ] && [ "$b" != 0 ]; then echo "$b" >"/proc/sys/vm/$bytes"
    elif [ -n "$r" ]; then echo "$r" >"/proc/sys/vm/$ratio"; fi
  done
}

# wait_until SECONDS COMMAND…: until COMMAND succeeds (a hang guard, no
# timed assertion: the row then fails on what it finds).
wait_until() {
  local deadline=$(( $(date +%s) + $1 )); shift
  until "$@"; do
    [ "$(date +%s)" -lt "$deadline" ] || return 1
    sleep 0.1
  done
}

# What a cell in DIR left: mounts and loop devices whose file is in DIR,
# images, mount points and undo journals.
cell_leftovers() {
  local what=""
  findmnt -rn -o TARGET | grep -qF "$1/" && what="$what mounts:$(findmnt -rn -o TARGET | grep -F "$1/" | tr '\n' ' ')"
  losetup -a 2>/dev/null | grep -qF "$1/" && what="$what loop:$(losetup -a | grep -F "$1/" | cut -d: -f1 | tr '\n' ' ')"
  what="$what$(cd "$1" && find . -mindepth 1 -maxdepth 1 | sort | tr '\n' ' ')"
  echo "${what% }"
}

sigkill_mid_cell() {
  [ "$(cat /proc/sys/vm/dirty_bytes)" = 67108864 ] &&
    [ "$(cat "$bdi/max_ratio")" = 5 ] && findmnt -rn -o TARGET | grep -qF "$d/"
}

row_matrix_sigkill_settings() {
  local loop index d=$work/sigkill-settings bdi before_dirty before_queue before_bdi mid_dirty mid_bdi pid
  index=$(loop_control add 400) || { fail "SIGKILL mid-cell: cannot create a loop device"; return; }
  own_loops+=("$index")
  loop=loop$index
  bdi=$(bdi_dir "$loop")
  if [ ! -w "$bdi/max_ratio" ]; then
    skip "SIGKILL mid-cell, dirty limits: this kernel has no bdi max_ratio ($bdi/max_ratio)"
    return
  fi
  queue_set_odd "$loop"
  mkdir "$d"
  # vm.dirty_* are the machine's: the root suite's tests are not to see the
  # cell's 64 MiB, nor this row theirs.
  if ! kernel_settings_lock; then
    fail "SIGKILL mid-cell: another test held the lock of the kernel settings for 30 minutes"
    return
  fi
  dirty_saved=$(dirty_settings)
  before_dirty=$dirty_saved
  before_queue=$(queue_settings "$loop")
  before_bdi=$(bdi_limits "$bdi")
  timeout -k 5 200 "$cli" matrix --fs ext2 --scheduler "$(cell_scheduler "$loop")" --direct-io on \
    --dirty-bytes 64M --bdi-max-ratio 5 --size 64M --image-size 1300M --duration 120 \
    --loop-device "/dev/$loop" --dir "$d" --reports "$work/sigkill-reports" >"$work/last" 2>&1 &
  pid=$!
  bg_pids+=("$pid")
  wait_until 90 sigkill_mid_cell || echo "# the cell never had every setting: $(tail -3 "$work/last")" >&2
  mid_dirty=$(dirty_settings); mid_bdi=$(bdi_limits "$bdi")
  pkill -KILL -P "$pid"
  wait "$pid" 2>/dev/null
  if [ "$mid_dirty" != "$before_dirty" ] && [ "$(dirty_settings)" = "$mid_dirty" ] &&
     [ "$(bdi_limits "$bdi")" = "$mid_bdi" ] && [ "$mid_bdi" != "$before_bdi" ]; then
    ok "SIGKILL mid-cell: left vm.dirty_* «$mid_dirty», bdi «$mid_bdi», «$(cell_leftovers "$d")»"
  else fail "SIGKILL mid-cell: the cell never changed the settings: dirty «$mid_dirty», bdi «$mid_bdi»: $(tail -3 "$work/last")"; fi
  run_cli cleanup --dir "$d"
  sed 's/^/# /' "$work/last"
  expect "cleanup after SIGKILL" 0 "vm.dirty_" "max_ratio" "unmounted" "removed"
  if [ "$(dirty_settings)" = "$before_dirty" ] && [ "$(bdi_limits "$bdi")" = "$before_bdi" ] &&
     [ "$(queue_settings "$loop")" = "$before_queue" ]; then
    ok "cleanup after SIGKILL: vm.dirty_*, bdi and queue of $loop back ($before_bdi; $before_queue)"
  else fail "cleanup after SIGKILL: dirty «$(dirty_settings)» (was «$before_dirty»), bdi «$(bdi_limits "$bdi")» (was «$before_bdi»), queue «$(queue_settings "$loop")» (was «$before_queue»)"; fi
  if [ -z "$(cell_leftovers "$d")" ] && ! losetup "/dev/$loop" >/dev/null 2>&1; then
    ok "cleanup after SIGKILL: no mount, loop device, image or journal left in ${d#"$work"/}"
  else fail "cleanup after SIGKILL: left $(cell_leftovers "$d") $(losetup "/dev/$loop" 2>&1)"; fi
  run_cli cleanup --dir "$d"
  expect "cleanup again" 0 "Nothing to put back"
  dirty_put_back "$before_dirty"; dirty_saved=""
  kernel_settings_unlock
}

plain_mid_cell() {
  [ "$(cat "/sys/block/$loop/loop/dio" 2>/dev/null)" = 1 ] && findmnt -rn -o TARGET | grep -qF "$d/"
}

# A plain cell (no --device, no sysctl) killed: its mount, loop device and
# image stayed, and the next matrix in the same --dir failed ("failed to
# setup loop device"). Now that matrix puts them back and runs.
row_matrix_sigkill_plain() {
  local loop index d=$work/sigkill-plain before_queue mid_queue pid wbt=() scheduler
  index=$(loop_control add 400) || { fail "SIGKILL of a plain cell: cannot create a loop device"; return; }
  own_loops+=("$index")
  loop=loop$index
  queue_set_odd "$loop"
  has_wbt "$loop" && wbt=(--wbt 1000)
  mkdir "$d"
  before_queue=$(queue_settings "$loop")
  scheduler=$(cell_scheduler "$loop")
  timeout -k 5 200 "$cli" matrix --fs ext2 --scheduler "$scheduler" "${wbt[@]}" --direct-io on \
    --size 64M --image-size 1300M --duration 120 --loop-device "/dev/$loop" --dir "$d" \
    --reports "$work/sigkill-plain-reports" >"$work/last" 2>&1 &
  pid=$!
  bg_pids+=("$pid")
  wait_until 90 plain_mid_cell || echo "# the plain cell never mounted: $(tail -3 "$work/last")" >&2
  mid_queue=$(queue_settings "$loop")
  pkill -KILL -P "$pid"
  wait "$pid" 2>/dev/null
  if [ "$mid_queue" != "$before_queue" ] && losetup "/dev/$loop" >/dev/null 2>&1; then
    ok "SIGKILL of a plain cell: left $loop «$mid_queue» bound, «$(cell_leftovers "$d")»"
  else fail "SIGKILL of a plain cell: the cell never changed $loop («$mid_queue»): $(tail -3 "$work/last")"; fi
  timeout -k 5 200 "$cli" matrix --fs ext2 --scheduler "$scheduler" --size 16M --image-size 1300M \
    --duration 1 --loop-device "/dev/$loop" --dir "$d" --reports "$work/sigkill-plain-next" >"$work/last" 2>&1
  rc=$?
  expect "a plain matrix after SIGKILL" 0 "Put back what" "unmounted" "Reports and comparison.json saved"
  if [ "$(queue_settings "$loop")" = "$before_queue" ] && [ -z "$(cell_leftovers "$d")" ] &&
     ! losetup "/dev/$loop" >/dev/null 2>&1; then
    ok "a plain matrix after SIGKILL: $loop back ($before_queue) and free, nothing left in ${d#"$work"/}"
  else fail "a plain matrix after SIGKILL: $loop «$(queue_settings "$loop")» (was «$before_queue»), left «$(cell_leftovers "$d")»"; fi
}


# A matrix killed while it commits its undo journal (write a new file, fsync,
# rename: g_file_set_contents_full) leaves the new file,
# resprobe-undo-PID.XXXXXX, beside the journal: tests/test-matrix-sigkill.sh
# found resprobe-undo-21236.0YS4Z3 after a kill 1.8 s into a cell, and no
# later matrix or cleanup removed it. Now the cleanup removes those of dead
# processes (nothing in them to replay: a journal is committed before the
# change it describes).
row_matrix_journal_partial() {
  local d=$work/journal-partial dead
  mkdir "$d"
  sleep 0 & dead=$!
  wait "$dead"
  printf '[dirty]\ndirty_ratio=20\n' >"$d/resprobe-undo-$dead.0YS4Z3"
  run_cli cleanup --dir "$d"
  expect "cleanup of a journal's commit cut short" 0 "removed $d/resprobe-undo-$dead.0YS4Z3"
  if [ -z "$(ls -A "$d")" ]; then ok "cleanup of a journal's commit cut short: nothing left in ${d#"$work"/}"
  else fail "cleanup of a journal's commit cut short: left $(ls -A "$d")"; fi
}

# ---------------------------------------------------------------------------
# Issue 33, item 4: a stop ends the run within a bound whatever the file
# system does. fuse2fs stopped with SIGSTOP under a run: SIGTERM ends the
# run (the engine gives up on threads stuck in the kernel after 20 s,
# RP_SESSION_STOP_BOUND_DEFAULT), the report ends when the stop was asked
# and names the threads; a second SIGTERM gives them up at once; a stop while the
# run prepares on the stopped file system ends it too. The waits below are
# hang guards (the run before this fix waited for ever), not timings.
# The CLI's process may stay a zombie until fuse2fs goes on (threads in
# uninterruptible waits cannot be killed): it is reaped after SIGCONT.
row_fuse_stopped() {
  local img=$work/stopped.img mnt=$work/stopped-mnt report=$work/reports/stopped.json fuse pid cli_pid
  local launched asked
  mkdir "$mnt"
  image "$img" 2G mkfs.ext4 -m 0 && fuse2fs "$img" "$mnt" -o rw >/dev/null 2>&1 || { fail "stopped FUSE: cannot mount $img with fuse2fs"; return; }
  fuse=$(pgrep -xf "fuse2fs $img $mnt -o rw") || { fail "stopped FUSE: no fuse2fs process"; umount "$mnt"; return; }
  stopped_fuse+=("$fuse")

  # 1. Running: SIGSTOP of fuse2fs, then SIGTERM.
  rm -f "$work/last"
  launched=$(date +%s.%N)
  timeout -k 5 300 "$cli" run --dir "$mnt" --size 32M --duration 120 --report "$report" >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  kill -STOP "$fuse"
  sleep 1
  cli_pid=$(pgrep -P "$pid" -f resprobe-cli | head -1)
  asked=$(date +%s.%N)
  kill -TERM "$cli_pid"
  if wait_for "$work/last" "Report saved" 150; then ok "stopped FUSE, SIGTERM: the run ended: $(grep -m1 "abandoned" "$work/last")"
  else fail "stopped FUSE, SIGTERM: no end after 150 s: $(tail -3 "$work/last")"; fi
  if python3 - "$report" "$(echo "$asked - $launched" | bc)" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); notes = r["notes"]; asked = float(sys.argv[2])
assert "fsync-probe" in notes.get("abandoned_threads", ""), notes.get("abandoned_threads")
# The run started after the launch: its end is the stop's time, before the
# SIGTERM counted from the launch (a second of slack for the signal's
# dispatch), not the end of the wait (20 s later).
assert r["duration"] <= asked + 1, (r["duration"], asked)
print("# duration %.1f s, SIGTERM %.1f s after the launch, abandoned: %s, waited %s s"
      % (r["duration"], asked, notes["abandoned_threads"], notes.get("stop_wait_seconds")))
PY
  then ok "stopped FUSE, SIGTERM: the report ends at the stop and names the stuck threads"
  else fail "stopped FUSE, SIGTERM: report $report"; fi
  kill -CONT "$fuse"
  wait "$pid" 2>/dev/null

  # 2. A second SIGTERM while the stop waits: exit at once.
  rm -f "$work/last"
  timeout -k 5 300 "$cli" run --dir "$mnt" --size 32M --duration 120 >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  wait_for "$work/last" "fsync time:" 60
  kill -STOP "$fuse"
  sleep 1
  cli_pid=$(pgrep -P "$pid" -f resprobe-cli | head -1)
  kill -TERM "$cli_pid"
  wait_for "$work/last" "Stopping" 30
  kill -TERM "$cli_pid"
  if wait_for "$work/last" "Report saved" 30 && grep -q "no more waiting" "$work/last"; then
    ok "stopped FUSE, second SIGTERM: $(grep -m1 "no more waiting" "$work/last"); $(grep -m1 "abandoned" "$work/last")"
  else fail "stopped FUSE, second SIGTERM not heard: $(tail -3 "$work/last")"; fi
  kill -CONT "$fuse"
  wait "$pid" 2>/dev/null; rc=$?
  [ "$rc" -eq 3 ] && ok "stopped FUSE, second SIGTERM: exit 3" || fail "stopped FUSE, second SIGTERM: exit $rc"

  # 3. Stopped before the run starts: a stop while it prepares.
  rm -f "$work/last"
  kill -STOP "$fuse"
  timeout -k 5 300 "$cli" run --dir "$mnt" --size 32M --duration 120 >"$work/last" 2>&1 &
  pid=$!; bg_pids+=("$pid")
  sleep 2
  kill -TERM "$(pgrep -P "$pid" -f resprobe-cli | head -1)"
  if wait_for "$work/last" "Stopped while preparing" 150; then ok "stopped FUSE while preparing: $(grep -m1 "Stopped while" "$work/last")"
  else fail "stopped FUSE while preparing: no end after 150 s: $(tail -3 "$work/last")"; fi
  kill -CONT "$fuse"
  wait "$pid" 2>/dev/null; rc=$?
  [ "$rc" -eq 3 ] && ok "stopped FUSE while preparing: exit 3" || fail "stopped FUSE while preparing: exit $rc"
  umount "$mnt" || umount -l "$mnt"
  no_leftover_mounts "stopped FUSE"
}

# ---------------------------------------------------------------------------
# The table: function, what it needs (root, a command), why it would skip.
ROWS=(
  "row_missing_directory||"
  "row_file_instead_of_directory||"
  "row_unwritable_directory||"
  "row_read_only_fs|root mkfs.ext3|a loop mount needs root"
  "row_full_fs_start_check|root mkfs.ext3|a loop mount needs root"
  "row_enospc_during_run|root mkfs.ext4 fallocate|a loop mount needs root"
  "row_size_over_free_space||"
  "row_tmpfs||"
  "row_fuse|root fuse2fs /dev/fuse|mounting fuse2fs needs root and the fuse2fs package (build-aux/install-deps.sh); FUSE detection is also covered by tests/test-sysinfo.c's fuse fixture"
  "row_absurd_parameters||"
  "row_directory_removed||"
  "row_signals||"
  "row_stop_while_preparing||"
  "row_command_load_killed||"
  "row_corrupt_report||"
  "row_file_modes||"
  "row_command_without_shell||"
  "row_report_runs_nothing||"
  "row_matrix_needs_root||"
  "row_thread_limit|root|a pids cgroup needs root"
  "row_stdout_pipe_closed||"
  "row_locale_numbers|locale|"
  "row_frozen_process||"
  "row_long_report_name||"
  "row_second_command||"
  "row_matrix_restore_on_error|root mkfs.ext2 python3|the matrix needs root"
  "row_matrix_restore_on_interrupt|root mkfs.ext2 python3|the matrix needs root"
  "row_long_report||"
  "row_pdf_many_notes|pdftotext pdfinfo|"
  "row_command_setsid|setsid|"
  "row_command_output_at_stop|dd|"
  "row_odd_numbers_in_text||"
  "row_bad_option_values||"
  "row_signal_phases||"
  "row_russian_axes|pdftotext locale|"
  "row_device_bad_input||"
  "row_monitor_connections|curl prlimit python3|"
  "row_hostile_notes|python3|"
  "row_many_series|python3|"
  "row_monitor_probes_and_reports|curl|"
  "row_chart_gap|python3|"
  "row_negative_sample_times|python3|"
  "row_report_not_regular||"
  "row_small_files_renamed||"
  "row_matrix_dirty_bytes|setpriv|"
  "row_matrix_busy_loop|root losetup|a loop device of its own needs root"
  "row_baseline_zero||"
  "row_matrix_sigkill_settings|root mkfs.ext2 losetup python3|the matrix needs root"
  "row_matrix_sigkill_plain|root mkfs.ext2 losetup python3|the matrix needs root"
  "row_matrix_journal_partial|root|cleanup needs root"
  "row_fuse_stopped|root fuse2fs /dev/fuse bc python3|mounting fuse2fs needs root and the fuse2fs package (build-aux/install-deps.sh)"
)
# ulimit -v, where the build can run under one: AddressSanitizer reserves
# terabytes of shadow address space at start and aborts under any limit.
ldd "$cli" 2>/dev/null | grep -q libasan || ROWS+=("row_memory_limit||" "row_readers_memory_limit||")
# The window's rows, where the build has a window (not the sanitizer build).
[ -n "${RESPROBE_GUI:-}" ] && ROWS+=("row_deaf_session_bus|Xvfb xwininfo python3|"
                                    "row_gui_huge_values|Xvfb xwininfo dbus-run-session|"
                                    "row_big_comparison|Xvfb dbus-run-session python3|")

row_index=0
for entry in "${ROWS[@]}"; do
  row_index=$((row_index + 1))
  [ $(( (row_index - 1) % shard_count + 1 )) -eq "$shard_index" ] || continue
  IFS='|' read -r row needs why <<<"$entry"
  # FAULT_ROWS="row_a row_b": only those (to run a row alone, before and
  # after a fix).
  [ -z "${FAULT_ROWS:-}" ] || [[ " $FAULT_ROWS " == *" $row "* ]] || continue
  # Only root is a reason to skip, and only when not root (CI runs as root and
  # skips nothing). A missing tool or device is a failure: the tools come with
  # build-aux/install-deps.sh.
  missing=""; needs_root=0
  for need in $needs; do
    case "$need" in
      root) [ "$is_root" -eq 1 ] || needs_root=1 ;;
      /*) [ -e "$need" ] || missing="$missing $need" ;;
      *) command -v "$need" >/dev/null || missing="$missing $need" ;;
    esac
  done
  # Without root, /dev/shm stands in for a tmpfs of our own, if it is one.
  if [ "$row" = row_tmpfs ] && [ "$is_root" -eq 0 ] && [ "$(stat -f -c %T /dev/shm 2>/dev/null)" != tmpfs ]; then
    needs_root=1; why="no tmpfs of our own without root, and /dev/shm is not tmpfs"
  fi
  if [ "$needs_root" -eq 1 ]; then
    skip "${row#row_}: needs root: $why"
    rows_skipped=$((rows_skipped + 1))
    continue
  fi
  if [ -n "$missing" ]; then
    fail "${row#row_}: missing$missing (build-aux/install-deps.sh installs the tools): $why"
    continue
  fi
  rows_run=$((rows_run + 1))
  "$row"
done

# Across all rows: no engine file under any name, no run of ours still going.
stray=$(find "$work" -name '.resprobe-*' -o -name '.fuse_hidden*' 2>/dev/null)
if [ -z "$stray" ]; then ok "no engine file left anywhere"; else fail "left: $stray"; fi
if ! pgrep -f "resprobe-cli run --dir $work" >/dev/null; then ok "no resprobe-cli run left running"
else fail "still running: $(pgrep -af "resprobe-cli run --dir $work")"; fi
no_leftover_mounts "all rows"

echo "1..$n"
[ "$failures" -eq 0 ]
