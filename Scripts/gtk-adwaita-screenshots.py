#!/usr/bin/env python3
"""The GTK demo as a libadwaita app following the desktop, as docs/GTK.md shows it: starts a
private D-Bus session bus and the settings portal stand-in of the tests
(Tests/LiveryAdwaitaTests/settings-portal.py), runs `livery-gtk-demo --adwaita
--system-screenshots OUT` against them (on $DISPLAY: source Scripts/xvfb.sh first), and changes
the portal's color-scheme and high-contrast when the demo asks, so the window follows libadwaita.
Writes OUT/adwaita-{before,dark,highcontrast,largetext}.png (default OUT: docs/images/gtk).
Builds nothing: run `swift build --product livery-gtk-demo` first."""
import os, subprocess, sys

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs/images/gtk"))
changes = {
    "adwaita-dark": ["org.freedesktop.appearance color-scheme u 1"],
    "adwaita-highcontrast": ["org.freedesktop.appearance color-scheme u 0",
                             "org.gnome.desktop.a11y.interface high-contrast b true"],
    "adwaita-largetext": ["org.gnome.desktop.a11y.interface high-contrast b false"],
}
bus = subprocess.Popen(["dbus-daemon", "--session", "--print-address", "--nofork"], stdout=subprocess.PIPE, text=True)
portal = demo = None
try:
    address = bus.stdout.readline().strip()
    env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=address, GTK_A11Y="none")
    portal = subprocess.Popen(["/usr/bin/python3", os.path.join(root, "Tests/LiveryAdwaitaTests/settings-portal.py")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env)
    if portal.stdout.readline().strip() != "ready":
        sys.exit("the settings portal stand-in did not start")
    demo = subprocess.Popen([os.path.join(root, ".build/debug/livery-gtk-demo"), "--adwaita", "--system-screenshots", out],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=env, cwd=root)
    for line in demo.stdout:
        print(line, end="")
        if line.startswith("change "):
            for change in changes.get(line.split()[1], []):
                portal.stdin.write(change + "\n")
                portal.stdin.flush()
                portal.stdout.readline()
            demo.stdin.write("\n")
            demo.stdin.flush()
    sys.exit(demo.wait())
finally:
    for process in (demo, portal, bus):
        if process and process.poll() is None:
            process.terminate()
