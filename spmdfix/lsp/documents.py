"""spmdfix's own copy of each open document, and the protocol change that keeps it spmdfix's.

pygls splits a document into lines with `str.splitlines`, which also breaks at form feeds and Unicode
line separators, and it clamps out-of-line positions by mutating the request's Range in place; both
would corrupt the copy. spmdfix applies changes to its own copy (`Document`), on LSP's lines.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from lsprotocol import types as lsp
from pygls.protocol import LanguageServerProtocol, lsp_method

from spmdfix.model import Finding


@dataclass(slots=True)
class Document:
    """spmdfix's own copy of an open document and the findings of its last analysed text."""

    uri: str
    source: str
    version: int | None
    checked_source: str | None = None
    findings: list[Finding] | None = None
    timer: asyncio.TimerHandle | None = None

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

    @lsp_method(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def lsp_text_document__did_change(self, params: lsp.DidChangeTextDocumentParams):  # type: ignore[override]
        if (user_handler := self.fm.features.get(lsp.TEXT_DOCUMENT_DID_CHANGE)) is not None:
            yield user_handler, (params,), None
