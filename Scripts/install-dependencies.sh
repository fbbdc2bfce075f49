#!/usr/bin/env bash
# Installs what building Livery needs beyond the Swift toolchain: libxml2's headers and pkg-config.
# Does nothing when they are already there.
set -euo pipefail
if pkg-config --exists libxml-2.0 2>/dev/null; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q libxml2-dev pkg-config
