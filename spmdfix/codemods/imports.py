"""The text edits that remove a name a fix left unused from its `from M import ...` statement
(`analysis.unused_imports.UnusedImport`): the name alone (libcst: the other names and their layout kept), or the
statement's line when the name was its only one."""

from __future__ import annotations

from collections.abc import Sequence

from spmdfix.analysis.unused_imports import UnusedImport
from spmdfix.codemods._apply import _minimal
from spmdfix.model import Edit, Span


def removal_edits(text: str, unused: Sequence[UnusedImport]) -> list[Edit]:
    """One edit per statement of `unused` that can be edited in `text`: a statement sharing its line with other
    code or a comment, or one libcst does not read as a single `from ... import`, is left as it is (its names
    stay). Names of one statement are removed together."""
    import libcst as cst  # (only when a fix left a name unused)

    by_statement: dict[tuple[int, int], list[UnusedImport]] = {}
    for u in unused:
        by_statement.setdefault((u.start, u.end), []).append(u)
    edits: list[Edit] = []
    for (start, end), names in sorted(by_statement.items()):
        line_start = text.rfind("\n", 0, start) + 1
        line_end = text.find("\n", end)
        line_end = len(text) if line_end < 0 else line_end + 1
        if text[line_start:start].strip() or text[end:line_end].strip():
            continue  # (another statement or a comment on its lines: left alone)
        try:
            line = cst.parse_statement(text[start:end] + "\n")
        except cst.ParserSyntaxError:
            continue
        node = line.body[0] if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None
        if not isinstance(node, cst.ImportFrom) or isinstance(node.names, cst.ImportStar):
            continue
        gone = {u.bound for u in names}
        kept = [a for a in node.names if _bound(a) not in gone]
        if len(kept) == len(node.names):
            continue
        if not kept:
            if not all(u.whole for u in names):
                continue  # (the statement goes only where the analysis proved its module still imported)
            edits.append(Edit(Span(line_start, line_end), ""))
            continue
        if _bound(node.names[-1]) in gone:
            kept[-1] = kept[-1].with_changes(comma=node.names[-1].comma)
        new = cst.Module([]).code_for_node(node.with_changes(names=kept))
        edits.append(_minimal(text, Span(start, end), new))
    return edits


def _bound(alias) -> str:
    """The name an `ImportAlias` binds: its `as` name, else its name."""
    import libcst as cst

    if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
        return alias.asname.name.value
    return cst.Module([]).code_for_node(alias.name)
