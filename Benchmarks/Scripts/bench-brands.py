#!/usr/bin/env python3
"""Hundreds of brands: `validate` and `build` of N operator themes (brands.py), children of the
sample Base, against the floor measured in the same run (libxml2 parsing every XML file of the
tree in one process, parse-floor.c).

For each N: the floor; cold `validate` with `--jobs 1` and with the default (every core); cold
`build` (empty output folder) with `--jobs 1` and the default; a second `build` with nothing
changed; `build` after one brand changed; `build` after the base changed; for the clean tree,
`validate` once more with Base's direction and density layers taken out (Chat~rtl.xml and
Chat~compact.xml: 8 trait sets per brand rather than 32), what format 1.3's dimensions cost. Each
row is one run
(`validate` and the cold `build` with every core, whose ratios are the targets: the median of
three by CPU time, the ratio line giving the range)
in a fresh process under measure.c: wall time, CPU time (user + system), peak RSS, and for builds
how many compiled files were written (a file whose modification time or bytes changed).

Each size is measured on two trees: `clean`, whose brands nudge Base's colours and draw no
finding, and `findings`, whose brands have random colours and each draw a contrast warning or
two (brands.py --findings), as operators' first drafts do. `--trees clean` measures one.

A row whose flag the binary does not offer (`--jobs` of build, say) is reported as n/a, so the
script runs against any build of the tool.

    python3 Benchmarks/Scripts/bench-brands.py                 N = 10, 100, 1000
    python3 Benchmarks/Scripts/bench-brands.py --sizes 10,100  other sizes
    python3 Benchmarks/Scripts/bench-brands.py --ten-thousand  N = 10, 100, 1000, 10000
    python3 Benchmarks/Scripts/bench-brands.py --sizes 10,100,1000,3000  peak RSS at 3,000
    python3 Benchmarks/Scripts/bench-brands.py --trees findings  the findings tree only
    python3 Benchmarks/Scripts/bench-brands.py --bin PATH      an already built livery-build-tool
    python3 Benchmarks/Scripts/bench-brands.py --scratch DIR   trees and outputs in DIR (default
                                                               /dev/shm when there is one)

Writes Benchmarks/results/brands.json and brands.md (docs/Performance.md includes the table);
--out DIR writes them elsewhere.
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.normpath(os.path.join(here, "..", ".."))
sys.path.insert(0, here)
import brands  # noqa: E402


def run_timed(measure, command, cwd=None, stdin=None):
    """(wall s, cpu s, peak RSS KiB, exit status, stdout, stderr) of one run under measure.c: the
    command's own CPU time to the microsecond and its own peak RSS."""
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            tempfile.NamedTemporaryFile("r", suffix=".measure") as report:
        process = subprocess.run([measure, report.name] + command, cwd=cwd, stdin=stdin, stdout=out, stderr=err)
        wall, cpu, rss = report.read().split()
        out.seek(0)
        err.seek(0)
        return float(wall), float(cpu), int(rss), process.returncode, out.read(), err.read()


def supports(binary, command, flag):
    help_text = subprocess.run([binary, command, "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True).stdout
    return flag in help_text


def snapshot(folder):
    """Each compiled file's (modification time, bytes)."""
    if not os.path.isdir(folder):
        return {}
    result = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".livery"):
            path = os.path.join(folder, name)
            result[name] = (os.stat(path).st_mtime_ns, open(path, "rb").read())
    return result


def written(before, after):
    return sum(1 for name, state in after.items() if before.get(name) != state)


def build_tools(scratch):
    """parse-floor.c (the floor) and measure.c (what one run of a command used)."""
    floor = os.path.join(scratch, "parse-floor")
    flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libxml-2.0"], stdout=subprocess.PIPE, text=True,
                           check=True).stdout.split()
    subprocess.run(["cc", "-O2", os.path.join(here, "parse-floor.c")] + flags + ["-o", floor], check=True)
    measure = os.path.join(scratch, "measure")
    subprocess.run(["cc", "-O2", os.path.join(here, "measure.c"), "-o", measure], check=True)
    return floor, measure


