#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# test-flatpak-manifest.py SOURCE_ROOT: flatpak/io.github.resprobe.Resprobe.json parses and
# builds the app from this checkout on the GNOME runtime, with exactly the permissions
# the probe needs, each explained in "x-finish-args-comments", and no network. No build
# here (no network on the test machines): only the manifest.
import json
import os
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
path = os.path.join(root, "flatpak", "io.github.resprobe.Resprobe.json")
failures = []


def check(condition, message):
    print(("ok: " if condition else "FAIL: ") + message)
    if not condition:
        failures.append(message)


try:
    manifest = json.load(open(path, encoding="utf-8"))
except (OSError, ValueError) as error:
    print("FAIL: %s does not parse: %s" % (path, error))
    sys.exit(1)

check(manifest.get("id", manifest.get("app-id")) == "io.github.resprobe.Resprobe", "the id is the application id")
check(manifest.get("runtime") == "org.gnome.Platform", "the runtime is org.gnome.Platform")
check(manifest.get("sdk") == "org.gnome.Sdk", "the SDK is org.gnome.Sdk")
check(str(manifest.get("runtime-version", "")).split(".")[0].isdigit(),
      "the runtime version is a GNOME release (%s)" % manifest.get("runtime-version"))
check(manifest.get("command") == "resprobe", "the command is resprobe")

args = manifest.get("finish-args", [])
required = ["--socket=wayland", "--socket=fallback-x11", "--share=ipc", "--device=dri", "--filesystem=host"]
for arg in required:
    check(arg in args, "finish-args has %s" % arg)
check(not any(a.startswith("--share=network") for a in args), "finish-args has no --share=network")
check(not any(a in ("--socket=x11", "--device=all", "--filesystem=home") for a in args),
      "no broader permission than needed (x11 instead of fallback-x11, all devices, home)")
check(len(args) == len(set(args)), "no permission twice")

comments = manifest.get("x-finish-args-comments", {})
for arg in args:
    comment = comments.get(arg, "")
    check(len(comment) >= 20, "%s is explained (%r)" % (arg, comment[:60]))
check("FUSE" in comments.get("--filesystem=host", "") and "portal" in comments.get("--filesystem=host", ""),
      "--filesystem=host explains the document portal's FUSE mount")
for arg in comments:
    check(arg in args, "the comment on %s belongs to a permission that is granted" % arg)

modules = manifest.get("modules", [])
check(len(modules) > 0, "there is a module")
if modules:
    app = modules[-1]
    check(isinstance(app, dict) and app.get("buildsystem") == "meson", "the last module is built with meson")
    sources = app.get("sources", []) if isinstance(app, dict) else []
    check(any(s.get("type") == "dir" and os.path.normpath(os.path.join(os.path.dirname(path), s.get("path", "")))
              == os.path.normpath(root) for s in sources),
          "its source is this checkout (type dir, path ..)")

sys.exit(1 if failures else 0)
