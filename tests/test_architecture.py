"""The analysis stays pure: `spmdfix/analysis/` imports nothing above it and does no file-system I/O.

Read from each module's `ast` (nothing is imported): every import counts, those inside functions included, but
the ones under `if TYPE_CHECKING:` (annotations only, never run). The analysis may import the standard
library's pure modules, itself and the base modules below it (`spmdfix.model`, `spmdfix.jaxapi`,
`spmdfix.positions`, `spmdfix.paths`); the project's files reach it only through what the edge injects
(`analysis.project_modules.ProjectFiles`, built by `spmdfix.project_files`).

No module of spmdfix is on an import cycle, function-local imports counted (`test_no_import_cycle_...`), and no
kind is compared with a string (`test_no_kind_is_compared_with_a_string`).
"""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

import pytest

SPMDFIX = Path(__file__).resolve().parent.parent / "spmdfix"
ANALYSIS = SPMDFIX / "analysis"
# What the analysis may import of spmdfix: itself, and the base modules that import nothing of it (of `perf`,
# only `record` and `frozen`: the dataclass policy of its facts and values; and `state_digest`, a pure
# function: the digests of the project's answers, `analysis.project_answers`).
ALLOWED = (
    "spmdfix.analysis", "spmdfix.model", "spmdfix.jaxapi", "spmdfix.positions", "spmdfix.paths",
    "spmdfix.perf.record", "spmdfix.perf.frozen", "spmdfix.perf.state_digest",
)
# Standard modules whose business is the file system (or a file's bytes): none of them may be imported.
IO_MODULES = frozenset(
    {"io", "os", "pathlib", "posixpath", "ntpath", "genericpath", "shutil", "glob", "tempfile", "fileinput",
     "mmap", "zipfile", "tarfile", "sqlite3", "linecache", "tokenize", "importlib", "pkgutil", "subprocess"}
)
# Names that read or probe files whatever they are called on: the builtin `open`, and the methods of
# `pathlib.Path` and `os` that touch the file system.
IO_NAMES = frozenset({"open"})
IO_ATTRIBUTES = frozenset(
    {"read_text", "read_bytes", "write_text", "write_bytes", "is_file", "is_dir", "iterdir", "glob", "rglob",
     "stat", "lstat", "scandir", "listdir", "getcwd", "realpath", "abspath", "relpath", "isfile", "isdir",
     "exists", "expanduser", "unlink", "mkdir", "rmdir", "readlink", "samefile", "open"}
)


def _modules() -> list[Path]:
    return sorted(ANALYSIS.glob("*.py"))


def _type_checking_blocks(tree: ast.Module) -> set[int]:
    """ids of the nodes under `if TYPE_CHECKING:` (or `if typing.TYPE_CHECKING:`), its `else` not included."""
    inside: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If):
            test = node.test
            name = test.id if isinstance(test, ast.Name) else test.attr if isinstance(test, ast.Attribute) else ""
            if name == "TYPE_CHECKING":
                inside |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return inside


