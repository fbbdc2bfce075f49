#!/usr/bin/env python3
"""The store's bandwidth and load on loopback, against nginx with Examples/nginx/livery-store.conf.

  resume    a 20 MB package installed with `livery install` through a proxy
            (Tests/StoreProxy/fault_proxy.py) that cuts every response after 2 MB, the command
            re-run after a failure as a user would: bytes of the package sent in all against its
            size, runs and requests needed.
  refresh   1,000 catalog refreshes by 100 simulated devices (Python http.client, 10 rounds, the
            catalog republished after round 5), with plain GETs and with If-None-Match and
            If-Modified-Since from each device's last copy: responses 200 and 304, bytes nginx
            sent (its access log) in all and per refresh.
  max-age   5 devices (each its own folder) running `livery install` from the catalog every
            0.5 s for 6 s, with the example's `Cache-Control: no-cache` on catalog.json and with
            `max-age=3`: requests for catalog.json reaching nginx (its access log) and their
            statuses.

    swift build --product livery
    python3 Benchmarks/Scripts/bench-store-network.py [--bin PATH] [resume] [refresh] [max-age]
"""
import argparse
import asyncio
import http.client
import os
import shutil
import subprocess
import sys
import tempfile
import time

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
sys.path.insert(0, os.path.join(REPOSITORY, "Tests", "StoreProxy"))
import store_fixture  # noqa: E402
from fault_proxy import FaultProxy  # noqa: E402

MB = 1_000_000


LINES = []


def say(line):
    """Prints a line of the report and keeps it for Benchmarks/results/store-network.md."""
    print(line, flush=True)
    LINES.append(line)


