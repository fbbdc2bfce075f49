#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test of the package
# (unit tests, fixture matrix, CLI end to end, compiled-format hostile bytes, runtime).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-dependencies.sh
swift test
