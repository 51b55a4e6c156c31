"""The modules a module loads by name at run time (`importlib.import_module`, `__import__`), read from its tree
(issue 20: a dynamic load in one test helper used to make every cross-module fix of the project unsafe).

A load whose module name is a string literal, or a module-level constant string bound once and never rebound,
names exactly one module: it is a `NamedLoad`, which the project's import graph counts as an `import` of that
module (`spmdfix.import_scan`) and which the cross-module judgment reads as one (`analysis.importers`: the
reads of the module object the call returns, judged by the same allowlist as a static import's). These are
named loads:

- `importlib.import_module(NAME)` and `importlib.import_module(.NAME, PACKAGE)` (PACKAGE a literal, a module
  constant or `__package__`; the relative name resolved as `importlib.util.resolve_name` does), under any
  alias of importlib or of `import_module`; the call returns the named module;
- `__import__(NAME)`, `builtins.__import__(...)`, `importlib.__import__(...)` with `level` 0 (absent) and
  `fromlist` absent or a literal tuple or list of strings (`globals` and `locals` may be anything: Python reads
  them only for a relative import); it returns the top-level package of NAME, or NAME itself when `fromlist`
  is not empty (and imports NAME's submodules named in `fromlist`).

Every other read of importlib (any alias) or of `__import__` is an unresolved site (`DynamicLoads.unresolved`):
a name that is not a literal (a variable, an f-string, a concatenation), `importlib.util`'s loaders
(`spec_from_file_location`, `module_from_spec`), importlib or `import_module` itself passed on or stored, a
string equal to `'__import__'` (`getattr(builtins, '__import__')`) and any other string holding `__import__`
but a bare docstring (`eval("__import__('m')")`). So is every read of `sys.modules` (`sys.modules['pkg.config']`
returns a loaded module object, by a name the scan does not judge) and of `runpy` (`runpy.run_module('pkg.config')`
executes the module again and returns its globals): both reach a module's values without an import. So do
`pkgutil.resolve_name('pkg.config:MESH')` (any read of pkgutil but `extend_path`, `iter_modules`,
`walk_packages` and `get_data`, which return no module's values), `pydoc.locate('pkg.config.MESH')` (any read
of pydoc), `inspect.getmodule(f)` and `inspect.getclosurevars(f)` (the module of any object, and the globals a
function reads), and a function's or frame's globals (`forward.__globals__['MESH']`, `frame.f_globals`, also
spelled as a string, `getattr(f, '__globals__')`): breaker19 a25-a28, s02, s09, where add-axis (or strip)
stayed safe while `pkgutil.resolve_name('pkg.config:MESH').devices.shape[0]` went 2 -> 1. Not loads at all: `importlib.metadata` and
`importlib.resources` (they read package data), and `importlib.util.find_spec(...)` used only as a condition
(`find_spec('torch') is None`: it returns a spec, never a module object).

Names are matched by text, not by scope (the scan has no scopes): a local variable of the same name as an
alias of importlib is read as importlib (unresolved: never a missed load). Pure: no I/O.
"""

from __future__ import annotations

import ast
from collections import deque
from dataclasses import dataclass, field

from spmdfix.perf import frozen

_NOT_LOADING = ("importlib.metadata", "importlib.resources")
_IMPORT_MODULE = "importlib.import_module"
_FIND_SPEC = "importlib.util.find_spec"
_DUNDER = "__import__"
_DUNDER_PARAMS = ("name", "globals", "locals", "fromlist", "level")
# Other ways to reach a module's values by name without an import (module doc): any read is an unresolved site.
_SYS_MODULES = "sys.modules"
_RUNPY = "runpy"
# Further modules whose functions return a module or its values by name or by object (module doc): a read of one
# of them is an unresolved site, but for the parts listed as harmless (`_other_loader_read`).
_PKGUTIL, _PYDOC, _INSPECT = "pkgutil", "pydoc", "inspect"
_OTHER_LOADERS = (_RUNPY, _PKGUTIL, _PYDOC, _INSPECT)
_PKGUTIL_HARMLESS = frozenset({"extend_path", "iter_modules", "walk_packages", "get_data", "ModuleInfo"})
_INSPECT_LOADING = frozenset({"getmodule", "getclosurevars"})
# Attributes holding a module's namespace (a function's globals, a frame's), read off any object.
_GLOBALS_ATTRIBUTES = frozenset({"__globals__", "f_globals"})


