#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-po.sh SOURCE_ROOT: every translation in po/LINGUAS is complete and well formed:
# - msgfmt --check --statistics: valid, every message translated, none fuzzy;
# - the Plural-Forms header is the standard one of its language (the plural
#   msgstr[] entries are checked against it by msgfmt --check);
# - msgcmp against a template extracted afresh from the files in po/POTFILES.in:
#   no source string lacks a translation (po/resprobe.pot may be older than the
#   sources; run `meson compile -C _build resprobe-pot resprobe-update-po`).
set -uo pipefail

root=${1:-$(dirname "$0")/..}
po="$root/po"
for tool in msgfmt msgcmp msgcat xgettext; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is not installed (gettext): build-aux/install-deps.sh installs it"
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/test-po-XXXXXX")
trap 'rm -rf "$work"' EXIT

# The same keywords as meson's 'glib' preset (the msgids are what matters here).
(cd "$root" && xgettext --from-code=UTF-8 --package-name=resprobe -f po/POTFILES.in \
   --keyword=_ --keyword=N_ --keyword=C_:1c,2 --keyword=NC_:1c,2 \
   --keyword=g_dngettext:2,3 --keyword=g_dpgettext2:2c,3 \
   -o "$work/fresh.pot" 2>"$work/xgettext.err")
if [ ! -s "$work/fresh.pot" ]; then
  echo "FAIL: xgettext could not extract the strings:"
  cat "$work/xgettext.err"
  exit 1
fi
echo "$(( $(grep -c "^msgid " "$work/fresh.pot") - 1 )) messages in the sources"

failures=0
fail () {
  echo "FAIL: $*"
  failures=$((failures + 1))
}

expected_plural () {
  case "$1" in
    de) echo 'nplurals=2; plural=(n != 1);' ;;
    pt_BR) echo 'nplurals=2; plural=(n > 1);' ;;
    ru) echo 'nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);' ;;
    pl) echo 'nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);' ;;
    *) echo '' ;;
  esac
}

languages=$(grep -v '^#' "$po/LINGUAS" | tr -s ' \n' '\n' | grep -v '^$')
[ -n "$languages" ] || fail "po/LINGUAS lists no language"
for lang in $languages; do
  file="$po/$lang.po"
  if [ ! -f "$file" ]; then
    fail "$lang: po/$lang.po is missing"
    continue
  fi
  stats=$(LC_ALL=C msgfmt --check --statistics -o /dev/null "$file" 2>&1)
  status=$?
  echo "$lang: $stats"
  [ "$status" -eq 0 ] || fail "$lang: msgfmt --check failed"
  echo "$stats" | grep -Eq '^[0-9]+ translated messages?\.$' ||
    fail "$lang: not every message is translated, or some are fuzzy"

  # msgcat --no-wrap joins the header lines that msgmerge wraps.
  header=$(msgcat --no-wrap "$file" | sed -n 's/^"Plural-Forms: *\(.*\)\\n"$/\1/p' | head -n1)
  want=$(expected_plural "$lang")
  if [ -z "$want" ]; then
    fail "$lang: this test does not know its plural rule; add it to expected_plural"
  elif [ "$(echo "$header" | tr -d ' ')" != "$(echo "$want" | tr -d ' ')" ]; then
    fail "$lang: Plural-Forms is '$header', expected '$want'"
  fi
  grep -q "^\"Language: $lang\\\\n\"$" "$file" || fail "$lang: the Language header is not $lang"

  if ! LC_ALL=C msgcmp "$file" "$work/fresh.pot" >"$work/msgcmp.out" 2>&1; then
    fail "$lang: strings of the sources are not translated (update the pot and the .po):"
    grep -E 'not defined|msgid' "$work/msgcmp.out" | head -n 20
  fi
done

# One German term for dirty memory in every label (issue 21: "Dirty Spitze"
# beside "Grenze für schmutzigen Speicher Spitze" in one comparison chart):
# "Dirty-Speicher", "Dirty-Grenze", "Dirty-Seiten", as the kernel's sysctls
# and German tech writing say it.
if [ -f "$root/po/de.po" ] && grep -n '^msgstr.*[Ss]chmutzig' "$root/po/de.po"; then
  fail "de: 'schmutzig…' beside 'Dirty-…': use one term for dirty memory"
fi

if [ "$failures" -gt 0 ]; then
  echo "$failures failures"
  exit 1
fi
echo "all translations complete"
