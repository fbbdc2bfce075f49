#!/usr/bin/env bash
# Livery on 1,001 real GTK 4 widgets against GTK's own stylesheet swap (docs/GTK.md): a live
# switch to the end of the next painted frame, alternated, medians of 30; first styling; memory
# per styled widget. Builds in release and runs on a private Xvfb display with the cairo renderer;
# writes Benchmarks/results/gtk.md (the report docs/GTK.md includes) and gtk.json.
#   bash Benchmarks/Scripts/bench-gtk.sh                   # 30 rounds, 77 chat screens
#   bash Benchmarks/Scripts/bench-gtk.sh --rounds 5        # a quick look
set -euo pipefail
cd "$(dirname "$0")/../.."
source Scripts/xvfb.sh
(cd Benchmarks && swift build -c release --product livery-gtk-bench)
bin="$(cd Benchmarks && swift build -c release --show-bin-path)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
# The report and its numbers are the results docs/GTK.md and the performance table include.
mkdir -p Benchmarks/results
"$bin/livery-gtk-bench" --json Benchmarks/results/gtk.json "$@" | tee Benchmarks/results/gtk.md
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
