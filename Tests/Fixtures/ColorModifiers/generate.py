#!/usr/bin/env python3
"""Writes expected.json: what the format's colour modifiers (section 9.1) give, computed with
PyPI's coloraide (`pip install coloraide`), independently of Livery's own conversion code.

Each case: a base colour, one modifier chain, the space; the expected sRGB channels, unrounded,
clipped to 0...1. Run from anywhere: python3 Tests/Fixtures/ColorModifiers/generate.py
"""
import json
import math
import os

from coloraide import Color

SPACES = ["srgb", "hsl", "lch"]


def rgba(color):
    srgb = color.convert("srgb")
    r, g, b = (min(max(0.0 if math.isnan(c) else c, 0.0), 1.0) for c in srgb[:3])
    return [r, g, b, min(max(srgb.alpha(), 0.0), 1.0)]


def shifted(base, kind, p, space):
    """lighten or darken by p in space: the contract's formulas on coloraide's coordinates."""
    alpha = base.alpha()
    if space == "srgb":
        r, g, b = base.convert("srgb")[:3]
        f = (lambda c: c + p * (1 - c)) if kind == "lighten" else (lambda c: c * (1 - p))
        out = Color("srgb", [f(r), f(g), f(b)], alpha)
    elif space == "hsl":
        h, s, l = base.convert("hsl").normalize()[:3]  # s and l in 0...1 here
        l = l + p * (1 - l) if kind == "lighten" else l * (1 - p)
        out = Color("hsl", [0 if math.isnan(h) else h, s, l], alpha).convert("srgb")
    else:
        l, c, h = base.convert("lch").normalize()[:3]
        if kind == "lighten":
            l, c = min(100, l + p * (100 - l)), c * (1 - p)
        else:
            l, c = l * (1 - p), c * (1 - p)
        out = Color("lch", [l, c, 0 if math.isnan(h) else h], alpha).convert("srgb")
    return Color("srgb", rgba(out)[:3], alpha)


def mixed(base, other, p, space):
    out = base.mix(other, p, space=space, hue="shorter", premultiplied=False, out_space="srgb")
    return Color("srgb", rgba(out)[:3], out.alpha())


def ratio(fg, bg):
    shown = Color.layer([fg, bg], space="srgb") if fg.alpha() < 1 else fg
    return shown.contrast(bg, method="wcag21")


def guarded(color, background, minimum, space):
    bg = Color("srgb", background.convert("srgb")[:3], 1)
    if ratio(color, bg) >= minimum:
        return color, True, None
    for step in range(1, 101):
        p = step / 100
        lighter, darker = shifted(color, "lighten", p, space), shifted(color, "darken", p, space)
        rl, rd = ratio(lighter, bg), ratio(darker, bg)
        best = (lighter, "lighten") if rl >= rd else (darker, "darken")
        if max(rl, rd) >= minimum:
            return best[0], True, [best[1], p]
    return best[0], False, [best[1], 1.0]


def case(base, space, shift=None, alpha=None, contrast=None):
    color = Color(base)
    entry = {"base": rgba(color), "space": space}
    if shift:
        kind = shift[0]
        if kind == "mix":
            other = Color(shift[1])
            entry["shift"] = {"mix": rgba(other), "amount": shift[2]}
            color = mixed(color, other, shift[2], space)
        else:
            entry["shift"] = {kind: shift[1]}
            color = shifted(color, kind, shift[1], space)
    if alpha is not None:
        entry["alpha"] = alpha
        color = Color("srgb", color[:3], alpha)
    if contrast:
        background = Color(contrast[0])
        entry["contrast"] = {"background": rgba(background), "minimumRatio": contrast[1]}
        color, reached, adjusted = guarded(color, background, contrast[1], space)
        entry["reached"] = reached
        entry["adjusted"] = adjusted
    entry["expected"] = rgba(color)
    return entry


