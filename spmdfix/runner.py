"""The per-file runner: read, check / fix / add noqa, and report; total (it never raises for a file).

One result per file (`spmdfix.results`), whatever happened to it: the findings left after suppression and
rule selection, the new text when something changes, or why the file was skipped or failed. A `Job` and its
result are plain picklable data, so `run_jobs` can spread files over worker processes; the CLI decides what
to print and write.

What happens to a file's text is the per-file entry point's (`spmdfix.pipeline`: notebooks, suppression,
rule selection, the chosen fixes), the same the language server and the codemod commands call; the runner
adds reading, size limits, rendering and failure handling.
"""

from __future__ import annotations

import contextlib
import dataclasses
import operator
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from spmdfix import pipeline, rules
from spmdfix.files import (
    MAX_BYTES,
    FileError,
    SourceFile,
    TooLarge,
    decode,
    is_normal,
    plain_ascii,
    read_bytes,
)
from spmdfix.model import Edit, Finding, Fix, Options, Unfollowed
from spmdfix.perf import record, retain_trees
from spmdfix.prefilter import may_have_findings, utf8_may_have_findings
from spmdfix.results import PROJECT_ROOT_KEY, Checked, Failed, FileResult, Fixed, Mode, Skipped, Unreadable
from spmdfix.stamps import read_stamped

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

    from spmdfix.analysis.index import ProjectIndex
    from spmdfix.stamps import FileStamp

BATCH_MAX = 16
RECURSION_BUDGET = 985  # frames a file may use: what the default limit of 1000 leaves in `spmdfix check -j 1`
STREAM_BATCH = 32  # files per task when the total is not known yet (`stream_jobs`)
# `run_streamed`: a walk that ends within this many files is read in one process (starting workers costs
# more than such a tree's prefilter), whose analyses go to workers only when their texts add up to
# PARALLEL_COST characters (about 0.2 s of analysis on the 2-CPU benchmark machine).
SMALL_TREE = 400
PARALLEL_COST = 200_000
# Characters of source whose `ast` trees a worker keeps instead of freeing them (`perf.retain_trees`): about
# 100 MB of trees at most, so that a worker stays well under the 300 MB a process may take.
RETAIN_CHARS = 4_000_000


@dataclass(frozen=True, slots=True)
class Job:
    """What to do with one file. mode: check, fix or add noqa comments (`Mode`); enabled: the rule codes
    reported.

    want_edits: also build every fix's text edits (for JSON-like reports). max_bytes: larger files are
    skipped. include_generated: do not skip files marked `@generated`. stamp: record the file's stamp
    (stat and digest of the bytes read) in the outcome, for the results cache (`spmdfix.cache`). defer:
    stop before the analysis of a text that passes the prefilter (a `Deferred` result, `cost` its length),
    so that `run_streamed` can schedule the analyses largest first. kept: the file's text passed the
    prefilter in such a first pass: checking it analyses the text without asking the prefilter again (on
    the largest modules of a tree its scans cost a tenth of their analysis; a file changed in between is
    analysed all the same, which only costs time).
    """

    path: Path
    display: str
    options: Options
    mode: Mode = Mode.CHECK
    enabled: frozenset[str] = frozenset(rules.RULES)
    want_edits: bool = False
    include_generated: bool = False
    max_bytes: int = MAX_BYTES
    stamp: bool = False
    project_root: Path | None = None  # where the cross-module analysis looks for modules (found when None)
    defer: bool = False
    kept: bool = False

    @property
    def settings(self) -> pipeline.FileSettings:
        """The file's settings, as the per-file entry point (`spmdfix.pipeline`) takes them."""
        return pipeline.FileSettings(self.options, self.enabled, self.project_root)


