"""A project too large to list (`project_graph.MAX_FILES`): a file checked alone in a directory without a project
marker has that directory as its root (`/tmp/x.py`: 332,000 `.py` files under /tmp on one machine, and the check
ran for more than ten minutes). The listing stops at the first file past the cap and scans none of them; the
run stays honest: a partial run says its importers were not searched (an SPMD910 record naming the cap), and a
fix judged against every importer is unsafe, its reason naming the cap. Behaviour is asserted, not time: how
many directories the walk listed and how many files were scanned."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

import spmdfix.discovery as discovery
import spmdfix.project_graph as project_graph
from spmdfix.cli import main

LAYERS = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(8), ('i',))


def double(v):
    return v * 2.0


def block(x):
    return jax.shard_map(double, mesh=MESH, in_specs=P('i'), out_specs=P('i'))(x)
"""

TRAIN = """\
import jax

from layers import block


def run(xs):
    return jax.vmap(block, spmd_axis_name='i')(xs)
"""

# One module holding both the mesh and the vmap: add-axis edits the module-level mesh, which any module of
# the project may import; strip edits `f`, which any may call.
ALONE = """\
import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(8), ('i',))


def double(v):
    return v * 2.0


def f(x):
    return jax.shard_map(double, mesh=mesh, in_specs=P('i'), out_specs=P('i'))(x)


def main():
    xs = jnp.arange(8 * 8, dtype=jnp.float32).reshape(8, 8)
    return jax.vmap(f, spmd_axis_name='i')(xs)
"""


@pytest.fixture(autouse=True)
def _fresh() -> None:
    project_graph.forget_graphs()
    yield
    project_graph.forget_graphs()


def _others(root: Path, directories: int, each: int) -> None:
    """`directories` subdirectories of `root` (no `__init__.py`) holding `each` small modules apiece."""
    for d in range(directories):
        sub = root / f"d{d:02d}"
        sub.mkdir()
        for i in range(each):
            (sub / f"m{i:02d}.py").write_text(f"import os\nVALUE = {i}\n")


