"""Text as LSP sees it: positions in the negotiated encoding, lines, and line-level diffs.

Lines end where LSP (and Python's tokenizer) says they do: "\\r\\n", "\\r", "\\n"; not `str.splitlines`, which
also splits at form feeds and Unicode separators.
"""

from __future__ import annotations

import difflib
import re

from lsprotocol import types as lsp

from spmdfix.model import Edit, Span
from spmdfix.positions import LineIndex

_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")


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


def split_lines(text: str) -> list[str]:
    """`text` cut after each "\\r\\n", "\\r" or "\\n" (line endings kept; the pieces join back to `text`)."""
    return _LINE.findall(text)


def line_diff_edits(old: str, new: str) -> list[Edit]:
    """One edit per region of whole lines that differ between `old` and `new` (difflib opcodes on lines)."""
    a, b = split_lines(old), split_lines(new)
    starts = [0]
    for line in a:
        starts.append(starts[-1] + len(line))
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag != "equal":
            edits.append(Edit(Span(starts[i1], starts[i2]), "".join(b[j1:j2])))
    return edits
