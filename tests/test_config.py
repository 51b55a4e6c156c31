"""Configuration: where it is found, what each key means, how flags override it, and the errors it gives."""

from __future__ import annotations

import importlib.metadata
import shutil
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN
from spmdfix.cli import main
from spmdfix.config import Resolver, find_config, load_settings
from spmdfix.model import AUTO, Transform
from spmdfix.overrides import Overrides
from spmdfix.settings import ConfigError, Settings, installed_jax_version
from spmdfix.settings_keys import render_settings

CASE = GOLDEN / "add-axis" / "mesh_reshape_basic"  # SPMD001 and SPMD002, each with a safe add-axis fix


def run(*args: str):
    return CliRunner().invoke(main, ["--help"] if not args else list(args), catch_exceptions=False)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    shutil.copy(CASE / "input.py", tmp_path / "pkg" / "model.py")
    shutil.copy(CASE / "input.py", tmp_path / "pkg" / "sub" / "model.py")
    return tmp_path


def test_pyproject_table_is_read(project: Path) -> None:
    (project / "pyproject.toml").write_text(
        '[project]\nname = "x"\n\n[tool.spmdfix]\nstrategy = "rename"\nnew-axis = "b2"\nunsafe-fixes = true\n'
        'select = ["SPMD001"]\ntarget-jax-version = "0.7.1"\n'
    )
    settings = Resolver().for_path(project / "pkg" / "model.py")
    assert settings.source == project / "pyproject.toml"
    assert settings.strategy == Transform.RENAME
    assert settings.new_axis == "b2"
    assert settings.unsafe_fixes is True
    assert settings.target_jax_version == "0.7.1"
    assert settings.enabled_codes(project / "pkg" / "model.py") == {"SPMD001"}


def test_closest_file_wins_and_spmdfix_toml_beats_pyproject(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.spmdfix]\nnew-axis = "root"\n')
    (project / "pkg" / "pyproject.toml").write_text('[tool.spmdfix]\nnew-axis = "from_pyproject"\n')
    (project / "pkg" / "spmdfix.toml").write_text('new-axis = "from_spmdfix_toml"\n')
    (project / "pkg" / "sub" / "pyproject.toml").write_text('[project]\nname = "no-table"\n')  # skipped
    resolver = Resolver()
    assert resolver.for_path(project / "x.py").new_axis == "root"
    assert resolver.for_path(project / "pkg" / "model.py").new_axis == "from_spmdfix_toml"
    assert resolver.for_path(project / "pkg" / "sub" / "model.py").source == project / "pkg" / "spmdfix.toml"
    assert find_config(project / "pkg" / "sub") == project / "pkg" / "spmdfix.toml"


def test_no_config_gives_the_defaults(project: Path) -> None:
    settings = Resolver().for_path(project / "pkg" / "model.py")
    assert settings.source is None
    assert settings.strategy == AUTO and settings.new_axis == "batch" and settings.unsafe_fixes is False
    assert "build" in settings.exclude and ".venv" in settings.exclude and "node_modules" in settings.exclude


def test_target_jax_version_defaults_to_installed_jax_else_newest(monkeypatch: pytest.MonkeyPatch) -> None:
    installed_jax_version.cache_clear()
    assert Settings().jax_version() == importlib.metadata.version("jax")

    def missing(name: str) -> str:
        raise importlib.metadata.PackageNotFoundError(name)

    monkeypatch.setattr(importlib.metadata, "version", missing)
    installed_jax_version.cache_clear()
    try:
        assert Settings().jax_version() == "0.10.2"
    finally:
        installed_jax_version.cache_clear()


def test_select_and_ignore_the_more_specific_wins(tmp_path: Path) -> None:
    f = tmp_path / "a.py"
    assert Settings(select=("SPMD",), ignore=("SPMD00",)).enabled_codes(f) == {"SPMD900", "SPMD901", "SPMD910"}
    assert Settings(select=("SPMD001",), ignore=("SPMD",)).enabled_codes(f) == {"SPMD001"}
    assert Settings(select=("SPMD001",), ignore=("SPMD001",)).enabled_codes(f) == frozenset()  # tie: ignore
    assert "SPMD002" in Settings(select=("ALL",)).enabled_codes(f)


