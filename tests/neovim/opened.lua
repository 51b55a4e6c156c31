-- Opens one file and records the spmdfix diagnostics Neovim shows for it, for tests/test_neovim_e2e.py.
--
-- Run as `nvim --headless --clean -u INIT -c 'luafile opened.lua' FILE` with SPMDFIX_E2E_OUT, where the JSON
-- result goes: the diagnostics of FILE (code, 1-based line and column, source, message, the files of their
-- related information) and the files Neovim has buffers for, or the error that stopped the session. Neovim then
-- quits with status 0 (1 on an error).

local out_path = assert(os.getenv('SPMDFIX_E2E_OUT'))
local TIMEOUT = 30000
local result = {}
local buf = vim.api.nvim_get_current_buf()

local function wait(what, predicate)
  if not vim.wait(TIMEOUT, predicate, 10) then
    error('timed out waiting for ' .. what)
  end
end

local function session()
  wait('the spmdfix client to attach', function()
    return #vim.lsp.get_clients({ bufnr = buf, name = 'spmdfix' }) > 0
  end)
  wait('the first diagnostics', function()
    return #vim.diagnostic.get(buf) > 0
  end)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local related = {}
    local lsp = (d.user_data or {}).lsp or {}
    for _, info in ipairs(lsp.relatedInformation or {}) do
      table.insert(related, { file = vim.uri_to_fname(info.location.uri), line = info.location.range.start.line + 1 })
    end
    table.insert(list, { code = d.code, line = d.lnum + 1, col = d.col + 1, source = d.source, related = related })
  end
  table.sort(list, function(a, b)
    return a.line < b.line or (a.line == b.line and (a.col < b.col or (a.col == b.col and a.code < b.code)))
  end)
  result.diagnostics = list
  result.buffers = {}
  for _, b in ipairs(vim.api.nvim_list_bufs()) do
    if vim.api.nvim_buf_get_name(b) ~= '' then
      table.insert(result.buffers, vim.api.nvim_buf_get_name(b))
    end
  end
end

local ok, err = xpcall(session, debug.traceback)
if not ok then
  result.error = err
end
local file = assert(io.open(out_path, 'w'))
file:write(vim.json.encode(result))
file:close()
vim.cmd(ok and 'qall!' or 'cquit! 1')
