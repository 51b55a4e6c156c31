"""What happens to one file: read it, check it, fix it or add noqa comments, and give one result; total (it
never raises for a file).

What happens to a file's text is the per-file entry point's (`spmdfix.pipeline`: notebooks, suppression,
rule selection, the chosen fixes), the same the language server and the codemod commands call; this
module adds reading, size limits, the test of a module's bytes, rendering and failure handling. Every
kind of result (`spmdfix.results`) comes from here, and the first pass's `Deferred` of `run_streamed`.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix import file_settings, pipeline
from spmdfix.perf import freeze_alive, gc_paused
from spmdfix.files import (
    FileError,
    SourceFile,
    TooLarge,
    decode,
    not_regular,
    read_bytes,
)
from spmdfix.model import Edit, Finding, Fix, Unfollowed
from spmdfix.prefilter import may_have_findings
from spmdfix.prefilter.reached import may_hold_reached, may_hold_reached_bytes
from spmdfix.reaching import names_another_module
from spmdfix.results import (
    IMPORTERS_KEY,
    PROJECT_ROOT_KEY,
    WALKED,
    Checked,
    Failed,
    FileResult,
    Fixed,
    Mode,
    Skipped,
    Unreadable,
)
from spmdfix.runner.clean_bytes import bytes_prove_clean
from spmdfix.runner.job import Job, walks_project, walks_root
from spmdfix.stamps import read_stamped

if TYPE_CHECKING:
    from spmdfix.fix_engine import Reviewer
    from spmdfix.analysis.index import ProjectIndex
    from spmdfix.stamps import FileStamp

RECURSION_BUDGET = 985  # frames a file may use: what the default limit of 1000 leaves in `spmdfix check -j 1`


@dataclass(slots=True, repr=False)
class Deferred(FileResult):
    """A first pass's result (`Job.defer`; never returned by `run_streamed`): the file's text passes the
    prefilter, and its analysis waits for the second pass, which runs the analyses largest first; `cost`:
    the length of the text."""

    path: Path
    display: str
    cost: int
    stamp: FileStamp | None = None


def run_file(job: Job, defer: bool = False) -> FileResult:
    """Read one file and run `job` on it. Never raises. (`run_batch` gives it its recursion headroom.)
    defer: as `Job.defer` (either asks for it)."""
    return _run_file(job, defer or job.defer)


def run_batch(
    jobs: Sequence[Job], progress: Callable[[int], None] = lambda n: None, defer: bool = False
) -> list[FileResult]:
    """`run_file` for each job, each with `RECURSION_BUDGET` frames to spare (one task of a worker process,
    or the whole run in one process: the same frames either way); `progress(1)` after each file. defer: run
    every job as if its `Job.defer` were set (without a copy of each job: `dataclasses.replace` of every job
    of a large tree cost the main process, which feeds the workers, a tenth of a second)."""
    out = []
    with recursion_budget(), roots_kept():
        for job in jobs:
            out.append(run_file(job, defer))
            progress(1)
    return out


@contextlib.contextmanager
def recursion_budget() -> Iterator[None]:
    """The same recursion headroom for every file, however deep the caller's stack: a worker process runs a
    file some frames deeper than the main one does, and `ast.parse` (like the analysis) stops at the limit
    counted from the bottom of the stack, so without this a deeply nested expression could parse with `-j 1`
    and be SPMD900 with `-j 2`. (Process-wide: the CLI runs one file at a time per process.)"""
    frame, depth = sys._getframe(), 0
    while frame is not None:
        depth += 1
        frame = frame.f_back
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(depth + RECURSION_BUDGET)
    try:
        yield
    finally:
        sys.setrecursionlimit(limit)


def _run_file(job: Job, defer: bool) -> FileResult:
    try:
        if not job.stamp:
            return _run_bytes(job, read_bytes(job.path, job.max_bytes), defer)
        st = os.stat(job.path)
        not_regular(st.st_mode)  # a FIFO named on the command line: refused, not waited for
        size = st.st_size
        if size > job.max_bytes:
            raise TooLarge(size)
        raw, stamp = read_stamped(job.path)
    except OSError as err:
        return Unreadable(job.path, job.display, f"cannot read: {err.strerror or err}")
    except TooLarge as err:
        message = f"skipped: {_size(err.size)} is over the {_size(job.max_bytes)} limit (--max-file-size)"
        return Skipped(job.path, job.display, message)
    return dataclasses.replace(_run_bytes(job, raw, defer), stamp=stamp)


def _run_bytes(job: Job, raw: bytes, defer: bool) -> FileResult:
    """Run `job` on the bytes read from its file. In check mode, a module whose bytes show that it cannot
    hold a finding (`bytes_prove_clean`) gets the result `_check` gives it (`Checked`, nothing found) without
    being prepared: most files of a tree. So does one whose text only names a shard_map, a spec, a mesh or a
    sharding (`may_be_reached`) in a run that walks its whole project (`_walked`): about a fifth of a tree's
    modules, which were decoded and prepared for that answer. Without stamps (no results cache), a module in
    a project the run walks whole is not even scanned for those words (`_no_partial_run`)."""
    if job.mode is Mode.CHECK and not job.kept and bytes_prove_clean(job.path, raw, job.include_generated):
        if (
            job.path.suffix == ".ipynb"
            or _no_partial_run(job)
            or not may_hold_reached_bytes(raw)
        ):
            return Checked(job.path, job.display)
        return run_reached(job, raw, defer)
    return run_decoded(job, raw, defer)


def run_reached(job: Job, raw: bytes, defer: bool) -> FileResult:
    """`run_decoded` of a module to check whose bytes prove it holds no finding of its own
    (`bytes_prove_clean`) but name a shard_map, a spec, a mesh or a sharding (`may_be_reached_bytes`): where
    another module's spmd vmap may place one. In a run that walks its whole project (`_walked`) those
    findings are the importers' own results, and the module gets the result `_check` gives it there without
    being decoded; otherwise it is checked in full (a partial run, `_check`)."""
    try:
        walked = _walked(job, _project_root(job))
    except Exception:  # noqa: BLE001 - the full run below reports what failed (`run_source`)
        walked = None
    if walked is not None:
        return Checked(job.path, job.display, depends=(walked,))
    return run_decoded(job, raw, defer)


def run_decoded(job: Job, raw: bytes, defer: bool) -> FileResult:
    """Run `job` on its file's bytes, decoded (a file that does not decode is SPMD901), without their test."""
    try:
        source = decode(job.path, raw)
    except FileError as err:
        return Unreadable(job.path, job.display, str(err), position=err.position)
    return run_source(job, source, defer)


