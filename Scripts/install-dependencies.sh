#!/usr/bin/env bash
# Installs what building Livery needs beyond the Swift toolchain: libxml2's headers and pkg-config.
# Does nothing when they are already there.
set -euo pipefail
# The design-token tests (issue 18) validate exported files with Python's jsonschema.
if ! python3 -c "import jsonschema" 2>/dev/null; then
    SUDO_JS=""; if [ "$(id -u)" -ne 0 ]; then SUDO_JS="sudo"; fi
    { $SUDO_JS apt-get install -y -q python3-jsonschema || python3 -m pip install --quiet --user jsonschema; } >/dev/null 2>&1 \
        || echo "warning: could not install python3-jsonschema; the tokens schema tests will try pip" >&2
fi
if pkg-config --exists libxml-2.0 2>/dev/null; then
    exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q libxml2-dev pkg-config