def install(livery, base, store, product, folder):
    return subprocess.run(
        [livery, "install", base + "/catalog.json", "--id", product, "--into", folder, "--root-key", store.root_pub,
         "--themes", os.path.join(REPOSITORY, "Themes"), "--timeout", "5", "--total-timeout", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)


async def resume(livery, work):
    store = store_fixture.Store(os.path.join(work, "resume"), livery, sizes=[20 * MB])
    product = store.products[0]
    size = os.path.getsize(store.packages[product])
    with store_fixture.Nginx(store.folder, work) as nginx:
        proxy = await FaultProxy(nginx.port, cut_every=2 * MB, only_suffix=".liverypkg").start()
        folder = os.path.join(work, "resume-installed")
        runs, status = 0, None
        try:
            while runs < 10 and status != 0:
                runs += 1
                result = await asyncio.to_thread(install, livery, f"http://127.0.0.1:{proxy.port}", store, product,
                                                 folder)
                status = result.returncode
        finally:
            await proxy.stop()
        package_requests = [e for e in nginx.access_entries() if ".liverypkg" in e[3]]
    sent = proxy.counters.total(".liverypkg")
    say("**A 20 MB package, the connection cut every 2 MB**\n\n```")
    say(f"package size                 {size:>12,d} bytes")
    say(f"sent to the client in all    {sent:>12,d} bytes (responses' heads included)  {sent / size:.3f}x the size")
    say(f"package requests             {len(package_requests):>12d} ({proxy.counters.connections} connections)")
    say(f"livery install runs          {runs:>12d} (last exit status {status})")
    starts = [entry[3] for entry in proxy.log if entry[2].endswith(".liverypkg")]
    say("package requests' Range      " + ", ".join(start or "(whole)" for start in starts))
    say("```\n")
    return status == 0


def refresh(livery, work):
    store = store_fixture.Store(os.path.join(work, "refresh"), livery, sizes=[1000, 1000, 1000, 1000, 1000, 1000])
    catalog_key = os.path.join(store.keys, "catalog.key")
    say("**1,000 catalog refreshes** (100 devices x 10 rounds, the catalog republished after round 5)\n")
    say("| requests | 200 | 304 | bytes nginx sent | per refresh |")
    say("| --- | ---: | ---: | ---: | ---: |")
    for conditional in (False, True):
        # Republishing writes the catalog again: back to one version so both modes see the same.
        store_fixture.run(livery, "catalog", store.folder, "--sign-with", catalog_key, "--expires", "1d")
        with store_fixture.Nginx(store.folder, work) as nginx:
            copies = [None] * 100
            for round_ in range(10):
                if round_ == 5:
                    time.sleep(1.1)  # validators carry whole seconds
                    store_fixture.run(livery, "catalog", store.folder, "--sign-with", catalog_key, "--expires", "1d")
                connection = http.client.HTTPConnection("127.0.0.1", nginx.port, timeout=10)
                for device in range(100):
                    headers = {"Accept-Encoding": "identity"}
                    if conditional and copies[device]:
                        etag, modified = copies[device]
                        headers["If-None-Match"] = etag
                        headers["If-Modified-Since"] = modified
                    connection.request("GET", "/catalog.json", headers=headers)
                    response = connection.getresponse()
                    response.read()
                    if response.status == 200:
                        copies[device] = (response.getheader("ETag"), response.getheader("Last-Modified"))
                connection.close()
            entries = [e for e in nginx.access_entries() if "/catalog.json" in e[3]]
        ok = sum(1 for e in entries if e[0] == 200)
        not_modified = sum(1 for e in entries if e[0] == 304)
        total = sum(e[2] for e in entries)
        name = "If-None-Match + If-Modified-Since" if conditional else "plain GET"
        say(f"| {name} | {ok} | {not_modified} | {total:,d} | {total / len(entries):,.0f} |")
        if not_modified:
            per_304 = sum(e[2] for e in entries if e[0] == 304) / not_modified
    say(f"\ncatalog.json: {os.path.getsize(os.path.join(store.folder, 'catalog.json')):,d} bytes (6 products); "
        f"a 304: {per_304:.0f} bytes, head included.")


def max_age(livery, work):
    store = store_fixture.Store(os.path.join(work, "max-age"), livery, sizes=[1000])
    product = store.products[0]
    say("\n**Catalog requests reaching nginx**: 5 devices running `livery install` every `0.5 s` for `6 s`\n")
    say("| catalog.json Cache-Control | livery runs | catalog requests at nginx | 200 | 304 | per device per minute |")
    say("| --- | ---: | ---: | ---: | ---: | ---: |")
    for header in ("no-cache", "max-age=3"):
        with open(os.path.join(REPOSITORY, "Examples", "nginx", "livery-store.conf")) as handle:
            if 'location = /catalog.json { add_header Cache-Control "no-cache"; }' not in handle.read():
                raise SystemExit("the example's catalog.json location changed")
        folders = [os.path.join(work, f"device-{header}-{n}") for n in range(5)]
        with store_fixture.Nginx(store.folder, work, catalog_cache_control=header) as nginx:
            base = f"http://127.0.0.1:{nginx.port}"
            runs, failures = 0, 0
            start = time.monotonic()
            while time.monotonic() - start < 6:
                tick = time.monotonic()
                for folder in folders:
                    runs += 1
                    failures += install(livery, base, store, product, folder).returncode != 0
                time.sleep(max(0, 0.5 - (time.monotonic() - tick)))
            elapsed = time.monotonic() - start
            entries = [e for e in nginx.access_entries() if e[3].startswith("GET /catalog.json")]
        ok = sum(1 for e in entries if e[0] == 200)
        not_modified = sum(1 for e in entries if e[0] == 304)
        rate = len(entries) / len(folders) / elapsed * 60
        say(f"| `{header}` | {runs} ({failures} failed) | {len(entries)} | {ok} | {not_modified} | {rate:.0f} |")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cases", nargs="*", default=["resume", "refresh", "max-age"])
    parser.add_argument("--out", default=os.path.join(REPOSITORY, "Benchmarks", "results", "store-network.md"))
    parser.add_argument("--bin", default=os.path.join(REPOSITORY, ".build", "debug", "livery"))
    args = parser.parse_args()
    livery = os.path.abspath(args.bin)
    work = tempfile.mkdtemp(prefix="livery-network-")
    ok = True
    try:
        if "resume" in args.cases:
            ok = asyncio.run(resume(livery, work)) and ok
        if "refresh" in args.cases:
            refresh(livery, work)
        if "max-age" in args.cases:
            max_age(livery, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    with open(args.out + ".tmp", "w") as handle:
        handle.write("\n".join(LINES).strip("\n") + "\n")
    os.replace(args.out + ".tmp", args.out)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
