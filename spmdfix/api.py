"""The one source-in API that the CLI, the language server and the tests call.

`check_source` (source text -> findings) is pure and cheap: a textual prefilter, then `ast` and the
analysis; no libcst. `fix_source` applies chosen fixes with the libcst transforms and re-checks until no
chosen fix is left (as ruff does), and `fix_edits_for` builds the text edits of given fixes on demand (a
language server's code action, the JSON `fix` field). `Options` and `choose_fix` live in `spmdfix.model`
(the CLI's main process needs them without the analysis) and are re-exported here.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path

from spmdfix import perf, rules
from spmdfix.analysis.analyzer import Analyzer
from spmdfix.analysis.index import MAX_MODULES, ProjectIndex, ProjectLink
from spmdfix.analysis.kinds import VmapKind
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.edit_log import EditLog
from spmdfix.files import find_project_root
from spmdfix.model import (
    Applicability,
    Edit,
    Finding,
    Fix,
    FixId,
    Options,
    SiteId,
    SiteKind,
    Span,
    Unfollowed,
    choose_fix,
    chosen_together,
    without_blocked_fixes,
)
from spmdfix.plan import plan_findings
from spmdfix.positions import LineIndex, apply_edits
from spmdfix.prefilter import may_have_findings
from spmdfix.project_files import DISK, module_name

MAX_PASSES = 8
# Python 3.12 syntax a 3.11 parser rejects: PEP 695 (`type X = ...`, `def f[T]`, `class C[T]`) and PEP 701
# f-strings (quotes reused inside the braces): the SPMD900 hint names a newer Python only for these.
# (A pattern compiled where it is first used, by `re`'s cache: a module with a syntax error is rare.)
_NEWER_SYNTAX = r"^\s*type\s+\w+|\b(?:def|class)\s+\w+\s*\[|\b[fF][rR]?['\"]"


@dataclass(frozen=True, slots=True)
class FixResult:
    """Outcome of `fix_source`: the new source, the fixes applied, the findings left, errors, the
    reported findings of the source before any fix (`found`: what is left if the new source is not written),
    the suppressed findings of the new source, and the edits of the input that make the new source (every
    pass composed: what a language server's fix-all sends)."""

    source: str
    applied: tuple[Fix, ...]
    remaining: tuple[Finding, ...]
    errors: tuple[str, ...] = field(default=())
    found: tuple[Finding, ...] = field(default=())
    suppressed: tuple[Finding, ...] = field(default=())  # what `select` held back on the result's source
    edits: tuple[Edit, ...] = field(default=())  # edits of `fix_source`'s input that give `source`, sorted
    unfollowed: tuple[Unfollowed, ...] = field(default=())  # where the analysis of `source` stopped

    @property
    def changed(self) -> bool:
        return bool(self.applied)


@dataclass(frozen=True, slots=True)
class Analysis:
    """What the analysis of one module gives: its findings (sorted by position) and the places on the way
    from its spmd vmaps into code of the project that it could not follow (`model.Unfollowed`, one per vmap
    and place, sorted)."""

    findings: list[Finding]
    unfollowed: tuple[Unfollowed, ...] = ()


def analyse_source(
    source: str,
    options: Options = Options(),
    *,
    path: str | Path | None = None,
    index: ProjectIndex | None = None,
    prefiltered: bool = False,
) -> Analysis:
    """`check_source`'s findings, and the places the analysis could not follow (`Analysis`). Never raises.
    prefiltered: the caller knows `source` passes the prefilter (it asked before, in another process): it is
    analysed without asking again."""
    if not prefiltered and not may_have_findings(source):
        return Analysis([])
    with perf.gc_paused():
        analysis, tree = _checked(source, options, path, index)
        if tree is not None:
            perf.retain_tree(tree, len(source))  # (a worker's: `perf.retain_trees`)
        # Let the tree go while the collector is paused: reference counting frees it here, where a collection
        # as the collector resumes would otherwise walk all of it first (0.1 s of CPU for jax's 12,600-line
        # pjit_test.py in a `-j 1` run). A kept tree is frozen out of the collector's reach (`perf.retain_tree`).
        del tree
        return analysis


def check_source(
    source: str, options: Options = Options(), *, path: str | Path | None = None, index: ProjectIndex | None = None
) -> list[Finding]:
    """Findings of one module's source, sorted by position. Never raises.

    A source that does not parse gives one SPMD900 finding at the error; a module whose text cannot hold a
    collision (`prefilter.may_have_findings`) is not parsed at all. With the module's `path` and a project
    `index` (`project_index`), names imported from other modules of the project are followed: a finding or
    a related place may then lie in another module (its spans carry that module's path, `model.Span.path`).
    """
    return analyse_source(source, options, path=path, index=index).findings


_INDEXES: dict[Path, ProjectIndex] = {}


def project_index(path: str | Path, root: str | Path | None = None) -> ProjectIndex:
    """The project index of the project `path` belongs to (one per root and process, reused by every file
    of a run). `root`: the project root, else the nearest directory above `path` with `pyproject.toml`,
    `setup.cfg` or `.git`."""
    top = Path(root).resolve() if root is not None else find_project_root(Path(path).resolve())
    index = _INDEXES.get(top)
    if index is None:
        index = _INDEXES[top] = new_project_index(top)
    return index


def new_project_index(
    root: str | Path, overlay: dict[str, str] | None = None, max_modules: int = MAX_MODULES
) -> ProjectIndex:
    """A new project index of `root` that reads the files on disk (`project_files.DiskFiles`) except those of
    `overlay` (absolute path -> text), and models each module it loads (`ModuleModel.build`)."""
    return ProjectIndex(str(root), files=DISK, analyse=ModuleModel.build, overlay=overlay, max_modules=max_modules)


def forget_indexes(written: Iterable[str | Path]) -> None:
    """Drop the cached project indexes (`project_index`) of the projects holding any of the `written` files:
    an index keeps the first read of every module it loaded, so after a run writes files, a later run in
    the same process (a library user, a test) would otherwise analyse against their old texts."""
    paths = [Path(p).resolve() for p in written]
    for top in [t for t, index in _INDEXES.items() if any(index.contains(p) for p in paths)]:
        del _INDEXES[top]


def _analyzer(source: str, tree: ast.Module, path: str | Path | None, index: ProjectIndex | None) -> Analyzer:
    """The driver over the model of the module checked: without a project index or a path, that module alone;
    with them, its package read from the disk (`project_files.module_name`) and its names followed into the
    project."""
    if index is None or path is None:
        return Analyzer(ModuleModel.build(source, tree))
    where = Path(path).resolve()
    name, _, is_package = module_name(where)
    package = name if is_package else name.rpartition(".")[0]
    return Analyzer(ModuleModel.build(source, tree, "", package, ProjectLink(index, str(where))))


def _checked(
    source: str, options: Options, path: str | Path | None = None, index: ProjectIndex | None = None
) -> tuple[Analysis, ast.Module | None]:
    """The analysis of a source the prefilter let through, and its `ast` tree (None when it does not parse)."""
    try:
        tree = ast.parse(source)
    except SyntaxError as err:
        return Analysis([_syntax_finding(source, err)]), None
    except RecursionError:
        msg = "cannot parse: the module is nested too deeply"
        return Analysis([Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, msg, Span(0, 0))]), None
    except MemoryError:
        # CPython's parser gives up with an empty MemoryError on long right-nested chains (200,000 terms of
        # `a ** b ** ...`, `x if c else ...`, `lambda: lambda: ...`; measured on 3.11).
        msg = "cannot parse: the parser ran out of memory (an expression nested too deeply)"
        return Analysis([Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, msg, Span(0, 0))]), None
    except ValueError as err:
        msg = f"cannot parse: {str(err) or type(err).__name__}"
        return Analysis([Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, msg, Span(0, 0))]), None
    return _analysed(source, tree, options, path, index), tree


