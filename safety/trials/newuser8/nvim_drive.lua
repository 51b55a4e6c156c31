-- newuser8: drives Neovim headless (docs/editors.md 0.11 config in nvim_init.lua) on $NU8_FILE; writes diagnostics and code actions to $NU8_OUT.
-- NU8_FILE=src/tinylm/model.py NU8_OUT=out.txt nvim --headless -u nvim_init.lua -c "luafile nvim_drive.lua"
-- open the file given in $NU8_FILE, wait for spmdfix diagnostics, print them, then list code actions at the first
local file = os.getenv('NU8_FILE')
vim.cmd('edit ' .. file)
local buf = vim.api.nvim_get_current_buf()
local ok = vim.wait(15000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
local out = {}
table.insert(out, 'waited ok=' .. tostring(ok))
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out, string.format('%d:%d %s %s %s', d.lnum + 1, d.col + 1, d.severity, d.code or '', (d.message or ''):sub(1, 90)))
end
local clients = vim.lsp.get_clients({ bufnr = buf })
table.insert(out, 'clients=' .. #clients)
if #clients > 0 and #vim.diagnostic.get(buf) > 0 then
  local d = vim.diagnostic.get(buf)[1]
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(buf) },
    range = { start = { line = d.lnum, character = d.col }, ['end'] = { line = d.end_lnum, character = d.end_col } },
    context = { diagnostics = { d.user_data and d.user_data.lsp or {} } },
  }
  local res = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', params, 10000)
  for _, r in pairs(res or {}) do
    for _, a in ipairs(r.result or {}) do
      table.insert(out, 'action: ' .. a.title .. (a.isPreferred and ' [preferred]' or '') .. ' kind=' .. (a.kind or ''))
    end
  end
end
vim.fn.writefile(out, os.getenv('NU8_OUT'))
vim.cmd('qa!')
