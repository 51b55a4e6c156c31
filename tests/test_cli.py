"""The command line end to end with click's CliRunner: exit codes, text/JSON output, diff, fix in place."""

from __future__ import annotations

import json
import re
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

import spmdfix.fix_engine as fix_engine_module
import spmdfix.cli.output as cli_output
import spmdfix.cli.terminal as cli_terminal
import spmdfix.runner.one_file as one_file_module
import spmdfix.runner.schedule as schedule_module
from golden import GOLDEN, ROOT, finding_lines
from spmdfix import __version__, pipeline
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
    found = finding_lines((CASE / "findings.txt").read_text().splitlines())
    for line in found:
        pos, code = line.split(" ")[:2]
        assert f"model.py:{pos}: {code}" in result.output
    assert "Found 2 errors." in result.output


def test_check_json_has_ruff_fields_and_the_auto_fix(work: Path) -> None:
    result = run("check", "--output-format", "json", "model.py")
    assert result.exit_code == 1
    records = json.loads(result.stdout)
    assert {r["code"] for r in records} == {"SPMD001", "SPMD002"}
    first = records[0]
    assert first["filename"] == str(work / "model.py")
    assert set(first["location"]) == {"row", "column"}
    assert first["fix"]["applicability"] == "safe"
    assert first["fix"]["message"].startswith("Add mesh axis `'batch'`")
    assert first["fix"]["edits"] and all(
        {"content", "location", "end_location"} <= set(e) for e in first["fix"]["edits"]
    )
    assert first["related"][0]["message"].startswith("`spmd_axis_name`")
    assert first["url"].endswith("SPMD001.md")


@pytest.mark.e2e
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


def test_fix_accepts_no_cache_as_check_does(work: Path) -> None:
    """A command line switched from `check --no-cache` to `fix` (newuser8) was a usage error; `fix` uses no
    results cache, so the switch changes nothing and writes no cache directory."""
    result = run("fix", "--no-cache", "--diff", "model.py")
    assert result.exit_code == 1, result.output
    assert result.stdout.startswith("--- a/model.py\n")
    assert not (work / ".spmdfix_cache").exists()


def test_unreadable_and_unparsable_files_are_reported_and_the_run_goes_on(work: Path) -> None:
    (work / "bad.py").write_bytes(b"import jax\nx = '\xff'\n")
    (work / "broken.py").write_text("from jax import vmap, shard_map\nvmap(f, spmd_axis_name='i')\ndef f(:\n")
    result = run("check", ".")
    assert result.exit_code == 1
    assert "bad.py:2:6: SPMD901" in result.output
    assert "broken.py:3:" in result.output and "SPMD900" in result.output
    assert "model.py:" in result.output
    fixed = run("fix", ".")
    assert fixed.exit_code == 1  # SPMD900 and SPMD901 stay
    assert (work / "broken.py").read_text() == "from jax import vmap, shard_map\nvmap(f, spmd_axis_name='i')\ndef f(:\n"


def test_an_undecodable_file_is_located_at_its_first_bad_byte(work: Path) -> None:
    """SPMD901 for bytes that do not decode is located where its message says, so that an editor, a SARIF
    viewer or a GitHub annotation marks that line (it was at 1:1); the column counts characters, as the
    other findings' columns do (`é` before the byte is one column); a file that cannot be read at all stays
    at 1:1."""
    (work / "bad.py").write_bytes(b"import jax\nx = '\xc3\xa9\xff'\n")  # `é`, then a byte that is not UTF-8
    text = invoke("check", "bad.py")
    assert text.stdout.startswith("bad.py:2:7: SPMD901 cannot decode as utf-8: byte 0xff at line 2, column 7 ")
    (record,) = json.loads(invoke("check", "--output-format", "json", "bad.py").stdout)
    assert record["location"] == {"row": 2, "column": 7} and record["end_location"] == {"row": 2, "column": 8}
    github = invoke("check", "--output-format", "github", "bad.py").stdout
    assert "file=bad.py,line=2,col=7,endLine=2,endColumn=8::cannot decode" in github
    sarif = json.loads(invoke("check", "--output-format", "sarif", "bad.py").stdout)
    region = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (2, 7)
    stdin = invoke("check", "-", "--stdin-filename", "bad.py", input=(work / "bad.py").read_bytes())
    assert stdin.stdout.startswith("bad.py:2:7: SPMD901")


def test_an_undecodable_file_is_counted_as_a_syntax_error_is(work: Path) -> None:
    """SPMD900 and SPMD901 are both findings: "Found N errors." and the summary's findings count both, and
    neither is a file error (ruff counts its syntax errors and E902 alike among its "errors"; newuser6's
    trial: the summary counted SPMD901 among the file errors, SPMD900 among the findings)."""
    (work / "bad.py").write_bytes(b"import jax\nx = '\xff'\n")
    (work / "broken.py").write_text("from jax import vmap, shard_map\nvmap(f, spmd_axis_name='i')\ndef f(:\n")
    checked = invoke("check", "--output-format", "concise", "bad.py", "broken.py")
    assert checked.exit_code == 1
    assert "Found 2 errors." in checked.stdout
    assert checked.stderr.endswith("2 files scanned, 1 parsed; 2 findings; 0 file errors.\n")
    fixed = invoke("fix", "bad.py", "broken.py")
    assert fixed.exit_code == 1
    assert "fixes applied: none; 2 findings left in bad.py, broken.py" in fixed.stderr
    assert fixed.stderr.endswith("; 0 file errors.\n")
    alone = invoke("fix", "--diff", "bad.py")
    assert "fixes to apply: none; 1 finding left in bad.py" in alone.stderr


def test_a_run_that_finds_no_file_says_so_as_ruff_does(work: Path) -> None:
    # An empty directory, or one without Python files, used to end with "All checks passed!" alone: a JAX
    # engineer who mistyped a path or pointed at the wrong directory was told it is clean (newuser6).
    (work / "empty").mkdir()
    (work / "docs").mkdir()
    (work / "docs" / "notes.txt").write_text("vmap shard_map\n")
    warning = "warning: No Python files found under the given path(s)"
    for args in (("check", "empty"), ("check", "docs"), ("fix", "docs"), ("check", "--add-noqa", "docs")):
        result = CliRunner().invoke(main, list(args))
        assert result.exit_code == 0, (args, result.output)
        assert result.stderr.count(warning) == 1, (args, result.stderr)
    assert "All checks passed!" in run("check", "empty").output
    # -q and --silent keep it out, and a run that found a file never says it.
    assert warning not in CliRunner().invoke(main, ["check", "-q", "empty"]).stderr
    assert warning not in CliRunner().invoke(main, ["check", "--silent", "empty"]).stderr
    assert warning not in CliRunner().invoke(main, ["check", "model.py", "empty"]).stderr
    # `fix --report` checks the files twice: said once.
    report = CliRunner().invoke(main, ["fix", "--report", "r.md", "docs"])
    assert report.stderr.count(warning) == 1, report.stderr


