vim.lsp.config('spmdfix', {
  cmd = { 'spmdfix', 'lsp' },
  filetypes = { 'python' },
  root_markers = { 'pyproject.toml', 'setup.cfg', 'setup.py', '.git' },
  init_options = { debounce_ms = 30 },
})
vim.lsp.enable('spmdfix')
