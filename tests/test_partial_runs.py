"""Partial runs (issue 20): checking one module of a project also analyses the spmd vmaps of the modules that
import it (`spmdfix.reaching`), through every front end, with the project root found as Python finds a
package (`files.find_project_root`), and the results cache keyed by the importers and the import graph."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from dataclasses import dataclass

import pytest
from click.testing import CliRunner

from golden import ROOT
from spmdfix.api import forget_indexes
from spmdfix.cli import main
from spmdfix.files import find_project_root
from spmdfix.project_graph import ProjectGraph, imports_of_bytes, project_files

CONFIG = """\
import jax
import numpy as np
from jax.sharding import Mesh

DATA = "data"
MODEL = "model"
MESH = Mesh(np.array(jax.devices()).reshape(4, 2), (DATA, MODEL))
"""

MODEL = """\
import jax
from jax.sharding import PartitionSpec as P

from pkg.config import DATA, MESH


def _body(x):
    return x * 2


def forward(x):
    return jax.shard_map(_body, mesh=MESH, in_specs=P(DATA), out_specs=P(DATA))(x)
"""

TRAIN = """\
import jax

from pkg import config
from pkg.model import forward


def step(xs):
    return jax.vmap(forward, spmd_axis_name=config.DATA)(xs)
"""

OTHER = """\
import jax

from pkg.model import forward


def other(xs):
    return jax.vmap(forward, spmd_axis_name="data")(xs)
"""

LAYERS = """\
import jax
import numpy as np
from jax.sharding import Mesh, PartitionSpec as P

MESH = Mesh(np.array(jax.devices()).reshape(8), ("i",))


def f(x):
    return jax.shard_map(lambda y: y, mesh=MESH, in_specs=P("i"), out_specs=P("i"))(x)
"""

RELATIVE_TRAIN = """\
import jax

from .layers import f


def run(xs):
    return jax.vmap(f, spmd_axis_name="i")(xs)
"""

NAMESPACE_TRAIN = """\
import jax

from ns.a.layers import f


def run(xs):
    return jax.vmap(f, spmd_axis_name="i")(xs)
"""


def standard(root: Path) -> Path:
    """The issue's standard layout: pyproject.toml, src/pkg/{config,model,train}.py."""
    pkg = root / "src" / "pkg"
    pkg.mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text(CONFIG)
    (pkg / "model.py").write_text(MODEL)
    (pkg / "train.py").write_text(TRAIN)
    return root


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def spmdfix(cwd: Path, *args: str, stdin: str | None = None) -> Done:
    """`spmdfix ARGS` in `cwd`, in this process (click's CliRunner), as a new process would run it: the import
    graphs and project indexes this process kept are dropped first."""
    forget_indexes([cwd])
    previous = os.getcwd()
    os.chdir(cwd)
    try:
        result = CliRunner().invoke(main, list(args), input=stdin, catch_exceptions=False, env={"SPMDFIX_CACHE_DIR": str(cwd / ".cache-test")})
    finally:
        os.chdir(previous)
    return Done(result.exit_code, result.stdout, result.stderr)


def spmdfix_process(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SPMDFIX_CACHE_DIR": str(cwd / ".cache-test")}
    return subprocess.run([sys.executable, "-m", "spmdfix.cli", *args], cwd=cwd, env=env, capture_output=True, text=True)


def test_checking_the_layer_module_alone_reports_the_collision_of_the_training_module(tmp_path: Path) -> None:
    root = standard(tmp_path)
    done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", "src/pkg/model.py")
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stdout.splitlines() if "SPMD" in line]
    assert lines[0].startswith("src/pkg/model.py:12:55: SPMD001")
    assert lines[1].startswith("src/pkg/model.py:12:74: SPMD002")
    assert len(lines) == 2
    # Without the importer's vmap there is nothing to report.
    (root / "src/pkg/train.py").write_text(TRAIN.replace("config.DATA", "None"))
    assert spmdfix(root, "check", "--no-cache", "src/pkg/model.py").returncode == 0


def test_json_names_the_file_of_the_finding_and_of_the_vmap(tmp_path: Path) -> None:
    root = standard(tmp_path)
    done = spmdfix(root, "check", "--no-cache", "--output-format", "json", "src/pkg/model.py")
    records = json.loads(done.stdout)
    assert [(r["code"], r["location"]["row"]) for r in records] == [("SPMD001", 12), ("SPMD002", 12)]
    for record in records:
        assert record["filename"] == str((root / "src/pkg/model.py").resolve())
        vmap = record["related"][0]
        assert vmap["filename"] == str((root / "src/pkg/train.py").resolve())
        assert vmap["location"] == {"row": 8, "column": 45}
        # The fix's edits lie in other modules, and say so (built on their texts, not on model.py's): the chosen
        # fix is add-axis (safe since issue 20 judged every use of config.py's mesh in the project: all on its
        # allowlist), editing config.py's mesh and train.py's `spmd_axis_name`; the alternative dropping
        # `, spmd_axis_name=config.DATA` (safe on this Auto mesh since issue 24) and those that rewrite
        # `config.DATA` itself edit train.py.
        train = str((root / "src/pkg/train.py").resolve())
        config = str((root / "src/pkg/config.py").resolve())
        assert record["fix"]["transform"] == "add-axis"
        assert record["fix"]["applicability"] == "safe"
        placed = [(e["filename"], e["location"]) for e in record["fix"]["edits"]]
        assert placed == [(config, {"row": 7, "column": 45}), (config, {"row": 7, "column": 53}), (train, {"row": 8, "column": 45})]
        (drop,) = [alt for alt in record["alternatives"] if alt["transform"] == "drop-spmd-axis"]
        (edit,) = drop["edits"]
        assert edit["filename"] == train
        assert edit["location"] == {"row": 8, "column": 28}
        # (rename writes `config.MODEL`, the constant holding the new axis: its edit is `DATA` -> `MODEL`)
        rewrites = [e for alt in record["alternatives"] for e in alt["edits"] if e["location"] == {"row": 8, "column": 52}]
        assert any(e["filename"] == train for e in rewrites)


