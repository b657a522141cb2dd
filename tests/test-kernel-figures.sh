#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-kernel-figures.sh pauses|latency|window|dm (root only): the figures the
# kernel-events probe derives, against another tracer's view of the same
# events in the same run (issue 31, acceptance 2 and 3), on an ext4 of the
# test's own loop device (LOOP_CTL_ADD, removed at the end with its bdi and
# queue: nothing of the machine's own is changed).
#
#  pauses:  a writer throttled by a small dirty limit of the loop device's
#           bdi (strict_limit and max_bytes; vm.dirty_bytes, set and put
#           back, where the kernel has no max_bytes) beside a trace instance
#           of the test's own recording writeback:balance_dirty_pages
#           (trace-cmd extract + report): the product's count of pauses,
#           their total and the longest within 5 % of the `pause` values
#           trace-cmd recorded; no pause longer than the kernel's MAX_PAUSE
#           (200 ms); every pause the run's own (none "other programs'").
#  latency: a reader and a writer on the loop device beside trace-cmd (a
#           trace instance of the test's own) and bpftrace, both on
#           block:block_rq_issue/block_rq_complete (every request, paired
#           by sector and operation as biolatency does): the product's n,
#           p50 and p99 of reads and of writes within 5 % of each witness's
#           (bpftrace's where it saw at least 99 % of the requests).
#  window:  stalls made by construction (the fsync probe's 1 MiB each 0.3 s
#           through a write throttle of the test's own cgroup, 2 MiB/s on
#           the loop device: each fsync() waits at least 0.5 s before its
#           requests are issued, so their device latency is untouched) while
#           two readers make thousands of read requests; for each stall the
#           saved report's text lists, its "device read/write latency: p50,
#           p99 of N requests" (from the report's window histograms) within
#           5 % of the exact p50 and p99 of every request trace-cmd and
#           bpftrace saw issued in the same 0.1 s slots of its window (run
#           time by the report's monotonic_at_run_start), N within 1 %.
#  dm:      the file system on a device-mapper device over the loop device
#           (LUKS and LVM on one disk are such chains): the requests are the
#           loop device's, the writer pauses the dm device's bdi; the probe
#           finds both, and times every write request.
# TAP. Without root the whole test is a visible skip; without tracefs or one
# of its events, a skip naming it. Figures measured on a shared machine are
# noisy: the test compares two views of the same requests, never a time
# against a limit.
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=tests/loop-queue.sh
. "$here/loop-queue.sh"
# shellcheck source=tests/lib-root-tap.sh
. "$here/lib-root-tap.sh"

# tap_verdict TEXT: the "ok …" / "not ok …" lines a report check printed;
# its "# …" lines are comments, passed on.
tap_verdict() {
  local line
  while IFS= read -r line; do
    case "$line" in
      "ok "*) ok "${line#ok }" ;;
      "#"*) echo "$line" ;;
      *) fail "${line#not ok }" ;;
    esac
  done <<<"$1"
}
mode=${1:?usage: test-kernel-figures.sh pauses|latency|window|dm}
tools=(mkfs.ext4 losetup python3)
[ "$mode" = pauses ] && tools+=(trace-cmd)
[ "$mode" = latency ] || [ "$mode" = window ] && tools+=(trace-cmd bpftrace)
[ "$mode" = dm ] && tools+=(dmsetup blockdev)
root_tap_begin "kernel-figures-$mode" "mount a loop device and trace" "e2fsprogs util-linux trace-cmd bpftrace" "${tools[@]}"

tracing=/sys/kernel/tracing
findmnt -rn -t tracefs "$tracing" >/dev/null || mount -t tracefs nodev "$tracing" 2>/dev/null
case "$mode" in
  pauses) needed=(writeback/balance_dirty_pages task/task_newtask) ;;
  *) needed=(block/block_rq_issue block/block_rq_complete) ;;