def _analysed(
    source: str, tree: ast.Module, options: Options, path: str | Path | None = None, index: ProjectIndex | None = None
) -> Analysis:
    analyzer = None
    try:
        analyzer = _analyzer(source, tree, path, index)
        facts = analyzer.facts()
    except RecursionError:
        msg = "the module is nested too deeply to analyse"
        return Analysis([Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, msg, Span(0, 0))])
    finally:
        if analyzer is not None:  # (facts are plain data: the module's analysis is freed as it is let go)
            analyzer.ix.release()
    unfollowed = sorted(
        {Unfollowed(f.span, span, what) for f in facts if f.kind is VmapKind.SPMD for span, what in f.unresolved}
        | {Unfollowed(vmap, span, what) for vmap, span, what in analyzer.unknown_spmd}
    )
    return Analysis(plan_findings(facts, options.new_axis), tuple(unfollowed))


def edits_other_modules(fix: Fix) -> bool:
    """Whether a fix edits a module other than the one checked (`fix_modules` applies it, `fix_source`
    leaves it)."""
    return fix.edits_other_modules


def _syntax_finding(source: str, err: SyntaxError) -> Finding:
    lines = LineIndex(source)
    offset = 0
    if err.lineno:
        line0 = min(max(err.lineno - 1, 0), lines.line_count - 1)
        col = max((err.offset or 1) - 1, 0)
        offset = min(lines.line_start(line0) + min(col, len(lines.line_text(line0))), len(source))
    message = f"SyntaxError: {err.msg}"
    line = lines.line_text(line0) if err.lineno else ""
    if sys.version_info < (3, 12) and re.search(_NEWER_SYNTAX, line):
        message += " (spmdfix parses with this interpreter's grammar; newer syntax needs a newer Python)"
    return Finding(rules.SYNTAX_ERROR.code, rules.SYNTAX_ERROR.name, message, Span(offset, offset))