@dataclass(slots=True, repr=False)
class Deferred(FileResult):
    """A first pass's result (`Job.defer`; never returned by `run_streamed`): the file's text passes the
    prefilter, and its analysis waits for the second pass, which runs the analyses largest first; `cost`:
    the length of the text."""

    path: Path
    display: str
    cost: int
    stamp: FileStamp | None = None


def display_path(path: Path, cwd: str | None = None) -> str:
    """The path as reports show it: relative to the working directory when below it, with `/`. cwd: the
    working directory (`os.getcwd()`), when the caller knows it (a run asks for every file's)."""
    if not path.is_absolute():
        shown = os.path.normpath(path)  # what relpath gives for a relative path, without two abspath calls
        if not shown.startswith(".."):
            return shown.replace(os.sep, "/")
    text = str(path)
    cwd = cwd or os.getcwd()
    below = cwd if cwd.endswith(os.sep) else cwd + os.sep
    if is_normal(text) and text != cwd:
        # relpath's answer without its two abspath calls (most of a warm run's cost per file): the path
        # below the working directory, or (a path elsewhere: relpath would start with "..") as it is
        shown = text[len(below) :] if text.startswith(below) else text
        return shown.replace(os.sep, "/")
    try:
        rel = os.path.relpath(path)
    except ValueError:
        rel = text
    shown = text if rel.startswith("..") else rel
    return shown.replace(os.sep, "/")


# --- one file --------------------------------------------------------------------------------------


def run_file(job: Job, defer: bool = False) -> FileResult:
    """Read one file and run `job` on it. Never raises. (`run_batch` gives it its recursion headroom.)
    defer: as `Job.defer` (either asks for it)."""
    return _run_file(job, defer or job.defer)


@contextlib.contextmanager
def _recursion_budget() -> Iterator[None]:
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
        size = os.stat(job.path).st_size
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
    hold a finding (`clean_by_bytes`) gets the result `_check` gives it (`Checked`, nothing found) without
    being prepared: most files of a tree."""
    if job.mode is Mode.CHECK and not job.kept and clean_by_bytes(job.path, raw, job.include_generated):
        return Checked(job.path, job.display)
    return _run_decoded(job, raw, defer)


def _run_decoded(job: Job, raw: bytes, defer: bool) -> FileResult:
    """Run `job` on its file's bytes, decoded (a file that does not decode is SPMD901), without their test."""
    try:
        source = decode(job.path, raw)
    except FileError as err:
        return Unreadable(job.path, job.display, str(err))
    return run_source(job, source, defer)


def clean_by_bytes(path: str | Path, raw: bytes, include_generated: bool = False) -> bool:
    """True when a check of the module at `path` (a path or its string), whose bytes are `raw`, ends
    `Checked` with nothing found, as its bytes show: `cleared_by_bytes`, and `decode` reads them as UTF-8,
    which a plain ASCII text (`files.plain_ascii`) shows without being decoded. False also for a text that
    does not decode (the full run reports it, SPMD901)."""
    if not cleared_by_bytes(path, raw, include_generated):
        return False
    if plain_ascii(raw):
        return True
    try:
        source = decode(Path(path), raw)
    except FileError:
        return False
    return source.encoding in ("utf-8", "utf-8-sig")


def cleared_by_bytes(path: str | Path, raw: bytes, include_generated: bool = False) -> bool:
    """True when the module at `path` (a path or its string), whose bytes are `raw`, cannot hold a finding
    if `decode` reads them as UTF-8 (the caller checks that): `prefilter.utf8_may_have_findings` says so,
    and neither would `prepare` skip the text (`@generated`, unless `include_generated`) nor read it as JSON
    (a notebook)."""
    return (
        not str(path).endswith(".ipynb")
        and (include_generated or not _marked_generated(raw))
        and not utf8_may_have_findings(raw)
    )


_GENERATED = pipeline.GENERATED_MARK.encode()  # (ASCII: its bytes are in any UTF-8 text that holds it)


