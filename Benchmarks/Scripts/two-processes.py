#!/usr/bin/env python3
"""Whether two jobs cost more CPU than one because of the process or because of the machine.

Generates N operator brands (brands.py), then for R rounds measures, alternating, the CPU time
(user + system) of: one `validate --jobs 1` of the whole tree; one `validate --jobs 2` of it; two
processes at once, each validating half of the brands (beside its own copy of Base) with
`--jobs 1`. If two processes cost as much together as one process with two jobs, what two jobs
add is the machine's (two cores slowing each other), not sharing within the process.

    python3 Benchmarks/Scripts/two-processes.py --bin .build/release/livery
    python3 Benchmarks/Scripts/two-processes.py --bin PATH --brands 1000 --rounds 5
"""
import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import brands  # noqa: E402


def cpu_of(commands):
    """CPU seconds (user + system) of the commands, run at once."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    processes = [subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                 for command in commands]
    for process in processes:
        process.wait()
        if process.returncode != 0:
            sys.exit(f"{' '.join(processes[0].args)} failed")
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bin", required=True, help="the livery binary to measure")
    parser.add_argument("--brands", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--scratch", default="/dev/shm" if os.path.isdir("/dev/shm") else None)
    arguments = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="livery-two-", dir=arguments.scratch) as scratch:
        tree = os.path.join(scratch, "all")
        brands.generate(tree, arguments.brands)
        halves = [os.path.join(scratch, "half1"), os.path.join(scratch, "half2")]
        for half in halves:
            shutil.copytree(os.path.join(tree, "Base.theme"), os.path.join(half, "Base.theme"))
        names = sorted(name for name in os.listdir(tree) if name.startswith("Operator"))
        for index, name in enumerate(names):
            shutil.copytree(os.path.join(tree, name), os.path.join(halves[index % 2], name))
        validate = [arguments.bin, "validate", "--format", "json"]
        runs = {"one process, --jobs 1": [], "one process, --jobs 2": [], "two processes, --jobs 1 each": []}
        for _ in range(arguments.rounds):
            runs["one process, --jobs 1"].append(cpu_of([validate + [tree, "--jobs", "1"]]))
            runs["one process, --jobs 2"].append(cpu_of([validate + [tree, "--jobs", "2"]]))
            runs["two processes, --jobs 1 each"].append(
                cpu_of([validate + [half, "--jobs", "1"] for half in halves]))
    print(f"{arguments.brands:,} brands, CPU seconds (user + system) over {arguments.rounds} rounds:")
    for name, times in runs.items():
        print(f"  {name}: min {min(times):.2f}, median {statistics.median(times):.2f}")


if __name__ == "__main__":
    main()