def fix_edits_for(source: str, fixes: Iterable[Fix]) -> dict[str, tuple[Edit, ...] | str]:
    """Text edits of each fix, built with libcst on `source`; a string says why one failed. Keyed by the
    fix's key (`Fix.key`, its id's text): these maps go between processes and into reports.

    libcst parses only the statements the fixes edit (`codemods._apply.ModuleEditor`). Raises
    `libcst.ParserSyntaxError` when an edit needs the whole module and libcst cannot parse it (a source
    that does not parse at all).
    """
    return {str(fix_id): built for fix_id, built in _built(source, None, fixes).items()}


def _built(source: str, tree: ast.Module | None, fixes: Iterable[Fix]) -> dict[FixId, tuple[Edit, ...] | str]:
    """`fix_edits_for` by id, on a source whose `ast` tree the caller may already have."""
    from spmdfix.codemods._apply import FixNotBuilt, ModuleEditor  # libcst: only when editing

    editor = ModuleEditor(source, tree)
    out: dict[FixId, tuple[Edit, ...] | str] = {}
    for fix in fixes:
        if fix.id in out:
            continue
        try:
            out[fix.id] = editor.edits(fix.node_edits)
        except FixNotBuilt as err:
            out[fix.id] = str(err)
    return out


Offered = list[tuple[Fix, tuple[Edit, ...]]]
Selector = Callable[[str, list[Finding]], tuple[list[Finding], list[Finding]]]
Reviewer = Callable[[str, Offered], list[FixId]]