def _marked_generated(raw: bytes) -> bool:
    """Whether the mark `pipeline.is_generated` looks for is in the bytes of its first lines (the text's
    first `GENERATED_LINES` lines, split at "\n" as it splits them), without a scan of the whole file."""
    end = -1
    for _ in range(pipeline.GENERATED_LINES):
        end = raw.find(b"\n", end + 1)
        if end < 0:
            end = len(raw)
            break
    return raw.find(_GENERATED, 0, end) >= 0


def _traceback() -> str:
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
        return Unreadable(job.path, job.display, str(err))
    except Exception:  # noqa: BLE001 - the one place a bug in analysis is caught and reported per file
        error = _traceback()
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


def _edits(text: str, findings: Sequence[Finding]) -> dict[str, tuple[Edit, ...] | str]:
    fixes = [x for f in findings for x in f.fixes]
    if not fixes:
        return {}
    try:
        return pipeline.fix_edits(text, fixes)
    except Exception as err:  # noqa: BLE001 - libcst failing must not lose the findings
        return {x.key: f"edits not built: {err}" for x in fixes}


def _index(job: Job) -> ProjectIndex:
    """The index of the project the file belongs to, for the analysis to follow imports of the project."""
    from spmdfix.api import project_index  # the analysis: imported where files are checked (a worker)

    return project_index(job.path, pipeline.project_root_of(job.path, job.settings))


def _check(job: Job, source: SourceFile, prepared: pipeline.Prepared) -> Checked:
    if not job.kept and not may_have_findings(prepared.text):
        # No finding, nor a left-out cell's: the same result without the analysis and without looking for
        # the project (a stat walk up the tree per file: a third of a cold run's CPU on a large corpus).
        return Checked(job.path, job.display)
    index = _index(job)
    with index.recording() as depends:  # the other modules read: the results cache checks them
        checked = pipeline.check_prepared(prepared, job.settings, path=job.path, index=index, prefiltered=job.kept)
    # For the results cache: everything the index read or looked for, a superset of `depends` (a summary
    # computed for one module and served to another names only the modules of the functions it crossed).
    depends = [*sorted(set(depends) | set(index.everything_read())), (PROJECT_ROOT_KEY, str(index.root))]
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
        edits=_edits(text, reported) if job.want_edits and reported else None,
        depends=tuple(depends),
        unfollowed=checked.unfollowed,
    )


def _fix(job: Job, source: SourceFile, prepared: pipeline.Prepared) -> Checked | Fixed:
    if not may_have_findings(prepared.text):
        # Nothing to fix or report (nor a left-out cell's syntax error: `Prepared.extra_findings`): what
        # `fix_prepared` gives such a text, without importing the analysis for it (a small tree runs in the
        # main process, which `check` spares that import) nor looking for the project.
        return _result(job, source, prepared, prepared.text, (), (), (), 0)
    index = _index(job)
    with index.recording() as read:
        fixed = pipeline.fix_prepared(prepared, job.settings, path=job.path, index=index)
    # The other modules read: `cross_module_fixes` analyses the file again when a fix of this run changed one
    # of them (this analysis saw them as they were on disk).
    depends = tuple(read)
    return _result(
        job,
        source,
        prepared,
        fixed.text,
        fixed.remaining,
        fixed.applied,
        fixed.errors,
        fixed.suppressed,
        found_before=fixed.found_before,
        unfollowed=fixed.unfollowed,
        depends=depends,
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
) -> Checked | Fixed:
    """The result of a fix or noqa run on a file that gave `new_text` (`Fixed` when it differs from the
    prepared text and renders as the file's new content, else `Checked`)."""
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
    parsed = may_have_findings(prepared.text)
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
        depends=depends,
        unfollowed=unfollowed,
        errors=errors,
        noqa_skipped=noqa_skipped,
        found_before=found_before,
    )


