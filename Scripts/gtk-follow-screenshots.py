#!/usr/bin/env python3
"""The GTK demo following a studio, as docs/GTK.md shows it: starts `livery studio` on a copy of
the sample themes, runs `livery-gtk-demo --follow` against it (on $DISPLAY: source Scripts/xvfb.sh
first), edits the light theme's send button and outgoing bubble through the studio's API, and
copies the window before and after to OUT (default docs/images/gtk/follow-{before,after}.png).
Builds nothing: run `swift build --product livery --product livery-gtk-demo` first."""
import json, os, re, shutil, subprocess, sys, tempfile, time, urllib.request

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs/images/gtk"))
bin_dir = os.path.join(root, ".build/debug")
work = tempfile.mkdtemp(prefix="livery-follow-")
shutil.copytree(os.path.join(root, "Themes"), os.path.join(work, "Themes"))
studio = subprocess.Popen([os.path.join(bin_dir, "livery"), "studio", "Themes", "--port", "0"], cwd=work,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
demo = None
try:
    page = follow = None
    deadline = time.time() + 60
    while time.time() < deadline and (page is None or follow is None):
        line = studio.stdout.readline()
        page = page or re.search(r"http://127\.0\.0\.1:(\d+)/\S*token=(\w+)", line)
        follow = follow or re.search(r"ws://\S+", line)
    if not (page and follow):
        sys.exit("the studio printed no URL")
    base, token = f"http://127.0.0.1:{page.group(1)}", page.group(2)
    shots = os.path.join(work, "shots")
    demo = subprocess.Popen([os.path.join(bin_dir, "livery-gtk-demo"), "--follow", follow.group(0),
                             "--follow-screenshots", shots], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)

    def wait(needle):
        deadline = time.time() + 30
        while time.time() < deadline:
            if needle in demo.stdout.readline():
                return
        sys.exit(f"the demo never printed {needle!r}")

    def call(path, body=None):
        request = urllib.request.Request(base + path, data=body, headers={"X-Livery-Token": token,
                                                                           "Content-Type": "application/json"})
        return json.load(urllib.request.urlopen(request))

    def edit(theme, identifier, operation, text):
        explained = call(f"/api/explain?theme={theme}&traits=&id={identifier}")
        found = next(o for o in explained["operations"] if o["name"] == operation and o["state"] == "normal")
        target = next(t for t in found["targets"] if t.get("readOnly") is None)
        if not call("/api/edit", json.dumps({"target": target, "slot": "content", "text": text}).encode()).get("ok"):
            sys.exit(f"the studio refused the edit of {identifier}.{operation}")
        wait("== studio edit applied")

    wait("== following")
    edit("com.livery.light", "button_send", "backgroundColor", "#D84315")
    edit("com.livery.light", "bubble_outgoing", "bubbleColor", "#D84315")
    time.sleep(1.5)  # the screenshot of the last change
    os.makedirs(out, exist_ok=True)
    names = sorted(os.listdir(shots), key=lambda name: int(re.sub(r"\D", "", name) or 0))
    shutil.copy(os.path.join(shots, names[0]), os.path.join(out, "follow-before.png"))
    shutil.copy(os.path.join(shots, names[-1]), os.path.join(out, "follow-after.png"))
    print(f"wrote {out}/follow-before.png and follow-after.png")
finally:
    for process in (demo, studio):
        if process:
            process.kill()
    shutil.rmtree(work, ignore_errors=True)