def measure(binary, tools, tree, count, scratch, kind="clean"):
    floor, meter = tools
    os.makedirs(scratch, exist_ok=True)
    rows = []
    xml_files = sorted(os.path.join(folder, name) for folder, _, names in os.walk(tree) for name in names
                       if name.endswith(".xml"))
    listing = os.path.join(scratch, "xml-files.txt")
    open(listing, "w").write("\n".join(xml_files) + "\n")
    # The floor is short, so a moment's wait for a core on a shared machine doubles it: the
    # fastest of three runs.
    wall, cpu, rss = None, None, None
    for _ in range(3):
        with open(listing) as files:
            w, c, r, status, out, err = run_timed(meter, [floor], stdin=files)
        assert status == 0, err
        if wall is None or w < wall:
            wall, cpu, rss = w, c, r
    rows.append({"n": count, "tree": kind, "row": "floor: libxml2 parses every XML file", "wall": wall, "cpu": cpu,
                 "rss": rss, "files": len(xml_files)})
    build_jobs = supports(binary, "build", "--jobs")
    validate_jobs = supports(binary, "validate", "--jobs")

    def one_run(name, command, output, prepare):
        if prepare:
            prepare()
        before = snapshot(output) if output else None
        wall, cpu, rss, status, out, err = run_timed(meter, [binary] + command)
        entry = {"n": count, "tree": kind, "row": name, "wall": wall, "cpu": cpu, "rss": rss, "status": status}
        if output:
            entry["written"] = written(before, snapshot(output))
            # build's last line: "N themes: C compiled, U up to date, F failed; output in ..."
            summary = re.search(r"(\d+) compiled, (\d+) up to date, (\d+) failed", out + err)
            if summary:
                entry["compiled"], entry["up to date"], entry["failed"] = map(int, summary.groups())
        if status != 0:
            entry["error"] = err.strip().splitlines()[-1:] if err.strip() else out.strip().splitlines()[-1:]
        return entry

    def row(name, command, needs=True, output=None, prepare=None, runs=1):
        """`runs` runs, reporting the one with the median CPU time (with `runs` and its range)."""
        if not needs:
            rows.append({"n": count, "tree": kind, "row": name, "wall": None, "cpu": None, "rss": None})
            return
        entries = sorted((one_run(name, command, output, prepare) for _ in range(runs)), key=lambda e: e["cpu"])
        entry = entries[len(entries) // 2]
        if runs > 1:
            entry["runs"] = runs
            entry["cpu range"] = [entries[0]["cpu"], entries[-1]["cpu"]]
        rows.append(entry)

    # The rows the targets are ratios of: CPU times of one run vary by several percent on a shared
    # machine, so these report the median of three.
    row("validate --jobs 1", ["validate", tree, "--jobs", "1"], needs=validate_jobs)
    row("validate", ["validate", tree], runs=3)
    if kind == "clean":
        # What the dimensions of format 1.3 cost: the same tree with Base's direction and density
        # layers taken out resolves 8 trait sets per brand rather than 32.
        fewer = tree + "-without-layers"
        shutil.copytree(tree, fewer)
        for name in without_layers:
            os.remove(os.path.join(fewer, "Base.theme", name))
        row(four_dimensions, ["validate", fewer], runs=3)
        shutil.rmtree(fewer)
    output = os.path.join(scratch, "out")
    cold = lambda: shutil.rmtree(output, ignore_errors=True)  # noqa: E731
    row("build --jobs 1 (cold)", ["build", tree, "--output", output, "--jobs", "1"], needs=build_jobs,
        output=output, prepare=cold)
    row("build (cold)", ["build", tree, "--output", output], output=output, prepare=cold, runs=3)
    row("build, nothing changed", ["build", tree, "--output", output], output=output)
    row("build, one brand changed", ["build", tree, "--output", output], output=output,
        prepare=lambda: brands.change_brand(tree, max(count // 2, 1), salt=5, findings=kind == "findings"))
    row("build, base changed", ["build", tree, "--output", output], output=output,
        prepare=lambda: brands.change_base(tree, salt=5))
    return rows


# Base's layers of the dimensions format 1.3 added (direction, and the app-defined density).
without_layers = ["Chat~rtl.xml", "Chat~compact.xml"]
four_dimensions = "validate, Base without its rtl and compact layers"


def seconds(value):
    if value is None:
        return "n/a"
    return f"{value:.2f} s" if value >= 0.1 else f"{value * 1000:.0f} ms"


def table(rows):
    key = lambda r: (r["n"], r.get("tree", "clean"))  # noqa: E731
    floors = {key(r): r for r in rows if r["row"].startswith("floor")}
    validates = {key(r): r for r in rows if r["row"] == "validate"}
    lines = [
        "| themes | tree | run | wall | CPU | peak RSS | wall / floor | compiled | written |",
        "|---:|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        floor = floors.get(key(r))
        ratio = "n/a"
        if r["wall"] is not None and floor and floor["wall"]:
            ratio = f"{r['wall'] / floor['wall']:.0f}x" if not r["row"].startswith("floor") else "1x"
        rss = f"{r['rss'] / 1024:.0f} MiB" if r.get("rss") else "n/a"
        status = "" if r.get("status", 0) == 0 else " (failed)"
        lines.append(f"| {r['n']:,} | {key(r)[1]} | {r['row']}{status} | {seconds(r['wall'])} | {seconds(r['cpu'])} | {rss} | "
                     f"{ratio} | {r.get('compiled', '') if r['wall'] is not None else ''} | "
                     f"{r.get('written', '') if r['wall'] is not None else ''} |")
    lines.append("")
    def ratio(a, b):
        if not (a and b):
            return "n/a"
        return f"{a / b:.1f}x" if a / b >= 1 else f"{a / b:.2f}x"

    for (n, kind), validate in sorted(validates.items()):
        cold = next((r for r in rows if key(r) == (n, kind) and r["row"] == "build (cold)"), None)
        floor = floors[(n, kind)]
        line = (f"- {n:,} themes ({kind}): validate / floor {ratio(validate['wall'], floor['wall'])} wall, "
                f"{ratio(validate['cpu'], floor['cpu'])} CPU")
        if validate.get("cpu range") and floor["cpu"]:
            low, high = validate["cpu range"]
            line += f" (median of {validate['runs']} runs: {low / floor['cpu']:.1f}x to {high / floor['cpu']:.1f}x)"
        if cold and cold["wall"]:
            line += (f"; cold build / validate {ratio(cold['wall'], validate['wall'])} wall, "
                     f"{ratio(cold['cpu'], validate['cpu'])} CPU")
        lines.append(line)
        fewer = next((r for r in rows if key(r) == (n, kind) and r["row"] == four_dimensions), None)
        if fewer and fewer["cpu"] and floor["cpu"]:
            lines.append(f"- {n:,} themes ({kind}), Base without its direction and density layers (8 trait sets "
                         f"per brand, not 32): validate / floor {ratio(fewer['cpu'], floor['cpu'])} CPU; with them "
                         f"/ without {ratio(validate['cpu'], fewer['cpu'])} CPU")
        for name in ["build, nothing changed", "build, one brand changed"]:
            later = next((r for r in rows if key(r) == (n, kind) and r["row"] == name), None)
            if cold and later and later["wall"] is not None:
                lines.append(f"- {n:,} themes ({kind}): {name} / cold build {ratio(later['wall'], cold['wall'])} wall, "
                             f"{ratio(later['cpu'], cold['cpu'])} CPU, {later.get('written')} file(s) rewritten")
    colds = {r["n"]: r for r in rows if r["row"] == "build (cold)" and r.get("rss") and key(r)[1] == "clean"}
    if 100 in colds and max(colds) > 100:
        largest = max(colds)
        lines.append(f"- peak RSS of the cold build (clean), {largest:,} themes / 100 themes: "
                     f"{ratio(colds[largest]['rss'], colds[100]['rss'])}")
    lines.append("")
    lines.append("On a shared machine (2 cores): wall times include waiting for a core, CPU times (user + "
                 "system) do not.")
    return "\n".join(lines) + "\n"


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--ten-thousand", action="store_true", help="add N = 10,000")
    parser.add_argument("--trees", default="clean,findings", help="clean, findings or both (the default)")
    parser.add_argument("--bin", help="livery-build-tool (or livery) to measure; built in release when absent")
    parser.add_argument("--out", default=os.path.join(root, "Benchmarks", "results"))
    parser.add_argument("--scratch", default=default_scratch(),
                        help="where the trees and outputs are written (default: /dev/shm when there is one)")
    arguments = parser.parse_args()
    sizes = [int(size) for size in arguments.sizes.split(",")]
    kinds = arguments.trees.split(",")
    if not kinds or any(kind not in ("clean", "findings") for kind in kinds):
        parser.error("--trees takes clean, findings or clean,findings")
    if arguments.ten_thousand and 10000 not in sizes:
        sizes.append(10000)
    binary = arguments.bin
    if not binary:
        subprocess.run(["swift", "build", "-c", "release", "--product", "livery-build-tool"], cwd=root, check=True,
                       stdout=sys.stderr)
        path = subprocess.run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, check=True,
                              stdout=subprocess.PIPE, text=True).stdout.strip()
        binary = os.path.join(path, "livery-build-tool")
    rows = []
    load_before = load_average()
    with tempfile.TemporaryDirectory(prefix="livery-brands-", dir=arguments.scratch) as scratch:
        tools = build_tools(scratch)
        for count in sizes:
            for kind in kinds:
                tree = os.path.join(scratch, f"brands-{kind}-{count}")
                brands.generate(tree, count, findings=kind == "findings")
                print(f"N = {count} ({kind}): {load_average()}", file=sys.stderr)
                rows += measure(binary, tools, tree, count, os.path.join(scratch, f"work-{kind}-{count}"), kind)
                shutil.rmtree(tree)
    os.makedirs(arguments.out, exist_ok=True)
    with open(os.path.join(arguments.out, "brands.json"), "w") as handle:
        json.dump({"binary": os.path.basename(binary), "cores": os.cpu_count(), "rows": rows}, handle, indent=1,
                  default=str)
    markdown = table(rows) + (f"(Trees and outputs in {arguments.scratch}; {load_before} before the run, "
                              f"{load_average()} after.)\n")
    with open(os.path.join(arguments.out, "brands.md"), "w") as handle:
        handle.write(markdown)
    print(markdown)


def default_scratch():
    """A memory file system when there is one. On a disk's file system, creating thousands of
    files soon after deleting thousands (each cold build follows a deletion) makes the kernel
    skip every recently freed inode: on ext4 here that added up to 1.8 s of system time to a
    cold build of 1,000 themes, run to run, measuring the file system rather than Livery."""
    shm = "/dev/shm"
    return shm if os.path.isdir(shm) and os.access(shm, os.W_OK) else tempfile.gettempdir()


def load_average():
    try:
        return "load average " + " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return ""


if __name__ == "__main__":
    main()
