"""`check --watch` and the project root (issue 20's gap): the roots a process found are kept (`files.root_cache`),
so a project marker added during the watch used to leave every later check on the old root; the watch sees the
markers appear (`cli.watch.snapshot`) and forgets the roots at each change (`files.forget_project_roots`).
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from click.testing import CliRunner

from spmdfix import files
from spmdfix.cli import main, watch

# lib/train.py imports `lib.model`: followed only when the root is the directory above lib/ (a marker there);
# without a marker the root is lib/ itself, where no module `lib.model` is, and nothing is found.
MODEL = """import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def forward(v):
    return jax.shard_map(lambda a: a * 2, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(v)
"""
TRAIN = "import jax\n\nfrom lib.model import forward\n\nstep = jax.vmap(forward, spmd_axis_name='x')\n"


def _add(root: Path, marker: str) -> None:
    if marker == ".git":
        (root / marker).mkdir()
    else:
        (root / marker).write_text("")


@pytest.mark.parametrize("marker", files.PROJECT_MARKERS)
def test_a_project_marker_added_during_the_watch_moves_the_root(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, marker: str
) -> None:
    """The first check (the results cache on and warm, as after an earlier run) finds nothing; the marker is
    added while the watch waits; the next check follows `lib.model` from the new root and reports the
    collision, as a new process does."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "model.py").write_text(MODEL)
    (tmp_path / "lib" / "train.py").write_text(TRAIN)
    first = CliRunner().invoke(main, ["check", "--output-format", "concise", "lib/train.py"])
    assert "All checks passed!" in first.stdout  # (a run before: the watch starts with a warm results cache)
    waits: list[float] = []

    def sleep(seconds: float) -> None:
        waits.append(seconds)
        if len(waits) == 1:
            _add(tmp_path, marker)
        else:
            raise KeyboardInterrupt  # (Ctrl-C: the watch ends once the second check is reported)

    real = watch.watch_checks
    monkeypatch.setattr(watch, "watch_checks", lambda check, take: real(check, take, sleep=sleep))
    handler = signal.getsignal(signal.SIGINT)
    try:
        done = CliRunner().invoke(main, ["check", "--watch", "--output-format", "concise", "lib/train.py"])
    finally:
        signal.signal(signal.SIGINT, handler)
    assert done.exit_code == 0, done.output
    reports = done.stdout.split("Watching for file changes.")
    assert len(reports) == 3, done.stdout
    assert "All checks passed!" in reports[0] and "SPMD001" not in reports[0], reports[0]
    assert "File change detected" in reports[1] and "lib/model.py:9:65: SPMD001" in reports[1], reports[1]


def test_forget_project_roots_clears_every_root_cache(tmp_path: Path) -> None:
    inner = tmp_path / "a" / "b"
    inner.mkdir(parents=True)
    assert files.find_project_root(inner, cached=True) == inner.resolve()
    (tmp_path / "pyproject.toml").write_text("")
    assert files.find_project_root(inner, cached=True) == inner.resolve()  # (kept: the cache's purpose)
    files.forget_project_roots()
    assert files.find_project_root(inner, cached=True) == tmp_path.resolve()


def test_the_cached_root_of_a_directory_is_the_uncached_one_through_symbolic_links(tmp_path: Path) -> None:
    """`files.root_of_directory` (the cached root, each directory's real path found from its parent's) answers
    what `find_project_root` finds from scratch, through links to directories, links inside packages, a
    marker seen only through a link, and paths that are not absolute and normal."""
    real = tmp_path / "real"
    (real / "pkg" / "sub").mkdir(parents=True)
    (real / "pkg" / "__init__.py").write_text("")
    (real / "pkg" / "sub" / "__init__.py").write_text("")
    (tmp_path / "marked" / "inner").mkdir(parents=True)
    (tmp_path / "marked" / "pyproject.toml").write_text("")
    (tmp_path / "link").symlink_to(real)
    (real / "pkg" / "away").symlink_to(tmp_path / "marked" / "inner")
    (real / "pkg" / "sub" / "up").symlink_to("../..")
    asked = [
        real / "pkg" / "sub",
        tmp_path / "link" / "pkg" / "sub",
        real / "pkg" / "away",
        real / "pkg" / "sub" / "up" / "pkg",
        tmp_path / "marked" / "inner",
    ]
    files.forget_project_roots()
    for directory in asked:
        for spelled in (str(directory), str(directory) + "/", str(directory / ".." / directory.name)):
            expected = str(files.find_project_root(Path(spelled)))
            assert files.root_of_directory(spelled) == expected, spelled
            assert str(files.find_project_root(Path(spelled), cached=True)) == expected, spelled
    files.forget_project_roots()
