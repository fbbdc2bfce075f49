#!/usr/bin/env bash
# Prints how long `livery validate` takes on every attack of the matrix (docs/Security.md): the
# committed ones in Tests/Fixtures/Attacks and the big ones the tests generate (written here into a
# temporary folder). Tests assert results only; this script is where the times are seen.
#   bash Benchmarks/Scripts/attack-timings.sh [path/to/livery]   (default: a release build)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
livery=${1:-}
if [ -z "$livery" ]; then
    bash Scripts/install-dependencies.sh
    swift build -c release --product livery >/dev/null
    livery="$root/.build/release/livery"
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

time_validate() { # NAME DIR TARGET
    local start end status
    start=$(date +%s%N)
    status=0
    (cd "$2" && "$livery" validate "$3" >/dev/null 2>"$work/stderr") || status=$?
    end=$(date +%s%N)
    printf '%-48s %8.1f ms  exit %s  %s\n' "$1" "$(( (end - start) / 1000 ))e-3" "$status" \
        "$(head -c 110 "$work/stderr" | head -n 1)"
}

echo "== committed attacks (Tests/Fixtures/Attacks)"
for folder in Tests/Fixtures/Attacks/*/; do
    name=$(basename "$folder")
    target=.
    [ -e "$folder/Attack.theme" ] || [ -L "$folder/Attack.theme" ] && target=Attack.theme
    [ -d "$folder/themes" ] && target=themes
    time_validate "$name" "$folder" "$target"
done

echo "== generated attacks"
python3 - "$work" <<'PY'
import os, sys
work = sys.argv[1]
info = '<theme-info id="attack.theme" name="Attack"/>'
label = lambda s: '<theme><instances><uilabel id="l"><operation name="text"><param name="text"><string>' + s + '</string></param></operation></uilabel></instances></theme>'
attacks = {
    'depth-10000': '<theme>' + '<a>' * 10000 + '</a>' * 10000 + '</theme>',
    'name-50kb': '<theme><instances><' + 'u' * 51200 + ' id="x"/></instances></theme>',
    'name-40kb': '<theme><instances><' + 'u' * 40960 + ' id="x"/></instances></theme>',
    'id-50kb': '<theme><instances><uiview id="' + 'i' * 51200 + '"/></instances></theme>',
    'text-10mb': label('x' * (10 << 20)),
    'char-refs-10mb': label('&#x41;' * ((10 << 20) // 6)),
    'cdata-10mb': label('<![CDATA[' + 'x' * (10 << 20) + ']]>'),
    'attributes-100000': '<theme ' + ' '.join('a%d=""' % i for i in range(100000)) + '/>',
    'array-100000': '<theme><constants><array name="a">' + '<bool>true</bool>' * 100000 + '</array></constants></theme>',
    'operations-100000': '<theme><instances><uiview id="v">' + '<operation name="alpha"><param name="value"><float>1</float></param></operation>' * 100000 + '</uiview></instances></theme>',
    'file-64mb': label('x' * (64 << 20)),
}
for name, chat in attacks.items():
    os.makedirs(f'{work}/{name}/Attack.theme')
    open(f'{work}/{name}/Attack.theme/Info.xml', 'w').write(info)
    open(f'{work}/{name}/Attack.theme/Chat.xml', 'w').write(chat)
PY
for folder in "$work"/*/; do
    time_validate "$(basename "$folder") ($(du -sh "$folder" | cut -f1))" "$folder" Attack.theme
done
