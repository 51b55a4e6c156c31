"""The second step of `fix`: the chosen fixes that edit other modules of the project, applied in this process
after the per-file step (`cross_module_fixes`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import field, replace
from typing import TYPE_CHECKING

from spmdfix import pipeline
from spmdfix.files import text_of
from spmdfix.model import Finding, Fix, Options, reframed
from spmdfix.reaching import places_in
from spmdfix.perf import record
from spmdfix.results import IMPORTERS_KEY, PARTIAL, Checked, FileResult, Fixed, Mode
from spmdfix.runner.job import Job

if TYPE_CHECKING:
    from spmdfix.fix_engine import Reviewer

MAX_ROUNDS = 4  # rounds of `cross_module_fixes`: each fix that changes a module re-analyses its readers once


@record(frozen=True)
class CrossModuleFixes:
    """What `cross_module_fixes` changed: the (old, new) text of every module it changed by absolute path,
    the fixes applied and the findings left per job index, errors, and which jobs' fixes changed each module
    (`changed_by`: absolute path -> job indices, in the order they changed it; what `fix` names when it says
    a module was changed by a fix of another), and the modules each fix of `applied_by` edits (`edited_by`,
    absolute paths, in the same order: what `fix` names when it says a fix was applied elsewhere)."""

    texts: dict[str, tuple[str, str]]
    applied_by: dict[int, tuple[Fix, ...]]
    remaining: dict[int, tuple[Finding, ...]]
    errors: tuple[str, ...]
    changed_by: dict[str, tuple[int, ...]]
    edited_by: dict[int, tuple[tuple[str, ...], ...]] = field(default_factory=dict)
    # What the applied fixes were judged against (`api.JudgementReads`): the files read (absolute path -> SHA-256
    # of the bytes, None for one absent), and the modules whose text as the first step fixed it was read
    # (`overlaid`): `fix` writes those with the fixes, all or none, and only while the files read are unchanged.
    read: dict[str, str | None] = field(default_factory=dict)
    overlaid: frozenset[str] = frozenset()


def cross_module_fixes(
    jobs: Sequence[Job], outcomes: Sequence[FileResult], review: Reviewer | None = None
) -> CrossModuleFixes:
    """The second step of `fix`: apply, with `api.fix_modules` (the one fix loop, `fix_engine.fix_texts`, over
    the modules of the project), the chosen fixes that edit other modules of the project (a strip in the
    callee's file, an axis added to a mesh in another module), and analyse again
    each module whose analysis read a module that a fix of this run changed (`Checked.depends`): the
    first step analysed every file against the files as they were on disk, so its findings and fixes may
    describe a collision a fix of another file has removed. In this process, one module after the other
    (two modules may edit the same third one), in rounds until no changed module is left unseen
    (`MAX_ROUNDS`). Notebooks are left to the first step. Starts from the texts the first step produced;
    writes nothing. review: as `api.fix_modules`'s (`fix --interactive`; None: every chosen fix)."""
    more = {} if review is None else {"review": review}
    texts = {str(o.path.resolve()): o.new_text for o in outcomes if isinstance(o, Fixed) and o.cells is None}
    before = dict(texts)
    applied: dict[int, tuple[Fix, ...]] = {}
    edited: dict[int, tuple[tuple[str, ...], ...]] = {}
    remaining: dict[int, tuple[Finding, ...]] = {}
    errors: list[str] = []
    clock = 1
    changed_at = dict.fromkeys(texts, clock)  # path -> the time a fix of this run last changed it
    seen: dict[int, int] = {}  # job index -> the time of its last analysis here (the first step's: 0)
    changed_by: dict[str, list[int]] = {}  # path -> the job indices whose fixes changed it
    judged = _Judged()  # what the applied fixes were judged against
    for _ in range(MAX_ROUNDS):
        ran = False
        for i, (job, o) in enumerate(zip(jobs, outcomes)):
            if not isinstance(o, (Checked, Fixed)) or o.cells is not None or job.mode is not Mode.FIX:
                continue
            if not o.depends and not o.findings:
                continue  # (most files of a tree: nothing read, nothing to fix; no path resolved for them)
            own = str(job.path.resolve())
            stale = any(changed_at.get(path, 0) > seen.get(i, 0) for path, _ in o.depends if path != own)
            partial = any(path == IMPORTERS_KEY and (digest or "").startswith(PARTIAL) for path, digest in o.depends)
            if i not in seen:
                chosen = [job.settings.chosen(f) for f in o.findings]
                stale = stale or any(fix is not None and fix.edits_other_modules for fix in chosen)
                stale = stale or (partial and any(fix is not None for fix in chosen))
            if not stale:
                continue
            # The analysis is imported here, not above: a run without cross-module work (most) then never
            # imports it in this process (its workers analysed the files; the import costs 0.1 s here).
            from spmdfix.api import fix_modules, project_index

            ran = True
            root = project_index(job.path, job.project_root).root

            def split(text: str, findings: list[Finding], enabled=job.enabled) -> tuple[list[Finding], list[Finding]]:
                options = job.options
                return pipeline.select(
                    text, findings, enabled, options.unfixable, options.layout_changing_fixes, None, options.per_file_ignores
                )

            result = fix_modules([job.path], job.options, root, split, texts, **more)
            judged.take(result)
            _credit(result, texts, changed_by, i)
            clock = _take(result, texts, changed_at, clock)
            left = result.remaining.get(own, o.findings)
            done, where = result.applied, result.edited
            if partial:
                # A partial run: the findings the importers' vmaps place in this module, fixed in the importers
                # (the one fix loop, `fix_modules`, each importer a target; only findings located here).
                own_text = texts.get(own) or text_of(own) or ""
                result = fix_modules(
                    reaching_importers(own, root, texts),
                    job.options,
                    root,
                    located_in(own, own_text, job.enabled, job.options),
                    texts,
                    **more,
                )
                judged.take(result)
                _credit(result, texts, changed_by, i)
                clock = _take(result, texts, changed_at, clock)
                done += result.applied
                where += result.edited
                left = _merged(left, [reframed(f, p, own) for p, found in result.remaining.items() for f in found])
            seen[i] = clock
            applied[i] = applied.get(i, ()) + done
            edited[i] = edited.get(i, ()) + where
            errors.extend(f"{job.display}: {e}" for e in result.errors)
            remaining[i] = left
        if not ran:
            break
    changed = {}
    for path, new in texts.items():
        old = before.get(path) or text_of(path)
        if old is not None and new != old:
            changed[path] = (old, new)
    remaining.update(_notebooks_again(jobs, outcomes, texts, set(changed) | set(before)))
    credited = {path: tuple(dict.fromkeys(changed_by.get(path, ()))) for path in changed}
    return CrossModuleFixes(
        changed, applied, remaining, tuple(errors), credited, edited, judged.read, frozenset(judged.overlaid)
    )


class _Judged:
    """The files the applied fixes of `cross_module_fixes`' `fix_modules` runs were judged against (their
    `read`, `overlaid`); a file read with other bytes by two runs is noted as changed during the run."""

    def __init__(self) -> None:
        self.read: dict[str, str | None] = {}
        self.overlaid: set[str] = set()

    def take(self, result) -> None:
        """Note what a `fix_modules` result read, when it applied a fix (a run that applied none wrote nothing)."""
        if not result.applied:
            return
        from spmdfix.api import CHANGED_DURING_THE_RUN

        for path, digest in result.read:
            if self.read.setdefault(path, digest) != digest:
                self.read[path] = CHANGED_DURING_THE_RUN
        self.overlaid.update(result.overlaid)


def _notebooks_again(
    jobs: Sequence[Job], outcomes: Sequence[FileResult], texts: dict[str, str], changed: set[str]
) -> dict[int, tuple[Finding, ...]]:
    """The findings left in each notebook of a `fix` run whose analysis read a module this run changed
    (`changed`: absolute paths; the first step's own fixes included), by job index: the notebook's text (as
    the first step left it) checked again against the modules' new `texts`. A notebook is fixed alone in the
    first step, against the modules as they were on disk; a fix of another file (train.py's strip of a spec in
    model.py) may remove the findings its vmap placed there, and `fix` must not name them left when `check`
    of the fixed files finds none (newuser11's trial, finding 5)."""
    out: dict[int, tuple[Finding, ...]] = {}
    for i, (job, o) in enumerate(zip(jobs, outcomes)):
        if not isinstance(o, (Checked, Fixed)) or o.cells is None or job.mode is not Mode.FIX or not o.findings:
            continue
        if not any(path in changed for path, _ in o.depends):
            continue
        text = o.new_text if isinstance(o, Fixed) else (text_of(str(job.path)) if o.source is None else o.source.text)
        if text is None:
            continue
        from spmdfix.api import new_project_index, project_index

        root = project_index(job.path, job.project_root).root
        try:
            checked = pipeline.check_prepared(
                pipeline.prepare(job.path, text, include_generated=True),
                job.settings,
                path=job.path,
                index=new_project_index(root, overlay=dict(texts)),
            )
        except Exception:  # noqa: BLE001 - the first step's findings stay, as before this check
            continue
        out[i] = checked.findings
    return out


def _credit(result, texts: dict[str, str], changed_by: dict[str, list[int]], i: int) -> None:
    """Note job `i` as a changer of each module whose text the `fix_modules` result changes (before `_take`)."""
    for path, text in result.texts.items():
        if texts.get(path) != text:
            changed_by.setdefault(path, []).append(i)


def _take(result, texts: dict[str, str], changed_at: dict[str, int], clock: int) -> int:
    """Keep the texts a `fix_modules` result changed, stamped with a new time; the time now."""
    if result.texts:
        clock += 1
        for path, text in result.texts.items():
            if texts.get(path) != text:
                changed_at[path] = clock
        texts.update(result.texts)
    return clock


def located_in(own: str, own_text: str, enabled: frozenset[str], options: Options):
    """The selector of an importer's findings for a partial run of `own` (whose text is `own_text`, its enabled
    codes `enabled` and fix options `options`): only those located in `own` or whose chain names a place in it
    (`reaching.places_in`), and of its enabled codes, split by
    the suppression comments of their two lines (the finding's in `own`, its vmap's in the importer), as a
    check of `own` splits them. The language server's fix-all takes it too (`lsp.actions`)."""

    def split(text: str, findings: list[Finding]) -> tuple[list[Finding], list[Finding]]:
        located = [f for f in findings if places_in(f, own)]
        # Judged in the importer's frame, `text` being the importer's: a directive on the finding's line (in
        # `own`, `own_text`) or on the line of its vmap's `spmd_axis_name` (in the importer, its spans' path "")
        # suppresses it, as `check` of `own` judges it (README: either of its two lines). Reframed to `own`,
        # the importer's spans kept their "" and the vmap's line went unread (breaker20: `fix model.py`
        # applied add-axis, which changes a finding `# noqa`'d at train.py's vmap; `fix .` refused it).
        _, suppressed = pipeline.select(text, located, enabled, options.unfixable, buffers={own: own_text})
        held_ids = {id(f) for f in suppressed}
        out, held = [], []
        for original in located:
            if original.code not in enabled:
                # (dropped, as `pipeline.select` drops it in a run over the whole tree: an ignored code is no
                # suppressed finding, and blocks no fix it shares; held, it left SPMD002 of `--ignore SPMD001`
                # unfixed in `fix model.py` while `fix .` and `check model.py` fixed it with add-axis)
                continue
            if id(original) in held_ids:
                held.append(original)
            elif original.code in options.unfixable and original.fixes:
                out.append(replace(original, fixes=(), refusals=pipeline.unfixable_refusals(original) + original.refusals))
            else:
                out.append(original)
        if options.layout_changing_fixes == "unsafe":
            # (the setting of `own`, as `check` of `own` applies it: its layout-changing fixes are unsafe)
            out = [pipeline.layout_unsafe(f) for f in out]
        return out, held

    return split


def _merged(first: Sequence[Finding], more: Sequence[Finding]) -> tuple[Finding, ...]:
    """`first` and the findings of `more` not among them, sorted as a file's findings are."""
    have = set(first)
    out = [*first, *(f for f in dict.fromkeys(more) if f not in have)]
    return tuple(sorted(out, key=lambda f: (f.span.path, f.span.start, f.code)))


def reaching_importers(own: str, root: str, texts: dict[str, str]) -> list[str]:
    """The modules of the project importing `own`, directly or not, whose current text may hold a finding; and
    the modules with a vmap that those import, which may apply a callable of `own` they pass
    (`ProjectGraph.passed_candidates`: a partial run reports what their analysis places in `own`). A notebook
    importing `own` is none of them: a partial run fixes no notebook (`reaching.notebook_importer_alone`)."""
    from spmdfix.prefilter import may_have_findings
    from spmdfix.project_graph import graph_of

    graph = graph_of(root)
    out = []
    for path in dict.fromkeys((*graph.reaching(own), *graph.passed_candidates(own))):
        if path.endswith(".ipynb"):
            continue
        text = texts.get(path) or text_of(path)
        if text is not None and may_have_findings(text):
            out.append(path)
    return out
