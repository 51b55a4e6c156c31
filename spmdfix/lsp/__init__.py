"""The language server: diagnostics and code actions over the per-file entry point (`spmdfix.pipeline`).

`serve()` runs it over stdio (or TCP); `spmdfix lsp` and `python -m spmdfix.lsp` call it. What it does:

- diagnostics on didOpen and didSave at once, on didChange at once after a pause, else after a per-document
  debounce (30 ms by default, `initializationOptions: {"debounce_ms": N}`); each carries in `data` the document version and every fix
  of its finding, so that code actions need no re-analysis while the document is unchanged;
- a buffer that does not parse keeps the diagnostics last published for it (no SPMD900 while typing);
- code actions: one `quickfix` per fix (its edits built in `codeAction/resolve` when the client can resolve
  edits, eagerly otherwise), one `quickfix` that adds `# noqa: CODE` to the finding's line, and
  `source.fixAll.spmdfix`, the safe fixes of the whole document (what `spmdfix fix` writes);
- positions in the encoding negotiated at initialize (UTF-16 unless the client offers UTF-8 or UTF-32).

The server never dies of what it analyses: a failure inside the analysis becomes a `window/logMessage`
error and empty diagnostics for that document.

Modules: `server` (the server, its lifecycle and document sync), `transport` (how it is started: stdio, TCP), `documents` (spmdfix's copy of each open
document), `text` (LSP positions), `data` (diagnostics and the JSON they carry), `actions` (code actions
and their resolution), `project` (project indexes, kept while the files they read are unchanged),
`command` (the `spmdfix lsp` command). Every analysis goes through `spmdfix.pipeline`, the per-file entry
point the CLI uses too. The names below load on first use: importing `spmdfix.lsp` does not import pygls.
"""

from __future__ import annotations

import importlib
from typing import Any

DEFAULT_DEBOUNCE_MS = 30
MAX_DEBOUNCE_MS = 10_000

_WHERE = {
    "SpmdfixServer": "spmdfix.lsp.server",
    "create_server": "spmdfix.lsp.server",
    "serve": "spmdfix.lsp.transport",
    "PositionConverter": "spmdfix.lsp.text",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(importlib.import_module(_WHERE[name]), name)
    raise AttributeError(f"module 'spmdfix.lsp' has no attribute {name!r}")
