#!/usr/bin/env bash
# Builds the two release example apps and fails if a binary holds anything of the development
# path.
#
# Examples/ReleaseApp links the `Livery` product alone: nothing of the XML front end (LiveryXML,
# libxml2's xml* functions, a libxml2 dependency of its own), the compiler (LiveryCompiler),
# swift-crypto (BoringSSL) or FoundationXML (Foundation's XMLParser on Linux, which loads
# libxml2): the runtime reads its configuration file with its own small reader
# (Sources/Livery/Loading/PlainXML.swift).
#
# Examples/StoreApp links `Livery` and `LiveryStore`, the store an app sells themes with: it is
# run against a signed catalog served on loopback (lists it, downloads with progress, installs,
# activates and applies a theme, uninstalls it), and its binary may hold swift-crypto (the
# store verifies Ed25519 signatures and SHA-256 digests) but nothing of the XML front end, the
# compiler or libxml2: the store installs the compiled files packages carry.
set -euo pipefail
cd "$(dirname "$0")/.."

# Swift symbols carry their module's name with its length (9LiveryXML); C symbols are plain.
front_end='9LiveryXML|14LiveryCompiler|(^|[ _])xml[A-Z][A-Za-z]+'
crypto='CCryptoBoringSSL|(^|[ _])(SHA256_Init|EVP_[A-Za-z]+)$'

# check BINARY NAME FORBIDDEN-SYMBOLS FORBIDDEN-LIBRARIES
check() {
    local binary="$1" name="$2" forbidden="$3" libraries="$4"
    local found needed
    found="$(nm "$binary" | grep -E "$forbidden" || true)"
    needed="$(readelf -d "$binary" | grep NEEDED | grep -Ei "$libraries" || true)"
    if [[ -n "$found" || -n "$needed" ]]; then
        echo "release app check FAILED: $binary ($name) links what only development builds need:" >&2
        if [[ -n "$found" ]]; then
            printf '%s\n' "$found" | sed -n '1,20p' >&2
            echo "($(printf '%s\n' "$found" | wc -l) symbols)" >&2
        fi
        if [[ -n "$needed" ]]; then echo "$needed" >&2; fi
        exit 1
    fi
}

check_release_app() {
    check "$1" ReleaseApp "$front_end|$crypto" 'libxml2|libcrypto|libssl|libFoundationXML'
    echo "release app check ok: $1: $(stat -c %s "$1") bytes, $(nm "$1" | wc -l) symbols, none of LiveryXML, libxml2, FoundationXML, LiveryCompiler or BoringSSL"
}

check_store_app() {
    check "$1" StoreApp "$front_end" 'libxml2|libFoundationXML'
    echo "store app check ok: $1: $(stat -c %s "$1") bytes, $(nm "$1" | wc -l) symbols, none of LiveryXML, libxml2, FoundationXML or LiveryCompiler"
}

# `--binary PATH` checks another binary as the release app, `--store-binary PATH` as the store
# app, instead of building the apps (e.g. the livery CLI, which must fail both: that is how to see
# that the check can fail).
case "${1:-}" in
--binary)
    check_release_app "$2"
    exit 0
    ;;
--store-binary)
    check_store_app "$2"
    exit 0
    ;;
esac

# The release app: links the runtime alone.
swift build -c release --package-path Examples/ReleaseApp --product ReleaseApp
check_release_app "$(swift build -c release --package-path Examples/ReleaseApp --show-bin-path)/ReleaseApp"

# The store app: built, checked, then run against a store served on loopback.
swift build -c release --package-path Examples/StoreApp --product StoreApp
store_app="$(swift build -c release --package-path Examples/StoreApp --show-bin-path)/StoreApp"
check_store_app "$store_app"

swift build --product livery
livery="$(swift build --show-bin-path)/livery"
work="$(mktemp -d)"
server=""
cleanup() {
    if [[ -n "$server" ]]; then kill "$server" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
mkdir -p "$work/app/Downloads" "$work/store" "$work/keys"
# The app bundles the sample themes compiled; the store sells Ocean, a child of Base.
"$livery" build Themes --output "$work/app/Themes" > /dev/null
cp -R Themes/Light.theme "$work/Ocean.theme"
echo '<theme-info id="com.acme.ocean" name="Ocean" version="1.0.0" parent="com.livery.base"/>' > "$work/Ocean.theme/Info.xml"
"$livery" pack "$work/Ocean.theme" --themes Themes --output "$work/store/com.acme.ocean-1.0.0.liverypkg"
"$livery" keys generate --output "$work/keys/root.key" > /dev/null
"$livery" keys generate --output "$work/keys/catalog.key" > /dev/null
"$livery" keys root "$work/store" --root-key "$work/keys/root.key" --catalog-key "$work/keys/catalog.key.pub" > /dev/null
"$livery" catalog "$work/store" --sign-with "$work/keys/catalog.key" --expires 1d > /dev/null
"$livery" serve "$work/store" --port 0 > "$work/serve.log" 2>&1 &
server=$!
url=""
for _ in $(seq 1 100); do
    url="$(grep -o 'http://127.0.0.1:[0-9]*/catalog.json' "$work/serve.log" || true)"
    [[ -n "$url" ]] && break
    sleep 0.2
done
[[ -n "$url" ]] || { echo "livery serve did not start: $(cat "$work/serve.log")" >&2; exit 1; }
cat > "$work/app/Livery.xml" <<EOF
<livery-configuration default-theme="com.livery.light">
  <search-path>$work/app/Themes</search-path>
  <search-path>$work/app/Downloads</search-path>
  <store catalog="$url">
    <root-key>$(cat "$work/keys/root.key.pub")</root-key>
  </store>
</livery-configuration>
EOF
"$store_app" "$work/app/Livery.xml" "$work/app/Downloads" com.acme.ocean label_title --uninstall | tee "$work/run.log"
grep -q '^com.acme.ocean: label_title.textColor = #' "$work/run.log"
grep -q '^uninstalled com.acme.ocean 1.0.0' "$work/run.log"
echo "store app run ok: listed the signed catalog on loopback, installed com.acme.ocean's compiled file, applied it, uninstalled it"
