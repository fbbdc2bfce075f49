#!/usr/bin/env python3
"""Many seeds of the store's fault-injecting proxy check (Tests/StoreProxy/run_seeds.py): every
product of a signed catalog installed with `livery install` through cuts, stalls, resets, 503s,
a file changed between two ranges and lying Content-Range headers in front of nginx, each seed
checked against a clean install byte for byte. Scripts/test.sh runs a few seeds; this runs many.

    swift build --product livery
    python3 Benchmarks/Scripts/bench-store-faults.py [--seeds 200] [--first-seed 1] [--bin PATH]

Writes the summary (seeds correct, faults injected, errors the failed runs reported before being
run again) to Benchmarks/results/store-faults.md (docs/Performance.md includes it); --out FILE
writes it elsewhere. Exits 1 when any seed ends wrong (the seed's proxy log is printed).
"""
import argparse
import os
import subprocess
import sys

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--seeds", type=int, default=200)
parser.add_argument("--first-seed", type=int, default=1)
parser.add_argument("--bin", default=os.path.join(REPOSITORY, ".build", "debug", "livery"))
parser.add_argument("--out", default=os.path.join(REPOSITORY, "Benchmarks", "results", "store-faults.md"))
args = parser.parse_args()
process = subprocess.Popen([sys.executable, os.path.join(REPOSITORY, "Tests", "StoreProxy", "run_seeds.py"), args.bin,
                            "--seeds", str(args.seeds), "--first-seed", str(args.first_seed)],
                           stdout=subprocess.PIPE, text=True)
summary = []
for line in process.stdout:
    print(line, end="", flush=True)
    # The summary starts at "N of M seeds correct"; the lines before are one per seed.
    if summary or " seeds correct" in line:
        summary.append(line.rstrip("\n"))
status = process.wait()
with open(args.out + ".tmp", "w") as handle:
    handle.write("```\n" + "\n".join(summary) + "\n```\n")
os.replace(args.out + ".tmp", args.out)
sys.exit(status)
