#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# resprobe-cli end to end: bad values, a real short run, reports (export, default
# names, saved elsewhere), Ctrl-C, SIGTERM, SIGHUP and kill -9, each leaving the
# target directory empty.
set -u
cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}
# Under the build dir: /tmp may be tmpfs, where fsync does nothing.
work=$(mktemp -d "${G_TEST_BUILDDIR:-$PWD}/cli-XXXXXX")
trap 'rm -rf "$work"' EXIT
target=$work/target
mkdir "$target"
failures=0
n=0

# One TAP line each (meson runs this with protocol 'tap'): a message that
# spans lines is joined, so that none of its lines reads as a TAP line.
tap() { local line="$*"; echo "${line//$'\n'/ | }"; }
ok()   { n=$((n + 1)); tap "ok $n - $*"; }
fail() { n=$((n + 1)); tap "not ok $n - $*"; failures=$((failures + 1)); }

# wait_for FILE TEXT SECONDS: until a background run printed TEXT.
wait_for() {
  local deadline=$(( $(date +%s) + $3 ))
  until grep -qF -- "$2" "$1" 2>/dev/null; do
    if [ "$(date +%s)" -ge "$deadline" ]; then echo "# no “$2” in $1 after $3 s" >&2; return 1; fi
    sleep 0.05
  done
}

