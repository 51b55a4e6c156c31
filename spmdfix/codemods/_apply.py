"""Shared libcst machinery of the transforms: apply a fix's `NodeEdit`s to the nodes at their spans.

The analysis runs on the stdlib `ast` and names the nodes to change by span; here libcst finds the node with
exactly that span, rebuilds it and records the text `Edit` that the change amounts to. libcst parses (and
PositionProvider positions) only the snippet of the module that holds the edits (`_snippets`): a statement, or
a compound statement's header, found on the `ast` tree. The recorded edits are checked against the code libcst
prints, so the edits a language server sends and the file `fix` writes cannot disagree.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Sequence
from dataclasses import replace

import libcst as cst
from libcst._nodes.internal import CodegenState  # the state Module.code_for_node renders with
from libcst.metadata import MetadataWrapper, PositionProvider

from spmdfix.codemods._snippets import Snippet, snippets_for
from spmdfix.model import Edit, EditKind, NodeEdit, Span
from spmdfix.positions import LineIndex, apply_edits


class FixNotBuilt(Exception):
    """A fix's edits could not be applied to the tree (a node was not found, or edits overlap)."""


class NodeEditTransformer(cst.CSTTransformer):
    """Applies `NodeEdit`s to the expression nodes whose position equals their spans.

    After `transform_module`, `edits` holds one text `Edit` per edited node and `missing` the spans that
    matched no node.
    """

    METADATA_DEPENDENCIES = (PositionProvider,)

    def __init__(self, node_edits: Sequence[NodeEdit], lines: LineIndex, module: cst.Module) -> None:
        # A plain CSTTransformer: libcst.codemod's transformers would import libcst.matchers (about 0.8 s).
        super().__init__()
        self._lines = lines
        self._module = module
        self._indents: list[str] = []
        self._by_span: dict[Span, list[NodeEdit]] = {}
        for edit in node_edits:
            self._by_span.setdefault(edit.span, []).append(edit)
        self.edits: list[Edit] = []
        self._done: set[Span] = set()

    @property
    def missing(self) -> list[Span]:
        return [s for s in self._by_span if s not in self._done]

    def on_visit(self, node) -> bool:  # type: ignore[override]
        if isinstance(node, cst.IndentedBlock):
            self._indents.append(self._module.default_indent if node.indent is None else node.indent)
        return super().on_visit(node)

    def _code(self, node: cst.CSTNode) -> str:
        """The node's code as it prints in place: nested in the enclosing blocks' indentation, which
        `Module.code_for_node` leaves out (a multi-line call in a function body would lose its indent)."""
        state = CodegenState(
            default_indent=self._module.default_indent,
            default_newline=self._module.default_newline,
            indent_tokens=list(self._indents),
        )
        node._codegen(state)
        return "".join(state.tokens)

    def on_leave(self, original_node, updated_node):  # type: ignore[override]
        if isinstance(original_node, cst.IndentedBlock):
            self._indents.pop()
        updated_node = super().on_leave(original_node, updated_node)
        if isinstance(original_node, cst.FunctionDef) and self._by_span:
            return self._function_params(original_node, updated_node)
        if not isinstance(original_node, cst.BaseExpression) or not self._by_span:
            return updated_node
        pos = self.get_metadata(PositionProvider, original_node, None)
        if pos is None:
            return updated_node
        span = self._span(pos.start, pos.end)
        lpar, rpar = getattr(original_node, "lpar", ()), getattr(original_node, "rpar", ())
        if span not in self._by_span and lpar and rpar:
            # PositionProvider leaves a node's parentheses out; `ast` keeps a tuple's in its span.
            first = self.get_metadata(PositionProvider, lpar[0], None)
            last = self.get_metadata(PositionProvider, rpar[-1], None)
            if first is not None and last is not None:
                span = self._span(first.start, last.end)
        edits = self._by_span.get(span)
        if not edits or span in self._done:
            return updated_node
        if not isinstance(original_node, cst.Lambda) and any(e.kind is EditKind.PARAM for e in edits):
            return updated_node  # a `def`'s name: its "param" edits belong to the FunctionDef
        self._done.add(span)
        new = updated_node
        for edit in edits:
            new = _apply(new, edit)
        self._record(span, self._code(new))
        return new


    def _function_params(self, original: cst.FunctionDef, updated: cst.FunctionDef) -> cst.FunctionDef:
        """"param" edits of a `def` are keyed by its name's span; the text edit covers its parameters."""
        name_pos = self.get_metadata(PositionProvider, original.name, None)
        params_pos = self.get_metadata(PositionProvider, original.params, None)
        if name_pos is None or params_pos is None:
            return updated
        key = self._span(name_pos.start, name_pos.end)
        edits = self._by_span.get(key)
        if not edits or key in self._done:
            return updated
        self._done.add(key)
        params = updated.params
        for edit in edits:
            params = _with_param(params, edit.code)
        span = self._span(params_pos.start, params_pos.end)
        self._record(span, self._code(params))
        return updated.with_changes(params=params)

    def _span(self, start, end) -> Span:
        """The Span between two libcst CodePositions (1-based lines, code-point columns)."""
        return Span(self._lines.from_line_col(start.line, start.column), self._lines.from_line_col(end.line, end.column))

    def _record(self, span: Span, code: str) -> None:
        """Record the text edit of a rebuilt node; it covers (and replaces) edits of nodes inside it."""
        self.edits = [e for e in self.edits if not span.contains(e.span)]
        self.edits.append(_minimal(self._lines.source, span, code))


