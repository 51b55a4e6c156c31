"""spmdfix's LibCST codemod commands (`spmdfix.codemods.commands`) in process and under `libcst.tool`.

In process, every golden case: the command for the case's strategy writes what `fix_source` writes, skips
a module with nothing to change, and warns once per finding left unfixed. In a subprocess, the command line
of the README (`python -m libcst.tool codemod commands.<Command> --no-format PATH`, found through the
repository's `.libcst.codemod.yaml`) turns a copy of a golden input into its expected.py byte for byte.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from libcst.codemod import CodemodContext, TransformSkip, TransformSuccess, transform_module

from golden import GOLDEN, ROOT, Case, cases
from spmdfix.api import Options, check_source, fix_source
from spmdfix.codemods.commands import (
    AddMeshAxisCommand,
    AutoFixCommand,
    DisableCheckVmaCommand,
    DropSpmdAxisCommand,
    LiftCapturesCommand,
    MovePlacementCommand,
    RenameSpmdAxisCommand,
    StripSpecEntriesCommand,
)
from spmdfix.model import AUTO, STRATEGIES, Transform

COMMANDS = {
    Transform.RENAME: RenameSpmdAxisCommand,
    Transform.ADD_AXIS: AddMeshAxisCommand,
    Transform.STRIP: StripSpecEntriesCommand,
    Transform.MOVE_PLACEMENT: MovePlacementCommand,
    Transform.LIFT_CAPTURES: LiftCapturesCommand,
    Transform.DISABLE_CHECK_VMA: DisableCheckVmaCommand,
    Transform.DROP_SPMD_AXIS: DropSpmdAxisCommand,
    AUTO: AutoFixCommand,
}


def test_every_strategy_has_a_command() -> None:
    assert set(COMMANDS) == set(STRATEGIES)


def _command(options: Options):
    return COMMANDS[options.strategy](CodemodContext(), unsafe_fixes=options.unsafe_fixes)


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.test_id)
def test_command_writes_what_fix_source_writes(case: Case) -> None:
    source = case.input.read_text(encoding="utf-8")
    expected = fix_source(source, case.options)
    result = transform_module(_command(case.options), source)
    if expected.changed:
        assert isinstance(result, TransformSuccess), getattr(result, "error", result)
        assert result.code == expected.source
    else:
        assert isinstance(result, TransformSkip), result
    # Should warn once per finding the fix leaves (each line names the code and says why).
    assert len(result.warning_messages) == len(expected.remaining) + len(expected.errors)
    for finding, warning in zip(expected.remaining, result.warning_messages):
        assert f" {finding.code} " in warning and "(not fixed: " in warning


def test_auto_command_takes_a_strategy() -> None:
    source = (GOLDEN / "strip" / "basic_1d_spec" / "input.py").read_text(encoding="utf-8")
    result = transform_module(AutoFixCommand(CodemodContext(), strategy="strip"), source)
    assert isinstance(result, TransformSuccess)
    assert result.code == (GOLDEN / "strip" / "basic_1d_spec" / "expected.py").read_text(encoding="utf-8")


def test_unsafe_fix_is_skipped_with_a_warning_naming_the_flag() -> None:
    """Should do nothing without --unsafe-fixes, since the only rename is unsafe, and say how to apply it."""
    case = GOLDEN / "rename" / "unsafe_size_mismatch"
    source = (case / "input.py").read_text(encoding="utf-8")
    result = transform_module(RenameSpmdAxisCommand(CodemodContext()), source)
    assert isinstance(result, TransformSkip)
    assert result.skip_description.endswith("left unfixed")
    assert result.warning_messages
    assert all("--unsafe-fixes" in w for w in result.warning_messages)
    fixed = transform_module(RenameSpmdAxisCommand(CodemodContext(), unsafe_fixes=True), source)
    assert isinstance(fixed, TransformSuccess)
    assert fixed.code == (case / "expected.py").read_text(encoding="utf-8")


def test_refused_transform_warns_with_the_refusal_reason() -> None:
    source = (GOLDEN / "refuse" / "rename_no_free_axis" / "input.py").read_text(encoding="utf-8")
    result = transform_module(RenameSpmdAxisCommand(CodemodContext(), unsafe_fixes=True), source)
    assert isinstance(result, TransformSkip)
    assert len(result.warning_messages) == len(check_source(source)) > 0
    assert all("rename: no free mesh axis" in w for w in result.warning_messages)


def test_module_without_findings_is_skipped_silently() -> None:
    result = transform_module(AutoFixCommand(CodemodContext()), "import jax\nx = jax.vmap(f)\n")
    assert isinstance(result, TransformSkip)
    assert result.skip_description == "no spmdfix finding"
    assert result.warning_messages == []


def _codemod(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "libcst.tool", "codemod", *args],
        cwd=cwd,
        check=False,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("command", "case", "extra"),
    [
        ("commands.StripSpecEntriesCommand", "strip/basic_1d_spec", []),
        ("commands.RenameSpmdAxisCommand", "rename/unsafe_size_mismatch", ["--unsafe-fixes"]),
        ("commands.AddMeshAxisCommand", "add-axis/mesh_reshape_basic", []),
        ("commands.AutoFixCommand", "strip/basic_1d_spec", ["--strategy", "strip"]),
    ],
)
@pytest.mark.e2e
def test_libcst_tool_command_line_rewrites_a_golden_input(
    tmp_path: Path, command: str, case: str, extra: list[str]
) -> None:
    target = tmp_path / "model.py"
    shutil.copy(GOLDEN / case / "input.py", target)
    # Run from the repository root: libcst.tool finds .libcst.codemod.yaml by walking up from the cwd.
    proc = _codemod(ROOT, command, "--no-format", "--hide-progress", *extra, str(target))
    assert proc.returncode == 0, proc.stderr
    assert "Transformed 1 files successfully." in proc.stderr
    assert target.read_bytes() == (GOLDEN / case / "expected.py").read_bytes()


@pytest.mark.e2e
def test_libcst_tool_reports_warnings_and_leaves_refused_file(tmp_path: Path) -> None:
    target = tmp_path / "model.py"
    shutil.copy(GOLDEN / "refuse" / "strip_psum_over_spmd_axis" / "input.py", target)
    before = target.read_bytes()
    proc = _codemod(
        ROOT, "commands.StripSpecEntriesCommand", "--no-format", "--hide-progress", "--unsafe-fixes", str(target)
    )
    assert proc.returncode == 0, proc.stderr
    assert "Skipped 1 files." in proc.stderr
    assert "(not fixed: strip: " in proc.stderr
    assert target.read_bytes() == before


@pytest.mark.e2e
def test_libcst_tool_external_spelling_needs_no_config(tmp_path: Path) -> None:
    target = tmp_path / "model.py"
    shutil.copy(GOLDEN / "strip" / "basic_1d_spec" / "input.py", target)
    proc = _codemod(
        tmp_path,
        "-x",
        "spmdfix.codemods.commands.StripSpecEntriesCommand",
        "--no-format",
        "--hide-progress",
        str(target),
    )
    assert proc.returncode == 0, proc.stderr
    assert target.read_bytes() == (GOLDEN / "strip" / "basic_1d_spec" / "expected.py").read_bytes()


@pytest.mark.e2e
def test_libcst_tool_lists_the_commands() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "list"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    listed = {line.split(" - ")[0] for line in proc.stdout.splitlines()}
    assert {
        "commands.RenameSpmdAxisCommand",
        "commands.AddMeshAxisCommand",
        "commands.StripSpecEntriesCommand",
        "commands.MovePlacementCommand",
        "commands.LiftCapturesCommand",
        "commands.DisableCheckVmaCommand",
        "commands.DropSpmdAxisCommand",
        "commands.AutoFixCommand",
    } <= listed
    assert not any("_SpmdfixCommand" in name for name in listed)


def test_command_uses_the_files_settings_and_suppressions(tmp_path: Path) -> None:
    """With libcst naming the file, a command runs what `spmdfix fix` runs on it: the `new-axis` of the
    project's `[tool.spmdfix]`, and a collision whose line says `# noqa` left alone."""
    (tmp_path / "pyproject.toml").write_text('[tool.spmdfix]\nnew-axis = "rep"\n')
    path = tmp_path / "model.py"
    source = (ROOT / "examples" / "minimal.py").read_text(encoding="utf-8")
    context = CodemodContext(filename=str(path))
    result = transform_module(AutoFixCommand(context), source)
    assert isinstance(result, TransformSuccess)
    assert "spmd_axis_name='rep'" in result.code and "('rep', 'i')" in result.code
    # The flag wins over the setting.
    assert "spmd_axis_name='dp'" in transform_module(AutoFixCommand(context, new_axis="dp"), source).code
    # Both findings of the shard_map suppressed on their line: nothing to fix.
    marked = source.replace("out_specs=P('i'))", "out_specs=P('i'))  # noqa: SPMD001, SPMD002")
    assert marked != source
    result = transform_module(AutoFixCommand(CodemodContext(filename=str(path))), marked)
    assert isinstance(result, TransformSkip)


