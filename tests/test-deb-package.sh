#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-deb-package.sh SOURCE_ROOT (root, suite 'system'): the Debian packages as a user
# gets them (issue 35). Builds them once (build-aux/deb.sh with
# DEB_BUILD_OPTIONS="nocheck parallel=N": the project's own tests run elsewhere),
# checks the split, installs them with `apt-get install ./….deb` on this machine,
# and checks what a user meets:
# - resprobe-cli runs from PATH (a short run on a folder under the build folder),
#   its report reads back;
# - the installed desktop entry validates and `gio launch` of it opens the
#   installed window (/usr/bin/resprobe) under Xvfb;
# - `man resprobe-cli` and `man resprobe` open, the guide is there for Yelp in C
#   and translated, its figures resolve;
# - the schema is compiled, the icon cached, the entry in the desktop and MIME
#   databases, the monitor's units installed but not enabled;
# then `apt-get purge` and checks that nothing of the packages is left: no file
# `dpkg -L` listed, no file named after resprobe that was not there before the
# install, no unit state, no schema in gschemas.compiled, no icon in the
# hicolor cache, no entry in mimeinfo.cache or the MIME database, no dpkg record.
# Skips, saying why, when not root or when a resprobe package is installed
# already (it would be replaced and purged). One run at a time on a machine (a
# lock): two would install and purge the same packages under each other.
# Its time is mostly the build: printed as TAP comments.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "${1:-$here/..}" && pwd)
# shellcheck source=lib-root-tap.sh
. "$here/lib-root-tap.sh"

packages=(resprobe resprobe-cli resprobe-common)
app_id=io.github.resprobe.Resprobe
root_tap_begin deb-package "install and purge the Debian packages with apt-get" \
  "dpkg-dev debhelper lintian desktop-file-utils man-db xvfb xdotool imagemagick" \
  dpkg-buildpackage dh lintian apt-get desktop-file-validate gio man Xvfb xdotool import dbus-run-session
out=${G_TEST_BUILDDIR:-$work}
started=$(date +%s)
elapsed() { echo $(($(date +%s) - $1)); }

exec 9>/run/lock/resprobe-deb-package-test.lock
flock -w 3600 9 || { fail "another package test held the lock for an hour"; echo "1..$n"; exit 1; }

installed_ours() {
  local p
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${db:Status-Status}\n' "$p" 2>/dev/null | grep -qv '^not-installed$' && echo "$p"
  done
}
already=$(installed_ours | tr '\n' ' ')
if [ -n "$already" ]; then
  rm -rf "$work"
  echo "1..0 # SKIP the package(s) ${already% } are installed on this machine: this test would replace and purge them"
  exit 0
fi

apt_get() {
  DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=600 "$@"
}
# Whatever happens, the machine is left without the packages.
cleanup() {
  [ -n "$(installed_ours)" ] && apt_get purge "${packages[@]}" >/dev/null 2>&1
  [ -n "${lintian_pid:-}" ] && { kill "$lintian_pid" 2>/dev/null; wait "$lintian_pid" 2>/dev/null; }
  root_tap_cleanup
}
root_tap_on_exit cleanup

