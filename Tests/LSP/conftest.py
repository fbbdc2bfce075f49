"""End-to-end tests of `livery lsp`: pytest-lsp (pygls + lsprotocol) starts the built binary and
speaks LSP to it as an editor does. The binary comes from `swift build --show-bin-path` (build it
first: `swift build --product livery`), or from $LIVERY."""

import asyncio
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

REPO = Path(__file__).resolve().parents[2]


def livery_binary() -> str:
    if os.environ.get("LIVERY"):
        return os.environ["LIVERY"]
    bin_path = subprocess.run(
        ["swift", "build", "--show-bin-path"], cwd=REPO, check=True, capture_output=True, text=True
    ).stdout.strip()
    binary = Path(bin_path) / "livery"
    if not binary.exists():
        pytest.exit(f"{binary} is missing: run `swift build --product livery` first", returncode=1)
    return str(binary)


LIVERY = livery_binary()


class Session:
    """A running server with a workspace folder, and helpers that speak for an editor."""

    def __init__(self, client: LanguageClient, root: Path):
        self.client = client
        self.root = root
        self.versions: dict[str, int] = {}

    def uri(self, relative: str) -> str:
        return (self.root / relative).as_uri()

    def open(self, relative: str, text: str | None = None) -> str:
        uri = self.uri(relative)
        if text is None:
            text = (self.root / relative).read_text(encoding="utf-8")
        self.versions[uri] = 1
        self.client.text_document_did_open(
            types.DidOpenTextDocumentParams(
                text_document=types.TextDocumentItem(uri=uri, language_id="xml", version=1, text=text)
            )
        )
        return uri

    def replace_all(self, uri: str, text: str):
        self.versions[uri] += 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
            )
        )

    def edit(self, uri: str, start: tuple[int, int], end: tuple[int, int], text: str):
        self.versions[uri] = self.versions.get(uri, 0) + 1
        self.client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=self.versions[uri]),
                content_changes=[
                    types.TextDocumentContentChangePartial(
                        range=types.Range(
                            start=types.Position(line=start[0], character=start[1]),
                            end=types.Position(line=end[0], character=end[1]),
                        ),
                        text=text,
                    )
                ],
            )
        )

    async def diagnostics(self, uri: str, predicate, timeout: float = 20.0):
        """Waits until the diagnostics published for `uri` satisfy `predicate`; returns them."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            current = self.client.diagnostics.get(uri)
            if current is not None and predicate(current):
                return current
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"diagnostics for {uri} never matched; last: {current}")
            await asyncio.sleep(0.05)

    async def settle(self):
        """A round trip: every notification sent before it has been handled."""
        await self.client.workspace_symbol_async(types.WorkspaceSymbolParams(query="zz-settle-zz"))


def copy_themes(destination: Path, names=("Base.theme", "Dark.theme", "Light.theme", "HighContrast.theme")):
    themes = destination / "Themes"
    themes.mkdir(parents=True)
    for name in names:
        shutil.copytree(REPO / "Themes" / name, themes / name)
    return destination


async def start(root: Path, initialization_options=None, extra_args=()) -> Session:
    config = ClientServerConfig(server_command=[LIVERY, "lsp", *extra_args])
    client = await config.start()
    await client.initialize_session(
        types.InitializeParams(
            capabilities=types.ClientCapabilities(),
            root_uri=root.as_uri(),
            workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
            initialization_options=initialization_options,
        )
    )
    return Session(client, root)


@pytest_asyncio.fixture
async def session(tmp_path):
    """The sample themes in a workspace folder of their own, with a server on it."""
    root = copy_themes(tmp_path / "workspace")
    running = await start(root)
    yield running
    await running.client.shutdown_session()
    await running.client.stop()
    assert running.client._server is None or running.client._server.returncode in (0, None)


@pytest.fixture(scope="session")
def repo() -> Path:
    return REPO
