#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-help.sh SOURCE_ROOT BUILD_DIR: the user guide (help/, Mallard, shown by Yelp
# as help:resprobe) is complete and builds in every language:
# - every page validates against Mallard (yelp-check validate), every link and
#   figure resolves, every page is reachable from the index, page ids are file
#   names, every page names its licence;
# - help/meson.build installs every page of help/C and every figure, and every
#   figure is shown by a page;
# - every topic the window links (app.help-topic in app/gui/*.ui) is a page;
# - each language of help/LINGUAS has a valid LANG.po, and the build's translated
#   guide has every page, valid, with the translated title where there is one
#   (an untranslated string stays English, as Yelp shows it).
set -uo pipefail
root=$(cd "${1:?usage: test-help.sh SOURCE_ROOT BUILD_DIR}" && pwd)
build=$(cd "${2:?usage: test-help.sh SOURCE_ROOT BUILD_DIR}" && pwd)
help="$root/help"

n=0 failures=0
ok()   { n=$((n + 1)); echo "ok $n - $*"; }
fail() { n=$((n + 1)); echo "not ok $n - $*"; failures=$((failures + 1)); }
check() { local what=$1; shift; local out; if out=$("$@" 2>&1); then ok "$what"; else fail "$what: ${out//$'\n'/ | }"; fi; }

for tool in yelp-check msgfmt; do
  command -v "$tool" >/dev/null || { echo "not ok 1 - $tool is not installed: build-aux/install-deps.sh installs it"; echo "1..1"; exit 1; }
done

cd "$help/C" || exit 1
pages=(*.page)
check "every page validates (${#pages[@]} pages)" yelp-check validate "${pages[@]}"
for sub in links media orphans ids; do
  out=$(yelp-check "$sub" . 2>&1); rc=$?
  if [ $rc -eq 0 ] && [ -z "$out" ]; then ok "yelp-check $sub: nothing to report"; else fail "yelp-check $sub: ${out//$'\n'/ | }"; fi
done
unlicensed=$(yelp-check license . 2>&1 | grep -v ': gpl-3.0$')
[ -z "$unlicensed" ] && ok "every page names its licence (GPL 3.0)" || fail "pages without the licence: $unlicensed"

# What meson installs: every page and figure of help/C.
before=$failures
for page in "${pages[@]}" legal.xml; do
  grep -q "'$page'" "$help/meson.build" || fail "help/meson.build does not install $page"
done
[ "$failures" -gt "$before" ] || ok "help/meson.build lists every page"
before=$failures
for figure in figures/*; do
  grep -q "'$figure'" "$help/meson.build" || fail "help/meson.build does not install $figure"
  grep -q "src=\"$figure\"" "${pages[@]}" || fail "$figure is shown by no page"
  [ "$(head -c 8 "$figure" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || fail "$figure is not a PNG"
done
[ "$failures" -gt "$before" ] || ok "every figure is installed, shown and a PNG"

# The window's links to topics.
n_topics=0
for topic in $(grep -h -A1 "app.help-topic" "$root"/app/gui/*.ui | grep -o "'[a-z-]*'\|\"target\">[a-z-]*<" | sed "s/.*[>']\([a-z-]*\)['<]/\1/" | sort -u); do
  n_topics=$((n_topics + 1))
  [ -f "$topic.page" ] && ok "the window's topic $topic is a page" || fail "the window links help:resprobe/$topic, which is no page"
done
[ "$n_topics" -ge 3 ] || fail "the window links $n_topics topics (app.help-topic in app/gui/*.ui), expected at least 3"

# Translations.
while read -r lang; do
  case "$lang" in ''|'#'*) continue ;; esac
  po="$help/$lang/$lang.po"
  if ! msgfmt --check -o /dev/null "$po" 2>/dev/null; then fail "$lang: $po is missing or invalid"; continue; fi
  out="$build/help/$lang"
  missing=""
  for page in "${pages[@]}"; do [ -f "$out/$page" ] || missing="$missing $page"; done
  [ -z "$missing" ] || { fail "$lang: the build has no translated$missing (meson compile help-resprobe-$lang)"; continue; }
  pushd "$out" >/dev/null && check "$lang: the translated pages validate" yelp-check validate "${pages[@]}"
  popd >/dev/null || exit 1
  title=$(msgattrib --translated --no-wrap "$po" 2>/dev/null | grep -A1 '^msgid "Responsiveness Probe Help"$' | sed -n 's/^msgstr "\(.*\)"$/\1/p')
  if [ -n "$title" ]; then
    grep -qF "$title" "$out/index.page" && ok "$lang: the index is titled “$title”" || fail "$lang: the index does not carry the translated title “$title”"
  fi
done <"$help/LINGUAS"

echo "1..$n"
[ "$failures" -eq 0 ]
