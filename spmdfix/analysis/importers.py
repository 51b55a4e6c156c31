"""The uses of one module's top-level name in the other modules of the project (issue 20, cross-module safety).

A fix that edits a mesh built in `pkg/config.py` changes it for every module that imports it: each of those
uses must be on the same allowlist the module's own uses are judged by (`mesh_uses.MeshUses`). The project
index does not scan the project (it parses modules on demand); which modules import which module, and which
names, is given to it as data by the edge (`ProjectIndex(importers=...)`, from `spmdfix.project_graph`). Here,
for a module and one of its names, every module of the project that imports it is parsed (through the index)
and the places holding the value are found by scope (`uses.UseIndex.loads`):

- `from pkg.config import MESH [as M]` (at any scope): each read of that binding;
- `from pkg import config`, `import pkg.config [as c]`, `import pkg`: each `config.MESH` / `pkg.config.MESH`
  attribute read; another attribute of the module is another name; the module object itself read any other
  way (passed on, stored, `getattr(config, ...)`) may reach the name unseen: it is a use of its own, reported;
- a re-export (`MESH` imported at module level, or a module-level name whose value or body mentions it, as
  `MESH2 = MESH` or `def get_mesh(): return MESH`) is followed to the modules importing that name in turn;
- `from pkg.config import *` is reported at its statement, and so is a module that imports `importlib` and may
  load a module by name with it (any use but `importlib.metadata` / `importlib.resources` and an
  `importlib.import_module('other.module')` of a literal naming another module), at its `import importlib`;
  so is a read of the builtin `__import__` that may load it (any but `__import__('other')` of a literal whose
  top-level package is another), at that read; and an importer that cannot be read or parsed.

Code outside the project (installed consumers) is out of scope (docs/safety.md). Pure: the index reads.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from spmdfix import jaxapi
from spmdfix.analysis.bindings import BindingKind
from spmdfix.analysis.uses import Use
from spmdfix.model import Span
from spmdfix.paths import relpath

if TYPE_CHECKING:
    from spmdfix.analysis.index import ProjectIndex
    from spmdfix.analysis.module_model import ModuleModel

DYNAMIC = "<importlib>"  # the name the edge gives a module that imports `importlib`
MODULE = "<module>"  # the name the edge gives an import of the module itself


@dataclass(slots=True)
class ImportedUses:
    """Where one name's value is read in the modules importing it.

    reads: (the importing module's model, the expressions there holding the value), one entry per module;
    sites: places that may reach the value where the analysis does not look (a star import, `importlib`, the
    module object passed on, an unreadable importer), each a `Use` naming its module. closure: every module
    of the project importing the owner directly or not, whatever the names (arrays computed from the value may
    reach them through calls: `mesh_uses` judges their `.sharding.mesh` reads).
    """

    reads: list[tuple[ModuleModel, list[ast.expr]]] = field(default_factory=list)
    sites: list[Use] = field(default_factory=list)
    closure: list[ModuleModel] = field(default_factory=list)


def in_module(use: Use, path: str) -> Use:
    """`use` naming the module at `path` (how a reason says it is not in the finding's module)."""
    return replace(use, module=relpath(path))


def module_path(model: ModuleModel) -> str:
    """The absolute path of the module `model` models: the path its project link was made for (the module
    checked has no path of its own on its nodes), else its index's path ("" outside a project)."""
    return model.project.path if model.project is not None else model.ix.path


def imported_uses(
    index: ProjectIndex,
    owner: ModuleModel,
    name: str,
    *,
    values: bool = True,
    models: Mapping[str, ModuleModel] | None = None,
) -> ImportedUses | None:
    """The reads of `owner`'s top-level `name` in every module of the project that imports it, directly or
    through re-exports (module doc); None when the index was given no importers (nobody listed the
    project's imports: the caller keeps its own reason).

    values: `name` is a value whose module-level aliases (`_aliases`) carry it too, and whose importers'
    importers are gathered in `closure` (a mesh); False for a function, whose other names the caller's own
    follower finds (`analysis.callers`). models: the models to read some modules by (absolute path -> model:
    the module checked, whose nodes the caller's facts point into), instead of the index's."""
    out = ImportedUses()
    todo = [(owner, name)]
    seen: set[tuple[str, str]] = set()
    while todo:
        model, wanted = todo.pop()
        path = module_path(model)
        aliases = _aliases(model, wanted) if values else {wanted}
        for alias in aliases:
            seen.add((path, alias))
        importers = index.importers_of(path)
        if importers is None:
            return None
        module = index.module_name(path)[0]
        for importer, names in importers.items():
            loaded = (models or {}).get(importer) or _model(index, importer) if DYNAMIC in names else None
            loader = _dunder_import(loaded, module) if loaded is not None else None
            if loader is not None:
                out.sites.append(in_module(loaded.uses.use(loader), importer))
                continue
            if DYNAMIC in names and (loaded is None or _may_load(loaded, module)):
                out.sites.append(_statement_site(index, importer, "importlib", "imports `importlib`"))
                continue
            if not (aliases & names or MODULE in names or "*" in names):
                continue
            loaded = loaded or (models or {}).get(importer) or _model(index, importer)
            index.touch([importer])  # (a results cache keys the outcome by it too)
            if loaded is None:
                out.sites.append(in_module(Use(Span(0, 0, importer), 1, "(module not read or parsed)"), importer))
                continue
            found = _reads_in(loaded, importer, module, aliases, out)
            if found:
                out.reads.append((loaded, found))
            for alias in _reexports(loaded, module, aliases):
                if (importer, alias) not in seen:
                    todo.append((loaded, alias))
    if values and not _add_closure(index, module_path(owner), out):
        return None
    return out


def _model(index: ProjectIndex, path: str) -> ModuleModel | None:
    loaded = index.load(path)
    return loaded.model if loaded is not None else None


def importing_closure(index: ProjectIndex, path: str) -> ImportedUses | None:
    """The modules of the project importing the module at `path`, directly or not, in `closure` (an unreadable
    one in `sites`); None when some importers are not known."""
    out = ImportedUses()
    return out if _add_closure(index, path, out) else None


def _add_closure(index: ProjectIndex, path: str, out: ImportedUses) -> bool:
    """Add to `out.closure` the modules importing the module at `path`, directly or not (an unreadable one to
    `out.sites`); False when some importers are not known."""
    seen = {path}
    todo = [path]
    while todo:
        importers = index.importers_of(todo.pop())
        if importers is None:
            return False
        for importer in importers:
            if importer in seen:
                continue
            seen.add(importer)
            todo.append(importer)
            loaded = index.load(importer)
            index.touch([importer])
            if loaded is None:
                out.sites.append(in_module(Use(Span(0, 0, importer), 1, "(module not read or parsed)"), importer))
            else:
                out.closure.append(loaded.model)
    return True


def _aliases(model: ModuleModel, name: str) -> set[str]:
    """`name` and the module-level names of `model` that may carry its value to a module importing them: an
    assigned value or a class body mentioning one of them (`MESH2 = MESH`, `S = NamedSharding(MESH, ...)`), a
    function returning one (`def get_mesh(): return MESH`, `return NamedSharding(MESH, ...)`; a `return f(...,
    mesh=MESH)(x)` returns what the call computes, not the mesh). Their uses are judged as the value's own."""
    out = {name}
    scope = model.ix.module_scope
    grew = True
    while grew:
        grew = False
        for other, bindings in scope.bindings.items():
            if other in out:
                continue
            for b in bindings:
                if b.kind in (BindingKind.ASSIGN, BindingKind.CLASS) and _mentions(b.node, out):
                    out.add(other)
                    grew = True
                    break
                if b.kind is BindingKind.DEF and _returns(model, b.node, out):
                    out.add(other)
                    grew = True
                    break
    return out


def _mentions(node: ast.AST, names: set[str]) -> bool:
    return any(isinstance(n, ast.Name) and n.id in names for n in ast.walk(node))


def _returns(model: ModuleModel, func: ast.AST, names: set[str]) -> bool:
    """Whether a `return` or `yield` of `func` may give one of `names`: it is read there outside any call, or
    inside a call that keeps it (a `NamedSharding(...)`, a call the module does not know)."""
    ix = model.ix
    for node in ast.walk(func):
        if not (isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)) and node.value is not None):
            continue
        for name in ast.walk(node.value):
            if not (isinstance(name, ast.Name) and name.id in names):
                continue
            calls = []
            for a in ix.ancestors(name):
                if a is node:
                    break
                if isinstance(a, ast.Call):
                    calls.append(a)
            if not any(_consumes(ix, c, name) for c in calls):
                return True
    return False


