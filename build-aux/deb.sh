#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# build-aux/deb.sh [OUT_DIR]: build the Debian packages of this tree (debian/)
# with `dpkg-buildpackage -us -uc -b` into OUT_DIR (default _deb), then check
# them and the source package with lintian (no error, no warning: each is
# fixed or overridden with its reason in debian/*.lintian-overrides).
#
# The tree is copied to OUT_DIR/src first (the files git knows, committed or
# not, without the build folders), so that the build leaves nothing in the
# working tree. The build dependencies are installed with apt-get when some
# are missing (as root, else through sudo), as build-aux/install-deps.sh does.
#
# Environment:
#   DEB_BUILD_OPTIONS   passed on; default "parallel=N" with N the CPUs.
#                       "nocheck" skips the tests and does not build them
#                       (and activates the build profile of the same name).
#   RESPROBE_DEB_LINTIAN=0   skip lintian and the source package it would check
#                            (the package test of tests/ runs lintian on the .debs)
# Prints the paths of the .deb files last, one a line.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
out=$(realpath -m "${1:-_deb}")
lintian_wanted=${RESPROBE_DEB_LINTIAN:-1}

export DEB_BUILD_OPTIONS=${DEB_BUILD_OPTIONS:-parallel=$(nproc)}
case " $DEB_BUILD_OPTIONS " in
  *" nocheck "*) export DEB_BUILD_PROFILES="${DEB_BUILD_PROFILES:+$DEB_BUILD_PROFILES }nocheck" ;;
esac

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
apt_install () {
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "$@"
}

# The tools of the build itself, then what debian/control asks for.
tools=(dpkg-dev debhelper)
[ "$lintian_wanted" = 0 ] || tools+=(lintian)
missing=()
for p in "${tools[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -qq
  apt_install "${missing[@]}"
fi
if ! unmet=$(dpkg-checkbuilddeps 2>&1); then
  echo "deb.sh: installing the build dependencies: ${unmet#*: }"
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get update -qq
  # apt-get build-dep reads debian/control of this folder, with the profiles.
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get build-dep -y -qq --no-install-recommends \
    ${DEB_BUILD_PROFILES:+-P "${DEB_BUILD_PROFILES// /,}"} ./
fi

version=$(dpkg-parsechangelog -S Version)
upstream=${version%-*}
name=$(dpkg-parsechangelog -S Source)
stage="$out/src"
tree="$stage/$name-$upstream"
rm -rf "$stage"
mkdir -p "$tree"
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
  # Tracked and new files (a deleted one is skipped), as the working tree has them.
  git -C "$src" ls-files -z --cached --others --exclude-standard |
    tar -C "$src" --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -C "$tree" -xf -
else
  tar -C "$src" --exclude='./_build*' --exclude='./_deb*' --exclude='./obj-*' -cf - . | tar -C "$tree" -xf -
fi

# The upstream tarball and the source package, from the pristine copy (the
# build adds to it), only for lintian, which checks the source package too:
# the binary build needs neither (xz of the tree and dpkg-source took 20 s of
# a build at a load average of 22).
if [ "$lintian_wanted" != 0 ]; then
  tar -C "$stage" --exclude="$name-$upstream/debian" --sort=name --owner=0 --group=0 \
    -cJf "$stage/${name}_$upstream.orig.tar.xz" "$name-$upstream"
  (cd "$stage" && dpkg-source -q -b "$name-$upstream" >/dev/null)
fi
start=$(date +%s)
(cd "$tree" && dpkg-buildpackage -us -uc -b)
echo "deb.sh: dpkg-buildpackage took $(($(date +%s) - start)) s (DEB_BUILD_OPTIONS=$DEB_BUILD_OPTIONS)"

mkdir -p "$out"
rm -f "$out"/*.deb "$out"/*.changes "$out"/*.buildinfo "$out"/*.dsc "$out"/*.debian.tar.* "$out"/*.orig.tar.*
mv "$stage"/*.deb "$stage"/*.changes "$stage"/*.buildinfo "$out"/
[ "$lintian_wanted" = 0 ] || mv "$stage"/*.dsc "$stage"/*.debian.tar.* "$stage"/*.orig.tar.* "$out"/
rm -rf "$stage"

if [ "$lintian_wanted" != 0 ]; then
  # Warnings fail too: each is fixed or overridden with a reason.
  lintian --fail-on error,warning --display-info --pedantic --tag-display-limit 0 \
    "$out"/*.changes "$out"/*.dsc 2>&1 | tee "$out/lintian.log" || {
    echo "deb.sh: lintian found errors or warnings (above; $out/lintian.log)"
    exit 1
  }
  echo "deb.sh: lintian: no error, no warning ($out/lintian.log)"
fi
ls -1 "$out"/*.deb