@frozen(slots=True)
class NamedLoad:
    """One load of a module named by a literal: `node` the call; `level` > 0 for a name relative to the
    module's own package when that package was not given (`import_module('.x', __package__)` read by the
    scan), else 0; `module` the module imported (absolute when `level` is 0, else the part after the dots,
    possibly ""); `fromlist` the names of `__import__`'s fromlist; `returns` the dotted name of the module
    object the call returns (absolute; "" when `level` > 0)."""

    node: ast.Call
    level: int
    module: str
    fromlist: tuple[str, ...]
    returns: str


@dataclass(slots=True)
class DynamicLoads:
    """What `dynamic_loads` found: `named` loads; `unresolved` sites that may load any module (each the
    read of importlib or `__import__`, or the call given the string `'__import__'`); `by_importlib` whether
    one of them reads importlib; `importlib_imports` the statements importing importlib or a part of it."""

    named: list[NamedLoad] = field(default_factory=list)
    unresolved: list[ast.AST] = field(default_factory=list)
    by_importlib: bool = False
    importlib_imports: list[ast.stmt] = field(default_factory=list)


def may_load_by_name(text: str) -> bool:
    """Whether a module's source text may hold a dynamic load at all (the cheap test before a parse)."""
    return (
        "importlib" in text
        or _DUNDER in text
        or "modules" in text
        or _RUNPY in text
        or _PKGUTIL in text
        or _PYDOC in text
        or "getmodule" in text
        or "getclosurevars" in text
        or "_globals" in text  # (`__globals__`, `f_globals`)
    )


def dynamic_loads(tree: ast.Module, package: str | None) -> DynamicLoads:
    """The dynamic loads of the module `tree` (module doc), each list in source order. package: the dotted package the module belongs to
    (`__package__`: for `pkg/__init__.py` and `pkg/mod.py` both "pkg"; "" for a top-level module), or None
    when not known (a relative name is then kept relative: `NamedLoad.level`)."""
    out = DynamicLoads()
    nodes, parents = _walk(tree)
    aliases = _importlib_aliases(nodes, out)
    constants = _module_constants(tree, nodes)
    others = _other_loader_aliases(nodes)
    for node in nodes:
        if isinstance(node, ast.Name) and node.id in aliases:
            _importlib_read(node, aliases[node.id], parents, constants, package, out)
        elif isinstance(node, ast.Name) and node.id in others and isinstance(node.ctx, ast.Load):
            _other_loader_read(node, others[node.id], parents, out)
        elif (isinstance(node, ast.Name) and node.id == _DUNDER) or (
            isinstance(node, ast.Attribute) and node.attr == _DUNDER
        ):
            _dunder_read(node, parents, constants, out)
        elif isinstance(node, ast.Attribute) and node.attr in _GLOBALS_ATTRIBUTES:
            out.unresolved.append(node)
        elif isinstance(node, ast.Constant) and node.value in _GLOBALS_ATTRIBUTES:
            up = parents.get(id(node))
            out.unresolved.append(up if isinstance(up, ast.Call) else node)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _DUNDER in node.value:
            up = parents.get(id(node))
            if not isinstance(up, ast.Expr):  # (a bare string, a docstring, runs nothing)
                out.unresolved.append(up if isinstance(up, ast.Call) else node)
    out.named.sort(key=lambda load: (load.node.lineno, load.node.col_offset))
    out.unresolved.sort(key=lambda node: (node.lineno, node.col_offset))
    return out


def _walk(tree: ast.Module) -> tuple[list[ast.AST], dict[int, ast.AST]]:
    """Every node of `tree` in `ast.walk`'s order, and each node's parent by id: one walk that the passes
    below share (walking the tree once per pass was most of the import graph's time on a large project)."""
    nodes: list[ast.AST] = []
    parents: dict[int, ast.AST] = {}
    todo = deque([tree])
    children = ast.iter_child_nodes
    while todo:
        node = todo.popleft()
        nodes.append(node)
        for child in children(node):
            parents[id(child)] = node
            todo.append(child)
    return nodes, parents


def resolve_name(name: str, package: str) -> str | None:
    """The absolute module of a relative `name` ('.x', '..y.z') in `package`, as `importlib.util.resolve_name`
    gives it; None when it climbs above the top-level package."""
    level = len(name) - len(name.lstrip("."))
    bits = package.rsplit(".", level - 1) if package else []
    if len(bits) < level or not package:
        return None
    rest = name[level:]
    return f"{bits[0]}.{rest}" if rest else bits[0]


