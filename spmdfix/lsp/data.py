"""Diagnostics, and the plain JSON they and code actions carry in `data` (a finding and its fixes).

A diagnostic's `data` holds the document version and every fix of its finding, so that a code action
on an unchanged document needs no re-analysis.
"""

from __future__ import annotations

import enum
from dataclasses import fields, is_dataclass
from pathlib import Path
from typing import Any

from lsprotocol import types as lsp

from spmdfix import rules
from spmdfix.files import text_of
from spmdfix.links import editor_url
from spmdfix.lsp.text import PositionConverter
from spmdfix.model import Applicability, EditKind, Finding, Fix, FixId, NodeEdit, Span, Transform, Unfollowed

SOURCE = "spmdfix"
ERROR_CODES = frozenset({rules.IN_SPECS.code, rules.OUT_SPECS.code})


def to_json(value: Any) -> Any:
    """A dataclass tree (Fix, NodeEdit, Span, ...) as plain JSON values; enums become their values."""
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name)) for f in fields(value)}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    if isinstance(value, dict):
        return {str(k): to_json(v) for k, v in value.items()}
    return value


def _span(data: dict[str, Any]) -> Span:
    return Span(int(data["start"]), int(data["end"]), str(data.get("path", "")))


def fix_to_json(fix: Fix) -> dict[str, Any]:
    """A fix as a diagnostic's or a code action's `data` carries it (`fix_from_json` reads it back): its id as
    its key's text (`Fix.key`), its title, safety, reason, placement and edits. Its sites and isolation group stay out: a code
    action applies one fix alone, and a fix of a changed document is taken from a new analysis."""
    return {
        "transform": to_json(fix.transform),
        "key": fix.key,
        "title": fix.title,
        "applicability": to_json(fix.applicability),
        "reason": fix.reason,
        "placement": fix.placement,
        "node_edits": to_json(fix.node_edits),
    }


def fix_from_json(data: dict[str, Any]) -> Fix:
    """The `Fix` that `fix_to_json` wrote: its id read back from the key (`FixId.parse`, the one place a key
    is parsed), its `sites` only the site it is planned for (the data does not carry the others). Raises
    KeyError/TypeError/ValueError on malformed data, and ValueError when the key disagrees with the transform."""
    fix_id = FixId.parse(str(data["key"]))
    if fix_id.transform is not Transform(data["transform"]):
        raise ValueError(f"fix key {data['key']!r} is not a {data['transform']} fix")
    return Fix(
        id=fix_id,
        title=str(data["title"]),
        applicability=Applicability(data["applicability"]),
        reason=str(data.get("reason", "")),
        placement=str(data.get("placement", "")),
        node_edits=tuple(
            NodeEdit(
                span=_span(e["span"]),
                kind=EditKind(e["kind"]),
                code=str(e["code"]),
                index=int(e.get("index", 0)),
            )
            for e in data["node_edits"]
        ),
        sites=frozenset({fix_id.site}),
    )


def finding_from_json(data: dict[str, Any]) -> Finding:
    """The finding (without `related` and `refusals`) a diagnostic's `data` describes."""
    f = data["finding"]
    return Finding(
        code=str(f["code"]),
        name=str(f["name"]),
        message=str(f["message"]),
        span=_span(f["span"]),
        axis=str(f.get("axis", "")),
        fixes=tuple(fix_from_json(x) for x in data.get("fixes", ())),
    )


_RULE_URLS: dict[tuple[str, str | None], str | None] = {}


def _rule_url(code: str, docs: str | None) -> str | None:
    """`links.editor_url`, once per code and base."""
    key = (code, docs)
    if key not in _RULE_URLS:
        _RULE_URLS[key] = editor_url(code, docs)
    return _RULE_URLS[key]


def diagnostic_data(finding: Finding, version: int | None) -> dict[str, Any]:
    """What a code action needs of a finding, as plain JSON: the document version, the finding, its fixes."""
    return {
        "version": version,
        "finding": {
            "code": finding.code,
            "name": finding.name,
            "message": finding.message,
            "span": to_json(finding.span),
            "axis": finding.axis,
        },
        "fixes": [fix_to_json(fix) for fix in finding.fixes],
    }


def anchor(finding: Finding) -> Span | None:
    """Where a finding's diagnostic goes in the document checked: the finding's own place, or, for a finding
    the cross-module analysis located in another module (a callee's shard_map), its first related place in
    this one (the vmap's `spmd_axis_name`); None when it has no place here."""
    if not finding.span.path:
        return finding.span
    return next((r.span for r in finding.related if not r.span.path), None)