def _add_noqa(job: Job, source: SourceFile, prepared: pipeline.Prepared) -> Checked | Fixed:
    from spmdfix import noqa  # (`add-noqa` only)

    where = {"path": job.path, "index": _index(job) if may_have_findings(prepared.text) else None}
    reported, suppressed, _ = pipeline.findings_of(prepared, prepared.text, job.settings, **where)
    # A finding in another module is suppressed by that module's comment: none is added here for it.
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


# --- many files ------------------------------------------------------------------------------------


def run_batch(
    jobs: Sequence[Job], progress: Callable[[int], None] = lambda n: None, defer: bool = False
) -> list[FileResult]:
    """`run_file` for each job, each with `RECURSION_BUDGET` frames to spare (one task of a worker process,
    or the whole run in one process: the same frames either way); `progress(1)` after each file. defer: run
    every job as if its `Job.defer` were set (without a copy of each job: `dataclasses.replace` of every job
    of a large tree cost the main process, which feeds the workers, a tenth of a second)."""
    out = []
    with _recursion_budget():
        for job in jobs:
            out.append(run_file(job, defer))
            progress(1)
    return out


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[Executor | None]:
    """Worker processes for `run_jobs`, started now (None when `workers` <= 1).

    The workers need the analysis (`spmdfix.api`, 50-100 ms of CPU to import on the benchmark machine). Where
    they are forked (multiprocessing's default on Linux) this process imports it once before starting them and
    they inherit it: with two workers, 0.13-0.16 s of CPU in the workers' starts became one import of
    0.07-0.09 s here (measured under load on the 2-CPU machine, where every CPU second of a run is shared);
    the workers are ready as soon as they would have been after importing it themselves. Elsewhere each worker
    imports it as it starts (`_import_analysis`).
    """
    if workers <= 1:
        yield None
        return
    import multiprocessing
    from concurrent.futures import (
        ProcessPoolExecutor,  # 20 ms of imports: only with workers
    )

    if multiprocessing.get_start_method() == "fork":
        import spmdfix.api  # noqa: F401 - inherited by the forked workers

    with ProcessPoolExecutor(max_workers=workers, initializer=_import_analysis) as pool:
        for _ in range(workers):
            pool.submit(int)  # a no-op task: the pool starts its workers now, not at the first real batch
        yield pool


def _run_isolated(jobs: list[Job], workers: int, defer: bool = False) -> list[FileResult]:
    """Run again the jobs that a dying worker (a crash in a C extension, the OOM killer) took down with it:
    all in a fresh pool one job per task, then each one still unfinished alone in a pool of its own. Only a
    job that kills a pool of its own is reported `Failed`; the others keep their results. defer: as
    `run_batch`'s."""
    done: dict[int, FileResult] = {}
    _run_in_fresh_pool(jobs, range(len(jobs)), workers, done, defer)
    for i in [i for i in range(len(jobs)) if i not in done]:
        _run_in_fresh_pool(jobs, [i], 1, done, defer)
        if i not in done:
            message = "the worker process died while analysing this file (run alone, it died again)"
            done[i] = Failed(jobs[i].path, jobs[i].display, message)
    return [done[i] for i in range(len(jobs))]


def _run_in_fresh_pool(
    jobs: list[Job], which: Iterable[int], workers: int, done: dict[int, FileResult], defer: bool = False
) -> None:
    """Run `jobs[i]` for each i of `which`, one per task, in a new pool of `workers`; record in `done` each
    that finished (a job lost when a worker died is left out)."""
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    which = list(which)
    if not which:
        return
    with ProcessPoolExecutor(max_workers=min(workers, len(which)), initializer=_import_analysis) as pool:
        futures = {i: f for i in which if (f := _submit(pool, [jobs[i]], defer)) is not None}
        for i, future in futures.items():
            try:
                done[i] = _unpacked(future.result(), [jobs[i]])[0]
            except BrokenProcessPool:
                pass  # this job or another one killed the pool
            except Exception:  # noqa: BLE001 - a result that cannot be sent back fails its file only
                done[i] = Failed(jobs[i].path, jobs[i].display, _traceback())


