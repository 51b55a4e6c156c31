"""The command line's conventions, ruff's as the reference: default path, `check --fix`, quiet and silent,
concise and full output, `fix` reports, diffs that apply, symlinks, interactive refusals, help texts; and
the wording of what the fixes and refusals say."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

import spmdfix.cli.terminal as cli_terminal
from golden import GOLDEN, ROOT
from spmdfix.cli import main
from spmdfix.model import Transform

CASE = GOLDEN / "add-axis" / "mesh_reshape_basic"
MINIMAL = ROOT / "examples" / "minimal.py"
FIRST = (
    "model.py:14:54: SPMD001 [*] vmap `spmd_axis_name` axis `'x'` appears in `in_specs` of a shard_map the vmapped"
    " function reaches; JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs`"
)
SECOND = (
    "model.py:14:77: SPMD002 [*] vmap `spmd_axis_name` axis `'x'` appears in `out_specs` of a shard_map the vmapped"
    " function reaches; JAX raises `vmap spmd_axis_name cannot appear in shard_map out_specs`"
)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copy(CASE / "input.py", tmp_path / "model.py")
    return tmp_path


def invoke(*args: str, input: str | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_check_without_a_path_checks_the_working_directory(work: Path) -> None:
    result = invoke("check", "--output-format", "concise")
    assert result.exit_code == 1
    assert result.stdout == f"{FIRST}\n{SECOND}\nFound 2 errors. [*] 2 fixable with `spmdfix fix`.\n"


def test_check_fix_applies_the_safe_fixes(work: Path) -> None:
    result = invoke("check", "--fix", "model.py")
    assert result.exit_code == 0
    assert result.stdout == "All checks passed!\n"
    assert (work / "model.py").read_text() == (CASE / "expected.py").read_text()
    assert "fixes applied: add-axis 1; 0 findings left" in result.stderr


def test_quiet_and_silent(work: Path) -> None:
    quiet = invoke("check", "-q", "--output-format", "concise", "model.py")
    assert (quiet.exit_code, quiet.stdout, quiet.stderr) == (
        1,
        f"{FIRST}\n{SECOND}\nFound 2 errors. [*] 2 fixable with `spmdfix fix`.\n",
        "",
    )
    silent = invoke("check", "--silent", "model.py")
    assert (silent.exit_code, silent.stdout, silent.stderr) == (1, "", "")
    fixed = invoke("fix", "--quiet", "model.py")
    assert (fixed.exit_code, fixed.stdout, fixed.stderr) == (0, "", "")
    assert (work / "model.py").read_text() == (CASE / "expected.py").read_text()


def test_concise_and_full_output(work: Path) -> None:
    full = invoke("check", "--output-format", "full", "model.py").stdout.splitlines()
    assert full[0] == FIRST and full[1].startswith("  = note: `spmd_axis_name` `'x'` given here (model.py:")
    assert invoke("check", "model.py").stdout.splitlines() == full  # full is the default
    assert invoke("check", "--output-format", "text", "model.py").stdout.splitlines() == full
    concise = invoke("check", "--output-format", "concise", "model.py").stdout.splitlines()
    assert concise == [FIRST, SECOND, "Found 2 errors. [*] 2 fixable with `spmdfix fix`."]


def test_fix_reports_what_is_left(work: Path) -> None:
    (work / "model.py").unlink()
    shutil.copy(MINIMAL, work / "minimal.py")
    # strip is refused nothing here, but `--strategy rename` has no free axis: both findings stay.
    as_json = invoke("fix", "--strategy", "rename", "--output-format", "json", "minimal.py")
    assert as_json.exit_code == 1
    assert [(r["code"], r["location"]["row"]) for r in json.loads(as_json.stdout)] == [("SPMD001", 21), ("SPMD002", 21)]
    stats = invoke("fix", "--strategy", "rename", "--statistics", "minimal.py")
    assert stats.stdout == "1  SPMD001  spmd-axis-in-in-specs\n1  SPMD002  spmd-axis-in-out-specs\n"
    shown = invoke("fix", "--strategy", "rename", "--show-fixes", "minimal.py")
    assert "  = not offered: rename: " in shown.stdout
    assert invoke("fix", "--diff", "--statistics", "minimal.py").exit_code == 2  # a diff and a report: usage error


@pytest.mark.e2e
def test_a_diff_of_a_file_outside_the_working_directory_applies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "here").mkdir()
    (tmp_path / "there").mkdir()
    shutil.copy(CASE / "input.py", tmp_path / "here" / "inner.py")
    shutil.copy(CASE / "input.py", tmp_path / "there" / "model.py")
    monkeypatch.chdir(tmp_path / "here")
    outside = invoke("fix", "--diff", str(tmp_path / "there" / "model.py")).stdout
    assert outside.startswith("--- a/../there/model.py\n+++ b/../there/model.py\n")
    assert "a//" not in outside
    subprocess.run(["git", "apply", "--unsafe-paths", "-"], input=outside, text=True, check=True)
    assert (tmp_path / "there" / "model.py").read_text() == (CASE / "expected.py").read_text()
    inside = invoke("fix", "--diff", str(tmp_path / "here" / "inner.py")).stdout
    assert inside.startswith("--- a/inner.py\n+++ b/inner.py\n")
    subprocess.run(["patch", "-p1", "--quiet"], input=inside, text=True, check=True)
    assert (tmp_path / "here" / "inner.py").read_text() == (CASE / "expected.py").read_text()


def test_sarif_names_no_local_documentation_file(work: Path) -> None:
    log = json.loads(invoke("check", "--output-format", "sarif", "model.py").stdout)
    driver = log["runs"][0]["tool"]["driver"]
    uris = [driver.get("informationUri", "")] + [rule.get("helpUri", "") for rule in driver["rules"]]
    assert not any(uri.startswith("file:") for uri in uris)


@pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")
def test_a_symlink_and_its_target_are_one_file(work: Path) -> None:
    (work / "link.py").symlink_to(work / "model.py")
    checked = invoke("check", "--output-format", "concise", ".")
    assert checked.stdout.count("SPMD001") == 1
    fixed = invoke("fix", ".")
    assert fixed.exit_code == 0, fixed.stderr
    assert "changed on disk" not in fixed.stderr
    assert (work / "link.py").is_symlink()
    assert (work / "model.py").read_text() == (CASE / "expected.py").read_text()


SAME_TITLES = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh_a = Mesh(np.array(jax.devices()).reshape(8), ('i',))
mesh_c = Mesh(np.array(jax.devices()).reshape(8), ('i',))


def f(x):
    return jax.shard_map(lambda v: v * 2, mesh=mesh_a, in_specs=P('i'), out_specs=P('i'))(x)


def g(x):
    return jax.shard_map(lambda v: v + 1, mesh=mesh_c, in_specs=P('i'), out_specs=P('i'))(x)


def main(xs):
    return jax.vmap(f, spmd_axis_name='i')(xs), jax.vmap(g, spmd_axis_name='i')(xs)
"""


