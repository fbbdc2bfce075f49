#!/usr/bin/env bash
# Renders `livery preview` pages of the sample themes to PNGs in headless Chromium, to look at them.
# Not part of CI (CI checks the HTML's content); needs `apt-get install -y chromium`.
#   bash Scripts/preview-screenshot.sh [OUT_DIR]     (default out/preview)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-out/preview}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
command -v chromium >/dev/null || { echo "chromium is missing: apt-get install -y chromium" >&2; exit 1; }
swift build --product livery >/dev/null
livery=.build/debug/livery
"$livery" preview Themes/Dark.theme --traits dark --output "$out/dark.html"
"$livery" preview Themes/Light.theme --compare dark --output "$out/light-vs-dark.html"
# The composed screen and its trait matrix (light, dark, high contrast, large text) come first.
"$livery" preview Themes/Light.theme --output "$out/screen.html"
# The trait matrix at text scale 2, as docs/Accessibility.md shows it.
"$livery" preview Themes/Light.theme --text-scale 2 --output "$out/matrix.html"
for page in dark light-vs-dark screen matrix; do
  size=1400,2000
  [ "$page" = matrix ] && size=1800,1000
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size="$size" \
    --screenshot="$out/$page.png" "file://$out/$page.html" 2>/dev/null
  [ -s "$out/$page.png" ] || { echo "chromium wrote no $out/$page.png" >&2; exit 1; }
  echo "wrote $out/$page.png"
done
