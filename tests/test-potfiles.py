#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# test-potfiles.py SOURCE_ROOT: po/POTFILES.in lists exactly the files under app/,
# engine/ and data/ that hold translatable strings: C sources and headers calling
# _(), N_(), C_(), NC_() or ngettext(), .ui files with translatable="yes", and the
# desktop entry, metainfo, MIME type, GSettings schema and polkit policy. A file missing from the list would
# leave its strings untranslated; a listed file without strings is stale.
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
C_MARKERS = re.compile(r"(?<![A-Za-z0-9_])(?:N?C?_|ngettext|g_dngettext|g_dpgettext2)\s*\(")
UI_MARKER = 'translatable="yes"'
DATA_SUFFIXES = (".desktop.in", ".metainfo.xml.in", ".mime.xml.in", ".gschema.xml", ".policy.in")


def strip_c_comments(text):
    return re.sub(r"/\*.*?\*/|//[^\n]*", " ", text, flags=re.S)


def has_strings(path):
    full = os.path.join(root, path)
    text = open(full, encoding="utf-8", errors="replace").read()
    if path.endswith((".c", ".h")):
        return bool(C_MARKERS.search(strip_c_comments(text)))
    if path.endswith(".ui"):
        return UI_MARKER in text
    return path.endswith(DATA_SUFFIXES)


candidates = set()
for top in ("app", "engine", "data"):
    for directory, _, files in os.walk(os.path.join(root, top)):
        for name in files:
            path = os.path.relpath(os.path.join(directory, name), root)
            if name.endswith((".c", ".h", ".ui")) or name.endswith(DATA_SUFFIXES):
                if has_strings(path):
                    candidates.add(path)

listed = []
for line in open(os.path.join(root, "po", "POTFILES.in"), encoding="utf-8"):
    line = line.strip()
    if line and not line.startswith("#"):
        listed.append(line)

failures = 0
for path in sorted(candidates - set(listed)):
    print("FAIL: %s has translatable strings but is not in po/POTFILES.in" % path)
    failures += 1
for path in listed:
    if not os.path.exists(os.path.join(root, path)):
        print("FAIL: po/POTFILES.in lists %s, which does not exist" % path)
        failures += 1
    elif path not in candidates:
        print("FAIL: po/POTFILES.in lists %s, which has no translatable strings" % path)
        failures += 1
duplicates = sorted({p for p in listed if listed.count(p) > 1})
for path in duplicates:
    print("FAIL: po/POTFILES.in lists %s more than once" % path)
    failures += 1

print("%d files with translatable strings, %d listed" % (len(candidates), len(listed)))
sys.exit(1 if failures else 0)
