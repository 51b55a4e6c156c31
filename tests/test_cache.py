"""The results cache (`spmdfix.cache`) never serves a stale result: after an edit, an edit to a module the
analysis read, a settings change, another tool version, or runs at the same time, a cached run reports what
a run without the cache reports."""

from __future__ import annotations

import dataclasses
import os
import pickle
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from golden import GOLDEN, ROOT
from spmdfix import cache as cache_module
from spmdfix import stamps as stamps_module
from spmdfix.cache import Cache, CachedRun
from spmdfix.cache_keys import settings_key
from spmdfix.model import Options
from spmdfix.results import FileResult
from spmdfix.runner import Job, run_batch
from spmdfix.stamps import FileStamp, read_stamped, stat_key

COLLIDING = (GOLDEN / "add-axis" / "mesh_reshape_basic" / "input.py").read_text()
CLEAN = COLLIDING.replace("spmd_axis_name='x'", "spmd_axis_name='z'")
assert CLEAN != COLLIDING


def _age(path: Path, seconds: float = 10) -> None:
    """Move the file's mtime back (its ctime stays: a stat the cache may trust only after RACY_NS)."""
    then = time.time() - seconds
    os.utime(path, (then, then))


def _run(paths: list[Path], cache: Cache | None, **job) -> list[FileResult]:
    """Check `paths` in this process as the CLI does: the cache's hooks around `run_batch`."""
    jobs = [Job(p, p.name, job.pop("options", Options()), **job) for p in paths]
    if cache is None:
        return run_batch(jobs)
    hooks = CachedRun(cache)
    missed = list(hooks.misses(jobs))
    return hooks.finish(missed, run_batch(missed), lambda j: str(j.path))[1]


def _codes(outcomes: list[FileResult]) -> list[list[str]]:
    return [sorted(f.code for f in o.findings) for o in outcomes]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(stamps_module, "RACY_NS", 0)  # files written this second may be trusted by stat
    (tmp_path / "model.py").write_text(COLLIDING)
    (tmp_path / "other.py").write_text("x = 1\n")
    return tmp_path


def test_a_second_run_is_served_and_equal(tree: Path) -> None:
    paths = [tree / "model.py", tree / "other.py"]
    first = _run(paths, Cache(tree / "c"))
    assert _codes(first) == [["SPMD001", "SPMD002"], []]
    again = Cache(tree / "c")
    assert again.loaded == 2
    second = _run(paths, again)
    assert again.hits == 2
    assert second == [dataclasses.replace(o, stamp=None) for o in first]
    assert (tree / "c" / ".gitignore").read_text().splitlines()[-1] == "*"


def test_an_edit_is_never_served_stale(tree: Path) -> None:
    model = tree / "model.py"
    _run([model], Cache(tree / "c"))
    model.write_text(CLEAN)
    assert _codes(_run([model], Cache(tree / "c"))) == [[]]
    model.write_text(COLLIDING)
    assert _codes(_run([model], Cache(tree / "c"))) == [["SPMD001", "SPMD002"]]


