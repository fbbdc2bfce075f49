#!/usr/bin/env bash
# The main job: validate every sample theme for every trait set, compile each into out/themes/,
# prove each compiled file dumps exactly like its source, and print a summary.
# It builds `livery-build-tool`, which holds livery's theme commands (same arguments, output and
# exit codes) without the store's HTTP client or the catalog server, so a fresh clone gets here
# in a few minutes; `swift build --product livery` builds the whole CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-dependencies.sh --themes
swift build --product livery-build-tool
LIVERY="$(swift build --show-bin-path)/livery-build-tool"
echo "== livery validate Themes"
"$LIVERY" validate Themes
echo
echo "== livery build Themes --output out/themes"
"$LIVERY" build Themes --output out/themes
echo
echo "== livery inspect out/themes/Dark.livery --source Themes/Dark.theme"
"$LIVERY" inspect out/themes/Dark.livery --source Themes/Dark.theme
