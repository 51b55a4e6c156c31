"""A name of `from M import ...` that a fix leaves unread is removed where nothing else may read it and M still
runs where it ran (newuser11's trial, finding 8; docs/safety.md "Imports a fix leaves unused"). The golden tree
drop-spmd-axis/tree_import_left_unused holds what `fix` writes; here, what the reports' fixes carry."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN
from spmdfix import project_graph
from spmdfix.api import fix_source
from spmdfix.cli import main

TREE = GOLDEN / "drop-spmd-axis" / "tree_import_left_unused" / "input"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(TREE, root)
    (root / "pyproject.toml").write_text('[project]\nname = "proj"\n')
    monkeypatch.chdir(root)
    project_graph.forget_graphs()
    return root


def _drop_edits(target: str) -> list[tuple[int, int, str]]:
    done = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", "--exit-zero", target])
    record = json.loads(done.stdout)[0]
    fixes = [record["fix"], *record["alternatives"]]
    (drop,) = [f for f in fixes if f["transform"] == "drop-spmd-axis"]
    return [(e["location"]["row"], e["location"]["column"], e["content"]) for e in drop["edits"]]


def test_a_reports_fix_that_alone_leaves_the_name_unread_removes_it(tree: Path) -> None:
    """evaluate.py's one vmap: its drop's edits (JSON, SARIF, what an editor applies) remove `DATA, ` from
    `from pkg.config import DATA, SCALE` as `fix` does."""
    edits = _drop_edits("pkg/evaluate.py")
    assert (3, 24, "") in edits, edits
    assert len(edits) == 2, edits


def test_a_reports_fix_of_one_of_two_vmaps_keeps_the_name(tree: Path) -> None:
    """train.py's two vmaps read `DATA`: one drop alone leaves the other's read, so its edits keep the import
    (`fix`, applying both, removes it: the golden tree)."""
    assert len(_drop_edits("pkg/train.py")) == 1


def test_a_module_fixed_without_its_project_keeps_its_imports() -> None:
    """Without a project index other modules are not known: the import stays (`api.fix_source` of a text)."""
    source = (TREE / "pkg" / "evaluate.py").read_text()
    assert "from pkg.config import DATA, SCALE" in fix_source(source).source
