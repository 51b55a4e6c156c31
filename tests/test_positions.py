"""Position conversions: ast byte columns, code points, UTF-16, CRLF and lone CR line endings."""

from __future__ import annotations

import ast

from spmdfix.model import Edit, Span
from spmdfix.positions import LineIndex, apply_edits


def test_ast_byte_columns_become_code_points() -> None:
    source = "größe = 1; x = 'é'\n"
    node = ast.parse(source).body[1].value  # the string literal
    lines = LineIndex(source)
    span = lines.span_of_ast(node)
    assert source[span.start : span.end] == "'é'"
    assert lines.row_col(span.start) == (1, 16)


def test_utf16_counts_astral_characters_twice() -> None:
    source = "# 🎉 x\nab\n"
    lines = LineIndex(source)
    offset = source.index("x")
    assert lines.utf16(offset) == (0, 5)
    assert lines.from_utf16(0, 5) == offset


def test_crlf_and_cr_end_lines_but_form_feed_does_not() -> None:
    source = "a\r\nb\rc\x0cd\ne"
    lines = LineIndex(source)
    assert lines.line_count == 4
    assert lines.line_text(2) == "c\x0cd"
    assert lines.row_col(source.index("e")) == (4, 1)


def test_apply_edits_in_any_order() -> None:
    edits = [Edit(Span(4, 5), "Z"), Edit(Span(0, 1), "A")]
    assert apply_edits("abcdef", edits) == "AbcdZf"