def test_stdin_with_the_layer_module_name_reports_it_too(tmp_path: Path) -> None:
    root = standard(tmp_path)
    done = spmdfix(root, "check", "--output-format", "concise", "--stdin-filename", "src/pkg/model.py", "-", stdin=MODEL)
    assert done.returncode == 1, done.stderr
    assert "src/pkg/model.py:12:55: SPMD001" in done.stdout
    # The buffer, not the file on disk, is what the finding's position refers to.
    shifted = "\n\n" + MODEL
    done = spmdfix(root, "check", "--output-format", "concise", "--stdin-filename", "src/pkg/model.py", "-", stdin=shifted)
    assert "src/pkg/model.py:14:55: SPMD001" in done.stdout


def test_stdin_fix_says_that_a_fix_across_files_is_not_applied_and_how_to_apply_it(tmp_path: Path) -> None:
    """`fix -` writes one module's text to stdout: add-axis, which edits config.py's mesh and train.py's
    `spmd_axis_name`, cannot be applied there. The buffer comes back unchanged, and stderr says which files the
    fix edits and the command that applies it; that command does."""
    root = standard(tmp_path)
    done = spmdfix(root, "fix", "--stdin-filename", "src/pkg/model.py", "-", stdin=MODEL)
    assert done.returncode == 1
    assert done.stdout == MODEL
    config, train = (os.path.join("src", "pkg", name) for name in ("config.py", "train.py"))
    assert f"also edits {config}, {train}; stdin mode writes only this module's text" in done.stderr
    assert "run `spmdfix fix src/pkg/model.py` to apply it across files" in done.stderr
    applied = spmdfix(root, "fix", "src/pkg/model.py")
    assert applied.returncode == 0, applied.stderr
    assert (root / "src/pkg/config.py").read_text() != CONFIG and (root / "src/pkg/train.py").read_text() != TRAIN
    # A fix that stays in the module says nothing of the kind.
    alone = spmdfix(root, "fix", "--stdin-filename", "src/pkg/model.py", "-", stdin=MODEL)
    assert "stdin mode writes only" not in alone.stderr


@pytest.mark.e2e  # (worker processes)
def test_a_directory_too_large_for_one_process_reports_what_an_importer_outside_places_in_it(tmp_path: Path) -> None:
    """A run over part of a project, with more files than one process takes (`runner.SMALL_TREE`: worker
    processes), checks its layer module as a partial run: the collision a training module outside the
    directory places at its specs is reported, as with one process (a worker cleared the module by its bytes,
    which hold no vmap: "All checks passed!")."""
    from spmdfix.runner import SMALL_TREE

    root = standard(tmp_path)
    layers = root / "src" / "pkg" / "layers"
    layers.mkdir()
    (layers / "__init__.py").write_text("")
    for i in range(SMALL_TREE):
        (layers / f"plain{i}.py").write_text(f"X = {i}\n")
    (root / "src/pkg/model.py").rename(layers / "model.py")
    (root / "src/pkg/train.py").write_text(TRAIN.replace("pkg.model", "pkg.layers.model"))
    for jobs in ("1", "2"):
        done = spmdfix_process(root, "check", "--no-cache", "-j", jobs, "--output-format", "concise", "src/pkg/layers")
        lines = [line.split(" ")[0:2] for line in done.stdout.splitlines() if "SPMD" in line]
        assert lines == [["src/pkg/layers/model.py:12:55:", "SPMD001"], ["src/pkg/layers/model.py:12:74:", "SPMD002"]], (jobs, done.stderr)


def test_a_run_over_the_tree_reports_each_finding_once(tmp_path: Path) -> None:
    root = standard(tmp_path)
    done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", ".")
    lines = [line for line in done.stdout.splitlines() if "SPMD" in line]
    assert [line.split(" ")[0:2] for line in lines] == [
        ["src/pkg/model.py:12:55:", "SPMD001"],
        ["src/pkg/model.py:12:74:", "SPMD002"],
    ]


@pytest.mark.parametrize(
    "ignores", ['"src/pkg/model.py" = ["SPMD001", "SPMD002"]', '"src/pkg/train.py" = ["SPMD"]', '"**/model.py" = ["SPMD0"]']
)
def test_per_file_ignores_of_either_module_of_a_collision_hold_in_every_run(tmp_path: Path, ignores: str) -> None:
    """per-file-ignores of the module a cross-module finding lies in (model.py's spec), or of the module of
    its vmap (train.py), remove it whichever file is checked, as a `# noqa` on either line does (newuser8's
    trial: `"src/tinylm/model.py" = ["SPMD001"]` left SPMD001 at model.py in `check .` and `check train.py`,
    found from train.py, and removed it only in `check model.py`; train.py's entry removed it in `check .`
    only); `fix` then changes nothing."""
    root = standard(tmp_path)
    (root / "pyproject.toml").write_text(f'[project]\nname = "pkg"\n\n[tool.spmdfix]\nper-file-ignores = {{ {ignores} }}\n')
    for target in (".", "src/pkg/train.py", "src/pkg/model.py"):
        done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", target)
        assert (done.returncode, done.stdout) == (0, "All checks passed!\n"), (target, done.stdout)
    fixed = spmdfix(root, "fix", ".")
    assert fixed.returncode == 0, fixed.stderr
    assert (root / "src/pkg/train.py").read_text() == TRAIN and (root / "src/pkg/config.py").read_text() == CONFIG
    # Without the entry the collision is there (the test would pass vacuously otherwise).
    (root / "pyproject.toml").write_text('[project]\nname = "pkg"\n')
    assert spmdfix(root, "check", "--no-cache", ".").returncode == 1


