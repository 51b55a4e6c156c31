"""Text as LSP sees it: positions in the negotiated encoding.

Lines end where LSP (and Python's tokenizer) says they do: "\\r\\n", "\\r", "\\n" (`spmdfix.positions.LineIndex`);
not `str.splitlines`, which also splits at form feeds and Unicode separators.
"""

from __future__ import annotations

from lsprotocol import types as lsp

from spmdfix.model import Span
from spmdfix.positions import LineIndex


class PositionConverter:
    """Code-point offsets of one text <-> LSP positions in one encoding ("utf-8", "utf-16" or "utf-32")."""

    __slots__ = ("encoding", "lines")

    def __init__(self, source: str, encoding: str = lsp.PositionEncodingKind.Utf16.value) -> None:
        self.lines = LineIndex(source)
        self.encoding = encoding

    def position(self, offset: int) -> lsp.Position:
        """The LSP position of `offset` (clamped to the text)."""
        offset = min(max(offset, 0), len(self.lines.source))
        if self.encoding == lsp.PositionEncodingKind.Utf16.value:
            line, char = self.lines.utf16(offset)
            return lsp.Position(line=line, character=char)
        line = self.lines.line_of(offset)
        prefix = self.lines.source[self.lines.line_start(line) : offset]
        if self.encoding == lsp.PositionEncodingKind.Utf8.value:
            return lsp.Position(line=line, character=len(prefix.encode("utf-8", "surrogatepass")))
        return lsp.Position(line=line, character=len(prefix))

    def range(self, span: Span) -> lsp.Range:
        return lsp.Range(start=self.position(span.start), end=self.position(span.end))

    def offset(self, position: lsp.Position) -> int:
        """The offset of an LSP position; a position past a line's end is that line's end, past the last line
        the text's end. A position inside a character (a UTF-16 surrogate pair, a UTF-8 sequence) rounds up."""
        if position.line >= self.lines.line_count:
            return len(self.lines.source)
        if self.encoding == lsp.PositionEncodingKind.Utf16.value:
            return self.lines.from_utf16(position.line, position.character)
        start = self.lines.line_start(position.line)
        text = self.lines.line_text(position.line)
        if self.encoding != lsp.PositionEncodingKind.Utf8.value:
            return start + min(position.character, len(text))
        units = 0
        for i, ch in enumerate(text):
            if units >= position.character:
                return start + i
            units += len(ch.encode("utf-8", "surrogatepass"))
        return start + len(text)

    def span(self, rng: lsp.Range) -> Span:
        start, end = self.offset(rng.start), self.offset(rng.end)
        return Span(min(start, end), max(start, end))

