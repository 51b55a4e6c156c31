"""What a run's walk saw in each directory answers the settings', ignore files' and project roots' lookups
(`spmdfix.dir_entries`), never wrongly: a configuration file, ignore file or project marker added between
two runs is found by the second (whose walk is served from the results cache's listings where nothing
changed), the facts live for one run only, and a name held in another letter case counts as held."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from spmdfix import config, dir_entries, files, gitignore
from spmdfix import stamps as stamps_module
from spmdfix.cli import main

SETTLE_NS = 20_000_000  # RACY_NS in these tests (as tests/test_cache_listings.py)

_SPMD = """\
from functools import partial
import jax
from jax.sharding import Mesh, PartitionSpec as P
from jax.experimental.shard_map import shard_map

mesh = Mesh(jax.devices(), ('x',))

@partial(shard_map, mesh=mesh, in_specs=P('x'), out_specs=P('x'))
def f(x):
    return x

jax.vmap(f, spmd_axis_name='x')
"""


def test_the_watched_names_are_those_the_lookups_ask_about() -> None:
    asked = {config.CONFIG_NAME, config.PYPROJECT, gitignore.GITIGNORE, *files.PROJECT_MARKERS}
    assert dir_entries.WATCHED == {name.casefold() for name in asked}


def test_nothing_is_known_outside_a_run(tmp_path: Path) -> None:
    dir_entries.note(str(tmp_path), frozenset())
    assert not dir_entries.absent(str(tmp_path), "pyproject.toml")
    with dir_entries.noting():
        dir_entries.note(str(tmp_path), dir_entries.watched_in(["a.py", "PyProject.TOML"]))
        assert dir_entries.absent(str(tmp_path), "setup.cfg")
        assert not dir_entries.absent(str(tmp_path), "pyproject.toml")  # held, in another case
        assert not dir_entries.absent(str(tmp_path), "other.txt")  # not watched: not known
        assert not dir_entries.absent(str(tmp_path / "sub"), "setup.cfg")  # not listed: not known
        assert dir_entries.listed(str(tmp_path)) and not dir_entries.not_a_link(str(tmp_path))
        dir_entries.note(str(tmp_path / "sub"), frozenset(), entered=True)
        assert dir_entries.not_a_link(str(tmp_path / "sub"))
    assert not dir_entries.absent(str(tmp_path), "setup.cfg")  # the run is over: forgotten
    assert not dir_entries.listed(str(tmp_path)) and not dir_entries.not_a_link(str(tmp_path / "sub"))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(stamps_module, "RACY_NS", SETTLE_NS)
    monkeypatch.setenv("SPMDFIX_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "proj"
    (root / "pkg" / "sub").mkdir(parents=True)
    (root / "pyproject.toml").write_text("[project]\nname = 'proj'\n")
    (root / "pkg" / "sub" / "layer.py").write_text(_SPMD)
    (root / "pkg" / "other.py").write_text("x = 1\n")
    monkeypatch.chdir(root)
    return root


def _check(*args: str) -> str:
    """`spmdfix check` in this process, after what the test changed has settled (so that the run may keep
    its listings); the findings' lines."""
    time.sleep(2 * SETTLE_NS / 1e9)
    config._parsed_toml.cache_clear()  # as a new process
    files.forget_project_roots()
    result = CliRunner().invoke(main, ["check", "-j", "1", "--output-format", "concise", *args], catch_exceptions=False)
    return result.stdout


def test_a_configuration_file_added_between_runs_is_read(project: Path) -> None:
    assert "SPMD001" in _check(".")
    assert "SPMD001" in _check(".")  # the listings are served now
    (project / "pkg" / "sub" / "spmdfix.toml").write_text('ignore = ["SPMD001", "SPMD002"]\n')
    assert "All checks passed!" in _check(".")  # (not a settings error: the file is read and applied)


