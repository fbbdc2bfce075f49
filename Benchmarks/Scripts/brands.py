#!/usr/bin/env python3
"""Generates a tree of N operator themes, children of the sample Themes/Base.theme, as a brand
team makes them: Info.xml, Brand.xml (the two colours an operator gives, `brand` and the button
fill `accentStrong`; Base derives the accent, pressed, tint and bubble colours from `brand` and keeps
its neutrals; two fonts; the navigation bar's background image set to the brand's logo),
Brand~ipad.xml (larger fonts on iPad) and the logo at three scales (assets/logo.png, logo@2x.png,
logo@3x.png).

    python3 Benchmarks/Scripts/brands.py OUT N        writes OUT/Base.theme and OUT/Operator0001.theme ...

    python3 Benchmarks/Scripts/brands.py OUT N --findings   brands with random colours (below)

With `findings`, each brand's two colours are drawn at random (seeded by the brand's index, so a
tree is the same from run to run) rather than nudged from Base's: `accentStrong` is drawn light,
so the white button titles on it fail their contrast check, and `brand` anywhere, so the colours
Base derives from it fail theirs now and then. Every brand then has a finding or two, as an
operator's first draft has; the tree still builds (contrast findings are warnings).

bench-brands.py imports `generate`, `change_brand` and `change_base`.
"""
import random
import os
import shutil
import struct
import sys
import zlib

here = os.path.dirname(os.path.abspath(__file__))
base_theme = os.path.join(here, "..", "..", "Themes", "Base.theme")

# The colours an operator gives: its brand, and the fill behind white button titles (a literal in
# Base). Everything else comes from Base: the accent, pressed and tint colours and the outgoing
# bubble derived from `brand` with colour modifiers, and the neutral palette as Base has it.
COLOURS = ["brand", "accentStrong"]
# Base's values; each brand nudges them a little so the contrast checks still pass.
BASE_VALUES = {"brand": 0x007AFF, "accentStrong": 0x0062CC}
FAMILIES = ["Avenir Next", "Gill Sans", "Futura", "Optima", "Palatino", "Georgia", "Verdana", "Trebuchet MS"]


def name(index):
    return f"Operator{index:04d}"


def colour(value, index, salt=0):
    """`value` with its low bits varied per brand: distinct brands, the same contrast class."""
    channels = [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF]
    shift = (index * 7 + salt) % 9 - 4
    channels = [min(max(c + shift, 0), 255) for c in channels]
    return "#%02X%02X%02X" % tuple(channels)


def png(width, height, seed):
    """A valid RGBA PNG of one colour, different per seed."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    pixel = bytes([seed & 0xFF, (seed >> 8) & 0xFF, 0x80, 0xFF])
    raw = b"".join(b"\x00" + pixel * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def write(path, data):
    mode = "wb" if isinstance(data, bytes) else "w"
    with open(path, mode) as handle:
        handle.write(data)


def random_colours(index, salt=0):
    """A first draft's colours: `brand` anywhere, `accentStrong` light (each channel 0xB0 or more),
    so white text on it reads badly."""
    draw = random.Random(index * 1009 + salt)
    brand = "#%06X" % draw.randrange(0x1000000)
    light = "#" + "".join("%02X" % draw.randrange(0xB0, 0x100) for _ in range(3))
    return {"brand": brand, "accentStrong": light}


def brand_files(index, salt=0, findings=False):
    values = random_colours(index, salt) if findings else {
        c: colour(BASE_VALUES[c], index, salt) for c in COLOURS}
    colours = "\n".join(f'    <color name="{c}">{values[c]}</color>' for c in COLOURS)
    title = FAMILIES[index % len(FAMILIES)]
    body = FAMILIES[(index // len(FAMILIES) + 1) % len(FAMILIES)]
    brand = f"""<?xml version="1.0" encoding="UTF-8"?>
<theme>
  <constants>
{colours}
    <font name="fontTitle" family="{title}" size="20" weight="semibold" max-size="28" line-height="1.2"/>
    <font name="fontBody" family="{body}" size="16" max-size="34" line-height="1.35"/>
  </constants>
  <instances>
    <uinavigationbar id="nav_bar_main">
      <operation name="backgroundImage">
        <param name="image"><image>logo</image></param>
      </operation>
    </uinavigationbar>
  </instances>
</theme>
"""
    ipad = f"""<?xml version="1.0" encoding="UTF-8"?>
<theme>
  <constants>
    <font name="fontTitle" family="{title}" size="24" weight="semibold" max-size="32" line-height="1.2"/>
    <font name="fontBody" family="{body}" size="19" max-size="38" line-height="1.35"/>
  </constants>
</theme>
"""
    return brand, ipad


def write_operator(out, index, salt=0, findings=False):
    folder = os.path.join(out, name(index) + ".theme")
    os.makedirs(os.path.join(folder, "assets"), exist_ok=True)
    write(os.path.join(folder, "Info.xml"), f"""<?xml version="1.0" encoding="UTF-8"?>
<theme-info id="com.operator.o{index:04d}" name="Operator {index}" version="1.0.0" parent="com.livery.base"/>
""")
    brand, ipad = brand_files(index, salt, findings)
    write(os.path.join(folder, "Brand.xml"), brand)
    write(os.path.join(folder, "Brand~ipad.xml"), ipad)
    for scale, suffix in [(1, ""), (2, "@2x"), (3, "@3x")]:
        write(os.path.join(folder, "assets", f"logo{suffix}.png"), png(4 * scale, 2 * scale, index))


def generate(out, count, findings=False):
    """OUT/Base.theme (a copy of the sample) and `count` operator themes beside it; with
    `findings`, brands with random colours that each draw a finding or two."""
    if os.path.exists(out):
        shutil.rmtree(out)
    os.makedirs(out)
    shutil.copytree(base_theme, os.path.join(out, "Base.theme"))
    for index in range(1, count + 1):
        write_operator(out, index, findings=findings)


def change_brand(out, index, salt, findings=False):
    """One brand's colours changed, as a designer's edit would."""
    brand, _ = brand_files(index, salt, findings)
    write(os.path.join(out, name(index) + ".theme", "Brand.xml"), brand)


def change_base(out, salt):
    """The base's neutral background changed: every child's inputs change (none redefines it)."""
    path = os.path.join(out, "Base.theme", "Constants.xml")
    text = open(path, encoding="utf-8").read()
    start = text.index('<color name="background">') + len('<color name="background">')
    write(path, text[:start] + colour(0xF2F2F7, 3, salt) + text[start + 7:])


if __name__ == "__main__":
    if len(sys.argv) not in (3, 4) or (len(sys.argv) == 4 and sys.argv[3] != "--findings"):
        sys.exit("usage: brands.py OUT N [--findings]")
    generate(sys.argv[1], int(sys.argv[2]), findings=len(sys.argv) == 4)