def current_traceback() -> str:
    """The traceback of the exception being handled. (`traceback` and the modules it imports, `linecache`,
    `tokenize`, `textwrap`, are imported only when a file fails: a warm run, which starts no worker pool,
    imports none of them.)"""
    import traceback

    return traceback.format_exc()


def _size(n: int) -> str:
    return f"{n / 2**20:.1f} MiB" if n >= 100_000 else f"{n:,} bytes"


def run_source(job: Job, source: SourceFile, defer: bool = False) -> FileResult:
    """Run `job` on a file already read (or given on stdin). Never raises. defer: as `Job.defer`."""
    try:
        prepared = _prepare(job, source)
        if (defer or job.defer) and may_have_findings(prepared.text):
            return Deferred(job.path, job.display, len(prepared.text))
        if job.mode is Mode.FIX:
            return _fix(job, source, prepared)
        if job.mode is Mode.ADD_NOQA:
            return _add_noqa(job, source, prepared)
        return _check(job, source, prepared)
    except pipeline.Skip as err:
        return Skipped(job.path, job.display, str(err))
    except FileError as err:
        return Unreadable(job.path, job.display, str(err), position=err.position)
    except Exception:  # noqa: BLE001 - the one place a bug in analysis is caught and reported per file
        error = current_traceback()
        left = _still_there(job, source)
        return Failed(job.path, job.display, error, source, left, parsed=bool(left))


def _prepare(job: Job, source: SourceFile) -> pipeline.Prepared:
    """`pipeline.prepare` of a file read; a notebook that cannot be read raises `FileError` (SPMD901)."""
    if job.path.suffix != ".ipynb":  # (a run over modules only does not import `spmdfix.notebook`)
        return pipeline.prepare(job.path, source.text, job.include_generated)
    from spmdfix.notebook import NotebookError

    try:
        return pipeline.prepare(job.path, source.text, job.include_generated)
    except NotebookError as err:
        raise FileError(f"cannot read the notebook: {err}") from err


