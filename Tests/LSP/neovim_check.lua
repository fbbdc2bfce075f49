-- Run by test_neovim.py: nvim --headless -u NONE -l-less form (`-c "luafile ..."`) with
-- LIVERY, ROOT, FILE and RESULT in the environment. Neovim 0.7's own LSP client starts
-- `livery lsp`, opens FILE, types a typo, and writes the diagnostics it then holds to RESULT.
local livery, root, file, result = os.getenv("LIVERY"), os.getenv("ROOT"), os.getenv("FILE"), os.getenv("RESULT")
local function finish(lines)
  local out = io.open(result, "w")
  out:write(table.concat(lines, "\n"))
  out:close()
  vim.cmd("qa!")
end

vim.cmd("edit " .. vim.fn.fnameescape(file))
local buffer = vim.api.nvim_get_current_buf()
local client = vim.lsp.start_client({
  name = "livery",
  cmd = { livery, "lsp" },
  root_dir = root,
  workspace_folders = { { uri = vim.uri_from_fname(root), name = "workspace" } },
})
if not client then finish({ "error: the client did not start" }) end
vim.lsp.buf_attach_client(buffer, client)
local attached = vim.wait(20000, function()
  local c = vim.lsp.get_client_by_id(client)
  return c ~= nil and c.initialized
end, 50)
if not attached then finish({ "error: the client never initialized" }) end

-- type the typo: barTintColor -> barTintColr, as an editor's incremental change
local lines = vim.api.nvim_buf_get_lines(buffer, 0, -1, false)
for number, line in ipairs(lines) do
  local at = line:find('name="barTintColor"', 1, true)
  if at then
    local column = at + #'name="barTintCol' - 1
    vim.api.nvim_buf_set_text(buffer, number - 1, column, number - 1, column + 1, { "" })
    break
  end
end

local found = {}
vim.wait(30000, function()
  found = {}
  for _, d in ipairs(vim.diagnostic.get(buffer)) do
    local code = d.code or (d.user_data and d.user_data.lsp and d.user_data.lsp.code) or "?"
    table.insert(found, string.format("%d:%d %s %s", d.lnum + 1, d.col + 1, code, d.message))
  end
  for _, line in ipairs(found) do
    if line:find("operation-unknown", 1, true) then return true end
  end
  return false
end, 50)
finish(found)
