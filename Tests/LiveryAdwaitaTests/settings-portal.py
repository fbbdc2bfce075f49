#!/usr/bin/python3
"""A stand-in of the XDG settings portal (org.freedesktop.portal.Settings) on the session bus
given by DBUS_SESSION_BUS_ADDRESS, for the LiveryAdwaita and LiveryGTK tests: Read, ReadAll and
SettingChanged over namespaces org.freedesktop.appearance (color-scheme, contrast, accent-color)
and org.gnome.desktop.a11y.interface (high-contrast, what libadwaita 1.2 reads). accent-color is
absent (a desktop without one: Read answers NotFound) until a line sets it. Prints "ready" once
it owns org.freedesktop.portal.Desktop; then each line on stdin, `NAMESPACE KEY TYPE VALUE`
(TYPE u, b, or ddd with VALUE `R,G,B`, e.g. `org.freedesktop.appearance accent-color ddd
0.2,0.4,0.6`), changes a setting and emits SettingChanged."""
import sys
import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

DBusGMainLoop(set_as_default=True)
INTERFACE = "org.freedesktop.portal.Settings"
values = {
    ("org.freedesktop.appearance", "color-scheme"): dbus.UInt32(0),
    ("org.freedesktop.appearance", "contrast"): dbus.UInt32(0),
    ("org.gnome.desktop.a11y.interface", "high-contrast"): dbus.Boolean(False),
}


class Settings(dbus.service.Object):
    @dbus.service.method(INTERFACE, in_signature="as", out_signature="a{sa{sv}}")
    def ReadAll(self, namespaces):
        result = {}
        for (namespace, key), value in values.items():
            if not namespaces or namespace in namespaces:
                result.setdefault(namespace, {})[key] = value
        return result

    @dbus.service.method(INTERFACE, in_signature="ss", out_signature="v")
    def Read(self, namespace, key):
        if (namespace, key) not in values:
            raise dbus.exceptions.DBusException("no such setting", name="org.freedesktop.portal.Error.NotFound")
        # The portal's Read wraps the value in one more variant.
        value = values[(namespace, key)]
        return type(value)(value, variant_level=2)

    @dbus.service.signal(INTERFACE, signature="ssv")
    def SettingChanged(self, namespace, key, value):
        pass

    @dbus.service.method("org.freedesktop.DBus.Properties", in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return dbus.UInt32(1, variant_level=1)


bus = dbus.SessionBus()
name = dbus.service.BusName("org.freedesktop.portal.Desktop", bus)
settings = Settings(bus, "/org/freedesktop/portal/desktop")


def on_input(source, condition):
    line = sys.stdin.readline()
    if not line:
        loop.quit()
        return False
    namespace, key, kind, text = line.split()
    if kind == "ddd":
        value = dbus.Struct([dbus.Double(float(part)) for part in text.split(",")], signature="ddd")
    elif kind == "u":
        value = dbus.UInt32(int(text))
    else:
        value = dbus.Boolean(text == "true")
    values[(namespace, key)] = value
    settings.SettingChanged(namespace, key, type(value)(value, variant_level=1))
    print("changed", namespace, key, text, flush=True)
    return True


GLib.io_add_watch(sys.stdin, GLib.IO_IN | GLib.IO_HUP, on_input)
print("ready", flush=True)
loop = GLib.MainLoop()
loop.run()
