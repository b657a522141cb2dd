#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install the Debian/Ubuntu packages needed to build, run and test Responsiveness Probe.
# Idempotent: packages already present are skipped, so it is cheap to run every time.
set -euo pipefail

packages=(
  # build
  meson ninja-build pkg-config gcc gettext itstool
  libglib2.0-dev libglib2.0-bin libgtk-4-dev libadwaita-1-dev
  libjson-glib-dev libmount-dev
  # data validation
  desktop-file-utils appstream
  # GUI tests and screenshots
  xvfb xauth xdotool imagemagick
  # root-only loop-mount tests
  e2fsprogs xfsprogs util-linux
  # report checks
  poppler-utils
  # test scripts
  python3 bc
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
