"""Where libcst must parse to edit given spans: the smallest statement (or compound statement header) holding them.

Parsing a 12,000-line module with libcst and resolving positions over it takes seconds, while the analysis names
the nodes a fix changes by span. So a fix is built on a `Snippet`: the text of the smallest statement that holds
its spans (found on the stdlib `ast` tree the analysis already has), made into a module libcst parses on its own.

A snippet's text is the module's text `[start, end)` unchanged, between scaffolding lines:

- a simple statement is parsed at module level: its continuation lines keep their own indentation (inside
  brackets or after a backslash, indentation means nothing), so every byte of it renders as it was;
- a compound statement whose header holds the span (decorators, a `def`'s parameters, a `with`'s items) is cut
  before its first body statement, which becomes `pass`;
- a whole compound statement (when nothing smaller does) is cut at its line's start, its indentation kept, under
  an `if 1:` when that indentation is not empty;
- an `elif` follows a scaffolding `if 1: pass` at its own indentation.

Every snippet begins with a scaffolding line ended by the module's first line ending, so libcst's default newline
(the one new nodes print with) is the module's, as when the whole module is parsed.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from spmdfix.model import Span
from spmdfix.perf import frozen
from spmdfix.positions import LineIndex

_NEWLINE = re.compile(r"\r\n?|\n")  # the first match is libcst's default newline (`libcst._parser.detect_config`)
_BLANK = re.compile(r"([ \t\f]*)")
_DECORATOR = re.compile(r"([ \t\f]*)@[ \t\f]*")  # a line's text before a decorator's expression


@frozen(slots=True)
class Snippet:
    """The module text `[start, end)` between the scaffolding `head` and `tail`: a module libcst can parse alone.

    Spans of the snippet's text map to the module's by `to_module`; only those in `[start, end]` are module text.
    """

    start: int
    end: int
    head: str
    tail: str

    @property
    def span(self) -> Span:
        return Span(self.start, self.end)

    def text(self, source: str) -> str:
        return self.head + source[self.start : self.end] + self.tail

    def to_module(self, span: Span) -> Span:
        """The module span of a span of the snippet's text."""
        shift = self.start - len(self.head)
        return Span(span.start + shift, span.end + shift)

    def to_snippet(self, span: Span) -> Span:
        """The span in the snippet's text of a module span inside `[start, end]`."""
        shift = len(self.head) - self.start
        return Span(span.start + shift, span.end + shift)


def default_newline(source: str) -> str:
    """The line ending libcst gives new nodes of `source`: its first one, "\\n" when it has none."""
    match = _NEWLINE.search(source)
    return match.group(0) if match else "\n"


def snippets_for(tree: ast.Module, lines: LineIndex, span: Span) -> list[Snippet]:
    """Snippets holding `span`, smallest first: the innermost statement (or its header), then each enclosing
    compound statement whole. Empty when no statement holds `span` (only the whole module does).

    `tree` is `ast.parse(lines.source)`. The caller tries them in order: a snippet that libcst cannot parse alone,
    or in which no node has the span, gives way to the next one, and the whole module comes last.
    """
    source = lines.source
    nl = default_newline(source)
    path = list(_enclosing(tree, lines, span))
    if not path:
        return []
    out: list[Snippet] = []
    innermost = path[-1]
    if not _child_statements(innermost):
        start, end = _extent(innermost, lines)
        out.append(Snippet(start, end, "pass" + nl, nl))
    else:
        header = _header(innermost, lines, span, nl)
        if header is not None:
            out.append(header)
    for stmt in reversed(path):
        if _child_statements(stmt):
            whole = _whole(stmt, lines, nl)
            if whole is not None:
                out.append(whole)
    return out


def _enclosing(tree: ast.Module, lines: LineIndex, span: Span) -> Iterator[ast.stmt]:
    """The statements holding `span`, outermost first."""
    children: list[ast.stmt] = tree.body
    while True:
        for stmt in children:
            start, end = _extent(stmt, lines)
            if start <= span.start and span.end <= end:
                yield stmt
                children = _child_statements(stmt)
                break
        else:
            return


def _child_statements(stmt: ast.stmt) -> list[ast.stmt]:
    """The statements directly inside a compound statement (its bodies, handlers' and cases' bodies)."""
    out: list[ast.stmt] = []
    for name in ("body", "orelse", "finalbody"):
        out.extend(getattr(stmt, name, ()))
    for part in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
        out.extend(part.body)
    return out


def _first(stmt: ast.stmt) -> ast.AST:
    """The node where a statement's text begins: its first decorator's expression, or the statement itself."""
    decorators = getattr(stmt, "decorator_list", None)
    return decorators[0] if decorators else stmt


def _extent(stmt: ast.stmt, lines: LineIndex) -> tuple[int, int]:
    """(start, end) offsets of a statement's text; for a decorated one, from its first decorator's expression."""
    first = _first(stmt)
    return lines.from_ast(first.lineno, first.col_offset), lines.from_ast(stmt.end_lineno, stmt.end_col_offset)


def _line_start(stmt: ast.stmt, lines: LineIndex) -> tuple[int, str] | None:
    """(offset of the statement's first line, its indentation); None when other text comes before it there."""
    first = _first(stmt)
    at = lines.line_start(first.lineno - 1)
    before = lines.source[at : lines.from_ast(first.lineno, first.col_offset)]
    match = (_DECORATOR if getattr(stmt, "decorator_list", None) else _BLANK).fullmatch(before)
    return (at, match.group(1)) if match else None


def _scaffold(stmt: ast.stmt, indent: str, source: str, start: int, nl: str) -> str:
    """The lines before a compound statement's text that make it parse alone at its own indentation."""
    head = ("if 1:" if indent else "pass") + nl
    if isinstance(stmt, ast.If) and source.startswith("elif", start + len(indent)):
        head += indent + "if 1: pass" + nl
    return head


def _header(stmt: ast.stmt, lines: LineIndex, span: Span, nl: str) -> Snippet | None:
    """A compound statement up to its first body statement (which becomes `pass`), when `span` is in that part."""
    body = getattr(stmt, "body", None)
    located = _line_start(stmt, lines)
    if not body or located is None:
        return None
    cut = _body_start(body[0], lines)
    if cut is None or span.end > cut:
        return None
    start, indent = located
    return Snippet(start, cut, _scaffold(stmt, indent, lines.source, start, nl), "pass" + nl)


def _body_start(stmt: ast.stmt, lines: LineIndex) -> int | None:
    """Where a body statement's text begins: its `@` when decorated."""
    if not getattr(stmt, "decorator_list", None):
        return _extent(stmt, lines)[0]
    located = _line_start(stmt, lines)
    if located is None:
        return None
    at, indent = located
    return at + len(indent)


def _whole(stmt: ast.stmt, lines: LineIndex, nl: str) -> Snippet | None:
    """A whole compound statement from the start of its first line, indentation kept."""
    located = _line_start(stmt, lines)
    if located is None:
        return None
    start, indent = located
    end = _extent(stmt, lines)[1]
    return Snippet(start, end, _scaffold(stmt, indent, lines.source, start, nl), nl)