cases = []
bases = ["#FF3B30", "#3478F6", "#808080", "#000000", "#FFFFFF", "#1A7F37", "#FF3B3080", "#FFD60A"]
for space in SPACES:
    for base in bases:
        for p in (0.15, 0.5, 1.0):
            cases.append(case(base, space, shift=("lighten", p)))
            cases.append(case(base, space, shift=("darken", p)))
    # hue wrap: red (about 30 degrees in lch, 3 in hsl) to magenta (about 330 / 300) by the short arc
    cases.append(case("#FF3B30", space, shift=("mix", "#FF00FF", 0.5)))
    cases.append(case("#FF00FF", space, shift=("mix", "#FF3B30", 0.25)))
    cases.append(case("#3478F6", space, shift=("mix", "#FFD60A", 0.4)))
    # achromatic: a grey, black or white takes the other's hue
    cases.append(case("#808080", space, shift=("mix", "#3478F6", 0.5)))
    cases.append(case("#3478F6", space, shift=("mix", "#FFFFFF", 0.3)))
    cases.append(case("#000000", space, shift=("mix", "#FF3B30", 0.6)))
    cases.append(case("#000000", space, shift=("mix", "#FFFFFF", 0.5)))
    # alpha interpolated, nothing premultiplied
    cases.append(case("#FF3B3080", space, shift=("mix", "#3478F6", 0.5)))
    # clipping: lch lightening of saturated colours leaves sRGB
    cases.append(case("#00FF00", space, shift=("lighten", 0.3)))
    cases.append(case("#0000FF", space, shift=("lighten", 0.6)))
    cases.append(case("#0000FF", space, shift=("mix", "#FFFF00", 0.5)))
    # alpha, and the order lighten -> alpha -> contrast-with
    cases.append(case("#FF3B30", space, shift=("darken", 0.15), alpha=0.5))
    cases.append(case("#FF3B30", space, contrast=("#FFFFFF", 4.5)))
    cases.append(case("#FF3B30", space, contrast=("#000000", 7)))
    cases.append(case("#FFD60A", space, contrast=("#FFFFFF", 4.5)))
    cases.append(case("#3478F6", space, contrast=("#3478F6", 3)))
    cases.append(case("#000000", space, contrast=("#FFFFFF", 4.5)))  # kept
    cases.append(case("#808080", space, contrast=("#767676", 21)))  # unreachable
    cases.append(case("#FFFFFF", space, shift=("mix", "#FF3B30", 0.2), alpha=0.8, contrast=("#FFFFFF", 3)))

path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "expected.json")
with open(path + ".tmp", "w") as out:
    json.dump({"generator": "coloraide", "cases": cases}, out, indent=1)
    out.write("\n")
os.replace(path + ".tmp", path)
print(f"wrote {len(cases)} cases to {path}")


# A token file written the way Tokens Studio writes its modifiers (the amount as a string, the
# space, a mix colour as hex or alias), and the colours those modifiers give (coloraide).
def p3_shifted(base, kind, p, other=None):
    c = Color(base).convert("display-p3")
    r, g, b = c[:3]
    if kind == "lighten":
        r, g, b = (x + p * (1 - x) for x in (r, g, b))
    elif kind == "darken":
        r, g, b = (x * (1 - p) for x in (r, g, b))
    else:
        o = Color(other).convert("display-p3")
        r, g, b = (x + p * (y - x) for x, y in zip((r, g, b), o[:3]))
    return rgba(Color("display-p3", [r, g, b], c.alpha()))


def dtcg(hex_text):
    """A DTCG 2025.10 colour value (an object), as design tools export it."""
    channels = [int(hex_text[i:i + 2], 16) / 255 for i in (1, 3, 5)]
    return {"colorSpace": "srgb", "components": channels, "hex": hex_text}


tokens = {"brand": {"$type": "color", "$value": dtcg("#ff3b30")}, "paper": {"$type": "color", "$value": dtcg("#ffffff")}}
expected = {}
for space in ["srgb", "hsl", "lch", "p3"]:
    group = {}
    for kind, value, other in [
        ("lighten", "0.2", None), ("darken", "0.15", None), ("mix", "0.4", "{paper}"), ("mix", "0.5", "#3478f6"),
        ("alpha", "0.5", None),
    ]:
        name = f"{kind}{'Alias' if other == '{paper}' else ''}"
        modify = {"type": kind, "value": value, "space": space}
        if other:
            modify["color"] = other
        group[name] = {"$type": "color", "$value": "{brand}", "$extensions": {"studio.tokens": {"modify": modify}}}
        other_hex = "#ffffff" if other == "{paper}" else other
        p = float(value)
        if space == "p3":
            result = rgba(Color("#ff3b30").set("alpha", p)) if kind == "alpha" else p3_shifted("#ff3b30", kind, p, other_hex)
        elif kind == "alpha":
            result = rgba(Color("#ff3b30").set("alpha", p))
        elif kind == "mix":
            result = rgba(mixed(Color("#ff3b30"), Color(other_hex), p, space))
        else:
            result = rgba(shifted(Color("#ff3b30"), kind, p, space))
        expected[f"{space}.{name}"] = result
    tokens[space] = group

folder = os.path.dirname(os.path.abspath(__file__))
for file, content in [("studio.tokens.json", tokens), ("studio-expected.json", expected)]:
    with open(os.path.join(folder, file) + ".tmp", "w") as out:
        json.dump(content, out, indent=2)
        out.write("\n")
    os.replace(os.path.join(folder, file) + ".tmp", os.path.join(folder, file))
print(f"wrote {len(expected)} Tokens Studio cases")