def test_a_pyproject_table_added_between_runs_is_read(project: Path) -> None:
    _check(".")
    _check(".")
    (project / "pkg" / "sub" / "pyproject.toml").write_text('[tool.spmdfix]\nignore = ["SPMD001", "SPMD002"]\n')
    assert "All checks passed!" in _check(".")  # (not a settings error: the file is read and applied)


def test_an_ignore_file_added_between_runs_is_read(project: Path) -> None:
    (project / ".git").mkdir()  # (a work tree: its .gitignore files apply)
    assert "layer.py" in _check(".")
    assert "layer.py" in _check(".")
    (project / "pkg" / ".gitignore").write_text("sub/\n")
    assert "layer.py" not in _check(".")


def test_a_served_walk_asks_no_system_call_for_names_it_saw_missing(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The point of it: a warm run's settings and ignore-file lookups in the walked directories make no
    `access` call (the benchmark corpus' warm run made 2,223 failing ones)."""
    _check(".")
    _check(".")
    asked: list[str] = []
    real_access = os.access

    def access(path, mode, *args, **kwargs):
        asked.append(os.fspath(path))
        return real_access(path, mode, *args, **kwargs)

    monkeypatch.setattr(os, "access", access)
    assert "SPMD001" in _check(".")
    inside = [p for p in asked if p.startswith(str(project) + os.sep)]
    held = {str(project / "pyproject.toml")}  # the only watched file in the tree: looked up as before
    assert set(inside) <= held, inside


def test_a_walk_started_from_a_symbolic_link_resolves_its_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The directory a walk starts from may be a link (it is not known to be none), and the directories it
    enters are none: a run over a linked project finds the same collision through the link as without it."""
    monkeypatch.setenv("SPMDFIX_CACHE_DIR", str(tmp_path / "cache"))
    real = tmp_path / "real"
    (real / "pkg").mkdir(parents=True)
    (real / "pyproject.toml").write_text("")
    (real / "pkg" / "layer.py").write_text(_SPMD)
    (tmp_path / "link").symlink_to(real, target_is_directory=True)
    monkeypatch.chdir(tmp_path)
    through_link = _check("link")
    assert "SPMD001" in through_link and "SPMD001" in _check("link") and "SPMD001" in _check("real")


def test_a_served_walk_asks_no_lstat_of_the_directories_it_entered(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The real path of a walked directory (the results cache asks for each directory's project root) needs
    no `lstat` of a directory the walk entered: it was no link in its parent's listing."""
    _check(".")
    _check(".")
    asked: list[str] = []
    real_islink = os.path.islink

    def islink(path):
        asked.append(os.fspath(path))
        return real_islink(path)

    monkeypatch.setattr(os.path, "islink", islink)
    assert "SPMD001" in _check(".")
    assert not [p for p in asked if p.startswith(str(project / "pkg"))], asked


def test_a_listing_record_of_an_older_run_vouches_for_no_name(project: Path) -> None:
    """A listing record written before the watched names were kept with it (three fields: key, context,
    kept entries, as main's e9f890fe wrote them) tells nothing of which names a directory holds: the
    settings file of an unchanged directory is still found, and the record is written again with them."""
    import pickle

    from spmdfix.cache import Cache

    (project / "pkg" / "sub" / "spmdfix.toml").write_text('ignore = ["SPMD001", "SPMD002"]\n')
    assert "All checks passed!" in _check(".")  # (not a settings error: the file is read and applied)
    assert "All checks passed!" in _check(".")  # the listings are kept now
    file = Cache(Path(os.environ["SPMDFIX_CACHE_DIR"])).listings_file
    fmt, plain = pickle.loads(file.read_bytes())
    sub = str(project / "pkg" / "sub")
    assert "spmdfix.toml" in plain[sub][3]
    older = {directory: record[:3] for directory, record in plain.items()}
    file.write_bytes(pickle.dumps((fmt, older)))
    assert "All checks passed!" in _check(".")  # (no directory changed: only the records are older)
    _, plain = pickle.loads(file.read_bytes())
    assert "spmdfix.toml" in plain[sub][3]
