#!/usr/bin/env python3
"""Writes Benchmarks/results/summary.md, the one performance table the README and the docs
include, from the results of one benchmark run (Scripts/bench.sh):

  results/results.json   livery-bench report: launch, loads, runtime, sizes
  results/gtk.json       livery-gtk-bench (when present): a live switch of real GTK widgets
  results/studio.json    livery-studio-bench (when present): an edit to the redrawn screen

Docs never type a measured number by hand: they include this table between
`<!-- generated: Benchmarks/results/summary.md -->` and `<!-- end generated -->`, and
Scripts/check-doc-numbers.py fails the tests when the copy differs or a timing appears elsewhere.
"""
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
results = os.path.join(here, "..", "results")


def duration(ns):
    if ns is None:
        return "n/a"
    if ns >= 1e9:
        return f"{ns / 1e9:.2f} s"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms" if ns < 1e7 else f"{ns / 1e6:.1f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.0f} µs"
    return f"{ns:.0f} ns"


def ratio(a, b):
    if not a or not b:
        return "n/a"
    r = a / b
    return f"{r:.0f}x" if r >= 100 else f"{r:.1f}x"


def load(name):
    path = os.path.join(results, name)
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return json.load(f)


def main():
    report = load("results.json")
    if report is None:
        sys.exit("no results/results.json: run Scripts/bench.sh first")
    rows = []
    launch = report.get("launch", {})
    for label, title in [("generated, N = 10000", "10,000-instance theme"), ("sample themes (Dark)", "sample themes")]:
        layouts = launch.get(label)
        if not layouts:
            continue
        compiled = layouts.get("compiled", {}).get("all_ns")
        xml = layouts.get("xml", {}).get("all_ns")
        rows.append((f"launch, {title}: configuration file to styled components, from the compiled file / from XML",
                     f"{duration(compiled)} / {duration(xml)} ({ratio(xml, compiled)})",
                     "≥ 100x" if "10000" in label else "≥ 10x"))
    loads = report.get("load_ns", {}).get("10000", {})
    if loads:
        rows.append(("10,000 instances: open + mmap + verify of the compiled file / the XML front end (one trait set)",
                     f"{duration(loads.get('compiled'))} / {duration(loads.get('xml'))}", ""))
    runtime = report.get("runtime", {})
    if runtime:
        rows.append(("lookup of an instance by identifier in the compiled file, p50 / p99",
                     f"{duration(runtime.get('lookup_p50_ns'))} / {duration(runtime.get('lookup_p99_ns'))}", ""))
        rows.append(("first application to 10,000 headless components / with the themes preloaded",
                     f"{duration(runtime.get('first_application_ns'))} / {duration(runtime.get('first_application_preloaded_ns'))}", ""))
        rows.append(("switch under 10,000 headless components: everything / a tenth / light to dark",
                     f"{duration(runtime.get('switch_all_ns'))} / {duration(runtime.get('switch_tenth_ns'))} / {duration(runtime.get('switch_traits_ns'))}",
                     "everything ≤ 2 ms"))
    sizes = report.get("sizes", {}).get("10000", {})
    if sizes.get("xml"):
        rows.append(("compiled size / XML size, 10,000 instances", f"{sizes['compiled'] / sizes['xml']:.2f}", "≤ 0.6"))
    gtk = load("gtk.json")
    if gtk:
        widgets = f"{gtk.get('widgets', 1000):,}"
        rows.append((f"GTK 4, {widgets} widgets: live switch to the end of the next painted frame, Livery / GTK's own stylesheet swap",
                     f"{duration(gtk.get('livery_switch_ns'))} / {duration(gtk.get('css_swap_ns'))} ({gtk['livery_switch_ns'] / gtk['css_swap_ns']:.2f})",
                     "≤ 16.7 ms, ratio ≤ 1.1"))
        rows.append((f"GTK 4: Livery's own part of that switch (runtime, setters, style sheet)",
                     duration(gtk.get('livery_engine_ns')), "≤ 16.7 ms"))
        rows.append((f"GTK 4: first styling of {widgets} widgets to the painted frame; resident memory per styled widget "
                     "(one-time costs apart), Livery / GTK's own stylesheet",
                     f"{duration(gtk.get('first_styling_ns'))}; {gtk.get('bytes_per_widget', 0) / 1024:.1f} KiB / "
                     f"{gtk.get('css_bytes_per_widget', 0) / 1024:.1f} KiB", "≤ 16.7 ms; ratio ≤ 2"))
    studio = load("studio.json")
    if studio:
        build = "debug" if "debug" in str(studio.get("build", "")) else "release"
        rows.append((f"studio ({build} build): an edit in the page to the redrawn screen / to a connected app re-applied",
                     f"{duration(studio.get('edit_to_redraw_ns'))} / {duration(studio.get('edit_to_app_ns'))}", "≤ 100 ms / ≤ 200 ms"))
    lines = ["| measured (release build, medians) | result | target |", "|---|---|---|"]
    lines += [f"| {title} | {value} | {target} |" for title, value, target in rows]
    lines += ["", "On the project's machine kind (Linux, 2 shared cores, 24 GiB). Each row comes from the last run of the",
              "benchmark that writes it (`Benchmarks/results/*.json`); `bash Scripts/bench.sh` runs them all in one go."]
    text = "\n".join(lines) + "\n"
    with open(os.path.join(results, "summary.md"), "w") as f:
        f.write(text)
    sys.stdout.write(text)


if __name__ == "__main__":
    main()