def _still_there(job: Job, source: SourceFile) -> tuple[Finding, ...]:
    """When fixing (or adding noqa comments) failed, the file's findings as checked: they remain, and the
    summary counts them. Empty when checking fails too."""
    if job.mode is Mode.CHECK:
        return ()
    try:
        return pipeline.check_prepared(_prepare(job, source), job.settings, path=job.path, index=_index(job)).findings
    except Exception:  # noqa: BLE001 - the failure is already reported; the count is best effort
        return ()


def _edits(
    text: str, findings: Sequence[Finding], reached: Sequence[Finding] = (), job: Job | None = None, index=None
) -> dict[str, tuple[Edit, ...] | str]:
    """Every fix's text edits by key; the fixes of `reached` findings (an importer's, seen from this module:
    their edits may lie in the importer), and any fix with an edit in another module (train.py's add-axis of
    config.py's mesh, reported at model.py's spec), are built on each module they edit
    (`fix_engine.fix_edits_across`); with the project `index`, each with the names of imports it alone leaves
    unread removed, as `fix` removes them (`fix_engine.with_unused_imports`)."""
    across = {x.id for f in findings for x in f.fixes if f in reached or any(e.span.path for e in x.node_edits)}
    fixes = [x for f in findings for x in f.fixes if x.id not in across]
    out: dict[str, tuple[Edit, ...] | str] = {}
    try:
        if fixes:
            out.update(pipeline.fix_edits(text, fixes))
        if across:
            from spmdfix.fix_engine import fix_edits_across
            from spmdfix.files import text_of

            spread = [x for f in findings for x in f.fixes if x.id in across]
            out.update({str(k): v for k, v in fix_edits_across(text, spread, text_of).items()})
        if index is not None and job is not None and job.path.suffix != ".ipynb":
            import os

            from spmdfix.files import text_of
            from spmdfix.fix_engine import with_unused_imports

            out = with_unused_imports(out, text, os.path.realpath(job.path), index, text_of)
    except Exception as err:  # noqa: BLE001 - libcst failing must not lose the findings
        return {x.key: f"edits not built: {err}" for f in findings for x in f.fixes}
    return out


# The project root of each directory a batch asked for (`roots_kept`): None outside `run_batch`.
_ROOTS: dict[tuple[str, Path | None], Path] | None = None


@contextlib.contextmanager
def roots_kept() -> Iterator[None]:
    """Keep `_index`'s project roots by directory for one batch. A cold run over a large tree asks for the
    root of every file that may be reached (a stat walk up the tree each: a third of a second over the
    eight-repository corpus); the files of one directory share it. Only for the batch: a long-lived
    process (`check --watch`, a library user) must see a marker added between runs."""
    global _ROOTS
    outer, _ROOTS = _ROOTS, _ROOTS if _ROOTS is not None else {}
    try:
        yield
    finally:
        _ROOTS = outer


# Whether `_project_root` may answer from what this process found before for the same directories and their
# ancestors (`keep_roots_in_process`).
_ROOTS_CACHED = False


def keep_roots_in_process() -> None:
    """Keep `_project_root`'s roots by directory for the rest of this process, every batch sharing them, and
    find them with the markers of the directories above shared (`files.find_project_root`'s `cached`): for
    a worker of a run's pool (`pool.worker_pool`), which ends with the run, so that no marker added later can
    be missed. A worker's first pass asks for the root of each module naming a spec, a mesh or a sharding
    (`run_reached`), a fifth of a tree's modules, batch after batch in the same directories."""
    global _ROOTS, _ROOTS_CACHED
    _ROOTS, _ROOTS_CACHED = {}, True


def _project_root(job: Job) -> Path:
    """The project root of the job's file (`file_settings.project_root_of`: a real path), kept for the batch
    by directory (`roots_kept`)."""
    return _project_root_at(os.fspath(job.path), job.settings)


def _project_root_at(path: str, settings: file_settings.FileSettings) -> Path:
    """`_project_root` of the file at `path` with these settings."""
    key = (os.path.dirname(path), settings.project_root)
    root = _ROOTS.get(key) if _ROOTS is not None else None
    if root is None:
        root = file_settings.project_root_of(path, settings, _ROOTS_CACHED)
        if _ROOTS is not None:
            _ROOTS[key] = root
    return root


