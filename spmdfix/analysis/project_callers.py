"""Who runs a shard_map from the other modules of the project (issue 20, cross-module safety of the fixes that
edit a shard_map: strip, lift-captures, disable-check-vma, an `axis_names` append).

Inside one module `analysis.callers.OtherCallers` finds the places that run a shard_map without the vmap the
finding is about. The function holding it can leave its module by a module-level name (`def layer`, a class
whose `__call__` runs it, `step = jax.jit(layer)`, a factory `def make(): return jax.shard_map(...)`): the
walk records each as an exit, `(module path, name, factory)`. Here every exit is searched in every module of
the project importing it (`analysis.importers.imported_uses`, which gives the reads: `from m import layer`,
`m.layer`, re-exports; and the sites that may reach it unseen: `from m import *`, the module object read whole
or passed to `getattr`, `importlib`, an importer that cannot be read); each importer's reads go to that
module's own `OtherCallers.from_reads`, with the same allowlist: the vmap site itself and reads inside
functions the vmapped callable traces (followed on), and nothing else (a direct call, the function stored in a
container or passed as an argument are places of their own). The exits an importer's walk takes are searched
in turn.

Which module is under the vmap: the module asking (`here`) knows the functions its vmapped callable traces and,
when the vmap is in it, the vmap's node. A summary of another module's callable (`analyzer.summary_of`) asks
with no vmap node and keeps its own module's exits for the module importing that callable, which knows how it
is reached; the module holding the vmap searches everything left. A module the walk cannot place under the
vmap is judged as not under it (unsafe, never safe). Pure: the index reads.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from spmdfix.analysis.callers import OtherCallers
from spmdfix.analysis.importers import (
    UNKNOWN_GRAPH,
    imported_uses,
    in_module,
    module_path,
)
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.paths import relpath

Exit = tuple[str, str, bool]  # (absolute path of a module, a module-level name of it, calling it returns the callable)


def exits_of(model: ModuleModel, callers: OtherCallers) -> tuple[Exit, ...]:
    """The exits `callers`' last walk over `model` took, as `Exit`s (nothing outside a project: no module
    can import a module that is not in one)."""
    path = module_path(model)
    if model.project is None or not path:
        return ()
    return tuple((path, name, factory) for name, factory in callers.exits)


def search_exits(
    model: ModuleModel,
    exits: Iterable[Exit],
    traced: frozenset[int],
    root: ast.AST | None,
    keep_own: bool,
) -> tuple[list[str], tuple[Exit, ...], set[str]]:
    """The places of the project that run a shard_map through `exits` without the vmap, as a reason names
    them (`\\`step(x)\\` (pkg/eval.py line 7)`), in the order found; the exits of `model`'s own module kept for
    later when `keep_own`; and the paths of the modules read for it.

    model: the module asking (`here`: module doc); traced, root: its vmapped callable's traced functions (ids of
    `model`'s nodes) and the vmap's node (None when the vmap is in another module). Without a project index,
    or when the index knows no complete import graph, an exit's importers are not known: that is said as a
    place of its own."""
    here = module_path(model)
    project = model.project
    places: list[str] = []
    kept: list[Exit] = []
    read: set[str] = set()
    todo = list(exits)
    seen: set[Exit] = set()
    while todo:
        exit_ = todo.pop(0)
        if exit_ in seen:
            continue
        seen.add(exit_)
        path, name, factory = exit_
        if keep_own and path == here:
            kept.append(exit_)
            continue
        owner = model if path == here else _load(project, path)
        if owner is None:
            places.append(f"`{name}` of {relpath(path)} (module not read or parsed)")
            continue
        found = imported_uses(project.index, owner, name, values=False, models={here: model}) if project else None
        if found is None:
            why = project.index.importers_unknown_why() if project is not None else UNKNOWN_GRAPH
            places.append(f"the modules that may import `{name}` of {relpath(path)} ({why}: not searched)")
            continue
        places += [u.describe() for u in found.sites]
        for importer, ends in found.reads:
            where = module_path(importer)
            read.add(where)
            described, further = _importer_places(project, exit_, importer, ends, here, traced, root)
            places += described
            todo += further
    return places, tuple(kept), read


def _importer_places(
    project, exit_: Exit, importer: ModuleModel, ends: list[ast.expr], here: str, traced: frozenset[int], root
) -> tuple[list[str], tuple[Exit, ...]]:
    """The places `importer`'s `ends` (its reads of `exit_`) run the shard_map without the vmap, described, and
    the exits its walk took. The importer asking (`here`) walks with its vmapped callable's traced functions;
    any other walks with none, the same walk whichever module asks: that answer is kept per index
    (`ProjectIndex.kept`), as each of a module's importers holding a vmap of it (the benchmark project's
    eleven, in a language server's every edit) asked the same search of all the others."""
    where = module_path(importer)
    mine = where == here

    def walk() -> tuple[list[str], tuple[Exit, ...]]:
        callers = OtherCallers(importer)
        uses = callers.from_reads(ends, exit_[2], traced if mine else frozenset(), root if mine else None)
        return [in_module(u, where, importer).describe() for u in uses], exits_of(importer, callers)

    if mine or project is None:
        return walk()
    # (kept with what the walk read of the index, replayed for a results cache's recording: `ProjectIndex.kept`;
    # an importer may read the exit along two paths, `from m import f` and `m.f`: its reads are part of the key,
    # nodes of the importer's model, which the index keeps)
    return project.index.kept(("project_callers.importer_places", exit_, where, tuple(map(id, ends))), walk)


def _load(project, path: str) -> ModuleModel | None:
    if project is None:
        return None
    loaded = project.index.load(path)
    return loaded.model if loaded is not None else None