def _with_param(params: cst.Parameters, name: str) -> cst.Parameters:
    """`params` with a plain positional parameter `name` appended."""
    return params.with_changes(params=_inserted(list(params.params), cst.Param(cst.Name(name)), -1))


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


def _apply(node: cst.BaseExpression, edit: NodeEdit) -> cst.BaseExpression:
    if edit.kind is EditKind.REPLACE:
        value = cst.parse_expression(edit.code)
        if isinstance(node, cst.Tuple) or not getattr(node, "lpar", None):
            return value
        return value.with_changes(lpar=node.lpar, rpar=node.rpar) if hasattr(value, "lpar") else value
    if edit.kind is EditKind.PARAM and isinstance(node, cst.Lambda):
        return node.with_changes(params=_with_param(node.params, edit.code))
    if edit.kind is EditKind.DROP_KEYWORD and isinstance(node, cst.Call):
        return node.with_changes(args=_without_keyword(list(node.args), edit.code))
    if edit.kind is not EditKind.INSERT:
        raise FixNotBuilt(f"cannot apply a {edit.kind.value!r} edit to a {type(node).__name__}")
    if isinstance(node, cst.Call):
        # Parsed as an argument so that keyword arguments (`check_vma=False`) insert as such.
        new_arg = cst.parse_expression(f"f({edit.code})").args[0]
        return node.with_changes(args=_inserted(list(node.args), new_arg, edit.index))
    if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
        value = cst.parse_expression(edit.code)
        elements = _inserted(list(node.elements), cst.Element(value=value), edit.index)
        if isinstance(node, cst.Tuple) and len(elements) == 1:
            elements = [elements[0].with_changes(comma=cst.Comma())]  # `(x,)`: a 1-tuple needs its comma
        return node.with_changes(elements=elements)
    raise FixNotBuilt(f"cannot insert into a {type(node).__name__}")


def _without_keyword(args: list[cst.Arg], name: str) -> list[cst.Arg]:
    """`args` without the keyword argument `name`; when it was the last one, the argument before it takes
    its comma (a trailing comma stays only where there was one)."""
    index = next((i for i, a in enumerate(args) if a.keyword is not None and a.keyword.value == name), None)
    if index is None:
        raise FixNotBuilt(f"no keyword argument `{name}` to remove")
    removed = args[index]
    rest = args[:index] + args[index + 1 :]
    if index == len(args) - 1 and rest:
        rest[-1] = rest[-1].with_changes(comma=_last_comma(rest[-1].comma, removed.comma))
    return rest


def _last_comma(own, removed):
    """The comma of the argument that becomes the last one: none when the removed one had none; in a one
    argument a line layout, its own comma (and comment) followed by the removed one's line break, which
    holds the closing parenthesis's indentation."""
    if not isinstance(removed, cst.Comma) or not isinstance(own, cst.Comma):
        return removed
    mine, theirs = own.whitespace_after, removed.whitespace_after
    if isinstance(mine, cst.ParenthesizedWhitespace) and isinstance(theirs, cst.ParenthesizedWhitespace):
        return own.with_changes(whitespace_after=theirs.with_changes(first_line=mine.first_line))
    return removed


def _separator(items: list) -> cst.Comma:
    """A comma in the layout the sequence already uses (one element per line stays so); a comment that
    followed the copied comma stays with its own element."""
    for item in items:
        comma = item.comma
        if isinstance(comma, cst.Comma) and isinstance(comma.whitespace_after, cst.ParenthesizedWhitespace):
            after = comma.whitespace_after
            first_line = after.first_line.with_changes(whitespace=cst.SimpleWhitespace(""), comment=None)
            return comma.with_changes(whitespace_after=after.with_changes(first_line=first_line, empty_lines=()))
    return cst.Comma(whitespace_after=cst.SimpleWhitespace(" "))


