"""The one source-in API that the CLI, the language server and the tests call.

`check_source` (source text -> findings) is pure and cheap: a textual prefilter, then `ast` and the
analysis; no libcst. `fix_source` applies chosen fixes with the libcst transforms and re-checks until no
chosen fix is left (as ruff does), and `fix_edits_for` builds the text edits of given fixes on demand (a
language server's code action, the JSON `fix` field). `Options` and `choose_fix` live in `spmdfix.model`
(the CLI's main process needs them without the analysis) and are re-exported here.
"""

from __future__ import annotations

import ast
import contextlib
import gc
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from spmdfix import rules
from spmdfix.analysis.facts import Analyzer
from spmdfix.model import Edit, Finding, Fix, Options, Span, choose_fix, without_blocked_fixes
from spmdfix.plan import plan_findings
from spmdfix.positions import LineIndex, apply_edits
from spmdfix.prefilter import may_have_findings

MAX_PASSES = 8
# Python 3.12 syntax a 3.11 parser rejects: PEP 695 (`type X = ...`, `def f[T]`, `class C[T]`) and PEP 701
# f-strings (quotes reused inside the braces): the SPMD900 hint names a newer Python only for these.
_NEWER_SYNTAX = re.compile(r"^\s*type\s+\w+|\b(?:def|class)\s+\w+\s*\[|\b[fF][rR]?['\"]")


@dataclass(frozen=True, slots=True)
class FixResult:
    """Outcome of `fix_source`: the new source, the fixes applied, the findings left, errors, the
    reported findings of the source before any fix (`found`: what is left if the new source is not written)
    and the suppressed findings of the new source."""

    source: str
    applied: tuple[Fix, ...]
    remaining: tuple[Finding, ...]
    errors: tuple[str, ...] = field(default=())
    found: tuple[Finding, ...] = field(default=())
    suppressed: tuple[Finding, ...] = field(default=())  # what `select` held back on the result's source

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
    with _gc_paused():
        return _checked(source, options)[0]


@contextlib.contextmanager
def _gc_paused():
    """Pause the cyclic garbage collector: parsing and indexing allocate tens of thousands of short-lived
    objects, and collections triggered meanwhile cost a third of a check (measured on the 2,000-line
    benchmark file). What they leave is collected once the collector runs again."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _checked(source: str, options: Options) -> tuple[list[Finding], ast.Module | None]:
    """The findings of a source the prefilter let through, and its `ast` tree (None when it does not parse)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        return [_syntax_finding(source, err)], None
    except RecursionError:
        msg = "cannot parse: the module is nested too deeply"
        return [Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, msg, Span(0, 0))], None
    except (ValueError, MemoryError) as err:
        msg = f"cannot parse: {err or type(err).__name__}"
        return [Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, msg, Span(0, 0))], None
    return _analysed(source, tree, options), tree


def _analysed(source: str, tree: ast.Module, options: Options) -> list[Finding]:
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
    line = lines.line_text(line0) if err.lineno else ""
    if sys.version_info < (3, 12) and _NEWER_SYNTAX.search(line):
        message += " (spmdfix parses with this interpreter's grammar; newer syntax needs a newer Python)"
    return Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, message, Span(offset, offset))


def fix_edits_for(source: str, fixes: Iterable[Fix]) -> dict[str, tuple[Edit, ...] | str]:
    """Text edits of each fix (by key), built with libcst on `source`; a string says why one failed.

    libcst parses only the statements the fixes edit (`codemods._apply.ModuleEditor`). Raises
    `libcst.ParserSyntaxError` when an edit needs the whole module and libcst cannot parse it (a source
    that does not parse at all).
    """
    return _built(source, None, fixes)


def _built(source: str, tree: ast.Module | None, fixes: Iterable[Fix]) -> dict[str, tuple[Edit, ...] | str]:
    """`fix_edits_for` on a source whose `ast` tree the caller may already have."""
    from spmdfix.codemods._apply import FixNotBuilt, ModuleEditor  # libcst: only when editing

    editor = ModuleEditor(source, tree)
    out: dict[str, tuple[Edit, ...] | str] = {}
    for fix in fixes:
        if fix.key in out:
            continue
        try:
            out[fix.key] = editor.edits(fix.node_edits)
        except FixNotBuilt as err:
            out[fix.key] = str(err)
    return out


