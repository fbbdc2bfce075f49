#!/usr/bin/env bash
# Livery on 1,001 real GTK 4 widgets against GTK's own stylesheet swap (docs/GTK.md): a live
# switch to the end of the next painted frame, alternated, medians of 30; first styling; memory
# per styled widget. Builds in release and runs on a private Xvfb display with the cairo renderer.
#   bash Scripts/bench-gtk.sh                   # 30 rounds, 77 chat screens
#   bash Scripts/bench-gtk.sh --rounds 5        # a quick look
set -euo pipefail
cd "$(dirname "$0")/.."
source Scripts/xvfb.sh
(cd Benchmarks && swift build -c release --product livery-gtk-bench)
bin="$(cd Benchmarks && swift build -c release --show-bin-path)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$bin/livery-gtk-bench" "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