esac
for e in "${needed[@]}"; do
  if [ ! -e "$tracing/events/$e/format" ]; then
    rm -rf "$work"
    echo "1..0 # SKIP the kernel has no tracefs event $e"
    exit 0
  fi
done

if [ "$mode" = dm ] && ! dmsetup version >/dev/null 2>&1; then
  rm -rf "$work"
  echo "1..0 # SKIP the kernel has no device-mapper (dmsetup version fails)"
  exit 0
fi

check_instance="rpcheck-figures-$$"
dirty_saved=""
dm_name=""
throttle=""
cleanup() {
  if [ -n "$throttle" ] && [ -d "$throttle" ]; then
    # Whatever the run left in it back to the parent, then the group away.
    while read -r p; do echo "$p" >"$(dirname "$throttle")/cgroup.procs"; done <"$throttle/cgroup.procs" 2>/dev/null
    rmdir "$throttle"
  fi
  if [ -n "$dm_name" ]; then
    mountpoint -q "$work/mnt" && umount "$work/mnt"
    dmsetup remove "$dm_name" 2>/dev/null
  fi
  [ -n "${bpf_pid:-}" ] && { kill -INT "$bpf_pid" 2>/dev/null; wait "$bpf_pid" 2>/dev/null; }
  [ -d "$tracing/instances/$check_instance" ] && rmdir "$tracing/instances/$check_instance"
  if [ -n "$dirty_saved" ]; then
    read -r bytes ratio <<<"$dirty_saved"
    # The one that was set (the other reads 0) is written last: writing one zeroes the other.
    if [ "$bytes" -ne 0 ]; then sysctl -q vm.dirty_bytes="$bytes"; else sysctl -q vm.dirty_ratio="$ratio"; fi
  fi
  root_tap_cleanup
}
root_tap_on_exit cleanup
root_tap_own_loop_device

truncate -s 3G "$work/ext4.img"
# Direct I/O to the image where its file system allows: the loop device's
# requests then wait for the real disk, milliseconds rather than the
# microseconds of a copy from the page cache.
losetup --direct-io=on "/dev/$loop" "$work/ext4.img" 2>/dev/null || losetup "/dev/$loop" "$work/ext4.img"
fs_dev=/dev/$loop
if [ "$mode" = dm ]; then
  dm_name=rpcheck-figures-$$
  dmsetup create "$dm_name" --table "0 $(blockdev --getsz "/dev/$loop") linear /dev/$loop 0"
  fs_dev=/dev/mapper/$dm_name
fi
mkdir "$work/mnt"
if ! mkfs.ext4 -q -F "$fs_dev" || ! mount "$fs_dev" "$work/mnt"; then
  fail "cannot make and mount an ext4 on $fs_dev"
  echo "1..$n"; exit 1
fi
mnt=$work/mnt
major=$(( 0x$(stat -c %t "/dev/$loop") )); minor=$(( 0x$(stat -c %T "/dev/$loop") ))
kdev=$(( major << 20 | minor ))   # the kernel's dev_t, as the events carry it
dd if=/dev/zero of="$mnt/warm-up" bs=1M count=4 conv=fsync status=none
rm "$mnt/warm-up"
sync

