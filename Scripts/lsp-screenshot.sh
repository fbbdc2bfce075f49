#!/usr/bin/env bash
# The screenshot in docs/Editors.md: Neovim in an xterm on a private Xvfb display, its built-in
# LSP client on `livery lsp`, a typo typed into Base.theme's Chat.xml (the diagnostic shows as
# virtual text) and a hover open on a text colour (its value, where it comes from, its contrast). Needs xterm, neovim and ImageMagick
# (Scripts/install-dependencies.sh) and a built `livery` (swift build --product livery).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/images/lsp-neovim.png}"
livery="$(swift build --show-bin-path)/livery"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/Themes"
cp -r Themes/Base.theme Themes/Dark.theme "$work/Themes/"
cat >"$work/init.lua" <<LUA
vim.o.number = true
vim.o.signcolumn = "yes"
vim.cmd("syntax on")
vim.cmd("edit $work/Themes/Base.theme/Chat.xml")
local buffer = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({ name = "livery", cmd = { "$livery", "lsp" }, root_dir = "$work" })
vim.lsp.buf_attach_client(buffer, client)
-- after the screen is up: type the typo, then hover a colour reference
vim.defer_fn(function()
  vim.api.nvim_buf_set_text(buffer, 19, 33, 19, 34, { "" })  -- barTintColor -> barTintColr
  vim.api.nvim_win_set_cursor(0, { 16, 0 })
  vim.cmd("normal! zt")
  vim.defer_fn(function()
    vim.api.nvim_win_set_cursor(0, { 26, 10 })                -- <operation name="titleColor">
    vim.lsp.buf.hover()
  end, 3000)
end, 2000)
LUA
source Scripts/xvfb.sh
xterm -geometry 120x36 -fa Monospace -fs 11 -e nvim -u "$work/init.lua" -i NONE -n &
term=$!
sleep 12
import -window root -crop 1040x660+0+0 "$out"
kill "$term" 2>/dev/null || true
echo "wrote $out"
