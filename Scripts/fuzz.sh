#!/usr/bin/env bash
# Builds one libFuzzer target of the nested Fuzz/ package and runs it for a given time.
#
#   bash Scripts/fuzz.sh TARGET SECONDS [extra libFuzzer flags...]
#   TARGET: FuzzXML (theme XML through the front end), FuzzCompiled (compiled-file bytes through
#           the verifier and every accessor), FuzzRoundTrip (generated model -> compile -> read back),
#           FuzzPackage (package bytes through the installer into a fresh folder),
#           FuzzTokens (a tokens file or a resolver document through `tokens import`)
#
# The corpus lives in Fuzz/corpus/TARGET (seeded from Themes/, Tests/Fixtures and the regression
# folder on first use; it is not committed); crashes land in Fuzz/crashes/TARGET. Minimise a crash
# with `Fuzz/.build/release/TARGET -minimize_crash=1 -runs=10000 CRASH` and copy the result into
# Tests/Fixtures/Regressions/TARGET/, which `swift test` replays.
# Runs with nice so other builds keep moving. Set FUZZ_JOBS=N to run N workers in parallel.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
target=${1:?usage: fuzz.sh TARGET SECONDS [libFuzzer flags]}
seconds=${2:?usage: fuzz.sh TARGET SECONDS [libFuzzer flags]}
shift 2

bash Scripts/install-dependencies.sh >/dev/null
(cd Fuzz && nice -n 19 swift build -c release --product "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library)
binary="$root/Fuzz/.build/release/$target"

corpus="$root/Fuzz/corpus/$target"
crashes="$root/Fuzz/crashes/$target"
mkdir -p "$corpus" "$crashes"
if [ -z "$(ls -A "$corpus")" ]; then
    case "$target" in
        FuzzXML)
            find Themes Tests/Fixtures/Invalid Tests/Fixtures/Warnings Tests/Fixtures/Attacks \
                -name '*.xml' -type f -size -64k -exec cp -t "$corpus" --backup=numbered {} + 2>/dev/null || true
            ;;
        FuzzCompiled)
            cp Tests/Fixtures/Compiled/*.livery "$corpus"/ 2>/dev/null || true
            if [ -d out/themes ]; then cp out/themes/*.livery "$corpus"/ 2>/dev/null || true; fi
            ;;
        FuzzRoundTrip)
            head -c 4096 /dev/urandom > "$corpus/random-1"
            head -c 512 /dev/urandom > "$corpus/random-2"
            ;;
        FuzzPackage)
            # Packages `livery pack` writes from Themes/, hostile variants of one, and the
            # entry-list form of each theme (Fuzz/package-seeds.py).
            nice -n 19 swift build --product livery >/dev/null
            for theme in Themes/*.theme; do
                name=$(basename "$theme" .theme)
                .build/debug/livery pack "$theme" --themes Themes --output "$corpus/$name.liverypkg" >/dev/null
            done
            python3 Fuzz/package-seeds.py "$corpus" "$corpus/Light.liverypkg" Themes/*.theme
            ;;
        FuzzTokens)
            # The sample tokens and resolver, the resolver rules' fixtures, the format's suite.
            find Themes/tokens Tests/Fixtures/Resolver Tests/Fixtures/DTCG/format -name '*.json' -type f -size -64k \
                -exec cp -t "$corpus" --backup=numbered {} + 2>/dev/null || true
            ;;
    esac
    if [ -d "Tests/Fixtures/Regressions/$target" ]; then
        cp "Tests/Fixtures/Regressions/$target"/* "$corpus"/ 2>/dev/null || true
    fi
fi

dictionary=()
if [ "$target" = FuzzXML ]; then dictionary=(-dict="$root/Fuzz/xml.dict"); fi
if [ "$target" = FuzzTokens ]; then dictionary=(-dict="$root/Fuzz/tokens.dict"); fi

# Leaks in dependencies that the targets cannot avoid (see the file); every other leak is reported.
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan-suppressions.txt:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

cd "$crashes"
echo "== $target for ${seconds}s, corpus $(ls "$corpus" | wc -l) files"
exec nice -n 19 "$binary" "$corpus" "${dictionary[@]}" -max_total_time="$seconds" \
    -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 -artifact_prefix="$crashes/" \
    ${FUZZ_JOBS:+-jobs=$FUZZ_JOBS -workers=$FUZZ_JOBS} "$@"
