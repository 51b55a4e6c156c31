"""The warm lane of the results cache (`Cache.serve_plain`, the walk's `lane`): a file whose entry is plain
(checked, nothing found, nothing read from other modules) and whose stat is trusted is counted without a job
or an outcome. These tests check that every report is byte for byte what a run without the cache prints, and
that the lane serves nothing it should not: an edited file, a file whose analysis read an edited module, a
settings change (configuration file, command-line flag, per-file-ignores), another tool, a new or deleted
file, a stat taken in the tick of the file's last change.

Several tests plant a plain entry (nothing found) for a file that has findings, keeping the entry's stat,
digest and settings: a warm run then serves it (the control, which shows that the lane would serve that
entry), and after the change under test it must not. Runs are in this process (click's CliRunner), with
`RACY_NS` at 0 so that a file just written may be trusted by its stat, unless a test says otherwise."""

from __future__ import annotations

import os
import pickle
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from cache_files import plant_entries, read_entries
from golden import GOLDEN
# The three-module project whose spec axis lives in config.py, and the script of a process that rewrites a file
# under concurrent runs.
from test_cache import _CONFIG, _EDITOR, _LAYERS, _USE
# The issue-20 layout: config.py (the mesh), model.py (the shard_map), train.py (the spmd vmap importing it).
from test_partial_runs import CONFIG as PARTIAL_CONFIG, MODEL as PARTIAL_MODEL, TRAIN as PARTIAL_TRAIN
from spmdfix import api, config, files
from spmdfix import cache as cache_module
from spmdfix import cache_keys
from spmdfix import stamps as stamps_module
from spmdfix.cache import Cache
from spmdfix.cli import main
from spmdfix.stamps import stat_key

COLLIDING = (GOLDEN / "add-axis" / "mesh_reshape_basic" / "input.py").read_text()
CLEAN = COLLIDING.replace("spmd_axis_name='x'", "spmd_axis_name='z'")
assert CLEAN != COLLIDING
PLAIN_ENTRY = ("checked", False, 0, "")


class Served:
    """How many files the lane served in the runs since the last `take`."""

    def __init__(self) -> None:
        self.count = 0

    def take(self) -> int:
        count, self.count = self.count, 0
        return count


