#!/usr/bin/env bash
# Builds Examples/ReleaseApp (an app that links the `Livery` product alone) in release and fails
# if its binary holds anything of the development path: the XML front end (LiveryXML, libxml2's
# xml* functions, a libxml2 dependency of its own), the compiler (LiveryCompiler) or swift-crypto
# (BoringSSL), nor FoundationXML (Foundation's XMLParser on Linux, which loads libxml2): the
# runtime reads its configuration file with its own small reader (Sources/Livery/Loading/PlainXML.swift).
set -euo pipefail
cd "$(dirname "$0")/.."
# `--binary PATH` checks another binary instead of building the app (e.g. the livery CLI, which
# must fail the check: that is how to see that the check can fail).
if [[ "${1:-}" == "--binary" ]]; then
    binary="$2"
else
    package=Examples/ReleaseApp
    swift build -c release --package-path "$package" --product ReleaseApp
    binary="$(swift build -c release --package-path "$package" --show-bin-path)/ReleaseApp"
fi

# Swift symbols carry their module's name with its length (9LiveryXML); C symbols are plain.
forbidden='9LiveryXML|14LiveryCompiler|CCryptoBoringSSL|(^|[ _])xml[A-Z][A-Za-z]+|(^|[ _])(SHA256_Init|EVP_[A-Za-z]+)$'
found="$(nm "$binary" | grep -E "$forbidden" || true)"
needed="$(readelf -d "$binary" | grep NEEDED | grep -Ei 'libxml2|libcrypto|libssl|libFoundationXML' || true)"
if [[ -n "$found" || -n "$needed" ]]; then
    echo "release app check FAILED: $binary links what only development builds need:" >&2
    if [[ -n "$found" ]]; then
        printf '%s\n' "$found" | sed -n '1,20p' >&2
        echo "($(printf '%s\n' "$found" | wc -l) symbols)" >&2
    fi
    if [[ -n "$needed" ]]; then echo "$needed" >&2; fi
    exit 1
fi
echo "release app check ok: $(nm "$binary" | wc -l) symbols, none of LiveryXML, libxml2, FoundationXML, LiveryCompiler or BoringSSL"
