#!/usr/bin/env bash
# The test command: installs what is missing, builds and runs the build-tool plugin example, then
# runs every test of the package (unit tests, fixture matrix, CLI end to end, compiled-format
# hostile bytes, runtime, tooling). The test run comes last so its summary closes the output.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-dependencies.sh

# Build-tool plugin example: LiveryThemePlugin validates, compiles and turns Examples/PluginExample's
# themes into Swift identifiers at build time; running it styles components with those identifiers
# and opens the compiled files from its bundle.
swift build --package-path Examples/PluginExample
swift run --skip-build --package-path Examples/PluginExample PluginExample

swift test