def _submit(pool: Executor, batch: list[Job], defer: bool = False) -> Future | None:
    """`run_batch(batch)` submitted to `pool`, the jobs and outcomes packed (`_pack_jobs`, `_pack_outcomes`:
    read the result with `_unpacked`); None when the pool is already broken (a worker died)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool.submit(_run_packed, _pack_jobs(batch), defer)
    except BrokenProcessPool:
        return None


# --- what goes between the processes -------------------------------------------------------------------
# A batch of jobs and its outcomes are pickled to and from a worker. Pickled as they are, each job and each
# outcome rebuilds a dataclass field by field and its path part by part: for the 3,343 files of the
# reference corpus 0.22-0.25 s of CPU in all (jobs 0.02-0.03 s to pickle in the main process and 0.08 s to
# load in a worker, outcomes 0.03-0.04 s and 0.09 s; least of 3 in one process), against 0.09 s packed. Most
# of it was repeated: the jobs of a batch differ only in their path and display (the rest is the same
# settings' objects), and most outcomes are "checked, nothing found" or a first pass's "deferred" with its
# cost, which the job they answer rebuilds.

_SHARED = tuple(f.name for f in dataclasses.fields(Job) if f.name not in ("path", "display"))


def _pack_jobs(batch: list[Job]) -> tuple | list[Job]:
    """`batch` for a worker (`_unpack_jobs`): (the fields but path and display that every job shares, the
    paths as strings, the displays); the list itself when the jobs differ in another field."""
    shared = _shared_fields(batch[0])
    if all(_shared_fields(job) == shared for job in batch):
        return shared, [str(job.path) for job in batch], [job.display for job in batch]
    return batch


# (an attrgetter: one call in C per job, where a generator of getattr calls cost the main process, which
# packs every batch, 0.02-0.03 s for the reference corpus)
_shared_fields = operator.attrgetter(*_SHARED)


def _unpack_jobs(packed: tuple | list[Job]) -> list[Job]:
    if isinstance(packed, list):
        return packed
    shared, paths, displays = packed
    return [Job(Path(path), display, *shared) for path, display in zip(paths, displays)]


_MODE, _INCLUDE_GENERATED, _MAX_BYTES, _STAMP, _KEPT = (
    _SHARED.index(name) for name in ("mode", "include_generated", "max_bytes", "stamp", "kept")
)


def _run_packed(packed: tuple | list[Job], defer: bool) -> list:
    """A worker's task: `run_batch` of the packed jobs, its outcomes packed (`_pack_outcomes`).

    A check without stamps (`--no-cache`) reads each file by its path's string first: a module its bytes
    clear (`clean_by_bytes`, most files of a tree) is packed as None without a `Path`, a `Job` or a
    result built for it (9% of the instructions of a first pass over the 3,330 files of the reference
    corpus); the others run as `run_batch` runs them, from the bytes read."""
    if isinstance(packed, list):
        return _pack_outcomes(run_batch(packed, defer=defer))
    shared, paths, displays = packed
    if shared[_MODE] is not Mode.CHECK or shared[_KEPT] or shared[_STAMP]:
        return _pack_outcomes(run_batch(_unpack_jobs(packed), defer=defer))
    include_generated, max_bytes = shared[_INCLUDE_GENERATED], shared[_MAX_BYTES]
    out: list = []
    with _recursion_budget():
        for path, display in zip(paths, displays):
            try:
                raw = read_bytes(path, max_bytes)
            except (OSError, TooLarge):  # reported as `run_file` reports it (reading it again)
                out.append(_packed(run_file(Job(Path(path), display, *shared), defer)))
                continue
            if clean_by_bytes(path, raw, include_generated):
                out.append(None)  # what `_pack_outcomes` sends for its plain `Checked` result
            else:
                out.append(_packed(_run_decoded(Job(Path(path), display, *shared), raw, defer)))
    return out


# A `Checked` result's fields but its path and display, and their defaults (a file with nothing to report).
_CHECKED_REST = operator.attrgetter(*(f.name for f in dataclasses.fields(Checked) if f.name not in ("path", "display")))
_PLAIN_REST = _CHECKED_REST(Checked(Path(), ""))


def _pack_outcomes(outcomes: list[FileResult]) -> list:
    """Each result as the main process reads it back (`_unpacked`): None for a `Checked` one with every other
    field at its default, the cost (an int) for a `Deferred` one without a stamp, else the result itself."""
    return [_packed(outcome) for outcome in outcomes]


def _packed(outcome: FileResult) -> FileResult | int | None:
    """One result as `_pack_outcomes` sends it."""
    kind = outcome.__class__
    if kind is Checked and _CHECKED_REST(outcome) == _PLAIN_REST:
        return None
    if kind is Deferred and outcome.stamp is None:
        return outcome.cost
    return outcome


def _unpacked(packed: list, batch: Sequence[Job]) -> list[FileResult]:
    """The results of `batch` from what `_run_packed` returned for it."""
    out: list[FileResult] = []
    for job, item in zip(batch, packed, strict=True):
        if item is None:
            out.append(Checked(job.path, job.display))
        elif item.__class__ is int:
            out.append(Deferred(job.path, job.display, item))
        else:
            out.append(item)
    return out


def _import_analysis() -> None:
    """A worker's start: import the analysis, and keep the trees it parses (`perf.retain_trees`: the worker
    ends with `os._exit`, which frees nothing, so freeing them would be work for nothing)."""
    import spmdfix.api  # noqa: F401 - what every task of the worker needs

    retain_trees(RETAIN_CHARS)


def run_jobs(
    jobs: Sequence[Job],
    workers: int,
    progress: Callable[[int], None] = lambda n: None,
    pool: Executor | None = None,
) -> list[FileResult]:
    """Run every job, in `workers` processes when more than one (in-process otherwise), results in job order.

    Jobs go to the workers (`pool` when given, else a `worker_pool` of its own) in small batches.
    `progress(n)` is called as files finish. A worker process that dies (a crash in a C extension, the OOM
    killer) breaks the pool: the files not finished by then run again (`_run_isolated`), and only a file
    that kills a worker of its own is reported `Failed`.
    """
    if workers <= 1 or len(jobs) <= 1:
        return run_batch(jobs, progress)
    if pool is None:
        with worker_pool(min(workers, len(jobs))) as own:
            return _run_in(own, jobs, workers, progress)
    return _run_in(pool, jobs, workers, progress)


def stream_jobs(
    jobs: Iterable[Job], pool: Executor, workers: int, defer: bool = False
) -> tuple[list[Job], list[FileResult]]:
    """Run jobs as they come (from a discovery still walking), in batches of `STREAM_BATCH` on `pool`;
    the jobs and their outcomes, in the order the jobs came. A worker that dies is handled as in `run_jobs`
    defer: as `run_batch`'s."""
    from concurrent.futures import wait

    batches: list[list[Job]] = []
    futures: list[Future | None] = []  # None: not submitted, the pool had broken
    for job in jobs:
        if not batches or len(batches[-1]) == STREAM_BATCH:
            if batches:
                futures.append(_submit(pool, batches[-1], defer))
            batches.append([])
        batches[-1].append(job)
    if batches:
        futures.append(_submit(pool, batches[-1], defer))
    wait([f for f in futures if f is not None])
    return [job for batch in batches for job in batch], _collect(futures, batches, workers, defer)


