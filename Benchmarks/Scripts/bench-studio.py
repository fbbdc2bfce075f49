#!/usr/bin/env python3
"""Studio latency on the sample themes, in headless Chromium through chromedriver:

  edit -> redrawn: from the page sending an edit to the screen redrawn with the new state
                   (the page records it in document.body.dataset.editMs);
  edit -> app:     from the edit request to the chat demo, following the studio over its
                   WebSocket, printing that it re-applied.

    python3 Benchmarks/Scripts/bench-studio.py [--runs N] [--bin DIR] [--json FILE]
        DIR: .build/release by default; build `livery` and `livery-chat-demo` there first.
        FILE: the medians, for Benchmarks/Scripts/summary.py (Scripts/bench.sh passes
        Benchmarks/results/studio.json).
"""
import argparse, json, os, shutil, statistics, subprocess, tempfile, threading, time, urllib.request

parser = argparse.ArgumentParser()
parser.add_argument("--runs", type=int, default=20)
parser.add_argument("--bin", default=".build/release")
parser.add_argument("--json")
args = parser.parse_args()
root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
binary = os.path.join(root, args.bin)
work = tempfile.mkdtemp(prefix="livery-studio-bench-")
shutil.copytree(os.path.join(root, "Themes"), os.path.join(work, "Themes"))
studio = subprocess.Popen([os.path.join(binary, "livery"), "studio", "Themes", "--port", "0"], cwd=work, stdout=subprocess.PIPE, text=True)
url = studio.stdout.readline().split(" ", 2)[2].strip()
follow = studio.stdout.readline().split(" ", 2)[2].strip()
base, token = url.split("/?token=")
demo = subprocess.Popen([os.path.join(binary, "livery-chat-demo"), "--follow", follow], cwd=work, stdout=subprocess.PIPE, text=True)
applied = []
def read_demo():
    for line in demo.stdout:
        if line.startswith("== studio edit applied"):
            applied.append(time.perf_counter())
threading.Thread(target=read_demo, daemon=True).start()
port = 31000 + os.getpid() % 1000
driver = subprocess.Popen(["chromedriver", "--port=%d" % port], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

def call(method, path, body=None, host=None, headers=None):
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request((host or "http://127.0.0.1:%d" % port) + path, data=data, method=method,
                                     headers=dict({"Content-Type": "application/json"}, **(headers or {})))
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)

try:
    for _ in range(100):
        try:
            call("GET", "/status"); break
        except Exception:
            time.sleep(0.1)
    session = call("POST", "/session", {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
        "binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1400,1000"]}}}})["value"]["sessionId"]
    s = "/session/" + session
    key = "element-6066-11e4-a52e-4f735466cecf"
    def script(source): return call("POST", s + "/execute/sync", {"script": source, "args": []})["value"]
    def find(css):
        for _ in range(100):
            try:
                return call("POST", s + "/element", {"using": "css selector", "value": css})["value"][key]
            except Exception:
                time.sleep(0.1)
        raise SystemExit("no element " + css)
    call("POST", s + "/url", {"url": url})
    call("POST", s + "/element/%s/click" % find('[data-id="button_send"]'), {})
    redraw = []
    time.sleep(1)
    for run in range(args.runs):
        colour = "#%02X40A0" % (16 + run * 7 % 200)
        call("POST", s + "/element/%s/click" % find('button[data-edit="backgroundColor|normal"]'), {})
        field = find("#edit-text")
        call("POST", s + "/element/%s/clear" % field, {})
        call("POST", s + "/element/%s/value" % field, {"text": colour})
        script("delete document.body.dataset.editMs")
        count = len(applied)
        started = time.perf_counter()
        call("POST", s + "/element/%s/click" % find("#edit-write"), {})
        for _ in range(200):
            ms = script("return document.body.dataset.editMs")
            if ms: break
            time.sleep(0.02)
        redraw.append(float(ms))
        for _ in range(200):
            if len(applied) > count: break
            time.sleep(0.005)
        if len(applied) > count:
            # The click's own round trip is in this figure: an upper bound for edit -> app.
            app = (applied[count] - started) * 1000
            redraw_app = app
            globals().setdefault("apps", []).append(redraw_app)
        time.sleep(0.3)
    apps = globals().get("apps", [])
    def line(name, values, target):
        if not values:
            print("%-18s no samples" % name); return
        print("%-18s median %6.1f ms  p90 %6.1f ms  max %6.1f ms  (n=%d, target <= %d ms)" % (
            name, statistics.median(values), sorted(values)[int(len(values) * 0.9) - 1], max(values), len(values), target))
    print("sample themes, %s, load average %s" % (args.bin, open("/proc/loadavg").read().split()[0]))
    line("edit -> redrawn", redraw, 100)
    line("edit -> app", apps, 200)
    if args.json and redraw:
        with open(args.json, "w") as out:
            json.dump({"edit_to_redraw_ns": statistics.median(redraw) * 1e6,
                       "edit_to_app_ns": statistics.median(apps) * 1e6 if apps else None,
                       "runs": args.runs, "build": args.bin}, out, indent=2, sort_keys=True)
    call("DELETE", s)
finally:
    driver.terminate(); demo.terminate(); studio.terminate()
    shutil.rmtree(work, ignore_errors=True)
