"""The one source-in API that the CLI, the language server and the tests call.

`check_source` (source text -> findings) is pure and cheap: a textual prefilter, then `ast` and the
analysis; no libcst. `fix_source` applies chosen fixes with the libcst transforms and re-checks until no
chosen fix is left (as ruff does), and `fix_edits_for` builds the text edits of given fixes on demand (a
language server's code action, the JSON `fix` field).
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass, field

import libcst as cst

from spmdfix import rules
from spmdfix.analysis import Analyzer
from spmdfix.codemods._apply import FixNotBuilt, edits_for, parse
from spmdfix.model import Applicability, Edit, Finding, Fix, Span, Strategy, Transform
from spmdfix.plan import DEFAULT_NEW_AXIS, plan_findings
from spmdfix.positions import LineIndex, apply_edits
from spmdfix.prefilter import may_have_findings

MAX_PASSES = 8


@dataclass(frozen=True, slots=True)
class Options:
    """What a run asks for. strategy: which transform to apply; unsafe_fixes: apply unsafe ones too."""

    strategy: Strategy = Strategy.AUTO
    unsafe_fixes: bool = False
    new_axis: str = DEFAULT_NEW_AXIS


@dataclass(frozen=True, slots=True)
class FixResult:
    """Outcome of `fix_source`: the new source, the fixes applied, the findings left, and errors."""

    source: str
    applied: tuple[Fix, ...]
    remaining: tuple[Finding, ...]
    errors: tuple[str, ...] = field(default=())

    @property
    def changed(self) -> bool:
        return bool(self.applied)


def check_source(source: str, options: Options = Options()) -> list[Finding]:
    """Findings of one module's source, sorted by position. Never raises.

    A source that does not parse gives one SPMD900 finding at the error; a module whose text cannot hold a
    collision (`prefilter.may_have_findings`) is not parsed at all.
    """
    if not may_have_findings(source):
        return []
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        return [_syntax_finding(source, err)]
    except (ValueError, RecursionError, MemoryError) as err:
        return [Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, f"cannot parse: {err}", Span(0, 0))]
    try:
        facts = Analyzer(source, tree).facts()
    except RecursionError:
        msg = "the module is nested too deeply to analyse"
        return [Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, msg, Span(0, 0))]
    return plan_findings(facts, options.new_axis)


def _syntax_finding(source: str, err: SyntaxError) -> Finding:
    lines = LineIndex(source)
    offset = 0
    if err.lineno:
        line0 = min(max(err.lineno - 1, 0), lines.line_count - 1)
        col = max((err.offset or 1) - 1, 0)
        offset = min(lines.line_start(line0) + min(col, len(lines.line_text(line0))), len(source))
    message = f"SyntaxError: {err.msg}"
    if "invalid syntax" in err.msg or "expected" in err.msg:
        message += " (spmdfix parses with this interpreter's grammar; newer syntax needs a newer Python)"
    return Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, message, Span(offset, offset))


def choose_fix(finding: Finding, strategy: Strategy, unsafe_fixes: bool) -> Fix | None:
    """The fix a run applies for `finding`, or None.

    auto: the first safe fix in the order rename, add-axis, strip; with `unsafe_fixes`, else the first
    unsafe one. A named strategy: that transform's fix, when it is safe or unsafe fixes are allowed.
    """
    if strategy == Strategy.AUTO:
        candidates = list(finding.fixes)
    else:
        fix = finding.fix_for(Transform(strategy.value))
        candidates = [fix] if fix is not None else []
    for fix in candidates:
        if fix.applicability == Applicability.SAFE:
            return fix
    if unsafe_fixes:
        for fix in candidates:
            return fix
    return None


def fix_edits_for(source: str, fixes: Iterable[Fix]) -> dict[str, tuple[Edit, ...] | str]:
    """Text edits of each fix (by key), built with libcst on `source`; a string says why one failed.

    Raises `libcst.ParserSyntaxError` when libcst cannot parse the source.
    """
    wrapper = parse(source)
    lines = LineIndex(source)
    out: dict[str, tuple[Edit, ...] | str] = {}
    for fix in fixes:
        if fix.key in out:
            continue
        try:
            out[fix.key] = edits_for(wrapper, lines, fix.node_edits)
        except FixNotBuilt as err:
            out[fix.key] = str(err)
    return out


def fix_source(source: str, options: Options = Options()) -> FixResult:
    """Apply the chosen fix of every finding, re-checking after each pass until none is left.

    Never raises. Edits of different fixes that overlap wait for the next pass. The result's source is
    `source` itself when nothing applies, or when the new text would not parse (reported in `errors`).
    """
    current = source
    applied: list[Fix] = []
    errors: list[str] = []
    findings = check_source(current, options)
    for _ in range(MAX_PASSES):
        chosen: dict[str, Fix] = {}
        for finding in findings:
            fix = choose_fix(finding, options.strategy, options.unsafe_fixes)
            if fix is not None:
                chosen.setdefault(fix.key, fix)
        if not chosen:
            break
        try:
            built = fix_edits_for(current, chosen.values())
        except cst.ParserSyntaxError as err:
            errors.append(f"libcst cannot parse the module: {err.message}")
            break
        accepted: list[Edit] = []
        this_pass: list[Fix] = []
        for key, fix in chosen.items():
            edits = built[key]
            if isinstance(edits, str):
                errors.append(f"{fix.title}: {edits}")
                continue
            if any(e.span.overlaps(a.span) for e in edits for a in accepted):
                continue
            accepted.extend(edits)
            this_pass.append(fix)
        if not this_pass:
            break
        new = apply_edits(current, accepted)
        problem = _unparseable(new)
        if problem:
            errors.append(f"internal error: the fixed module would not parse ({problem}); nothing written")
            return FixResult(source, (), tuple(check_source(source, options)), tuple(errors))
        current = new
        applied.extend(this_pass)
        findings = check_source(current, options)
    return FixResult(current, tuple(applied), tuple(findings), tuple(errors))


def _unparseable(source: str) -> str | None:
    try:
        ast.parse(source)
        cst.parse_module(source)
    except (SyntaxError, ValueError, cst.ParserSyntaxError) as err:
        return str(err).splitlines()[0] if str(err) else type(err).__name__
    return None
