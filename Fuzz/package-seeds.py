#!/usr/bin/env python3
"""Writes FuzzPackage seeds: hostile variants of a package `livery pack` wrote, and the entry-list
form (see Fuzz/Sources/FuzzPackage/FuzzPackageEntry.swift) of each theme folder given.

    python3 Fuzz/package-seeds.py OUTPUT_FOLDER PACKAGE.liverypkg THEME_FOLDER...
"""
import hashlib, io, json, os, sys, zipfile

out, package, themes = sys.argv[1], sys.argv[2], sys.argv[3:]
with zipfile.ZipFile(package) as source:
    original = [(info, source.read(info)) for info in source.infolist()]
manifest = json.loads(dict((i.filename, d) for i, d in original)["manifest.json"])

def write(name, entries, manifest_changes=None, extra_files=()):
    m = json.loads(json.dumps(manifest))
    for path, data in extra_files:
        m["files"].append({"path": path, "size": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    if manifest_changes:
        manifest_changes(m)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("manifest.json", json.dumps(m, indent=2))
        for info, data in entries:
            if info.filename != "manifest.json":
                z.writestr(info, data)
        for path, data in extra_files:
            z.writestr(path, data)
    with open(os.path.join(out, name), "wb") as f:
        f.write(buffer.getvalue())

def info(name, mode=0o100644):
    i = zipfile.ZipInfo(name)
    i.external_attr = mode << 16
    i.create_system = 3
    i.compress_type = zipfile.ZIP_DEFLATED
    return i

write("seed-dotdot.liverypkg", original, extra_files=[("content/../../escape.xml", b"<theme/>")])
write("seed-symlink.liverypkg", original + [(info("content/link.xml", 0o120777), b"/etc/passwd")])
write("seed-duplicate.liverypkg", original + [(o[0], o[1]) for o in original if o[0].filename.endswith("Info.xml")])
def wrong_digest(m): m["files"][0]["sha256"] = "0" * 64
write("seed-wrong-digest.liverypkg", original, wrong_digest)
def wrong_size(m): m["files"][0]["size"] += 1
write("seed-wrong-size.liverypkg", original, wrong_size)
write("seed-bomb.liverypkg", original, extra_files=[("content/assets/zeros.png", bytes(2 << 20))])
write("seed-case-collision.liverypkg", original, extra_files=[("content/info.xml", b"<theme/>")])
def missing_parent(m): m["parent"] = {"id": "com.acme.missing", "minimumVersion": "1.0.0"}
write("seed-missing-parent.liverypkg", original, missing_parent)
def other_type(m): m["type"] = "stickers"
write("seed-other-type.liverypkg", original, other_type)
with open(package, "rb") as f:
    data = f.read()
with open(os.path.join(out, "seed-truncated.liverypkg"), "wb") as f:
    f.write(data[: len(data) // 2])

for theme in themes:
    parts = [b"LIVERYFUZZ\n"]
    for root, _, files in sorted(os.walk(theme)):
        for name in sorted(files):
            path = os.path.join(root, name)
            relative = os.path.relpath(path, theme)
            with open(path, "rb") as f:
                parts.append(b"\x1e" + ("content/" + relative + "\n").encode() + f.read())
    with open(os.path.join(out, "entries-" + os.path.basename(theme)), "wb") as f:
        f.write(b"".join(parts))