def test_an_edit_that_keeps_size_and_mtime_is_seen(tree: Path) -> None:
    """Same length, mtime set back: only the ctime (and the bytes) tell, and the cache checks them."""
    model = tree / "model.py"
    _age(model)
    _run([model], Cache(tree / "c"))
    before = os.stat(model)
    same_size = COLLIDING.replace("spmd_axis_name='x'", "spmd_axis_name='w'")
    assert len(same_size) == len(COLLIDING)
    model.write_text(same_size)
    os.utime(model, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert _codes(_run([model], Cache(tree / "c"))) == _codes(_run([model], None)) == [[]]


def test_a_stat_taken_in_the_same_tick_as_the_change_is_not_trusted(tree: Path) -> None:
    """A change in the clock tick the stat was taken in keeps every time; the entry is then checked by its
    bytes (RACY_NS), whatever the stat says."""
    model = tree / "model.py"
    now = stat_key(os.stat(model))
    racy = FileStamp(now, taken_ns=max(now[1], now[2]) + 1, digest="0" * 64)
    stamps_module.RACY_NS = 2_000_000_000  # (the fixture's monkeypatch restores it)
    assert not stamps_module.trusted(racy, now)
    old = FileStamp(now, taken_ns=max(now[1], now[2]) + 3_000_000_000, digest="0" * 64)
    assert stamps_module.trusted(old, now)
    assert not stamps_module.trusted(FileStamp(None, old.taken_ns, old.digest), now)


def test_a_lookup_trusts_an_unchanged_stat_only_when_taken_well_after_the_change(tree: Path) -> None:
    """The lookup of a file served by its stat alone (`Cache._served_by_stat`, a warm run's common case)
    follows RACY_NS as `_trusted` does: an entry whose stat equals the file's but was taken in the tick of
    the last change is checked by its bytes."""
    model = tree / "other.py"  # nothing analysed, so nothing else read: the common case
    job = Job(model, "other.py", Options(), stamp=True)
    first = Cache(tree / "c")
    first.store(job, run_batch([job])[0])
    first.save()
    fmt, plain = pickle.loads(first.file.read_bytes())
    _, _, _, settings, depends, packed = plain[str(model)]
    now = stat_key(os.stat(model))
    stamps_module.RACY_NS = 2_000_000_000  # (the fixture's monkeypatch restores it)
    for taken, served in ((max(now[1], now[2]) + 1, False), (max(now[1], now[2]) + 3_000_000_000, True)):
        # The digest is another text's: only a stat the cache trusts serves the entry.
        plain[str(model)] = (now, taken, "0" * 64, settings, depends, packed)
        first.file.write_bytes(pickle.dumps((fmt, plain)))
        assert (Cache(tree / "c").lookup(Job(model, "other.py", Options())) is not None) == served


def test_an_edit_to_a_module_the_analysis_read_is_never_served_stale(tree: Path) -> None:
    """An outcome computed from another module (`Checked.depends`) is served only while that module's
    bytes are unchanged."""
    model, layers = tree / "model.py", tree / "layers.py"
    layers.write_text("AXIS = 'data'\n")
    job = Job(model, "model.py", Options(), stamp=True)
    outcome = run_batch([job])[0]
    digest = read_stamped(layers)[1].digest
    first = Cache(tree / "c")
    first.store(job, dataclasses.replace(outcome, depends=((str(layers), digest),)))
    first.save()
    assert Cache(tree / "c").lookup(job) is not None
    layers.write_text("AXIS = 'other'\n")
    assert Cache(tree / "c").lookup(job) is None
    layers.write_text("AXIS = 'data'\n")
    assert Cache(tree / "c").lookup(job) is not None
    layers.unlink()
    assert Cache(tree / "c").lookup(job) is None


def test_a_settings_change_is_never_served_stale(tree: Path) -> None:
    model = tree / "model.py"
    assert _codes(_run([model], Cache(tree / "c"), enabled=frozenset({"SPMD002"}))) == [["SPMD002"]]
    assert _codes(_run([model], Cache(tree / "c"))) == [["SPMD001", "SPMD002"]]
    renamed = Options(new_axis="rows")
    again = Cache(tree / "c")
    computed = _run([model], again, options=renamed)[0]
    assert again.hits == 0
    assert dataclasses.replace(computed, stamp=None) == _run([model], None, options=renamed)[0]
    assert settings_key(Job(model, "m", Options())) != settings_key(Job(model, "m", renamed))
    assert settings_key(Job(model, "m", Options())) != settings_key(Job(model, "m", Options(), want_edits=True))


def test_another_tool_version_never_reads_the_cache(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    model = tree / "model.py"
    _run([model], Cache(tree / "c"))
    assert Cache(tree / "c").loaded == 1
    monkeypatch.setattr(cache_module, "tool_key", lambda: "0.2.0-0123456789abcdef")
    other = Cache(tree / "c")
    assert other.loaded == 0
    assert other.lookup(Job(model, "model.py", Options())) is None


def test_the_tool_key_follows_the_package_source(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An edited checkout of spmdfix (same version string) is another tool."""
    import spmdfix

    fake = tmp_path / "spmdfix"
    shutil.copytree(Path(spmdfix.__file__).parent, fake, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(spmdfix, "__file__", str(fake / "__init__.py"))
    cache_module.tool_key.cache_clear()
    try:
        before = cache_module.tool_key()
        with open(fake / "plan" / "__init__.py", "a") as handle:
            handle.write("\n# a local change\n")
        cache_module.tool_key.cache_clear()
        assert cache_module.tool_key() != before
    finally:
        cache_module.tool_key.cache_clear()


def test_the_tool_key_follows_an_edit_that_keeps_size_and_mtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Package files count by their stat once settled: an edit that keeps the size and sets the mtime back
    still changes the ctime, and so the key; a file changed within RACY_NS counts by its bytes."""
    import spmdfix

    fake = tmp_path / "spmdfix"
    shutil.copytree(Path(spmdfix.__file__).parent, fake, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(spmdfix, "__file__", str(fake / "__init__.py"))
    plan = fake / "plan" / "__init__.py"
    text = plan.read_text()
    cache_module.tool_key.cache_clear()
    try:
        monkeypatch.setattr(stamps_module, "RACY_NS", 0)  # every file settled: keyed by its stat
        before = cache_module.tool_key()
        old = os.stat(plan)
        time.sleep(0.01)
        plan.write_text(text.replace("a", "b", 1))  # same size
        os.utime(plan, ns=(old.st_atime_ns, old.st_mtime_ns))
        cache_module.tool_key.cache_clear()
        assert cache_module.tool_key() != before
        monkeypatch.setattr(stamps_module, "RACY_NS", 3_600 * 10**9)  # every file just changed: its bytes
        cache_module.tool_key.cache_clear()
        by_bytes = cache_module.tool_key()
        plan.write_text(text)
        cache_module.tool_key.cache_clear()
        assert cache_module.tool_key() != by_bytes
    finally:
        cache_module.tool_key.cache_clear()


def test_jobs_of_other_settings_in_one_run_are_never_served_each_others_outcome(tree: Path) -> None:
    """The settings key is computed once per settings object of a run: a job of other settings in the same
    run gets its own."""
    model = tree / "model.py"
    _run([model], Cache(tree / "c"))
    both = Cache(tree / "c")
    assert both.lookup(Job(model, "model.py", Options())) is not None
    assert both.lookup(Job(model, "model.py", Options(new_axis="rows"))) is None
    assert both.lookup(Job(model, "model.py", Options(), enabled=frozenset({"SPMD002"}))) is None
    assert both.lookup(Job(model, "model.py", Options())) is not None


def test_a_forged_or_damaged_cache_file_is_an_empty_cache(tree: Path) -> None:
    model = tree / "model.py"
    _run([model], Cache(tree / "c"))
    file = Cache(tree / "c").file
    canary = tree / "ran"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {canary}",))

    file.write_bytes(pickle.dumps((cache_module.FORMAT, {str(model): Evil()})))
    assert Cache(tree / "c").loaded == 0 and not canary.exists()
    file.write_bytes(b"\x80\x05garbage")
    assert Cache(tree / "c").loaded == 0
    assert _codes(_run([model], Cache(tree / "c"))) == [["SPMD001", "SPMD002"]]


def test_a_forged_outcome_in_an_entry_runs_nothing(tree: Path) -> None:
    model = tree / "model.py"
    _run([model], Cache(tree / "c"))
    file = Cache(tree / "c").file
    canary = tree / "ran"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {canary}",))

    fmt, plain = pickle.loads(file.read_bytes())
    item = list(plain[str(model)])
    item[-1] = pickle.dumps(Evil())
    plain[str(model)] = tuple(item)
    file.write_bytes(pickle.dumps((fmt, plain)))
    assert _codes(_run([model], Cache(tree / "c"))) == [["SPMD001", "SPMD002"]]
    assert not canary.exists()


def test_a_save_keeps_what_another_run_saved_since_the_load(tree: Path) -> None:
    """A run saves its entries merged into the file as it is then: what it loaded when no other run has
    replaced the file since (the stat tells), else the file read again."""
    model, other, third = tree / "model.py", tree / "other.py", tree / "third.py"
    third.write_text("y = 2\n")
    _run([third], Cache(tree / "c"))  # the file exists when both runs below load it
    first, second = Cache(tree / "c"), Cache(tree / "c")
    _run([model], first)
    _run([other], second)
    assert Cache(tree / "c").loaded == 3
    again = Cache(tree / "c")
    _run([model, other, third], again)
    assert again.hits == 3 and Cache(tree / "c").loaded == 3


_EDITOR = """
import sys, time
from pathlib import Path
path, a, b = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
for i in range(40):
    path.write_text(a if i % 2 else b)
    time.sleep(0.005)
path.write_text(a)
"""


@pytest.mark.e2e
def test_concurrent_runs_never_tear_the_cache_or_serve_stale(tmp_path: Path) -> None:
    """Four `spmdfix check` processes share a cache while another process rewrites a file under them; the
    cache file stays readable, and afterwards a cached run reports what a run without the cache does."""
    for i in range(6):
        (tmp_path / f"m{i}.py").write_text(COLLIDING if i % 2 else CLEAN)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPMDFIX_CACHE_DIR": str(tmp_path / "cache")}
    check = [sys.executable, "-m", "spmdfix.cli", "check", "-j", "1", "."]
    editor = subprocess.Popen([sys.executable, "-c", _EDITOR, str(tmp_path / "m0.py"), COLLIDING, CLEAN])
    runs = [subprocess.Popen(check, cwd=tmp_path, env=env, stdout=subprocess.PIPE) for _ in range(4)]
    for proc in runs:
        proc.communicate(timeout=120)
        assert proc.returncode in (0, 1)
    editor.wait(timeout=60)
    assert Cache(tmp_path / "cache").loaded == 6
    cached = subprocess.run(check, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    cold = subprocess.run([*check, "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert cached.stdout == cold.stdout and "m0.py" in cold.stdout
    assert not [p for p in (tmp_path / "cache").iterdir() if p.name.endswith(".tmp")]


_CONFIG = "AXIS = {axis!r}\n"
_LAYERS = """import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P
from pkg.config import AXIS

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def body(v):
    return v * 2


def block(x):
    return jax.shard_map(body, mesh=mesh, in_specs=P(AXIS), out_specs=P(AXIS))(x)
"""
_USE = """import jax
from pkg.layers import block


def main(x):
    return jax.vmap(block, spmd_axis_name='x')(x)
"""


@pytest.mark.e2e
def test_edits_across_modules_are_never_served_stale(tmp_path: Path) -> None:
    """Two modules reach a shard_map of a third whose specs name a constant of a fourth; each step below
    changes the findings of both, and a cached run (one process, so the second importer reuses what the
    analysis of the first computed) reports what a run without the cache reports: a constant edited, the
    module of the shard_map deleted and created again, broken and repaired."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(_CONFIG.format(axis="x"))
    (pkg / "layers.py").write_text(_LAYERS)
    for name in ("use_a", "use_b"):
        (pkg / f"{name}.py").write_text(_USE)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPMDFIX_CACHE_DIR": str(tmp_path / "cache")}
    check = [sys.executable, "-m", "spmdfix.cli", "check", "-j", "1", "."]

    def both() -> str:
        cached = subprocess.run(check, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
        cold = subprocess.run(
            [*check, "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
        )
        assert cached.stdout == cold.stdout
        return cold.stdout

    assert "use_b.py" in both()
    (pkg / "config.py").write_text(_CONFIG.format(axis="y"))
    assert "use_b.py" not in both()
    (pkg / "config.py").write_text(_CONFIG.format(axis="x"))
    assert "use_b.py" in both()
    (pkg / "layers.py").unlink()
    assert "use_b.py" not in both()
    (pkg / "layers.py").write_text(_LAYERS)
    assert "use_b.py" in both()
    (pkg / "layers.py").write_text(_LAYERS + "def broken(:\n")
    assert "use_b.py" not in both()
    (pkg / "layers.py").write_text(_LAYERS)
    assert "use_b.py" in both()


@pytest.mark.e2e
def test_a_moved_project_root_is_never_served_stale(tmp_path: Path) -> None:
    """The modules of a project are searched from its root (the nearest directory with pyproject.toml,
    setup.cfg or .git): a marker file added below the old root moves it, and with it what resolves."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (tmp_path / "pyproject.toml").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(_CONFIG.format(axis="x"))
    (pkg / "layers.py").write_text(_LAYERS)
    (pkg / "use_a.py").write_text(_USE)
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPMDFIX_CACHE_DIR": str(tmp_path / "cache")}
    check = [sys.executable, "-m", "spmdfix.cli", "check", "-j", "1", "."]

    def both() -> str:
        cached = subprocess.run(check, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
        cold = subprocess.run(
            [*check, "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
        )
        assert cached.stdout == cold.stdout
        return cold.stdout

    assert "use_a.py" in both()
    (pkg / "setup.cfg").write_text("")  # the root is pkg/ now: `pkg.layers` no longer resolves
    assert "use_a.py" not in both()
    (pkg / "setup.cfg").unlink()
    assert "use_a.py" in both()


# --- the journal -----------------------------------------------------------------------------------------


def test_a_run_that_changed_one_entry_appends_it_to_the_journal(tree: Path) -> None:
    """After an edit, the run's one changed entry goes to the journal: the results file is not written again
    (its stat is the same), and the next run serves the edited file from the journal, with the findings of
    its new bytes."""
    model, other = tree / "model.py", tree / "other.py"
    _run([model, other], Cache(tree / "c"))
    cache = Cache(tree / "c")
    before = stat_key(os.stat(cache.file))
    assert not cache.journal_file.exists()
    model.write_text("x = 2\n")
    assert _codes(_run([model, other], Cache(tree / "c"))) == [[], []]
    assert stat_key(os.stat(cache.file)) == before and cache.journal_file.exists()
    again = Cache(tree / "c")
    assert again.lookup(Job(model, "model.py", Options())) is not None  # (served: the journal's entry)
    model.write_text(COLLIDING)
    assert _codes(_run([model, other], Cache(tree / "c"))) == [["SPMD001", "SPMD002"], []]
    assert _codes(_run([model, other], Cache(tree / "c"))) == [["SPMD001", "SPMD002"], []]


def test_a_journal_past_its_share_is_merged_into_the_results_file(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Once the journal would hold more than its share, the run writes the results file whole, the journal
    merged in, and removes the journal; the entries are all still served."""
    monkeypatch.setattr(cache_module, "JOURNAL_MIN", 2)
    files = [tree / f"m{i}.py" for i in range(4)]
    for f in files:
        f.write_text("x = 1\n")
    _run(files, Cache(tree / "c"))
    cache = Cache(tree / "c")
    for i, f in enumerate(files[:3]):
        f.write_text(f"x = {i + 2}\n")
        _run(files, Cache(tree / "c"))
        # two changes fit the journal (JOURNAL_MIN); the third makes the run write the file whole
        assert cache.journal_file.exists() == (i < 2)
    fresh = Cache(tree / "c")
    assert all(fresh.lookup(Job(f, f.name, Options())) is not None for f in files)


def test_a_torn_journal_keeps_what_it_read_and_is_merged_away(tree: Path) -> None:
    """A record torn by a crash (the journal cut inside it) ends what is read: the records before it still
    serve, and the next run that changes an entry writes the results file whole and removes the journal."""
    model, other = tree / "model.py", tree / "other.py"
    _run([model, other], Cache(tree / "c"))
    model.write_text("x = 2\n")
    _run([model, other], Cache(tree / "c"))
    journal = Cache(tree / "c").journal_file
    whole = journal.read_bytes()
    other.write_text("y = 3\n")
    _run([model, other], Cache(tree / "c"))
    journal.write_bytes(journal.read_bytes()[: len(whole) + 10])  # the second record torn
    cache = Cache(tree / "c")
    assert cache.lookup(Job(model, "model.py", Options())) is not None  # (the first record's)
    assert cache.lookup(Job(other, "other.py", Options())) is None  # (its record was torn: checked again)
    other.write_text("y = 4\n")
    assert _codes(_run([model, other], Cache(tree / "c"))) == [[], []]
    assert not journal.exists()
    fresh = Cache(tree / "c")
    assert all(fresh.lookup(Job(f, f.name, Options())) is not None for f in (model, other))


def test_a_forged_journal_record_runs_nothing(tree: Path) -> None:
    """The journal is read by the loader that refuses every class, as the results file is."""
    model = tree / "model.py"
    _run([model], Cache(tree / "c"))
    canary = tree / "ran"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {canary}",))

    Cache(tree / "c").journal_file.write_bytes(pickle.dumps((cache_module.FORMAT, {str(model): Evil()})))
    assert Cache(tree / "c").lookup(Job(model, "model.py", Options())) is not None  # (the results file's entry)
    assert not canary.exists()
    assert _codes(_run([model], Cache(tree / "c"))) == [["SPMD001", "SPMD002"]]
