"""Suppression comments (`# noqa`, `# spmdfix: ignore`), `check --add-noqa` and `--statistics`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN, cases
from spmdfix import file_settings, noqa, pipeline
from spmdfix.api import fix_source
from spmdfix.cli import main
from spmdfix.files import decode
from spmdfix.model import Finding, Span
from spmdfix.positions import LineIndex

CASE = GOLDEN / "add-axis" / "mesh_reshape_basic"

# SPMD001 at row 12 (in_specs), SPMD002 at row 13 (out_specs); both share the add-axis and strip fixes.
MODULE = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

mesh = Mesh(np.array(jax.devices()).reshape(2, 4), ('x', 'y'))


def apply(x):
    return jax.shard_map(
        lambda v: v * 2,
        mesh=mesh,
        in_specs=P('x', 'y'),{c12}
        out_specs=P('x', 'y'),{c13}
    )(x)


def main(x):
    return jax.vmap(apply, spmd_axis_name='x')(x)
"""


def module(c12: str = "", c13: str = "") -> str:
    return MODULE.format(c12=c12, c13=c13)


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture
def work(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def codes(result) -> list[str]:
    return [r["code"] for r in json.loads(result.stdout)]


def test_unsuppressed_module_has_a_finding_on_each_row(work: Path) -> None:
    (work / "m.py").write_text(module())
    records = json.loads(run("check", "--output-format", "json", "m.py").stdout)
    assert [(r["code"], r["location"]["row"]) for r in records] == [("SPMD001", 12), ("SPMD002", 13)]


@pytest.mark.parametrize(
    ("c12", "left"),
    [
        ("  # noqa: SPMD001", ["SPMD002"]),
        ("  # noqa:SPMD001,SPMD002", ["SPMD002"]),
        ("  # NOQA", ["SPMD002"]),
        ("  # spmdfix: ignore[SPMD001]", ["SPMD002"]),
        ("  # spmdfix: ignore", ["SPMD002"]),
        ("  # noqa: SPMD002", ["SPMD001", "SPMD002"]),  # another code on this row
        ("  # noqa: E501", ["SPMD001", "SPMD002"]),
        ("  # spmdfix: ignore[SPMD002]", ["SPMD001", "SPMD002"]),
    ],
)
def test_directives_on_the_findings_row(work: Path, c12: str, left: list[str]) -> None:
    (work / "m.py").write_text(module(c12))
    result = run("check", "--output-format", "json", "m.py")
    assert codes(result) == left
    suppressed = 2 - len(left)
    assert (f"({suppressed} suppressed)" in result.stderr) == bool(suppressed)


def test_noqa_inside_a_string_suppresses_nothing() -> None:
    source = 'x = f("# noqa")\ny = 2  # noqa\n'
    lines = LineIndex(source)
    at_row1 = Finding("SPMD001", "n", "m", Span(lines.line_start(0), lines.line_start(0) + 1))
    at_row2 = Finding("SPMD001", "n", "m", Span(lines.line_start(1), lines.line_start(1) + 1))
    kept, suppressed = noqa.split_suppressed(source, [at_row1, at_row2])
    assert kept == [at_row1] and suppressed == [at_row2]


def test_syntax_errors_cannot_be_suppressed_by_a_comment() -> None:
    finding = Finding("SPMD900", "syntax-error", "m", Span(0, 0))
    assert noqa.split_suppressed("def f(:  # noqa\n", [finding]) == ([finding], [])


def test_a_suppressed_finding_is_not_fixed(work: Path) -> None:
    text = module("  # noqa: SPMD001", "  # noqa: SPMD002")
    (work / "m.py").write_text(text)
    result = run("fix", "m.py")
    assert result.exit_code == 0
    assert (work / "m.py").read_text() == text
    # One row suppressed: every fix of SPMD002 would also change the suppressed SPMD001 (add-axis of the same
    # vmap, strip of the same shard_map), so nothing is applied and the finding stays.
    one = module("  # noqa: SPMD001")
    (work / "m.py").write_text(one)
    checked = run("check", "m.py")
    assert "[*]" not in checked.output  # check marks fixable only what fix will apply
    partial = run("fix", "m.py")
    assert partial.exit_code == 1
    assert (work / "m.py").read_text() == one
    assert "1 finding left (1 suppressed)" in partial.stderr
    # ... and check says so: each fix taken away is a refusal naming the suppressed finding, not a silent gap
    # (the help line had named only rename's "no free mesh axis", as if no other fix existed).
    (work / "m.py").write_text(one)
    shown = run("check", "--show-fixes", "m.py").output
    blocked = "it would also change SPMD001 (spmd-axis-in-in-specs), a finding a suppression comment holds"
    for transform in ("add-axis", "strip"):
        assert f"not offered: {transform}: {blocked}" in shown
    assert "help: no fix: add-axis: " + blocked in run("check", "m.py").output


def test_add_noqa_appends_merges_and_then_checks_clean(work: Path) -> None:
    (work / "m.py").write_text(module("  # noqa: E501", "  # keep me"))
    result = run("check", "--add-noqa", "m.py")
    assert result.exit_code == 0
    assert "Added 2 noqa directives." in result.stderr
    text = (work / "m.py").read_text()
    assert "        in_specs=P('x', 'y'),  # noqa: E501, SPMD001\n" in text
    assert "        out_specs=P('x', 'y'),  # keep me  # noqa: SPMD002\n" in text
    assert text == module("  # noqa: E501, SPMD001", "  # keep me  # noqa: SPMD002")
    assert run("check", "m.py").exit_code == 0
    again = run("check", "--add-noqa", "m.py")
    assert "Added 0 noqa directives." in again.stderr and (work / "m.py").read_text() == text


def test_add_noqa_plain_rows_and_spmdfix_ignore_merge(work: Path) -> None:
    (work / "m.py").write_text(module("", "  # spmdfix: ignore[SPMD004]"))
    run("check", "--add-noqa", "m.py")
    assert (work / "m.py").read_text() == module("  # noqa: SPMD001", "  # spmdfix: ignore[SPMD004, SPMD002]")


def test_add_noqa_skips_rows_ending_inside_a_string_or_continued() -> None:
    source = 'a = g("""x\ny""", 1)\nb = 1 + \\\n    2\nc = 3\r\nd = 4   \n'
    lines = LineIndex(source)

    def at(row: int) -> Finding:
        return Finding("SPMD001", "n", "m", Span(lines.line_start(row - 1), lines.line_start(row - 1)))

    result = noqa.add_noqa(source, [at(1), at(2), at(3), at(5), at(6), Finding("SPMD900", "s", "m", Span(0, 0))])
    assert result.skipped == (1, 3)  # row 1 ends inside the string, row 3 with a backslash
    assert result.added == (2, 5, 6)
    assert result.text == (
        'a = g("""x\ny""", 1)  # noqa: SPMD001\n'
        "b = 1 + \\\n    2\n"
        "c = 3  # noqa: SPMD001\r\n"
        "d = 4  # noqa: SPMD001\n"
    )


def test_add_noqa_reports_skipped_rows(work: Path) -> None:
    text = module().replace("in_specs=P('x', 'y'),", "in_specs=P('x', 'y'), \\")
    (work / "m.py").write_text(text)
    result = run("check", "--add-noqa", "m.py")
    assert result.exit_code == 1
    assert "m.py:12: no noqa comment added" in result.stderr
    assert "Added 1 noqa directive." in result.stderr


def test_statistics_counts_per_code(work: Path) -> None:
    (work / "m.py").write_text(module("  # noqa: SPMD001"))
    shutil.copy(CASE / "input.py", work / "case.py")
    result = run("check", "--statistics", ".")
    assert result.exit_code == 1
    assert result.stdout == "2  SPMD002  spmd-axis-in-out-specs\n1  SPMD001  spmd-axis-in-in-specs\n"
    as_json = json.loads(run("check", "--statistics", "--output-format", "json", ".").stdout)
    # m.py's SPMD002 shares every fix with its suppressed SPMD001, so `fix` leaves it: fixable in case.py only.
    assert as_json[0] == {"code": "SPMD002", "name": "spmd-axis-in-out-specs", "count": 2, "fixable": 1}


@pytest.mark.parametrize("case", cases(), ids=lambda c: c.test_id)
def test_without_suppressions_the_cli_fixes_as_fix_source(case) -> None:
    """pipeline.fix_file (what `spmdfix fix` runs) differs from api.fix_source only by suppression/selection."""
    source = decode(case.input, case.input.read_bytes()).text
    expected = fix_source(source, case.options)
    _, got = pipeline.fix_file(case.input, source, file_settings.FileSettings(case.options))
    assert got.suppressed == 0
    assert got.text == expected.source
    assert [f.key for f in got.applied] == [f.key for f in expected.applied]
    assert got.remaining == expected.remaining and got.errors == expected.errors


def test_a_module_without_a_directive_on_a_findings_row_is_not_tokenized(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tokenizing a 12,000-line module costs more than analysing it: done only when a finding's row holds
    something a directive could be. A directive on another row, or a `noqa` in a string on the finding's
    row, still gives the answer tokenizing gives."""
    text = "x = 1  # noqa: SPMD001\ny = 2  # a comment\nz = '# noqa'  # other\n"
    findings = [Finding("SPMD001", "n", "m", Span(text.index("y"), text.index("y") + 1))]
    calls = []
    monkeypatch.setattr(noqa, "directives", lambda *a: calls.append(a) or {})
    assert noqa.split_suppressed(text, findings) == (findings, [])
    assert not calls
    monkeypatch.undo()
    on_z = [Finding("SPMD001", "n", "m", Span(text.index("z"), text.index("z") + 1))]
    assert noqa.split_suppressed(text, on_z) == (on_z, [])  # tokenized: the `# noqa` is in a string
    on_x = [Finding("SPMD001", "n", "m", Span(0, 1))]
    assert noqa.split_suppressed(text, on_x) == ([], on_x)


# --- findings whose vmap is in another module (issue 20): the standard layout of tests/test_partial_runs.py ---

SPEC_ROW = 12  # model.py: `return jax.shard_map(..., in_specs=P(DATA), out_specs=P(DATA))(x)`
VMAP_ROW = 8  # train.py: `return jax.vmap(forward, spmd_axis_name=config.DATA)(xs)`


def _with_comment(path: Path, row: int, comment: str) -> None:
    lines = path.read_text().splitlines(keepends=True)
    lines[row - 1] = lines[row - 1].rstrip("\n") + f"  {comment}\n"
    path.write_text("".join(lines))


def _cross_codes(root: Path, target: str) -> list[str]:
    from test_partial_runs import spmdfix

    done = spmdfix(root, "check", "--no-cache", "--output-format", "json", target)
    return [r["code"] for r in json.loads(done.stdout)]


@pytest.mark.parametrize("target", ["src/pkg/model.py", "src/pkg/train.py", "."])
@pytest.mark.parametrize(
    ("where", "comment", "left"),
    [
        ("model.py", "# noqa", []),
        ("model.py", "# noqa: SPMD001", ["SPMD002"]),
        ("train.py", "# noqa", []),
        ("train.py", "# noqa: SPMD001", ["SPMD002"]),
        ("train.py", "# spmdfix: ignore[SPMD002]", ["SPMD001"]),
        ("train.py", "# noqa: F401", ["SPMD001", "SPMD002"]),
    ],
)
def test_a_directive_on_the_spec_or_on_the_vmap_line_suppresses_a_cross_module_finding(
    tmp_path: Path, target: str, where: str, comment: str, left: list[str]
) -> None:
    """Both lines of a collision across modules hold a directive: the spec's (where the finding sits) and
    the vmap's `spmd_axis_name` (its first related place, in the importer), whichever file is checked."""
    from test_partial_runs import standard

    root = standard(tmp_path)
    assert _cross_codes(root, target) == ["SPMD001", "SPMD002"]
    _with_comment(root / "src/pkg" / where, SPEC_ROW if where == "model.py" else VMAP_ROW, comment)
    assert _cross_codes(root, target) == left


@pytest.mark.parametrize("targets", [("src/pkg/model.py", "src/pkg/train.py"), ("src/pkg/train.py", "src/pkg/model.py"), (".",)])
@pytest.mark.parametrize("where", ["model.py", "train.py"])
def test_a_suppressed_cross_module_finding_is_counted_once_in_a_run(tmp_path: Path, where: str, targets: tuple) -> None:
    """Naming both files (as pre-commit does), train.py's analysis and model.py's partial run both suppress the
    two findings of the collision; the summary counts each once (it said "4 suppressed"), cold and warm."""
    from test_partial_runs import spmdfix, standard

    root = standard(tmp_path)
    _with_comment(root / "src/pkg" / where, SPEC_ROW if where == "model.py" else VMAP_ROW, "# noqa")
    for run in ("cold", "warm"):
        done = spmdfix(root, "check", *targets)
        assert done.returncode == 0, done.stdout
        assert "0 findings (2 suppressed)" in done.stderr, (run, done.stderr)
    # Each file alone counts the two it suppresses.
    for target in ("src/pkg/model.py", "src/pkg/train.py"):
        assert "0 findings (2 suppressed)" in spmdfix(root, "check", "--no-cache", target).stderr


def test_a_directive_on_the_vmap_line_does_not_suppress_a_finding_of_the_same_module(work: Path) -> None:
    """Within one module the finding's own line is the place (the vmap line of MODULE is row 18)."""
    lines = module().splitlines(keepends=True)
    lines[17] = lines[17].rstrip("\n") + "  # noqa\n"
    Path("m.py").write_text("".join(lines))
    assert codes(run("check", "--no-cache", "--output-format", "json", "m.py")) == ["SPMD001", "SPMD002"]


@pytest.mark.parametrize("target", ["src/pkg/model.py", "src/pkg/train.py", "."])
def test_add_noqa_puts_a_cross_module_findings_directive_on_its_own_line_in_its_own_file(tmp_path: Path, target: str) -> None:
    """`--add-noqa` on any of the files adds `# noqa: SPMD001, SPMD002` to the spec's line in model.py (the
    finding's own line, in the file it sits in), leaves train.py alone, says where it added it when that is
    another file than the one checked, and a second run adds nothing."""
    from test_partial_runs import MODEL, TRAIN, spmdfix, standard

    root = standard(tmp_path)
    done = spmdfix(root, "check", "--no-cache", "--add-noqa", target)
    assert done.returncode == 0, done.stderr
    assert "Added 1 noqa directive." in done.stderr + done.stdout
    model = MODEL.splitlines()
    model[SPEC_ROW - 1] += "  # noqa: SPMD001, SPMD002"
    assert (root / "src/pkg/model.py").read_text() == "\n".join(model) + "\n"
    assert (root / "src/pkg/train.py").read_text() == TRAIN
    if target != "src/pkg/model.py":
        assert f"src/pkg/model.py:{SPEC_ROW}: noqa directive added for SPMD001, SPMD002 (found from " in done.stderr
    assert _cross_codes(root, target) == []
    again = spmdfix(root, "check", "--no-cache", "--add-noqa", target)
    assert again.returncode == 0 and "Added 0 noqa directives." in again.stderr + again.stdout


def test_add_noqa_names_every_file_whose_vmap_reaches_the_spec(tmp_path: Path) -> None:
    """Two modules' vmaps collide with one spec of model.py: the directive's line names both files (it named
    the first only: newuser7's trial, train.py's and a notebook's vmap)."""
    from test_partial_runs import TRAIN, spmdfix, standard

    root = standard(tmp_path)
    (root / "src/pkg/evaluate.py").write_text(TRAIN.replace("def step", "def evaluate"))
    done = spmdfix(root, "check", "--no-cache", "--add-noqa", "src/pkg/evaluate.py", "src/pkg/train.py")
    assert done.returncode == 0, done.stderr
    assert (
        f"src/pkg/model.py:{SPEC_ROW}: noqa directive added for SPMD001, SPMD002 "
        "(found from src/pkg/evaluate.py, src/pkg/train.py)"
    ) in done.stderr


@pytest.mark.parametrize(
    "targets", [("src/pkg/model.py",), ("src/pkg/train.py",), ("src/pkg/model.py", "src/pkg/train.py"), (".",)]
)
@pytest.mark.parametrize("where", ["model.py", "train.py"])
def test_fix_counts_parsed_files_and_suppressed_findings_as_check_does(tmp_path: Path, where: str, targets: tuple) -> None:
    """`fix` of the layer module alone analyses the importers' vmaps (a partial run) as `check` does: its
    summary counts the file parsed and the collision's two findings suppressed (it said "1 file scanned, 0
    parsed" and left out "(2 suppressed)"), once when both files are named."""
    import re

    from test_partial_runs import spmdfix, standard

    root = standard(tmp_path)
    _with_comment(root / "src/pkg" / where, SPEC_ROW if where == "model.py" else VMAP_ROW, "# noqa")
    checked = spmdfix(root, "check", "--no-cache", *targets).stderr
    fixed = spmdfix(root, "fix", *targets).stderr
    counts = re.compile(r"(\d+ files? scanned, \d+ parsed);.* findings(?: left)?( \(\d+ suppressed\))?;")
    assert counts.search(checked) and counts.search(fixed), (checked, fixed)
    assert counts.search(fixed).groups() == counts.search(checked).groups(), (checked, fixed)
    assert "(2 suppressed)" in fixed and ", 0 parsed" not in fixed, fixed


def test_add_noqa_warns_of_the_findings_of_other_vmaps_its_directive_also_suppresses(tmp_path: Path) -> None:
    """`--add-noqa` on one importer: the directive on model.py's spec line also holds another importer's
    findings there, and takes the other importer's shared fix (drop-spmd-axis) from its findings on other lines;
    the command says so, naming the vmap, and how to hide only the run's findings (`per-file-ignores` of its
    file), which keeps the other vmap's findings and fix (newuser11's trial, finding 7: nothing said it, and
    `fix` then did nothing)."""
    from test_partial_runs import MODEL, TRAIN, spmdfix, standard

    root = standard(tmp_path)
    pkg = root / "src/pkg"
    (pkg / "model.py").write_text(
        MODEL + "\n\ndef scale(x):\n    return jax.shard_map(_body, mesh=MESH, in_specs=P(DATA), out_specs=P(DATA))(x)\n"
    )
    (pkg / "train.py").write_text(TRAIN.replace("jax.vmap(forward,", "jax.vmap(lambda x: scale(forward(x)),").replace(
        "import forward", "import forward, scale"
    ))
    (pkg / "evaluate.py").write_text(TRAIN.replace("def step", "def evaluate"))
    model = (pkg / "model.py").read_text()
    whole = spmdfix(root, "check", "--no-cache", "--add-noqa", ".")
    assert "warning" not in whole.stderr, whole.stderr  # every vmap reaching the line is the run's
    (pkg / "model.py").write_text(model)
    done = spmdfix(root, "check", "--no-cache", "--add-noqa", "src/pkg/evaluate.py")
    assert done.returncode == 0, done.stderr
    assert f"src/pkg/model.py:{SPEC_ROW}: noqa directive added for SPMD001, SPMD002 (found from src/pkg/evaluate.py)" in done.stderr
    assert (
        f"src/pkg/model.py:{SPEC_ROW}: warning: the noqa directive also suppresses SPMD001 (line {SPEC_ROW}), "
        f"SPMD002 (line {SPEC_ROW}) of the vmap at src/pkg/train.py:8, which this run did not check; its findings "
        "left in src/pkg/model.py lose rename, add-axis, drop-spmd-axis"
    ) in done.stderr
    advice = '`per-file-ignores = { "src/pkg/evaluate.py" = ["SPMD001", "SPMD002"] }` under `[tool.spmdfix]`'
    assert advice in done.stderr
    shown = spmdfix(root, "check", "--no-cache", "--show-fixes", "src/pkg/train.py").stdout
    assert "not offered: drop-spmd-axis: it would also change SPMD001" in shown and "Found 2 errors." in shown
    # The advice taken: train.py's four findings are reported with their safe fix, evaluate.py's none.
    (pkg / "model.py").write_text(model)
    with (root / "pyproject.toml").open("a") as f:
        f.write('\n[tool.spmdfix]\nper-file-ignores = { "src/pkg/evaluate.py" = ["SPMD001", "SPMD002"] }\n')
    shown = spmdfix(root, "check", "--no-cache", "--show-fixes", ".").stdout
    assert "Found 4 errors. [*] 4 fixable" in shown and "1. src/pkg/evaluate.py:" not in shown, shown


def test_add_noqa_warns_of_the_findings_of_a_notebook_its_directive_also_suppresses(tmp_path: Path) -> None:
    """A notebook importing model.py vmaps `forward` over DATA too: the directive `--add-noqa src/pkg/train.py`
    puts on model.py's spec line also holds the notebook's findings there. The warning named other modules'
    vmaps only (a partial run analyses no notebook), so the notebook's were hidden silently (newuser12); it now
    names the notebook's vmap by its cell."""
    from test_partial_runs import spmdfix, standard

    root = standard(tmp_path)
    cells = [
        "import jax\nfrom pkg import config\nfrom pkg.model import forward\n",
        "xs = jax.numpy.ones((8, 4))\nys = jax.vmap(forward, spmd_axis_name=config.DATA)(xs)\n",
    ]
    notebook = {
        "cells": [
            {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [], "source": c.splitlines(True)}
            for c in cells
        ],
        "metadata": {"language_info": {"name": "python"}},
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    (root / "explore.ipynb").write_text(json.dumps(notebook, indent=1))
    model = (root / "src/pkg/model.py").read_text()
    whole = spmdfix(root, "check", "--no-cache", "--output-format", "concise", ".").stdout
    assert "(vmap at explore.ipynb:cell 2:2:" in whole, whole  # (what the directive will hide)
    done = spmdfix(root, "check", "--no-cache", "--add-noqa", "src/pkg/train.py")
    assert done.returncode == 0, done.stderr
    assert (
        f"src/pkg/model.py:{SPEC_ROW}: warning: the noqa directive also suppresses SPMD001 (line {SPEC_ROW}), "
        f"SPMD002 (line {SPEC_ROW}) of the vmap at explore.ipynb:cell 2:2, which this run did not check"
    ) in done.stderr, done.stderr
    assert spmdfix(root, "check", "--no-cache", "explore.ipynb").returncode == 0  # (hidden indeed)
    # Added for the notebook's own findings: the warning names train.py's vmap, not the notebook's.
    (root / "src/pkg/model.py").write_text(model)
    own = spmdfix(root, "check", "--no-cache", "--add-noqa", "explore.ipynb")
    assert "of the vmap at src/pkg/train.py:8, which this run did not check" in own.stderr, own.stderr
    assert "of the vmap at explore.ipynb" not in own.stderr, own.stderr