if [ "$mode" = dm ]; then
  # --- A device-mapper device over the loop device ---------------------------
  dm_dev=$(( 0x$(stat -L -c %t "$fs_dev") )):$(( 0x$(stat -L -c %T "$fs_dev") ))
  "$cli" run -d "$mnt" -l seq-writer -s 128M --fdatasync -p kernel-events --kernel-events=on -t 60 \
    -o "$work/dm.json" >"$work/dm.out" 2>&1
  status=$?
  if [ "$status" -eq 0 ]; then
    ok "a writer on ext4 on $dm_name ($dm_dev) over $loop with --kernel-events=on"
  else
    fail "the run failed ($status): $(tail -5 "$work/dm.out")"
  fi
  [ -s "$work/dm.json" ] || { echo "1..$n"; exit 1; }
  verdict=$(python3 - "$work/dm.json" "$dm_dev" "$loop" <<'EOF'
import json, sys
report = json.load(open(sys.argv[1]))
notes, series = report["notes"], report["series"]
device = notes.get("kernel_events_device", "")
ok = device == f"{sys.argv[2]} ({sys.argv[3]})"
print(f"{'ok' if ok else 'not ok'} writer pauses on the dm device's bdi, requests of the loop device under it: {device}")
full = series.get("device_write_latency", {}).get("full_statistics") or {}
writes = float(notes.get("device_write_requests", "0"))
ok = full.get("n", 0) >= 50 and writes >= full.get("n", 0)
print(f"{'ok' if ok else 'not ok'} every write request of {sys.argv[3]} timed: {full.get('n', 0)} of {writes:.0f} completed")
EOF
)
  tap_verdict "$verdict"
elif [ "$mode" = pauses ]; then
  # --- Writer pauses against trace-cmd --------------------------------------
  bdi=$(bdi_dir "$loop")
  if [ -w "$bdi/max_bytes" ]; then
    echo 1 >"$bdi/strict_limit"
    echo $((8 << 20)) >"$bdi/max_bytes"
    how="the loop device's bdi: strict_limit, max_bytes 8 MiB"
  else
    dirty_saved="$(sysctl -n vm.dirty_bytes) $(sysctl -n vm.dirty_ratio)"
    sysctl -q vm.dirty_bytes=$((32 << 20))
    how="vm.dirty_bytes 32 MiB (put back at the end)"
  fi
  mkdir "$tracing/instances/$check_instance"
  echo 8192 >"$tracing/instances/$check_instance/buffer_size_kb"
  ev=$tracing/instances/$check_instance/events/writeback/balance_dirty_pages
  echo "bdi == \"$major:$minor\" && pause > 0" >"$ev/filter"
  echo 1 >"$ev/enable"
  "$cli" run -d "$mnt" -l seq-writer -s 384M -p kernel-events --kernel-events=on -t 120 \
    -o "$work/pauses.json" >"$work/pauses.out" 2>&1
  status=$?
  echo 0 >"$ev/enable"
  trace-cmd extract -B "$check_instance" -o "$work/pauses.dat" >"$work/extract.log" 2>&1 ||
    fail "trace-cmd extract: $(tail -3 "$work/extract.log")"
  trace-cmd report -i "$work/pauses.dat" >"$work/pauses.txt" 2>/dev/null
  # (trace-cmd extract -B removes the instance itself)
  [ -d "$tracing/instances/$check_instance" ] && rmdir "$tracing/instances/$check_instance"
  if [ "$status" -eq 0 ]; then
    ok "a throttled writer with --kernel-events=on ($how)"
  else
    fail "the run failed ($status): $(tail -5 "$work/pauses.out")"
  fi
  [ -s "$work/pauses.json" ] || { echo "1..$n"; exit 1; }
  verdict=$(python3 - "$work/pauses.json" "$work/pauses.txt" <<'EOF'
import json, re, sys
from resprobe_report import samples
report = json.load(open(sys.argv[1]))
notes, series = report["notes"], report["series"]
theirs = []
for line in open(sys.argv[2]):
    m = re.search(r"balance_dirty_pages:.* pause=(-?\d+)", line)
    if m and int(m.group(1)) > 0:
        theirs.append(int(m.group(1)) / 1000.0)   # the field is ms (writeback.h)
def n(key): return float(notes.get(key, "nan"))
ours_n, ours_s, ours_max = n("writer_pauses"), n("writer_pause_seconds"), n("writer_pause_max")
their_n, their_s, their_max = len(theirs), sum(theirs), max(theirs, default=0)
def close(a, b): return abs(a - b) <= 0.05 * b
out = []
ok = their_n >= 20
out.append(f"{'ok' if ok else 'not ok'} trace-cmd recorded {their_n} pauses (at least 20 for a 5 % comparison)")
ok = close(ours_n, their_n)
out.append(f"{'ok' if ok else 'not ok'} pause count: product {ours_n:.0f}, trace-cmd {their_n}")
ok = close(ours_s, their_s)
out.append(f"{'ok' if ok else 'not ok'} total pause: product {ours_s:.4f} s, trace-cmd {their_s:.4f} s")
ok = close(ours_max, their_max) and ours_max <= 0.2 + 1e-9
out.append(f"{'ok' if ok else 'not ok'} longest pause: product {ours_max:.4f} s, trace-cmd {their_max:.4f} s, MAX_PAUSE 0.2 s")
pauses = [v for _, v in samples(series.get("writer_pause", {}))]
ok = len(pauses) == ours_n and abs(sum(pauses) - ours_s) <= 1e-3 * max(ours_s, 1)
out.append(f"{'ok' if ok else 'not ok'} writer_pause series: {len(pauses)} samples, {sum(pauses):.4f} s")
tasks = notes.get("writer_pause_tasks", "")
other = samples(series.get("writer_pause_other", {}))
ok = n("writer_pause_other_seconds") == 0 and len(other) == 0 and "(this run)" in tasks
out.append(f"{'ok' if ok else 'not ok'} every pause the run's own, none another program's: {tasks[:160]}")
print("\n".join(out))
EOF
)
  tap_verdict "$verdict"
