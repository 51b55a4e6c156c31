"""A fix's reason names at most three places, then how many more (`analysis.uses.listed`, issue 20's gap: a file
checked alone in a crowded directory, /tmp as its project root, had an add-axis reason naming hundreds of
modules that load modules by name).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN
from spmdfix import project_graph
from spmdfix.analysis.uses import LISTED, listed
from spmdfix.cli import main

LOADERS = 40


def test_listed_names_three_places_then_how_many_more() -> None:
    assert listed([]) == ""
    assert listed(["`a` (line 1)", "`b` (line 2)", "`a` (line 1)"]) == "`a` (line 1), `b` (line 2)"
    places = [f"`p{i}` (line {i})" for i in range(1, 8)]
    assert listed(places[:LISTED]) == ", ".join(places[:LISTED])
    assert listed(places) == "`p1` (line 1), `p2` (line 2), `p3` (line 3) and 4 more"


@pytest.fixture
def crowded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A directory without a project marker holding a module with a collision that add-axis fixes (its mesh
    at module level) beside `LOADERS` modules that may load any module by name."""
    monkeypatch.chdir(tmp_path)
    shutil.copy(GOLDEN / "add-axis" / "mesh_reshape_basic" / "input.py", tmp_path / "x.py")
    for i in range(LOADERS):
        (tmp_path / f"loader{i:02}.py").write_text("import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n")
    project_graph.forget_graphs()
    return tmp_path


def _add_axis_reasons(text: str) -> list[str]:
    return [line for line in text.splitlines() if "add-axis" in line and "the mesh is also read by" in line]


def test_a_lone_file_in_a_crowded_directory_gets_a_short_reason_in_every_output(crowded: Path) -> None:
    """The full text and the JSON record carry short reasons: three of the 80 places (each loader's `import
    importlib` and its call), then "and 77 more", for add-axis (the mesh's readers) and strip (the shard_map's
    other callers)."""
    full = CliRunner().invoke(main, ["check", "--no-cache", "--show-fixes", "--unsafe-fixes", "x.py"], catch_exceptions=False)
    reasons = _add_axis_reasons(full.output)
    assert reasons, full.output
    more = 2 * LOADERS - LISTED
    for reason in reasons:
        assert reason.count("line ") == LISTED and f" and {more} more, which the new axis may change" in reason, reason
    done = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", "x.py"], catch_exceptions=False)
    alternatives = [alt for record in json.loads(done.stdout) for alt in record["alternatives"]]
    shown = {alt["transform"]: alt["reason"] for alt in alternatives if alt["transform"] in ("add-axis", "strip")}
    assert set(shown) == {"add-axis", "strip"}, alternatives
    for reason in shown.values():  # (strip: the loaders may run the shard_map'd function without the vmap)
        assert f" and {more} more" in reason and reason.count("line ") == LISTED, reason
