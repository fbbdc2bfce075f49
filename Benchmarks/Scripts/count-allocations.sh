#!/bin/sh
# Counts heap allocations during warm switches of livery-switch-bench, with a malloc counter
# preloaded into the process.
#   bash Benchmarks/Scripts/count-allocations.sh        (from the repository root)
set -e
here=$(cd "$(dirname "$0")" && pwd)
out=${TMPDIR:-/tmp}/livery-malloc-count.so
cc -O2 -shared -fPIC -o "$out" "$here/malloc-count.c"
cd "$here/.."
swift build -c release --product livery-switch-bench >/dev/null
LD_PRELOAD="$out" "$(swift build -c release --show-bin-path)/livery-switch-bench" --count-allocations
