#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-icons.sh SOURCE_ROOT: the application icons render, and stay legible small:
# - the full-colour icon renders at 16, 32 and 128 px and covers at least a third of
#   the 16 px square (a thin drawing would vanish in a launcher or a window list);
# - the symbolic icon renders at 16 px, covers a fair share of it, and uses only one
#   colour, which GTK recolours to the theme's foreground.
set -uo pipefail

root=${1:-$(dirname "$0")/..}
app_id=io.github.resprobe.Resprobe
icon="$root/data/icons/hicolor/scalable/apps/$app_id.svg"
symbolic="$root/data/icons/hicolor/symbolic/apps/$app_id-symbolic.svg"
for tool in rsvg-convert convert; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: $tool is not installed: build-aux/install-deps.sh installs it"
    exit 1
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/test-icons-XXXXXX")
trap 'rm -rf "$work"' EXIT
failures=0
check () {
  if eval "$1"; then echo "ok: $2"; else echo "FAIL: $2"; failures=$((failures + 1)); fi
}

# Share of the square that is opaque, 0..1.
coverage () {
  convert "$1" -alpha extract -format '%[fx:mean]' info:
}

for size in 16 32 128; do
  check "rsvg-convert -w $size -h $size '$icon' -o '$work/icon-$size.png' 2>/dev/null" "the icon renders at $size px"
done
c=$(coverage "$work/icon-16.png")
check "awk 'BEGIN { exit !($c >= 0.33) }'" "the 16 px icon covers at least a third of its square ($c)"
size=$(identify -format '%w %h' "$icon" 2>/dev/null)
check "[ '$size' = '128 128' ]" "the icon is drawn on a 128 px canvas ($size)"

check "rsvg-convert -w 16 -h 16 '$symbolic' -o '$work/symbolic.png' 2>/dev/null" "the symbolic icon renders at 16 px"
c=$(coverage "$work/symbolic.png")
check "awk 'BEGIN { exit !($c >= 0.15) }'" "the symbolic icon covers a fair share of its square ($c)"
colours=$(grep -oiE '#[0-9a-f]{6}\b|#[0-9a-f]{3}\b' "$symbolic" | tr 'A-F' 'a-f' | sort -u | tr '\n' ' ')
check "[ \$(echo '$colours' | wc -w) -eq 1 ]" "the symbolic icon uses a single colour ($colours)"
check "! grep -qi 'gradient' '$symbolic'" "the symbolic icon has no gradient"

[ "$failures" -eq 0 ] || { echo "$failures failures"; exit 1; }