def _index(job: Job, root: Path | None = None) -> ProjectIndex:
    """The index of the project (at `root`, else `_project_root`'s) the file belongs to, for the analysis to
    follow imports of the project."""
    from spmdfix.api import project_index  # the analysis: imported where files are checked (a worker)

    return project_index(job.path, root if root is not None else _project_root(job))


def _no_partial_run(job: Job) -> bool:
    """Whether the check of the job's file is no partial run whatever its text names, with nothing to record
    of it: a check that no results cache keeps (no stamps: nothing reads the result's `depends`, where a
    cached result records `_walked`'s answer) of a file whose project the run walks whole (`_walked`). The
    scans for the words of a partial run (`may_be_reached`, `may_apply_inherited`) then decide nothing: a
    worker's first pass of a cold `check --no-cache` over a tree made them on every module its bytes clear
    (bench/README.md, "A fifth round"), where the project root is a look-up by directory. False when the
    root cannot be found (the scans and the full run decide, as before)."""
    return not job.stamp and job.mode is Mode.CHECK and walked_whole(os.fspath(job.path), job.settings, job.walked)


def walked_whole(path: str, settings: file_settings.FileSettings, walked: tuple[str, ...]) -> bool:
    """Whether the project of the file at `path` (its root as `_project_root` finds it with these settings)
    is one of the directories `walked` (`Job.walked`) or lies below one; False when its root cannot be found.
    (`_no_partial_run` of a job without stamps; a worker's packed batch asks it without a job.)"""
    if not walked:
        return False
    try:
        return walks_root(walked, str(_project_root_at(path, settings)))
    except Exception:  # noqa: BLE001 - `run_reached` and `_check` report what failed, as before
        return False


def _walked(job: Job, root: Path) -> tuple[str, str] | None:
    """`(IMPORTERS_KEY, WALKED)` when the run walks the whole project at `root` (`walks_project`), else None.
    A run over the whole project analyses every importer as a file of its own: a file's check is then no
    partial run, which the results cache must know (a later run of this file alone is one)."""
    return (IMPORTERS_KEY, WALKED) if walks_project(job, str(root)) else None


def _reached(job: Job, text: str, index: ProjectIndex):
    """The findings the spmd vmaps of modules importing the job's file place in it (`reaching.reached`)."""
    from spmdfix.reaching import reached  # the analysis: imported where files are checked (a worker)

    # The import graph and the importers' models it builds live as long as this process (a CLI run, a worker):
    # the collector is paused while they are made and they are frozen out of its reach after. Its passes over
    # them were 0.19 s of a 1.36 s partial run of the generated project's layers.py, and 0.59 s once its
    # graph had a few more edges (a pass of every young object as the pause of the last analysis ended, then
    # a second-generation pass as the results were packed; `gc.callbacks` timed them).
    with gc_paused():
        found = reached(job.path, text, index, job.settings.options)
        freeze_alive()
    return found


