#!/usr/bin/env python3
"""Installs a signed catalog's packages with `livery install` through the fault-injecting proxy
(fault_proxy.py) in front of nginx on loopback, once per seed, and checks each outcome against an
install over a clean connection.

    python3 Tests/StoreProxy/run_seeds.py LIVERY [--seeds N] [--first-seed S] [--seed S ...] [--sabotage]

For every seed, every product is installed into a fresh folder, re-running the command after a
failure as a user or an app would (at most `--runs` times). After every run the folder must hold,
for each product, either nothing or exactly the clean install's files (byte for byte), and a
failed run must end with exit status 1 and one `error:` line; after the last run every product
must be installed, byte for byte as over a clean connection, with no partial download left.
`--sabotage` alters one byte of a clean-install file before comparing, to show the comparison
fails.

`--kills K` checks instead an app killed in the middle of a download: no faults, package bodies
trickled (`--rate`), and each product's `livery install` killed with SIGKILL at a random moment
(drawn from the seed) K times, then run to the end. Besides the checks above (nothing damaged
after any kill, the clean install at the end, nothing left behind), each restart must resume:
its `Range` starts at most `LOSS` bytes before the end of what the killed run was sent, and the
package's body bytes sent in all are exactly its size plus those lost tails, so nothing was
downloaded twice. `--sabotage` then drops `Range` and `If-Range` on the way (a server without
range support: the installs still succeed), and the resume check must fail.

Exits 1 on any wrong outcome. nginx and the proxy stop when the script ends.
"""
import argparse
import asyncio
import hashlib
import os
import random
import re
import shutil
import signal
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import store_fixture  # noqa: E402
from fault_proxy import FaultProxy  # noqa: E402


def snapshot(folder):
    """relative path -> SHA-256 of every file outside .liverystore/."""
    files = {}
    for base, dirs, names in os.walk(folder):
        rel_base = os.path.relpath(base, folder)
        if rel_base.split(os.sep)[0] == ".liverystore":
            continue
        for name in names:
            path = os.path.join(base, name)
            with open(path, "rb") as handle:
                files[os.path.normpath(os.path.join(rel_base, name))] = hashlib.sha256(handle.read()).hexdigest()
    return files


def product_files(files, product):
    return {path: digest for path, digest in files.items() if path.split(os.sep)[0].startswith(product + ".")}


def summarize(error):
    """An error line with its port and digests replaced, so that errors of a kind count together."""
    error = re.sub(r"127\.0\.0\.1:\d+", "127.0.0.1:PORT", error)
    return re.sub(r"\b[0-9a-f]{64}\b", "<sha256>", error)[:120]


def leftovers(folder):
    """Files a finished install must not leave: partial downloads, staging and trash folders."""
    found = []
    for sub in ("downloads", "staging", "trash"):
        path = os.path.join(folder, ".liverystore", sub)
        if os.path.isdir(path):
            found += [os.path.join(sub, name) for name in os.listdir(path)]
    return found


# The most a killed download may lose: what was in the sockets and not yet written when it died.
LOSS = 256 * 1024