def test_server_is_the_language_server_as_ruff_names_it() -> None:
    # `ruff server` is ruff's language server; a ruff user types `spmdfix server` (newuser6). Not listed.
    helped = run("server", "--help")
    assert helped.exit_code == 0 and "Run the language server" in helped.output and "--tcp" in helped.output
    assert "\n  server " not in run("--help").output


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


# --- whole-codebase runs: stdin, jobs, progress, summary, formats, interactive, data safety ----------


EXPECTED = (CASE / "expected.py").read_bytes()

# Two independent collisions (two meshes, two shard_maps, two vmaps): two add-axis fixes that do not overlap.
TWO = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh_a = Mesh(np.array(jax.devices()).reshape(8), ('i',))
mesh_b = Mesh(np.array(jax.devices()).reshape(8), ('j',))


def f(x):
    return jax.shard_map(lambda v: v * 2, mesh=mesh_a, in_specs=P('i'), out_specs=P('i'))(x)


def g(x):
    return jax.shard_map(lambda v: v + 1, mesh=mesh_b, in_specs=P('j'), out_specs=P('j'))(x)


def main(xs):
    return jax.vmap(f, spmd_axis_name='i')(xs), jax.vmap(g, spmd_axis_name='j')(xs)
"""
MESH_A_FIXED = "mesh_a = Mesh(np.array(jax.devices()).reshape(1, 8), ('batch', 'i'))"
MESH_B_FIXED = "mesh_b = Mesh(np.array(jax.devices()).reshape(1, 8), ('batch', 'j'))"


def invoke(*args: str, input: str | bytes | None = None):
    return CliRunner().invoke(main, list(args), input=input, catch_exceptions=False)


def test_stdin_fix_writes_the_fixed_source_to_stdout(work: Path) -> None:
    source = (CASE / "input.py").read_bytes()
    result = invoke("fix", "-", "--stdin-filename", "model.py", input=source)
    assert result.exit_code == 0
    assert result.stdout_bytes == EXPECTED
    assert "fixes applied: add-axis 1" in result.stderr
    diff = invoke("fix", "-", "--diff", "--stdin-filename", "model.py", input=source)
    assert diff.exit_code == 1 and diff.stdout.startswith("--- a/model.py\n+++ b/model.py\n")
    clean = invoke("fix", "-", input=EXPECTED)
    assert clean.exit_code == 0 and clean.stdout_bytes == EXPECTED


def test_stdin_check_resolves_config_for_the_filename(work: Path) -> None:
    (work / "pkg").mkdir()
    (work / "pkg" / "spmdfix.toml").write_text('select = ["SPMD002"]\n')
    source = (CASE / "input.py").read_text()
    result = invoke("check", "-", "--stdin-filename", "pkg/m.py", input=source)
    assert result.exit_code == 1
    assert "pkg/m.py:14:77: SPMD002" in result.stdout and "SPMD001" not in result.stdout
    unconfigured = invoke("check", "-", "--stdin-filename", "m.py", input=source)
    assert "m.py:14:54: SPMD001" in unconfigured.stdout


def test_stdin_force_exclude_echoes_the_input(work: Path) -> None:
    source = (CASE / "input.py").read_bytes()
    result = invoke("fix", "-", "--stdin-filename", "build/m.py", "--force-exclude", input=source)
    assert result.exit_code == 0 and result.stdout_bytes == source
    checked = invoke("check", "-", "--stdin-filename", "build/m.py", "--force-exclude", input=source)
    assert checked.exit_code == 0 and checked.stdout == ""
    assert invoke("check", "-", "model.py", input=source).exit_code == 2  # stdin mixed with paths


def _tree(root: Path, n: int) -> list[str]:
    names = []
    for i in range(n):
        path = root / f"d{i % 3}" / f"m{i:02d}.py"
        path.parent.mkdir(exist_ok=True)
        shutil.copy(CASE / "input.py", path)
        names.append(path.relative_to(root).as_posix())
    return sorted(names, key=lambda s: s.split("/"))


def test_jobs_give_the_same_report_in_sorted_path_order(work: Path) -> None:
    names = _tree(work, 9)
    serial = invoke("check", "-j", "1", ".")
    parallel = invoke("check", "-j", "4", ".")
    assert serial.stdout == parallel.stdout
    reported = [line.split(":")[0] for line in serial.stdout.splitlines() if ": SPMD" in line]
    assert list(dict.fromkeys(reported)) == [*names, "model.py"]
    assert invoke("fix", "-j", "3", ".").exit_code == 0
    assert all((work / name).read_bytes() == EXPECTED for name in names)


def test_progress_bar_only_on_a_terminal_with_many_files(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for i in range(50):  # and model.py: 51 files
        (work / f"f{i:02d}.py").write_text("x = 1\n")
    assert "Scanning" not in invoke("check", "-j", "1", ".").stderr
    monkeypatch.setattr(cli_terminal, "stderr_is_tty", lambda: True)
    assert "Scanning" in invoke("check", "--no-cache", "-j", "1", ".").stderr
    assert "Scanning" not in invoke("check", "-j", "1", ".").stderr  # the cache serves all 51: none to scan
    (work / "f00.py").unlink()
    assert "Scanning" not in invoke("check", "--no-cache", "-j", "1", ".").stderr  # 50 files: no bar


def test_closing_summary_on_stderr(work: Path) -> None:
    (work / "plain.py").write_text("x = 1\n")
    shutil.copy(GOLDEN / "rename" / "unsafe_size_mismatch" / "input.py", work / "u.py")
    checked = invoke("check", ".")
    assert checked.stderr.endswith("spmdfix: 3 files scanned, 2 parsed; 4 findings; 0 file errors.\n")
    fixed = invoke("fix", "--strategy", "rename", ".")
    assert fixed.stderr.endswith(
        "spmdfix: 3 files scanned, 2 parsed; fixes applied: none; 4 findings left in model.py, u.py"
        " (`spmdfix check model.py u.py` shows them); 2 unsafe fixes left (--unsafe-fixes); 0 file errors.\n"
    )
    applied = invoke("fix", ".")
    assert "fixes applied: add-axis 2; 0 findings left; 0 file errors." in applied.stderr


def test_fix_counts_the_findings_of_a_file_it_cannot_write(work: Path) -> None:
    (work / "model.py").chmod(0o444)
    fixed = invoke("fix", ".")
    assert fixed.exit_code == 1
    assert "model.py: not written: the file is read-only" in fixed.stderr
    # The file is named among those whose findings are left (it was not: "3 findings left in broken.py, latin.py"
    # for a run whose read-only file kept 2 of them, newuser6).
    assert fixed.stderr.endswith(
        "spmdfix: 1 file scanned, 1 parsed; fixes applied: none; 2 findings left in model.py"
        " (`spmdfix check model.py` shows them); 1 file error.\n"
    )
    assert (work / "model.py").read_bytes() == (CASE / "input.py").read_bytes()


def test_other_output_formats_and_output_file(work: Path) -> None:
    lines = invoke("check", "--output-format", "json-lines", "model.py")
    assert lines.exit_code == 1
    assert [json.loads(line)["code"] for line in lines.stdout.splitlines()] == ["SPMD001", "SPMD002"]
    sarif = json.loads(invoke("check", "--output-format", "sarif", "model.py").stdout)
    assert sarif["version"] == "2.1.0" and sarif["runs"][0]["tool"]["driver"]["version"] == __version__
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["SPMD001", "SPMD002"]
    github = invoke("check", "--output-format", "github", "model.py").stdout.splitlines()
    assert len(github) == 2 and github[0].startswith("::error") and "file=model.py,line=14,col=54" in github[0]
    to_file = invoke("check", "--output-format", "json", "--output-file", "out/report.json", "model.py")
    assert to_file.exit_code == 1 and to_file.stdout == ""
    assert len(json.loads((work / "out" / "report.json").read_text())) == 2


def test_formats_get_the_json_records(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = {}

    class Fake:
        @staticmethod
        def github(records: list[dict]) -> str:
            seen["records"] = records
            return "FAKE\n"

    monkeypatch.setattr(cli_output, "formats_module", lambda: Fake)
    result = invoke("check", "--output-format", "github", "model.py")
    assert result.stdout == "FAKE\n"
    assert seen["records"] == json.loads(invoke("check", "--output-format", "json", "model.py").stdout)


def test_exit_zero(work: Path) -> None:
    assert invoke("check", "--exit-zero", "model.py").exit_code == 0
    shutil.copy(GOLDEN / "rename" / "unsafe_size_mismatch" / "input.py", work / "u.py")
    assert invoke("fix", "--strategy", "rename", "u.py").exit_code == 1
    assert invoke("fix", "--strategy", "rename", "--exit-zero", "u.py").exit_code == 0


def test_show_fixes_in_a_format_of_one_line_a_finding_says_so(work: Path) -> None:
    """`--show-fixes --output-format concise` kept one line a finding and said nothing of the fixes it did not
    show (newuser6's trial): the report is unchanged (ruff's concise shows no fix either) and stderr says where
    the fixes are; the full output lists them and says nothing more."""
    concise = invoke("check", "--show-fixes", "--output-format", "concise", "model.py")
    assert concise.stdout == invoke("check", "--output-format", "concise", "model.py").stdout
    assert "warning: `--show-fixes` shows nothing in `--output-format concise` (one line a finding)" in concise.stderr
    github = invoke("check", "--show-fixes", "--output-format", "github", "model.py")
    assert "shows nothing in `--output-format github`" in github.stderr
    full = invoke("check", "--show-fixes", "model.py")
    assert "  = fix [safe] add-axis (auto):" in full.stdout and "warning" not in full.stderr
    assert "warning" not in invoke("check", "--show-fixes", "--output-format", "json", "model.py").stderr
    fixed = invoke("check", "--fix", "--show-fixes", "--output-format", "concise", "model.py")
    assert "warning: `--show-fixes` shows nothing" in fixed.stderr


def test_two_vmaps_reaching_one_spec_are_told_apart_in_one_line_formats(tmp_path: Path, monkeypatch) -> None:
    """Two vmaps of two modules reaching one shard_map make two findings at each spec entry (each with its own
    fixes), which concise and GitHub output printed as identical lines (newuser7 step 9b): each such line now
    ends with where its vmap is; a finding printed once keeps its line as it was."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "model.py").write_text(
        "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
        "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
        "def block(x):\n    return jax.shard_map(lambda b: b, mesh=MESH, in_specs=P('data'), out_specs=P())(x)\n"
    )
    for name in ("train", "evaluate"):
        (tmp_path / "pkg" / f"{name}.py").write_text(
            "import jax\n\nfrom pkg.model import block\n\n\n"
            "def step(xs):\n    return jax.vmap(block, spmd_axis_name='data')(xs)\n"
        )
    lines = invoke("check", "--output-format", "concise", "pkg").stdout.splitlines()
    found = [line for line in lines if "SPMD001" in line]
    assert len(found) == 2 and len(set(found)) == 2
    assert {line.rsplit(" (vmap at ", 1)[1] for line in found} == {"pkg/evaluate.py:7:43)", "pkg/train.py:7:43)"}
    github = [line for line in invoke("check", "--output-format", "github", "pkg").stdout.splitlines() if line]
    assert len(github) == 2 and len(set(github)) == 2 and all("(vmap at pkg/" in line for line in github)
    (tmp_path / "pkg" / "evaluate.py").unlink()
    alone = invoke("check", "--output-format", "concise", "pkg").stdout
    assert "SPMD001" in alone and "(vmap at" not in alone


