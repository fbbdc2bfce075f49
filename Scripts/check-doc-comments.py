#!/usr/bin/env python3
"""Fails on a public symbol of an app-facing module without a doc comment.

Reads the symbol graphs `swift package dump-symbol-graph` writes (one JSON file per module) and
lists every public or open symbol of the checked modules that has no `///` comment of its own.
Symbols the compiler makes (memberwise initialisers, conformances' synthesised members) are not
written by us and are left out; a member implementing a documented protocol requirement inherits
its documentation.
Run by Scripts/test.sh:

    python3 Scripts/check-doc-comments.py DIR [MODULE...]     (default module: Livery)
"""
import json
import os
import sys

folder = sys.argv[1]
modules = sys.argv[2:] or ["Livery"]
missing = []
checked = 0
for module in modules:
    path = os.path.join(folder, f"{module}.symbols.json")
    if not os.path.exists(path):
        sys.exit(f"check-doc-comments: no symbol graph for {module} in {folder}")
    graph = json.load(open(path))
    # A member that implements a protocol requirement inherits the requirement's documentation
    # (the relationship names it as `sourceOrigin`), as DocC shows it.
    inherited = {r["source"] for r in graph.get("relationships", []) if "sourceOrigin" in r}
    for symbol in graph["symbols"]:
        if symbol.get("accessLevel") not in ("public", "open"):
            continue
        identifier = symbol["identifier"]["precise"]
        if "::SYNTHESIZED::" in identifier:
            continue
        # Declared in another module (a re-export or an inherited default implementation).
        location = symbol.get("location", {}).get("uri", "")
        if f"/Sources/{module}/" not in location:
            continue
        checked += 1
        if symbol.get("docComment", {}).get("lines") or identifier in inherited:
            continue
        title = ".".join(symbol["pathComponents"])
        line = symbol.get("location", {}).get("position", {}).get("line", -1) + 1
        missing.append(f"{location.replace('file://', '')}:{line}: public {symbol['kind']['displayName'].lower()} '{title}' has no doc comment")
for entry in sorted(missing):
    print(entry, file=sys.stderr)
if missing:
    sys.exit(f"check-doc-comments: {len(missing)} of {checked} public symbols of {', '.join(modules)} have no doc comment")
print(f"check-doc-comments: all {checked} public symbols of {', '.join(modules)} have doc comments")
