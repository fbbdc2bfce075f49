#!/usr/bin/env bash
# The main job: validate every sample theme for every trait set, compile each into out/themes/,
# prove each compiled file dumps exactly like its source, and print a summary.
set -euo pipefail
cd "$(dirname "$0")/.."
bash Scripts/install-dependencies.sh
swift build --product livery
LIVERY="$(swift build --show-bin-path)/livery"
echo "== livery validate Themes"
"$LIVERY" validate Themes
echo
echo "== livery build Themes --output out/themes"
"$LIVERY" build Themes --output out/themes
echo
echo "== livery inspect out/themes/Dark.livery --source Themes/Dark.theme"
"$LIVERY" inspect out/themes/Dark.livery --source Themes/Dark.theme
