#!/usr/bin/env python3
"""Studio latency on the sample themes, in headless Chromium through chromedriver
(Scripts/webdriver.py):

  edit -> redrawn: from the page sending an edit to the screen redrawn with the new state
                   (the page records it in document.body.dataset.editMs);
  edit -> app:     from the same request to the chat demo, following the studio over its
                   WebSocket, printing that it re-applied (the page records when the request
                   left on the system clock, document.body.dataset.editAt; this script notes
                   when the demo's line arrives);
  click -> app:    the same from the WebDriver click on Write: the click's own round trip
                   included, an upper bound.

    python3 Benchmarks/Scripts/bench-studio.py [--runs N] [--bin DIR] [--json FILE] [--trace]
        DIR: .build/release by default; build `livery` and `livery-chat-demo` there first.
        FILE: the medians, for Benchmarks/Scripts/summary.py (Scripts/bench.sh passes
        Benchmarks/results/studio.json).
        --trace: runs the studio and the demo with LIVERY_STUDIO_TRACE=1 and prints the median
        of each phase they time (where an edit's milliseconds go).
"""
import argparse, collections, json, os, shutil, statistics, subprocess, sys, tempfile, threading, time

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(root, "Scripts"))
from webdriver import Browser

parser = argparse.ArgumentParser()
parser.add_argument("--runs", type=int, default=20)
parser.add_argument("--bin", default=".build/release")
parser.add_argument("--json")
parser.add_argument("--trace", action="store_true")
args = parser.parse_args()
binary = os.path.join(root, args.bin)
work = tempfile.mkdtemp(prefix="livery-studio-bench-")
shutil.copytree(os.path.join(root, "Themes"), os.path.join(work, "Themes"))
env = dict(os.environ, LIVERY_STUDIO_TRACE="1") if args.trace else None
traces = collections.defaultdict(list)
def read_trace(stream):
    for line in stream:
        parts = line.split()
        if len(parts) == 3 and parts[0] in ("studio-trace", "follow-trace"):
            traces[parts[0].split("-")[0] + " " + parts[1]].append(float(parts[2]))
studio = subprocess.Popen([os.path.join(binary, "livery"), "studio", "Themes", "--port", "0"], cwd=work,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE if args.trace else None, text=True, env=env)
url = studio.stdout.readline().split(" ", 2)[2].strip()
follow = studio.stdout.readline().split(" ", 2)[2].strip()
demo = subprocess.Popen([os.path.join(binary, "livery-chat-demo"), "--follow", follow], cwd=work, stdout=subprocess.PIPE,
                        stderr=subprocess.PIPE if args.trace else None, text=True, env=env)
applied = []
def read_demo():
    for line in demo.stdout:
        if line.startswith("== studio edit applied"):
            applied.append((time.perf_counter(), time.time()))
threading.Thread(target=read_demo, daemon=True).start()
if args.trace:
    threading.Thread(target=read_trace, args=(studio.stderr,), daemon=True).start()
    threading.Thread(target=read_trace, args=(demo.stderr,), daemon=True).start()

try:
    with Browser(window="1400,1000") as browser:
        browser.open(url)
        browser.click('[data-id="button_send"]')
        redraw, apps, clicks = [], [], []
        time.sleep(1)
        traces.clear()
        for run in range(args.runs):
            colour = "#%02X40A0" % (16 + run * 7 % 200)
            browser.click('button[data-edit="backgroundColor|normal"]')
            browser.type("#edit-text", colour)
            browser.script("delete document.body.dataset.editMs")
            count = len(applied)
            started = time.perf_counter()
            browser.click("#edit-write")
            for _ in range(400):
                ms = browser.script("return document.body.dataset.editMs")
                if ms: break
                time.sleep(0.01)
            redraw.append(float(ms))
            for _ in range(400):
                if len(applied) > count: break
                time.sleep(0.005)
            if len(applied) > count:
                clicks.append((applied[count][0] - started) * 1000)
                apps.append(applied[count][1] * 1000 - float(browser.script("return document.body.dataset.editAt")))
            # Let the findings and the inspector that follow the redraw settle before the next edit.
            for _ in range(400):
                if browser.script("return document.body.dataset.settled") == "1": break
                time.sleep(0.01)
            time.sleep(0.3)
    def line(name, values, target):
        if not values:
            print("%-18s no samples" % name); return
        print("%-18s median %6.1f ms  p90 %6.1f ms  max %6.1f ms  (n=%d, target <= %d ms)" % (
            name, statistics.median(values), sorted(values)[int(len(values) * 0.9) - 1], max(values), len(values), target))
    print("sample themes, %s, load average %s" % (args.bin, open("/proc/loadavg").read().split()[0]))
    line("edit -> redrawn", redraw, 100)
    line("edit -> app", apps, 200)
    line("click -> app", clicks, 200)
    if args.trace:
        for name in sorted(traces):
            values = traces[name]
            print("  %-30s median %7.2f ms  max %7.2f ms  (n=%d)" % (name, statistics.median(values), max(values), len(values)))
    if args.json and redraw:
        with open(args.json, "w") as out:
            json.dump({"edit_to_redraw_ns": statistics.median(redraw) * 1e6,
                       "edit_to_app_ns": statistics.median(apps) * 1e6 if apps else None,
                       "runs": args.runs, "build": args.bin}, out, indent=2, sort_keys=True)
finally:
    demo.terminate(); studio.terminate()
    shutil.rmtree(work, ignore_errors=True)
