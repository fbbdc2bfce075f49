#!/usr/bin/env bash
# Times `livery tokens import` and `export` phase by phase on a generated file of 10,000 design
# tokens (or N: Benchmarks/Scripts/bench-tokens.sh 50000). A release build of livery-tokens-bench
# (LiveryTokens and the XML front end only); prints min and median of 7 runs per phase.
set -euo pipefail
cd "$(dirname "$0")/../.."
bash Scripts/install-dependencies.sh
cd Benchmarks
swift build -c release --product livery-tokens-bench >&2
"$(swift build -c release --show-bin-path)/livery-tokens-bench" "$@"