def test_findings_two_modules_place_in_a_third_are_reported_in_its_order(tmp_path: Path) -> None:
    """Findings that the vmaps of other.py and train.py place in model.py are printed among model.py's, by
    place, in every format (newuser8's trial: model.py's lines came in the order of the files whose vmaps
    found them, `23:17, 24:17, 23:17, 23:38, ...`; ruff orders a file's diagnostics by place)."""
    root = standard(tmp_path)
    (root / "src/pkg/model.py").write_text(MODEL.replace("in_specs=P(DATA)", "in_specs=P(DATA, MODEL)").replace(
        "from pkg.config import DATA, MESH", "from pkg.config import DATA, MESH, MODEL"
    ))
    (root / "src/pkg/other.py").write_text(OTHER.replace('spmd_axis_name="data"', 'spmd_axis_name="model"'))
    done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", ".")
    places = [line.split(" ")[0] for line in done.stdout.splitlines() if " SPMD" in line]
    assert places == ["src/pkg/model.py:12:55:", "src/pkg/model.py:12:61:", "src/pkg/model.py:12:81:"], done.stdout
    full = spmdfix(root, "check", "--no-cache", ".").stdout
    assert [line.split(" ")[0] for line in full.splitlines() if line.startswith("src/")] == places
    records = json.loads(spmdfix(root, "check", "--no-cache", "--output-format", "json", ".").stdout)
    assert [(r["location"]["row"], r["location"]["column"]) for r in records] == [(12, 55), (12, 61), (12, 81)]


def test_fix_of_the_layer_module_names_the_files_each_applied_fix_edits(tmp_path: Path) -> None:
    """Two fixes of the layer module's findings applied across modules: add-axis edits config.py's mesh and
    train.py's `spmd_axis_name`, the rename that follows it edits train.py only, and each says its own files
    (newuser8's trial: "applied rename (safe), editing src/tinylm/config.py, src/tinylm/train.py", the files
    of every fix of the module)."""
    root = standard(tmp_path)
    (root / "src/pkg/model.py").write_text(MODEL.replace("in_specs=P(DATA)", "in_specs=P(DATA, MODEL)").replace(
        "from pkg.config import DATA, MESH", "from pkg.config import DATA, MESH, MODEL"
    ))
    (root / "src/pkg/train.py").write_text(
        TRAIN + "\n\ndef ensemble(xs):\n    return jax.vmap(forward, spmd_axis_name=config.MODEL)(xs)\n"
    )
    done = spmdfix(root, "fix", "src/pkg/model.py")
    assert done.returncode == 0, done.stderr
    assert "fixes applied: add-axis 1, rename 1" in done.stderr
    assert "src/pkg/model.py: applied add-axis (safe), editing src/pkg/config.py, src/pkg/train.py: " in done.stderr
    assert "src/pkg/model.py: applied rename (safe), editing src/pkg/train.py: " in done.stderr


def test_fix_of_the_layer_module_fixes_in_the_training_module_and_says_so(tmp_path: Path) -> None:
    root = standard(tmp_path)
    # The safe fix (add-axis: every use of config.py's mesh in the project is on its allowlist, issue 20)
    # edits config.py's mesh and train.py's spmd_axis_name, not model.py.
    done = spmdfix(root, "fix", "src/pkg/model.py")
    assert done.returncode == 0, done.stderr
    assert "fixes applied: add-axis 1" in done.stderr
    # It names the fix and the file of its finding, then each module it changed (model.py itself is unchanged).
    assert "src/pkg/model.py: applied add-axis (safe), editing src/pkg/config.py, src/pkg/train.py: " in done.stderr
    assert "src/pkg/train.py: changed by a fix of src/pkg/model.py" in done.stderr
    assert "src/pkg/config.py: changed by a fix of src/pkg/model.py" in done.stderr
    assert (root / "src/pkg/train.py").read_text() != TRAIN
    assert (root / "src/pkg/config.py").read_text() != CONFIG
    assert (root / "src/pkg/model.py").read_text() == MODEL
    assert spmdfix(root, "check", "--no-cache", ".").returncode == 0


@pytest.mark.parametrize("target", ["src/pkg/model.py", "src/pkg/train.py", "."])
def test_fix_keeps_layout_changing_fixes_unsafe_when_the_settings_say_so(tmp_path: Path, target: str) -> None:
    """`layout-changing-fixes = "unsafe"` holds for the fixes applied in other modules too: `check` offers
    add-axis and drop-spmd-axis as unsafe, so `fix` (no --unsafe-fixes) leaves config.py and train.py as they
    were, whether the run names the layer module (a partial run), the training module or the tree (the
    cross-module step once applied them as safe). The safe fix that is left is strip, an edit of model.py
    alone: the body is elementwise and `forward`'s only use in the project is train.py's vmap."""
    root = standard(tmp_path)
    (root / "pyproject.toml").write_text('[project]\nname = "pkg"\n\n[tool.spmdfix]\nlayout-changing-fixes = "unsafe"\n')
    shown = spmdfix(root, "check", "--no-cache", "--show-fixes", "src/pkg/model.py")
    assert "fix [unsafe] add-axis" in shown.stdout and "fix [unsafe] drop-spmd-axis" in shown.stdout, shown.stdout
    assert "fix [safe] add-axis" not in shown.stdout and "fix [safe] drop-spmd-axis" not in shown.stdout
    assert "fix [safe] strip (auto)" in shown.stdout
    done = spmdfix(root, "fix", target)
    assert (root / "src/pkg/config.py").read_text() == CONFIG, done.stderr
    assert (root / "src/pkg/train.py").read_text() == TRAIN, done.stderr
    # (the strip leaves `DATA` read nowhere in model.py: removed from its import, docs/safety.md "Imports a fix
    # leaves unused")
    stripped = MODEL.replace("P(DATA)", "P(None)").replace("import DATA, MESH", "import MESH")
    assert (root / "src/pkg/model.py").read_text() == stripped
    assert "fixes applied: strip 1" in done.stderr, done.stderr
    assert "config.py: changed" not in done.stderr and "train.py: changed" not in done.stderr
    assert done.returncode == 0