# wait_for_open PID DIR SECONDS: until process PID has a file in DIR open (the
# O_TMPFILE files of a run show in /proc/PID/fd as "DIR/#123 (deleted)").
wait_for_open() {
  local deadline=$(( $(date +%s) + $3 )) fd
  while :; do
    for fd in /proc/"$1"/fd/*; do
      case "$(readlink "$fd" 2>/dev/null)" in "$2"/*) return 0 ;; esac
    done
    if [ "$(date +%s)" -ge "$deadline" ]; then echo "# PID $1 opened nothing in $2 within $3 s" >&2; return 1; fi
    sleep 0.05
  done
}

expect_empty() {
  if [ -z "$(ls -A "$target")" ]; then ok "$1: target directory empty"
  else fail "$1: left behind: $(ls -A "$target")"; fi
}

# --- bad values: exit 2 and a message naming the option --------------------------
check_usage() {
  local what=$1 needle=$2; shift 2
  local err rc
  err=$("$cli" "$@" 2>&1 >/dev/null); rc=$?
  if [ "$rc" -eq 2 ] && grep -qF -- "$needle" <<<"$err"; then ok "$what (exit 2: $err)"
  else fail "$what: exit $rc, message: $err"; fi
}
check_usage "no command" "Usage" 
check_usage "unknown command" "frobnicate" frobnicate
check_usage "option before any command" "options follow the command" --bogus
check_usage "size 0" "--size" run --dir "$target" --size 0
check_usage "size not a number" "--size" run --dir "$target" --size lots
check_usage "size missing unit number" "--size" run --dir "$target" --size G
check_usage "size absurd" "--size" run --dir "$target" --size 1e20G
check_usage "negative duration" "--duration" run --dir "$target" --duration -5
check_usage "duration not a number" "--duration" run --dir "$target" --duration soon
check_usage "interval" "--interval" run --dir "$target" --interval x
# Out of range: the option as typed, not the parameter's name "interval".
check_usage "interval out of range names the option" "--interval: 0.001 is out of range" run --dir "$target" --interval 0.001
check_usage "block size out of range names the option" "--block-size: " run --dir "$target" --block-size 100
check_usage "block size" "--block-size" run --dir "$target" --block-size 0
check_usage "missing directory" "$work/nope" run --dir "$work/nope" --duration 1
touch "$work/plain-file"
check_usage "file instead of directory" "plain-file" run --dir "$work/plain-file" --duration 1
check_usage "size larger than the disk" "free" run --dir "$target" --size 1000000G --duration 1
check_usage "a file system without storage" "without storage" run --dir /proc --duration 1
check_usage "report under a file" "Not a directory" run --dir "$target" --duration 1 --report "$work/plain-file/r.json"
check_usage "report in a missing directory names --report" "--report: " \
  run --dir "$target" --duration 1 --report "$work/nodir/r.json"
check_usage "report named - (not standard output)" "standard output" \
  run --dir "$target" --duration 1 --report -
check_usage "report naming a directory with a trailing /" "names a directory" \
  run --dir "$target" --duration 1 --report "$work/newdir/"
if [ ! -e "$work/newdir" ]; then ok "no file newdir made"; else fail "--report newdir/ made $work/newdir"; fi
check_usage "unknown option" "--bogus" run --bogus
check_usage "unknown load" "--load" run --dir "$target" --load bogus --duration 1
check_usage "unknown probe" "--probe" run --dir "$target" --probe bogus --duration 1
check_usage "writers 0" "--writers" run --dir "$target" --scenario R3 --writers 0 --duration 1
check_usage "writers not a number" "--writers" run --dir "$target" --scenario R3 --writers many --duration 1
check_usage "writers over 64" "writers" run --dir "$target" --scenario R3 --writers 65 --duration 1
check_usage "write size" "--write-size" run --dir "$target" --scenario R3 --write-size 0 --duration 1
check_usage "copy size" "copy-size" run --dir "$target" --scenario R2 --copy-size 1K --duration 1
check_usage "unknown scenario" "R9" run --dir "$target" --scenario R9 --duration 1
check_usage "matrix image too small for the writer" "--image-size" matrix --image-size 1M --dir "$target"
check_usage "matrix bdi max_ratio 0" "--bdi-max-ratio" matrix --bdi-max-ratio 0 --dir "$target"
check_usage "matrix bdi max_ratio over 100" "--bdi-max-ratio" matrix --bdi-max-ratio 5,101 --dir "$target"
check_usage "matrix bdi strict_limit 2" "--bdi-strict-limit" matrix --bdi-strict-limit 2 --dir "$target"
check_usage "matrix bdi max_bytes 0" "--bdi-max-bytes" matrix --bdi-max-bytes 0 --dir "$target"
check_usage "matrix bdi max_bytes not a size" "--bdi-max-bytes" matrix --bdi-max-bytes lots --dir "$target"
# Issue 20: values that ran as if not given, or made two cells of one name.
check_usage "matrix --device \"\" names no profile" "names no profile" matrix --device "" --dir "$target"
check_usage "matrix --device native,native" "“native” is listed twice" matrix --device native,native --dir "$target"
check_usage "matrix --device custom key twice" "“write” is given twice" matrix --device custom:write=5M,write=6M --dir "$target"
check_usage "matrix --fs ext3,ext3" "“ext3” is listed twice" matrix --fs ext3,ext3 --dir "$target"
check_usage "matrix --memory 16G,16G" "“16G” is listed twice" matrix --memory 16G,16G --dir "$target"
check_usage "matrix --memory 4G,4096M (one size twice)" "“4096M” is listed twice" matrix --memory 4G,4096M --dir "$target"
check_usage "matrix --memory \"\" is no size" "--memory" matrix --memory "" --dir "$target"
# Room in each cell, up front: 256M + 1 GiB "fitted" 1400M, but ext3 keeps
# about 130 MiB of it, and every cell then failed for space.
check_usage "matrix image without room for the cell's run" "give at least" matrix --fs ext3 --size 256M --image-size 1400M --dir "$target"
# An empty folder option names the option, not the setting behind it.
check_usage "run --load-dir \"\"" "--load-dir: an empty folder name" run --dir "$target" --load-dir ""
check_usage "run --dir \"\"" "--dir: an empty folder name" run --dir ""
check_usage "matrix --dir \"\"" "--dir: an empty folder name" matrix --dir ""
check_usage "matrix --reports \"\"" "--reports: an empty folder name" matrix --dir "$target" --reports ""
check_usage "matrix --probe-dir \"\"" "--probe-dir: an empty folder name" matrix --dir "$target" --probe-dir ""
# Schedulers the kernel lacks are refused before the first cell, naming what
# it offers (kernels of one machine kind differ: one has bfq, the next not;
# CFQ left in Linux 5.0). Not root's: the check comes before root's.
offered=$(cat /sys/block/loop*/queue/scheduler /sys/block/*/queue/scheduler 2>/dev/null | tr -d '[]' | tr '\n' ' ')
offered_list=$(printf '%s\n' $offered | awk '!seen[$0]++' | paste -sd, | sed 's/,/, /g')
check_usage "matrix --scheduler cfq (gone since Linux 5.0)" \
  "--scheduler: this kernel offers no I/O scheduler “cfq” (it offers $offered_list)" matrix --scheduler none,cfq --dir "$target"
lacking=""
for s in bfq kyber mq-deadline; do case " $offered " in *" $s "*) ;; *) lacking=$s; break ;; esac; done
if [ -n "$lacking" ]; then
  check_usage "matrix --scheduler $lacking, which this kernel lacks" \
    "this kernel offers no I/O scheduler “$lacking” (it offers $offered_list)" matrix --scheduler "$lacking" --dir "$target"
else
  n=$((n + 1)); echo "ok $n # SKIP this kernel offers bfq, kyber and mq-deadline: none of them to refuse"
fi
# A value that is not text names its option (GOption said only "Invalid byte
# sequence in conversion input").
check_usage "run --duration with an invalid byte" "--duration: “�” is not text (an invalid byte)" \
  run --dir "$target" --duration $'\xff'
check_usage "run --scenario=R with an invalid byte" "--scenario: “R�” is not text (an invalid byte)" \
  run --dir "$target" --scenario=$'R\xff'
# An empty list or value is refused, naming the option (it ran no cell and
# exited 0; an empty --wbt= was ignored and the cells ran).
check_usage "matrix --scheduler ''" "--scheduler: no value given; list one or more, separated by commas" \
  matrix --scheduler "" --dir "$target"
check_usage "matrix --fs ''" "--fs: no value given" matrix --fs "" --dir "$target"
check_usage "matrix --wbt=" "--wbt: no value given" matrix --wbt= --dir "$target"
check_usage "matrix --bdi-max-ratio=" "--bdi-max-ratio: no value given" matrix --bdi-max-ratio= --dir "$target"
check_usage "matrix --scheduler=," "--scheduler: an empty value in “,”; separate the values by single commas" \
  matrix --scheduler=, --dir "$target"
check_usage "matrix --journal ordered,,writeback" "--journal: an empty value in “ordered,,writeback”" \
  matrix --journal ordered,,writeback --dir "$target"
# A file system whose mkfs is not installed, or that the kernel lacks, is
# refused before the first cell (each cell failed on its own).
missing_mkfs=""
for fs in btrfs xfs ext2; do command -v "mkfs.$fs" >/dev/null || { missing_mkfs=$fs; break; }; done
if [ "$(id -u)" -ne 0 ]; then
  n=$((n + 1)); echo "ok $n # SKIP the mkfs check comes after matrix's root check: needs root"
elif [ -n "$missing_mkfs" ] && grep -qw "$missing_mkfs" /proc/filesystems; then
  out=$("$cli" matrix --fs "ext4,$missing_mkfs" --dir "$target" 2>&1); rc=$?; n=$((n + 1))
  if [ "$rc" -eq 1 ] && grep -qF -- "--fs: “$missing_mkfs” needs the program mkfs.$missing_mkfs, which is not installed" <<<"$out"
  then echo "ok $n - matrix --fs $missing_mkfs without mkfs.$missing_mkfs (exit 1: $out)"
  else echo "not ok $n - matrix --fs $missing_mkfs without mkfs.$missing_mkfs: exit $rc: ${out//$'\n'/ | }"; failures=$((failures + 1)); fi
else
  n=$((n + 1)); echo "ok $n # SKIP every file system of the matrix has its mkfs here, or the kernel lacks the one without (unit test kernel-features/file-systems)"
fi
check_usage "command not found" "no-such-program-resprobe" run --dir "$target" --duration 1 -- no-such-program-resprobe
expect_empty "bad values"

# --- names with terminal escapes and bidi controls reach no terminal ---------------
# A file name is a stranger's string: ESC would set the window title and the
# colours, U+202E (right-to-left override) turn the line around, BEL ring.
# Every message naming one shows them as spaces. clean_output WHAT TEXT.
esc=$'\e]0;pwned\a\e[31m'
rlo=$'\u202e'
clean_output() {
  if ! LC_ALL=C grep -q $'[\x01-\x09\x0b-\x1f\x7f]\|\xc2[\x80-\x9f]\|\xe2\x80\xae' <<<"$2"; then ok "$1: no control or bidi character"
  else fail "$1: $(cat -v <<<"$2")"; fi
}
check_usage "a missing directory named with escapes" "does not exist" run --dir "$work/x${esc}y" --duration 1
clean_output "run --dir with escapes" "$("$cli" run --dir "$work/x${esc}y" --duration 1 2>&1)"
clean_output "run --dir with U+202E" "$("$cli" run --dir "$work/x${rlo}y" --duration 1 2>&1)"
clean_output "--report in a missing directory with escapes" \
  "$("$cli" run --dir "$target" --duration 1 --report "$work/no${esc}dir/r.json" 2>&1)"
clean_output "an unexpected argument with escapes" "$("$cli" run "x${esc}y" 2>&1)"
clean_output "an unknown option with escapes" "$("$cli" run "--x${esc}y" 2>&1)"
clean_output "an unknown command with escapes" "$("$cli" "x${esc}y" 2>&1)"
for name in "x${esc}y.json" "x${rlo}y.json"; do
  out=$("$cli" show "$work/$name" 2>&1)
  clean_output "show of a missing $(cat -v <<<"$name")" "$out"
  # Once: the loader's message names it (as a URI when it has escapes).
  if [ "$(grep -o "$work" <<<"$out" | wc -l)" -eq 1 ] && grep -q "No such file" <<<"$out"; then
    ok "show of a missing $(cat -v <<<"$name"): named once"
  else fail "show of a missing $(cat -v <<<"$name"): $(cat -v <<<"$out")"; fi
done
mkdir "$work/x${rlo}y${esc}"
out=$("$cli" sysinfo "$work/x${rlo}y${esc}" --json 2>&1); rc=$?
clean_output "sysinfo --json of a directory with escapes" "$out"
if [ "$rc" -eq 0 ] && python3 -c 'import json, sys
assert json.loads(sys.argv[1])["target_directory"] == sys.argv[2]' "$out" "$work/x${rlo}y${esc}"; then
  ok "sysinfo --json: the same directory name to a JSON parser"
else fail "sysinfo --json: exit $rc: $(cat -v <<<"$out")"; fi
rmdir "$work/x${rlo}y${esc}"

# --- scenarios: every preset with its description ----------------------------------
out=$("$cli" scenarios 2>&1); rc=$?
missing=""
for id in R1 R2 R3 R3-fsync passive; do
  grep -qE "^$id +[A-Z]" <<<"$out" || missing="$missing $id"
done
if [ "$rc" -eq 0 ] && [ -z "$missing" ]; then ok "scenarios lists R1 R2 R3 R3-fsync passive"
else fail "scenarios: exit $rc, missing:$missing: $out"; fi
# R1 ends when dd has written its size, as `run` without --duration runs it;
# the endless copy of R2 runs until stopped.
r1=$(awk '/^R1 /{on=1} /^R2 /{on=0} on' <<<"$out" | tr '\n' ' ' | tr -s ' ')
r2=$(awk '/^R2 /{on=1} /^R3 /{on=0} on' <<<"$out" | tr '\n' ' ' | tr -s ' ')
if grep -qF "until the loads are done" <<<"$r1" && grep -qF "until stopped" <<<"$r2"; then
  ok "scenarios: R1 until the loads are done, R2 until stopped"
else fail "scenarios: R1: $r1 / R2: $r2"; fi

# --- R3 for 3 s: a write() latency series and a max per thread ---------------------
out=$("$cli" run --scenario R3 --dir "$target" --duration 3 --report "$work/r3.json" 2>"$work/err-r3")
rc=$?
if [ "$rc" -eq 0 ] && grep -q "write() #3" <<<"$out"; then ok "R3 run: summary has per-thread rows"
else fail "R3 run: exit $rc: $out $(cat "$work/err-r3")"; fi
if python3 - "$work/r3.json" <<'PY'
import json, sys
from resprobe_report import samples
r = json.load(open(sys.argv[1]))
assert r["scenario"]["name"] == "R3", r["scenario"]["name"]
for i in range(4):
    s = samples(r["series"]["write_latency_%d" % i])
    assert len(s) > 0, i
    assert float(r["notes"]["write_latency_%d_max" % i]) > 0, i
assert "write_latency_4" not in r["series"]
assert len(samples(r["series"]["write_latency"])) == sum(
    len(samples(r["series"]["write_latency_%d" % i])) for i in range(4))
PY
then ok "R3 report holds write_latency_0..3 and per-thread max notes"; else fail "R3 report check"; fi
expect_empty "R3 run"

# --- a command load after "--" is killed with its children on stop ----------------
marker="1000.$$"
out=$("$cli" run --dir "$target" --probe none --duration 2 --report "$work/cmd.json" \
      -- sh -c "sleep $marker & sleep $marker" 2>&1); rc=$?
# SIGINT first, as Ctrl-C would send (then SIGTERM and SIGKILL).
if [ "$rc" -eq 0 ] && grep -q "Command: signal 2" <<<"$out"; then ok "command load stopped with SIGINT"
else fail "command load: exit $rc: $out"; fi
if ! pgrep -f "sleep $marker" >/dev/null; then ok "command load: no sleep left running"
else fail "command load left: $(pgrep -af "sleep $marker")"; fi
expect_empty "command load"

# --- several --commands side by side: each its own status, times and output ------
# The first ends by itself with 3, after using some CPU; the second runs past the
# end of the run and is stopped, keeping what it printed before.
out=$("$cli" run --dir "$target" --probe none --duration 3 --report "$work/cmds.json" \
      --command "sh -c 'i=0; while [ \$i -lt 20000 ]; do i=\$((i+1)); done; echo first done; exit 3'" \
      --command "sh -c 'echo second started; exec sleep $marker'" 2>&1); rc=$?
# The first failed by itself (exit 3): the run says so and exits 4.
if [ "$rc" -eq 4 ] && grep -q "Command 1: exit 3" <<<"$out" &&
   grep -qF "the command “sh -c 'i=0; while" <<<"$out" && grep -q "failed: it exited with status 3" <<<"$out" &&
   grep -q "Command 2: signal 2 (stopped with the run)" <<<"$out" &&
   grep -q "Command 2: ran " <<<"$out"; then ok "two commands: each its own exit status in the summary"
else fail "two commands: exit $rc: $out"; fi
if python3 - "$work/cmds.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
n = r["notes"]
assert n["command_count"] == "2", n.get("command_count")
assert n["command_exit_status"] == "exit 3" and n["command_stopped"] == "false", n
assert "first done" in n["command_output_tail"], n["command_output_tail"]
assert n["command_2_exit_status"] == "signal 2" and n["command_2_stopped"] == "true", n
assert "second started" in n["command_2_output_tail"], n["command_2_output_tail"]
for prefix in ("command_", "command_2_"):
    for name in ("user_seconds", "system_seconds", "wall_seconds"):
        assert float(n[prefix + name]) >= 0, (prefix, name)
# The loop of the first used CPU; the stopped second ran until the end.
assert float(n["command_user_seconds"]) + float(n["command_system_seconds"]) > 0, n
assert float(n["command_2_wall_seconds"]) >= float(n["command_wall_seconds"]), n
more = r["scenario"]["more_commands"]
assert len(more) == 1 and more[0].startswith("sh -c 'echo second started;"), more
PY
then ok "two commands: each its own notes (status, output tail, user, system and wall time) in the report"
else fail "two commands: report notes"; fi
if ! pgrep -f "sleep $marker" >/dev/null; then ok "two commands: the stopped one left nothing running"
else fail "two commands left: $(pgrep -af "sleep $marker")"; fi
out=$("$cli" run --dir "$target" --probe none --duration 1 --command true --command "sh -c 'unbalanced" 2>&1); rc=$?
if [ "$rc" -ne 0 ] && grep -q "command 2" <<<"$out"; then ok "a bad second command is refused, naming it"
else fail "bad second command: exit $rc: $out"; fi
out=$("$cli" run --dir "$target" --probe none --duration 1 --command true --command "/nonexistent/prog" 2>&1); rc=$?
if [ "$rc" -ne 0 ] && grep -q "/nonexistent/prog" <<<"$out"; then ok "a missing second program is refused, naming it"
else fail "missing second program: exit $rc: $out"; fi
expect_empty "two commands"

# --- a load command that fails: said, exit 4, the report saved all the same ------
out=$("$cli" run --dir "$target" --probe none --duration 1 --report "$work/false.json" --command false 2>&1); rc=$?
if [ "$rc" -eq 4 ] && grep -qF "resprobe-cli: the command “false” failed: it exited with status 1" <<<"$out" &&
   [ -s "$work/false.json" ] && grep -q "Report saved to $work/false.json" <<<"$out"
then ok "a failing --command: named with its exit status, exit 4, report saved"
else fail "failing --command: exit $rc: $out"; fi
out=$("$cli" run --dir "$target" --probe none --duration 1 --report "$work/killed.json" -- sh -c 'kill -KILL $$' 2>&1); rc=$?
if [ "$rc" -eq 4 ] && grep -qF "the command “sh -c 'kill -KILL \$\$'” failed: signal 9" <<<"$out" && [ -s "$work/killed.json" ]
then ok "a command killed by a signal it was not stopped with: named, exit 4"
else fail "killed command: exit $rc: $out"; fi
# Two commands with quoting: the scenario line pasted into a shell runs them again.
out=$("$cli" run --dir "$target" --probe none --duration 1 --report "$work/quoted.json" \
      --command 'dd if=/dev/zero "of=a b" bs=1k count=10' --command 'sleep 0.1' 2>&1); rc=$?
if [ "$rc" -eq 0 ] && tr -d '\n' <<<"$out" | sed 's/#   / /g' | grep -qF "command “dd if=/dev/zero 'of=a b' bs=1k count=10 & sleep 0.1”"
then ok "two commands: the scenario line quotes the argument with a space"
else fail "scenario line quoting: exit $rc: $out"; fi
rm -f "${target:?}/a b"
expect_empty "failing commands"

# --- a real short run -------------------------------------------------------------
out=$("$cli" run --dir "$target" --size 256M --duration 4 --report "$work/r.json" 2>"$work/err")
rc=$?
if [ "$rc" -eq 0 ]; then ok "short run exits 0"; else fail "short run exit $rc: $(cat "$work/err")"; fi
lines=$(grep -cE '^fsync time: [0-9]+\.[0-9]{4}$' <<<"$out")
# How many fit in 4 s depends on the disk (an fsync under the writer can take
# seconds); that there are some, in the fsync-tester format, does not.
if [ "$lines" -ge 1 ]; then ok "short run printed $lines fsync-tester lines"; else fail "no fsync lines: $out"; fi
if grep -q "File system" <<<"$out"; then ok "header names the file system"; else fail "no header: $out"; fi
if grep -q "fsync latency" <<<"$out"; then ok "summary table printed"; else fail "no summary: $out"; fi
# Text for bug trackers: lines of at most 80 bytes, as mawk's length() counts in
# the C locale, and plain spaces (g_format_size()'s no-break space is two bytes
# that `grep '1.0 MiB'` does not match). The path of the saved report may be long.
check_text() {
  local what=$1 text=$2 long
  long=$(grep -v '^Report saved to ' <<<"$text" | LC_ALL=C awk 'length($0) > 80 { print length($0) ": " $0 }')
  if [ -z "$long" ] && ! LC_ALL=C grep -q $'\xc2\xa0' <<<"$text"; then
    ok "$what: lines of at most 80 bytes, no no-break space"
  else fail "$what: ${long:-a no-break space}"; fi
}
check_text "run output" "$out"
if grep -qF '1.0 MiB' <<<"$out"; then ok "run output: grep '1.0 MiB' finds the probe size"
else fail "run output: no '1.0 MiB': $out"; fi
if python3 - "$work/r.json" "$lines" <<'PY'
import json, sys
from resprobe_report import samples
r = json.load(open(sys.argv[1]))
assert r["format"] == "resprobe-report" and r["version"] == 2
s = samples(r["series"]["fsync_latency"])
assert len(s) == int(sys.argv[2]), (len(s), sys.argv[2])
assert r["summary"]["fsync_latency"]["n"] == len(s)
assert r["system"]["fs_type"], r["system"]
PY
then ok "report holds the fsync samples"; else fail "report check"; fi
expect_empty "short run"

# --- export, show, compare: the saved report of the short run ----------------------
exp=$work/export
mkdir "$exp"
for fmt in json csv txt png svg pdf; do
  out=$("$cli" export "$work/r.json" -o "$exp/r.$fmt" 2>&1); rc=$?
  if [ "$rc" -eq 0 ] && [ -s "$exp/r.$fmt" ]; then ok "export $fmt: $out"
  else fail "export $fmt: exit $rc: $out"; fi
done
if [ "$(ls -A "$exp" | wc -l)" -eq 6 ]; then ok "export: six files, no temporary left"
else fail "export left: $(ls -A "$exp")"; fi
if python3 - "$exp" <<'PY'
import sys, xml.etree.ElementTree as ET
d = sys.argv[1]
assert open(d + "/r.png", "rb").read(8) == b"\x89PNG\r\n\x1a\n"
assert ET.parse(d + "/r.svg").getroot().tag == "{http://www.w3.org/2000/svg}svg"
assert open(d + "/r.pdf", "rb").read(5) == b"%PDF-"
assert open(d + "/r.csv").readline() == "series,t_seconds,value\n"
long = [l for l in open(d + "/r.txt", "rb").read().splitlines() if len(l) > 80]
assert not long, long
PY
then ok "export: PNG signature, SVG parses, PDF header, CSV header, text within 80 bytes a line"
else fail "export: file checks"; fi
# pdftoppm: poppler-utils, which build-aux/install-deps.sh installs.
if pdftoppm -png -r 30 -singlefile "$exp/r.pdf" "$work/page" && [ -s "$work/page.png" ]; then
  ok "pdftoppm renders page 1 of the PDF"; else fail "pdftoppm cannot render the PDF (poppler-utils installed?)"; fi
rm -f "$work/page.png"
# Re-imported, the JSON gives the same report, down to the summary.
if diff <("$cli" show "$work/r.json") <("$cli" show "$exp/r.json") >/dev/null; then
  ok "exported JSON shows the same text report"; else fail "exported JSON differs"; fi
out=$("$cli" export "$work/r.json" --format txt -o "$exp/summary.out" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -q "^fsync time: " "$exp/summary.out"; then ok "export --format overrides the extension"
else fail "export --format txt: exit $rc: $out"; fi

sum_before=$(cksum <"$exp/r.pdf")
check_usage "export over an existing file" "--force" export "$work/r.json" -o "$exp/r.pdf"
if [ "$(cksum <"$exp/r.pdf")" = "$sum_before" ]; then ok "refused export left the file alone"
else fail "refused export changed the file"; fi
out=$("$cli" export "$work/r.json" -o "$exp/r.pdf" --force 2>&1); rc=$?
if [ "$rc" -eq 0 ]; then ok "export --force replaces"; else fail "export --force: exit $rc: $out"; fi
check_usage "export without -o" "-o" export "$work/r.json"
# "-o -" is not standard output: refused, pointing to show; ./- is a file.
for format in "" "--format=txt"; do
  out=$(cd "$exp" && "$cli" export "$work/r.json" $format -o - 2>&1); rc=$?
  if [ "$rc" -eq 2 ] && grep -qF "resprobe-cli show REPORT" <<<"$out" && [ ! -e "$exp/-" ]; then
    ok "export $format -o - refused, pointing to show (exit 2: $out)"
  else fail "export $format -o -: exit $rc, $(ls "$exp"): $out"; fi
  rm -f "$exp/-"
done
out=$("$cli" export "$work/r.json" -o "$exp/o${esc}k${rlo}.txt" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -q "^Wrote $exp/o .*k .txt (" <<<"$out"; then ok "export to a name with escapes: $out"
else fail "export to a name with escapes: exit $rc: $(cat -v <<<"$out")"; fi
clean_output "export to a name with escapes" "$out"
clean_output "export over a name with escapes" "$("$cli" export "$work/r.json" -o "$exp/o${esc}k${rlo}.txt" 2>&1)"
rm -f "$exp/o${esc}k${rlo}.txt"
# Never onto the report being exported, not even with --force, nor through
# another name of the same file (a symbolic or a hard link).
cp "$work/r.json" "$exp/in.json"
ln -s in.json "$exp/in-link.json"
ln "$exp/in.json" "$exp/in-hard.txt"
sum_before=$(cksum <"$exp/in.json")
check_usage "export onto its own report" "would replace the report" \
  export "$exp/in.json" -o "$exp/in.json" --force --format txt
check_usage "export onto its own report by another path" "would replace the report" \
  export "$exp/in.json" -o "$exp/../export/in.json" --force
check_usage "export onto a symbolic link to its report" "in-link.json" \
  export "$exp/in.json" -o "$exp/in-link.json" --force --format json
check_usage "export onto a hard link to its report" "in-hard.txt" \
  export "$exp/in.json" -o "$exp/in-hard.txt" --force
if [ "$(cksum <"$exp/in.json")" = "$sum_before" ] && [ -L "$exp/in-link.json" ]; then
  ok "refused exports left the report alone"; else fail "an export replaced its own report"; fi
rm -f "$exp/in.json" "$exp/in-link.json" "$exp/in-hard.txt"
# A --format that the extension contradicts is refused; a name without a known
# extension takes any format (summary.out above), and .text is txt.
check_usage "export --format png to a .pdf" "ends in .pdf but --format is png" \
  export "$work/r.json" --format png -o "$exp/new.pdf"
if [ ! -e "$exp/new.pdf" ]; then ok "refused export wrote no new.pdf"; else fail "export wrote new.pdf"; fi
out=$("$cli" export "$work/r.json" --format TEXT -o "$exp/agree.text" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -q "^fsync time: " "$exp/agree.text"; then ok "export --format TEXT to a .text file"
else fail "export --format TEXT -o agree.text: exit $rc: $out"; fi
rm -f "$exp/agree.text"
check_usage "export without a report" "report" export -o "$exp/x.pdf"
check_usage "export to an unknown extension" "--format" export "$work/r.json" -o "$exp/r.gif"
check_usage "export to an unknown format" "bmp" export "$work/r.json" --format bmp -o "$exp/r.bmp"
check_usage "export of a missing report" "$work/none.json" export "$work/none.json" -o "$exp/n.pdf"
out=$("$cli" show "$work/none.json" 2>&1)
if [ "$(grep -o "none.json" <<<"$out" | wc -l)" -eq 1 ]; then ok "a missing report is named once ($out)"
else fail "a missing report: $out"; fi
mkdir "$exp/dir.pdf"
check_usage "export onto a directory" "is a directory" export "$work/r.json" -o "$exp/dir.pdf" --force
rmdir "$exp/dir.pdf"
out=$("$cli" export "$work/r.json" -o "$exp/missing/r.pdf" 2>&1); rc=$?
if [ "$rc" -eq 1 ] && grep -q "missing" <<<"$out" && [ ! -e "$exp/missing" ]; then
  ok "export into a missing directory fails (exit 1: $out)"; else fail "export into missing dir: exit $rc: $out"; fi
if [ "$rc" -eq 1 ] && ! grep -q "r.pdf\." <<<"$out"; then ok "the message names no temporary file"
else fail "export into missing dir names a temporary file: $out"; fi
# --force replaces regular files only: a link, a pipe or a device keeps what it is.
echo keep >"$exp/kept.txt"
ln -s kept.txt "$exp/link.txt"
mkfifo "$exp/fifo.txt"
for special in link.txt fifo.txt; do
  out=$("$cli" export "$work/r.json" --format txt -o "$exp/$special" --force 2>&1); rc=$?
  if [ "$rc" -eq 1 ] && grep -q "not a regular file" <<<"$out" && [ ! -f "$exp/$special" -o -L "$exp/$special" ] &&
     { [ -L "$exp/$special" ] || [ -p "$exp/$special" ]; }; then ok "export --force refuses $special (exit 1: $out)"
  else fail "export --force onto $special: exit $rc: $out"; fi
done
if [ "$(cat "$exp/kept.txt")" = keep ]; then ok "the link's target is untouched"; else fail "the link's target changed"; fi
rm -f "$exp/link.txt" "$exp/fifo.txt" "$exp/kept.txt"
# A report is not replaced by a later run unless asked to; refused before the run.
sum_before=$(cksum <"$work/r.json")
check_usage "run onto an existing report" "--force" run --dir "$target" --scenario passive --duration 1 --report "$work/r.json"
if [ "$(cksum <"$work/r.json")" = "$sum_before" ]; then ok "refused run left the report alone"
else fail "refused run changed the report"; fi
cp "$work/r.json" "$work/again.json"
out=$("$cli" run --dir "$target" --scenario passive --duration 1 --report "$work/again.json" --force 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(cksum <"$work/again.json")" != "$sum_before" ]; then ok "run --force replaces the report"
else fail "run --force: exit $rc: $out"; fi
expect_empty "runs with an existing report"

# --- without --report: a new name each time, never an existing report's -----------
# Every second of the next minute already has resprobe-STAMP.json and -2.json:
# runs within it take -3, -4 …, three of them at once too, and replace none.
data=$work/data
reports=$data/resprobe/reports
mkdir -p "$reports"
now=$(date +%s)
for s in $(seq 0 59); do
  stamp=$(date -d "@$((now + s))" +%Y%m%d-%H%M%S)
  echo keep >"$reports/resprobe-$stamp.json"
  echo keep >"$reports/resprobe-$stamp-2.json"
done
default_run() {
  XDG_DATA_HOME=$data "$cli" run --dir "$target" --scenario passive --duration 1 >"$work/default-$1" 2>&1
  echo $? >"$work/default-$1.rc"
}
for i in 1 2 3; do default_run "$i"; done
for i in 4 5 6; do default_run "$i" & done
wait
saved=""
for i in 1 2 3 4 5 6; do
  rc=$(cat "$work/default-$i.rc")
  path=$(sed -n 's/^Report saved to //p' "$work/default-$i")
  if [ "$rc" -eq 0 ] && [[ "$path" =~ ^"$reports"/resprobe-[0-9]{8}-[0-9]{6}-([3-9]|[1-9][0-9]+)\.json$ ]] &&
     "$cli" show "$path" >/dev/null 2>&1; then saved="$saved $path"
  else fail "default report $i: exit $rc, saved to «$path»: $(tail -3 "$work/default-$i")"; fi
done
if [ "$(tr ' ' '\n' <<<"$saved" | sed '/^$/d' | sort -u | wc -l)" -eq 6 ]; then
  ok "six runs without --report, three at once: six new names from -3 on"
else fail "runs without --report saved:$saved"; fi
if [ "$(grep -lx keep "$reports"/* | wc -l)" -eq 120 ] && [ "$(ls "$reports" | wc -l)" -eq 126 ]; then
  ok "no existing report replaced, no empty file left"
else fail "reports directory: $(ls -l "$reports" | grep -v ' 5 ')"; fi
expect_empty "runs without --report"

# --- a report that cannot be saved at the end is saved elsewhere --------------------
# run_during COMMAND VAR=VALUE… -- RUN-OPTIONS…: a passive run in the
# background with that environment; once it measures, COMMAND (a shell
# command) runs and the run is stopped with SIGTERM. Sets rc; the output is
# in $work/out-gone.
run_during() {
  local command=$1 pid
  local -a environment=()
  shift
  while [ "$1" != -- ]; do environment+=("$1"); shift; done
  shift
  # Not the last run's output: its "fsync time" would end the wait at once,
  # and the signal come before this run has its handlers.
  rm -f "$work/out-gone"
  env "${environment[@]}" "$cli" run --dir "$target" --scenario passive --duration 60 "$@" \
    >"$work/out-gone" 2>&1 &
  pid=$!
  wait_for "$work/out-gone" "fsync time" 60
  eval "$command"
  kill -TERM "$pid"; wait "$pid"; rc=$?
}
# run_losing DIR VAR=VALUE… -- RUN-OPTIONS…: run_during, DIR removed.
run_losing() {
  local dir=$1
  shift
  run_during "rmdir $(printf %q "$dir")" "$@"
}
# Its directory is there when the run starts (checked up front) and removed
# before the run ends: that fails as root too. The report goes to the default
# reports directory instead; exit 1, since the requested save failed.
mkdir "$work/gone"
run_losing "$work/gone" XDG_DATA_HOME="$work/fallback-data" TMPDIR="$work/fallback-tmp" -- \
  --report "$work/gone/r.json"
path=$(sed -n 's/^The report was saved to \(.*\) instead\.$/\1/p' "$work/out-gone")
if [ "$rc" -eq 1 ] && grep -q "Cannot save the report to “$work/gone/r.json”" "$work/out-gone" &&
   [[ "$path" == "$work/fallback-data/resprobe/reports/resprobe-"*.json ]] &&
   [ "$("$cli" show "$path" 2>/dev/null | grep -c '^fsync time: ')" -ge 1 ]; then
  ok "report saved elsewhere when its directory went away (exit 1: $path)"
else fail "fallback: exit $rc, «$path»: $(tail -4 "$work/out-gone")"; fi
# When the default reports directory cannot be used either, the temporary one.
mkdir "$work/gone" "$work/fallback-tmp"
run_losing "$work/gone" XDG_DATA_HOME="$work/plain-file/data" TMPDIR="$work/fallback-tmp" -- \
  --report "$work/gone/r.json"
if [ "$rc" -eq 1 ] && grep -q "plain-file/data/resprobe/reports”: Not a directory" "$work/out-gone" &&
   grep -q "^The report was saved to $work/fallback-tmp/resprobe-.*\.json instead\.$" "$work/out-gone" &&
   [ "$(ls "$work/fallback-tmp" | wc -l)" -eq 1 ]; then ok "report saved in the temporary directory as the last resort"
else fail "fallback to TMPDIR: exit $rc: $(tail -4 "$work/out-gone")"; fi
# Without --report, a reports directory removed during the run is not tried
# again: the report goes to the temporary directory.
rm -f "$work/fallback-tmp"/*
run_losing "$work/data2/resprobe/reports" XDG_DATA_HOME="$work/data2" TMPDIR="$work/fallback-tmp" --
if [ "$rc" -eq 1 ] && grep -q "data2/resprobe/reports”: No such file or directory" "$work/out-gone" &&
   grep -q "^The report was saved to $work/fallback-tmp/resprobe-.*\.json instead\.$" "$work/out-gone" &&
   [ ! -e "$work/data2/resprobe/reports" ]; then ok "default reports directory removed: report in the temporary directory"
else fail "default reports directory removed: exit $rc: $(tail -4 "$work/out-gone")"; fi
# Every place failing: each error said, and that the report is lost.
mkdir "$work/gone"
run_losing "$work/gone" XDG_DATA_HOME="$work/plain-file/data" TMPDIR="$work/plain-file/tmp" -- \
  --report "$work/gone/r.json"
if [ "$rc" -eq 1 ] && grep -q "Cannot save the report to “$work/gone/r.json”" "$work/out-gone" &&
   grep -q "plain-file/data/resprobe/reports”: Not a directory" "$work/out-gone" &&
   grep -q "plain-file/tmp”: Not a directory" "$work/out-gone" &&
   grep -q "could not be saved anywhere" "$work/out-gone"; then ok "every save failing: each error said (exit 1)"
else fail "no place to save: exit $rc: $(tail -5 "$work/out-gone")"; fi
# A --report file that someone created during the run is not replaced
# (refused before the run, it is not replaced after it either): the report
# goes to the reports directory, exit 1.
rm -rf "$work/fallback-data"
run_during 'echo "user data" >"$work/late.json"' XDG_DATA_HOME="$work/fallback-data" -- --report "$work/late.json"
path=$(sed -n 's/^The report was saved to \(.*\) instead\.$/\1/p' "$work/out-gone")
if [ "$rc" -eq 1 ] && [ "$(cat "$work/late.json")" = "user data" ] &&
   grep -q -- "--report: “$work/late.json” appeared during the run; not replaced" "$work/out-gone" &&
   [[ "$path" == "$work/fallback-data/resprobe/reports/resprobe-"*.json ]] &&
   "$cli" show "$path" >/dev/null 2>&1 && ! grep -q "^Report saved to" "$work/out-gone"; then
  ok "a --report file that appeared during the run is kept; report elsewhere (exit 1: $path)"
else fail "--report appeared during the run: exit $rc, $(cat "$work/late.json"): $(tail -4 "$work/out-gone")"; fi
# Two runs with the same --report: the first to end saves there, the other
# elsewhere. With escapes in the names, as every name the CLI prints.
rm -rf "$work/fallback-data"
twice=$work/twice${esc}.json
pids=()
for i in 1 2; do
  XDG_DATA_HOME="$work/fallback${esc}data" "$cli" run --dir "$target" --scenario passive --duration 2 \
    --report "$twice" >"$work/twice-$i" 2>&1 &
  pids+=($!)
done
wait "${pids[0]}"; rc1=$?; wait "${pids[1]}"; rc2=$?
saved=$(cat "$work/twice-1" "$work/twice-2")
if [ "$((rc1 + rc2))" -eq 1 ] && [ "$(grep -c "^Report saved to $work/twice .*\.json$" <<<"$saved")" -eq 1 ] &&
   grep -q "appeared during the run; not replaced" <<<"$saved" &&
   "$cli" show "$twice" >/dev/null 2>&1 &&
   [ "$(ls "$work/fallback${esc}data/resprobe/reports" | wc -l)" -eq 1 ]; then
  ok "two runs with one --report: one saved there, one elsewhere (exit $rc1 and $rc2)"
else fail "two runs with one --report: exit $rc1 and $rc2: $(cat -v <<<"$saved" | grep -v "^fsync\|^#")"; fi
clean_output "runs saving to names with escapes" "$saved"
rm -rf "$twice" "$work/fallback${esc}data" "$work/late.json"
expect_empty "report saved elsewhere"

out=$("$cli" show "$work/r.json" 2>&1); rc=$?
shown=$(grep -cE '^fsync time: [0-9]+\.[0-9]{4}$' <<<"$out")
if [ "$rc" -eq 0 ] && [ "$shown" -eq "$lines" ]; then ok "show prints the $shown fsync-tester lines"
else fail "show: exit $rc, $shown of $lines fsync lines"; fi
check_text "show" "$out"
if grep -qF 'fsync probe 1.0 MiB every' <<<"$out"; then ok "show: grep '1.0 MiB' finds the probe size"
else fail "show: no '1.0 MiB' with a plain space"; fi
check_text "sysinfo" "$("$cli" sysinfo "$target" 2>&1)"
check_text "scenarios" "$("$cli" scenarios 2>&1)"
printf '{"format" : "resprobe-report", "version" : 1, "series" : {' >"$work/truncated.json"
echo "not json" >"$work/garbage.json"
check_usage "show of a truncated report" "truncated.json" show "$work/truncated.json"
check_usage "show without a file" "show" show

out=$("$cli" compare "$work/r.json" "$work/r3.json" 2>&1); rc=$?
# A long path wraps after a '/': joined again, the list names the files.
if [ "$rc" -eq 0 ] && grep -q "Comparison of 2 reports" <<<"$out" && grep -q "fsync p50" <<<"$out" &&
   grep -q "File system" <<<"$out" && sed -z 's|/\n *|/|g; s|:\n *|: |g' <<<"$out" | grep -q "Run 2: $work/r3.json"; then
  ok "compare prints a table of 2 runs"; else fail "compare: exit $rc: $out"; fi
check_text "compare" "$out"
# A bad report is named even when its name is a word of the message ("2").
(cd "$work" && printf '{"x":\n' >2 && "$cli" compare r.json 2 >"$work/out-named" 2>&1); rc=$?
if [ "$rc" -eq 2 ] && grep -qF "resprobe-cli: Cannot read the report “$work/2”: The report is not valid JSON" "$work/out-named"
then ok "a bad report called 2 is named by its full path"
else fail "bad report called 2: exit $rc: $(cat "$work/out-named")"; fi
rm -f "$work/2"
# A line feed in a name prints no line of its own.
out=$("$cli" export "$work/r.json" -o "$work/a"$'\n'"Report saved to fake.txt" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && [ "$(wc -l <<<"$out")" -eq 1 ] && ! grep -q "^Report saved to fake" <<<"$out"; then
  ok "a name with a line feed stays on one line: $out"
else fail "a name with a line feed: exit $rc: $out"; fi
rm -f "$work/a"$'\n'"Report saved to fake.txt"
# Standard output that cannot be written is a failure, not a 0.
"$cli" show "$work/r.json" >/dev/full 2>"$work/out-full"; rc=$?
if [ "$rc" -eq 1 ] && grep -q "standard output" "$work/out-full"; then ok "show into a full disk fails (exit 1)"
else fail "show > /dev/full: exit $rc: $(cat "$work/out-full")"; fi
out=$("$cli" compare "$work/r.json" "$work/../$(basename "$work")/r.json" 2>&1); rc=$?
# (The note may wrap onto a line of its own: joined again.)
if [ "$rc" -eq 0 ] && tr '\n' ' ' <<<"$out" | tr -s ' ' | grep -q "(the same file as run 1)"; then
  ok "compare says a file given twice is the same run"
else fail "compare of a file with itself: exit $rc: $out"; fi
# Five runs of two configurations: repeats share a column, each line within 80 bytes.
out=$("$cli" compare "$work/r.json" "$work/r3.json" "$work/r.json" "$work/r3.json" "$work/r.json" 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -qE '^ +Runs 1, 3, 5 +Runs 2, 4$' <<<"$out"; then ok "compare of five runs: two columns of repeats"
else fail "compare of five: exit $rc: $out"; fi
check_text "compare of five" "$out"
# Recorded fixtures (tests/fixtures/judge): R1 on ext3, 3 runs of data=ordered
# and 3 of data=writeback: fsync p99 differs significantly (issue 17), by its
# intervals over the runs (the Mann-Whitney p-value is the median's).
fixtures=$(dirname "$0")/fixtures/judge
out=$("$cli" compare "$fixtures"/ext3-ordered-{1,2,3}.json "$fixtures"/ext3-writeback-{1,2,3}.json 2>&1); rc=$?
if [ "$rc" -eq 0 ] && grep -qE '^  fsync p99 +10\.[0-9]+ s \[' <<<"$out" &&
   grep -A1 '^  fsync p99' <<<"$out" | grep -qF '(-99 %, significant)' &&
   grep -A1 '^  fsync p50' <<<"$out" | grep -qF '(-97 %, p<0.001)'; then
  ok "compare of ordered vs writeback: fsync p99 significant"
else fail "compare of ordered vs writeback: exit $rc: $out"; fi
check_text "compare of repeats" "$out"
check_usage "compare of one report" "2 to 32" compare "$work/r.json"
check_usage "compare of 33 reports" "got 33" compare $(for i in $(seq 33); do echo "$work/r.json"; done)
check_usage "compare with a garbage file" "garbage.json" compare "$work/r.json" "$work/garbage.json"
check_usage "compare with a missing file" "nope.json" compare "$work/r.json" "$work/nope.json"
# An empty argument is not the current folder ("Cannot read the report
# “/home/me”: Is a directory"): the message says which argument is empty.
check_usage "compare with an empty argument" "Report argument 2 of 2 is empty (“”)" compare "$work/r.json" ""
check_usage "export of an empty argument" "The report argument is empty (“”)" export "" -o "$work/empty.pdf"
check_usage "show of an empty argument" "The report argument is empty (“”)" show ""
if [ ! -e "$work/empty.pdf" ]; then ok "export of an empty argument writes nothing"
else fail "export of an empty argument wrote $work/empty.pdf"; fi
if "$cli" compare "$work/r.json" "" 2>&1 | grep -q "Is a directory"; then fail "compare of '': names a directory"
else ok "compare of '': names no directory"; fi
rm -rf "$exp"

# --- signals: stop within about a second, summary and report all the same ---------
# SIGHUP (terminal closed, ssh dropped) too. Should this script run under nohup,
# the CLI would inherit SIGHUP ignored (as it should: see below), and bash cannot
# undo that: python3 sets SIGHUP back to its default before it runs the CLI.
# (SIGPIPE too, which python3 ignores.) An array, not a function: $! is then
# the CLI's own pid.
sighup_default=(python3 -c 'import os, signal, sys
signal.signal(signal.SIGHUP, signal.SIG_DFL)
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])')
for sig in INT TERM HUP; do
  "${sighup_default[@]}" "$cli" run --dir "$target" --size 2G --duration 60 --report "$work/sig-$sig.json" >"$work/out-$sig" 2>&1 &
  pid=$!
  # Running, not merely started: its files open and a first fsync timed.
  wait_for_open "$pid" "$target" 60 && wait_for "$work/out-$sig" "fsync time:" 60 ||
    fail "SIG$sig: the run did not start: $(tail -5 "$work/out-$sig")"
  start=$(date +%s.%N)
  kill -"$sig" "$pid"
  wait "$pid"; rc=$?
  took=$(echo "$(date +%s.%N) - $start" | bc)
  # Exit 3, as matrix: stopped by the user; the report saved and marked so.
  if [ "$rc" -eq 3 ] && [ -s "$work/sig-$sig.json" ] && grep -q "Summary" "$work/out-$sig" &&
     grep -q '"ended_by" *: *"stopped"' "$work/sig-$sig.json"; then
    ok "SIG$sig: stopped in ${took}s with a summary and a report marked stopped (exit 3)"
  else
    fail "SIG$sig: exit $rc, report $(ls -l "$work/sig-$sig.json" 2>&1): $(tail -5 "$work/out-$sig")"
  fi
  # A bound that catches a run that ignores the signal (it would go on for
  # 60 s), not a speed test: under other disk load closing the writer's file
  # alone has taken over 3 s on the shared test machine.
  if [ "$(echo "$took < 15.0" | bc)" -eq 1 ]; then ok "SIG$sig: exit within 15 s"; else fail "SIG$sig took ${took}s"; fi
  expect_empty "SIG$sig"
done

# Under nohup the run goes on after SIGHUP; SIGTERM still stops it.
( trap '' HUP; exec "$cli" run --dir "$target" --scenario passive --duration 60 \
    --report "$work/nohup.json" ) >"$work/out-nohup" 2>&1 &
pid=$!
wait_for "$work/out-nohup" "fsync time" 60
kill -HUP "$pid"; sleep 1.5
if kill -0 "$pid" 2>/dev/null; then ok "SIGHUP ignored (nohup): the run goes on"
else fail "SIGHUP ignored (nohup): the run ended: $(tail -3 "$work/out-nohup")"; fi
kill -TERM "$pid"; wait "$pid"; rc=$?
if [ "$rc" -eq 3 ] && [ -s "$work/nohup.json" ]; then ok "nohup run: SIGTERM stops it with a report (exit 3)"
else fail "nohup run: exit $rc: $(tail -3 "$work/out-nohup")"; fi
expect_empty "nohup"

# --- kill -9: O_TMPFILE files vanish with the process ------------------------------
"$cli" run --dir "$target" --size 2G --duration 60 --report "$work/k.json" >/dev/null 2>&1 &
pid=$!
# Killed while its files are open in the target, not before it made them.
if wait_for_open "$pid" "$target" 60; then ok "kill -9: the run has its files open in the target"
else fail "kill -9: the run opened no file in the target"; fi
kill -9 "$pid"; wait "$pid" 2>/dev/null
expect_empty "kill -9"
if [ ! -e "$work/k.json" ]; then ok "kill -9: no half-written report"; else fail "kill -9 left a report"; fi

# Folders cannot be O_TMPFILE: kill -9 of a run with the save probe and the
# small-files load leaves theirs; the next run in that target removes them
# (named with the dead run's PID and start time) and says so.
"$cli" run --dir "$target" --load small-files --file-writers 1 --probe save --save-interval 0.1 \
  --duration 60 --report "$work/k.json" >"$work/out-k9" 2>&1 &
pid=$!
deadline=$(( $(date +%s) + 60 ))
until [ -n "$(ls -d "$target"/resprobe-save-* 2>/dev/null)" ] && [ -n "$(ls -d "$target"/resprobe-files-* 2>/dev/null)" ]; do
  [ "$(date +%s)" -lt "$deadline" ] || break
  sleep 0.05
done
kill -9 "$pid"; wait "$pid" 2>/dev/null
left=$(cd "$target" && ls -d resprobe-save-* resprobe-files-* 2>/dev/null | tr '\n' ' ')
if [ -n "$left" ]; then ok "kill -9 with folders: left $left"; else fail "kill -9 with folders: none made"; fi
"$cli" run --dir "$target" --scenario passive --duration 1 --report "$work/k2.json" >"$work/out-k9" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && grep -q "Removed what killed runs left in the target:" "$work/out-k9" &&
   ( for f in $left; do grep -qF "$f" "$work/out-k9" || exit 1; done ); then
  ok "the next run removed the dead run's folders and said so"
else fail "leftovers: exit $rc: $(grep -i removed "$work/out-k9") $(tail -3 "$work/out-k9")"; fi
expect_empty "the run after kill -9"
rm -f "$work/k2.json"

# --- run --repeat: a report per run, naming its configuration and repeat ------------
check_usage "repeat 0" "--repeat" run --dir "$target" --repeat 0
check_usage "repeat too many" "--repeat" run --dir "$target" --repeat 101
"$cli" run --dir "$target" --size 8M --duration 1 --repeat 2 --report "$work/rep.json" >"$work/out-rep" 2>&1
rc=$?
if [ "$rc" -eq 0 ] && [ ! -e "$work/rep.json" ] && python3 - "$work/rep-r1.json" "$work/rep-r2.json" <<'PY'
import json, sys
for i, path in enumerate(sys.argv[1:]):
    c = json.load(open(path))["configuration"]
    assert (c["key"], c["repeat"], c["repeats"]) == ("R1", i + 1, 2), c
PY
then ok "run --repeat 2: rep-r1.json and rep-r2.json, each naming its repeat"
else fail "run --repeat 2: exit $rc: $(tail -5 "$work/out-rep"; ls "$work")"; fi
# One configuration: both runs share one column of the comparison.
if grep -q "^Run 2 of 2$" "$work/out-rep" && grep -q "^One configuration: 2 runs$" "$work/out-rep" &&
   ! grep -q "^Comparison of" "$work/out-rep" &&
   grep -qE "^ +Runs 1, 2$" "$work/out-rep"; then ok "run --repeat 2: the comparison over both runs, one column"
else fail "run --repeat 2: table: $(tail -12 "$work/out-rep")"; fi
expect_empty "run --repeat"

# The command load's times are compared too (issue 17: command timing): two
# runs of one command, one configuration with its wall and CPU times.
for i in 1 2; do
  "$cli" run --dir "$target" --load command --probe fsync --duration 1 --report "$work/cmd$i.json" \
    -- sh -c 'sleep 0.2' >/dev/null 2>&1
done
out=$("$cli" compare "$work/cmd1.json" "$work/cmd2.json" 2>&1)
rc=$?
if [ "$rc" -eq 0 ] && grep -qE "^  Command wall time +[0-9]" <<<"$out" && grep -q "Command user CPU" <<<"$out"; then
  ok "compare: the command's wall and CPU times"
else fail "compare: command times: exit $rc: $out"; fi

# --- --load-dir (issue 20): the loads in a folder of their own, the probes in --dir -----
check_usage "a missing --load-dir" "Load directory (--load-dir)" run --dir "$target" --load-dir "$work/nope" --duration 1
loads="$work/loads"
mkdir -p "$loads"
"$cli" run --scenario R6 --dir "$target" --load-dir "$loads" --size 8M --duration 3 \
  --report "$work/load-dir.json" >"$work/load-dir.out" 2>&1 &
pid=$!
if wait_for_open "$pid" "$loads" 60 && wait_for_open "$pid" "$target" 60; then
  ok "run --load-dir: files open in the load folder and in --dir while it runs"
else fail "run --load-dir: not both folders in use: $(tail -3 "$work/load-dir.out")"; fi
wait "$pid"; rc=$?
if [ "$rc" -eq 0 ] && python3 - "$work/load-dir.json" "$(readlink -f "$loads")" "$(readlink -f "$target")" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
loads, target = sys.argv[2:4]
sc, s = r["scenario"], r["system"]
assert (sc["name"], sc["load_directory"], sc["directory"]) == ("R6", loads, target), sc
assert (s["load_directory"], s["target_directory"]) == (loads, target), s
assert s["load_fs_type"] and s["bdi_max_ratio"] is not None, s
assert int(r["notes"]["writer_bytes_total"]) == 8 * 2**20, r["notes"]
assert r["summary"]["fsync_latency"]["n"] >= 1, r["summary"]["fsync_latency"]
PY
then ok "run --load-dir: the report names both folders, the writer wrote 8 MiB, fsync measured"
else fail "run --load-dir: exit $rc $(tail -3 "$work/load-dir.out")"; fi
if grep -qF "Load directory: $(readlink -f "$loads")" "$work/load-dir.out" && [ -z "$(ls -A "$loads")" ]; then
  ok "run --load-dir: the header names the load folder; nothing left in it"
else fail "run --load-dir: header or leftovers: $(ls -A "$loads") $(head -30 "$work/load-dir.out")"; fi
expect_empty "run --load-dir"

# Run from the build directory, the CLI speaks the user's language without
# RESPROBE_LOCALEDIR or an installation (the trial saw German users get
# English from the README's commands): its catalogues are the build's po/.
out=$(env -u RESPROBE_LOCALEDIR LANGUAGE=de LC_ALL=de_DE.UTF-8 "$cli" run --duration abc 2>&1)
if grep -q "ist keine Dauer" <<<"$out"; then ok "the build tree's CLI is translated without RESPROBE_LOCALEDIR"
else fail "build tree's CLI in German: $out"; fi

echo "1..$n"
[ "$failures" -eq 0 ]
