#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-readme.sh SOURCE_ROOT user|root: every command block of README.md runs
# as written (issue 35, acceptance 3), in order, in one fresh folder, against
# this build's programs, with a home of its own (a new user's: no settings, no
# reports). A block is a fenced ```sh block; each runs in `bash -e -o
# pipefail`, so every command in it must exit 0, and must leave no process
# behind (the monitor example starts one and stops it).
#   user  the blocks for anyone (suite cli); a block whose first line is
#         "# as root" is left to the root part (a TAP comment says so);
#   root  the "# as root" blocks (suite root: they attach loop devices), a
#         skip with a reason when not root.
# A block the test must not run is marked on the line right above it, with the
# reason beside the mark, as an HTML comment (invisible on the rendered page):
#   <!-- test-readme: not run: REASON -->
# Also checked: the README is a landing page of at most 150 lines, and every
# link to a file of the tree resolves. As root the blocks run in a network
# namespace of their own, so that the monitor's port is not another's (a
# monitor unit or a second test run on the machine).
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${1:-$here/..}" && pwd)
part=${2:-user}
readme=$root/README.md
cli=${RESPROBE_CLI:?RESPROBE_CLI must point at resprobe-cli}

failures=0; n=0
tap() { local line="$*"; echo "${line//$'\n'/ | }"; }
ok()   { n=$((n + 1)); tap "ok $n - $*"; }
fail() { n=$((n + 1)); tap "not ok $n - $*"; failures=$((failures + 1)); }

if [ "$part" = root ] && [ "$(id -u)" -ne 0 ]; then
  echo "1..0 # SKIP the README's \"# as root\" blocks need root (loop devices, mounts)"
  exit 0
fi

work=$(mktemp -d "${G_TEST_BUILDDIR:-/var/tmp}/readme-$part-XXXXXX")
block_pid=""
cleanup() {
  # A block still running (interrupted, or meson's timeout): its whole session.
  [ -n "$block_pid" ] && kill -KILL -- "-$block_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# --- The page itself ----------------------------------------------------------
if [ "$part" = user ]; then
  lines=$(wc -l <"$readme")
  [ "$lines" -le 150 ] && ok "README.md has $lines lines (a landing page: at most 150)" ||
    fail "README.md has $lines lines, more than the 150 of a landing page"
  # Links and images to files of the tree: [text](path) and ![alt](path).
  broken=""
  while read -r target; do
    target=${target%%#*}
    [ -z "$target" ] && continue
    [ -e "$root/$target" ] || broken="$broken $target"
  done < <(grep -oE '\]\([^)]+\)' "$readme" | sed -E 's/^\]\(//; s/\)$//' | grep -vE '^[a-z]+:')
  [ -z "$broken" ] && ok "every link of README.md to a file of the tree resolves" || fail "broken links in README.md:$broken"
fi

# --- The blocks ---------------------------------------------------------------
# Split into $work/blocks/N.sh, with N.line (where it starts), N.mark (the
# reason it is not run, if marked) and N.lang; the last line of the awk
# output is the number of blocks.
mkdir -p "$work/blocks"
count=$(awk -v dir="$work/blocks" '
  /^```/ && !inside {
    inside = 1; n++; lang = substr($0, 4); gsub(/[ \t]/, "", lang)
    print lang > (dir "/" n ".lang"); close(dir "/" n ".lang")
    print NR + 1 > (dir "/" n ".line"); close(dir "/" n ".line")
    if (prev ~ /^<!-- test-readme: not run: .* -->$/) {
      reason = prev; sub(/^<!-- test-readme: not run: /, "", reason); sub(/ -->$/, "", reason)
      print reason > (dir "/" n ".mark"); close(dir "/" n ".mark")
    }
    printf "" > (dir "/" n ".sh")
    next
  }
  /^```/ && inside { inside = 0; close(dir "/" n ".sh"); next }
  inside { print >> (dir "/" n ".sh") }
  { prev = $0 }
  END { print n + 0 }' "$readme")
[ "$count" -gt 0 ] || fail "no command block found in README.md"

# This build's programs first on PATH, as the README's export line puts them;
# a new user's home and folders. The environment of meson's tests (settings in
# memory, the build's schemas) stays.
export PATH="$(dirname "$cli"):${RESPROBE_GUI:+$(dirname "$RESPROBE_GUI"):}$PATH"
export HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" XDG_CACHE_HOME="$work/home/.cache" \
  XDG_CONFIG_HOME="$work/home/.config"
mkdir -p "$HOME" "$work/cwd"

# run_block FILE LOG: the block in bash -e -o pipefail, in a session of its own
# (so that what it leaves behind can be found and ended), in $work/cwd; as root
# in a network namespace of its own with its loopback up. Returns the block's
# exit status; sets left to the processes still in its session after it.
run_block() {
  local file=$1 log=$2 status
  if [ "$(id -u)" -eq 0 ]; then
    (cd "$work/cwd" && exec setsid unshare --net -- bash -c 'ip link set lo up && exec bash -e -o pipefail "$0"' "$file") \
      >"$log" 2>&1 </dev/null &
  else
    (cd "$work/cwd" && exec setsid bash -e -o pipefail "$file") >"$log" 2>&1 </dev/null &
  fi
  block_pid=$!
  wait "$block_pid"; status=$?
  # What a block started and stopped (kill %1) may take a moment to end: its
  # session empties then. A hang guard, not a time limit: 60 s.
  left=""
  local deadline=$((SECONDS + 60))
  while left=$(pgrep -s "$block_pid" -a 2>/dev/null) && [ -n "$left" ] && [ "$SECONDS" -lt "$deadline" ]; do
    sleep 0.2
  done
  [ -n "$left" ] && kill -KILL -- "-$block_pid" 2>/dev/null
  block_pid=""
  return "$status"
}

for i in $(seq "$count"); do
  b=$work/blocks/$i
  line=$(cat "$b.line")
  lang=$(cat "$b.lang")
  first=$(grep -m1 -v '^[[:space:]]*$' "$b.sh")
  what="block $i (README.md:$line)"
  # The marks and the kinds of block are the user part's to check; neither
  # is a skip (CI, as root, skips nothing): a mark is checked to give a reason.
  if [ -f "$b.mark" ]; then
    if [ "$part" = user ]; then
      [ -n "$(tr -d '[:space:]' <"$b.mark")" ] && ok "$what is not run, as marked: $(cat "$b.mark")" ||
        fail "$what is marked not run without a reason"
    fi
    continue
  fi
  if [ "$lang" != sh ]; then
    [ "$part" = user ] &&
      fail "$what is a \`\`\`$lang block: a command block is \`\`\`sh, anything else is marked not run with a reason"
    continue
  fi
  if [ "$first" = "# as root" ]; then
    [ "$part" = root ] || { echo "# $what runs as root, in the test readme-root"; continue; }
  else
    [ "$part" = user ] || continue
  fi
  started=$(date +%s)
  if run_block "$b.sh" "$work/$i.log"; then
    if [ -z "$left" ]; then
      ok "$what ran, every command exit 0 ($(( $(date +%s) - started )) s): $(tr '\n' ';' <"$b.sh" | cut -c1-160)"
    else
      fail "$what left processes behind: $left"
    fi
  else
    fail "$what failed: $(tr '\n' ';' <"$b.sh" | cut -c1-160) | $(tail -n 15 "$work/$i.log")"
  fi
done

echo "1..$n"
[ "$failures" -eq 0 ]
