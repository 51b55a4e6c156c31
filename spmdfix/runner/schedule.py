"""How a run's files are spread over the processes: batches to a pool (`run_jobs`), and the
two passes of a run streamed from a walk (`run_streamed`: read everything, and analyse the texts that pass
the prefilter largest first).
"""

from __future__ import annotations

import dataclasses
import heapq
from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

from spmdfix.results import FileResult
from spmdfix.runner.job import Job
from spmdfix.runner.one_file import Deferred, run_batch
from spmdfix.runner.pool import batch_result, collect, run_isolated, submit, worker_pool

if TYPE_CHECKING:
    from concurrent.futures import Executor, Future

BATCH_MAX = 16  # files per task at most when the total is known (`run_jobs`)
STREAM_BATCH = 32  # files per task of a first pass when the total is not known yet (`_interleaved`)
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
    killer) breaks the pool: the files not finished by then run again (`run_isolated`), and only a file
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


def run_streamed(jobs: Iterable[Job], workers: int) -> tuple[list[Job], list[FileResult]]:
    """Run jobs as a walk yields them; the jobs and their outcomes, in the order the jobs came.

    Two passes. The first reads each file and runs it, except that a text passing the prefilter is only
    measured (`Job.defer`); the second analyses those texts. In one process when the walk ends within
    `SMALL_TREE` files or `workers` is 1: the first pass over every file, then the analyses largest first
    (in workers when there is more than one text and they are long, `PARALLEL_COST`). Else both passes go to
    `workers` processes while the walk goes on (`_interleaved`): each text the first pass keeps is analysed
    as soon as a worker is free, largest first, before the rest of the first pass. A worker that dies is
    handled as in `run_jobs`.
    """
    import itertools

    jobs = iter(jobs)
    head = list(itertools.islice(jobs, SMALL_TREE))
    if workers <= 1 or len(head) < SMALL_TREE:
        every = [*head, *jobs]
        first = run_batch(every, defer=True)
        return every, _deferred(every, first, workers)
    with worker_pool(workers) as pool:
        assert pool is not None
        return _interleaved(itertools.chain(head, jobs), pool, workers)


# Tasks `_interleaved` keeps submitted and unfinished per worker: one running and one waiting, so that a
# worker never waits for the main process, while an analysis found later still goes before most of the
# first pass.
IN_FLIGHT_PER_WORKER = 2


def _interleaved(jobs: Iterable[Job], pool: Executor, workers: int) -> tuple[list[Job], list[FileResult]]:
    """Both passes of `run_streamed` on `pool`, the second overlapping the first; the jobs and their outcomes
    in the order the jobs came.

    Tasks are submitted a few at a time (`IN_FLIGHT_PER_WORKER`): an analysis waiting (a text a first-pass
    batch kept, `Deferred`, one per task, the longest first) goes before the next batch of the first pass
    (`STREAM_BATCH` files, read from the walk only then). Before, every analysis waited for the end of the
    walk: the barrier left a worker idle at both ends of the second pass, and jax's pjit_test.py, whose
    analysis is the run's longest task, started only after every file had been read. A worker that dies
    breaks the pool: what was not finished then runs again (`run_isolated`), the first pass's jobs before
    their analyses."""
    import itertools
    from concurrent.futures import FIRST_COMPLETED, wait

    every: list[Job] = []
    outcomes: list[FileResult | None] = []
    batches: dict[Future, list[int]] = {}  # a first pass's batch: the indices of its jobs
    analyses: dict[Future, tuple[int, int]] = {}  # an analysis: (-cost, its job's index)
    waiting: list[tuple[int, int]] = []  # (-cost, index) of the kept texts not submitted yet
    lost: list[int] = []  # first-pass jobs of batches a dying worker took down (or never submitted)
    limit = IN_FLIGHT_PER_WORKER * workers
    walk = iter(jobs)
    walking, broken = True, False
    while True:
        while not broken and len(batches) + len(analyses) < limit and (waiting or walking):
            if waiting:
                cost, i = heapq.heappop(waiting)
                future = submit(pool, [dataclasses.replace(every[i], kept=True)])
                if future is None:
                    heapq.heappush(waiting, (cost, i))
                    broken = True
                else:
                    analyses[future] = (cost, i)
                continue
            batch = list(itertools.islice(walk, STREAM_BATCH))
            if not batch:
                walking = False
                continue
            indices = list(range(len(every), len(every) + len(batch)))
            every += batch
            outcomes += [None] * len(batch)
            future = submit(pool, batch, defer=True)
            if future is None:
                lost += indices
                broken = True
            else:
                batches[future] = indices
        if not batches and not analyses:
            break
        done, _ = wait([*batches, *analyses], return_when=FIRST_COMPLETED)
        for future in done:
            if future in batches:
                indices = batches.pop(future)
                result = batch_result(future, [every[i] for i in indices])
                if result is None:
                    lost += indices
                    broken = True
                    continue
                for i, outcome in zip(indices, result):
                    _settle(i, outcome, outcomes, waiting)
            else:
                cost, i = analyses.pop(future)
                result = batch_result(future, [every[i]])
                if result is None:
                    heapq.heappush(waiting, (cost, i))  # (run again below)
                    broken = True
                else:
                    outcomes[i] = result[0]
    if broken:
        rest = list(walk)  # (the files the walk had not given yet)
        lost += range(len(every), len(every) + len(rest))
        every += rest
        outcomes += [None] * len(rest)
        for i, outcome in zip(lost, run_isolated([every[i] for i in lost], workers, defer=True)):
            _settle(i, outcome, outcomes, waiting)
        order = [i for _, i in sorted(waiting)]
        todo = [dataclasses.replace(every[i], kept=True) for i in order]
        for i, outcome in zip(order, run_isolated(todo, workers)):
            outcomes[i] = outcome
    assert all(o is not None for o in outcomes)
    return every, outcomes  # type: ignore[return-value]


def _settle(i: int, outcome: FileResult, outcomes: list[FileResult | None], waiting: list[tuple[int, int]]) -> None:
    """Record the first pass's `outcome` of job `i`; a `Deferred` one waits for its analysis instead."""
    if outcome.__class__ is Deferred:
        heapq.heappush(waiting, (-outcome.cost, i))  # type: ignore[attr-defined]
    else:
        outcomes[i] = outcome


def _deferred(jobs: list[Job], outcomes: list[FileResult], workers: int) -> list[FileResult]:
    """`outcomes` (of a first pass in this process) with each `Deferred` one replaced by the job's full run,
    largest text first: in workers of a pool of its own when there is more than one text and they add up to
    `PARALLEL_COST`, else in this process."""
    order = sorted((i for i, o in enumerate(outcomes) if o.__class__ is Deferred), key=lambda i: -outcomes[i].cost)
    if not order:
        return outcomes
    # (the first pass ran the prefilter on these texts: `Job.kept` spares the second pass its scans)
    todo = [dataclasses.replace(jobs[i], kept=True) for i in order]
    if workers > 1 and len(todo) > 1 and sum(outcomes[i].cost for i in order) >= PARALLEL_COST:
        with worker_pool(min(workers, len(todo))) as own:
            assert own is not None
            done = _one_per_task(own, todo, workers)
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