@pytest.mark.e2e
def test_libcst_tool_leaves_files_the_settings_exclude_or_gitignore_ignores(tmp_path: Path) -> None:
    """libcst's own walk finds every file; each command skips the ones `spmdfix fix .` would not write: under
    an `extend-exclude`d directory, a default exclude (`build`), or a directory `.gitignore` ignores."""
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / ".gitignore").write_text("ignored/\n*_local.py\n")
    (tmp_path / "spmdfix.toml").write_text('extend-exclude = ["gen"]\n')
    case = GOLDEN / "add-axis" / "mesh_reshape_basic"
    where = ["src/model.py", "ignored/model.py", "gen/model.py", "build/model.py", "src/mine_local.py"]
    for name in where:
        (tmp_path / name).parent.mkdir(exist_ok=True)
        shutil.copy(case / "input.py", tmp_path / name)
    proc = _codemod(tmp_path, "-x", "spmdfix.codemods.commands.AutoFixCommand", "--no-format", "--hide-progress", ".")
    assert proc.returncode == 0, proc.stderr
    assert "Transformed 1 files successfully." in proc.stderr and "Skipped 4 files." in proc.stderr
    assert "ignored/model.py: ignored by .gitignore" in proc.stderr
    assert "gen/model.py: excluded by the spmdfix settings (`exclude` / `extend-exclude`)" in proc.stderr
    changed = [name for name in where if (tmp_path / name).read_bytes() != (case / "input.py").read_bytes()]
    assert changed == ["src/model.py"]
    assert (tmp_path / "src/model.py").read_bytes() == (case / "expected.py").read_bytes()