def _report_all(text: str, findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    return findings, []


def _accept_all(text: str, offered: Offered) -> list[FixId]:
    return [fix.id for fix, _ in offered]


def fix_source(
    source: str,
    options: Options = Options(),
    select: Selector = _report_all,
    review: Reviewer = _accept_all,
    *,
    path: str | Path | None = None,
    index: ProjectIndex | None = None,
) -> FixResult:
    """Apply the chosen fix of every reported finding, re-checking after each pass until none is left.

    `select(text, findings)` splits findings into (reported, suppressed): only reported ones are fixed, and
    a fix that would also change a suppressed finding (it shares its id) is not applied, `auto` then
    taking the finding's next fix (the CLI passes its `# noqa` and select/ignore rules). `review(text,
    offered)` returns the ids of the offered (fix, edits) to apply, in order (the CLI's interactive mode
    asks the user). A fix whose edits overlap an earlier one's, or of an isolation group (`Fix.isolation`)
    one applied already, waits for the next pass. Never raises: the result's
    source is `source` itself when nothing applies, or when the new text would not parse (reported in
    `errors`); `remaining` holds the reported findings of the last text, `suppressed` its suppressed ones.

    Each pass parses its text with `ast` once, for the analysis and for finding the statements the edits
    touch; libcst parses only those statements. `path` and `index` as for `check_source`; fixes that edit
    other modules are left to `fix_modules`.
    """
    with perf.gc_paused():
        return _fixed(source, options, select, review, path, index)


def _fixed(
    source: str,
    options: Options,
    select: Selector,
    review: Reviewer,
    path: str | Path | None = None,
    index: ProjectIndex | None = None,
) -> FixResult:
    current, applied, errors, log = source, [], [], EditLog()
    analysis, tree = _checked(source, options, path, index) if may_have_findings(source) else (Analysis([]), None)
    findings = analysis.findings
    reported, suppressed = select(current, findings)
    found, found_suppressed = tuple(reported), tuple(suppressed)
    chained: set[SiteId] = set()  # this module's shard_maps / vmap sites (in `current`) of applied unsafe fixes
    for _ in range(MAX_PASSES):
        chosen = _in_chain(_choose(reported, suppressed, options), chained)
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
            return FixResult(source, (), found, tuple(errors), found, found_suppressed, (), analysis.unfollowed)
        current = new
        log.record(edits)
        applied.extend(this_pass)
        # The next pass's analysis gives the sites of the new text; the chained ones are carried into it by the
        # edits this pass made (a site after an edit moves by what the edit adds).
        chained = {site.moved(edits) for site in chained | _chain_sites(this_pass)}
        analysis = _analysed(current, tree, options, path, index) if may_have_findings(current) else Analysis([])
        reported, suppressed = select(current, analysis.findings)
    return FixResult(
        current,
        tuple(applied),
        tuple(reported),
        tuple(errors),
        found,
        tuple(suppressed),
        log.edits(current),
        analysis.unfollowed,
    )


# The sites a chain runs through: the shard_maps and vmap sites of the module `fix_source` edits.
_CHAIN_KINDS = (SiteKind.SHARD_MAP, SiteKind.VMAP)


def _chain_sites(applied: list[Fix]) -> set[SiteId]:
    """The sites (shard_maps, vmap sites of this module) the unsafe fixes among `applied` are planned for."""
    return {
        f.id.site
        for f in applied
        if f.applicability == Applicability.UNSAFE and f.id.site.kind in _CHAIN_KINDS and not f.id.site.path
    }


def _in_chain(chosen: dict[FixId, Fix], chained: set[SiteId]) -> dict[FixId, Fix]:
    """A chain of fixes judged as a whole: a fix offered as safe only because an unsafe fix applied in an
    earlier pass changed the same shard_map or vmap site (lift-captures once disable-check-vma has set
    `check_vma=False`) is applied as unsafe, saying so. "The same site": the site the fix is planned for
    (`FixId.site`) is one an unsafe fix of an earlier pass was planned for, carried into this pass's text
    (`SiteId.moved`)."""
    if not chained:
        return chosen
    out = {}
    for fix_id, fix in chosen.items():
        if fix.applicability == Applicability.SAFE and fix.id.site in chained:
            why = "applied after an unsafe fix of the same shard_map or vmap, on which it relies: " + fix.reason
            fix = replace(fix, applicability=Applicability.UNSAFE, reason=why)
        out[fix_id] = fix
    return out


def _choose(
    reported: list[Finding], suppressed: list[Finding], options: Options, other_modules: bool = False
) -> dict[FixId, Fix]:
    """The chosen fix of each reported finding (by id), never one shared with a suppressed finding. A fix
    that edits another module is left to `fix_modules` (`other_modules` True there): the finding then gets
    no fix here rather than its next one, so both passes choose alike."""
    picks = []
    for finding in without_blocked_fixes(reported, suppressed):
        fix = choose_fix(finding, options.strategy, options.unsafe_fixes)
        if fix is not None and (other_modules or not edits_other_modules(fix)):
            picks.append((finding, fix))
    return chosen_together(picks)


@dataclass(frozen=True, slots=True)
class ModulesFixResult:
    """Outcome of `fix_modules`: the new text of each module it changed (absolute path -> text), the fixes
    applied, the findings left on each target, and errors."""

    texts: dict[str, str]
    applied: tuple[Fix, ...]
    remaining: dict[str, tuple[Finding, ...]]
    errors: tuple[str, ...] = ()


def fix_modules(
    targets: Iterable[str | Path],
    options: Options,
    root: str | Path,
    select: Selector = _report_all,
    texts: dict[str, str] | None = None,
) -> ModulesFixResult:
    """Apply the chosen fixes of the targets' findings, including those that edit other modules of the
    project (a strip in the callee's file, an axis added to a mesh in a config module), re-checking after
    each pass as `fix_source` does.

    `texts`: the current text of modules already changed (absolute path -> text); every other module is
    read from disk. Each pass analyses with a fresh project index over those texts, builds each fix's
    edits per module with libcst, applies the fixes whose edits overlap no earlier one's and whose isolation
    group (`Fix.isolation`) no earlier one holds, and keeps a new text only when it parses. Never raises; nothing is written.
    """
    from spmdfix.files import text_of

    current: dict[str, str] = dict(texts or {})
    original = dict(current)
    applied: list[Fix] = []
    errors: list[str] = []
    remaining: dict[str, tuple[Finding, ...]] = {}

    def text(path: str) -> str | None:
        if path not in current:
            found = text_of(path)
            if found is None:
                return None
            current[path] = original[path] = found
        return current[path]

    for target in (str(Path(t).resolve()) for t in targets):
        for _ in range(MAX_PASSES):
            source = text(target)
            if source is None:
                errors.append(f"{target}: cannot read")
                break
            index = new_project_index(root, overlay=current)
            reported, suppressed = select(source, check_source(source, options, path=target, index=index))
            remaining[target] = tuple(reported)
            chosen = _choose(reported, suppressed, options, other_modules=True)
            changed = _apply_across(target, chosen, text, errors)
            if not changed:
                break
            applied.extend(changed.pop(""))
            current.update(changed)
    changed_texts = {p: t for p, t in current.items() if original.get(p) != t}
    return ModulesFixResult(changed_texts, tuple(applied), remaining, tuple(errors))


def _apply_across(target: str, chosen: dict[FixId, Fix], text, errors: list[str]) -> dict:
    """One pass of `fix_modules`: {path: new text, "": [fixes applied]}, empty when nothing applies."""
    accepted: dict[str, list[Edit]] = {}
    fixes: list[Fix] = []
    groups: set[SiteId] = set()
    for fix in chosen.values():
        by_path: dict[str, list] = {}
        for e in fix.node_edits:
            by_path.setdefault(e.span.path or target, []).append(replace(e, span=Span(e.span.start, e.span.end)))
        built: dict[str, tuple[Edit, ...]] = {}
        for path, node_edits in by_path.items():
            source = text(path)
            result = None if source is None else _built_one(source, replace(fix, node_edits=tuple(node_edits)))
            if not isinstance(result, tuple):
                errors.append(f"{fix.title}: {result or 'cannot read ' + path}")
                break
            built[path] = result
        else:
            if fix.isolation is not None and fix.isolation in groups:
                continue  # waits for the next pass
            if any(e.span.overlaps(a.span) for p, es in built.items() for e in es for a in accepted.get(p, [])):
                continue  # waits for the next pass
            for path, edits in built.items():
                accepted.setdefault(path, []).extend(edits)
            fixes.append(fix)
            if fix.isolation is not None:
                groups.add(fix.isolation)
    if not fixes:
        return {}
    out: dict = {}
    for path, edits in accepted.items():
        new = apply_edits(text(path), edits)
        problem = _unparseable(new)
        if problem is not None:
            errors.append(f"internal error: the fixed module {path} would not parse ({problem}); nothing written")
            return {}
        out[path] = new
    out[""] = fixes
    return out


def _built_one(source: str, fix: Fix) -> tuple[Edit, ...] | str:
    import libcst as cst

    try:
        return _built(source, None, [fix])[fix.id]
    except cst.ParserSyntaxError as err:
        return f"libcst cannot parse the module: {err.message}"


def _unparseable(source: str) -> str | None:
    """Why `source` does not parse (ast), or None."""
    try:
        ast.parse(source)
    except (SyntaxError, ValueError, MemoryError, RecursionError) as err:
        return (str(err).splitlines() or [""])[0] or type(err).__name__
    return None




def _offer(text: str, tree: ast.Module | None, chosen: dict[FixId, Fix], errors: list[str]) -> Offered | None:
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
    for fix_id, fix in chosen.items():
        edits = built[fix_id]
        if isinstance(edits, str):
            errors.append(f"{fix.title}: {edits}")
        else:
            offered.append((fix, edits))
    return offered


def _accept(offered: Offered, ids: list[FixId]) -> tuple[list[Edit], list[Fix]]:
    """The edits and fixes of `ids`, in order, leaving out a fix that overlaps one taken before it or whose
    isolation group (`Fix.isolation`) one taken before it holds."""
    by_id = {fix.id: (fix, edits) for fix, edits in offered}
    accepted: list[Edit] = []
    fixes: list[Fix] = []
    groups: set[SiteId] = set()
    for fix_id in ids:
        fix, edits = by_id[fix_id]
        if fix.isolation is not None and fix.isolation in groups:
            continue  # waits for the next pass, where it is planned (and reviewed) again on the new text
        if any(e.span.overlaps(a.span) for e in edits for a in accepted):
            continue  # waits for the next pass, where it is planned (and reviewed) again on the new text
        accepted.extend(edits)
        fixes.append(fix)
        if fix.isolation is not None:
            groups.add(fix.isolation)
    return accepted, fixes
