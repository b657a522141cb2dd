#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Install the Debian/Ubuntu packages needed to build, run and test Responsiveness Probe.
# Idempotent: packages already present are skipped, so it is cheap to run every time.
set -euo pipefail

packages=(
  # build
  meson ninja-build pkg-config gcc gettext itstool
  libglib2.0-dev libglib2.0-bin libgtk-4-dev libadwaita-1-dev
  libjson-glib-dev libmount-dev libxcb1-dev libwayland-dev
  # resprobe-cli monitor --listen (/metrics); the build works without it
  libsoup-3.0-dev
  # kernel events (journal commits, device latency) and their cross-check: tests/test-kernel-events.sh
  libtracefs-dev libtraceevent-dev trace-cmd
  # every block request's latency seen by BPF, against the probe's (tests/test-kernel-figures.sh latency)
  bpftrace
  # data validation; the user guide (yelp-check: tests/test-help.sh)
  desktop-file-utils appstream yelp-tools
  # the Debian packages (build-aux/deb.sh, tests/test-deb-package.sh)
  dpkg-dev debhelper lintian
  # GUI tests and screenshots
  xvfb xauth xdotool imagemagick
  # the display probe on Wayland (tests/test-display.sh): weston's headless backend;
  # the window under headless sway with real-time virtual input (tests/test-gui-wayland.sh:
  # tests/rp-virtual-input.c needs libxkbcommon-dev; grim, wtype for trying by hand)
  weston sway libxkbcommon-dev grim wtype
  # root-only loop-mount tests
  e2fsprogs xfsprogs util-linux
  # resprobed, the privileged helper (issue 34): polkit's ITS rules for its
  # translated .policy; a system bus and polkitd of tests/test-helper.sh's own
  polkitd dbus-daemon
  # emulated slow devices of the matrix (--device; tests/test-device-matrix.sh,
  # bench row 15): nbdkit and its plugin headers for our filter, nbdfuse; the cold
  # start of the S suite's xterm on the emulated laptop disk (tests/test-app-start-matrix.sh)
  nbdkit nbdkit-plugin-dev libnbd-bin xterm
  # report checks
  poppler-utils
  # the README's monitor example (tests/test-readme.sh): /metrics with curl
  curl
  # test scripts
  python3 bc
  # fault matrix (a FUSE target) and memcheck: tests/test-faults.sh, tests/test-valgrind.sh
  fuse2fs valgrind
  # the emulated USB stick of bench/usbstick.sh (issue 20): nbdkit's rate and delay
  # filters served as a file by nbdfuse, a loop device on it
  nbdkit libnbd-bin
  # desktop integration: icon rendering (rsvg-convert), man page lint (groff), translated
  # runs (locales), stand-in session services (python3-gi), the root window (xwininfo)
  librsvg2-bin groff-base locales dbus x11-utils python3-gi gir1.2-glib-2.0
  gtk-update-icon-cache
  # man pages against --help (tests/test-man.sh), the report MIME type (tests/test-mime.sh)
  man-db shared-mime-info
  # stress: a busy machine beside the test suite (docs/TESTING.md: the suite
  # passes while `stress-ng --cpu 2 --io 1` runs)
  stress-ng
  # benchmarks (bench/run.sh): cyclictest is the reference of the main-loop lateness row,
  # fio of the random writer's; the emulated slow device and the S suite's xterm of
  # bench/app-start-slow-device.sh
  rt-tests fio nbdkit libnbd-bin xterm
  # resprobe-cli monitor against a real Prometheus, promtool and node_exporter's
  # textfile collector (tests/test-monitor.py); systemd-analyze for its units
  prometheus prometheus-node-exporter systemd
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

sudo_cmd=()
[ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)

if [ ${#missing[@]} -gt 0 ]; then
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# The locales of the translations (po/LINGUAS), so that the application can be
# run and screenshotted translated (LANG=pt_BR.UTF-8); glibc ignores LANGUAGE
# under the C locale. Debian generates only what /etc/locale.gen enables.
wanted_locales=(pt_BR.UTF-8 de_DE.UTF-8 ru_RU.UTF-8 pl_PL.UTF-8)
if command -v locale-gen >/dev/null && [ -f /etc/locale.gen ]; then
  regenerate=no
  for l in "${wanted_locales[@]}"; do
    if ! locale -a 2>/dev/null | grep -qix "${l/UTF-8/utf8}"; then
      "${sudo_cmd[@]}" sed -i "s/^# *\(${l} UTF-8\)/\1/" /etc/locale.gen
      grep -qx "${l} UTF-8" /etc/locale.gen || echo "${l} UTF-8" | "${sudo_cmd[@]}" tee -a /etc/locale.gen >/dev/null
      regenerate=yes
    fi
  done
  [ "$regenerate" = no ] || "${sudo_cmd[@]}" locale-gen >/dev/null
fi