def _check(job: Job, source: SourceFile, prepared: pipeline.Prepared) -> Checked:
    # ("vmap" first: a module that only names a shard_map or a spec, most of those a partial run looks at,
    # is cleared without the prefilter's scan; a text not ASCII may spell it otherwise, `as_python_reads_it`)
    own = job.kept or (("vmap" in prepared.text or not prepared.text.isascii()) and may_have_findings(prepared.text))
    # (another module's SPMD910 record may lie in a subclass applying its base class's vmap factory too)
    partial = (
        prepared.nb is None
        and not _no_partial_run(job)
        and may_hold_reached(prepared.text)
    )
    if not own and not partial:
        # No finding, nor a left-out cell's: the same result without the analysis and without looking for
        # the project (a stat walk up the tree per file: a third of a cold run's CPU on a large corpus).
        return Checked(job.path, job.display)
    root = _project_root(job)
    # Decided before the index is built: most such files need no analysis, nor its import (a warm run after
    # an edit re-runs a few of them).
    walked = _walked(job, root) if partial else None
    partial = partial and walked is None
    if not own and not partial:
        return Checked(job.path, job.display, depends=(walked,) if walked else ())
    index = _index(job, root)
    with index.recording() as depends:  # the other modules read: the results cache checks them
        found = _reached(job, prepared.text, index) if partial else None
        checked = pipeline.check_prepared(
            prepared,
            job.settings,
            path=job.path,
            index=index,
            prefiltered=job.kept,
            reached=found.findings if found is not None else (),
            reached_unfollowed=found.unfollowed if found is not None else (),
        )
    # For the results cache: everything the index read or looked for, a superset of `depends` (a summary
    # computed for one module and served to another names only the modules of the functions it crossed);
    # a partial run's importers and the graph state that decided them.
    depends = [
        *sorted(set(depends) | set(index.everything_read()) | set(found.depends if found is not None else ())),
        *((walked,) if walked else ()),
        (PROJECT_ROOT_KEY, str(index.root)),
    ]
    text, reported = checked.text, checked.findings
    keep = bool(reported or checked.unfollowed)  # the text, to show positions of either
    return Checked(
        job.path,
        job.display,
        source if reported else None,
        reported,
        text=text if keep else "",
        cells=prepared.cells(text) if keep else None,
        parsed=True,
        suppressed=len(checked.suppressed),
        suppressed_across=tuple(f for f in checked.suppressed if names_another_module(f)),
        edits=_edits(text, reported, found.findings if found is not None else (), job, index) if job.want_edits and reported else None,
        depends=tuple(depends),
        unfollowed=checked.unfollowed,
    )


def project_index_of(job: Job) -> ProjectIndex:
    """The project index `fix` analyses the job's file with (`_index`): a notebook fixed by `fix --interactive`
    needs it to follow its imports into the modules of the project, as `fix` does."""
    return _index(job)


def fix_reviewed(job: Job, source: SourceFile, prepared: pipeline.Prepared, review: Reviewer) -> Checked | Fixed:
    """The first step of `fix` on a file already read and prepared, as a run's worker makes it (`_fix`: its
    own fixes, and a partial run's findings left for `cross_module.cross_module_fixes`), with `review`
    choosing among the offered fixes (`fix --interactive`). Raises what the analysis raises."""
    return _fix(job, source, prepared, review)


def _fix(job: Job, source: SourceFile, prepared: pipeline.Prepared, review: Reviewer | None = None) -> Checked | Fixed:
    partial = prepared.nb is None and may_hold_reached(prepared.text)
    if not may_have_findings(prepared.text) and not partial:
        # Nothing to fix or report (nor a left-out cell's syntax error: `Prepared.extra_findings`): what
        # `fix_prepared` gives such a text, without importing the analysis for it (a small tree runs in the
        # main process, which `check` spares that import) nor looking for the project.
        return _result(job, source, prepared, prepared.text, (), (), (), 0)
    index = _index(job)
    partial = partial and not walks_project(job, index.root)
    with index.recording() as read:
        fixed = pipeline.fix_prepared(prepared, job.settings, review=review, path=job.path, index=index)
        remaining, found_before, reached_depends = fixed.remaining, fixed.found_before, ()
        held = list(fixed.held)
        if partial:
            # Findings of importers' vmaps located here: left for `cross_module_fixes`, which fixes them in
            # the importers (their fixes may edit the importer, a config module and this one).
            found = _reached(job, fixed.text, index)
            if found.findings:
                reported, suppressed = pipeline.select(
                    fixed.text,
                    found.findings,
                    job.settings.enabled,
                    job.options.unfixable,
                    job.options.layout_changing_fixes,
                    per_file_ignores=job.options.per_file_ignores,
                )
                extra = [f for f in reported if f not in set(remaining)]
                remaining = tuple(sorted((*remaining, *extra), key=lambda f: (f.span.path, f.span.start, f.code)))
                found_before += len(extra)
                held += [f for f in suppressed if f not in set(held)]  # (counted as `check` counts them)
            reached_depends = found.depends
    # The other modules read: `cross_module_fixes` analyses the file again when a fix of this run changed one
    # of them (this analysis saw them as they were on disk); the importers a partial run analysed.
    depends = tuple(sorted(set(read) | set(reached_depends)))
    return _result(
        job,
        source,
        prepared,
        fixed.text,
        remaining,
        fixed.applied,
        fixed.errors,
        len(held),
        found_before=found_before,
        unfollowed=fixed.unfollowed,
        depends=depends,
        parsed=partial or None,
        suppressed_across=tuple(f for f in held if names_another_module(f)),
    )


