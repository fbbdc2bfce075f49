"""The server's diagnostics agree with `livery validate` of the same text saved: after edits that
change what a parent's children see (a parent's id, a child's colour that a parent's operation
reads), and after seeded runs of random edits in unsaved buffers (a differential test).

    LIVERY_LSP_SEEDS=1-200 python3 -m pytest -q test_agreement.py   # more seeds than the default
"""

import asyncio
import json
import os
import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import LIVERY, REPO, copy_themes, start

ALL_THEMES = ("Base.theme", "Dark.theme", "HighContrast.theme", "Light.theme", "Tokens.theme")


def validate(root: Path):
    """What `livery validate --format json` reports for root/Themes, by file relative to root:
    {file: sorted [(line, severity, code, message, related)]} with the root's path written <root>
    (messages name the folders searched)."""
    run = subprocess.run(
        [LIVERY, "validate", str(root / "Themes"), "--format", "json"], capture_output=True, text=True
    )
    assert run.stdout, run.stderr
    prefix = str(root) + "/"
    found: dict[str, list] = {}
    for finding in json.loads(run.stdout):
        message = finding["message"]
        related = []
        for note in finding.get("notes", []):
            if note.get("file") is not None and note.get("line") is not None:
                related.append((note["file"].replace(prefix, ""), note["line"], note["message"].replace(prefix, "<root>/")))
            else:
                message += "\nnote: " + note["message"]
        # a finding about a whole file (a file name's qualifier) has no line: an editor shows it
        # on the first line, where the server publishes it
        entry = (finding["line"] or 1, finding["severity"], finding["code"], message.replace(prefix, "<root>/"), sorted(related))
        found.setdefault(finding["file"].replace(prefix, ""), []).append(entry)
    return {file: sorted(entries) for file, entries in found.items()}


def published(session):
    """The diagnostics the server last published, in the shape of `validate` above; files with an
    empty list left out."""
    prefix = str(session.root) + "/"
    found = {}
    for uri, diagnostics in session.client.diagnostics.items():
        if not diagnostics:
            continue
        file = Path(uri.removeprefix("file://")).as_posix().replace(prefix, "")
        entries = []
        for d in diagnostics:
            related = sorted(
                (
                    r.location.uri.removeprefix("file://").replace(prefix, ""),
                    r.location.range.start.line + 1,
                    r.message.replace(prefix, "<root>/"),
                )
                for r in (d.related_information or [])
            )
            severity = "error" if d.severity == 1 else "warning"
            entries.append((d.range.start.line + 1, severity, d.code, d.message.replace(prefix, "<root>/"), related))
        found[file] = sorted(entries)
    return found


async def agree(session, texts: dict[str, str], tmp_path: Path, label: str, timeout: float = 20.0):
    """Saves `texts` (relative path to text) over a copy of the workspace, validates it, and waits
    until the server has published exactly those findings for every file."""
    saved = tmp_path / f"saved-{label}"
    if saved.exists():
        shutil.rmtree(saved)
    shutil.copytree(session.root, saved)
    for relative, text in texts.items():
        (saved / relative).write_text(text, encoding="utf-8")
    expected = {
        file: [(line, severity, code, message.replace(str(saved), str(session.root)), related) for (line, severity, code, message, related) in entries]
        for file, entries in validate(saved).items()
    }
    await session.settle()
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        actual = published(session)
        if actual == expected:
            return expected
        if asyncio.get_running_loop().time() > deadline:
            files = sorted(set(actual) | set(expected))
            differences = [
                f"{file}:\n  server:   {actual.get(file)}\n  validate: {expected.get(file)}"
                for file in files
                if actual.get(file) != expected.get(file)
            ]
            raise AssertionError(f"{label}: the server disagrees with validate on\n" + "\n".join(differences))
        await asyncio.sleep(0.05)


@pytest.fixture
async def family(tmp_path):
    """Every sample theme (Tokens included: Light's parent), with a server on them."""
    root = copy_themes(tmp_path / "workspace", names=ALL_THEMES)
    running = await start(root)
    yield running
    await running.client.shutdown_session()
    await running.client.stop()


async def test_a_parent_id_changed_in_its_buffer_reports_parent_missing_at_its_children(family, tmp_path):
    info = "Themes/Base.theme/Info.xml"
    text = (family.root / info).read_text()
    renamed = text.replace('id="com.livery.base"', 'id="com.livery.based"')
    await agree(family, {}, tmp_path, "before")
    # Dark is open, Tokens is not: both lose their parent
    family.open("Themes/Dark.theme/Palette.xml")
    uri = family.open(info)
    family.replace_all(uri, renamed)
    expected = await agree(family, {info: renamed}, tmp_path, "renamed")
    assert [e[2] for e in expected["Themes/Dark.theme/Info.xml"]] == ["parent-missing"]
    assert [e[2] for e in expected["Themes/Tokens.theme/Info.xml"]] == ["parent-missing"]
    # the id back: the findings go
    family.replace_all(uri, text)
    await agree(family, {info: text}, tmp_path, "restored")