@pytest.mark.e2e
def test_the_codemod_command_on_the_layer_module_reports_the_collision(tmp_path: Path) -> None:
    root = standard(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "libcst.tool", "codemod", "-x", "spmdfix.codemods.commands.AutoFixCommand",
         "--no-format", "src/pkg/model.py"],
        cwd=root, env=env, capture_output=True, text=True,
    )
    assert "12:55: SPMD001" in done.stderr and "its vmap is in src/pkg/train.py" in done.stderr, done.stderr
    assert "2 findings left unfixed" in done.stderr


def test_a_package_without_any_project_marker_is_followed(tmp_path: Path) -> None:
    """Issue 20 kind 6: `from .layers import f` in a directory with `__init__.py`, no marker above it."""
    pkg = tmp_path / "pkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "layers.py").write_text(LAYERS)
    (pkg / "train.py").write_text(RELATIVE_TRAIN)
    if find_project_root(pkg / "train.py") != tmp_path.resolve():
        pytest.skip("a project marker above the temporary directory")
    for target in ("pkg/train.py", "pkg/layers.py"):
        done = spmdfix(tmp_path, "check", "--no-cache", "--output-format", "concise", target)
        assert "pkg/layers.py:9:61: SPMD001" in done.stdout, (target, done.stdout, done.stderr)


