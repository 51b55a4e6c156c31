"""The names a fix left unused: a top-level `from M import N` whose only reads the applied fixes removed
(drop-spmd-axis of `jax.vmap(f, spmd_axis_name=DATA)` leaves `from pkg.config import DATA` unread: ruff's F401,
newuser11's trial, finding 8), and whether removing `N` changes nothing but that binding.

Removing a binding nothing reads keeps the program's values when (`left_unused` decides each; docs/safety.md,
"Imports a fix leaves unused"):

- nothing in the module reads the name: no `Name` node of it is left (any context: a load, `global`, `del`), and
  no string of the module but its docstrings holds it as a word (`__all__`, `globals()['N']`, `getattr(mod,
  'N')`); the module is not a package's `__init__` (whose names are what its package exports);
- no other module of the project may read it from this module (the project index, `importers`): none imports
  `N` from it, none star-imports it or loads modules by name (`importlib`), and in every other module of the
  project whose text holds the word (`ProjectIndex.holding`), every `.N` is read from a name bound by an import of
  another module (`config.DATA` of `from pkg import config`) and no string but a docstring holds it: a module
  handed this module's object (`train.DATA`) would read it so; and every module importing this one as an
  object reads it only by attributes written out (`_object_read_by_attribute_only`: not `getattr(train, key)`);
- the import of `M` itself still happens where it happened: other names stay in the statement (only `N` is
  removed), or, when `N` was the statement's only name, the module is imported by an earlier top-level
  statement of this module, or the next top-level statement imports a module `P` of the project (from the same
  package, not imported before) whose top-level statements before its own import of `M` only import modules
  already imported here before the statement (or by `import jax`, which loads its public submodules: measured,
  `JAX_LOADS`), so that `M` runs at the same point of the program, after the same modules, as before.

Anything else leaves the import as it is (the fix is the same; only the unused name stays).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from spmdfix.analysis.importers import DYNAMIC, MODULE, module_importers, path_names
from spmdfix.analysis.index import ProjectIndex
from spmdfix.positions import LineIndex

# The public submodules `import jax` loads (jax 0.10.2: `python -c "import jax, sys; print(sorted(m for m in
# sys.modules if m.startswith('jax.') and m.count('.') == 1))"`, the private ones left out): importing one of
# them after `import jax` runs no code.
JAX_LOADS = frozenset({
    "jax.api_util", "jax.core", "jax.custom_batching", "jax.custom_derivatives", "jax.debug", "jax.distributed",
    "jax.dlpack", "jax.dtypes", "jax.errors", "jax.experimental", "jax.export", "jax.ffi", "jax.image",
    "jax.interpreters", "jax.lax", "jax.lib", "jax.monitoring", "jax.nn", "jax.numpy", "jax.ops", "jax.profiler",
    "jax.random", "jax.ref", "jax.scipy", "jax.sharding", "jax.stages", "jax.tree", "jax.tree_util", "jax.typing",
    "jax.version",
})


@dataclass(frozen=True)
class UnusedImport:
    """A name to remove from a top-level `from M import ...` statement: the statement's code-point span in the
    module's text (`start`, `end`), the name as bound (`bound`: its `as` name, else its name), and whether it
    is the statement's only name (`whole`: the statement's line goes)."""

    start: int
    end: int
    bound: str
    whole: bool


def left_unused(before: ast.Module, after: ast.Module, text: str, path: str, index: ProjectIndex | None) -> list[UnusedImport]:
    """The names of top-level `from M import N` statements of `after` (the module at `path`, whose text is
    `text`) that `before` (the same module before the fixes) read and nothing reads now, each removable as the
    module doc says; [] without a project index (other modules are then not known) or for a package's
    `__init__`."""
    if index is None or not path or path.endswith(".ipynb") or path.endswith("__init__.py"):
        return []
    read_before = _names(before)
    left_after = _names(after)
    strings = _strings(after)
    out: list[UnusedImport] = []
    lines = LineIndex(text)
    body = after.body
    for i, stmt in enumerate(body):
        if not isinstance(stmt, ast.ImportFrom) or stmt.module == "__future__" or not stmt.module:
            continue
        gone = []
        for alias in stmt.names:
            bound = alias.asname or alias.name
            if alias.name == "*" or bound not in read_before or bound in left_after or _word(bound).search(strings):
                continue
            if _bound_elsewhere(after, stmt, bound) or not _not_reached(index, path, bound):
                continue
            gone.append(bound)
        whole = len(gone) == len(stmt.names)
        if not gone or whole and not _still_imported(body, i, stmt, path, index):
            continue
        span = lines.span_of_ast(stmt)
        out += [UnusedImport(span.start, span.end, bound, whole) for bound in gone]
    return out


def _names(tree: ast.Module) -> set[str]:
    """Every name a `Name` node of `tree` spells, and the names of `global` / `nonlocal` statements."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Name):
            out.add(node.id)
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            out.update(node.names)
    return out


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring constants of `tree`'s module, classes and functions."""
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                out.add(id(first.value))
    return out


