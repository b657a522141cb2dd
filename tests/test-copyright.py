#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""test-copyright.py SOURCE_ROOT: debian/copyright (DEP-5) gives every file the
licence its SPDX-License-Identifier line names.

- each file with an SPDX line in its first 10 lines falls, by the last Files
  paragraph whose patterns match it (DEP-5: * and ? match any character, "/"
  too), under a paragraph of that licence;
- every licence a Files paragraph names has a standalone License paragraph with
  its text;
- every Files pattern but "*" matches a file (no stale entry).
The files are those git knows (committed or new), else the tree without build
folders (a package build's copy has no .git). TAP output."""
import fnmatch
import os
import re
import subprocess
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
SPDX = re.compile(r"SPDX-License-Identifier:\s*([A-Za-z0-9.+-]+)")
# Build outputs and packaging work folders: not sources.
SKIP = re.compile(r"^(_build|_deb|obj-|\.git/|debian/(tmp|\.debhelper|resprobe[^/]*)/)")
results = []


def check(ok, text):
    results.append((ok, text))


def list_files():
    try:
        out = subprocess.run(["git", "-C", root, "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                             capture_output=True, check=True).stdout
        files = [f for f in out.decode().split("\0") if f]
        if files:
            return [f for f in files if os.path.isfile(os.path.join(root, f))]
    except (OSError, subprocess.CalledProcessError):
        pass
    files = []
    for directory, dirs, names in os.walk(root):
        for name in names:
            path = os.path.relpath(os.path.join(directory, name), root)
            if not SKIP.match(path):
                files.append(path)
    return files


def paragraphs(text):
    fields = []
    for block in re.split(r"\n\s*\n", text.strip()):
        current, key = {}, None
        for line in block.split("\n"):
            if line.startswith((" ", "\t")) and key:
                current[key] += "\n" + line.strip()
            elif ":" in line:
                key, value = line.split(":", 1)
                key = key.strip().lower()
                current[key] = value.strip()
        fields.append(current)
    return fields


def spdx_of(path):
    try:
        with open(os.path.join(root, path), "r", encoding="utf-8", errors="replace") as f:
            for _, line in zip(range(10), f):
                m = SPDX.search(line)
                if m:
                    return m.group(1)
    except OSError:
        pass
    return None


copyright_text = open(os.path.join(root, "debian", "copyright"), encoding="utf-8").read()
paras = paragraphs(copyright_text)
check(paras[0].get("format", "").startswith("https://www.debian.org/doc/packaging-manuals/copyright-format/1.0"),
      "debian/copyright is machine-readable (Format: copyright-format 1.0)")
files_paras = [(p["files"].split(), p.get("license", "").split("\n")[0].strip()) for p in paras[1:] if "files" in p]
standalone = {p["license"].split("\n")[0].strip() for p in paras[1:] if "license" in p and "files" not in p
              and "\n" in p["license"]}
for _, lic in files_paras:
    check(lic in standalone, "licence %s has its text in a License paragraph" % lic)

files = list_files()
matched_patterns = set()
with_spdx = 0
wrong = []
for path in files:
    given = None
    for patterns, lic in files_paras:
        for pattern in patterns:
            if fnmatch.fnmatchcase(path, pattern):
                given = lic
                matched_patterns.add(pattern)
    named = spdx_of(path)
    if named is None:
        continue
    with_spdx += 1
    if named != given:
        wrong.append("%s: SPDX %s, debian/copyright %s" % (path, named, given))
check(not wrong, "the %d files with an SPDX line have that licence in debian/copyright%s"
      % (with_spdx, (": " + "; ".join(wrong)) if wrong else ""))
check(with_spdx > 100, "SPDX lines found (%d of %d files)" % (with_spdx, len(files)))
for patterns, _ in files_paras:
    for pattern in patterns:
        if pattern != "*":
            check(pattern in matched_patterns, "Files pattern %s matches a file" % pattern)

for i, (ok, text) in enumerate(results, 1):
    print("%s %d - %s" % ("ok" if ok else "not ok", i, text))
print("1..%d" % len(results))
sys.exit(0 if all(ok for ok, _ in results) else 1)
