"""Emitters: ruff-style text, ruff-compatible JSON records, and unified diffs.

Positions leave here as 1-based rows and 1-based code-point columns, as ruff prints them. The JSON record
keeps ruff's field names (`code`, `message`, `filename`, `location{row,column}`, `end_location`,
`noqa_row`, `url`, `fix{applicability,message,edits}`) and adds `name`, `severity`, `related`,
`alternatives` (the other applicable fixes) and `chain` (the path from the vmap to the finding, in order).
Every related place, chain step and edit names its file (`filename`, absolute): a finding's path may cross
modules of the project.
"""

from __future__ import annotations

from collections.abc import Mapping

from spmdfix.links import rule_url
from spmdfix.model import AUTO, UNFIXABLE_REASON, Applicability, Edit, Finding, Fix, Span, Strategy, Unfollowed, choose_fix
from spmdfix.paths import relpath
from spmdfix.perf import record, sha256  # (not hashlib's: `perf.sha256`)
from spmdfix.positions import LineIndex
from spmdfix.rules import RULES, UNFOLLOWED



# eq=False, repr=False: nothing compares, hashes or prints this record, and each generated method is
# compiled when the module is imported (on the serial start of a run: bench/README.md, "The imports").
@record(frozen=True)
class FileReport:
    """What one file contributes to a report: display path, absolute path, source and findings."""

    display: str
    absolute: str
    source: str
    findings: tuple[Finding, ...]


def _loc(lines: LineIndex, offset: int) -> dict[str, int]:
    row, col = lines.row_col(offset)
    return {"row": row, "column": col}


class _Places:
    """Where spans of one file's findings are: that file, or another module the analysis followed into
    (`Span.path`), whose text is read once to turn offsets into rows. Another file may be a notebook (the vmap
    of a notebook importing the checked module, `reaching`): its spans are offsets into the module of its code
    cells (`project_files.read_notebook`), and its places are said by cell (`cells_of`)."""

    def __init__(self, report: FileReport, texts: Mapping[str, str] | None = None) -> None:
        self.report = report
        self.lines = LineIndex(report.source)
        self._other: dict[str, LineIndex] = {}
        self._cells: dict[str, object] = {}  # a notebook's path -> its `notebook.CellIndex`
        self._texts = texts or {}  # {absolute path: text} of modules as the spans were found in them

    def lines_of(self, span: Span) -> LineIndex:
        if not span.path:
            return self.lines
        if span.path not in self._other:
            text = self._texts.get(span.path)
            self._other[span.path] = LineIndex(text if text is not None else _module_text(span.path) or "")
        return self._other[span.path]

    def cells_of(self, span: Span, own=None):
        """The `notebook.CellIndex` of the file `span` lies in: `own` (the reported file's, None for a module)
        for a span of that file, a notebook's for a span in another file that is one, else None."""
        if not span.path:
            return own
        if not span.path.endswith(".ipynb"):
            return None
        if span.path not in self._cells:
            from spmdfix.notebook import cell_index

            self._cells[span.path] = cell_index(self.lines_of(span).source)
        return self._cells[span.path]

    def display(self, span: Span) -> str:
        if not span.path:
            return self.report.display
        return relpath(span.path).replace("\\", "/")

    def absolute(self, span: Span) -> str:
        return span.path or self.report.absolute

    def loc(self, span: Span) -> dict:
        """A place's JSON `location` and `end_location`; in another file that is a notebook, rows counted
        from its cell's first line and its 1-based `cell` (as `notebook.remap_record` gives the reported
        notebook's own places)."""
        lines = self.lines_of(span)
        start, end = _loc(lines, span.start), _loc(lines, span.end)
        cells = self.cells_of(span) if span.path else None
        if cells is None:
            return {"location": start, "end_location": end}
        cell, row = cells.locate(start["row"])
        end_cell, end_row = cells.locate(end["row"])
        return {
            "location": {"row": row, "column": start["column"]},
            "end_location": {"row": end_row if end_cell == cell else row, "column": end["column"]},
            "cell": cell,
        }


