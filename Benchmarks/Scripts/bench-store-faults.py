#!/usr/bin/env python3
"""Many seeds of the store's fault-injecting proxy check (Tests/StoreProxy/run_seeds.py): every
product of a signed catalog installed with `livery install` through cuts, stalls, resets, 503s,
a file changed between two ranges and lying Content-Range headers in front of nginx, each seed
checked against a clean install byte for byte. Then the kill-and-restart check
(`run_seeds.py --kills 4`): each install killed four times at random moments of a trickled
download, then run to the end, each restart resuming where the killed run stopped. Scripts/test.sh
runs a few seeds of each; this runs many.

    swift build --product livery
    python3 Benchmarks/Scripts/bench-store-faults.py [--seeds 200] [--kill-seeds 100] [--first-seed 1] [--bin PATH]

Writes the summaries (seeds correct, faults injected, errors the failed runs reported before being
run again; installs killed, requests resumed, bytes sent against the packages' size) to
Benchmarks/results/store-faults.md and store-kills.md (docs/Performance.md includes them); --out
FILE writes the first elsewhere, beside it the second. Exits 1 when any seed ends wrong (the seed's
proxy log or problems are printed).
"""
import argparse
import os
import subprocess
import sys

REPOSITORY = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
parser.add_argument("--seeds", type=int, default=200)
parser.add_argument("--kill-seeds", type=int, default=100)
parser.add_argument("--first-seed", type=int, default=1)
parser.add_argument("--bin", default=os.path.join(REPOSITORY, ".build", "debug", "livery"))
parser.add_argument("--out", default=os.path.join(REPOSITORY, "Benchmarks", "results", "store-faults.md"))
args = parser.parse_args()


def run(options, out):
    """Runs run_seeds.py with `options`, writes its summary to `out`; returns its exit status."""
    process = subprocess.Popen([sys.executable, os.path.join(REPOSITORY, "Tests", "StoreProxy", "run_seeds.py"),
                                args.bin, "--first-seed", str(args.first_seed)] + options,
                               stdout=subprocess.PIPE, text=True)
    summary = []
    for line in process.stdout:
        print(line, end="", flush=True)
        # The summary starts at "N of M seeds correct"; the lines before are one per seed.
        if summary or " seeds correct" in line:
            summary.append(line.rstrip("\n"))
    status = process.wait()
    with open(out + ".tmp", "w") as handle:
        handle.write("```\n" + "\n".join(summary) + "\n```\n")
    os.replace(out + ".tmp", out)
    return status


# --seeds 0 or --kill-seeds 0 skips that check (and keeps its summary file).
faults = run(["--seeds", str(args.seeds)], args.out) if args.seeds else 0
kills = 0 if not args.kill_seeds else run(["--seeds", str(args.kill_seeds), "--kills", "4"], os.path.join(os.path.dirname(args.out), "store-kills.md"))
sys.exit(faults or kills)