def _strings(tree: ast.Module, own_exports: bool = True) -> str:
    """The module's string constants but its docstrings, joined by newlines; without `own_exports`, not those
    of its top-level `__all__` either (another module's `__all__` names that module's names, not this one's)."""
    skipped = _docstrings(tree)
    if not own_exports:
        for stmt in tree.body:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, (ast.AugAssign, ast.AnnAssign)) else []
            if any(isinstance(t, ast.Name) and t.id == "__all__" for t in targets) and stmt.value is not None:
                skipped |= {id(n) for n in ast.walk(stmt.value)}
    return "\n".join(
        n.value for n in ast.walk(tree) if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skipped
    )


def _word(name: str) -> re.Pattern[str]:
    return re.compile(rf"(?<![\w]){re.escape(name)}(?![\w])")


def _bound_elsewhere(tree: ast.Module, stmt: ast.ImportFrom, bound: str) -> bool:
    """Whether another statement of the module binds `bound` too (another import, a def, an assignment): the
    binding removed would not be the only one, which the reads left may then see otherwise."""
    for node in ast.walk(tree):
        if node is stmt:
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)) and any((a.asname or a.name).split(".")[0] == bound for a in node.names):
            return True
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and node.name == bound:
            return True
    return False


def _not_reached(index: ProjectIndex, path: str, name: str) -> bool:
    """Whether no other module of the project may read `name` from the module at `path` (see the module doc)."""
    module = index.module_name(path)[0]
    importers = module_importers(index, path)
    if importers is None:
        return False
    if any(name in names or "*" in names or DYNAMIC in names or path_names(names) for names in importers.values()):
        return False  # (imported through a directory on `sys.path`, it is read there by another name: not followed)
    for importer, names in importers.items():
        if MODULE in names and not _object_read_by_attribute_only(index, importer, module):
            return False
    holders = index.holding(name)
    if holders is None:
        return False
    word = _word(name)
    for holder in holders:
        if holder == path:
            continue
        tree = index.peek_tree(holder)
        if tree is None:
            return False
        if word.search(_strings(tree, own_exports=False)) or not _attributes_of_other_modules(tree, name, module, index, holder):
            return False
    return True


def _object_read_by_attribute_only(index: ProjectIndex, importer: str, module: str) -> bool:
    """Whether the module at `importer`, which imports `module` as an object, reads it only as `obj.attr` with
    the attribute written out: each name a `from P import last [as n]` (or `import module as n`) binds to it is
    loaded only as the value of an attribute. Such a module may read the removed name only as `n.NAME`, which
    `_attributes_of_other_modules` finds where the word is written; a module object passed on
    (`run_all(train)`), read by `getattr(train, key)`, `vars(train)` or `dir(train)`, bound otherwise
    (`import pkg.train` binds `pkg`) or bound at its top level by a module others import (which re-exports it:
    `data.train`) may reach it unwritten, and the import stays. A module listed for a package above it that
    binds no name to it (`from pkg.data import f`) cannot reach it by name."""
    tree = index.peek_tree(importer)
    if tree is None:
        return False
    package = index.module_name(importer)[0].rpartition(".")[0]
    if importer.endswith("__init__.py"):
        package = index.module_name(importer)[0]
    bound: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            bound.update(a.asname or a.name for a in node.names if f"{base}.{a.name}" == module)
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name == module and a.asname:
                    bound.add(a.asname)
                elif a.name == module or a.name.startswith(module + ".") or module.startswith(a.name + "."):
                    return False  # (`import pkg.train` binds `pkg`: its uses are not read here)
    if not bound:
        return True  # (listed for a package above it, `from pkg.data import f`, it binds no name to the module)
    attribute_values = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    if not all(id(n) in attribute_values for n in ast.walk(tree) if isinstance(n, ast.Name) and n.id in bound):
        return False
    # a module binding it at its top level re-exports it (`data.train.DATA` elsewhere): unless nothing imports
    # that module, the object may be read beyond it
    top_level = {
        a.asname or a.name
        for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom))
        for a in node.names
    }
    return not (bound & top_level) or index.importers_of(importer) == {}