def _module_text(path: str) -> str | None:
    """The text the analysis read of the file at `path` (a notebook: the module of its code cells), None
    when it cannot be read now."""
    if path.endswith(".ipynb"):
        from spmdfix.project_files import read_notebook

        read = read_notebook(path)
        return read[0] if read is not None else None
    from spmdfix.files import text_of

    return text_of(path)


def fingerprint(code: str, text: str, start: int, end: int) -> str:
    """A finding's fingerprint: a digest of its rule `code`, the text of the line holding offset `start` of
    `text` (the module its span lies in; without the line's indentation) and the text of its span
    `[start, end)`. Its row and column are not in it, so it stays when lines are added or removed above the
    finding and changes when its line is edited. The baseline's entries (`cli.baseline`), JSON's
    `fingerprint` and SARIF's `partialFingerprints` (`formats.sarif`) are all this digest."""
    parts = (code, line_text(text, start), text[start:end])
    return sha256("\0".join(parts).encode("utf-8")).hexdigest()[:20]


def line_text(text: str, start: int) -> str:
    """The text of the line of `text` holding offset `start`, without its indentation."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", start)
    return text[line_start : line_end if line_end >= 0 else len(text)].strip()


def _fix_json(fix: Fix, edits: tuple[Edit, ...] | str | None, lines: _Places) -> dict:
    record = {
        "applicability": str(fix.applicability),
        "message": fix.title,
        "transform": str(fix.transform),
        "reason": fix.reason,
        "edits": [],
    }
    if isinstance(edits, tuple):
        record["edits"] = [{"content": e.content, **lines.loc(e.span), "filename": lines.absolute(e.span)} for e in edits]
    elif isinstance(edits, str):
        record["error"] = edits
    return record


def json_records(
    report: FileReport,
    edits_by_key: Mapping[str, tuple[Edit, ...] | str],
    docs: str | None = None,
    strategy: Strategy = AUTO,
) -> list[dict]:
    """ruff-style JSON records of one file's findings; `edits_by_key` gives each fix's text edits; `docs`:
    the base of the rule links (`links.docs_base`; `url` is `links.rule_url`); `strategy`: the file's
    (`strategy =`, `fix --strategy`): `fix` is the fix it chooses (`model.choose_fix`, an unsafe one too: its
    `applicability` says so), None when it offers none of that transform, and `alternatives` the others."""
    lines = _Places(report)
    out = []
    for f in report.findings:
        chosen = choose_fix(f, strategy, unsafe_fixes=True)
        out.append(
            {
                "code": f.code,
                "name": f.name,
                "message": f.message,
                "severity": "error",
                "filename": lines.absolute(f.span),
                **lines.loc(f.span),
                "noqa_row": lines.lines_of(f.span).row_col(f.span.start)[0],
                "url": rule_url(f.code, docs),
                "fingerprint": fingerprint(f.code, lines.lines_of(f.span).source, f.span.start, f.span.end),
                "fix": _fix_json(chosen, edits_by_key.get(chosen.key), lines) if chosen else None,
                "alternatives": [
                    _fix_json(x, edits_by_key.get(x.key), lines)
                    for x in f.fixes
                    if chosen is None or x.id != chosen.id
                ],
                "not_offered": [{"transform": str(r.transform), "reason": r.reason} for r in f.refusals],
                "related": [
                    {"message": r.message, "filename": lines.absolute(r.span), **lines.loc(r.span)} for r in f.related
                ],
                "chain": [
                    {"message": message, "filename": lines.absolute(span), **lines.loc(span)}
                    for message, span in chain(f)
                ],
            }
        )
    return out


def unfollowed_message(place: Unfollowed) -> str:
    """What an SPMD910 record says: the place could not be followed, and why; it names the vmap's kind (one
    with `spmd_axis_name`, or a plain vmap: `Unfollowed.spmd`); a record of importers not searched
    (`Unfollowed.importers_unsearched`) says its own words."""
    if place.importers_unsearched:
        return place.what
    return f"the analysis of {'an spmd vmap' if place.spmd else 'a plain vmap'} stopped here: {place.what}"


def unfollowed_vmap_note(place: Unfollowed) -> str:
    """How an SPMD910 record names the vmap it was reached from (its note, its JSON `related` entry)."""
    return "the vmap with `spmd_axis_name`" if place.spmd else "the plain vmap without `spmd_axis_name`"


def unfollowed_records(report: FileReport, places: tuple[Unfollowed, ...], docs: str | None = None) -> list[dict]:
    """SPMD910 records (severity "info", the shape of `json_records`' without fixes) of the places on the
    way from one file's spmd vmaps that the analysis could not follow, each with the vmap as related;
    `docs` as `json_records`'."""
    lines = _Places(report)
    out = []
    for place in places:
        # (the vmap's own file, always: a record located in another module than the vmap's, `pkg/specs.py` for
        # a vmap of main.py, gave no filename, which reads as the record's file; breaker8)
        vmap = {"message": unfollowed_vmap_note(place), "filename": lines.absolute(place.vmap), **lines.loc(place.vmap)}
        # (importers not searched: no vmap is known, `Unfollowed.importers_unsearched`)
        related = [] if place.importers_unsearched else [vmap]
        out.append(
            {
                "code": UNFOLLOWED.code,
                "name": UNFOLLOWED.name,
                "message": unfollowed_message(place),
                "severity": "info",
                "filename": lines.absolute(place.span),
                **lines.loc(place.span),
                "noqa_row": lines.lines_of(place.span).row_col(place.span.start)[0],
                "url": rule_url(UNFOLLOWED.code, docs),
                "fix": None,
                "alternatives": [],
                "not_offered": [],
                "related": related,
            }
        )
    return out


def unfollowed_lines(report: FileReport, places: tuple[Unfollowed, ...], notes: bool = True, cells=None) -> list[str]:
    """`path:row:col: SPMD910 message` per place, and (with `notes`) the vmap it was reached from."""
    found = FileReport(report.display, report.absolute, report.source, ())
    places_of = _Places(found)

    def where(span: Span) -> str:
        lines = places_of.lines_of(span)
        return f"{places_of.display(span)}:{_where(lines, span.start, places_of.cells_of(span, cells))}"

    out = []
    for place in places:
        out.append(f"{where(place.span)}: {UNFOLLOWED.code} {unfollowed_message(place)}")
        if notes and not place.importers_unsearched:  # (no vmap is known: `Unfollowed.importers_unsearched`)
            out.append(f"  = note: {unfollowed_vmap_note(place)} ({where(place.vmap)})")
    return out


def error_record(
    display: str,
    absolute: str,
    code: str,
    message: str,
    span: Span | None = None,
    source: str = "",
    docs: str | None = None,
    position: tuple[int, int] | None = None,
) -> dict:
    """A JSON record for a file-level diagnostic (unreadable or unparsable file); `docs` as `json_records`'.
    Located at `span` in `source`, else at `position` (line, column: a byte that does not decode), else 1:1."""
    lines = LineIndex(source)
    row, column = position or (1, 1)
    start = _loc(lines, span.start) if span else {"row": row, "column": column}
    # (a byte that does not decode: the one column it takes, so that an editor or a code scanning alert marks it)
    end = _loc(lines, span.end) if span else {"row": row, "column": column + 1} if position else start
    rule = RULES[code]
    return {
        "code": code,
        "name": rule.name,
        "message": message,
        "severity": "error",
        "filename": absolute,
        "location": start,
        "end_location": end,
        "noqa_row": start["row"],
        "url": rule_url(code, docs),
        # (one such record a file: without a span, the code alone; SARIF adds the file)
        "fingerprint": fingerprint(code, source, span.start, span.end) if span else fingerprint(code, "", 0, 0),
        "fix": None,
        "alternatives": [],
        "not_offered": [],
        "related": [],
    }


# --- added for whole-codebase runs (notebook cells, statistics, the closing summary) -------------------


def _where(lines: LineIndex, offset: int, cells) -> str:
    row, col = lines.row_col(offset)
    if cells is None:
        return f"{row}:{col}"
    cell, cell_row = cells.locate(row)
    return f"cell {cell}:{cell_row}:{col}"


def chain(finding: Finding) -> list[tuple[str, Span]]:
    """The path of a finding, step by step, as (message, span): its related places in order (where the vmap
    gives `spmd_axis_name`, each call on the way, the shard_map) and last the finding's own place. A finding
    without related places (a file that does not parse) has a chain of one step."""
    return [*((r.message, r.span) for r in finding.related), (f"the finding ({finding.code})", finding.span)]


def chain_lines(places: _Places, finding: Finding, cells) -> list[str]:
    """The chain of `finding` as the full text output draws it: a numbered step a place (`path:row:col` and
    what happens there), each with its source line and a caret under the span, as ruff and rustc annotate
    source. Empty for a chain of one step (the finding's line says it all)."""
    steps = chain(finding)
    if len(steps) < 2:
        return []
    out = ["  = chain, from the vmap to the finding:"]
    width = len(str(len(steps)))
    for number, (message, span) in enumerate(steps, 1):
        out.append(f"    {number:>{width}}. {_located(places, span, cells)}: {message}")
        out += _annotated(places.lines_of(span), span, " " * (width + 6))
    return out


def _annotated(lines: LineIndex, span: Span, indent: str) -> list[str]:
    """The source line of `span`'s start and a caret line under the span (to the end of that line when the
    span goes on); nothing when the line cannot be read (a module that changed on disk)."""
    try:
        row0 = lines.line_of(span.start)
        text = lines.line_text(row0)
        col = span.start - lines.line_start(row0)
    except ValueError:
        return []
    if col > len(text):
        return []
    # (tabs become one space each, so the caret stays under the span counted in code points)
    shown = text.replace("\t", " ").rstrip()
    length = max(1, min(span.end, lines.line_start(row0) + len(text)) - span.start)
    return [f"{indent}| {shown}", f"{indent}| {' ' * col}{'^' * length}"]


def _located(places: _Places, span: Span, cells) -> str:
    return f"{places.display(span)}:{_where(places.lines_of(span), span.start, places.cells_of(span, cells))}"


def location(report: FileReport, span: Span, cells=None, texts: Mapping[str, str] | None = None) -> str:
    """Where `span` (of one of `report`'s findings) is, as the text output says it: `path:row:col` (the
    module the span names when it lies in another module of the project: its text in `texts`, {absolute path:
    text} as the finding was found, else read from disk), or `path:cell N:row:col` in a notebook (`cells`,
    its `CellIndex`)."""
    return _located(_Places(report, texts), span, cells)


def text_lines(
    report: FileReport, unsafe_fixes: bool, show_fixes: bool, cells=None, strategy: Strategy = AUTO
) -> list[str]:
    """Human-readable lines for one file: `path:row:col: CODE [*] message` (`[*]`: `fix` applies a fix of it
    under the file's `strategy` and `unsafe_fixes`), then notes and (with `show_fixes`) every fix, the one
    chosen marked `(auto)` (`(strategy NAME)` under another strategy), and refusal; with `cells` (a notebook's
    `CellIndex`) positions read `path:cell N:row:col`."""
    places = _Places(report)

    def where(span: Span) -> str:
        return _located(places, span, cells)

    label = " (auto)" if strategy == AUTO else f" (strategy {strategy})"
    out = []
    for f in report.findings:
        fix = choose_fix(f, strategy, unsafe_fixes)
        mark = "[*] " if fix is not None else ""
        out.append(f"{where(f.span)}: {f.code} {mark}{f.message}")
        if fix is None and not show_fixes:
            out.append(f"  = help: {no_fix_reason(f, strategy)}")
        out += chain_lines(places, f, cells)
        if show_fixes:
            for candidate in f.fixes:
                chosen = label if fix is not None and candidate.id == fix.id else ""
                out.append(
                    f"  = fix [{candidate.applicability}] {candidate.transform}{chosen}: "
                    f"{candidate.title} — {candidate.reason}"
                )
            for refusal in f.refusals:
                out.append(f"  = not offered: {refusal.transform}: {refusal.reason}")
    return out


def vmap_places(report: FileReport, cells=None) -> list[str | None]:
    """For each finding of `report`, in order, where the vmap it comes from gives `spmd_axis_name` (the first
    step of its chain, `path:row:col` as the text output shows places), or None for a chain of one step.
    Two vmaps reaching one spec entry make two findings with one line each in the one-line formats
    (`distinguished`)."""
    places = _Places(report)
    out: list[str | None] = []
    for f in report.findings:
        steps = chain(f)
        out.append(_located(places, steps[0][1], cells) if len(steps) > 1 else None)
    return out


def distinguished(lines: list[tuple[str, str | None]]) -> list[str]:
    """One-line findings (`line`, where its vmap is: `vmap_places`) with each line that would be printed more than
    once ended by where its vmap is, ` (vmap at path:row:col)`: two vmaps reaching one spec entry are two
    findings (each its own fixes: fixing one leaves the other), which the concise and GitHub formats printed as
    two identical lines (newuser7 step 9b). A line printed once is left as it is."""
    counts: dict[str, int] = {}
    for line, _ in lines:
        counts[line] = counts.get(line, 0) + 1
    return [f"{line} (vmap at {origin})" if counts[line] > 1 and origin else line for line, origin in lines]


def no_fix_reason(finding: Finding, strategy: Strategy = AUTO) -> str:
    """Why a finding has no `[*]`, in one short sentence (the full text output's `= help:` line; `--show-fixes`
    gives every fix and refusal in full): its first fix is unsafe, or the first transform's refusal; under
    another `strategy` than auto, its fix is unsafe, or it is not offered (its refusal, when there is one)."""
    if strategy != AUTO:
        named = f"strategy {strategy}"
        fix = finding.fix_for(strategy)
        if fix is not None and fix.applicability == Applicability.UNSAFE:
            return f"no safe fix: {named}: {strategy} is unsafe ({_headline(fix.reason)}); --unsafe-fixes applies it"
        refusal = next((r for r in finding.refusals if r.transform == strategy), None)
        if fix is None and refusal is not None:
            return f"no fix: {named}: {strategy} is not offered: {_headline(refusal.reason)} (--show-fixes lists the others)"
        if fix is None:
            return f"no fix: {named}: no {strategy} fix is offered for this finding (--show-fixes lists the others)"
    unsafe = choose_fix(finding, AUTO, unsafe_fixes=True)
    if unsafe is not None:
        return f"no safe fix: {unsafe.transform} is unsafe ({_headline(unsafe.reason)}); --unsafe-fixes applies it"
    if not finding.refusals:
        return "no fix is offered for this finding"
    refusal = finding.refusals[0]
    if refusal.reason == UNFIXABLE_REASON.format(code=finding.code):
        return f"no fix: {refusal.reason}"
    if len(finding.refusals) == 1:
        return f"no fix: {refusal.transform}: {_headline(refusal.reason)}"
    return f"no fix: {refusal.transform}: {_headline(refusal.reason)} (--show-fixes says why for each transform)"


def _headline(reason: str) -> str:
    """A reason up to its first `: ` or `; ` outside backticks and brackets: the claim, without the evidence
    that follows it (`no free mesh axis: every axis of the mesh ... is used` -> `no free mesh axis`)."""
    depth = ticks = 0
    for i, char in enumerate(reason):
        if char == "`":
            ticks ^= 1
        elif char in "([{" and not ticks:
            depth += 1
        elif char in ")]}" and not ticks:
            depth = max(depth - 1, 0)
        elif char in ":;" and reason[i + 1 : i + 2] == " " and not ticks and not depth:
            return reason[:i]
    return reason