def run_streamed(jobs: Iterable[Job], workers: int) -> tuple[list[Job], list[FileResult]]:
    """Run jobs as a walk yields them; the jobs and their outcomes, in the order the jobs came.

    Two passes. The first reads each file and runs it, except that a text passing the prefilter is only
    measured (`Job.defer`): in one process when the walk ends within `SMALL_TREE` files or `workers` is 1,
    else streamed to `workers` processes while the walk goes on (`stream_jobs`). The second analyses the
    deferred texts largest first, one per task, so that the workers finish together (longest processing
    time first): in the workers, or in this process when there is one text or they are short
    (`PARALLEL_COST`). A worker that dies is handled as in `run_jobs`.
    """
    import itertools

    jobs = iter(jobs)
    head = list(itertools.islice(jobs, SMALL_TREE))
    if workers <= 1 or len(head) < SMALL_TREE:
        every = [*head, *jobs]
        first = run_batch(every, defer=True)
        return every, _deferred(every, first, workers, None)
    with worker_pool(workers) as pool:
        assert pool is not None
        every, first = stream_jobs(itertools.chain(head, jobs), pool, workers, defer=True)
        return every, _deferred(every, first, workers, pool)


def _deferred(jobs: list[Job], outcomes: list[FileResult], workers: int, pool: Executor | None) -> list[FileResult]:
    """`outcomes` with each `Deferred` one replaced by the job's full run, largest text first."""
    order = sorted((i for i, o in enumerate(outcomes) if o.__class__ is Deferred), key=lambda i: -outcomes[i].cost)
    if not order:
        return outcomes
    # (the first pass ran the prefilter on these texts: `Job.kept` spares the second pass its scans)
    todo = [dataclasses.replace(jobs[i], kept=True) for i in order]
    parallel = workers > 1 and len(todo) > 1
    if pool is None and parallel and sum(outcomes[i].cost for i in order) >= PARALLEL_COST:
        with worker_pool(min(workers, len(todo))) as own:
            assert own is not None
            done = _one_per_task(own, todo, workers)
    elif pool is not None and parallel:
        done = _one_per_task(pool, todo, workers)
    else:
        done = run_batch(todo)
    out = list(outcomes)
    for i, outcome in zip(order, done):
        out[i] = outcome
    return out


