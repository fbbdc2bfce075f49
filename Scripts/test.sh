#!/usr/bin/env bash
# The test command: installs what is missing, then runs every test of the package
# (unit tests, fixture matrix, CLI end to end, compiled-format hostile bytes, runtime).
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-dependencies.sh
swift test

# --- Build-tool plugin example (tooling) --------------------------------------------------
# Builds Examples/PluginExample, whose themes the LiveryThemePlugin validates, compiles and turns
# into Swift identifiers at build time, then runs it (it styles components with the identifiers
# and opens the compiled files from its bundle).
swift build --package-path Examples/PluginExample
swift run --skip-build --package-path Examples/PluginExample PluginExample