@pytest.fixture
def served(monkeypatch: pytest.MonkeyPatch) -> Served:
    counter = Served()
    original = Cache.serve_plain

    def counting(self: Cache, path: str, settings: str, *run: object) -> bool:
        found = original(self, path, settings, *run)
        counter.count += found
        return found

    monkeypatch.setattr(Cache, "serve_plain", counting)
    return counter


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project: `m.py` with two findings, nine plain modules (`a.py` before it in the walk, so that a
    setting of m.py's own is not its directory's first), and its cache in `cache/`."""
    monkeypatch.setattr(stamps_module, "RACY_NS", 0)
    project = tmp_path / "project"
    project.mkdir()
    (project / "pyproject.toml").write_text("")
    (project / "m.py").write_text(COLLIDING)
    (project / "a.py").write_text("a = 0\n")
    for i in range(8):
        (project / f"plain{i}.py").write_text(f"x = {i}\n")
    monkeypatch.chdir(project)
    return project


def run(tree: Path, *args: str, cache: bool = True) -> tuple[int, str, str]:
    """`spmdfix check ARGS .` in `tree`: exit code, stdout, stderr (with the cache in `tree/../cache`, or
    `--no-cache`). What earlier runs in this process read is forgotten (as in a new process)."""
    config._parsed_toml.cache_clear()
    files._source_of.cache_clear()
    cache_keys._root_of_directory.cache_clear()
    api._INDEXES.clear()  # the project index keeps what it read of each module
    where = ["--cache-dir", str(tree.parent / "cache")] if cache else ["--no-cache"]
    result = CliRunner().invoke(main, ["check", *where, "-j", "1", *args, "."], catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


def both(tree: Path, *args: str) -> tuple[int, str, str]:
    """A cached run's exit code and output, asserted equal to a run's without the cache."""
    cached = run(tree, *args)
    assert cached == run(tree, *args, cache=False)
    return cached


def plant_plain(tree: Path, name: str) -> None:
    """Make the cache entry of `name` plain (nothing found, nothing else read), its stat, digest and
    settings kept."""
    entries = read_entries(tree.parent / "cache")
    stat, taken, digest, settings, _, _ = entries[str(tree / name)]
    entries[str(tree / name)] = (stat, taken, digest, settings, (), PLAIN_ENTRY)
    plant_entries(tree.parent / "cache", entries)


def planted_is_served(tree: Path, served: Served, *args: str) -> None:
    """Fill the cache, plant a plain entry for `m.py`, and check that a warm run serves it (the control:
    the lane serves that entry while nothing changed, so the tests after it exercise the lane)."""
    assert "m.py" in run(tree, *args)[1]
    plant_plain(tree, "m.py")
    served.take()
    code, out, _ = run(tree, *args)
    assert (code, "m.py" in out, served.take()) == (0, False, 10)


FORMATS = ["full", "concise", "text", "json", "json-lines", "sarif", "github"]


@pytest.mark.parametrize(
    "args",
    [
        *(["--output-format", f] for f in FORMATS),
        ["--statistics"],
        ["--statistics", "--output-format", "json"],
        ["-q"],
        ["--silent"],
        ["--show-unresolved"],
        ["--show-unresolved", "--output-format", "sarif"],
        ["--exit-zero"],
        ["--show-fixes"],
    ],
)
def test_every_report_is_what_a_run_without_the_cache_prints(tree: Path, served: Served, args: list[str]) -> None:
    """Golden inputs with findings, unfollowed vmaps and generated files, among plain modules: the warm
    run (the lane serving the plain ones) prints byte for byte what a cold run prints, on stdout and stderr,
    with the same exit code."""
    for kind in ("rename", "clean"):
        shutil.copytree(GOLDEN / kind, tree / kind)
    (tree / "generated.py").write_text("# @generated\nx = 1\n")
    (tree / "suppressed.py").write_text(COLLIDING.replace("out_specs=P('x'))", "out_specs=P('x'))  # noqa"))
    cold = run(tree, *args, cache=False)
    assert run(tree, *args) == cold  # fills the cache
    served.take()
    assert run(tree, *args) == cold
    assert served.take() >= 10


def test_an_edited_file_is_not_served(tree: Path, served: Served) -> None:
    """Same size, mtime set back: only the ctime tells the lane (the bytes are another text's, with the
    findings the planted entry denies)."""
    planted_is_served(tree, served)
    model = tree / "m.py"
    before = os.stat(model)
    assert COLLIDING.endswith("\n")
    model.write_text(COLLIDING[:-1] + " ")
    os.utime(model, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert os.stat(model).st_size == before.st_size
    assert "m.py" in both(tree)[1]
    assert served.take() == 9
    # A file whose times lag the clock the entry was taken by (another machine's file server): the change
    # is not after the entry's time, and only the stat itself tells.
    model.write_text(COLLIDING)  # the planted entry's bytes again: served as planted
    run(tree)
    plant_plain(tree, "m.py")
    assert run(tree)[0] == 0
    entries = read_entries(tree.parent / "cache")
    stat, _, digest, settings, depends, packed = entries[str(model)]
    entries[str(model)] = (stat, time.time_ns() + 3_600 * 10**9, digest, settings, depends, packed)
    plant_entries(tree.parent / "cache", entries)
    before = os.stat(model)
    model.write_text(COLLIDING[:-1] + " ")
    os.utime(model, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert "m.py" in both(tree)[1]


def test_a_file_whose_analysis_read_an_edited_module_is_not_served(tree: Path, served: Served) -> None:
    """`use.py` is clean while `pkg/config.py` says 'y' (its entry is plain, but for what it read);
    config.py edited to say 'x' gives it findings."""
    pkg = tree / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(_CONFIG.format(axis="y"))
    (pkg / "layers.py").write_text(_LAYERS)
    (pkg / "use.py").write_text(_USE)
    assert "use.py" not in both(tree)[1]
    entries = read_entries(tree.parent / "cache")
    assert entries[str(pkg / "use.py")][5][0] == "checked" and entries[str(pkg / "use.py")][4]
    (pkg / "config.py").write_text(_CONFIG.format(axis="x"))
    assert "use.py" in both(tree)[1]


def test_a_module_a_run_over_its_project_checked_is_served_only_to_such_runs(tree: Path, served: Served) -> None:
    """model.py names a shard_map and no vmap: a run over the whole project checks it without a partial run
    (its entry depends on `WALKED_ONLY`). The lane serves it to a later run over the project (or above
    it), never to a run over a part of the project, where checking it is a partial run that finds train.py's
    collision in it; both runs print what runs without the cache print."""
    pkg = tree / "src" / "pkg"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(PARTIAL_CONFIG)
    (pkg / "model.py").write_text(PARTIAL_MODEL)
    (pkg / "train.py").write_text(PARTIAL_TRAIN)
    model = str(pkg / "model.py")
    assert "SPMD001" in both(tree)[1]
    entries = read_entries(tree.parent / "cache")
    assert entries[model][4] == cache_module.WALKED_ONLY and entries[model][5] == PLAIN_ENTRY
    served.take()
    both(tree)
    assert served.take() == 12  # a.py, plain0-7.py, __init__.py, config.py, model.py (m.py, train.py: findings)
    cache = Cache(tree.parent / "cache")
    key = _settings_of(cache)
    root, src = os.path.realpath(tree), os.path.realpath(tree / "src")
    assert cache.serve_plain(model, key, (root,)) and cache.serve_plain(model, key, (os.path.dirname(root),))
    cache = Cache(tree.parent / "cache")
    assert not cache.serve_plain(model, key, (src,)) and not cache.serve_plain(model, key, ())
    assert not cache.serve_plain(model, key, (root,), tree.parent)  # (`project-root` above the run's directory)

    def partial(cached: bool) -> tuple[int, str]:
        config._parsed_toml.cache_clear()
        cache_keys._root_of_directory.cache_clear()
        api.forget_indexes([tree])
        where = ["--cache-dir", str(tree.parent / "cache")] if cached else ["--no-cache"]
        done = CliRunner().invoke(main, ["check", *where, "-j", "1", "--output-format", "concise", "src/pkg"])
        return done.exit_code, done.stdout

    assert partial(True) == partial(False) == partial(True)
    assert "SPMD001" in partial(False)[1] and "model.py" in partial(False)[1]


@pytest.mark.parametrize(
    "change",
    [
        "config",  # a configuration file's rule selection
        "per-file-ignores",  # per-file-ignores naming m.py
        "flag",  # a command-line flag (--new-axis)
    ],
)
def test_a_settings_change_is_not_served(tree: Path, served: Served, change: str) -> None:
    planted_is_served(tree, served)
    args: tuple[str, ...] = ()
    if change == "config":
        (tree / "pyproject.toml").write_text('[tool.spmdfix]\nselect = ["SPMD001", "SPMD002"]\n')
    elif change == "per-file-ignores":
        (tree / "pyproject.toml").write_text('[tool.spmdfix]\nper-file-ignores = {"m.py" = ["SPMD003"]}\n')
    else:
        args = ("--new-axis", "rows")
    code, out, _ = both(tree, *args)
    assert code == 1 and "m.py" in out


def test_a_size_limit_or_generated_files_flag_is_not_served(tree: Path, served: Served) -> None:
    """Outcomes that differ for a plain module with the settings: --max-file-size skips it, and a file
    marked @generated is checked only with --include-generated."""
    (tree / "generated.py").write_text("# @generated\nx = 1\n")
    both(tree, "--include-generated")
    served.take()
    code, _, err = both(tree, "--include-generated")
    assert "generated.py" not in err and "11 files scanned, 1 parsed; 2 findings" in err
    served.take()
    code, _, err = both(tree)
    assert "1 skipped" in err
    code, _, err = both(tree, "--max-file-size", "0")
    assert "plain0.py: skipped" in err and "11 skipped" in err


def test_another_tool_is_not_served(tree: Path, served: Served, monkeypatch: pytest.MonkeyPatch) -> None:
    planted_is_served(tree, served)
    monkeypatch.setattr(cache_module, "tool_key", lambda: "0.2.0-0123456789abcdef")
    assert "m.py" in both(tree)[1]


def test_a_new_or_deleted_file_is_seen(tree: Path, served: Served) -> None:
    both(tree)
    (tree / "new.py").write_text(COLLIDING)
    time.sleep(0.01)
    code, out, err = both(tree)
    assert "new.py" in out and "11 files scanned" in err
    (tree / "plain0.py").unlink()
    (tree / "new.py").unlink()
    code, out, err = both(tree)
    assert "new.py" not in out and "9 files scanned" in err


def test_a_stat_taken_in_the_tick_of_the_last_change_is_not_trusted(
    tree: Path, served: Served, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An entry whose stat equals the file's but was taken within RACY_NS of its last change: the file may
    have changed again in the same tick, so it is read; here its bytes are not the entry's."""
    planted_is_served(tree, served)
    entries = read_entries(tree.parent / "cache")
    stat, _, _, settings, depends, packed = entries[str(tree / "m.py")]
    racy_taken = max(stat[1], stat[2]) + 1_000_000_000
    entries[str(tree / "m.py")] = (stat, racy_taken, "0" * 64, settings, depends, packed)
    plant_entries(tree.parent / "cache", entries)
    monkeypatch.setattr(stamps_module, "RACY_NS", 2_000_000_000)
    assert "m.py" in both(tree)[1]


