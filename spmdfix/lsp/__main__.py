"""`python -m spmdfix.lsp [--tcp PORT]`: the same command as `spmdfix lsp`."""

from spmdfix.lsp.command import lsp

lsp(prog_name="python -m spmdfix.lsp")