def _consumes(ix, call: ast.Call, name: ast.Name) -> bool:
    """Whether `call` returns something other than its argument `name`: a JAX call other than a
    `NamedSharding`, or the call of a shard_map / jit built from it (`jax.shard_map(f, mesh=MESH)(x)`)."""
    func = call.func
    while isinstance(func, ast.Call):
        func = func.func
    qname = ix.qualname(func, ix.scope_at(call)) or ""
    return qname.startswith("jax.") and qname not in jaxapi.NAMED_SHARDING_NAMES


def _reexports(model: ModuleModel, module: str, aliases: set[str]) -> set[str]:
    """The module-level names of `model` bound by importing one of `aliases` from `module`."""
    return set(_module_reads(model, module, aliases)[2])


def _reads_in(model: ModuleModel, path: str, module: str, aliases: set[str], out: ImportedUses) -> list[ast.expr]:
    """The expressions of `model` (the module at `path`) holding one of `module`'s `aliases`; star imports of
    `module` and reads of the module object that may reach them unseen are added to `out.sites`."""
    found, sites, _ = _module_reads(model, module, aliases)
    out.sites += [in_module(model.uses.use(node), path) for node in sites]
    return list(found)


_Reads = tuple[tuple[ast.expr, ...], tuple[ast.expr, ...], frozenset[str]]


