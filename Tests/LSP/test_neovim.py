"""`livery lsp` in a real editor: Neovim's built-in LSP client (0.7: `vim.lsp.start_client` and
`vim.lsp.buf_attach_client`) opens a theme file, a typo is typed, and the diagnostic comes back
through Neovim's own client."""

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import LIVERY, copy_themes

HERE = Path(__file__).resolve().parent


def test_neovim_reads_back_the_diagnostic_of_a_typed_typo(tmp_path):
    nvim = shutil.which("nvim")
    if nvim is None:
        pytest.fail("nvim is missing: Scripts/install-dependencies.sh installs it")
    root = copy_themes(tmp_path / "workspace")
    result = tmp_path / "result.txt"
    env = dict(
        os.environ,
        LIVERY=LIVERY,
        ROOT=str(root),
        FILE=str(root / "Themes/Base.theme/Chat.xml"),
        RESULT=str(result),
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
        XDG_STATE_HOME=str(tmp_path / "state"),
    )
    subprocess.run(
        [nvim, "--headless", "-u", "NONE", "-i", "NONE", "-n", "-c", f"luafile {HERE / 'neovim_check.lua'}"],
        env=env,
        timeout=120,
        check=True,
        capture_output=True,
    )
    lines = result.read_text().splitlines()
    finding = next((line for line in lines if "operation-unknown" in line), None)
    assert finding is not None, lines
    # line 20 of Chat.xml, the operation's name, with the validator's own message
    assert finding.startswith("20:"), finding
    assert "barTintColr" in finding
    # the disk is untouched: it was the unsaved buffer
    assert 'name="barTintColor"' in (root / "Themes/Base.theme/Chat.xml").read_text()
