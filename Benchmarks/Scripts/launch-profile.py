#!/usr/bin/env python3
"""Where a fresh process's launch goes: samples many launches of one layout with `perf`, keeps the
samples taken inside the timed launch (the local function `launch(_:)` of the benchmark's
Launch.swift) and splits them into the Swift runtime's first-use costs and the rest
(docs/Performance.md, "What the compiled launch is made of").

    # a fixture, once (the sample themes are always made)
    Benchmarks/.build/release/livery-bench launch --sizes 1000 --runs 1 --work /tmp/launch-fixture
    python3 Benchmarks/Scripts/launch-profile.py Benchmarks/.build/release/livery-bench \\
        --fixture /tmp/launch-fixture/launch-samples --runs 300

Prints the share of the launch's samples spent in type metadata requested by mangled name, in
protocol-conformance scans (a cache miss: on Linux the runtime then reads the conformance records
of every loaded image), in page faults and in the rest; then the conformance scans by the generic
type whose metadata needed them (for a dictionary, the first insertion with a key type not seen
before). Needs `perf` (linux-perf) and `swift demangle`; shares, not times: sampling with call
graphs slows the launch.
"""
import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

# The mangled result type of `launch(_:)` in Launch.swift: (manager: ThemeManager, applicator: ...).
LAUNCH = "L_y6Livery12ThemeManagerC7manager"


def samples(perf_script):
    """Each sample's frames, innermost first, as (symbol, library file name)."""
    for block in perf_script.split("\n\n"):
        frames = []
        for line in block.strip().split("\n")[1:]:
            parts = line.strip().split(" ", 1)
            if len(parts) < 2:
                continue
            symbol, _, library = parts[1].rpartition(" (")
            frames.append((symbol, library.rstrip(")").rsplit("/", 1)[-1]))
        if frames:
            yield frames


def demangle(names):
    """Readable names that keep a specialization's generic arguments: `_NativeDictionary<String,
    ThemeDescriptor>._copyOrMoveAndResize`."""
    done = subprocess.run(["swift", "demangle"], input="\n".join(names), capture_output=True, text=True)
    if done.returncode != 0:
        return names
    readable = []
    for name in done.stdout.splitlines():
        name = re.sub(r"\b(Swift|Livery|LiveryModel|LiveryBinary|LiveryHeadless)\.", "", name)
        name = re.sub(r"\(anonymous namespace\)|\(([A-Za-z]+) in _[0-9A-F]+\)", r"\1", name)
        specialized = re.match(r"(?:.*specialization )?<(.*?)> of ([\w.]+?)(\.[\w]+)\(", name)
        readable.append(f"{specialized[2]}<{specialized[1]}>{specialized[3]}" if specialized else name.split(" -> ")[0])
    return readable


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binary")
    parser.add_argument("--fixture", required=True, help="a launch fixture folder (launch-samples, launch1000, ...)")
    parser.add_argument("--layout", default="compiled", choices=["compiled", "xml"])
    parser.add_argument("--runs", type=int, default=300)
    options = parser.parse_args()
    mode = "release" if options.layout == "compiled" else "development"
    child = f"{os.path.abspath(options.binary)} launch-child app {options.fixture}/{options.layout}.xml {options.fixture}/styled.txt {mode} 0"
    with tempfile.TemporaryDirectory() as work:
        data = os.path.join(work, "perf.data")
        loop = f"for i in $(seq {options.runs}); do {child} >/dev/null || exit 1; done"
        recorded = subprocess.run(["perf", "record", "-q", "-g", "-F", "30000", "-o", data, "sh", "-c", loop],
                                  capture_output=True, text=True)
        if recorded.returncode != 0:
            sys.exit(f"perf record failed: {recorded.stderr.strip()}")
        script = subprocess.run(["perf", "script", "-i", data, "-F", "comm,ip,sym,dso"], capture_output=True, text=True).stdout

    total = 0
    kinds = collections.Counter()
    scans = collections.Counter()
    for frames in samples(script):
        inside = [i for i, (symbol, _) in enumerate(frames) if LAUNCH in symbol]
        if not inside:
            continue
        below = frames[:inside[-1]]
        total += 1
        symbols = [symbol for symbol, _ in below]
        if any("conformsToProtocol" in s for s in symbols):
            kinds["conformance scans (within metadata by mangled name)"] += 1
            # The generic type whose metadata asked: the first frame of our own code above the request.
            request = next((i for i, s in enumerate(symbols) if "getTypeByMangledName" in s), None)
            callers = [s for s, library in below[request or 0:]
                       if library == os.path.basename(options.binary) and "instantiateConcreteType" not in s]
            scans[callers[0] if callers else "?"] += 1
        elif any("MangledName" in s for s in symbols):
            kinds["other metadata by mangled name"] += 1
        elif below and below[0][1] == "[kernel.kallsyms]" and any("page_fault" in s for s in symbols):
            kinds["page faults"] += 1
        else:
            kinds["the rest (the engine's work, other runtime calls, system calls)"] += 1
    if total == 0:
        sys.exit("no sample fell inside the launch: is this a livery-bench binary with launch-child?")
    print(f"{total} samples inside {options.runs} {options.layout} launches ({total / options.runs:.0f} per launch)")
    for kind, count in kinds.most_common():
        print(f"  {100 * count / total:5.1f}%  {kind}")
    print("conformance scans, by the code whose generic metadata needed one:")
    shown = [(name, count) for name, count in scans.most_common() if count * 200 >= total]
    for readable, (_, count) in zip(demangle([name for name, _ in shown]), shown):
        print(f"  {100 * count / total:5.1f}%  {readable[:160]}")
    rest = sum(scans.values()) - sum(count for _, count in shown)
    if rest:
        print(f"  {100 * rest / total:5.1f}%  elsewhere (each under 0.5%)")


if __name__ == "__main__":
    main()
