"""Multi-module golden cases: what the analysis follows across modules, found and fixed in every file.

Each case under golden/<group>/<case>/ with `input/` and `expected/` trees (tests/golden.py): checking every
module of the input tree (project root: the tree) gives findings.txt (`path:row:col CODE message`, the
position in the module the finding sits in, each followed by its fix's snapshot: tests/golden.py `fix_lines`); `api.fix_modules` over every module turns the input tree into
the expected tree byte for byte, each changed module parsing; the expected tree has no finding and is a fixed
point. Clean, refused and unfollowed cases stay unchanged; an unfollowed case's SPMD910 records, every module's,
equal its unfollowed.txt (`path:row:col SPMD910 what <- vmap path:row:col`). `pytest --update-golden` rewrites
expected/ and findings.txt (and an unfollowed case's unfollowed.txt).
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

import pytest

from golden import TRANSFORM_GROUPS, Case, fix_lines, modules, tree_cases
from spmdfix.api import check_source, fix_modules, new_project_index
from spmdfix.files import read_source
from spmdfix.positions import LineIndex

CASES = tree_cases()


def _copy(tree: Path, tmp: Path) -> Path:
    root = tmp / "project"
    shutil.copytree(tree, root)
    return root.resolve()


def _findings(root: Path, case: Case) -> str:
    """Every module's findings as findings.txt lines, each at the module it sits in."""
    index = new_project_index(root)
    out = []
    for path in modules(root):
        text = read_source(path).text
        findings = check_source(text, case.options, path=path, index=index)
        fixes = fix_lines(findings, case.options)
        for i, f in enumerate(findings):
            where = Path(f.span.path) if f.span.path else path
            where_text = read_source(where).text if f.span.path else text
            row, col = LineIndex(where_text).row_col(f.span.start)
            out.append(f"{where.relative_to(root).as_posix()}:{row}:{col} {f.code} {f.message}\n")
            out.append(fixes.get(i, ""))
    return "".join(out)


def _records(root: Path, case: Case) -> str:
    """Every module's SPMD910 records (`api.analyse_source(...).unfollowed`) as unfollowed.txt lines: `path:row:col
    SPMD910 what <- vmap path:row:col`, each position in the module it lies in, the project root left out of
    the words (a record may name another module of the project)."""
    from spmdfix.api import analyse_source

    index = new_project_index(root)
    out = []

    def where(span, path: Path) -> str:
        at = Path(span.path) if span.path else path
        row, col = LineIndex(read_source(at).text).row_col(span.start)
        return f"{at.relative_to(root).as_posix()}:{row}:{col}"

    for path in modules(root):
        for place in analyse_source(read_source(path).text, case.options, path=path, index=index).unfollowed:
            what = place.what.replace(f"{root.as_posix()}/", "")
            kind = "vmap" if place.spmd else "plain vmap"
            out.append(f"{where(place.span, path)} SPMD910 {what} <- {kind} {where(place.vmap, path)}\n")
    return "".join(out)


def _located(root: Path, case: Case) -> tuple[list[str], set[str]]:
    """findings.txt's lines as a partial run of each module alone gives them (`reaching.reached`): the findings
    located in the module, its own vmaps' and those of the modules importing it, sorted; and the lines of the
    findings it reports located in another module, whose chain names a place in it (a shard_map it applies
    with another module's spec helper)."""
    from spmdfix import project_graph
    from spmdfix.reaching import reached

    project_graph.forget_graphs()
    index = new_project_index(root)
    out = []
    elsewhere: set[str] = set()
    for path in modules(root):
        text = read_source(path).text
        own = [f for f in check_source(text, case.options, path=path, index=index) if not f.span.path]
        extra = [f for f in reached(path, text, index, case.options).findings if f not in own]
        for f in own + extra:
            at = Path(f.span.path) if f.span.path else path
            row, col = LineIndex(read_source(at).text if f.span.path else text).row_col(f.span.start)
            line = f"{at.relative_to(root).as_posix()}:{row}:{col} {f.code} {f.message}\n"
            (elsewhere.add(line) if f.span.path else out.append(line))
    return sorted(out), elsewhere