def test_interactive_tells_apart_the_findings_of_two_vmaps_at_one_spec(tmp_path: Path, monkeypatch) -> None:
    """Two vmaps reaching one spec make two findings there, each with its own fixes and so its own prompt: each
    prompt's "This fix is for:" line read the same (newuser13); each now ends with where its vmap is, as the
    concise and GitHub formats say it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "model.py").write_text(
        "import jax\nimport numpy as np\nfrom jax.sharding import Mesh, PartitionSpec as P\n\n"
        "MESH = Mesh(np.array(jax.devices()).reshape(2, 4), ('data', 'model'))\n\n\n"
        "def block(x):\n    return jax.shard_map(lambda b: b, mesh=MESH, in_specs=P('data'), out_specs=P())(x)\n"
    )
    for name in ("train", "evaluate"):
        (tmp_path / "pkg" / f"{name}.py").write_text(
            "import jax\n\nfrom pkg.model import block\n\n\n"
            "def step(xs):\n    return jax.vmap(block, spmd_axis_name='data')(xs)\n"
        )
    result = invoke("fix", "--interactive", "pkg/model.py", input="n\n" * 8)
    heads = [
        line for line in result.stdout.splitlines() if line.startswith("  pkg/model.py:") and "SPMD001" in line
    ]
    assert len(heads) >= 2, result.stdout
    assert {line.rsplit(" (vmap at ", 1)[1] for line in heads} == {"pkg/evaluate.py:7:43)", "pkg/train.py:7:43)"}


def test_interactive_asks_per_fix(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    (work / "two.py").write_text(TWO)
    result = invoke("fix", "--interactive", "two.py", input="y\nn\n")
    assert result.exit_code == 1  # g's collision is left
    assert result.stdout.count("Apply this fix?") == 2
    first_diff = result.stdout.split("Apply this fix?")[0].split("--- a/", 1)[1]  # (the findings it is for above)
    assert first_diff.startswith("two.py\n+++ b/two.py\n") and f"+{MESH_A_FIXED}" in first_diff
    assert f"+{MESH_B_FIXED}" not in first_diff  # one diff per fix
    text = (work / "two.py").read_text()
    assert MESH_A_FIXED in text and MESH_B_FIXED not in text


def test_interactive_names_the_findings_each_fix_is_for(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Above each diff, the findings the fix is for, as `check` says them (code, place, message): the diff
    alone did not say which finding it cures (newuser6's trial). Findings that share the fix are named
    together; another fix's are not."""
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    (work / "two.py").write_text(TWO)
    result = invoke("fix", "--interactive", "two.py", input="n\nn\n")
    first, second = result.stdout.split("Apply this fix?")[:2]
    assert first.startswith(
        "This fix is for:\n"
        "  two.py:10:67: SPMD001 vmap `spmd_axis_name` axis `'i'` appears in `in_specs` of a shard_map the vmapped "
        "function reaches; JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs`\n"
        "  two.py:10:85: SPMD002 vmap `spmd_axis_name` axis `'i'` appears in `out_specs`"
    )
    assert "\n--- a/two.py\n+++ b/two.py\n" in first and "axis `'j'`" not in first
    assert "This fix is for:\n  two.py:14:67: SPMD001 vmap `spmd_axis_name` axis `'j'`" in second


