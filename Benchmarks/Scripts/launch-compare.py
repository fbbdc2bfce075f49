#!/usr/bin/env python3
"""Compares the launch of two (or more) builds of livery-bench on one fixture, alternating
their runs in one session so that the machine's load hits both alike: what decides whether an
optimisation of the launch stays (docs/Performance.md).

    # a fixture, once (any size list works; the sample themes are always made)
    Benchmarks/.build/release/livery-bench launch --sizes 1000 --runs 1 --work /tmp/launch-fixture
    # then, e.g. a copy of the binary before a change against the one after it
    python3 Benchmarks/Scripts/launch-compare.py /tmp/livery-bench-before Benchmarks/.build/release/livery-bench \\
        --fixture /tmp/launch-fixture/launch-samples --runs 21

Prints, for each binary and layout, the median and quartile of `all_ns` (the launch to the last
styled component) in microseconds.
"""
import argparse
import json
import statistics
import subprocess
import sys


def launch(binary, fixture, layout):
    mode = "release" if layout == "compiled" else "development"
    base = [binary, "launch-child", "app", f"{fixture}/{layout}.xml", f"{fixture}/styled.txt", mode]
    # Builds before the relaunch column took no RELAUNCHES argument.
    for arguments in (base + ["0"], base):
        done = subprocess.run(arguments, capture_output=True, text=True)
        if done.returncode == 0:
            return json.loads(done.stdout.strip().splitlines()[-1])["all_ns"] / 1000
    sys.exit(f"{binary} failed: {done.stderr.strip()}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("binaries", nargs="+")
    parser.add_argument("--fixture", required=True, help="a launch fixture folder (launch-samples, launch1000, ...)")
    parser.add_argument("--layouts", default="compiled,xml")
    parser.add_argument("--runs", type=int, default=21)
    options = parser.parse_args()
    layouts = options.layouts.split(",")
    results = {(binary, layout): [] for binary in options.binaries for layout in layouts}
    for _ in range(options.runs):
        for binary in options.binaries:
            for layout in layouts:
                results[(binary, layout)].append(launch(binary, options.fixture, layout))
    for (binary, layout), values in results.items():
        values.sort()
        print(f"{binary}  {layout:8s}  median {statistics.median(values):9.1f} µs  "
              f"quartiles {values[len(values) // 4]:9.1f} - {values[3 * len(values) // 4]:9.1f}")


if __name__ == "__main__":
    main()