def test_per_file_ignores_globs(project: Path) -> None:
    (project / "spmdfix.toml").write_text(
        '[per-file-ignores]\n"pkg/sub/*" = ["SPMD002"]\n"model.py" = ["SPMD001"]\n"!pkg/*" = ["SPMD9"]\n'
    )
    settings = load_settings(project / "spmdfix.toml")
    top = settings.enabled_codes(project / "pkg" / "model.py")
    deep = settings.enabled_codes(project / "pkg" / "sub" / "model.py")
    other = settings.enabled_codes(project / "other.py")
    assert "SPMD001" not in top and "SPMD002" in top and "SPMD900" in top
    assert "SPMD001" not in deep and "SPMD002" not in deep
    assert "SPMD900" not in other and "SPMD001" in other  # negated glob: every file outside pkg/


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('stratgy = "auto"\n', "unknown key in the file `stratgy` (did you mean `strategy`?)"),
        ('unsafe-fixes = "yes"\n', "`unsafe-fixes` must be true or false, got str 'yes'"),
        ('select = ["E501"]\n', "`select`: unknown rule code or prefix 'E501'"),
        ('select = "SPMD"\n', "`select` must be a list of strings, got str 'SPMD'"),
        ('strategy = "fast"\n', "`strategy` must be one of auto, rename, add-axis, strip"),
        ('new-axis = "two words"\n', "`new-axis` must be an identifier"),
        ('target-jax-version = "latest"\n', "`target-jax-version` must be a version"),
        ('layout-changing-fixes = "maybe"\n', '`layout-changing-fixes` must be "safe" or "unsafe"'),
        ('[per-file-ignores]\n"t/*" = ["SPMD99"]\n', "`per-file-ignores`['t/*']: unknown rule code or prefix 'SPMD99'"),
        ("exclude = [\n", "invalid TOML"),
    ],
)
def test_bad_config_exits_2_naming_file_and_key(project: Path, text: str, expected: str) -> None:
    path = project / "spmdfix.toml"
    path.write_text(text)
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    assert str(path) in str(err.value) and expected in str(err.value)
    result = CliRunner().invoke(main, ["check", "pkg"])
    assert result.exit_code == 2
    assert str(path) in result.stderr and expected in result.stderr


def test_bad_key_in_pyproject_names_the_table(project: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.spmdfix]\nselct = ["SPMD"]\n')
    result = CliRunner().invoke(main, ["fix", "--diff", "pkg"])
    assert result.exit_code == 2
    assert (
        f"{project / 'pyproject.toml'}: unknown key in [tool.spmdfix] `selct` (did you mean `select`?)" in result.stderr
    )


def test_flags_override_the_file(project: Path) -> None:
    (project / "spmdfix.toml").write_text('select = ["SPMD001"]\nunsafe-fixes = true\nnew-axis = "cfg"\n')
    settings = Resolver(Overrides(select=("SPMD002",), unsafe_fixes=False, new_axis="flag")).for_path(project / "a.py")
    assert settings.enabled_codes(project / "a.py") == {"SPMD002"}
    assert settings.unsafe_fixes is False and settings.new_axis == "flag"
    only_config = run("check", "pkg/model.py")
    assert "SPMD001" in only_config.stdout and "SPMD002" not in only_config.stdout
    flagged = run("check", "--select", "SPMD002", "pkg/model.py")
    assert "SPMD002" in flagged.stdout and "SPMD001" not in flagged.stdout
    with pytest.raises(ConfigError, match="command line: `select`"):
        Overrides(select=("NOPE1",)).apply(Settings(), project)


def test_config_new_axis_and_strategy_drive_fix(project: Path) -> None:
    (project / "spmdfix.toml").write_text('new-axis = "vbatch"\nstrategy = "add-axis"\n')
    result = run("fix", "--diff", "pkg/model.py")
    assert result.exit_code == 1
    assert "spmd_axis_name='vbatch'" in result.stdout or 'spmd_axis_name="vbatch"' in result.stdout
    assert "'vbatch'" in result.stdout
    assert "'vbatch'" not in run("fix", "--diff", "--new-axis", "other", "pkg/model.py").stdout