async def test_a_child_edit_republishes_findings_in_its_parents_files(family, tmp_path):
    palette = "Themes/Dark.theme/Palette.xml"
    text = (family.root / palette).read_text()
    darker = text.replace('<color name="textPrimary">#EDEDED</color>', '<color name="textPrimary">#2D2D2D</color>')
    assert darker != text
    await agree(family, {}, tmp_path, "before")
    family.open("Themes/Base.theme/Chat.xml")  # open; Settings.xml is not
    uri = family.open(palette)
    family.replace_all(uri, darker)
    expected = await agree(family, {palette: darker}, tmp_path, "darker")
    assert any(e[2] == "contrast-low" for e in expected["Themes/Base.theme/Chat.xml"])
    assert any(e[2] == "contrast-low" for e in expected["Themes/Base.theme/Settings.xml"])
    # back as it was: the parent's files are cleared
    family.replace_all(uri, text)
    expected = await agree(family, {palette: text}, tmp_path, "restored")
    assert "Themes/Base.theme/Chat.xml" not in expected


# --- Random edits ----------------------------------------------------------------------------------

COLOURS = ["#2D2D2D", "#000000", "#FFFFFF", "#1E1E1E", "#F2F2F7", "#808080", "#FF0000", "#EDEDED"]


class Edits:
    """Realistic edits of the sample themes' text, one file at a time: a colour changed, a
    reference or a constant, instance or theme id renamed, a parent changed, an element deleted,
    a name mistyped."""

    def __init__(self, texts: dict[str, str], rng: random.Random):
        self.texts = texts
        self.rng = rng
        self.theme_ids = sorted(
            {m for text in texts.values() for m in re.findall(r'<theme-info[^>]*\bid="([^"]+)"', text)}
        )
        self.constants = sorted({m for text in texts.values() for m in re.findall(r'<\w+ name="(\w+)"', text)})

    def files(self, pattern: str, info: bool = False):
        return sorted(f for f, t in self.texts.items() if f.endswith("Info.xml") == info and re.search(pattern, t))

    def replace_match(self, pattern: str, make, info: bool = False):
        files = self.files(pattern, info)
        if not files:
            return None
        file = self.rng.choice(files)
        text = self.texts[file]
        match = self.rng.choice(list(re.finditer(pattern, text)))
        replacement = make(match)
        self.texts[file] = text[: match.start(1)] + replacement + text[match.end(1) :]
        return file

    def typo(self, word: str) -> str:
        if len(word) < 3:
            return word + "x"
        i = self.rng.randrange(len(word) - 1)
        return word[:i] + word[i + 1] + word[i] + word[i + 2 :] if self.rng.random() < 0.5 else word[:i] + word[i + 1 :]

    def colour(self):
        return self.replace_match(r"(#[0-9A-Fa-f]{6})\b", lambda m: self.rng.choice(COLOURS))

    def reference(self):
        return self.replace_match(
            r'ref="(\w+)"', lambda m: self.rng.choice(self.constants) if self.rng.random() < 0.6 else self.typo(m.group(1))
        )

    def constant(self):
        return self.replace_match(r'<(?:color|float|font|dimension|string)\s+name="(\w+)"', lambda m: self.typo(m.group(1)))

    def instance_id(self):
        return self.replace_match(r'<\w+ id="(\w+)"', lambda m: self.typo(m.group(1)))

    def parent(self):
        choices = self.theme_ids + ["com.livery.missing"]
        return self.replace_match(r'\bparent="([^"]+)"', lambda m: self.rng.choice(choices), info=True)

    def theme_id(self):
        return self.replace_match(
            r'<theme-info[^>]*\bid="([^"]+)"',
            lambda m: self.rng.choice(self.theme_ids) if self.rng.random() < 0.3 else m.group(1) + "x",
            info=True,
        )

    def delete_element(self):
        pattern = r"(?m)^([ \t]*<(?:\w+[^>]*/>|(\w+)[^>]*>[^<]*</\2>)[ \t]*\n)"
        return self.replace_match(pattern, lambda m: "")

    def operation_typo(self):
        return self.replace_match(r'<operation name="(\w+)"', lambda m: self.typo(m.group(1)))

    def any(self):
        kinds = [
            self.colour, self.colour, self.colour, self.reference, self.constant, self.instance_id,
            self.parent, self.theme_id, self.delete_element, self.operation_typo,
        ]
        while True:
            file = self.rng.choice(kinds)()
            if file:
                return file


def seeds():
    spec = os.environ.get("LIVERY_LSP_SEEDS", "6,7,9")
    if "-" in spec:
        low, high = spec.split("-")
        return list(range(int(low), int(high) + 1))
    return [int(s) for s in spec.split(",")]


@pytest.mark.parametrize("seed", seeds())
async def test_random_edits_end_where_validate_of_the_saved_text_does(tmp_path, seed):
    root = copy_themes(tmp_path / "workspace", names=ALL_THEMES)
    texts = {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8") for path in sorted((root / "Themes").rglob("*.xml"))
    }
    rng = random.Random(seed)
    edits = Edits(dict(texts), rng)
    session = await start(root)
    try:
        uris = {}
        for step in range(12):
            file = edits.any()
            if file not in uris:
                uris[file] = session.open(file, edits.texts[file])
            else:
                session.replace_all(uris[file], edits.texts[file])
            # sometimes the server catches up between edits (lists published, then made stale)
            if rng.random() < 0.5:
                await session.settle()
                await asyncio.sleep(0.05)
        changed = {f: t for f, t in edits.texts.items() if t != texts[f]}
        await agree(session, changed, tmp_path, f"seed {seed}")
    finally:
        await session.client.shutdown_session()
        await session.client.stop()
