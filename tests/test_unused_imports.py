"""A name of `from M import ...` that a fix leaves unread is removed where nothing else may read it and M still
runs where it ran (newuser11's trial, finding 8; docs/safety.md "Imports a fix leaves unused"). The golden tree
drop-spmd-axis/tree_import_left_unused holds what `fix` writes; here, what the reports' fixes carry."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from golden import GOLDEN
from spmdfix import project_graph
from spmdfix.api import fix_source
from spmdfix.cli import main

TREE = GOLDEN / "drop-spmd-axis" / "tree_import_left_unused" / "input"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    root = tmp_path / "proj"
    shutil.copytree(TREE, root)
    (root / "pyproject.toml").write_text('[project]\nname = "proj"\n')
    monkeypatch.chdir(root)
    project_graph.forget_graphs()
    return root


def _drop_edits(target: str) -> list[tuple[int, int, str]]:
    done = CliRunner().invoke(main, ["check", "--no-cache", "--output-format", "json", "--exit-zero", target])
    record = json.loads(done.stdout)[0]
    fixes = [record["fix"], *record["alternatives"]]
    (drop,) = [f for f in fixes if f["transform"] == "drop-spmd-axis"]
    return [(e["location"]["row"], e["location"]["column"], e["content"]) for e in drop["edits"]]


def test_a_reports_fix_that_alone_leaves_the_name_unread_removes_it(tree: Path) -> None:
    """evaluate.py's one vmap: its drop's edits (JSON, SARIF, what an editor applies) remove `DATA, ` from
    `from pkg.config import DATA, SCALE` as `fix` does."""
    edits = _drop_edits("pkg/evaluate.py")
    assert (3, 24, "") in edits, edits
    assert len(edits) == 2, edits


def test_a_reports_fix_of_one_of_two_vmaps_keeps_the_name(tree: Path) -> None:
    """train.py's two vmaps read `DATA`: one drop alone leaves the other's read, so its edits keep the import
    (`fix`, applying both, removes it: the golden tree)."""
    assert len(_drop_edits("pkg/train.py")) == 1


def test_a_module_fixed_without_its_project_keeps_its_imports() -> None:
    """Without a project index other modules are not known: the import stays (`api.fix_source` of a text)."""
    source = (TREE / "pkg" / "evaluate.py").read_text()
    assert "from pkg.config import DATA, SCALE" in fix_source(source).source


@pytest.mark.parametrize(
    "reader",
    [
        "from pkg import evaluate\n\nKEY = 'DA' + 'TA'\nVALUE = getattr(evaluate, KEY)\n",
        "from pkg import evaluate\n\nprint(sorted(vars(evaluate)))\n",
        "from pkg import evaluate\nfrom pkg.tools import show\n\nshow(evaluate)\n",
        "import pkg.evaluate\n\nVALUE = pkg.evaluate.SCALE\n",
    ],
)
def test_a_module_object_reached_otherwise_than_by_a_written_attribute_keeps_the_name(tree: Path, reader: str) -> None:
    """A module importing evaluate.py as an object and reading it by `getattr` with a computed name,
    listing it by `vars`, passing it on, or bound as `pkg` may read `DATA` without writing the word: the import stays."""
    (tree / "pkg" / "reader.py").write_text(reader)
    (tree / "pkg" / "tools.py").write_text("def show(mod):\n    return dir(mod)\n")
    edits = _drop_edits("pkg/evaluate.py")
    assert (3, 24, "") not in edits and len(edits) == 1, edits


def test_a_module_object_read_by_written_attributes_only_lets_the_name_go(tree: Path) -> None:
    """`evaluate.evaluate(xs)` and `evaluate.SCALE`: attributes written out, none `DATA`: the name still goes."""
    (tree / "pkg" / "reader.py").write_text("from pkg import evaluate\n\nVALUE = evaluate.SCALE\n")
    assert (3, 24, "") in _drop_edits("pkg/evaluate.py")


def test_a_module_object_re_exported_by_an_imported_module_keeps_the_name(tree: Path) -> None:
    """`from pkg import evaluate` at the top level of a module another imports re-exports the object
    (`reader.evaluate`), which a third module may read unwritten: the import stays."""
    (tree / "pkg" / "reader.py").write_text("from pkg import evaluate\n\nVALUE = evaluate.SCALE\n")
    (tree / "pkg" / "third.py").write_text("from pkg import reader\n\nVALUE = reader.VALUE\n")
    assert (3, 24, "") not in _drop_edits("pkg/evaluate.py")


def _fixed_by_fix(tree: Path, tmp_path: Path, target: str) -> dict[str, bytes]:
    """The bytes of every module of a copy of `tree` after `spmdfix fix --strategy drop-spmd-axis TARGET`."""
    copy = tmp_path / "by-fix"
    shutil.copytree(tree, copy)
    project_graph.forget_graphs()
    done = CliRunner().invoke(main, ["fix", "--no-cache", "--strategy", "drop-spmd-axis", str(copy / target)])
    assert done.exit_code == 0, done.output
    project_graph.forget_graphs()
    return {str(p.relative_to(copy)): p.read_bytes() for p in sorted(copy.rglob("*.py"))}


@pytest.mark.parametrize(("target", "answers"), [("pkg/evaluate.py", "y\ny\n"), ("pkg/train.py", "y\ny\ny\n")])
def test_interactive_asks_to_remove_the_import_and_then_writes_what_fix_writes(
    tree: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, target: str, answers: str
) -> None:
    """`fix --interactive` applied the drops and kept `from pkg.config import DATA` that `fix` removes (newuser12):
    after the fixes it now shows the removal as a diff and asks; accepted, every module is what `fix` writes."""
    from spmdfix.cli import terminal as cli_terminal

    expected = _fixed_by_fix(tree, tmp_path, target)
    assert b"from pkg.config import DATA" not in expected[target]  # (`fix` removes the name)
    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    asked = CliRunner().invoke(
        main, ["fix", "--no-cache", "--interactive", "--strategy", "drop-spmd-axis", target], input=answers
    )
    assert asked.exit_code == 0, asked.output
    assert asked.stdout.count("Remove them?") == 1, asked.stdout
    assert "-from pkg.config import DATA" in asked.stdout.split("Remove them?")[0], asked.stdout
    assert {str(p.relative_to(tree)): p.read_bytes() for p in sorted(tree.rglob("*.py"))} == expected


def test_interactive_keeps_the_import_when_its_removal_is_refused(tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from spmdfix.cli import terminal as cli_terminal

    monkeypatch.setattr(cli_terminal, "stdin_is_tty", lambda: True)
    asked = CliRunner().invoke(
        main, ["fix", "--no-cache", "--interactive", "--strategy", "drop-spmd-axis", "pkg/evaluate.py"], input="y\nn\n"
    )
    assert asked.exit_code == 0, asked.output
    text = (tree / "pkg" / "evaluate.py").read_text()
    assert "from pkg.config import DATA, SCALE" in text and "spmd_axis_name" not in text


def _replay_json_fix(fix: dict) -> None:
    """Apply one JSON fix's edits to the files they name."""
    from spmdfix.positions import LineIndex

    by_file: dict[str, list[dict]] = {}
    for edit in fix["edits"]:
        by_file.setdefault(edit["filename"], []).append(edit)
    for filename, edits in by_file.items():
        text = Path(filename).read_text()
        lines = LineIndex(text)

        def offset(loc: dict) -> int:
            return lines.line_start(loc["row"] - 1) + loc["column"] - 1

        for e in sorted(edits, key=lambda e: offset(e["location"]), reverse=True):
            text = text[: offset(e["location"])] + e["content"] + text[offset(e["end_location"]) :]
        Path(filename).write_text(text)