def _result(
    job: Job,
    source: SourceFile,
    prepared: pipeline.Prepared,
    new_text: str,
    remaining: tuple[Finding, ...],
    applied: tuple[Fix, ...],
    errors: tuple[str, ...],
    suppressed: int,
    *,
    found_before: int = 0,
    unfollowed: tuple[Unfollowed, ...] = (),
    depends: tuple[tuple[str, str | None], ...] = (),
    noqa_added: tuple[int, ...] = (),
    noqa_skipped: tuple[int, ...] = (),
    parsed: bool | None = None,
    suppressed_across: tuple[Finding, ...] = (),
) -> Checked | Fixed:
    """The result of a fix or noqa run on a file that gave `new_text` (`Fixed` when it differs from the
    prepared text and renders as the file's new content, else `Checked`). parsed: the file was analysed (a
    partial run's, as `check` counts it); None: its text passed the prefilter."""
    notes: tuple[str, ...] = ()
    new_file = None
    if new_text != prepared.text:
        from spmdfix import notebook  # (the text changed: a fix or a noqa comment, never on a warm run)

        try:
            new_file = prepared.render(new_text)
        except notebook.NotebookError as err:
            errors = (*errors, f"internal error: {err}; nothing written")
        if prepared.nb is not None and new_file is not None and not notebook.layout_kept(prepared.nb):
            notes = ("note: the notebook's JSON layout could not be reproduced exactly; it was normalised",)
    parsed = may_have_findings(prepared.text) if parsed is None else parsed
    if new_file is not None:
        return Fixed(
            job.path,
            job.display,
            source,
            new_file,
            remaining,
            applied,
            errors,
            text=new_text,
            cells=prepared.cells(new_text),
            parsed=parsed,
            suppressed=suppressed,
            suppressed_across=suppressed_across,
            noqa_added=noqa_added,
            noqa_skipped=noqa_skipped,
            notes=notes,
            found_before=found_before,
            depends=depends,
            unfollowed=unfollowed,
        )
    return Checked(
        job.path,
        job.display,
        source if remaining or errors else None,
        remaining,
        text=prepared.text,
        cells=prepared.cells(prepared.text),
        parsed=parsed,
        suppressed=suppressed,
        suppressed_across=suppressed_across,
        depends=depends,
        unfollowed=unfollowed,
        errors=errors,
        noqa_skipped=noqa_skipped,
        found_before=found_before,
    )


def _add_noqa(job: Job, source: SourceFile, prepared: pipeline.Prepared) -> Checked | Fixed:
    from spmdfix import noqa  # (`add-noqa` only)

    own = may_have_findings(prepared.text)
    partial = prepared.nb is None and may_hold_reached(prepared.text)
    index = _index(job) if own or partial else None
    # A partial run (`reaching`): the findings importers' vmaps place in this file get their comment here too.
    partial = partial and index is not None and not walks_project(job, index.root)
    found = _reached(job, prepared.text, index).findings if partial else ()
    where = {"path": job.path, "index": index if own or found else None}
    reported, suppressed, _ = pipeline.findings_of(prepared, prepared.text, job.settings, reached=found, **where)
    # A finding in another module gets its comment in that module's file, where it sits: the command adds it
    # there after the run (`cli.checking`), so it is left among the findings of this result.
    remaining = [f for f in reported if f.code in noqa.UNSUPPRESSIBLE or f.span.path]
    reported = [f for f in reported if not f.span.path]
    result = noqa.add_noqa(prepared.text, reported)
    if result.skipped:
        lines = set(result.skipped)
        remaining += [f for f in reported if f.code not in noqa.UNSUPPRESSIBLE and _row(prepared.text, f) in lines]
    return _result(
        job,
        source,
        prepared,
        result.text,
        tuple(sorted(remaining, key=lambda f: (f.span.path, f.span.start))),
        (),
        (),
        len(suppressed),
        noqa_added=result.added,
        noqa_skipped=result.skipped,
    )


def _row(text: str, finding: Finding) -> int:
    from spmdfix.positions import LineIndex

    return LineIndex(text).row_col(finding.span.start)[0]