def _located_records(root: Path, case: Case) -> tuple[list[str], set[str]]:
    """unfollowed.txt's lines as a partial run of each module alone gives them: the SPMD910 records located in
    the module, its own analysis's and those the analyses of the modules importing it or imported by it
    place there (`reaching.reached`: a base class's vmap factory applied by a subclass, issue 22), sorted;
    and the lines of the records a partial run reports located in another module (the analysis of an
    importer reaching it through a star import or a lazy `__getattr__` stopped there, issue 20)."""
    from spmdfix import project_graph
    from spmdfix.api import analyse_source
    from spmdfix.reaching import reached

    project_graph.forget_graphs()
    index = new_project_index(root)
    out = []
    elsewhere: set[str] = set()

    def where(span, path: Path) -> str:
        at = Path(span.path) if span.path else path
        row, col = LineIndex(read_source(at).text).row_col(span.start)
        return f"{at.relative_to(root).as_posix()}:{row}:{col}"

    for path in modules(root):
        text = read_source(path).text
        own = [r for r in analyse_source(text, case.options, path=path, index=index).unfollowed if not r.span.path]
        extra = [r for r in reached(path, text, index, case.options).unfollowed if r not in own]
        for place in own + extra:
            what = place.what.replace(f"{root.as_posix()}/", "")
            kind = "vmap" if place.spmd else "plain vmap"
            line = f"{where(place.span, path)} SPMD910 {what} <- {kind} {where(place.vmap, path)}\n"
            (elsewhere.add(line) if place.span.path else out.append(line))
    return sorted(out), elsewhere


def _fixed(root: Path, case: Case):
    return fix_modules([str(p) for p in modules(root)], case.options, root)


@pytest.mark.parametrize("case", CASES, ids=[c.test_id for c in CASES])
def test_tree_case(case: Case, tmp_path: Path, update_golden: bool) -> None:
    root = _copy(case.path / "input", tmp_path)
    found = _findings(root, case)
    lost = _records(root, case)
    result = _fixed(root, case)
    assert not result.errors, result.errors
    for path, text in result.texts.items():
        ast.parse(text)
        assert Path(path).is_relative_to(root), f"{case.id}: a fix edited {path}, outside the project"
    if update_golden:
        shutil.rmtree(case.path / "expected", ignore_errors=True)
        shutil.copytree(case.path / "input", case.path / "expected")
        for path, text in result.texts.items():
            target = case.path / "expected" / Path(path).relative_to(root)
            target.write_bytes(text.encode("utf-8"))
        (case.path / "findings.txt").write_text(found, encoding="utf-8")
        if case.group == "unfollowed":
            case.unfollowed.write_text(lost, encoding="utf-8")
    if case.unfollowed.exists():
        assert lost == case.unfollowed.read_text(encoding="utf-8"), f"{case.id}: SPMD910 records differ from unfollowed.txt"
    expected_root = case.path / "expected"
    assert [p.relative_to(expected_root) for p in modules(expected_root)] == [p.relative_to(root) for p in modules(root)]
    for path in modules(root):
        got = result.texts.get(str(path), path.read_text(encoding="utf-8"))
        want = (expected_root / path.relative_to(root)).read_text(encoding="utf-8")
        assert got == want, f"{case.id}: {path.relative_to(root)} differs from expected/"
    assert found == (case.path / "findings.txt").read_text(encoding="utf-8"), f"{case.id}: findings differ"
    # Every module checked alone (a partial run) gives the findings located in it, whichever module's vmap
    # (the finding lines; the indented fix snapshot under each is the whole-tree run's).
    located = sorted(line for line in found.splitlines(keepends=True) if not line.startswith(" "))
    located_alone, found_elsewhere = _located(root, case)
    assert located_alone == located, f"{case.id}: a module alone differs"
    # ... and a finding located in another module whose chain passes through it is one the tree's run gives
    assert found_elsewhere <= set(located), f"{case.id}: a module alone gives findings the tree does not"
    # ... and the SPMD910 records located in it (never silent: issue 22); a record it reports located in another
    # module is one the whole tree's run gives
    located_records, elsewhere = _located_records(root, case)
    assert located_records == sorted(lost.splitlines(keepends=True)), f"{case.id}: a module alone's records differ"
    assert elsewhere <= set(lost.splitlines(keepends=True)), f"{case.id}: a module alone gives records the tree does not"
    if case.config.get("alone"):
        _check_alone(case, tmp_path, found, lost)

    if case.group in TRANSFORM_GROUPS:
        assert found, f"{case.id}: a transform case must have findings on its input"
        assert result.applied, f"{case.id}: no fix applied"
        assert {f.transform.value for f in result.applied} == {case.group}
        assert {f.applicability.value for f in result.applied} == {case.config["applicability"]}
    elif case.group == "clean":
        assert not found, f"{case.id}: clean code got findings"
        assert not result.texts
    elif case.group == "refuse":
        assert found, f"{case.id}: a refusal case must have findings"
        assert not result.texts, f"{case.id}: a refused fix changed a file"
    elif case.group == "unfollowed":
        assert lost, f"{case.id}: an unfollowed case must have SPMD910 records"
        assert not result.texts, f"{case.id}: a fix changed an unfollowed case's file"


