"""The fix engine: one loop that applies the chosen fixes of target modules to a set of module texts, re-analysing
after each pass until no chosen fix is left (as ruff's `lint_fix` does for one source, with its isolation groups).

`fix_texts` is the only loop. `api.fix_source` runs it over one module (fixes that edit another module are
left alone there), `api.fix_modules` over modules of a project (other modules are read as fixes reach them);
`runner.cross_module_fixes` schedules `fix_modules` over a run. One pass, for one target module:

1. analyse the target's current text (with a project index over the current texts: `IndexFactory`) and
   split its findings into reported and suppressed (`Selector`);
2. choose a fix per reported finding (`model.choose_fix`, judged together: `choice.chosen_together`), never
   one shared with a suppressed finding; a safe fix of a site an unsafe fix of an earlier pass changed is
   applied as unsafe (the chain, `in_chain`);
3. build each chosen fix's text edits per module it edits with libcst (`codemods._apply.ModuleEditor`, one
   per module and pass, on the `ast` tree the engine already holds for the module);
4. offer them to the `Reviewer`, and accept, in its order, the fixes whose edits overlap no accepted
   fix's edits of the same module and whose isolation group (`Fix.isolation`) no accepted fix holds;
5. apply them and parse every changed module with `ast`: when one does not parse (a bug of a transform),
   every pass of this target is undone and the error reported; else the new texts and trees are kept.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field, replace

from spmdfix import perf
from spmdfix.analysis.index import ProjectIndex
from spmdfix.edit_log import EditLog
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
)
from spmdfix.choice import chosen_together, without_blocked_fixes
from spmdfix.positions import apply_edits
from spmdfix.prefilter import may_have_findings
from spmdfix.source_analysis import Analysis, analyse_text, analyse_tree

MAX_PASSES = 8  # passes per target module, as ruff's MAX_ITERATIONS

# A fix offered to the reviewer with its text edits: an edit of the target module has a span without a path,
# an edit of another module the path of that module (`Span.path`), its offsets into that module's current text.
Offered = list[tuple[Fix, tuple[Edit, ...]]]
# select(text, findings) -> (reported, suppressed): only reported findings are fixed.
Selector = Callable[[str, list[Finding]], tuple[list[Finding], list[Finding]]]
# review(target's text, offered) -> the ids of the offered fixes to apply, in order. A reviewer that has a
# `reviewing(target)` method is told each target module's path ("" for a module without one) before its passes
# (an interactive reviewer names the file of the target's edits, whose spans have no path); one that has a
# `considering(findings)` method is told the reported findings of each pass before it is asked (an interactive
# reviewer names the findings each fix is for: `Finding.fixes` holds the fix's id); one that has a
# `removing(path, text, edits)` method is asked, after a target's passes, about the removal of the imports its
# accepted fixes left unread in each module (`_Run._remove_unused_imports`), which it does not get otherwise.
Reviewer = Callable[[str, Offered], list[FixId]]
# index_for(current texts, by path) -> the project index to analyse a pass with (None: the module alone). The
# mapping changes as passes apply fixes: an index keeps a copy of what it needs, not the mapping.
IndexFactory = Callable[[Mapping[str, str]], ProjectIndex | None]
# read(path) -> the text of a module the engine was not given, None when it cannot be read.
Reader = Callable[[str], str | None]


def report_all(text: str, findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
    """The selector that reports every finding and suppresses none."""
    return findings, []


def accept_all(text: str, offered: Offered) -> list[FixId]:
    """The reviewer that accepts every offered fix, in the order offered."""
    return [fix.id for fix, _ in offered]


@perf.record
class TargetOutcome:
    """What the passes over one target module found: the reported and suppressed findings of its first text
    (`found`, `found_suppressed`) and of its last (`reported`, `suppressed`), and where the analysis of its
    last text stopped (`unfollowed`)."""

    found: tuple[Finding, ...]
    found_suppressed: tuple[Finding, ...]
    reported: tuple[Finding, ...]
    suppressed: tuple[Finding, ...]
    unfollowed: tuple[Unfollowed, ...]


@perf.record
class FixedTexts:
    """The outcome of `fix_texts`: the current text of every module the engine held (given or read, by path),
    the texts as given or first read (`original`), the fixes applied in order, each target's findings
    (`TargetOutcome`), errors, the edits of each changed module's original text that give its current
    one (every pass composed: `edit_log.EditLog`), and the modules each applied fix edits (`edited`, absolute
    paths, in the order of `applied`: a fix's edits of its own module carry no path, `Span.path`)."""

    texts: dict[str, str]
    original: dict[str, str]
    applied: tuple[Fix, ...]
    targets: dict[str, TargetOutcome]
    errors: tuple[str, ...]
    logs: dict[str, EditLog] = field(default_factory=dict)
    edited: tuple[tuple[str, ...], ...] = ()

    def changed(self) -> dict[str, str]:
        """The modules whose text differs from the one given or first read: path -> new text."""
        return {path: text for path, text in self.texts.items() if self.original.get(path) != text}

    def edits(self, path: str) -> tuple[Edit, ...]:
        """The edits of `path`'s original text that give its current text, sorted (none when unchanged)."""
        log = self.logs.get(path)
        return log.edits(self.texts[path]) if log is not None else ()


def fix_texts(
    texts: Mapping[str, str],
    targets: Iterable[str],
    options: Options,
    select: Selector = report_all,
    review: Reviewer = accept_all,
    index_for: IndexFactory = lambda texts: None,
    read: Reader | None = None,
) -> FixedTexts:
    """Apply the chosen fixes of the findings of each target, one target after the other, pass after pass
    (`MAX_PASSES` each), over the module texts `texts` (path -> text; "" names a module with no path). Never
    raises; writes nothing.

    targets: the modules whose findings are fixed, each a key of `texts` or a path `read` reads; a target that
    cannot be read is reported in `errors`. A fix may edit any module: with `read`, a module not in `texts`
    is read when a fix first edits it; without it, a fix that edits a module other than its target is never
    chosen (its finding gets no fix here rather than its next one, so that a run that applies such fixes
    later chooses alike). index_for: the project index each analysis follows names with, given the current
    texts. select, review: as `Selector`, `Reviewer`.
    Errors: a fix whose edits cannot be built is left out, saying why; when libcst cannot parse a module that
    a fix must edit whole, the target's passes end there; when a changed module would not parse, every pass of
    the target is undone (nothing of it is applied) and the error says so.
    """
    run = _Run(dict(texts), read)
    for target in targets:
        run.fix_target(target, options, select, review, index_for)
    return FixedTexts(
        run.texts, run.original, tuple(run.applied), run.outcomes, tuple(run.errors), run.logs, tuple(run.edited)
    )


class _Run:
    """The state of one `fix_texts` call: the texts, their `ast` trees (kept for the next pass's analysis and
    edits), the edit logs, the fixes applied, the errors and each target's outcome."""

    def __init__(self, texts: dict[str, str], read: Reader | None) -> None:
        self.texts = texts
        self.original = dict(texts)
        self.read = read
        self.trees: dict[str, ast.Module] = {}
        self.logs: dict[str, EditLog] = {}
        self.applied: list[Fix] = []
        self.edited: list[tuple[str, ...]] = []  # the modules each applied fix edits, as `applied`
        self.errors: list[str] = []
        self.outcomes: dict[str, TargetOutcome] = {}

    def text(self, path: str) -> str | None:
        """The current text of `path`, read (`read`) when not held yet; None when it cannot be."""
        if path not in self.texts:
            found = self.read(path) if self.read is not None else None
            if found is None:
                return None
            self.texts[path] = self.original[path] = found
        return self.texts[path]

    def fix_target(
        self, target: str, options: Options, select: Selector, review: Reviewer, index_for: IndexFactory
    ) -> None:
        """The passes over one target module (`fix_texts`)."""
        if self.text(target) is None:
            self.errors.append(f"{target}: cannot read")
            return
        before = self._snapshot()
        texts_before = dict(self.texts)
        reviewing = getattr(review, "reviewing", None)
        if reviewing is not None:
            reviewing(target)
        analysis = self._analysis(target, options, index_for)
        reported, suppressed = select(self.texts[target], analysis.findings)
        found, held = tuple(reported), tuple(suppressed)
        first = TargetOutcome(found, held, found, held, analysis.unfollowed)
        self.outcomes[target] = first
        chained: set[SiteId] = set()  # the target's sites (in its current text) of applied unsafe fixes
        for _ in range(MAX_PASSES):
            chosen = in_chain(choose(reported, suppressed, options, self.read is not None), chained)
            if not chosen:
                break
            offered = self._offer(target, chosen)
            if not offered:
                break
            considering = getattr(review, "considering", None)
            if considering is not None:
                considering(tuple(reported))
            edits, this_pass = accept(offered, review(self.texts[target], offered))
            if not this_pass:
                break
            if not self._apply(target, edits):
                self._restore(before)
                self.outcomes[target] = first
                return
            self.applied.extend(this_pass)
            self.edited.extend(tuple(sorted({e.span.path or target for e in f.node_edits})) for f in this_pass)
            # The next pass's analysis gives the sites of the new text; the chained ones are carried into it by
            # the edits this pass made (a site after an edit moves by what the edit adds).
            chained = {site.moved(edits) for site in chained | chain_sites(this_pass)}
            analysis = self._analysis(target, options, index_for)
            reported, suppressed = select(self.texts[target], analysis.findings)
            self.outcomes[target] = TargetOutcome(
                first.found, first.found_suppressed, tuple(reported), tuple(suppressed), analysis.unfollowed
            )
        if len(self.applied) > before[3]:
            self._remove_unused_imports(target, texts_before, index_for, review)

    def _remove_unused_imports(
        self, target: str, texts_before: dict[str, str], index_for: IndexFactory, review: Reviewer = accept_all
    ) -> None:
        """Remove from each module the target's fixes changed the names of `from M import ...` statements that
        those fixes left unread, where nothing else may read them and the module `M` is still imported where it
        was (`analysis.unused_imports.left_unused`: docs/safety.md, "Imports a fix leaves unused"). Needs the
        project index (other modules must be known); an edit that would not parse is reported and not made.
        A reviewer other than `accept_all` applies only edits it was shown: each module's removal is made when
        its `removing(path, text, edits)` says yes (`fix --interactive` shows it as a diff), never when it
        has no such method (newuser12: the interactive review kept the imports `fix` removes)."""
        import os

        from spmdfix.analysis.unused_imports import left_unused
        from spmdfix.codemods.imports import removal_edits

        index = index_for(self.texts)
        if index is None:
            return
        for path, text in list(self.texts.items()):
            old = texts_before.get(path, self.original.get(path))
            tree = self.trees.get(path)
            if old is None or old == text or tree is None:
                continue
            try:
                old_tree = ast.parse(old)
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                continue
            where = os.path.realpath(path or target) if (path or target) else ""
            unused = left_unused(old_tree, tree, text, where, index)
            edits = removal_edits(text, unused) if unused else []
            if edits and review is not accept_all:
                removing = getattr(review, "removing", None)
                if removing is None or not removing(path, text, tuple(edits)):
                    continue
            if edits:
                self._apply(path, edits)

    def _analysis(self, target: str, options: Options, index_for: IndexFactory) -> Analysis:
        """The analysis of the target's current text, on the tree the engine holds for it when it has one."""
        text = self.texts[target]
        if not may_have_findings(text):
            return Analysis([])
        index, path = index_for(self.texts), target or None
        with perf.gc_paused():
            tree = self.trees.get(target)
            if tree is not None:
                return analyse_tree(text, tree, options, path, index)
            analysis, tree = analyse_text(text, options, path, index)
        if tree is not None:
            self.trees[target] = tree
        return analysis

    def _offer(self, target: str, chosen: dict[FixId, Fix]) -> Offered | None:
        """The chosen fixes with their text edits (`Offered`), each module's edits built on one editor; a fix
        whose edits fail is reported in `errors` and left out. None when libcst cannot parse a module a fix
        must edit whole (reported)."""
        import libcst as cst  # libcst: only when editing

        from spmdfix.codemods._apply import FixNotBuilt, ModuleEditor

        editors: dict[str, ModuleEditor] = {}
        offered: Offered = []
        failures: list[str] = []
        for fix in chosen.values():
            built: list[Edit] = []
            for path, node_edits in _by_module(fix, target).items():
                source = self.text(path)
                if source is None:
                    failures.append(f"{fix.title}: cannot read {path}")
                    break
                editor = editors.get(path) or editors.setdefault(path, ModuleEditor(source, self.trees.get(path)))
                try:
                    edits = editor.edits(node_edits)
                except FixNotBuilt as err:
                    failures.append(f"{fix.title}: {err}")
                    break
                except cst.ParserSyntaxError as err:
                    self.errors.append(f"libcst cannot parse the module{_named(path, target)}: {err.message}")
                    return None
                built.extend(edits if path == target else (replace(e, span=replace(e.span, path=path)) for e in edits))
            else:
                offered.append((fix, tuple(built)))
        self.errors.extend(failures)
        return offered

    def _apply(self, target: str, edits: list[Edit]) -> bool:
        """Apply a pass's accepted edits to every module they edit, when every new text parses (else report
        the first that does not, change nothing and return False)."""
        by_module: dict[str, list[Edit]] = {}
        for edit in edits:
            by_module.setdefault(edit.span.path or target, []).append(edit)
        new_texts: dict[str, str] = {}
        new_trees: dict[str, ast.Module] = {}
        for path, module_edits in by_module.items():
            new = apply_edits(self.texts[path], module_edits)
            try:
                new_trees[path] = ast.parse(new)
            except (SyntaxError, ValueError, MemoryError, RecursionError) as err:
                problem = (str(err).splitlines() or [""])[0] or type(err).__name__
                where = _named(path, target)
                self.errors.append(
                    f"internal error: the fixed module{where} would not parse ({problem}); nothing written"
                )
                return False
            new_texts[path] = new
        for path, module_edits in by_module.items():
            self.logs.setdefault(path, EditLog()).record(module_edits)
        self.texts.update(new_texts)
        self.trees.update(new_trees)
        return True

    def _snapshot(self) -> tuple[dict[str, str], dict[str, ast.Module], dict[str, EditLog], int]:
        return dict(self.texts), dict(self.trees), {p: log.copy() for p, log in self.logs.items()}, len(self.applied)

    def _restore(self, snapshot: tuple[dict[str, str], dict[str, ast.Module], dict[str, EditLog], int]) -> None:
        """Undo every pass since `snapshot`; a module first read since keeps its text as read."""
        texts, trees, logs, applied = snapshot
        self.texts = {path: texts.get(path, self.original[path]) for path in self.texts}
        self.trees, self.logs = trees, logs
        del self.applied[applied:]
        del self.edited[applied:]


def _by_module(fix: Fix, target: str) -> dict[str, list]:
    """A fix's node edits grouped by the module they edit (an edit's span without a path: the target's), their
    spans without the path (offsets into that module's text), in the order the modules first appear."""
    out: dict[str, list] = {}
    for edit in fix.node_edits:
        out.setdefault(edit.span.path or target, []).append(replace(edit, span=Span(edit.span.start, edit.span.end)))
    return out


def _named(path: str, target: str) -> str:
    """" PATH" for a module other than the target (whose name the caller's messages already give), else ""."""
    return "" if path == target else f" {path}"


def choose(
    reported: list[Finding], suppressed: list[Finding], options: Options, other_modules: bool
) -> dict[FixId, Fix]:
    """The chosen fix of each reported finding (by id), never one shared with a suppressed finding. A fix that
    edits another module is chosen only when `other_modules`: else the finding gets no fix rather than its
    next one, so that a run that applies such fixes later (`api.fix_modules`) chooses alike."""
    picks = []
    for finding in without_blocked_fixes(reported, suppressed):
        fix = choose_fix(finding, options.strategy, options.unsafe_fixes)
        if fix is not None and (other_modules or not fix.edits_other_modules):
            picks.append((finding, fix))
    return chosen_together(picks)


# The sites a chain runs through: the shard_maps and vmap sites of the target module.
_CHAIN_KINDS = (SiteKind.SHARD_MAP, SiteKind.VMAP)


def chain_sites(applied: Iterable[Fix]) -> set[SiteId]:
    """The sites (shard_maps, vmap sites of the target) the unsafe fixes among `applied` are planned for."""
    return {
        f.id.site
        for f in applied
        if f.applicability == Applicability.UNSAFE and f.id.site.kind in _CHAIN_KINDS and not f.id.site.path
    }


def in_chain(chosen: dict[FixId, Fix], chained: set[SiteId]) -> dict[FixId, Fix]:
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


def waits(fix: Fix, edits: Sequence[Edit], accepted: Sequence[Edit], groups: set[SiteId]) -> bool:
    """Whether `accept` leaves `fix` for the next pass, after the fixes taken before it in this pass (their
    `accepted` edits and isolation `groups`): its edits overlap one of theirs in the same module, or one of them
    holds its isolation group. Its edits are spans of the pass's texts, which the taken fixes change: a reviewer
    shown it now would see it applied to text it was not built for (`fix --interactive`)."""
    if fix.isolation is not None and fix.isolation in groups:
        return True
    return any(e.span.path == a.span.path and e.span.overlaps(a.span) for e in edits for a in accepted)


def accept(offered: Offered, ids: Sequence[FixId]) -> tuple[list[Edit], list[Fix]]:
    """The edits and fixes of `ids`, in order, leaving out a fix whose edits overlap those of a fix taken
    before it in the same module, or whose isolation group (`Fix.isolation`) one taken before it holds: it
    waits for the next pass, where it is planned (and reviewed) again on the new text."""
    by_id = {fix.id: (fix, edits) for fix, edits in offered}
    accepted: list[Edit] = []
    fixes: list[Fix] = []
    groups: set[SiteId] = set()
    for fix_id in ids:
        fix, edits = by_id[fix_id]
        if waits(fix, edits, accepted, groups):
            continue
        accepted.extend(edits)
        fixes.append(fix)
        if fix.isolation is not None:
            groups.add(fix.isolation)
    return accepted, fixes


def fix_edits(source: str, fixes: Iterable[Fix], tree: ast.Module | None = None) -> dict[FixId, tuple[Edit, ...] | str]:
    """Text edits of each fix on `source` (whose `ast` tree the caller may have), built with libcst on one
    editor; a string says why one failed. Raises `libcst.ParserSyntaxError` when an edit needs the whole
    module and libcst cannot parse it."""
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


def fix_edits_across(
    source: str, fixes: Iterable[Fix], read: Reader
) -> dict[FixId, tuple[Edit, ...] | str]:
    """`fix_edits` of fixes that may edit other modules (an importer's finding seen from the module it is
    located in, `reaching`): each module's node edits built on that module's text (`source` for the module's
    own, `read(path)` for another), an edit of another module carrying its path (`Span.path`), as the fix loop
    offers them (`_Run._offer`); a string says why a fix's edits could not be built."""
    from spmdfix.codemods._apply import FixNotBuilt, ModuleEditor  # libcst: only when editing

    editors: dict[str, ModuleEditor] = {}
    out: dict[FixId, tuple[Edit, ...] | str] = {}
    for fix in fixes:
        if fix.id in out:
            continue
        built: list[Edit] = []
        for path, node_edits in _by_module(fix, "").items():
            text = source if not path else read(path)
            if text is None:
                out[fix.id] = f"cannot read {path}"
                break
            editor = editors.get(path) or editors.setdefault(path, ModuleEditor(text))
            try:
                edits = editor.edits(node_edits)
            except FixNotBuilt as err:
                out[fix.id] = str(err)
                break
            built.extend(edits if not path else (replace(e, span=replace(e.span, path=path)) for e in edits))
        else:
            out[fix.id] = tuple(built)
    return out


def with_unused_imports(
    built: Mapping[str, tuple[Edit, ...] | str], source: str, path: str, index: ProjectIndex | None, read: Reader
) -> dict[str, tuple[Edit, ...] | str]:
    """`built` (each fix's text edits by key, as `fix_edits` / `fix_edits_across` give them for the module at
    `path`, whose text is `source`) with, for each fix, the removal of the names of `from M import ...` that
    this fix alone leaves unread in a module it edits (`analysis.unused_imports.left_unused`), as offsets of
    the text before the fix: what a report's fix (JSON, SARIF) then replays is what `fix` writes for a module
    whose one fix removes the last read (`_Run._remove_unused_imports` also removes what several fixes of a
    run leave unread together). Without `index` or `path`, `built` as it is."""
    if index is None or not path:
        return dict(built)
    from spmdfix.analysis.unused_imports import left_unused
    from spmdfix.codemods.imports import removal_edits

    out: dict[str, tuple[Edit, ...] | str] = {}
    for key, edits in built.items():
        if isinstance(edits, str) or not edits:
            out[key] = edits
            continue
        extra: list[Edit] = []
        by_module: dict[str, list[Edit]] = {}
        for edit in edits:
            by_module.setdefault(edit.span.path, []).append(edit)
        for where, module_edits in by_module.items():
            old = source if not where else read(where)
            if old is None:
                continue
            try:
                new = apply_edits(old, module_edits)
                unused = left_unused(ast.parse(old), ast.parse(new), new, where or path, index)
            except (SyntaxError, ValueError, MemoryError, RecursionError):
                continue
            for removal in removal_edits(new, unused) if unused else ():
                back = _before_edits(removal, module_edits)
                if back is not None:
                    extra.append(replace(back, span=replace(back.span, path=where)))
        out[key] = tuple(sorted((*edits, *extra), key=lambda e: (e.span.path, e.span.start))) if extra else edits
    return out


def _before_edits(edit: Edit, applied: Sequence[Edit]) -> Edit | None:
    """`edit`, whose span is an offset of the text `applied` gave, as a span of the text before them; None when
    it touches one of them."""
    shift = 0
    start, end = edit.span.start, edit.span.end
    for e in sorted(applied, key=lambda e: e.span.start):
        new_start = e.span.start + shift
        new_end = new_start + len(e.content)
        if new_end <= start:
            shift += len(e.content) - (e.span.end - e.span.start)
            continue
        if new_start >= end:
            break
        return None
    return Edit(Span(start - shift, end - shift), edit.content)
