#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-3.0-or-later
# test-install.sh BUILD_DIR: `meson install --destdir` yields a complete desktop
# integration, and the application starts from it:
# - the desktop entry validates, its Exec names an installed executable and its Icon an
#   installed hicolor icon (plus the symbolic one);
# - the metainfo validates and names the desktop entry and both installed binaries;
# - the MIME type of report files is installed, opened by the desktop entry and
#   provided by the metainfo;
# - the schema, the man pages and a .mo file for every language of po/LINGUAS are there,
#   and the desktop entry and metainfo carry the translations;
# - under Xvfb, `gio launch` of the installed desktop entry starts the installed
#   resprobe (not the build tree's), with LANGUAGE=pt_BR: the window title is the
#   Portuguese one. A screenshot is kept as BUILD_DIR/tests/install-pt_BR.png.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)   # this folder: xvfb-run.sh

build=${1:?usage: test-install.sh BUILD_DIR}
out=${G_TEST_BUILDDIR:-$build/tests}
app_id=io.github.resprobe.Resprobe
pt_title="Medidor de Responsividade"

work=$(mktemp -d "${TMPDIR:-/tmp}/test-install-XXXXXX")
trap 'rm -rf "$work"' EXIT
dest="$work/dest"

if ! meson install -C "$build" --destdir "$dest" --no-rebuild --quiet >"$work/install.log" 2>&1; then
  echo "FAIL: meson install --destdir failed:"
  cat "$work/install.log"
  exit 1
fi

# Where things went: the build's own directory options.
eval "$(meson introspect "$build" --buildoptions | python3 -c '
import json, sys
options = {o["name"]: o["value"] for o in json.load(sys.stdin)}
for key in ("prefix", "bindir", "datadir", "mandir", "localedir"):
    print("%s=%s" % (key, options[key]))
