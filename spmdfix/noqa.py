"""Suppression comments: read them, filter findings by them, and add them (`check --add-noqa`).

A finding is suppressed by a comment on the line where it starts, or (a collision whose vmap is in another
module than its spec, `vmap_place`) on the line of the vmap's `spmd_axis_name` argument:

    # noqa                     every code
    # noqa: SPMD001, SPMD002   those codes (ruff's and flake8's spelling; other tools' codes may be mixed in)
    # spmdfix: ignore          every code
    # spmdfix: ignore[SPMD001] those codes

Only comments count: the text is tokenized (`tokenize`) so a `# noqa` inside a string suppresses nothing;
when the module cannot be tokenized, each line is searched from its first `#`. File-level diagnostics
(SPMD900 syntax error, SPMD901 unreadable file) cannot be suppressed by a comment, only by `ignore`.
Pure: source text and findings in, findings and text out.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable, Mapping, Sequence

from spmdfix.files import text_of
from spmdfix.model import Edit, Finding, Span
from spmdfix.perf import frozen
from spmdfix.positions import LineIndex, apply_edits
from spmdfix.rules import SYNTAX_ERROR, UNREADABLE

UNSUPPRESSIBLE = frozenset({SYNTAX_ERROR.code, UNREADABLE.code})
_CODE = r"[A-Z]+[0-9]+"
_NOQA = re.compile(rf"#\s*(?i:noqa)(?::\s?(?P<codes>{_CODE}(?:[,\s]+{_CODE})*))?")
_IGNORE = re.compile(r"#\s*spmdfix:\s*ignore(?:\[(?P<codes>[^\]]*)\])?")
_CODES = re.compile(_CODE)
# How the rules name the first related place of a collision: the vmap's `spmd_axis_name` (`rules.rule`).
VMAP_PLACE = "`spmd_axis_name` "


@frozen(slots=True)
class Directive:
    """A suppression comment: its 1-based row, its codes (None: every code), where its code list ends.

    codes_end: offset into `comment` just after the last code (for merging codes in), or -1 for a bare one.
    """

    row: int
    codes: frozenset[str] | None
    comment: str
    codes_end: int

    def suppresses(self, code: str) -> bool:
        return self.codes is None or code in self.codes


@frozen(slots=True)
class Layout:
    """What `tokenize` says about each line: its comment, and whether a comment may end it.

    comments: row -> (start column, comment text). closed: rows that end inside a multi-line string or
    with a backslash continuation (a comment there would change the program). ok: tokenizing succeeded.
    """

    comments: dict[int, tuple[int, str]]
    closed: frozenset[int]
    ok: bool


def layout(source: str) -> Layout:
    """Comments and closed rows of `source`. Never raises (on a tokenize error, `ok` is False)."""
    comments: dict[int, tuple[int, str]] = {}
    closed: set[int] = set()
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source, newline=None).readline):
            if tok.type == tokenize.COMMENT:
                comments[tok.start[0]] = (tok.start[1], tok.string)
            elif tok.start[0] < tok.end[0] and tok.type not in (tokenize.NL, tokenize.NEWLINE):
                closed.update(range(tok.start[0], tok.end[0]))
    except (tokenize.TokenError, SyntaxError):
        return Layout(_comments_by_search(source), frozenset(), ok=False)
    lines = LineIndex(source)
    for row in range(1, lines.line_count + 1):
        if row not in comments and lines.line_text(row - 1).rstrip().endswith("\\"):
            closed.add(row)
    return Layout(comments, frozenset(closed), ok=True)


def _comments_by_search(source: str) -> dict[int, tuple[int, str]]:
    lines = LineIndex(source)
    out = {}
    for line0 in range(lines.line_count):
        text = lines.line_text(line0)
        if "#" in text:
            out[line0 + 1] = (text.index("#"), text[text.index("#") :])
    return out


def parse_directive(row: int, comment: str) -> Directive | None:
    """The suppression a comment holds, or None. A `# noqa:` with no valid code suppresses every code."""
    for pattern in (_NOQA, _IGNORE):
        match = pattern.search(comment)
        if match is None:
            continue
        body = match.group("codes")
        if body is None or not _CODES.search(body):
            return Directive(row, None, comment, -1)
        return Directive(row, frozenset(_CODES.findall(body)), comment, match.start("codes") + len(body.rstrip(", ")))
    return None


def directives(source: str, lay: Layout | None = None) -> dict[int, Directive]:
    """Suppression directives by 1-based row."""
    lay = lay or layout(source)
    out = {}
    for row, (_, comment) in lay.comments.items():
        directive = parse_directive(row, comment)
        if directive is not None:
            out[row] = directive
    return out


def split_suppressed(
    source: str, findings: Iterable[Finding], buffers: Mapping[str, str] | None = None
) -> tuple[list[Finding], list[Finding]]:
    """(kept, suppressed): a finding is suppressed when a directive covering its code is on the row where it
    starts or, for a finding whose vmap is in another module than the finding (`vmap_place`), on the row of
    the vmap's `spmd_axis_name` argument: both places a user reading the finding sees.

    `source` is the text of the module checked (paths ""); a place in another module (`Span.path`, found by
    following an import, or an importer's vmap in a partial run) is judged by the comments of that module's
    text (`files.text_of`), or by its unsaved text in `buffers` (absolute path -> text: a language server's
    open documents, which the analysis read in place of the files).
    """
    found = list(findings)
    if not found:
        return found, []
    texts: dict[str, str] = {**(buffers or {}), "": source}
    rows: dict[str, tuple[LineIndex, dict[int, Directive] | None]] = {}

    def directive_at(path: str, offset: int) -> Directive | None:
        if path not in texts:
            texts[path] = text_of(path) or ""
        text = texts[path]
        if "#" not in text:
            return None
        if path not in rows:
            rows[path] = (LineIndex(text), None)
        lines, by_row = rows[path]
        row = lines.row_col(offset)[0]
        if not _may_hold_directive(lines.line_text(row - 1)):
            return None  # tokenizing a 12,000-line module costs more than its whole analysis
        if by_row is None:
            by_row = directives(text)
            rows[path] = (lines, by_row)
        return by_row.get(row)

    kept, suppressed = [], []
    for finding in found:
        places = [finding.span, *((vmap,) if (vmap := vmap_place(finding)) is not None else ())]
        hidden = finding.code not in UNSUPPRESSIBLE and any(
            (d := directive_at(span.path, span.start)) is not None and d.suppresses(finding.code) for span in places
        )
        (suppressed if hidden else kept).append(finding)
    return kept, suppressed


def vmap_place(finding: Finding) -> Span | None:
    """The span of the `spmd_axis_name` argument of the vmap of a cross-module finding (its first related
    place, `rules.rule`'s chain) when that argument is in another module than the finding itself; else None.
    A directive there suppresses the finding too: the collision is between the two lines, and the vmap's
    module is where a user checking it reads it."""
    if not finding.related:
        return None
    first = finding.related[0]
    if not first.message.startswith(VMAP_PLACE) or first.span.path == finding.span.path:
        return None
    return first.span


def _may_hold_directive(line: str) -> bool:
    """False when no comment of `line` can be a directive: a comment is a piece of its line, and the
    directive patterns have no anchors, so a pattern that finds nothing in the line finds nothing in it."""
    return _NOQA.search(line) is not None or _IGNORE.search(line) is not None


@frozen(slots=True)
class NoqaResult:
    """Outcome of `add_noqa`: the new text, rows given a directive, rows where none could go."""

    text: str
    added: tuple[int, ...]
    skipped: tuple[int, ...]


def add_noqa(source: str, findings: Sequence[Finding]) -> NoqaResult:
    """Add `  # noqa: CODE[, CODE]` to each row holding a suppressible finding; never raises.

    Codes are merged into an existing `# noqa: ...` or `# spmdfix: ignore[...]` comment; another comment
    gets the directive appended after it. A row that ends inside a multi-line string or with a backslash
    continuation is skipped (reported in `skipped`), as is every row when the text does not tokenize.
    """
    lines = LineIndex(source)
    codes_by_row: dict[int, set[str]] = {}
    for finding in findings:
        if finding.code not in UNSUPPRESSIBLE:
            codes_by_row.setdefault(lines.row_col(finding.span.start)[0], set()).add(finding.code)
    lay = layout(source)
    edits, added, skipped = [], [], []
    for row in sorted(codes_by_row):
        edit = _row_edit(lines, lay, row, sorted(codes_by_row[row])) if lay.ok and row not in lay.closed else None
        if edit is None:
            skipped.append(row)
        elif edit.content or edit.span.start != edit.span.end:
            edits.append(edit)
            added.append(row)
    return NoqaResult(apply_edits(source, edits), tuple(added), tuple(skipped))


def _row_edit(lines: LineIndex, lay: Layout, row: int, codes: list[str]) -> Edit | None:
    text = lines.line_text(row - 1)
    start = lines.line_start(row - 1)
    comment = lay.comments.get(row)
    directive = parse_directive(row, comment[1]) if comment else None
    if directive is not None and directive.codes is None:
        return Edit(Span(start, start), "")  # a bare directive already covers every code
    if directive is not None:
        missing = [c for c in codes if c not in directive.codes]
        at = start + comment[0] + directive.codes_end
        return Edit(Span(at, at), "".join(f", {c}" for c in missing))
    end = len(text.rstrip(" \t"))
    return Edit(Span(start + end, start + len(text)), f"  # noqa: {', '.join(codes)}")