def _inserted(items: list, new, index: int) -> list:
    sep = _separator(items)
    if not items:
        return [new]
    if index == 0:
        if len(items) == 1 and not isinstance(sep.whitespace_after, cst.ParenthesizedWhitespace):
            # A one-element tuple's comma is no longer needed once it has two: `('i',)` -> `('batch', 'i')`.
            items = [items[0].with_changes(comma=cst.MaybeSentinel.DEFAULT)]
        return [new.with_changes(comma=sep), *items]
    last = items[-1]
    trailing = last.comma
    if not (isinstance(trailing, cst.Comma) and isinstance(trailing.whitespace_after, cst.ParenthesizedWhitespace)):
        # A trailing comma is kept only where the layout is one element per line: `(a,)` -> `(a, b)`.
        trailing = cst.MaybeSentinel.DEFAULT
    if isinstance(last, cst.Arg) and isinstance(new, cst.Arg):
        # A call's line break before `)` belongs to its last argument: it moves to the new last one, so that
        # `out_specs=P('y')\n)` becomes `out_specs=P('y'),\n check_vma=False\n)`, not a blank line and `...)`.
        new = new.with_changes(whitespace_after_arg=last.whitespace_after_arg)
        last = last.with_changes(whitespace_after_arg=cst.SimpleWhitespace(""))
    items = [*items[:-1], last.with_changes(comma=sep)]
    return [*items, new.with_changes(comma=trailing)]


class ModuleEditor:
    """Builds the text edits of fixes on one module, parsing with libcst only the snippets that hold them.

    Input: the module's source and, optionally, its stdlib `ast` tree (the one the analysis used; parsed here
    when not given). A snippet (`_snippets.Snippet`: the smallest statement or header holding an edit) is parsed
    once and shared by every fix that edits it; the whole module is parsed only when no snippet serves (the
    source does not parse with `ast`, an edit lies outside every statement, or no snippet parses alone).
    """

    def __init__(self, source: str, tree: ast.Module | None = None) -> None:
        self.lines = LineIndex(source)
        self._tree = tree
        self._parsed: dict[Snippet | None, tuple[MetadataWrapper, LineIndex] | cst.ParserSyntaxError] = {}

    def edits(self, node_edits: Sequence[NodeEdit]) -> tuple[Edit, ...]:
        """The text edits of one fix's `node_edits`, sorted by position.

        Raises `FixNotBuilt` when edits overlap, a span matches no node, or the result does not reproduce (or
        parse as) libcst's output; `libcst.ParserSyntaxError` when the whole module had to be parsed and could not.
        """
        _refuse_overlaps(node_edits)
        out: list[Edit] = []
        for chain, group in self._groups(node_edits):
            out.extend(self._group_edits(chain, group))
        return tuple(sorted(out, key=lambda e: e.span))

    def _groups(self, node_edits: Sequence[NodeEdit]) -> list[tuple[list[Snippet], list[NodeEdit]]]:
        """The edits grouped by the snippet they are built on, each group with its candidate snippets
        (smallest first; an empty list means the whole module). Edits whose snippets overlap share the
        smallest candidate holding both."""
        tree = self._ast()
        groups: list[tuple[list[Snippet], list[NodeEdit]]] = []
        for edit in node_edits:
            chain = snippets_for(tree, self.lines, edit.span) if tree is not None else []
            members = [edit]
            while other := next((g for g in groups if _overlap(chain, g[0])), None):
                groups.remove(other)
                chain = _joined(chain, other[0])
                members = other[1] + members
            groups.append((chain, members))
        return groups

    def _group_edits(self, chain: list[Snippet], node_edits: list[NodeEdit]) -> list[Edit]:
        """Build one group's edits on its first snippet that parses and holds all its nodes, else the module."""
        for snippet in chain:
            parsed = self._parse(snippet)
            if isinstance(parsed, cst.ParserSyntaxError):
                continue
            wrapper, lines = parsed
            moved = [replace(e, span=snippet.to_snippet(e.span)) for e in node_edits]
            try:
                edits = edits_for(wrapper, lines, moved)
            except _Missing:
                continue
            return [_moved_back(snippet, e) for e in edits]
        parsed = self._parse(None)
        if isinstance(parsed, cst.ParserSyntaxError):
            raise parsed
        wrapper, lines = parsed
        try:
            return list(edits_for(wrapper, lines, node_edits))
        except _Missing as err:
            raise FixNotBuilt(str(err)) from None

    def _ast(self) -> ast.Module | None:
        if self._tree is None:
            try:
                self._tree = ast.parse(self.lines.source)
            except (SyntaxError, ValueError, RecursionError, MemoryError):
                return None
        return self._tree

    def _parse(self, snippet: Snippet | None) -> tuple[MetadataWrapper, LineIndex] | cst.ParserSyntaxError:
        """The libcst tree of a snippet (None: of the whole module) and its line index, or why it does not parse."""
        if snippet not in self._parsed:
            text = self.lines.source if snippet is None else snippet.text(self.lines.source)
            try:
                self._parsed[snippet] = (parse(text), self.lines if snippet is None else LineIndex(text))
            except cst.ParserSyntaxError as err:
                self._parsed[snippet] = err
        return self._parsed[snippet]


