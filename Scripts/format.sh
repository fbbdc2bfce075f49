#!/usr/bin/env bash
# The code's one layout, by `swift format` (it ships with the toolchain) and the committed
# .swift-format configuration:
#   bash Scripts/format.sh           # rewrites every Swift file of the repository in place
#   bash Scripts/format.sh --check   # changes nothing; fails on a file the formatter would change
#                                    # or a rule it reports (the test command runs this)
set -euo pipefail
cd "$(dirname "$0")/.."
mapfile -t files < <(git ls-files '*.swift')
if [[ "${1:-}" == "--check" ]]; then
    swift format lint --strict --parallel "${files[@]}"
else
    swift format format --in-place --parallel "${files[@]}"
fi
