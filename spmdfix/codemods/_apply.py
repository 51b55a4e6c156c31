"""Shared libcst machinery of the transforms: apply a fix's `NodeEdit`s to the nodes at their spans.

The analysis runs on the stdlib `ast` and names the nodes to change by span; here libcst (with its
PositionProvider, built only for the modules being fixed) finds the node with exactly that span, rebuilds it
and records the text `Edit` that the change amounts to. The recorded edits are checked against the code
libcst prints, so the edits a language server sends and the file `fix` writes cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst
from libcst.codemod import CodemodContext, ContextAwareTransformer
from libcst.metadata import MetadataWrapper, PositionProvider

from spmdfix.model import Edit, Fix, NodeEdit, Span
from spmdfix.positions import LineIndex, apply_edits


class FixNotBuilt(Exception):
    """A fix's edits could not be applied to the tree (a node was not found, or edits overlap)."""


_EMPTY = cst.Module(body=[])


class NodeEditTransformer(ContextAwareTransformer):
    """Applies `NodeEdit`s to the expression nodes whose position equals their spans.

    After `transform_module`, `edits` holds one text `Edit` per edited node and `missing` the spans that
    matched no node.
    """

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, context: CodemodContext, node_edits: Sequence[NodeEdit], lines: LineIndex) -> None:
        super().__init__(context)
        self._lines = lines
        self._by_span: dict[Span, list[NodeEdit]] = {}
        for edit in node_edits:
            self._by_span.setdefault(edit.span, []).append(edit)
        self.edits: list[Edit] = []
        self._done: set[Span] = set()

    @property
    def missing(self) -> list[Span]:
        return [s for s in self._by_span if s not in self._done]

    def on_leave(self, original_node, updated_node):  # type: ignore[override]
        updated_node = super().on_leave(original_node, updated_node)
        if not isinstance(original_node, cst.BaseExpression) or not self._by_span:
            return updated_node
        pos = self.get_metadata(PositionProvider, original_node, None)
        if pos is None:
            return updated_node
        span = Span(
            self._lines.from_line_col(pos.start.line, pos.start.column),
            self._lines.from_line_col(pos.end.line, pos.end.column),
        )
        parens = len(getattr(original_node, "lpar", ()))
        if span not in self._by_span and parens:
            # PositionProvider leaves a node's parentheses out; `ast` keeps a tuple's in its span.
            span = _widen(self._lines.source, span, parens)
        edits = self._by_span.get(span)
        if not edits or span in self._done:
            return updated_node
        self._done.add(span)
        new = updated_node
        for edit in edits:
            new = _apply(new, edit)
        self.edits.append(_minimal(self._lines.source, span, _EMPTY.code_for_node(new)))
        return new


def _minimal(source: str, span: Span, new: str) -> Edit:
    """The edit replacing `span` by `new`, shrunk to the part that changes (common ends kept as they are)."""
    old = source[span.start : span.end]
    prefix = 0
    limit = min(len(old), len(new))
    while prefix < limit and old[prefix] == new[prefix]:
        prefix += 1
    suffix = 0
    while suffix < limit - prefix and old[len(old) - 1 - suffix] == new[len(new) - 1 - suffix]:
        suffix += 1
    return Edit(Span(span.start + prefix, span.end - suffix), new[prefix : len(new) - suffix])


def _widen(source: str, span: Span, parens: int) -> Span:
    """`span` grown over `parens` enclosing parenthesis pairs (and the whitespace inside them)."""
    start, end = span.start, span.end
    for _ in range(parens):
        while start > 0 and source[start - 1] in " \t\r\n\\":
            start -= 1
        while end < len(source) and source[end] in " \t\r\n\\":
            end += 1
        if start == 0 or source[start - 1] != "(" or end >= len(source) or source[end] != ")":
            return span
        start, end = start - 1, end + 1
    return Span(start, end)


def _apply(node: cst.BaseExpression, edit: NodeEdit) -> cst.BaseExpression:
    value = cst.parse_expression(edit.code)
    if edit.kind == "replace":
        if isinstance(node, cst.Tuple) or not getattr(node, "lpar", None):
            return value
        return value.with_changes(lpar=node.lpar, rpar=node.rpar) if hasattr(value, "lpar") else value
    if edit.kind != "insert":
        raise FixNotBuilt(f"unknown edit kind {edit.kind!r}")
    if isinstance(node, cst.Call):
        args = list(node.args)
        new_arg = cst.Arg(value=value)
        return node.with_changes(args=_inserted(args, new_arg, edit.index))
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        elements = list(node.elements)
        return node.with_changes(elements=_inserted(elements, cst.Element(value=value), edit.index))
    raise FixNotBuilt(f"cannot insert into a {type(node).__name__}")


def _separator(items: list) -> cst.Comma:
    """A comma in the layout the sequence already uses (one element per line stays so)."""
    for item in items:
        comma = item.comma
        if isinstance(comma, cst.Comma) and isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
            return comma
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _inserted(items: list, new, index: int) -> list:
    sep = _separator(items)
    if not items:
        return [new]
    if index == 0:
        return [new.with_changes(comma=sep), *items]
    last = items[-1]
    trailing = last.comma
    items = [*items[:-1], last.with_changes(comma=sep)]
    return [*items, new.with_changes(comma=trailing)]


def fix_edits(wrapper: MetadataWrapper, lines: LineIndex, fix: Fix) -> tuple[Edit, ...]:
    """The text edits of one fix on one module. Raises `FixNotBuilt` when a node is not found."""
    return edits_for(wrapper, lines, fix.node_edits)


def edits_for(wrapper: MetadataWrapper, lines: LineIndex, node_edits: Sequence[NodeEdit]) -> tuple[Edit, ...]:
    """Apply `node_edits` on the parsed module and return the text edits, verified against libcst's output.

    Raises `FixNotBuilt` when a span matches no node, when edits overlap, or when the edits do not
    reproduce the code libcst prints.
    """
    spans = sorted({e.span for e in node_edits})
    for a, b in zip(spans, spans[1:]):
        if a.overlaps(b):
            raise FixNotBuilt("the fix edits overlapping nodes")
    transformer = NodeEditTransformer(CodemodContext(), node_edits, lines)
    new_module = wrapper.visit(transformer)
    if transformer.missing:
        raise FixNotBuilt(f"no node at offsets {[s.start for s in transformer.missing]}")
    edits = tuple(sorted(transformer.edits, key=lambda e: e.span))
    if apply_edits(lines.source, edits) != new_module.code:
        raise FixNotBuilt("the recorded edits do not reproduce libcst's output")
    return edits


def parse(source: str) -> MetadataWrapper:
    """Parse `source` with libcst for editing. Raises `libcst.ParserSyntaxError` when it does not parse."""
    return MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True)
