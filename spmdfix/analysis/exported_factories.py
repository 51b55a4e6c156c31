"""Module-level vmap factories that other modules of the project apply (breaker8, never silent).

`per_example = functools.partial(jax.vmap, spmd_axis_name=DATA)` in `pkg/utils.py`, and `step =
jax.jit(utils.per_example(block))` (or `@per_example` over a `def`, or `vec = utils.per_example; vec(block)`) in
`pkg/train.py`: the spmd vmap runs in `pkg/train.py`, whose text names neither `vmap` nor `spmd_axis_name` (the
prefilter drops it, as it must drop most modules of a codebase), and whose analysis would have to read the
factory's keyword in another module; `pkg/utils.py`'s own analysis sees no application. Both were silent while
JAX raises `vmap spmd_axis_name cannot appear in shard_map in_specs` (safety/trials/breaker8 t07; measured in
safety/measurements/factory_of_another_module.py). The analysis of the factory's module (kept: it writes the
factory) finds each read of the factory's name in the modules importing it (`importers.imported_uses`, within
a budget as `inherited_factories`) and records it as a place it does not follow (SPMD910), naming the read,
its module and line, and the factory; a place the search cannot read the module at (a star import,
`importlib`) is recorded the same way. Pure: the index reads.
"""

from __future__ import annotations

import ast

from spmdfix import jaxapi
from spmdfix.analysis.follow import VMAP_FACTORY, Follow
from spmdfix.analysis.importers import imported_uses, module_path
from spmdfix.analysis.module_model import ModuleModel
from spmdfix.analysis.uses import short
from spmdfix.analysis.vmap_sites import factory_of
from spmdfix.model import Span
from spmdfix.paths import relpath

# Importers read at most per factory (as `inherited_factories.SEARCH_BUDGET`).
SEARCH_BUDGET = 32


def applied_in_importers(model: ModuleModel) -> list[tuple[Span, Span, str]]:
    """(the factory, the read of its name in another module, why) for each read, in a module of the project
    importing it, of a module-level name of this module bound once to a vmap factory (`partial(jax.vmap,
    spmd_axis_name=...)`); past the search budget, one record at the factory saying its importers were not
    searched. [] without a project index, or when nobody listed the project's imports."""
    if model.project is None:
        return []
    ix = model.ix
    top = ix.module_scope
    out: list[tuple[Span, Span, str]] = []
    for stmt in ix.tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target, value = stmt.targets[0], stmt.value
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            target, value = stmt.target, stmt.value
        else:
            continue
        if not isinstance(target, ast.Name) or not isinstance(value, (ast.Call, ast.IfExp)):
            continue
        if ix.single_binding(target.id, top) is None or not _passes_spmd(value):
            continue  # (most module-level calls: no name resolved for them)
        if factory_of(model, value, top, Follow(VMAP_FACTORY)) is None:
            continue
        found = imported_uses(
            model.project.index, model, target.id, values=False, models={model.project.path: model},
            budget=SEARCH_BUDGET,
        )
        factory = f"the vmap factory `{target.id} = {short(value)}` (line {stmt.lineno})"
        if found is None:
            continue  # (no importers listed: a module checked outside a project listing)
        for importer, ends in found.reads:
            if importer.ix is ix:
                continue  # (this module's own reads: its analysis follows them, `vmap_sites`)
            for end in ends:
                what = (
                    f"`{short(end)}` in {relpath(importer.ix.path)} (line {end.lineno}) reads {factory} of "
                    f"{relpath(module_path(model))}: the spmd_axis_name it passes and the function it vmaps in another "
                    "module are not followed"
                )
                out.append((model.span(value), importer.ev.span(end), what))
        for use in found.sites:
            what = (
                f"{use.describe()} may reach {factory} of {relpath(module_path(model))}: the spmd_axis_name it passes and "
                "the function it vmaps there are not followed"
            )
            out.append((model.span(value), use.span, what))
    return out


def _passes_spmd(value: ast.AST) -> bool:
    """Whether a call in `value` passes the `spmd_axis_name=` keyword (a factory is written so)."""
    return any(
        isinstance(n, ast.Call) and any(k.arg == jaxapi.VMAP_SPMD_KEYWORD for k in n.keywords) for n in ast.walk(value)
    )
