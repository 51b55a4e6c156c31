"""spmdfix's own copy of each open document, and the protocol changes that keep it spmdfix's.

pygls splits a document into lines with `str.splitlines`, which also breaks at form feeds and Unicode
line separators, and it clamps out-of-line positions by mutating the request's Range in place; both
would corrupt the copy. spmdfix applies changes to its own copy (`Document`), on LSP's lines.
"""

from __future__ import annotations

import asyncio
import threading
from dataclasses import dataclass
from pathlib import Path

from lsprotocol import types as lsp
from pygls import uris
from pygls.protocol import LanguageServerProtocol, lsp_method

from spmdfix.pipeline import Checked


@dataclass(slots=True)
class Document:
    """spmdfix's own copy of an open document and the findings of its last analysed text.

    path: the file the document stands for (None for a URI that is not a `file:` one, as an unsaved
    buffer's); its settings are those of that path. checked: what `spmdfix.pipeline` found in the text
    `checked_source` with the project index `checked_index` (dropped when the settings may have changed);
    depends: the absolute paths of the other modules that analysis read.
    """

    uri: str
    source: str
    version: int | None
    path: Path | None = None
    checked_source: str | None = None
    checked: Checked | None = None
    checked_index: object | None = None
    depends: frozenset[str] = frozenset()
    timer: asyncio.Handle | None = None
    # Event-loop time of the last open, change or analysis: a change after a quiet debounce delay is analysed
    # at once (`SpmdfixServer.schedule`).
    last_event: float | None = None

    @classmethod
    def open(cls, uri: str, source: str, version: int | None) -> Document:
        """A document just opened; its path is that of a `file:` URI."""
        fs_path = uris.to_fs_path(uri) if uri.startswith("file:") else None
        return cls(uri, source, version, Path(fs_path) if fs_path else None)

    def cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class SpmdfixProtocol(LanguageServerProtocol):
    """pygls's protocol, except that didChange does not edit pygls's copy of the document.

    pygls splits a document into lines with `str.splitlines`, which also breaks at form feeds and Unicode
    line separators, and it clamps out-of-line positions by mutating the request's Range in place; both
    would corrupt spmdfix's copy. spmdfix applies changes to its own copy (`Document`), on LSP's lines.
    """

    # Set for a client served over TCP (`transport.serve_tcp`): its `exit` ends its connection, not the process
    # (pygls's own handler calls `sys.exit`, which would take every other client down with a traceback).
    connection_stop: threading.Event | None = None

    @lsp_method(lsp.EXIT)
    def lsp_exit(self, *args):  # type: ignore[override]
        if self.connection_stop is None:
            yield from LanguageServerProtocol.lsp_exit(self, *args)
            return
        if (user_handler := self.fm.features.get(lsp.EXIT)) is not None:
            yield user_handler, args, None
        self.connection_stop.set()
        if self.writer is not None:
            self.writer.close()

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):  # type: ignore[override]
        if (user_handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None
