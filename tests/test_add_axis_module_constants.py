"""add-axis through module constants (leftovers7 item 4, breaker6 r21/r22): the mesh's axis names `AXES = ("data",
"model")` or axis types `AXIS_TYPES = (...)` passed by name are extended in place, and every other use of the
constant in the project makes the fix UNSAFE, named (measured: safety/measurements/add_axis_module_constants.py).
The goldens add-axis/tree_mesh_axis_names_module_constant, add-axis/tree_mesh_axis_types_module_constant and
refuse/tree_mesh_axis_names_module_constant_read_elsewhere hold the trees; here the reasons are read."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN
from spmdfix import project_graph
from spmdfix.cli import main

NAMES = GOLDEN / "add-axis" / "tree_mesh_axis_names_module_constant" / "input"


def _add_axis(root: Path, monkeypatch: pytest.MonkeyPatch) -> dict:
    """The add-axis alternative of the first finding `check pkg/train.py` gives under `root`."""
    monkeypatch.chdir(root)
    project_graph.forget_graphs()
    done = CliRunner().invoke(
        main, ["check", "--no-cache", "--output-format", "json", "pkg/train.py"], catch_exceptions=False
    )
    records = json.loads(done.stdout)
    assert records, done.output
    fixes = [records[0]["fix"], *records[0]["alternatives"]] if records[0]["fix"] else records[0]["alternatives"]
    found = [a for a in fixes if a["transform"] == "add-axis"]
    assert found, records[0]
    return found[0]


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(NAMES, root)
    (root / "pyproject.toml").write_text('[project]\nname = "proj"\n')
    return root


def test_no_other_use_is_safe(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert _add_axis(tree, monkeypatch)["applicability"] == "safe"


@pytest.mark.parametrize(
    ("where", "text", "named"),
    [
        ("pkg/train.py", "from pkg.config import AXES\nN = len(AXES)\n", "`len(AXES)` (pkg/train.py line"),
        ("pkg/util.py", "from jax.sharding import PartitionSpec as P\nfrom pkg.config import AXES\nROWS = P(AXES[0])\n", "`P(AXES[0])`"),
        ("pkg/util.py", "import pkg.config as cfg\nN = len(cfg.AXES)\n", "`len(cfg.AXES)`"),
        ("pkg/util.py", "from pkg.config import *\n", "`from pkg.config import *`"),
        ("pkg/config.py", "\n\ndef first():\n    return AXES[0]\n", "AXES[0]` (pkg/config.py line"),
        ("pkg/config.py", "\nOTHER = AXES\n", "`OTHER = AXES`"),
    ],
)
def test_another_use_is_unsafe_and_named(
    tree: Path, monkeypatch: pytest.MonkeyPatch, where: str, text: str, named: str
) -> None:
    path = tree / where
    path.write_text((path.read_text() if path.exists() else "") + text)
    found = _add_axis(tree, monkeypatch)
    assert found["applicability"] == "unsafe", found
    assert "`AXES`, which the fix extends, is also read by" in found["reason"] and named in found["reason"], found["reason"]


@pytest.mark.parametrize("read", [False, True])
def test_axis_types_constant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, read: bool) -> None:
    """(one tree a run: a module added to a tree a process has checked already is not seen again by its
    in-process listing, whatever the judgement: noticed by leftovers7, left alone)"""
    root = tmp_path / "proj"
    shutil.copytree(GOLDEN / "add-axis" / "tree_mesh_axis_types_module_constant" / "input", root)
    (root / "pyproject.toml").write_text('[project]\nname = "proj"\n')
    if read:
        (root / "pkg" / "util.py").write_text("from pkg.config import AXIS_TYPES\nN = len(AXIS_TYPES)\n")
    found = _add_axis(root, monkeypatch)
    if not read:
        assert found["applicability"] == "safe", found
    else:
        assert found["applicability"] == "unsafe" and "`len(AXIS_TYPES)` (pkg/util.py line 2)" in found["reason"], found
