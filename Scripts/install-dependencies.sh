#!/usr/bin/env bash
# Installs what building Livery needs beyond the Swift toolchain: libxml2's headers and pkg-config,
# and nginx for the store's static-hosting test (Tests/LiveryStoreTests/NginxTests.swift).
# Does nothing when they are already there.
set -euo pipefail
missing=()
if ! pkg-config --exists libxml-2.0 2>/dev/null; then missing+=(libxml2-dev pkg-config); fi
if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); fi
if [ ${#missing[@]} -eq 0 ]; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q "${missing[@]}"
