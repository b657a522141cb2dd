#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
# fake-session-services.py LOG: stand-ins for gnome-session (org.gnome.SessionManager:
# Inhibit, Uninhibit, IsInhibited) and a notification server
# (org.freedesktop.Notifications: Notify, CloseNotification, GetCapabilities,
# GetServerInformation) on the session bus. Every call is appended to LOG as one
# JSON object per line: {"method": ..., "args": [...]}. Prints "ready" once both
# names are owned. Needs PyGObject (python3-gi).
import json
import sys

from gi.repository import Gio, GLib

SESSION_XML = """
<node>
  <interface name="org.gnome.SessionManager">
    <method name="Inhibit">
      <arg type="s" name="app_id" direction="in"/>
      <arg type="u" name="toplevel_xid" direction="in"/>
      <arg type="s" name="reason" direction="in"/>
      <arg type="u" name="flags" direction="in"/>
      <arg type="u" name="cookie" direction="out"/>
    </method>
    <method name="Uninhibit">
      <arg type="u" name="cookie" direction="in"/>
    </method>
    <method name="IsInhibited">
      <arg type="u" name="flags" direction="in"/>
      <arg type="b" name="inhibited" direction="out"/>
    </method>
  </interface>
</node>
"""

NOTIFICATIONS_XML = """
<node>
  <interface name="org.freedesktop.Notifications">
    <method name="Notify">
      <arg type="s" direction="in"/>
      <arg type="u" direction="in"/>
      <arg type="s" direction="in"/>
      <arg type="s" direction="in"/>
      <arg type="s" direction="in"/>
      <arg type="as" direction="in"/>
      <arg type="a{sv}" direction="in"/>
      <arg type="i" direction="in"/>
      <arg type="u" direction="out"/>
    </method>
    <method name="CloseNotification">
      <arg type="u" direction="in"/>
    </method>
    <method name="GetCapabilities">
      <arg type="as" direction="out"/>
    </method>
    <method name="GetServerInformation">
      <arg type="s" direction="out"/>
      <arg type="s" direction="out"/>
      <arg type="s" direction="out"/>
      <arg type="s" direction="out"/>
    </method>
  </interface>
</node>
"""

log = open(sys.argv[1], "a", buffering=1)
inhibitors = {}
counter = {"next": 1}


def record(method, args):
    plain = [a if isinstance(a, (str, int, float, bool, list)) else str(a) for a in args]
    log.write(json.dumps({"method": method, "args": plain}) + "\n")


def next_id():
    value = counter["next"]
    counter["next"] += 1
    return value


def on_call(connection, sender, path, interface, method, parameters, invocation):
    args = parameters.unpack()
    if method == "Notify":
        # The hints may hold variants that JSON cannot take: keep the strings.
        record(method, list(args[:6]) + [args[7]])
    else:
        record(method, list(args))
    if method == "Inhibit":
        cookie = next_id()
        inhibitors[cookie] = args
        invocation.return_value(GLib.Variant("(u)", (cookie,)))
    elif method == "Uninhibit":
        inhibitors.pop(args[0], None)
        invocation.return_value(None)
    elif method == "IsInhibited":
        inhibited = any(flags & args[0] for (_, _, _, flags) in inhibitors.values())
        invocation.return_value(GLib.Variant("(b)", (inhibited,)))
    elif method == "Notify":
        invocation.return_value(GLib.Variant("(u)", (next_id(),)))
    elif method == "CloseNotification":
        invocation.return_value(None)
    elif method == "GetCapabilities":
        invocation.return_value(GLib.Variant("(as)", (["body", "actions"],)))
    elif method == "GetServerInformation":
        invocation.return_value(GLib.Variant("(ssss)", ("fake", "resprobe tests", "1", "1.2")))


bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
for xml, path in ((SESSION_XML, "/org/gnome/SessionManager"),
                  (NOTIFICATIONS_XML, "/org/freedesktop/Notifications")):
    info = Gio.DBusNodeInfo.new_for_xml(xml).interfaces[0]
    bus.register_object(path, info, on_call, None, None)

pending = {"names": 2}


def on_acquired(connection, name):
    pending["names"] -= 1
    if pending["names"] == 0:
        print("ready", flush=True)


def on_lost(connection, name):
    print("could not own " + name, file=sys.stderr, flush=True)
    sys.exit(1)


for name in ("org.gnome.SessionManager", "org.freedesktop.Notifications"):
    Gio.bus_own_name_on_connection(bus, name, Gio.BusNameOwnerFlags.NONE, on_acquired, on_lost)

GLib.MainLoop().run()