def test_interactive_refusing_one_fix_does_not_hide_another_with_the_same_title(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    (work / "two.py").write_text(SAME_TITLES)
    result = invoke("fix", "-i", "two.py", input="n\ny\n")
    assert result.stdout.count("Apply this fix?") == 2
    text = (work / "two.py").read_text()
    assert "mesh_a = Mesh(np.array(jax.devices()).reshape(8), ('i',))" in text
    assert "mesh_c = Mesh(np.array(jax.devices()).reshape(1, 8), ('batch', 'i'))" in text


def test_help_texts() -> None:
    common = invoke("check", "--help").stdout
    assert "Skip files larger than this many MiB. [default: 10; x>=0]" in " ".join(common.split())
    top = invoke("--help").stdout
    assert "(e.g." not in top
    assert "rule    Print a rule's documentation (spmdfix rule SPMD001), or list" in top
    strategy = re.sub(r"\s+", "", invoke("fix", "--help").stdout.split("--strategy", 1)[1].split("--diff")[0])
    assert all(t.value in strategy for t in Transform), strategy


def test_a_new_axis_that_cannot_keep_its_name_is_said(work: Path) -> None:
    shutil.copy(MINIMAL, work / "minimal.py")
    shown = invoke("check", "--show-fixes", "--new-axis", "i", "minimal.py").stdout
    assert (
        "= fix [safe] add-axis (auto): Add mesh axis `'i_1'` of size 1 and use it as `spmd_axis_name`"
        " (`'i'` is already an axis of the mesh)"
    ) in shown
    fixed = invoke("fix", "--new-axis", "i", "minimal.py")
    assert "(`'i'` is already an axis of the mesh)" in fixed.stderr


DISABLE = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def block(v):
    return jax.shard_map(
        lambda b: b * 2.0,
        mesh=mesh,
        in_specs=P('y'),
        out_specs=P('y')
    )(v)


def main(xs):
    return jax.vmap(lambda r: jax.vmap(block)(r), spmd_axis_name='x')(xs)
"""


def test_disable_check_vma_keeps_the_layout_of_the_call(work: Path) -> None:
    (work / "h2.py").write_text(DISABLE)
    result = invoke("fix", "--unsafe-fixes", "--strategy", "disable-check-vma", "h2.py")
    assert result.exit_code == 0, result.stderr
    assert (work / "h2.py").read_text() == DISABLE.replace(
        "        out_specs=P('y')\n    )(v)", "        out_specs=P('y'),\n        check_vma=False\n    )(v)"
    )


def test_refusals_of_a_constraint_without_shard_map_name_no_shard_map_mesh(work: Path) -> None:
    (work / "c.py").write_text(
        "import jax\nfrom jax.sharding import PartitionSpec as P\n\n\n"
        "def layer(v):\n    return jax.lax.with_sharding_constraint(v * 0.1, P('x'))\n\n\n"
        "def main(xs):\n    return jax.jit(jax.vmap(layer, spmd_axis_name='x'))(xs)\n"
    )
    shown = invoke("check", "--show-fixes", "c.py").stdout
    reason = "no shard_map is reached, only a `with_sharding_constraint`: the mesh it runs on is not known here"
    assert f"  = not offered: add-axis: {reason}" in shown
    assert "shard_map's mesh" not in shown


def test_an_expression_the_parser_cannot_hold_says_why(work: Path) -> None:
    (work / "long.py").write_text("import jax  # shard_map\njax.vmap(f, spmd_axis_name='i')\nx = " + "**".join(["1"] * 200_000) + "\n")
    result = invoke("check", "--output-format", "concise", "long.py")
    assert result.stdout.splitlines()[0] == (
        "long.py:1:1: SPMD900 cannot parse: the parser ran out of memory (an expression nested too deeply)"
    )


@pytest.mark.e2e
def test_the_console_script_leaves_with_every_byte_written_and_the_exit_code(tmp_path: Path) -> None:
    """`spmdfix.cli.entry` (the console script, and `python -m spmdfix.cli`) ends the process with
    `os._exit` once the command is done: the report on a pipe is whole, the summary is said, the exit code is
    click's, and a run with worker processes (more files than `runner.SMALL_TREE`) leaves no child behind."""
    import sys

    from spmdfix.runner import SMALL_TREE

    for i in range(SMALL_TREE + 20):
        shutil.copy(CASE / "input.py", tmp_path / f"model_{i:03}.py")
    command = [sys.executable, "-m", "spmdfix.cli", "check", "--no-cache", "--output-format", "json", "-j", "2", "."]
    run = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, check=False)
    assert run.returncode == 1, run.stderr
    records = json.loads(run.stdout)  # whole: a report cut short at the exit would not parse
    assert len(records) == 2 * (SMALL_TREE + 20)
    assert "files scanned" in run.stderr or "Found" in run.stderr
    in_process = CliRunner().invoke(main, command[3:], catch_exceptions=False, env={"COLUMNS": "120"})
    assert in_process.exit_code == 1
    usage = subprocess.run([*command[:3], "check", "--no-such-option"], capture_output=True, text=True, check=False)
    assert usage.returncode == 2 and "No such option" in usage.stderr


@pytest.mark.e2e
def test_the_console_script_leaves_the_normal_way_while_a_thread_or_a_child_is_alive() -> None:
    """`entry` skips the interpreter's teardown only when nothing would be waited for: with another
    non-daemon thread, or a child process, alive, `_may_leave_now` says no (the normal exit joins them)."""
    import multiprocessing
    import threading

    from spmdfix.cli import _may_leave_now

    assert _may_leave_now()
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not _may_leave_now()
    finally:
        stop.set()
        thread.join()
    child = multiprocessing.get_context("spawn").Process(target=time_sleep, args=(30,))
    child.start()
    try:
        assert not _may_leave_now()
    finally:
        child.terminate()
        child.join()
    assert _may_leave_now()


def time_sleep(seconds: float) -> None:
    import time

    time.sleep(seconds)