def _check_alone(case: Case, tmp_path: Path, found: str, lost: str) -> None:
    """A case whose case.toml names a module `alone` (issue 20: a module reached through a package's
    re-exports): `spmdfix check` of that module alone, as pre-commit runs it, reports every finding and every
    SPMD910 record of the whole tree's run, at the same places, and `spmdfix fix` of it alone turns the input
    tree into expected/ (the same fix, the same safety class: without `--unsafe-fixes` unless the case
    passes it)."""
    import contextlib
    import json

    from click.testing import CliRunner

    from spmdfix import project_graph
    from spmdfix.cli import main

    root = _copy(case.path / "input", tmp_path / "alone")
    (root / "pyproject.toml").write_text("", encoding="utf-8")
    project_graph.forget_graphs()
    alone = case.config["alone"]
    with contextlib.chdir(root):
        out = CliRunner().invoke(main, ["check", "--no-cache", "--show-unresolved", "--output-format", "json", alone])
    records = json.loads(out.stdout)
    got = sorted(
        f"{Path(r['filename']).relative_to(root).as_posix()}:{r['location']['row']}:{r['location']['column']} {r['code']}"
        for r in records
    )
    want = sorted(line.split(" ")[0] + " " + line.split(" ")[1] for line in [*found.splitlines(), *lost.splitlines()] if not line.startswith(" "))
    assert got == want, f"{case.id}: {alone} alone: {got} != {want}"
    flags = ["--unsafe-fixes"] if case.config.get("unsafe_fixes") else []
    strategy = case.config.get("strategy", case.group if case.group in TRANSFORM_GROUPS else "auto")
    with contextlib.chdir(root):
        fixed = CliRunner().invoke(main, ["fix", "--strategy", strategy, *flags, alone])
    project_graph.forget_graphs()
    assert fixed.exit_code == 0, fixed.output
    expected_root = case.path / "expected"
    for path in modules(root):
        got_text = path.read_text(encoding="utf-8")
        want_text = (expected_root / path.relative_to(root)).read_text(encoding="utf-8")
        assert got_text == want_text, f"{case.id}: `spmdfix fix {alone}` alone: {path.relative_to(root)} differs from expected/\n{fixed.output}"


TRANSFORM_CASES = [c for c in CASES if c.group in TRANSFORM_GROUPS]


@pytest.mark.parametrize("case", TRANSFORM_CASES, ids=[c.test_id for c in TRANSFORM_CASES])
def test_expected_tree_is_sound(case: Case, tmp_path: Path) -> None:
    root = _copy(case.path / "expected", tmp_path)
    assert _findings(root, case) == "", f"{case.id}: expected/ still has findings"
    again = _fixed(root, case)
    assert not again.texts and not again.applied, f"{case.id}: expected/ is not a fixed point"


def test_the_index_parses_only_what_it_follows(tmp_path: Path) -> None:
    """A module imported but never followed into is not parsed: the index is built on demand."""
    case = next(c for c in CASES if c.name == "tree_relative_import")
    root = _copy(case.path / "input", tmp_path)
    (root / "pkg" / "unused.py").write_text("import jax\nraise SystemExit\n", encoding="utf-8")
    pipeline = root / "pkg" / "pipeline.py"
    pipeline.write_text("from . import unused\n" + pipeline.read_text(encoding="utf-8"), encoding="utf-8")
    index = new_project_index(root)
    assert check_source(pipeline.read_text(encoding="utf-8"), case.options, path=pipeline, index=index)
    parsed = {Path(p).relative_to(root).as_posix() for p in index._by_path}
    assert "pkg/unused.py" not in parsed
    assert "pkg/layers.py" in parsed