def test_interactive_names_the_findings_of_a_fix_across_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A partial run over model.py: the fix is planned from train.py's vmap and the findings are in model.py's
    specs; each is named at its own file's place."""
    from test_partial_runs import spmdfix

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    asked = _standard_tree(tmp_path, "asked")
    done = spmdfix(asked, "fix", "--interactive", "--strategy", "add-axis", "src/pkg/model.py", stdin="n\n")
    question = done.stdout.split("Apply this fix?")[0]
    head = question.split("--- a/")[0]
    assert head.startswith("This fix is for:\n  src/pkg/model.py:")
    assert "SPMD001 vmap `spmd_axis_name` axis `'data'` appears in `in_specs`" in head


def test_interactive_summary_counts_in_words_and_points_at_the_other_fixes(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # "1 fixes applied" read as a typo, and a refused fix left the reviewer with no word of the others
    # (rename, strip, drop-spmd-axis...), which the prompt never offers (newuser6).
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    (work / "two.py").write_text(TWO)
    result = invoke("fix", "--interactive", "two.py", input="y\nn\n")
    assert "1 file changed, 1 fix applied, 2 findings left." in result.stderr, result.stderr  # g: SPMD001, SPMD002
    assert "`spmdfix check --show-fixes` lists the others" in result.stderr
    accepted = invoke("fix", "--interactive", "two.py", input="y\n")
    assert "1 file changed, 1 fix applied, 0 findings left." in accepted.stderr, accepted.stderr
    assert "--show-fixes" not in accepted.stderr  # nothing refused: no pointer


def test_interactive_all_and_quit(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    (work / "a.py").write_text(TWO)
    (work / "b.py").write_text(TWO)
    result = invoke("fix", "-i", "a.py", "b.py", input="a\nq\n")
    assert result.stdout.count("Apply this fix?") == 2  # one for a.py ("all"), one for b.py ("quit")
    assert MESH_A_FIXED in (work / "a.py").read_text() and MESH_B_FIXED in (work / "a.py").read_text()
    assert (work / "b.py").read_text() == TWO


def test_interactive_refuses_without_a_terminal(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: False)
    result = invoke("fix", "--interactive", "model.py", input="y\n")
    assert result.exit_code == 2
    assert "--interactive needs a terminal on stdin" in result.stderr
    assert (work / "model.py").read_bytes() == (CASE / "input.py").read_bytes()


def test_empty_huge_deep_and_undecodable_files(work: Path) -> None:
    (work / "empty.py").write_text("")
    assert invoke("check", "empty.py").stdout == "All checks passed!\n"
    assert invoke("fix", "empty.py").exit_code == 0 and (work / "empty.py").read_text() == ""
    huge = invoke("check", "--max-file-size", "0.0001", "model.py")
    assert huge.exit_code == 0
    assert f"model.py: skipped: {(work / 'model.py').stat().st_size:,} bytes is over the 104 bytes limit" in huge.stderr  # 0.0001 MiB
    deep_text = "import jax  # shard_map\njax.vmap(f, spmd_axis_name='i')\nx = " + "-" * 100_000 + "1\n"
    (work / "deep.py").write_text(deep_text)
    deep = invoke("check", "deep.py")
    assert deep.exit_code == 1 and "deep.py:1:1: SPMD900" in deep.stdout
    (work / "latin.py").write_bytes(b"import jax\nx = '\xe9'\n")
    bad = invoke("check", "latin.py")
    assert bad.exit_code == 1
    assert (
        "latin.py:2:6: SPMD901 cannot decode as utf-8: byte 0xe9 at line 2, column 6 is not UTF-8 and the file "
        "has no PEP 263 coding cookie" in bad.stdout
    )


def test_fixed_text_that_does_not_parse_is_an_internal_error_and_the_run_goes_on(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (work / "two.py").write_text(TWO)
    real = fix_engine_module.apply_edits

    def broken(source, edits):
        new = real(source, edits)
        return new + "def (:\n" if "mesh_b" in source else new

    monkeypatch.setattr(fix_engine_module, "apply_edits", broken)
    result = invoke("fix", "-j", "1", ".")
    assert result.exit_code == 2
    assert "two.py: internal error: the fixed module would not parse" in result.stderr
    assert (work / "two.py").read_text() == TWO
    assert (work / "model.py").read_bytes() == EXPECTED


def test_pre_commit_hooks_file() -> None:
    import yaml

    hooks = {h["id"]: h for h in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text())}
    assert set(hooks) == {"spmdfix-check", "spmdfix-fix"}
    assert hooks["spmdfix-check"]["entry"].startswith("spmdfix check")
    assert hooks["spmdfix-fix"]["entry"].startswith("spmdfix fix")
    for hook in hooks.values():
        assert hook["language"] == "python" and hook["types_or"] == ["python", "pyi", "jupyter"]


@pytest.mark.e2e
def test_a_dying_worker_fails_its_files_not_the_run(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (work / "crash.py").write_text("x = 1\n")
    real = one_file_module.run_file

    def dies_on_crash(job, *args):
        if job.path.name == "crash.py":
            os._exit(3)  # what a segfault in a worker looks like to the pool
        return real(job, *args)

    monkeypatch.setattr(one_file_module, "run_file", dies_on_crash)  # inherited by the forked workers
    monkeypatch.setattr(schedule_module, "SMALL_TREE", 0)  # workers even for a tree this small
    result = invoke("check", "-j", "2", "crash.py", "model.py")
    assert result.exit_code == 2
    assert "crash.py: internal error, file left as it is:\nthe worker process died" in result.stderr
    # Streamed from a walk, the crash shares a batch with the other files: they are run again and keep
    # their findings; only the file that kills a worker of its own fails.
    for i in range(5):
        shutil.copy(work / "model.py", work / f"m{i}.py")
    walked = invoke("check", "-j", "2", "--output-format", "json", ".")
    assert walked.exit_code == 2
    assert {Path(r["filename"]).name for r in json.loads(walked.stdout)} == {"model.py"} | {
        f"m{i}.py" for i in range(5)
    }
    assert walked.stderr.count("the worker process died") == 1
    assert "7 files scanned, 6 parsed; 12 findings; 1 file error." in walked.stderr


@pytest.mark.e2e
def test_a_worker_dying_in_an_analysis_fails_that_file_only(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker that dies while analysing a kept text (the second pass, one text a task): the texts analysed
    beside it keep their findings, every file of the first pass is counted, and only that file fails."""
    real = one_file_module.run_file

    def dies_analysing(job, defer=False):
        if job.path.name == "crash.py" and job.kept and not (defer or job.defer):
            os._exit(3)  # what a segfault in a worker looks like to the pool
        return real(job, defer)

    monkeypatch.setattr(one_file_module, "run_file", dies_analysing)  # inherited by the forked workers
    monkeypatch.setattr(schedule_module, "SMALL_TREE", 0)  # workers even for a tree this small
    shutil.copy(work / "model.py", work / "crash.py")
    for i in range(5):
        shutil.copy(work / "model.py", work / f"m{i}.py")
    for i in range(40):
        (work / f"plain{i}.py").write_text("x = 1\n")
    walked = invoke("check", "-j", "2", "--output-format", "json", ".")
    assert walked.exit_code == 2
    assert {Path(r["filename"]).name for r in json.loads(walked.stdout)} == {"model.py"} | {
        f"m{i}.py" for i in range(5)
    }
    assert walked.stderr.count("the worker process died") == 1
    assert "crash.py: internal error, file left as it is:\nthe worker process died" in walked.stderr
    assert "47 files scanned, 6 parsed; 12 findings; 1 file error." in walked.stderr


def test_interactive_shows_again_a_fix_that_overlapped_an_accepted_one(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    head = TWO.split("mesh_b =")[0]
    one_mesh = head + (
        "\n\ndef f(x):\n"
        "    return jax.shard_map(lambda v: v * 2, mesh=mesh_a, in_specs=P('i'), out_specs=P('i'))(x)\n\n\n"
        "def main(xs):\n"
        "    return jax.vmap(f, spmd_axis_name='i')(xs), jax.vmap(f, spmd_axis_name='i')(xs + 1)\n"
    )
    (work / "one.py").write_text(one_mesh)
    result = invoke("fix", "-i", "one.py", input="y\ny\ny\n")
    # Both add-axis fixes edit the one mesh: the second waits, and on the changed text it becomes a rename
    # to the new axis, shown as its own diff before it is applied. The waiting one is not asked about in the
    # first pass (it was: a "y" to it applied nothing, and across modules its diff was garbled, newuser10).
    prompts = result.stdout.split("Apply this fix?")
    assert len(prompts) == 3
    assert "add-axis (safe)" in prompts[0] and "add-axis" not in prompts[1]
    assert "rename (safe): Rename spmd axis `'i'` to `'batch'`" in prompts[1]
    assert result.exit_code == 0
    assert (work / "one.py").read_text().count("spmd_axis_name='batch'") == 2


def test_add_noqa_counts_an_undecodable_file_as_a_finding(work: Path) -> None:
    (work / "bad.py").write_bytes(b'x = "\xff"\n')
    result = invoke("check", "--add-noqa", "bad.py")
    assert result.exit_code == 1  # as `check` and `fix` do: SPMD901 is a finding, not a usage error
    assert "bad.py: SPMD901 cannot decode" in result.stderr


def test_reports_follow_the_sorted_order_of_the_paths_they_show(work: Path) -> None:
    (work / "sub").mkdir()
    shutil.copy(work / "model.py", work / "sub" / "inner.py")
    for jobs in ("1", "2"):
        result = invoke("check", "-j", jobs, "sub", str(work / "model.py"))
        shown = [line.split(":")[0] for line in result.stdout.splitlines() if ": SPMD" in line]
        assert shown == sorted(shown, key=lambda p: p.split("/")) and shown[0] == "model.py", shown


def test_a_deeply_nested_file_gets_the_same_result_in_one_process_and_in_workers(work: Path) -> None:
    # ast.parse stops at the recursion limit counted from the bottom of the stack, and a worker runs a file
    # deeper in its stack than the main process: runner gives each file the same headroom.
    deep = (work / "model.py").read_text() + "y = " + "+".join(["1"] * 2900) + "\n"
    (work / "deep.py").write_text(deep)
    (work / "other.py").write_text("x = 1\n")
    one, two = (invoke("check", "-j", j, "deep.py", "other.py") for j in ("1", "2"))
    assert one.stdout == two.stdout
    assert "SPMD001" in one.stdout and "SPMD900" not in one.stdout


def test_a_fix_that_fails_leaves_the_files_findings_counted(work: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")  # what libcst does on a very long expression

    monkeypatch.setattr(pipeline, "fix_prepared", broken)
    result = invoke("fix", "-j", "1", "model.py")
    assert result.exit_code == 2
    assert "model.py: internal error, file left as it is:" in result.stderr
    assert result.stderr.endswith(
        "spmdfix: 1 file scanned, 1 parsed; fixes applied: none; 2 findings left in model.py"
        " (`spmdfix check model.py` shows them); 1 file error.\n"
    )
    assert (work / "model.py").read_bytes() == (CASE / "input.py").read_bytes()


def test_a_file_given_that_cannot_be_read_is_a_finding_not_a_usage_error(
    work: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "access", lambda *args, **kwargs: False)  # what click asks; root can read anything
    result = invoke("check", "model.py")
    assert "Invalid value" not in result.stderr
    assert result.exit_code == 1 and "SPMD001" in result.stdout


# --- fix --interactive across modules (issue 20): the standard layout of tests/test_partial_runs.py ---------


def _left_in(output: str) -> int:
    """The number of findings left that a `fix` or `fix --interactive` summary gives."""
    found = re.search(r"(\d+) findings? left", output)
    assert found is not None, output
    return int(found.group(1))


def _standard_tree(tmp_path: Path, name: str) -> Path:
    from test_partial_runs import standard

    root = tmp_path / name
    root.mkdir()
    return standard(root)


def _tree_files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted((root / "src").rglob("*.py"))}


@pytest.mark.parametrize("target", ["src/pkg/model.py", "src/pkg/train.py", "src/pkg"])
@pytest.mark.parametrize("answer", ["y", "n"])
def test_interactive_offers_the_fix_across_modules_and_counts_as_fix_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, answer: str
) -> None:
    """Whichever file is named, the collision of train.py's vmap in model.py's shard_map is offered (its diff
    names train.py, the file the fix edits). Accepting every fix writes what `fix` writes and leaves what it
    leaves; refusing every fix writes nothing and leaves what `check` reports."""
    from test_partial_runs import spmdfix

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    asked, plain = _standard_tree(tmp_path, "asked"), _standard_tree(tmp_path, "plain")
    before = _tree_files(asked)
    done = spmdfix(asked, "fix", "--interactive", target, stdin=f"{answer}\n" * 6)
    assert "Apply this fix?" in done.stdout
    assert "--- a/src/pkg/train.py\n+++ b/src/pkg/train.py\n" in done.stdout
    if answer == "y":
        by_fix = spmdfix(plain, "fix", target)
        assert _tree_files(asked) == _tree_files(plain) != before
        assert _left_in(done.stderr) == _left_in(by_fix.stdout + by_fix.stderr)
    else:
        checked = spmdfix(plain, "check", "--no-cache", "--output-format", "json", target)
        assert _tree_files(asked) == before
        assert _left_in(done.stderr) == len(json.loads(checked.stdout)) == 2
        assert done.returncode == 1


@pytest.mark.parametrize("target", ["src/pkg/model.py", "src/pkg/train.py", "src/pkg"])
@pytest.mark.parametrize("interactive", [False, True])
def test_a_fix_across_modules_with_a_read_only_module_is_written_whole_or_not_at_all(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, interactive: bool
) -> None:
    """add-axis edits config.py's mesh and train.py's spmd_axis_name. With config.py read-only, `fix` wrote
    train.py alone (`spmd_axis_name='batch'` on a mesh without a 'batch' axis: the program broken, where it
    had raised a clear error before) and exited 0 with "0 findings left" (newuser6). Now neither file is
    written, the run says why, and the findings stay."""
    from test_partial_runs import spmdfix

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    root = _standard_tree(tmp_path, "tree")
    before = _tree_files(root)
    config = root / "src/pkg/config.py"
    config.chmod(0o444)
    try:
        args = ("fix", "--interactive", target) if interactive else ("fix", target)
        done = spmdfix(root, *args, stdin="y\n" * 6 if interactive else None)
    finally:
        config.chmod(0o644)
    assert _tree_files(root) == before, done.stderr
    assert "src/pkg/config.py: not written: the file is read-only" in done.stderr
    assert "half-fixed" in done.stderr
    assert _left_in(done.stderr) == 2
    assert done.returncode == 1  # (interactive too: a file not written is a file error, as `fix` says; was 2)
    # `--diff` writes nothing: it still shows the whole fix.
    if not interactive:
        shown = spmdfix(root, "fix", "--diff", target)
        assert "+++ b/src/pkg/config.py" in shown.stdout and "+++ b/src/pkg/train.py" in shown.stdout


@pytest.mark.parametrize("targets", [("src/pkg",), ("src/pkg/train.py", "src/pkg/model.py")])
def test_interactive_asks_once_about_a_fix_across_modules_refused_from_another_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, targets: tuple
) -> None:
    """Over the tree, model.py's turn (a partial run) offers the fix of train.py's vmap; refused there, it is not
    asked about again in train.py's own turn (it was, once per file), and the findings are left as `check`
    reports them."""
    from test_partial_runs import spmdfix

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    asked = _standard_tree(tmp_path, "asked")
    before = _tree_files(asked)
    done = spmdfix(asked, "fix", "--interactive", *targets, stdin="n\n" * 6)
    assert done.stdout.count("Apply this fix?") == 1, done.stdout
    assert _tree_files(asked) == before
    assert _left_in(done.stderr) == 2
    # Accepted in model.py's turn instead, train.py's turn has nothing left to ask.
    done = spmdfix(asked, "fix", "--interactive", *targets, stdin="y\n" * 6)
    assert done.stdout.count("Apply this fix?") == 1, done.stdout
    assert _tree_files(asked) != before and _left_in(done.stderr) == 0


def test_interactive_shows_a_diff_per_file_a_fix_edits(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """add-axis of the standard layout edits train.py (the vmap) and config.py (the mesh): both diffs are shown
    before the question, and accepting it writes both files as `fix` does, saying which other file changed."""
    from test_partial_runs import spmdfix

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    asked, plain = _standard_tree(tmp_path, "asked"), _standard_tree(tmp_path, "plain")
    args = ("--unsafe-fixes", "--strategy", "add-axis", "src/pkg/train.py")
    done = spmdfix(asked, "fix", "--interactive", *args, stdin="y\n")
    question = done.stdout.split("Apply this fix?")[0]
    assert question.count("--- a/") == 2
    assert "+++ b/src/pkg/train.py\n" in question and "+++ b/src/pkg/config.py\n" in question
    # in path order, as `fix --diff` shows them (the fix's own module, train.py, came first)
    assert question.index("+++ b/src/pkg/config.py\n") < question.index("+++ b/src/pkg/train.py\n")
    assert '("batch", DATA, MODEL)' in question
    assert "src/pkg/config.py: changed by a fix of src/pkg/train.py" in done.stderr
    by_fix = spmdfix(plain, "fix", *args)
    assert _tree_files(asked) == _tree_files(plain)
    assert _left_in(done.stderr) == _left_in(by_fix.stdout + by_fix.stderr) == 0


def test_fix_summary_names_the_file_a_cross_module_finding_is_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # breaker5's q19: the vmap in pkg/train.py, the colliding specs in pkg/model.py; `fix` of train.py (no free
    # axis to rename to) leaves the findings where they are located, not in the checked file.
    shutil.copytree(GOLDEN / "add-axis" / "tree_cross_module_config" / "input", tmp_path / "tree")
    monkeypatch.chdir(tmp_path / "tree")
    fixed = invoke("fix", "--strategy", "rename", "pkg/train.py")
    assert "2 findings left in pkg/model.py (`spmdfix check pkg/model.py` shows them)" in fixed.stderr


def test_a_fix_across_modules_is_not_written_over_a_module_changed_during_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """add-axis edits config.py's mesh and train.py's spmd_axis_name; config.py changes on disk after the fixes
    were computed from it (an editor saving it): neither file is written (config.py was read again and written
    over before, train.py written alone if config.py's write failed), the run says which file changed, and
    the findings stay."""
    from spmdfix.cli import crossmodule
    from test_partial_runs import spmdfix

    root = _standard_tree(tmp_path, "tree")
    config = root / "src/pkg/config.py"
    real = crossmodule.cross_module_fixes

    def then_edited(*args, **kwargs):
        found = real(*args, **kwargs)
        config.write_text(config.read_text() + "# saved by an editor meanwhile\n")
        return found

    monkeypatch.setattr(crossmodule, "cross_module_fixes", then_edited)
    before = _tree_files(root)
    done = spmdfix(root, "fix", "src/pkg")
    after = _tree_files(root)
    assert after["src/pkg/config.py"] == before["src/pkg/config.py"] + "# saved by an editor meanwhile\n"
    assert after["src/pkg/train.py"] == before["src/pkg/train.py"], done.stderr
    assert "src/pkg/config.py: not written: the file changed on disk since it was read" in done.stderr
    assert "half-fixed" in done.stderr
    assert _left_in(done.stderr) == 2 and done.returncode == 1


@pytest.mark.parametrize(
    ("changed", "args", "said"),
    [
        # add-axis edits config.py and train.py; the finding and the specs it was judged on are model.py's
        ("model.py", ("--strategy", "add-axis", "src/pkg"), "src/pkg/model.py: changed on disk since the fixes across modules (add-axis) were judged"),
        ("model.py", ("--strategy", "add-axis", "src/pkg/train.py"), "src/pkg/model.py: changed on disk since the fixes across modules (add-axis)"),
        ("model.py", ("--strategy", "add-axis", "src/pkg/model.py"), "src/pkg/model.py: changed on disk since the fixes across modules (add-axis)"),
        # drop-spmd-axis edits train.py alone (a fix of one file), judged on model.py's specs and config.py's mesh
        ("model.py", ("--strategy", "drop-spmd-axis", "src/pkg"), "src/pkg/train.py: not written: src/pkg/model.py changed on disk since the fix was judged"),
        ("config.py", ("--strategy", "drop-spmd-axis", "src/pkg"), "src/pkg/train.py: not written: src/pkg/config.py changed on disk since the fix was judged"),
        # strip edits model.py, from train.py's vmap (a partial run of model.py): judged on train.py
        ("train.py", ("--strategy", "strip", "--unsafe-fixes", "src/pkg/model.py"), "src/pkg/train.py: changed on disk since the fixes across modules (strip)"),
    ],
)
def test_a_fix_is_not_written_when_a_module_it_was_judged_against_changed_during_the_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, changed: str, args: tuple[str, ...], said: str
) -> None:
    """breaker20: only the modules a fix edits were checked for changes before the write; a module its
    judgement read and does not edit (the finding's model.py for add-axis, config.py's mesh for drop-spmd-axis,
    the importer's vmap for a strip) changed between the analysis and the write (an editor saving it), and the
    fix was written all the same. Now nothing is written, the run names the changed module, exit 1, and the
    same run without the change writes the fix (the check refuses nothing else)."""
    from spmdfix.cli import crossmodule
    from test_partial_runs import spmdfix

    root, plain = _standard_tree(tmp_path, "tree"), _standard_tree(tmp_path, "plain")
    victim = root / "src/pkg" / changed
    real = crossmodule.cross_module_fixes  # (called once the first step's fixes are computed, before any write)

    def then_edited(*a, **k):
        found = real(*a, **k)
        victim.write_text(victim.read_text() + "# saved by an editor meanwhile\n")
        return found

    monkeypatch.setattr(crossmodule, "cross_module_fixes", then_edited)
    before = _tree_files(root)
    done = spmdfix(root, "fix", *args)
    after = _tree_files(root)
    moved = f"src/pkg/{changed}"
    assert after[moved] == before[moved] + "# saved by an editor meanwhile\n"
    assert {k: v for k, v in after.items() if k != moved} == {k: v for k, v in before.items() if k != moved}, done.stderr
    assert said in done.stderr, done.stderr
    assert done.returncode == 1 and ": applied " not in done.stderr and "fixes applied: none" in done.stderr
    monkeypatch.setattr(crossmodule, "cross_module_fixes", real)
    control = spmdfix(plain, "fix", *args)
    assert _tree_files(plain) != before and control.returncode == 0, control.stderr


@pytest.mark.parametrize("strategy", ["add-axis", "drop-spmd-axis"])
def test_interactive_writes_no_fix_judged_against_a_module_changed_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, strategy: str
) -> None:
    """`fix --interactive` writes the fixes accepted for a file together; model.py, which their judgement read
    (add-axis edits config.py and train.py, drop-spmd-axis train.py alone), changes while the user is asked:
    nothing is written, the run says which module changed (exit 1, a file error as `fix` counts it)."""
    from spmdfix.cli import interactive
    from test_partial_runs import spmdfix

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    root = _standard_tree(tmp_path, "tree")
    model = root / "src/pkg/model.py"
    real = interactive.cross_module_fixes  # (after the first step's fixes were judged and accepted)

    def then_edited(*a, **k):
        found = real(*a, **k)
        model.write_text(model.read_text() + "# saved by an editor meanwhile\n")
        return found

    monkeypatch.setattr(interactive, "cross_module_fixes", then_edited)
    before = _tree_files(root)
    done = spmdfix(root, "fix", "--interactive", "--strategy", strategy, "src/pkg/train.py", stdin="y\n" * 4)
    assert "Apply this fix?" in done.stdout
    after = _tree_files(root)
    assert after.pop("src/pkg/model.py") == before.pop("src/pkg/model.py") + "# saved by an editor meanwhile\n"
    assert after == before, done.stderr
    assert "src/pkg/train.py: not written: src/pkg/model.py changed on disk since the fix was judged against it" in done.stderr
    assert done.returncode == 1 and "0 files changed" in done.stderr


def test_a_hard_linked_module_is_not_replaced_by_fix(tmp_path: Path) -> None:
    """breaker20: config.py hard-linked as vendor/config_copy.py; `fix`'s atomic rename gave config.py a new
    file and left the other name the old mesh, silently (ruff writes in place and keeps the link). Now the fix
    that edits it is refused whole (train.py untouched too), naming the file and its links; `--diff` still
    shows it (it writes nothing); and a fix of one file elsewhere is written."""
    from test_partial_runs import spmdfix

    root = _standard_tree(tmp_path, "tree")
    (root / "vendor").mkdir()
    os.link(root / "src/pkg/config.py", root / "vendor/config_copy.py")
    before = _tree_files(root)
    done = spmdfix(root, "fix", "--strategy", "add-axis", "src/pkg")
    assert _tree_files(root) == before
    assert "src/pkg/config.py: not written: the file has 2 hard links" in done.stderr, done.stderr
    assert "with the old text" in done.stderr and done.returncode == 1
    assert os.stat(root / "src/pkg/config.py").st_nlink == 2
    shown = spmdfix(root, "fix", "--diff", "--strategy", "add-axis", "src/pkg")
    assert "+++ b/src/pkg/config.py" in shown.stdout and _tree_files(root) == before
    dropped = spmdfix(root, "fix", "--strategy", "drop-spmd-axis", "src/pkg")
    assert dropped.returncode == 0 and _tree_files(root)["src/pkg/train.py"] != before["src/pkg/train.py"]


def test_fix_quiet_says_nothing_of_the_modules_a_fix_across_modules_changed(tmp_path: Path) -> None:
    """`fix -q` prints findings only: neither "applied ..." nor "...: changed by a fix of ..." (newuser6), and
    it still writes what `fix` writes."""
    from test_partial_runs import spmdfix

    quiet, plain = _standard_tree(tmp_path, "quiet"), _standard_tree(tmp_path, "plain")
    done = spmdfix(quiet, "fix", "-q", "src/pkg/model.py")
    said = spmdfix(plain, "fix", "src/pkg/model.py")
    assert "changed by a fix of" in said.stderr and "applied" in said.stderr
    assert "changed by a fix of" not in done.stderr and "applied" not in done.stderr, done.stderr
    assert _tree_files(quiet) == _tree_files(plain)


_STALE_CONFIG = "import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\nmesh = Mesh({devices}, {axes})\n"
_STALE_MODEL = (
    "import jax\nfrom jax.sharding import PartitionSpec as P\n\nfrom pkg.config import mesh\n\n\n"
    "def block(x):\n    return jax.shard_map(lambda b: b * 2.0, mesh=mesh, in_specs=P('data'), out_specs=P('data'))(x)\n"
)
_STALE_TRAIN = (
    "import jax\n\nfrom pkg.model import block\n\n\n"
    "def forward(xs):\n    return jax.vmap(block, spmd_axis_name='data')(xs)\n"
)


def test_a_command_reads_modules_changed_since_an_earlier_command_of_the_process(tmp_path: Path) -> None:
    """A library user's or a test's process runs `check`, the project changes on disk, then `fix`: the fix is
    judged on the files as they are now. Before, the project index of the first command was kept: config.py's
    mesh still had the 'batch' axis it no longer has, so a rename to it looked safe and only train.py was
    written (`spmd_axis_name='batch'`: KeyError under JAX; fuzz/project.py seed 520064)."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "p"\nversion = "0"\n')
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "model.py").write_text(_STALE_MODEL)
    (pkg / "train.py").write_text(_STALE_TRAIN)
    config = pkg / "config.py"
    config.write_text(_STALE_CONFIG.format(devices="np.array(jax.devices()).reshape(1, 8)", axes="('batch', 'data')"))
    first = CliRunner().invoke(main, ["check", "--no-cache", "-j", "1", "--show-fixes", str(tmp_path)])
    assert "rename" in first.output and "'batch'" in first.output, first.output  # (the free axis was there)
    config.write_text(_STALE_CONFIG.format(devices="np.array(jax.devices()).reshape(8)", axes="('data',)"))
    CliRunner().invoke(main, ["fix", "-j", "1", "--strategy", "rename", str(tmp_path)])
    assert (pkg / "train.py").read_text() == _STALE_TRAIN


def test_a_command_sees_a_module_added_since_an_earlier_command_of_the_process(tmp_path: Path) -> None:
    """As above, for the project's import graph: a module added after a first `check` that reads the mesh
    outside add-axis's allowlist (`len(mesh.axis_names)`) makes the fix UNSAFE in the next command. Before, the
    first command's listing of the project was kept and add-axis stayed SAFE (leftovers7's repro)."""
    shutil.copytree(GOLDEN / "add-axis" / "tree_mesh_axis_types_module_constant" / "input", tmp_path / "p")
    root = tmp_path / "p"
    (root / "pyproject.toml").write_text('[project]\nname = "proj"\n')
    args = ["check", "--no-cache", "-j", "1", "--show-fixes", str(root / "pkg" / "train.py")]
    first = CliRunner().invoke(main, args).output
    assert "fix [safe] add-axis" in first, first
    (root / "pkg" / "util.py").write_text("from pkg.config import mesh\nN = len(mesh.axis_names)\n")
    second = CliRunner().invoke(main, args).output
    assert "fix [unsafe] add-axis" in second and "len(mesh.axis_names)" in second, second


def test_interactive_does_not_ask_about_a_fix_the_accepted_one_overlaps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two vmaps of train.py, each a collision with a shard_map of model.py, on config.py's mesh: `auto` plans
    add-axis for both in one pass, both editing the mesh. With the first accepted, the engine leaves the second
    for the next pass (`fix_engine.accept`), yet it was asked about, its edits shown on config.py as the first
    changed it (newuser10's trial: `make_mesh((1, 1, 2, 4)"batch", , ("batch", ...), axis_types=(AxisTy3e...`),
    and a "y" to it applied nothing. Now it is not asked; the next pass offers what it plans on the new text,
    and accepting each question writes what `fix` writes."""
    from test_partial_runs import spmdfix

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)

    def tree(name: str) -> Path:
        root = tmp_path / name
        pkg = root / "src" / "ddp"
        pkg.mkdir(parents=True)
        (root / "pyproject.toml").write_text('[project]\nname = "ddp"\n')
        (pkg / "__init__.py").write_text("")
        (pkg / "config.py").write_text(
            "import jax\nfrom jax.sharding import AxisType\n\nDATA = 'data'\nMODEL = 'model'\n"
            "MESH = jax.make_mesh((2, 4), (DATA, MODEL), axis_types=(AxisType.Auto,) * 2)\n"
        )
        (pkg / "model.py").write_text(
            "import jax\nfrom jax.sharding import PartitionSpec as P\nfrom ddp.config import DATA, MESH, MODEL\n\n\n"
            "def rows(x):\n    return jax.shard_map(lambda b: b * 2, mesh=MESH, in_specs=P(DATA), out_specs=P(DATA))(x)\n\n\n"
            "def cols(x):\n"
            "    return jax.shard_map(lambda b: b + 1, mesh=MESH, in_specs=P(None, MODEL), out_specs=P(None, MODEL))(x)\n"
        )
        (pkg / "train.py").write_text(
            "import jax\nfrom ddp import config\nfrom ddp.model import cols, rows\n\n\n"
            "def step(xs):\n    return jax.vmap(rows, spmd_axis_name=config.DATA)(xs)\n\n\n"
            "def step_model(xs):\n    return jax.vmap(cols, spmd_axis_name=config.MODEL)(xs)\n"
        )
        return root

    asked, plain = tree("asked"), tree("plain")
    done = spmdfix(asked, "fix", "--interactive", "src/ddp/train.py", stdin="y\n" * 6)
    questions = done.stdout.split("Apply this fix?")[:-1]
    for question in questions:  # every diff of config.py starts from its text as it is at that question
        for line in question.splitlines():
            if line.startswith("+MESH"):
                assert ", ," not in line and "AxisTy3e" not in line, line
    assert len(questions) == 2, done.stdout
    spmdfix(plain, "fix", "src/ddp/train.py")
    assert _tree_files(asked) == _tree_files(plain)
    assert _left_in(done.stderr) == 0
