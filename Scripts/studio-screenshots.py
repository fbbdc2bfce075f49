#!/usr/bin/env python3
"""Screenshots of `livery studio` for docs/Tooling.md, taken in headless Chromium through
chromedriver (WebDriver over HTTP on loopback), on a copy of the sample themes:

    Scripts/studio-screenshots.py [OUT_DIR]     (default docs/images/studio)

Builds nothing: run `swift build --product livery` first."""
import base64, json, os, shutil, subprocess, sys, tempfile, time, urllib.request

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
out = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "docs/images/studio"))
os.makedirs(out, exist_ok=True)
work = tempfile.mkdtemp(prefix="livery-studio-shots-")
shutil.copytree(os.path.join(root, "Themes"), os.path.join(work, "Themes"))
studio = subprocess.Popen([os.path.join(root, ".build/debug/livery"), "studio", "Themes", "--port", "0"], cwd=work,
                          stdout=subprocess.PIPE, text=True)
url = studio.stdout.readline().split(" ", 2)[2].strip()
port = 29000 + os.getpid() % 1000
driver = subprocess.Popen(["chromedriver", "--port=%d" % port], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def call(method, path, body=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request("http://127.0.0.1:%d%s" % (port, path), data=data, method=method,
                                     headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)

try:
    for _ in range(100):
        try:
            call("GET", "/status"); break
        except Exception:
            time.sleep(0.1)
    session = call("POST", "/session", {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
        "binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1250",
                                                "--force-device-scale-factor=1"]}}}})["value"]["sessionId"]
    s = "/session/" + session
    key = "element-6066-11e4-a52e-4f735466cecf"
    def find(css):
        for _ in range(50):
            try:
                return call("POST", s + "/element", {"using": "css selector", "value": css})["value"][key]
            except Exception:
                time.sleep(0.1)
        raise SystemExit("no element " + css)
    def click(css): call("POST", s + "/element/%s/click" % find(css), {})
    def shot(name):
        time.sleep(0.6)
        with open(os.path.join(out, name), "wb") as f:
            f.write(base64.b64decode(call("GET", s + "/screenshot")["value"]))
        print("wrote", os.path.join(out, name))
    call("POST", s + "/url", {"url": url})
    find('[data-id="button_send"]')
    shot("screen.png")
    click('[data-id="button_send"]')
    click('button[data-edit="backgroundColor|normal"]')
    field = find("#edit-text")
    call("POST", s + "/element/%s/clear" % field, {})
    call("POST", s + "/element/%s/value" % field, {"text": "#E8F0FF"})
    shot("edit-colour.png")
    click("#edit-write")
    time.sleep(1)
    shot("contrast-finding.png")
    click("#undo")
    time.sleep(0.5)
    call("POST", s + "/execute/sync", {"script": "var c=document.getElementById('compare');c.value='traits:dark';c.dispatchEvent(new Event('change'));document.getElementById('scale').value='2';document.getElementById('scale').dispatchEvent(new Event('change'));", "args": []})
    shot("compare-dark-2x.png")
    call("DELETE", s)
finally:
    driver.terminate()
    studio.terminate()
    shutil.rmtree(work, ignore_errors=True)