def test_a_collision_at_another_modules_shard_map_is_reported_with_the_command_that_fixes_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 20's standard layout, the command run on train.py (the vmap's module): the vmap is followed into
    model.py's shard_map as `spmdfix fix` follows it (the command said "no spmdfix finding"). The add-axis
    fix edits config.py and train.py, which a codemod of train.py does not apply: each finding is reported at
    model.py's spec with the `spmdfix fix` that applies it; drop-spmd-axis, an edit of train.py alone, is
    applied."""
    from test_partial_runs import TRAIN, standard

    root = standard(tmp_path)
    monkeypatch.chdir(root)
    train = root / "src" / "pkg" / "train.py"
    result = transform_module(AutoFixCommand(CodemodContext(filename=str(train))), TRAIN)
    assert isinstance(result, TransformSkip), result
    assert result.skip_description == "2 findings left unfixed"
    assert [w.split(" ", 2)[:2] for w in result.warning_messages] == [
        ["src/pkg/model.py:12:55:", "SPMD001"],
        ["src/pkg/model.py:12:74:", "SPMD002"],
    ]
    for warning in result.warning_messages:
        assert warning.endswith(
            "(not fixed: the add-axis fix edits src/pkg/config.py, src/pkg/train.py; `spmdfix fix src/pkg/train.py` applies it)"
        ), warning
    dropped = transform_module(DropSpmdAxisCommand(CodemodContext(filename=str(train))), TRAIN)
    assert isinstance(dropped, TransformSuccess), dropped
    assert "spmd_axis_name" not in dropped.code and "jax.vmap(forward" in dropped.code