def _overlap(a: list[Snippet], b: list[Snippet]) -> bool:
    if not a or not b:
        return True  # the whole module overlaps everything
    return a[0].start < b[0].end and b[0].start < a[0].end


def _joined(a: list[Snippet], b: list[Snippet]) -> list[Snippet]:
    """The candidates holding the first snippets of both chains, smallest first (none: the whole module)."""
    joined = [_from_holder(a, b[0]), _from_holder(b, a[0])] if a and b else []
    joined = [j for j in joined if j]
    return min(joined, key=lambda j: j[0].end - j[0].start) if joined else []


def _from_holder(chain: list[Snippet], inner: Snippet) -> list[Snippet]:
    """`chain` from its first snippet that holds `inner`'s module text."""
    for i, snippet in enumerate(chain):
        if snippet.span.contains(inner.span):
            return chain[i:]
    return []


def _moved_back(snippet: Snippet, edit: Edit) -> Edit:
    """An edit of the snippet's text as an edit of the module; one that reaches its scaffolding is refused."""
    span = snippet.to_module(edit.span)
    if not snippet.span.contains(span):
        raise FixNotBuilt("the fix edits outside the statement that holds it")
    return Edit(span, edit.content)


def _refuse_overlaps(node_edits: Sequence[NodeEdit]) -> None:
    """Raise `FixNotBuilt` when two edited nodes overlap without one holding the other."""
    spans = sorted({e.span for e in node_edits})
    for a, b in itertools.pairwise(spans):
        if a.overlaps(b) and not (a.contains(b) or b.contains(a)):
            raise FixNotBuilt("the fix edits overlapping nodes")


class _Missing(FixNotBuilt):
    """A span matched no node of the tree (in a snippet: a larger one may hold it)."""


def edits_for(wrapper: MetadataWrapper, lines: LineIndex, node_edits: Sequence[NodeEdit]) -> tuple[Edit, ...]:
    """Apply `node_edits` on a parsed module (a whole one or a snippet) and return the text edits of its text
    (`lines.source`), verified against libcst's output, which must parse again.

    Raises `FixNotBuilt` when a span matches no node (`_Missing`), when edits overlap, when libcst cannot
    build an edited node, when the edits do not reproduce the code libcst prints, or when that code does not
    parse.
    """
    _refuse_overlaps(node_edits)
    transformer = NodeEditTransformer(node_edits, lines, wrapper.module)
    try:
        new_module = wrapper.visit(transformer)
    except (cst.ParserSyntaxError, cst.CSTValidationError) as err:
        # The edit's own code does not parse, or libcst refuses the node it makes (a positional argument
        # after keywords): this fix cannot be built, which says nothing about the module.
        raise FixNotBuilt(f"libcst cannot build the edited node: {str(err).splitlines()[0]}") from None
    if transformer.missing:
        raise _Missing(f"no node at offsets {[s.start for s in transformer.missing]}")
    edits = tuple(sorted(transformer.edits, key=lambda e: e.span))
    new_code = new_module.code
    if apply_edits(lines.source, edits) != new_code + _lost_final_cr(lines.source, new_code):
        raise FixNotBuilt("the recorded edits do not reproduce libcst's output")
    try:
        cst.parse_module(new_code)
    except cst.ParserSyntaxError:
        # libcst's message places the error in the snippet, not in the module: left out.
        raise FixNotBuilt("the edited code does not parse") from None
    return edits


def _lost_final_cr(source: str, code: str) -> str:
    """"\r" when libcst's printed `code` lacks the final line ending of `source` that ends in a lone "\r" (a
    module whose lines end in "\r" only, which Python reads: libcst prints it without its last "\r", measured
    with libcst 1.x on `x = 1\ry = 2\r`), else "". The recorded edits keep that byte, as every byte outside
    an edit; without this every fix of such a module failed here while `check` offered it (breaker20)."""
    if source.endswith("\r") and not code.endswith("\r"):
        return "\r"
    return ""


def parse(source: str) -> MetadataWrapper:
    """Parse `source` with libcst for editing. Raises `libcst.ParserSyntaxError` when it does not parse."""
    return MetadataWrapper(cst.parse_module(source), unsafe_skip_copy=True)
