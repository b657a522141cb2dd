#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-mime.sh MIME_XML DESKTOP METAINFO: report files have a MIME type of their own,
# and the desktop opens them with resprobe:
# - update-mime-database accepts the built shared-mime-info file without a warning;
# - a report as resprobe-cli saves it (resprobe-DATE-TIME.json, what the program
#   names them) is that type by its content, other JSON stays application/json,
#   and a *.resprobe.json name is that type by its name alone;
# - the desktop entry lists the type in MimeType= and passes files (Exec=… %F),
#   and the metainfo provides the type as a mediatype.
set -uo pipefail

mime_xml=${1:?usage: test-mime.sh MIME_XML DESKTOP METAINFO}
desktop=${2:?}
metainfo=${3:?}
cli=${RESPROBE_CLI:?RESPROBE_CLI must name resprobe-cli}
for tool in update-mime-database gio; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is not installed (shared-mime-info, libglib2.0-bin): build-aux/install-deps.sh installs it"
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/test-mime-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
ok () { echo "ok: $*"; }
fail () { echo "FAIL: $*"; failures=$((failures + 1)); }

type=$(sed -n 's/.*<mime-type type="\([^"]*\)".*/\1/p' "$mime_xml")
[ -n "$type" ] && ok "the MIME type is $type" || fail "no <mime-type type=…> in $mime_xml"

mkdir -p "$work/share/mime/packages"
cp "$mime_xml" "$work/share/mime/packages/"
if update-mime-database -V "$work/share/mime" >"$work/update.log" 2>&1 &&
   ! grep -qiE "warning|error|invalid|unknown" "$work/update.log"; then
  ok "update-mime-database accepts it"
else
  fail "update-mime-database: $(cat "$work/update.log")"
fi

# A real report, as the CLI writes it: the magic must match our writer's output.
mkdir "$work/dir" "$work/files"
if ! "$cli" run --scenario passive --probe fsync --duration 1 --dir "$work/dir" \
     --report "$work/files/resprobe-20240501-100000.json" >"$work/run.log" 2>&1; then
  fail "resprobe-cli run: $(cat "$work/run.log")"
fi
cp "$work/files/resprobe-20240501-100000.json" "$work/files/run.resprobe.json"
echo '{ "format" : "something-else", "version" : 1 }' >"$work/files/resprobe-notes.json"

content_type () {
  XDG_DATA_HOME="$work/share" XDG_DATA_DIRS=/usr/local/share:/usr/share \
    gio info -a "standard::$1" "$2" 2>/dev/null | sed -n "s/^ *standard::$1: //p"
}
got=$(content_type content-type "$work/files/resprobe-20240501-100000.json")
[ "$got" = "$type" ] && ok "a saved report is $type by its content" ||
  fail "a saved report is “$got”, not $type"
got=$(content_type content-type "$work/files/resprobe-notes.json")
[ "$got" = "application/json" ] && ok "other JSON stays application/json" ||
  fail "other JSON is “$got”"
got=$(content_type fast-content-type "$work/files/run.resprobe.json")
[ "$got" = "$type" ] && ok "*.resprobe.json is $type by its name" ||
  fail "run.resprobe.json is “$got” by its name"

grep -qx "MimeType=\(.*;\)\?$type;\(.*\)\?" "$desktop" && ok "the desktop entry lists $type" ||
  fail "the desktop entry lacks MimeType=$type; ($(grep '^MimeType=' "$desktop"))"
grep -qE '^Exec=[^ ]+ .*%[FU]' "$desktop" && ok "the desktop entry passes files ($(grep '^Exec=' "$desktop"))" ||
  fail "the desktop entry's Exec takes no files ($(grep '^Exec=' "$desktop"))"
grep -q "<mediatype>$type</mediatype>" "$metainfo" && ok "the metainfo provides the mediatype" ||
  fail "the metainfo lacks <mediatype>$type</mediatype>"

[ "$failures" -eq 0 ]