def test_a_reports_fixes_replayed_one_at_a_time_with_a_check_between_write_what_fix_writes(
    tree: Path, tmp_path: Path
) -> None:
    """train.py's two drops together leave `DATA` unread; each record's fix, applied alone, must keep it (the other
    vmap reads it). Replaying the first record's chosen fix, checking again, and so on (what an editor or a code
    scanning autofix does) ends with the last drop carrying the removal: the bytes `fix` writes. (Replaying every
    fix of one report at once keeps the import: docs/safety.md, "Imports a fix leaves unused".)"""
    expected = _fixed_by_fix(tree, tmp_path, "pkg/train.py")
    for _ in range(4):
        project_graph.forget_graphs()
        done = CliRunner().invoke(
            main,
            ["check", "--no-cache", "--output-format", "json", "--exit-zero", "pkg/train.py"],
        )
        records = json.loads(done.stdout)
        if not records:
            break
        (drop,) = [f for f in [records[0]["fix"], *records[0]["alternatives"]] if f["transform"] == "drop-spmd-axis"]
        _replay_json_fix(drop)
    assert {str(p.relative_to(tree)): p.read_bytes() for p in sorted(tree.rglob("*.py"))} == expected


def test_a_module_imported_through_sys_path_by_another_name_keeps_the_name(tree: Path) -> None:
    """tools/report.py puts pkg/ on `sys.path` and reads `evaluate.DATA` off a second module object of
    evaluate.py (`import evaluate`: `project_graph.ProjectGraph._on_path`); removing `DATA` there would break
    it: the import stays."""
    (tree / "tools").mkdir()
    (tree / "tools" / "report.py").write_text("import sys\n\nsys.path.insert(0, 'pkg')\nimport evaluate\n\nVALUE = evaluate.DATA\n")
    edits = _drop_edits("pkg/evaluate.py")
    assert (3, 24, "") not in edits and len(edits) == 1, edits