else
  # --- Device latency against trace-cmd and bpftrace --------------------------
  # Two witnesses of every request of the loop device, each on the block
  # tracepoints: a trace instance of the test's own read by trace-cmd (the
  # kernel's ring buffer, as the product's, but another instance, reader and
  # parser), and bpftrace's BPF programs. A BPF program of a tracepoint is
  # skipped when another runs on the same CPU (a completion's interrupt
  # during an issue's program): bpftrace may miss a few percent of the
  # requests, so it is compared where it saw nearly all of them.
  witnesses_start() {
    mkdir "$tracing/instances/$check_instance"
    echo mono >"$tracing/instances/$check_instance/trace_clock"
    echo 32768 >"$tracing/instances/$check_instance/buffer_size_kb"
    for e in block_rq_issue block_rq_complete; do
      echo "dev == $kdev" >"$tracing/instances/$check_instance/events/block/$e/filter"
      echo 1 >"$tracing/instances/$check_instance/events/block/$e/enable"
    done
    ulimit -l unlimited 2>/dev/null
    # A larger perf buffer than the default 64 pages: tens of thousands of
    # lines a second must not be lost (bpftrace says "Lost N events").
    BPFTRACE_PERF_RB_PAGES=4096 bpftrace -e "
      tracepoint:block:block_rq_issue /args->dev == $kdev/ { printf(\"I %llu %s %llu\\n\", args->sector, args->rwbs, nsecs); }
      tracepoint:block:block_rq_complete /args->dev == $kdev/ { printf(\"C %llu %s %u %llu\\n\", args->sector, args->rwbs, args->nr_sector, nsecs); }
    " >"$work/bpf.txt" 2>"$work/bpf.err" &
    bpf_pid=$!
    for _ in $(seq 300); do
      grep -q "Attaching" "$work/bpf.txt" "$work/bpf.err" 2>/dev/null && break
      kill -0 "$bpf_pid" 2>/dev/null || break
      sleep 0.1
    done
    if ! kill -0 "$bpf_pid" 2>/dev/null; then
      fail "bpftrace did not start: $(tail -3 "$work/bpf.err")"
      echo "1..$n"; exit 1
    fi
  }
  # witnesses_stop: $work/block.txt (trace-cmd report -t) and $work/bpf.txt.
  witnesses_stop() {
    local overrun
    sleep 1
    kill -INT "$bpf_pid"; wait "$bpf_pid" 2>/dev/null; bpf_pid=""
    for e in block_rq_issue block_rq_complete; do
      echo 0 >"$tracing/instances/$check_instance/events/block/$e/enable"
    done
    overrun=$(cat "$tracing"/instances/"$check_instance"/per_cpu/cpu*/stats | awk '/^overrun/ { s += $2 } END { print s + 0 }')
    trace-cmd extract -B "$check_instance" -o "$work/block.dat" >"$work/extract.log" 2>&1 ||
      fail "trace-cmd extract: $(tail -3 "$work/extract.log")"
    trace-cmd report -t -i "$work/block.dat" >"$work/block.txt" 2>/dev/null
    # (trace-cmd extract -B removes the instance itself)
    [ -d "$tracing/instances/$check_instance" ] && rmdir "$tracing/instances/$check_instance"
    [ "$overrun" -eq 0 ] || fail "the test's trace instance lost $overrun events (buffer overrun)"
    if grep -q "Lost" "$work/bpf.txt" "$work/bpf.err"; then
      fail "bpftrace lost events: $(grep -h Lost "$work/bpf.txt" "$work/bpf.err" | head -2)"
    fi
  }
fi

if [ "$mode" = latency ]; then
  witnesses_start
  "$cli" run -d "$mnt" -l seq-readers -l seq-writer -s 256M --fdatasync --readers 2 --reader-file-size 64M \
    -p kernel-events --kernel-events=on -t 12 -o "$work/latency.json" >"$work/latency.out" 2>&1
  status=$?
  witnesses_stop
  if [ "$status" -eq 0 ]; then
    ok "a reader and a writer with --kernel-events=on beside trace-cmd and bpftrace"
  else
    fail "the run failed ($status): $(tail -5 "$work/latency.out")"
  fi
  [ -s "$work/latency.json" ] || { echo "1..$n"; exit 1; }
  verdict=$(python3 - "$work/latency.json" "$work/block.txt" "$work/bpf.txt" <<'EOF'
import json, sys
from block_witness import bpf_events, ftrace_events, pct, requests
report = json.load(open(sys.argv[1]))
series, notes = report["series"], report["notes"]
# Only requests issued and completed within the window the product traced
# (its notes, CLOCK_MONOTONIC as bpftrace's nsecs and the trace clock mono).
start = float(notes["kernel_events_monotonic_start"]) * 1e9
end = float(notes["kernel_events_monotonic_end"]) * 1e9
def latencies(events):
    return {op: [v for _, v in r] for op, r in requests(events, start, end).items()}
witnesses = {"trace-cmd": latencies(ftrace_events(sys.argv[2])), "bpftrace": latencies(bpf_events(sys.argv[3]))}
out = []
for op in ("read", "write"):
    full = series.get(f"device_{op}_latency", {}).get("full_statistics")
    summary = report["summary"][f"device_{op}_latency"]
    points = series[f"device_{op}_latency"].get("count", 0)
    every = witnesses["trace-cmd"][op]
    if full is None or len(every) < 200:
        out.append(f"not ok {op}s: product's full statistics {'missing' if full is None else 'present'}, trace-cmd {len(every)} requests (at least 200)")
        continue
    for name, lat in witnesses.items():
        theirs = lat[op]
        # Not the same requests, not the same percentiles: in a CI run under
        # stress-ng bpftrace missed 2 of 228 writes and its p50 was 13.70 ms
        # against trace-cmd's and the product's 12.07 ms (an issue or a
        # completion missed pairs a request with another's).
        if name == "bpftrace" and len(theirs) != len(every):
            out.append(f"ok {op}s against bpftrace # SKIP bpftrace timed {len(theirs)} of trace-cmd's {len(every)} requests (its programs are skipped when nested on a CPU)")
            continue
        ok = abs(summary["n"] - len(theirs)) <= 0.05 * len(theirs) and summary["n"] == full["n"] and points < summary["n"]
        out.append(f"{'ok' if ok else 'not ok'} device {op}s n: product {summary['n']} (plotted {points}), {name} {len(theirs)}")
        for p, key in ((0.5, "p50"), (0.99, "p99")):
            t = pct(theirs, p)
            ok = abs(summary[key] - t) <= 0.05 * t
            out.append(f"{'ok' if ok else 'not ok'} device {op} {key}: product {summary[key] * 1e3:.3f} ms, {name} {t * 1e3:.3f} ms")
print("\n".join(out))
EOF
)
  tap_verdict "$verdict"
elif [ "$mode" = window ]; then
  # --- A stall's window against every request in it ----------------------------
  # The throttle of a cgroup of the test's own: cgroup v1's blkio, or v2's
  # io where the root already delegates it (the test changes nothing of the
  # machine's); bios wait in it before they become requests.
  bps=$((2 << 20))
  if [ -w /sys/fs/cgroup/blkio/blkio.throttle.write_bps_device ]; then
    throttle=/sys/fs/cgroup/blkio/$check_instance
    mkdir "$throttle" && echo "$major:$minor $bps" >"$throttle/blkio.throttle.write_bps_device"
  elif grep -qw io /sys/fs/cgroup/cgroup.subtree_control 2>/dev/null; then
    throttle=/sys/fs/cgroup/$check_instance
    mkdir "$throttle" && echo "$major:$minor wbps=$bps" >"$throttle/io.max"
  else
    echo "1..0 # SKIP no block I/O throttle (cgroup v1 blkio, or io delegated by the v2 root) to make stalls with"
    exit 0
  fi
  witnesses_start
  # shellcheck disable=SC2016 # expanded by the inner shell
  sh -c 'echo $$ >"$1/cgroup.procs" && shift && exec "$@"' sh "$throttle" \
    "$cli" run -d "$mnt" -l seq-readers --readers 2 --reader-file-size 64M -p kernel-events -p fsync -i 0.3 \
    --kernel-events=on -t 10 -o "$work/window.json" >"$work/window.out" 2>&1
  status=$?
  witnesses_stop
  if [ "$status" -eq 0 ]; then
    ok "two readers and a throttled fsync probe with --kernel-events=on beside trace-cmd and bpftrace"
  else
    fail "the run failed ($status): $(tail -5 "$work/window.out")"
  fi
  [ -s "$work/window.json" ] || { echo "1..$n"; exit 1; }
  "$cli" show "$work/window.json" >"$work/window.txt" 2>&1 || fail "show: $(tail -3 "$work/window.txt")"
  verdict=$(python3 - "$work/window.json" "$work/window.txt" "$work/block.txt" "$work/bpf.txt" <<'EOF'
import json, math, re, sys
from block_witness import bpf_events, ftrace_events, pct, requests
report = json.load(open(sys.argv[1]))
notes = report["notes"]
start = float(notes["kernel_events_monotonic_start"]) * 1e9
end = float(notes["kernel_events_monotonic_end"]) * 1e9
t0 = float(notes["monotonic_at_run_start"])
witnesses = {"trace-cmd": requests(ftrace_events(sys.argv[3]), start, end),
             "bpftrace": requests(bpf_events(sys.argv[4]), start, end)}
UNITS = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}
TIME = r"[\d.]+ (?:ns|µs|ms|s)"
def seconds(text):
    m = re.fullmatch(r"([\d.]+) (ns|µs|ms|s)", text.strip())
    return float(m.group(1)) * UNITS[m.group(2)] if m else None
# The text's stalls (show, rp_report_stalls_to_text()): a title "fsync at
# 3.35 s: 138 ms", then lines of two spaces (a wrapped one continues with
# four) until an empty line.
blocks, current = [], None
for line in open(sys.argv[2]):
    line = line.rstrip("\n")
    m = re.fullmatch(rf"(\S.*) at ({TIME}): ({TIME})", line)
    if m:
        current = {"start": seconds(m.group(2)), "duration": seconds(m.group(3)), "lines": []}
        blocks.append(current)
    elif current is not None and line.startswith("    ") and current["lines"]:
        current["lines"][-1] += " " + line.strip()
    elif current is not None and line.startswith("  "):
        current["lines"].append(line.strip())
    else:
        current = None
def near(shown, exact):   # three digits shown
    return abs(shown - exact) <= 0.006 * exact + 1e-6
def in_window(at_ns, first, last):   # the product's slot of a request: its issue on the run's clock
    return first <= math.floor((at_ns * 1e-9 - t0) / 0.1) <= last
out, compared = [], 0
stalls = report["stalls"]
out.append(f"{'ok' if stalls else 'not ok'} the throttled fsync() calls stalled: {len(stalls)} stalls, {len(blocks)} in the text")
for block in blocks:
    match = [s for s in stalls if near(block["start"], s["start"]) and near(block["duration"], s["duration"])]
    if len(match) != 1:
        continue
    stall = match[0]
    # The slots the stall's figures are of: its window [start, end + 0.5 s]
    # (rp-report-stalls.c) widened to whole 0.1 s (rp-time-histogram.c).
    first = math.floor(max(stall["start"], 0) / 0.1)
    last = math.floor((stall["start"] + stall["duration"] + 0.5) / 0.1)
    for op in ("read", "write"):
        line = next((l for l in block["lines"] if l.startswith(f"device {op} latency: ")), None)
        m = line and re.search(rf"p50 ({TIME}), p99 ({TIME}) of (\d+) requests?$", line)
        if not m:
            continue
        p50, p99, n = seconds(m.group(1)), seconds(m.group(2)), int(m.group(3))
        every = [v for at, v in witnesses["trace-cmd"][op] if in_window(at, first, last)]
        if n < 200 or len(every) < 200:
            continue
        what = f"{stall['series']} at {stall['start']:.3f} s for {stall['duration']:.3f} s (slots {first}-{last}), {op}s"
        for name, lat in witnesses.items():
            theirs = [v for at, v in lat[op] if in_window(at, first, last)]
            # The same rule as the whole run's: only the same requests.
            if name == "bpftrace" and len(theirs) != len(every):
                out.append(f"ok {what} against bpftrace # SKIP bpftrace timed {len(theirs)} of trace-cmd's {len(every)} requests (its programs are skipped when nested on a CPU)")
                continue
            compared += 1
            ok = abs(n - len(theirs)) <= 0.01 * len(theirs)
            out.append(f"{'ok' if ok else 'not ok'} {what}: product {n} requests, {name} {len(theirs)}")
            for value, p, key in ((p50, 0.5, "p50"), (p99, 0.99, "p99")):
                t = pct(theirs, p)
                ok = abs(value - t) <= 0.05 * t
                out.append(f"{'ok' if ok else 'not ok'} {what} {key}: product {value * 1e3:.3f} ms, {name} {t * 1e3:.3f} ms")
                if not ok:
                    # What a failure needs to be read (one CI run beside
                    # stress-ng: p99 21.7 against 23.01 ms with 2793 requests
                    # on both sides): the witness's order statistics around
                    # the rank, and its requests issued within 10 µs of the
                    # window's slot edges, whose slot a rounding could move.
                    ordered = sorted(theirs)
                    rank = int((len(ordered) - 1) * p)
                    around = ", ".join(f"{v * 1e3:.3f}" for v in ordered[max(0, rank - 3):rank + 5])
                    edges = (first * 0.1, (last + 1) * 0.1)
                    close = sum(1 for at, _ in lat[op] if any(abs((at * 1e-9 - t0) - e) < 1e-5 for e in edges))
                    out.append(f"# {name}'s order statistics {rank - 2}..{rank + 5} (ms): {around}; "
                               f"requests within 10 µs of the slot edges: {close}")
out.append(f"{'ok' if compared else 'not ok'} {compared} witnesses compared over stall windows of at least 200 requests")
print("\n".join(out))
EOF
)
  tap_verdict "$verdict"
fi

echo "1..$n"
[ "$failures" -eq 0 ]