def _module_reads(model: ModuleModel, module: str, aliases: set[str]) -> _Reads:
    """(the expressions of `model` holding one of `module`'s `aliases`, in source order; the nodes that may
    reach them unseen (star imports of `module`, module objects taken whole), in the order found; the
    module-level names bound by importing one of them): a function of the module's text alone, derived once
    per `ModuleIndex` (`ModuleIndex.derived`; the cross-module judgement asks it of every module importing a
    mesh, in each project index, and a language server builds an index per edit of a document)."""
    key = ("importers.reads", module, frozenset(aliases))
    kept = model.ix.derived.get(key)
    if kept is None:
        kept = model.ix.derived[key] = _find_reads(model, module, aliases)
    return kept  # type: ignore[return-value]


def _find_reads(model: ModuleModel, module: str, aliases: set[str]) -> _Reads:
    """`_module_reads`, walked."""
    ix = model.ix
    found: list[ast.expr] = []
    sites: list[ast.expr] = []
    qnames = {f"{module}.{a}" for a in aliases}
    for node in ix.star_imports():
        if _star_base(ix, node) == module:
            sites.append(node)
    for scope in {id(s): s for s in ix.scope_by_node.values()}.values():
        for bindings in scope.bindings.values():
            for b in bindings:
                if b.kind is not BindingKind.IMPORT or not b.qname:
                    continue
                if b.qname in qnames:
                    found += model.uses.loads(b)
                elif module == b.qname or module.startswith(b.qname + "."):
                    rest = module[len(b.qname) :].lstrip(".").split(".") if module != b.qname else []
                    for load in model.uses.loads(b):
                        _attribute_read(model, load, rest, aliases, found, sites)
    reexports = frozenset(
        bound
        for bound, bindings in ix.module_scope.bindings.items()
        if any(b.kind is BindingKind.IMPORT and b.qname in qnames for b in bindings)
    )
    return tuple(sorted(found, key=lambda n: (n.lineno, n.col_offset))), tuple(sites), reexports


def _attribute_read(
    model: ModuleModel, load: ast.expr, rest: list[str], aliases: set[str], found: list, sites: list
) -> None:
    """One read of a module object (`config`, `pkg` of `import pkg.config`): `pkg.config.MESH` holds the value;
    `pkg.other`, `config.DATA` do not; the module object taken whole before the name is reached may (added to
    `sites`)."""
    node: ast.expr = load
    for part in rest:
        up = model.ix.parent.get(id(node))
        if not (isinstance(up, ast.Attribute) and up.value is node):
            sites.append(node)
            return
        if up.attr != part:
            return
        node = up
    up = model.ix.parent.get(id(node))
    if not (isinstance(up, ast.Attribute) and up.value is node):
        sites.append(node)
    elif up.attr in aliases:
        found.append(up)