def test_layout_changing_fixes_setting_reaches_the_options(project: Path) -> None:
    from spmdfix.file_settings import file_settings

    assert Settings().layout_changing_fixes == "safe"
    (project / "pyproject.toml").write_text('[tool.spmdfix]\nlayout-changing-fixes = "unsafe"\n')
    settings = Resolver().for_path(project / "pkg" / "model.py")
    assert settings.layout_changing_fixes == "unsafe"
    options = file_settings(settings, project / "pkg" / "model.py").options
    # a field of the options, so the results cache's key (`cache_keys.settings_digest`) changes with it
    assert options.layout_changing_fixes == "unsafe"
    assert options != file_settings(Settings(), project / "pkg" / "model.py").options
    assert 'layout-changing-fixes = "unsafe"' in render_settings(settings, project / "pkg" / "model.py")


def test_layout_changing_fixes_unsafe_keeps_a_safe_add_axis_from_being_applied(project: Path) -> None:
    # CASE's add-axis is safe (a size-1 axis on an Auto mesh): applied by default
    assert "spmd_axis_name='batch'" in run("fix", "--diff", "--strategy", "add-axis", "pkg/model.py").stdout
    (project / "spmdfix.toml").write_text('layout-changing-fixes = "unsafe"\n')
    held = run("fix", "--diff", "--strategy", "add-axis", "pkg/model.py")
    assert "spmd_axis_name='batch'" not in held.stdout
    shown = run("check", "--show-fixes", "pkg/model.py").stdout
    assert 'fix [unsafe] add-axis' in shown
    assert 'the settings make layout-changing fixes unsafe (`layout-changing-fixes = "unsafe"`)' in shown
    forced = run("fix", "--diff", "--strategy", "add-axis", "--unsafe-fixes", "pkg/model.py")
    assert "spmd_axis_name='batch'" in forced.stdout
    # one run's `--config KEY=VALUE` says the same (README), with no settings file
    (project / "spmdfix.toml").unlink()
    inline = run("fix", "--diff", "--strategy", "add-axis", "--config", 'layout-changing-fixes = "unsafe"', "pkg/model.py")
    assert "spmd_axis_name='batch'" not in inline.stdout


def test_config_command_and_show_settings_print_the_source(project: Path) -> None:
    (project / "pkg" / "spmdfix.toml").write_text('ignore = ["SPMD002"]\nextend-exclude = ["gen/*.py"]\n')
    shown = run("config", "pkg/model.py")
    assert shown.exit_code == 0
    assert f"# Settings file: {project / 'pkg' / 'spmdfix.toml'}" in shown.stdout
    assert 'ignore = ["SPMD002"]' in shown.stdout
    assert f'extend-exclude = ["{(project / "pkg" / "gen").as_posix()}/*.py"]' in shown.stdout
    from_check = run("check", "--show-settings", "--new-axis", "zz", "pkg/model.py")
    assert from_check.exit_code == 0 and 'new-axis = "zz"' in from_check.stdout
    assert "none (defaults" in run("config").stdout


def test_rendered_settings_load_back_as_the_same_settings(project: Path) -> None:
    (project / "spmdfix.toml").write_text(
        'strategy = "strip"\nignore = ["SPMD9"]\nexclude = ["gen", "a/b"]\n[per-file-ignores]\n"t/*" = ["SPMD001"]\n'
    )
    settings = load_settings(project / "spmdfix.toml")
    again = project / "again" / "spmdfix.toml"
    again.parent.mkdir()
    again.write_text(render_settings(settings, project))
    assert tomllib.loads(again.read_text())["strategy"] == "strip"
    reloaded = load_settings(again)
    for name in ("strategy", "ignore", "exclude", "per_file_ignores", "new_axis", "select"):
        assert getattr(reloaded, name) == getattr(settings, name), name
    assert reloaded.jax_version() == settings.jax_version()