# --- Build ------------------------------------------------------------------
# RESPROBE_DEBS=DIR takes the packages build-aux/deb.sh made there instead (a
# second run by hand); CI builds them here.
t=$(date +%s)
if [ -n "${RESPROBE_DEBS:-}" ]; then
  mkdir -p "$work/deb" && cp "$RESPROBE_DEBS"/*.deb "$work/deb/"
  ok "the packages of $RESPROBE_DEBS (RESPROBE_DEBS)"
elif DEB_BUILD_OPTIONS="nocheck noddebs parallel=$(nproc)" RESPROBE_DEB_LINTIAN=0 \
     bash "$root/build-aux/deb.sh" "$work/deb" >"$work/build.log" 2>&1; then
  ok "build-aux/deb.sh built the packages"
else
  fail "build-aux/deb.sh failed: $(tail -n 15 "$work/build.log")"
  echo "1..$n"; exit 1
fi
echo "# build: $(elapsed "$t") s"
version=$(dpkg-parsechangelog -l "$root/debian/changelog" -S Version)
debs=()
for p in "${packages[@]}"; do
  deb=$(ls "$work"/deb/"${p}"_"${version}"_*.deb 2>/dev/null)
  if [ -f "$deb" ]; then debs+=("$deb"); else fail "no $p ${version} .deb"; fi
done
[ ${#debs[@]} -eq 3 ] || { echo "1..$n"; exit 1; }

# The split: each package has what it is for, and nothing of the others.
# Listed once into a file: grep -q on a pipe would stop dpkg-deb early (SIGPIPE,
# a failure under pipefail).
for p in "${packages[@]}"; do
  dpkg-deb -c "$work/deb/${p}_${version}_"*.deb | awk '{print $6}' | sed 's|^\./|/|' >"$work/contents-$p"
done
contents() { cat "$work/contents-$1"; }
split_ok=1
expect() {
  local p=$1 path=$2
  grep -qx -- "$path" "$work/contents-$p" || { fail "$p lacks $path"; split_ok=0; }
}
expect resprobe /usr/bin/resprobe
expect resprobe /usr/share/applications/$app_id.desktop
expect resprobe /usr/share/metainfo/$app_id.metainfo.xml
expect resprobe /usr/share/glib-2.0/schemas/$app_id.gschema.xml
expect resprobe /usr/share/icons/hicolor/scalable/apps/$app_id.svg
expect resprobe /usr/share/mime/packages/$app_id.xml
expect resprobe /usr/share/help/C/resprobe/index.page
expect resprobe /usr/share/man/man1/resprobe.1.gz
expect resprobe /usr/libexec/resprobe/resprobe-first-frame
expect resprobe /usr/libexec/resprobe/resprobe-canary
expect resprobe-cli /usr/bin/resprobe-cli
expect resprobe-cli /usr/share/man/man1/resprobe-cli.1.gz
expect resprobe-cli /usr/lib/systemd/system/resprobe-monitor.service
expect resprobe-cli /usr/lib/systemd/user/resprobe-monitor.service
expect resprobe-cli /usr/share/resprobe/grafana/resprobe-monitor-dashboard.json
expect resprobe-common /usr/share/locale/de/LC_MESSAGES/resprobe.mo
expect resprobe-common /usr/share/doc/resprobe-common/ARCHITECTURE.md.gz
# A server gets no GTK with the CLI.
cli_depends=$(dpkg-deb -f "$work/deb/resprobe-cli_${version}_"*.deb Depends)
if grep -qE '/applications/|/help/|/icons/' "$work/contents-resprobe-cli" || [[ $cli_depends =~ libgtk|libadwaita ]]; then
  fail "resprobe-cli carries or needs something of the GUI: $cli_depends"
  split_ok=0
fi
[ $split_ok -eq 1 ] && ok "the split: the window, the CLI and monitor, the shared files"

# Lintian meanwhile (it only reads the .debs): no error, no warning, as
# build-aux/deb.sh asks; its verdict is read at the end.
lintian --fail-on error,warning "${debs[@]}" >"$work/lintian.log" 2>&1 &
lintian_pid=$!

# --- Install ----------------------------------------------------------------
# Files named after the project in /usr, /etc and /var, before the install:
# after the purge none may be new. Before, not none: on a shared machine
# another engineer's test may have its own there (a D-Bus service or polkit
# rule of the helper under test), which is not this package's leftover.
named_after_us() {
  find /usr/bin /usr/lib /usr/libexec /usr/share /etc /var/lib/systemd /var/lib/dpkg/info /var/cache /var/lib \
    -xdev \( -path /var/lib/apt -o -path /var/cache/apt \) -prune -o \( -iname '*resprobe*' -print \) 2>/dev/null | sort
}
root_tap_lock_system_files || { fail "another test held the system files' lock for 30 minutes"; echo "1..$n"; exit 1; }
named_after_us >"$work/named-before"
t=$(date +%s)
# Without Recommends: yelp would bring a web engine to this machine for good.
if apt_get install --no-install-recommends "${debs[@]}" >"$work/install.log" 2>&1; then
  ok "apt-get install ./….deb"
else
  fail "apt-get install failed: $(tail -n 15 "$work/install.log")"
  echo "1..$n"; exit 1
fi
echo "# install: $(elapsed "$t") s"
for p in "${packages[@]}"; do dpkg -L "$p"; done | sort -u >"$work/files"
# Our own files and folders (not /usr, /usr/share …, which others share).
while read -r f; do
  if [ -d "$f" ] && [ ! -L "$f" ]; then
    case "$f" in *resprobe*|*Resprobe*) echo "$f" ;; esac
  else
    echo "$f"
  fi
done <"$work/files" >"$work/ours"
echo "# the packages installed $(wc -l <"$work/ours") files and folders of their own"

# A user's environment: a home of the test's own, settings in memory.
export HOME="$work/home" XDG_DATA_HOME="$work/home/.local/share" XDG_CONFIG_HOME="$work/home/.config" \
  XDG_CACHE_HOME="$work/home/.cache" GSETTINGS_BACKEND=memory
unset GSETTINGS_SCHEMA_DIR RESPROBE_LOCALEDIR
mkdir -p "$HOME" "$work/target"

# resprobe-cli from PATH, as a user types it.
cli_path=$(cd / && PATH=/usr/local/bin:/usr/bin:/bin command -v resprobe-cli)
[ "$cli_path" = /usr/bin/resprobe-cli ] && ok "resprobe-cli is on PATH as $cli_path" || fail "resprobe-cli on PATH: '$cli_path'"
if (cd "$work" && PATH=/usr/bin:/bin resprobe-cli run --dir "$work/target" --size 32M --duration 3 --baseline 0 \
      --report "$work/run.json" >"$work/run.log" 2>&1) &&
   PATH=/usr/bin:/bin resprobe-cli show "$work/run.json" >"$work/show.txt" 2>&1 &&
   grep -q '^fsync time: ' "$work/show.txt" &&
   grep -q "\"resprobe ${version%-*}\"" "$work/run.json"; then
  ok "resprobe-cli run on $work/target saved a report of resprobe ${version%-*} that show reads"
else
  fail "resprobe-cli run/show: $(tail -n 5 "$work/run.log" "$work/show.txt" 2>/dev/null)"
fi
[ -z "$(ls -A "$work/target")" ] && ok "the run left nothing in its folder" || fail "left in $work/target: $(ls -A "$work/target")"
# The private programs where the programs look for them (LIBEXECDIR, compiled
# in): the app-start probe starts the packaged first-frame window (under Xvfb).
if (cd "$work" && PATH=/usr/bin:/bin bash "$here/xvfb-run.sh" resprobe-cli run --dir "$work/target" --load none \
      --probe app-start --duration 4 --report "$work/app-start.json" >"$work/app-start.log" 2>&1) &&
   grep -q '"/usr/libexec/resprobe/resprobe-first-frame' "$work/app-start.json"; then
  ok "the app-start probe started /usr/libexec/resprobe/resprobe-first-frame"
else
  fail "the app-start probe and the packaged resprobe-first-frame: $(tail -n 5 "$work/app-start.log")"
fi
if [ -f /usr/libexec/resprobe/resprobe-nbdkit-disk-filter.so ] && grep -aq /usr/libexec/resprobe /usr/bin/resprobe-cli; then
  ok "the matrix's nbdkit filter is in /usr/libexec/resprobe, where resprobe-cli looks"
else
  fail "/usr/libexec/resprobe/resprobe-nbdkit-disk-filter.so missing, or resprobe-cli looks elsewhere"
fi

# The desktop entry: valid, and it opens the installed window.
desktop=/usr/share/applications/$app_id.desktop
if out_validate=$(desktop-file-validate "$desktop" 2>&1); then ok "desktop-file-validate $desktop"; else fail "desktop-file-validate: $out_validate"; fi
cat >"$work/launch.sh" <<'LAUNCH'
set -u
gio launch "$1" &
for _ in $(seq 600); do
  for pid in $(pgrep -x resprobe); do
    # The installed program, on this test's display (other tests run the build's).
    if [ "$(readlink "/proc/$pid/exe")" = /usr/bin/resprobe ] && tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "DISPLAY=$DISPLAY"; then
      wid=$(xdotool search --onlyvisible --pid "$pid" 2>/dev/null | head -n1)
      if [ -n "$wid" ]; then
        # Drawn: the picture is not one colour.
        for _ in $(seq 100); do
          import -window "$wid" "$2"
          [ "$(convert "$2" -format '%[fx:standard_deviation > 0.02]' info:)" = 1 ] && break
          sleep 0.2
        done
        echo "$pid, title “$(xdotool getwindowname "$wid")”, drawn: $(convert "$2" -format '%[fx:standard_deviation > 0.02]' info:)"
        kill -TERM "$pid"
        exit 0
      fi
    fi
  done
  sleep 0.1
done
echo "no window of /usr/bin/resprobe"
exit 1
LAUNCH
if launched=$(GSK_RENDERER=cairo GTK_A11Y=none dbus-run-session -- bash "$here/xvfb-run.sh" bash "$work/launch.sh" "$desktop" \
                "$out/deb-package-window.png" 2>"$work/launch.err") &&
   [[ $launched == *"“Responsiveness Probe”, drawn: 1" ]]; then
  ok "gio launch of the installed desktop entry opened /usr/bin/resprobe's window (pid $launched; $out/deb-package-window.png)"
else
  fail "the installed desktop entry opened no window: $launched $(tail -n 5 "$work/launch.err")"
fi

# Manual pages and the guide. 100 columns: man-db caches a page formatted for
# 80 as root in /var/cache/man/cat1, which would outlive the purge.
for page in resprobe-cli resprobe; do
  if MANPAGER=cat MANWIDTH=100 man "$page" 2>/dev/null | grep -q "^NAME" && [ "$(man -w "$page")" = "/usr/share/man/man1/$page.1.gz" ]; then
    ok "man $page opens /usr/share/man/man1/$page.1.gz"
  else
    fail "man $page: $(man -w "$page" 2>&1)"
  fi
done
guide_ok=1
for lang in C de pl pt_BR ru; do
  [ -f "/usr/share/help/$lang/resprobe/index.page" ] || { fail "no /usr/share/help/$lang/resprobe/index.page"; guide_ok=0; }
  [ -e "/usr/share/help/$lang/resprobe/figures/run.png" ] || { fail "/usr/share/help/$lang/resprobe/figures/run.png does not resolve"; guide_ok=0; }
done
[ $guide_ok -eq 1 ] && ok "the guide is installed for help:resprobe in C, de, pl, pt_BR and ru, with its figures"

# What the triggers of the packages that own the caches made of ours.
in_file() { [ -f "$2" ] && grep -aqF "$1" "$2"; }
in_file $app_id /usr/share/glib-2.0/schemas/gschemas.compiled && ok "gschemas.compiled has $app_id" || fail "the schema is not compiled"
in_file $app_id /usr/share/icons/hicolor/icon-theme.cache && ok "the hicolor icon cache has $app_id" || fail "the icon is not in the hicolor cache"
in_file $app_id.desktop /usr/share/applications/mimeinfo.cache && ok "mimeinfo.cache has $app_id.desktop" || fail "the desktop entry is not in mimeinfo.cache"
[ -f /usr/share/mime/application/x-resprobe-report+json.xml ] && ok "the MIME database has application/x-resprobe-report+json" || fail "the report type is not in the MIME database"
units_enabled=$(find /etc/systemd -name 'resprobe-monitor.service' 2>/dev/null)
[ -f /usr/lib/systemd/system/resprobe-monitor.service ] && [ -f /usr/lib/systemd/user/resprobe-monitor.service ] && [ -z "$units_enabled" ] &&
  ok "the monitor's units are installed and not enabled" || fail "the monitor's units: enabled as $units_enabled, or missing"

# --- Purge ------------------------------------------------------------------
t=$(date +%s)
if apt_get purge "${packages[@]}" >"$work/purge.log" 2>&1; then
  ok "apt-get purge ${packages[*]}"
else
  fail "apt-get purge failed: $(tail -n 15 "$work/purge.log")"
fi
echo "# purge: $(elapsed "$t") s"
[ -z "$(installed_ours)" ] && ok "dpkg knows none of the packages any more" || fail "dpkg still has: $(installed_ours | tr '\n' ' ')"
left=$(while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done <"$work/ours")
[ -z "$left" ] && ok "none of the $(wc -l <"$work/ours") files and folders of the packages is left" || fail "left: $left"
stray=$(named_after_us | comm -13 "$work/named-before" -)
[ -z "$stray" ] && ok "no new file named after resprobe in /usr, /etc or /var" || fail "new files named after resprobe: $stray"
! in_file $app_id /usr/share/glib-2.0/schemas/gschemas.compiled && ok "gschemas.compiled no longer names $app_id" || fail "gschemas.compiled still names $app_id"
! in_file $app_id /usr/share/icons/hicolor/icon-theme.cache && ok "the hicolor icon cache no longer names $app_id" || fail "the icon cache still names $app_id"
! in_file $app_id /usr/share/applications/mimeinfo.cache && ok "mimeinfo.cache no longer names $app_id" || fail "mimeinfo.cache still names $app_id"
! in_file x-resprobe-report /usr/share/mime/mime.cache && [ ! -e /usr/share/mime/application/x-resprobe-report+json.xml ] &&
  ok "the MIME database no longer has the report type" || fail "the MIME database still has application/x-resprobe-report+json"
! man -w resprobe-cli >/dev/null 2>&1 && ok "man resprobe-cli finds nothing" || fail "man resprobe-cli still finds $(man -w resprobe-cli)"

if wait "$lintian_pid"; then
  ok "lintian: no error, no warning ($(grep -c '^[EWIP]:' "$work/lintian.log") tags shown)"
else
  fail "lintian: $(grep -E '^[EW]:' "$work/lintian.log")"
fi
lintian_pid=""

echo "# total: $(elapsed "$started") s"
echo "1..$n"
[ "$failures" -eq 0 ]