def _attributes_of_other_modules(tree: ast.Module, name: str, module: str, index: ProjectIndex, holder: str) -> bool:
    """Whether every `.name` of `tree` (the module at `holder`) is read from a name bound by an import of
    another module than `module` (`config.DATA` of `from pkg import config`), and no `from ... import name`
    imports it from `module`."""
    imported: dict[str, str] = {}  # a name -> the dotted module an import binds it to
    package = index.module_name(holder)[0].rpartition(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                imported[a.asname or a.name.split(".")[0]] = a.name if a.asname else a.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = _absolute(node, package)
            for a in node.names:
                if a.name == name and base == module:
                    return False
                imported[a.asname or a.name] = f"{base}.{a.name}" if base else a.name
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr == name:
            dotted = _dotted(node.value, imported)
            if dotted is None or dotted == module:
                return False
    return True


def _absolute(node: ast.ImportFrom, package: str) -> str:
    """The dotted module a `from ... import` names, relative levels resolved against `package`."""
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    base = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
    return ".".join([*base, *([node.module] if node.module else [])])


def _dotted(expr: ast.AST, imported: dict[str, str]) -> str | None:
    """The dotted module an expression of names and attributes spells, from a name an import binds; None when
    its root is not such a name."""
    attrs = []
    while isinstance(expr, ast.Attribute):
        attrs.append(expr.attr)
        expr = expr.value
    if not isinstance(expr, ast.Name) or expr.id not in imported:
        return None
    return ".".join([imported[expr.id], *reversed(attrs)])


def _still_imported(body: list[ast.stmt], i: int, stmt: ast.ImportFrom, path: str, index: ProjectIndex) -> bool:
    """Whether the module `stmt` (the `i`-th statement of the module at `path`) imports is imported where it is
    without it: by an earlier top-level statement, or by the next one through a module of the project (see the
    module doc)."""
    package = index.module_name(path)[0].rpartition(".")[0]
    target = _absolute(stmt, package)
    loaded = _loaded(body[:i], package)
    if target in loaded:
        return True
    if i + 1 >= len(body):
        return False
    nxt = body[i + 1]
    if isinstance(nxt, ast.ImportFrom):
        first = _absolute(nxt, package)
    elif isinstance(nxt, ast.Import) and len(nxt.names) == 1:
        first = nxt.names[0].name
    else:
        return False
    if first in loaded or first.rpartition(".")[0] != target.rpartition(".")[0]:
        return False  # (imported before: it does not run again; another package's `__init__` would run first)
    where = index.locate(first, path)
    if where is None:
        return False
    tree = index.peek_tree(where)
    if tree is None:
        return False
    inner = first.rpartition(".")[0]
    for j, node in enumerate(tree.body):
        if j == 0 and isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            continue  # the docstring
        if isinstance(node, ast.ImportFrom) and node.module == "__future__":
            continue
        names = _imported_modules(node, inner)
        if names is None:
            return False  # code runs before the import of `target`
        if target in names:
            return True
        if any(n not in loaded for n in names):
            return False
    return False


def _imported_modules(node: ast.stmt, package: str) -> list[str] | None:
    """The dotted modules an import statement loads (a `from M import x` loads `M`), or None for another
    statement."""
    if isinstance(node, ast.Import):
        return [a.name for a in node.names]
    if isinstance(node, ast.ImportFrom):
        return [_absolute(node, package)]
    return None


def _loaded(body: list[ast.stmt], package: str) -> set[str]:
    """The modules the top-level import statements `body` load, with their parent packages, and the public
    submodules of jax once `jax` is among them (`JAX_LOADS`)."""
    out: set[str] = set()
    for node in body:
        for name in _imported_modules(node, package) or ():
            parts = name.split(".")
            out.update(".".join(parts[: k + 1]) for k in range(len(parts)))
    if "jax" in out:
        out |= JAX_LOADS
    return out