def _tables(tree: Path) -> dict:
    file = Cache(tree.parent / "cache").tables_file
    return pickle.loads(file.read_bytes())[1] if file.exists() else {}


def test_a_pyproject_without_a_table_is_parsed_again_once_changed(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache keeps the pyproject.toml files a run found without `[tool.spmdfix]` (`config.TableMemo`);
    one edited since is parsed again: a table added is read, and invalid TOML fails every run."""
    pyproject = str(tree / "pyproject.toml")
    both(tree)
    assert pyproject in _tables(tree)
    (tree / "pyproject.toml").write_text("[tool.black]\nline-length = [\n")
    for _ in range(2):
        code, _, err = run(tree)
        assert code == 2 and "invalid TOML" in err
    (tree / "pyproject.toml").write_text('[tool.spmdfix]\nselect = ["SPMD002"]\n')
    code, out, _ = both(tree)
    assert "SPMD002" in out and "SPMD001" not in out
    (tree / "pyproject.toml").write_text("[tool.black]\n")
    now = stat_key(os.stat(pyproject))
    monkeypatch.setattr(stamps_module, "RACY_NS", 3_600 * 10**9)  # every file just changed: nothing recorded
    both(tree)
    assert _tables(tree).get(pyproject) != now
    monkeypatch.setattr(stamps_module, "RACY_NS", 0)
    both(tree)
    assert _tables(tree).get(pyproject) == now
    code, out, _ = both(tree)
    assert "SPMD001" in out


@pytest.mark.e2e
def test_concurrent_runs_with_the_lane_never_tear_the_cache_or_serve_stale(tmp_path: Path) -> None:
    """Four `spmdfix check` processes share a cache filled by an earlier run, over files settled long
    enough for the lane to serve them (RACY_NS as shipped), while another process rewrites one file under
    them; afterwards a cached run reports what a run without the cache does, and serves the settled files
    by the lane."""
    import subprocess
    import sys

    from golden import ROOT

    for i in range(4):
        (tmp_path / f"m{i}.py").write_text(COLLIDING if i % 2 else CLEAN)
    for i in range(12):
        (tmp_path / f"p{i}.py").write_text(f"x = {i}\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPMDFIX_CACHE_DIR": str(tmp_path / "cache")}
    check = [sys.executable, "-m", "spmdfix.cli", "check", "-j", "1", "."]
    time.sleep(stamps_module.RACY_NS / 1e9 + 0.2)  # every file settled: its entry may be trusted by its stat
    subprocess.run(check, cwd=tmp_path, env=env, capture_output=True, check=False)
    editor = subprocess.Popen([sys.executable, "-c", _EDITOR, str(tmp_path / "m0.py"), COLLIDING, CLEAN])
    runs = [subprocess.Popen(check, cwd=tmp_path, env=env, stdout=subprocess.PIPE) for _ in range(4)]
    for proc in runs:
        proc.communicate(timeout=120)
        assert proc.returncode in (0, 1)
    editor.wait(timeout=60)
    cached = subprocess.run(check, cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    cold = subprocess.run([*check, "--no-cache"], cwd=tmp_path, env=env, capture_output=True, text=True, check=False)
    assert cached.stdout == cold.stdout and "m0.py" in cold.stdout
    assert cached.stderr == cold.stderr
    assert not [p for p in (tmp_path / "cache").iterdir() if p.name.endswith(".tmp")]
    cache = Cache(tmp_path / "cache")
    plain = [path for path in map(str, tmp_path.glob("p*.py")) if cache.serve_plain(path, _settings_of(cache))]
    assert len(plain) == 12  # the settled plain files are the lane's


def _settings_of(cache: Cache) -> str:
    """The settings key a default `check` gives a file (as the CLI's lane computes it)."""
    from spmdfix.model import Options
    from spmdfix.runner import Job

    return cache._settings_key(Job(Path("x.py"), "x.py", Options()))