def _imported(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import run at some point: top level and inside functions alike,
    `if TYPE_CHECKING:` blocks aside. A relative import is read against `spmdfix.analysis`."""
    skipped = _type_checking_blocks(tree)
    out = []
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            out += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            # (`from spmdfix import files` imports a module: each name is read as a part of the module path)
            base = node.module or ""
            if node.level:
                package = "spmdfix.analysis".split(".")[: 2 - (node.level - 1)]
                base = ".".join([*package, *([base] if base else [])])
            out += [(node.lineno, f"{base}.{alias.name}") for alias in node.names]
    return out


def _io_uses(tree: ast.Module) -> list[tuple[int, str]]:
    """(line, what) of each place that names file-system I/O: an I/O module imported, the builtin `open`,
    a method of `Path`/`os` that touches files."""
    skipped = _type_checking_blocks(tree)
    out = []
    for line, name in _imported(tree):
        if name.split(".")[0] in IO_MODULES:
            out.append((line, f"import {name}"))
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Name) and node.id in IO_NAMES:
            out.append((node.lineno, node.id))
        elif isinstance(node, ast.Attribute) and node.attr in IO_ATTRIBUTES:
            out.append((node.lineno, f".{node.attr}"))
    return sorted(out)


def _allowed(name: str) -> bool:
    if not name.startswith("spmdfix"):
        return True  # the standard library and third parties (checked for I/O apart)
    return any(name == a or name.startswith(a + ".") for a in ALLOWED)


def upward_imports(source: str) -> list[tuple[int, str]]:
    """(line, module) of each import of a spmdfix module above the analysis in one module's source."""
    return [(line, name) for line, name in _imported(ast.parse(source)) if not _allowed(name)]


def io_uses(source: str) -> list[tuple[int, str]]:
    """(line, what) of each place one module's source names file-system I/O."""
    return _io_uses(ast.parse(source))


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_the_analysis_imports_nothing_above_it(path: Path) -> None:
    found = upward_imports(path.read_text(encoding="utf-8"))
    assert found == [], f"{path.name} imports {found}: the analysis may import only {ALLOWED}"


@pytest.mark.parametrize("path", _modules(), ids=lambda p: p.name)
def test_the_analysis_does_no_file_io(path: Path) -> None:
    found = io_uses(path.read_text(encoding="utf-8"))
    assert found == [], f"{path.name} names file-system I/O at {found}: the edge injects what the index reads"


def test_the_project_index_imports_neither_the_driver_nor_the_fact_contract() -> None:
    """The index stores module models built by the factory it is given (`ProjectIndex(analyse=...)`): it never
    builds the analysis itself, so no import of it closes a cycle (type-only imports counted too)."""
    tree = ast.parse((ANALYSIS / "index.py").read_text(encoding="utf-8"))
    names = [
        n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    ] + [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
    assert not [n for n in names if n in ("spmdfix.analysis.facts", "spmdfix.analysis.analyzer", "spmdfix.files")]


def test_the_checks_see_what_they_look_for() -> None:
    """The checks find an upward import at the top level and inside a function, skip `if TYPE_CHECKING:`, and
    find I/O by import, by the builtin and by a method (a test that cannot fail proves nothing)."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from spmdfix.analysis.scopes import ModuleIndex\n"
        "from spmdfix import model, jaxapi\n"
        "from spmdfix.files import source_of\n"
        "from .values import Evaluator\n"
        "if TYPE_CHECKING:\n"
        "    from spmdfix.cache import Cache\n"
        "    import pathlib\n"
        "def f(p):\n"
        "    import spmdfix.api\n"
        "    from pathlib import Path\n"
        "    with open(p) as h:\n"
        "        return Path(p).read_text() + h.read()\n"
    )
    assert upward_imports(source) == [(4, "spmdfix.files.source_of"), (10, "spmdfix.api")]
    assert io_uses(source) == [(11, "import pathlib.Path"), (12, "open"), (13, ".read_text")]


# --- no import cycle ----------------------------------------------------------------------------------------
# No module of spmdfix imports, even from inside a function, a module that imports it back (directly or through
# others): a cycle closed by a function-local import is a cycle all the same, hidden from the reader and from
# import-time order. Imports under `if TYPE_CHECKING:` (annotations only, never run) do not count. A module is
# linked to what an import names that is a module of the package: `from a.b import c` links to `a.b` and, when
# `a.b.c` is a module, to it too; a package's `__init__` is linked only when named itself.


def module_files(root: Path) -> dict[str, Path]:
    """Each module of the package at `root` by its dotted name (a package by its own name), to its file."""
    modules = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        modules[".".join(parts)] = path
    return modules


def _named_modules(tree: ast.Module, package: str) -> set[str]:
    """The dotted names every import of one module may name as a module, `if TYPE_CHECKING:` blocks aside;
    `package` is the package relative imports are read against."""
    skipped = _type_checking_blocks(tree)
    named: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.Import):
            named |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - (node.level - 1)]
                base = ".".join([*parts, *([base] if base else [])])
            named |= {base} | {f"{base}.{alias.name}" for alias in node.names}
    return named


def import_graph(root: Path) -> dict[str, set[str]]:
    """Module -> the modules of the same package it imports, function-local imports counted."""
    modules = module_files(root)
    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        named = _named_modules(ast.parse(path.read_text(encoding="utf-8")), package)
        graph[name] = {m for m in named if m in modules and m != name}
    return graph


def import_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of `graph` (its modules in import order, the first repeated last), or None without one:
    the standard library's topological sorter finds it (`graphlib.CycleError`)."""
    try:
        graphlib.TopologicalSorter(graph).prepare()
    except graphlib.CycleError as err:
        return list(err.args[1])
    return None


def test_no_import_cycle_among_spmdfix_modules() -> None:
    cycle = import_cycle(import_graph(SPMDFIX))
    assert cycle is None, f"import cycle {' -> '.join(cycle or [])}: move the shared piece to a module below both"


def test_the_cycle_check_sees_what_it_looks_for(tmp_path: Path) -> None:
    """A cycle closed by a function-local import (and a relative one) is found; one closed only under
    `if TYPE_CHECKING:` is not; a graph without one passes (a test that cannot fail proves nothing)."""
    assert import_cycle({"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": {"p.a"}, "p.d": {"p.a"}}) in (
        ["p.a", "p.b", "p.c", "p.a"], ["p.b", "p.c", "p.a", "p.b"], ["p.c", "p.a", "p.b", "p.c"],
        ["p.a", "p.c", "p.b", "p.a"], ["p.b", "p.a", "p.c", "p.b"], ["p.c", "p.b", "p.a", "p.c"],
    )
    assert import_cycle({"p.a": {"p.b"}, "p.b": {"p.c"}, "p.c": set(), "p.d": {"p.a", "p.c"}}) is None
    package = tmp_path / "p"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "sub" / "__init__.py").write_text("")
    (package / "a.py").write_text("def f():\n    from p.sub import b\n    return b\n")
    (package / "sub" / "b.py").write_text("from ..c import helper\n")
    (package / "c.py").write_text("import p.a\nhelper = 1\n")
    (package / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.e import E\n")
    (package / "e.py").write_text("from . import d\n")
    graph = import_graph(package)
    assert graph == {
        "p": set(), "p.sub": set(), "p.a": {"p.sub", "p.sub.b"}, "p.sub.b": {"p.c"}, "p.c": {"p.a"},
        "p.d": set(), "p.e": {"p", "p.d"},
    }
    assert sorted(set(import_cycle(graph) or [])) == ["p.a", "p.c", "p.sub.b"]
    (package / "a.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from p.sub import b\n")
    assert import_cycle(import_graph(package)) is None


# --- identity in enums, not strings ----------------------------------------------------------------------
# No module of spmdfix compares a kind with a string literal: the kinds are enums (`analysis.bindings.BindingKind`,
# `jaxapi.ShardMapApi`, `analysis.kinds`, `model.EditKind`, `model.SiteKind`, `model.Transform`,
# `model.Applicability`), compared with their members. Checked: a comparison (`==`, `!=`, `is`, `is not`, `in`,
# `not in`) of a string literal, or of a tuple/list/set of them, with
# - an attribute of one of KIND_ATTRIBUTES (`binding.kind`, `sm.api`, `mesh.axis_types`, `mesh.types[0]`, ...),
# - a call of one of KIND_CALLS (`mesh.type_of(a)`, `project.kind_of(q)`),
# - or a name bound from one of those (`kind = project.kind_of(q)`, `for t in mesh.types`).
# (`Job.mode` is `runner.job.Mode` and a file's result a `results` union since house-runtime's step.) Every
# module is checked, the prefilter's included (its words come from `jaxapi`'s tables). Fix identity is no
# string either: `FixId`, read from its key text only by `FixId.parse` at the language server's edge.
KIND_ATTRIBUTES = frozenset(
    {"kind", "api", "mode", "status", "axis_types", "types", "shape_form", "axis_types_form", "in_specs_form",
     "batch_placement", "transform", "applicability", "strategy", "form", "params_kind"}
)
KIND_CALLS = frozenset({"type_of", "kind_of"})
NOT_YET: tuple[str, ...] = ()  # (a module path prefix left out of the check; none is)


def _kind_like(node: ast.AST, names: set[str]) -> bool:
    """Whether `node` reads a kind: a watched attribute, a watched call, an item of either, or a name bound
    from one."""
    if isinstance(node, ast.Subscript):
        return _kind_like(node.value, names)
    if isinstance(node, ast.Attribute):
        return node.attr in KIND_ATTRIBUTES
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr in KIND_CALLS
    return isinstance(node, ast.Name) and node.id in names


def _string_literals(node: ast.AST) -> bool:
    """A string literal, or a tuple/list/set display of them."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts)
    return False


def kind_comparisons(source: str) -> list[tuple[int, str]]:
    """(line, source text) of each comparison of a kind with a string literal in one module."""
    tree = ast.parse(source)
    names: set[str] = set()
    for _ in range(2):  # (a name bound from a name bound from a kind)
        for node in ast.walk(tree):
            if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)) and node.value is not None:
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if _kind_like(node.value, names):
                    names |= {t.id for t in targets if isinstance(t, ast.Name)}
            elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)) and _kind_like(node.iter, names):
                names |= {t.id for t in ast.walk(node.target) if isinstance(t, ast.Name)}
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        operands = [node.left, *node.comparators]
        for left, right in zip(operands, operands[1:]):
            if (_kind_like(left, names) and _string_literals(right)) or (
                _kind_like(right, names) and _string_literals(left)
            ):
                found.append((node.lineno, ast.get_source_segment(source, node) or ""))
    return sorted(found)


def _checked_modules() -> list[Path]:
    return [
        p for p in sorted(SPMDFIX.rglob("*.py"))
        if not any(p.relative_to(SPMDFIX).as_posix().startswith(skip) for skip in NOT_YET)
    ]


@pytest.mark.parametrize("path", _checked_modules(), ids=lambda p: p.relative_to(SPMDFIX).as_posix())
def test_no_kind_is_compared_with_a_string(path: Path) -> None:
    found = kind_comparisons(path.read_text(encoding="utf-8"))
    assert found == [], f"{path.name} compares kinds with strings at {found}: compare with the enum's members"


def test_the_kind_check_sees_what_it_looks_for() -> None:
    source = (
        "def f(binding, sm, mesh, project, fix, axes):\n"
        "    a = binding.kind == 'assign'\n"
        "    b = sm.api != \"smap\"\n"
        "    c = mesh.axis_types in ('explicit', 'mixed')\n"
        "    d = mesh.type_of('x') == 'explicit'\n"
        "    kind = project.kind_of('q')\n"
        "    e = kind == 'class'\n"
        "    g = all(t == 'auto' for t in mesh.types)\n"
        "    h = 'explicit' == mesh.types[0]\n"
        "    i = fix.transform == Transform.STRIP or binding.kind is BindingKind.DEF or binding.name == 'x'\n"
        "    j = binding.kind in {'def', 'class'}\n"
        "    return a, b, c, d, e, g, h, i, j\n"
    )
    assert [line for line, _ in kind_comparisons(source)] == [2, 3, 4, 5, 7, 8, 9, 11]
