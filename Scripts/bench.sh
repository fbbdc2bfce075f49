#!/usr/bin/env bash
# The benchmark report: every loader on generated themes of N = 100 ... 100,000 in one run,
# the launch, the runtime, memory, sizes and the targets, then real GTK widgets and the studio;
# writes docs/images/load-time.svg, Benchmarks/results/{report.md,results.json,gtk.json,
# studio.json,summary.md}, and copies summary.md into every doc that includes it. Allocations
# are counted by livery-bench-allocs, which livery-bench starts with the malloc interposer
# preloaded (the timed process runs without it).
#   Scripts/bench.sh                 full run (a few minutes on 2 shared cores)
#   Scripts/bench.sh --quick         small N, few iterations (what CI runs)
#   Scripts/bench.sh --sizes 1000,10000
set -euo pipefail
cd "$(dirname "$0")/../Benchmarks"
swift build -c release --product livery-bench
swift build -c release --product livery-bench-allocs
bin="$(swift build -c release --show-bin-path)"
out="results"
images="../docs/images"
if [[ " $* " == *" --quick "* ]]; then out="${TMPDIR:-/tmp}/livery-bench-quick"; images=""; fi
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
"$bin/livery-bench" report --out "$out" "$@"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
if [[ -n "$images" ]]; then
  mkdir -p "$images"
  cp "$out/load-time.svg" "$images/load-time.svg"
  echo "wrote $images/load-time.svg and Benchmarks/$out/report.md" >&2
  # Real widgets and the studio, in the same run; then the one table the docs include.
  (cd .. && bash Benchmarks/Scripts/bench-gtk.sh)
  (cd .. && swift build -c release --product livery && swift build -c release --product livery-chat-demo \
      && python3 Benchmarks/Scripts/bench-studio.py --json Benchmarks/results/studio.json)
  python3 Scripts/summary.py
  (cd .. && python3 Scripts/check-doc-numbers.py --update >/dev/null || true)
  echo "wrote Benchmarks/results/summary.md and the docs that include it" >&2
fi