def test_a_namespace_of_two_packages_is_followed_from_the_root(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    for name, text in (("a", LAYERS), ("b", NAMESPACE_TRAIN)):
        package = tmp_path / "ns" / name
        package.mkdir(parents=True)
        (package / "__init__.py").write_text("")
        (package / ("layers.py" if name == "a" else "train.py")).write_text(text)
    for target in ("ns/b/train.py", "ns/a/layers.py"):
        done = spmdfix(tmp_path, "check", "--no-cache", "--output-format", "concise", target)
        assert "ns/a/layers.py:9:61: SPMD001" in done.stdout, (target, done.stdout, done.stderr)


def test_the_project_root_is_the_marker_else_the_package_base_else_the_directory(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    (plain / "pkg" / "sub").mkdir(parents=True)
    (plain / "pkg" / "__init__.py").write_text("")
    (plain / "pkg" / "sub" / "__init__.py").write_text("")
    (plain / "pkg" / "sub" / "m.py").write_text("")
    (plain / "loose.py").write_text("")
    if find_project_root(plain / "loose.py") != plain.resolve():
        pytest.skip("a project marker above the temporary directory")
    assert find_project_root(plain / "pkg" / "sub" / "m.py") == plain.resolve()
    assert find_project_root(plain / "pkg") == plain.resolve()
    (plain / "pkg" / "setup.cfg").write_text("")
    assert find_project_root(plain / "pkg" / "sub" / "m.py") == (plain / "pkg").resolve()


def test_the_import_scan_reads_every_import_spelling_without_a_full_parse() -> None:
    text = b'''"""doc"""
import a.b as c, d
from . import x
from ..up import (
    y,
    z,
)
from e import \\
    f
def g():
    from h import i
    if True:
        import j
x = 1; import k
'''
    found = {(i.level, i.module, i.names) for i in imports_of_bytes(text)}
    assert found == {
        (0, "a.b", ()), (0, "d", ()), (1, "", ("x",)), (2, "up", ("y", "z")), (0, "e", ("f",)),
        (0, "h", ("i",)), (0, "j", ()), (0, "k", ()),
    }
    # Without the inline import, the cut-out lines alone give the same imports.
    assert {(i.level, i.module, i.names) for i in imports_of_bytes(text.replace(b"x = 1; import k\n", b""))} == (
        found - {(0, "k", ())}
    )


def test_the_graph_gives_the_importers_transitively_and_respects_gitignore(tmp_path: Path) -> None:
    root = standard(tmp_path)
    pkg = root / "src" / "pkg"
    (pkg / "api.py").write_text("from .train import step\n")
    (pkg / "ignored.py").write_text("from pkg.model import forward\n")
    (root / ".gitignore").write_text("ignored.py\n")
    (root / ".git").mkdir()  # (a work tree's root: its .gitignore applies)
    files, complete = project_files(str(root.resolve()))
    assert complete and str((pkg / "ignored.py").resolve()) not in files
    graph = ProjectGraph(str(root.resolve()), files, complete)
    model = str((pkg / "model.py").resolve())
    assert set(graph.importers_of(model)) == {str((pkg / "train.py").resolve())}
    assert graph.importers_of(model)[str((pkg / "train.py").resolve())] == {"forward"}
    assert graph.reaching(model) == tuple(sorted(str((pkg / n).resolve()) for n in ("api.py", "train.py")))


@pytest.mark.e2e
def test_the_cache_follows_the_importers_and_the_import_graph(tmp_path: Path) -> None:
    """Each dependency of a partial run's result edited in turn: the importer's vmap line, a new importer,
    the new importer deleted; a cached run (a new process each time, as the CLI runs) reports what a run
    without the cache reports each time."""
    root = standard(tmp_path)
    pkg = root / "src" / "pkg"

    def both() -> str:
        cached = spmdfix_process(root, "check", "-j", "1", "--output-format", "concise", "src/pkg/model.py")
        cold = spmdfix_process(root, "check", "-j", "1", "--no-cache", "--output-format", "concise", "src/pkg/model.py")
        assert cached.stdout == cold.stdout
        return cold.stdout

    assert "train.py" not in both() and "SPMD001" in both()
    (pkg / "train.py").write_text(TRAIN.replace("config.DATA", "config.MODEL"))
    assert "SPMD001" not in both()
    (pkg / "other.py").write_text(OTHER)
    assert "SPMD001" in both()
    (pkg / "other.py").unlink()
    assert "SPMD001" not in both()
    (pkg / "train.py").write_text(TRAIN)
    assert "SPMD001" in both()


def test_the_import_scan_finds_every_import_ast_finds_in_the_jax_package() -> None:
    """Soundness of the scan without a full parse: over every module of the installed jax package (odd
    spellings included: comments inside bracketed name lists, `import` in comments and docstrings), every
    import `ast` finds is among those the scan gives."""
    import ast

    import jax

    checked = 0
    for path in sorted(Path(jax.__file__).parent.rglob("*.py")):
        raw = path.read_bytes()
        try:
            tree = ast.parse(raw)
        except SyntaxError:
            continue
        want = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                want |= {(0, a.name, ()) for a in node.names}
            elif isinstance(node, ast.ImportFrom):
                want.add((node.level or 0, node.module or "", tuple(a.name for a in node.names)))
        got = {(i.level, i.module, i.names) for i in imports_of_bytes(raw)}
        assert want <= got, (path, sorted(want - got)[:3])
        checked += 1
    assert checked > 500


NOTEBOOK_CELLS = [["import jax\n", "from pkg.model import forward\n"], ["jax.vmap(forward, spmd_axis_name='data')"]]


def notebook_of(cells: list[list[str]]) -> str:
    """The JSON text of a Python notebook of these code cells."""
    return json.dumps(
        {
            "cells": [
                {"cell_type": "code", "execution_count": None, "id": str(i), "metadata": {}, "outputs": [], "source": c}
                for i, c in enumerate(cells)
            ],
            "metadata": {"language_info": {"name": "python"}},
            "nbformat": 4,
            "nbformat_minor": 5,
        }
    )


def test_a_notebook_importing_the_layer_module_is_one_of_its_importers(tmp_path: Path) -> None:
    """A notebook of the project importing the layer module: checking the layer module alone reports the
    collision the notebook's vmap makes at its spec, as checking the notebook (or the whole tree) does, the
    vmap named by its cell in every output; without a fix there (a notebook is fixed alone, and a run of the
    module edits no notebook: each refusal says so and names the command that applies it); a run of both
    reports it once, the notebook's, with its fix; `fix` of the module alone leaves the notebook as it is."""
    root = standard(tmp_path)
    (root / "src/pkg/train.py").write_text(TRAIN.replace("config.DATA", "None"))
    notebook = root / "explore.ipynb"
    notebook.write_text(notebook_of(NOTEBOOK_CELLS))
    done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", "explore.ipynb")
    assert "src/pkg/model.py:12:55: SPMD001 [*]" in done.stdout, done.stdout

    done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", "src/pkg/model.py")
    assert done.returncode == 1, done.stderr
    lines = [line for line in done.stdout.splitlines() if "SPMD" in line]
    assert [line.split(" ", 2)[:2] for line in lines] == [["src/pkg/model.py:12:55:", "SPMD001"], ["src/pkg/model.py:12:74:", "SPMD002"]]
    assert "[*]" not in done.stdout

    text = spmdfix(root, "check", "--no-cache", "src/pkg/model.py").stdout
    assert "1. explore.ipynb:cell 2:1:34: `spmd_axis_name` `'data'` given here" in text, text
    assert "| jax.vmap(forward, spmd_axis_name='data')" in text
    assert "no fix: rename: it edits the notebook explore.ipynb, whose vmap this is" in text
    assert "`spmdfix fix explore.ipynb` applies it" in text

    records = json.loads(spmdfix(root, "check", "--no-cache", "--output-format", "json", "src/pkg/model.py").stdout)
    assert [r["code"] for r in records] == ["SPMD001", "SPMD002"]
    for record in records:
        vmap = record["related"][0]
        assert vmap["filename"] == str(notebook.resolve())
        assert (vmap["cell"], vmap["location"], vmap["end_location"]) == (2, {"row": 1, "column": 34}, {"row": 1, "column": 40})
        assert record["chain"][0] == vmap
        assert record["fix"] is None and record["alternatives"] == []
        refused = {r["transform"]: r["reason"] for r in record["not_offered"]}
        assert "`spmdfix fix explore.ipynb` applies it" in refused["drop-spmd-axis"]
        assert "it edits src/pkg/model.py" in refused["strip"]

    sarif = json.loads(spmdfix(root, "check", "--no-cache", "--output-format", "sarif", "src/pkg/model.py").stdout)
    first = sarif["runs"][0]["results"][0]["relatedLocations"][0]
    assert first["properties"] == {"cell": 2, "row": 1, "column": 34}
    assert first["message"]["text"].startswith("cell 2:1:34: ")

    both = spmdfix(root, "check", "--no-cache", "--output-format", "concise", "src/pkg/model.py", "explore.ipynb")
    lines = [line for line in both.stdout.splitlines() if "SPMD" in line]
    assert len(lines) == 2 and all("[*]" in line for line in lines), both.stdout

    before = notebook.read_text()
    done = spmdfix(root, "fix", "--no-cache", "src/pkg/model.py")
    assert done.returncode == 1 and notebook.read_text() == before
    done = spmdfix(root, "fix", "--no-cache", "src/pkg/model.py", "explore.ipynb")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "spmd_axis_name" not in notebook.read_text()
    assert spmdfix(root, "check", "--no-cache", "src/pkg/model.py").returncode == 0


def test_a_notebook_excluded_by_the_configuration_is_no_importer(tmp_path: Path) -> None:
    """The partial run's listing respects the configured excludes for notebooks as for modules: a run over the
    tree does not check an excluded notebook, so a run of the module alone does not report its vmap."""
    root = standard(tmp_path)
    (root / "src/pkg/train.py").write_text(TRAIN.replace("config.DATA", "None"))
    (root / "scratch").mkdir()
    (root / "scratch/explore.ipynb").write_text(notebook_of(NOTEBOOK_CELLS))
    assert spmdfix(root, "check", "--no-cache", "src/pkg/model.py").returncode == 1
    (root / "pyproject.toml").write_text('[project]\nname = "pkg"\n\n[tool.spmdfix]\nextend-exclude = ["scratch"]\n')
    assert spmdfix(root, "check", "--no-cache", ".").returncode == 0
    assert spmdfix(root, "check", "--no-cache", "src/pkg/model.py").returncode == 0


@pytest.mark.e2e
def test_the_cache_follows_a_notebook_importing_the_layer_module(tmp_path: Path) -> None:
    """A cached partial run of the layer module (a new process each time) reports what a run without the cache
    reports after each change of a notebook importer: a notebook added, its vmap edited away, back, deleted."""
    root = standard(tmp_path)
    (root / "src/pkg/train.py").write_text(TRAIN.replace("config.DATA", "None"))
    notebook = root / "explore.ipynb"

    def both() -> str:
        cached = spmdfix_process(root, "check", "-j", "1", "--output-format", "concise", "src/pkg/model.py")
        cold = spmdfix_process(root, "check", "-j", "1", "--no-cache", "--output-format", "concise", "src/pkg/model.py")
        assert cached.stdout == cold.stdout
        return cold.stdout

    assert "SPMD001" not in both()
    notebook.write_text(notebook_of(NOTEBOOK_CELLS))
    assert "SPMD001" in both()
    notebook.write_text(notebook_of([NOTEBOOK_CELLS[0], ["jax.vmap(forward)"]]))
    assert "SPMD001" not in both()
    notebook.write_text(notebook_of(NOTEBOOK_CELLS))
    assert "SPMD001" in both()
    notebook.unlink()
    assert "SPMD001" not in both()


def test_the_cache_follows_a_module_loading_the_layer_module_by_name(tmp_path: Path) -> None:
    """A module written after a cached run that loads pkg.model with `__import__` (it imports nothing of it)
    and stores the package object it returns makes strip and add-axis unsafe at the next cached run, naming
    it; one loading another top-level package leaves them safe (the graph lists the first as an importer of
    pkg.model and of pkg, `import_scan._loads_by_name`)."""
    import re

    root = standard(tmp_path)

    def fixes() -> dict[str, str]:
        out = spmdfix(root, "check", "--show-fixes", "src/pkg/model.py").stdout
        return {name: kind for kind, name in re.findall(r"fix \[(\w+)\] ([\w-]+)", out)} | {"out": out}

    assert fixes()["strip"] == "safe" and fixes()["add-axis"] == "safe"
    (root / "src" / "pkg" / "loader.py").write_text("M = [__import__('pkg.model')]\n")  # (the package object stored)
    shown = fixes()
    assert shown["strip"] == "unsafe" and shown["add-axis"] == "unsafe", shown["out"]
    assert "`__import__('pkg.model')` (src/pkg/loader.py line 1)" in shown["out"]
    (root / "src" / "pkg" / "loader.py").write_text("M = __import__('numpy')\n")
    assert fixes()["strip"] == "safe" and fixes()["add-axis"] == "safe"


def test_a_live_partial_run_parses_an_importers_text_once(tmp_path: Path, monkeypatch) -> None:
    """`reached(live=True)` (a language server) keeps the trees of the importers it analyses (`reaching._TREES`):
    the same text is not parsed again, another text of the importer is, and gives its own findings (train.py's
    vmap gone, model.py's typed text shows nothing)."""
    import ast

    from spmdfix import reaching
    from spmdfix.api import new_project_index
    from spmdfix.model import Options

    root = standard(tmp_path)
    model, train = (root / "src/pkg/model.py").resolve(), (root / "src/pkg/train.py").resolve()
    parsed: list[str] = []
    parse = ast.parse
    monkeypatch.setattr(ast, "parse", lambda text, *a, **k: parsed.append(text) or parse(text, *a, **k))
    reaching.forget()
    forget_indexes([root])
    index = new_project_index(root.resolve())
    text = model.read_text()
    counts = []
    for typed in ("# a\n", "# b\n"):
        found = reaching.reached(model, text + typed, index, Options(), live=True)
        assert [f.code for f in found.findings] == ["SPMD001", "SPMD002"]
        counts.append(parsed.count(TRAIN))
    assert counts[0] >= 1 and counts[1] == counts[0]  # (the project index parses it too: `module_memo`)
    train.write_text(TRAIN.replace("config.DATA", "None"))
    forget_indexes([root])
    index = new_project_index(root.resolve())
    assert reaching.reached(model, text + "# c\n", index, Options(), live=True).findings == ()
    assert parsed.count(TRAIN.replace("config.DATA", "None")) >= 1


# A training module vmapping `forward` through the package: `from pkg import forward`.
PACKAGE_TRAIN = TRAIN.replace("from pkg.model import forward", "from pkg import forward")
STAR_INIT = "from .model import *  # noqa: F403\n"
LAZY_INIT = (
    "import importlib\n\n_LAZY = {'forward': 'model'}\n\n\ndef __getattr__(name):\n"
    "    return getattr(importlib.import_module('.' + _LAZY[name], __name__), name)\n"
)


def test_the_graph_names_the_vmaps_reaching_a_module_through_names_the_analysis_cannot_decide(tmp_path: Path) -> None:
    """`ProjectGraph.undecided_candidates`: train.py (a vmap) imports pkg, whose `__init__.py` star-imports
    model.py, or gives names through a module-level `__getattr__`: it may reach model.py (and config.py, which
    model.py imports, for the star import; every module of the package, for `__getattr__`); a plain re-export
    (`from .model import forward`, followed by the analysis) and a module loading by name outside a package's
    `__init__.py` name none."""
    root = standard(tmp_path)
    pkg = root / "src" / "pkg"
    (pkg / "train.py").write_text(PACKAGE_TRAIN)
    path = {n: str((pkg / f"{n}.py").resolve()) for n in ("__init__", "config", "model", "train")}

    def graph() -> ProjectGraph:
        files, complete = project_files(str(root.resolve()))
        return ProjectGraph(str(root.resolve()), files, complete)

    (pkg / "__init__.py").write_text("from .model import forward\n")
    assert graph().undecided_candidates(path["model"]) == ()
    (pkg / "__init__.py").write_text(STAR_INIT)
    g = graph()
    assert g.undecided_candidates(path["model"]) == (path["train"],)
    assert g.undecided_candidates(path["config"]) == (path["train"],)
    before = g.state(path["model"])
    (pkg / "__init__.py").write_text(LAZY_INIT)
    g = graph()
    assert g.undecided_candidates(path["model"]) == (path["train"],)
    assert g.state(path["model"]) != before  # (the cache keys a partial run's result by it)
    (pkg / "__init__.py").write_text("")
    (pkg / "loader.py").write_text("import importlib\n\n\ndef load(name):\n    return importlib.import_module(name)\n")
    (pkg / "train.py").write_text(PACKAGE_TRAIN + "from pkg.loader import load\n")
    assert graph().undecided_candidates(path["model"]) == ()


@pytest.mark.parametrize("init", [STAR_INIT, LAZY_INIT], ids=["star", "getattr"])
def test_a_module_reached_through_an_undecided_reexport_is_never_silent_alone(tmp_path: Path, init: str) -> None:
    """`spmdfix check src/pkg/model.py` alone, where train.py's vmap reaches `forward` through pkg's star import
    or lazy `__getattr__`: the analysis of train.py stops there (SPMD910 naming it) and the partial run of
    model.py reports that record, as the run over the tree does; a run over model.py and config.py (both
    reached) reports it once."""
    root = standard(tmp_path)
    pkg = root / "src" / "pkg"
    (pkg / "__init__.py").write_text(init)
    (pkg / "train.py").write_text(PACKAGE_TRAIN)
    tree = spmdfix(root, "check", "--no-cache", "--show-unresolved", "--output-format", "concise", ".")
    alone = spmdfix(root, "check", "--no-cache", "--show-unresolved", "--output-format", "concise", "src/pkg/model.py")
    both = spmdfix(
        root, "check", "--no-cache", "--show-unresolved", "--output-format", "concise", "src/pkg/model.py", "src/pkg/config.py"
    )
    record = [line for line in tree.stdout.splitlines() if "SPMD910" in line]
    assert len(record) == 1 and record[0].startswith("src/pkg/train.py:8:"), tree.stdout
    assert ("from .model import *" if init == STAR_INIT else "`__getattr__`") in record[0]
    assert [line for line in alone.stdout.splitlines() if "SPMD910" in line] == record, alone.stdout
    assert [line for line in both.stdout.splitlines() if "SPMD910" in line] == record, both.stdout
    assert "1 spmd vmap could not be followed" in alone.stderr + alone.stdout


@pytest.mark.e2e
def test_the_cache_follows_a_package_init_that_starts_to_star_import(tmp_path: Path) -> None:
    """pkg/__init__.py edited from a re-export the analysis follows to a star import: the cached partial run of
    model.py reports train.py's record as a run without the cache does (the graph's state names the modules
    that may reach model.py through undecided names)."""
    root = standard(tmp_path)
    pkg = root / "src" / "pkg"
    (pkg / "train.py").write_text(PACKAGE_TRAIN)

    def both() -> str:
        args = ("check", "-j", "1", "--show-unresolved", "--output-format", "concise", "src/pkg/model.py")
        cached = spmdfix_process(root, *args)
        cold = spmdfix_process(root, *args[:3], "--no-cache", *args[3:])
        assert cached.stdout == cold.stdout
        return cold.stdout

    (pkg / "__init__.py").write_text("from .model import forward\n")
    assert "SPMD001" in both() and "SPMD910" not in both()
    (pkg / "__init__.py").write_text(STAR_INIT)
    assert "SPMD001" not in both() and "src/pkg/train.py:8:" in both()
    (pkg / "__init__.py").write_text("from .model import forward\n")
    assert "SPMD001" in both() and "SPMD910" not in both()


def test_an_importers_vmap_whose_analysis_stopped_is_reported_by_the_layer_module_alone(tmp_path: Path) -> None:
    """train.py's vmap reads its axis from an argument nothing in the project passes: where it reaches is not
    known, so checking model.py alone (what pre-commit runs for a commit of model.py) must not claim "All checks
    passed!" as if every vmap that may reach it was followed; it counts the record (newuser8) and lists it."""
    root = standard(tmp_path)
    (root / "src/pkg/train.py").write_text(TRAIN.replace("def step(xs):", "def step(xs, axis):").replace("config.DATA", "axis"))
    done = spmdfix(root, "check", "--no-cache", "src/pkg/model.py")
    assert done.returncode == 0, done.stderr
    assert "All checks passed!" not in done.stdout
    assert "1 vmap could not be followed to the end" in done.stdout, done.stdout
    listed = spmdfix(root, "check", "--no-cache", "--show-unresolved", "--output-format", "concise", "src/pkg/model.py")
    assert "src/pkg/train.py:8:45: SPMD910" in listed.stdout, listed.stdout


HELPERS = """\
import jax


def make_batched(fn):
    return jax.vmap(fn, spmd_axis_name="data")
"""


def test_a_vmap_factory_an_importer_applies_to_the_layer_modules_function_is_reported_by_it_alone(tmp_path: Path) -> None:
    """train.py applies helpers.py's vmap factory to model.py's `forward`; helpers.py imports nothing of the
    project, yet its analysis is the one that finds the collision at model.py's spec (`passed_candidates`):
    model.py alone reports it. With a second caller passing another function, helpers.py's `fn` is not known:
    model.py alone reports that record (the vmap's callable itself is lost), not "All checks passed!"."""
    root = standard(tmp_path)
    (root / "src/pkg/helpers.py").write_text(HELPERS)
    (root / "src/pkg/train.py").write_text(
        "from pkg import helpers\nfrom pkg.model import forward\n\n\ndef step(xs):\n    return helpers.make_batched(forward)(xs)\n"
    )
    done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", "src/pkg/model.py")
    assert "src/pkg/model.py:12:55: SPMD001" in done.stdout, done.stdout
    (root / "src/pkg/other.py").write_text(
        "from pkg import helpers\n\n\ndef double(x):\n    return x * 2\n\n\ndef run(xs):\n    return helpers.make_batched(double)(xs)\n"
    )
    listed = spmdfix(root, "check", "--no-cache", "--show-unresolved", "--output-format", "concise", "src/pkg/model.py")
    assert "All checks passed!" not in listed.stdout
    assert "src/pkg/helpers.py:5:21: SPMD910" in listed.stdout and "`fn` is a parameter" in listed.stdout, listed.stdout
    # the mesh's module: helpers.py's vmap record reaches it too only where its callable is lost (none here)
    (root / "src/pkg/other.py").unlink()
    alone = spmdfix(root, "check", "--no-cache", "--show-unresolved", "--output-format", "concise", "src/pkg/config.py")
    assert "SPMD" not in alone.stdout, alone.stdout


SPEC_HELPER_TREE = ROOT / "golden" / "add-axis" / "tree_spec_helper_other_module" / "input"


def test_a_module_applying_a_shard_map_with_another_module_s_spec_reports_the_collision_once(tmp_path: Path) -> None:
    """layers.py applies the shard_map with `activation_spec()` of specs.py; run.py's vmap collides with it at
    specs.py's spec. layers.py alone (a commit of the layer only) reports it there, as the tree's run does; with
    run.py or specs.py in the same run it is reported once; the results cache follows an edit of specs.py (read
    by the importer's analysis) and of run.py; a module not on the chain (config.py) reports nothing alone."""
    import shutil

    root = tmp_path / "tree"
    shutil.copytree(SPEC_HELPER_TREE, root)
    (root / "pyproject.toml").write_text("[project]\nname = 'tree'\n")

    def located(*args: str) -> list[str]:
        done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", *args)
        return [" ".join(line.split(" ")[:2]) for line in done.stdout.splitlines() if "SPMD" in line]

    both = ["pkg/specs.py:8:14: SPMD001", "pkg/specs.py:8:14: SPMD002"]
    assert located(".") == both
    assert located("pkg/layers.py") == both
    assert located("pkg/layers.py", "run.py") == both
    assert located("pkg/layers.py", "pkg/specs.py") == both
    assert located("pkg/config.py") == []


@pytest.mark.e2e
def test_the_cache_follows_the_spec_helper_and_the_vmap_a_layer_module_s_finding_rests_on(tmp_path: Path) -> None:
    """The partial run of layers.py above, cached (a new process each time): an edit of specs.py (read by the
    importer's analysis) and of run.py each change its result as a run without the cache sees it."""
    import shutil

    root = tmp_path / "tree"
    shutil.copytree(SPEC_HELPER_TREE, root)
    (root / "pyproject.toml").write_text("[project]\nname = 'tree'\n")

    def cached_and_cold() -> str:
        args = ("check", "-j", "1", "--output-format", "concise", "pkg/layers.py")
        cached = spmdfix_process(root, *args)
        cold = spmdfix_process(root, "check", "-j", "1", "--no-cache", "--output-format", "concise", "pkg/layers.py")
        assert cached.stdout == cold.stdout
        return cold.stdout

    assert "SPMD001" in cached_and_cold()
    specs = root / "pkg" / "specs.py"
    specs.write_text(specs.read_text().replace("P(DATA, MODEL)", "P(None, MODEL)"))
    assert "SPMD" not in cached_and_cold()
    specs.write_text(specs.read_text().replace("P(None, MODEL)", "P(DATA, MODEL)"))
    assert "SPMD001" in cached_and_cold()
    run = root / "run.py"
    run.write_text(run.read_text().replace("spmd_axis_name=DATA", "spmd_axis_name=None"))
    assert "SPMD" not in cached_and_cold()


def test_a_module_on_the_chain_naming_no_shard_map_reports_the_collision_alone(tmp_path: Path) -> None:
    """The chain of run.py's vmap passes through utils.py's `f(x)` (a function given to `apply`), then
    layers.py's shard_map with specs.py's spec: utils.py names no shard_map, spec, mesh or sharding and imports
    nothing, yet a partial run of it (a commit of utils.py alone) reports the collision the tree's run does,
    and `fix utils.py` applies the safe add-axis; the partial run's word filter skipped it (breaker21 v11)."""
    import shutil

    root = tmp_path / "tree"
    shutil.copytree(SPEC_HELPER_TREE, root)
    (root / "pyproject.toml").write_text("[project]\nname = 'tree'\n")
    (root / "utils.py").write_text("def apply(f, x):\n    return f(x) + 0.0\n")
    run = root / "run.py"
    run.write_text(
        run.read_text()
        .replace("from pkg.layers import residual", "from pkg.layers import residual\nfrom utils import apply")
        .replace("jax.vmap(residual,", "jax.vmap(lambda x: apply(residual, x),")
    )

    def located(*args: str) -> list[str]:
        done = spmdfix(root, "check", "--no-cache", "--output-format", "concise", *args)
        return [" ".join(line.split(" ")[:2]) for line in done.stdout.splitlines() if "SPMD" in line]

    both = ["pkg/specs.py:8:14: SPMD001", "pkg/specs.py:8:14: SPMD002"]
    assert located(".") == both
    assert located("utils.py") == both
    assert located("utils.py", "pkg/layers.py") == both
    fixed = spmdfix(root, "fix", "--no-cache", "utils.py")
    assert "add-axis 1" in fixed.stderr + fixed.stdout, fixed.stderr + fixed.stdout
    assert located(".") == []
