"""`runner.run_streamed`: the same outcomes as one process, whichever way it schedules the files."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import spmdfix.runner.one_file as one_file_module
import spmdfix.runner.pool as pool_module
import spmdfix.runner.schedule as schedule_module
import spmdfix.runner.wire as wire_module
from golden import GOLDEN
from spmdfix.files import forget_project_roots
from spmdfix.model import Options
from spmdfix.results import Checked, FileResult
from spmdfix.runner import Deferred, Job, run_batch, run_streamed


@pytest.fixture
def jobs(tmp_path: Path) -> list[Job]:
    """Golden inputs (most with findings) and files the prefilter drops, of different sizes."""
    out = []
    for i, case in enumerate(sorted(GOLDEN.glob("*/*/input.py"))[:24]):
        dest = tmp_path / f"c{i:02d}.py"
        shutil.copy(case, dest)
        out.append(Job(dest, dest.name, Options()))
    for i in range(8):
        dest = tmp_path / f"plain{i}.py"
        dest.write_text("x = 1\n" * (i + 1))
        out.append(Job(dest, dest.name, Options()))
    return out


@pytest.mark.parametrize("small_tree", [0, 5, 10_000])
@pytest.mark.parametrize("parallel_cost", [0, 10**9])
@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.e2e)])  # 2: forked workers
def test_the_same_outcomes_as_one_process(
    jobs: list[Job], small_tree: int, parallel_cost: int, workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(schedule_module, "SMALL_TREE", small_tree)
    monkeypatch.setattr(schedule_module, "PARALLEL_COST", parallel_cost)
    ran, outcomes = run_streamed(iter(jobs), workers)
    assert ran == jobs
    assert outcomes == run_batch(jobs)
    assert Deferred not in {type(o) for o in outcomes}
    assert sum(o.parsed for o in outcomes) > 10


@pytest.mark.e2e
def test_the_analyses_go_largest_first(jobs: list[Job], monkeypatch: pytest.MonkeyPatch) -> None:
    """Longest processing time first: the texts that pass the prefilter are analysed in decreasing size,
    one per task, after every file was read once."""
    monkeypatch.setattr(schedule_module, "SMALL_TREE", 0)
    seen: list[list[Job]] = []
    real = schedule_module._one_per_task

    def recording(pool, todo, workers):
        seen.append(todo)
        return real(pool, todo, workers)

    monkeypatch.setattr(schedule_module, "_one_per_task", recording)
    _, outcomes = run_streamed(iter(jobs), 2)
    assert len(seen) == 1
    sizes = [len(job.path.read_text()) for job in seen[0]]
    assert sizes == sorted(sizes, reverse=True)
    assert {job.path for job in seen[0]} == {o.path for o in outcomes if o.parsed}


def test_a_small_tree_with_short_texts_stays_in_one_process(jobs: list[Job], monkeypatch: pytest.MonkeyPatch) -> None:
    pools = []
    monkeypatch.setattr(schedule_module, "worker_pool", lambda n: pools.append(n))
    run_streamed(iter(jobs[:3] + jobs[-3:]), 2)
    assert pools == []


def test_deferring_a_batch_is_deferring_each_job(jobs: list[Job]) -> None:
    """`run_batch(..., defer=True)` (what `run_streamed` sends the workers, without copying every job) is
    `Job.defer` set on each job."""
    import dataclasses

    deferred = run_batch(jobs, defer=True)
    assert deferred == run_batch([dataclasses.replace(job, defer=True) for job in jobs])
    assert Deferred in {type(o) for o in deferred} and Checked in {type(o) for o in deferred}


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.e2e)])  # 2: forked workers
def test_the_second_pass_does_not_ask_the_prefilter_again(
    jobs: list[Job], workers: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A text the first pass kept is analysed without a second prefilter scan (`Job.kept`), with the same
    outcome. (In this process: with workers, the main process never asks the prefilter.)"""
    import spmdfix.api as api_module
    from spmdfix.prefilter import may_have_findings

    asked: list[str] = []

    def counting(text: str) -> bool:
        asked.append(text)
        return may_have_findings(text)

    # (`spmdfix.pipeline` asks the prefilter only of a notebook's text, importing it there: these are modules)
    for module in (one_file_module, api_module):
        monkeypatch.setattr(module, "may_have_findings", counting)
    monkeypatch.setattr(schedule_module, "SMALL_TREE", 10_000)  # the first pass in this process
    monkeypatch.setattr(schedule_module, "PARALLEL_COST", 10**9 if workers == 1 else 0)
    _, outcomes = run_streamed(iter(jobs), workers)
    kept = [o for o in outcomes if o.parsed]
    assert len(kept) > 10
    assert all(asked.count(job.path.read_text()) == 1 for job in jobs if job.path in {o.path for o in kept})
    assert outcomes == [run_batch([job])[0] for job in jobs]


def test_a_worker_keeps_its_trees_within_its_budget(jobs: list[Job], monkeypatch: pytest.MonkeyPatch) -> None:
    """`perf.retain_trees` (set by a worker's start): the trees parsed are kept, not freed, until the budget of
    characters is spent; the outcomes are the same. Any other process keeps none."""
    import gc

    import spmdfix.perf as perf_module

    expected = run_batch(jobs)
    assert perf_module._retained.trees == []  # this process is no worker
    retained = perf_module._Retained()
    monkeypatch.setattr(perf_module, "_retained", retained)
    monkeypatch.setattr(gc, "freeze", lambda: None)  # (the test process must not freeze its objects)
    kept = [job for job, outcome in zip(jobs, expected) if outcome.parsed]
    sizes = sorted(len(job.path.read_text()) for job in kept)
    # (a worker's start also keeps its project roots for the rest of the process: not this one's, after the test)
    monkeypatch.setattr(one_file_module, "_ROOTS", None)
    monkeypatch.setattr(one_file_module, "_ROOTS_CACHED", False)
    pool_module._import_analysis()  # a worker's start sets the budget
    assert retained.budget == pool_module.RETAIN_CHARS
    assert one_file_module._ROOTS == {} and one_file_module._ROOTS_CACHED
    perf_module.retain_trees(sizes[-1])  # room for the first text at least, not for all of them
    try:
        assert run_batch(jobs) == expected
    finally:
        forget_project_roots()
    assert 1 <= len(retained.trees) < len(kept) and retained.chars <= sizes[-1]
    assert all(tree.__class__.__name__ == "Module" for tree in retained.trees)