')"
root="$dest$prefix"
abs () { case "$1" in /*) echo "$dest$1" ;; *) echo "$root/$1" ;; esac; }
bin=$(abs "$bindir"); share=$(abs "$datadir"); man=$(abs "$mandir"); locale=$(abs "$localedir")

python3 - "$bin" "$share" "$man" "$locale" "$(dirname "$0")/../po/LINGUAS" <<'CHECK'
import configparser, os, re, shlex, subprocess, sys
import xml.etree.ElementTree as ET

bin_dir, share, man, locale, linguas = sys.argv[1:6]
app_id = "io.github.resprobe.Resprobe"
failures = []

def check(condition, message):
    print(("ok: " if condition else "FAIL: ") + message)
    if not condition:
        failures.append(message)

def tool(name):
    return subprocess.run(["sh", "-c", "command -v " + name], capture_output=True).returncode == 0

desktop = os.path.join(share, "applications", app_id + ".desktop")
check(os.path.isfile(desktop), "the desktop entry is installed (%s)" % desktop)
if os.path.isfile(desktop):
    if tool("desktop-file-validate"):
        result = subprocess.run(["desktop-file-validate", desktop], capture_output=True, text=True)
        check(result.returncode == 0, "the installed desktop entry validates %s" % result.stdout.strip())
    entry = configparser.RawConfigParser(interpolation=None, strict=False)
    entry.optionxform = str
    entry.read(desktop, encoding="utf-8")
    section = entry["Desktop Entry"]
    program = shlex.split(section.get("Exec", ""))[0] if section.get("Exec") else ""
    executable = program if os.path.isabs(program) else os.path.join(bin_dir, program)
    check(program != "" and os.access(executable, os.X_OK),
          "Exec=%s resolves to an installed executable (%s)" % (section.get("Exec"), executable))
    icon = section.get("Icon", "")
    found = [os.path.join(d, f) for d, _, files in os.walk(os.path.join(share, "icons", "hicolor"))
             for f in files if os.path.splitext(f)[0] == icon and "/apps" in d]
    check(icon == app_id and len(found) > 0, "Icon=%s resolves in hicolor (%s)" % (icon, found))
    symbolic = os.path.join(share, "icons", "hicolor", "symbolic", "apps", app_id + "-symbolic.svg")
    check(os.path.isfile(symbolic), "the symbolic icon is installed")
    for key in ("Name", "GenericName", "Comment", "Categories", "Keywords", "StartupNotify"):
        check(section.get(key), "the desktop entry has %s" % key)
    check(section.get("Name[pt_BR]") == "Medidor de Responsividade",
          "the desktop entry is translated (Name[pt_BR]=%s)" % section.get("Name[pt_BR]"))

metainfo = os.path.join(share, "metainfo", app_id + ".metainfo.xml")
check(os.path.isfile(metainfo), "the metainfo is installed")
if os.path.isfile(metainfo):
    if tool("appstreamcli"):
        result = subprocess.run(["appstreamcli", "validate", "--no-net", metainfo], capture_output=True, text=True)
        check(result.returncode == 0, "the installed metainfo validates")
    tree = ET.parse(metainfo).getroot()
    check(tree.findtext("id") == app_id, "the metainfo id is the application id")
    check(tree.findtext("launchable") == app_id + ".desktop", "the metainfo launches the installed desktop entry")
    binaries = [b.text for b in tree.iter("binary")]
    check(sorted(binaries) == ["resprobe", "resprobe-cli"], "it provides resprobe and resprobe-cli (%s)" % binaries)
    for name in binaries:
        check(os.access(os.path.join(bin_dir, name), os.X_OK), "the binary %s is installed" % name)
    langs = {e.get("{http://www.w3.org/XML/1998/namespace}lang") for e in tree.iter("summary")}
    check("pt_BR" in langs and "de" in langs, "the metainfo is translated (%s)" % sorted(l for l in langs if l))

# Report files: their MIME type, named after the application (Flatpak exports only
# such files), and the desktop entry and metainfo that open and provide it.
mime = os.path.join(share, "mime", "packages", app_id + ".xml")
check(os.path.isfile(mime), "the MIME type of reports is installed (%s)" % mime)
if os.path.isfile(mime) and os.path.isfile(desktop):
    ns = "{http://www.freedesktop.org/standards/shared-mime-info}"
    types = [t.get("type") for t in ET.parse(mime).getroot().iter(ns + "mime-type")]
    mime_types = [t for t in section.get("MimeType", "").split(";") if t]
    check(types != [] and types == mime_types, "the desktop entry opens it (MimeType=%s, %s)" % (mime_types, types))
    check(any(c.get("{http://www.w3.org/XML/1998/namespace}lang") == "de" for c in ET.parse(mime).getroot().iter(ns + "comment")),
          "its description is translated")
    if os.path.isfile(metainfo):
        check([m.text for m in ET.parse(metainfo).getroot().iter("mediatype")] == types,
              "the metainfo provides it")

schema = os.path.join(share, "glib-2.0", "schemas", app_id + ".gschema.xml")
check(os.path.isfile(schema), "the GSettings schema is installed")
for page in ("resprobe.1", "resprobe-cli.1"):
    check(os.path.isfile(os.path.join(man, "man1", page)), "the man page %s is installed" % page)
languages = [l for l in open(linguas).read().split() if not l.startswith("#")]
for lang in languages:
    mo = os.path.join(locale, lang, "LC_MESSAGES", "resprobe.mo")
    check(os.path.isfile(mo), "the %s translation is installed" % lang)
sys.exit(1 if failures else 0)
CHECK
status=$?

# The installed CLI speaks Portuguese from the installed catalogue.
cli_help=$(env -u LC_ALL LANG=C.UTF-8 LANGUAGE=pt_BR RESPROBE_LOCALEDIR="$locale" "$bin/resprobe-cli" --help 2>&1)
if echo "$cli_help" | grep -q "Comandos:"; then
  echo "ok: resprobe-cli --help is translated under LANGUAGE=pt_BR"
else
  echo "FAIL: resprobe-cli --help is not translated under LANGUAGE=pt_BR:"
  echo "$cli_help" | head -n 5
  status=1
fi

# Launch from the installed desktop entry, translated.
# The tools come with build-aux/install-deps.sh: one missing fails the test
# (it used to end it with status 0, the launch unchecked).
for tool in Xvfb xdotool import gio glib-compile-schemas; do
  if ! command -v "$tool" >/dev/null; then
    echo "FAIL: launching needs $tool (build-aux/install-deps.sh installs it)"
    exit 1
  fi
done
mkdir "$work/schemas"
glib-compile-schemas --strict --targetdir="$work/schemas" "$share/glib-2.0/schemas" || status=1
# LANGUAGE only counts under a locale other than C; use pt_BR.UTF-8 where generated.
lang=C.UTF-8
locale -a 2>/dev/null | grep -qi '^pt_BR\.utf-\?8$' && lang=pt_BR.UTF-8
export RP_DESKTOP="$share/applications/$app_id.desktop" RP_PNG="$out/install-pt_BR.png" RP_WORK="$work"
export RP_TITLE="$pt_title" RP_BIN="$bin"
rm -f "$RP_PNG"

cat >"$work/session.sh" <<'INNER'
set -u
gio launch "$RP_DESKTOP" >"$RP_WORK/launch.log" 2>&1 || echo "gio launch failed: $?" >>"$RP_WORK/launch.log"
wid=
for _ in $(seq 100); do
  wid=$(xdotool search --onlyvisible --name "^$RP_TITLE\$" 2>/dev/null | head -n1)
  [ -n "$wid" ] && break
  sleep 0.1
done
if [ -z "$wid" ]; then
  echo "no window titled '$RP_TITLE'; windows: $(xdotool search --onlyvisible --name . getwindowname %@ 2>/dev/null | tr '\n' '|')" >"$RP_WORK/result"
  exit 0
fi
sleep 2
import -window root "$RP_PNG" 2>/dev/null
pid=$(xdotool getwindowpid "$wid" 2>/dev/null)
echo "window $wid pid $pid exe $(readlink "/proc/$pid/exe")" >"$RP_WORK/result"
kill -TERM "$pid" 2>/dev/null
for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
kill -0 "$pid" 2>/dev/null && echo "still running after SIGTERM" >>"$RP_WORK/result"
INNER

rm -f "$work/result" "$work/launch.log"
env -u LC_ALL LANG="$lang" LANGUAGE=pt_BR PATH="$bin:$PATH" XDG_DATA_DIRS="$share:/usr/local/share:/usr/share" \
  GSETTINGS_SCHEMA_DIR="$work/schemas" RESPROBE_LOCALEDIR="$locale" GSK_RENDERER=cairo GTK_A11Y=none \
  timeout 60 dbus-run-session -- "$here/xvfb-run.sh" bash "$work/session.sh"
result=$(cat "$work/result" 2>/dev/null)
echo "launch: $result ($(cat "$work/launch.log" 2>/dev/null))"
case "$result" in
  window*"exe $bin/resprobe")
    echo "ok: the installed desktop entry starts the installed resprobe, titled “$pt_title” (LANG=$lang)" ;;
  *)
    echo "FAIL: the installed desktop entry did not start the installed resprobe in Portuguese"
    status=1 ;;
esac
[ -f "$RP_PNG" ] && echo "ok: screenshot in $RP_PNG"
exit "$status"
