"""The command line end to end with click's CliRunner: exit codes, text/JSON output, diff, fix in place."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN, ROOT
from spmdfix.cli import main

CASE = GOLDEN / "add-axis" / "mesh_reshape_basic"


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copy(CASE / "input.py", tmp_path / "model.py")
    return tmp_path


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def test_check_reports_each_finding_at_its_entry(work: Path) -> None:
    result = run("check", "model.py")
    assert result.exit_code == 1
    found = (CASE / "findings.txt").read_text().splitlines()
    for line in found:
        pos, code = line.split(" ")[:2]
        assert f"model.py:{pos}: {code}" in result.output
    assert "Found 2 errors." in result.output


def test_check_json_has_ruff_fields_and_the_auto_fix(work: Path) -> None:
    result = run("check", "--output-format", "json", "model.py")
    assert result.exit_code == 1
    records = json.loads(result.output)
    assert {r["code"] for r in records} == {"SPMD001", "SPMD002"}
    first = records[0]
    assert first["filename"] == str(work / "model.py")
    assert set(first["location"]) == {"row", "column"}
    assert first["fix"]["applicability"] == "safe"
    assert first["fix"]["message"].startswith("Add mesh axis `'batch'`")
    assert first["fix"]["edits"] and all({"content", "location", "end_location"} <= set(e) for e in first["fix"]["edits"])
    assert first["related"][0]["message"].startswith("`spmd_axis_name`")
    assert first["url"].endswith("SPMD001.md")


def test_fix_diff_writes_nothing_and_applies_with_patch(work: Path) -> None:
    before = (work / "model.py").read_bytes()
    result = run("fix", "--diff", "model.py")
    assert result.exit_code == 1
    assert (work / "model.py").read_bytes() == before
    diff = result.stdout
    assert diff.startswith("--- a/model.py\n+++ b/model.py\n")
    if shutil.which("patch"):
        subprocess.run(["patch", "-p1", "-s"], input=diff.encode(), cwd=work, check=True)
        assert (work / "model.py").read_bytes() == (CASE / "expected.py").read_bytes()


def test_fix_in_place_then_clean_then_idempotent(work: Path) -> None:
    assert run("fix", "model.py").exit_code == 0
    assert (work / "model.py").read_bytes() == (CASE / "expected.py").read_bytes()
    assert run("check", "model.py").exit_code == 0
    again = run("fix", "--diff", "model.py")
    assert again.exit_code == 0 and again.stdout == ""


def test_unreadable_and_unparsable_files_are_reported_and_the_run_goes_on(work: Path) -> None:
    (work / "bad.py").write_bytes(b"import jax\nx = '\xff'\n")
    (work / "broken.py").write_text("from jax import vmap, shard_map\ndef f(:\n")
    result = run("check", ".")
    assert result.exit_code == 1
    assert "bad.py:1:1: SPMD901" in result.output
    assert "broken.py:2:" in result.output and "SPMD900" in result.output
    assert "model.py:" in result.output
    fixed = run("fix", ".")
    assert (work / "broken.py").read_text() == "from jax import vmap, shard_map\ndef f(:\n"


def test_usage_errors_exit_2(work: Path) -> None:
    assert CliRunner().invoke(main, ["check", "missing.py"]).exit_code == 2
    assert CliRunner().invoke(main, ["fix", "--strategy", "nope", "model.py"]).exit_code == 2
    assert CliRunner().invoke(main, ["rule", "SPMD999"]).exit_code == 2


def test_rule_prints_its_doc() -> None:
    result = run("rule", "SPMD001")
    assert result.exit_code == 0
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Fix safety"):
        assert section in result.output


def test_strategy_and_unsafe_fixes(work: Path) -> None:
    shutil.copy(GOLDEN / "rename" / "unsafe_size_mismatch" / "input.py", work / "m.py")
    safe_only = run("fix", "--strategy", "rename", "m.py")
    assert safe_only.exit_code == 1  # the only rename is unsafe: nothing applied, finding left
    assert run("fix", "--strategy", "rename", "--unsafe-fixes", "m.py").exit_code == 0
    assert (work / "m.py").read_bytes() == (GOLDEN / "rename" / "unsafe_size_mismatch" / "expected.py").read_bytes()


def test_examples_check_then_fix_leaves_them_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    assert run("check", "examples").exit_code == 1
    assert run("fix", "examples").exit_code == 0
    assert run("check", "examples").exit_code == 0
    assert run("fix", "--diff", "examples").stdout == ""