def test_cli_reports_in_the_callee_and_follows_the_given_project_root(tmp_path: Path) -> None:
    """`check` on the vmap's module reports at the callee's spec (its path and row), with the vmap's file as
    a note. A `pyproject.toml` inside the package makes the package the project root, which its own
    package base lies outside of, so nothing is followed; `--project-root` names the real root."""
    from click.testing import CliRunner

    from spmdfix.cli import main

    case = next(c for c in CASES if c.name == "tree_relative_import")
    root = _copy(case.path / "input", tmp_path)
    (root / "pkg" / "pyproject.toml").write_text("", encoding="utf-8")
    pipeline = str(root / "pkg" / "pipeline.py")
    alone = CliRunner().invoke(main, ["check", "--no-cache", pipeline])
    assert alone.exit_code == 0, alone.output
    found = CliRunner().invoke(main, ["check", "--no-cache", "--project-root", str(root), pipeline])
    assert found.exit_code == 1, found.output
    assert "layers.py:14:56: SPMD001" in found.output
    assert "pipeline.py:7:" in found.output


def test_project_root_setting_reaches_the_index_of_every_front_end(tmp_path: Path) -> None:
    """`project-root` in `[tool.spmdfix]` (relative to the file that says it) is the root the CLI follows
    imports from, and the one the per-file entry point gives the language server (`file_settings.project_root_of`);
    without it the pyproject.toml inside the package is the root and the callee above it is not followed."""
    from click.testing import CliRunner

    from spmdfix import file_settings, pipeline
    from spmdfix.api import project_index
    from spmdfix.cli import main
    from spmdfix.config import Resolver

    case = next(c for c in CASES if c.name == "tree_relative_import")
    found = {}
    for name, table in (("found", "[tool.spmdfix]\n"), ("set", '[tool.spmdfix]\nproject-root = ".."\n')):
        root = _copy(case.path / "input", tmp_path / name)
        (root / "pkg" / "pyproject.toml").write_text(table, encoding="utf-8")
        pipeline_py = root / "pkg" / "pipeline.py"
        settings = file_settings.resolve(Resolver(), pipeline_py)
        top = file_settings.project_root_of(pipeline_py, settings)
        assert top == (root if name == "set" else root / "pkg")
        text = read_source(pipeline_py).text
        checked = pipeline.check_file(pipeline_py, text, settings, index=project_index(pipeline_py, top))
        found[name] = [(f.code, Path(f.span.path).name) for f in checked.findings]
    assert found == {"found": [], "set": [("SPMD001", "layers.py"), ("SPMD002", "layers.py")]}
    cli = CliRunner().invoke(main, ["check", "--no-cache", str(pipeline_py)])
    assert cli.exit_code == 1 and "layers.py:14:56: SPMD001" in cli.output, cli.output
    shown = CliRunner().invoke(main, ["check", "--show-settings", str(pipeline_py)])
    assert f'project-root = "{root}"' in shown.output, shown.output


@pytest.mark.e2e  # (runs `git apply`)
def test_fix_diff_of_a_cross_module_fix_is_in_path_order_and_applies(tmp_path: Path, monkeypatch) -> None:
    """`fix --diff .` of a tree whose fix edits the module of the mesh (`pkg/config.py`) from the vmap's module
    (`pkg/train.py`) prints one diff a file, in sorted path order (as `git diff` does), whatever order the run
    met them in; `git apply` of it gives the tree `spmdfix fix` writes (`expected/`)."""
    import subprocess

    from click.testing import CliRunner

    from spmdfix.cli import main

    case = next(c for c in CASES if c.name == "tree_cross_module_config")
    root = _copy(case.path / "input", tmp_path)
    monkeypatch.chdir(root)
    shown = CliRunner().invoke(main, ["fix", "--diff", "-j", "1", "."])
    assert shown.exit_code == 1, shown.output
    named = [line[len("--- a/"):] for line in shown.stdout.splitlines() if line.startswith("--- a/")]
    assert len(named) >= 2 and named == sorted(named), named
    subprocess.run(["git", "apply", "-p1", "-"], input=shown.stdout, text=True, cwd=root, check=True)
    for path in sorted((case.path / "expected").rglob("*.py")):
        relative = path.relative_to(case.path / "expected")
        assert (root / relative).read_bytes() == path.read_bytes(), relative
