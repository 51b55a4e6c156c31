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
import bisect

from spmdfix import jaxapi
from spmdfix.analysis.calls import returns
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
    """(the factory, the read in another module, why) for each read, in a module of the project importing it,
    of a module-level name of this module that hands out a vmap factory (`partial(jax.vmap,
    spmd_axis_name=...)`, `_held_factories`): a name bound once to one; a dict, list or tuple display holding
    one (`VMAPS = {"data": partial(...)}`); a `def` returning one (`def per_example(): return partial(...)`);
    a class whose body binds one (`class B: vec = partial(...)`, read as `B.vec`). [] without a project index;
    nothing for a name whose importers were not listed (a module checked outside a project listing) or past
    the search budget (as `inherited_factories`)."""
    if model.project is None:
        return []
    ix = model.ix
    out: list[tuple[Span, Span, str]] = []
    for name, value, attr, line in _held_factories(model):
        found = imported_uses(
            model.project.index, model, name, values=False, models={model.project.path: model},
            budget=SEARCH_BUDGET,
        )
        if found is None:
            continue  # (no importers listed, or past the budget)
        held = f"`{name}.{attr}`" if attr else f"`{name}`"
        factory = f"the vmap factory `{short(value)}` that {held} holds (line {line})"
        for importer, ends in found.reads:
            if importer.ix is ix:
                continue  # (this module's own reads: its analysis follows them, `vmap_sites`)
            for end in ends:
                if attr is not None:
                    up = importer.ix.parent.get(id(end))
                    if not (isinstance(up, ast.Attribute) and up.value is end and up.attr == attr):
                        continue  # (the class read for something else than the factory)
                    end = up
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


def _held_factories(model: ModuleModel) -> list[tuple[str, ast.AST, str | None, int]]:
    """(module-level name, the vmap factory it hands out, the class attribute holding it or None, line) for each
    module-level name of `model` bound once that hands out a vmap factory (`applied_in_importers`). The
    factory's text is asked first (`_passes_spmd`): most statements of a module hold none."""
    ix = model.ix
    top = ix.module_scope
    out: list[tuple[str, ast.AST, str | None, int]] = []
    # (only the statements whose lines hold the keyword's word can pass it: `_passes_spmd` asks for the keyword
    # written out; every importer of a module analysed in a language server's edit asked this of every `def`)
    keyword_lines = _lines_holding(ix, jaxapi.VMAP_SPMD_KEYWORD)
    if not keyword_lines:
        return out

    def factories(values: list[ast.AST], scope) -> list[ast.AST]:
        found = []
        for value in values:
            items = value.values if isinstance(value, ast.Dict) else value.elts if isinstance(value, (ast.List, ast.Tuple)) else [value]
            for item in items:
                held = isinstance(item, (ast.Call, ast.IfExp)) and _passes_spmd(item)
                if held and factory_of(model, item, scope, Follow(VMAP_FACTORY)) is not None:
                    found.append(item)
        return found

    for stmt in ix.tree.body:
        if not _holds_line(stmt, keyword_lines):
            continue
        if isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            if len(targets) != 1 or not isinstance(targets[0], ast.Name) or stmt.value is None:
                continue
            name, values, scope = targets[0].id, [stmt.value], top
        elif isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            returned = returns(stmt)
            inner = ix.own_scope(stmt)
            if not returned or inner is None:
                continue
            name, values, scope = stmt.name, returned, inner
        elif isinstance(stmt, ast.ClassDef):
            inner = ix.own_scope(stmt)
            if inner is None or ix.single_binding(stmt.name, top) is None:
                continue
            for item in stmt.body:
                if isinstance(item, ast.Assign) and len(item.targets) == 1 and isinstance(item.targets[0], ast.Name):
                    for value in factories([item.value], inner):
                        out.append((stmt.name, value, item.targets[0].id, item.lineno))
            continue
        else:
            continue
        if not _passes_spmd(stmt) or ix.single_binding(name, top) is None:
            continue
        for value in factories(values, scope):
            out.append((name, value, None, value.lineno))
    return out


def _lines_holding(ix, word: str) -> list[int]:
    """The numbers (from 1, as `ast` counts them: the module's `LineIndex`, which ends lines where Python
    does) of the lines of the module `ix` holding `word`, in order."""
    lines: list[int] = []
    start = ix.source.find(word)
    while start >= 0:
        lines.append(ix.lines.line_of(start) + 1)
        start = ix.source.find(word, start + len(word))
    return lines


def _holds_line(stmt: ast.stmt, lines: list[int]) -> bool:
    """Whether one of `lines` (sorted) lies within `stmt`, its decorators included."""
    first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
    k = bisect.bisect_left(lines, first)
    return k < len(lines) and lines[k] <= (stmt.end_lineno or stmt.lineno)


def _passes_spmd(value: ast.AST) -> bool:
    """Whether a call in `value` passes the `spmd_axis_name=` keyword (a factory is written so)."""
    return any(
        isinstance(n, ast.Call) and any(k.arg == jaxapi.VMAP_SPMD_KEYWORD for k in n.keywords) for n in ast.walk(value)
    )