def location(span: Span, conv: PositionConverter, uri: str) -> lsp.Location:
    """The LSP location of a span of the document (`conv`, `uri`) or of another module (`Span.path`). In a
    notebook (the vmap of a notebook importing the document's module, `reaching`), the start of the
    `.ipynb` file: a range counts lines of the file's JSON text, which a cell's are not (`related`'s message
    says the cell and its line, `placed`)."""
    if not span.path:
        return lsp.Location(uri=uri, range=conv.range(span))
    if span.path.endswith(".ipynb"):
        start = lsp.Position(line=0, character=0)
        return lsp.Location(uri=Path(span.path).as_uri(), range=lsp.Range(start=start, end=start))
    other = PositionConverter(text_of(span.path) or "", conv.encoding)
    return lsp.Location(uri=Path(span.path).as_uri(), range=other.range(span))


def placed(message: str, span: Span) -> str:
    """A related place's message, prefixed with `cell N:row:col` for a place in a notebook (`location` puts
    it at the file's start; the JSON output's `cell` and rows, `report`)."""
    if not span.path.endswith(".ipynb"):
        return message
    from spmdfix.notebook import cell_index
    from spmdfix.positions import LineIndex
    from spmdfix.project_files import read_notebook

    read = read_notebook(span.path)
    if read is None:
        return message
    try:
        row, col = LineIndex(read[0]).row_col(span.start)
    except ValueError:
        return message
    cell, cell_row = cell_index(read[0]).locate(row)
    return f"cell {cell}:{cell_row}:{col}: {message}"


def diagnostic(
    finding: Finding, conv: PositionConverter, uri: str, version: int | None, docs: str | None = None
) -> lsp.Diagnostic:
    """The LSP diagnostic of one finding (placed at its `anchor`, which the caller checked is not None);
    `codeDescription.href` is the rule's link under `docs` (the document's `docs-url` setting) when that is
    an absolute URI, else its documentation installed with the package (`links.editor_url`)."""
    url = _rule_url(finding.code, docs)
    related = [
        lsp.DiagnosticRelatedInformation(location=location(r.span, conv, uri), message=placed(r.message, r.span))
        for r in finding.related
    ]
    if finding.span.path:
        here = lsp.DiagnosticRelatedInformation(location=location(finding.span, conv, uri), message="the spec is here")
        related.insert(0, here)
    return lsp.Diagnostic(
        range=conv.range(anchor(finding) or finding.span),
        message=finding.message,
        severity=lsp.DiagnosticSeverity.Error if finding.code in ERROR_CODES else lsp.DiagnosticSeverity.Warning,
        code=finding.code,
        code_description=lsp.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=related or None,
        data=diagnostic_data(finding, version),
    )


def unfollowed_diagnostic(
    place: Unfollowed, conv: PositionConverter, uri: str, docs: str | None = None
) -> lsp.Diagnostic | None:
    """The LSP diagnostic (severity Information, no `data`: nothing to fix) of a place where the analysis of
    one of the document's vmaps stopped (SPMD910, `model.Unfollowed`): at the place when it lies in the
    document, else at the vmap with the place as related information; None when neither is in it.
    `spmdfix check` counts these places and lists them with `--show-unresolved`; the editor shows them, so an
    empty list of diagnostics keeps meaning "followed to the end, and clean"."""
    from spmdfix.report import unfollowed_message, unfollowed_vmap_note

    if place.importers_unsearched:  # (no vmap is known: the record is its own message)
        at, related = place.span, []
    elif not place.span.path:
        at, related = place.span, [(place.vmap, unfollowed_vmap_note(place))]
    elif not place.vmap.path:
        at, related = place.vmap, [(place.span, "the analysis stopped here")]
    else:
        return None
    url = _rule_url(rules.UNFOLLOWED.code, docs)
    return lsp.Diagnostic(
        range=conv.range(at),
        message=unfollowed_message(place),
        severity=lsp.DiagnosticSeverity.Information,
        code=rules.UNFOLLOWED.code,
        code_description=lsp.CodeDescription(href=url) if url else None,
        source=SOURCE,
        related_information=[
            lsp.DiagnosticRelatedInformation(location=location(span, conv, uri), message=placed(message, span))
            for span, message in related
        ],
    )
