"""SARIF results carry `partialFingerprints` (newuser13: there were none), by which GitHub code scanning tracks
an alert from one commit to the next: lines added above a finding keep its fingerprint, two findings have two,
and the log still validates against the SARIF 2.1.0 schema (`test_formats._schema_validator`)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN
from spmdfix.cli import main
from test_formats import _schema_validator

FINGERPRINT_KEY = "spmdfix/v1"  # (formats.FINGERPRINT_KEY, as a code scanning service reads it)
CASE = GOLDEN / "strip" / "basic_1d_spec"  # SPMD001 and SPMD002 on one line: `P('x')` twice

USER = """import jax
import jax.numpy as jnp
from layers import layer


def run():
    return jax.vmap(layer, spmd_axis_name='x')(jnp.ones((4, 8)))
"""


def _sarif(*paths: str) -> dict:
    result = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "sarif", *paths])
    assert result.exit_code == 1, result.output
    log = json.loads(result.stdout)
    errors = sorted(_schema_validator().iter_errors(log), key=str)
    assert not errors, "\n".join(f"{list(e.absolute_path)}: {e.message}" for e in errors[:5])
    return log


def _results(log: dict) -> list[tuple[str, int, str]]:
    return [
        (r["ruleId"], r["locations"][0]["physicalLocation"]["region"]["startLine"], r["partialFingerprints"][FINGERPRINT_KEY])
        for r in log["runs"][0]["results"]
    ]


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copy(CASE / "input.py", tmp_path / "model.py")
    return tmp_path


def test_fingerprints_survive_lines_inserted_above(work: Path) -> None:
    before = _results(_sarif("model.py"))
    assert [code for code, _, _ in before] == ["SPMD001", "SPMD002"]
    assert len({fp for _, _, fp in before}) == 2  # two findings, two fingerprints (on one line)
    source = (work / "model.py").read_text()
    (work / "model.py").write_text(source.replace("import jax\n", "import jax\nimport os\n\n# moved down\n", 1))
    after = _results(_sarif("model.py"))
    assert [row for _, row, _ in after] == [row + 3 for _, row, _ in before]
    assert [fp for _, _, fp in after] == [fp for _, _, fp in before]


def test_fingerprint_changes_with_the_flagged_line(work: Path) -> None:
    before = _results(_sarif("model.py"))
    source = (work / "model.py").read_text()
    (work / "model.py").write_text(source.replace("(x)\n", "(x + 0)\n", 1))  # the shard_map's line, edited
    after = _results(_sarif("model.py"))
    assert [code for code, _, _ in after] == ["SPMD001", "SPMD002"]
    assert not {fp for _, _, fp in after} & {fp for _, _, fp in before}


def test_one_place_reached_from_two_modules_is_two_results(work: Path) -> None:
    # (newuser13, 7: train.py's and the notebook's vmaps reached layers.py:12; SARIF had two results with one
    # ruleId, location and message, which code scanning would take for one alert)
    source = (CASE / "input.py").read_text()
    (work / "layers.py").write_text(source.split("\n\ndef main():")[0] + "\n")
    (work / "a.py").write_text(USER)
    (work / "b.py").write_text(USER)
    results = _results(_sarif("a.py", "b.py", "layers.py"))
    assert [(code, row) for code, row, _ in results] == [("SPMD001", 15), ("SPMD001", 15), ("SPMD002", 15), ("SPMD002", 15)]
    assert len({fp for _, _, fp in results}) == 4
