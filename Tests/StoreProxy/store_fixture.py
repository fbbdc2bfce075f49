"""A signed store folder made with the `livery` CLI (pack, keys, catalog) and nginx serving it on
loopback with Examples/nginx/livery-store.conf, as Tests/LiveryStoreTests/NginxTests.swift does.
Used by run_seeds.py and Benchmarks/Scripts/bench-store-*.py. Standard library only.
"""
import os
import random
import shutil
import signal
import socket
import subprocess
import time
import urllib.request

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
NAMES = ["ocean", "forest", "desert", "tundra", "meadow", "canyon"]


def run(*command):
    result = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
    if result.returncode != 0:
        raise SystemExit(f"{' '.join(command)} failed:\n{result.stdout.decode(errors='replace')}")


class Store:
    """Packages of the given sizes (a preview image of random bytes pads each), signed."""

    def __init__(self, work, livery, sizes, seed=0):
        self.folder = os.path.join(work, "store")
        self.keys = os.path.join(work, "keys")
        sources = os.path.join(work, "sources")
        for folder in (self.folder, self.keys, sources):
            os.makedirs(folder, exist_ok=True)
        rng = random.Random(seed)
        self.products = []
        self.packages = {}
        for index, size in enumerate(sizes):
            product = f"com.acme.{NAMES[index]}"
            theme = os.path.join(sources, product, product + ".theme")
            os.makedirs(theme)
            with open(os.path.join(theme, "Info.xml"), "w") as handle:
                handle.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                             f'<theme-info id="{product}" name="{NAMES[index].title()}" version="1.0.0" '
                             'parent="com.livery.base">\n  <description>A test theme.</description>\n</theme-info>\n')
            with open(os.path.join(theme, "Palette.xml"), "w") as handle:
                handle.write('<theme>\n  <constants>\n    <color name="brand">#%06X</color>\n  </constants>\n</theme>\n'
                             % rng.randrange(1 << 24))
            # Previews of random bytes (incompressible), each under the 16 MiB a package file may have.
            previews = []
            for part in range(0, size, 8_000_000):
                previews += ["--preview", os.path.join(sources, product, f"preview-{part}.png")]
                with open(previews[-1], "wb") as handle:
                    handle.write(b"\x89PNG\r\n\x1a\n" + rng.randbytes(min(8_000_000, size - part)))
            package = os.path.join(self.folder, f"{product}-1.0.0.liverypkg")
            run(livery, "pack", theme, "--themes", os.path.join(REPOSITORY, "Themes"), *previews, "--output", package)
            self.products.append(product)
            self.packages[product] = package
        root, catalog = os.path.join(self.keys, "root.key"), os.path.join(self.keys, "catalog.key")
        run(livery, "keys", "generate", "--output", root)
        run(livery, "keys", "generate", "--output", catalog)
        run(livery, "keys", "root", self.folder, "--root-key", root, "--catalog-key", catalog + ".pub")
        run(livery, "catalog", self.folder, "--sign-with", catalog, "--expires", "1d")
        self.root_pub = root + ".pub"
        self.port = None

    def make_changed_copies(self):
        """changed/<package>: the same size, other bytes in the middle, another modification
        time (so another ETag): the package as republished between two ranges."""
        changed = os.path.join(self.folder, "changed")
        os.makedirs(changed, exist_ok=True)
        for package in self.packages.values():
            data = bytearray(open(package, "rb").read())
            for offset in range(len(data) // 3, len(data) // 3 + 64):
                data[offset] ^= 0x5A
            target = os.path.join(changed, os.path.basename(package))
            with open(target, "wb") as handle:
                handle.write(bytes(data))
            stamp = os.stat(package).st_mtime - 3600
            os.utime(target, (stamp, stamp))


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Nginx:
    """nginx in the foreground on a free loopback port, serving `folder` with the example
    configuration (plus `extra` lines in the server block), its access log in `access_log`.
    Stopped (SIGKILL, then waited for) when the `with` block ends, however it ends."""

    def __init__(self, folder, work, extra="", catalog_cache_control=None):
        self.folder = folder
        self.catalog_cache_control = catalog_cache_control
        self.prefix = os.path.join(work, f"nginx-{os.getpid()}-{time.monotonic_ns()}")
        self.extra = extra
        self.access_log = os.path.join(self.prefix, "access.log")
        self.process = None
        self.port = None

    def __enter__(self):
        executable = next((path for path in ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]
                           if os.access(path, os.X_OK)), None)
        if executable is None:
            raise SystemExit("nginx is not installed: run Scripts/install-dependencies.sh (apt-get install nginx)")
        os.makedirs(os.path.join(self.prefix, "temp"))
        self.port = free_port()
        with open(os.path.join(REPOSITORY, "Examples", "nginx", "livery-store.conf")) as handle:
            server = handle.read()
        server = (server.replace("listen 127.0.0.1:8080;", f"listen 127.0.0.1:{self.port};")
                  .replace("root /srv/livery-store;", f"root {self.folder};\n    {self.extra}"))
        if self.catalog_cache_control:
            server = server.replace('location = /catalog.json { add_header Cache-Control "no-cache"; }',
                                    'location = /catalog.json { add_header Cache-Control "%s"; }'
                                    % self.catalog_cache_control)
        if f"127.0.0.1:{self.port}" not in server or self.folder not in server:
            raise SystemExit("the example's listen and root lines changed")
        temp = os.path.join(self.prefix, "temp")
        configuration = f"""
daemon off;
master_process off;
worker_processes 1;
pid {self.prefix}/nginx.pid;
error_log {self.prefix}/error.log;
events {{ worker_connections 256; }}
http {{
    log_format counted '$status $body_bytes_sent $bytes_sent "$request"';
    access_log {self.access_log} counted;
    client_body_temp_path {temp}/body;
    proxy_temp_path {temp}/proxy;
    fastcgi_temp_path {temp}/fastcgi;
    uwsgi_temp_path {temp}/uwsgi;
    scgi_temp_path {temp}/scgi;
{server}
}}
"""
        with open(os.path.join(self.prefix, "nginx.conf"), "w") as handle:
            handle.write(configuration)
        self.process = subprocess.Popen(
            [executable, "-p", self.prefix, "-c", os.path.join(self.prefix, "nginx.conf"),
             "-e", os.path.join(self.prefix, "error.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{self.port}/roots/1.json", timeout=1).read()
                return self
            except OSError:
                if self.process.poll() is not None:
                    break
                time.sleep(0.1)
        self.__exit__(None, None, None)
        raise SystemExit("nginx did not start: " + open(os.path.join(self.prefix, "error.log")).read())

    def access_entries(self):
        """(status, body bytes, bytes in all, request line) for each request logged so far."""
        entries = []
        with open(self.access_log) as handle:
            for line in handle:
                status, body, total, request = line.rstrip("\n").split(" ", 3)
                entries.append((int(status), int(body), int(total), request.strip('"')))
        return entries

    def __exit__(self, *exc):
        if self.process is not None and self.process.poll() is None:
            # SIGKILL: nginx without a master process does not always act on SIGTERM.
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=10)
        return False