def test_a_tree_not_kept_is_freed_before_the_collector_resumes(monkeypatch: pytest.MonkeyPatch) -> None:
    """`api.analyse_source` pauses the collector while it parses and analyses; a tree it does not keep is let
    go before the collector resumes, so that the collection due by then (the parse allocated far more than a
    generation's threshold) does not walk the whole tree first."""
    import ast
    import gc
    import weakref

    import spmdfix.api as api_module
    import spmdfix.perf as perf_module
    from spmdfix.model import Options

    trees: list[weakref.ref] = []
    parse = ast.parse

    def parsing(source, *args, **kwargs):
        tree = parse(source, *args, **kwargs)
        trees.append(weakref.ref(tree))
        return tree

    monkeypatch.setattr(ast, "parse", parsing)
    source = "import jax\n" + "".join(
        f"def f{i}(x):\n    return jax.vmap(g, spmd_axis_name='i')(x + {i})\n" for i in range(300)
    )
    seen: list[bool] = []  # at each collection during the call: whether the parsed tree was alive

    def watch(phase: str, info: dict) -> None:
        if phase == "start" and trees:
            seen.append(trees[-1]() is not None)

    assert gc.isenabled() and perf_module._retained.budget < 0  # (this process keeps no tree)
    gc.collect()
    gc.callbacks.append(watch)
    try:
        api_module.analyse_source(source, Options(), prefiltered=True)
    finally:
        gc.callbacks.remove(watch)
    assert len(trees) == 1 and trees[0]() is None
    assert seen and not any(seen)


@pytest.mark.e2e
def test_forked_workers_keep_the_memory_a_parse_frees(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where workers are forked, the pool's process asks the allocator to keep freed memory
    (`perf.keep_freed_memory`, which glibc on Linux accepts) before starting them, so they inherit it."""
    import multiprocessing
    import platform
    import sys

    import spmdfix.perf as perf_module

    if sys.platform.startswith("linux") and platform.libc_ver()[0] == "glibc":
        assert perf_module.keep_freed_memory() is True
    calls: list[int] = []
    monkeypatch.setattr(pool_module, "keep_freed_memory", lambda: calls.append(1) or True)
    with pool_module.worker_pool(2) as pool:
        assert pool is not None and pool.submit(int, "7").result() == 7
    assert calls == ([1] if multiprocessing.get_start_method() == "fork" else [])


def _worker_state() -> tuple[bool, int]:
    import sys

    import spmdfix.perf as perf_module

    return "spmdfix.api" in sys.modules, perf_module._retained.budget


@pytest.mark.e2e
def test_forked_workers_inherit_the_analysis_and_keep_trees() -> None:
    """Where workers are forked, the pool's process imports the analysis once before starting them (they
    inherit it instead of importing it each); every worker still sets its tree budget as it starts."""
    import multiprocessing
    import subprocess
    import sys

    if multiprocessing.get_start_method() != "fork":
        pytest.skip("workers are not forked here")
    code = (
        "import sys; from spmdfix import runner\n"
        "before = 'spmdfix.api' in sys.modules\n"
        "with runner.worker_pool(2) as pool:\n"
        "    print(before, 'spmdfix.api' in sys.modules)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == ["False", "True"]
    with pool_module.worker_pool(2) as pool:
        states = {pool.submit(_worker_state).result() for _ in range(4)}
    assert states == {(True, pool_module.RETAIN_CHARS)}


def test_jobs_and_outcomes_cross_to_a_worker_unchanged(jobs: list[Job], tmp_path: Path) -> None:
    """The packed form of a batch (`wire.pack_jobs`: fields shared by every job sent once) and of its outcomes
    (`wire.pack_results`: plain `Checked` and `Deferred` ones sent as nothing and as their cost) gives back equal
    jobs and outcomes, through pickling as between processes; a batch whose jobs differ in another field, and
    outcomes with findings, a stamp or an error, go as they are."""
    import dataclasses
    import pickle

    other = dataclasses.replace(jobs[1], stamp=True)
    missing = Job(tmp_path / "missing.py", "missing.py", Options())
    for batch in (jobs, [jobs[0], other, jobs[2]], [missing, *jobs[-3:]]):
        packed = pickle.loads(pickle.dumps(wire_module.pack_jobs(batch)))
        assert wire_module.unpack_jobs(packed) == batch
        for defer in (False, True):
            outcomes = run_batch(batch, defer=defer)
            sent = pickle.loads(pickle.dumps(wire_module.pack_results(outcomes)))
            assert wire_module.unpack_results(sent, batch) == outcomes
    assert isinstance(wire_module.pack_jobs([jobs[0], other]), list)
    kinds = {type(x) for x in wire_module.pack_results(run_batch(jobs, defer=True))}
    assert kinds == {type(None), int}
    assert any(isinstance(x, FileResult) for x in wire_module.pack_results(run_batch(jobs)))
