#!/usr/bin/env python3
"""`livery lsp` latency, a scripted editor session through pytest-lsp's client (pygls): open a
file, type, ask. On the sample themes and on a generated theme of 10,000 instances (a child of
the sample Base), it measures

  edit -> diagnostics: from sending a didChange (a typo typed into an operation name, or undone)
                       to the publishDiagnostics that reflects it;
  completion:          operation names in an instance, answered;
  hover:               an operation explained (value, chain, contrast), answered.

and prints p50 and p95 of each (milliseconds), as a Markdown table, or writes it with --out.

    python3 Benchmarks/Scripts/bench-lsp.py [--runs N] [--bin DIR | --server FILE] [--out FILE]
        DIR: .build/release by default (swift build -c release --product livery): runs `livery lsp`.
        FILE: a server binary run without arguments, e.g. Benchmarks/.build/release/livery-lsp-server
        (`livery lsp`'s LanguageServer alone: cd Benchmarks && swift build -c release
        --product livery-lsp-server).
"""
import argparse, asyncio, os, shutil, statistics, sys, tempfile, time

from lsprotocol import types
from pytest_lsp import ClientServerConfig

root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
parser = argparse.ArgumentParser()
parser.add_argument("--runs", type=int, default=40)
parser.add_argument("--bin", default=".build/release")
parser.add_argument("--server")
parser.add_argument("--out")
args = parser.parse_args()
command = [os.path.abspath(args.server)] if args.server else [os.path.join(root, args.bin, "livery"), "lsp"]


def generated_theme(folder, count):
    """A child of Base with `count` instances, each with three operations (two by reference)."""
    os.makedirs(folder)
    with open(os.path.join(folder, "Info.xml"), "w") as f:
        f.write('<theme-info id="com.livery.bench" name="Bench" parent="com.livery.base"/>\n')
    parts = ["<theme>\n  <instances>\n"]
    for i in range(count):
        parts.append(
            f'    <uibutton id="button_{i}" class="rounded">\n'
            f'      <operation name="backgroundColor">\n'
            f'        <param name="color"><color ref="accentStrong"/></param>\n'
            f"      </operation>\n"
            f'      <operation name="titleColor">\n'
            f'        <param name="color"><color ref="onAccent"/></param>\n'
            f"      </operation>\n"
            f'      <operation name="alpha">\n'
            f'        <param name="value"><float>0.{i % 10}</float></param>\n'
            f"      </operation>\n"
            f"    </uibutton>\n"
        )
    parts.append("  </instances>\n</theme>\n")
    with open(os.path.join(folder, "Screen.xml"), "w") as f:
        f.write("".join(parts))


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


async def session(workspace, file, typo_line, typo_column, hover_at, completion_at, runs):
    client = await ClientServerConfig(server_command=command).start()
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri="file://" + workspace,
            workspace_folders=[types.WorkspaceFolder(uri="file://" + workspace, name="bench")],
        )
    )
    uri = "file://" + file
    text = open(file).read()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="xml", version=1, text=text)
        )
    )

    async def until(predicate, timeout=120):
        deadline = time.perf_counter() + timeout
        while not predicate(client.diagnostics.get(uri)):
            if time.perf_counter() > deadline:
                raise SystemExit(f"no diagnostics for {uri}")
            await asyncio.sleep(0.0005)

    def has_typo(found):
        return found is not None and any(d.code == "operation-unknown" for d in found)

    # A clean file gets no diagnostics, so nothing tells when the check of the open is done: a
    # first typo and its undo, not measured, wait for it (else the first edit pays for it too).
    edits, completions, hovers = [], [], []
    version = 1
    for run in range(-2, runs):
        typo = run % 2 == 0
        version += 1
        start = time.perf_counter()
        # delete one letter of the operation name, or put it back
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(
                            start=types.Position(line=typo_line, character=typo_column),
                            end=types.Position(line=typo_line, character=typo_column + (1 if typo else 0)),
                        ),
                        text="" if typo else "o",
                    )
                ],
            )
        )
        await until(has_typo if typo else (lambda found: found is not None and not has_typo(found)))
        if run < 0:
            continue
        edits.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        await client.text_document_completion_async(
            types.CompletionParams(text_document=types.TextDocumentIdentifier(uri=uri), position=completion_at)
        )
        completions.append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        await client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=hover_at)
        )
        hovers.append((time.perf_counter() - start) * 1000)
    await client.shutdown_session()
    await client.stop()
    return edits, completions, hovers


async def main():
    work = tempfile.mkdtemp(prefix="livery-lsp-bench-")
    try:
        samples = os.path.join(work, "samples")
        shutil.copytree(os.path.join(root, "Themes"), os.path.join(samples, "Themes"), ignore=shutil.ignore_patterns("tokens"))
        chat = os.path.join(samples, "Themes/Base.theme/Chat.xml")
        # line 20: <operation name="barTintColor">; the 'o' of "Color" at column 33
        rows = [("sample themes", await session(samples, chat, 19, 33, types.Position(line=25, character=10),
                                                 types.Position(line=22, character=24), args.runs))]
        large = os.path.join(work, "large")
        shutil.copytree(os.path.join(root, "Themes/Base.theme"), os.path.join(large, "Themes/Base.theme"))
        generated_theme(os.path.join(large, "Themes/Bench.theme"), 10_000)
        screen = os.path.join(large, "Themes/Bench.theme/Screen.xml")
        # line 4: <operation name="backgroundColor">; the first 'o' of "Color" at column 34
        rows.append(("10,000 instances", await session(large, screen, 3, 34, types.Position(line=6, character=10),
                                                       types.Position(line=3, character=24), max(args.runs // 4, 6))))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    lines = [
        "| `livery lsp`, scripted session | edit -> diagnostics p50 / p95 | completion p50 / p95 | hover p50 / p95 |",
        "|---|---|---|---|",
    ]
    for name, (edits, completions, hovers) in rows:
        cells = [f"{percentile(v, 50):.1f} / {percentile(v, 95):.1f} ms" for v in (edits, completions, hovers)]
        lines.append(f"| {name} ({len(edits)} edits) | " + " | ".join(cells) + " |")
    table = "\n".join(lines) + "\n"
    print(table, end="")
    if args.out:
        with open(args.out, "w") as f:
            f.write(table)


asyncio.run(main())
