"""Issue 20, the files a cross-module fix is judged against: every module and notebook under the project root
(`project_graph.judged_files`), whatever the configured excludes and `.gitignore` say, the default excludes
(`.venv`, `build`, `site-packages`, ...) aside. A gitignored script, an excluded module and a notebook still run,
so a read of the mesh there off add-axis's allowlist (or a direct call of a shard_map'd function, for strip)
makes the fix unsafe and is named, in a notebook by its cell. The partial run's reach keeps the check's listing
(`project_graph.project_files`).

Each test writes the standard layout (pyproject.toml, src/pkg/{config,model,train}.py) plus the files under test.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from spmdfix import project_graph
from spmdfix.api import check_source, new_project_index
from spmdfix.model import Applicability, Options

CONFIG = (
    "import jax\nimport numpy as np\nfrom jax.sharding import Mesh\n\n"
    "DATA, MODEL = 'data', 'model'\nMESH = Mesh(np.array(jax.devices()).reshape(2, 4), (DATA, MODEL))\n"
)
MODEL = (
    "import jax\nfrom jax.sharding import PartitionSpec as P\n\nfrom .config import DATA, MESH, MODEL\n\n\n"
    "def forward(x, w):\n    return jax.shard_map(lambda a, b: a @ b, mesh=MESH, in_specs=(P(DATA, None), "
    "P(None, MODEL)), out_specs=P(DATA, MODEL))(x, w)\n"
)
TRAIN = (
    "import jax\n\nfrom .config import DATA\nfrom .model import forward\n\n"
    "step = jax.vmap(forward, in_axes=(0, None), spmd_axis_name=DATA)\n"
)
# strip's layout: an elementwise body, so strip is safe unless another module uses `forward`
STRIP_MODEL = (
    "import jax\nimport jax.numpy as jnp\nfrom jax.sharding import PartitionSpec as P\n\n"
    "from .config import DATA, MESH, MODEL\n\nROWS = P(DATA, MODEL)\n\n\n"
    "def forward(x):\n    return jax.shard_map(lambda a: jnp.sin(a) * 2.0, mesh=MESH, in_specs=ROWS, out_specs=ROWS)(x)\n"
)
STRIP_TRAIN = "import jax\n\nfrom .config import DATA\nfrom .model import forward\n\nstep = jax.vmap(forward, spmd_axis_name=DATA)\n"

READER = "from pkg.config import MESH\n\nGROUPS = MESH.devices.shape[0]\n"
PLACER = (
    "import jax\nfrom jax.sharding import NamedSharding, PartitionSpec as P\n\nfrom pkg.config import MESH\n\n\n"
    "def replicate(x):\n    return jax.device_put(x, NamedSharding(MESH, P()))\n"
)


def notebook(*cells: tuple[str, str], language: str = "python") -> str:
    """A notebook's JSON text with `cells` ((cell type, source) each)."""
    out = []
    for kind, source in cells:
        cell = {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True)}
        if kind == "code":
            cell.update(execution_count=None, outputs=[])
        out.append(cell)
    meta = {"kernelspec": {"display_name": language, "language": language, "name": language}}
    return json.dumps({"cells": out, "metadata": meta, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"


NOTEBOOK_READER = notebook(
    ("markdown", "# groups\n"),
    ("code", "%matplotlib inline\nfrom pkg.config import MESH\n"),
    ("code", "x = 1\ngroups = MESH.devices.shape[0]\n"),
)


def _write(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    project_graph.forget_graphs()
    return root.resolve()


def _project(tmp_path: Path, extra: dict[str, str], strip: bool = False) -> Path:
    """The standard layout (add-axis's, or strip's with `strip`) with `extra` files (relative path -> text)."""
    files = {
        "pyproject.toml": '[project]\nname = "pkg"\n',
        "src/pkg/__init__.py": "",
        "src/pkg/config.py": CONFIG,
        "src/pkg/model.py": STRIP_MODEL if strip else MODEL,
        "src/pkg/train.py": STRIP_TRAIN if strip else TRAIN,
    }
    return _write(tmp_path, {**files, **extra})


def _fix(root: Path, title: str):
    """The fix whose title starts with `title` of the first finding of train.py (located at model.py's spec)."""
    train = root / "src" / "pkg" / "train.py"
    findings = check_source(train.read_text(), Options(), path=train, index=new_project_index(root))
    assert findings, "the collision is found"
    fixes = [fix for fix in findings[0].fixes if fix.title.startswith(title)]
    assert len(fixes) == 1
    return fixes[0]


def _add_axis(tmp_path: Path, extra: dict[str, str]):
    return _fix(_project(tmp_path, extra), "Add mesh axis")


# --- the listing ------------------------------------------------------------------------------------


def test_the_judgement_lists_ignored_excluded_files_and_notebooks_and_the_check_does_not(tmp_path: Path) -> None:
    root = _project(
        tmp_path,
        {
            "pyproject.toml": '[project]\nname = "pkg"\n\n[tool.spmdfix]\nextend-exclude = ["src/pkg/probe.py"]\n',
            ".gitignore": "scripts/\n",
            "scripts/probe.py": READER,
            "src/pkg/probe.py": READER,
            "notebooks/explore.ipynb": NOTEBOOK_READER,
            ".venv/lib/site.py": READER,
            "build/lib/pkg/config.py": CONFIG,
            "vendor/site-packages/other.py": READER,
            "src/pkg/__pycache__/stale.py": READER,
            "notebooks/.ipynb_checkpoints/explore-checkpoint.ipynb": NOTEBOOK_READER,
        },
    )
    judged, complete = project_graph.judged_files(str(root))
    assert complete
    shown = sorted(Path(p).relative_to(root).as_posix() for p in judged)
    assert shown == [
        "notebooks/explore.ipynb",
        "scripts/probe.py",
        "src/pkg/__init__.py",
        "src/pkg/config.py",
        "src/pkg/model.py",
        "src/pkg/probe.py",
        "src/pkg/train.py",
    ]
    checked, _ = project_graph.project_files(str(root))
    # (a notebook a run over the tree checks is in the partial run's listing too: it may import the checked
    # module, `reaching`; its checkpoint copy is not, as the default excludes say)
    assert sorted(Path(p).relative_to(root).as_posix() for p in checked) == [
        "notebooks/explore.ipynb",
        "src/pkg/__init__.py",
        "src/pkg/config.py",
        "src/pkg/model.py",
        "src/pkg/train.py",
    ]
    graph = project_graph.graph_of(root, judged=True)
    importers = graph.importers_with_dynamic(str(root / "src" / "pkg" / "config.py"))
    assert importers is not None
    assert {Path(p).relative_to(root).as_posix() for p in importers} >= {
        "notebooks/explore.ipynb",
        "scripts/probe.py",
        "src/pkg/probe.py",
    }


def test_a_notebook_named_like_a_module_is_imported_by_no_name(tmp_path: Path) -> None:
    """`config.ipynb` beside `config.py` does not stand for module `pkg.config` (a notebook is not importable)."""
    root = _project(tmp_path, {"src/pkg/config.ipynb": notebook(("code", "MESH = None\n"))})
    graph = project_graph.graph_of(root, judged=True)
    assert graph.by_name["pkg.config"] == [str(root / "src" / "pkg" / "config.py")]


# --- add-axis ---------------------------------------------------------------------------------------


def test_a_gitignored_script_reading_the_mesh_makes_add_axis_unsafe(tmp_path: Path) -> None:
    fix = _add_axis(tmp_path, {".gitignore": "scripts/\n", "scripts/probe.py": READER})
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert "`GROUPS = MESH.devices.shape[0]` (" in fix.reason and "scripts/probe.py line 3)" in fix.reason, fix.reason


@pytest.mark.parametrize("key", ["exclude", "extend-exclude"])
def test_an_excluded_module_reading_the_mesh_makes_add_axis_unsafe(tmp_path: Path, key: str) -> None:
    pyproject = f'[project]\nname = "pkg"\n\n[tool.spmdfix]\n{key} = ["src/pkg/reader.py"]\n'
    reader = "from .config import MESH\n\nRANK = len(MESH.axis_names)\n"
    fix = _add_axis(tmp_path, {"pyproject.toml": pyproject, "src/pkg/reader.py": reader})
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert "`len(MESH.axis_names)` (" in fix.reason and "src/pkg/reader.py line 3)" in fix.reason, fix.reason


def test_a_notebook_reading_the_mesh_makes_add_axis_unsafe_naming_its_cell(tmp_path: Path) -> None:
    fix = _add_axis(tmp_path, {"notebooks/explore.ipynb": NOTEBOOK_READER})
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    # cell 3: the third cell of the notebook (a markdown cell counts, as a reader counts cells); line 2 in it
    assert "`groups = MESH.devices.shape[0]` (" in fix.reason, fix.reason
    assert "notebooks/explore.ipynb cell 3 line 2)" in fix.reason, fix.reason


def test_a_notebook_cell_that_does_not_parse_hides_no_other_cell(tmp_path: Path) -> None:
    broken = notebook(("code", "from pkg.config import MESH\n"), ("code", "def (:\n"), ("code", "n = MESH.devices.shape[0]\n"))
    fix = _add_axis(tmp_path, {"explore.ipynb": broken})
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert "/explore.ipynb cell 3 line 1)" in fix.reason, fix.reason


def test_a_notebook_importing_the_mesh_module_as_an_object_is_judged(tmp_path: Path) -> None:
    nb = notebook(("code", "from pkg import config\n"), ("code", "print(len(config.MESH.axis_names))\n"))
    fix = _add_axis(tmp_path, {"explore.ipynb": nb})
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert "/explore.ipynb cell 2 line 1)" in fix.reason, fix.reason


def test_allowlisted_uses_in_unchecked_files_keep_add_axis_safe(tmp_path: Path) -> None:
    nb = notebook(
        ("code", "import jax\nfrom jax.sharding import NamedSharding, PartitionSpec as P\nfrom pkg.config import MESH\n"),
        ("code", "y = jax.device_put(1.0, NamedSharding(MESH, P()))\n"),
    )
    extra = {
        "pyproject.toml": '[project]\nname = "pkg"\n\n[tool.spmdfix]\nextend-exclude = ["src/pkg/placer.py"]\n',
        ".gitignore": "scripts/\n",
        "scripts/warmup.py": PLACER,
        "src/pkg/placer.py": PLACER,
        "explore.ipynb": nb,
    }
    fix = _add_axis(tmp_path, extra)
    assert fix.applicability is Applicability.SAFE, fix.reason


@pytest.mark.parametrize(
    "where", [".venv/lib/python3.11/site-packages/user.py", "build/lib/user.py", "src/pkg/__pycache__/user.py"]
)
def test_a_reader_under_a_default_exclude_is_not_searched(tmp_path: Path, where: str) -> None:
    fix = _add_axis(tmp_path, {where: READER})
    assert fix.applicability is Applicability.SAFE, fix.reason


@pytest.mark.parametrize("name", ["dist", "build", "venv"])
def test_a_subpackage_named_like_a_default_exclude_is_searched(tmp_path: Path, name: str) -> None:
    """A package of the project called `dist` or `build` (it holds `__init__.py`) runs like any other module: its
    reader of the mesh is named (breaker19 a15, a16: add-axis was safe and the fixed program returned half the
    values). A `build/lib/pkg/` copy stays skipped: `build` itself holds no `__init__.py`."""
    extra = {f"src/pkg/{name}/__init__.py": "", f"src/pkg/{name}/info.py": READER,
             "build/lib/pkg/__init__.py": "", "build/lib/pkg/copy.py": READER}
    fix = _add_axis(tmp_path, extra)
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert f"src/pkg/{name}/info.py line 3)" in fix.reason, fix.reason
    assert "build/lib" not in fix.reason, fix.reason
    listed = project_graph.judged_files(str(tmp_path.resolve()))[0]
    assert any(p.endswith(f"/src/pkg/{name}/info.py") for p in listed) and not any("/build/lib/" in p for p in listed)


def test_a_directory_named_like_a_default_exclude_that_becomes_a_package_is_listed_again(tmp_path: Path) -> None:
    """The judgement's listing decides a `dist` directory by its own entries (whose stamp changes when
    `__init__.py` comes), not by its parent's record: a listing kept from before the package existed is not
    served for it."""
    root = _write(tmp_path, {"pyproject.toml": '[project]\nname = "pkg"\n', "pkg/__init__.py": "", "pkg/dist/info.py": READER})
    assert not any(p.endswith("/pkg/dist/info.py") for p in project_graph.judged_files(str(root))[0])
    (root / "pkg" / "dist" / "__init__.py").write_text("")
    os.utime(root / "pkg" / "dist", (1, 1))  # (an old stamp: settled, so a record would be served if still valid)
    project_graph.forget_graphs()
    assert any(p.endswith("/pkg/dist/info.py") for p in project_graph.judged_files(str(root))[0])


def test_a_notebook_of_another_language_imports_nothing(tmp_path: Path) -> None:
    r_notebook = notebook(("code", "from pkg.config import MESH\nn = MESH.devices.shape[0]\n"), language="R")
    fix = _add_axis(tmp_path, {"explore.ipynb": r_notebook})
    assert fix.applicability is Applicability.SAFE, fix.reason


# --- strip --------------------------------------------------------------------------------------------


CALLER = "from pkg.model import forward\n\n\ndef evaluate(x):\n    return forward(x)\n"


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        ({".gitignore": "scripts/\n", "scripts/evaluate.py": CALLER}, "scripts/evaluate.py line 5"),
        ({"notebooks/eval.ipynb": notebook(("code", "from pkg.model import forward\n"), ("code", "y = forward(1.0)\n"))}, "notebooks/eval.ipynb cell 2 line 1"),
    ],
)
def test_a_direct_call_of_the_function_in_an_unchecked_file_makes_strip_unsafe(
    tmp_path: Path, extra: dict[str, str], named: str
) -> None:
    root = _project(tmp_path, {}, strip=True)
    assert _fix(root, "Strip").applicability is Applicability.SAFE
    root = _write(tmp_path, extra)
    fix = _fix(root, "Strip")
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert named in fix.reason, fix.reason


# --- the CLI and its cache ------------------------------------------------------------------------------


def test_the_cli_in_a_git_repository_and_its_cache_follow_the_gitignored_reader(tmp_path: Path) -> None:
    """`spmdfix check .` in a git work tree: the gitignored reader is not checked, yet add-axis is unsafe naming
    it; deleted, the warm run (the results cache) finds add-axis safe; a notebook reading the mesh added, it is
    unsafe again."""
    from test_partial_runs import spmdfix

    root = _project(tmp_path, {".gitignore": "scripts/\n.cache-test/\n", "scripts/probe.py": READER})
    (root / ".git").mkdir()  # (a work tree's marker, as discovery and the project root read it)

    def add_axis() -> tuple[str, str]:
        done = spmdfix(root, "check", "--output-format", "json", ".")
        found = json.loads(done.stdout)
        assert {f["filename"] for f in found} == {str(root / "src" / "pkg" / "model.py")}
        fixes = [found[0]["fix"], *found[0]["alternatives"]]
        fix = next(f for f in fixes if f["transform"] == "add-axis")
        return fix["applicability"], fix["reason"]

    applicability, reason = add_axis()
    assert applicability == "unsafe" and "(scripts/probe.py line 3)" in reason, reason
    (root / "scripts" / "probe.py").unlink()
    assert add_axis()[0] == "safe"
    (root / "explore.ipynb").write_text(NOTEBOOK_READER)
    applicability, reason = add_axis()
    assert applicability == "unsafe" and "(explore.ipynb cell 3 line 2)" in reason, reason


# --- scripts and notebooks importing a module beside them -----------------------------------------------

HELPER = "from pkg.config import MESH\n\nTHE_MESH = MESH\n"


@pytest.mark.parametrize(
    ("reader", "named"),
    [
        ("scripts/probe.py", "scripts/probe.py line 3)"),
        ("scripts/explore.ipynb", "scripts/explore.ipynb cell 2 line 1)"),
    ],
)
def test_a_reader_importing_a_helper_beside_it_by_its_bare_name_is_judged(
    tmp_path: Path, reader: str, named: str
) -> None:
    """`import helpers` in scripts/probe.py (or a notebook of scripts/) is scripts/helpers.py: the script's
    directory is first on `sys.path`, also when another directory outside any package holds a `helpers.py`
    (a_tools/, listed first). The helper re-exports the mesh; the reader's read of it is judged."""
    read = "from helpers import THE_MESH\n\nn = THE_MESH.devices.shape[0]\n"
    text = read if reader.endswith(".py") else notebook(("code", read.split("\n\n")[0] + "\n"), ("code", "n = THE_MESH.devices.shape[0]\n"))
    extra = {".gitignore": "scripts/\n", "scripts/helpers.py": HELPER, "a_tools/helpers.py": "X = 1\n", reader: text}
    fix = _add_axis(tmp_path, extra)
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert named in fix.reason, fix.reason


def test_a_module_of_a_package_does_not_import_a_bare_name_from_its_directory(tmp_path: Path) -> None:
    """Inside a package, `import helpers` is the top-level module, not `src/pkg/helpers.py` (no plain edge):
    only a directory put on `sys.path` may give it that module, a second module object read by the name
    `helpers` (`ProjectGraph._on_path`, breaker19 a53)."""
    root = _project(tmp_path, {"src/pkg/helpers.py": HELPER, "src/pkg/user.py": "import helpers\n"})
    graph = project_graph.graph_of(root, judged=True)
    user = str(root / "src" / "pkg" / "user.py")
    assert graph.importers_of(str(root / "src" / "pkg" / "helpers.py")) == {user: frozenset({"<module>", "<as helpers>"})}


# --- files too large for the analysis -----------------------------------------------------------------


def _padded(text: str, size: int) -> str:
    """`text` followed by comment lines up to `size` bytes (a module too large for the analysis to follow)."""
    line = "# " + "x" * 97 + "\n"
    return text + line * (size // len(line) + 1)


def test_a_module_too_large_to_follow_that_imports_the_mesh_makes_add_axis_unsafe(tmp_path: Path) -> None:
    """A module over 2 MB is no module the analysis follows, but it runs: its imports are read, and since its
    uses of the mesh are not, add-axis is unsafe naming it (it was SAFE: its imports were not read)."""
    fix = _add_axis(tmp_path, {"scripts/generated.py": _padded(READER, 2_100_000)})
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert "scripts/generated.py" in fix.reason and "not read" in fix.reason, fix.reason


def test_a_large_module_that_does_not_import_the_mesh_keeps_add_axis_safe(tmp_path: Path) -> None:
    """The same module importing only numpy: nothing of the project, so no use to judge."""
    fix = _add_axis(tmp_path, {"scripts/generated.py": _padded("import numpy as np\n", 2_100_000)})
    assert fix.applicability is Applicability.SAFE, fix.reason


def test_a_file_whose_imports_cannot_be_read_makes_add_axis_unsafe(tmp_path: Path, monkeypatch) -> None:
    """A file larger than the size a check reads (`import_scan.SCAN_MAX_BYTES`, lowered here) may import the
    mesh's module: add-axis is unsafe naming it, not SAFE as if it imported nothing. (Both limits lowered,
    so that the file is read neither for its imports nor as a module, as a file over 10 MiB is not.)"""
    from spmdfix import import_scan, project_files

    monkeypatch.setattr(import_scan, "SCAN_MAX_BYTES", 4_000)
    monkeypatch.setattr(project_files, "MAX_FILE_BYTES", 4_000)
    fix = _add_axis(tmp_path, {"scripts/huge.py": _padded("import numpy as np\n", 5_000)})
    assert fix.applicability is Applicability.UNSAFE, fix.reason
    assert "scripts/huge.py" in fix.reason and "not read" in fix.reason, fix.reason
    graph = project_graph.graph_of(tmp_path.resolve(), judged=True)
    assert graph.unread == {str(tmp_path.resolve() / "scripts" / "huge.py")}


def test_packages_of_one_name_relative_imports_by_place_absolute_ones_to_each(tmp_path: Path) -> None:
    """Two services whose packages share a name (breaker7 s33): a relative import names the importer's own
    package's module; an absolute one from a script outside any package (`PYTHONPATH=svc_b python
    svc_b/scripts/report.py`) may name either, whichever `sys.path` finds: it counts as importing both (before,
    every import of `pkg.config` was the first listed, svc_a's)."""
    files = {
        "pyproject.toml": '[project]\nname = "mono"\n',
        "svc_a/pkg/__init__.py": "",
        "svc_a/pkg/config.py": "MESH = None\n",
        "svc_b/pkg/__init__.py": "",
        "svc_b/pkg/config.py": "MESH = None\n",
        "svc_b/pkg/eval.py": "from .config import MESH\n",
        "svc_b/scripts/report.py": "from pkg.config import MESH\n",
    }
    root = _write(tmp_path, files)
    graph = project_graph.graph_of(root, judged=True)
    a, b = (str(root / s / "pkg" / "config.py") for s in ("svc_a", "svc_b"))
    evaluator, script = str(root / "svc_b/pkg/eval.py"), str(root / "svc_b/scripts/report.py")
    assert evaluator in graph.importers_of(b) and evaluator not in graph.importers_of(a)
    assert script in graph.importers_of(b) and script in graph.importers_of(a)
