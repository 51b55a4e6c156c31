-- Drives Neovim through one editing session against the spmdfix server, for tests/test_neovim_e2e.py.
--
-- Run as `nvim --headless --clean -u INIT -c 'luafile e2e.lua' FILE` with the environment variables
--   SPMDFIX_E2E_OUT      where the JSON result goes
--   SPMDFIX_E2E_FIXALL   a Lua file holding docs/editors.md's fix-all snippet
--   SPMDFIX_E2E_LINE     the 1-based line of the diagnostic whose preferred quick fix is applied
-- The result records each step (diagnostics, the code actions offered, the buffer after each fix) or the
-- error that stopped the session; Neovim then quits with status 0 (1 on an error).

local out_path = assert(os.getenv('SPMDFIX_E2E_OUT'))
local fixall_path = assert(os.getenv('SPMDFIX_E2E_FIXALL'))
local fix_line = assert(tonumber(os.getenv('SPMDFIX_E2E_LINE')))
local TIMEOUT = 30000
local result = { steps = {} }
local buf = vim.api.nvim_get_current_buf()

local publishes = 0
vim.api.nvim_create_autocmd('DiagnosticChanged', {
  buffer = buf,
  callback = function()
    publishes = publishes + 1
  end,
})

local function diagnostics()
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, { code = d.code, line = d.lnum + 1, col = d.col + 1, source = d.source, message = d.message })
  end
  table.sort(list, function(a, b)
    return a.line < b.line or (a.line == b.line and (a.col < b.col or (a.col == b.col and a.code < b.code)))
  end)
  return list
end

local function wait(what, predicate)
  if not vim.wait(TIMEOUT, predicate, 10) then
    error('timed out waiting for ' .. what)
  end
end

local function buffer_text()
  return table.concat(vim.api.nvim_buf_get_lines(buf, 0, -1, true), '\n') .. '\n'
end

-- Waits until an edit of the buffer has been followed by a publication of diagnostics for it.
local function apply_and_wait(what, action)
  local tick = vim.api.nvim_buf_get_changedtick(buf)
  action()
  wait(what .. ' to edit the buffer', function()
    return vim.api.nvim_buf_get_changedtick(buf) ~= tick
  end)
  local seen = publishes
  wait('diagnostics after ' .. what, function()
    return publishes > seen
  end)
end

local function session()
  wait('the spmdfix client to attach', function()
    return #vim.lsp.get_clients({ bufnr = buf, name = 'spmdfix' }) > 0
  end)
  local client = vim.lsp.get_clients({ bufnr = buf, name = 'spmdfix' })[1]
  result.position_encoding = client.offset_encoding
  wait('the first diagnostics', function()
    return #vim.diagnostic.get(buf) > 0
  end)
  result.steps.opened = diagnostics()

  -- The preferred quick fix of the first diagnostic on `fix_line`, picked as an "auto fix" mapping does.
  local target
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.lnum + 1 == fix_line and (target == nil or d.col < target.col) then
      target = d
    end
  end
  assert(target, 'no diagnostic on line ' .. fix_line)
  vim.api.nvim_win_set_cursor(0, { target.lnum + 1, target.col })
  local offered = {}
  apply_and_wait('the preferred quick fix', function()
    vim.lsp.buf.code_action({
      context = { only = { 'quickfix' } },
      filter = function(action)
        table.insert(offered, { title = action.title, preferred = action.isPreferred == true })
        return action.isPreferred == true
      end,
      apply = true,
    })
  end)
  result.quickfixes = offered
  result.steps.quickfix = { diagnostics = diagnostics(), text = buffer_text() }

  apply_and_wait('fix-all', function()
    dofile(fixall_path)
  end)
  vim.cmd('write')
  result.steps.fixall = { diagnostics = diagnostics(), text = buffer_text() }
end

local ok, err = xpcall(session, debug.traceback)
if not ok then
  result.error = err
end
local file = assert(io.open(out_path, 'w'))
file:write(vim.json.encode(result))
file:close()
vim.cmd(ok and 'qall!' or 'cquit! 1')