def _importlib_aliases(nodes: list[ast.AST], out: DynamicLoads) -> dict[str, str]:
    """The names bound to importlib or a part of it anywhere in the module of `nodes` (`_walk`) -> what they
    are (`il` -> 'importlib', `import_module` -> 'importlib.import_module'); the import statements go to
    `out`."""
    aliases: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] != "importlib":
                    continue
                out.importlib_imports.append(node)
                if alias.asname:
                    aliases[alias.asname] = alias.name
                else:
                    aliases["importlib"] = "importlib"
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "importlib":
            out.importlib_imports.append(node)
            for alias in node.names:
                if alias.name == "*":
                    out.unresolved.append(node)  # (`from importlib import *`: import_module under its own name)
                    out.by_importlib = True
                    aliases["import_module"] = _IMPORT_MODULE
                    aliases[_DUNDER] = "importlib.__import__"
                else:
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


def _other_loader_aliases(nodes: list[ast.AST]) -> dict[str, str]:
    """The names bound to `sys`, `sys.modules`, runpy, pkgutil, pydoc or inspect (or a part of one) anywhere in
    the module of `nodes` (`_walk`) -> what they are (`import sys as s` -> 's': 'sys'; `from sys import modules`
    -> 'modules': 'sys.modules'; `from pkgutil import resolve_name as rn` -> 'rn': 'pkgutil.resolve_name')."""
    aliases: dict[str, str] = {}
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if alias.name == "sys" or top in _OTHER_LOADERS:
                    aliases[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module in ("sys", *_OTHER_LOADERS):
            for alias in node.names:
                if alias.name == "*":  # (the names it binds, read by their own names)
                    aliases.update(_STAR_BOUND.get(node.module, {}))
                elif node.module != "sys" or alias.name == "modules":
                    aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
    return aliases


# The loading names a star import of each module binds (`_other_loader_aliases`).
_STAR_BOUND = {
    "sys": {"modules": _SYS_MODULES},
    _RUNPY: {"run_module": _RUNPY, "run_path": _RUNPY},
    _PKGUTIL: {"resolve_name": "pkgutil.resolve_name", "get_loader": "pkgutil.get_loader",
               "find_loader": "pkgutil.find_loader", "get_importer": "pkgutil.get_importer"},
    _PYDOC: {"locate": "pydoc.locate", "safeimport": "pydoc.safeimport", "importfile": "pydoc.importfile"},
    _INSPECT: {"getmodule": "inspect.getmodule", "getclosurevars": "inspect.getclosurevars"},
}


def _other_loader_read(node: ast.Name, what: str, parents: dict, out: DynamicLoads) -> None:
    """One read of a name bound to `sys` or another loader (`_OTHER_LOADERS`): an unresolved site when it reads
    `sys.modules`, runpy, pydoc, pkgutil but its harmless parts, or inspect's `getmodule` / `getclosurevars`
    (`sys.argv`, `sys.path`, `pkgutil.extend_path`, `inspect.signature` are not loads)."""
    top: ast.expr = node
    while isinstance(up := parents.get(id(top)), ast.Attribute) and up.value is top:
        what, top = f"{what}.{up.attr}", up
        if what == _SYS_MODULES:
            break
    parts = what.split(".")
    if (
        what == _SYS_MODULES
        or what.startswith(_SYS_MODULES + ".")
        or parts[0] in (_RUNPY, _PYDOC)
        or (parts[0] == _PKGUTIL and not (len(parts) > 1 and parts[1] in _PKGUTIL_HARMLESS))
        or (parts[0] == _INSPECT and len(parts) > 1 and parts[1] in _INSPECT_LOADING)
    ):
        out.unresolved.append(top)


def _module_constants(tree: ast.Module, nodes: list[ast.AST]) -> dict[str, str]:
    """The module-level names bound once in the whole module (`tree`, whose nodes are `nodes`: `_walk`), by an
    assignment of a string literal (`CONFIG = "pkg.config"`); none when the module has a star import (it may
    rebind any name)."""
    bound: dict[str, int] = {}

    def bind(name: str) -> None:
        bound[name] = bound.get(name, 0) + 1

    for node in nodes:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bind(node.id)
        elif isinstance(node, ast.arg):
            bind(node.arg)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bind(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                if alias.name == "*":
                    return {}
                bind(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for name in node.names:
                bind(name)
                bind(name)  # (rebound elsewhere through the declaration: never a constant)
        elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
            bind(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            bind(node.rest)
    out = {}
    for statement in tree.body:
        target = value = None
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        if (
            isinstance(target, ast.Name)
            and bound.get(target.id) == 1
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
        ):
            out[target.id] = value.value
    return out


def _string(expr: ast.AST | None, constants: dict[str, str]) -> str | None:
    """The string `expr` is: a literal, or a module constant read by name."""
    if isinstance(expr, ast.Constant) and isinstance(expr.value, str):
        return expr.value
    if isinstance(expr, ast.Name) and isinstance(expr.ctx, ast.Load):
        return constants.get(expr.id)
    return None


def _dotted(name: str) -> bool:
    return bool(name) and all(part.isidentifier() for part in name.split("."))


def _importlib_read(
    node: ast.Name, what: str, parents: dict, constants: dict[str, str], package: str | None, out: DynamicLoads
) -> None:
    """One read of a name bound to importlib or a part of it: a named load, nothing, or an unresolved site."""
    if not isinstance(node.ctx, ast.Load):
        return  # (a rebinding of the name: its reads are read as importlib's all the same)
    top: ast.expr = node
    while isinstance(up := parents.get(id(top)), ast.Attribute) and up.value is top:
        what, top = f"{what}.{up.attr}", up
    if any(what == p or what.startswith(p + ".") for p in _NOT_LOADING):
        return
    if what.endswith("." + _DUNDER):
        return  # (the attribute `__import__` is read as every `__import__` is: `_dunder_read`)
    call = parents.get(id(top))
    called = isinstance(call, ast.Call) and call.func is top
    if what == _FIND_SPEC and called and _only_tested(call, parents):
        return
    if what == _IMPORT_MODULE and called:
        load = _import_module_call(call, constants, package)
        if load is not None:
            out.named.append(load)
            return
    out.unresolved.append(top)
    out.by_importlib = True


def _only_tested(call: ast.Call, parents: dict) -> bool:
    """Whether the value of `call` is only tested: compared, negated, or the test of an `if`, `while`, a
    conditional expression or an `assert`."""
    up = parents.get(id(call))
    if isinstance(up, ast.Compare) or (isinstance(up, ast.UnaryOp) and isinstance(up.op, ast.Not)):
        return True
    return isinstance(up, (ast.If, ast.While, ast.IfExp, ast.Assert)) and up.test is call


def _import_module_call(call: ast.Call, constants: dict[str, str], package: str | None) -> NamedLoad | None:
    """`import_module(name[, package])` as a `NamedLoad`, when its name (and the package of a relative one)
    is known."""
    args = {("name", "package")[i]: a for i, a in enumerate(call.args[:2])}
    if len(call.args) > 2 or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    for keyword in call.keywords:
        if keyword.arg not in ("name", "package") or keyword.arg in args:
            return None
        args[keyword.arg] = keyword.value
    name = _string(args.get("name"), constants)
    if name is None:
        return None
    if not name.startswith("."):
        return NamedLoad(call, 0, name, (), name) if _dotted(name) else None
    rest = name.lstrip(".")
    level = len(name) - len(rest)
    if rest and not _dotted(rest):
        return None
    given = args.get("package")
    if isinstance(given, ast.Name) and given.id == "__package__":
        if package is None:
            return NamedLoad(call, level, rest, (), "")
        anchor = package
    else:
        anchor = _string(given, constants)
        if not anchor or not _dotted(anchor):
            return None
    absolute = resolve_name(name, anchor)
    return NamedLoad(call, 0, absolute, (), absolute) if absolute else None


def _dunder_read(node: ast.expr, parents: dict, constants: dict[str, str], out: DynamicLoads) -> None:
    """One read of `__import__` (a name or an attribute): a named load when it is called as the module doc
    says, else an unresolved site."""
    call = parents.get(id(node))
    load = None
    if isinstance(call, ast.Call) and call.func is node and isinstance(node.ctx, ast.Load):
        load = _dunder_call(call, constants)
    if load is None:
        out.unresolved.append(node)
    else:
        out.named.append(load)


def _dunder_call(call: ast.Call, constants: dict[str, str]) -> NamedLoad | None:
    if len(call.args) > len(_DUNDER_PARAMS) or any(isinstance(a, ast.Starred) for a in call.args):
        return None
    args = dict(zip(_DUNDER_PARAMS, call.args))
    for keyword in call.keywords:
        if keyword.arg not in _DUNDER_PARAMS or keyword.arg in args:
            return None
        args[keyword.arg] = keyword.value
    name = _string(args.get("name"), constants)
    level = args.get("level")
    if name is None or not _dotted(name) or not (level is None or (isinstance(level, ast.Constant) and level.value == 0)):
        return None
    listed = args.get("fromlist")
    if listed is None or (isinstance(listed, ast.Constant) and listed.value in (None, ())):
        fromlist: tuple[str, ...] = ()
    elif isinstance(listed, (ast.Tuple, ast.List)):
        names = [_string(e, constants) for e in listed.elts]
        if not all(n is not None and (n == "*" or n.isidentifier()) for n in names):
            return None
        fromlist = tuple(n for n in names if n is not None)
    else:
        return None
    return NamedLoad(call, 0, name, fromlist, name if fromlist else name.split(".")[0])
