#!/usr/bin/env bash
# Heap peak of the XML front end (valgrind massif), as a multiple of the XML size, on the
# generated benchmark theme: one trait set resolved (what an app does) and `validate` (every
# trait set, every check). Deterministic: instruction timing does not matter, only bytes.
#   Benchmarks/Scripts/bench-memory.sh [N]        (default N = 10000)
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-10000}"
swift build -c release --product livery-bench >/dev/null
bin="$(swift build -c release --show-bin-path)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$bin/livery-bench" generate "$n" "$work" >/dev/null
theme="$work/Bench.theme"
xml=$(cat "$theme"/*.xml | wc -c)
for mode in xml validate; do
  valgrind --tool=massif --massif-out-file="$work/massif.$mode" "$bin/livery-bench" peak "$mode" "$theme" >/dev/null 2>&1
  # Peak total heap minus the first snapshot with a heap (the process before loading).
  read -r peak base < <(python3 - "$work/massif.$mode" <<'PY'
import re, sys
snaps = [int(h) + int(x) for h, x in re.findall(r"mem_heap_B=(\d+)\nmem_heap_extra_B=(\d+)", open(sys.argv[1]).read())]
base = next(s for s in snaps if s > 0)
print(max(snaps), base)
PY
)
  awk -v m="$mode" -v p="$peak" -v b="$base" -v x="$xml" -v n="$n" 'BEGIN { printf "N=%d %-8s heap peak %.1f MB over a %.1f MB baseline: %.2fx the XML (%.2f MB)\n", n, m, p/1e6, b/1e6, (p-b)/x, x/1e6 }'
done
