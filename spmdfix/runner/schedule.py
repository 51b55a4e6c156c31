"""How a run's files are spread over the processes: batches to a pool (`run_jobs`, `stream_jobs`), and the
two passes of a run streamed from a walk (`run_streamed`: read everything, then analyse the texts that pass
the prefilter largest first).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from spmdfix.results import FileResult
from spmdfix.runner.job import Job
from spmdfix.runner.one_file import Deferred, run_batch
from spmdfix.runner.pool import collect, submit, worker_pool

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

BATCH_MAX = 16  # files per task at most when the total is known (`run_jobs`)
STREAM_BATCH = 32  # files per task when the total is not known yet (`stream_jobs`)
# `run_streamed`: a walk that ends within this many files is read in one process (starting workers costs
# more than such a tree's prefilter), whose analyses go to workers only when their texts add up to
# PARALLEL_COST characters (about 0.2 s of analysis on the 2-CPU benchmark machine).
SMALL_TREE = 400
PARALLEL_COST = 200_000


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


def _run_in(pool: Executor, jobs: Sequence[Job], workers: int, progress: Callable[[int], None]) -> list[FileResult]:
    from concurrent.futures import as_completed

    size = max(1, min(BATCH_MAX, len(jobs) // (workers * 8)))
    batches = [list(jobs[i : i + size]) for i in range(0, len(jobs), size)]
    futures = [submit(pool, batch) for batch in batches]
    sizes = {f: len(b) for f, b in zip(futures, batches) if f is not None}
    for future in as_completed(sizes):
        progress(sizes[future])
    return collect(futures, batches, workers)


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
                futures.append(submit(pool, batches[-1], defer))
            batches.append([])
        batches[-1].append(job)
    if batches:
        futures.append(submit(pool, batches[-1], defer))
    wait([f for f in futures if f is not None])
    return [job for batch in batches for job in batch], collect(futures, batches, workers, defer)


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
    return collect([submit(pool, batch) for batch in batches], batches, workers)