Offered = list[tuple[Fix, tuple[Edit, ...]]]
Selector = Callable[[str, list[Finding]], tuple[list[Finding], list[Finding]]]
Reviewer = Callable[[str, Offered], list[str]]


def _report_all(text: str, findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    return findings, []


def _accept_all(text: str, offered: Offered) -> list[str]:
    return [fix.key for fix, _ in offered]


def fix_source(
    source: str,
    options: Options = Options(),
    select: Selector = _report_all,
    review: Reviewer = _accept_all,
) -> FixResult:
    """Apply the chosen fix of every reported finding, re-checking after each pass until none is left.

    `select(text, findings)` splits findings into (reported, suppressed): only reported ones are fixed, and
    a fix that would also change a suppressed finding (it shares its key) is not applied, `auto` then
    taking the finding's next fix (the CLI passes its `# noqa` and select/ignore rules). `review(text,
    offered)` returns the keys of the offered (fix, edits) to apply, in order (the CLI's interactive mode
    asks the user). Edits of different fixes that overlap wait for the next pass. Never raises: the result's
    source is `source` itself when nothing applies, or when the new text would not parse (reported in
    `errors`); `remaining` holds the reported findings of the last text, `suppressed` its suppressed ones.

    Each pass parses its text with `ast` once, for the analysis and for finding the statements the edits
    touch; libcst parses only those statements.
    """
    with _gc_paused():
        return _fixed(source, options, select, review)


def _fixed(source: str, options: Options, select: Selector, review: Reviewer) -> FixResult:
    current, applied, errors = source, [], []
    findings, tree = _checked(source, options) if may_have_findings(source) else ([], None)
    reported, suppressed = select(current, findings)
    found, found_suppressed = tuple(reported), tuple(suppressed)
    for _ in range(MAX_PASSES):
        chosen = _choose(reported, suppressed, options)
        if not chosen:
            break
        offered = _offer(current, tree, chosen, errors)
        if not offered:
            break
        edits, this_pass = _accept(offered, review(current, offered))
        if not this_pass:
            break
        new = apply_edits(current, edits)
        try:
            tree = ast.parse(new)
        except (SyntaxError, ValueError, MemoryError, RecursionError) as err:
            problem = (str(err).splitlines() or [""])[0] or type(err).__name__
            errors.append(f"internal error: the fixed module would not parse ({problem}); nothing written")
            return FixResult(source, (), found, tuple(errors), found, found_suppressed)
        current = new
        applied.extend(this_pass)
        reported, suppressed = select(current, _analysed(current, tree, options) if may_have_findings(current) else [])
    return FixResult(current, tuple(applied), tuple(reported), tuple(errors), found, tuple(suppressed))


def _choose(reported: list[Finding], suppressed: list[Finding], options: Options) -> dict[str, Fix]:
    """The chosen fix of each reported finding (by key), never one shared with a suppressed finding."""
    chosen: dict[str, Fix] = {}
    for finding in without_blocked_fixes(reported, suppressed):
        fix = choose_fix(finding, options.strategy, options.unsafe_fixes)
        if fix is not None:
            chosen.setdefault(fix.key, fix)
    return chosen


def _offer(text: str, tree: ast.Module | None, chosen: dict[str, Fix], errors: list[str]) -> Offered | None:
    """The chosen fixes with their edits; one whose edits fail is reported in `errors` and left out.

    None when libcst cannot parse `text` at all.
    """
    import libcst as cst

    try:
        built = _built(text, tree, chosen.values())
    except cst.ParserSyntaxError as err:
        errors.append(f"libcst cannot parse the module: {err.message}")
        return None
    offered = []
    for key, fix in chosen.items():
        if isinstance(built[key], str):
            errors.append(f"{fix.title}: {built[key]}")
        else:
            offered.append((fix, built[key]))
    return offered


def _accept(offered: Offered, keys: list[str]) -> tuple[list[Edit], list[Fix]]:
    """The edits and fixes of `keys`, in order, leaving out a fix that overlaps one taken before it."""
    by_key = {fix.key: (fix, edits) for fix, edits in offered}
    accepted: list[Edit] = []
    fixes: list[Fix] = []
    for key in keys:
        fix, edits = by_key[key]
        if any(e.span.overlaps(a.span) for e in edits for a in accepted):
            continue  # waits for the next pass, where it is planned (and reviewed) again on the new text
        accepted.extend(edits)
        fixes.append(fix)
    return accepted, fixes