def _counting(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Count the directories the walk lists (`os.scandir` as discovery calls it) and the files the graph scans."""
    counts = {"listed": 0, "scanned": 0}
    scandir, scan = os.scandir, project_graph.imports_of_file

    def listing(path):
        counts["listed"] += 1
        return scandir(path)

    def scanning(path):
        counts["scanned"] += 1
        return scan(path)

    monkeypatch.setattr(discovery.os, "scandir", listing)
    monkeypatch.setattr(project_graph, "imports_of_file", scanning)
    return counts


@pytest.mark.parametrize("judged", [False, True])
def test_the_listing_stops_at_the_first_file_past_the_cap_and_no_file_is_scanned(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, judged: bool
) -> None:
    _others(tmp_path, directories=20, each=5)  # 100 modules in 20 directories
    monkeypatch.setattr(project_graph, "MAX_FILES", 7)
    counts = _counting(monkeypatch)
    graph = project_graph.graph_of(tmp_path, judged=judged)
    assert not graph.complete and graph.files == []
    what = "Python files and notebooks" if judged else "Python files"
    assert graph.why_incomplete == f"the project root {os.path.realpath(tmp_path)} holds more than 7 {what}"
    # The 8th file lies in the second subdirectory: the root and two of its 20 directories were listed.
    assert counts["listed"] == 3
    assert counts["scanned"] == 0
    assert graph.importers_with_dynamic(str(tmp_path / "d00" / "m00.py")) is None
    assert graph.holding("sharding") is None


def test_a_project_of_exactly_the_cap_is_listed_whole(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _others(tmp_path, directories=1, each=7)
    monkeypatch.setattr(project_graph, "MAX_FILES", 7)
    for listing in (project_graph.project_files, project_graph.judged_files):
        files, complete = listing(str(tmp_path.resolve()))
        assert complete and len(files) == 7
    files, complete = project_graph.project_files(str(tmp_path.resolve()))
    graph = project_graph.ProjectGraph(str(tmp_path.resolve()), files, complete)
    assert graph.why_incomplete == ""


def _check(root: Path, monkeypatch: pytest.MonkeyPatch, *args: str):
    monkeypatch.chdir(root)
    return CliRunner().invoke(main, ["check", "--no-cache", "-j", "1", *args])


def test_a_partial_run_past_the_cap_says_its_importers_were_not_searched(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "layers.py").write_text(LAYERS)
    (tmp_path / "train.py").write_text(TRAIN)
    _others(tmp_path, directories=2, each=2)  # 6 modules in all
    monkeypatch.setattr(project_graph, "MAX_FILES", 6)
    # Within the cap, train.py's vmap places its collision at layers.py's spec.
    found = json.loads(_check(tmp_path, monkeypatch, "--output-format", "json", "layers.py").stdout)
    assert [r["code"] for r in found] == ["SPMD001", "SPMD002"]
    (tmp_path / "d00" / "m02.py").write_text("x = 1\n")  # 7 modules: past the cap
    result = _check(tmp_path, monkeypatch, "--output-format", "json", "--show-unresolved", "layers.py")
    records = json.loads(result.stdout)
    assert [r["code"] for r in records] == ["SPMD910"]
    message = records[0]["message"]
    assert message.startswith("the modules importing this one were not searched for spmd vmaps that reach it: ")
    assert f"the project root {os.path.realpath(tmp_path)} holds more than 6 Python files" in message
    assert records[0]["location"] == {"row": 1, "column": 1} and records[0]["related"] == []
    # Never "All checks passed!": the text report counts the record.
    text = _check(tmp_path, monkeypatch, "layers.py")
    assert "All checks passed!" not in text.stdout
    assert "1 vmap could not be followed to the end" in text.stdout
    shown = _check(tmp_path, monkeypatch, "--show-unresolved", "layers.py").stdout
    assert "layers.py:1:1: SPMD910 the modules importing this one were not searched" in shown
    assert "= note:" not in shown  # (no vmap is known)


def test_a_fix_judged_against_the_importers_is_unsafe_past_the_cap_naming_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "x.py").write_text(ALONE)
    _others(tmp_path, directories=1, each=3)  # 4 modules in all
    monkeypatch.setattr(project_graph, "MAX_FILES", 4)

    def fixes() -> dict[str, tuple[str, str]]:
        record = json.loads(_check(tmp_path, monkeypatch, "--output-format", "json", "x.py").stdout)[0]
        return {f["transform"]: (f["applicability"], f["reason"]) for f in [record["fix"], *record["alternatives"]]}

    within = fixes()
    assert within["add-axis"][0] == "safe"  # (no module imports x.py: proven)
    (tmp_path / "d00" / "m03.py").write_text("x = 1\n")  # 5 modules: past the cap
    past = fixes()
    why = f"the project root {os.path.realpath(tmp_path)} holds more than 4 Python files and notebooks: not searched"
    for transform in ("add-axis", "strip"):
        applicability, reason = past[transform]
        assert applicability == "unsafe" and why in reason, (transform, reason)
    assert "the project's import graph is not known" not in json.dumps(past)


def test_a_root_without_a_project_marker_at_or_above_it_is_listed_up_to_a_lower_limit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A directory holding no `pyproject.toml`, `setup.cfg` or `.git`, nor any directory above it, is the root
    only of files checked alone in it (`/tmp/x.py`): its listing stops past `MAX_UNMARKED_FILES`, and says so."""
    root = tmp_path / "scripts"
    root.mkdir()
    _others(root, directories=2, each=2)
    monkeypatch.setattr(project_graph, "MAX_UNMARKED_FILES", 3)
    counts = _counting(monkeypatch)
    files, why = project_graph._project_files(str(root.resolve()))
    assert files == [] and counts["listed"] == 3  # (the root and both its directories: the 4th file is in the 2nd)
    assert why == (
        f"the project root {root.resolve()} holds more than 3 Python files and has no `pyproject.toml`, "
        "`setup.cfg` or `.git` at or above it"
    )
    assert project_graph._judged_files(str(root.resolve()))[1].startswith(
        f"the project root {root.resolve()} holds more than 3 Python files and notebooks and has no"
    )
    # A marker in the root, or in a directory above it (a `project-root` inside a repository), lifts it.
    for marked in (root / "pyproject.toml", tmp_path / ".git"):
        marked.write_text("") if marked.suffix else marked.mkdir()
        files, why = project_graph._project_files(str(root.resolve()))
        assert why == "" and len(files) == 4
        marked.unlink() if marked.suffix else marked.rmdir()
    # A partial run in such a directory says why it did not search the importers.
    (root / "layers.py").write_text(LAYERS)
    shown = _check(root, monkeypatch, "--show-unresolved", "layers.py").stdout
    assert "holds more than 3 Python files and has no `pyproject.toml`, `setup.cfg` or `.git` at or above it" in shown


def test_past_the_cap_a_method_hazard_h2_asks_about_may_be_any_modules(tmp_path, monkeypatch) -> None:
    """The project-wide search for a class defining `sum` (`importers.method_definer`) cannot search a project
    past the cap: a module not listed may define it, so `s.sum(b)` in a body is on no allowlist."""
    from spmdfix import project_graph
    from spmdfix.analysis.importers import method_definer
    from spmdfix.api import new_project_index

    (tmp_path / "pyproject.toml").write_text('[project]\nname = "probe"\n')
    for i in range(4):
        (tmp_path / f"m{i}.py").write_text("x = 1\n")
    monkeypatch.setattr(project_graph, "MAX_FILES", 2)
    project_graph.forget_graphs()
    index = new_project_index(tmp_path.resolve())
    assert method_definer(index, "sum") == "a module of the project not listed"
    monkeypatch.setattr(project_graph, "MAX_FILES", 100)
    project_graph.forget_graphs()
    assert method_definer(new_project_index(tmp_path.resolve()), "sum") is None
    project_graph.forget_graphs()