def _star_base(ix, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    parts = ix.package.split(".") if ix.package else []
    if node.level - 1 > len(parts):
        return ""
    base = parts[: len(parts) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


# importlib's parts that read package data, never a module: `importlib.metadata.version("jax")`.
_NOT_LOADING = ("importlib.metadata", "importlib.resources")
_IMPORT_MODULE = "importlib.import_module"


def _may_load(model: ModuleModel, module: str) -> bool:
    """Whether some use of `importlib` in `model` may load `module` by name: False when every use is of
    `importlib.metadata` / `importlib.resources` or an `importlib.import_module` of a string literal naming
    another module (absolute: neither `module` nor a package above it); any other use (another loader, a name
    not written as a literal, the module object passed on) may."""
    for scope in {id(s): s for s in model.ix.scope_by_node.values()}.values():
        for bindings in scope.bindings.values():
            for b in bindings:
                if b.kind is not BindingKind.IMPORT or not (b.qname == "importlib" or (b.qname or "").startswith("importlib.")):
                    continue
                for load in model.uses.loads(b):
                    node: ast.expr = load
                    while isinstance(up := model.ix.parent.get(id(node)), ast.Attribute) and up.value is node:
                        node = up
                    qname = model.ix.qualname(node, model.ix.scope_at(node)) or ""
                    if any(qname == p or qname.startswith(p + ".") for p in _NOT_LOADING):
                        continue
                    call = model.ix.parent.get(id(node))
                    if qname == _IMPORT_MODULE and isinstance(call, ast.Call) and call.func is node and _other_module(call, module):
                        continue
                    return True
    return False


def _dunder_import(model: ModuleModel, module: str) -> ast.expr | None:
    """The first read of the builtin `__import__` in `model` (`__import__`, `builtins.__import__`, a call given
    the string `'__import__'`, as `getattr(builtins, '__import__')`) that may load `module`: any but a call `__import__('name')` of one literal whose top-level package is not `module`'s
    (the call returns that top-level package, through which every loaded module of it is reachable)."""
    top = module.split(".")[0]
    for node in ast.walk(model.ix.tree):
        if isinstance(node, ast.Call) and any(isinstance(a, ast.Constant) and a.value == "__import__" for a in node.args):
            return node  # (`getattr(builtins, '__import__')`)
        named = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
        if named != "__import__":
            continue
        call = model.ix.parent.get(id(node))
        if isinstance(call, ast.Call) and call.func is node and len(call.args) == 1 and not call.keywords:
            name = call.args[0].value if isinstance(call.args[0], ast.Constant) else None
            if isinstance(name, str) and name and not name.startswith(".") and name.split(".")[0] != top:
                continue
        return node
    return None


def _other_module(call: ast.Call, module: str) -> bool:
    """`import_module('name')` with an absolute literal name that is neither `module` nor a package above it."""
    if len(call.args) != 1 or call.keywords or not isinstance(call.args[0], ast.Constant):
        return False
    name = call.args[0].value
    if not isinstance(name, str) or not name or name.startswith("."):
        return False
    return name != module and not module.startswith(name + ".")


def _statement_site(index: ProjectIndex, path: str, module: str, what: str) -> Use:
    """The import of `module` in the module at `path`, as a `Use` (the statement's text; `what` at its first
    line when the module cannot be read)."""
    loaded = index.load(path)
    if loaded is not None:
        for node in ast.walk(loaded.model.ix.tree):
            names = node.names if isinstance(node, ast.Import) else ()
            base = node.module if isinstance(node, ast.ImportFrom) else None
            if base == module or any(a.name == module or a.name.startswith(module + ".") for a in names):
                return in_module(loaded.model.uses.use(node), path)
    return in_module(Use(Span(0, 0, path), 1, what), path)
