"""The worker processes, and what happens when one dies: its files are run again, and only a file that kills
a worker of its own fails.

Batches go to the workers packed (`spmdfix.runner.wire`). A worker process that dies (a crash in a C
extension, the OOM killer) breaks the pool: `collect` gives the results of the batches that finished and
runs the others again (`_run_isolated`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING

from spmdfix.perf import gc_paused, keep_freed_memory, retain_trees
from spmdfix.results import Failed, FileResult
from spmdfix.runner.job import Job
from spmdfix.runner.one_file import current_traceback, keep_roots_in_process
from spmdfix.runner.wire import pack_jobs, run_packed, unpack_results

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

# Characters of source whose `ast` trees a worker keeps instead of freeing them (`perf.retain_trees`): about
# 100 MB of trees at most, so that a worker stays well under the 300 MB a process may take.
RETAIN_CHARS = 4_000_000


@contextlib.contextmanager
def worker_pool(workers: int) -> Iterator[Executor | None]:
    """Worker processes for `run_jobs`, started now (None when `workers` <= 1).

    The workers need the analysis (`spmdfix.api`, 50-100 ms of CPU to import on the benchmark machine). Where
    they are forked (multiprocessing's default on Linux) this process imports it once before starting them and
    they inherit it: with two workers, 0.13-0.16 s of CPU in the workers' starts became one import of
    0.07-0.09 s here (measured under load on the 2-CPU machine, where every CPU second of a run is shared);
    the workers are ready as soon as they would have been after importing it themselves. Elsewhere each worker
    imports it as it starts (`_import_analysis`). Forked workers also inherit the allocator's setting to keep
    the memory a parse frees for the next (`perf.keep_freed_memory`: a fifth fewer page faults). The collector is paused during these imports: its passes
    over what they allocate were 15 M instructions and 10-20 ms of CPU of the serial start (bench/README.md,
    "The imports before the fork").
    """
    if workers <= 1:
        yield None
        return
    with gc_paused():  # (imports: many long-lived objects and no garbage, `perf.gc_paused`)
        import multiprocessing
        from concurrent.futures import (
            ProcessPoolExecutor,  # 20 ms of imports: only with workers
        )

        if multiprocessing.get_start_method() == "fork":
            import spmdfix.api  # noqa: F401 - inherited by the forked workers
            import spmdfix.noqa
            import spmdfix.notebook  # noqa: F401 - (every worker reads suppression comments, most read a notebook)
            from spmdfix import prefilter

            prefilter.load()  # (its patterns too: compiled once here, not in each worker)

            keep_freed_memory()  # (inherited too: each parse of a worker reuses the memory of the one before)

    with ProcessPoolExecutor(max_workers=workers, initializer=_import_analysis) as pool:
        for _ in range(workers):
            pool.submit(int)  # a no-op task: the pool starts its workers now, not at the first real batch
        yield pool


def _import_analysis() -> None:
    """A worker's start: import the analysis, keep the trees it parses (`perf.retain_trees`: the worker
    ends with `os._exit`, which frees nothing, so freeing them would be work for nothing) and the project
    roots it finds (`one_file.keep_roots_in_process`: the worker ends with the run)."""
    with gc_paused():
        import spmdfix.api  # noqa: F401 - what every task of the worker needs
        from spmdfix import prefilter

        prefilter.load()

    retain_trees(RETAIN_CHARS)
    keep_roots_in_process()


def _run_in_worker(packed: tuple | list[Job], defer: bool) -> list:
    """A worker's task: `run_packed`, then the words the batch found in the project's files and the
    judgement's listings it made written to the run's stores (`cache_graph.flush_project_stores`: the stores
    are the main process's, inherited by the fork; the next run checks a result resting on them without
    reading the files again)."""
    try:
        return run_packed(packed, defer)
    finally:
        from spmdfix.cache_graph import flush_project_stores

        flush_project_stores()


def submit(pool: Executor, batch: list[Job], defer: bool = False) -> Future | None:
    """`run_batch(batch)` submitted to `pool`, the jobs and outcomes packed (`pack_jobs`, `pack_results`:
    read the result with `unpack_results`); None when the pool is already broken (a worker died)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        return pool.submit(_run_in_worker, pack_jobs(batch), defer)
    except BrokenProcessPool:
        return None


def collect(
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
        return unpack_results(future.result(), batch)
    except BrokenProcessPool:
        return None
    except Exception:  # noqa: BLE001 - a result that cannot be sent back fails its batch only
        message = current_traceback()
        return [Failed(job.path, job.display, message) for job in batch]


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
        futures = {i: f for i in which if (f := submit(pool, [jobs[i]], defer)) is not None}
        for i, future in futures.items():
            try:
                done[i] = unpack_results(future.result(), [jobs[i]])[0]
            except BrokenProcessPool:
                pass  # this job or another one killed the pool
            except Exception:  # noqa: BLE001 - a result that cannot be sent back fails its file only
                done[i] = Failed(jobs[i].path, jobs[i].display, current_traceback())