async def run_install(livery, base, product, folder, root_pub, kill=None):
    """(exit status, stdout, stderr); the status is "killed" when the awaitable `kill` ended first."""
    process = await asyncio.create_subprocess_exec(
        livery, "install", base + "/catalog.json", "--id", product, "--into", folder, "--root-key", root_pub,
        "--themes", os.path.join(store_fixture.REPOSITORY, "Themes"), "--timeout", "1", "--total-timeout", "20",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    if kill is not None:
        finished = asyncio.ensure_future(process.communicate())
        killer = asyncio.ensure_future(kill)
        await asyncio.wait([finished, killer], timeout=120, return_when=asyncio.FIRST_COMPLETED)
        killer.cancel()
        if not finished.done():
            process.kill()
            await process.wait()
            await finished
            return "killed", "", ""
        out, err = finished.result()
        return process.returncode, out.decode(errors="replace"), err.decode(errors="replace")
    try:
        out, err = await asyncio.wait_for(process.communicate(), timeout=120)
    except asyncio.TimeoutError:
        process.kill()
        await process.wait()
        return None, "", "timed out after 120 s"
    return process.returncode, out.decode(errors="replace"), err.decode(errors="replace")


async def run_seed(seed, livery, store, clean, runs, work, verbose):
    """Returns a list of problems (empty when the seed ended correct) and a summary."""
    proxy = await FaultProxy(store.port, seed=seed, stall=1.6, retry_after=1).start()
    base = f"http://127.0.0.1:{proxy.port}"
    folder = os.path.join(work, f"seed-{seed}")
    problems, errors, total_runs = [], [], 0
    try:
        for product in store.products:
            for attempt in range(runs):
                total_runs += 1
                status, out, err = await run_install(livery, base, product, folder, store.root_pub)
                now = product_files(snapshot(folder), product)
                if now and now != product_files(clean, product):
                    problems.append(f"{product} run {attempt + 1}: a damaged install: {sorted(now)}")
                if status == 0:
                    if not now:
                        problems.append(f"{product} run {attempt + 1}: exit 0 but nothing installed")
                    break
                message = [line for line in err.splitlines() if line.startswith("error:")]
                if status != 1 or len(message) != 1:
                    problems.append(f"{product} run {attempt + 1}: exit {status}, not one error line: {err[-400:]!r}")
                    break
                if now:
                    problems.append(f"{product} run {attempt + 1}: failed ({message[0]}) but left an install")
                errors.append(summarize(message[0]))
        final = snapshot(folder)
        if final != clean:
            missing = sorted(set(clean) - set(final))
            extra = sorted(set(final) - set(clean))
            differ = sorted(p for p in set(final) & set(clean) if final[p] != clean[p])
            problems.append(f"the installed tree differs from a clean install: missing {missing}, extra {extra}, "
                            f"different {differ}")
        if leftovers(folder):
            problems.append(f"left behind: {leftovers(folder)}")
    finally:
        await proxy.stop()
        shutil.rmtree(folder, ignore_errors=True)
    if verbose or problems:
        for entry in proxy.log:
            print("   ", entry)
    return problems, errors, total_runs, proxy.counters


def resume_problems(requests, size):
    """What the package requests of one product say about resuming: problems, lost bytes."""
    problems, lost, most = [], 0, 0
    for this, after in zip(requests, requests[1:]):
        end = this["start"] + this["body"]
        loss = end - after["start"]
        if loss < 0 or loss > LOSS:
            problems.append(f"request {after['index']} resumed at {after['start']}, the run before it had "
                            f"bytes up to {end}")
        lost += max(0, loss)
        most = max(most, loss)
    body = sum(request["body"] for request in requests)
    if body != size + lost:
        problems.append(f"{body} body bytes sent for a {size}-byte package that lost {lost} at kills")
    return problems, lost, most


async def kill_after(event, delay):
    """Returns `delay` seconds after `event` is set (after the call when it is None)."""
    if event is not None:
        await event.wait()
    await asyncio.sleep(delay)


async def run_kill_seed(seed, livery, store, clean, kills, rate, work, sabotage):
    """Kills each product's install `kills` times at random moments, then lets it finish."""
    proxy = await FaultProxy(store.port, seed=seed, faulty_connections=0, rate=rate, drop_range=sabotage).start()
    base = f"http://127.0.0.1:{proxy.port}"
    folder = os.path.join(work, f"kill-{seed}")
    rng = random.Random(f"{seed}:kills")
    problems, notes = [], []
    totals = {"kills": 0, "requests": 0, "resumed": 0, "lost": 0, "most": 0, "bytes": 0}
    try:
        for product in store.products:
            size = os.path.getsize(store.packages[product])
            killed = 0
            for attempt in range(kills + 1):
                kill = None
                if attempt < kills:
                    # Mostly in the middle of the download at `rate`; sometimes before it starts.
                    early = rng.random() < 0.25
                    delay = rng.uniform(0.02, 0.3) if early else rng.uniform(0, size / rate)
                    proxy.package_started.clear()
                    kill = kill_after(None if early else proxy.package_started, delay)
                status, _, err = await run_install(livery, base, product, folder, store.root_pub, kill)
                now = product_files(snapshot(folder), product)
                if now and now != product_files(clean, product):
                    problems.append(f"{product} run {attempt + 1}: a damaged install: {sorted(now)}")
                if status == "killed":
                    killed += 1
                    if now:
                        # Killed after its install committed: finished (another run would reinstall).
                        break
                    continue
                if status != 0:
                    problems.append(f"{product} run {attempt + 1}: exit {status}: {err[-400:]!r}")
                break
            requests = [r for r in proxy.requests if r["path"].endswith(os.path.basename(store.packages[product]))]
            found, lost, most = resume_problems(requests, size)
            problems += [f"{product}: {problem}" for problem in found]
            resumed = sum(1 for r in requests if r["start"] > 0)
            for key, value in (("kills", killed), ("requests", len(requests)), ("resumed", resumed), ("lost", lost),
                               ("bytes", sum(r["body"] for r in requests))):
                totals[key] += value
            totals["most"] = max(totals["most"], most)
            notes.append(f"{product.split('.')[-1]} {killed} kills, {len(requests)} requests "
                         f"({resumed} resumed), {lost} bytes lost")
        final = snapshot(folder)
        if final != clean:
            problems.append("the installed tree differs from a clean install")
        if leftovers(folder):
            problems.append(f"left behind: {leftovers(folder)}")
        if not any(r["start"] > 0 for r in proxy.requests):
            problems.append("no download was resumed: the kills proved nothing")
    finally:
        await proxy.stop()
        shutil.rmtree(folder, ignore_errors=True)
    return problems, notes, totals


async def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("livery")
    parser.add_argument("--seeds", type=int, default=3)
    parser.add_argument("--first-seed", type=int, default=1)
    parser.add_argument("--seed", type=int, action="append", help="run these seeds (repeatable) instead")
    parser.add_argument("--runs", type=int, default=6, help="runs of `livery install` per product at most")
    parser.add_argument("--sabotage", action="store_true")
    parser.add_argument("--verbose", action="store_true")
    parser.add_argument("--kills", type=int, help="kill each install this many times mid-download instead")
    parser.add_argument("--rate", type=int, default=1_500_000, help="package bytes per second with --kills")
    args = parser.parse_args()
    livery = os.path.abspath(args.livery)
    work = tempfile.mkdtemp(prefix="livery-faults-")
    start = time.monotonic()
    failed = 0
    try:
        store = store_fixture.Store(work, livery, sizes=[150_000, 700_000, 2_500_000])
        store.make_changed_copies()
        with store_fixture.Nginx(store.folder, work) as nginx:
            store.port = nginx.port
            clean_folder = os.path.join(work, "clean")
            for product in store.products:
                status, _, err = await run_install(livery, f"http://127.0.0.1:{nginx.port}", product, clean_folder,
                                                   store.root_pub)
                if status != 0:
                    raise SystemExit(f"a clean install of {product} failed: {err}")
            clean = snapshot(clean_folder)
            if args.kills is not None:
                failed, sums = 0, {}
                seeds = args.seed or list(range(args.first_seed, args.first_seed + args.seeds))
                for seed in seeds:
                    problems, notes, totals = await run_kill_seed(
                        seed, livery, store, clean, args.kills, args.rate, work, args.sabotage)
                    print(f"seed {seed}: {'ok' if not problems else 'WRONG'} ({'; '.join(notes)})", flush=True)
                    for problem in problems:
                        print("   ", problem)
                    failed += bool(problems)
                    for key, value in totals.items():
                        sums[key] = max(sums.get(key, 0), value) if key == "most" else sums.get(key, 0) + value
                packages = sum(os.path.getsize(path) for path in store.packages.values()) * len(seeds)
                print(f"{len(seeds) - failed} of {len(seeds)} seeds correct, {sums['kills']} installs killed, "
                      f"{time.monotonic() - start:.1f} s")
                print(f"package requests {sums['requests']}, of which resumed {sums['resumed']}; "
                      f"body bytes sent {sums['bytes']} for {packages} bytes of packages "
                      f"({sums['bytes'] / packages:.3f}x); lost at kills {sums['lost']}, "
                      f"at most {sums['most']} at one kill")
                return 1 if failed else 0
            if args.sabotage:
                victim = sorted(clean)[0]
                path = os.path.join(clean_folder, victim)
                data = bytearray(open(path, "rb").read())
                data[len(data) // 2] ^= 0x01
                open(path, "wb").write(bytes(data))
                clean = snapshot(clean_folder)
                print(f"sabotage: flipped one bit of the clean install's {victim}")
            faults, all_errors, runs = {}, {}, 0
            seeds = args.seed or list(range(args.first_seed, args.first_seed + args.seeds))
            for seed in seeds:
                problems, errors, seed_runs, counters = await run_seed(
                    seed, livery, store, clean, args.runs, work, args.verbose)
                runs += seed_runs
                for name, count in counters.faults.items():
                    faults[name] = faults.get(name, 0) + count
                for error in errors:
                    all_errors[error] = all_errors.get(error, 0) + 1
                state = "ok" if not problems else "WRONG"
                injected = ", ".join(f"{k} {v}" for k, v in sorted(counters.faults.items()) if k != "pass")
                print(f"seed {seed}: {state} ({seed_runs} runs, {counters.connections} connections; {injected})",
                      flush=True)
                for problem in problems:
                    print("   ", problem)
                failed += bool(problems)
        print(f"{len(seeds) - failed} of {len(seeds)} seeds correct, {runs} runs of livery install, "
              f"{time.monotonic() - start:.1f} s")
        print("faults injected:", ", ".join(f"{k} {v}" for k, v in sorted(faults.items())))
        print("errors reported by failed runs (then re-run):")
        for error, count in sorted(all_errors.items(), key=lambda item: -item[1]):
            print(f"  {count:4d}  {error}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    # SIGTERM unwinds like Ctrl-C, so nginx and the proxy are stopped on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    sys.exit(asyncio.run(main()))
