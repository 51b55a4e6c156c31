"""A report shows the fix `spmdfix fix` would apply under the project's `strategy =`: JSON's `fix` (and its
`alternatives`), SARIF's first fix, the text output's `[*]`, `= help:` and `--show-fixes` mark, the closing
count and `--statistics`' fixable counts (each showed `auto`'s choice whatever the configuration said)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from click.testing import CliRunner

from spmdfix.api import forget_indexes
from spmdfix.cli import main

MODULE = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()[:1]).reshape(1, 1), ("data", "model"))


def f(x):
    return jax.shard_map(lambda y: y * 2, mesh=mesh, in_specs=P("data"), out_specs=P("data"))(x)


def g(xs):
    return jax.vmap(f, spmd_axis_name="data")(xs)
"""


def project(root: Path, strategy: str | None) -> Path:
    """m.py above, with `[tool.spmdfix] strategy = ...` in pyproject.toml (none: the default, auto)."""
    (root / "m.py").write_text(MODULE)
    config = f'[tool.spmdfix]\nstrategy = "{strategy}"\n' if strategy else "[tool.spmdfix]\n"
    (root / "pyproject.toml").write_text(config)
    return root


def run(cwd: Path, *args: str) -> str:
    """`spmdfix ARGS` in `cwd` (stdout), as a new process would run it."""
    forget_indexes([cwd])
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, ["check", "--no-cache", *args, "m.py"], catch_exceptions=False)
    finally:
        os.chdir(previous)
    return result.stdout


def test_auto_reports_rename_first(tmp_path: Path) -> None:
    """The reference: under auto, rename (the first safe fix) is the chosen one."""
    root = project(tmp_path, None)
    records = json.loads(run(root, "--output-format", "json"))
    assert [r["fix"]["transform"] for r in records] == ["rename", "rename"]
    assert "rename (auto):" in run(root, "--show-fixes")


def test_a_configured_strategy_is_the_fix_every_emitter_shows(tmp_path: Path) -> None:
    root = project(tmp_path, "strip")
    records = json.loads(run(root, "--output-format", "json"))
    for record in records:
        assert (record["fix"]["transform"], record["fix"]["applicability"]) == ("strip", "safe")
        assert record["fix"]["edits"], record["fix"]
        assert [a["transform"] for a in record["alternatives"]] == ["rename", "add-axis", "drop-spmd-axis"]
    sarif = json.loads(run(root, "--output-format", "sarif"))
    for result in sarif["runs"][0]["results"]:
        assert result["fixes"][0]["properties"]["transform"] == "strip"
    shown = run(root, "--show-fixes")
    assert "strip (strategy strip):" in shown and "(auto)" not in shown
    # What `fix` applies under that strategy is that fix.
    diff = CliRunner()
    previous = os.getcwd()
    os.chdir(root)
    try:
        done = diff.invoke(main, ["fix", "--no-cache", "--diff", "m.py"], catch_exceptions=False)
    finally:
        os.chdir(previous)
    assert 'in_specs=P(None), out_specs=P(None)' in done.stdout


def test_a_strategy_no_finding_offers_marks_nothing_fixable_and_says_why(tmp_path: Path) -> None:
    """`strategy = "lift-captures"`: no finding offers it, so `fix` applies nothing: no `[*]`, no fixable
    count, JSON's `fix` null (every fix an alternative), `--statistics` counts none fixable, and the help
    line names the strategy."""
    root = project(tmp_path, "lift-captures")
    text = run(root)
    assert "[*]" not in text and "fixable" not in text, text
    assert "= help: no fix: strategy lift-captures: no lift-captures fix is offered for this finding" in text
    assert "2 fixable" not in run(root, "--output-format", "concise")
    records = json.loads(run(root, "--output-format", "json"))
    assert [r["fix"] for r in records] == [None, None]
    assert [len(r["alternatives"]) for r in records] == [4, 4]
    rows = json.loads(run(root, "--statistics", "--output-format", "json"))
    assert [row["fixable"] for row in rows] == [0, 0]
