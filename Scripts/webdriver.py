"""A small WebDriver client (HTTP on loopback) for Debian's chromedriver driving headless
Chromium: what Scripts/studio-screenshots.py and Benchmarks/Scripts/bench-studio.py share.

    with Browser(window="1400,1000") as browser:
        browser.open(url)
        browser.click('[data-id="button_send"]')
"""
import base64, json, os, subprocess, time, urllib.request

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class Browser:
    def __init__(self, window="1400,1000", port=None):
        self.port = port or 29000 + os.getpid() % 2000
        self.window = window
        self.driver = None
        self.session = None

    def __enter__(self):
        self.driver = subprocess.Popen(["chromedriver", "--port=%d" % self.port],
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                self.call("GET", "/status")
                break
            except Exception:
                time.sleep(0.1)
        created = self.call("POST", "/session", {"capabilities": {"alwaysMatch": {"browserName": "chrome", "goog:chromeOptions": {
            "binary": "/usr/bin/chromium", "args": ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                                                    "--window-size=" + self.window, "--force-device-scale-factor=1"]}}}})
        self.session = "/session/" + created["value"]["sessionId"]
        return self

    def __exit__(self, *_):
        try:
            if self.session:
                self.call("DELETE", self.session)
        except Exception:
            pass
        if self.driver:
            self.driver.terminate()
            self.driver.wait()

    def call(self, method, path, body=None):
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request("http://127.0.0.1:%d%s" % (self.port, path), data=data, method=method,
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=60) as response:
            return json.load(response)

    def open(self, url):
        self.call("POST", self.session + "/url", {"url": url})

    def find(self, css, tries=100):
        """The element `css` matches, waiting up to tries x 0.1 s for it."""
        for _ in range(tries):
            try:
                return self.call("POST", self.session + "/element", {"using": "css selector", "value": css})["value"][ELEMENT]
            except Exception:
                time.sleep(0.1)
        raise SystemExit("no element " + css)

    def click(self, css):
        self.call("POST", self.session + "/element/%s/click" % self.find(css), {})

    def type(self, css, text):
        element = self.find(css)
        self.call("POST", self.session + "/element/%s/clear" % element, {})
        self.call("POST", self.session + "/element/%s/value" % element, {"text": text})

    def script(self, source):
        return self.call("POST", self.session + "/execute/sync", {"script": source, "args": []})["value"]

    def screenshot(self, path):
        with open(path, "wb") as f:
            f.write(base64.b64decode(self.call("GET", self.session + "/screenshot")["value"]))
