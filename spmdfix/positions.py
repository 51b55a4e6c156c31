"""Conversions between the one stored position form (code-point offsets, `model.Span`) and the others.

The others: `ast`'s (1-based line, UTF-8 byte column), libcst's (1-based line, code-point column), the CLI's
and JSON's (1-based row, 1-based code-point column, as ruff prints them) and LSP's (0-based line, UTF-16 code
units). Lines end at "\\r\\n", "\\r" or "\\n", the three line endings Python's tokenizer knows; form feeds and
other Unicode line separators do not end a line (they would for `str.splitlines`).
"""

from __future__ import annotations

import bisect
import itertools
import operator
import re

from spmdfix.model import Span

_LINE_END = re.compile(r"\r\n|\r|\n")


def _line_starts(source: str) -> list[int]:
    """The offset of each line's first code point (the first line's, 0, included)."""
    if "\r" in source:
        return [0] + [m.end() for m in _LINE_END.finditer(source)]
    # Only "\n" ends lines: running sums of the line lengths, six times faster than the regex's matches.
    lengths = [len(line) + 1 for line in source.split("\n")]
    lengths.pop()
    return list(itertools.accumulate(lengths, operator.add, initial=0))


class LineIndex:
    """Line starts of one source text, for offset <-> (line, column) conversions.

    Input: the module source as `str`. All methods raise `ValueError` for a line outside the text.
    """

    __slots__ = ("_ascii", "_starts", "path", "source")

    def __init__(self, source: str, path: str = "") -> None:
        self.source = source
        self.path = path  # given to the spans of `span_of_ast` (`model.Span.path`)
        self._starts = _line_starts(source)
        self._ascii = source.isascii()  # then UTF-8 byte columns are code-point columns

    @property
    def line_count(self) -> int:
        """Number of lines, counting a last line without a line ending (and an empty last line)."""
        return len(self._starts)

    def line_start(self, line0: int) -> int:
        """Offset of the first code point of 0-based line `line0`."""
        if not 0 <= line0 < len(self._starts):
            raise ValueError(f"line {line0 + 1} is outside the text ({len(self._starts)} lines)")
        return self._starts[line0]

    def line_text(self, line0: int) -> str:
        """The text of 0-based line `line0`, without its line ending."""
        start = self.line_start(line0)
        end = self._starts[line0 + 1] if line0 + 1 < len(self._starts) else len(self.source)
        return _LINE_END.sub("", self.source[start:end])

    def line_of(self, offset: int) -> int:
        """0-based line holding `offset`."""
        return bisect.bisect_right(self._starts, offset) - 1

    # --- from other forms -------------------------------------------------------------------------
    def from_ast(self, lineno: int, col_utf8: int) -> int:
        """Offset of an `ast` position (1-based line, column in UTF-8 bytes)."""
        start = self.line_start(lineno - 1)
        if self._ascii:
            return start + col_utf8
        line = self.line_text(lineno - 1)
        if line.isascii():
            return start + col_utf8
        return start + len(line.encode("utf-8")[:col_utf8].decode("utf-8", errors="ignore"))

    def span_of_ast(self, node: object) -> Span:
        """Span of an `ast` node with location attributes."""
        return Span(
            self.from_ast(node.lineno, node.col_offset),  # type: ignore[attr-defined]
            self.from_ast(node.end_lineno, node.end_col_offset),  # type: ignore[attr-defined]
            self.path,
        )

    def from_line_col(self, line1: int, col_cp: int) -> int:
        """Offset of a libcst position (1-based line, 0-based code-point column)."""
        return self.line_start(line1 - 1) + col_cp

    def from_utf16(self, line0: int, char16: int) -> int:
        """Offset of an LSP position (0-based line, UTF-16 code units), clamped to the line's end."""
        if line0 >= len(self._starts):
            return len(self.source)
        line = self.line_text(line0)
        units = 0
        for i, ch in enumerate(line):
            if units >= char16:
                return self._starts[line0] + i
            units += 2 if ord(ch) > 0xFFFF else 1
        return self._starts[line0] + len(line)

    # --- to other forms ---------------------------------------------------------------------------
    def row_col(self, offset: int) -> tuple[int, int]:
        """(1-based row, 1-based code-point column) of `offset`, as the CLI and JSON report them."""
        line0 = self.line_of(offset)
        return line0 + 1, offset - self._starts[line0] + 1

    def utf16(self, offset: int) -> tuple[int, int]:
        """(0-based line, UTF-16 column) of `offset`, as LSP counts by default."""
        line0 = self.line_of(offset)
        prefix = self.source[self._starts[line0] : offset]
        return line0, len(prefix) + sum(1 for ch in prefix if ord(ch) > 0xFFFF)


def apply_edits(source: str, edits: list | tuple) -> str:
    """Apply non-overlapping text edits (`model.Edit`) to `source`.

    Raises `ValueError` when two edits overlap; the edits may come in any order.
    """
    ordered = sorted(edits, key=lambda e: (e.span.start, e.span.end))
    out: list[str] = []
    cursor = 0
    for edit in ordered:
        if edit.span.start < cursor:
            raise ValueError(f"overlapping edits at offset {edit.span.start}")
        out.append(source[cursor : edit.span.start])
        out.append(edit.content)
        cursor = edit.span.end
    out.append(source[cursor:])
    return "".join(out)