def _one_per_task(pool: Executor, jobs: list[Job], workers: int) -> list[FileResult]:
    """Each job a task of its own, submitted in order (the pool hands them out first come, first served)."""
    batches = [[job] for job in jobs]
    return _collect([_submit(pool, batch) for batch in batches], batches, workers)


def _run_in(pool: Executor, jobs: Sequence[Job], workers: int, progress: Callable[[int], None]) -> list[FileResult]:
    from concurrent.futures import as_completed

    size = max(1, min(BATCH_MAX, len(jobs) // (workers * 8)))
    batches = [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]
    futures = [_submit(pool, batch) for batch in batches]
    sizes = {f: len(b) for f, b in zip(futures, batches) if f is not None}
    for future in as_completed(sizes):
        progress(sizes[future])
    return _collect(futures, batches, workers)


def _collect(
    futures: list[Future | None], batches: list[list[Job]], workers: int, defer: bool = False
) -> list[FileResult]:
    """The outcomes of finished batches, in order; the jobs of batches a dying worker took down (or that
    were never submitted) are run again by `_run_isolated` (deferring as the batches did)."""
    results = [_batch_result(f, b) if f is not None else None for f, b in zip(futures, batches)]
    lost = [job for batch, result in zip(batches, results) if result is None for job in batch]
    again = iter(_run_isolated(lost, workers, defer))
    out: list[FileResult] = []
    for batch, result in zip(batches, results):
        out.extend(result if result is not None else [next(again) for _ in batch])
    return out


def _batch_result(future: Future, batch: list[Job]) -> list[FileResult] | None:
    """The batch's outcomes; None when its worker died (the pool is broken)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return _unpacked(future.result(), batch)
    except BrokenProcessPool:
        return None
    except Exception:  # noqa: BLE001 - a result that cannot be sent back fails its batch only
        message = _traceback()
        return [Failed(job.path, job.display, message) for job in batch]


# --- fixes that edit other modules -------------------------------------------------------------------


MAX_ROUNDS = 4  # rounds of `cross_module_fixes`: each fix that changes a module re-analyses its readers once

@record(frozen=True)
class CrossModuleFixes:
    """What `cross_module_fixes` changed: the (old, new) text of every module it changed by absolute path,
    the fixes applied and the findings left per job index, and errors."""

    texts: dict[str, tuple[str, str]]
    applied_by: dict[int, tuple[Fix, ...]]
    remaining: dict[int, tuple[Finding, ...]]
    errors: tuple[str, ...]


def cross_module_fixes(jobs: Sequence[Job], outcomes: Sequence[FileResult]) -> CrossModuleFixes:
    """The second step of `fix`: apply, with `api.fix_modules`, the chosen fixes that edit other modules of
    the project (a strip in the callee's file, an axis added to a mesh in another module), and analyse again
    each module whose analysis read a module that a fix of this run changed (`Checked.depends`): the
    first step analysed every file against the files as they were on disk, so its findings and fixes may
    describe a collision a fix of another file has removed. In this process, one module after the other
    (two modules may edit the same third one), in rounds until no changed module is left unseen
    (`MAX_ROUNDS`). Notebooks are left to the first step. Starts from the texts the first step produced;
    writes nothing."""
    texts = {str(o.path.resolve()): o.new_text for o in outcomes if isinstance(o, Fixed) and o.cells is None}
    before = dict(texts)
    applied: dict[int, tuple[Fix, ...]] = {}
    remaining: dict[int, tuple[Finding, ...]] = {}
    errors: list[str] = []
    clock = 1
    changed_at = dict.fromkeys(texts, clock)  # path -> the time a fix of this run last changed it
    seen: dict[int, int] = {}  # job index -> the time of its last analysis here (the first step's: 0)
    for _ in range(MAX_ROUNDS):
        ran = False
        for i, (job, o) in enumerate(zip(jobs, outcomes)):
            if not isinstance(o, (Checked, Fixed)) or o.cells is not None or job.mode is not Mode.FIX:
                continue
            if not o.depends and not o.findings:
                continue  # (most files of a tree: nothing read, nothing to fix; no path resolved for them)
            own = str(job.path.resolve())
            stale = any(changed_at.get(path, 0) > seen.get(i, 0) for path, _ in o.depends if path != own)
            if i not in seen:
                chosen = [job.settings.chosen(f) for f in o.findings]
                stale = stale or any(fix is not None and fix.edits_other_modules for fix in chosen)
            if not stale:
                continue
            # The analysis is imported here, not above: a run without cross-module work (most) then never
            # imports it in this process (its workers analysed the files; the import costs 0.1 s here).
            from spmdfix.api import fix_modules, project_index

            ran = True
            root = project_index(job.path, job.project_root).root

            def split(text: str, findings: list[Finding], enabled=job.enabled) -> tuple[list[Finding], list[Finding]]:
                return pipeline.select(text, findings, enabled)

            result = fix_modules([job.path], job.options, root, split, texts)
            if result.texts:
                clock += 1
                for path, text in result.texts.items():
                    if texts.get(path) != text:
                        changed_at[path] = clock
                texts.update(result.texts)
            seen[i] = clock
            applied[i] = applied.get(i, ()) + result.applied
            errors.extend(f"{job.display}: {e}" for e in result.errors)
            remaining[i] = result.remaining.get(own, o.findings)
        if not ran:
            break
    from spmdfix.files import text_of

    changed = {}
    for path, new in texts.items():
        old = before.get(path) or text_of(path)
        if old is not None and new != old:
            changed[path] = (old, new)
    return CrossModuleFixes(changed, applied, remaining, tuple(errors))
